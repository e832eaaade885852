// A MOCK x402 facilitator for the fast, chain-free tests: it checks a payment the way the real
// exact-EVM facilitator does (payee, amount, time window, unused nonce, and the EIP-712 signature,
// with viem, no RPC) but "settles" by recording the transfer in memory. Its settlements are marked
// simulated; the on-chain proof is tests/payment/chain.test.ts. Never used by the service itself.
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { type Hex, getAddress, keccak256, verifyTypedData } from 'viem';

interface Authorization {
  from: Hex;
  to: Hex;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

export interface VerifyOnlyFacilitator extends FacilitatorClient {
  /** Atomic units received, by address, from settled payments. */
  readonly received: Map<string, bigint>;
  readonly settled: number;
  /**
   * 'down': every call fails as an unreachable facilitator would; 'down-at-settle': only settle does;
   * 'refuse-settle': settle answers success false.
   */
  mode: 'up' | 'down' | 'down-at-settle' | 'refuse-settle';
}

/** The receiver authorizer the MOCK advertises for batch-settlement (an address no one holds a key to here). */
const MOCK_RECEIVER_AUTHORIZER = '0x000000000000000000000000000000000000dEaD';

export function verifyOnlyFacilitator(network = 'eip155:8453'): VerifyOnlyFacilitator {
  const used = new Set<string>();
  const received = new Map<string, bigint>();
  let settled = 0;

  const unreachable = () => {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
  };

  async function check(
    payload: PaymentPayload,
    req: PaymentRequirements,
  ): Promise<VerifyResponse & { auth?: Authorization }> {
    const { authorization: auth, signature } = payload.payload as { authorization: Authorization; signature: Hex };
    const invalid = (invalidReason: string): VerifyResponse => ({ isValid: false, invalidReason, payer: auth?.from });
    if (payload.accepted.scheme !== 'exact' || req.scheme !== 'exact') return invalid('invalid_scheme');
    if (payload.accepted.network !== req.network || req.network !== network) return invalid('invalid_network');
    if (getAddress(auth.to) !== getAddress(req.payTo)) return invalid('invalid_exact_evm_payload_recipient_mismatch');
    if (BigInt(auth.value) !== BigInt(req.amount))
      return invalid('invalid_exact_evm_payload_authorization_value_mismatch');
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (BigInt(auth.validBefore) < now + 6n) return invalid('invalid_exact_evm_payload_authorization_valid_before');
    if (BigInt(auth.validAfter) > now) return invalid('invalid_exact_evm_payload_authorization_valid_after');
    if (used.has(`${auth.from}:${auth.nonce}`)) return invalid('invalid_exact_evm_nonce_already_used');
    const extra = req.extra as { name: string; version: string };
    const good = await verifyTypedData({
      address: auth.from,
      domain: {
        name: extra.name,
        version: extra.version,
        chainId: Number(network.split(':')[1]),
        verifyingContract: req.asset as Hex,
      },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...auth,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
      },
      signature,
    });
    return good ? { isValid: true, payer: auth.from, auth } : invalid('invalid_exact_evm_payload_signature');
  }

  const facilitator: VerifyOnlyFacilitator = {
    received,
    get settled() {
      return settled;
    },
    mode: 'up',
    async getSupported() {
      if (facilitator.mode === 'down') unreachable();
      const kinds = [
        { x402Version: 2, scheme: 'exact', network: network as `${string}:${string}` },
        {
          x402Version: 2,
          scheme: 'batch-settlement',
          network: network as `${string}:${string}`,
          extra: { receiverAuthorizer: MOCK_RECEIVER_AUTHORIZER },
        },
      ];
      return { kinds, extensions: [], signers: {} };
    },
    async verify(payload, req) {
      if (facilitator.mode === 'down') unreachable();
      const { auth: _, ...verdict } = await check(payload, req);
      return verdict;
    },
    async settle(payload, req): Promise<SettleResponse> {
      if (facilitator.mode === 'down' || facilitator.mode === 'down-at-settle') unreachable();
      const { auth, ...verdict } = await check(payload, req);
      // Settling is atomic on a chain: a nonce another settle used while this one was checking is spent.
      if (auth && used.has(`${auth.from}:${auth.nonce}`))
        Object.assign(verdict, { isValid: false, invalidReason: 'invalid_exact_evm_nonce_already_used' });
      if (facilitator.mode === 'refuse-settle' || !verdict.isValid || !auth)
        return {
          success: false,
          errorReason: verdict.invalidReason ?? 'invalid_exact_evm_transaction_failed',
          // What a real facilitator's text can carry: its own address and a call dump. Must never reach the client.
          errorMessage:
            'execution reverted: sender 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 at TransferWithAuthorization.sol:42\n    at settle (facilitator.ts:1)',
          transaction: '',
          // A facilitator's own text where a network belongs: must never reach the client either.
          network: `${req.network} (Error: ECONNREFUSED at /srv/facilitator)` as SettleResponse['network'],
          payer: auth?.from ?? verdict.payer,
        };
      used.add(`${auth.from}:${auth.nonce}`);
      received.set(getAddress(auth.to), (received.get(getAddress(auth.to)) ?? 0n) + BigInt(auth.value));
      settled++;
      return {
        success: true,
        transaction: keccak256((payload.payload as { signature: Hex }).signature),
        network: req.network,
        payer: auth.from,
        extra: { simulated: true },
      };
    },
  };
  return facilitator;
}
