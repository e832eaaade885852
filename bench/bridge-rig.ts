// The bridge benchmark's world: the local chain and its facilitator on loopback, two server processes on one build
// and the same shards (the gate on, and off), two bridges (bridge/cli.mjs) each spawned over stdio by the v2 SDK's
// client as an MCP client launches it, with a state directory of its own, and two direct HTTP MCP clients (the SDK
// client the bridge itself uses upstream), one of them paying with the bridge's own wallet in this process.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type Call, FUNDING, bridgeFlags } from './bridge-config.ts';
import { parseOptions } from '../bridge/options.mjs';
import { BATCH, chooseTerms } from '../bridge/terms.mjs';
import { PAYMENT_META, RECEIPT_META, termsOf } from '../bridge/tool-calls.mjs';
import { chargedBy, createWallet } from '../bridge/wallet.mjs';
import { BRIDGE } from '../tests/support/bridge.ts';
import { type LocalChain } from '../tests/support/chain.ts';
import { startServerPair } from './channels-servers.ts';

export type CallResult = Awaited<ReturnType<Client['callTool']>> & { _meta?: Record<string, unknown> };

/** The servers of the bridge benchmark: the pair, the gate-on server's channels in `tmp`. */
export const startServers = (entry: string, shards: string, tmp: string, stops: (() => unknown)[]) =>
  startServerPair(entry, shards, join(tmp, 'server-channels'), stops);

export interface McpClient {
  client: Client;
  /** The bridge's process id (null for a direct HTTP client). */
  pid: number | null;
  stderr(): string;
}

/**
 * A bridge serving `url`, spawned over stdio by the v2 SDK's client with a fresh state directory, the local chain as
 * its RPC, a budget and a largest deposit of BUDGET_USD (one deposit pays for the run) and `key` as its payer; its
 * tools listed once, as an MCP client does first.
 */
export async function launchBridge(
  url: string,
  rpcUrl: string,
  key: Hex,
  tmp: string,
  name: string,
): Promise<McpClient> {
  const stateDir = mkdtempSync(join(tmp, `${name}-state-`));
  const args = [BRIDGE, ...bridgeFlags(url, rpcUrl, stateDir)];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', X402_PAYER_KEY: key },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'bench-bridge', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, pid: transport.pid, stderr: () => stderr };
}

/**
 * What a direct client's fetch sent and was answered, while `recording` is on (off while timing: nothing is copied
 * then).
 */
export interface Wire {
  recording: boolean;
  requests: string[];
  responses: string[];
}

/**
 * An HTTP MCP client of `url` (the SDK client the bridge uses upstream), its tools listed once; its fetch records into
 * `wire` when asked.
 */
export async function directClient(url: string, wire: Wire): Promise<McpClient> {
  const fetchRecording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (!wire.recording || init?.method !== 'POST') return res;
    wire.requests.push(typeof init.body === 'string' ? init.body : '');
    wire.responses.push(await res.clone().text());
    return res;
  };
  const client = new Client({ name: 'bench-direct', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchRecording }));
  await client.listTools();
  return { client, pid: null, stderr: () => '' };
}

/** A payer in this process with the bridge's own wallet (bridge/wallet.mjs), paying over a direct client. */
export interface DirectPayer {
  wallet: ReturnType<typeof createWallet>;
  required: PaymentRequired;
  requirement: PaymentRequirements;
  /** The first call's receipt: the deposit that opened the channel. */
  deposit: SettleResponse;
  /** Signs the next payment (a voucher once the channel is open). */
  sign(): Promise<PaymentPayload>;
  /** Takes a paid call's receipt into the channel's state, as the bridge does after each paid call. */
  settled(payment: PaymentPayload, receipt: SettleResponse): Promise<void>;
}

/**
 * A fresh payer, funded on chain, with the bridge's wallet on a state directory of its own: its first call on `direct`
 * (the gate-on server) reads the terms, the next opens the channel with a deposit, as the bridge's first paid call
 * does.
 */
export async function directPayer(
  direct: Client,
  tool: string,
  args: Record<string, unknown>,
  chain: LocalChain,
  url: string,
  tmp: string,
): Promise<DirectPayer> {
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, FUNDING);
  const stateDir = mkdtempSync(join(tmp, 'direct-payer-state-'));
  const options = parseOptions(bridgeFlags(url, chain.rpcUrl, stateDir));
  const wallet = createWallet(options, key);
  const required = termsOf(await direct.callTool({ name: tool, arguments: args }));
  if (!required) throw new Error(`the gate-on server answered an unpaid ${tool} without terms`);
  const choice = chooseTerms(required, options, 0n);
  if ('refusal' in choice) throw new Error(`the direct payer refused the terms: ${choice.refusal.message}`);
  const { requirement } = choice;
  let spent = 0n;
  const sign = () => wallet.sign(required, requirement, options.budget - spent);
  const settled = async (payment: PaymentPayload, receipt: SettleResponse) => {
    await wallet.settled(payment, receipt);
    spent += chargedBy(payment, receipt);
  };
  const payment = await sign();
  const first = (await direct.callTool({
    name: tool,
    arguments: args,
    _meta: { [PAYMENT_META]: payment },
  })) as CallResult;
  const deposit = first._meta?.[RECEIPT_META] as SettleResponse | undefined;
  if (first.isError || !deposit?.success || !/^0x[0-9a-f]{64}$/i.test(deposit.transaction))
    throw new Error(`the direct payer's deposit call answered ${JSON.stringify(first).slice(0, 300)}`);
  await settled(payment, deposit);
  return { wallet, required, requirement, deposit, sign, settled };
}

/**
 * The terms the gate-on server asks for `call` (its unpaid call's answer), checked: a prepaid-channel offer at the
 * price the benchmark counts on.
 */
export async function termsFor(direct: Client, call: Call): Promise<PaymentRequired> {
  const required = termsOf(await direct.callTool({ name: call.tool, arguments: call.args }));
  const amount = required?.accepts.find((a) => a.scheme === BATCH)?.amount;
  if (amount !== String(call.price))
    throw new Error(
      `the gate-on server's terms for ${call.tool} offer a prepaid channel at ${amount ?? 'no price'}, ` +
        `not ${call.price}`,
    );
  return required!;
}
