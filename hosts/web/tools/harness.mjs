// Drives the page in Debian's headless Chromium (playwright-core with
// executablePath, no downloaded browser): used by the browser tests and by the
// `browser` host of `just bench`.
//
// The flags keep Chromium off the network (this machine has none; without
// them it opens connections for updates, sync and safe browsing, refused many
// at a time) and use a fresh profile per launch.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';

export const CHROMIUM = process.env.QRGLUE_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox', // root in a container: the sandbox cannot start
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium with a fresh profile (removed by close()). Returns
 * { context (a playwright BrowserContext), close() }.
 */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), or set QRGLUE_CHROMIUM`);
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), 'qrglue-chromium-'));
  try {
    // launchPersistentContext is how playwright takes a user-data-dir.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 900 },
      acceptDownloads: true, // into a temporary folder playwright removes
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the static server on a free port and Chromium with a fresh profile.
 * Returns { baseUrl, context, version, close() }.
 */
export async function startBrowser() {
  const server = await startServer({ port: 0 });
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    server.close();
    throw error;
  }
  const version = browser.context.browser()?.version() ?? (await versionFromPage(browser.context, baseUrl));
  return {
    baseUrl,
    context: browser.context,
    version,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function versionFromPage(context, baseUrl) {
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}/hosts/web/index.html?text=version`);
    return await page.evaluate(() => /Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? navigator.userAgent);
  } finally {
    await page.close();
  }
}

/**
 * Opens the page at `query` (e.g. "?text=hello") and waits until the render of
 * the state it shows has finished ('ok' or 'error'). Collects console errors and
 * uncaught page errors in page.problems.
 */
export async function openPage(context, baseUrl, query = '') {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  // A blob: URL is the page's own object URL for a rendered image: a new render
  // revokes the last one, sometimes while the browser is still loading it (a
  // stale image, superseded; what the page shows is checked by the tests
  // themselves). Such a failure is not a broken resource; any other is.
  page.on('requestfailed', (request) => {
    if (!request.url().startsWith('blob:')) page.problems.push(`request failed: ${request.url()}`);
  });
  await page.goto(`${baseUrl}/${query}`);
  await waitForRender(page);
  return page;
}

/** Waits for the page's current render to finish. */
export async function waitForRender(page) {
  await page.waitForFunction(() => ['ok', 'error'].includes(document.documentElement.dataset.status), null, { timeout: 30_000 });
}
