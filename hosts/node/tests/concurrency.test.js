// Concurrency, on every path: 4 worker_threads rendering at once, every PNG
// checked against its golden digest (native: each thread loads the addon
// into its own Node-API environment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { paths } from './support/fixtures.js';

const WORKERS = 4;
const CALLS_PER_WORKER_PER_PATH = 2_500;

// WORKERS threads of tests/support/concurrency-worker.mjs (on `modules`, else the
// wasm paths), held at a barrier until all have loaded, then released at once;
// resolves to each worker's report.
function renderTogether(modules) {
  const barrier = new SharedArrayBuffer(4);
  const workerUrl = new URL('./support/concurrency-worker.mjs', import.meta.url);
  let ready = 0;
  return Promise.all(Array.from({ length: WORKERS }, (_, workerIndex) => new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: { workerIndex, callsPerPath: CALLS_PER_WORKER_PER_PATH, barrier, modules } });
    worker.on('message', (message) => {
      if (message.ready !== undefined && ++ready === WORKERS) {
        const gate = new Int32Array(barrier);
        Atomics.store(gate, 0, 1);
        Atomics.notify(gate, 0);
      }
      if (message.done !== undefined) resolve(message.report);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`worker ${workerIndex} exited (${code}) before reporting`)));
  })));
}

test(`${WORKERS} worker_threads x ${CALLS_PER_WORKER_PER_PATH.toLocaleString('en')} png calls per path, at once: every PNG is golden`, async (t) => {
  const reports = await renderTogether(undefined);
  for (const { name } of paths) {
    const calls = reports.reduce((sum, report) => sum + report[name].calls, 0);
    const correct = reports.reduce((sum, report) => sum + report[name].correct, 0);
    t.diagnostic(`${name}: ${correct} of ${calls} PNGs golden across ${WORKERS} workers`);
    assert.equal(calls, WORKERS * CALLS_PER_WORKER_PER_PATH);
    assert.equal(correct, calls, `wrong PNGs on ${name}: ${reports.map((r) => r[name].wrong.join(',')).join(' | ')}`);
  }
});

test(`native: ${WORKERS} worker_threads x ${CALLS_PER_WORKER_PER_PATH.toLocaleString('en')} png calls, at once: every PNG is golden`, async (t) => {
  // Each thread loads the addon into its own Node-API environment.
  const reports = await renderTogether([{ name: 'native', module: new URL('../native.js', import.meta.url).href }]);
  const calls = reports.reduce((sum, report) => sum + report.native.calls, 0);
  const correct = reports.reduce((sum, report) => sum + report.native.correct, 0);
  t.diagnostic(`native: ${correct} of ${calls} PNGs golden across ${WORKERS} workers`);
  assert.deepEqual(reports.map((report) => Object.keys(report)), Array(WORKERS).fill(['native']));
  assert.equal(calls, WORKERS * CALLS_PER_WORKER_PER_PATH);
  assert.equal(correct, calls, `wrong PNGs: ${reports.map((r) => r.native.wrong.join(',')).join(' | ')}`);
});
