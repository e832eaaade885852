#!/usr/bin/env node
// @ts-check
// surplus-lines-mcp: a local MCP server (stdio) for the Surplus Lines Market Data Service that pays its priced tools
// from a prepaid x402 channel within a spending cap; `surplus-lines-mcp refund` returns the channel's rest. Plain
// JavaScript, so it runs as installed on any Node the MCP SDK runs on (20 or later). Standard output is the MCP
// channel: everything else goes to standard error, and nothing anywhere names the key.
import { mkdirSync, readFileSync } from 'node:fs';
import { serveBridge } from './bridge.mjs';
import { readPayerKey } from './key.mjs';
import { ledger } from './ledger.mjs';
import { USAGE, UsageError, parseOptions } from './options.mjs';
import { refundChannel } from './refund.mjs';
import { remoteServer } from './remote.mjs';
import { stateLock } from './state-lock.mjs';
import { createWallet } from './wallet.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options = parseOptions(argv);
  const key = readPayerKey(options.keyFile, process.env);
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const wallet = createWallet(options, key);
  const deps = { wallet, ledger: ledger(options.stateDir), lock: stateLock(options.stateDir) };
  if (options.command === 'refund') {
    process.stdout.write(`${await refundChannel({ ...deps, url: options.url })}\n`);
    return;
  }
  serveBridge({ ...deps, remote: remoteServer(options.url, version), options, version });
  process.stderr.write(
    `surplus-lines-mcp ${version}: serving MCP on stdio for ${options.url.href}, paying as ${wallet.address} on ${options.network}, state in ${options.stateDir}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(
    `surplus-lines-mcp: ${e instanceof UsageError ? `${e.message}\n${USAGE}` : /** @type {Error} */ (e).message}\n`,
  );
  process.exit(e instanceof UsageError ? 2 : 1);
});
