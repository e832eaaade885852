// `npm run channels`: the operator's view of the prepaid channels the server holds (docs/design.md §13), from Redis
// when REDIS_URL is set, else from X402_CHANNELS_DIR (read without taking it from the server that runs on it):
// each channel's payer, deposit, charged, claimed, owed, last paid answer and state (open, withdrawing, set aside),
// with totals. `--json` prints the same for scripts; `--clear <channel id>` puts a set-aside channel back once an
// operator has looked (the running server sees it at its next voucher).
import { formatUnits } from 'viem';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { ChannelJournal } from '../api/payment/channel-journal.ts';
import { type SetAside, type SetAsideStore, fileSetAside, redisSetAside } from '../api/payment/set-aside.ts';
import { assetSymbol, channelsDir, paymentSettings } from '../api/payment/settings.ts';

const USAGE = 'usage: npm run channels [-- --json] [-- --clear <channel id>]';

interface Row {
  channel: string;
  payer: string;
  deposit: string;
  charged: string;
  claimed: string;
  owed: string;
  lastAnswer: string | null;
  state: 'open' | 'withdrawing' | 'set aside';
  setAside?: { reason: string; at: string };
}

function parseArgs(args: string[]): { json: boolean; clear?: string } {
  const out: { json: boolean; clear?: string } = { json: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--json') out.json = true;
    else if (args[i] === '--clear') {
      const id = args[++i];
      if (!id || !/^0x[0-9a-fA-F]{64}$/.test(id))
        fail(`--clear needs a channel id, 0x and 64 hex digits; got '${id ?? ''}'`);
      out.clear = id.toLowerCase();
    } else fail(`unknown argument '${args[i]}'`);
  }
  return out;
}

function fail(message: string): never {
  console.error(`channels: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The channels and the set-aside list, from Redis or the directory, and how to let go of them. */
async function open(
  env: NodeJS.ProcessEnv,
): Promise<{ where: string; channels: () => Promise<Channel[]>; setAside: SetAsideStore; close: () => Promise<void> }> {
  const redisUrl = env.REDIS_URL?.trim();
  if (redisUrl) {
    const [{ RedisChannelStorage }, { sharedRedis, closeRedis }] = await Promise.all([
      import('@x402/evm/batch-settlement/server/redis-storage'),
      import('../api/payment/redis.ts'),
    ]);
    const client = await sharedRedis(redisUrl);
    if (!client.isReady) fail(`Redis at ${new URL(redisUrl).host} cannot be reached`);
    const storage = new RedisChannelStorage({ client: client });
    return {
      where: `Redis at ${new URL(redisUrl).host}`,
      channels: () => storage.list(),
      setAside: redisSetAside(client),
      close: () => closeRedis(redisUrl),
    };
  }
  const dir = channelsDir(env);
  return {
    where: dir,
    channels: async () => ChannelJournal.peek(dir),
    setAside: fileSetAside(dir),
    close: async () => {},
  };
}

function rowOf(c: Channel, aside: SetAside | undefined, amount: (atomic: bigint) => string): Row {
  const charged = BigInt(c.chargedCumulativeAmount);
  const claimed = BigInt(c.totalClaimed);
  return {
    channel: c.channelId.toLowerCase(),
    payer: c.channelConfig.payer,
    deposit: amount(BigInt(c.balance)),
    charged: amount(charged),
    claimed: amount(claimed),
    owed: amount(charged - claimed),
    lastAnswer: c.lastRequestTimestamp ? new Date(c.lastRequestTimestamp).toISOString() : null,
    state: aside ? 'set aside' : c.withdrawRequestedAt > 0 ? 'withdrawing' : 'open',
    ...(aside ? { setAside: { reason: aside.reason, at: aside.at } } : {}),
  };
}

function printTable(rows: Row[], totals: Record<string, string>, where: string, unit: string): void {
  const head = ['channel', 'payer', 'deposit', 'charged', 'claimed', 'owed', 'last answer', 'state'];
  const cells = rows.map((r) => [
    r.channel,
    r.payer,
    r.deposit,
    r.charged,
    r.claimed,
    r.owed,
    r.lastAnswer ?? '-',
    r.state,
  ]);
  cells.push([
    'total',
    `${rows.length} channel(s)`,
    totals.deposit,
    totals.charged,
    totals.claimed,
    totals.owed,
    '',
    '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(`prepaid channels in ${where} (amounts in ${unit})`);
  console.log(line(head));
  for (const row of cells) console.log(line(row));
  for (const r of rows.filter((r) => r.setAside))
    console.log(`set aside ${r.channel} at ${r.setAside!.at}: ${r.setAside!.reason}`);
}

const args = parseArgs(process.argv.slice(2));
// Amounts in the asset the gate is configured with (USDC, 6 decimals, when X402_PAY_TO is unset).
const settings = process.env.X402_PAY_TO?.trim() ? paymentSettings(process.env) : null;
const decimals = settings?.asset.decimals ?? 6;
const unit = settings ? assetSymbol(settings.asset) : 'USDC';
const amount = (atomic: bigint) => formatUnits(atomic, decimals);
const store = await open(process.env);
try {
  if (args.clear) {
    if (!(await store.setAside.clear(args.clear))) {
      console.error(`channels: ${args.clear} is not set aside in ${store.where}`);
      process.exitCode = 1;
    } else
      console.log(
        `channel ${args.clear} cleared: it takes vouchers again; its payer's next voucher replaces the kept one, ` +
          `and the next claim run tries it (a kept voucher the escrow still refuses sets it aside again)`,
      );
  } else {
    const aside = new Map((await store.setAside.list()).map((e) => [e.channelId, e]));
    const channels = await store.channels();
    const rows = channels.map((c) => rowOf(c, aside.get(c.channelId.toLowerCase()), amount));
    const sum = (pick: (c: Channel) => bigint) => amount(channels.reduce((s, c) => s + pick(c), 0n));
    const totals = {
      deposit: sum((c) => BigInt(c.balance)),
      charged: sum((c) => BigInt(c.chargedCumulativeAmount)),
      claimed: sum((c) => BigInt(c.totalClaimed)),
      owed: sum((c) => BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed)),
    };
    if (args.json)
      console.log(
        JSON.stringify(
          { source: store.where, unit, channels: rows, totals: { channels: rows.length, ...totals } },
          null,
          1,
        ),
      );
    else printTable(rows, totals, store.where, unit);
  }
} finally {
  await store.close();
}
