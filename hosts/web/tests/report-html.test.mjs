// target/bench/report.html as a person sees it: tests/bench/report.py writes
// the page of a fixed report (tests/bench/fixtures/report.json, a quick run's,
// so the test needs no bench run) and Debian's headless Chromium opens it
// from a file. The page must load nothing (no request but its own document),
// log no console error, give every host a decision table, draw each chart's
// title and axis labels as text, and no two pieces of text may overlap,
// neither inside a chart nor between the page's blocks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../tools/harness.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = process.env.QRGLUE_REPORT_PYTHON ?? path.join(repo, 'target/report-venv/bin/python');
const FIXTURE = path.join(repo, 'tests/bench/fixtures/report.json');

let browser;
let dir;
let seen; // what the page did and drew, read once

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qrglue-report-html-'));
  const out = path.join(dir, 'report.html');
  execFileSync(PYTHON, [path.join(repo, 'tests/bench/report.py'), '--html', FIXTURE, out], { stdio: 'inherit' });
  browser = await launchChromium();
  const page = await browser.context.newPage();
  const requests = [];
  const consoleErrors = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  const url = pathToFileURL(out).href;
  await page.goto(url, { waitUntil: 'load' });
  seen = await page.evaluate(() => {
    const box = (element) => {
      const r = element.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return {
      decisions: [...document.querySelectorAll('#decision .host')].map((section) => ({
        host: section.querySelector('h3').textContent,
        pick: section.querySelector('p.pick').textContent,
        rows: section.querySelectorAll('tr').length - 1,
      })),
      charts: [...document.querySelectorAll('figure.chart')].map((figure) => ({
        required: JSON.parse(figure.dataset.texts),
        texts: [...figure.querySelectorAll('svg text')]
          .map((t) => ({ text: t.textContent.trim(), ...box(t) }))
          .filter((b) => b.text !== '' && b.right > b.left && b.bottom > b.top),
      })),
      blocks: [...document.body.children].map((element) => ({ text: element.tagName + ': ' + element.textContent.slice(0, 40), ...box(element) })),
    };
  });
  seen.requests = requests.filter((r) => r !== url);
  seen.consoleErrors = consoleErrors;
  await page.close();
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function overlaps(boxes, slack = 0.5) {
  const found = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > slack && y > slack) found.push(`"${a.text}" and "${b.text}" (${x.toFixed(1)} x ${y.toFixed(1)} px)`);
    }
  }
  return found;
}

test('report.html loads nothing from the network and logs no console error', () => {
  assert.deepEqual(seen.requests, []);
  assert.deepEqual(seen.consoleErrors, []);
});

test('report.html opens with a decision table per host language of the report', () => {
  const report = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const names = { rust: 'Rust', node: 'Node', python: 'Python', go: 'Go', java: 'Java', browser: 'Browser' };
  const hosts = [...new Set(report.png.filter((r) => !r.peer).map((r) => names[r.host]))];
  assert.deepEqual(seen.decisions.map((d) => d.host).sort(), hosts.sort());
  for (const d of seen.decisions) {
    assert.match(d.pick, /^Pick |^The native call/, `${d.host}: no recommendation sentence`);
    assert.ok(d.rows >= 1, `${d.host}: an empty table`);
  }
});

test('every chart draws its title and axis labels as text', () => {
  assert.ok(seen.charts.length >= 8, `only ${seen.charts.length} charts`);
  for (const chart of seen.charts) {
    assert.ok(chart.required.length >= 3, 'a chart without a title and axis labels');
    const drawn = new Set(chart.texts.map((t) => t.text));
    for (const text of chart.required) assert.ok(drawn.has(text), `"${text}" is not drawn in its chart`);
  }
});

test('no two pieces of text overlap, in any chart or between the page\'s blocks', () => {
  const found = seen.charts.flatMap((chart) => overlaps(chart.texts));
  found.push(...overlaps(seen.blocks));
  assert.deepEqual(found.slice(0, 20), [], `${found.length} overlapping pairs`);
});
