// A trap in the guest throws a clear error, and the next call works on a fresh
// instance (a trapped jco instance would otherwise throw forever); running
// out of stack inside a call retires the instance the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paths, thrown, sha256, REFERENCE_URL, expected } from './support/fixtures.js';

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

// Calls `fn` at every depth from the very bottom of the stack upwards, until
// one returns: each frame's catch retries `fn` with one frame more of stack,
// so some attempts run out of stack in the glue, some inside the guest (a
// RangeError whose stack shows wasm frames), and the first with enough
// stack returns. Returns [the result, the attempts that failed].
function fromTheBottomOfTheStack(fn) {
  const failures = [];
  function dive() {
    try {
      return dive();
    } catch (error) {
      // Retry one frame up after stack exhaustion, or after an attempt's own failure.
      if (!(error instanceof RangeError) && !failures.includes(error)) throw error;
      try {
        return fn();
      } catch (failure) {
        failures.push(failure);
        throw failure;
      }
    }
  }
  return [dive(), failures];
}

for (const { name, api, probe } of paths) {
  test(`${name}: running out of stack inside a call retires the instance, and the next calls are golden`, () => {
    const golden = expected['ref-02'].png_sha256;
    assert.equal(sha256(api.png(REFERENCE_URL)), golden);
    const large = sha256(api.png(REFERENCE_URL, { minSize: 1000 }));
    let insideTheGuest = 0;
    let insideTheGlue = 0;
    for (let round = 0; round < 20; round++) {
      const before = probe.instances();
      const [png, failures] = fromTheBottomOfTheStack(() => api.png(REFERENCE_URL, { minSize: 1000 }));
      assert.equal(sha256(png), large);
      assert.ok(failures.length > 0);
      for (const failure of failures) {
        // Stack exhaustion stays what it is (never a QrError, never a wrong
        // PNG). On component, jco's glue keeps its async-task bookkeeping in
        // module state shared by every instance: a RangeError inside it can
        // leave a task open, and the next attempt reports that as its own
        // Error (seen after a trap on the same module). Either way the call
        // failed cleanly and the next calls are golden (asserted below).
        const jcoTask = name === 'component' && /task \[\d+\] exited without resolution/.test(failure?.message ?? '');
        assert.ok(failure instanceof RangeError || jcoTask, `${failure?.stack ?? failure}`);
      }
      // Inside the guest (wasm frames), or inside jco's generated glue around
      // the call (gen/): either may have stopped the call half-way.
      const inGuest = failures.filter((failure) => /wasm:\/\//.test(failure.stack ?? '')).length;
      const inGlue = failures.filter((failure) => /\/gen\//.test(failure.stack ?? '')).length;
      insideTheGuest += inGuest;
      insideTheGlue += inGlue;
      if (inGuest + inGlue > 0) {
        assert.ok(probe.instances() > before, `${inGuest} failures inside the guest, ${inGlue} in its glue, instances ${before} -> ${probe.instances()}`);
      }
      assert.equal(sha256(api.png(REFERENCE_URL)), golden);
    }
    if (name === 'component') {
      // jco's glue (its task bookkeeping around every call) needs more stack
      // than the guest's own code, so exhaustion lands there, never in wasm.
      assert.ok(insideTheGlue > 0, 'no attempt ran out of stack inside the generated glue');
    } else {
      assert.ok(insideTheGuest > 0, 'no attempt ran out of stack inside the guest');
    }
    assert.equal(thrown(() => api.png('')).kind, 'empty-text');
    const instances = probe.instances();
    api.png(REFERENCE_URL);
    assert.equal(probe.instances(), instances, 'a QrError or a success must not cost an instance');
  });
}
