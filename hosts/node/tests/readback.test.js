// Every text reads back as itself in a QR reader, on every Node path; and
// the matrix and every text style are the PNG's modules, so a renderer that
// draws the matrix draws the code that reads back.
//
// The reader is zxing-cpp (zxing-wasm, its WebAssembly build) and what is
// compared is its decoded *text*, what a person's phone shows, not the raw
// bytes: a symbol that declares Shift-JIS Kanji for UTF-8 bytes decodes to
// the right bytes and the wrong text (guest/core/UPSTREAM.md). Every path
// gives the same PNG (asserted here too), so each distinct PNG is read once.
// A binary payload (a data_hex case, bytes that are not UTF-8) is compared
// with the reader's *bytes*: it has no text to show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import * as native from '../native.js';
import { paths, cases, expected, caseBytes, caseText, isBytesCase, jsOptions, sha256, REFERENCE_URL } from './support/fixtures.js';

// The reader's .wasm from node_modules (its default is a CDN download).
const wasmFile = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
prepareZXingModule({ overrides: { wasmBinary: readFileSync(wasmFile).buffer }, fireImmediately: true });

const allPaths = [...paths, { name: 'native', api: native }];

/** What zxing-cpp reads of the one QR code in `png` (QR codes and Micro QR codes only). */
async function readerResult(png) {
  const results = await readBarcodes(new Uint8Array(png), { formats: ['QRCode', 'MicroQRCode'] });
  assert.equal(results.length, 1, `${results.length} codes read`);
  assert.ok(results[0].isValid);
  return results[0];
}

/** The text zxing-cpp shows for the one QR code in `png`. */
async function readerText(png) {
  return (await readerResult(png)).text;
}

/** Valid Unicode (no lone surrogate) without control characters (a reader's text is for display). */
const readable = (text) => text.isWellFormed() && !/\p{Cc}/u.test(text);

// The corpus images of readable texts; the 4096-pixel images are left to the
// smaller cases of the same texts (decoding 16 MP adds seconds, reads the same).
const renderedCases = cases.filter((c) => expected[c.id].png_sha256 !== undefined && !isBytesCase(c) && readable(caseText(c))
  && (c.options?.['min-size'] ?? 200) <= 1024);
// Every one of them, Micro QR M3 at level low included (stock qrcode 0.14's
// M3-L symbols never read, kennytm/qrcode-rust#90; the core draws them right).
const readbackCases = renderedCases;

test('the corpus has the scripts that once read as mojibake', () => {
  const ids = new Set(readbackCases.map((c) => c.id));
  for (const id of ['script-zh-sentence', 'script-ja-kanji', 'script-ja-kana', 'script-ja-quotes',
    'script-ja-sentence', 'unicode-supplementary-planes', 'unicode-cjk']) {
    assert.ok(ids.has(id), id);
  }
  assert.ok(readbackCases.length > 150, `${readbackCases.length} cases`);
});

test('every readable corpus text reads back as itself, on every path', async () => {
  for (const testCase of readbackCases) {
    const text = caseText(testCase);
    const pngs = allPaths.map(({ api }) => Buffer.from(api.png(text, jsOptions(testCase.options))));
    for (const [i, png] of pngs.entries()) {
      assert.equal(sha256(png), expected[testCase.id].png_sha256, `${testCase.id} on ${allPaths[i].name}`);
    }
    const result = await readerResult(pngs[0]);
    assert.equal(result.text, text, testCase.id);
    // The symbol options the case fixes are the ones the reader reports.
    const { micro, version, mask } = testCase.options ?? {};
    const extra = JSON.parse(result.extra || '{}');
    if (mask !== undefined) assert.equal(extra.DataMask, mask, `${testCase.id}: mask`);
    if (version !== undefined) assert.equal(extra.Version, micro ? `M${version}` : String(version), `${testCase.id}: version`);
    assert.equal(result.format, micro ? 'MicroQRCode' : 'QRCode', testCase.id);
    // An ECI designator with eci, none without (zxing-cpp's hasECI; its symbologyIdentifier says ]Q1 either way).
    assert.equal(result.hasECI, testCase.options?.eci === true, `${testCase.id}: ECI`);
  }
});

test('the corpus\'s eci cases are among them', () => {
  const eci = readbackCases.filter((c) => c.options?.eci === true);
  assert.ok(eci.length >= 10, eci.map((c) => c.id).join(', '));
});

test('the corpus\'s Micro QR M3 codes at level low are among them', () => {
  const m3Low = readbackCases.filter((c) => c.options?.micro === true && (c.options['ec-level'] ?? 'low') === 'low'
    && c.options['boost-ec'] !== true && native.matrix(caseText(c), jsOptions(c.options)).width === 15);
  assert.ok(m3Low.length >= 3, m3Low.map((c) => c.id).join(', '));
});

// The corpus's binary payloads (data_hex): each PNG is golden on every path
// and reads back as exactly its bytes (the Rust host reads them the same way,
// hosts/rust/tests/host/readback.rs).
test('every corpus payload reads back as its bytes, on every path', async () => {
  let read = 0;
  for (const testCase of cases.filter((c) => isBytesCase(c) && expected[c.id].png_sha256 !== undefined)) {
    const data = caseBytes(testCase);
    const pngs = allPaths.map(({ api }) => Buffer.from(api.png(data, jsOptions(testCase.options))));
    for (const [i, png] of pngs.entries()) {
      assert.equal(sha256(png), expected[testCase.id].png_sha256, `${testCase.id} on ${allPaths[i].name}`);
    }
    const result = await readerResult(pngs[0]);
    assert.deepEqual(Buffer.from(result.bytes), Buffer.from(data), testCase.id);
    assert.equal(result.format, testCase.options?.micro ? 'MicroQRCode' : 'QRCode', testCase.id);
    assert.equal(result.hasECI, testCase.options?.eci === true, `${testCase.id}: ECI`);
    read++;
  }
  assert.ok(read >= 15, `only ${read} payloads read`);
});

// Bytes that are no UTF-8 text: 0xff 0xfe (a UTF-16 byte order mark), and
// 0xed 0xa0 0x80, a lone surrogate as WTF-8 would write it (a text call
// refuses it: invalid-text). As a payload each makes a code (never
// invalid-text) on every path, in every output, that reads back as exactly
// those bytes.
test('bytes that are not UTF-8 make a code that reads back as those exact bytes, on every path', async () => {
  const payloads = [[0xff, 0xfe], [0xed, 0xa0, 0x80], [0x68, 0x69, 0xff, 0x00, 0xc3], [0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28]];
  for (const bytes of payloads) {
    const data = Uint8Array.from(bytes);
    const where = Buffer.from(data).toString('hex');
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(data), TypeError, `${where} is not UTF-8`);
    const pngs = allPaths.map(({ api }) => Buffer.from(api.png(data)));
    for (const [i, png] of pngs.entries()) assert.deepEqual(png, pngs[0], `${where} on ${allPaths[i].name}`);
    for (const { name, api } of allPaths) {
      const matrix = api.matrix(data);
      assert.equal(matrix.width, 21, `${where} on ${name}`);
      assert.match(api.svg(data), /<svg .*<\/svg>\n?$/s, `${where} on ${name}`);
      for (const style of api.TEXT_STYLES) assert.ok(api.text(data, { style }).endsWith('\n'), `${where} on ${name}: ${style}`);
    }
    const result = await readerResult(pngs[0]);
    assert.deepEqual(Buffer.from(result.bytes), Buffer.from(data), where);
  }
  // The text call on the same bytes, decoded as WTF-8 would: a lone surrogate, invalid-text.
  for (const { name, api } of allPaths) {
    assert.equal((() => { try { api.png('\ud800'); } catch (e) { return e.kind; } })(), 'invalid-text', name);
  }
});

test('arbitrary bytes read back as themselves', async () => {
  const payload = fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 120 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 1200 }) },
  );
  await fc.assert(fc.asyncProperty(payload, level, async (data, ecLevel) => {
    const png = Buffer.from(native.png(data, { ecLevel }));
    const result = await readerResult(png);
    assert.deepEqual(Buffer.from(result.bytes), Buffer.from(data));
  }), { numRuns: 300, seed: 20261126 });
});

// Scripts a phone meets every day, by code point range, mixed with ASCII
// letters, digits, spaces and punctuation.
const SCRIPTS = [
  [0x4e00, 0x9fff], [0x3041, 0x3096], [0x30a1, 0x30fa], [0x3001, 0x3011], [0xff01, 0xff5e], [0xac00, 0xd7a3],
  [0x0410, 0x044f], [0x0391, 0x03a1], [0x03b1, 0x03c9], [0x0621, 0x063a], [0x05d0, 0x05ea], [0x0905, 0x0939],
  [0x0e01, 0x0e30], [0x00c0, 0x00ff], [0x1f600, 0x1f64f], [0x2600, 0x26ff],
];
const char = fc.oneof(
  fc.constantFrom(...'abcXYZ0123456789 .,:/?-_'),
  ...SCRIPTS.map(([lo, hi]) => fc.integer({ min: lo, max: hi }).map((cp) => String.fromCodePoint(cp))),
);
const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 4, maxLength: 30 });
const text = fc.array(fc.oneof(char, digits), { minLength: 1, maxLength: 60 }).map((parts) => parts.join(''))
  .filter((t) => /^\P{Cn}*$/u.test(t));
const level = fc.constantFrom('low', 'medium', 'quartile', 'high');

test('texts drawn from many scripts read back as themselves', async () => {
  await fc.assert(fc.asyncProperty(text, level, async (t, ecLevel) => {
    const png = Buffer.from(native.png(t, { ecLevel }));
    for (const { name, api } of paths) {
      assert.ok(png.equals(Buffer.from(api.png(t, { ecLevel }))), name);
    }
    assert.equal(await readerText(png), t);
  }), { numRuns: 1500, seed: 20261124 });
});

// The half-block characters by (top, bottom) ink: what text() draws two rows per line with.
const HALF_BLOCKS = { ' ': [false, false], '\u2580': [true, false], '\u2584': [false, true], '\u2588': [true, true] };

/**
 * The grid of modules (quiet zone included, `size` per side) that a text
 * draws: true where dark. Ascii is one line per row, "##" dark; half blocks
 * two rows per line, ink on the dark modules (inverted: on the light ones).
 */
function gridFromText(drawn, style, size) {
  const lines = drawn.split('\n');
  assert.equal(lines.pop(), '', 'every line ends with a newline');
  if (style === 'ascii') {
    assert.equal(lines.length, size);
    return lines.map((line) => {
      assert.match(line, /^(##|  )*$/);
      assert.equal(line.length, 2 * size);
      return Array.from({ length: size }, (_, x) => line.slice(2 * x, 2 * x + 2) === '##');
    });
  }
  assert.equal(lines.length, Math.ceil(size / 2));
  const grid = Array.from({ length: 2 * lines.length }, () => []);
  lines.forEach((line, k) => {
    const chars = [...line];
    assert.equal(chars.length, size);
    chars.forEach((char, x) => {
      assert.ok(char in HALF_BLOCKS, `line ${k}: ${JSON.stringify(char)}`);
      const [top, bottom] = HALF_BLOCKS[char];
      grid[2 * k][x] = style === 'half-blocks' ? top : !top;
      grid[2 * k + 1][x] = style === 'half-blocks' ? bottom : !bottom;
    });
  });
  // A row past the grid (odd sizes) is light, so it has no ink in either style.
  if (size % 2 === 1) {
    assert.ok([...lines.at(-1)].every((char) => !HALF_BLOCKS[char][1]), 'no ink below the grid');
  }
  return grid.slice(0, size);
}

test('the matrix and the text are the PNG\'s modules on every path', async () => {
  for (const text of [REFERENCE_URL, '二维码 🦀', '0123456789']) {
    for (const options of [{ ecLevel: 'medium', minSize: 100, quietZone: 2 }, { quietZone: 0, minSize: 21 }, { ecLevel: 'high', quietZone: 3 }]) {
      const quietZone = options.quietZone;
      for (const { name, api } of allPaths) {
        const where = `${name}: ${text} ${JSON.stringify(options)}`;
        const matrix = api.matrix(text, options);
        const { width } = matrix;
        const image = PNG.sync.read(Buffer.from(api.png(text, options)));
        const across = width + 2 * quietZone;
        const module = image.width / across;
        assert.ok(Number.isInteger(module) && image.height === image.width, `${where}: ${image.width} px`);
        const dark = (x, y) => image.data[4 * (y * image.width + x)] === 0;
        for (let y = 0; y < across; y++) {
          for (let x = 0; x < across; x++) {
            const inside = x >= quietZone && y >= quietZone && x < quietZone + width && y < quietZone + width;
            const want = inside && api.isDark(matrix, x - quietZone, y - quietZone);
            // Every pixel of the module's block, not one sample: the block is the module.
            for (let py = y * module; py < (y + 1) * module; py++) {
              for (let px = x * module; px < (x + 1) * module; px++) {
                if (dark(px, py) !== want) assert.fail(`${where}: pixel (${px}, ${py}) of module (${x}, ${y})`);
              }
            }
          }
        }
        const grid = Array.from({ length: across }, (_, y) => Array.from({ length: across }, (_, x) =>
          x >= quietZone && y >= quietZone && x < quietZone + width && y < quietZone + width && api.isDark(matrix, x - quietZone, y - quietZone)));
        for (const style of api.TEXT_STYLES) {
          assert.deepEqual(gridFromText(api.text(text, { ...options, style }), style, across), grid, `${where}: ${style}`);
        }
      }
    }
    assert.equal(await readerText(Buffer.from(native.png(text))), text);
  }
});

test('isDark reads the packed modules most significant bit first, and refuses coordinates outside the matrix', () => {
  // Bit i = y * width + x: with width 21, module (7, 0) is bit 7 of byte 0, (8, 0) bit 0 of byte 1... MSB first.
  const modules = new Uint8Array(56);
  modules[0] = 0b1000_0001; // (0, 0) and (7, 0)
  modules[2] = 0b0010_0000; // bit 18: (18, 0)
  modules[55] = 0b1000_0000; // bit 440 = 20 * 21 + 20: (20, 20), the last module
  const matrix = { width: 21, modules };
  const darkOnes = [];
  for (let y = 0; y < 21; y++) for (let x = 0; x < 21; x++) if (native.isDark(matrix, x, y)) darkOnes.push([x, y]);
  assert.deepEqual(darkOnes, [[0, 0], [7, 0], [18, 0], [20, 20]]);
  for (const [x, y] of [[21, 0], [0, 21], [-1, 0], [0, -1], [1.5, 0], [0, NaN], ['1', 0]]) {
    assert.throws(() => native.isDark(matrix, x, y), RangeError, JSON.stringify([x, y]));
  }
  // One implementation for every entry point.
  for (const { api } of allPaths) assert.equal(api.isDark, native.isDark);
});

/** The PNG's chunk types in order (signature skipped). */
function chunkTypes(png) {
  const types = [];
  for (let at = 8; at < png.length; at += 12 + png.readUInt32BE(at)) types.push(png.toString('latin1', at + 4, at + 8));
  return types;
}

// Colours (contract 0.2.0): black on opaque white stays 1-bit grayscale (the
// golden bytes); any other pair is a two-entry palette, with a tRNS chunk
// when either colour is not opaque. Decoded, every module's block of pixels
// is exactly its colour, RGBA, and the code still reads back.
test('a coloured PNG has exactly its colours, module by module, and reads back, on every path', async () => {
  const hex = (rgba) => Array.from(rgba, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const looks = [
    { dark: '#336699', light: '#eeeeee', want: ['336699ff', 'eeeeeeff'], trns: false },
    { dark: '#000', light: '#ffffff00', want: ['000000ff', 'ffffff00'], trns: true },
    { dark: '#cc0000', want: ['cc0000ff', 'ffffffff'], trns: false },
    { dark: '#00008080', light: '#ffff0040', want: ['00008080', 'ffff0040'], trns: true },
    { dark: '#000000FF', light: '#FFF', want: ['000000ff', 'ffffffff'], trns: false, grayscale: true },
  ];
  for (const { want: [darkHex, lightHex], trns, grayscale, ...colours } of looks) {
    const options = { ...colours, scale: 3, quietZone: 2 };
    const pngs = allPaths.map(({ api }) => Buffer.from(api.png(REFERENCE_URL, options)));
    for (const [i, png] of pngs.entries()) assert.deepEqual(png, pngs[0], `${allPaths[i].name} ${JSON.stringify(colours)}`);
    const png = pngs[0];
    const where = JSON.stringify(colours);
    // IHDR's colour type (byte 25): 0 grayscale, 3 palette; 1 bit per pixel either way.
    assert.deepEqual([png[24], png[25]], [1, grayscale ? 0 : 3], where);
    const types = chunkTypes(png);
    assert.equal(types.includes('PLTE'), !grayscale, where);
    assert.equal(types.includes('tRNS'), trns, where);
    const image = PNG.sync.read(png);
    const matrix = native.matrix(REFERENCE_URL, options);
    const across = matrix.width + 2 * options.quietZone;
    assert.equal(image.width, across * options.scale, where);
    for (let py = 0; py < image.height; py++) {
      for (let px = 0; px < image.width; px++) {
        const [x, y] = [Math.floor(px / options.scale) - options.quietZone, Math.floor(py / options.scale) - options.quietZone];
        const inside = x >= 0 && y >= 0 && x < matrix.width && y < matrix.width;
        const wantHex = inside && native.isDark(matrix, x, y) ? darkHex : lightHex;
        const at = 4 * (py * image.width + px);
        const got = hex(image.data.subarray(at, at + 4));
        if (got !== wantHex) assert.fail(`${where}: pixel (${px}, ${py}) is ${got}, not ${wantHex}`);
      }
    }
    assert.equal(await readerText(png), REFERENCE_URL, where);
  }
});

// scale sizes the image: (width + 2 * quietZone) * scale pixels a side,
// whatever minSize says (minSize is still checked).
test('scale sizes the image, whatever minSize says, on every path', () => {
  const { width } = native.matrix(REFERENCE_URL);
  for (const [scale, quietZone, minSize] of [[1, 4, 200], [1, 0, 4096], [7, 2, 1], [20, 16, 200], [3, 4, 4096]]) {
    for (const { name, api } of allPaths) {
      const image = PNG.sync.read(Buffer.from(api.png(REFERENCE_URL, { scale, quietZone, minSize })));
      const side = (width + 2 * quietZone) * scale;
      assert.deepEqual([image.width, image.height], [side, side], `${name}: scale ${scale}, quiet ${quietZone}, min ${minSize}`);
    }
  }
});
