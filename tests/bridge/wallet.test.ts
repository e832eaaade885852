// The bridge's wallet against the official client, in process: the voucher payment it makes from the channel's
// record is the one x402's own client makes for the same record (same channel config, same voucher, same signature),
// and its native signature is viem's, byte for byte, for a voucher and for a deposit's EIP-3009 authorization.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x402Client } from '@x402/core/client';
import { getDefaultAsset } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bridge/options.mjs';
import { signsNatively, typedDataSigner } from '../../bridge/typed-data-signer.mjs';
import { createWallet } from '../../bridge/wallet.mjs';

const NETWORK = 'eip155:8453';
const USDC = getDefaultAsset(NETWORK).asset;
const requirement = {
  scheme: 'batch-settlement',
  network: NETWORK,
  asset: USDC,
  amount: '100000',
  payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  maxTimeoutSeconds: 60,
  extra: {
    receiverAuthorizer: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    withdrawDelay: 86_400,
    minDeposit: '1000000',
    name: 'USD Coin',
    version: '2',
  },
};
const required = {
  x402Version: 2,
  resource: { url: 'mcp://tool/get_premium', description: 'x', mimeType: 'application/json' },
  accepts: [requirement],
} as never;

describe("the bridge's wallet", () => {
  it("pays a voucher from the channel's record exactly as the official client does", async () => {
    const key = generatePrivateKey();
    const stateDir = mkdtempSync(join(tmpdir(), 'bridge-wallet-'));
    // No chain: the record is there, so neither reads one (an RPC on the discard port fails any read).
    const wallet = createWallet(parseOptions(['--state-dir', stateDir, '--rpc-url', 'http://127.0.0.1:9/']), key);
    const record = { chargedCumulativeAmount: '300000', balance: '1000000' };
    await new FileClientChannelStorage({ directory: stateDir }).set(wallet.channelIdOf(requirement as never), record);
    const ours = await wallet.sign(required, requirement as never, 700_000n);
    const official = new x402Client().register(
      NETWORK,
      new BatchSettlementEvmScheme(privateKeyToAccount(key), {
        storage: new FileClientChannelStorage({ directory: stateDir }),
      }),
    );
    official.setSpendControls(false);
    const theirs = await official.createPaymentPayload({ ...(required as object), extensions: {} } as never);
    const { extensions: _, ...payment } = ours;
    const { extensions: __, ...expected } = theirs;
    expect(payment).toEqual(expected);
    expect((payment.payload as { voucher: { maxClaimableAmount: string } }).voucher.maxClaimableAmount).toBe('400000');
  });

  it('signs natively (on this platform) what viem signs, a voucher and an EIP-3009 authorization alike', async () => {
    // The package ships a binary for linux-x64 (and darwin-arm64, win32-x64): there, signing must be native.
    if (process.platform === 'linux' && process.arch === 'x64') expect(signsNatively).toBe(true);
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const sign = typedDataSigner(account, key);
    const domain = {
      name: 'x402 Batch Settlement',
      version: '1',
      chainId: 8453,
      verifyingContract: '0x4020074e7e5a5d8fd4bd0d2b5c6b1c8e8d7f0000' as const,
    };
    const voucher = {
      domain,
      types: {
        Voucher: [
          { name: 'channelId', type: 'bytes32' },
          { name: 'maxClaimableAmount', type: 'uint128' },
        ],
      },
      primaryType: 'Voucher',
      message: { channelId: `0x${'11'.repeat(32)}`, maxClaimableAmount: 400_000n },
    };
    const authorization = {
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC as `0x${string}` },
      types: {
        ReceiveWithAuthorization: ['from', 'to']
          .map((name) => ({ name, type: 'address' }))
          .concat(
            ['value', 'validAfter', 'validBefore'].map((name) => ({ name, type: 'uint256' })),
            [{ name: 'nonce', type: 'bytes32' }],
          ),
      },
      primaryType: 'ReceiveWithAuthorization',
      message: {
        from: account.address,
        to: requirement.payTo,
        value: 1_000_000n,
        validAfter: 0n,
        validBefore: 2_000_000_000n,
        nonce: `0x${'22'.repeat(32)}`,
      },
    };
    for (const typed of [voucher, authorization])
      expect(await sign(typed as never)).toBe(await account.signTypedData(typed as never));
  });
});
