// server.json, the MCP Registry entry: the committed file is what scripts/server-json.ts writes now (a stale
// file fails), it validates against the registry's published schema (version 2025-12-11, the byte-exact copy in
// tests/fixtures/mcp-registry/, see its README) with a real JSON Schema validator (ajv, through the MCP SDK's
// AjvJsonSchemaValidator, formats included), and its remote URL and name follow SITE_URL.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { FLAGS } from '../../bridge/options.mjs';
import {
  DEFAULT_SITE_URL,
  SERVER_SCHEMA,
  type ServerJson,
  namespaceOf,
  packageInfo,
  serverJson,
  serverJsonText,
} from '../../scripts/server-json.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SCHEMA_FILE = join(ROOT, 'tests', 'fixtures', 'mcp-registry', 'server.schema.json');
/** The published file's digest and size (tests/fixtures/mcp-registry/README.md). */
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const SCHEMA_BYTES = 22_090;

const schemaBytes = readFileSync(SCHEMA_FILE);
const schema = JSON.parse(schemaBytes.toString('utf8')) as { $id: string; $schema: string };
const validate = new AjvJsonSchemaValidator().getValidator<ServerJson>(schema);
const errorsOf = (doc: unknown) => validate(doc).errorMessage;

/** The site this checkout's server.json is for: the one the build uses. */
const site = process.env.SITE_URL ?? DEFAULT_SITE_URL;
const committed = readFileSync(join(ROOT, 'server.json'), 'utf8');

describe('the stored registry schema', () => {
  it('is the published 2025-12-11 file, byte for byte, and the one server.json names', () => {
    expect(schemaBytes.length).toBe(SCHEMA_BYTES);
    expect(createHash('sha256').update(schemaBytes).digest('hex')).toBe(SCHEMA_SHA256);
    expect(schema.$id).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(SERVER_SCHEMA).toBe(schema.$id);
  });

  it('refuses what the registry refuses (the validator is real): a name without a namespace, a long description, a remote that is not http(s), a missing version', () => {
    const good = serverJson(packageInfo(), 'https://sl.example.com');
    expect(errorsOf(good)).toBeUndefined();
    expect(errorsOf({ ...good, name: 'surplus-lines-market-data' })).toMatch(/name/);
    expect(errorsOf({ ...good, description: 'x'.repeat(101) })).toMatch(/description/);
    expect(errorsOf({ ...good, remotes: [{ type: 'streamable-http', url: 'ftp://sl.example.com/mcp' }] })).toMatch(
      /url/,
    );
    expect(errorsOf({ ...good, remotes: [{ type: 'stdio' }] })).toBeDefined();
    expect(errorsOf({ ...good, websiteUrl: 'not a url' })).toMatch(/websiteUrl/);
    const { version: _, ...noVersion } = good;
    expect(errorsOf(noVersion)).toMatch(/version/);
  });
});

describe('server.json (npm run server-json)', () => {
  it("is what the generator writes now, for this checkout's site: deterministic 2-space JSON with a final newline (a stale file fails here)", () => {
    expect(committed).toBe(serverJsonText(packageInfo(), site));
    expect(committed).toBe(`${JSON.stringify(JSON.parse(committed), null, 2)}\n`);
    expect(serverJsonText(packageInfo(), site)).toBe(committed); // twice: the same bytes
  });

  it('validates against the registry schema', () => {
    expect(errorsOf(JSON.parse(committed))).toBeUndefined();
  });

  it('takes name, description and version from package.json, and one streamable-http remote at <site>/mcp', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const doc = JSON.parse(committed) as ServerJson;
    expect(doc.$schema).toBe(SERVER_SCHEMA);
    expect(doc.name).toBe(`${namespaceOf(new URL(site).hostname)}/${pkg.name}`);
    expect(doc.description).toBe(pkg.description);
    expect(doc.version).toBe(pkg.version);
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: new URL('/mcp', site).href }]);
  });

  it("lists the bridge as the npm package's stdio server: its one bin, every flag it takes with its default, the key as a secret", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const [bridge, ...others] = (JSON.parse(committed) as ServerJson).packages;
    expect(others).toEqual([]);
    expect(bridge).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: 'stdio' },
    });
    // npx runs a package's only bin: the bridge.
    expect(pkg.bin).toEqual({ 'surplus-lines-mcp': 'bridge/cli.mjs' });
    const listed = Object.fromEntries(bridge.packageArguments.map((a) => [a.name, a.default]));
    const taken = Object.fromEntries(
      Object.entries(FLAGS).map(([name, flag]) => [`--${name}`, 'default' in flag ? flag.default : undefined]),
    );
    expect(listed).toEqual({ ...taken, '--url': new URL('/mcp', site).href });
    expect(bridge.environmentVariables).toEqual([expect.objectContaining({ name: 'X402_PAYER_KEY', isSecret: true })]);
  });

  it('follows SITE_URL: the remote is on it and the name is in its reverse-DNS namespace; a loopback site is `localhost`', () => {
    const pkg = packageInfo();
    const deployed = serverJson(pkg, 'https://api.surplus-lines.example.com');
    expect(deployed.name).toBe(`com.example.surplus-lines.api/${pkg.name}`);
    expect(deployed.remotes).toEqual([{ type: 'streamable-http', url: 'https://api.surplus-lines.example.com/mcp' }]);
    expect(deployed.websiteUrl).toBe('https://api.surplus-lines.example.com/');
    expect(errorsOf(deployed)).toBeUndefined();
    expect(serverJson(pkg, 'http://127.0.0.1:4321').name).toBe(`localhost/${pkg.name}`);
    expect(serverJson(pkg, 'http://localhost:8080').remotes[0].url).toBe('http://localhost:8080/mcp');
    expect(() => serverJson(pkg, 'http://10.0.0.5')).toThrow(/IP address/);
    expect(() => serverJson({ ...pkg, description: 'x'.repeat(101) }, site)).toThrow(/at most 100/);
  });

  it('the script writes those bytes, on the SITE_URL it is run with', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'slmd-server-json-')), 'server.json');
    const env = { ...process.env, SITE_URL: 'https://sl.example.com' };
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'server-json.ts'), out], { cwd: ROOT, env });
    const written = readFileSync(out, 'utf8');
    expect(written).toBe(serverJsonText(packageInfo(), 'https://sl.example.com'));
    expect(JSON.parse(written).remotes[0].url).toBe('https://sl.example.com/mcp');
    expect(errorsOf(JSON.parse(written))).toBeUndefined();
  });
});
