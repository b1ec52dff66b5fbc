// Results are owned copies, never views into wasm memory: they stay intact
// after later calls reuse that memory, and after memory grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as native from '../native.js';
import { paths, sha256, REFERENCE_URL, expected } from './support/fixtures.js';

for (const { name, api, probe } of paths) {
  test(`${name}: a PNG is unchanged by 1,000 later calls and by memory growth`, () => {
    const first = api.png(REFERENCE_URL);
    const firstSvg = api.svg(REFERENCE_URL);
    const snapshot = Uint8Array.from(first);
    // The array owns exactly its bytes (a view into linear memory would sit in a
    // buffer of a megabyte or more).
    assert.equal(first.buffer.byteLength, first.byteLength);
    for (let i = 0; i < 1000; i++) {
      const later = i % 2 === 0 ? api.png(`later call ${i}`) : api.svg(`later call ${i}`);
      assert.ok(later.length > 0);
    }
    const memoryBefore = probe.memoryBytes();
    assert.equal(probe.produce(8 << 20).length, 8 << 20); // forces the guest to grow memory
    assert.ok(probe.memoryBytes() > memoryBefore, 'memory should have grown');
    assert.deepEqual(first, snapshot);
    assert.equal(sha256(first), expected['ref-02'].png_sha256);
    assert.equal(sha256(Buffer.from(firstSvg)), expected['ref-02'].svg_sha256);
    // And calls after the growth still work (fresh views of the new buffer).
    assert.equal(sha256(api.png(REFERENCE_URL)), expected['ref-02'].png_sha256);
  });

  test(`${name}: a matrix owns its modules, unchanged by later calls`, () => {
    const first = native.matrix(REFERENCE_URL);
    const matrix = api.matrix(REFERENCE_URL);
    // Exactly its bytes: not a view into linear memory, nor into the payload with the width.
    assert.equal(matrix.modules.buffer.byteLength, matrix.modules.byteLength);
    const snapshot = Uint8Array.from(matrix.modules);
    for (let i = 0; i < 200; i++) api.matrix(`later call ${i}`);
    assert.equal(probe.produce(8 << 20).length, 8 << 20);
    assert.deepEqual(matrix.modules, snapshot);
    assert.deepEqual([matrix.width, matrix.modules], [first.width, first.modules]);
    assert.throws(() => { 'use strict'; matrix.width = 1; }, TypeError);
  });

  test(`${name}: produce and consume move the exact bytes`, () => {
    for (const len of [0, 1, 250, 251, 252, 4096, 1 << 20]) {
      const bytes = probe.produce(len);
      assert.equal(bytes.length, len);
      for (let i = 0; i < len; i += 1 + (i >> 4)) assert.equal(bytes[i], i % 251, `byte ${i} of ${len}`);
      if (len > 0) assert.equal(bytes[len - 1], (len - 1) % 251);
      assert.equal(probe.consume(bytes), len);
    }
  });

  test(`${name}: pngRepeat returns the PNG length`, () => {
    assert.equal(probe.pngRepeat(REFERENCE_URL, undefined, 3), expected['ref-02'].png_bytes);
    assert.equal(probe.pngRepeat(REFERENCE_URL, { ecLevel: 'high' }, 1), expected['ref-02-ec-high'].png_bytes);
    probe.noop();
  });
}
