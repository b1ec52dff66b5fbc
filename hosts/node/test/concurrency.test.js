// Concurrency, on every path: 4 worker_threads rendering at once, every PNG
// checked against its golden digest (native: each thread loads the addon
// into its own Node-API environment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { paths, thrown, sha256, expected, REFERENCE_URL } from '../testing/fixtures.js';

const WORKERS = 4;
const CALLS_PER_WORKER_PER_PATH = 2_500;
const CALLS_PER_WORKER = CALLS_PER_WORKER_PER_PATH;

test(`${WORKERS} worker_threads x ${CALLS_PER_WORKER_PER_PATH.toLocaleString('en')} png calls per path, at once: every PNG is golden`, async (t) => {
  const barrier = new SharedArrayBuffer(4);
  const workerUrl = new URL('../testing/concurrency-worker.mjs', import.meta.url);
  let ready = 0;
  const reports = await Promise.all(Array.from({ length: WORKERS }, (_, workerIndex) => new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: { workerIndex, callsPerPath: CALLS_PER_WORKER_PER_PATH, barrier } });
    worker.on('message', (message) => {
      if (message.ready !== undefined && ++ready === WORKERS) {
        // Every worker has loaded both paths: let them all render at once.
        const gate = new Int32Array(barrier);
        Atomics.store(gate, 0, 1);
        Atomics.notify(gate, 0);
      }
      if (message.done !== undefined) resolve(message.report);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`worker ${workerIndex} exited (${code}) before reporting`)));
  })));

  for (const { name } of paths) {
    const calls = reports.reduce((sum, report) => sum + report[name].calls, 0);
    const correct = reports.reduce((sum, report) => sum + report[name].correct, 0);
    t.diagnostic(`${name}: ${correct} of ${calls} PNGs golden across ${WORKERS} workers`);
    assert.equal(calls, WORKERS * CALLS_PER_WORKER_PER_PATH);
    assert.equal(correct, calls, `wrong PNGs on ${name}: ${reports.map((r) => r[name].wrong.join(',')).join(' | ')}`);
  }
});

test(`native: ${WORKERS} worker_threads x ${CALLS_PER_WORKER.toLocaleString('en')} png calls, at once: every PNG is golden`, async (t) => {
  const barrier = new SharedArrayBuffer(4);
  const workerUrl = new URL('../testing/concurrency-worker.mjs', import.meta.url);
  const modules = [{ name: 'native', module: new URL('../native.js', import.meta.url).href }];
  let ready = 0;
  const reports = await Promise.all(Array.from({ length: WORKERS }, (_, workerIndex) => new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: { workerIndex, callsPerPath: CALLS_PER_WORKER, barrier, modules } });
    worker.on('message', (message) => {
      if (message.ready !== undefined && ++ready === WORKERS) {
        // Every worker has loaded the addon: let them all render at once.
        const gate = new Int32Array(barrier);
        Atomics.store(gate, 0, 1);
        Atomics.notify(gate, 0);
      }
      if (message.done !== undefined) resolve(message.report);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`worker ${workerIndex} exited (${code}) before reporting`)));
  })));

  const calls = reports.reduce((sum, report) => sum + report.native.calls, 0);
  const correct = reports.reduce((sum, report) => sum + report.native.correct, 0);
  t.diagnostic(`native: ${correct} of ${calls} PNGs golden across ${WORKERS} workers`);
  assert.deepEqual(reports.map((report) => Object.keys(report)), Array(WORKERS).fill(['native']));
  assert.equal(calls, WORKERS * CALLS_PER_WORKER);
  assert.equal(correct, calls, `wrong PNGs: ${reports.map((r) => r.native.wrong.join(',')).join(' | ')}`);
});
