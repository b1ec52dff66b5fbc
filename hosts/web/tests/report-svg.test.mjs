// target/bench/report.svg as a person sees it: tests/bench/report.py draws the
// chart of a fixed report (tests/bench/fixtures/report.json, from a quick
// bench run, so the test needs no bench run), Debian's headless Chromium
// renders it, and no two pieces of text may overlap (labels, titles, ticks,
// legends): the old chart's two-line labels on one-line rows did. Also: one
// panel per experiment, and every row's label present as text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tools/harness.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = process.env.QRGLUE_REPORT_PYTHON ?? path.join(repo, 'target/report-venv/bin/python');
const FIXTURE = path.join(repo, 'tests/bench/fixtures/report.json');
// The chart to check: normally drawn here from the fixture; QRGLUE_REPORT_SVG
// checks another file instead (how the old chart was shown to fail).
const GIVEN_SVG = process.env.QRGLUE_REPORT_SVG;

let browser;
let dir;
let svg;
let boxes;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qrglue-report-'));
  const out = GIVEN_SVG ?? path.join(dir, 'report.svg');
  if (!GIVEN_SVG) {
    execFileSync(PYTHON, [path.join(repo, 'tests/bench/report.py'), '--chart', FIXTURE, out], { stdio: 'inherit' });
  }
  svg = readFileSync(out, 'utf8');
  browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
  // Every <text>'s box as drawn (after transforms), with its string.
  boxes = await page.evaluate(() => [...document.querySelectorAll('svg text')]
    .map((element) => {
      const r = element.getBoundingClientRect();
      return { text: element.textContent.trim(), left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    })
    .filter((b) => b.text !== '' && b.right > b.left && b.bottom > b.top));
  await page.close();
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('report.svg keeps its text as text, and has every row of the report labelled', () => {
  assert.ok(boxes.length > 20, `only ${boxes.length} text elements: is svg.fonttype 'none'?`);
  const report = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const shown = new Set(boxes.map((b) => b.text));
  for (const row of report.http.rows) {
    assert.ok(shown.has(`${row.host} · ${row.tier}`), `no label for server row ${row.host} · ${row.tier}`);
  }
  for (const row of report.png) {
    assert.ok([...shown].some((t) => t.startsWith(`${row.host} · `)), `no label for png row ${row.host}`);
  }
});

test('report.svg has one panel per experiment: in-process png, browser, lowering, lifting, servers', () => {
  for (const title of ['in process', 'in the browser', '(consume)', '(produce)', 'the server experiment']) {
    assert.ok(boxes.some((b) => b.text.includes(title)), `no panel titled …${title}…`);
  }
});

test('no two pieces of text in report.svg overlap, rendered in Chromium', () => {
  const overlaps = [];
  const slack = 0.5; // px: anti-aliased edges may touch
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > slack && y > slack) overlaps.push(`"${a.text}" and "${b.text}" (${x.toFixed(1)} x ${y.toFixed(1)} px)`);
    }
  }
  assert.deepEqual(overlaps.slice(0, 20), [], `${overlaps.length} overlapping pairs`);
});
