#!/usr/bin/env node
// The `browser` host of `just bench`: the page's own bench panel (its module
// worker, every browser path interleaved), driven in headless Chromium by the
// test harness. Validates the panel's JSON against the bench schema, adds the
// browser's full version (the user agent only carries the major one) and
// writes target/bench/browser.json.
//
// QRGLUE_BENCH_QUICK=1: the panel's quick mode (smoke run, few rounds).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateBrowserReport } from './bench-schema.mjs';
import { settingsFrom } from '../bench.js';
import { openPage, startBrowser } from './harness.mjs';

const QUICK = process.env.QRGLUE_BENCH_QUICK === '1';
const repo = new URL('../../../', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('tests/vectors/expected.json', repo), 'utf8'));
const settings = settingsFrom(JSON.parse(readFileSync(new URL('tests/bench/settings.json', repo), 'utf8')), QUICK);

const browser = await startBrowser();
let report;
try {
  const page = await openPage(browser.context, browser.baseUrl, '?text=bench');
  await page.setChecked('#bench-quick', QUICK);
  const started = Date.now();
  await page.click('#bench-run');
  await page.waitForFunction(() => ['done', 'error'].includes(document.documentElement.dataset.bench), null,
    { timeout: 20 * 60_000, polling: 500 });
  const status = await page.textContent('#bench-status');
  if ((await page.getAttribute('html', 'data-bench')) !== 'done') throw new Error(`the bench panel failed: ${status}`);
  report = JSON.parse(await page.textContent('#bench-json'));
  const paths = await page.$$eval('#path option', (options) => options.map((o) => o.value));
  validateBrowserReport(report, {
    paths,
    payloadSizes: settings.payloadSizes,
    rounds: settings.rounds,
    pngSha256: expected['ref-02'].png_sha256,
    pngBytes: expected['ref-02'].png_bytes,
  });
  if (page.problems.length) throw new Error(`the page reported problems: ${page.problems.join('; ')}`);
  report.browser_version = `Chromium ${browser.version}`;
  report.machine = report.machine.replace(/Chromium \(headless\) [\d.]+/, `Chromium ${browser.version} (headless)`);
  console.log(`${report.machine}\n${((Date.now() - started) / 1000).toFixed(1)} s in the page\n`);
} finally {
  await browser.close();
}

const outDir = new URL('target/bench/', repo);
mkdirSync(outDir, { recursive: true });
writeFileSync(new URL('browser.json', outDir), `${JSON.stringify(report, null, 2)}\n`);

const us = (ns) => (ns / 1000).toFixed(2).padStart(10);
console.log(`${'path'.padEnd(12)}${'op'.padEnd(12)}${'text/bytes'.padEnd(12)}${'median us'.padStart(10)}${'p10'.padStart(10)}${'p90'.padStart(10)}`);
for (const r of report.measurements) {
  console.log(`${r.path.padEnd(12)}${r.op.padEnd(12)}${String(r.text_id ?? r.bytes ?? '').padEnd(12)}${us(r.median_ns)}${us(r.p10_ns)}${us(r.p90_ns)}`);
}
console.log(`\nwrote ${fileURLToPath(new URL('browser.json', outDir))}`);
