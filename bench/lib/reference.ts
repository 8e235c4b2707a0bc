/**
 * The static reference: a bare Fastify route in a process of its own that answers each recorded request
 * with the product's own answer, held in memory (the same body, content type and content encoding, byte
 * for byte). What the product's page costs beyond this is the cost of making it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One recorded answer of the product. */
export interface RecordedAnswer {
  /** The path and query the load requests. */
  path: string;
  /** Whether the load sends a session cookie (the signed-in page has the same address as the anonymous one). */
  signedIn: boolean;
  status: number;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  body: Buffer;
}

export interface ReferenceServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

const keyOf = (path: string, signedIn: boolean) => `${signedIn ? 'cookie' : 'anonymous'} ${path}`;

/** Forks the reference server with these answers; resolves once it listens on loopback. */
export function startReference(answers: RecordedAnswer[]): Promise<ReferenceServer> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
    child.once('message', (m: { port: number }) =>
      resolve({
        url: `http://127.0.0.1:${m.port}`,
        pid: child.pid!,
        close: async () => {
          child.kill();
          await exited;
        },
      }),
    );
    child.send(answers.map((a) => ({ ...a, body: a.body.toString('base64') })));
  });
}

async function serve(answers: (Omit<RecordedAnswer, 'body'> & { body: string })[]) {
  const { default: Fastify } = await import('fastify');
  const table = new Map(
    answers.map((a) => [keyOf(a.path, a.signedIn), { ...a, body: Buffer.from(a.body, 'base64') }]),
  );
  const app = Fastify({ logger: false });
  app.get('/*', (request, reply) => {
    const answer = table.get(keyOf(request.url, request.headers.cookie !== undefined));
    if (!answer) return reply.code(404).send('not recorded');
    reply.code(answer.status);
    if (answer.contentType) reply.header('content-type', answer.contentType);
    if (answer.contentEncoding) reply.header('content-encoding', answer.contentEncoding);
    return reply.send(answer.body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
}

if (process.argv.includes('--child') && process.send) {
  process.once('message', (answers: Parameters<typeof serve>[0]) => {
    serve(answers).catch((err) => {
      console.error(err);
      process.exit(1);
    });
  });
  process.on('disconnect', () => process.exit(0));
}
