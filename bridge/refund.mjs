// @ts-check
// `surplus-lines-mcp refund`: the prepaid channel's rest back to the payer, by the official client's cooperative
// refund (@x402/evm's batch-settlement `refund`), sent to a priced route of the same service: any priced route names
// the same channel (payee, asset, authorizer), and the refund asks for no answer. Held under the state lock, so a
// running bridge is not paying from the channel at that moment.
import { formatUsd } from './usd.mjs';

/** A priced route that needs no argument: the refund is sent there (the service's REST twin of its MCP tools). */
const REFUND_ROUTE = '/v1/enforcement';

/**
 * @param {object} deps
 * @param {import('./wallet.mjs').Wallet} deps.wallet
 * @param {ReturnType<typeof import('./ledger.mjs').ledger>} deps.ledger
 * @param {ReturnType<typeof import('./state-lock.mjs').stateLock>} deps.lock
 * @param {URL} deps.url the remote /mcp
 * @returns {Promise<string>} the line to print
 */
export async function refundChannel({ wallet, ledger, lock, url }) {
  return lock.run(async () => {
    const { channelId } = ledger.read();
    const before = channelId ? await wallet.channel(channelId) : null;
    const receipt = await wallet.batch.refund(new URL(REFUND_ROUTE, url).href);
    if (!receipt.success) throw new Error(`the server refused the refund: ${receipt.errorReason ?? 'no reason given'}`);
    const rest =
      before && before.balance > before.charged
        ? ` (${formatUsd(before.balance - before.charged)} USD was unspent in the channel)`
        : '';
    return `refunded channel ${channelId ?? '(recovered from the chain)'} to ${wallet.address}${rest}: transaction ${receipt.transaction}`;
  });
}
