/**
 * An S3-protocol server for tests (s3rver, from npm: no other S3 server can be installed here), on loopback,
 * in a process of its own started by `startS3Server` (s3-server.ts):
 *
 *   node --openssl-legacy-provider server/testing/s3rver-main.mjs <folder> <port or 0> <bucket>...
 *
 * Its own process because s3rver makes ListObjectsV2's continuation tokens with DES, which OpenSSL 3 keeps
 * in its legacy provider (a flag for the whole process, not for the test's). Prints `{"port": N}` once it
 * listens; stops when its standard input closes (the test, or the test's process, ended).
 */
import S3rver from 's3rver';

const [directory, port, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name, configs: [] })),
});
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.stdin.resume();
process.stdin.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
