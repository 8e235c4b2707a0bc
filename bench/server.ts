import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { SERVER_ENV } from '../tests/e2e/env.ts';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
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
  /** The server's own process (`scripts/start.mjs`) when a data folder was given; else undefined. */
  pid: number | undefined;
  /** From the spawn to the first successful answer on the ready path, in milliseconds. */
  startMs: number;
  /** What the server printed on its standard output so far (its start-up banner says the mode). */
  output: () => string;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  /**
   * Serve this data folder with `node scripts/start.mjs`, exactly as `npm start` does (the folder stays
   * after stop). Without it: tests/e2e/serve.mjs on a fresh temporary folder with the demo content, removed
   * when the server stops.
   */
  dataDir?: string;
  /** The page polled until it answers 2xx (default /login), every `pollMs` (default 250). */
  readyPath?: string;
  pollMs?: number;
  /** This port instead of a free one, and PUBLIC_URL other than the server's own address (a load balancer's). */
  port?: number;
  publicUrl?: string;
}

/**
 * The production server as the e2e suite runs it (SERVER_ENV: rate limits off, the e2e admin account) on a
 * free port, with `env` on top. `stop()` ends it (and serve.mjs's whole process group).
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: ServerOptions = {},
): Promise<BenchServer> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const direct = opts.dataDir !== undefined;
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [direct ? 'scripts/start.mjs' : 'tests/e2e/serve.mjs'],
    {
      env: {
        ...process.env,
        ...SERVER_ENV,
        ...env,
        ...(direct ? { DATA_DIR: opts.dataDir } : { E2E_PARENT_PID: String(process.pid) }),
        PORT: String(port),
        PUBLIC_URL: opts.publicUrl ?? url,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      // serve.mjs runs the server as its child: its own process group, so stop() reaches both. start.mjs is
      // the server itself and stays in ours, so it ends with us even if we are killed.
      detached: !direct,
    },
  );
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    printed = (printed + chunk.toString()).slice(-65_536);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (direct) child.kill(sig);
      else process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  const onInterrupt = () => void stop().then(() => process.exit(130));
  const stop = async () => {
    process.off('SIGINT', onInterrupt);
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  process.once('SIGINT', onInterrupt);

  const deadline = Date.now() + 180_000; // a stale build is rebuilt first
  const readyUrl = `${url}${opts.readyPath ?? '/login'}`;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (true) {
    if (gone) throw new Error('The server exited before it was ready (see the messages above).');
    try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer at ${url} within 180 s.`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
  }
  const startMs = performance.now() - started;
  return { url, pid: direct ? child.pid : undefined, startMs, output: () => printed, stop };
}
