// `npm run bench:bridge`: what paying costs a tool call through the MCP bridge (bridge/cli.mjs, `surplus-lines-mcp`),
// signing included (issue 40). Two server processes on one build and the same REAL shards (built from data/): the
// gate ON (payee on a local chain, facilitator on loopback) and the gate OFF. Two bridges, each spawned over stdio by
// the MCP SDK's v2 client as an MCP client launches it, each with a fresh state directory, the local chain as its
// RPC, and a budget and largest deposit that let one deposit pay for the whole run: one forwarding to the gate-on
// server (paying: its first call reads the terms and deposits, then each call carries a voucher signed in the bridge,
// one round trip), one to the gate-off server (with a key of its own, never used). Nothing touches a real network.
//  1. The bytes of one paid tools/call over HTTP and of its answer, against the gate-off ones; those two answers are
//     kept as the in-process remote's (3).
//  2. Rounds, one call at a time, the order rotating (./bridge-rounds.ts): the same priced tool call through each
//     bridge; for context the same two over direct HTTP MCP (no bridge), and the gate-off one again with a `_meta`
//     the server's MCP fast path does not take (its SDK's path, as a paid call's); and in this process the bridge's
//     own code, paid and gate off, with a remote answering at once. Each call timed from the client's callTool to its
//     resolution; each answer checked (a wrong one stops the run): the gate-off server's figures, on a paid call a
//     successful receipt for one price with no chain transaction (a voucher), on a gate-off one no receipt; no chain
//     transaction or facilitator call while timing. The deposit calls are not timed.
//     Goal (issue 40): voucher-paid through the bridge − gate off through the bridge ≤ 3 ms, medians, one run.
//  3. Step by step, in this process (./bridge-steps.ts): the bridge's own code for the call with a remote answering at
//     once, paid and gate off, and the paid call's parts alone, down to signing one voucher.
// Not a test: it reports. With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them).
// The parts: ./bridge-config.ts, ./bridge-rig.ts (the servers, the bridges, the direct clients and payer),
// ./bridge-rounds.ts (1, 2), ./bridge-steps.ts (3), ./bridge-report.ts (what is printed and written).
import { writeFileSync } from 'node:fs';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ARGS, FUNDING, N, TOOL, WARMUP } from './bridge-config.ts';
import { type BridgeResult, goalOf, printBridge } from './bridge-report.ts';
import { directClient, directPayer, launchBridge, startServers, type Wire } from './bridge-rig.ts';
import { openBridgeChannel, referenceOf, rounds, wireSizes } from './bridge-rounds.ts';
import { inProcess } from './bridge-steps.ts';
import { benchRun, paidBenchStart } from './run.ts';

const { tmp, dist, stops, cleanup } = benchRun('bridge');

try {
  if (!(Number.isInteger(N) && N >= 1)) throw new Error(`BENCH_BRIDGE_CALLS must be a whole number of calls ≥ 1, got '${process.env.BENCH_BRIDGE_CALLS}'`);
  const { shards, entry } = paidBenchStart(tmp, dist);
  const servers = await startServers(entry, shards, tmp, stops);
  const { chain, on, off } = servers;

  const wire: Wire = { recording: false, requests: [], responses: [] };
  const directOff = await directClient(`${off.base}/mcp`, wire);
  stops.push(() => directOff.client.close());
  const directPaid = await directClient(`${on.base}/mcp`, wire);
  stops.push(() => directPaid.client.close());
  const ref = await referenceOf(directOff.client);
  console.log(`${TOOL} ${JSON.stringify(ARGS)}: the gate-off answer is ${ref.bytes} bytes as a tool result`);

  const paidKey = generatePrivateKey();
  await chain.mint(privateKeyToAccount(paidKey).address, FUNDING);
  const bridgePaid = await launchBridge(`${on.base}/mcp`, chain.rpcUrl, paidKey, tmp, 'bridge-paid');
  stops.push(() => bridgePaid.client.close());
  const bridgeOff = await launchBridge(`${off.base}/mcp`, chain.rpcUrl, generatePrivateKey(), tmp, 'bridge-off');
  stops.push(() => bridgeOff.client.close());
  const depositTransaction = await openBridgeChannel(bridgePaid, ref);
  const payer = await directPayer(directPaid.client, TOOL, ARGS, chain, `${on.base}/mcp`, tmp);
  console.log(`the paid bridge and the direct payer each opened a channel with one deposit (the bridge's: transaction ${depositTransaction}); from here on, vouchers only`);

  const { bytes, recorded } = await wireSizes({ directPaid, directOff, payer, wire }, ref);
  const own = await inProcess(payer, recorded, `${on.base}/mcp`, chain.rpcUrl, tmp);

  console.log(
    `measuring: ${WARMUP} warm-up rounds, then ${N} rounds of ${TOOL} through the paid bridge, the gate-off bridge, over direct HTTP MCP paid, gate off and gate off through the SDK's path, ` +
      `and in this process the bridge's code paid and gate off (one call at a time, order rotating), node ${process.version}`,
  );
  const rows = await rounds(servers, { bridgePaid, bridgeOff, directPaid, directOff, payer, wire, inProcess: own }, ref);
  await bridgePaid.client.close();
  await bridgeOff.client.close();

  const steps = await own.stepByStep();
  const result: BridgeResult = { tool: TOOL, args: ARGS, calls: N, warmup: WARMUP, rows, bytes, steps, depositTransaction, goal: goalOf(rows) };
  printBridge(result);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(result, null, 1));
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
