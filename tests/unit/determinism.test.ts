// Two builds of the same data give byte-identical trees, wherever the data and the output live.
import { afterAll, describe, expect, it } from 'vitest';
import { buildShards } from '../../ingest/build.ts';
import { FIXTURE_DATA, readTree, tempRoot } from './helpers.ts';

const tmp = tempRoot('determinism');
afterAll(() => tmp.cleanup());

function expectSameTree(a: Map<string, Buffer>, b: Map<string, Buffer>): void {
  expect([...b.keys()]).toEqual([...a.keys()]);
  for (const [path, bytes] of a) expect(b.get(path)!.equals(bytes), path).toBe(true);
}

describe('determinism', () => {
  it('builds the same bytes twice from the same folder', () => {
    const first = readTree(tmp.build(FIXTURE_DATA));
    const second = readTree(tmp.build(FIXTURE_DATA));
    expect(first.size).toBeGreaterThan(10);
    expectSameTree(first, second);
  });

  it('builds the same bytes from a copy of the data elsewhere (no paths leak into shards)', () => {
    const first = readTree(tmp.build(FIXTURE_DATA));
    const copy = readTree(tmp.build(tmp.fixtureCopy()));
    expectSameTree(first, copy);
  });

  it('rebuilding over an existing output replaces it with the same bytes', () => {
    const out = tmp.build(FIXTURE_DATA);
    const first = readTree(out);
    buildShards(FIXTURE_DATA, out);
    expectSameTree(first, readTree(out));
  });
});
