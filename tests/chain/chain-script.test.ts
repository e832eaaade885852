// `npm run chain` (scripts/chain.ts): the local chain and facilitator a person pays the local server through. It
// prints what a server and a payer need as shell assignments, and writes them to a file another shell sources
// (here in a folder of the test's own, by CHAIN_ENV_FILE: the default .tmp/chain.env may be a person's running
// chain), serves both schemes, funds the payer, and stops cleanly when told to, taking the file with it.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

async function call<T>(rpc: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: T }).result;
}

describe('npm run chain', () => {
  it('prints FACILITATOR_URL, PAYEE, RPC and a funded PAYER_KEY, also in a file a shell sources, serves exact and batch-settlement, and exits 0 on SIGTERM, the file gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmd-chain-env-'));
    const envFile = join(dir, 'chain.env');
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'chain.ts')], {
      cwd: ROOT,
      env: { ...process.env, CHAIN_ENV_FILE: envFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const values = new Map<string, string>();
      const comments: string[] = [];
      const lines = createInterface({ input: child.stdout });
      for await (const line of lines) {
        const assignment = /^([A-Z_]+)=(\S+)$/.exec(line);
        if (assignment) values.set(assignment[1], assignment[2]);
        else comments.push(line);
        if (line.startsWith('# Up until stopped')) break;
      }
      expect([...values.keys()]).toEqual(['FACILITATOR_URL', 'PAYEE', 'RPC', 'PAYER_KEY']);
      // The file, named where it is printed: a shell that sources it has the printed values, and the server's names
      // for the payee and the facilitator (so that `source` then `npm start` serves with the gate on) and the bridge's for the key.
      expect(comments).toContain(`# Also in ${envFile}: source it in another shell`);
      expect(existsSync(envFile)).toBe(true);
      const sourced = execFileSync(
        'bash',
        [
          '-c',
          'source "$1" && echo "$FACILITATOR_URL $PAYEE $RPC $PAYER_KEY $X402_PAY_TO $X402_FACILITATOR_URL $X402_PAYER_KEY"',
          'bash',
          envFile,
        ],
        {
          env: { PATH: process.env.PATH },
          encoding: 'utf8',
        },
      ).trim();
      const printed = ['FACILITATOR_URL', 'PAYEE', 'RPC', 'PAYER_KEY'].map((name) => values.get(name));
      expect(sourced).toBe(
        [...printed, values.get('PAYEE'), values.get('FACILITATOR_URL'), values.get('PAYER_KEY')].join(' '),
      );
      const supported = (await (await fetch(`${values.get('FACILITATOR_URL')}/supported`)).json()) as {
        kinds: { x402Version: number; scheme: string; network: string; extra?: { receiverAuthorizer?: string } }[];
      };
      // x402 version 2 (the SDK's exact facilitator also lists version 1's network names).
      expect(
        supported.kinds
          .filter((k) => k.x402Version === 2)
          .map((k) => `${k.scheme} ${k.network}`)
          .sort(),
      ).toEqual(['batch-settlement eip155:8453', 'exact eip155:8453']);
      expect(supported.kinds.find((k) => k.scheme === 'batch-settlement')!.extra?.receiverAuthorizer).toMatch(
        /^0x[0-9a-fA-F]{40}$/,
      );
      const rpc = values.get('RPC')!;
      expect(Number(await call<string>(rpc, 'eth_chainId'))).toBe(8453);
      const payer = privateKeyToAccount(values.get('PAYER_KEY') as `0x${string}`).address;
      // balanceOf(payer) on the USDC look-alike: 100 test USDC.
      const data = `0x70a08231${payer.slice(2).toLowerCase().padStart(64, '0')}`;
      expect(BigInt(await call<string>(rpc, 'eth_call', [{ to: BASE_USDC, data }, 'latest']))).toBe(100_000_000n);
      expect(values.get('PAYEE')).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(values.get('PAYEE')!.toLowerCase()).not.toBe(payer.toLowerCase());
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Its chain went with it, and the file that named it.
      await expect(call(rpc, 'eth_chainId')).rejects.toThrow();
      expect(existsSync(envFile)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on SIGINT (Ctrl-C) too removes its file, but not a file another chain has written since', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slmd-chain-env-'));
    const run = async (envFile: string, replace: boolean) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts', 'chain.ts')], {
        cwd: ROOT,
        env: { ...process.env, CHAIN_ENV_FILE: envFile },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        for await (const line of createInterface({ input: child.stdout }))
          if (line.startsWith('# Up until stopped')) break;
        expect(readFileSync(envFile, 'utf8')).toMatch(/^export RPC='http:\/\/127\.0\.0\.1:\d+'$/m);
        if (replace) writeFileSync(envFile, "export RPC='http://127.0.0.1:1'\n"); // what a later chain would do
        child.kill('SIGINT');
        expect(await exited).toBe(0);
      } finally {
        child.kill('SIGKILL');
      }
    };
    try {
      await run(join(dir, 'own.env'), false);
      expect(existsSync(join(dir, 'own.env'))).toBe(false);
      await run(join(dir, 'replaced.env'), true);
      expect(readFileSync(join(dir, 'replaced.env'), 'utf8')).toBe("export RPC='http://127.0.0.1:1'\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
