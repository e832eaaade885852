// HTTP/1.1 on a bare socket: a request written byte for byte, and the response read byte for byte, status
// line, headers (in their order and spelling) and framing included, up to where it ends. For comparing two
// servers' answers exactly (tests/mcp/http.test.ts) and for capturing what the ceiling replays (bench/api.ts).
import { connect } from 'node:net';

/** A request's bytes: the request line, Host, the given headers in order, Content-Length for a body, the body. */
export function rawRequestBytes(
  method: string,
  target: string,
  host: string,
  headers: [string, string][] = [],
  body?: string | Buffer,
): Buffer {
  const payload = body === undefined ? undefined : Buffer.from(body);
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (payload) lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload ?? Buffer.alloc(0)]);
}

/** A request body sent chunked (Transfer-Encoding), in chunks of `size` bytes. */
export function rawChunkedRequestBytes(
  method: string,
  target: string,
  host: string,
  headers: [string, string][],
  body: string | Buffer,
  size = 7,
): Buffer {
  const payload = Buffer.from(body);
  const lines = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${host}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    'Transfer-Encoding: chunked',
  ];
  const parts: Buffer[] = [Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')];
  for (let at = 0; at < payload.length; at += size) {
    const chunk = payload.subarray(at, at + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/**
 * Where the first response in `data` ends (the byte after it), or -1 while it is incomplete: after its
 * headers, plus Content-Length bytes, or its chunks up to the last (no trailers); no body for `head` or 1xx/204/304.
 */
export function responseEnd(data: Buffer, head = false): number {
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd < 0) return -1;
  const start = headerEnd + 4;
  const header = data.subarray(0, headerEnd).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(header)?.[1]);
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) return start;
  const length = /\r\ncontent-length: *(\d+)/i.exec(header);
  if (length) return data.length >= start + Number(length[1]) ? start + Number(length[1]) : -1;
  if (!/\r\ntransfer-encoding: *chunked/i.test(header))
    throw new Error(`a response without a length: ${header.slice(0, 200)}`);
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return -1;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk');
    const next = lineEnd + 2 + size + 2;
    if (data.length < next) return -1;
    if (size === 0) return next;
    at = next;
  }
}

/**
 * Sends `request` to host:port on a new connection and resolves with the bytes of the response, then closes.
 * With `split`, the first `split` bytes go alone and the rest 30 ms later (the Node server's raw front takes
 * only a request that arrives whole, so a split one is Node's HTTP server's to answer: server/raw-front.ts).
 */
export function rawExchange(
  port: number,
  request: Buffer,
  options: { host?: string; head?: boolean; timeoutMs?: number; split?: number } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const { split } = options;
    const socket = connect(port, options.host ?? '127.0.0.1', () => {
      if (split === undefined) return void socket.write(request);
      socket.write(request.subarray(0, split));
      setTimeout(() => socket.writable && socket.write(request.subarray(split)), 30);
    });
    socket.setTimeout(options.timeoutMs ?? 10_000, () =>
      socket.destroy(new Error(`no complete answer within ${options.timeoutMs ?? 10_000} ms`)),
    );
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      try {
        const end = responseEnd(data, options.head);
        if (end < 0) return;
        socket.destroy();
        resolve(data.subarray(0, end));
      } catch (e) {
        socket.destroy();
        reject(e);
      }
    });
    socket.on('error', reject);
    socket.on('end', () => reject(new Error(`the connection closed before a complete answer (${data.length} bytes)`)));
  });
}

/** The response's parts: status line, header lines in order, and the body with its framing undone. */
export function parseResponse(raw: Buffer): { statusLine: string; headers: [string, string][]; body: Buffer } {
  const headerEnd = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const headers = lines.map(
    (l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string],
  );
  const body = raw.subarray(headerEnd + 4);
  const chunked = headers.some(([k, v]) => k.toLowerCase() === 'transfer-encoding' && v === 'chunked');
  return { statusLine, headers, body: chunked ? unchunked(body) : body };
}

/** A chunked body's data, its framing dropped (no trailers). */
export function unchunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
