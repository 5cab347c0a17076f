/// <reference types="node" />
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/**
 * Answers a GET of `pathname` with the file of that path under `dir` (the built viewer), with its
 * MIME type. Returns false when there is no such file inside `dir` (the caller answers 404); a path
 * that leaves `dir` (`..`, an encoded separator) is never served; a malformed escape gets 400.
 *
 * @example
 * if (!serveFile('dist-demo', '/assets/viewer.js', res)) res.writeHead(404).end();
 */
export function serveFile(dir: string, pathname: string, res: ServerResponse): boolean {
  const root = resolve(dir);
  let rel: string;
  try {
    rel = decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    res.writeHead(400).end();
    return true;
  }
  const path = normalize(join(root, rel));
  if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile()) return false;
  res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  return true;
}
