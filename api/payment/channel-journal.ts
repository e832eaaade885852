// The Node server's prepaid channels (docs/design.md §13), kept in a directory: vouchers are money, so every change
// to what a channel can claim is on disk before the answer it pays for leaves. The state lives in memory and each
// change is appended as one JSON line to `channels.jsonl` (a few microseconds; a file rewritten per voucher cost
// half a millisecond), and is read back at start. A process killed at any point loses nothing it had answered for.
// The reservation a request holds while its answer is computed is not written: it dies with the process, as the
// request does. One server owns a directory at a time (`owner.pid`); processes that share channels use Redis.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Channel, ChannelStorage, ChannelUpdateResult } from '@x402/evm/batch-settlement/server';

const JOURNAL = 'channels.jsonl';
const OWNER = 'owner.pid';
/** Past this many lines the journal is rewritten as one line per live channel. */
const COMPACT_AFTER_LINES = 100_000;

/** A line of the journal: a channel as it now is, or its removal (refunded in full). */
type Entry = { channel: Channel } | { deleted: string };

export class ChannelJournalError extends Error {}

const byChannelId = (a: Channel, b: Channel) => a.channelId.localeCompare(b.channelId);

/** What is written of a channel: everything but the live request's reservation. */
function durable(channel: Channel): Channel {
  const { pendingRequest: _reservation, ...rest } = channel;
  return rest;
}

/** What makes a change worth writing: not the reservation, nor the times a reservation alone moves. */
function claimable(channel: Channel | undefined): string {
  if (!channel) return '';
  const { pendingRequest: _r, lastRequestTimestamp: _l, onchainSyncedAt: _o, ...rest } = channel;
  return JSON.stringify(rest);
}

export class ChannelJournal implements ChannelStorage {
  private readonly channels = new Map<string, Channel>();
  private readonly dir: string;
  private fd = -1;
  private lines = 0;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * Opens (creating) the directory, takes ownership of it and reads its channels; refuses a damaged journal, naming the
   * line.
   */
  static open(dir: string): ChannelJournal {
    mkdirSync(dir, { recursive: true });
    const journal = new ChannelJournal(dir);
    journal.takeOwnership();
    try {
      journal.replay();
      journal.compact();
    } catch (e) {
      journal.close(); // refused: the directory is left as it was, and not held
      throw e;
    }
    return journal;
  }

  private takeOwnership(): void {
    const path = join(this.dir, OWNER);
    for (;;) {
      try {
        writeFileSync(path, String(process.pid), { flag: 'wx' });
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner))
        throw new ChannelJournalError(
          `${this.dir} is in use by process ${owner}: one server per channels directory (set REDIS_URL for several)`,
        );
      rmSync(path, { force: true }); // its owner died (killed): the journal is whole up to its last line
    }
  }

  private replay(): void {
    for (const [key, channel] of replayJournal(join(this.dir, JOURNAL))) this.channels.set(key, channel);
  }

  /** The channels a directory holds, read without taking it (an operator's view while its server runs). */
  static peek(dir: string): Channel[] {
    return [...replayJournal(join(dir, JOURNAL)).values()].sort(byChannelId);
  }

  /**
   * Rewrites the journal as one line per channel (written whole, then renamed over the old one), and appends from
   * there.
   */
  private compact(): void {
    if (this.fd >= 0) closeSync(this.fd);
    const path = join(this.dir, JOURNAL);
    const text = [...this.channels.values()]
      .map((c) => `${JSON.stringify({ channel: durable(c) } satisfies Entry)}\n`)
      .join('');
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    this.fd = openSync(path, 'a');
    this.lines = this.channels.size;
  }

  private append(entry: Entry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    if (++this.lines > COMPACT_AFTER_LINES && this.lines > 4 * this.channels.size) this.compact();
  }

  async get(channelId: string): Promise<Channel | undefined> {
    return this.channels.get(channelId.toLowerCase());
  }

  async list(): Promise<Channel[]> {
    return [...this.channels.values()].sort(byChannelId);
  }

  // Synchronous from read to write: nothing else runs in between, so no lock is needed within the process.
  async updateChannel(
    channelId: string,
    update: (current: Channel | undefined) => Channel | undefined,
  ): Promise<ChannelUpdateResult> {
    const key = channelId.toLowerCase();
    const current = this.channels.get(key);
    const next = update(current);
    if (next === current) return { channel: current, status: 'unchanged' };
    if (!next) {
      if (!current) return { channel: undefined, status: 'unchanged' };
      this.append({ deleted: key });
      this.channels.delete(key);
      return { channel: undefined, status: 'deleted' };
    }
    if (claimable(next) !== claimable(current)) this.append({ channel: durable(next) });
    this.channels.set(key, next);
    return { channel: next, status: 'updated' };
  }

  /** Closes the journal and gives the directory up. */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    rmSync(join(this.dir, OWNER), { force: true });
  }
}

/** The channels a journal file holds, line by line; refuses a damaged journal, naming the line. */
function replayJournal(path: string): Map<string, Channel> {
  const channels = new Map<string, Channel>();
  if (!existsSync(path)) return channels;
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      // Only the last line can be cut short (a machine, not a process, that stopped mid-write): it was never
      // acknowledged.
      if (i === lines.length - 1) return console.error(`x402: ${path}:${i + 1}: incomplete last line ignored`);
      throw new ChannelJournalError(`${path}:${i + 1}: not a JSON line; the channel journal is damaged`);
    }
    if ('deleted' in entry && typeof entry.deleted === 'string') channels.delete(entry.deleted);
    else if ('channel' in entry && typeof entry.channel?.channelId === 'string')
      channels.set(entry.channel.channelId.toLowerCase(), entry.channel);
    else throw new ChannelJournalError(`${path}:${i + 1}: expected {"channel": {...}} or {"deleted": "<channel id>"}`);
  });
  return channels;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
