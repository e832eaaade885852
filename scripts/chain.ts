// `npm run chain`: a local stand-in for Base and its x402 facilitator, for paying this service by hand or from an
// agent under development. Starts anvil as Base mainnet (chain id 8453) with the project's test contracts (a USDC
// look-alike at USDC's address, x402's batch-settlement escrow and deposit collector, Multicall3; see
// tests/support/chain.ts), and a loopback facilitator for both schemes (`exact` and `batch-settlement`), then prints
// what a server and a payer need, as shell assignments, and stays up until stopped (Ctrl-C).
// Nothing here reaches a real network; the keys are anvil's public development keys.
import { ANVIL_ACCOUNTS, PAYER_FUNDING, serveFacilitator, startLocalChain } from '../tests/support/chain.ts';

const chain = await startLocalChain();
const facilitator = await serveFacilitator(chain.facilitator);
const payer = ANVIL_ACCOUNTS.find((a) => a.address === chain.payer.address)!;

console.log(`FACILITATOR_URL=${facilitator.url}`);
console.log(`PAYEE=${chain.payee}`);
console.log(`RPC=${chain.rpcUrl}`);
console.log(`PAYER_KEY=${payer.privateKey}`);
console.log(`# The payer holds ${Number(PAYER_FUNDING) / 1e6} test USDC. Serve with: X402_PAY_TO=$PAYEE X402_FACILITATOR_URL=$FACILITATOR_URL npm start`);
console.log('# Up until stopped (Ctrl-C).');

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await facilitator.stop();
  await chain.stop();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
