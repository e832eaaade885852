// list_publications, the MCP twin of GET /v1/publications (issue 24), on the fixture data, in process (the
// SDK's own client, its transport's fetch handed to handleMcp): without state it lists every state's
// publications, with since those published on or after the date, each call answering the route's very JSON;
// a malformed since is the route's 400, as a tool error naming the parameter and the format.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleMcp } from '../../api/mcp/handle-mcp.ts';
import { errorBody } from '../../domain/contract.ts';
import { publicationsResponse } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(FIXTURE_DATA);

let client: Client;
let tool: Tool;
beforeAll(async () => {
  client = new Client({ name: 'publications-mcp-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (input, init) => handleMcp(new Request(input, init)),
    }),
  );
  tool = (await client.listTools()).tools.find((t) => t.name === 'list_publications')!;
});
afterAll(() => client.close());

const call = (args: Record<string, string>) =>
  client.callTool({ name: 'list_publications', arguments: args }) as Promise<CallToolResult>;
const rest = async (query: string) =>
  (await callHandler(`http://service.test/v1/publications${query && `?${query}`}`)).json();
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('list_publications', () => {
  it('takes state and since, neither required, as the route does', () => {
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['since', 'state']);
    expect(tool.inputSchema.required ?? []).toEqual([]);
  });

  it("without state: every state's publications, each with its state, newest first: the route's JSON", async () => {
    const result = await call({});
    expect(result.isError).toBeFalsy();
    const body = publicationsResponse.parse(result.structuredContent);
    expect(body).toEqual(await rest(''));
    expect(body.state).toBeNull();
    expect(new Set(body.publications.map((p) => p.state))).toEqual(new Set(['FL', 'IL', 'TX']));
    // The text an agent reads lists every publication, with its state.
    for (const p of body.publications) expect(text(result)).toContain(`${p.url}; state ${p.state};`);
  });

  it("with since, alone or with state: the route's JSON for the same query", async () => {
    for (const [args, query] of [
      [{ since: '2024-02-10' }, 'since=2024-02-10'],
      [{ state: 'fl', since: '2024-03-01' }, 'state=FL&since=2024-03-01'],
      [{ since: '2030-01-01' }, 'since=2030-01-01'],
    ] as const) {
      const result = await call(args);
      expect(result.isError, query).toBeFalsy();
      expect(result.structuredContent, query).toEqual(await rest(query));
    }
    const recent = publicationsResponse.parse((await call({ since: '2024-02-10' })).structuredContent);
    expect(recent.publications.length).toBeGreaterThan(0);
    expect(recent.publications.every((p) => p.report_date >= '2024-02-10')).toBe(true);
  });

  it("a malformed since is the route's 400, as a tool error naming the parameter and the format", async () => {
    const result = await call({ since: '2024-6-1' });
    expect(result.isError).toBe(true);
    const { error } = errorBody.parse(JSON.parse(text(result)));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe((await rest('since=2024-6-1')).error.message);
    expect(error.message).toMatch(/'since' '2024-6-1': expected a date YYYY-MM-DD/);
  });
});
