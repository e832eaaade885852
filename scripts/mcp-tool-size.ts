// Prints the size of the MCP tool definitions an agent loads: the tools/list answer measured as the
// server sends it (the JSON-RPC response body of POST /mcp, in bytes), in a 2025 revision and in 2026-07-28
// (which adds resultType, the cache hints and the server's identity), each against its budget, then each
// tool's share and the bytes of its description, input schema and output schema. Run: npm run size:mcp
// (exits 1 over budget). Tokens are estimated as the MCP text's cap counts them (api/text/: 4 characters
// each, the usual rule of thumb for English and JSON; nearly every byte here is ASCII); the bytes are exact.
import type { Tool } from '@modelcontextprotocol/server';
import { TOOLS_LIST_MAX_BYTES, handleMcp } from '../api/mcp/handle-mcp.ts';
import { CHARS_PER_TOKEN } from '../api/text/index.ts';
import { envelopeOf, headersOf } from '../tests/support/mcp-2026.ts';

/** The tools/list answer's body as sent: in a 2025 revision, or with 2026-07-28's envelope and headers. */
async function toolsList(modern: boolean): Promise<string> {
  const response = await handleMcp(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(modern ? headersOf('tools/list') : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        ...(modern ? { params: { _meta: envelopeOf('size-mcp') } } : {}),
      }),
    }),
  );
  const body = await response.text();
  if (response.status !== 200) throw new Error(`tools/list answered ${response.status}: ${body}`);
  return body;
}
const body = await toolsList(false);
const total = Buffer.byteLength(body);
const modernTotal = Buffer.byteLength(await toolsList(true));
const tools = (JSON.parse(body) as { result: { tools: Tool[] } }).result.tools;

const bytes = (value: unknown) =>
  value === undefined ? 0 : Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
const tokens = (n: number) => Math.round(n / CHARS_PER_TOKEN);
const row = (cells: (string | number)[]) =>
  console.log(cells.map((c, i) => (i ? String(c).padStart(10) : String(c).padEnd(26))).join(''));
const sum = (pick: (t: Tool) => unknown) => tools.reduce((n, t) => n + bytes(pick(t)), 0);

row(['tool', 'bytes', '~tokens', 'describe', 'input', 'output']);
for (const tool of tools)
  row([
    tool.name,
    bytes(tool),
    tokens(bytes(tool)),
    bytes(tool.description),
    bytes(tool.inputSchema),
    bytes(tool.outputSchema),
  ]);
row([
  'all tools',
  sum((t) => t),
  tokens(sum((t) => t)),
  sum((t) => t.description),
  sum((t) => t.inputSchema),
  sum((t) => t.outputSchema),
]);
row(['tools/list, as sent (2025)', total, tokens(total), '', '', '']);
row(['tools/list (2026-07-28)', modernTotal, tokens(modernTotal), '', '', '']);
const largest = Math.max(total, modernTotal);
console.log(
  `\nbudget ${TOOLS_LIST_MAX_BYTES} bytes: ` +
    (largest <= TOOLS_LIST_MAX_BYTES
      ? `within, ${TOOLS_LIST_MAX_BYTES - largest} to spare`
      : `OVER by ${largest - TOOLS_LIST_MAX_BYTES}`),
);
if (largest > TOOLS_LIST_MAX_BYTES) process.exitCode = 1;
