// The Node Extism path against the raw path, interleaved in one process
// (tests/bench/README.md's method: every round runs every series once; a
// sample is the mean of a batch sized in the warm-up to last settings.json's
// batch_ms for Node; each row is the median with p10 and p90). Both run the
// guest on V8: qrglue/raw's hand-written glue (synchronous), and
// guest/extism through @extism/extism (each call awaited: the SDK is
// asynchronous, and that is part of what a user of it pays).
// Writes target/bench/extism-node.json; QRGLUE_BENCH_QUICK=1: quick settings.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import * as raw from '../raw.js';
import { probe as rawProbe } from '../lib/raw.js';
import * as extism from './index.js';

const repoRoot = new URL('../../../', import.meta.url);
const all = JSON.parse(readFileSync(new URL('tests/bench/settings.json', repoRoot), 'utf8'));
const quick = process.env.QRGLUE_BENCH_QUICK === '1';
const mode = quick ? 'quick' : 'full';
const settings = { ...all[mode], ...(all.hosts?.node?.[mode] ?? {}) };
const cases = JSON.parse(readFileSync(new URL('tests/vectors/cases.json', repoRoot), 'utf8')).cases;
const reference = cases.find((c) => c.id === all.reference_text_id).text;

await extism.init();
const paths = {
  raw: {
    png: async () => raw.png(reference),
    pngRepeat: async (n) => rawProbe.pngRepeat(reference, undefined, n),
    noop: async () => rawProbe.noop(),
    consume: async (data) => rawProbe.consume(data),
    produce: async (n) => rawProbe.produce(n),
  },
  extism: {
    png: () => extism.png(reference),
    pngRepeat: (n) => extism.probe.pngRepeat(reference, undefined, n),
    noop: () => extism.probe.noop(),
    consume: (data) => extism.probe.consume(data),
    produce: (n) => extism.probe.produce(n),
  },
};

const series = [];
for (const [path, api] of Object.entries(paths)) {
  series.push({ path, op: 'png', text_id: all.reference_text_id, bytes: null, per: 1, call: api.png });
  series.push({ path, op: 'png-repeat', text_id: all.reference_text_id, bytes: null, per: settings.png_repeat_times,
    call: () => api.pngRepeat(settings.png_repeat_times) });
  series.push({ path, op: 'noop', text_id: null, bytes: null, per: 1, call: api.noop });
  for (const n of settings.payload_sizes) {
    const payload = new Uint8Array(n);
    series.push({ path, op: 'consume', text_id: null, bytes: n, per: 1, call: () => api.consume(payload) });
    series.push({ path, op: 'produce', text_id: null, bytes: n, per: 1, call: () => api.produce(n) });
  }
}

async function run(s, record) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < s.batch; i += 1) s.out = await s.call();
  if (record) s.samples.push(Number(process.hrtime.bigint() - start) / s.batch / s.per);
}

for (const s of series) {
  s.samples = [];
  s.batch = 1;
  const start = process.hrtime.bigint();
  await s.call();
  const one = Number(process.hrtime.bigint() - start);
  s.batch = Math.max(1, Math.floor((settings.batch_ms * 1e6) / Math.max(one, 1)));
}
for (let w = 0; w < settings.warmup_rounds; w += 1) for (const s of series) await run(s, false);
for (let r = 0; r < settings.rounds; r += 1) for (const s of series) await run(s, true);

const quantile = (sorted, q) => sorted[Math.round(q * (sorted.length - 1))];
const rows = series.map((s) => {
  const sorted = [...s.samples].sort((a, b) => a - b);
  const png = s.op === 'png' ? s.out : null;
  const row = { path: s.path, op: s.op, text_id: s.text_id, bytes: s.bytes, median_ns: quantile(sorted, 0.5),
    p10_ns: quantile(sorted, 0.1), p90_ns: quantile(sorted, 0.9), samples: sorted.length,
    output_bytes: png ? png.length : null, sha256: png ? createHash('sha256').update(png).digest('hex') : null };
  console.log(`${s.path.padEnd(7)} ${s.op.padEnd(11)} ${String(s.bytes ?? '-').padStart(8)} ${(row.median_ns / 1e3).toFixed(2).padStart(10)} us`
    + `  p10 ${(row.p10_ns / 1e3).toFixed(2)}  p90 ${(row.p90_ns / 1e3).toFixed(2)}`);
  return row;
});
const extismVersion = JSON.parse(readFileSync(new URL('node_modules/@extism/extism/package.json', import.meta.url), 'utf8')).version;
mkdirSync(new URL('target/bench/', repoRoot), { recursive: true });
writeFileSync(new URL('target/bench/extism-node.json', repoRoot), `${JSON.stringify({
  host: 'node', quick, engines: `raw and extism both on V8 (Node ${process.version}); @extism/extism ${extismVersion}`,
  machine: `${os.cpus()[0]?.model}, ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}`,
  measurements: rows,
}, null, 1)}\n`);
