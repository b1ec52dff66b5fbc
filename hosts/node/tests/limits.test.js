// Bounded resources, on every path: the memory-pages probe follows the
// memory the host sees, oversized texts are rejected without touching guest
// memory (binary payloads too), and 100,000 calls keep guest memory bounded
// and host RSS flat (native: host RSS only, in its own process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { paths, thrown, sha256, expected, REFERENCE_URL } from './support/fixtures.js';

const PAGE_BYTES = 65536;
const SOAK_CALLS = 100_000;

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
      for (const render of [api.png, api.svg, api.matrix, api.text]) {
        const error = thrown(() => render(text));
        assert.ok(error instanceof api.QrError, `${label}: ${error}`);
        assert.equal(error.kind, kind, label);
      }
      assert.equal(probe.memoryPages(), pagesBefore, `${label}: guest memory grew`);
    }
    assert.equal(sha256(api.png(REFERENCE_URL)), expected['ref-02'].png_sha256);
    assert.equal(probe.memoryPages(), pagesBefore);
  });

  // A payload over 7089 bytes is refused by its length before it is copied:
  // guest memory stays the same, whatever its size and its bytes-like type.
  test(`${name}: payloads of 7090 bytes, 1 MB and 50 MB are data-too-long and guest memory stays the same`, () => {
    assert.equal(sha256(api.png(new TextEncoder().encode(REFERENCE_URL))), expected['ref-02'].png_sha256); // settle a normal call first
    const pagesBefore = probe.memoryPages();
    const big = new Uint8Array(50_000_000).fill(0x37);
    const oversized = [
      ['7090 bytes', new Uint8Array(7090).fill(0xff)],
      ['1 MB', big.subarray(0, 1_000_000)],
      ['1 MB as an ArrayBuffer', new ArrayBuffer(1_000_000)],
      ['1 MB as a DataView', new DataView(big.buffer, 7, 1_000_000)],
      ['1 MB as a Buffer', Buffer.alloc(1_000_000, 0xed)],
      ['50 MB', big],
    ];
    for (const [label, data] of oversized) {
      for (const render of [api.png, api.svg, api.matrix, api.text, api.pngDataUrl]) {
        const error = thrown(() => render(data));
        assert.ok(error instanceof api.QrError, `${label}: ${error}`);
        assert.equal(error.kind, 'data-too-long', label);
      }
      assert.equal(probe.memoryPages(), pagesBefore, `${label}: guest memory grew`);
    }
    // 7089 bytes are the guest's to look at (a code of 7089 digits exists).
    assert.equal(sha256(api.png(new Uint8Array(7089).fill(0x37))), expected['max-numeric-low'].png_sha256);
  });

  test(`${name}: ${SOAK_CALLS.toLocaleString('en')} png calls: guest memory bounded (warm-up + 1 page), host RSS flat within 10%`, async (t) => {
    // Own process: the RSS is this path's alone, and --expose-gc lets the soak
    // collect garbage before each sample.
    const soak = fileURLToPath(new URL('./support/soak.mjs', import.meta.url));
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

test(`native: ${SOAK_CALLS.toLocaleString('en')} png calls: every PNG golden, host RSS flat within 10%`, async (t) => {
  // Own process: the RSS is this path's alone, and --expose-gc lets the soak
  // collect garbage (and so free the Rust-allocated PNGs) before each sample.
  const soak = fileURLToPath(new URL('./support/soak.mjs', import.meta.url));
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
