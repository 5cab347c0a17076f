/**
 * A `LiveServer` in a process of its own, for the live bench section (so the server does not share
 * an event loop with the games and viewers it is measured with). Prints `PORT <n>` once listening;
 * exits when its stdin closes.
 */
import { LiveServer } from '../../src/live/server/LiveServer';

const server = await LiveServer.start({ port: 0, viewerMaxBufferedBytes: 8 * 1024 * 1024 });
process.stdout.write(`PORT ${server.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.close().then(() => process.exit(0));
});
