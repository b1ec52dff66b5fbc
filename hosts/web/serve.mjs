#!/usr/bin/env node
// A static server for the qrglue page: node:http only, no dependency.
//
//   node hosts/web/serve.mjs [PORT]        (`just web [PORT]`, default 8090)
//
// Why it serves paths of the repository itself (no copy step, no build/ folder):
// the page imports the Node host's glue (hosts/node/lib/*.js, the jco output in
// hosts/node/gen/) with the same relative imports that work on disk, so URL
// paths are repository paths. Only the folders in SERVED are reachable; "/" is
// the page. Everything else (.git, sources, node_modules) is 404.
//
// Headers: COOP same-origin + COEP require-corp make the page cross-origin
// isolated, which gives performance.now() 5 us resolution instead of 100 us
// (the bench panel needs it); `application/wasm` lets compileStreaming compile
// while the bytes arrive. Listens on 127.0.0.1 only.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Repository folders (ending in "/") and files the page needs, and nothing else. */
export const SERVED = Object.freeze([
  'hosts/web/',            // the page, its modules and the bench worker
  'hosts/node/lib/',       // the shared glue (component and raw paths)
  'hosts/node/gen/',       // jco's output for the component (built by `just build-node`)
  'hosts/node/wasm/',      // qrglue.raw.wasm (copied there by `just build-node`)
  'tests/bench/settings.json', // the benchmark's settings, which the bench panel reads
]);
// Under hosts/web/, the Node-side files (dependencies, tests, the browser
// harness) are not the page's.
const HIDDEN = Object.freeze(['hosts/web/node_modules/', 'hosts/web/tests/', 'hosts/web/tools/']);

const PAGE = 'hosts/web/index.html';

const CONTENT_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
});

const ISOLATION_HEADERS = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  // Rebuilt files must show on reload: no stale glue next to a new .wasm.
  'Cache-Control': 'no-cache',
});

/**
 * The repository-relative file a URL path names, or null when it is outside
 * SERVED. Rejects encoded separators, NUL, `..` segments and backslashes before
 * any file system call; the caller also checks the real path (symlinks).
 */
export function servedPath(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // malformed %-escape
  }
  if (decoded === '/' || decoded === '/index.html') return PAGE;
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.slice(1).split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return null;
  const relative = segments.join('/');
  const served = (entry) => (entry.endsWith('/') ? relative.startsWith(entry) : relative === entry);
  if (!SERVED.some(served)) return null;
  if (HIDDEN.some((prefix) => relative.startsWith(prefix))) return null;
  return relative;
}

function isInside(file, dir) {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { ...ISOLATION_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

async function handle(req, res, root) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    return;
  }
  let url;
  try {
    url = new URL(req.url, 'http://127.0.0.1');
  } catch {
    send(res, 400, 'bad request\n');
    return;
  }
  const relative = servedPath(url.pathname);
  if (relative === null) {
    send(res, 404, 'not found\n');
    return;
  }
  let file;
  let info;
  try {
    file = await realpath(path.join(root, relative));
    info = await stat(file);
  } catch {
    send(res, 404, 'not found\n');
    return;
  }
  // A symlink inside a served folder must not lead out of the repository.
  if (!info.isFile() || !isInside(file, root)) {
    send(res, 404, 'not found\n');
    return;
  }
  const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { ...ISOLATION_HEADERS, 'Content-Type': type, 'Content-Length': info.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * Starts the server; resolves to the listening http.Server. `port` 0 picks a
 * free port (tests). The host is always 127.0.0.1.
 */
export async function startServer({ port = 8090, root = REPO_ROOT, log = false } = {}) {
  const realRoot = await realpath(root);
  const server = http.createServer((req, res) => {
    handle(req, res, realRoot).catch((error) => {
      // Never crash on a request: answer 500 if nothing was sent yet.
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
      if (log) console.error(`qrglue web: ${req.method} ${req.url}: ${error?.message ?? error}`);
    });
    if (log) res.on('finish', () => console.log(`${res.statusCode} ${req.method} ${req.url}`));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = process.argv[2] ?? '8090';
  const port = Number(arg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`qrglue web: PORT must be an integer within 0..=65535, got ${arg}`);
    process.exit(2);
  }
  const server = await startServer({ port, log: process.env.QRGLUE_WEB_LOG === '1' });
  console.log(`qrglue page: http://127.0.0.1:${server.address().port}/  (Ctrl-C stops)`);
}
