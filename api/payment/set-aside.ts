// Channels set aside (docs/design.md §13): a channel whose vouchers a claim cannot collect takes no more vouchers
// until an operator has looked and cleared it (`npm run channels -- --clear <id>`). Kept beside the channels
// themselves, so a restart forgets none: in `set-aside.json` in X402_CHANNELS_DIR (re-read whenever the file
// changes, so a clear made by the operator's command takes effect at once in the running server), or in a Redis
// hash shared by every instance.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SharedRedis } from './redis.ts';

export interface SetAside {
  channelId: string;
  /** Why its claim failed, as the chain or the facilitator said it (one line). */
  reason: string;
  /** When it was set aside (ISO 8601). */
  at: string;
}

export interface SetAsideStore {
  get(channelId: string): Promise<SetAside | undefined>;
  list(): Promise<SetAside[]>;
  /** Sets a channel aside; false when it already was (so it is logged once). */
  add(entry: SetAside): Promise<boolean>;
  /** Puts a channel back; false when it was not set aside. */
  clear(channelId: string): Promise<boolean>;
}

const byId = (a: SetAside, b: SetAside) => a.channelId.localeCompare(b.channelId);

/** In this process only (tests, and a gate given no other store). */
export function memorySetAside(): SetAsideStore {
  const entries = new Map<string, SetAside>();
  return {
    get: async (id) => entries.get(id.toLowerCase()),
    list: async () => [...entries.values()].sort(byId),
    async add(entry) {
      const key = entry.channelId.toLowerCase();
      if (entries.has(key)) return false;
      entries.set(key, { ...entry, channelId: key });
      return true;
    },
    clear: async (id) => entries.delete(id.toLowerCase()),
  };
}

export const SET_ASIDE_FILE = 'set-aside.json';

/** In `dir`/set-aside.json, written whole and renamed into place; read again whenever it changed on disk. */
export function fileSetAside(dir: string): SetAsideStore {
  const path = join(dir, SET_ASIDE_FILE);
  let seen = '';
  let entries = new Map<string, SetAside>();
  /** The file's identity as last changed (one stat: this runs for every voucher). */
  const stampOf = () => {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : 'none';
  };
  const current = (): Map<string, SetAside> => {
    const stamp = stampOf();
    if (stamp !== seen) {
      entries = stamp === 'none' ? new Map<string, SetAside>() : parse(path);
      seen = stamp;
    }
    return entries;
  };
  const write = (next: Map<string, SetAside>) => {
    writeFileSync(`${path}.tmp`, `${JSON.stringify({ setAside: [...next.values()].sort(byId) }, null, 1)}\n`);
    renameSync(`${path}.tmp`, path);
    seen = stampOf(); // what was just written is what is held: not read back
    entries = next;
  };
  // The server's claim run and the operator's command both change the file: each change is made under a lock, on the
  // file as it then is, so neither undoes the other's.
  const changed = async (change: (entries: Map<string, SetAside>) => boolean): Promise<boolean> => {
    mkdirSync(dir, { recursive: true });
    return underLock(`${path}.lock`, () => {
      seen = '';
      const next = new Map(current());
      if (!change(next)) return false;
      write(next);
      return true;
    });
  };
  return {
    get: async (id) => current().get(id.toLowerCase()),
    list: async () => [...current().values()].sort(byId),
    add: (entry) => {
      const key = entry.channelId.toLowerCase();
      return changed((entries) => !entries.has(key) && !!entries.set(key, { ...entry, channelId: key }));
    },
    clear: (id) => changed((entries) => entries.delete(id.toLowerCase())),
  };
}

/** A lock older than this was left by a process that died holding it. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs `change` while holding `lock` (a file created exclusively), waiting for another holder a few seconds at most.
 */
async function underLock<T>(lock: string, change: () => T): Promise<T> {
  for (let waited = 0; ; waited += 10) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > LOCK_STALE_MS)
        rmSync(lock, { force: true });
      else if (waited > 5_000)
        throw new Error(
          `${lock}: held by another process for over 5 s; remove it if no server or npm run channels is running`,
          { cause: e },
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  try {
    return change();
  } finally {
    rmSync(lock, { force: true });
  }
}

function parse(path: string): Map<string, SetAside> {
  let list: unknown;
  try {
    list = (JSON.parse(readFileSync(path, 'utf8')) as { setAside?: unknown }).setAside;
  } catch (e) {
    throw new Error(`${path}: not the set-aside channels' JSON (${(e as Error).message}); fix or remove the file`, {
      cause: e,
    });
  }
  const ok = (e: unknown): e is SetAside =>
    typeof e === 'object' &&
    e !== null &&
    /^0x[0-9a-f]{64}$/.test((e as SetAside).channelId) &&
    typeof (e as SetAside).reason === 'string' &&
    typeof (e as SetAside).at === 'string';
  if (!Array.isArray(list)) throw new Error(`${path}: expected {"setAside": [...]}`);
  const bad = list.findIndex((e) => !ok(e));
  if (bad >= 0)
    throw new Error(
      `${path}: setAside[${bad}]: expected {"channelId": "0x<64 hex>", "reason": "...", "at": "<ISO date>"}`,
    );
  return new Map((list as SetAside[]).map((e) => [e.channelId, e]));
}

/** The hash every instance shares, beside the scheme's own channel keys. */
const SET_ASIDE_KEY = 'x402:batch-settlement:server:set-aside';

export function redisSetAside(client: SharedRedis): SetAsideStore {
  const decode = (text: string | null | undefined) => (text ? (JSON.parse(text) as SetAside) : undefined);
  return {
    get: async (id) => decode(await client.hGet(SET_ASIDE_KEY, id.toLowerCase())),
    list: async () =>
      Object.values(await client.hGetAll(SET_ASIDE_KEY))
        .map((t) => decode(t)!)
        .sort(byId),
    async add(entry) {
      const key = entry.channelId.toLowerCase();
      return (await client.hSetNX(SET_ASIDE_KEY, key, JSON.stringify({ ...entry, channelId: key }))) === 1;
    },
    clear: async (id) => (await client.hDel(SET_ASIDE_KEY, id.toLowerCase())) === 1,
  };
}
