// A voucher checked as the escrow checks it when the voucher is claimed (docs/design.md §13), before this server keeps
// it: the channel id the config names on this chain, an amount the escrow can hold (uint128), and a signature of
// exactly 65 bytes, low `s` and `v` 27 or 28, recovering the channel's payer authorizer (the payer when that is zero)
// over the voucher's EIP-712 digest for this chain and escrow. viem's recovery, which the scheme's own check uses,
// also accepts the signature's second form (`n - s`, `v` flipped, or `v` 0/1) and 64-byte compact signatures; the
// escrow refuses them, and one such voucher in a claim batch reverts the whole batch. The recovery runs in native
// code (./secp256k1.ts); a channel's id and signer are computed once per channel config, not per voucher.
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from '@x402/evm';
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import { type Hex, domainSeparator, getAddress, hexToBytes, keccak256, toBytes, zeroAddress } from 'viem';
import { nativeSecp256k1 } from './secp256k1.ts';

/** The scheme's reasons for a voucher refused here. */
export const VOUCHER_SIGNATURE = 'invalid_batch_settlement_evm_voucher_signature';
const CHANNEL_ID_MISMATCH = 'invalid_batch_settlement_evm_channel_id_mismatch';
export const EXCEEDS_BALANCE = 'invalid_batch_settlement_evm_cumulative_exceeds_balance';

/** The channel terms a voucher's payment carries (the scheme's `channelConfig`). */
export interface ChannelTerms {
  payer: string;
  payerAuthorizer: string;
  receiver: string;
  receiverAuthorizer: string;
  token: string;
  withdrawDelay: number;
  salt: string;
}

export interface SignedVoucher {
  channelId: string;
  maxClaimableAmount: string;
  signature: string;
}

export interface VoucherCheck {
  /** Why the escrow would refuse this voucher for this channel (a scheme reason), or undefined when it would not. */
  problem(config: ChannelTerms, voucher: SignedVoucher): string | undefined;
}

/** secp256k1's n / 2: the escrow takes only the low-`s` form of a signature. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const MAX_UINT128 = (1n << 128n) - 1n;
const SIGNATURE_65 = /^0x[0-9a-fA-F]{130}$/;
/** Channel configs remembered (their id and signer); past this the memory starts afresh. */
const IDENTITIES_KEPT = 100_000;
const VOUCHER_TYPEHASH = keccak256(
  toBytes(`Voucher(${voucherTypes.Voucher.map((f) => `${f.type} ${f.name}`).join(',')})`),
  'bytes',
);

interface Identity {
  channelId: string;
  /** The address that must sign, lower-case hex without 0x. */
  signer: string;
}

/**
 * The voucher check for `network` (a CAIP-2 `eip155:<chain id>`); loads the native library now, and throws if it
 * cannot.
 */
export function voucherCheck(network: string): VoucherCheck {
  const secp256k1 = nativeSecp256k1();
  const chainId = Number(network.split(':')[1]);
  const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId, verifyingContract: getAddress(BATCH_SETTLEMENT_ADDRESS) };
  const separator = hexToBytes(domainSeparator({ domain }));
  const identities = new Map<string, Identity>();

  /**
   * The channel's id and signer; null for a config with no id (an address whose mixed case is not its EIP-55 checksum).
   */
  const identityOf = (config: ChannelTerms): Identity | null => {
    // Case-sensitive: a config that differs only in its addresses' case may be one viem refuses.
    const key =
      `${config.payer}|${config.payerAuthorizer}|${config.receiver}|${config.receiverAuthorizer}|` +
      `${config.token}|${config.withdrawDelay}|${config.salt}`;
    let identity = identities.get(key);
    if (!identity) {
      const signer = config.payerAuthorizer.toLowerCase() === zeroAddress ? config.payer : config.payerAuthorizer;
      let channelId: string;
      try {
        channelId = computeChannelId(config as never, chainId).toLowerCase();
      } catch {
        return null;
      }
      identity = { channelId, signer: signer.slice(2).toLowerCase() };
      if (identities.size >= IDENTITIES_KEPT) identities.clear();
      identities.set(key, identity);
    }
    return identity;
  };

  /** The voucher's EIP-712 digest, as the escrow's getVoucherDigest computes it. */
  const digestOf = (channelId: string, amount: bigint): Uint8Array => {
    const struct = new Uint8Array(96);
    struct.set(VOUCHER_TYPEHASH, 0);
    struct.set(hexToBytes(channelId as Hex), 32);
    struct.set(hexToBytes(`0x${amount.toString(16).padStart(64, '0')}`), 64);
    const message = new Uint8Array(66);
    message.set([0x19, 0x01], 0);
    message.set(separator, 2);
    message.set(keccak256(struct, 'bytes'), 34);
    return keccak256(message, 'bytes');
  };

  /**
   * The address (lower-case hex, no 0x) that made this signature as the escrow's `Signatures.recover` reads it, or
   * null.
   */
  const recovered = (signature: string, digest: Uint8Array): string | null => {
    if (!SIGNATURE_65.test(signature)) return null;
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = Number.parseInt(signature.slice(130), 16);
    if (s === 0n || s > HALF_N || (v !== 27 && v !== 28)) return null;
    try {
      const publicKey = secp256k1.ecdsaRecover(hexToBytes(signature.slice(0, 130) as Hex), v - 27, digest, false);
      return Buffer.from(keccak256(publicKey.subarray(1), 'bytes').subarray(12)).toString('hex');
    } catch {
      return null; // r or s out of range, or no point: ecrecover gives the zero address
    }
  };

  return {
    problem(config, voucher) {
      const identity = identityOf(config);
      if (!identity || voucher.channelId.toLowerCase() !== identity.channelId) return CHANNEL_ID_MISMATCH;
      const amount = BigInt(voucher.maxClaimableAmount);
      if (amount > MAX_UINT128) return EXCEEDS_BALANCE;
      return recovered(voucher.signature, digestOf(identity.channelId, amount)) === identity.signer
        ? undefined
        : VOUCHER_SIGNATURE;
    },
  };
}
