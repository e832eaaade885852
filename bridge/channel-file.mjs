// @ts-check
// The channel's record in the state directory, where x402's own file storage keeps it (`client/<channel id>.json`, the
// same JSON), read and written synchronously: every use is under the state lock, and the library's asynchronous
// reads and writes went through the thread pool, 0.5 ms or more a call, on the paid call's path and on the
// bookkeeping the next paid call waits for. A write goes through a rename, so no reader sees half a record.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CHANNEL_ID = /^0x[0-9a-f]{64}$/;

/** x402's ClientChannelStorage (get, set, delete by channel id), synchronous underneath. */
export class ChannelFile {
  /** @param {string} stateDir */
  constructor(stateDir) {
    this.dir = join(stateDir, 'client');
  }

  /** @param {string} key a channel id */
  path(key) {
    const id = key.toLowerCase();
    if (!CHANNEL_ID.test(id)) throw new Error(`not a channel id: ${JSON.stringify(key.slice(0, 80))}`);
    return join(this.dir, `${id}.json`);
  }

  /** @param {string} key */
  async get(key) {
    try {
      return JSON.parse(readFileSync(this.path(key), 'utf8'));
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /**
   * @param {string} key
   * @param {import('@x402/evm/batch-settlement/client').BatchSettlementClientContext} context
   */
  async set(key, context) {
    const file = this.path(key);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.tmp`, `${JSON.stringify(context, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  /** @param {string} key */
  async delete(key) {
    rmSync(this.path(key), { force: true });
  }
}
