// A paying agent on prepaid channels (x402 `batch-settlement`), built only from the official client parts:
// @x402/core's x402Client, @x402/fetch, and @x402/evm's batch-settlement client scheme, signing with a local key
// and reading channel state from the local chain. It deposits on its first payment and signs a voucher for each
// later one; its channel state is its own (in memory), as an agent's would be.
import { x402Client } from '@x402/core/client';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme, InMemoryClientChannelStorage } from '@x402/evm/batch-settlement/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createPublicClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CHAIN_ID, NETWORK } from './chain.ts';

export interface BatchPayer {
  address: Hex;
  scheme: BatchSettlementEvmScheme;
  client: x402Client;
  storage: InMemoryClientChannelStorage;
  /** `fetch` that pays a 402 with the batch scheme (deposit first, vouchers after), official @x402/fetch. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

/** A batch-settlement payer with `privateKey`, on the chain at `rpcUrl`, through `fetch` (default: the network's). */
export function batchPayer(
  privateKey: Hex,
  rpcUrl: string,
  fetch: typeof globalThis.fetch = globalThis.fetch,
  options: { salt?: Hex; deposit?: bigint } = {},
): BatchPayer {
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'Base (local anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  const storage = new InMemoryClientChannelStorage();
  const deposit = options.deposit;
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(account, reader), {
    storage,
    ...(options.salt ? { salt: options.salt } : {}),
    // A deposit of the caller's choosing (else the server's announced minimum): the client caps a deposit at
    // depositMultiplier times its per-payment spend cap ($1 by default), so the multiplier makes room for it.
    ...(deposit
      ? {
          depositPolicy: { depositMultiplier: Number(deposit / 1_000_000n) + 3 },
          depositStrategy: () => deposit.toString(),
        }
      : {}),
  });
  const client = new x402Client().register(NETWORK, scheme);
  return { address: account.address, scheme, client, storage, fetch: wrapFetchWithPayment(fetch, client) };
}
