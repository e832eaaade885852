// The channels set aside (api/payment/set-aside.ts): kept beside the channels so a restart forgets none, each set
// aside once (the claim run logs it once), cleared by an operator; a damaged file is refused, naming it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SET_ASIDE_FILE, type SetAsideStore, fileSetAside, memorySetAside } from '../../api/payment/set-aside.ts';

const dir = mkdtempSync(join(tmpdir(), 'set-aside-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ID = `0x${'Ab'.repeat(32)}`;
const entry = (channelId: string, reason = 'Claim failed: invalid_batch_settlement_evm_claim_simulation_failed') => ({
  channelId,
  reason,
  at: '2026-11-28T09:00:00.000Z',
});

async function behavesAsAStore(store: SetAsideStore) {
  expect(await store.get(ID)).toBeUndefined();
  expect(await store.add(entry(ID))).toBe(true);
  expect(await store.add(entry(ID, 'another reason'))).toBe(false); // set aside once: the first reason stands
  expect(await store.get(ID.toLowerCase())).toEqual(entry(ID.toLowerCase()));
  expect(await store.get(ID.toUpperCase().replace('0X', '0x'))).toEqual(entry(ID.toLowerCase()));
  expect(await store.clear(ID)).toBe(true);
  expect(await store.clear(ID)).toBe(false);
  expect(await store.list()).toEqual([]);
}

describe('a set-aside store', () => {
  it('in memory: set aside once, case-blind ids, cleared once', () => behavesAsAStore(memorySetAside()));
  it('in a directory: the same', () => behavesAsAStore(fileSetAside(join(dir, 'a'))));

  it('in a directory, across a restart and between two readers (the server and the operator)', async () => {
    const server = fileSetAside(join(dir, 'b'));
    const ids = [`0x${'02'.repeat(32)}`, `0x${'01'.repeat(32)}`];
    for (const id of ids) await server.add(entry(id));
    const restarted = fileSetAside(join(dir, 'b'));
    expect((await restarted.list()).map((e) => e.channelId)).toEqual([...ids].sort());
    expect(await restarted.clear(ids[0])).toBe(true);
    expect(await server.get(ids[0])).toBeUndefined(); // the other reader sees the clear at once
    expect(await server.get(ids[1])).toBeDefined();
  });

  it("two processes changing one directory at once lose none of each other's changes", async () => {
    const sub = join(dir, 'd');
    const script = (from: number) => `
      const { fileSetAside } = await import(${JSON.stringify(join(import.meta.dirname, '..', '..', 'api', 'payment', 'set-aside.ts'))});
      const store = fileSetAside(${JSON.stringify(sub)});
      for (let i = ${from}; i < ${from} + 60; i++) await store.add({ channelId: '0x' + i.toString(16).padStart(64, '0'), reason: 'r', at: 't' });`;
    await Promise.all(
      [0, 1000].map((from) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script(from)])),
    );
    expect((await fileSetAside(sub).list()).length).toBe(120);
  });

  it('a damaged file is refused, naming it and what it should hold', async () => {
    const sub = join(dir, 'c');
    const store = fileSetAside(sub);
    await store.add(entry(ID));
    writeFileSync(join(sub, SET_ASIDE_FILE), '{"setAside": [ {"channelId": "0x12"');
    await expect(store.get(ID)).rejects.toThrow(`${join(sub, SET_ASIDE_FILE)}: not the set-aside channels' JSON`);
    writeFileSync(join(sub, SET_ASIDE_FILE), '{"setAside": [{"channelId": "0x12", "reason": "r", "at": "t"}]}');
    await expect(store.list()).rejects.toThrow(
      `${join(sub, SET_ASIDE_FILE)}: setAside[0]: expected {"channelId": "0x<64 hex>"`,
    );
  });
});
