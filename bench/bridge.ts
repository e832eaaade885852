// `npm run bench:bridge`: what paying costs a tool call through the MCP bridge (bridge/cli.mjs, `surplus-lines-mcp`),
// signing included. Two server processes on one build and the same REAL shards (built from data/): the
// gate ON (payee on a local chain, facilitator on loopback) and the gate OFF. Four bridges, each spawned over stdio by
// the MCP SDK's v2 client as an MCP client launches it, each with a fresh state directory, the local chain as its RPC,
// and a budget and largest deposit that let one deposit pay for all its calls: two forwarding to the gate-on server
// (paying: the first call reads the terms and deposits, then each call carries a voucher, one round trip), two to the
// gate-off server (with keys of their own, never used). Nothing touches a real network. A paid call signs its voucher
// in the call, answers once the receipt is checked, then (holding the state lock) takes the receipt in and writes the
// spending.
//  1. The bytes of one paid tools/call over HTTP and of its answer, against the gate-off ones; those two answers are
//     kept as the in-process remote's (3).
//  2. Rounds, one call at a time, the order rotating (./bridge-rounds.ts): the same priced call repeated through one
//     paid and one gate-off bridge; two priced tools of different prices alternating through the other two, in the
//     same order; for context direct HTTP MCP (no bridge) paid and gate off, gate off through the SDK's path, and in
//     this process the bridge's own code with a remote answering at once. Each call timed from the client's callTool
//     to its resolution; each answer checked (a wrong one stops the run): the gate-off server's figures, on a paid
//     call a successful receipt for its price with no chain transaction (a voucher), on a gate-off one no receipt; no
//     chain transaction or facilitator call while timing. The deposit calls are not timed. Goal, signing
//     included: voucher-paid − gate off through the bridge ≤ 3 ms, medians, the largest of the three (get_summary
//     repeated; get_summary and compare_states alternating).
//  3. Back to back (./bridge-back-to-back.ts): paid calls of one tool in a row with no gap, then gate off: each paid
//     call waits for the previous call's bookkeeping. Not a goal.
//  4. Step by step, in this process (./bridge-steps.ts): the bridge's own code for the call with a remote answering at
//     once, paid (signing in the call) and gate off, until the answer; its bookkeeping after the answer; and the
//     parts alone, down to signing one voucher.
// Not a test: it reports. With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers
// them). The parts: ./bridge-config.ts, ./bridge-rig.ts (the servers, the bridges, the direct clients and payer),
// ./bridge-rounds.ts (1, 2), ./bridge-back-to-back.ts (3), ./bridge-steps.ts (4), ./bridge-report.ts (what is printed
// and written).
import { writeFileSync } from 'node:fs';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BACK_TO_BACK, FUNDING, N, OTHER, SUMMARY, WARMUP } from './bridge-config.ts';
import { backToBack } from './bridge-back-to-back.ts';
import { type BridgeResult, goalOf, printBridge } from './bridge-report.ts';
import { directClient, directPayer, launchBridge, startServers, termsFor, type Wire } from './bridge-rig.ts';
import { openBridgeChannel, referenceOf, type References, rounds, wireSizes } from './bridge-rounds.ts';
import { inProcess } from './bridge-steps.ts';
import { benchRun, paidBenchStart } from './run.ts';
import { formatUsd } from '../bridge/usd.mjs';

const { tmp, dist, stops, cleanup } = benchRun('bridge');

try {
  if (!(Number.isInteger(N) && N >= 1))
    throw new Error(`BENCH_BRIDGE_CALLS must be a whole number of calls ≥ 1, got '${process.env.BENCH_BRIDGE_CALLS}'`);
  const { shards, entry } = paidBenchStart(tmp, dist);
  const servers = await startServers(entry, shards, tmp, stops);
  const { chain, on, off } = servers;

  const wire: Wire = { recording: false, requests: [], responses: [] };
  const directOff = await directClient(`${off.base}/mcp`, wire);
  stops.push(() => directOff.client.close());
  const directPaid = await directClient(`${on.base}/mcp`, wire);
  stops.push(() => directPaid.client.close());
  const refs: References = new Map();
  for (const c of [SUMMARY, OTHER]) {
    refs.set(c.tool, await referenceOf(directOff.client, c));
    console.log(
      `${c.tool} ${JSON.stringify(c.args)}: the gate-off answer is ${refs.get(c.tool)!.bytes} bytes as a tool result`,
    );
  }
  const ref = refs.get(SUMMARY.tool)!;
  const otherTerms = await termsFor(directPaid.client, OTHER);

  // A paid bridge of its own for each measurement: the same call repeated, and the tools alternating.
  const paidBridge = async (name: string) => {
    const key = generatePrivateKey();
    await chain.mint(privateKeyToAccount(key).address, FUNDING);
    const bridge = await launchBridge(`${on.base}/mcp`, chain.rpcUrl, key, tmp, name);
    stops.push(() => bridge.client.close());
    return bridge;
  };
  const offBridge = async (name: string) => {
    const bridge = await launchBridge(`${off.base}/mcp`, chain.rpcUrl, generatePrivateKey(), tmp, name);
    stops.push(() => bridge.client.close());
    return bridge;
  };
  const [bridgePaid, bridgeOff, bridgePaidAlt, bridgeOffAlt] = [
    await paidBridge('bridge-paid'),
    await offBridge('bridge-off'),
    await paidBridge('bridge-paid-alt'),
    await offBridge('bridge-off-alt'),
  ];
  const depositTransaction = await openBridgeChannel(bridgePaid, ref);
  const altDeposit = await openBridgeChannel(bridgePaidAlt, ref);
  const payer = await directPayer(directPaid.client, SUMMARY.tool, SUMMARY.args, chain, `${on.base}/mcp`, tmp);
  if (payer.requirement.amount !== String(SUMMARY.price))
    throw new Error(`the gate-on server asks ${payer.requirement.amount} for ${SUMMARY.tool}, not ${SUMMARY.price}`);
  console.log(
    `the two paid bridges and the direct payer each opened a channel with one deposit (the bridges': ` +
      `transactions ${depositTransaction}, ${altDeposit}); from here on, vouchers only`,
  );

  const { bytes, recorded } = await wireSizes({ directPaid, directOff, payer, wire }, ref);
  const own = await inProcess(
    { ...recorded, terms: { [SUMMARY.tool]: payer.required, [OTHER.tool]: otherTerms } },
    `${on.base}/mcp`,
    chain.rpcUrl,
    tmp,
  );

  console.log(
    `measuring: ${WARMUP} warm-up rounds, then ${N} rounds (one call at a time, order rotating), ` +
      `node ${process.version}; every paid call signs its voucher in the call: ${SUMMARY.tool} repeated through a ` +
      `paid bridge and a gate-off one; ` +
      `${SUMMARY.tool} and ${OTHER.tool} alternating through another paid bridge and another gate-off one, twice ` +
      `a round each; over direct HTTP MCP paid, gate off and gate off through the SDK's path; ` +
      `and in this process the bridge's code paid (repeated, and alternating) and gate off`,
  );
  const rows = await rounds(
    servers,
    { bridgePaid, bridgeOff, bridgePaidAlt, bridgeOffAlt, directPaid, directOff, payer, wire, inProcess: own },
    refs,
  );
  console.log(
    `back to back: ${BACK_TO_BACK} paid calls of ${SUMMARY.tool} in a row through the paid bridge, ` +
      `then ${BACK_TO_BACK} through the gate-off bridge`,
  );
  const inARow = await backToBack(servers, bridgePaid, bridgeOff, ref);
  for (const b of [bridgePaid, bridgeOff, bridgePaidAlt, bridgeOffAlt]) await b.client.close();

  const steps = await own.stepByStep();
  const tools = [SUMMARY, OTHER].map((c) => ({ tool: c.tool, args: c.args, priceUsd: formatUsd(c.price) }));
  const result: BridgeResult = {
    tools,
    calls: N,
    warmup: WARMUP,
    rows,
    bytes,
    steps,
    backToBack: inARow,
    depositTransaction,
    goal: goalOf(rows),
  };
  printBridge(result);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(result, null, 1));
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
