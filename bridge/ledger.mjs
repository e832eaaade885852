// @ts-check
// What the bridge has spent and deposited from its state directory (`spending.json`), read afresh under the state
// lock before each paid call and written atomically after: the cap holds across restarts and across processes
// sharing the directory. Spent is what the server charged (vouchers and `exact` payments, by their receipts); a
// deposit is not spend: it stays the payer's until charged, and its rest comes back by refund.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {object} Spending
 * @property {bigint} spent atomic units charged by the server
 * @property {bigint} deposited atomic units deposited into prepaid channels
 * @property {string | null} channelId the prepaid channel last paid from
 */

/** @param {string} stateDir */
export function ledger(stateDir) {
  const file = join(stateDir, 'spending.json');
  return {
    file,
    /** @returns {Spending} */
    read() {
      let text;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        if (/** @type {NodeJS.ErrnoException} */ (e).code === 'ENOENT')
          return { spent: 0n, deposited: 0n, channelId: null };
        throw e;
      }
      try {
        const doc = JSON.parse(text);
        return { spent: BigInt(doc.spent), deposited: BigInt(doc.deposited), channelId: doc.channel_id ?? null };
      } catch {
        // A damaged record must not reset the count to zero: the cap would no longer hold.
        throw new Error(
          `${file} is damaged (expected {"spent": "<atomic units>", "deposited": "<atomic units>", "channel_id": …}); fix or remove it knowing that removing it resets what counts against --budget-usd`,
        );
      }
    },
    /** @param {Spending} spending */
    write(spending) {
      const text = `${JSON.stringify({ spent: String(spending.spent), deposited: String(spending.deposited), channel_id: spending.channelId }, null, 2)}\n`;
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
  };
}
