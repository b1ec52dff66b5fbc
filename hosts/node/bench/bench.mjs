// Node benchmark: the component path (jco) vs the raw path (hand-written glue)
// vs wasm-bindgen vs the native addon (napi-rs, no wasm) vs the npm peers (node-qrcode and qr-image for PNG, fast_qr for
// SVG), all in this one process, interleaved in rounds after a warm-up; cold start in fresh child processes. Writes target/bench/node.json
// in the shared schema and prints a table.
//
// Method: every measurement is a batch of calls sized during warm-up to take
// about BATCH_NS; one sample = batch time / calls. Each round runs every
// measurement once, paths of the same (op, text, bytes) next to each other in
// an order that rotates per round. Reported: median, p10, p90 over the rounds.
//
// QRGLUE_BENCH_QUICK=1: a smoke run of a few seconds (CI), same code paths.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import qrImage from 'qr-image';
// fast_qr 0.9.0 ships wasm-bindgen's web-target output with no "main" or "exports": import the glue by its file and
// initialise it with the module's bytes.
import * as fastQr from 'fast_qr/fast_qr.js';
import * as componentApi from '../index.js';
import * as rawApi from '../raw.js';
import * as bindgenApi from '../bindgen.js';
import * as probes from '../probe.js';
import * as nativeApi from '../native.js';
import { native as nativeProbe } from '../native-probe.js';

const QUICK = process.env.QRGLUE_BENCH_QUICK === '1';
const repoRoot = new URL('../../../', import.meta.url);
// Rounds, batch time, sizes: tests/bench/settings.json (with the reasons), as
// in every host's bench; its "hosts.node" entries override the shared values.
const allSettings = JSON.parse(readFileSync(new URL('tests/bench/settings.json', repoRoot), 'utf8'));
const mode = QUICK ? 'quick' : 'full';
const settings = { ...allSettings[mode], ...allSettings.hosts.node?.[mode] };
const ROUNDS = settings.rounds;
const WARMUP_ROUNDS = settings.warmup_rounds;
const BATCH_NS = settings.batch_ms * 1e6;
const COLD_START_SAMPLES = settings.cold_start_samples;
const PNG_REPEAT_TIMES = settings.png_repeat_times;
const PAYLOAD_SIZES = settings.payload_sizes;
const cases = JSON.parse(readFileSync(new URL('tests/vectors/cases.json', repoRoot), 'utf8')).cases;
const expected = JSON.parse(readFileSync(new URL('tests/vectors/expected.json', repoRoot), 'utf8'));
const referenceTexts = cases.filter((c) => /^ref-\d\d$/.test(c.id)).map((c) => ({ id: c.id, text: c.text }));

// The seed article's node-qrcode options (EC L, width 200, zlib level 9, strategy 3 = RLE).
const NODE_QRCODE_OPTIONS = { type: 'png', errorCorrectionLevel: 'L', width: 200, rendererOpts: { deflateLevel: 9, deflateStrategy: 3 } };

// qr-image 3.2.0 with its defaults (EC level M, 5 px per module, margin 4 modules, PNG).
const QR_IMAGE_OPTIONS = { type: 'png' };
// fast_qr 0.9.0 makes SVG (and a matrix), not PNG: its qr_svg with default SvgOptions (EC level Q, the builder's
// default; margin 4 modules; square modules, in module units). Compared with qrglue's svg (EC level L, quiet zone 4).
fastQr.initSync(readFileSync(createRequire(import.meta.url).resolve('fast_qr/fast_qr_bg.wasm')));
const fastQrSvg = (text) => fastQr.qr_svg(text, new fastQr.SvgOptions());

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// --- rpc: the same png as a remote call -------------------------------------
// The axum server (hosts/rust/server, tier axum, one worker) in a child
// process on 127.0.0.1, called with Node's fetch (undici: keep-alive, one
// connection reused), so "What to pick" shows FFI against RPC per call. Its
// bytes are checked against the golden digest like every other path's.
const SERVER_BIN = fileURLToPath(new URL('target/addon/qrglue-server', repoRoot));
if (!existsSync(SERVER_BIN)) throw new Error(`${SERVER_BIN} is missing: run \`just build-http-rust\``);
const rpcPort = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
});
const rpcServer = spawn(SERVER_BIN, ['--tier', 'axum', '--port', String(rpcPort), '--workers', '1'], { stdio: ['ignore', 'ignore', 'inherit'] });
process.on('exit', () => rpcServer.kill());
for (let tries = 0; ; tries++) {
  try {
    if ((await fetch(`http://127.0.0.1:${rpcPort}/healthz`)).ok) break;
  } catch (error) {
    if (tries > 200) throw new Error(`the axum server did not answer /healthz: ${error}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
async function rpcPng(text) {
  const response = await fetch(`http://127.0.0.1:${rpcPort}/qrcode?text=${encodeURIComponent(text)}`);
  if (response.status !== 200) throw new Error(`rpc: HTTP ${response.status}: ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}

// --- what to measure -------------------------------------------------------
// Each measurement: { path, op, text_id, bytes, run(), perCall, output }.
// run() is sync or async; perCall = guest-side units per run (png-repeat).
// Every path's probes, in the order its png rows are measured.
const PROBES = [probes.component, probes.raw, probes.bindgen, nativeProbe];
const measurements = [];
function measure(path, op, textId, bytes, run, { perCall = 1, output = null } = {}) {
  measurements.push({ path, op, text_id: textId, bytes, run, perCall, output, samples: [], batch: 1 });
}

for (const { id, text } of referenceTexts) {
  for (const [path, api] of [['component', componentApi], ['raw', rawApi], ['bindgen', bindgenApi], ['native', nativeApi]]) {
    const png = api.png(text);
    if (sha256(png) !== expected[id].png_sha256) throw new Error(`${path} ${id}: PNG differs from the golden digest`);
    measure(path, 'png', id, null, () => api.png(text), { output: { output_bytes: png.length, sha256: sha256(png) } });
  }
  const remote = await rpcPng(text);
  if (sha256(remote) !== expected[id].png_sha256) throw new Error(`rpc ${id}: PNG differs from the golden digest`);
  measure('rpc', 'png', id, null, () => rpcPng(text), { output: { output_bytes: remote.length, sha256: sha256(remote) } });
  const peer = await QRCode.toBuffer(text, NODE_QRCODE_OPTIONS);
  measure('node-qrcode', 'png', id, null, () => QRCode.toBuffer(text, NODE_QRCODE_OPTIONS),
    { output: { output_bytes: peer.length, sha256: sha256(peer) } });
  const qrImagePng = qrImage.imageSync(text, QR_IMAGE_OPTIONS);
  measure('qr-image', 'png', id, null, () => qrImage.imageSync(text, QR_IMAGE_OPTIONS),
    { output: { output_bytes: qrImagePng.length, sha256: sha256(qrImagePng) } });
  // SVG, like with like: every qrglue path's svg next to fast_qr's.
  for (const [path, api] of [['component', componentApi], ['raw', rawApi], ['bindgen', bindgenApi], ['native', nativeApi]]) {
    const svg = Buffer.from(api.svg(text), 'utf8');
    if (sha256(svg) !== expected[id].svg_sha256) throw new Error(`${path} ${id}: SVG differs from the golden digest`);
    measure(path, 'svg', id, null, () => api.svg(text), { output: { output_bytes: svg.length, sha256: sha256(svg) } });
  }
  const fastSvg = Buffer.from(fastQrSvg(text), 'utf8');
  measure('fast_qr', 'svg', id, null, () => fastQrSvg(text), { output: { output_bytes: fastSvg.length, sha256: sha256(fastSvg) } });
  for (const probe of PROBES) {
    const length = probe.pngRepeat(text, undefined, 1);
    measure(probe.path, 'png-repeat', id, null, () => probe.pngRepeat(text, undefined, PNG_REPEAT_TIMES),
      { perCall: PNG_REPEAT_TIMES, output: { output_bytes: length, sha256: null } });
  }
}
// --- the other outputs, on the reference URL, each next to the peer's equivalent call ---------------------------
// text (half blocks) against node-qrcode's toString({type: 'utf8'}), the module matrix against its create(), the
// png's data URL against its toDataURL().
const REFERENCE_ID = 'ref-02';
const referenceText = referenceTexts.find((r) => r.id === REFERENCE_ID).text;
const matrixDigest = (matrix) => {
  const width = Buffer.alloc(4);
  width.writeUInt32LE(matrix.width);
  return sha256(Buffer.concat([width, Buffer.from(matrix.modules)]));
};
// A data URL's digest in expected.json's form: the sha256 of the PNG it carries (null when it is no base64 PNG URL).
const DATA_URL_PREFIX = 'data:image/png;base64,';
const dataUrlDigest = (url) => (url.startsWith(DATA_URL_PREFIX) ? sha256(Buffer.from(url.slice(DATA_URL_PREFIX.length), 'base64')) : null);
for (const [path, api] of [['component', componentApi], ['raw', rawApi], ['bindgen', bindgenApi], ['native', nativeApi]]) {
  const text = Buffer.from(api.text(referenceText), 'utf8');
  if (sha256(text) !== expected[REFERENCE_ID].text_sha256['half-blocks']) throw new Error(`${path}: text differs from the golden digest`);
  measure(path, 'text', REFERENCE_ID, null, () => api.text(referenceText), { output: { output_bytes: text.length, sha256: sha256(text) } });
  const matrix = api.matrix(referenceText);
  if (matrixDigest(matrix) !== expected[REFERENCE_ID].matrix_sha256) throw new Error(`${path}: matrix differs from the golden digest`);
  measure(path, 'matrix', REFERENCE_ID, null, () => api.matrix(referenceText),
    { output: { output_bytes: matrix.modules.length + 4, sha256: matrixDigest(matrix) } });
  const dataUrl = api.pngDataUrl(referenceText);
  if (dataUrlDigest(dataUrl) !== expected[REFERENCE_ID].png_sha256) throw new Error(`${path}: data URL's PNG differs from the golden digest`);
  measure(path, 'data-url', REFERENCE_ID, null, () => api.pngDataUrl(referenceText),
    { output: { output_bytes: dataUrl.length, sha256: dataUrlDigest(dataUrl) } });
}
// node-qrcode's utf8 renderer draws half blocks too, quiet zone 4 (its margin); EC level L as ours.
const NODE_QRCODE_TEXT_OPTIONS = { type: 'utf8', errorCorrectionLevel: 'L', margin: 4 };
const peerText = Buffer.from(await QRCode.toString(referenceText, NODE_QRCODE_TEXT_OPTIONS), 'utf8');
measure('node-qrcode', 'text', REFERENCE_ID, null, () => QRCode.toString(referenceText, NODE_QRCODE_TEXT_OPTIONS),
  { output: { output_bytes: peerText.length, sha256: sha256(peerText) } });
const peerMatrix = QRCode.create(referenceText, { errorCorrectionLevel: 'L' });
measure('node-qrcode', 'matrix', REFERENCE_ID, null, () => QRCode.create(referenceText, { errorCorrectionLevel: 'L' }),
  { output: { output_bytes: peerMatrix.modules.data.length, sha256: null } });
// toDataURL (async, awaited per call like toBuffer) with the png row's options (EC level L, width 200, zlib level 9,
// RLE; margin 4, its default, stated); type 'image/png' is toDataURL's name for the png renderer.
const NODE_QRCODE_DATA_URL_OPTIONS = { ...NODE_QRCODE_OPTIONS, type: 'image/png', margin: 4 };
const peerDataUrl = await QRCode.toDataURL(referenceText, NODE_QRCODE_DATA_URL_OPTIONS);
measure('node-qrcode', 'data-url', REFERENCE_ID, null, () => QRCode.toDataURL(referenceText, NODE_QRCODE_DATA_URL_OPTIONS),
  { output: { output_bytes: peerDataUrl.length, sha256: dataUrlDigest(peerDataUrl) } });

for (const probe of PROBES) {
  measure(probe.path, 'noop', null, null, () => probe.noop());
}
for (const size of PAYLOAD_SIZES) {
  const data = new Uint8Array(size).map((_, i) => i % 251);
  for (const probe of PROBES) {
    if (probe.consume(data) !== size) throw new Error(`${probe.path} consume(${size}) is wrong`);
    measure(probe.path, 'consume', null, size, () => probe.consume(data));
  }
  for (const probe of PROBES) {
    if (probe.produce(size).length !== size) throw new Error(`${probe.path} produce(${size}) is wrong`);
    measure(probe.path, 'produce', null, size, () => probe.produce(size));
  }
}

// --- timing ----------------------------------------------------------------
async function timeBatch(m) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < m.batch; i++) {
    const result = m.run();
    if (result instanceof Promise) await result;
  }
  return Number(process.hrtime.bigint() - start);
}

// Groups: the paths of one (op, text, bytes), measured back to back.
const groupsByKey = new Map();
for (const m of measurements) {
  const key = `${m.op}|${m.text_id}|${m.bytes}`;
  groupsByKey.set(key, [...(groupsByKey.get(key) ?? []), m]);
}
const groups = [...groupsByKey.values()];

async function runRounds(rounds, record) {
  for (let round = 0; round < rounds; round++) {
    for (const group of groups) {
      for (let k = 0; k < group.length; k++) {
        const m = group[(k + round) % group.length]; // rotate which path goes first
        const ns = await timeBatch(m);
        if (record) m.samples.push(ns / (m.batch * m.perCall));
        else m.batch = Math.max(1, Math.min(100_000, Math.round(BATCH_NS / Math.max(1, ns / m.batch))));
      }
    }
  }
}

const startedAt = Date.now();
await runRounds(WARMUP_ROUNDS, false); // warm up JIT and size batches
await runRounds(1, false);
await runRounds(ROUNDS, true);

// --- cold start: fresh process, import + compile + instantiate + first png --
const coldStartScript = (entry) => `
  const start = process.hrtime.bigint();
  const { png } = await import(${JSON.stringify(new URL(entry, import.meta.url).href)});
  const bytes = png(${JSON.stringify(referenceTexts[1].text)});
  const ns = Number(process.hrtime.bigint() - start);
  console.log(JSON.stringify({ ns, length: bytes.length }));`;
const coldStarts = [['component', '../index.js'], ['raw', '../raw.js'], ['bindgen', '../bindgen.js'], ['native', '../native.js']].map(([path, entry]) => ({
  path, op: 'cold-start', text_id: referenceTexts[1].id, bytes: null, perCall: 1, samples: [], script: coldStartScript(entry),
}));
for (let i = 0; i < COLD_START_SAMPLES; i++) {
  for (const m of i % 2 === 0 ? coldStarts : [...coldStarts].reverse()) {
    const { ns, length } = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', m.script], { encoding: 'utf8' }));
    m.samples.push(ns);
    m.output = { output_bytes: length, sha256: null };
  }
}
// No "cold-start-cached": Node 20 has no compiled-code cache for WebAssembly
// (module.enableCompileCache, Node 22+, covers JS only).

// --- report ----------------------------------------------------------------
function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

const results = [...measurements, ...coldStarts].map((m) => {
  const sorted = [...m.samples].sort((a, b) => a - b);
  return {
    path: m.path, op: m.op, text_id: m.text_id, bytes: m.bytes,
    median_ns: quantile(sorted, 0.5), p10_ns: quantile(sorted, 0.1), p90_ns: quantile(sorted, 0.9),
    samples: sorted.length,
    output_bytes: m.output?.output_bytes ?? null, sha256: m.output?.sha256 ?? null,
  };
});

const cpus = os.cpus();
const report = {
  host: 'node',
  machine: `${cpus[0]?.model ?? 'unknown cpu'}, ${cpus.length} cores; node ${process.version}, ${os.platform()} ${os.arch()}` +
    `${QUICK ? '; QUICK smoke run, not for comparison' : ''}`,
  measurements: results,
};
const outDir = new URL('target/bench/', repoRoot);
mkdirSync(outDir, { recursive: true });
writeFileSync(new URL('node.json', outDir), `${JSON.stringify(report, null, 2)}\n`);

const us = (ns) => (ns / 1000).toFixed(2).padStart(10);
console.log(`${report.machine}\n${ROUNDS} rounds, ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
console.log(`${'path'.padEnd(12)}${'op'.padEnd(12)}${'text/bytes'.padEnd(12)}${'median us'.padStart(10)}${'p10'.padStart(10)}${'p90'.padStart(10)}  out B`);
for (const r of results) {
  console.log(`${r.path.padEnd(12)}${r.op.padEnd(12)}${String(r.text_id ?? r.bytes ?? '').padEnd(12)}` +
    `${us(r.median_ns)}${us(r.p10_ns)}${us(r.p90_ns)}  ${r.output_bytes ?? ''}`);
}
console.log(`\nwrote ${fileURLToPath(new URL('node.json', outDir))}`);
// The axum child keeps Node's event loop alive (and with it `just bench`): stop it now that the run is written.
rpcServer.kill();
