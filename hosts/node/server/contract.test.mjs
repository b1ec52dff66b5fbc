// The query grammar's shared cases (tests/http/query_cases.json), run against
// this server's own parser: the same cases guest/http-query (cargo test) and
// hosts/python/server/test_http_contract.py run against theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpError, checkQuery, methodClass, pathAndQuery } from './contract.mjs';

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
