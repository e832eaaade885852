// @ts-check
// The bridge's command line: `surplus-lines-mcp [refund] [--url …] [--budget-usd …] [--max-deposit-usd …]
// [--state-dir …] [--key-file …] [--network …] [--rpc-url …]`, read into one checked set of options. A mistake is
// a UsageError naming the flag and what it takes; the key itself is read by ./key.mjs and never echoed.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getDefaultAsset } from '@x402/evm';
import { base, baseSepolia } from 'viem/chains';
import { parseUsd } from './usd.mjs';

export class UsageError extends Error {}

/** The networks the bridge pays on, and each one's chain (its public RPC is the default `--rpc-url`). */
const CHAINS = { 'eip155:8453': base, 'eip155:84532': baseSepolia };

export const USAGE = `usage: surplus-lines-mcp [refund] [options]
  (no command)           serve MCP over stdio, forwarding to the remote /mcp and paying priced calls
  refund                 ask the server to refund the prepaid channel's rest, and print the transaction
options:
  --url URL              the remote MCP endpoint (default: the remote in this package's server.json)
  --budget-usd N         the most the bridge may spend from this state directory (default 1.00)
  --max-deposit-usd N    the most one deposit into the prepaid channel may be (default 5.00)
  --state-dir DIR        where the channel and the spending are kept (default: surplus-lines-mcp in your
                         configuration directory)
  --key-file FILE        the payer's private key (0x + 64 hex digits), readable only by its owner; or set
                         X402_PAYER_KEY
  --network ID           eip155:8453 (Base, default) or eip155:84532 (Base Sepolia); pays its USDC only
  --rpc-url URL          a JSON-RPC endpoint of that network, to read the channel (default: its public RPC)`;

/**
 * @typedef {object} Options
 * @property {'serve' | 'refund'} command
 * @property {URL} url
 * @property {bigint} budget atomic units
 * @property {bigint} maxDeposit atomic units
 * @property {string} stateDir
 * @property {string | undefined} keyFile
 * @property {`${string}:${string}`} network
 * @property {`0x${string}`} asset the network's USDC
 * @property {import('viem').Chain} chain
 * @property {string} rpcUrl
 */

/** The flags, with their defaults (server.json lists the same for the MCP Registry: tests/discovery/server-json.test.ts). */
export const FLAGS = /** @type {const} */ ({
  url: { type: 'string' },
  'budget-usd': { type: 'string', default: '1.00' },
  'max-deposit-usd': { type: 'string', default: '5.00' },
  'state-dir': { type: 'string' },
  'key-file': { type: 'string' },
  network: { type: 'string', default: 'eip155:8453' },
  'rpc-url': { type: 'string' },
});

/** The user's configuration directory, as each platform has it. */
function configDir() {
  if (process.platform === 'win32') return process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
}

/** The remote of the server.json built with this package: the service the bridge was made for. */
function packagedRemote() {
  const doc = JSON.parse(readFileSync(new URL('../server.json', import.meta.url), 'utf8'));
  return String(doc.remotes?.[0]?.url);
}

/**
 * @param {string} text
 * @param {string} flag
 */
function httpUrl(text, flag) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, not ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL, not ${JSON.stringify(text.slice(0, 80))}`);
  return url;
}

/**
 * @param {string[]} argv the arguments after the program's name
 * @returns {Options}
 */
export function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: FLAGS,
    });
  } catch (e) {
    throw new UsageError(/** @type {Error} */ (e).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1 || (positionals.length === 1 && positionals[0] !== 'refund'))
    throw new UsageError(
      `unknown command ${JSON.stringify(positionals.join(' ').slice(0, 40))}: the only command is refund`,
    );
  const network = /** @type {keyof typeof CHAINS} */ (values.network);
  const chain = CHAINS[network];
  if (!chain)
    throw new UsageError(
      `--network must be one of ${Object.keys(CHAINS).join(', ')}, not ${JSON.stringify(values.network.slice(0, 40))}`,
    );
  const usd = (/** @type {string} */ flag) => {
    try {
      return parseUsd(/** @type {string} */ (values[/** @type {'budget-usd'} */ (flag)]), `--${flag}`);
    } catch (e) {
      throw new UsageError(/** @type {Error} */ (e).message);
    }
  };
  return {
    command: positionals[0] === 'refund' ? 'refund' : 'serve',
    url: httpUrl(values.url ?? packagedRemote(), '--url'),
    budget: usd('budget-usd'),
    maxDeposit: usd('max-deposit-usd'),
    stateDir: values['state-dir'] ?? join(configDir(), 'surplus-lines-mcp'),
    keyFile: values['key-file'],
    network,
    asset: /** @type {`0x${string}`} */ (getDefaultAsset(network).asset),
    chain,
    rpcUrl: httpUrl(values['rpc-url'] ?? chain.rpcUrls.default.http[0], '--rpc-url').href,
  };
}
