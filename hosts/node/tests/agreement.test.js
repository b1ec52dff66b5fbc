// Differential test: on 2,000 random texts and options (fast-check, fixed
// seed), the component and raw paths return the same PNG bytes, or the same
// error kind and message; SVG, the matrix and the text on a share of them.
// And on random binary payloads, every path (component, raw, bindgen,
// native) agrees the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { paths, everyPath } from './support/fixtures.js';

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

// Any bytes, mostly not UTF-8: short, near the byte-mode capacities (2953
// bytes at level low, 1273 at high) and the 7089-byte bound, runs of digits
// and alphanumerics (their own segments), and as the three bytes-like types.
const alnum = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'].map((c) => c.charCodeAt(0));
const payload = fc.oneof(
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 80 }) },
  { weight: 2, arbitrary: fc.uint8Array({ minLength: 1200, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...alnum), fc.integer({ min: 0, max: 255 })), { maxLength: 400 })
    .map((bytes) => Uint8Array.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom(7088, 7089, 7090, 2953, 2954, 0).map((n) => new Uint8Array(n).fill(0xb5)) },
);
const bytesLike = fc.constantFrom('Uint8Array', 'ArrayBuffer', 'DataView', 'Buffer');
const asForm = (data, form) => {
  if (form === 'ArrayBuffer') return data.slice().buffer;
  if (form === 'DataView') return new DataView(data.slice().buffer);
  if (form === 'Buffer') return Buffer.from(data);
  return data;
};
const symbol = fc.option(fc.record({
  micro: fc.boolean(), version: fc.integer({ min: 0, max: 41 }), mask: fc.integer({ min: 0, max: 8 }), boostEc: fc.boolean(),
}, { requiredKeys: [] }), { nil: undefined });

test('every path agrees on 1,000 random binary payloads and options (PNG, SVG, matrix, text)', () => {
  const [reference, ...others] = everyPath;
  const seen = new Set();
  fc.assert(fc.property(payload, bytesLike, options, symbol, styles, (data, form, options, symbolOptions, style) => {
    const input = asForm(data, form);
    const all = symbolOptions === undefined ? options : { ...options, ...symbolOptions };
    const want = outcome(() => reference.api.png(input, all));
    seen.add(want.kind ?? 'ok');
    for (const { name, api } of others) assert.deepEqual(outcome(() => api.png(input, all)), want, name);
    if (data.length % 3 === 0) {
      const svg = outcome(() => reference.api.svg(input, all));
      for (const { name, api } of others) assert.deepEqual(outcome(() => api.svg(input, all)), svg, `${name} svg`);
    }
    if (data.length % 3 === 1) {
      const matrix = (api) => () => { const { width, modules } = api.matrix(input, all); return Uint8Array.of(width, ...modules); };
      const want = outcome(matrix(reference.api));
      for (const { name, api } of others) assert.deepEqual(outcome(matrix(api)), want, `${name} matrix`);
    }
    if (data.length % 3 === 2) {
      const textOptions = all === undefined ? { style } : { ...all, style };
      const drawn = (api) => () => new TextEncoder().encode(api.text(input, textOptions));
      const want = outcome(drawn(reference.api));
      for (const { name, api } of others) assert.deepEqual(outcome(drawn(api)), want, `${name} text`);
    }
  }), { seed: SEED, numRuns: 1000 });
  // Every outcome but invalid-text, which bytes never give.
  assert.deepEqual([...seen].sort(), ['data-too-long', 'empty-text', 'invalid-options', 'ok']);
});
