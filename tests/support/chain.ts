// A local Base-mainnet look-alike for payment tests and benchmarks: anvil (chain id 8453) with a minimal
// EIP-3009 token installed at the real Base USDC address and the `batch-settlement` scheme's escrow and
// ERC-3009 deposit collector at the x402 SDK's canonical addresses, an in-process x402 facilitator that settles
// on them (exact and batch-settlement), a loopback HTTP wrapper for that facilitator, and client helpers that
// sign payments as a funded payer. Nothing here talks to a real network. See ../shared/notes/x402.md (beside
// this repository) §2–3 for the recipe this follows.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createNonceManager,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  type Address,
  type Hex,
} from 'viem';
import { getTransactionCount } from 'viem/actions';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import { x402Client, type SpendControls } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import {
  BATCH_SETTLEMENT_ADDRESS as SDK_BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS as SDK_ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  getDefaultAsset,
  toFacilitatorEvmSigner,
} from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';

export type { FacilitatorClient };

export const NETWORK = 'eip155:8453' as const;
export const CHAIN_ID = 8453;
/** Base mainnet USDC, as the x402 SDK's default asset table has it (0x8335…2913). */
export const USDC: Address = getDefaultAsset(NETWORK).asset as Address;
/** Where Multicall3 lives on Base (and most chains); the facilitator's failure diagnosis calls it. */
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
/**
 * @x402/evm's canonical `x402BatchSettlement` escrow address (the SDK signs every batch-settlement EIP-712
 * message for this verifying contract and sends every call there). BatchSettlement.sol holds both addresses as
 * constants too (escrow and collector each name the other); tests/chain/batch-settlement.test.ts checks they agree.
 */
export const BATCH_SETTLEMENT_ADDRESS: Address = SDK_BATCH_SETTLEMENT_ADDRESS;
/** @x402/evm's canonical `ERC3009DepositCollector` (the payee of the payer's ReceiveWithAuthorization). */
export const ERC3009_DEPOSIT_COLLECTOR_ADDRESS: Address = SDK_ERC3009_DEPOSIT_COLLECTOR_ADDRESS;

/** Anvil's well-known dev keys #0–#4 (mnemonic "test test … junk"). Worthless outside a local chain. */
export const ANVIL_ACCOUNTS = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
  {
    address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  },
  {
    address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  },
] as const satisfies readonly { address: Address; privateKey: Hex }[];

/** What the payer is funded with: 100 USDC in atomic units (6 decimals). */
export const PAYER_FUNDING = 100_000_000n;

export interface LocalChain {
  rpcUrl: string;
  chainId: 8453;
  /** The EIP-3009 test token, installed at the real Base USDC address. */
  usdc: Address;
  /** Anvil account #1, funded with {@link PAYER_FUNDING}. */
  payer: { address: Address; privateKey: Hex };
  /** Anvil account #2: the payee the tests' routes charge to. Starts with no USDC. */
  payee: Address;
  /** Anvil account #3: a bystander, for "paid the wrong payee" tests. Starts with no USDC. */
  other: Address;
  /** USDC balance (atomic units) on the chain, read with eth_call. */
  balanceOf(address: Address): Promise<bigint>;
  /** Mints test USDC (the token's open, test-only `mint`). */
  mint(to: Address, amount: bigint): Promise<void>;
  /**
   * In-process x402 facilitator on eip155:8453 whose gas payer is anvil account #0: `exact`, and
   * `batch-settlement` with {@link LocalChain.receiverAuthorizer} as the receiverAuthorizer it advertises in
   * getSupported() and signs claims and refunds with when a payload lacks those signatures.
   */
  facilitator: FacilitatorClient;
  /** The `x402BatchSettlement` escrow ({@link BATCH_SETTLEMENT_ADDRESS}). */
  batchSettlement: Address;
  /** The escrow's ERC-3009 deposit collector ({@link ERC3009_DEPOSIT_COLLECTOR_ADDRESS}). */
  erc3009DepositCollector: Address;
  /** Anvil account #4: the facilitator's batch-settlement receiver authorizer key. Holds no USDC. */
  receiverAuthorizer: { address: Address; privateKey: Hex };
  /** A raw JSON-RPC call to anvil (`anvil_*`, `evm_*`, `eth_*`); throws on a JSON-RPC error. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /**
   * Moves the chain's clock forward by `seconds` and mines a block at the new time. The chain then runs ahead
   * of the wall clock, which the facilitators' ERC-3009 time-window checks read: use a chain of its own.
   */
  increaseTime(seconds: number): Promise<void>;
  /** Kills anvil and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
/** The test contracts' sources, compiled together: file name → path. */
const CONTRACT_SOURCES = {
  'EIP3009Token.sol': join(import.meta.dirname, 'EIP3009Token.sol'),
  'BatchSettlement.sol': join(import.meta.dirname, 'BatchSettlement.sol'),
} as const;

const tokenAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

function anvilBinary(): string {
  try {
    return join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');
  } catch {
    // The wrapper script: works, but it is a node process in front of anvil (kill reaches the wrapper).
    return join(ROOT, 'node_modules', '.bin', 'anvil');
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

interface Bytecode {
  token: Hex;
  multicall3: Hex;
  batchSettlement: Hex;
  erc3009DepositCollector: Hex;
}

/** Which contract of which source file each {@link Bytecode} entry is. */
const CONTRACTS: Record<keyof Bytecode, [file: keyof typeof CONTRACT_SOURCES, contract: string]> = {
  token: ['EIP3009Token.sol', 'EIP3009Token'],
  multicall3: ['EIP3009Token.sol', 'Multicall3'],
  batchSettlement: ['BatchSettlement.sol', 'x402BatchSettlement'],
  erc3009DepositCollector: ['BatchSettlement.sol', 'ERC3009DepositCollector'],
};

/**
 * Runtime bytecode of the test contracts, compiled with solc-js (optimizer on) and cached in the OS temp folder
 * under a sha256 of the sources, the solc version and the settings, so only the first run pays the ~4 s compile.
 */
async function compileContracts(): Promise<Bytecode> {
  const sources = Object.fromEntries(
    Object.entries(CONTRACT_SOURCES).map(([file, path]) => [file, { content: readFileSync(path, 'utf8') }]),
  );
  const solcVersion = (JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')) as { version: string })
    .version;
  const settings = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' };
  const key = createHash('sha256')
    .update(JSON.stringify([solcVersion, settings, sources]))
    .digest('hex');
  const cachePath = join(tmpdir(), `x402-test-contracts-${key.slice(0, 24)}.json`);
  if (existsSync(cachePath)) {
    try {
      const cached = JSON.parse(readFileSync(cachePath, 'utf8')) as Bytecode;
      if (Object.keys(CONTRACTS).every((name) => /^0x[0-9a-f]{200,}$/.test(cached[name as keyof Bytecode])))
        return cached;
    } catch {
      // fall through and recompile
    }
  }
  const solc = (await import('solc')).default as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources,
    settings: { ...settings, outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`The test contracts do not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const result = {} as Bytecode;
  for (const [name, [file, contract]] of Object.entries(CONTRACTS)) {
    const object = output.contracts?.[file]?.[contract]?.evm.deployedBytecode.object;
    if (!object) throw new Error(`solc produced no runtime bytecode for ${contract} (${file})`);
    result[name as keyof Bytecode] = `0x${object}`;
  }
  const tmp = `${cachePath}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(result));
  renameSync(tmp, cachePath); // atomic, so concurrent runs never read half a file
  return result;
}

function spawnAnvil(port: number): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(CHAIN_ID), '--silent'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    if (err.length < 4000) err += d;
  });
  return { child, stderr: () => err.trim() };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Starts anvil on a free loopback port and waits until it answers eth_chainId (fails after ~10 s). */
async function launchAnvil(): Promise<{ child: ChildProcess; rpcUrl: string }> {
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    const { child, stderr } = spawnAnvil(port);
    let spawnError: Error | undefined;
    child.once('error', (e) => (spawnError = e));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (spawnError) throw new Error(`cannot run anvil (${anvilBinary()}): ${spawnError.message}`);
      if (child.exitCode !== null || child.signalCode !== null) break; // e.g. the port was taken meanwhile
      try {
        const id = await rpc<string>(rpcUrl, 'eth_chainId');
        if (Number(id) !== CHAIN_ID) throw new Error(`anvil reports chain id ${Number(id)}, expected ${CHAIN_ID}`);
        return { child, rpcUrl };
      } catch (e) {
        if (e instanceof Error && e.message.startsWith('anvil reports')) {
          await stopChild(child);
          throw e;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await stopChild(child);
    lastError =
      child.exitCode !== null && child.exitCode !== 0
        ? `anvil exited with code ${child.exitCode}: ${stderr()}`
        : `anvil did not answer eth_chainId on ${rpcUrl} within 10 s. ${stderr()}`;
  }
  throw new Error(lastError);
}

/** One promise chain: runs the given tasks one at a time, in call order. */
function serializer(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

function makeFacilitator(rpcUrl: string): FacilitatorClient {
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'Base (local anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  // A nonce manager of its own (viem's shared `nonceManager` singleton remembers the last nonce per
  // address+chain id across clients, which would skip nonces on a second, fresh anvil in the same process).
  const nonceManager = createNonceManager({
    source: {
      get: ({ address, client }) => getTransactionCount(client, { address, blockTag: 'pending' }),
      set: () => {},
    },
  });
  const account = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey, { nonceManager });
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl), pollingInterval: 50 }).extend(
    publicActions,
  );
  // Sends go one at a time. viem consumes a nonce before it estimates gas, so when a concurrent settle reverts
  // at estimation (a double spend), the nonces already handed to other sends leave a gap and those
  // transactions would sit in anvil's queue until the facilitator's 180 s receipt timeout. Sending is a few ms
  // on anvil; receipt waits stay concurrent.
  const serial = serializer();
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => wallet.readContract(args),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => serial(() => wallet.writeContract(args as never)),
    sendTransaction: (args) => serial(() => wallet.sendTransaction(args as never)),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    getCode: (args) => wallet.getCode(args),
  });
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: NETWORK });
  // batch-settlement: the same gas payer relays; a separate key (anvil #4, never a sender) signs the
  // ClaimBatch and Refund authorizations, and its address is what servers put in channels as receiverAuthorizer.
  const authorizer = privateKeyToAccount(ANVIL_ACCOUNTS[4].privateKey);
  facilitator.register(
    NETWORK,
    new BatchSettlementEvmScheme(signer, {
      address: authorizer.address,
      signTypedData: (args) => authorizer.signTypedData(args),
    }),
  );
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  };
}

/**
 * Starts anvil as Base mainnet (chain id 8453), installs the EIP-3009 test token at the real USDC address,
 * Multicall3 at its canonical address and the batch-settlement escrow and ERC-3009 deposit collector at the
 * x402 SDK's canonical addresses, funds the payer with 100 USDC, and builds the in-process facilitator.
 * Call `stop()` when done (afterAll); a process-exit hook also kills anvil if a run dies first.
 */
export async function startLocalChain(): Promise<LocalChain> {
  const [code, { child, rpcUrl }] = await Promise.all([compileContracts(), launchAnvil()]);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      process.off('exit', killOnExit);
      await stopChild(child);
    })();
    return stopped;
  };
  try {
    await rpc(rpcUrl, 'anvil_setCode', [USDC, code.token]);
    await rpc(rpcUrl, 'anvil_setCode', [MULTICALL3, code.multicall3]);
    await rpc(rpcUrl, 'anvil_setCode', [BATCH_SETTLEMENT_ADDRESS, code.batchSettlement]);
    await rpc(rpcUrl, 'anvil_setCode', [ERC3009_DEPOSIT_COLLECTOR_ADDRESS, code.erc3009DepositCollector]);
    const chain = defineChain({
      id: CHAIN_ID,
      name: 'Base (local anvil)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const reader = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
    // The minter is account #3 (not the facilitator's account #0), so minting never races settles for nonces.
    const minter = createWalletClient({
      account: privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey),
      chain,
      transport: http(rpcUrl),
      pollingInterval: 50,
    });
    const serialMint = serializer();
    const mint = (to: Address, amount: bigint) =>
      serialMint(async () => {
        const hash = await minter.writeContract({
          address: USDC,
          abi: tokenAbi,
          functionName: 'mint',
          args: [to, amount],
        });
        const receipt = await reader.waitForTransactionReceipt({ hash });
        if (receipt.status !== 'success') throw new Error(`mint reverted (${hash})`);
      });
    const payer = ANVIL_ACCOUNTS[1];
    await mint(payer.address, PAYER_FUNDING);
    return {
      rpcUrl,
      chainId: CHAIN_ID,
      usdc: USDC,
      payer: { address: payer.address, privateKey: payer.privateKey },
      payee: ANVIL_ACCOUNTS[2].address,
      other: ANVIL_ACCOUNTS[3].address,
      balanceOf: (address) =>
        reader.readContract({ address: USDC, abi: tokenAbi, functionName: 'balanceOf', args: [address] }),
      mint,
      facilitator: makeFacilitator(rpcUrl),
      batchSettlement: BATCH_SETTLEMENT_ADDRESS,
      erc3009DepositCollector: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
      receiverAuthorizer: { address: ANVIL_ACCOUNTS[4].address, privateKey: ANVIL_ACCOUNTS[4].privateKey },
      rpc: <T = unknown>(method: string, params: unknown[] = []) => rpc<T>(rpcUrl, method, params),
      increaseTime: async (seconds) => {
        await rpc(rpcUrl, 'evm_increaseTime', [seconds]);
        await rpc(rpcUrl, 'evm_mine');
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The facilitator over HTTP

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serves a FacilitatorClient as the x402 facilitator REST API on a free loopback port, so that
 * `new HTTPFacilitatorClient({ url })` (what production uses) can be pointed at the local chain.
 *   GET  /supported → 200 SupportedResponse
 *   POST /verify    {x402Version, paymentPayload, paymentRequirements} → 200 VerifyResponse (isValid true or false)
 *   POST /settle    same body → 200 SettleResponse (success true or false)
 * A body that is not that shape answers 400 `{error}`; a facilitator that throws answers 500 `{error}`
 * (HTTPFacilitatorClient turns both into a plain Error "Facilitator verify failed (status): …").
 */
export async function serveFacilitator(client: FacilitatorClient): Promise<{
  url: string;
  stop(): Promise<void>;
  /** TCP connections opened to it so far (keep-alive keeps them few) and calls by path. */ connections(): number;
  calls: Map<string, number>;
}> {
  const calls = new Map<string, number>();
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
      calls.set(path, (calls.get(path) ?? 0) + 1);
      try {
        if (path === '/supported') {
          if (req.method !== 'GET') return sendJson(res, 405, { error: 'use GET' });
          return sendJson(res, 200, await client.getSupported());
        }
        if (path === '/verify' || path === '/settle') {
          if (req.method !== 'POST') return sendJson(res, 405, { error: 'use POST' });
          let body: { paymentPayload?: unknown; paymentRequirements?: unknown };
          try {
            body = JSON.parse(await readBody(req)) as typeof body;
          } catch {
            return sendJson(res, 400, { error: 'body is not JSON' });
          }
          const { paymentPayload, paymentRequirements } = body ?? {};
          if (
            typeof paymentPayload !== 'object' ||
            paymentPayload === null ||
            typeof paymentRequirements !== 'object' ||
            paymentRequirements === null
          ) {
            return sendJson(res, 400, { error: 'body needs paymentPayload and paymentRequirements objects' });
          }
          const p = paymentPayload as PaymentPayload;
          const r = paymentRequirements as PaymentRequirements;
          return sendJson(res, 200, path === '/verify' ? await client.verify(p, r) : await client.settle(p, r));
        }
        return sendJson(res, 404, { error: `no route ${req.method} ${path}` });
      } catch (e) {
        if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
        else res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  let stopped: Promise<void> | undefined;
  let connections = 0;
  server.on('connection', () => connections++);
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    calls,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Paying clients

type ChainPayer = Pick<LocalChain, 'payer'>;

export interface PayingFetchOptions {
  /** The fetch to wrap (default globalThis.fetch); any `(input, init) => Promise<Response>` works, e.g. an in-process handler. */
  fetch?: typeof globalThis.fetch;
  /** Sign as this key instead of the chain's payer. */
  privateKey?: Hex;
  /** Client spend controls; the SDK default (default assets only, at most $1 a payment) when omitted. */
  spendControls?: SpendControls | false;
}

/** x402Client with the official exact-EVM client scheme for `network` ('eip155:*' signs for any EVM chain id). */
export function payerClient(privateKey: Hex, network: `${string}:${string}` = NETWORK): x402Client {
  return new x402Client().register(network, new ExactEvmClientScheme(privateKeyToAccount(privateKey)));
}

/** `fetch` that answers a 402 by signing with the payer (official @x402/fetch) and retrying with PAYMENT-SIGNATURE. */
export function payingFetch(
  chain: ChainPayer,
  options: PayingFetchOptions = {},
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  const client = payerClient(options.privateKey ?? chain.payer.privateKey);
  if (options.spendControls !== undefined) client.setSpendControls(options.spendControls);
  return wrapFetchWithPayment(options.fetch ?? globalThis.fetch, client);
}

export interface SignOptions {
  /** Sign as this key instead of the chain's payer (e.g. an unfunded account). */
  privateKey?: Hex;
  /**
   * What the payload's `accepted` echoes. 'signed' (default): the requirements actually signed, as an honest SDK
   * sends them. 'offered': the offer's first entry unchanged, i.e. a forged echo that matches the server's
   * requirements while the signed authorization says something else — this reaches the facilitator's checks.
   */
  accepted?: 'signed' | 'offered';
}

/**
 * Builds a PaymentPayload for `paymentRequired` through the official x402Client (EIP-3009 authorization signed
 * with EIP-712), optionally for tampered requirements: `override` is merged over the offer's first entry before
 * signing (wrong amount, payTo, network, asset, extra…). Spend controls are off here, so any amount, asset or
 * EVM network can be signed.
 */
export async function createPayment(
  chain: ChainPayer,
  paymentRequired: PaymentRequired,
  override: Partial<PaymentRequirements> = {},
  options: SignOptions = {},
): Promise<PaymentPayload> {
  const offered = paymentRequired.accepts[0];
  if (!offered) throw new Error('PaymentRequired has no accepts[] entry');
  const signed: PaymentRequirements = { ...offered, ...override };
  const client = payerClient(options.privateKey ?? chain.payer.privateKey, 'eip155:*').setSpendControls(false);
  const payload = await client.createPaymentPayload({ ...paymentRequired, accepts: [signed] });
  return options.accepted === 'offered' ? { ...payload, accepted: offered } : payload;
}

/** {@link createPayment}, encoded as the base64 PAYMENT-SIGNATURE header value. */
export async function signPayment(
  chain: ChainPayer,
  paymentRequired: PaymentRequired,
  override: Partial<PaymentRequirements> = {},
  options: SignOptions = {},
): Promise<string> {
  return encodePaymentSignatureHeader(await createPayment(chain, paymentRequired, override, options));
}
