// The endpoint of tests/http/README.md in Node: fastify, one worker per core
// through node:cluster.
//
//   node server.mjs --tier TIER [--port 8080] [--workers N] [--request-timeout SECS]
//
// Tiers: qrcode (node-qrcode, the experiment's options and the query's where
// node-qrcode has them; 501 for those it has not), cli (the Rust qrglue CLI
// spawned per request), component, raw, bindgen, native (the qrglue
// entries), static (the reference URL's golden PNG from memory).
// Listens on 127.0.0.1 only. Limits: request head 16 KiB (431 above it); a
// client must send its whole request head within the request timeout
// (default 10 s) and may not stay silent longer than that, or it is
// disconnected. SIGINT/SIGTERM stop the workers and exit 0.
import cluster from 'node:cluster';
import http from 'node:http';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLI_FLAGS } from '../lib/cli-flags.js';
import { DEFAULTS, OPTION_FIELDS } from '../lib/options.js';
import { png as nativePng } from '../native.js';
import { boundUnsent, checkQuery, methodClass, pathAndQuery, HttpError, NO_HOST_MESSAGE, UNKNOWN_METHOD_MESSAGE } from './query.mjs';

const TIERS = ['qrcode', 'cli', 'component', 'raw', 'bindgen', 'native', 'static'];
const REFERENCE_TEXT = 'https://www.reddit.com/r/rustjerk/top/?t=all';
const BAD_REQUEST_MESSAGE = 'malformed HTTP request';
const HEAD_TOO_LARGE_MESSAGE = 'request head larger than 16 KiB';
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_HEADERS = 100;
// The most a connection holds written but unsent in the kernel (TCP_NOTSENT_LOWAT,
// as the Rust, Go and Python servers set it): about two 4096-pixel PNGs.
const NOTSENT_LOWAT = 16 * 1024;
const USAGE = `usage: node server.mjs --tier ${TIERS.join('|')} [--port N] [--workers N] [--request-timeout SECS]`;

function fail(message) {
  console.error(`qrglue-server: ${message}\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      tier: { type: 'string' },
      port: { type: 'string', default: '8080' },
      workers: { type: 'string', default: String(os.availableParallelism()) },
      'request-timeout': { type: 'string', default: '10' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  fail(error.message);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const tier = args.tier;
// The tiers with no qrglue generator: the query's checks stand in for its own (checkQuery's `alone`).
const alone = tier === 'qrcode' || tier === 'static';
const port = Number(args.port);
const workers = Number(args.workers);
const timeoutMs = Math.round(Number(args['request-timeout']) * 1000);
if (!TIERS.includes(tier)) fail(`unknown tier ${JSON.stringify(tier)} (node tiers: ${TIERS.join(', ')})`);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad --port ${args.port}`);
if (!Number.isInteger(workers) || workers < 1) fail(`bad --workers ${args.workers}`);
if (!(timeoutMs > 0)) fail(`bad --request-timeout ${args['request-timeout']}`);

if (cluster.isPrimary) {
  primary();
} else {
  await worker();
}

function primary() {
  // The kernel hands connections to the workers, not the primary. Node's default
  // on Linux (round robin) accepts in the primary and passes each socket to a
  // worker over IPC; a worker killed with a socket in flight strands it in the
  // primary, open and unanswered, until the client gives up (21 of 60 kill -9s
  // under load left one hanging; tests/http/test_hostile.py's killed-worker test).
  // With SCHED_NONE the workers accept() from the one shared socket: a dead
  // worker's backlog stays in the kernel for the others. `just bench-http` runs
  // one worker, so its figures do not depend on this.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  let started = false; // every first worker has listened once: the service is up
  const listeningIds = new Set();
  const fork = (replacement) => {
    const w = cluster.fork();
    w.replacement = replacement;
  };
  cluster.on('listening', (w, address) => {
    listeningIds.add(w.id);
    w.listened = true;
    if (w.replacement) {
      console.log(`qrglue-server node/${tier}: worker ${w.process.pid} listening (a replacement)`);
    }
    if (!started && listeningIds.size === workers) {
      started = true;
      console.log(`qrglue-server node/${tier}: listening on http://127.0.0.1:${address.port} (workers: ${workers}; head limit 16 KiB, request timeout ${timeoutMs / 1000} s)`);
    }
  });
  cluster.on('exit', (w, code, signal) => {
    listeningIds.delete(w.id);
    if (stopping) {
      // exitCode is 1 after a start-up failure, else unset (0).
      if (Object.keys(cluster.workers).length === 0) process.exit();
      return;
    }
    // A worker that fails on its own before it listens (a path not built, a bad
    // port) would fail again: stop rather than loop. One killed from outside
    // (kill -9, the OOM killer) is replaced like any other, even mid start-up:
    // the killed-worker test once killed a worker before its sibling listened,
    // and this rule, then keyed on a global count, took the whole server down.
    const killed = signal === 'SIGKILL' || signal === 'SIGTERM';
    if (!w.listened && !killed) {
      console.error(`qrglue-server node/${tier}: a worker exited during start-up (code ${code}, signal ${signal})`);
      stopping = true;
      for (const other of Object.values(cluster.workers)) other.process.kill('SIGTERM');
      process.exitCode = 1;
      if (Object.keys(cluster.workers).length === 0) process.exit(1);
      return;
    }
    console.error(`qrglue-server node/${tier}: worker ${w.process.pid} exited (code ${code}, signal ${signal}); starting another`);
    fork(true);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers)) w.process.kill('SIGTERM');
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < workers; i++) fork(false);
}

async function loadGenerator() {
  switch (tier) {
    case 'component': return (await import('../index.js')).png;
    case 'raw': return (await import('../raw.js')).png;
    case 'bindgen': return (await import('../bindgen.js')).png;
    case 'native': return (await import('../native.js')).png;
    case 'static': {
      const golden = Buffer.from((await import('../raw.js')).png(REFERENCE_TEXT));
      return () => golden;
    }
    case 'qrcode': {
      const QRCode = (await import('qrcode')).default;
      const LEVEL = { low: 'L', medium: 'M', quartile: 'Q', high: 'H' };
      // What node-qrcode cannot draw: a 501 rather than another code (tests/http/README.md). Every option of the
      // table but the ones it has, the first given (not at its default) in check order, so that a new option is
      // refused here until this tier learns it.
      const HAS = new Set(['ec-level', 'min-size', 'quiet-zone', 'scale', 'dark', 'light', 'version', 'mask']);
      const LACKS = OPTION_FIELDS.filter((f) => !HAS.has(f.wit));
      // The experiment's options (hosts/node/bench/bench.mjs NODE_QRCODE_OPTIONS), ec-level, width and margin
      // from the query, and what node-qrcode has of the others: scale (then no width), colours, version, mask.
      // `options` are resolved (checkQuery's `alone`): every one at its value or the core's default.
      return async (text, options) => {
        for (const f of LACKS) {
          if (options[f.name] !== DEFAULTS[f.name]) throw new HttpError('not-implemented', `node-qrcode has no ${f.wit} option`, 501);
        }
        const { ecLevel, minSize, quietZone, scale, dark, light, version, mask } = options;
        const qrOptions = {
          type: 'png', errorCorrectionLevel: LEVEL[ecLevel], margin: quietZone,
          rendererOpts: { deflateLevel: 9, deflateStrategy: 3 },
        };
        if (scale !== undefined) qrOptions.scale = scale;
        else qrOptions.width = minSize;
        qrOptions.color = { dark, light };
        if (version !== undefined) qrOptions.version = version;
        if (mask !== undefined) qrOptions.maskPattern = mask;
        try {
          return await QRCode.toBuffer(text, qrOptions);
        } catch (error) {
          // A version too small for the text: the generator's data-too-long, whose
          // message (the limit hit, in bits) node-qrcode has no words for: the
          // library's own error for the same text and options is the answer.
          if (version !== undefined && /cannot contain this amount of data/.test(error?.message)) {
            nativePng(text, options);
          }
          throw error;
        }
      };
    }
    case 'cli': {
      const cli = process.env.QRGLUE_CLI ?? fileURLToPath(new URL('../../../target/host/qrglue', import.meta.url));
      return (text, options = {}) => {
        // The text on standard input, byte for byte: an argument cannot carry a NUL. Every option given, by the
        // CLI's flag table (the ec-level by its WIT name and colours as '#rrggbbaa', as the CLI takes them).
        const argv = ['png', '-o', '-', '--path', 'native', '--text-stdin'];
        for (const { flag, name, type, command } of CLI_FLAGS) {
          const value = options[name];
          if (value === undefined || value === false || (command !== null && command !== 'png')) continue;
          argv.push(`--${flag}`, ...(type === 'bool' ? [] : [String(value)]));
        }
        return new Promise((resolve, reject) => {
          const child = spawn(cli, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
          child.stdin.on('error', () => {}); // a child that exits early: its exit code says why
          child.stdin.end(Buffer.from(text, 'utf8'));
          const out = [];
          const err = [];
          child.stdout.on('data', (chunk) => out.push(chunk));
          child.stderr.on('data', (chunk) => err.push(chunk));
          child.on('error', reject);
          child.on('close', (code) => {
            const stderr = Buffer.concat(err).toString('utf8');
            const line = /^qrglue: ([a-z-]+): (.*)\n?$/.exec(stderr);
            if (code === 0) resolve(Buffer.concat(out));
            else if (code === 1 && line) reject(new HttpError(line[1], line[2]));
            else reject(new Error(`qrglue CLI exited ${code}: ${stderr.trim()}`));
          });
        });
      };
    }
  }
  throw new Error(`no tier ${tier}`);
}

function rawError(response, status, kind, message) {
  const body = JSON.stringify({ kind, message });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close',
  });
  response.end(body);
}

// Before fastify sees a request (tests/http/README.md, "Request targets and
// methods"): an unknown method and an HTTP/1.1 request without Host are 400;
// the target becomes its path and query (a fragment dropped, absolute-form
// reduced), which is all fastify's router and the handlers read.
function guard(request, response) {
  if (methodClass(request.method) === 'unknown') {
    rawError(response, 400, 'bad-request', UNKNOWN_METHOD_MESSAGE);
    return false;
  }
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    rawError(response, 400, 'bad-request', NO_HOST_MESSAGE);
    return false;
  }
  const [path, query] = pathAndQuery(request.url);
  request.url = query === '' ? path : `${path}?${query}`;
  return true;
}

function clientErrorHandler(error, socket) {
  // A client that timed out (idle, trickling) is closed, as by hyper and the Python server.
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Only where no answer is under way on the connection (node:http's own rule).
  if (!socket._httpMessage || !socket._httpMessage._headerSent) {
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({ kind: 'bad-request', message: tooLarge ? HEAD_TOO_LARGE_MESSAGE : BAD_REQUEST_MESSAGE });
    socket.write(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n`
      + `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`
      + `connection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

// Issue 39: a client that pipelines requests and never reads must cost a few
// renders, not one per request. node:http hands every request of a read to the
// handler at once and holds the answers behind the first, and the kernel's
// send buffer (autotuned up to 4 MB) took all 200 answers of such a client:
// all were rendered. So each connection's kernel queue is bounded
// (boundUnsent, once per connection) and its requests are handled one at a
// time, each once the answer before it has been handed to the kernel
// ('finish'; 'close' when the connection goes first): the write that stalls
// stops the renders, and the inactivity timeout (server.setTimeout) ends it.
const lastAnswer = new WeakMap(); // socket -> settles when its latest answer is written or the socket is gone
function inTurn(request, response, handler) {
  const socket = request.socket;
  const before = lastAnswer.get(socket);
  lastAnswer.set(socket, new Promise((resolve) => {
    response.once('finish', resolve);
    response.once('close', resolve);
  }));
  if (before === undefined) handler(request, response);
  else before.then(() => socket.destroyed || handler(request, response));
}

// A write that makes no progress for the request timeout ends the connection,
// checked as often as node:http checks its own timers. server.setTimeout alone
// let a client that never reads stay up to twice the timeout: net.js skips a
// socket's first timeout when its write queue changed since the write was
// dispatched (Socket#_onTimeout), which the first bytes of a stalled answer
// do. Progress is the libuv write queue going down: the handle's
// writeQueueSize, what net.js itself compares.
const WRITE_CHECK_MS = Math.min(1000, Math.max(100, timeoutMs / 4));
function watchWrites(socket) {
  let queued = 0;
  let since = Date.now(); // when the queue was last empty or went down
  const timer = setInterval(() => {
    const now = socket._handle?.writeQueueSize ?? 0;
    if (now === 0 || now < queued) since = Date.now();
    else if (Date.now() - since >= timeoutMs) socket.destroy();
    queued = now;
  }, WRITE_CHECK_MS);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}

async function worker() {
  const { default: Fastify } = await import('fastify');
  const generate = await loadGenerator();
  const server = http.createServer({
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    keepAliveTimeout: 5000,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, timeoutMs / 4)),
    // Checked in `guard` below, to answer with the contract's JSON (node:http's
    // own 400 has no content type).
    requireHostHeader: false,
  });
  // One more than the limit, so that a head over it can be seen and refused.
  server.maxHeadersCount = MAX_HEADERS + 1;
  // A silent socket (connected, never sends a byte) is closed after the same time.
  server.setTimeout(timeoutMs, (socket) => socket.destroy());
  server.on('connection', (socket) => {
    boundUnsent(socket, NOTSENT_LOWAT);
    watchWrites(socket);
  });
  const app = Fastify({
    logger: false,
    serverFactory: (handler) => server.on('request', (request, response) => guard(request, response) && inTurn(request, response, handler)),
    // A request node:http's parser cannot read: the contract's JSON, as the
    // Python server answers it (fastify's default is its own JSON format).
    clientErrorHandler,
    // The query is read raw from the URL (checkQuery): fastify's parser would
    // repair bad percent-encoding and bad UTF-8.
    routerOptions: { querystringParser: () => ({}) },
  });
  const sendError = (reply, status, kind, message) =>
    reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ kind, message }));
  // No request body is ever read: the endpoint is GET/HEAD only. fastify's own
  // parsers would parse a POST's body before the 405 (and answer invalid JSON
  // with its own 400), so every content type gets a parser that reads nothing;
  // Node discards the unread body before the next request on the connection.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // The path is matched as sent (tests/http/README.md): the router would
  // decode %XX, so /%71rcode would reach /qrcode. More than MAX_HEADERS header
  // lines are refused as hyper refuses them (431).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.rawHeaders.length / 2 > MAX_HEADERS) {
      return sendError(reply.header('connection', 'close'), 431, 'bad-request', 'more than 100 header lines');
    }
    const path = request.raw.url.split('?', 1)[0];
    const routed = request.routeOptions.url;
    if (routed !== undefined && path !== routed) {
      return sendError(reply, 404, 'not-found', 'no such path (known: /qrcode, /healthz)');
    }
    done();
  });
  app.get('/healthz', (_request, reply) => reply.header('content-type', 'text/plain; charset=utf-8').send('ok\n'));
  app.get('/qrcode', async (request, reply) => {
    const url = request.raw.url;
    const at = url.indexOf('?');
    let bytes;
    try {
      const { text, options } = checkQuery(at < 0 ? '' : url.slice(at + 1), alone);
      bytes = await generate(text, options);
    } catch (error) {
      if (error instanceof HttpError || (typeof error?.kind === 'string' && error.name === 'QrError')) {
        return sendError(reply, error.status ?? 400, error.kind, error.message);
      }
      console.error(`qrglue-server node/${tier}:`, error);
      return sendError(reply, 500, 'internal', 'the generator failed');
    }
    const body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return reply.header('content-type', 'image/png').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.raw.url.split('?', 1)[0];
    if (path === '/qrcode' || path === '/healthz') {
      return sendError(reply.header('allow', 'GET, HEAD'), 405, 'method-not-allowed', 'only GET and HEAD are allowed');
    }
    return sendError(reply, 404, 'not-found', 'no such path (known: /qrcode, /healthz)');
  });
  await app.listen({ host: '127.0.0.1', port });
  const stop = () => {
    setTimeout(() => process.exit(0), 2000).unref();
    app.close().then(() => process.exit(0), () => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', () => {}); // the primary stops us with SIGTERM
}
