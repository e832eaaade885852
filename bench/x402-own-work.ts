// The x402 gate's own work, timed in this process (dispatch, no socket) on the same shards as the servers: a 402, a
// paid request whose facilitator is a MOCK answering at once (to isolate this service's code from the facilitator's),
// and the gate-off answer.
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { dispatch } from '../api/dispatch.ts';
import { installGate } from '../api/payment/configured.ts';
import { createGate } from '../api/payment/gate.ts';
import { paymentSettings } from '../api/payment/settings.ts';
import { readShardsFrom } from '../api/store.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import { NETWORK, payerClient } from '../tests/support/chain.ts';
import { OWN_N, PREMIUM } from './x402-config.ts';
import { median } from './stats.ts';

/**
 * Median ms of the gate's own work on PREMIUM, in this process: 402, paid (MOCK facilitator answering at once), gate
 * off.
 */
export async function gateOwnWork(
  shards: string,
  payTo: string,
): Promise<{ challenge: number; paid: number; off: number }> {
  const restore = readShardsFrom(shards);
  const settings = paymentSettings({
    X402_PAY_TO: payTo,
    X402_NETWORK: NETWORK,
    X402_FACILITATOR_URL: 'http://127.0.0.1:9',
  })!;
  const payer = (p: { payload: { authorization: { from: string } } }) => p.payload.authorization.from;
  const instantMock = {
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: 'exact', network: NETWORK }],
      extensions: ['bazaar'],
      signers: {},
    }),
    verify: async (p: never) => ({ isValid: true, payer: payer(p) }),
    settle: async (p: never) => ({
      success: true,
      transaction: `0x${'1'.repeat(64)}`,
      network: NETWORK,
      payer: payer(p),
    }),
  };
  const url = `http://localhost${PREMIUM}`;
  const timeEach = async (status: number, request: (i: number) => Request): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < OWN_N + 50; i++) {
      const t = performance.now();
      const res = await dispatch(request(i));
      if (i >= 50) times.push(performance.now() - t);
      if (res.status !== status) throw new Error(`in process: ${res.status}, expected ${status}`);
    }
    return median(times);
  };
  try {
    installGate(createGate(settings, instantMock, ROUTE_CONTRACTS));
    const challenge = await timeEach(402, () => new Request(url));
    const required = decodePaymentRequiredHeader((await dispatch(new Request(url))).headers['payment-required']);
    const client = payerClient('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const signatures: string[] = [];
    for (let i = 0; i < OWN_N + 50; i++)
      signatures.push(encodePaymentSignatureHeader(await client.createPaymentPayload(required)));
    const paid = await timeEach(200, (i) => new Request(url, { headers: { 'PAYMENT-SIGNATURE': signatures[i] } }));
    installGate(null);
    const off = await timeEach(200, () => new Request(url));
    return { challenge, paid, off };
  } finally {
    installGate(undefined);
    restore();
  }
}
