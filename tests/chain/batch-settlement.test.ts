// Proves the project's batch-settlement contracts (tests/support/BatchSettlement.sol) against a real anvil: the
// official @x402/evm client signs, its facilitator deposits, claims, settles and refunds on them unchanged, and the
// contracts themselves refuse forged or excessive vouchers, replays and wrong callers, and honour the payer's
// timed withdrawal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  hashTypedData,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  toBytes,
  toFunctionSelector,
  zeroAddress,
  type Address,
  type Hex,
  type PrivateKeyAccount,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { BATCH_SETTLEMENT_DOMAIN, claimBatchTypes, refundTypes, toClientEvmSigner, voucherTypes } from '@x402/evm';
import {
  BatchSettlementEvmScheme as BatchSettlementClientScheme,
  computeChannelId,
  signVoucher,
} from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as BatchSettlementServerScheme } from '@x402/evm/batch-settlement/server';
import {
  ANVIL_ACCOUNTS,
  BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  NETWORK,
  USDC,
  startLocalChain,
  type LocalChain,
} from '../support/chain.ts';

const TX_HASH = /^0x[0-9a-f]{64}$/;
const PERMIT2_DEPOSIT_COLLECTOR: Address = '0x4020425FAf3B746C082C2f942b4E5159887B0005';
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const escrowAbi = parseAbi([
  'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
  'struct Voucher { ChannelConfig channel; uint128 maxClaimableAmount; }',
  'struct VoucherClaim { Voucher voucher; bytes signature; uint128 totalClaimed; }',
  'function deposit(ChannelConfig config, uint128 amount, address collector, bytes collectorData)',
  'function claim(VoucherClaim[] voucherClaims)',
  'function claimWithSignature(VoucherClaim[] voucherClaims, bytes authorizerSignature)',
  'function settle(address receiver, address token)',
  'function refund(ChannelConfig config, uint128 amount)',
  'function refundWithSignature(ChannelConfig config, uint128 amount, uint256 nonce, bytes receiverAuthorizerSignature)',
  'function initiateWithdraw(ChannelConfig config, uint128 amount)',
  'function finalizeWithdraw(ChannelConfig config)',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)',
  'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
  'function refundNonce(bytes32 channelId) view returns (uint256)',
  'function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)',
  'function getChannelId(ChannelConfig config) view returns (bytes32)',
  'function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns (bytes32)',
  'function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns (bytes32)',
  'function getClaimBatchDigest(VoucherClaim[] voucherClaims) view returns (bytes32)',
  'function CHANNEL_CONFIG_TYPEHASH() view returns (bytes32)',
  'function ERC3009_DEPOSIT_COLLECTOR() view returns (address)',
  'event ChannelCreated(bytes32 indexed channelId, ChannelConfig config)',
  'event Deposited(bytes32 indexed channelId, address indexed collector, uint128 amount, uint128 balance)',
  'event Claimed(bytes32 indexed channelId, address indexed receiver, address indexed token, uint128 amount, uint128 totalClaimed)',
  'event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount)',
  'event Refunded(bytes32 indexed channelId, address indexed payer, uint128 amount, uint256 nonce)',
]);
const collectorAbi = parseAbi([
  'function ESCROW() view returns (address)',
  'function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes data)',
]);
const tokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

type ChannelConfig = {
  payer: Address;
  payerAuthorizer: Address;
  receiver: Address;
  receiverAuthorizer: Address;
  token: Address;
  withdrawDelay: number;
  salt: Hex;
};
type ClaimRow = {
  voucher: { channel: ChannelConfig; maxClaimableAmount: string };
  signature: Hex;
  totalClaimed: string;
};

/** What the contract takes: addresses as they are, amounts as bigints. */
function contractClaims(rows: ClaimRow[]) {
  return rows.map((r) => ({
    voucher: { channel: r.voucher.channel, maxClaimableAmount: BigInt(r.voucher.maxClaimableAmount) },
    signature: r.signature,
    totalClaimed: BigInt(r.totalClaimed),
  }));
}

/** A test harness around one local chain: clients, the server's requirements, and channel helpers. */
async function setUp(chain: LocalChain) {
  const local = defineChain({
    id: 8453,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const reader = createPublicClient({ chain: local, transport: http(chain.rpcUrl), pollingInterval: 50 });
  const wallet = (key: Hex) =>
    createWalletClient({
      account: privateKeyToAccount(key),
      chain: local,
      transport: http(chain.rpcUrl),
      pollingInterval: 50,
    });
  const payerAccount = privateKeyToAccount(chain.payer.privateKey);
  const payeeWallet = wallet(ANVIL_ACCOUNTS[2].privateKey);
  const payerWallet = wallet(chain.payer.privateKey);

  // Requirements exactly as a production resource server builds them on this facilitator: the package's server
  // scheme takes the facilitator's advertised receiverAuthorizer into `extra`.
  const server = new x402ResourceServer(chain.facilitator).register(
    NETWORK,
    new BatchSettlementServerScheme(chain.payee),
  );
  await server.initialize();
  const [requirements] = await server.buildPaymentRequirements({
    scheme: 'batch-settlement',
    network: NETWORK,
    payTo: chain.payee,
    price: '$0.01',
  });
  if (!requirements) throw new Error('no batch-settlement requirements built');

  const read = {
    channel: async (id: Hex) => {
      const [balance, totalClaimed] = await reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: 'channels',
        args: [id],
      });
      return { balance, totalClaimed };
    },
    receiver: async () => {
      const [totalClaimed, totalSettled] = await reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: 'receivers',
        args: [chain.payee, USDC],
      });
      return { totalClaimed, totalSettled };
    },
    refundNonce: (id: Hex) =>
      reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: 'refundNonce',
        args: [id],
      }),
    pendingWithdrawal: async (id: Hex) => {
      const [amount, initiatedAt] = await reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: 'pendingWithdrawals',
        args: [id],
      });
      return { amount, initiatedAt };
    },
    balances: async () => {
      const [payer, payee, escrow, collector] = await Promise.all(
        [chain.payer.address, chain.payee, BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS].map((a) =>
          chain.balanceOf(a),
        ),
      );
      return { payer, payee, escrow, collector };
    },
  };

  /** The envelope a server hands its facilitator: the payload under the requirements it answers. */
  const envelope = (payload: Record<string, unknown>): PaymentPayload => ({
    x402Version: 2,
    accepted: requirements,
    payload,
  });

  let salts = 0;
  /**
   * Opens a fresh channel (its own salt) with the official client's ERC-3009 deposit payload, verified and settled
   * by the facilitator. `payerAuthorizer: zeroAddress` makes the payer itself the voucher signer.
   */
  const openChannel = async (options: { payerAuthorizer?: Address } = {}) => {
    const salt: Hex = `0x${(++salts).toString(16).padStart(64, '0')}`;
    const client = new BatchSettlementClientScheme(toClientEvmSigner(payerAccount, reader), {
      salt,
      ...(options.payerAuthorizer ? { payerAuthorizer: options.payerAuthorizer } : {}),
    });
    const { payload } = await client.createPaymentPayload(2, requirements);
    const deposit = payload as {
      channelConfig: ChannelConfig;
      voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex };
      deposit: {
        amount: string;
        authorization: { erc3009Authorization: { salt: Hex; signature: Hex; validAfter: string; validBefore: string } };
      };
    };
    const paymentPayload = envelope(payload);
    const verified = await chain.facilitator.verify(paymentPayload, requirements);
    const settled = await chain.facilitator.settle(paymentPayload, requirements);
    return {
      config: deposit.channelConfig,
      id: deposit.voucher.channelId,
      amount: BigInt(deposit.deposit.amount),
      payload: deposit,
      paymentPayload,
      verified,
      settled,
    };
  };

  /** A claim row for `maxClaimable` signed by `signer` (the payer unless forged), claiming `totalClaimed`. */
  const claimRow = async (
    config: ChannelConfig,
    maxClaimable: bigint,
    totalClaimed: bigint,
    signer: PrivateKeyAccount = payerAccount,
  ): Promise<ClaimRow> => {
    const voucher = await signVoucher(signer, computeChannelId(config, NETWORK), maxClaimable.toString(), NETWORK);
    return {
      voucher: { channel: config, maxClaimableAmount: maxClaimable.toString() },
      signature: voucher.signature,
      totalClaimed: totalClaimed.toString(),
    };
  };

  /** Simulates a call as `from` and returns 'ok' or the revert message (the contracts revert with reason strings). */
  const simulate = (
    from: Address,
    functionName: string,
    args: readonly unknown[],
    address: Address = BATCH_SETTLEMENT_ADDRESS,
    abi: readonly unknown[] = escrowAbi,
  ) =>
    reader
      .simulateContract({
        account: from,
        address,
        abi: abi as typeof escrowAbi,
        functionName: functionName as 'claim',
        args: args as never,
      })
      .then(
        () => 'ok',
        (e: Error) => e.message,
      );

  /** Sends a transaction and waits for it; throws if it reverts. */
  const send = async (w: typeof payeeWallet, functionName: string, args: readonly unknown[]) => {
    const hash = await w.writeContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: escrowAbi,
      functionName: functionName as 'claim',
      args: args as never,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };

  return {
    reader,
    requirements,
    payerAccount,
    payeeWallet,
    payerWallet,
    read,
    envelope,
    openChannel,
    claimRow,
    simulate,
    send,
  };
}

/** The escrow's events in a receipt (the token's Transfer events left out). */
function logsOf(receipt: TransactionReceipt) {
  return parseEventLogs({
    abi: escrowAbi,
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === BATCH_SETTLEMENT_ADDRESS.toLowerCase()),
  });
}

describe('batch-settlement on the local chain', () => {
  let chain: LocalChain;
  let t: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    chain = await startLocalChain();
    t = await setUp(chain);
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it('installs the escrow and collector at the SDK addresses, wired to each other, with the SDK channel ids and EIP-712 digests', async () => {
    expect(chain.batchSettlement).toBe('0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003');
    expect(chain.erc3009DepositCollector).toBe('0x4020806089470a89826cB9fB1f4059150b550004');
    expect(
      await t.reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: 'ERC3009_DEPOSIT_COLLECTOR',
      }),
    ).toBe(ERC3009_DEPOSIT_COLLECTOR_ADDRESS);
    expect(
      await t.reader.readContract({
        address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        abi: collectorAbi,
        functionName: 'ESCROW',
      }),
    ).toBe(BATCH_SETTLEMENT_ADDRESS);

    // The facilitator advertises its own authorizer key, and the server put it in the requirements.
    const supported = await chain.facilitator.getSupported();
    expect(supported.kinds).toContainEqual({
      x402Version: 2,
      scheme: 'batch-settlement',
      network: NETWORK,
      extra: { receiverAuthorizer: chain.receiverAuthorizer.address },
    });
    expect(supported.signers['eip155:*']).toEqual([ANVIL_ACCOUNTS[0].address]);
    expect(chain.receiverAuthorizer.address).toBe(privateKeyToAccount(chain.receiverAuthorizer.privateKey).address);
    expect(t.requirements).toMatchObject({
      scheme: 'batch-settlement',
      asset: USDC,
      payTo: chain.payee,
      extra: {
        receiverAuthorizer: chain.receiverAuthorizer.address,
        withdrawDelay: 900,
        name: 'USD Coin',
        version: '2',
      },
    });

    const config: ChannelConfig = {
      payer: chain.payer.address,
      payerAuthorizer: zeroAddress,
      receiver: chain.payee,
      receiverAuthorizer: chain.receiverAuthorizer.address,
      token: USDC,
      withdrawDelay: 3600,
      salt: keccak256(toBytes('digests')),
    };
    const other = { ...config, withdrawDelay: 900 };
    const id = computeChannelId(config, NETWORK);
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 8453, verifyingContract: BATCH_SETTLEMENT_ADDRESS };
    const escrow = (functionName: string, args: readonly unknown[] = []) =>
      t.reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: functionName as 'getChannelId',
        args: args as never,
      });

    expect(await escrow('CHANNEL_CONFIG_TYPEHASH')).toBe(
      keccak256(
        toBytes(
          'ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)',
        ),
      ),
    );
    expect(await escrow('getChannelId', [config])).toBe(id);
    expect(await escrow('getChannelId', [other])).toBe(computeChannelId(other, NETWORK));
    expect(id).not.toBe(computeChannelId(other, NETWORK));
    expect(await escrow('getVoucherDigest', [id, 123456n])).toBe(
      hashTypedData({
        domain,
        types: voucherTypes,
        primaryType: 'Voucher',
        message: { channelId: id, maxClaimableAmount: 123456n },
      }),
    );
    expect(await escrow('getRefundDigest', [id, 7n, 99n])).toBe(
      hashTypedData({
        domain,
        types: refundTypes,
        primaryType: 'Refund',
        message: { channelId: id, nonce: 7n, amount: 99n },
      }),
    );
    const rows = [await t.claimRow(config, 500n, 400n), await t.claimRow(other, 300n, 300n)];
    expect(await escrow('getClaimBatchDigest', [contractClaims(rows)])).toBe(
      hashTypedData({
        domain,
        types: claimBatchTypes,
        primaryType: 'ClaimBatch',
        message: {
          claims: [
            { channelId: id, maxClaimableAmount: 500n, totalClaimed: 400n },
            { channelId: computeChannelId(other, NETWORK), maxClaimableAmount: 300n, totalClaimed: 300n },
          ],
        },
      }),
    );
  });

  it('deposit: the official client signs, the facilitator verifies and settles, exactly the deposit moves into the channel, and a replay moves nothing', async () => {
    const before = await t.read.balances();
    const ch = await t.openChannel();
    expect(ch.amount).toBeGreaterThan(0n);
    expect(ch.config).toMatchObject({
      payer: chain.payer.address,
      payerAuthorizer: chain.payer.address,
      receiver: chain.payee,
      receiverAuthorizer: chain.receiverAuthorizer.address,
      token: USDC,
      withdrawDelay: 900,
    });
    expect(ch.verified).toMatchObject({
      isValid: true,
      payer: chain.payer.address,
      extra: { channelId: ch.id, balance: '0', totalClaimed: '0', refundNonce: '0' },
    });
    expect(ch.settled).toMatchObject({
      success: true,
      network: NETWORK,
      payer: chain.payer.address,
      amount: ch.amount.toString(),
      extra: { channelState: { channelId: ch.id, balance: ch.amount.toString(), totalClaimed: '0' } },
    });
    expect(ch.settled.transaction).toMatch(TX_HASH);

    const after = await t.read.balances();
    expect(before.payer - after.payer).toBe(ch.amount);
    expect(after.escrow - before.escrow).toBe(ch.amount);
    expect(after.collector).toBe(0n); // the collector only passes funds through
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 0n });

    const receipt = await t.reader.getTransactionReceipt({ hash: ch.settled.transaction as Hex });
    expect(receipt.to?.toLowerCase()).toBe(BATCH_SETTLEMENT_ADDRESS.toLowerCase());
    const events = logsOf(receipt);
    expect(events.map((e) => e.eventName)).toEqual(['ChannelCreated', 'Deposited']);
    expect(events[1].args).toMatchObject({
      channelId: ch.id,
      collector: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
      amount: ch.amount,
      balance: ch.amount,
    });

    // The ERC-3009 nonce is keccak256(abi.encode(channelId, salt)) and is now spent on the token.
    const auth = ch.payload.deposit.authorization.erc3009Authorization;
    const nonce = keccak256(
      encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [ch.id, BigInt(auth.salt)]),
    );
    expect(
      await t.reader.readContract({
        address: USDC,
        abi: tokenAbi,
        functionName: 'authorizationState',
        args: [chain.payer.address, nonce],
      }),
    ).toBe(true);

    const replay = await chain.facilitator.settle(ch.paymentPayload, t.requirements);
    expect(replay).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_deposit_simulation_failed',
      transaction: '',
    });
    expect(replay.errorMessage).toMatch(/authorization is used or canceled/);
    expect(await t.read.balances()).toEqual(after);
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 0n });
  });

  it('deposit: only the ERC-3009 collector, only valid configs, an authorization only for its own channel, and the collector and receive only for their caller', async () => {
    const ch = await t.openChannel();
    // The collector data the facilitator sends: abi.encode(validAfter, validBefore, salt, signature).
    const auth = ch.payload.deposit.authorization.erc3009Authorization;
    const data = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }],
      [BigInt(auth.validAfter), BigInt(auth.validBefore), BigInt(auth.salt), auth.signature],
    );
    const relayer = ANVIL_ACCOUNTS[0].address;
    const before = await t.read.balances();

    // The payer's signed authorization, re-aimed at another channel of theirs: the nonce no longer matches.
    const otherChannel = { ...ch.config, salt: keccak256(toBytes('another channel')) };
    expect(
      await t.simulate(relayer, 'deposit', [otherChannel, ch.amount, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, data]),
    ).toMatch(/FiatTokenV2: invalid signature/);
    expect(await t.simulate(relayer, 'deposit', [ch.config, ch.amount, PERMIT2_DEPOSIT_COLLECTOR, data])).toMatch(
      /unsupported collector/,
    );
    expect(await t.simulate(relayer, 'deposit', [ch.config, 0n, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, data])).toMatch(
      /zero amount/,
    );
    expect(
      await t.simulate(relayer, 'deposit', [
        { ...ch.config, withdrawDelay: 899 },
        ch.amount,
        ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        data,
      ]),
    ).toMatch(/withdraw delay out of range/);
    expect(
      await t.simulate(relayer, 'deposit', [
        { ...ch.config, withdrawDelay: 2_592_001 },
        ch.amount,
        ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        data,
      ]),
    ).toMatch(/withdraw delay out of range/);
    expect(
      await t.simulate(relayer, 'deposit', [
        { ...ch.config, receiverAuthorizer: zeroAddress },
        ch.amount,
        ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        data,
      ]),
    ).toMatch(/zero receiver authorizer/);
    expect(
      await t.simulate(relayer, 'deposit', [
        { ...ch.config, receiver: zeroAddress },
        ch.amount,
        ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        data,
      ]),
    ).toMatch(/zero receiver/);

    // Nobody but the escrow may drive the collector, and nobody but the payee may submit a receive authorization.
    expect(
      await t.simulate(
        relayer,
        'collect',
        [chain.payer.address, USDC, 1n, ch.id, data],
        ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        collectorAbi,
      ),
    ).toMatch(/caller is not the escrow/);
    expect(
      await t.simulate(
        relayer,
        'receiveWithAuthorization',
        [chain.payer.address, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, 1n, 0n, 2n ** 64n, ch.id, auth.signature],
        USDC,
        tokenAbi,
      ),
    ).toMatch(/FiatTokenV2: caller must be the payee/);
    expect(await t.read.balances()).toEqual(before);
  });

  it('claim: the facilitator claims payer-signed vouchers under its ClaimBatch signature; accounting only, cumulative, idempotent', async () => {
    // payerAuthorizer zero: the voucher is checked against the payer itself (an EOA, so ECDSA).
    const ch = await t.openChannel({ payerAuthorizer: zeroAddress });
    expect(ch.config.payerAuthorizer).toBe(zeroAddress);
    expect(ch.settled.success).toBe(true);
    const balances = await t.read.balances();
    const receiver = await t.read.receiver();

    const first = await chain.facilitator.settle(
      t.envelope({ type: 'claim', claims: [await t.claimRow(ch.config, 3000n, 2500n)] }),
      t.requirements,
    );
    expect(first).toMatchObject({ success: true, network: NETWORK });
    expect(first.transaction).toMatch(TX_HASH);
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 2500n });
    expect(await t.read.receiver()).toEqual({
      totalClaimed: receiver.totalClaimed + 2500n,
      totalSettled: receiver.totalSettled,
    });
    const claimed = logsOf(await t.reader.getTransactionReceipt({ hash: first.transaction as Hex }));
    expect(claimed.map((e) => [e.eventName, e.args])).toEqual([
      ['Claimed', { channelId: ch.id, receiver: chain.payee, token: USDC, amount: 2500n, totalClaimed: 2500n }],
    ]);

    // The same claim again, and a lower one: no-ops, not reverts (the SDK sends such rows ahead of refunds).
    for (const row of [await t.claimRow(ch.config, 3000n, 2500n), await t.claimRow(ch.config, 2000n, 1000n)]) {
      const again = await chain.facilitator.settle(t.envelope({ type: 'claim', claims: [row] }), t.requirements);
      expect(again.success).toBe(true);
      expect(logsOf(await t.reader.getTransactionReceipt({ hash: again.transaction as Hex }))).toEqual([]);
    }
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 2500n });

    // The receiver may claim directly, without an authorizer signature; a bystander may not.
    const row = await t.claimRow(ch.config, 3000n, 3000n);
    expect(await t.simulate(chain.other, 'claim', [contractClaims([row])])).toMatch(/caller is not the receiver/);
    await t.send(t.payeeWallet, 'claim', [contractClaims([row])]);
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 3000n });
    expect(await t.read.receiver()).toEqual({
      totalClaimed: receiver.totalClaimed + 3000n,
      totalSettled: receiver.totalSettled,
    });

    // Claims move no tokens.
    expect(await t.read.balances()).toEqual(balances);
  });

  it('settle: moves exactly the claimed-but-unsettled amount to the receiver, once', async () => {
    const ch = await t.openChannel();
    const claim = await chain.facilitator.settle(
      t.envelope({ type: 'claim', claims: [await t.claimRow(ch.config, 4000n, 4000n)] }),
      t.requirements,
    );
    expect(claim.success).toBe(true);
    const receiver = await t.read.receiver();
    const unsettled = receiver.totalClaimed - receiver.totalSettled;
    expect(unsettled).toBeGreaterThanOrEqual(4000n);
    const before = await t.read.balances();

    const settled = await chain.facilitator.settle(
      t.envelope({ type: 'settle', receiver: chain.payee, token: USDC }),
      t.requirements,
    );
    expect(settled).toMatchObject({ success: true, network: NETWORK, amount: unsettled.toString() });
    const after = await t.read.balances();
    expect(after.payee - before.payee).toBe(unsettled);
    expect(before.escrow - after.escrow).toBe(unsettled);
    expect(after.payer).toBe(before.payer);
    expect(await t.read.receiver()).toEqual({
      totalClaimed: receiver.totalClaimed,
      totalSettled: receiver.totalClaimed,
    });
    const events = logsOf(await t.reader.getTransactionReceipt({ hash: settled.transaction as Hex }));
    expect(events.map((e) => [e.eventName, e.args])).toEqual([
      ['Settled', { receiver: chain.payee, token: USDC, sender: ANVIL_ACCOUNTS[0].address, amount: unsettled }],
    ]);
    // Settling spends nothing of the channel: its balance still backs what was claimed.
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 4000n });

    const again = await chain.facilitator.settle(
      t.envelope({ type: 'settle', receiver: chain.payee, token: USDC }),
      t.requirements,
    );
    expect(again).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_nothing_to_settle',
      transaction: '',
    });
    // Called directly, an empty settle is a no-op: no transfer, no event.
    const direct = await t.send(t.payeeWallet, 'settle', [chain.payee, USDC]);
    expect(logsOf(direct)).toEqual([]);
    expect(await t.read.balances()).toEqual(after);
  });

  it('cooperative refund: claim and refund in one multicall return exactly balance − claimed to the payer; the nonce advances even when nothing is left', async () => {
    const ch = await t.openChannel();
    const charged = 1500n;
    // What the package's client sends (a zero-charge voucher at the charged total), as the server completes it:
    // the refund nonce read from chain, claims for that voucher, an amount above what is left (the contract caps it),
    // and no authorizer signatures: the facilitator signs them with its authorizer key.
    const voucher = await signVoucher(t.payerAccount, ch.id, charged.toString(), NETWORK);
    const clientPayload = { type: 'refund', channelConfig: ch.config, voucher };
    expect(await chain.facilitator.verify(t.envelope(clientPayload), t.requirements)).toMatchObject({
      isValid: true,
      extra: { balance: ch.amount.toString(), totalClaimed: '0', refundNonce: '0' },
    });
    const before = await t.read.balances();
    const receiver = await t.read.receiver();
    const refundPayload = {
      ...clientPayload,
      amount: ch.amount.toString(),
      refundNonce: '0',
      claims: [await t.claimRow(ch.config, charged, charged)],
    };
    const refunded = await chain.facilitator.settle(t.envelope(refundPayload), t.requirements);
    expect(refunded).toMatchObject({
      success: true,
      payer: chain.payer.address,
      amount: (ch.amount - charged).toString(),
      extra: { channelState: { balance: charged.toString(), totalClaimed: charged.toString(), refundNonce: '1' } },
    });

    const after = await t.read.balances();
    expect(after.payer - before.payer).toBe(ch.amount - charged);
    expect(before.escrow - after.escrow).toBe(ch.amount - charged);
    expect(await t.read.channel(ch.id)).toEqual({ balance: charged, totalClaimed: charged });
    expect(await t.read.refundNonce(ch.id)).toBe(1n);
    expect(await t.read.receiver()).toEqual({
      totalClaimed: receiver.totalClaimed + charged,
      totalSettled: receiver.totalSettled,
    });
    const tx = await t.reader.getTransaction({ hash: refunded.transaction as Hex });
    expect(tx.input.slice(0, 10)).toBe(toFunctionSelector('multicall(bytes[])'));
    const events = logsOf(await t.reader.getTransactionReceipt({ hash: refunded.transaction as Hex }));
    expect(events.map((e) => e.eventName)).toEqual(['Claimed', 'Refunded']);
    expect(events[1].args).toMatchObject({
      channelId: ch.id,
      payer: chain.payer.address,
      amount: ch.amount - charged,
      nonce: 0n,
    });

    // Nothing is left to refund, so the facilitator sends nothing for a replay or the next nonce.
    for (const again of [refundPayload, { ...refundPayload, refundNonce: '1', claims: [] }]) {
      expect(await chain.facilitator.settle(t.envelope(again), t.requirements)).toMatchObject({
        success: false,
        errorReason: 'invalid_batch_settlement_evm_refund_no_balance',
        transaction: '',
      });
    }

    // Called directly by the receiver with nothing left: no tokens move, but the nonce still advances.
    expect(await t.simulate(chain.other, 'refund', [ch.config, 1n])).toMatch(/caller is not the receiver/);
    const direct = await t.send(t.payeeWallet, 'refund', [ch.config, 1n]);
    expect(logsOf(direct)).toEqual([]);
    expect(await t.read.refundNonce(ch.id)).toBe(2n);
    expect(await t.read.balances()).toEqual(after);

    // A partial refund signed by the authorizer, relayed by anyone, returns exactly the amount signed.
    const topUp = await t.openChannel();
    const authorizer = privateKeyToAccount(chain.receiverAuthorizer.privateKey);
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 8453, verifyingContract: BATCH_SETTLEMENT_ADDRESS };
    const sign = (amount: bigint, nonce: bigint, by = authorizer) =>
      by.signTypedData({
        domain,
        types: refundTypes,
        primaryType: 'Refund',
        message: { channelId: topUp.id, nonce, amount },
      });
    expect(
      await t.simulate(chain.other, 'refundWithSignature', [
        topUp.config,
        700n,
        0n,
        await sign(700n, 0n, privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey)),
      ]),
    ).toMatch(/invalid authorizer signature/);
    expect(
      await t.simulate(chain.other, 'refundWithSignature', [topUp.config, 701n, 0n, await sign(700n, 0n)]),
    ).toMatch(/invalid authorizer signature/);
    const payerBefore = await chain.balanceOf(chain.payer.address);
    const signed = [topUp.config, 700n, 0n, await sign(700n, 0n)] as const;
    await t.send(
      createWalletClient({
        account: privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey),
        chain: t.reader.chain,
        transport: http(chain.rpcUrl),
      }),
      'refundWithSignature',
      signed,
    );
    expect((await chain.balanceOf(chain.payer.address)) - payerBefore).toBe(700n);
    expect(await t.read.channel(topUp.id)).toEqual({ balance: topUp.amount - 700n, totalClaimed: 0n });
    expect(await t.read.refundNonce(topUp.id)).toBe(1n);
    // Money is left, so only the nonce stops the same signature from refunding again.
    expect(await t.simulate(chain.other, 'refundWithSignature', signed)).toMatch(/invalid refund nonce/);
  });

  it('a cooperative refund shrinks a pending withdrawal, and cancels it once it covers it', async () => {
    const ch = await t.openChannel();
    await t.send(t.payerWallet, 'initiateWithdraw', [ch.config, 1000n]);
    expect((await t.read.pendingWithdrawal(ch.id)).amount).toBe(1000n);
    await t.send(t.payeeWallet, 'refund', [ch.config, 400n]);
    expect((await t.read.pendingWithdrawal(ch.id)).amount).toBe(600n);
    await t.send(t.payeeWallet, 'refund', [ch.config, 600n]);
    expect(await t.read.pendingWithdrawal(ch.id)).toEqual({ amount: 0n, initiatedAt: 0 });
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount - 1000n, totalClaimed: 0n });
    expect(await t.read.refundNonce(ch.id)).toBe(2n);
    // Cancelled: a new withdrawal may start.
    expect(await t.simulate(chain.payer.address, 'initiateWithdraw', [ch.config, 1n])).toBe('ok');
  });

  it('refuses forged and excessive vouchers, and claim batches not signed by the receiver authorizer', async () => {
    const ch = await t.openChannel();
    const stranger = privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey);
    const before = { balances: await t.read.balances(), receiver: await t.read.receiver() };

    // A voucher signed by another key: the facilitator's claim fails in simulation, the contract names why.
    const forged = await t.claimRow(ch.config, 1000n, 1000n, stranger);
    const viaFacilitator: SettleResponse = await chain.facilitator.settle(
      t.envelope({ type: 'claim', claims: [forged] }),
      t.requirements,
    );
    expect(viaFacilitator).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
      transaction: '',
    });
    expect(viaFacilitator.errorMessage).toMatch(/invalid voucher signature/);
    expect(await t.simulate(chain.payee, 'claim', [contractClaims([forged])])).toMatch(/invalid voucher signature/);
    // ... also when it rides along with a valid row.
    expect(
      await t.simulate(chain.payee, 'claim', [contractClaims([await t.claimRow(ch.config, 500n, 500n), forged])]),
    ).toMatch(/invalid voucher signature/);

    // The payer's own signature, made malleable (s → n − s, v flipped): ecrecover would accept it; the contract must not.
    const good = await t.claimRow(ch.config, 1000n, 1000n);
    const s = BigInt(`0x${good.signature.slice(66, 130)}`);
    const v = parseInt(good.signature.slice(130, 132), 16);
    const malleable =
      `${good.signature.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    expect(await t.simulate(chain.payee, 'claim', [contractClaims([{ ...good, signature: malleable }])])).toMatch(
      /invalid voucher signature/,
    );
    expect(
      await t.simulate(chain.payee, 'claim', [
        contractClaims([{ ...good, signature: `${good.signature.slice(0, 130)}1d` as Hex }]),
      ]),
    ).toMatch(/invalid voucher signature/);

    // Claiming more than the voucher allows, or more than the channel holds.
    const overVoucher = await t.claimRow(ch.config, 1000n, 1001n);
    const viaFacilitatorOver = await chain.facilitator.settle(
      t.envelope({ type: 'claim', claims: [overVoucher] }),
      t.requirements,
    );
    expect(viaFacilitatorOver).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
    });
    expect(viaFacilitatorOver.errorMessage).toMatch(/claim exceeds voucher/);
    expect(
      await t.simulate(chain.payee, 'claim', [
        contractClaims([await t.claimRow(ch.config, ch.amount + 1000n, ch.amount + 1n)]),
      ]),
    ).toMatch(/claim exceeds balance/);
    // A voucher for one channel does not open another with the same parties.
    const otherConfig = { ...ch.config, salt: keccak256(toBytes('never funded')) };
    const signedForCh = await t.claimRow(ch.config, 1000n, 1000n);
    expect(
      await t.simulate(chain.payee, 'claim', [
        contractClaims([{ ...signedForCh, voucher: { ...signedForCh.voucher, channel: otherConfig } }]),
      ]),
    ).toMatch(/invalid voucher signature/);

    // A ClaimBatch signed by someone other than the rows' receiver authorizer, or over different rows.
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 8453, verifyingContract: BATCH_SETTLEMENT_ADDRESS };
    const batch = (rows: ClaimRow[], by: PrivateKeyAccount) =>
      by.signTypedData({
        domain,
        types: claimBatchTypes,
        primaryType: 'ClaimBatch',
        message: {
          claims: rows.map((r) => ({
            channelId: computeChannelId(r.voucher.channel, NETWORK),
            maxClaimableAmount: BigInt(r.voucher.maxClaimableAmount),
            totalClaimed: BigInt(r.totalClaimed),
          })),
        },
      });
    const authorizer = privateKeyToAccount(chain.receiverAuthorizer.privateKey);
    expect(
      await t.simulate(chain.other, 'claimWithSignature', [contractClaims([good]), await batch([good], stranger)]),
    ).toMatch(/invalid authorizer signature/);
    const lower = await t.claimRow(ch.config, 1000n, 10n);
    expect(
      await t.simulate(chain.other, 'claimWithSignature', [contractClaims([good]), await batch([lower], authorizer)]),
    ).toMatch(/invalid authorizer signature/);
    const foreign = await t.claimRow({ ...ch.config, receiverAuthorizer: chain.other }, 10n, 10n);
    expect(
      await t.simulate(chain.other, 'claimWithSignature', [
        contractClaims([good, foreign]),
        await batch([good, foreign], authorizer),
      ]),
    ).toMatch(/mixed receiver authorizers/);
    expect(
      await t.simulate(chain.other, 'claimWithSignature', [contractClaims([good]), await batch([good], authorizer)]),
    ).toBe('ok');

    // Nothing moved and nothing was claimed.
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 0n });
    expect(await t.read.receiver()).toEqual(before.receiver);
    expect(await t.read.balances()).toEqual(before.balances);
  });

  it('multicall keeps msg.sender and reverts as a whole with the failing call’s reason', async () => {
    const ch = await t.openChannel();
    const claimCall = encodeFunctionData({
      abi: escrowAbi,
      functionName: 'claim',
      args: [contractClaims([await t.claimRow(ch.config, 800n, 800n)])],
    });
    const badRefund = encodeFunctionData({
      abi: escrowAbi,
      functionName: 'refundWithSignature',
      args: [ch.config, 1n, 5n, '0x'],
    });
    expect(await t.simulate(chain.payee, 'multicall', [[claimCall, badRefund]])).toMatch(/invalid refund nonce/);
    expect(await t.simulate(chain.other, 'multicall', [[claimCall]])).toMatch(/caller is not the receiver/);
    await t.send(t.payeeWallet, 'multicall', [[claimCall]]);
    expect(await t.read.channel(ch.id)).toEqual({ balance: ch.amount, totalClaimed: 800n });
  });
});

// Its own chain: the test moves the chain's clock past the withdraw delay, after which ERC-3009 time windows
// signed against the wall clock no longer line up with block time.
describe('timed withdrawal (own chain)', () => {
  let chain: LocalChain;
  let t: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    chain = await startLocalChain();
    t = await setUp(chain);
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it('pays the payer what is still unclaimed after the delay; claims made during the delay come first', async () => {
    const ch = await t.openChannel();
    expect(ch.settled.success).toBe(true);
    expect(ch.config.withdrawDelay).toBe(900);
    expect(
      (
        await chain.facilitator.settle(
          t.envelope({ type: 'claim', claims: [await t.claimRow(ch.config, 2000n, 1000n)] }),
          t.requirements,
        )
      ).success,
    ).toBe(true);
    const unclaimed = ch.amount - 1000n;

    expect(await t.simulate(chain.payee, 'initiateWithdraw', [ch.config, unclaimed])).toMatch(
      /caller is not the payer/,
    );
    expect(await t.simulate(chain.payer.address, 'initiateWithdraw', [ch.config, unclaimed + 1n])).toMatch(
      /amount exceeds unclaimed balance/,
    );
    expect(await t.simulate(chain.payer.address, 'initiateWithdraw', [ch.config, 0n])).toMatch(/zero amount/);
    expect(await t.simulate(chain.payer.address, 'finalizeWithdraw', [ch.config])).toMatch(/no pending withdrawal/);
    const initiated = await t.send(t.payerWallet, 'initiateWithdraw', [ch.config, unclaimed]);
    const initiatedAt = (await t.reader.getBlock({ blockNumber: initiated.blockNumber })).timestamp;
    expect(await t.read.pendingWithdrawal(ch.id)).toEqual({ amount: unclaimed, initiatedAt: Number(initiatedAt) });
    expect(await t.simulate(chain.payer.address, 'initiateWithdraw', [ch.config, 1n])).toMatch(
      /withdrawal already pending/,
    );
    // The facilitator reports the pending withdrawal to servers, so they can claim in time.
    const voucher = await signVoucher(t.payerAccount, ch.id, '2000', NETWORK);
    expect(
      await chain.facilitator.verify(
        t.envelope({ type: 'voucher', channelConfig: ch.config, voucher }),
        t.requirements,
      ),
    ).toMatchObject({ isValid: true, extra: { withdrawRequestedAt: Number(initiatedAt) } });

    // The receiver claims the rest of its voucher during the delay.
    expect(
      (
        await chain.facilitator.settle(
          t.envelope({ type: 'claim', claims: [await t.claimRow(ch.config, 2000n, 2000n)] }),
          t.requirements,
        )
      ).success,
    ).toBe(true);
    expect(await t.simulate(chain.payer.address, 'finalizeWithdraw', [ch.config])).toMatch(
      /withdraw delay not elapsed/,
    );

    await chain.increaseTime(900);
    const before = await t.read.balances();
    expect(await t.simulate(chain.payee, 'finalizeWithdraw', [ch.config])).toMatch(/caller is not the payer/);
    await t.send(t.payerWallet, 'finalizeWithdraw', [ch.config]);
    const after = await t.read.balances();
    expect(after.payer - before.payer).toBe(ch.amount - 2000n);
    expect(before.escrow - after.escrow).toBe(ch.amount - 2000n);
    expect(await t.read.channel(ch.id)).toEqual({ balance: 2000n, totalClaimed: 2000n });
    expect(await t.read.pendingWithdrawal(ch.id)).toEqual({ amount: 0n, initiatedAt: 0 });
    expect(await t.simulate(chain.payer.address, 'finalizeWithdraw', [ch.config])).toMatch(/no pending withdrawal/);

    // What was claimed is still the receiver's to settle, and the escrow still holds it.
    const settled = await chain.facilitator.settle(
      t.envelope({ type: 'settle', receiver: chain.payee, token: USDC }),
      t.requirements,
    );
    expect(settled).toMatchObject({ success: true, amount: '2000' });
    expect((await t.read.balances()).escrow).toBe(after.escrow - 2000n);
  });
});
