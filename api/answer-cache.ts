// Answers kept by key, up to a total size: the shards do not change while a process runs, so an answer
// depends on its key alone. Evicted oldest first: a client cycling through queries cannot grow it past `maxBytes`.

/** What a kept answer must have: a body, whose size is counted. */
interface Sized {
  body: string | Uint8Array;
}

export class AnswerCache<A extends Sized> {
  readonly #answers = new Map<string, A>();
  #bytes = 0;
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get size(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#answers.clear();
    this.#bytes = 0;
  }

  get(key: string): A | undefined {
    return this.#answers.get(key);
  }

  /** Keeps the answer, unless it alone is larger than the whole cache. */
  set(key: string, answer: A): void {
    const cost = AnswerCache.#cost(key, answer);
    if (cost > this.maxBytes || this.#answers.has(key)) return;
    for (const [oldest, old] of this.#answers) {
      if (this.#bytes + cost <= this.maxBytes) break;
      this.#answers.delete(oldest);
      this.#bytes -= AnswerCache.#cost(oldest, old);
    }
    this.#answers.set(key, answer);
    this.#bytes += cost;
  }

  /** The key and body, plus a rough allowance for the headers and the map's own bookkeeping. */
  static #cost = (key: string, answer: Sized) => Buffer.byteLength(key) + Buffer.byteLength(answer.body) + 512;
}
