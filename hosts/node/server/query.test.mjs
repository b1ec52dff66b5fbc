// The query grammar's shared cases (tests/http/query_cases.json), run through
// this server's way to guest/http-query (the native addon, query.mjs): the
// same cases the crate runs itself (cargo test) and the Python server runs
// through its extension. What is checked here is the binding: the bytes in,
// the options out under the Node API's names, a refusal as an HttpError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpError, checkQuery, methodClass, pathAndQuery } from './query.mjs';

const cases = JSON.parse(readFileSync(new URL('../../../tests/http/query_cases.json', import.meta.url), 'utf8'));
const contract = JSON.parse(readFileSync(new URL('../../../target/contract.json', import.meta.url), 'utf8'));
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function refusal(query, alone) {
  try {
    checkQuery(query, alone);
  } catch (error) {
    assert.ok(error instanceof HttpError, `${query}: ${error?.stack ?? error}`);
    return { kind: error.kind, message: error.message };
  }
  return null;
}

test('the shared query cases', () => {
  assert.ok(cases.queries.length >= 240);
  for (const { query, request, empty, refused } of cases.queries) {
    if (refused) {
      assert.deepEqual(refusal(query, false), refused, query);
      continue;
    }
    const got = checkQuery(query, false);
    if (empty) {
      assert.deepEqual(got, { text: '', options: {} }, query);
      continue;
    }
    const { text, ...options } = request;
    const want = Object.fromEntries(Object.entries(options).map(([name, value]) => [camel(name), value]));
    assert.deepEqual(got, { text, options: want }, query);
  }
});

test('raw bytes: node:http hands the target over as latin1, one char per byte', () => {
  assert.deepEqual(checkQuery('text=%C3%A9\u00c3\u00a9', false), { text: 'éé', options: {} });
  assert.equal(refusal('text=\u00ff', false).kind, 'invalid-text');
});

test('the shared request targets and methods', () => {
  for (const [target, path, query] of cases.targets) {
    assert.deepEqual(pathAndQuery(target), [path, query], target);
  }
  for (const [kind, methods] of Object.entries(cases.methods)) {
    for (const method of methods) assert.equal(methodClass(method), kind, method);
  }
});

// The tiers with no generator (static, qrcode) get the generator's refusals
// from the query's check: the core's messages, as target/contract.json has them.
test('alone: empty-text and the core\'s option checks, in its order', () => {
  const range = (option, value, bounds = option) => contract.messages['out-of-range'].replace('{option}', option)
    .replace('{min}', contract.bounds[bounds][0]).replace('{max}', contract.bounds[bounds][1]).replace('{value}', value);
  const invalid = (message) => ({ kind: 'invalid-options', message });
  assert.deepEqual(refusal('text=', true), { kind: 'empty-text', message: contract.messages['empty-text'] });
  assert.deepEqual(checkQuery('text=', false), { text: '', options: {} });
  assert.deepEqual(refusal('text=a&min-size=0&quiet-zone=17', true), invalid(range('min-size', 0)));
  assert.deepEqual(refusal('text=a&quiet-zone=17&scale=0', true), invalid(range('quiet-zone', 17)));
  assert.deepEqual(refusal('text=a&scale=21', true), invalid(range('scale', 21)));
  const light = contract.defaults.light;
  assert.deepEqual(refusal(`text=a&dark=${encodeURIComponent(light)}&version=0`, true),
    invalid(contract.messages['same-colors'].replace('{value}', light)));
  assert.deepEqual(refusal('text=a&micro=true&version=5', true), invalid(range('version', 5, 'micro-version')));
  assert.deepEqual(refusal('text=a&version=2&min-version=3', true), invalid(contract.messages['version-conflict']));
  assert.deepEqual(refusal('text=a&mask=8&micro=true&ec-level=high', true), invalid(range('mask', 8, 'micro-mask')));
  assert.deepEqual(refusal('text=a&micro=true&ec-level=high', true), invalid(contract.messages['micro-ec-level']));
  assert.deepEqual(refusal('text=a&micro=true&eci=true', true), invalid(contract.messages['micro-eci']));
  // Passed: resolved, every option at its value or the core's default (scale,
  // version, min-version and mask only when given).
  const { defaults } = contract;
  assert.deepEqual(checkQuery('text=a&micro=true&version=4&mask=3&ec-level=quartile&boost-ec=true', true), {
    text: 'a',
    options: {
      ecLevel: 'quartile', minSize: defaults['min-size'], quietZone: defaults['quiet-zone'], dark: defaults.dark,
      light: defaults.light, micro: true, version: 4, mask: 3, boostEc: true, eci: defaults.eci,
    },
  });
  // The grammar's refusals come first either way.
  assert.deepEqual(refusal('text=&bogus=1', true).kind, 'bad-query');
});
