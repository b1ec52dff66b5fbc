// Independent read-back: pngjs decodes the PNG, jsQR reads the code, and the
// bytes must be exactly the text's UTF-8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { paths, cases, expected, jsOptions, REFERENCE_URL } from './support/fixtures.js';

function readQr(pngBytes) {
  const image = PNG.sync.read(Buffer.from(pngBytes));
  const code = jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    image.width, image.height);
  assert.ok(code, 'jsQR found no code');
  return code;
}

for (const { name, api } of paths) {
  test(`${name}: the reference URL reads back exactly`, () => {
    const code = readQr(api.png(REFERENCE_URL));
    assert.equal(code.data, REFERENCE_URL);
  });

  test(`${name}: every readable golden case reads back as its UTF-8 bytes`, () => {
    // min-size 1 draws 1 px per module and quiet-zone-0 has no margin: not
    // meant for scanners (jsQR finds no code at 1 px per module). jsQR reads
    // no Micro QR at all (readback.test.js reads those with zxing-cpp).
    const readable = cases.filter((c) => c.options?.['min-size'] !== 1 && c.id !== 'quiet-zone-0' && c.options?.micro !== true
      && expected[c.id].png_sha256 !== undefined && typeof c.text === 'string' && c.text.length < 200);
    assert.ok(readable.length >= 15);
    for (const testCase of readable) {
      const code = readQr(api.png(testCase.text, jsOptions(testCase.options)));
      assert.deepEqual(Buffer.from(code.binaryData), Buffer.from(testCase.text, 'utf8'), testCase.id);
    }
  });
}
