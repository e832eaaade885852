// Prints the size of the MCP tool definitions an agent loads (tools/list): characters per tool and in
// total, with a token estimate. Run: npm run size:mcp
// Tokens are estimated at 4 characters per token (the usual rule of thumb for English and JSON with
// OpenAI- and Anthropic-style tokenizers); the characters are exact.
import { TOOLS } from '../api/mcp/tools/index.ts';

const CHARS_PER_TOKEN = 4;
const size = (value: unknown) => JSON.stringify(value).length;
const row = (cells: (string | number)[]) => console.log(cells.map((c, i) => (i ? String(c).padStart(11) : String(c).padEnd(20))).join(''));

row(['tool', 'chars', '~tokens', 'describe', 'input', 'output']);
for (const { definition } of TOOLS)
  row([definition.name, size(definition), Math.round(size(definition) / CHARS_PER_TOKEN), definition.description?.length ?? 0, size(definition.inputSchema), size(definition.outputSchema)]);
const total = size(TOOLS.map((t) => t.definition));
row(['all (tools/list)', total, Math.round(total / CHARS_PER_TOKEN), '', '', '']);
