import { describe, expect, it } from 'vitest';
import { parseServeArgs, runServe } from '../serve';

describe('rewindable serve: arguments', () => {
  it('parses every option, and refuses unknown or incomplete ones', () => {
    expect(parseServeArgs([])).toEqual({});
    expect(
      parseServeArgs([
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--allow-remote',
        '--token',
        't',
        '--viewer',
        'dist-demo',
        '--persist',
        'rec',
        '--roll-seconds',
        '30',
        '--keep-bytes',
        '1000',
        '--keep-seconds',
        '60',
      ]),
    ).toEqual({
      port: 0,
      host: '0.0.0.0',
      allowRemote: true,
      token: 't',
      viewerDir: 'dist-demo',
      persist: { dir: 'rec', rollSeconds: 30, keepBytes: 1000, keepSeconds: 60 },
    });
    expect(parseServeArgs(['--port', '-1'])).toMatch(/non-negative/);
    expect(parseServeArgs(['--port'])).toMatch(/non-negative/);
    expect(parseServeArgs(['--token'])).toMatch(/missing/);
    expect(parseServeArgs(['--what'])).toMatch(/unknown option/);
    expect(parseServeArgs(['--roll-seconds', '5'])).toMatch(/--persist/);
  });

  it('refuses a remote interface without --allow-remote, and starts and stops on loopback', async () => {
    const out: string[] = [];
    const err: string[] = [];
    let code = 0;
    const io = {
      readFile: () => new Uint8Array(0),
      out: (t: string) => out.push(t),
      err: (t: string) => err.push(t),
      exitCode: (c: number) => {
        code = c;
      },
    };
    expect(await runServe(['--host', '0.0.0.0', '--port', '0'], io)).toBeNull();
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/allow-remote/);
    const server = await runServe(['--port', '0'], io);
    expect(server).not.toBeNull();
    expect(out.join('')).toMatch(/ws:\/\/127\.0\.0\.1:\d+/);
    await server?.close();
  });
});
