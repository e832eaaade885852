// Verdicts on what a client sends the same way on every request (a Host, a Host and Origin pair, an
// Accept-Encoding, a whole request head): judging it costs more than looking it up.

/**
 * `judge`, its verdict on each value remembered; past `limit` values all are forgotten, so a client cycling through
 * values cannot grow it.
 */
export function remembered<V>(judge: (value: string) => V, limit = 1024): (value: string) => V {
  const verdicts = new Map<string, V>();
  return (value) => {
    if (verdicts.has(value)) return verdicts.get(value)!;
    const verdict = judge(value);
    if (verdicts.size >= limit) verdicts.clear();
    verdicts.set(value, verdict);
    return verdict;
  };
}
