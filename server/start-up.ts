// What the server checks before it listens, each stopping it with the reason: the payment gate's settings
// (naming the variable), the payment stack itself when the gate is on (a channel directory another server
// holds, or a damaged one), and the shards against their manifest (serving a damaged build would answer some
// queries wrongly). With the gate on, prepaid channels' vouchers are then claimed on a schedule (docs/design.md §13).
import { closePaymentStores, configuredGate, configuredSettings } from '../api/payment/configured.ts';
import { checkShards, shardsDir } from '../api/store.ts';

export type PaymentSettings = Awaited<ReturnType<typeof configuredSettings>>;

/** Stops the server before it listens, saying why. */
function refuseToStart(what: string, problems: string[]): never {
  console.error(`${what}:`);
  for (const p of problems.slice(0, 50)) console.error(`  ${p}`);
  if (problems.length > 50) console.error(`  ... and ${problems.length - 50} more`);
  process.exit(1);
}

export interface Started {
  payment: PaymentSettings;
  /**
   * At shutdown: vouchers held are claimed (a claim that fails is logged; they stay on disk or in Redis), the payment
   * stores closed.
   */
  stop(): Promise<void>;
}

export async function startUp(): Promise<Started> {
  let payment: PaymentSettings;
  try {
    payment = await configuredSettings();
  } catch (e) {
    refuseToStart('Payment gate', [(e as Error).message]);
  }
  // A long-lived server has no cold start to spare: with the gate on, the payment stack is loaded now.
  let claims: { stop(): Promise<void> } | null = null;
  if (payment) {
    const settings = payment;
    try {
      const gate = (await configuredGate())!;
      const { claimGateChannels, claimSchedule } = await import('../api/payment/claims.ts');
      claims = claimSchedule(() => claimGateChannels(gate, settings), settings.channels.claimIntervalS);
    } catch (e) {
      refuseToStart('Payment gate', [(e as Error).message]);
    }
  }
  const shardProblems = checkShards();
  if (shardProblems.length)
    refuseToStart(`Shards in ${shardsDir()} do not match their manifest (run the ingest)`, shardProblems);
  return {
    payment,
    stop: async () => {
      await claims?.stop();
      closePaymentStores();
    },
  };
}

/** The line that says, once listening, whether and how queries are paid for. */
export function paymentLine(payment: PaymentSettings): string {
  if (!payment) return 'Payment gate off (X402_PAY_TO unset): priced routes are free';
  const facilitator = payment.facilitator.kind === 'cdp' ? 'Coinbase CDP' : payment.facilitator.url;
  return (
    `Payment gate on: priced routes paid to ${payment.payTo} in ${payment.asset.address} on ` +
    `${payment.network}, facilitator ${facilitator}`
  );
}
