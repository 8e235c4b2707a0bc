// One server process of a cluster test (tests/cluster/harness.ts forks it with an IPC channel). It is the
// production start of `npm start` on the built server (build/node, `npm run build`): the same openRuntime and
// startServer, with two things passed in through startServer's `overrides` that only a test needs, so the
// product itself has no test switch:
//   - a ManualClock, starting at CLUSTER_CLOCK (ms since the epoch), moved by the test's messages;
//   - the real mail transport (the .eml outbox, or SMTP), wrapped so that the test can make it hold a
//     message to a given recipient forever: the process then sits in the middle of a claimed mail job,
//     to be killed there.
// Messages from the test: { id, type: 'clock', at } and { id, type: 'hold', to } (to: null stops holding),
// each answered with { id, type: 'done' }. To the test: { type: 'ready', port, pid, workerId } once the site
// listens, { type: 'holding', to, subject } when a held message is reached.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// React and React Router pick their production builds when first imported, as start.mjs sets it.
process.env.NODE_ENV = 'production';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = (name) => import(pathToFileURL(path.join(root, 'build', 'node', 'server', `${name}.js`)).href);
const [{ openRuntime, exitOnStartupError }, { startServer }, { ManualClock }, { createMailer }] =
  await Promise.all([built('lifecycle'), built('main'), built('clock'), built('mail/mailer')]);

const clock = new ManualClock(Number(process.env.CLUSTER_CLOCK ?? Date.now()));
let hold = null;

/** The transport the product would make, holding what the test asked it to hold. */
function holdingMailer(config) {
  const real = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: { info() {} },
  });
  return {
    async send(mail, opts) {
      const to = [mail.to].flat();
      if (hold && to.includes(hold)) {
        process.send?.({ type: 'holding', to: hold, subject: mail.subject });
        await new Promise(() => {}); // until the test kills this process
      }
      return real.send(mail, opts);
    },
    close: () => real.close(),
  };
}

process.on('message', (msg) => {
  if (msg?.type === 'clock') clock.set(msg.at);
  else if (msg?.type === 'hold') hold = msg.to;
  process.send?.({ id: msg?.id, type: 'done' });
});
// The test runner went away without stopping us: stop as a SIGTERM would.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

try {
  const runtime = await openRuntime('server');
  const { port, services } = await startServer({
    runtime,
    overrides: { clock, mailer: holdingMailer(runtime.config) },
  });
  process.send?.({ type: 'ready', port, pid: process.pid, workerId: services.jobs.workerId });
} catch (err) {
  exitOnStartupError(err);
}
