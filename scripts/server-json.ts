// server.json: this service's entry for the MCP Registry (registry.modelcontextprotocol.io), a remote MCP
// server (streamable HTTP at <site>/mcp) and the local bridge that pays it (the npm package's bin), generated from
// package.json (name, description, version) and the site URL. `npm run server-json` writes it at the project root, on
// SITE_URL (default http://127.0.0.1:4321, as astro.config.mjs has it); `node scripts/server-json.ts <file>` writes it
// elsewhere. The bytes depend on nothing else (2-space JSON, a final newline): commit what it writes.
// tests/discovery/server-json.test.ts fails when the committed file is stale, and validates it against the registry's
// schema.
//
// Format: the registry's server.json schema, version 2025-12-11 (modelcontextprotocol/registry,
// docs/reference/server-json/server.schema.json, published at SERVER_SCHEMA below; a copy is in
// tests/fixtures/mcp-registry/). Its rules that bind here: `name` is `namespace/name`
// (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3-200 characters), `description` 1-100 characters, `version` one
// specific version, a remote's `url` `^https?://` without spaces.
//
// The name: the reverse-DNS form of the host that serves /mcp, then package.json's name
// (https://sl.example.com → `com.example.sl/surplus-lines-market-data`). The registry publishes a name only
// under a namespace its publisher proves: a domain namespace by DNS or HTTP on that domain
// (`mcp-publisher login dns|http --domain sl.example.com`), which is the domain the remote is on. A loopback
// host (the default site) has no domain: its namespace is `localhost`, which no one can publish; generate
// the file with SITE_URL set to the public origin before publishing.
import { readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, relative } from 'node:path';

/** The registry's schema this file follows (its `$schema`). */
export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The site when SITE_URL is unset, as astro.config.mjs has it. */
export const DEFAULT_SITE_URL = 'http://127.0.0.1:4321';
const ROOT = join(import.meta.dirname, '..');

export interface PackageInfo {
  name: string;
  description: string;
  version: string;
}

/** A command-line argument or environment variable of a package, as the registry describes inputs. */
interface PackageInput {
  type?: 'named';
  name: string;
  description: string;
  format?: 'string' | 'number' | 'filepath';
  default?: string;
  choices?: string[];
  isRequired?: boolean;
  isSecret?: boolean;
}

export interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  websiteUrl: string;
  remotes: { type: 'streamable-http'; url: string }[];
  packages: {
    registryType: 'npm';
    identifier: string;
    version: string;
    transport: { type: 'stdio' };
    packageArguments: PackageInput[];
    environmentVariables: PackageInput[];
  }[];
}

export const siteUrl = (env: Record<string, string | undefined> = process.env): string =>
  env.SITE_URL ?? DEFAULT_SITE_URL;

export const packageInfo = (): PackageInfo =>
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageInfo;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The registry namespace of a host: its labels reversed (`sl.example.com` → `com.example.sl`), `localhost` for a
 * loopback host.
 */
export function namespaceOf(host: string): string {
  if (LOOPBACK.test(host)) return 'localhost';
  if (isIP(host.replace(/^\[|\]$/g, '')))
    throw new Error(
      `server.json: SITE_URL's host ${host} is an IP address: a registry name needs a domain (set SITE_URL to ` +
        `the public origin)`,
    );
  return host.split('.').filter(Boolean).reverse().join('.').toLowerCase();
}

export function serverJson(pkg: PackageInfo, site: string): ServerJson {
  const url = new URL(site);
  if (pkg.description.length > 100)
    throw new Error(
      `server.json: package.json's description has ${pkg.description.length} characters: the registry takes at ` +
        `most 100`,
    );
  return {
    $schema: SERVER_SCHEMA,
    name: `${namespaceOf(url.hostname)}/${pkg.name}`,
    description: pkg.description,
    version: pkg.version,
    websiteUrl: new URL('/', url).href,
    remotes: [{ type: 'streamable-http', url: new URL('/mcp', url).href }],
    packages: [bridgePackage(pkg, new URL('/mcp', url).href)],
  };
}

/**
 * The bridge (`surplus-lines-mcp`, bridge/cli.mjs, the package's one bin) as the registry lists a local server: npm,
 * stdio, its flags with their defaults, the payer's key as a secret. An MCP client that installs from the registry
 * runs `npx <package>`, which runs that bin.
 */
function bridgePackage(pkg: PackageInfo, remote: string): ServerJson['packages'][number] {
  const named = (
    name: string,
    description: string,
    extra: Omit<PackageInput, 'name' | 'description'> = {},
  ): PackageInput => ({ type: 'named', name, description, ...extra });
  return {
    registryType: 'npm',
    identifier: pkg.name,
    version: pkg.version,
    transport: { type: 'stdio' },
    packageArguments: [
      named('--url', 'The remote MCP endpoint the bridge forwards to', { default: remote }),
      named('--budget-usd', 'The most the bridge may spend, in USD, counted in its state directory', {
        format: 'number',
        default: '1.00',
      }),
      named('--max-deposit-usd', 'The most one deposit into the prepaid channel may be, in USD', {
        format: 'number',
        default: '5.00',
      }),
      named(
        '--state-dir',
        "Where the channel and the spending are kept (default: surplus-lines-mcp in the user's configuration " +
          'directory)',
        { format: 'filepath' },
      ),
      named(
        '--key-file',
        "A file holding the payer's private key, readable only by its owner (instead of X402_PAYER_KEY)",
        { format: 'filepath' },
      ),
      named('--network', 'The network paid on, in its USDC', {
        default: 'eip155:8453',
        choices: ['eip155:8453', 'eip155:84532'],
      }),
      named('--rpc-url', 'A JSON-RPC endpoint of that network, to read the channel (default: its public RPC)'),
    ],
    environmentVariables: [
      {
        name: 'X402_PAYER_KEY',
        description: "The payer's private key (0x and 64 hex digits), unless --key-file is given",
        isSecret: true,
        isRequired: false,
      },
    ],
  };
}

/** The file's bytes: 2-space JSON with a final newline. */
export const serverJsonText = (pkg: PackageInfo, site: string): string =>
  `${JSON.stringify(serverJson(pkg, site), null, 2)}\n`;

if (import.meta.main) {
  const out = process.argv[2] ?? join(ROOT, 'server.json');
  const text = serverJsonText(packageInfo(), siteUrl());
  writeFileSync(out, text);
  const written = JSON.parse(text) as ServerJson;
  console.log(`${relative(process.cwd(), out)}: ${written.name} ${written.version}, remote ${written.remotes[0].url}`);
}
