// The query grammar's shared cases (tests/http/query_cases.json), run against
// this server's own parser: the same cases guest/http-query (cargo test) and
// hosts/python/server/test_http_contract.py run against theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  DATA_TOO_LONG_MESSAGE, EC_LEVELS, EMPTY_TEXT_MESSAGE, HttpError, LONE_SURROGATE_MESSAGE, MICRO_EC_LEVEL_MESSAGE, MICRO_ECI_MESSAGE, NOT_UTF8_TEMPLATE,
  OUT_OF_RANGE_TEMPLATE, SAME_COLORS_TEMPLATE, VERSION_CONFLICT_MESSAGE, checkQuery, checkRanges, methodClass, pathAndQuery,
} from './contract.mjs';

const cases = JSON.parse(readFileSync(new URL('../../../tests/http/query_cases.json', import.meta.url), 'utf8'));
const API_NAMES = {
  'ec-level': 'ecLevel', 'min-size': 'minSize', 'quiet-zone': 'quietZone', scale: 'scale', dark: 'dark', light: 'light',
  micro: 'micro', version: 'version', 'min-version': 'minVersion', mask: 'mask', 'boost-ec': 'boostEc', eci: 'eci',
};

test('the shared query cases', () => {
  assert.ok(cases.queries.length >= 240);
  for (const { query, request, empty, refused } of cases.queries) {
    let got;
    try {
      got = checkQuery(query);
    } catch (error) {
      assert.ok(error instanceof HttpError, `${query}: ${error?.stack ?? error}`);
      assert.ok(refused, `${query}: refused (${error.kind}: ${error.message}), expected to pass`);
      assert.deepEqual({ kind: error.kind, message: error.message }, refused, query);
      continue;
    }
    assert.equal(refused, undefined, `${query}: passed, expected ${JSON.stringify(refused)}`);
    if (empty) {
      assert.equal(got.text, '', query);
      continue;
    }
    const { text, ...options } = request;
    const want = Object.fromEntries(Object.entries(options).map(([name, value]) => [API_NAMES[name], value]));
    assert.deepEqual({ text: got.text, options: got.options }, { text, options: want }, query);
  }
});

test('the shared request targets and methods', () => {
  for (const [target, path, query] of cases.targets) {
    assert.deepEqual(pathAndQuery(target), [path, query], target);
  }
  for (const [kind, methods] of Object.entries(cases.methods)) {
    for (const method of methods) assert.equal(methodClass(method), kind, method);
  }
});

// The copies this server keeps for the tiers with no qrglue library (qrcode,
// static) equal the contract the build writes from guest/core/src/contract.rs.
test('the server\'s copies of the contract equal target/contract.json', () => {
  const contract = JSON.parse(readFileSync(new URL('../../../target/contract.json', import.meta.url), 'utf8'));
  assert.deepEqual(EC_LEVELS, contract.ec_levels);
  assert.equal(EMPTY_TEXT_MESSAGE, contract.messages['empty-text']);
  assert.equal(LONE_SURROGATE_MESSAGE, contract.messages['lone-surrogate']);
  assert.equal(NOT_UTF8_TEMPLATE, contract.messages['not-utf8']);
  assert.equal(DATA_TOO_LONG_MESSAGE, contract.messages['data-too-long']);
  assert.equal(OUT_OF_RANGE_TEMPLATE, contract.messages['out-of-range']);
  assert.equal(SAME_COLORS_TEMPLATE, contract.messages['same-colors']);
  assert.equal(VERSION_CONFLICT_MESSAGE, contract.messages['version-conflict']);
  assert.equal(MICRO_EC_LEVEL_MESSAGE, contract.messages['micro-ec-level']);
  assert.equal(MICRO_ECI_MESSAGE, contract.messages['micro-eci']);
  const fill = (option, value, bounds = option) => contract.messages['out-of-range'].replace('{option}', option)
    .replace('{min}', contract.bounds[bounds][0]).replace('{max}', contract.bounds[bounds][1]).replace('{value}', value);
  const refusal = (options) => {
    try {
      checkRanges(options);
    } catch (error) {
      return error.message;
    }
    return null;
  };
  const [minLow, minHigh] = contract.bounds['min-size'];
  const [, zoneHigh] = contract.bounds['quiet-zone'];
  const [scaleLow, scaleHigh] = contract.bounds.scale;
  const [, versionHigh] = contract.bounds.version;
  const [, microVersionHigh] = contract.bounds['micro-version'];
  const [, maskHigh] = contract.bounds.mask;
  const [, microMaskHigh] = contract.bounds['micro-mask'];
  const { dark, light } = contract.defaults;
  assert.equal(refusal({ minSize: minLow - 1 }), fill('min-size', minLow - 1));
  assert.equal(refusal({ minSize: minHigh + 1 }), fill('min-size', minHigh + 1));
  assert.equal(refusal({ quietZone: zoneHigh + 1 }), fill('quiet-zone', zoneHigh + 1));
  assert.equal(refusal({ scale: scaleLow - 1 }), fill('scale', scaleLow - 1));
  assert.equal(refusal({ scale: scaleHigh + 1 }), fill('scale', scaleHigh + 1));
  assert.equal(refusal({ dark: light }), contract.messages['same-colors'].replace('{value}', light));
  assert.equal(refusal({ light: dark }), contract.messages['same-colors'].replace('{value}', dark));
  assert.equal(refusal({ version: versionHigh + 1 }), fill('version', versionHigh + 1));
  assert.equal(refusal({ minVersion: 0 }), fill('min-version', 0, 'version'));
  assert.equal(refusal({ micro: true, version: microVersionHigh + 1 }), fill('version', microVersionHigh + 1, 'micro-version'));
  assert.equal(refusal({ version: 2, minVersion: 3 }), contract.messages['version-conflict']);
  assert.equal(refusal({ mask: maskHigh + 1 }), fill('mask', maskHigh + 1));
  assert.equal(refusal({ micro: true, mask: microMaskHigh + 1 }), fill('mask', microMaskHigh + 1, 'micro-mask'));
  assert.equal(refusal({ micro: true, ecLevel: 'high' }), contract.messages['micro-ec-level']);
  assert.equal(refusal({ micro: true, eci: true }), contract.messages['micro-eci']);
  assert.equal(refusal({ micro: true, eci: true, ecLevel: 'high' }), contract.messages['micro-ec-level']);
  // The generator's order: the first failing check answers.
  assert.equal(refusal({ minSize: 0, quietZone: 17 }), fill('min-size', 0));
  assert.equal(refusal({ quietZone: 17, scale: 0 }), fill('quiet-zone', 17));
  assert.equal(refusal({ scale: 0, dark: light }), fill('scale', 0));
  assert.equal(refusal({ dark: light, version: 0 }), contract.messages['same-colors'].replace('{value}', light));
  assert.equal(refusal({ version: 0, minVersion: 0 }), fill('version', 0));
  assert.equal(refusal({ version: 1, minVersion: 0 }), fill('min-version', 0, 'version'));
  assert.equal(refusal({ version: 1, minVersion: 1, mask: 8 }), contract.messages['version-conflict']);
  assert.equal(refusal({ mask: 8, micro: true, ecLevel: 'high' }), fill('mask', 8, 'micro-mask'));
  assert.equal(refusal({ minSize: minLow, quietZone: zoneHigh }), null);
  assert.equal(refusal({ minSize: minHigh, quietZone: 0, scale: scaleHigh, dark: '#ffffffff', light: '#000000ff' }), null);
  assert.equal(refusal({ micro: true, version: microVersionHigh, mask: microMaskHigh, ecLevel: 'quartile', boostEc: true }), null);
});
