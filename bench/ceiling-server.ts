// The ceiling for `npm run bench:api`: a bare node:http server answering, from memory, exactly the bytes
// and headers the built server gave for each target (read from the JSON file named by argv[2]). Nothing
// is parsed, validated or looked up beyond one Map get: no real server can answer these requests faster.
import { readFileSync } from 'node:fs';
import { type ServerResponse, createServer } from 'node:http';

interface Captured {
  /** `METHOD target body` */
  key: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}
const answers = new Map(
  (JSON.parse(readFileSync(process.argv[2], 'utf8')) as Captured[]).map((a) => [a.key, { ...a, bytes: Buffer.from(a.body, 'base64') }]),
);
function reply(res: ServerResponse, key: string): void {
  const a = answers.get(key);
  if (!a) {
    res.writeHead(404);
    return void res.end();
  }
  res.writeHead(a.status, a.headers);
  res.end(a.bytes);
}
const server = createServer((req, res) => {
  if (req.method === 'GET') return reply(res, `GET ${req.url} `);
  // A POST (an MCP call) is answered once its body is read: the answer depends on it.
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => reply(res, `${req.method} ${req.url} ${Buffer.concat(chunks).toString('utf8')}`));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`ready ${address.port}`);
});
