// Answers kept by key, up to a total size: the shards do not change while a process runs, so an answer
// depends on its key alone. Evicted oldest first: a client cycling through queries cannot grow it past `maxBytes`.

/** A kept answer's bookkeeping beyond its key and bytes, roughly: its headers and the map's own entry. */
const OVERHEAD = 512;

/** An answer with a body, whose bytes are what it weighs unless the cache is told otherwise. */
interface WithBody {
  body: string | Uint8Array;
}
const bodyBytes = (answer: WithBody) => Buffer.byteLength(answer.body);

export class AnswerCache<A = WithBody> {
  readonly #answers = new Map<string, A>();
  readonly #bytesOf: (answer: A) => number;
  #bytes = 0;
  readonly maxBytes: number;
  /** `bytesOf`: what an answer weighs beyond its key (its body's bytes when it has one and nothing is said). */
  constructor(maxBytes: number, bytesOf: (answer: A) => number = bodyBytes as (answer: A) => number) {
    this.maxBytes = maxBytes;
    this.#bytesOf = bytesOf;
  }

  get size(): number {
    return this.#bytes;
  }

  /** How many answers are kept. */
  get count(): number {
    return this.#answers.size;
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
    const cost = this.#cost(key, answer);
    if (cost > this.maxBytes || this.#answers.has(key)) return;
    for (const [oldest, old] of this.#answers) {
      if (this.#bytes + cost <= this.maxBytes) break;
      this.#answers.delete(oldest);
      this.#bytes -= this.#cost(oldest, old);
    }
    this.#answers.set(key, answer);
    this.#bytes += cost;
  }

  #cost = (key: string, answer: A) => Buffer.byteLength(key) + this.#bytesOf(answer) + OVERHEAD;
}
