// A real Redis for the tests (Debian's redis-server, which `npm test` installs when missing): each run its own,
// on a free loopback port, keeping nothing on disk, stopped when the test is done.
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './server.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface LocalRedis {
  url: string;
  stop(): Promise<void>;
}

/** Starts redis-server on a free port (or `port`) and waits until it accepts connections. */
export async function startRedis(port?: number): Promise<LocalRedis> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(chosen, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (await accepts()) return { url: `redis://127.0.0.1:${chosen}`, stop: () => (child.kill(), exited) };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`redis-server did not start on port ${chosen} (is ${REDIS_SERVER} installed? npm test installs it)`);
}
