// The page in Debian's headless Chromium, as a person uses it: for each path,
// the reference URL's PNG, SVG and text are the golden ones and a screenshot
// of the code decodes to the text; every error kind shows its message next to the input;
// a URL with state reproduces its image; typing updates the code and the URL;
// the bench panel completes and its JSON follows the bench schema; a binary
// payload (a chosen file, or ?data-hex=) makes the payload's golden code. Every
// page must also stay free of console errors and failed requests.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { validateBrowserReport } from '../tools/bench-schema.mjs';
import { settingsFrom } from '../bench.js';
import { openPage, startBrowser, waitForRender } from '../tools/harness.mjs';

// The quick mode's settings, as the panel reads them (tests/bench/settings.json).
const quickSettings = settingsFrom(JSON.parse(readFileSync(new URL('../../../tests/bench/settings.json', import.meta.url), 'utf8')), true);
const PATHS = ['component', 'raw', 'bindgen'];
const repo = new URL('../../../', import.meta.url);
const cases = JSON.parse(readFileSync(new URL('tests/vectors/cases.json', repo), 'utf8')).cases;
const expected = JSON.parse(readFileSync(new URL('tests/vectors/expected.json', repo), 'utf8'));
const caseById = new Map(cases.map((c) => [c.id, c]));
const REFERENCE = caseById.get('ref-02');

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function decodeScreenshot(png) {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height);
}

function query(state) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) params.set(key, String(value));
  return `?${params}`;
}

/** The bytes the page shows right now: the <img>'s PNG and the SVG download. */
async function shownOutputs(page) {
  const { png, svg } = await page.evaluate(async () => {
    const bytes = async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    return { png: await bytes(document.getElementById('png').src), svg: await bytes(document.getElementById('download-svg').href) };
  });
  return { png: Uint8Array.from(png), svg: Uint8Array.from(svg) };
}

/** Sets the form as a person would leave it, then lets the page render once. */
async function setForm(page, { text, ecLevel = 'low', minSize = '200', quietZone = '4' }) {
  // Code units, not a string: a lone surrogate must reach the textarea as is.
  const units = Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
  await page.evaluate(({ units, ecLevel, minSize, quietZone }) => {
    let text = '';
    for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.slice(i, i + 4096));
    document.getElementById('ec-level').value = ecLevel;
    document.getElementById('min-size').value = minSize;
    document.getElementById('quiet-zone').value = quietZone;
    const box = document.getElementById('text');
    box.value = text;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, { units, ecLevel, minSize: String(minSize), quietZone: String(quietZone) });
  await waitForRender(page);
}

async function shownError(page) {
  return page.evaluate(() => {
    const box = document.getElementById('error');
    return { hidden: box.hidden, kind: box.dataset.kind ?? null, message: box.querySelector('.message')?.textContent ?? null };
  });
}

function caseText(c) {
  return c.text_repeat ? c.text_repeat.unit.repeat(c.text_repeat.count) : c.text;
}

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

test('the page offers the three paths and says it is cross-origin isolated', async () => {
  const page = await openPage(browser.context, browser.baseUrl, '?text=hello');
  const offered = await page.$$eval('#path option', (options) => options.map((o) => o.value));
  assert.deepEqual(offered, PATHS);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.match(await page.textContent('#isolation'), /cross-origin isolated: yes/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('acceptance: ?text=hello shows a code that decodes to "hello"', async () => {
  const page = await openPage(browser.context, browser.baseUrl, '?text=hello');
  assert.equal(await page.inputValue('#text'), 'hello');
  assert.equal(decodeScreenshot(await page.locator('#png').screenshot())?.data, 'hello');
  assert.deepEqual(page.problems, []);
  await page.close();
});

for (const path of PATHS) {
  describe(`path ${path}`, () => {
    test('reference URL: golden PNG and SVG bytes, and both rendered codes decode to the text', async () => {
      const page = await openPage(browser.context, browser.baseUrl, query({ text: REFERENCE.text, path }));
      assert.equal(await page.getAttribute('html', 'data-status'), 'ok', await page.textContent('#error'));
      const { png, svg } = await shownOutputs(page);
      assert.equal(sha256(png), expected['ref-02'].png_sha256);
      assert.equal(png.length, expected['ref-02'].png_bytes);
      assert.equal(sha256(svg), expected['ref-02'].svg_sha256);
      assert.equal(sha256(Buffer.from(await page.textContent('#text-code'), 'utf8')), expected['ref-02'].text_sha256['half-blocks']);
      assert.match(await page.textContent('#text-caption'), /^Text \(half blocks\), 19 lines$/);
      assert.equal(decodeScreenshot(await page.locator('#png').screenshot())?.data, REFERENCE.text, 'PNG screenshot');
      assert.equal(decodeScreenshot(await page.locator('#svg svg').screenshot())?.data, REFERENCE.text, 'SVG screenshot');
      assert.match(await page.textContent('#status'), new RegExp(`^${path} path`));
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test('the download buttons give the same bytes', async () => {
      const page = await openPage(browser.context, browser.baseUrl, query({ text: REFERENCE.text, path }));
      for (const [button, digest, name] of [['#download-png', expected['ref-02'].png_sha256, 'qrglue.png'],
        ['#download-svg', expected['ref-02'].svg_sha256, 'qrglue.svg']]) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
        assert.equal(download.suggestedFilename(), name);
        const chunks = [];
        for await (const chunk of await download.createReadStream()) chunks.push(chunk);
        assert.equal(sha256(Buffer.concat(chunks)), digest, button);
      }
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test('every error kind shows its message next to the input, then a valid input shows a code again', async () => {
      const page = await openPage(browser.context, browser.baseUrl, query({ text: 'x', path }));
      const errorCases = [
        'surrogate-lead-alone', 'surrogate-lead-in-text', 'surrogate-with-bad-options',
        'err-empty', 'err-empty-and-bad-options', 'err-too-long-bytes', 'capacity-byte-high-plus-1', 'huge-7090-bytes',
        'err-min-size-0', 'err-min-size-4097', 'err-quiet-zone-17', 'err-min-size-4294967295-b', 'err-too-long-and-bad-options',
      ];
      const kindsSeen = new Set();
      for (const id of errorCases) {
        const c = caseById.get(id);
        const options = c.options;
        await setForm(page, { text: caseText(c), ecLevel: options['ec-level'], minSize: options['min-size'], quietZone: options['quiet-zone'] });
        const shown = await shownError(page);
        assert.deepEqual(shown, { hidden: false, kind: expected[id].error, message: expected[id].message }, id);
        assert.equal(await page.isVisible('#error'), true, `${id}: the message is visible`);
        assert.equal(await page.getAttribute('#png', 'src'), null, `${id}: no stale code next to an error`);
        assert.equal(await page.textContent('#text-code'), '', `${id}: no stale text next to an error`);
        assert.equal(await page.getAttribute('#download-png', 'aria-disabled'), 'true', id);
        kindsSeen.add(expected[id].error);
      }
      assert.deepEqual([...kindsSeen].sort(), ['data-too-long', 'empty-text', 'invalid-options', 'invalid-text']);

      // Over 7089 UTF-8 bytes in fewer UTF-16 units ('é' is 2 bytes): refused by its byte length.
      await setForm(page, { text: 'é'.repeat(3545) });
      assert.deepEqual(await shownError(page),
        { hidden: false, kind: 'data-too-long', message: expected['huge-7090-bytes'].message });

      // Fields that are not numbers: the message quotes what was typed.
      await setForm(page, { text: 'hello', minSize: 'big' });
      const notANumber = await shownError(page);
      assert.equal(notANumber.kind, 'invalid-options');
      assert.match(notANumber.message, /^min-size .*"big"/);

      await setForm(page, { text: 'fixed' });
      assert.deepEqual(await shownError(page), { hidden: true, kind: null, message: null });
      assert.equal(decodeScreenshot(await page.locator('#png').screenshot())?.data, 'fixed');
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test('a URL with state reproduces its image, and the form shows that state', async () => {
      // A golden case with no default option.
      const c = cases.find((k) => !k.text_repeat && expected[k.id].png_sha256 && ['medium', 'quartile', 'high'].includes(k.options['ec-level']) &&
        Number.isInteger(k.options['min-size']) && k.options['min-size'] !== 200 && Number.isInteger(k.options['quiet-zone']) && k.options['quiet-zone'] !== 4);
      assert.ok(c, 'the corpus has a case with three non-default options');
      const state = { text: c.text, 'ec-level': c.options['ec-level'], 'min-size': c.options['min-size'], 'quiet-zone': c.options['quiet-zone'], path };
      const page = await openPage(browser.context, browser.baseUrl, query(state));
      assert.deepEqual(await page.evaluate(() => ['text', 'ec-level', 'min-size', 'quiet-zone', 'path']
        .map((id) => document.getElementById(id).value)),
      [c.text, c.options['ec-level'], String(c.options['min-size']), String(c.options['quiet-zone']), path]);
      const { png, svg } = await shownOutputs(page);
      assert.equal(sha256(png), expected[c.id].png_sha256, c.id);
      assert.equal(sha256(svg), expected[c.id].svg_sha256, c.id);
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    // Contract 0.2.0's options: scale, dark and light from the URL into the form and the image, and back;
    // empty fields are the defaults and stay out of the URL; a bad colour is shown like any error.
    test('scale, dark and light: a URL reproduces the coloured image, the form shows them, a bad colour is an error', async () => {
      const c = caseById.get('opt-colors-and-scale-cjk');
      const state = { text: c.text, 'ec-level': c.options['ec-level'], 'min-size': c.options['min-size'],
        'quiet-zone': c.options['quiet-zone'], scale: c.options.scale, dark: c.options.dark, light: c.options.light, path };
      const page = await openPage(browser.context, browser.baseUrl, query(state));
      assert.deepEqual(await page.evaluate(() => ['scale', 'dark', 'light'].map((id) => document.getElementById(id).value)),
        [String(c.options.scale), c.options.dark, c.options.light]);
      const { png, svg } = await shownOutputs(page);
      assert.equal(sha256(png), expected[c.id].png_sha256, c.id);
      assert.equal(sha256(svg), expected[c.id].svg_sha256, c.id);
      await page.fill('#dark', 'navy');
      await waitForRender(page);
      assert.deepEqual(await shownError(page), { hidden: false, kind: 'invalid-options',
        message: 'dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "navy"' });
      assert.equal(await page.getAttribute('#png', 'src'), null, 'no stale code next to an error');
      for (const id of ['scale', 'dark', 'light']) {
        await page.fill(`#${id}`, '');
        await waitForRender(page);
      }
      assert.deepEqual(await shownError(page), { hidden: true, kind: null, message: null });
      const url = new URL(page.url());
      assert.deepEqual([...url.searchParams.keys()], ['text', 'ec-level', 'min-size', 'quiet-zone', 'path']);
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    // The symbol options: version, min-version and mask fields and the micro, boost-ec and eci boxes, from the URL
    // into the form and the image; a bad value is the generator's error; cleared, they leave the URL.
    test('version, mask, micro, boost-ec and eci: a URL reproduces the image, the form shows them, a bad mask is an error', async () => {
      for (const id of ['sym-all-at-once', 'sym-micro-version-4-mask-3', 'eci-version-5-mask-2']) {
        const c = caseById.get(id);
        const o = c.options;
        const state = { text: c.text, 'ec-level': o['ec-level'], 'min-size': o['min-size'], 'quiet-zone': o['quiet-zone'],
          ...Object.fromEntries(['scale', 'dark', 'version', 'mask', 'micro', 'boost-ec', 'eci'].filter((k) => o[k] !== undefined)
            .map((k) => [k, o[k]])),
          path };
        const page = await openPage(browser.context, browser.baseUrl, query(state));
        assert.deepEqual(await page.evaluate(() => ['version', 'mask', 'micro', 'boost-ec', 'eci'].map((field) => {
          const input = document.getElementById(field);
          return input.type === 'checkbox' ? input.checked : input.value;
        })), [String(o.version), String(o.mask), o.micro === true, o['boost-ec'] === true,
          o.eci === true], id);
        const { png, svg } = await shownOutputs(page);
        assert.equal(sha256(png), expected[c.id].png_sha256, c.id);
        assert.equal(sha256(svg), expected[c.id].svg_sha256, c.id);
        await page.fill('#mask', '9');
        await waitForRender(page);
        assert.deepEqual(await shownError(page), { hidden: false, kind: 'invalid-options',
          message: `mask must be within 0..=${o.micro ? 3 : 7}, got 9` });
        for (const field of ['scale', 'dark', 'version', 'mask']) {
          await page.fill(`#${field}`, '');
          await waitForRender(page);
        }
        for (const field of ['micro', 'boost-ec', 'eci']) {
          await page.setChecked(`#${field}`, false);
          await waitForRender(page);
        }
        assert.deepEqual(await shownError(page), { hidden: true, kind: null, message: null });
        assert.deepEqual([...new URL(page.url()).searchParams.keys()], ['text', 'ec-level', 'min-size', 'quiet-zone', 'path']);
        assert.deepEqual(page.problems, []);
        await page.close();
      }
    });

    // A binary payload instead of the text: ?data-hex= and a chosen file both
    // give the payload's golden code (bytes that are no UTF-8 text), the URL
    // spells the payload in hex, a payload too long or empty is the glue's
    // error, and "use the text" (or typing) makes the text the input again.
    test('a payload: ?data-hex= and a chosen file make the payload\'s golden code, and the URL spells it', async () => {
      const notUtf8 = caseById.get('bytes-not-utf8');
      const page = await openPage(browser.context, browser.baseUrl, query({ 'data-hex': notUtf8.data_hex, path }));
      assert.equal(await page.getAttribute('html', 'data-status'), 'ok', await page.textContent('#error'));
      let shown = await shownOutputs(page);
      assert.equal(sha256(shown.png), expected['bytes-not-utf8'].png_sha256);
      assert.equal(sha256(shown.svg), expected['bytes-not-utf8'].svg_sha256);
      assert.equal(sha256(Buffer.from(await page.textContent('#text-code'), 'utf8')), expected['bytes-not-utf8'].text_sha256['half-blocks']);
      assert.deepEqual(Buffer.from(decodeScreenshot(await page.locator('#png').screenshot())?.binaryData ?? []),
        Buffer.from(notUtf8.data_hex, 'hex'), 'the screenshot reads back as the bytes');
      assert.equal(await page.textContent('#payload'), '12 bytes from the URL');

      // A file's bytes: a WTF-8 lone surrogate, which no text can be.
      const surrogate = caseById.get('bytes-wtf8-lone-surrogate');
      const file = (name, buffer) => page.setInputFiles('#data-file', { name, mimeType: 'application/octet-stream', buffer });
      await file('surrogate.bin', Buffer.from(surrogate.data_hex, 'hex'));
      await waitForRender(page);
      shown = await shownOutputs(page);
      assert.equal(sha256(shown.png), expected['bytes-wtf8-lone-surrogate'].png_sha256);
      assert.equal(await page.textContent('#payload'), 'surrogate.bin: 3 bytes');
      assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams),
        { 'data-hex': 'eda080', 'ec-level': 'low', 'min-size': '200', 'quiet-zone': '4', path });

      // Too long (a bigger file is not read whole) and empty: the glue's errors, as for a text.
      for (const [buffer, id] of [[Buffer.alloc(100_000, 0xff), 'bytes-over-max-length'], [Buffer.alloc(0), 'bytes-empty']]) {
        await file('payload.bin', buffer);
        await waitForRender(page);
        assert.deepEqual(await shownError(page), { hidden: false, kind: expected[id].error, message: expected[id].message }, id);
        assert.equal(await page.getAttribute('#png', 'src'), null, `${id}: no stale code next to an error`);
      }
      // Not hex in the URL: said so next to the input.
      const notHex = await openPage(browser.context, browser.baseUrl, query({ 'data-hex': 'xyz', path }));
      assert.deepEqual(await shownError(notHex), { hidden: false, kind: 'page-error', message: 'data-hex must be hex digits, two a byte, got "xyz"' });
      await notHex.close();

      // Back to the text.
      await page.click('#payload-clear');
      await waitForRender(page);
      assert.equal(await page.isVisible('#payload'), false);
      assert.equal(decodeScreenshot(await page.locator('#png').screenshot())?.data, REFERENCE.text);
      assert.equal(new URL(page.url()).searchParams.get('text'), REFERENCE.text);
      assert.equal(new URL(page.url()).searchParams.has('data-hex'), false);
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test('typing updates the code and the URL, and that URL reproduces it', async () => {
      const page = await openPage(browser.context, browser.baseUrl, query({ path }));
      await page.fill('#text', 'typed into the page');
      await waitForRender(page);
      await page.selectOption('#ec-level', 'quartile');
      await waitForRender(page);
      await page.fill('#quiet-zone', '1');
      await waitForRender(page);
      assert.equal(decodeScreenshot(await page.locator('#png').screenshot())?.data, 'typed into the page');
      const url = new URL(page.url());
      assert.deepEqual(Object.fromEntries(url.searchParams),
        { text: 'typed into the page', 'ec-level': 'quartile', 'min-size': '200', 'quiet-zone': '1', path });
      const typed = await shownOutputs(page);
      const again = await openPage(browser.context, browser.baseUrl, url.search);
      assert.equal(sha256((await shownOutputs(again)).png), sha256(typed.png));
      assert.deepEqual([...page.problems, ...again.problems], []);
      await page.close();
      await again.close();
    });

    // The SVG's three inputs apply to the SVG alone: golden against the
    // corpus's svg-all, in the URL, read back by the browser's own XML parser
    // (a hostile title as typed), and a bad class shown with its message.
    test('the SVG options: view-box-only, title and class apply to the SVG alone, in the URL, read back by the browser', async () => {
      const all = caseById.get('svg-all');
      // The case's options under their WIT names, as the URL spells them (a ticked box is 'true').
      const state = { text: all.text, ...Object.fromEntries(Object.entries(all.options).map(([k, v]) => [k, String(v)])), path };
      assert.equal(all.options['view-box-only'], true);
      const page = await openPage(browser.context, browser.baseUrl, query(state));
      assert.equal(await page.getAttribute('html', 'data-status'), 'ok', await page.textContent('#error'));
      const { png, svg } = await shownOutputs(page);
      assert.equal(sha256(svg), expected['svg-all'].svg_sha256);
      assert.equal(sha256(png), expected['svg-all'].png_sha256, 'the PNG is as without them');
      assert.equal(await page.isChecked('#view-box-only'), true);
      assert.equal(await page.inputValue('#title'), all.options.title);
      assert.equal(await page.getAttribute('#svg svg', 'class'), all.options.class);
      assert.equal(await page.getAttribute('#svg svg', 'width'), null);
      assert.equal(decodeScreenshot(await page.locator('#svg svg').screenshot())?.data, all.text, 'the view-box-only SVG still reads');

      const hostile = '</title><script>alert(1)</script> "q" \'s\' & <b>\r\nCR LF\t\u00e9\u{1f980}';
      await page.fill('#title', hostile);
      await waitForRender(page);
      // An <input> drops line breaks from what is typed: the title is the field's value.
      const typed = await page.inputValue('#title');
      assert.ok(typed.includes('</title><script>'), typed);
      const readBack = await page.evaluate(async () => {
        const svgText = await (await fetch(document.getElementById('download-svg').href)).text();
        const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        return { parseErrors: doc.getElementsByTagName('parsererror').length, title: doc.querySelector('title')?.textContent,
          scripts: doc.getElementsByTagName('script').length, shown: document.querySelector('#svg svg title')?.textContent };
      });
      assert.deepEqual(readBack, { parseErrors: 0, title: typed, scripts: 0, shown: typed });
      assert.equal(new URL(page.url()).searchParams.get('title'), typed);
      // CR, LF and the rest, through this path's glue: the browser's XML parser reads back exactly the title.
      const direct = await page.evaluate(async ({ path, title }) => {
        const { loadPath } = await import('/hosts/web/paths.js');
        const api = await loadPath(path);
        const doc = new DOMParser().parseFromString(api.svg('hello', { title }), 'image/svg+xml');
        return { parseErrors: doc.getElementsByTagName('parsererror').length, title: doc.querySelector('title')?.textContent };
      }, { path, title: hostile });
      assert.deepEqual(direct, { parseErrors: 0, title: hostile });

      await page.fill('#class', 'a  b');
      await waitForRender(page);
      assert.equal(await page.getAttribute('html', 'data-status'), 'error');
      assert.deepEqual(await shownError(page), {
        hidden: false, kind: 'invalid-options',
        message: 'class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got "a  b"',
      });
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test('the whole conformance corpus through this path in the browser equals expected.json', async () => {
      const page = await openPage(browser.context, browser.baseUrl, '?text=corpus');
      const outcomes = await page.evaluate(async ({ path, cases }) => {
        const { loadPath, QrError } = await import('/hosts/web/paths.js');
        const api = await loadPath(path);
        const hex = async (bytes) => Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)),
          (b) => b.toString(16).padStart(2, '0')).join('');
        const result = {};
        for (const c of cases) {
          // A data_hex case is a payload: its bytes, as a Uint8Array, through the same functions.
          const text = c.data_hex !== undefined ? Uint8Array.from(c.data_hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16))
            : c.text_repeat ? c.text_repeat.unit.repeat(c.text_repeat.count) : c.text;
          const options = {
            ecLevel: c.options['ec-level'], minSize: c.options['min-size'], quietZone: c.options['quiet-zone'],
            scale: c.options.scale, dark: c.options.dark, light: c.options.light,
            micro: c.options.micro, version: c.options.version, minVersion: c.options['min-version'], mask: c.options.mask,
            boostEc: c.options['boost-ec'], eci: c.options.eci,
          };
          // The SVG's own options go to svg and svgDataUrl alone (the other outputs refuse them).
          const svgOptions = { ...options, viewBoxOnly: c.options['view-box-only'], title: c.options.title, class: c.options.class };
          // As hosts/node/tests/support/corpus.js's outcome: every output, or the one error all of them give.
          const attempt = (render) => {
            try {
              return { ok: render() };
            } catch (error) {
              return error instanceof QrError ? { error: error.kind, message: error.message } : { error: `thrown ${error}` };
            }
          };
          const styles = ['half-blocks', 'half-blocks-inverted', 'ascii'];
          const outputs = [() => api.png(text, options), () => api.svg(text, svgOptions), () => api.matrix(text, options),
            ...styles.map((style) => () => api.text(text, { ...options, style }))].map(attempt);
          const [png, svg, matrix, ...texts] = outputs;
          if (outputs.every((o) => o.error === undefined)) {
            const widthLe = new Uint8Array(4);
            new DataView(widthLe.buffer).setUint32(0, matrix.ok.width, true);
            const utf8 = (string) => new TextEncoder().encode(string);
            // The data URLs hold the same bytes (checked here; the outcome is expected.json's shape).
            const base64 = (bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
            if (api.pngDataUrl(text, options) !== `data:image/png;base64,${base64(png.ok)}`
              || api.svgDataUrl(text, svgOptions) !== `data:image/svg+xml;base64,${base64(utf8(svg.ok))}`) {
              result[c.id] = { error: 'data-url-differs' };
              continue;
            }
            result[c.id] = {
              png_bytes: png.ok.length, png_sha256: await hex(png.ok), svg_sha256: await hex(utf8(svg.ok)),
              matrix_sha256: await hex(new Uint8Array([...widthLe, ...matrix.ok.modules])),
              text_sha256: Object.fromEntries(await Promise.all(texts.map(async (t, i) => [styles[i], await hex(utf8(t.ok))]))),
            };
          } else {
            const agreed = outputs.every((o) => o.error === outputs[0].error && o.message === outputs[0].message);
            result[c.id] = agreed ? outputs[0] : { error: 'outputs-disagree' };
          }
        }
        return result;
      }, { path, cases });
      for (const c of cases) assert.deepEqual(outcomes[c.id], expected[c.id], c.id);
      assert.ok(cases.filter((c) => c.data_hex !== undefined).length >= 20, 'the corpus has its payloads');
      assert.ok(cases.filter((c) => c.id.startsWith('svg-')).length >= 10, 'the corpus has its SVG options');
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  });
}

test('the bench panel (quick) completes, plots every path and offers JSON in the bench schema', async () => {
  const page = await openPage(browser.context, browser.baseUrl, '?text=bench');
  await page.check('#bench-quick');
  await page.click('#bench-run');
  await page.waitForFunction(() => ['done', 'error'].includes(document.documentElement.dataset.bench), null, { timeout: 300_000 });
  assert.equal(await page.getAttribute('html', 'data-bench'), 'done', await page.textContent('#bench-status'));
  const report = JSON.parse(await page.textContent('#bench-json'));
  validateBrowserReport(report, {
    paths: PATHS, payloadSizes: quickSettings.payloadSizes, rounds: quickSettings.rounds,
    pngSha256: expected['ref-02'].png_sha256, pngBytes: expected['ref-02'].png_bytes,
  });
  assert.equal(report.quick, true);
  assert.equal(report.cross_origin_isolated, true);
  assert.match(report.machine, /cross-origin isolated: yes/);
  // The plot has one bar per row, the download the same JSON.
  assert.equal(await page.locator('#bench-plot svg rect[height="7"]').count(), report.measurements.length);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bench-download')]);
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  assert.deepEqual(JSON.parse(Buffer.concat(chunks).toString()), report);
  assert.deepEqual(page.problems, []);
  await page.close();
});
