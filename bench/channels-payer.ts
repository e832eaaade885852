// A payer's channel as the channel benchmark drives it: opened by one paid call through the official client (its
// deposit), then paid by cumulative vouchers signed beforehand; and what a voucher-paid answer must be.
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client';
import { type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DECIMALS, DEPOSIT, PREMIUM, PRICE } from './channels-config.ts';
import { batchPayer } from '../tests/support/batch-client.ts';
import { type LocalChain, NETWORK } from '../tests/support/chain.ts';
import { type WireAnswer, bodyBytes } from '../api/wire-answer.ts';

export const chargedOf = (receipt: SettleResponse | null) =>
  BigInt(
    (receipt?.extra?.channelState as { chargedCumulativeAmount?: string } | undefined)?.chargedCumulativeAmount ?? -1,
  );
/** The receipt of an answer over HTTP (a Response), or of one in process (a wire answer: lower-case names). */
export const receiptOf = (res: Response | WireAnswer): SettleResponse | null => {
  const header = res instanceof Response ? res.headers.get('payment-response') : res.headers['payment-response'];
  return header ? decodePaymentResponseHeader(header) : null;
};
/** A wire answer's body as text. */
export const textOf = (answer: WireAnswer) => bodyBytes(answer).toString('utf8');
export const batchOffer = (required: PaymentRequired): PaymentRequirements => {
  const offer = required.accepts.find((a) => a.scheme === 'batch-settlement');
  if (!offer)
    throw new Error(`the 402 offers no batch-settlement: ${required.accepts.map((a) => a.scheme).join(', ')}`);
  return offer;
};

/** A payer's channel after its first (deposit) call: what its later vouchers are signed for. */
export interface OpenChannel {
  key: Hex;
  required: PaymentRequired;
  accepted: PaymentRequirements;
  channelConfig: ReturnType<ReturnType<typeof batchPayer>['scheme']['buildChannelConfig']>;
  channelId: Hex;
  /** The channel's charged total after the deposit call. */
  charged: bigint;
  /** The deposit's transaction (its gas is bench/gas.ts's). */
  deposit: Hex;
}

/**
 * A fresh payer, funded on chain, opens its channel with one paid call through the official client (its deposit
 * and the first answer's charge); `fetch` reaches the server (a socket, or the dispatcher in process).
 */
export async function openChannel(
  chain: LocalChain,
  base: string,
  fetch: typeof globalThis.fetch,
  reference: string,
): Promise<OpenChannel> {
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, DEPOSIT + parseUnits('10', DECIMALS));
  const payer = batchPayer(key, chain.rpcUrl, fetch, { deposit: DEPOSIT });
  const res = await payer.fetch(`${base}${PREMIUM}`);
  const text = await res.text();
  const receipt = receiptOf(res);
  if (
    res.status !== 200 ||
    !receipt?.success ||
    receipt.amount !== String(DEPOSIT) ||
    !/^0x[0-9a-f]{64}$/i.test(receipt.transaction) ||
    chargedOf(receipt) !== PRICE
  )
    throw new Error(`the deposit call answered ${res.status} with receipt ${JSON.stringify(receipt)}`);
  if (text !== reference) throw new Error('the deposit call: the body differs from the gate-off answer');
  const required = decodePaymentRequiredHeader((await fetch(`${base}${PREMIUM}`)).headers.get('PAYMENT-REQUIRED')!);
  const accepted = batchOffer(required);
  const channelConfig = payer.scheme.buildChannelConfig(accepted);
  const channelId = computeChannelId(channelConfig, NETWORK);
  const stated = (receipt.extra?.channelState as { channelId?: string } | undefined)?.channelId;
  if (stated?.toLowerCase() !== channelId.toLowerCase())
    throw new Error(`the deposit's channel ${stated} is not the payer's ${channelId}`);
  return { key, required, accepted, channelConfig, channelId, charged: PRICE, deposit: receipt.transaction as Hex };
}

/**
 * The channel's next `count` vouchers after `from` (cumulative: from + k × price), signed with the channel's key by the
 * official client.
 */
export async function signVouchers(
  channel: OpenChannel,
  from: bigint,
  count: number,
): Promise<Awaited<ReturnType<typeof signVoucher>>[]> {
  const signer = toClientEvmSigner(privateKeyToAccount(channel.key));
  const vouchers: Awaited<ReturnType<typeof signVoucher>>[] = [];
  for (let k = 1; k <= count; k++)
    vouchers.push(await signVoucher(signer, channel.channelId, String(from + BigInt(k) * PRICE), NETWORK));
  return vouchers;
}

/** The same vouchers as PAYMENT-SIGNATURE headers. */
export async function presign(channel: OpenChannel, from: bigint, count: number): Promise<string[]> {
  return (await signVouchers(channel, from, count)).map((voucher) => {
    const payment: PaymentPayload = {
      x402Version: 2,
      accepted: channel.accepted,
      resource: channel.required.resource,
      payload: { type: 'voucher', channelConfig: channel.channelConfig, voucher },
    };
    return encodePaymentSignatureHeader(payment);
  });
}

/**
 * Checks a voucher-paid answer: 200, the reference body, a successful receipt with no transaction for exactly
 * `charged`.
 */
export function expectVoucherPaid(
  what: string,
  status: number,
  text: string,
  receipt: SettleResponse | null,
  charged: bigint,
  reference: string,
): void {
  if (status !== 200)
    throw new Error(`${what} answered ${status}: ${text.slice(0, 200)} ${receipt ? JSON.stringify(receipt) : ''}`);
  if (receipt?.success !== true || receipt.transaction !== '' || chargedOf(receipt) !== charged)
    throw new Error(`${what}: unexpected receipt ${JSON.stringify(receipt)}, expected charged ${charged}`);
  if (text !== reference) throw new Error(`${what}: the body differs from the gate-off answer`);
}
