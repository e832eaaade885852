// `npm run chain`: a local stand-in for Base and its x402 facilitator, for paying this service by hand or from an
// agent under development. Starts anvil as Base mainnet (chain id 8453) with the project's test contracts (a USDC
// look-alike at USDC's address, x402's batch-settlement escrow and deposit collector, Multicall3; see
// tests/support/chain.ts), and a loopback facilitator for both schemes (`exact` and `batch-settlement`), then prints
// what a server and a payer need, as shell assignments, and stays up until stopped (Ctrl-C).
// The same values go to .tmp/chain.env (CHAIN_ENV_FILE moves it) as `export` lines another shell can `source`; the
// file goes when the chain stops, so that it never names a dead chain.
// Nothing here reaches a real network; the keys are anvil's public development keys.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ANVIL_ACCOUNTS, PAYER_FUNDING, serveFacilitator, startLocalChain } from '../tests/support/chain.ts';

/** A value a POSIX shell reads back as is: single-quoted, each ' written '\''. */
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Writes `export NAME='value'` lines to `file` through a rename (a shell never reads half a file); returns the text.
 */
function writeEnvFile(file: string, values: Record<string, string>): string {
  const text = [
    `# Written by \`npm run chain\` (process ${process.pid}), removed when it stops. Load with: source <this file>`,
    ...Object.entries(values).map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    '',
  ].join('\n');
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, file);
  return text;
}

/** Removes `file` while it still holds `text`: a chain started since has replaced it with its own. */
function removeEnvFile(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) rmSync(file);
  } catch {
    // already gone
  }
}

const chain = await startLocalChain();
const facilitator = await serveFacilitator(chain.facilitator);
const payer = ANVIL_ACCOUNTS.find((a) => a.address === chain.payer.address)!;

const values = { FACILITATOR_URL: facilitator.url, PAYEE: chain.payee, RPC: chain.rpcUrl, PAYER_KEY: payer.privateKey };
const envFile = resolve(process.env.CHAIN_ENV_FILE || join(import.meta.dirname, '..', '.tmp', 'chain.env'));
// With the server's names for the same payee and facilitator (`source` it, then `npm start` serves with the gate on),
// and the bridge's for the payer's key (`source` it, then `surplus-lines-mcp --rpc-url $RPC` pays from it).
const written = writeEnvFile(envFile, {
  ...values,
  X402_PAY_TO: values.PAYEE,
  X402_FACILITATOR_URL: values.FACILITATOR_URL,
  X402_PAYER_KEY: values.PAYER_KEY,
});
process.on('exit', () => removeEnvFile(envFile, written)); // also when it dies of an error

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  removeEnvFile(envFile, written); // first: from here on the chain is going
  await facilitator.stop();
  await chain.stop();
  process.exit(0);
}
// Before the lines below: whoever reads them may stop it at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());

for (const [name, value] of Object.entries(values)) console.log(`${name}=${value}`);
const shown = relative(process.cwd(), envFile); // .tmp/chain.env from the project's root
console.log(`# Also in ${shown.startsWith('..') ? envFile : shown}: source it in another shell`);
console.log(
  `# The payer holds ${Number(PAYER_FUNDING) / 1e6} test USDC. Serve with: ` +
    `source ${shown.startsWith('..') ? envFile : shown} && npm start`,
);
console.log('# Up until stopped (Ctrl-C).');
