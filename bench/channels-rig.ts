// The in-process rig of the channel benchmark: a gate built as the server builds it, on a channel of its own, with
// the steps of a voucher's paid path reachable one by one.
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { type FacilitatorClient, x402ResourceServer } from '@x402/core/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { N, PREMIUM, PRICE, STEP_N, STEP_WARMUP, WARMUP } from './channels-config.ts';
import { batchOffer, expectVoucherPaid, openChannel, presign, receiptOf, textOf } from './channels-payer.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import { dispatch } from '../api/dispatch.ts';
import { callHandler } from '../tests/support/handlers.ts';
import { readShardsFrom } from '../api/store.ts';
import { batchPart } from '../api/payment/batch.ts';
import { ChannelJournal } from '../api/payment/channel-journal.ts';
import { installGate } from '../api/payment/configured.ts';
import { exactPart } from '../api/payment/exact.ts';
import { createGate } from '../api/payment/gate.ts';
import { memorySetAside } from '../api/payment/set-aside.ts';
import { paymentSettings } from '../api/payment/settings.ts';
import { type LocalChain, NETWORK } from '../tests/support/chain.ts';

/** The chain's facilitator in process, counting its calls (a voucher must make none). */
function countedFacilitator(inner: FacilitatorClient): FacilitatorClient & { calls(): number } {
  let calls = 0;
  return {
    getSupported: () => inner.getSupported(),
    verify: (p, r) => (calls++, inner.verify(p, r)),
    settle: (p, r) => (calls++, inner.settle(p, r)),
    calls: () => calls,
  };
}

/**
 * The voucher path in this process, on a channel of its own: a gate built as the server builds it (a channel
 * journal in a temp dir, the chain's facilitator in process, which vouchers never call), and a resource server as
 * the gate builds its own, for the steps the gate runs inside one call. Used by the step table, by the signature
 * check timed alone (its channel's key and config) and, between the HTTP requests, to time the scheme's check alone
 * in the same rounds as the requests.
 */
export async function openRig(chain: LocalChain, shards: string, facilitatorUrl: string, dir: string) {
  const restore = readShardsFrom(shards);
  const journal = ChannelJournal.open(dir);
  const settings = paymentSettings({
    X402_PAY_TO: chain.payee,
    X402_NETWORK: NETWORK,
    X402_FACILITATOR_URL: facilitatorUrl,
    X402_CHANNELS_DIR: dir,
  })!;
  const facilitator = countedFacilitator(chain.facilitator);
  const gate = createGate(settings, facilitator, ROUTE_CONTRACTS, { channels: journal });
  const url = `http://localhost${PREMIUM}`;
  const inProcess: typeof globalThis.fetch = callHandler;
  const close = () => {
    installGate(undefined);
    journal.close();
    restore();
  };
  try {
    installGate(null);
    const reference = textOf(await dispatch(new Request(url)));
    installGate(gate);
    const channel = await openChannel(chain, 'http://localhost', inProcess, reference);
    installGate(undefined);
    const callsBefore = facilitator.calls();

    // exact registered first, Bazaar, the facilitator's support read, then the channels: as api/payment/offers.ts does.
    const batch = batchPart(settings, journal, memorySetAside());
    const server = new x402ResourceServer(facilitator).register(settings.network, exactPart(settings).server);
    server.registerExtension(bazaarResourceServerExtension);
    await server.initialize();
    server.register(settings.network, batch.server);
    const offered = channel.required;
    const declared = offered.extensions ?? {};
    const matching = batchOffer(offered);

    // The step table spends two vouchers a round (the record's and the whole request's), the HTTP rounds one (the whole
    // request's), in whatever order a round runs: the next one is always the one for the channel's charged total + the
    // price, from headers signed beforehand. The check alone spends none: its reservation is released.
    const first = channel.charged;
    const vouchers = await presign(channel, first, 2 * (STEP_WARMUP + STEP_N) + (WARMUP + N) + 2);
    const rig = {
      gate,
      channel,
      url,
      reference,
      server,
      batch,
      offered,
      declared,
      matching,
      charged: first,
      nextHeader: () => vouchers[Number((rig.charged - first) / PRICE)],
      facilitatorCalls: () => facilitator.calls() - callsBefore,
      /**
       * The whole paid request in process (dispatch, no socket) on the next voucher, or the same with the gate off;
       * timed to the body read.
       */
      async request(paid: boolean): Promise<number> {
        installGate(paid ? gate : null);
        const request = new Request(url, paid ? { headers: { 'PAYMENT-SIGNATURE': rig.nextHeader() } } : {});
        const t = performance.now();
        const res = await dispatch(request);
        const text = textOf(res);
        const elapsed = performance.now() - t;
        installGate(undefined);
        if (!paid) {
          if (res.status !== 200 || text !== reference)
            throw new Error(`in process, gate off: ${res.status}, or another body`);
          return elapsed;
        }
        expectVoucherPaid('in process, voucher', res.status, text, receiptOf(res), rig.charged + PRICE, reference);
        rig.charged += PRICE;
        return elapsed;
      },
      /**
       * The scheme's check (with the project's voucher check in it) on the next voucher, timed alone; its reservation
       * released after (untimed).
       */
      async checkAlone(): Promise<number> {
        const payload = decodePaymentSignatureHeader(rig.nextHeader());
        const t = performance.now();
        const verified = await server.verifyPayment(payload, matching, declared);
        const elapsed = performance.now() - t;
        if (!verified.isValid) throw new Error(`the scheme's check refused the voucher: ${verified.invalidReason}`);
        await server
          .createPaymentCancellationDispatcher(payload, matching, declared)
          .cancel({ reason: 'handler_failed' });
        return elapsed;
      },
      close,
    };
    return rig;
  } catch (e) {
    close();
    throw e;
  }
}
export type Rig = Awaited<ReturnType<typeof openRig>>;
