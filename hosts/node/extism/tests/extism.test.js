// The Node Extism path against qrglue/raw: the same bytes, the same errors
// (Extism's "<kind>: <message>" mapped back to QrError), and its probes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as extism from '../index.js';
import * as raw from '../../raw.js';
import { probe as rawProbe } from '../../lib/raw.js';

test('outputs equal the raw path, text and payload', async () => {
  for (const input of ['hello', 'Ünïcödé ✓', new Uint8Array([0, 255, 7, 128])]) {
    assert.deepEqual(await extism.png(input, { scale: 3 }), raw.png(input, { scale: 3 }));
    const svgOptions = { title: 'a <title>', class: 'qr big', viewBoxOnly: true, dark: '#123456' };
    assert.equal(await extism.svg(input, svgOptions), raw.svg(input, svgOptions));
    assert.deepEqual(await extism.matrix(input, { micro: false, ecLevel: 'high' }), raw.matrix(input, { micro: false, ecLevel: 'high' }));
    for (const style of extism.TEXT_STYLES) {
      assert.equal(await extism.text(input, { style }), raw.text(input, { style }));
    }
  }
});

test('every error kind comes back as the raw path gives it, and the instance stays', async () => {
  const before = extism.probe.instances();
  const calls = [
    ['png', ''],
    ['png', 'a\ud800b'],
    ['png', 'x'.repeat(8000)],
    ['png', 'é'.repeat(2000)],
    ['png', 'a', { minSize: 0 }],
    ['png', 'a', { dark: 'not a colour' }],
    ['png', 'a', { dark: '#000', light: '#000' }],
    ['png', new Uint8Array(0)],
    ['svg', 'a', { title: 'bad \u0001' }],
    ['text', 'a', { style: 'no-such-style' }],
    ['matrix', 'a', { micro: true, ecLevel: 'high' }],
    // Two problems: the guest's (min-size) comes before the host's (colour).
    ['png', 'a', { minSize: 0, dark: 'bad' }],
  ];
  for (const [name, input, options] of calls) {
    const want = (() => { try { raw[name](input, options); } catch (error) { return error; } })();
    assert.ok(want instanceof raw.QrError, `${name} ${JSON.stringify(options)}: raw refuses it`);
    await assert.rejects(extism[name](input, options), (error) => {
      assert.ok(error instanceof extism.QrError, `${name}: ${error}`);
      assert.equal(error.kind, want.kind);
      assert.equal(error.message, want.message);
      return true;
    });
  }
  assert.equal(extism.probe.instances(), before);
});

test('probes: noop, bytes in and out, guest-only PNGs', async () => {
  await extism.probe.noop();
  assert.equal(await extism.probe.consume(new Uint8Array(100_000)), 100_000);
  const produced = await extism.probe.produce(1000);
  assert.equal(produced.length, 1000);
  assert.equal(produced[999], 999 % 251);
  assert.deepEqual(produced, rawProbe.produce(1000));
  assert.equal(await extism.probe.pngRepeat('repeat', undefined, 3), raw.png('repeat').length);
});

test('concurrent calls are queued on the one instance and all succeed', async () => {
  const want = raw.png('queued');
  const all = await Promise.all(Array.from({ length: 16 }, () => extism.png('queued')));
  for (const got of all) assert.deepEqual(got, want);
});
