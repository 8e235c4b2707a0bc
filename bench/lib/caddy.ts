/**
 * Caddy from Debian (`apt-get install -y caddy`, 2.6) as bench:cluster's other load balancer
 * (`--balancer=caddy`), run in the foreground from a folder of its own, never the system's service: no admin
 * endpoint, no automatic HTTPS (loopback addresses over http), its storage in that folder.
 *
 * The `reverse_proxy` block is the one docs/deploy.md gives: keep them the same. The active health check on
 * /readyz is included only when the processes answer it (`healthUri`): a build without /readyz would have
 * every upstream marked down.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Balancer, supervise } from './nginx.ts';

/** Caddy's version, or null when it is not installed. */
export function caddyVersion(): string | null {
  const run = spawnSync('caddy', ['version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) return null;
  return `caddy ${run.stdout.trim().split(' ')[0]}`;
}

export function caddyConfig(dir: string, upstreams: number[], listen: number[], healthUri: boolean): string {
  const sites = listen.map((port, k) => {
    const to = upstreams
      .slice(0, k + 1)
      .map((p) => `127.0.0.1:${p}`)
      .join(' ');
    return `http://127.0.0.1:${port} {
    request_body {
        max_size 64MB
    }
    reverse_proxy ${to} {
        lb_policy round_robin
        lb_try_duration 5s
${healthUri ? '        health_uri /readyz\n        health_interval 5s\n' : ''}        transport http {
            read_timeout 300s
        }
    }
}`;
  });
  return `{
    admin off
    auto_https off
    storage file_system ${dir}/storage
    log {
        output discard
    }
}
${sites.join('\n')}
`;
}

/** Starts Caddy on the ports given; resolves once every port answers. */
export async function startCaddy(
  upstreams: number[],
  listen: number[],
  healthUri: boolean,
): Promise<Balancer> {
  const version = caddyVersion();
  if (!version) throw new Error('caddy is not installed (apt-get install -y caddy).');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-caddy-'));
  const config = caddyConfig(dir, upstreams, listen, healthUri);
  const file = path.join(dir, 'Caddyfile');
  writeFileSync(file, config);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const check = spawnSync('caddy', ['validate', '--config', file, '--adapter', 'caddyfile'], {
    encoding: 'utf8',
    env,
  });
  if (check.status !== 0) throw new Error(`caddy refused the configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env,
  });
  const run = await supervise({ name: 'caddy', child, dir, listen, startMs: 15_000, stopSignal: 'SIGTERM' });
  return { ...run, version, config };
}
