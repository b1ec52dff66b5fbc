// The package's copies of the contract equal target/contract.json (written by
// the build from guest/core/src/contract.rs): the defaults, EC levels, text
// styles, text bound, error kinds and their check order, the messages this
// glue and the native addon give themselves, and the raw ABI's version,
// record size and status codes. The page (hosts/web) imports these same lib/
// files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  DEFAULTS, EC_LEVELS, ERROR_KINDS, MAX_PNG_REPEAT_TIMES, MAX_SVG_CLASS_BYTES, MAX_SVG_TITLE_BYTES, MAX_TEXT_BYTES, MESSAGES, QrError,
  SVG_FLAGS, SYMBOL_FLAGS, TEXT_STYLES, parseColor,
} from '../lib/common.js';
import { ABI_VERSION, RECORD_BYTES, STATUS_KINDS } from '../lib/raw.js';
import { ADDON_PATH } from '../lib/native.js';
import * as component from '../index.js';
import * as native from '../native.js';
import { native as nativeProbe } from '../native-probe.js';
import { paths, everyPath, thrown, DEFAULT_LOOK, REFERENCE_URL } from './support/fixtures.js';

const CONTRACT_FILE = new URL('../../../target/contract.json', import.meta.url);
assert.ok(existsSync(CONTRACT_FILE), 'target/contract.json is missing: run `just contract` (or `just build`)');
const contract = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8'));

test('constants equal the contract', () => {
  assert.deepEqual([...EC_LEVELS], contract.ec_levels);
  assert.deepEqual([...TEXT_STYLES], contract.text_styles);
  // scale: undefined here (an option left out), null in JSON: no scale either way.
  assert.ok('scale' in DEFAULTS);
  for (const name of ['scale', 'version', 'minVersion', 'mask']) assert.ok(name in DEFAULTS, name);
  assert.deepEqual(
    {
      'ec-level': DEFAULTS.ecLevel, 'min-size': DEFAULTS.minSize, 'quiet-zone': DEFAULTS.quietZone,
      scale: DEFAULTS.scale ?? null, dark: DEFAULTS.dark, light: DEFAULTS.light, 'text-style': DEFAULTS.style,
      micro: DEFAULTS.micro, version: DEFAULTS.version ?? null, 'min-version': DEFAULTS.minVersion ?? null,
      mask: DEFAULTS.mask ?? null, 'boost-ec': DEFAULTS.boostEc, eci: DEFAULTS.eci,
      'view-box-only': DEFAULTS.viewBoxOnly, title: DEFAULTS.title ?? null, class: DEFAULTS.class ?? null,
    },
    contract.defaults);
  for (const name of ['title', 'class']) assert.ok(name in DEFAULTS, name);
  // The SVG strings' bounds in UTF-8 bytes: a title may be empty, a class may not.
  assert.deepEqual([0, MAX_SVG_TITLE_BYTES], contract.bounds['svg-title-bytes']);
  assert.deepEqual([1, MAX_SVG_CLASS_BYTES], contract.bounds['svg-class-bytes']);
  // DEFAULTS's colours spelt as the contract spells them (#rrggbbaa, lowercase).
  assert.equal(parseColor(DEFAULTS.dark), Number.parseInt(contract.defaults.dark.slice(1), 16));
  assert.equal(parseColor(DEFAULTS.light), Number.parseInt(contract.defaults.light.slice(1), 16));
  assert.equal(MAX_TEXT_BYTES, contract.max_text_bytes);
  assert.equal(MAX_PNG_REPEAT_TIMES, contract.max_png_repeat_times);
  // ERROR_KINDS is in the contract's check order.
  assert.deepEqual([...ERROR_KINDS], contract.error_check_order);
  assert.deepEqual(new Set(ERROR_KINDS), new Set(contract.error_kinds));
});

test('messages equal the contract', () => {
  for (const [name, message] of Object.entries(MESSAGES)) {
    assert.equal(message, contract.messages[name], name);
  }
  assert.equal(new QrError('empty-text').message, contract.messages['empty-text']);
  assert.equal(new QrError('data-too-long').message, contract.messages['data-too-long']);
});

// The guest checks scale's range; these are the bounds its message names, on every path.
test('scale\'s bounds are the contract\'s on every path', () => {
  const [min, max] = contract.bounds.scale;
  const fill = (value) => contract.messages['out-of-range'].replace('{option}', 'scale').replace('{min}', String(min))
    .replace('{max}', String(max)).replace('{value}', String(value));
  for (const { name, api } of everyPath) {
    for (const scale of [min, max]) assert.ok(api.png('hi', { scale }) instanceof Uint8Array, `${name}: ${scale}`);
    for (const scale of [min - 1, max + 1]) assert.equal(thrown(() => api.png('hi', { scale })).message, fill(scale), name);
  }
});

// The symbol options' bounds (micro's smaller ones too) and their own
// messages, as every path words them.
test('the symbol options\' bounds and messages are the contract\'s on every path', () => {
  const fill = (option, [min, max], value) => contract.messages['out-of-range'].replace('{option}', option)
    .replace('{min}', String(min)).replace('{max}', String(max)).replace('{value}', String(value));
  const { bounds } = contract;
  for (const { name, api } of everyPath) {
    for (const [option, key, normal, micro] of [['version', 'version', bounds.version, bounds['micro-version']],
      ['min-version', 'minVersion', bounds.version, bounds['micro-version']], ['mask', 'mask', bounds.mask, bounds['micro-mask']]]) {
      for (const [isMicro, [min, max]] of [[false, normal], [true, micro]]) {
        for (const value of [min, max]) {
          assert.ok(api.matrix('1', { micro: isMicro, [key]: value }).width > 0, `${name}: ${option} ${value}, micro ${isMicro}`);
        }
        for (const value of [min - 1, max + 1].filter((v) => v >= 0)) {
          assert.equal(thrown(() => api.png('1', { micro: isMicro, [key]: value })).message, fill(option, [min, max], value),
            `${name}: ${option} ${value}, micro ${isMicro}`);
        }
      }
    }
    assert.equal(thrown(() => api.png('1', { version: 2, minVersion: 1 })).message, contract.messages['version-conflict'], name);
    assert.equal(thrown(() => api.png('1', { micro: true, ecLevel: 'high' })).message, contract.messages['micro-ec-level'], name);
  }
});

test('the raw ABI equals the contract', () => {
  const codes = Object.fromEntries(STATUS_KINDS.flatMap((kind, code) => (kind === null ? [] : [[kind, code]])));
  const flags = {
    micro: SYMBOL_FLAGS.micro, 'boost-ec': SYMBOL_FLAGS.boostEc, 'has-version': SYMBOL_FLAGS.hasVersion,
    'has-min-version': SYMBOL_FLAGS.hasMinVersion, 'has-mask': SYMBOL_FLAGS.hasMask, eci: SYMBOL_FLAGS.eci,
  };
  const svgFlags = { 'view-box-only': SVG_FLAGS.viewBoxOnly, 'has-title': SVG_FLAGS.hasTitle, 'has-class': SVG_FLAGS.hasClass };
  assert.deepEqual(
    {
      version: ABI_VERSION, record_bytes: RECORD_BYTES, status_ok: STATUS_KINDS.indexOf(null), status_codes: codes, symbol_flags: flags,
      svg_flags: svgFlags,
    },
    contract.raw_abi);
  assert.equal(ABI_VERSION, 7);
  assert.equal(Object.keys(SYMBOL_FLAGS).length, Object.keys(contract.raw_abi.symbol_flags).length);
  assert.equal(Object.keys(SVG_FLAGS).length, Object.keys(contract.raw_abi.svg_flags).length);
});

test('the templates are filled as the contract words them, the value kept as it is', () => {
  const value = 'x$&y';
  const error = (() => { try { component.png('hi', { ecLevel: value }); } catch (e) { return e; } })();
  assert.equal(error.kind, 'invalid-options');
  assert.equal(error.message, contract.messages['ec-level-name'].replace('{value}', () => JSON.stringify(value)));
  const surrogate = (() => { try { component.png('\ud800'); } catch (e) { return e; } })();
  assert.equal(surrogate.message, contract.messages['lone-surrogate']);
});

// The names are the WIT enum's in its order (the raw ABI's and the addon's
// index), and the style is checked after every option on every path.
test('text styles are the contract\'s, and a bad one is the host\'s error', () => {
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
  for (const { name, api } of everyPath) {
    assert.deepEqual([...api.TEXT_STYLES], contract.text_styles, name);
    // Each name draws its own style (the index each path passes is that style's).
    const drawn = api.TEXT_STYLES.map((style) => api.text('hello', { style }));
    assert.equal(new Set(drawn).size, api.TEXT_STYLES.length, name);
    assert.ok(drawn[api.TEXT_STYLES.indexOf('ascii')].startsWith('  '.repeat(4)), `${name}: ascii's quiet zone`);
    assert.equal(api.text('hello'), drawn[api.TEXT_STYLES.indexOf(contract.defaults['text-style'])], name);
    const value = 'x$&y';
    assert.equal(thrown(() => api.text('hello', { style: value })).message,
      fill(contract.messages['text-style-name'], { value: JSON.stringify(value) }), name);
    // A style WIT cannot carry is the host's error: before any of the guest's (docs/contract.md).
    assert.equal(thrown(() => api.text('hello', { style: value, minSize: 0 })).message,
      fill(contract.messages['text-style-name'], { value: JSON.stringify(value) }), `${name}: the host's error comes first`);
    assert.equal(thrown(() => api.text('hello', { style: 'ascii', minSize: 0 })).message,
      fill(contract.messages['out-of-range'], { option: 'min-size', min: 1, max: 4096, value: 0 }), name);
  }
  // The addon takes the style as its index, as the raw ABI does, and words an
  // index out of range as the contract's text-style-index, after the options.
  const addon = createRequire(import.meta.url)(ADDON_PATH);
  for (const index of [TEXT_STYLES.length, 0xffff_ffff]) {
    const error = thrown(() => addon.text('hello', 0, 200, 4, ...DEFAULT_LOOK, index));
    assert.deepEqual({ code: error.code, message: error.message },
      { code: 'invalid-options', message: fill(contract.messages['text-style-index'], { value: index }) });
  }
  assert.equal(thrown(() => addon.text('hello', 0, 0, 4, ...DEFAULT_LOOK, TEXT_STYLES.length)).message,
    fill(contract.messages['out-of-range'], { option: 'min-size', min: 1, max: 4096, value: 0 }));
  assert.equal(addon.text('hello', 0, 200, 4, ...DEFAULT_LOOK, TEXT_STYLES.indexOf('ascii')), native.text('hello', { style: 'ascii' }));
});

// No public call may run for more than a second (a wasm call cannot be
// interrupted): pngRepeat's `times` is bounded on every path, after the
// text's own checks, and a count that is not a u32 is refused, never wrapped.
test('pngRepeat: times is bounded on every path, with the contract\'s message', () => {
  const all = [...paths, { name: 'native', api: native, probe: nativeProbe }];
  const over = MAX_PNG_REPEAT_TIMES + 1;
  const message = contract.messages['out-of-range']
    .replace('{option}', 'times').replace('{min}', '0').replace('{max}', String(MAX_PNG_REPEAT_TIMES))
    .replace('{value}', String(over));
  for (const { name, api, probe } of all) {
    const length = probe.pngRepeat(REFERENCE_URL, undefined, 1);
    assert.equal(probe.pngRepeat(REFERENCE_URL, undefined, MAX_PNG_REPEAT_TIMES), length, name);
    for (const times of [over, 0xffff_ffff]) {
      const error = thrown(() => probe.pngRepeat(REFERENCE_URL, undefined, times));
      assert.ok(error instanceof api.QrError, `${name}: ${error?.stack ?? error}`);
      assert.equal(error.kind, 'invalid-options', name);
      assert.equal(error.message, message.replace(String(over), String(times)), name);
    }
    // The text's errors come first, as for every option.
    assert.equal(thrown(() => probe.pngRepeat('', undefined, over)).kind, 'empty-text', name);
    for (const times of [2 ** 32 + 1, -1, 1.5, '3', undefined]) {
      assert.ok(thrown(() => probe.pngRepeat(REFERENCE_URL, undefined, times)) instanceof TypeError, `${name}: ${times}`);
    }
  }
});
