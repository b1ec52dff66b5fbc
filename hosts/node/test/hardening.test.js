// Hardening, on both paths: bounded guest memory and flat host RSS over
// 100,000 calls, oversized texts rejected without touching guest memory, and
// 4 worker_threads rendering at once with every PNG checked against its golden
// digest. (No aliasing: ownership.test.js; trap recovery: trap.test.js.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { paths, thrown, sha256, expected, REFERENCE_URL } from '../testing/fixtures.js';

const PAGE_BYTES = 65536;
const SOAK_CALLS = 100_000;
const WORKERS = 4;
const CALLS_PER_WORKER_PER_PATH = 2_500;

for (const { name, api, probe } of paths) {
  test(`${name}: the memory-pages probe matches the memory the host sees`, () => {
    api.png(REFERENCE_URL);
    const pages = probe.memoryPages();
    assert.ok(Number.isInteger(pages) && pages >= 17, `${pages} pages`); // ABI.md: 17 pages initial
    assert.equal(pages * PAGE_BYTES, probe.memoryBytes());
    probe.produce(4 << 20); // grows memory: the probe must follow
    assert.ok(probe.memoryPages() >= pages + 64, `${probe.memoryPages()} pages after a 4 MiB produce`);
    assert.equal(probe.memoryPages() * PAGE_BYTES, probe.memoryBytes());
  });

  test(`${name}: 1 MB and 50 MB texts are data-too-long (lone surrogates: invalid-text) and guest memory stays the same`, () => {
    assert.equal(sha256(api.png(REFERENCE_URL)), expected['ref-02'].png_sha256); // settle a normal call first
    const pagesBefore = probe.memoryPages();
    const oversized = [
      ['7090 bytes', 'x'.repeat(7090), 'data-too-long'],
      ['1 MB', 'a'.repeat(1_000_000), 'data-too-long'],
      ['1 MB of 2-byte characters', '\u00e9'.repeat(500_000), 'data-too-long'],
      ['1 MB of digits', '7'.repeat(1_000_000), 'data-too-long'],
      ['50 MB', 'z'.repeat(50_000_000), 'data-too-long'],
      ['1 MB with a lone surrogate at the end', `${'a'.repeat(1_000_000)}\ud800`, 'invalid-text'],
    ];
    for (const [label, text, kind] of oversized) {
      for (const render of [api.png, api.svg]) {
        const error = thrown(() => render(text));
        assert.ok(error instanceof api.QrError, `${label}: ${error}`);
        assert.equal(error.kind, kind, label);
      }
      assert.equal(probe.memoryPages(), pagesBefore, `${label}: guest memory grew`);
    }
    assert.equal(sha256(api.png(REFERENCE_URL)), expected['ref-02'].png_sha256);
    assert.equal(probe.memoryPages(), pagesBefore);
  });

  test(`${name}: ${SOAK_CALLS.toLocaleString('en')} png calls: guest memory bounded (warm-up + 1 page), host RSS flat within 10%`, async (t) => {
    // Own process: the RSS is this path's alone, and --expose-gc lets the soak
    // collect garbage before each sample.
    const soak = fileURLToPath(new URL('../testing/soak.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath,
      ['--expose-gc', soak, name, String(SOAK_CALLS)], { maxBuffer: 1 << 20 });
    const run = JSON.parse(stdout);
    const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    const last = run.checkpoints.at(-1);
    t.diagnostic(`${name}: guest pages ${run.start.pages} at start, ${run.afterWarmup.pages} after ` +
      `${run.warmupCalls} warm-up calls, ${last.pages} after ${run.measuredCalls} more; checkpoints: ` +
      `${run.checkpoints.map((c) => c.pages).join(' ')}`);
    t.diagnostic(`${name}: host RSS ${mib(run.afterWarmup.rssBytes)} after warm-up, ${mib(last.rssBytes)} at the end; ` +
      `checkpoints: ${run.checkpoints.map((c) => mib(c.rssBytes)).join(' ')}`);

    assert.equal(run.measuredCalls, SOAK_CALLS);
    assert.equal(run.wrongDigests, 0, 'every PNG of the soak matches its golden digest');
    assert.equal(run.hostSeenPages, last.pages, 'probe and memory.buffer agree');
    for (const checkpoint of run.checkpoints) {
      assert.ok(checkpoint.pages <= run.afterWarmup.pages + 1,
        `guest memory grew to ${checkpoint.pages} pages after ${checkpoint.calls} calls ` +
        `(${run.afterWarmup.pages} after warm-up)`);
      const drift = checkpoint.rssBytes / run.afterWarmup.rssBytes - 1;
      assert.ok(Math.abs(drift) <= 0.10,
        `host RSS ${mib(checkpoint.rssBytes)} after ${checkpoint.calls} calls is ` +
        `${(drift * 100).toFixed(1)} % off ${mib(run.afterWarmup.rssBytes)} after warm-up`);
    }
  });
}

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

// Calls `fn` at every depth from the very bottom of the stack upwards, until
// one returns: each frame's catch retries `fn` with one frame more of stack,
// so some attempts run out of stack in the glue, some inside the guest (a
// RangeError whose stack shows wasm frames), and the first with enough
// stack returns. Returns [the result, the attempts that failed].
function fromTheBottomOfTheStack(fn) {
  const failures = [];
  function dive() {
    try {
      return dive();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      try {
        return fn();
      } catch (failure) {
        failures.push(failure);
        throw failure;
      }
    }
  }
  return [dive(), failures];
}

for (const { name, api, probe } of paths) {
  test(`${name}: running out of stack inside a call retires the instance, and the next calls are golden`, () => {
    const golden = expected['ref-02'].png_sha256;
    assert.equal(sha256(api.png(REFERENCE_URL)), golden);
    const large = sha256(api.png(REFERENCE_URL, { minSize: 1000 }));
    let insideTheGuest = 0;
    let insideTheGlue = 0;
    for (let round = 0; round < 20; round++) {
      const before = probe.instances();
      const [png, failures] = fromTheBottomOfTheStack(() => api.png(REFERENCE_URL, { minSize: 1000 }));
      assert.equal(sha256(png), large);
      assert.ok(failures.length > 0);
      for (const failure of failures) {
        // Stack exhaustion stays what it is (never a QrError, never a wrong PNG).
        assert.ok(failure instanceof RangeError, `${failure?.stack ?? failure}`);
      }
      // Inside the guest (wasm frames), or inside jco's generated glue around
      // the call (gen/): either may have stopped the call half-way.
      const inGuest = failures.filter((failure) => /wasm:\/\//.test(failure.stack ?? '')).length;
      const inGlue = failures.filter((failure) => /\/gen\//.test(failure.stack ?? '')).length;
      insideTheGuest += inGuest;
      insideTheGlue += inGlue;
      if (inGuest + inGlue > 0) {
        assert.ok(probe.instances() > before, `${inGuest} failures inside the guest, ${inGlue} in its glue, instances ${before} -> ${probe.instances()}`);
      }
      assert.equal(sha256(api.png(REFERENCE_URL)), golden);
    }
    if (name === 'component') {
      // jco's glue (its task bookkeeping around every call) needs more stack
      // than the guest's own code, so exhaustion lands there, never in wasm.
      assert.ok(insideTheGlue > 0, 'no attempt ran out of stack inside the generated glue');
    } else {
      assert.ok(insideTheGuest > 0, 'no attempt ran out of stack inside the guest');
    }
    assert.equal(thrown(() => api.png('')).kind, 'empty-text');
    const instances = probe.instances();
    api.png(REFERENCE_URL);
    assert.equal(probe.instances(), instances, 'a QrError or a success must not cost an instance');
  });
}
