// `npm run chain` (scripts/chain.ts): the local chain and facilitator a person pays the local server through. It
// prints what a server and a payer need as shell assignments, serves both schemes, funds the payer, and stops
// cleanly when told to.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

async function call<T>(rpc: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: T }).result;
}

describe('npm run chain', () => {
  it('prints FACILITATOR_URL, PAYEE, RPC and a funded PAYER_KEY, serves exact and batch-settlement, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'chain.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const values = new Map<string, string>();
      const lines = createInterface({ input: child.stdout! });
      for await (const line of lines) {
        const assignment = /^([A-Z_]+)=(\S+)$/.exec(line);
        if (assignment) values.set(assignment[1], assignment[2]);
        if (line.startsWith('# Up until stopped')) break;
      }
      expect([...values.keys()]).toEqual(['FACILITATOR_URL', 'PAYEE', 'RPC', 'PAYER_KEY']);
      const supported = (await (await fetch(`${values.get('FACILITATOR_URL')}/supported`)).json()) as { kinds: { x402Version: number; scheme: string; network: string; extra?: { receiverAuthorizer?: string } }[] };
      // x402 version 2 (the SDK's exact facilitator also lists version 1's network names).
      expect(supported.kinds.filter((k) => k.x402Version === 2).map((k) => `${k.scheme} ${k.network}`).sort()).toEqual(['batch-settlement eip155:8453', 'exact eip155:8453']);
      expect(supported.kinds.find((k) => k.scheme === 'batch-settlement')!.extra?.receiverAuthorizer).toMatch(/^0x[0-9a-fA-F]{40}$/);
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
      // Its chain went with it.
      await expect(call(rpc, 'eth_chainId')).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
