// The wire half of scripts/compare-servers.ts: one case's requests written to a server on a bare socket, the
// answers read back byte for byte (status line, headers in their order and spelling, framing), and two servers'
// answers compared with only what must differ between two servers taken out: the Date, and each server's own
// host:port (a client names the server it calls in Host, so an answer may repeat it), read as described at READINGS.
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { responseEnd, unchunked } from '../tests/support/raw-http.ts';

/** A server as a case sees it: where it listens, the Host a client names it by, and its answers so far. */
export interface Target {
  hostname: string;
  port: number;
  /** `127.0.0.1:4401`: what a client sends as Host, and what its answers are normalised on. */
  host: string;
  /** Its answers to the cases already run, by case name: a conditional case sends back this server's own ETag. */
  answers: Map<string, Buffer>;
  /** The old server's answers, the same map for both: a client's tags from before the change, sent to either. */
  before: Map<string, Buffer>;
}

/** One exchange: the requests written on one connection, each answer read whole. */
export interface Case {
  name: string;
  requests: (target: Target) => Buffer[];
  /** All requests written at once (pipelined), rather than each once the answer before it is whole. */
  pipelined?: boolean;
  /** The first `split` bytes written alone and the rest 30 ms later: a request that does not arrive whole. */
  split?: number;
  /** Read on until the server closes the connection (Connection: close, HTTP/1.0, a refused request). */
  untilClose?: boolean;
}

/** What came back: each answer whole, whatever followed, and a note when the connection ended oddly. */
export interface Exchange {
  answers: Buffer[];
  rest: Buffer;
  note: string;
}

const CLOSE_WAIT_MS = 3000;
const ANSWER_WAIT_MS = 15_000;

/** Writes a case's requests to one connection and reads its answers (HEAD answers have no body). */
export function exchange(target: Target, c: Case): Promise<Exchange> {
  const requests = c.requests(target);
  const heads = requests.map((r) => r.subarray(0, 5).toString('latin1') === 'HEAD ');
  return new Promise((resolve) => {
    const answers: Buffer[] = [];
    let finals = 0; // answers but the interim ones (100 Continue), which precede the answer to the same request
    let pending = Buffer.alloc(0);
    let written = 0;
    let lengthless = false; // an answer without a length ends when the connection does
    let done = false;
    const finish = (note: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ answers, rest: pending, note });
    };
    const writeNext = () => {
      const request = c.pipelined ? Buffer.concat(requests) : requests[written];
      written = c.pipelined ? requests.length : written + 1;
      if (c.split === undefined || written > 1) return void socket.write(request);
      socket.write(request.subarray(0, c.split));
      setTimeout(() => socket.writable && socket.write(request.subarray(c.split)), 30);
    };
    const socket = connect(target.port, target.hostname, writeNext);
    const stillOpen = `<<still open after ${CLOSE_WAIT_MS} ms>>`;
    socket.setTimeout(c.untilClose ? CLOSE_WAIT_MS : ANSWER_WAIT_MS, () =>
      finish(c.untilClose || lengthless ? stillOpen : '<<no complete answer in time>>'),
    );
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (!lengthless && finals < requests.length) {
        let end: number;
        try {
          end = responseEnd(pending, heads[finals]);
        } catch {
          lengthless = true;
          socket.setTimeout(CLOSE_WAIT_MS);
          break;
        }
        if (end < 0) break;
        answers.push(pending.subarray(0, end));
        pending = pending.subarray(end);
        if (/^HTTP\/1\.[01] 1\d\d /.test(answers.at(-1)!.toString('latin1', 0, 16))) continue;
        finals++;
        if (!c.pipelined && written < requests.length) writeNext();
      }
      if (finals === requests.length && !c.untilClose) finish('');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish(`<<${e.code ?? e.message}>>`));
    socket.on('close', () => finish(''));
  });
}

/** How two servers' answers to a case compare. */
export interface Verdict {
  same: boolean;
  /** Set when the answers matched only once their hosts were read alike (READINGS). */
  hostRead?: boolean;
  /** Set when the answers matched only once a compressed body was decoded and its origin normalised. */
  decoded?: boolean;
  diff?: string;
}

/** What two servers' answers may differ in without a difference in behaviour. */
export interface Normalise {
  /** The old server's host (host:port) and the new one's, each sent as Host to its own server (see READINGS). */
  hosts: [string, string];
  /** Also ignore the file times of files served from disk (Last-Modified, the time in a weak ETag). */
  fileTimes: boolean;
}

/**
 * The ways an answer's origin may be read, tried in turn, an answer pair the same under any: as sent; the new
 * server's host read as the old's (an answer repeating its Host beside the build's SITE_URL, the same on both);
 * each server's own host read as one placeholder (an answer naming the server it was asked of, where the build's
 * origin is neither).
 */
const READINGS = ['as sent', 'new as old', 'placeholder'] as const;
type Reading = (typeof READINGS)[number];

/** Text (latin1, a character a byte) with the side's host read as the reading says. */
function hostRead(text: string, n: Normalise, side: 0 | 1, reading: Reading): string {
  if (reading === 'placeholder') return text.split(n.hosts[side]).join('{host}');
  if (reading === 'new as old' && side === 1) return text.split(n.hosts[1]).join(n.hosts[0]);
  return text;
}

/** An answer as compared: latin1, the Date taken out, the host read as the reading says. */
function normalised(answer: Buffer, n: Normalise, side: 0 | 1, reading: Reading): string {
  const text = hostRead(answer.toString('latin1'), n, side, reading);
  const headEnd = text.indexOf('\r\n\r\n');
  let head = headEnd < 0 ? text : text.slice(0, headEnd);
  const body = headEnd < 0 ? '' : text.slice(headEnd);
  head = head.replace(/\r\nDate: [^\r]*/gi, '\r\nDate: {ignored}');
  // A file served from disk names its modification time; two builds of the same tree write their files apart.
  if (n.fileTimes && /\r\nETag: W\/"[0-9a-f]+-[0-9a-f]+"/i.test(head))
    head = head
      .replace(/(\r\nETag: W\/"[0-9a-f]+-)[0-9a-f]+"/i, '$1{mtime}"')
      .replace(/\r\nLast-Modified: [^\r]*/i, '\r\nLast-Modified: {mtime}');
  return head + body;
}

/** The first reading of their hosts under which two answers are the same, or undefined. */
const sameRead = (a: Buffer, b: Buffer, n: Normalise) =>
  READINGS.find((r) => normalised(a, n, 0, r) === normalised(b, n, 1, r));

/** A header of an answer (its first, by name in any case), or undefined. */
export function headerOf(answer: Buffer | undefined, name: string): string | undefined {
  if (!answer) return undefined;
  const head = answer.subarray(0, Math.max(0, answer.indexOf('\r\n\r\n'))).toString('latin1');
  return new RegExp(`\r\n${name}: *([^\r]*)`, 'i').exec(head)?.[1];
}

/** The answer's body with its framing and coding undone, or null where it cannot be. */
function decodedBody(answer: Buffer): { head: string; body: Buffer } | null {
  const headEnd = answer.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = answer.subarray(0, headEnd).toString('latin1');
  let body = answer.subarray(headEnd + 4);
  try {
    if (/\r\nTransfer-Encoding: *chunked/i.test(head)) body = unchunked(body);
    const coding = headerOf(answer, 'Content-Encoding')?.trim();
    if (coding === 'br') body = brotliDecompressSync(body);
    else if (coding === 'gzip') body = gunzipSync(body);
    else if (coding) return null;
  } catch {
    return null;
  }
  return { head, body };
}

/**
 * Two answers the same once decoded, where the bytes differ only because a compressed or chunked body holds each
 * server's own host: the heads compared but for the lengths the host changes, the bodies decoded and read alike.
 */
function sameDecoded(a: Buffer, b: Buffer, n: Normalise): boolean {
  const [da, db] = [decodedBody(a), decodedBody(b)];
  if (!da || !db) return false;
  const [ba, bb] = [da.body.toString('latin1'), db.body.toString('latin1')];
  if (!ba.includes(n.hosts[0]) && !bb.includes(n.hosts[1])) return false;
  const head = (h: string) => Buffer.from(h.replace(/\r\nContent-Length: *\d+/i, ''), 'latin1');
  return READINGS.some(
    (r) =>
      normalised(head(da.head), n, 0, r) === normalised(head(db.head), n, 1, r) &&
      hostRead(ba, n, 0, r) === hostRead(bb, n, 1, r),
  );
}

/** Compares two servers' exchanges of one case, answer by answer, then what followed and how each ended. */
export function compareExchanges(a: Exchange, b: Exchange, n: Normalise): Verdict {
  let decoded = false;
  let hostRead = false;
  if (a.answers.length !== b.answers.length)
    return { same: false, diff: `${a.answers.length} answer(s) | ${b.answers.length} answer(s)${firstLines(a, b)}` };
  for (let i = 0; i < a.answers.length; i++) {
    const reading = sameRead(a.answers[i], b.answers[i], n);
    hostRead ||= reading !== undefined && reading !== 'as sent';
    if (reading) continue;
    if (sameDecoded(a.answers[i], b.answers[i], n)) {
      decoded = true;
      continue;
    }
    const diff = describe(normalised(a.answers[i], n, 0, 'new as old'), normalised(b.answers[i], n, 1, 'new as old'));
    return { same: false, diff: `${a.answers.length > 1 ? `answer ${i + 1}: ` : ''}${diff}` };
  }
  if (!sameRead(a.rest, b.rest, n)) {
    const diff = describe(normalised(a.rest, n, 0, 'new as old'), normalised(b.rest, n, 1, 'new as old'));
    return { same: false, diff: `after the answers: ${diff}` };
  }
  if (a.note !== b.note) return { same: false, diff: `connection: ${a.note || 'ended'} | ${b.note || 'ended'}` };
  return { same: true, decoded, hostRead: hostRead || decoded };
}

const firstLines = (a: Exchange, b: Exchange) => {
  const line = (e: Exchange) =>
    (e.answers.at(-1) ?? e.rest).toString('latin1').split('\r\n')[0] || e.note || '(nothing)';
  return ` (last: ${JSON.stringify(line(a))} | ${JSON.stringify(line(b))})`;
};

/** A short diff of two normalised answers: the status line, the header lines either lacks, or where the bodies part. */
function describe(a: string, b: string): string {
  const split = (t: string) => {
    const end = t.indexOf('\r\n\r\n');
    if (end < 0) return { lines: t.split('\r\n'), body: '' };
    return { lines: t.slice(0, end).split('\r\n'), body: t.slice(end + 4) };
  };
  const [x, y] = [split(a), split(b)];
  if (x.lines[0] !== y.lines[0]) return `status ${JSON.stringify(x.lines[0])} | ${JSON.stringify(y.lines[0])}`;
  const onlyA = x.lines.filter((l) => !y.lines.includes(l));
  const onlyB = y.lines.filter((l) => !x.lines.includes(l));
  const list = (lines: string[]) => clip(lines.join(' / ') || '-');
  if (onlyA.length || onlyB.length) return `headers ${list(onlyA)} | ${list(onlyB)}`;
  if (x.lines.join() !== y.lines.join()) return `header order ${list(x.lines.slice(1))} | ${list(y.lines.slice(1))}`;
  let at = 0;
  while (at < x.body.length && x.body[at] === y.body[at]) at++;
  const around = (t: string) => JSON.stringify(t.slice(Math.max(0, at - 20), at + 40));
  return `body (${x.body.length} | ${y.body.length} bytes) parts at byte ${at}: ${around(x.body)} | ${around(y.body)}`;
}

export const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}...` : text);
