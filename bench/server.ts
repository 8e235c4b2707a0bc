import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { SERVER_ENV } from '../tests/e2e/env.ts';

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface BenchServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * The production server as the e2e suite runs it (tests/e2e/serve.mjs: a fresh temporary data folder,
 * demo content, rate limits off) on a free port. `stop()` ends its whole process group.
 */
export async function startServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['tests/e2e/serve.mjs'], {
    env: {
      ...process.env,
      ...SERVER_ENV,
      ...env,
      PORT: String(port),
      PUBLIC_URL: url,
      E2E_PARENT_PID: String(process.pid),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true, // its own process group, so stop() reaches start.mjs too
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const stop = async () => {
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));

  const deadline = Date.now() + 180_000; // a stale build is rebuilt first
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (true) {
    if (gone) throw new Error('The server exited before it was ready (see the messages above).');
    try {
      const res = await fetch(`${url}/login`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer at ${url} within 180 s.`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop };
}
