// One of the worker_threads of test/concurrency.test.js (the wasm paths, and
// the native test, which passes `modules`: [{ name, module }] to run
// those paths instead of component and raw). Each worker has its own
// instances of its paths (module state is per thread). It waits at a shared
// barrier so all workers render at the same time, then renders `callsPerPath`
// PNGs on each path, alternating between the paths, cycling through every
// golden case that has a PNG, payloads included (starting at a different case
// per worker), and checks each against its golden sha256 and length.
import { parentPort, workerData } from 'node:worker_threads';
import { cases, expected, caseInput, jsOptions, sha256, paths } from './fixtures.js';

const { workerIndex, callsPerPath, barrier, modules } = workerData;
const workerPaths = modules === undefined ? paths
  : await Promise.all(modules.map(async ({ name, module }) => ({ name, api: await import(module) })));
const golden = cases.filter((c) => expected[c.id].png_sha256 !== undefined)
  .map((c) => ({ id: c.id, text: caseInput(c), options: jsOptions(c.options), want: expected[c.id] }));

const report = Object.fromEntries(workerPaths.map(({ name }) => [name, { calls: 0, correct: 0, wrong: [] }]));
const gate = new Int32Array(barrier);
parentPort.postMessage({ ready: workerIndex });
Atomics.wait(gate, 0, 0); // released by the main thread once every worker is ready

const offset = Math.floor((workerIndex * golden.length) / 4);
for (let i = 0; i < callsPerPath; i++) {
  const goldenCase = golden[(offset + i) % golden.length];
  for (const { name, api } of workerPaths) {
    const png = api.png(goldenCase.text, goldenCase.options);
    const tally = report[name];
    tally.calls++;
    if (png.length === goldenCase.want.png_bytes && sha256(png) === goldenCase.want.png_sha256) {
      tally.correct++;
    } else if (tally.wrong.length < 5) {
      tally.wrong.push(goldenCase.id);
    }
  }
}
parentPort.postMessage({ done: workerIndex, report });
