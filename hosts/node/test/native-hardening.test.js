// Hardening of the native path, as hardening.test.js does for the wasm paths:
// host RSS flat over 100,000 calls (in its own process), and 4 worker_threads
// rendering at once through the addon (each thread loads it into its own
// Node-API environment) with every PNG checked against its golden digest.
// Oversized texts and hostile inputs: native.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const SOAK_CALLS = 100_000;
const WORKERS = 4;
const CALLS_PER_WORKER = 2_500;

test(`native: ${SOAK_CALLS.toLocaleString('en')} png calls: every PNG golden, host RSS flat within 10%`, async (t) => {
  // Own process: the RSS is this path's alone, and --expose-gc lets the soak
  // collect garbage (and so free the Rust-allocated PNGs) before each sample.
  const soak = fileURLToPath(new URL('../testing/soak.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath,
    ['--expose-gc', soak, 'native', String(SOAK_CALLS)], { maxBuffer: 1 << 20 });
  const run = JSON.parse(stdout);
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  t.diagnostic(`native: host RSS ${mib(run.start.rssBytes)} at start, ${mib(run.afterWarmup.rssBytes)} after ` +
    `${run.warmupCalls} warm-up calls; checkpoints: ${run.checkpoints.map((c) => mib(c.rssBytes)).join(' ')}`);

  assert.equal(run.path, 'native');
  assert.equal(run.measuredCalls, SOAK_CALLS);
  assert.equal(run.wrongDigests, 0, 'every PNG of the soak matches its golden digest');
  assert.equal(run.checkpoints.length, 10);
  for (const checkpoint of run.checkpoints) {
    const drift = checkpoint.rssBytes / run.afterWarmup.rssBytes - 1;
    assert.ok(Math.abs(drift) <= 0.10,
      `host RSS ${mib(checkpoint.rssBytes)} after ${checkpoint.calls} calls is ` +
      `${(drift * 100).toFixed(1)} % off ${mib(run.afterWarmup.rssBytes)} after warm-up`);
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
