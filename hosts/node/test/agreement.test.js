// Differential test: on 2,000 random texts and options (fast-check, fixed
// seed), the component and raw paths return the same PNG bytes, or the same
// error kind and message; SVG, the matrix and the text on a share of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { paths } from '../testing/fixtures.js';

const SEED = 20250501;

// Outcome of one call: the bytes, or the error's kind and message.
function outcome(fn) {
  try {
    return { ok: Buffer.from(fn()).toString('base64') };
  } catch (error) {
    if (error?.name !== 'QrError') throw error; // anything else is a bug, fail loudly
    return { kind: error.kind, message: error.message };
  }
}

const anyUtf16Unit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) }, // full Unicode, well-formed
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 400, maxLength: 3000 }) }, // near the limits
  { weight: 1, arbitrary: fc.string({ unit: anyUtf16Unit, maxLength: 40 }) }, // lone surrogates likely
  { weight: 1, arbitrary: fc.constantFrom('', '7'.repeat(7089), '7'.repeat(7090), 'a'.repeat(2954)) },
);
const options = fc.option(fc.record({
  ecLevel: fc.oneof(fc.constantFrom('low', 'medium', 'quartile', 'high'), fc.constantFrom('LOW', 'x', 3)),
  minSize: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 600 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 4200 }) },
    { weight: 1, arbitrary: fc.constantFrom(1.5, -1, 2 ** 32, 2 ** 32 + 200, NaN) }),
  quietZone: fc.oneof(fc.integer({ min: 0, max: 18 }), fc.constantFrom(0.5, -3, 2 ** 32 + 4)),
}, { requiredKeys: [] }), { nil: undefined });

const styles = fc.option(fc.constantFrom('half-blocks', 'half-blocks-inverted', 'ascii', 'blocks', 0), { nil: undefined });

test('component and raw agree on 2,000 random texts and options (PNG, SVG, matrix, text)', () => {
  const [component, raw] = paths;
  const seen = new Set();
  fc.assert(fc.property(text, options, styles, (text, options, style) => {
    const fromComponent = outcome(() => component.api.png(text, options));
    assert.deepEqual(outcome(() => raw.api.png(text, options)), fromComponent);
    seen.add(fromComponent.kind ?? 'ok');
    // SVG on a share of the inputs: the same code, a different serialisation.
    if (text.length % 4 === 0) {
      assert.deepEqual(outcome(() => raw.api.svg(text, options)), outcome(() => component.api.svg(text, options)));
    }
    // The matrix as its width and bytes; the text with a style that may not be one.
    if (text.length % 4 === 1) {
      const matrix = (api) => () => { const { width, modules } = api.matrix(text, options); return Uint8Array.of(width, ...modules); };
      assert.deepEqual(outcome(matrix(raw.api)), outcome(matrix(component.api)));
    }
    if (text.length % 4 === 2) {
      const textOptions = options === undefined ? { style } : { ...options, style };
      const drawn = (api) => () => new TextEncoder().encode(api.text(text, textOptions));
      assert.deepEqual(outcome(drawn(raw.api)), outcome(drawn(component.api)));
    }
  }), { seed: SEED, numRuns: 2000 });
  // The generators reach every outcome, so agreement was tested on each.
  assert.deepEqual([...seen].sort(), ['data-too-long', 'empty-text', 'invalid-options', 'invalid-text', 'ok']);
});
