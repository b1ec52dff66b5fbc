// The symbol options (WIT `symbol-options`: micro, version, min-version,
// mask, boost-ec) on every Node path: each bad value is invalid-options with
// the contract's message (bounds that depend on micro, version with
// min-version, micro at level high) or the host's type message, the same
// kind and message on every path and through every output; the contract's
// order against the text's errors, the earlier options and each other; good
// values give the same matrix and PNG on every path, with the width, mask
// and level they ask for (read back by zxing-cpp); the defaults, spelt out,
// are the automatic symbol; and the raw ABI's flag word, called directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { SYMBOL_FLAGS, isAutoSymbol, symbolFlags, witRecord } from '../lib/common.js';
import { RAW_WASM_URL, RECORD_BYTES } from '../lib/raw.js';
import { everyPath, thrown, sha256, REFERENCE_URL, expected } from './support/fixtures.js';

const CONTRACT_FILE = new URL('../../../target/contract.json', import.meta.url);
assert.ok(existsSync(CONTRACT_FILE), 'target/contract.json is missing: run `just contract` (or `just build`)');
const contract = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8'));

const outOfRange = (option, min, max, value) => contract.messages['out-of-range']
  .replace('{option}', option).replace('{min}', String(min)).replace('{max}', String(max)).replace('{value}', String(value));
const [, MAX_VERSION] = contract.bounds.version;
const [, MAX_MICRO_VERSION] = contract.bounds['micro-version'];
const [, MAX_MASK] = contract.bounds.mask;
const [, MAX_MICRO_MASK] = contract.bounds['micro-mask'];
const VERSION_CONFLICT = contract.messages['version-conflict'];
const MICRO_EC_LEVEL = contract.messages['micro-ec-level'];
const MICRO_ECI = contract.messages['micro-eci'];
const notInteger = (option, shown) => `${option} must be an integer, got ${shown}`;
const notBoolean = (option, shown) => `${option} must be a boolean, got ${shown}`;
const SAME_WHITE = 'dark and light must be different colours, both are #ffffffff';
const QUIET_ZONE_99 = 'quiet-zone must be within 0..=16, got 99';

// Every way in that takes a text and options.
const renderers = ({ api, probe }) => ({
  png: (text, options) => api.png(text, options),
  svg: (text, options) => api.svg(text, options),
  matrix: (text, options) => api.matrix(text, options),
  text: (text, options) => api.text(text, options),
  pngDataUrl: (text, options) => api.pngDataUrl(text, options),
  pngRepeat: (text, options) => probe.pngRepeat(text, options, 1),
});

/** Options as the failure messages show them (JSON, with bigints). */
const show = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

/** What a call gives: 'ok', the error kind (payload-less kinds), or the invalid-options message. */
function refusal(render, text, options) {
  let error;
  try {
    render(text, options);
    return 'ok';
  } catch (caught) {
    error = caught;
  }
  assert.equal(error?.name, 'QrError', `${error?.stack ?? error}`);
  return error.kind === 'invalid-options' ? error.message : error.kind;
}

// [options, what every output on every path says] for the text 'hello'.
const BAD_VALUES = [
  // Ranges, both ends, the micro-dependent bounds.
  [{ version: 0 }, outOfRange('version', 1, MAX_VERSION, 0)],
  [{ version: MAX_VERSION + 1 }, outOfRange('version', 1, MAX_VERSION, MAX_VERSION + 1)],
  [{ version: 2 ** 32 - 1 }, outOfRange('version', 1, MAX_VERSION, 2 ** 32 - 1)],
  [{ version: 0, micro: true }, outOfRange('version', 1, MAX_MICRO_VERSION, 0)],
  [{ version: MAX_MICRO_VERSION + 1, micro: true }, outOfRange('version', 1, MAX_MICRO_VERSION, MAX_MICRO_VERSION + 1)],
  [{ minVersion: 0 }, outOfRange('min-version', 1, MAX_VERSION, 0)],
  [{ minVersion: MAX_VERSION + 1 }, outOfRange('min-version', 1, MAX_VERSION, MAX_VERSION + 1)],
  [{ minVersion: MAX_MICRO_VERSION + 1, micro: true }, outOfRange('min-version', 1, MAX_MICRO_VERSION, MAX_MICRO_VERSION + 1)],
  [{ minVersion: 0, micro: true }, outOfRange('min-version', 1, MAX_MICRO_VERSION, 0)],
  [{ mask: MAX_MASK + 1 }, outOfRange('mask', 0, MAX_MASK, MAX_MASK + 1)],
  [{ mask: 2 ** 32 - 1 }, outOfRange('mask', 0, MAX_MASK, 2 ** 32 - 1)],
  [{ mask: MAX_MICRO_MASK + 1, micro: true }, outOfRange('mask', 0, MAX_MICRO_MASK, MAX_MICRO_MASK + 1)],
  // Both versions, and Micro QR at level high.
  [{ version: 5, minVersion: 5 }, VERSION_CONFLICT],
  [{ version: 1, minVersion: 40, mask: 0, boostEc: true }, VERSION_CONFLICT],
  [{ micro: true, ecLevel: 'high' }, MICRO_EC_LEVEL],
  [{ micro: true, ecLevel: 'high', version: 4, mask: 3, boostEc: true }, MICRO_EC_LEVEL],
  [{ micro: true, eci: true }, MICRO_ECI],
  [{ micro: true, eci: true, ecLevel: 'high' }, MICRO_EC_LEVEL],
  [{ micro: true, eci: true, mask: 4 }, 'mask must be within 0..=3, got 4'],
  [{ eci: 'yes' }, notBoolean('eci', '"yes"')],
  [{ eci: 1 }, notBoolean('eci', '1 (number)')],
  [{ eci: 1, boostEc: 1 }, notBoolean('boost-ec', '1 (number)')],
  [{ eci: 1, micro: true, ecLevel: 'high' }, notBoolean('eci', '1 (number)')],
  // Types: the host's checks, with the WIT names.
  [{ micro: 'yes' }, notBoolean('micro', '"yes"')],
  [{ micro: 1 }, notBoolean('micro', '1 (number)')],
  [{ micro: 'true' }, notBoolean('micro', '"true"')],
  [{ micro: null }, notBoolean('micro', 'null (object)')],
  [{ micro: new Boolean(true) }, notBoolean('micro', 'true (object)')],
  [{ boostEc: 0 }, notBoolean('boost-ec', '0 (number)')],
  [{ boostEc: '' }, notBoolean('boost-ec', '""')],
  [{ version: 1.5 }, notInteger('version', '1.5 (number)')],
  [{ version: -1 }, 'version must be within 1..=40, got -1'],
  [{ version: 2 ** 32 + 5 }, 'version must be within 1..=40, got 4294967301'],
  [{ version: '5' }, notInteger('version', '"5"')],
  [{ version: null }, notInteger('version', 'null (object)')],
  [{ version: 5n }, notInteger('version', '5 (bigint)')],
  [{ minVersion: NaN }, notInteger('min-version', 'NaN (number)')],
  [{ minVersion: 'M2' }, notInteger('min-version', '"M2"')],
  [{ mask: -0.5 }, notInteger('mask', '-0.5 (number)')],
  [{ mask: [1] }, notInteger('mask', '1 (object)')],
  // The WIT names are not this API's names.
  [{ 'min-version': 5 }, 'unknown option "min-version" for {caller}() (known: ecLevel, minSize, quietZone, scale, dark, light, micro, version, minVersion, mask, boostEc, eci)'],
];

for (const path of everyPath) {
  const { name } = path;
  test(`${name}: every bad symbol option is invalid-options with its message, through every output`, () => {
    for (const [via, render] of Object.entries(renderers(path))) {
      for (const [options, want] of BAD_VALUES) {
        // text's list has style too, svg's its own options
        if ((via === 'text' || via.startsWith('svg')) && want.startsWith('unknown option')) continue;
        // An unknown option names the public function it was given to (pngDataUrl's png).
        const caller = via === 'pngDataUrl' ? 'png' : via;
        assert.equal(refusal(render, 'hello', options), want.replace('{caller}', caller), `${via} ${show(options)}`);
      }
    }
  });
}

// The contract's order: the host's checks first (the text's, then each
// option WIT cannot carry, in record order: a name, a type, an integer
// outside u32, a colour; text()'s style after them), then the guest's: empty
// text, ec-level, min-size, quiet-zone, scale, same colours, then version,
// min-version, both versions, mask, micro at high; then the encoding.
const ORDER = [
  ['', { mask: 99 }, 'empty-text'],
  ['', { micro: 'x' }, notBoolean('micro', '"x"')],
  ['ab\ud800cd', { version: 0, micro: 2 }, 'invalid-text'],
  ['x'.repeat(7090), { version: 1.5 }, 'data-too-long'],
  ['hello', { ecLevel: 'x', micro: 'x' }, 'ec-level must be one of low, medium, quartile, high, got "x"'],
  ['hello', { minSize: 0, version: 99 }, 'min-size must be within 1..=4096, got 0'],
  ['hello', { quietZone: 99, mask: 99 }, QUIET_ZONE_99],
  ['hello', { quietZone: 99, mask: 'x' }, notInteger('mask', '"x"')],
  ['hello', { quietZone: 99, micro: true, ecLevel: 'high' }, QUIET_ZONE_99],
  ['hello', { scale: 0, boostEc: 1 }, notBoolean('boost-ec', '1 (number)')],
  ['hello', { scale: 0, boostEc: true }, 'scale must be within 1..=20, got 0'],
  ['hello', { dark: 'red', version: 0 }, 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
  ['hello', { light: 'red', micro: 'x' }, 'light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"'],
  // Same colours before any of the guest's symbol errors; the host's come first.
  ['hello', { dark: '#fff', version: 99 }, SAME_WHITE],
  ['hello', { dark: '#fff', version: 'x' }, notInteger('version', '"x"')],
  ['hello', { dark: '#fff', micro: 'x' }, notBoolean('micro', '"x"')],
  ['hello', { dark: '#fff', boostEc: 'x' }, notBoolean('boost-ec', '"x"')],
  ['hello', { dark: '#fff', micro: true, ecLevel: 'high' }, SAME_WHITE],
  // Within the symbol record.
  ['hello', { micro: 'x', version: 99 }, notBoolean('micro', '"x"')],
  ['hello', { micro: true, version: 5, mask: 'x' }, notInteger('mask', '"x"')],
  ['hello', { micro: true, version: 5, mask: 1 }, outOfRange('version', 1, MAX_MICRO_VERSION, 5)],
  ['hello', { version: 99, minVersion: 0 }, outOfRange('version', 1, MAX_VERSION, 99)],
  ['hello', { version: 'x', minVersion: 0 }, notInteger('version', '"x"')],
  ['hello', { version: 99, minVersion: 'x' }, notInteger('min-version', '"x"')],
  ['hello', { version: 5, minVersion: 0 }, outOfRange('min-version', 1, MAX_VERSION, 0)],
  ['hello', { version: 5, minVersion: 'x' }, notInteger('min-version', '"x"')],
  ['hello', { version: 5, minVersion: 6, mask: 99 }, VERSION_CONFLICT],
  ['hello', { version: 5, minVersion: 6, mask: 'x' }, notInteger('mask', '"x"')],
  ['hello', { version: 5, minVersion: 6, micro: true, ecLevel: 'high' }, outOfRange('version', 1, MAX_MICRO_VERSION, 5)],
  ['hello', { version: 2, minVersion: 3, micro: true, ecLevel: 'high' }, VERSION_CONFLICT],
  ['hello', { mask: 8, boostEc: 'x' }, notBoolean('boost-ec', '"x"')],
  ['hello', { mask: 8, boostEc: true }, outOfRange('mask', 0, MAX_MASK, 8)],
  ['hello', { mask: 4, micro: true, ecLevel: 'high' }, outOfRange('mask', 0, MAX_MICRO_MASK, 4)],
  // A type error in a symbol field (the host's) comes before the check of micro at high.
  ['hello', { mask: 'x', micro: true, ecLevel: 'high' }, notInteger('mask', '"x"')],
  ['hello', { version: -1, micro: true, ecLevel: 'high' }, 'version must be within 1..=4, got -1'],
  ['hello', { boostEc: 'x', micro: true, ecLevel: 'high' }, notBoolean('boost-ec', '"x"')],
  // Every option before the encoding: a text too long for the version is found last.
  ['a'.repeat(100), { version: 1 }, 'data-too-long'],
  ['a'.repeat(100), { version: 1, mask: 9 }, outOfRange('mask', 0, MAX_MASK, 9)],
  ['a'.repeat(100), { micro: true }, 'data-too-long'],
  ['a'.repeat(100), { micro: true, boostEc: 'x' }, notBoolean('boost-ec', '"x"')],
  ['HELLO WORLD', { micro: true, version: 1 }, 'data-too-long'], // M1 holds digits only
];

for (const path of everyPath) {
  test(`${path.name}: symbol option errors in the contract's order`, () => {
    for (const [via, render] of Object.entries(renderers(path))) {
      for (const [text, options, want] of ORDER) {
        assert.equal(refusal(render, text, options), want, `${via} ${JSON.stringify([text.slice(0, 20), options])}`);
      }
    }
    // text()'s style, the host's, comes after the options' host checks and before the guest's; the encoding last.
    const { api } = path;
    assert.equal(refusal(api.text, 'hello', { style: 'x', micro: true, ecLevel: 'high' }),
      'text-style must be one of half-blocks, half-blocks-inverted, ascii, got "x"');
    assert.equal(refusal(api.text, 'hello', { style: 'ascii', micro: true, ecLevel: 'high' }), MICRO_EC_LEVEL);
    assert.equal(refusal(api.text, 'hello', { style: 'x', micro: 'x' }), notBoolean('micro', '"x"'));
    assert.equal(refusal(api.text, 'a'.repeat(100), { style: 'x', version: 1 }),
      'text-style must be one of half-blocks, half-blocks-inverted, ascii, got "x"');
  });
}

// Good values: every path gives the same matrix and PNG; the matrix has the
// width the version asks for.
const widthOf = (options, version) => (options.micro ? 9 + 2 * version : 17 + 4 * version);
const GOOD = [
  ['hello', { version: 5 }, 5],
  ['hello', { version: 40, ecLevel: 'high' }, 40],
  ['hello', { minVersion: 10 }, 10],
  [REFERENCE_URL, { minVersion: 1 }, 3],
  ['hello', { mask: 0 }, 1],
  ['hello', { mask: 7, ecLevel: 'quartile' }, 1],
  ['hello', { boostEc: true }, 1],
  [REFERENCE_URL, { boostEc: true, version: 10 }, 10],
  ['12345', { micro: true }, 1],
  ['12345', { micro: true, version: 4, mask: 3 }, 4],
  ['HELLO', { micro: true }, 2],
  ['hello', { micro: true, minVersion: 3, ecLevel: 'medium' }, 3],
  ['hello', { micro: true, boostEc: true }, 3], // M2 has no byte mode; M3 holds 7 bytes at M
  ['qr.example', { micro: true, mask: 1 }, 4], // 10 bytes: M3 holds 9
  ['\u00e9t\u00e9', { micro: true, version: 3, mask: 0 }, 3],
];

test('good symbol options: the same matrix, PNG, SVG and text on every path, at the width asked for', () => {
  for (const [text, options, version] of GOOD) {
    const where = JSON.stringify([text, options]);
    const [first, ...others] = everyPath.map(({ api }) => ({
      matrix: api.matrix(text, options), png: sha256(api.png(text, options)), svg: sha256(api.svg(text, options)),
      text: api.text(text, { ...options, style: 'ascii' }),
    }));
    assert.equal(first.matrix.width, widthOf(options, version), where);
    for (const [i, other] of others.entries()) {
      assert.deepEqual(other, first, `${everyPath[i + 1].name}: ${where}`);
    }
  }
});

test('each symbol option changes the code, and the defaults spelt out are the automatic symbol', () => {
  for (const { name, api } of everyPath) {
    const auto = sha256(api.png(REFERENCE_URL));
    assert.equal(auto, expected['ref-02'].png_sha256, name);
    for (const options of [{ micro: false, boostEc: false }, { version: undefined, minVersion: undefined, mask: undefined },
      { ...api.DEFAULTS, style: undefined }, { minVersion: 1 }, { version: 3 }]) {
      const { style, viewBoxOnly, title, class: className, ...imageOptions } = options;
      assert.equal(sha256(api.png(REFERENCE_URL, imageOptions)), auto, `${name}: ${JSON.stringify(options)}`);
    }
    for (const options of [{ version: 4 }, { minVersion: 4 }, { mask: 0 }]) {
      assert.notEqual(sha256(api.png(REFERENCE_URL, options)), auto, `${name}: ${JSON.stringify(options)}`);
    }
    // The reference URL fills version 3 at low (no boost: the corpus's sym-boost-ec-stays-low); 'hello' is boosted.
    assert.equal(sha256(api.png(REFERENCE_URL, { boostEc: true })), auto, name);
    assert.notEqual(sha256(api.png('hello', { boostEc: true })), sha256(api.png('hello')), name);
    // Eight masks, eight codes; the automatic one is one of them.
    const masks = Array.from({ length: MAX_MASK + 1 }, (_, mask) => sha256(api.matrix('hello', { mask }).modules));
    assert.equal(new Set(masks).size, MAX_MASK + 1, name);
    assert.ok(masks.includes(sha256(api.matrix('hello').modules)), name);
    const microMasks = Array.from({ length: MAX_MICRO_MASK + 1 }, (_, mask) => sha256(api.matrix('123', { micro: true, mask }).modules));
    assert.equal(new Set(microMasks).size, MAX_MICRO_MASK + 1, name);
  }
});

test('the component path lowers symbol none for the automatic symbol, the raw path flag word 0', () => {
  const base = { ecLevel: 'low', minSize: 200, quietZone: 4, scale: undefined, dark: 0x000000ff, light: 0xffffffff };
  const auto = { ...base, micro: false, version: undefined, minVersion: undefined, mask: undefined, boostEc: false, eci: false };
  assert.ok(isAutoSymbol(auto));
  assert.equal(witRecord(auto).symbol, undefined);
  assert.equal(symbolFlags(auto), 0);
  const chosen = { ...auto, micro: true, version: 3, mask: 0 };
  assert.ok(!isAutoSymbol(chosen));
  assert.deepEqual(witRecord(chosen).symbol, { micro: true, version: 3, minVersion: undefined, mask: 0, boostEc: false, eci: false });
  assert.equal(symbolFlags(chosen), SYMBOL_FLAGS.micro | SYMBOL_FLAGS.hasVersion | SYMBOL_FLAGS.hasMask);
  assert.equal(symbolFlags({ ...auto, boostEc: true, minVersion: 7 }), SYMBOL_FLAGS.boostEc | SYMBOL_FLAGS.hasMinVersion);
  // Each option alone leaves the automatic symbol.
  assert.equal(symbolFlags({ ...auto, eci: true }), SYMBOL_FLAGS.eci);
  for (const key of ['micro', 'boostEc', 'eci']) assert.ok(!isAutoSymbol({ ...auto, [key]: true }), key);
  for (const key of ['version', 'minVersion', 'mask']) assert.ok(!isAutoSymbol({ ...auto, [key]: 0 }), key);
});

// The raw ABI's symbol words, past lib/raw.js: a number counts only with its
// flag, and an unknown bit is refused.
test('raw ABI 4: symbol_flags, then version, min_version, mask; a value without its flag is ignored', () => {
  const guest = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(RAW_WASM_URL)), {}).exports;
  assert.equal(guest.qr_abi_version(), contract.raw_abi.version);
  const matrix = (text, flags, version, minVersion, mask) => {
    const bytes = new TextEncoder().encode(text);
    const ptr = guest.qr_alloc(bytes.length);
    new Uint8Array(guest.memory.buffer, ptr, bytes.length).set(bytes);
    const record = guest.qr_matrix(ptr, bytes.length, 0, 200, 4, 0, 0, 0x000000ff, 0xffffffff, flags, version, minVersion, mask);
    const [status, payloadPtr, payloadLen] = new Uint32Array(guest.memory.buffer.slice(record, record + RECORD_BYTES));
    const payload = new Uint8Array(guest.memory.buffer.slice(payloadPtr, payloadPtr + payloadLen));
    guest.qr_free(record);
    return status === 0 ? { width: new DataView(payload.buffer).getUint32(0, true), modules: sha256(payload.subarray(4)) }
      : { status, message: new TextDecoder().decode(payload) };
  };
  const auto = matrix('hello', 0, 0, 0, 0);
  assert.equal(auto.width, 21);
  // Values without their flags: the automatic symbol, whatever the numbers.
  assert.deepEqual(matrix('hello', 0, 99, 99, 99), auto);
  assert.equal(matrix('hello', SYMBOL_FLAGS.hasVersion, 5, 99, 99).width, 37);
  assert.equal(matrix('hello', SYMBOL_FLAGS.hasMinVersion, 99, 6, 99).width, 41);
  assert.equal(matrix('123', SYMBOL_FLAGS.micro, 0, 0, 0).width, 11);
  assert.deepEqual(matrix('hello', SYMBOL_FLAGS.hasMask, 0, 0, 2).modules, sha256(everyPath[0].api.matrix('hello', { mask: 2 }).modules));
  assert.deepEqual(matrix('hello', SYMBOL_FLAGS.hasVersion, 41, 0, 0),
    { status: 4, message: outOfRange('version', 1, MAX_VERSION, 41) });
  assert.deepEqual(matrix('hello', SYMBOL_FLAGS.hasVersion | SYMBOL_FLAGS.hasMinVersion, 2, 2, 0), { status: 4, message: VERSION_CONFLICT });
  // The flags of the contract file are lib/common.js's, and a bit past them is refused.
  const flagNames = { micro: 'micro', 'boost-ec': 'boostEc', 'has-version': 'hasVersion', 'has-min-version': 'hasMinVersion', 'has-mask': 'hasMask',
    eci: 'eci' };
  assert.deepEqual(Object.fromEntries(Object.entries(contract.raw_abi.symbol_flags).map(([k, v]) => [flagNames[k], v])), { ...SYMBOL_FLAGS });
  const all = Object.values(SYMBOL_FLAGS).reduce((a, b) => a | b, 0);
  assert.equal(matrix('hello', all + 1, 0, 0, 0).status, 4);
  assert.match(matrix('hello', all + 1, 0, 0, 0).message, /^symbol-flags must be within 0..=63, got 64$/);
  assert.notDeepEqual(matrix('hello', SYMBOL_FLAGS.eci, 0, 0, 0), auto);
  assert.deepEqual(matrix('hello', SYMBOL_FLAGS.eci, 0, 0, 0).modules,
    sha256(everyPath[0].api.matrix('hello', { eci: true }).modules));
  assert.deepEqual(matrix('123', SYMBOL_FLAGS.micro | SYMBOL_FLAGS.eci, 0, 0, 0), { status: 4, message: MICRO_ECI });
});

// The same outcome on every path for random symbol options, good and bad,
// with random texts (fast-check, fixed seed).
test('every path agrees on 300 random texts and symbol options', () => {
  const [component, ...others] = everyPath;
  const outcome = (fn) => {
    try {
      const { width, modules } = fn();
      return { width, modules: sha256(modules) };
    } catch (error) {
      if (error?.name !== 'QrError') throw error;
      return { kind: error.kind, message: error.message };
    }
  };
  const small = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 45 }), fc.constantFrom(2 ** 32 - 1, 1.5, -1, '3'));
  const options = fc.record({
    ecLevel: fc.constantFrom('low', 'medium', 'quartile', 'high'),
    micro: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom(0, 'yes') }),
    version: small, minVersion: small, mask: small,
    boostEc: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant(1) }),
    eci: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant('true') }),
  }, { requiredKeys: [] });
  const text = fc.oneof(fc.stringMatching(/^[0-9]{0,30}$/), fc.stringMatching(/^[0-9A-Z $%*+\-./:]{0,30}$/), fc.string({ maxLength: 40 }));
  const seen = new Set();
  fc.assert(fc.property(text, options, (text, options) => {
    const want = outcome(() => component.api.matrix(text, options));
    seen.add(want.kind ?? 'ok');
    for (const { name, api } of others) {
      assert.deepEqual(outcome(() => api.matrix(text, options)), want, name);
    }
  }), { seed: 20261127, numRuns: 300 });
  assert.deepEqual([...seen].sort(), ['data-too-long', 'empty-text', 'invalid-options', 'ok']);
});

// zxing-cpp (zxing-wasm) reads the codes back: the text, and the version and
// mask it reports, for Micro QR, fixed masks and fixed versions.
const wasmFile = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
prepareZXingModule({ overrides: { wasmBinary: readFileSync(wasmFile).buffer }, fireImmediately: true });

test('fixed versions and masks and Micro QR codes read back with the version and mask asked for', async () => {
  const { api } = everyPath[0];
  const reads = [
    ['12345', { micro: true, version: 1, mask: 2 }, 'M1', 'MicroQRCode'],
    ['HELLO', { micro: true, version: 2, mask: 0 }, 'M2', 'MicroQRCode'],
    ['hello', { micro: true, version: 3, mask: 3, ecLevel: 'medium' }, 'M3', 'MicroQRCode'],
    ['qr.example', { micro: true, mask: 1 }, 'M4', 'MicroQRCode'],
    ['hello', { version: 7, mask: 5 }, '7', 'QRCode'],
    [REFERENCE_URL, { version: 12, mask: 0, ecLevel: 'quartile' }, '12', 'QRCode'],
    ['hello', { minVersion: 2, mask: 6 }, '2', 'QRCode'],
  ];
  for (const [text, options, version, format] of reads) {
    const where = JSON.stringify([text, options]);
    const results = await readBarcodes(api.png(text, { ...options, scale: 8 }), { formats: ['QRCode', 'MicroQRCode'] });
    assert.equal(results.length, 1, where);
    const [result] = results;
    assert.ok(result.isValid, where);
    assert.equal(result.text, text, where);
    assert.equal(result.format, format, where);
    const extra = JSON.parse(result.extra || '{}');
    assert.equal(String(extra.Version ?? result.version), version, where);
    assert.equal(Number(extra.DataMask), options.mask, where);
  }
});

// M3 at level low ends on a 4-bit data codeword that stock qrcode 0.14 draws
// as 8 bits (kennytm/qrcode-rust#90: no reader reads its M3-L symbols); the
// core draws it right. Every mask, read by zxing-cpp.
test('M3 at level low reads back', async () => {
  const { api } = everyPath[0];
  for (const [text, mask] of [['hello', 3], ['12345', 0], ['HELLO', 1], ['1234abcdef', 2]]) {
    const results = await readBarcodes(api.png(text, { micro: true, version: 3, mask, scale: 8 }), { formats: ['MicroQRCode'] });
    assert.equal(results.length, 1, `${text} mask ${mask}`);
    assert.equal(results[0].text, text);
  }
});

test('boostEc raises the level the reader reports as far as the version holds the text', async () => {
  const { api } = everyPath[0];
  const level = async (options) => {
    const [result] = await readBarcodes(api.png('hello', { ...options, scale: 8 }), { formats: ['QRCode'] });
    assert.equal(result.text, 'hello');
    return JSON.parse(result.extra || '{}').ECLevel ?? result.ecLevel;
  };
  assert.equal(await level({}), 'L');
  assert.equal(await level({ boostEc: true }), 'H'); // 5 bytes fit version 1 at H
  assert.equal(await level({ ecLevel: 'medium', version: 1 }), 'M');
  assert.equal(api.matrix(REFERENCE_URL, { boostEc: true }).width, api.matrix(REFERENCE_URL).width); // never a bigger symbol
});
