// Pays this service on the local chain of `npm run chain`, as an agent would, with x402's official client:
//   source .tmp/chain.env && node scripts/pay-local.mjs [exact|batch] [URL]
// (or RPC=... PAYER_KEY=... node scripts/pay-local.mjs ...). URL is a full URL; without it, /v1/premium?state=TX on
// the server `npm start` runs in the same environment: HOST and PORT as it has them (scripts/local-origin.mjs).
// `exact` signs one transfer per answer; `batch` (the default) deposits into a prepaid channel on the first payment
// and pays every later answer with a voucher. Says first which server it pays (on stderr: stdout is the answers),
// then prints each answer's status and receipt.
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { localOrigin } from './local-origin.mjs';

const [scheme = 'batch', url = `${localOrigin()}/v1/premium?state=TX`] = process.argv.slice(2);
console.error(`paying ${url} (${scheme})`);
const account = privateKeyToAccount(process.env.PAYER_KEY);
const chain = createPublicClient({ chain: base, transport: http(process.env.RPC) });
const client = new x402Client().register(
  'eip155:8453',
  scheme === 'exact' ? new ExactEvmScheme(account) : new BatchSettlementEvmScheme(toClientEvmSigner(account, chain)),
);
const pay = wrapFetchWithPayment(fetch, client);

for (let i = 0; i < 3; i++) {
  const res = await pay(url);
  const receipt = res.headers.get('PAYMENT-RESPONSE');
  const { transaction, extra } = receipt ? decodePaymentResponseHeader(receipt) : {};
  const charged = extra?.channelState?.chargedCumulativeAmount; // a channel's total charged so far
  console.log(
    [res.status, scheme, transaction || '(no transaction: a voucher)', ...(charged ? [charged] : [])].join(' '),
  );
}
