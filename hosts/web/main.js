// The page: a text box and the options make a PNG (<img> from a Blob),
// an inline SVG and the code as text (half blocks) as the user types, through
// the chosen path; or, instead of the text, a binary payload: a chosen file's
// bytes (the *-bytes generators, any bytes). The state lives
// in the URL (?text=&ec-level=&min-size=&quiet-zone=&path=, and &scale=, &dark=,
// &light=, &version=, &min-version=, &mask=, &micro=true, &boost-ec=true, &eci=true, and
// the SVG's &view-box-only=true, &title=, &class= when given; a payload as
// &data-hex= in the place of text), so a link reproduces an image. Every failure is shown next to the input, never only in
// the console. The bench panel runs in a module worker (bench-worker.js).
import { DEFAULTS, EC_LEVELS, MAX_TEXT_BYTES } from '../node/lib/common.js';
import { PATH_NAMES, QrError, loadPath } from './paths.js';
import { benchTable, plotBench } from './plot.js';

const REFERENCE_URL = 'https://www.reddit.com/r/rustjerk/top/?t=all';
const DEFAULT_PATH = 'component';

const $ = (id) => document.getElementById(id);
const form = {
  text: $('text'), ecLevel: $('ec-level'), minSize: $('min-size'), quietZone: $('quiet-zone'),
  scale: $('scale'), dark: $('dark'), light: $('light'),
  version: $('version'), 'min-version': $('min-version'), mask: $('mask'), micro: $('micro'), 'boost-ec': $('boost-ec'),
  eci: $('eci'),
  'view-box-only': $('view-box-only'), title: $('title'), class: $('class'),
  path: $('path'),
};
// The options a field left empty (a box left unticked) means the default of:
// in the URL only when given, under their WIT names (the form's keys).
// The last three are the SVG's own (svg-options): applied to the SVG output alone.
const OPTIONAL_FIELDS = Object.freeze([
  'scale', 'dark', 'light', 'version', 'min-version', 'mask', 'micro', 'boost-ec', 'eci', 'view-box-only', 'title',
  'class',
]);
// The symbol options' three flags and the SVG's view-box-only: checkboxes, 'true' in the state when ticked.
const CHECKBOXES = Object.freeze(['micro', 'boost-ec', 'eci', 'view-box-only']);
const fieldValue = (name) => (CHECKBOXES.includes(name) ? (form[name].checked ? 'true' : '') : form[name].value);

for (const level of EC_LEVELS) form.ecLevel.add(new Option(level, level));
for (const name of PATH_NAMES) form.path.add(new Option(name, name));
form.minSize.placeholder = String(DEFAULTS.minSize);
form.quietZone.placeholder = String(DEFAULTS.quietZone);
form.scale.placeholder = 'none';
form.dark.placeholder = DEFAULTS.dark;
form.light.placeholder = DEFAULTS.light;
for (const name of ['version', 'min-version', 'mask']) form[name].placeholder = 'auto';
form.title.placeholder = 'none';
form.class.placeholder = 'none';

// --- the binary payload ------------------------------------------------------
// Instead of the text, a payload: the bytes of a chosen file (at most one
// byte more than any payload may have is read, so a bigger file is the
// glue's data-too-long without being read whole) or of the URL's data-hex.
// null when the text is the input; { bytes, label } otherwise, or { error }
// for a data-hex that is not hex.
let payload = null;

const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function payloadFromHex(hex) {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) {
    return { error: new TypeError(`data-hex must be hex digits, two a byte, got ${JSON.stringify(hex.slice(0, 40))}`) };
  }
  const bytes = Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  return { bytes, label: `${bytes.length} bytes from the URL` };
}

function showPayload() {
  const shown = $('payload');
  shown.hidden = payload === null;
  shown.textContent = payload === null ? '' : payload.label ?? 'data-hex: not hex';
  $('payload-clear').hidden = payload === null;
  form.text.classList.toggle('unused', payload !== null);
}

function usePayload(next) {
  payload = next;
  if (payload === null) $('data-file').value = '';
  showPayload();
  update();
}

$('data-file').addEventListener('change', async () => {
  const file = $('data-file').files[0];
  if (file === undefined) return;
  document.documentElement.dataset.status = 'busy'; // the render to wait for starts once the bytes are read
  const bytes = new Uint8Array(await file.slice(0, MAX_TEXT_BYTES + 1).arrayBuffer());
  usePayload({ bytes, label: `${file.name}: ${file.size} bytes` });
});
$('payload-clear').addEventListener('click', () => usePayload(null));
// Typing in the text box makes the text the input again.
form.text.addEventListener('input', () => {
  if (payload !== null) {
    payload = null;
    $('data-file').value = '';
    showPayload();
  }
});

// --- state <-> URL ---------------------------------------------------------
// URL parameter names are the WIT names; absent parameters take the defaults
// (text: the reference URL, so the first visit shows a code).
function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  return {
    dataHex: params.get('data-hex'),
    text: params.get('text') ?? REFERENCE_URL,
    ecLevel: params.get('ec-level') ?? DEFAULTS.ecLevel,
    minSize: params.get('min-size') ?? String(DEFAULTS.minSize),
    quietZone: params.get('quiet-zone') ?? String(DEFAULTS.quietZone),
    ...Object.fromEntries(OPTIONAL_FIELDS.map((name) => [name, params.get(name) ?? ''])),
    path: params.get('path') ?? DEFAULT_PATH,
  };
}

function stateFromForm() {
  return {
    text: form.text.value,
    ecLevel: form.ecLevel.value,
    minSize: form.minSize.value,
    quietZone: form.quietZone.value,
    ...Object.fromEntries(OPTIONAL_FIELDS.map((name) => [name, fieldValue(name)])),
    path: form.path.value,
  };
}

function showState(state) {
  form.text.value = state.text;
  payload = state.dataHex === null ? null : payloadFromHex(state.dataHex);
  showPayload();
  // A value the select does not offer (e.g. ?ec-level=ultra) stays visible as
  // an extra option, so the error shown below matches what the form says.
  for (const [select, value] of [[form.ecLevel, state.ecLevel], [form.path, state.path]]) {
    if (![...select.options].some((o) => o.value === value)) select.add(new Option(`${value} (?)`, value));
    select.value = value;
  }
  form.minSize.value = state.minSize;
  form.quietZone.value = state.quietZone;
  for (const name of OPTIONAL_FIELDS) {
    if (CHECKBOXES.includes(name)) form[name].checked = state[name] === 'true';
    else form[name].value = state[name];
  }
}

function writeUrl(state) {
  // A text with a lone surrogate has no UTF-8 form to put in a URL (it would
  // become U+FFFD), a payload too long to be a code is not worth spelling in
  // hex, and a data-hex that is not hex stays as it was: the URL keeps the
  // last state it can spell exactly.
  if (payload === null ? !state.text.isWellFormed() : payload.bytes === undefined || payload.bytes.length > MAX_TEXT_BYTES) return;
  const input = payload === null ? { text: state.text } : { 'data-hex': toHex(payload.bytes) };
  const params = new URLSearchParams({
    ...input, 'ec-level': state.ecLevel, 'min-size': state.minSize, 'quiet-zone': state.quietZone,
    ...Object.fromEntries(OPTIONAL_FIELDS.filter((name) => state[name] !== '').map((name) => [name, state[name]])),
    path: state.path,
  });
  const url = `${location.pathname}?${params}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

// A field's text as the option value the glue checks: numbers as numbers,
// empty as "use the default", anything else passed as typed so the error
// message quotes it.
function optionValue(field) {
  const trimmed = field.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : field;
}

// A colour field as typed (the glue reads and checks it); empty is the default.
function colourValue(field) {
  return field.trim() === '' ? undefined : field;
}

function optionsOf(state) {
  return {
    ecLevel: state.ecLevel, minSize: optionValue(state.minSize), quietZone: optionValue(state.quietZone),
    scale: optionValue(state.scale), dark: colourValue(state.dark), light: colourValue(state.light),
    micro: state.micro === 'true' || undefined, version: optionValue(state.version),
    minVersion: optionValue(state['min-version']), mask: optionValue(state.mask), boostEc: state['boost-ec'] === 'true' || undefined,
    eci: state.eci === 'true' || undefined,
  };
}

// svg()'s options: the others and the SVG's own, a field left empty none
// (a title or class as typed: the glue checks it, and the error quotes it).
function svgOptionsOf(state) {
  return {
    ...optionsOf(state), viewBoxOnly: state['view-box-only'] === 'true' || undefined,
    title: state.title === '' ? undefined : state.title, class: state.class === '' ? undefined : state.class,
  };
}

// --- paths -----------------------------------------------------------------
const loadedPaths = new Map(); // name -> Promise<api>
function pathApi(name) {
  if (!loadedPaths.has(name)) loadedPaths.set(name, loadPath(name));
  return loadedPaths.get(name);
}

// --- rendering -------------------------------------------------------------
let pngUrl = null;
let svgUrl = null;
let renderSerial = 0;

function setDownload(link, url) {
  if (url === null) {
    link.removeAttribute('href');
    link.setAttribute('aria-disabled', 'true');
  } else {
    link.href = url;
    link.setAttribute('aria-disabled', 'false');
  }
}

function showError(error) {
  const box = $('error');
  box.replaceChildren();
  if (error === null) {
    box.hidden = true;
    delete box.dataset.kind;
    return;
  }
  const kind = error instanceof QrError ? error.kind : error.name === 'GuestTrapError' ? 'guest-trap' : 'page-error';
  const label = document.createElement('span');
  label.className = 'kind';
  label.textContent = `${kind}: `;
  const message = document.createElement('span');
  message.className = 'message';
  message.textContent = error.message;
  box.append(label, message);
  box.dataset.kind = kind;
  box.hidden = false;
}

function clearOutputs() {
  $('outputs').classList.add('stale');
  for (const url of [pngUrl, svgUrl]) if (url !== null) URL.revokeObjectURL(url);
  pngUrl = svgUrl = null;
  $('png').removeAttribute('src');
  $('svg').replaceChildren();
  $('text-code').textContent = '';
  setDownload($('download-png'), null);
  setDownload($('download-svg'), null);
  $('png-caption').textContent = 'PNG';
  $('svg-caption').textContent = 'SVG';
  $('text-caption').textContent = 'Text';
}

async function render() {
  const serial = ++renderSerial;
  const state = stateFromForm();
  writeUrl(state);
  document.documentElement.dataset.status = 'busy';
  let api;
  try {
    api = await pathApi(state.path);
  } catch (error) {
    if (serial !== renderSerial) return;
    clearOutputs();
    showError(error);
    $('status').textContent = '';
    document.documentElement.dataset.status = 'error';
    return;
  }
  if (serial !== renderSerial) return; // the user typed on while the path loaded
  const options = optionsOf(state);
  let png;
  let svg;
  let drawn;
  const start = performance.now();
  try {
    if (payload?.error) throw payload.error;
    // The text, or the payload's bytes (the glue sends them to the *-bytes calls).
    const input = payload === null ? state.text : payload.bytes;
    png = api.png(input, options);
    svg = api.svg(input, svgOptionsOf(state));
    drawn = api.text(input, options);
  } catch (error) {
    clearOutputs();
    showError(error);
    $('status').textContent = '';
    document.documentElement.dataset.status = 'error';
    return;
  }
  const ms = performance.now() - start;
  showError(null);
  clearOutputs();
  pngUrl = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
  svgUrl = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const img = $('png');
  img.alt = payload === null ? `QR code for ${state.text}` : `QR code for ${payload.bytes.length} bytes`;
  const loaded = new Promise((resolve) => { img.onload = img.onerror = resolve; });
  img.src = pngUrl;
  // Parsed as XML (not innerHTML): the guest's SVG is a document of its own.
  const svgElement = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  $('svg').append(document.importNode(svgElement, true));
  $('text-code').textContent = drawn;
  setDownload($('download-png'), pngUrl);
  setDownload($('download-svg'), svgUrl);
  await loaded;
  if (serial !== renderSerial) return;
  $('outputs').classList.remove('stale');
  $('png-caption').textContent = `PNG, ${png.length} bytes, ${img.naturalWidth}×${img.naturalHeight} px`;
  $('svg-caption').textContent = `SVG, ${new TextEncoder().encode(svg).length} bytes`;
  $('text-caption').textContent = `Text (half blocks), ${drawn.split('\n').length - 1} lines`;
  $('status').textContent = `${state.path} path: png + svg + text in ${ms.toFixed(2)} ms`;
  document.documentElement.dataset.status = 'ok';
}

// Any failure render() did not foresee is still shown in the page.
function update() {
  render().catch((error) => {
    clearOutputs();
    showError(error);
    document.documentElement.dataset.status = 'error';
  });
}
for (const field of Object.values(form)) {
  field.addEventListener('input', update);
  field.addEventListener('change', update);
}
$('form').addEventListener('submit', (event) => event.preventDefault());

// --- bench panel -------------------------------------------------------------
const isolation = $('isolation');
isolation.textContent = crossOriginIsolated
  ? 'cross-origin isolated: yes (performance.now() has fine resolution)'
  : 'cross-origin isolated: no (performance.now() is coarse, ~100 µs; serve with COOP/COEP, `just web`)';
isolation.className = crossOriginIsolated ? 'yes' : 'no';

let benchJsonUrl = null;
$('bench-run').addEventListener('click', () => {
  const button = $('bench-run');
  const progress = $('bench-progress');
  const status = $('bench-status');
  button.disabled = true;
  progress.hidden = false;
  progress.value = 0;
  status.textContent = 'starting the worker…';
  document.documentElement.dataset.bench = 'running';
  const worker = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
  const finish = (state) => {
    worker.terminate();
    button.disabled = false;
    progress.hidden = true;
    document.documentElement.dataset.bench = state;
  };
  worker.onmessage = ({ data }) => {
    if (data.type === 'progress') {
      progress.value = data.done / data.total;
      status.textContent = `${data.phase}: ${data.done} of ${data.total} windows`;
    } else if (data.type === 'skipped') {
      status.textContent = `path ${data.path} left out: ${data.message}`;
    } else if (data.type === 'done') {
      showBench(data.report, data.skipped);
      finish('done');
    } else if (data.type === 'error') {
      status.textContent = `benchmark failed: ${data.message}`;
      finish('error');
    }
  };
  worker.onerror = (event) => {
    status.textContent = `benchmark failed: ${event.message || 'the worker could not start'}`;
    finish('error');
  };
  worker.postMessage({ quick: $('bench-quick').checked });
});

function showBench(report, skipped) {
  const json = `${JSON.stringify(report, null, 2)}\n`;
  $('bench-json').textContent = json;
  $('bench-json-details').hidden = false;
  if (benchJsonUrl !== null) URL.revokeObjectURL(benchJsonUrl);
  benchJsonUrl = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const download = $('bench-download');
  download.hidden = false;
  setDownload(download, benchJsonUrl);
  $('bench-plot').replaceChildren(plotBench(report.measurements));
  const table = $('bench-table');
  table.replaceChildren(...benchTable(report.measurements));
  table.hidden = false;
  const left = skipped.length ? `; left out: ${skipped.map((s) => `${s.path} (${s.message})`).join(', ')}` : '';
  $('bench-status').textContent = `${report.measurements.length} series, ${report.machine}${left}`;
}

// --- start -------------------------------------------------------------------
showState(stateFromUrl());
update();
