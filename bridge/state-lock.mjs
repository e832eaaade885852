// @ts-check
// One paid call at a time per state directory, across processes: two MCP clients configured with the same
// directory (the default) share its channel and its budget, and a voucher or a spending record written by both at
// once would be lost. The lock is a file created exclusively, holding its owner's pid; a lock whose owner has died
// is taken over.
import { openSync, closeSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a call waits for another process's paid call before giving up. */
const WAIT_MS = 60_000;

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/**
 * Runs `work` holding the state directory's lock; calls of this process queue in order.
 * @param {string} stateDir
 */
export function stateLock(stateDir) {
  const file = join(stateDir, 'lock');
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();

  async function acquire() {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return;
      } catch (e) {
        if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
      }
      let owner;
      try {
        owner = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      // A lock being written has no pid yet; one whose owner died is stale.
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        try {
          unlinkSync(file);
        } catch {
          // another waiter removed it first
        }
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `another process has held ${file} for ${WAIT_MS / 1000} s (pid ${owner}); is another bridge stuck on a paid call?`,
        );
      await sleep(10);
    }
  }

  return {
    /**
     * @template T
     * @param {() => Promise<T>} work
     * @returns {Promise<T>}
     */
    run(work) {
      const turn = queue.then(async () => {
        await acquire();
        try {
          return await work();
        } finally {
          unlinkSync(file);
        }
      });
      queue = turn.catch(() => {});
      return turn;
    },
  };
}
