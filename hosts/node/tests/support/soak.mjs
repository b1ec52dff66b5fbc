// Bounded-memory soak for ONE path, run in its own process by
// test/limits.test.js (wasm paths and native)
// (`node --expose-gc tests/support/soak.mjs component|raw|bindgen|native`),
// so the RSS it measures is this path's alone. Renders the reference texts
// (ref-01..ref-10, cycling), checks every PNG against its golden digest, and
// prints one JSON line: the guest's memory pages (memory-pages probe; null on
// the native path, which has no guest memory) and the host's RSS after warm-up
// and at every checkpoint. The test asserts on it.
import { createHash } from 'node:crypto';
import { loadCases, loadExpected } from './corpus.js';

const [pathName, callsArg = '100000'] = process.argv.slice(2);
// path -> [its API module, its probes module]; each probes module exports the
// path's probe object under the path's name.
const modules = {
  component: ['../../index.js', '../../probe.js'],
  raw: ['../../raw.js', '../../probe.js'],
  bindgen: ['../../bindgen.js', '../../probe.js'],
  native: ['../../native.js', '../../native-probe.js'],
};
if (!(pathName in modules) || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc tests/support/soak.mjs component|raw|bindgen|native [calls]');
  process.exit(2);
}
const api = await import(modules[pathName][0]);
const probe = (await import(modules[pathName][1]))[pathName];

const CALLS = Number(callsArg);
const WARMUP_CALLS = 10_000; // long enough for the JIT and the heap to settle (RSS stops climbing)
const CHECKPOINTS = 10;

const expected = loadExpected();
const references = loadCases().filter((c) => /^ref-\d\d$/.test(c.id))
  .map((c) => ({ id: c.id, text: c.text, digest: expected[c.id].png_sha256 }));
if (references.length !== 10) throw new Error(`expected ref-01..ref-10 in the corpus, found ${references.length}`);

let calls = 0;
let wrong = 0;
function render(count) {
  for (let i = 0; i < count; i++, calls++) {
    const reference = references[calls % references.length];
    const png = api.png(reference.text);
    if (createHash('sha256').update(png).digest('hex') !== reference.digest) wrong++;
  }
}

// Full collections first, so RSS reflects what is retained, not garbage that
// has not been collected yet.
function sample() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  return { calls, pages: probe.memoryPages?.() ?? null, rssBytes: process.memoryUsage.rss() };
}

const start = sample();
render(WARMUP_CALLS);
const afterWarmup = sample();
const checkpoints = [];
for (let i = 0; i < CHECKPOINTS; i++) {
  render(CALLS / CHECKPOINTS);
  checkpoints.push(sample());
}
process.stdout.write(`${JSON.stringify({
  path: pathName,
  warmupCalls: WARMUP_CALLS,
  measuredCalls: calls - WARMUP_CALLS,
  wrongDigests: wrong,
  // memory.buffer.byteLength as the host sees it, to cross-check the probe
  hostSeenPages: probe.memoryBytes ? probe.memoryBytes() / 65536 : null,
  start,
  afterWarmup,
  checkpoints,
})}\n`);
