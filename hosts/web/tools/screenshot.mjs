#!/usr/bin/env node
// Opens a page of qrglue in headless Chromium (the tests' flags and profile),
// takes a screenshot and decodes the QR code the page shows with jsQR.
//
//   node hosts/web/tools/screenshot.mjs [URL|-] [OUT.png]
//
// URL: a running `just web` (e.g. http://127.0.0.1:8090/?text=hello); without
// one (or with `-`), the page is served on a free port for the run and shows
// the reference URL. OUT.png: where the
// screenshot goes (the README's is docs/web-page.png). Prints the decoded text
// and exits 1 when the page shows an error or no code decodes.
import { writeFileSync } from 'node:fs';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { launchChromium, startBrowser, waitForRender } from './harness.mjs';

const [urlArg = '-', out = null] = process.argv.slice(2);
const url = urlArg === '-' ? null : urlArg;
const session = url === null ? await startBrowser() : await launchChromium();
const target = url ?? `${session.baseUrl}/?text=${encodeURIComponent('https://www.reddit.com/r/rustjerk/top/?t=all')}`;
let failed = false;
try {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 1000, height: 760 });
  await page.goto(target);
  await waitForRender(page);
  const error = await page.textContent('#error');
  if (error) {
    console.error(`the page shows an error: ${error}`);
    failed = true;
  }
  const code = PNG.sync.read(await page.locator('#png').screenshot());
  const decoded = jsQR(new Uint8ClampedArray(code.data), code.width, code.height);
  console.log(`${target}\ndecoded: ${decoded === null ? '(nothing)' : JSON.stringify(decoded.data)}`);
  failed ||= decoded === null;
  if (out !== null) {
    writeFileSync(out, await page.screenshot({ fullPage: false }));
    console.log(`wrote ${out}`);
  }
} finally {
  await session.close();
}
process.exit(failed ? 1 : 0);
