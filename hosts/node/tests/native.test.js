// The native path ('qrglue/native', the napi-rs addon), what only it has (the
// corpus runs on it in golden.test.js, through fixtures' everyPath): the host-side checks and the
// addon's own (lone surrogates never replaced, oversized texts refused before
// a copy, wrong types), a Rust panic that leaves the process and the next
// call intact, owned results, the probes, and the error a missing addon gives.
// (RSS soak: limits.test.js; worker_threads: concurrency.test.js.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as native from '../native.js';
import * as component from '../index.js';
import { native as probe } from '../native-probe.js';
import { ADDON_PATH, PLATFORM } from '../lib/native.js';
import { expected, sha256, thrown, DEFAULT_LOOK, REFERENCE_URL } from './support/fixtures.js';

const REFERENCE_PNG = expected['ref-02'].png_sha256;
const LONE_SURROGATE_MESSAGE = 'text contains a lone surrogate (not encodable as UTF-8)';
const DATA_TOO_LONG_MESSAGE = 'text does not fit in any QR code: it is over 7089 bytes, the most one holds';

// The addon's own exports, without lib/native.js's checks in front.
const addon = createRequire(import.meta.url)(ADDON_PATH);

function assertQrError(fn, kind, message) {
  const error = thrown(fn);
  assert.ok(error instanceof native.QrError, `expected QrError(${kind}), got ${error?.stack ?? error}`);
  assert.equal(error.name, 'QrError');
  assert.equal(error.kind, kind, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return error;
}

function assertReferencePng() {
  assert.equal(sha256(native.png(REFERENCE_URL)), REFERENCE_PNG);
}

test('native: QrError is the one class every Node path throws', () => {
  assert.equal(native.QrError, component.QrError);
  assert.deepEqual(native.DEFAULTS, component.DEFAULTS);
  assert.deepEqual(native.EC_LEVELS, component.EC_LEVELS);
  assert.equal(native.MAX_TEXT_BYTES, 7089);
});

test('native: lone surrogates are invalid-text, never replaced, in lib/native.js and in the addon itself', () => {
  for (const text of ['\ud800', '\udfff', 'ab\ud800cd', 'https://x.org/\udc00', '\udc00\ud800', `${'a'.repeat(100)}\ud83e`]) {
    assertQrError(() => native.png(text), 'invalid-text', LONE_SURROGATE_MESSAGE);
    assertQrError(() => native.svg(text), 'invalid-text', LONE_SURROGATE_MESSAGE);
    // Node-API's UTF-8 conversion would hand Rust U+FFFD here; the addon reads
    // UTF-16 and refuses the text itself.
    for (const call of [() => addon.png(text, 0, 200, 4, ...DEFAULT_LOOK), () => addon.svg(text, 0, 200, 4, ...DEFAULT_LOOK), () => addon.pngRepeat(text, 0, 200, 4, ...DEFAULT_LOOK, 1),
      () => addon.matrix(text, 0, 200, 4, ...DEFAULT_LOOK), () => addon.text(text, 0, 200, 4, ...DEFAULT_LOOK, 0)]) {
      const error = thrown(call);
      assert.deepEqual({ code: error.code, message: error.message }, { code: 'invalid-text', message: LONE_SURROGATE_MESSAGE });
    }
  }
  const crab = native.png('\ud83e\udd80'); // a well-formed pair is a text
  assert.notEqual(sha256(native.png('\ufffd')), sha256(crab));
  assert.equal(sha256(addon.png('\ud83e\udd80', 0, 200, 4, ...DEFAULT_LOOK)), sha256(crab));
});

test('native: oversized texts and payloads are refused by length, by lib/native.js and by the addon, before any copy', () => {
  const oversized = ['x'.repeat(7090), 'a'.repeat(1_000_000), '\u00e9'.repeat(500_000), '7'.repeat(50_000_000)];
  for (const text of oversized) {
    assertQrError(() => native.png(text), 'data-too-long', DATA_TOO_LONG_MESSAGE);
    assertQrError(() => native.svg(text), 'data-too-long', DATA_TOO_LONG_MESSAGE);
    for (const call of [() => addon.png(text, 0, 200, 4, ...DEFAULT_LOOK), () => addon.matrix(text, 0, 200, 4, ...DEFAULT_LOOK), () => addon.text(text, 0, 200, 4, ...DEFAULT_LOOK, 0)]) {
      const error = thrown(call);
      assert.deepEqual({ code: error.code, message: error.message }, { code: 'data-too-long', message: DATA_TOO_LONG_MESSAGE });
    }
  }
  // A payload over the bound, refused by the addon itself (it reads the bytes in place: nothing is copied).
  for (const data of [new Uint8Array(7090), Buffer.alloc(1_000_000), new Uint8Array(50_000_000)]) {
    assertQrError(() => native.png(data), 'data-too-long', DATA_TOO_LONG_MESSAGE);
    for (const call of [() => addon.pngBytes(data, 0, 200, 4, ...DEFAULT_LOOK), () => addon.svgBytes(data, 0, 200, 4, ...DEFAULT_LOOK),
      () => addon.matrixBytes(data, 0, 200, 4, ...DEFAULT_LOOK), () => addon.textBytes(data, 0, 200, 4, ...DEFAULT_LOOK, 0)]) {
      const error = thrown(call);
      assert.deepEqual({ code: error.code, message: error.message }, { code: 'data-too-long', message: DATA_TOO_LONG_MESSAGE });
    }
  }
  assert.deepEqual(thrown(() => addon.textBytes(new Uint8Array(0), 0, 200, 4, ...DEFAULT_LOOK, 0)).code, 'empty-text');
  // The bound counts UTF-8 bytes: 2364 euro signs are 7092 bytes in 2364 units.
  assertQrError(() => native.png('\u20ac'.repeat(2364)), 'data-too-long', DATA_TOO_LONG_MESSAGE);
  assert.deepEqual(thrown(() => addon.png('\u20ac'.repeat(2364), 0, 200, 4, ...DEFAULT_LOOK)).code, 'data-too-long');
  assert.equal(sha256(native.png('7'.repeat(7089))), expected['max-numeric-low'].png_sha256);
  assertReferencePng();
});

test('native: hostile arguments throw and lose nothing: the next call is golden', () => {
  const hostile = [
    () => native.png(123), () => native.png(null), () => native.svg({ toString: () => 'x' }), () => native.png(undefined),
    () => native.png('x', 5), () => native.png('x', { minSize: '200' }), () => native.png('x', { ecLevel: 1 }),
    () => native.png('x', { minSize: Number.NaN }), () => native.png('x', { quietZone: -0.5 }),
    () => probe.consume('abc'), () => probe.consume(123), () => probe.produce('x'), () => probe.produce((16 << 20) + 1),
    () => probe.pngRepeat(42, undefined, 1),
    // Straight into the addon, past every JS check.
    () => addon.png(), () => addon.png(42, 0, 200, 4, ...DEFAULT_LOOK), () => addon.png('x', 'a', 200, 4, ...DEFAULT_LOOK), () => addon.png('x', 4, 200, 4, ...DEFAULT_LOOK),
    () => addon.svg('x', 0, 0, 4, ...DEFAULT_LOOK), () => addon.pngRepeat('x', 0, 200, 4, ...DEFAULT_LOOK), () => addon.consume({ length: 3 }),
    () => addon.matrix('x', 4, 200, 4, ...DEFAULT_LOOK), () => addon.matrix('x', 0, 200), () => addon.text('x', 0, 200, 4, ...DEFAULT_LOOK),
    () => addon.text('x', 0, 200, 4, ...DEFAULT_LOOK, 3), () => addon.text('x', 0, 200, 4, ...DEFAULT_LOOK, 'ascii'), () => addon.text('', 0, 200, 4, ...DEFAULT_LOOK, 0),
    // The bytes exports take a Uint8Array (a Buffer is one) and nothing else.
    () => native.png([104, 105]), () => native.png(new Uint8Array(0)), () => native.text(new Uint8Array(3), { style: 'x' }),
    () => addon.pngBytes('hi', 0, 200, 4, ...DEFAULT_LOOK), () => addon.pngBytes([104, 105], 0, 200, 4, ...DEFAULT_LOOK),
    () => addon.svgBytes(new ArrayBuffer(2), 0, 200, 4, ...DEFAULT_LOOK), () => addon.matrixBytes(new Uint16Array(2), 0, 200, 4, ...DEFAULT_LOOK),
    () => addon.textBytes(new Uint8Array(2), 0, 200, 4, ...DEFAULT_LOOK, 3), () => addon.pngBytes(new Uint8Array(2), 4, 200, 4, ...DEFAULT_LOOK),
    () => addon.pngBytes(new Uint8Array(0), 0, 200, 4, ...DEFAULT_LOOK),
    // The symbol arguments: booleans and numbers or undefined, nothing else.
    () => addon.png('x', 0, 200, 4, undefined, 0xff, 0xffffffff, 1, undefined, undefined, undefined, false, false),
    () => addon.matrix('x', 0, 200, 4, undefined, 0xff, 0xffffffff, false, '5', undefined, undefined, false, false),
    () => addon.svg('x', 0, 200, 4, undefined, 0xff, 0xffffffff, false, undefined, undefined, 8, false, false),
  ];
  for (const call of hostile) {
    const error = thrown(call);
    assert.ok(error instanceof Error, `${call}: threw ${error}`);
    assertReferencePng();
  }
  assert.match(thrown(() => native.png(123)).message, /the input must be a string \(a text\) or bytes/);
  assertQrError(() => probe.produce((16 << 20) + 1), 'invalid-options', 'produce: len must be at most 16777216, got 16777217');
  const badLevel = thrown(() => addon.png('x', 4, 200, 4, ...DEFAULT_LOOK));
  assert.deepEqual({ code: badLevel.code, message: badLevel.message },
    { code: 'invalid-options', message: 'ec-level must be 0..=3 (low, medium, quartile, high), got 4' });
  const badMask = thrown(() => addon.svg('x', 0, 200, 4, undefined, 0xff, 0xffffffff, false, undefined, undefined, 8, false, false));
  assert.deepEqual({ code: badMask.code, message: badMask.message }, { code: 'invalid-options', message: 'mask must be within 0..=7, got 8' });
});

test('native: a panic in Rust is a JS Error, and the process and the next calls carry on', () => {
  assertReferencePng();
  for (let i = 0; i < 3; i++) {
    const error = thrown(() => probe.panic());
    assert.ok(error instanceof Error);
    assert.ok(!(error instanceof native.QrError), 'a panic is a bug, not a QrError');
    assert.equal(error.code, 'GenericFailure');
    assert.equal(error.message, 'qrglue native: the panic probe was called');
  }
  assertReferencePng();
  assert.equal(sha256(Buffer.from(native.svg(REFERENCE_URL))), expected['ref-02'].svg_sha256);
  assertQrError(() => native.png(''), 'empty-text', 'text is empty');
});

test('native: a panic does not take down a separate process either (exit code 0, golden PNG after it)', () => {
  const script = `
    import { png } from 'qrglue/native';
    import { native } from ${JSON.stringify(new URL('../native-probe.js', import.meta.url).href)};
    import { createHash } from 'node:crypto';
    let caught = 'none';
    try { native.panic(); } catch (error) { caught = error.message; }
    console.log(JSON.stringify({ caught, png: createHash('sha256').update(png(${JSON.stringify(REFERENCE_URL)})).digest('hex') }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.deepEqual(JSON.parse(out), { caught: 'qrglue native: the panic probe was called', png: REFERENCE_PNG });
});

test('native: each PNG owns its bytes: not aliased, not changed by later calls', () => {
  const first = native.png(REFERENCE_URL);
  const again = native.png(REFERENCE_URL);
  const snapshot = Uint8Array.from(first);
  // Exactly its bytes, in a buffer of its own (copied from Rust into an ArrayBuffer V8 owns).
  assert.equal(first.byteOffset, 0);
  assert.equal(first.buffer.byteLength, first.byteLength);
  assert.notEqual(first.buffer, again.buffer);
  again.fill(0); // writing one result leaves the other alone
  assert.deepEqual(first, snapshot);
  for (let i = 0; i < 1000; i++) {
    const later = i % 2 === 0 ? native.png(`later call ${i}`) : native.svg(`later call ${i}`);
    assert.ok(later.length > 0);
  }
  assert.equal(probe.produce(8 << 20).length, 8 << 20);
  assert.deepEqual(first, snapshot);
  assert.equal(sha256(first), REFERENCE_PNG);
  assertReferencePng();
});

test('native: produce and consume move the exact bytes; pngRepeat returns the PNG length; noop', () => {
  for (const len of [0, 1, 250, 251, 252, 4096, 1 << 20]) {
    const bytes = probe.produce(len);
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(bytes.length, len);
    for (let i = 0; i < len; i += 1 + (i >> 4)) assert.equal(bytes[i], i % 251, `byte ${i} of ${len}`);
    if (len > 0) assert.equal(bytes[len - 1], (len - 1) % 251);
    assert.equal(probe.consume(bytes), len);
  }
  assert.equal(probe.consume(Buffer.from('abc')), 3);
  assert.equal(probe.consume(new Uint8Array(new ArrayBuffer(64), 8, 16)), 16); // a view: its own length
  assert.equal(probe.pngRepeat(REFERENCE_URL, undefined, 3), expected['ref-02'].png_bytes);
  assert.equal(probe.pngRepeat(REFERENCE_URL, { ecLevel: 'high' }, 1), expected['ref-02-ec-high'].png_bytes);
  assert.equal(probe.pngRepeat(REFERENCE_URL, undefined, 0), 0);
  assert.equal(probe.noop(), undefined);
  assert.equal(probe.path, 'native');
});

test('native: without a built addon, importing qrglue/native throws saying how to build it', async (t) => {
  // A copy of the package's JS with no .node beside it.
  const scratch = mkdtempSync(join(tmpdir(), 'qrglue-native-missing-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  mkdirSync(join(scratch, 'lib'));
  mkdirSync(join(scratch, 'native'));
  for (const file of ['native.js', 'lib/native.js', 'lib/common.js', 'lib/options.js', 'lib/node-base64.js']) {
    copyFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), join(scratch, file));
  }
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
  const error = await import(join(scratch, 'native.js')).then(() => null, (e) => e);
  assert.ok(error instanceof Error, 'the import should have failed');
  assert.ok(error.message.includes(`no native addon for ${PLATFORM}`), error.message);
  assert.ok(error.message.includes(join(scratch, 'native', `qrglue.${PLATFORM}.node`)), error.message);
  assert.ok(error.message.includes('just build-node'), error.message);
  assert.ok(error.message.includes('cargo build --locked --profile addon -p qrglue-node-native'), error.message);
});

test('importing qrglue and the wasm probes never loads the addon', () => {
  const script = `
    await import('qrglue'); await import('qrglue/raw'); await import(${JSON.stringify(new URL('../probe.js', import.meta.url).href)});
    const { createRequire } = await import('node:module');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.endsWith('.node'));
    console.log(JSON.stringify(loaded));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), []);
});
