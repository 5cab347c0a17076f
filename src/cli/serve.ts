/// <reference types="node" />
import { mkdirSync } from 'node:fs';
import { LiveServer } from '../live/server/LiveServer';
import type { LiveServerOptions } from '../live/server/LiveServerOptions';
import type { CliIo } from './info';

export const SERVE_USAGE = `Usage: rewindable serve [options]

Serves the live viewer and relays live sessions: games publish (connectLive(recorder, 'ws://HOST:PORT');
the demo: its URL with ?live=ws://HOST:PORT), viewers follow (viewer.html?live=ws://HOST:PORT).
Prints the URL to open.

  --port N            port (default 7070; 0: any free port)
  --host ADDR         interface (default 127.0.0.1)
  --allow-remote      required to listen on anything but loopback (prints a warning)
  --token T           a shared token games and viewers must give (?token=T)
  --viewer DIR        a built viewer to serve (the directory holding viewer.html: dist-demo after
                      npm run build:demo); http://HOST:PORT/ then opens it attached to this server.
                      Without it, a minimal page lists the sessions
  --persist DIR       save every session to rolling .rwd files in DIR (xor-delta compressed)
  --roll-seconds N    a file per N seconds of game time (default 60)
  --keep-bytes N      delete the oldest files above N bytes in total (default 1 GiB)
  --keep-seconds N    delete files older than N seconds (default: never)
`;

/**
 * Parses `rewindable serve` arguments into server options; returns a usage error as a string.
 *
 * @example
 * const o = parseServeArgs(['--port', '0']); // { port: 0 }
 */
export function parseServeArgs(args: readonly string[]): Partial<LiveServerOptions> | string {
  const o: { -readonly [K in keyof LiveServerOptions]?: LiveServerOptions[K] } = {};
  const persist: { dir?: string; rollSeconds?: number; keepBytes?: number; keepSeconds?: number } = {};
  const num = (name: string, v: string | undefined): number | string => {
    const n = Number(v);
    return v !== undefined && Number.isFinite(n) && n >= 0 ? n : `${name} needs a non-negative number`;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = args[i + 1];
    const take = (): string | undefined => {
      i++;
      return value;
    };
    if (a === '--allow-remote') o.allowRemote = true;
    else if (a === '--host') o.host = take() ?? '';
    else if (a === '--token') o.token = take() ?? '';
    else if (a === '--viewer') o.viewerDir = take() ?? '';
    else if (a === '--persist') persist.dir = take() ?? '';
    else if (a === '--port' || a === '--roll-seconds' || a === '--keep-bytes' || a === '--keep-seconds') {
      const n = num(a, take());
      if (typeof n === 'string') return n;
      if (a === '--port') o.port = n;
      else if (a === '--roll-seconds') persist.rollSeconds = n;
      else if (a === '--keep-bytes') persist.keepBytes = n;
      else persist.keepSeconds = n;
    } else return `unknown option ${a}`;
  }
  if (o.host === '' || o.token === '' || o.viewerDir === '' || persist.dir === '')
    return 'an option is missing its value';
  if (persist.dir !== undefined) o.persist = { ...persist, dir: persist.dir };
  else if (Object.keys(persist).length > 0) return '--roll-seconds, --keep-bytes and --keep-seconds need --persist DIR';
  return o;
}

/**
 * `rewindable serve`: starts the server and resolves with it (it runs until closed); resolves null
 * after printing the usage or an error, with `exitCode` set.
 */
export async function runServe(
  argv: readonly string[],
  io: CliIo & { exitCode?: (code: number) => void },
): Promise<LiveServer | null> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(SERVE_USAGE);
    return null;
  }
  const parsed = parseServeArgs(argv);
  if (typeof parsed === 'string') {
    io.err(`rewindable serve: ${parsed}\n\n${SERVE_USAGE}`);
    io.exitCode?.(2);
    return null;
  }
  try {
    if (parsed.persist) mkdirSync(parsed.persist.dir, { recursive: true });
    return await LiveServer.start({ ...parsed, log: (line) => io.out(`${line}\n`) });
  } catch (e) {
    io.err(`rewindable serve: ${e instanceof Error ? e.message : String(e)}\n`);
    io.exitCode?.(1);
    return null;
  }
}
