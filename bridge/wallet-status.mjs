// @ts-check
// The bridge's one tool of its own, `wallet_status`: what it has spent against its budget, what it deposited, the
// prepaid channel's deposited balance and charged total as the state directory keeps them, and the payer's address.
// Answered locally, free; amounts are USD as decimal text (exact: never a float).
import { formatUsd } from './usd.mjs';

/** @type {import('@modelcontextprotocol/server').Tool} */
export const WALLET_STATUS_TOOL = {
  name: 'wallet_status',
  description:
    "This bridge's wallet, free: spent_usd against budget_usd (what the server charged from this state directory), deposit_usd (deposited into the prepaid channel; not spent until charged), the channel's balance and charged total, and the payer's address. Amounts are USD as decimal text.",
  inputSchema: { type: 'object', properties: {} },
  outputSchema: {
    type: 'object',
    properties: {
      payer: { type: 'string' },
      network: { type: 'string' },
      spent_usd: { type: 'string' },
      budget_usd: { type: 'string' },
      deposit_usd: { type: 'string' },
      max_deposit_usd: { type: 'string' },
      channel_id: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      channel_balance_usd: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      channel_charged_usd: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: [
      'payer',
      'network',
      'spent_usd',
      'budget_usd',
      'deposit_usd',
      'max_deposit_usd',
      'channel_id',
      'channel_balance_usd',
      'channel_charged_usd',
    ],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/**
 * @param {object} deps
 * @param {import('./wallet.mjs').Wallet} deps.wallet
 * @param {ReturnType<typeof import('./ledger.mjs').ledger>} deps.ledger
 * @param {import('./options.mjs').Options} deps.options
 * @returns {Promise<import('@modelcontextprotocol/server').CallToolResult>}
 */
export async function walletStatus({ wallet, ledger, options }) {
  const spending = ledger.read();
  const channel = spending.channelId ? await wallet.channel(spending.channelId) : null;
  const status = {
    payer: wallet.address,
    network: options.network,
    spent_usd: formatUsd(spending.spent),
    budget_usd: formatUsd(options.budget),
    deposit_usd: formatUsd(spending.deposited),
    max_deposit_usd: formatUsd(options.maxDeposit),
    channel_id: spending.channelId,
    channel_balance_usd: channel ? formatUsd(channel.balance) : null,
    channel_charged_usd: channel ? formatUsd(channel.charged) : null,
  };
  const text = `payer ${status.payer} on ${status.network}: ${status.spent_usd} of ${status.budget_usd} USD spent; ${status.deposit_usd} USD deposited (at most ${status.max_deposit_usd} a deposit)${channel ? `; channel ${status.channel_id}: balance ${status.channel_balance_usd} USD, charged ${status.channel_charged_usd} USD` : '; no prepaid channel yet'}`;
  return { content: [{ type: 'text', text }], structuredContent: status };
}
