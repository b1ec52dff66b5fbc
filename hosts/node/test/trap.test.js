// A trap in the guest throws a clear error, and the next call works on a fresh
// instance (a trapped jco instance would otherwise throw forever).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paths, thrown, sha256, REFERENCE_URL, expected } from '../testing/fixtures.js';

function assertTrap(api, fn, pathName) {
  const error = thrown(fn);
  assert.ok(error instanceof api.GuestTrapError, `${error?.stack ?? error}`);
  assert.equal(error.name, 'GuestTrapError');
  assert.ok(error.cause instanceof WebAssembly.RuntimeError);
  assert.match(error.message, new RegExp(`${pathName} path.*trapped.*fresh instance`));
}

for (const { name, api, probe } of paths) {
  test(`${name}: trap, then the next calls work`, () => {
    const want = expected['ref-02'].png_sha256;
    assert.equal(sha256(api.png(REFERENCE_URL)), want);
    assertTrap(api, () => probe.trap(), name);
    assert.equal(sha256(api.png(REFERENCE_URL)), want);
    // Twice in a row, and errors keep their kinds afterwards.
    assertTrap(api, () => probe.trap(), name);
    assertTrap(api, () => probe.trap(), name);
    assert.equal(thrown(() => api.png('')).kind, 'empty-text');
    assert.equal(thrown(() => api.svg('x', { quietZone: 17 })).kind, 'invalid-options');
    assert.equal(sha256(Buffer.from(api.svg(REFERENCE_URL))), expected['ref-02'].svg_sha256);
    probe.noop();
  });
}

test('produce over 16 MiB: invalid-options on the raw ABI, a trap (then recovery) on the component', () => {
  const [component, raw] = paths;
  const tooMany = (16 << 20) + 1;
  assert.equal(thrown(() => raw.probe.produce(tooMany)).kind, 'invalid-options');
  assertTrap(component.api, () => component.probe.produce(tooMany), 'component');
  assert.equal(component.probe.produce(16 << 20).length, 16 << 20);
  assert.equal(raw.probe.produce(16 << 20).length, 16 << 20);
});
