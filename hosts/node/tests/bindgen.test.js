// The wasm-bindgen path ('qrglue/bindgen'), what only it has (the corpus runs on
// it in golden.test.js): the host-side checks that wasm-bindgen's
// glue would otherwise skip (a lone surrogate is replaced by its TextEncoder; an
// oversized text is copied into the guest), errors mapped to QrError with the
// core's message, trap recovery on a really fresh instance, owned results, and
// the runtime-agnostic initialisation a browser page uses.
// (Golden vectors, errors, ownership, traps, the soak and worker_threads also
// run on this path through tests/support/fixtures.js's `paths`.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as bindgen from '../bindgen.js';
import * as component from '../index.js';
import { bindgen as probe } from '../probe.js';
import * as glue from '../gen/bindgen/qrglue.js';
import { expected, sha256, thrown, DEFAULT_LOOK, REFERENCE_URL } from './support/fixtures.js';

const REFERENCE_PNG = expected['ref-02'].png_sha256;
const LONE_SURROGATE_MESSAGE = 'text contains a lone surrogate (not encodable as UTF-8)';
const DATA_TOO_LONG_MESSAGE = 'text does not fit in any QR code: it is over 7089 bytes, the most one holds';
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

function assertQrError(fn, kind, message) {
  const error = thrown(fn);
  assert.ok(error instanceof bindgen.QrError, `expected QrError(${kind}), got ${error?.stack ?? error}`);
  assert.equal(error.name, 'QrError');
  assert.equal(error.kind, kind, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return error;
}

function assertTrap(fn) {
  const error = thrown(fn);
  assert.ok(error instanceof bindgen.GuestTrapError, `${error?.stack ?? error}`);
  assert.ok(error.cause instanceof WebAssembly.RuntimeError);
  assert.match(error.message, /bindgen path.*trapped.*fresh instance/);
}

function assertReferencePng() {
  assert.equal(sha256(bindgen.png(REFERENCE_URL)), REFERENCE_PNG);
}

test('bindgen: QrError and GuestTrapError are the classes every wasm path throws', () => {
  assert.equal(bindgen.QrError, component.QrError);
  assert.equal(bindgen.GuestTrapError, component.GuestTrapError);
  assert.deepEqual(bindgen.DEFAULTS, component.DEFAULTS);
  assert.deepEqual(bindgen.EC_LEVELS, component.EC_LEVELS);
  assert.equal(bindgen.MAX_TEXT_BYTES, 7089);
});

test('bindgen: import("qrglue/bindgen") gives the golden PNG for the reference URL', async () => {
  const byName = await import('qrglue/bindgen');
  assert.equal(byName.png, bindgen.png);
  assert.equal(sha256(byName.png(REFERENCE_URL)), REFERENCE_PNG);
});

test('bindgen: the guest throws an Error carrying the WIT kind and the core\'s message (what lib/bindgen.js maps)', () => {
  const cases = [
    [() => glue.png('', 0, 200, 4, ...DEFAULT_LOOK), 'empty-text', 'text is empty'],
    [() => glue.svg('x'.repeat(7090), 0, 200, 4, ...DEFAULT_LOOK), 'data-too-long', DATA_TOO_LONG_MESSAGE],
    [() => glue.png('ok', 0, 0, 4, ...DEFAULT_LOOK), 'invalid-options', 'min-size must be within 1..=4096, got 0'],
    [() => glue.png('ok', 4, 200, 4, ...DEFAULT_LOOK), 'invalid-options', 'ec-level must be 0..=3 (low, medium, quartile, high), got 4'],
    [() => glue.pngRepeat('ok', 0, 200, 99, ...DEFAULT_LOOK, 1), 'invalid-options', 'quiet-zone must be within 0..=16, got 99'],
    // The contract's order holds in the guest too: the text before the options.
    [() => glue.png('', 9, 0, 99, ...DEFAULT_LOOK), 'empty-text', 'text is empty'],
  ];
  for (const [call, kind, message] of cases) {
    const error = thrown(call);
    assert.ok(error instanceof Error && !(error instanceof bindgen.QrError), `${error}`);
    assert.deepEqual({ kind: error.kind, message: error.message }, { kind, message });
  }
  assertReferencePng();
});

test('bindgen: lone surrogates are invalid-text, never replaced (the glue alone would encode U+FFFD)', () => {
  for (const text of ['\ud800', '\udfff', 'ab\ud800cd', 'https://x.org/\udc00', '\udc00\ud800', `${'a'.repeat(100)}\ud83e`]) {
    assertQrError(() => bindgen.png(text), 'invalid-text', LONE_SURROGATE_MESSAGE);
    assertQrError(() => bindgen.svg(text), 'invalid-text', LONE_SURROGATE_MESSAGE);
    assertQrError(() => probe.pngRepeat(text, undefined, 1), 'invalid-text', LONE_SURROGATE_MESSAGE);
  }
  // Why the host checks first: wasm-bindgen's string passing (TextEncoder)
  // turns '\ud800' into U+FFFD, a different text that would render silently.
  assert.equal(sha256(glue.png('\ud800', 0, 200, 4, ...DEFAULT_LOOK)), sha256(bindgen.png('\ufffd')));
  const crab = bindgen.png('\ud83e\udd80'); // a well-formed pair is a text
  assert.notEqual(sha256(bindgen.png('\ufffd')), sha256(crab));
});

test('bindgen: oversized texts are refused before any copy: guest memory unchanged (the glue alone would copy them)', () => {
  assertReferencePng();
  const pagesBefore = probe.memoryPages();
  const bytesBefore = probe.memoryBytes();
  const oversized = ['x'.repeat(7090), 'a'.repeat(1_000_000), '\u00e9'.repeat(500_000), '7'.repeat(50_000_000)];
  for (const text of oversized) {
    assertQrError(() => bindgen.png(text), 'data-too-long', DATA_TOO_LONG_MESSAGE);
    assertQrError(() => bindgen.svg(text), 'data-too-long', DATA_TOO_LONG_MESSAGE);
    assertQrError(() => probe.pngRepeat(text, undefined, 1), 'data-too-long', DATA_TOO_LONG_MESSAGE);
  }
  assert.equal(probe.memoryPages(), pagesBefore);
  assert.equal(probe.memoryBytes(), bytesBefore);
  assert.equal(sha256(bindgen.png('7'.repeat(7089))), expected['max-numeric-low'].png_sha256);
  // Past lib/bindgen.js, the glue copies a text larger than all of guest
  // memory into the guest before the guest can refuse it, and memory grows:
  // the host check is what prevents it.
  const error = thrown(() => glue.png('a'.repeat(bytesBefore + (1 << 20)), 0, 200, 4, ...DEFAULT_LOOK));
  assert.equal(error.kind, 'data-too-long');
  assert.ok(probe.memoryPages() > pagesBefore + 16, `${probe.memoryPages()} pages, ${pagesBefore} before`);
  assertReferencePng();
});

test('bindgen: a trap is GuestTrapError and the next calls run on a fresh instance', () => {
  assertReferencePng();
  probe.produce(8 << 20); // grow this instance's memory, so a fresh instance is visible
  const grown = probe.memoryPages();
  assertTrap(() => probe.trap());
  // A fresh instance starts from the module's initial memory, not the grown one.
  const fresh = probe.memoryPages();
  assert.ok(fresh < grown - 100, `${fresh} pages after the trap, ${grown} before`);
  assert.ok(probe.memoryBytes() < (grown - 100) * 65536, `${probe.memoryBytes()} bytes after the trap`);
  assertReferencePng();
  assert.equal(probe.memoryPages() * 65536, probe.memoryBytes());
  assertTrap(() => probe.trap());
  assertTrap(() => probe.trap());
  assertQrError(() => bindgen.png(''), 'empty-text', 'text is empty');
  assertQrError(() => bindgen.svg('x', { quietZone: 17 }), 'invalid-options', 'quiet-zone must be within 0..=16, got 17');
  assert.equal(sha256(Buffer.from(bindgen.svg(REFERENCE_URL))), expected['ref-02'].svg_sha256);
  // produce over 16 MiB traps, as WIT's produce does (a failed assertion
  // aborts in the release profile), and the instance is replaced again.
  assertTrap(() => probe.produce((16 << 20) + 1));
  assert.equal(probe.produce(16 << 20).length, 16 << 20);
  assertReferencePng();
  assert.equal(probe.consume(new Uint8Array(1000)), 1000);
});

test('bindgen: each PNG owns its bytes: a copy, not a view into guest memory', () => {
  const first = bindgen.png(REFERENCE_URL);
  const again = bindgen.png(REFERENCE_URL);
  const snapshot = Uint8Array.from(first);
  assert.notEqual(first.buffer, glue.wasmMemory().buffer);
  assert.equal(first.byteOffset, 0);
  assert.equal(first.buffer.byteLength, first.byteLength);
  assert.notEqual(first.buffer, again.buffer);
  again.fill(0); // writing one result leaves the other alone
  assert.deepEqual(first, snapshot);
  const produced = probe.produce(1000);
  assert.equal(produced.buffer.byteLength, 1000);
  for (let i = 0; i < 1000; i++) {
    const later = i % 2 === 0 ? bindgen.png(`later call ${i}`) : bindgen.svg(`later call ${i}`);
    assert.ok(later.length > 0);
  }
  assert.equal(probe.produce(8 << 20).length, 8 << 20);
  assert.deepEqual(first, snapshot);
  assert.equal(sha256(first), REFERENCE_PNG);
});

test('bindgen: hostile arguments throw and lose nothing: the next call is golden', () => {
  const hostile = [
    () => bindgen.png(123), () => bindgen.png(null), () => bindgen.svg({ toString: () => 'x' }), () => bindgen.png(undefined),
    () => bindgen.png('x', 5), () => bindgen.png('x', { minSize: '200' }), () => bindgen.png('x', { ecLevel: 1 }),
    () => bindgen.png('x', { minSize: Number.NaN }), () => bindgen.png('x', { quietZone: -0.5 }),
    () => probe.pngRepeat(42, undefined, 1), () => probe.pngRepeat('', undefined, 1),
    () => bindgen.png([104, 105]), () => bindgen.svg(new Uint16Array(2)), () => bindgen.png(new Uint8Array(0)),
    () => bindgen.png(new Uint8Array(7090)), () => bindgen.text(new Uint8Array(3), { style: 'x' }),
    // Straight into the glue's bytes exports, past every JS check: the guest refuses what the host would.
    () => glue.pngBytes(new Uint8Array(0), 0, 200, 4, ...DEFAULT_LOOK), () => glue.svgBytes(new Uint8Array(7090), 0, 200, 4, ...DEFAULT_LOOK),
    () => glue.matrixBytes(new Uint8Array(3), 4, 200, 4, ...DEFAULT_LOOK), () => glue.textBytes(new Uint8Array(3), 0, 200, 4, ...DEFAULT_LOOK, 3),
  ];
  for (const call of hostile) {
    const error = thrown(call);
    assert.ok(error instanceof Error, `${call}: threw ${error}`);
    assertReferencePng();
  }
  assert.match(thrown(() => bindgen.png(123)).message, /the input must be a string \(a text\) or bytes/);
  const guestError = thrown(() => glue.svgBytes(new Uint8Array(7090), 0, 200, 4, ...DEFAULT_LOOK));
  assert.deepEqual({ kind: guestError.kind, message: guestError.message }, { kind: 'data-too-long', message: DATA_TOO_LONG_MESSAGE });
});

test('bindgen: the probes move the exact bytes and report the guest\'s memory', () => {
  probe.noop();
  for (const len of [0, 1, 251, 4096]) {
    const bytes = probe.produce(len);
    assert.equal(bytes.length, len);
    bytes.forEach((byte, i) => assert.equal(byte, i % 251));
    assert.equal(probe.consume(bytes), len);
  }
  assert.equal(probe.pngRepeat(REFERENCE_URL, undefined, 3), expected['ref-02'].png_bytes);
  assert.equal(probe.memoryPages() * 65536, probe.memoryBytes());
  assert.equal(probe.path, 'bindgen');
});

test('bindgen: lib/bindgen.js needs no Node API: initialised from a compiled WebAssembly.Module, as a page does', () => {
  // A fresh process that never imports the Node entry (bindgen.js).
  const script = `
    import { readFileSync } from 'node:fs';
    import { createHash } from 'node:crypto';
    import { initBindgen, png, BINDGEN_WASM_URL } from './lib/bindgen.js';
    const out = {};
    try { png('hello'); } catch (error) { out.before = error.message; }
    initBindgen(new WebAssembly.Module(readFileSync(BINDGEN_WASM_URL)));
    initBindgen(new Uint8Array(8)); // a second call does nothing
    out.png = createHash('sha256').update(png(${JSON.stringify(REFERENCE_URL)})).digest('hex');
    console.log(JSON.stringify(out));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script],
    { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const result = JSON.parse(out);
  assert.match(result.before, /initBindgen\(wasm\) must run before the first call/);
  assert.equal(result.png, REFERENCE_PNG);
});
