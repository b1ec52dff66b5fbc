// Module worker for the bench panel: loads every path in this worker (its own
// instances, away from the page's), runs bench.js's series and posts the
// result in the bench schema (tests/bench/README.md) with host "browser".
//
// In:  { quick: boolean }
// Out: { type: 'progress', phase, done, total } ... then
//      { type: 'done', report, skipped } or { type: 'error', message }.
import { PATH_NAMES, loadPath } from './paths.js';
import { browserName, buildMeasurements, runMeasurements, settings, timerResolutionUs } from './bench.js';

self.onmessage = async ({ data }) => {
  try {
    const config = await settings(Boolean(data?.quick));
    const apis = [];
    const skipped = [];
    for (const name of PATH_NAMES) {
      try {
        apis.push(await loadPath(name));
      } catch (error) {
        // A path that is not built is left out and named, not silently dropped.
        skipped.push({ path: name, message: error.message });
        self.postMessage({ type: 'skipped', path: name, message: error.message });
      }
    }
    if (apis.length === 0) throw new Error('no path could be loaded');
    const measurements = await buildMeasurements(apis, config);
    const rows = runMeasurements(measurements, config, (progress) => {
      // One message per window is cheap next to a 20 ms window.
      self.postMessage({ type: 'progress', ...progress });
    });
    const resolution = timerResolutionUs();
    const report = {
      host: 'browser',
      machine: `${navigator.hardwareConcurrency} cores; ${browserName(navigator.userAgent)}, ${navigator.platform}; ` +
        `cross-origin isolated: ${self.crossOriginIsolated ? 'yes' : 'no'}, timer step ${resolution.toFixed(1)} us` +
        `${config.quick ? '; QUICK smoke run, not for comparison' : ''}`,
      quick: config.quick,
      user_agent: navigator.userAgent,
      cross_origin_isolated: self.crossOriginIsolated,
      timer_resolution_us: resolution,
      measurements: rows,
    };
    self.postMessage({ type: 'done', report, skipped });
  } catch (error) {
    self.postMessage({ type: 'error', message: error?.message ?? String(error) });
  }
};
