// The query grammar's shared cases (tests/http/query_cases.json), run against
// this server's own parser: the same cases hosts/rust/http-query (cargo test) and
// hosts/python/server/test_http_contract.py run against theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  EC_LEVELS, EMPTY_TEXT_MESSAGE, HttpError, LONE_SURROGATE_MESSAGE, NOT_UTF8_TEMPLATE, checkQuery, checkRanges, methodClass, pathAndQuery,
} from './contract.mjs';

const cases = JSON.parse(readFileSync(new URL('../../../tests/http/query_cases.json', import.meta.url), 'utf8'));
const API_NAMES = { 'ec-level': 'ecLevel', 'min-size': 'minSize', 'quiet-zone': 'quietZone' };

test('the shared query cases', () => {
  assert.ok(cases.queries.length >= 80);
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
  const fill = (option, value) => contract.messages['out-of-range'].replace('{option}', option)
    .replace('{min}', contract.bounds[option][0]).replace('{max}', contract.bounds[option][1]).replace('{value}', value);
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
  assert.equal(refusal({ minSize: minLow - 1 }), fill('min-size', minLow - 1));
  assert.equal(refusal({ minSize: minHigh + 1 }), fill('min-size', minHigh + 1));
  assert.equal(refusal({ quietZone: zoneHigh + 1 }), fill('quiet-zone', zoneHigh + 1));
  assert.equal(refusal({ minSize: minLow, quietZone: zoneHigh }), null);
  assert.equal(refusal({ minSize: minHigh, quietZone: 0 }), null);
});
