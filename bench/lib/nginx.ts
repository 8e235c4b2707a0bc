/**
 * nginx from Debian (`apt-get install -y nginx`) as the load balancer of bench:cluster, run in the foreground
 * from a folder of its own (its config, pid, logs and temporary files), never the system's service.
 *
 * The `location` block is the one docs/deploy.md gives for production: keep them the same.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Balancer {
  /** Address of the server block that spreads over the first `n` upstreams, by n. */
  url(n: number): string;
  pid: number;
  version: string;
  config: string;
  stop(): Promise<void>;
}

/** nginx's version line, or null when it is not installed. */
export function nginxVersion(): string | null {
  const run = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) return null;
  return (run.stderr || run.stdout).trim().replace(/^nginx version: /, '');
}

/**
 * One nginx with a server block per size: listening on `listen[k]`, round-robin over the first k+1 of
 * `upstreams` (ports of the Colophon processes on loopback), keep-alive connections to them.
 */
export function balancerConfig(dir: string, upstreams: number[], listen: number[]): string {
  const blocks = listen.map((port, k) => {
    const servers = upstreams
      .slice(0, k + 1)
      .map((p) => `    server 127.0.0.1:${p};`)
      .join('\n');
    return `  upstream colophon_${k + 1} {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://colophon_${k + 1};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      client_max_body_size 64m;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
    }
  }`;
  });
  return `worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {
  worker_connections 4096;
}
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${blocks.join('\n')}
}
`;
}

/** Starts nginx in the foreground (`daemon off`) on the ports given; resolves once every port answers. */
export async function startBalancer(upstreams: number[], listen: number[]): Promise<Balancer> {
  const version = nginxVersion();
  if (!version) {
    throw new Error(
      'nginx is not installed: bench:cluster needs it as its load balancer (apt-get install -y nginx).',
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-nginx-'));
  const config = balancerConfig(dir, upstreams, listen);
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const test = spawnSync('nginx', ['-t', '-q', '-p', dir, '-c', file], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused the configuration:\n${test.stderr}`);
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', file, '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // SIGQUIT stops it gracefully: the workers finish their connections.
  const run = await supervise({
    name: 'nginx',
    child,
    dir,
    listen,
    startMs: 10_000,
    stopSignal: 'SIGQUIT',
    exitHint: ' (see its messages above)',
  });
  return { ...run, version, config };
}

/**
 * A balancer process just spawned on `listen`: resolves once every port answers (or throws when the process
 * exits or `startMs` passes first), with its addresses and a stop that sends `stopSignal` (SIGKILL after
 * 10 s), waits for the exit and removes its folder `dir`. nginx's and Caddy's starts share it.
 */
export async function supervise(opts: {
  name: string;
  child: ChildProcess;
  dir: string;
  listen: number[];
  startMs: number;
  stopSignal: NodeJS.Signals;
  /** Said after "exited at start". */
  exitHint?: string;
}): Promise<Pick<Balancer, 'url' | 'pid' | 'stop'>> {
  const { name, child, dir, listen } = opts;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + opts.startMs;
  for (const port of listen) {
    for (;;) {
      if (gone) throw new Error(`${name} exited at start${opts.exitHint ?? ''}`);
      try {
        await fetch(`http://127.0.0.1:${port}/api/health-of-the-balancer`).then((r) => r.arrayBuffer());
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`${name} does not answer on ${port}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
  return {
    url: (n: number) => `http://127.0.0.1:${listen[n - 1]}`,
    pid: child.pid!,
    async stop() {
      if (!gone) child.kill(opts.stopSignal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
