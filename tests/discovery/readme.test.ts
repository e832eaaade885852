// The README's route table and MCP tool list against the contract (ROUTE_CONTRACTS) and the tools the MCP
// server lists (tools/list, in process): a route or tool added, renamed, repriced or dropped without the README
// following fails here (issue 23). That the table's examples answer with figures is tests/contract/examples.test.ts.
// And the bridge's configuration examples: valid JSON, running surplus-lines-mcp with flags it takes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { FLAGS } from '../../bridge/options.mjs';
import { handleMcp } from '../../api/mcp/handle-mcp.ts';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** A `## ` section of a markdown text, heading excluded; empty when there is none. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) return '';
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The route table of `## Routes`: each row's path (its example's query left out) and price cell. */
function routeRows(text: string): { path: string; price: string }[] {
  return [...section(text, 'Routes').matchAll(/^\| `GET (\/[^`?\s]*)[^`]*` \| ([^|]+?) \|/gm)].map((m) => ({
    path: m[1],
    price: m[2],
  }));
}

/** The tool list of the MCP paragraph: "N in all: `a`, ... (free), `b`, ... (priced as their routes)". */
function toolList(text: string): { count: number; free: string[]; priced: string[] } | null {
  // Wrapped lines read as one.
  const paragraph = section(text, 'For agents: MCP, llms.txt, OpenAPI').replace(/\s+/g, ' ');
  const m =
    /One tool per route, named by the route's `operationId`, (\d+) in all: (.*?) \(free\), (.*?) \(priced as their routes\)/.exec(
      paragraph,
    );
  if (!m) return null;
  const names = (list: string) => [...list.matchAll(/`([a-z_]+)`/g)].map((n) => n[1]);
  return { count: Number(m[1]), free: names(m[2]), priced: names(m[3]) };
}

const priceText = (usd: string | null) => (usd ? `${usd} USD` : 'free');
const sorted = (names: Iterable<string>) => [...names].sort();

/** What the README gets wrong against the contract and the server's tools; empty when it is right. */
function problemsOf(text: string, tools: readonly string[]): string[] {
  const problems: string[] = [];
  const rows = routeRows(text);
  for (const route of ROUTE_CONTRACTS) {
    const found = rows.filter((r) => r.path === route.path);
    if (found.length !== 1) problems.push(`route ${route.path} listed ${found.length} times`);
    else if (found[0].price !== priceText(route.priceUsd))
      problems.push(`route ${route.path} priced ${found[0].price}, not ${priceText(route.priceUsd)}`);
  }
  for (const row of rows)
    if (!ROUTE_CONTRACTS.some((r) => r.path === row.path)) problems.push(`route ${row.path} is not in the contract`);

  const list = toolList(text);
  if (!list) return [...problems, 'no tool list'];
  const free = ROUTE_CONTRACTS.filter((r) => !r.priceUsd).map((r) => r.operationId);
  const listed = [...list.free, ...list.priced];
  if (JSON.stringify(sorted(listed)) !== JSON.stringify(sorted(tools)))
    problems.push(`tools listed ${sorted(listed).join(',')}, served ${sorted(tools).join(',')}`);
  if (JSON.stringify(sorted(list.free)) !== JSON.stringify(sorted(tools.filter((t) => free.includes(t)))))
    problems.push(`free tools listed ${sorted(list.free).join(',')}`);
  if (list.count !== tools.length) problems.push(`says ${list.count} tools in all, serves ${tools.length}`);
  // Other places that count the tools ("for 17 tools").
  for (const [, n] of text.replace(/\s+/g, ' ').matchAll(/\bfor (\d+) tools\b/g))
    if (Number(n) !== tools.length) problems.push(`says "for ${n} tools", serves ${tools.length}`);
  return problems;
}

let tools: string[];
beforeAll(async () => {
  // The names as the server lists them (tools/list), not as the contract would have them.
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (input, init) => handleMcp(new Request(input, init)),
    }),
  );
  tools = (await client.listTools()).tools.map((t) => t.name);
  await client.close();
});

describe('README: the route table and the MCP tool list', () => {
  it('the server lists one tool per route of the contract, named by its operationId', () => {
    expect(sorted(tools)).toEqual(sorted(TOOL_ROUTES.map((r) => r.operationId)));
  });

  it('lists every route of the contract once, with its price, and no other; every tool the server lists, free and priced as their routes', () => {
    expect(routeRows(README).length).toBe(ROUTE_CONTRACTS.length);
    expect(problemsOf(README, tools)).toEqual([]);
  });

  it('the check fails when the README is stale: a route or tool missing or extra, a price or a count wrong', () => {
    const without = (pattern: RegExp) =>
      README.split('\n')
        .filter((l) => !pattern.test(l))
        .join('\n');
    expect(problemsOf(without(/^\| `GET \/v1\/rates\/activity/), tools)).toEqual([
      'route /v1/rates/activity listed 0 times',
    ]);
    expect(
      problemsOf(
        README.replace(
          '| `GET /v1/compare?states=FL,TX` | 0.50 USD |',
          '| `GET /v1/compare?states=FL,TX` | 0.10 USD |',
        ),
        tools,
      ),
    ).toEqual(['route /v1/compare priced 0.10 USD, not 0.50 USD']);
    expect(
      problemsOf(
        README.replace(
          '| `GET /v1/coverage` | free |',
          '| `GET /v1/coverage` | free |\n| `GET /v1/old` | free | gone |',
        ),
        tools,
      ),
    ).toEqual(['route /v1/old is not in the contract']);
    const stale = README.replace(/`list_publications`, /, '');
    expect(problemsOf(stale, tools)).toEqual([
      expect.stringMatching(/^tools listed /),
      expect.stringMatching(/^free tools listed /),
    ]);
    expect(problemsOf(README, [...tools, 'new_tool'])).toEqual([
      expect.stringMatching(/^tools listed /),
      `says ${tools.length} tools in all, serves ${tools.length + 1}`,
      `says "for ${tools.length} tools", serves ${tools.length + 1}`,
    ]);
    expect(
      problemsOf(README.replace(/(`get_syndicates_sample`) \(free\), (`get_premium`), /, '$1, $2 (free), '), tools),
    ).toEqual([expect.stringMatching(/^free tools listed /)]);
  });
});

/** The `### ` subsection `title` of the README, heading excluded; empty when there is none. */
function subsection(text: string, title: string): string {
  const start = text.indexOf(`\n### ${title}\n`);
  if (start === -1) return '';
  const end = text.slice(start + 1).search(/\n##+ /);
  return text.slice(start, end === -1 ? undefined : start + 1 + end);
}

/** What the bridge's configuration examples get wrong: JSON that does not parse, a flag the bridge does not take. */
function bridgeExampleProblems(text: string): string[] {
  const part = subsection(text, 'Paid tools in any MCP client: `surplus-lines-mcp`');
  if (!part) return ['no bridge section'];
  const problems: string[] = [];
  const argvs: string[][] = [];
  for (const [, block] of part.matchAll(/```json\n([\s\S]*?)```/g)) {
    let config: {
      mcpServers?: Record<string, { command: string; args: string[] }>;
      servers?: Record<string, { command: string; args: string[] }>;
    };
    try {
      config = JSON.parse(block);
    } catch {
      problems.push(`a JSON example does not parse: ${block.slice(0, 40)}`);
      continue;
    }
    for (const server of Object.values(config.mcpServers ?? config.servers ?? {})) {
      if (server.command !== 'surplus-lines-mcp') problems.push(`a configuration runs ${server.command}`);
      argvs.push(server.args);
    }
  }
  for (const [, block] of part.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block.replace(/\\\n/g, ' ').split('\n')) {
      const at = line.indexOf('surplus-lines-mcp ');
      if (at !== -1)
        argvs.push(
          line
            .slice(at + 'surplus-lines-mcp '.length)
            .trim()
            .split(/\s+/),
        );
    }
  if (argvs.length < 4) problems.push(`${argvs.length} examples run the bridge`);
  for (const argv of argvs)
    for (const flag of argv.filter((a) => a.startsWith('--')))
      if (!(flag.slice(2) in FLAGS)) problems.push(`the bridge takes no ${flag}`);
  return problems;
}

describe("README: the bridge's configuration examples", () => {
  it('parse, run surplus-lines-mcp, and pass only flags it takes', () => {
    expect(bridgeExampleProblems(README)).toEqual([]);
  });

  it('the check fails on a flag the bridge does not take, and on JSON that does not parse', () => {
    expect(
      bridgeExampleProblems(README.replace('"--budget-usd", "2.00", "--key-file"', '"--budget", "2.00", "--key-file"')),
    ).toEqual(['the bridge takes no --budget']);
    expect(bridgeExampleProblems(README.replace('"type": "stdio",', '"type": "stdio"'))).toEqual([
      expect.stringMatching(/^a JSON example does not parse/),
      '3 examples run the bridge',
    ]);
  });
});
