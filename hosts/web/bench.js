// The browser's bridge benchmark: the series `just bench` measures on every
// host (tests/bench/README.md), for each path loaded in this browser, in one
// thread (the bench worker), interleaved.
//
// Method: each measurement's batch size is doubled until one window (a batch
// of calls between two performance.now() reads) lasts at least WINDOW_MS, so
// the timer's resolution (5 us cross-origin isolated, 100 us otherwise) is at
// most 0.5 % of a window. One sample = window time / calls. Each round runs
// every measurement once, the paths of one (op, text, bytes) back to back in
// an order that rotates per round. Reported: median, p10, p90 over rounds.

export const REFERENCE = Object.freeze({ id: 'ref-02', text: 'https://www.reddit.com/r/rustjerk/top/?t=all' });
export const WINDOW_MS = 20;
const MAX_BATCH = 1 << 22;
/** The benchmark's settings for every host, served beside the page (serve.mjs). */
export const SETTINGS_URL = new URL('../../tests/bench/settings.json', import.meta.url);

/**
 * This host's settings from tests/bench/settings.json (`all`, its parsed
 * content): the mode's shared values with the "browser" overrides on top.
 */
export function settingsFrom(all, quick) {
  const mode = quick ? 'quick' : 'full';
  const s = { ...all[mode], ...all.hosts?.browser?.[mode] };
  return { quick, rounds: s.rounds, warmupRounds: s.warmup_rounds, payloadSizes: s.payload_sizes, pngRepeatTimes: s.png_repeat_times };
}

export async function settings(quick) {
  const response = await fetch(SETTINGS_URL);
  if (!response.ok) throw new Error(`bench settings: ${SETTINGS_URL} answered ${response.status}`);
  return settingsFrom(await response.json(), quick);
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The measurements for the given loaded paths (`[{ name, png, probe }]`).
 * Checks every result once before timing it (a wrong answer fails the run).
 */
export async function buildMeasurements(apis, { payloadSizes, pngRepeatTimes }) {
  const measurements = [];
  const measure = (path, op, textId, bytes, run, { perCall = 1, output = null } = {}) => {
    measurements.push({ path, op, text_id: textId, bytes, run, perCall, output, batch: 1, samples: [] });
  };
  const { id, text } = REFERENCE;
  for (const api of apis) {
    const png = api.png(text);
    measure(api.name, 'png', id, null, () => api.png(text), { output: { output_bytes: png.length, sha256: await sha256Hex(png) } });
  }
  for (const api of apis) {
    const length = api.probe.pngRepeat(text, undefined, 1);
    measure(api.name, 'png-repeat', id, null, () => api.probe.pngRepeat(text, undefined, pngRepeatTimes),
      { perCall: pngRepeatTimes, output: { output_bytes: length, sha256: null } });
  }
  for (const api of apis) measure(api.name, 'noop', null, null, () => api.probe.noop());
  for (const size of payloadSizes) {
    const data = new Uint8Array(size).map((_, i) => i % 251);
    for (const api of apis) {
      const consumed = api.probe.consume(data);
      if (consumed !== size) throw new Error(`${api.name}: consume(${size} bytes) returned ${consumed}`);
      measure(api.name, 'consume', null, size, () => api.probe.consume(data));
    }
    for (const api of apis) {
      const produced = api.probe.produce(size).length;
      if (produced !== size) throw new Error(`${api.name}: produce(${size}) returned ${produced} bytes`);
      measure(api.name, 'produce', null, size, () => api.probe.produce(size));
    }
  }
  return measurements;
}

function timeWindow(m) {
  const { run, batch } = m;
  const start = performance.now();
  for (let i = 0; i < batch; i++) run();
  return performance.now() - start;
}

function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Runs the measurements; `onProgress({ phase, done, total })` after each
 * window. Returns the bench schema's measurement rows.
 */
export function runMeasurements(measurements, { rounds, warmupRounds }, onProgress = () => {}) {
  const groups = new Map();
  for (const m of measurements) {
    const key = `${m.op}|${m.text_id}|${m.bytes}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const total = measurements.length * (1 + warmupRounds + rounds);
  let done = 0;
  const tick = (phase) => onProgress({ phase, done: ++done, total });

  // Batch sizing: double until one window lasts WINDOW_MS.
  for (const m of measurements) {
    while (timeWindow(m) < WINDOW_MS && m.batch < MAX_BATCH) m.batch *= 2;
    tick('sizing batches');
  }
  const runRounds = (count, record, phase) => {
    for (let round = 0; round < count; round++) {
      for (const group of groups.values()) {
        for (let k = 0; k < group.length; k++) {
          const m = group[(k + round) % group.length]; // rotate which path goes first
          const ms = timeWindow(m);
          if (record) m.samples.push((ms * 1e6) / (m.batch * m.perCall));
          // The JIT may speed a series up after sizing: keep windows >= WINDOW_MS.
          if (ms < WINDOW_MS && m.batch < MAX_BATCH) m.batch *= 2;
          tick(phase);
        }
      }
    }
  };
  runRounds(warmupRounds, false, 'warm-up');
  runRounds(rounds, true, 'measuring');

  return measurements.map((m) => {
    const sorted = [...m.samples].sort((a, b) => a - b);
    return {
      path: m.path, op: m.op, text_id: m.text_id, bytes: m.bytes,
      median_ns: quantile(sorted, 0.5), p10_ns: quantile(sorted, 0.1), p90_ns: quantile(sorted, 0.9),
      samples: sorted.length,
      output_bytes: m.output?.output_bytes ?? null, sha256: m.output?.sha256 ?? null,
    };
  });
}

/** The smallest step performance.now() takes here, in microseconds. */
export function timerResolutionUs() {
  let smallest = Infinity;
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    smallest = Math.min(smallest, b - a);
  }
  return smallest * 1000;
}

/** "Chromium 156.0.8078.79" style name of this browser, from the user agent. */
export function browserName(userAgent) {
  const match = /(HeadlessChrome|Chrome|Firefox|Version)\/([\d.]+)/.exec(userAgent);
  if (match === null) return userAgent;
  const name = { HeadlessChrome: 'Chromium (headless)', Chrome: 'Chromium', Version: 'Safari' }[match[1]] ?? match[1];
  return `${name} ${match[2]}`;
}
