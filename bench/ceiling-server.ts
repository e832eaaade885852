// The ceiling for `npm run bench:api`: a node:net server that writes, for each request, the very bytes the
// built server wrote for it (status line, headers in their order, Date and Keep-Alive included, framing,
// body), read from the JSON file named by argv[2]: [{ key: "METHOD target body", raw: base64 }]. It
// parses nothing but where each request ends (its request line and headers end at CRLFCRLF; a body is
// Content-Length bytes) and looks the answer up in one Map: no HTTP server can answer these requests
// with less work, so this is the raw limit of the machine. Its Date is the one captured, which no client
// here reads. Pipelined requests are answered in order; an unknown request gets a bare 404.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

interface Captured {
  /** `METHOD target body` */
  key: string;
  /** The response as the built server wrote it, base64. */
  raw: string;
}
const answers = new Map(
  (JSON.parse(readFileSync(process.argv[2], 'utf8')) as Captured[]).map((a) => [a.key, Buffer.from(a.raw, 'base64')]),
);
const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The Content-Length a request's headers declare (0 when none). */
function contentLength(head: string): number {
  const declared = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  return declared ? Number(declared[1]) : 0;
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let pending: Buffer | null = null;
  socket.on('data', (chunk: Buffer) => {
    let data = pending ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      const end = data.indexOf(HEADERS_END);
      if (end < 0) break;
      const head = data.toString('latin1', 0, end);
      const length = contentLength(head);
      if (data.length < end + 4 + length) break;
      const lineEnd = head.indexOf('\r\n');
      const [method, target] = (lineEnd < 0 ? head : head.slice(0, lineEnd)).split(' ');
      const body = data.toString('utf8', end + 4, end + 4 + length);
      socket.write(answers.get(`${method} ${target} ${body}`) ?? NOT_FOUND);
      data = data.subarray(end + 4 + length);
    }
    pending = data.length ? data : null;
  });
  socket.on('error', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`ready ${address.port}`);
});
