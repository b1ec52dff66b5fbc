// The page: a text box and the options make a PNG (<img> from a Blob),
// an inline SVG and the code as text (half blocks) as the user types, through
// the chosen path; or, instead of the text, a binary payload: a chosen file's
// bytes (the *-bytes generators, any bytes). The form has one field per option
// of the contract's table (lib/options.js), and the state lives in the URL under
// the options' WIT names (?text=&ec-level=&min-size=&quiet-zone=&path=, the
// other options when given, a box as =true; a payload as &data-hex= in the place
// of text), so a link reproduces an image. Every failure is shown next to the input, never only in
// the console. The bench panel runs in a module worker (bench-worker.js).
import { DEFAULTS, EC_LEVELS, MAX_TEXT_BYTES } from '../node/lib/common.js';
import { OPTION_FIELDS, SVG_OPTION_FIELDS } from '../node/lib/options.js';
import { PATH_NAMES, QrError, loadPath } from './paths.js';
import { benchTable, plotBench } from './plot.js';

const REFERENCE_URL = 'https://www.reddit.com/r/rustjerk/top/?t=all';
const DEFAULT_PATH = 'component';

const $ = (id) => document.getElementById(id);

// Every option of the table, in check order: WIT `options`, `symbol-options`,
// then svg()'s own (applied to the SVG output alone). Each gets a field whose
// id is its WIT name, built here so that a new option needs no line in the page.
const FIELDS = Object.freeze([...OPTION_FIELDS, ...SVG_OPTION_FIELDS.map((f) => ({ ...f, svg: true }))]);
// Pre-filled with its default and always in the URL: a plain number or the
// level. The others (none, a box, a colour) are empty when not given.
const isFilled = (f) => f.type === 'ec-level' || f.type === 'u32';
const optionsBox = $('options');
for (const f of FIELDS) {
  const row = document.createElement('div');
  const label = document.createElement('label');
  label.htmlFor = f.wit;
  label.textContent = f.svg ? `SVG: ${f.wit}` : f.wit;
  const input = document.createElement(f.type === 'ec-level' ? 'select' : 'input');
  input.id = input.name = f.wit;
  if (f.type === 'ec-level') {
    for (const level of EC_LEVELS) input.add(new Option(level, level));
  } else if (f.type === 'bool') {
    input.type = 'checkbox';
  } else {
    input.type = 'text';
    if (f.type === 'u32' || f.type === 'option-u32') input.inputMode = 'numeric';
    else input.spellcheck = false;
    const fallback = DEFAULTS[f.name];
    // none: the symbol's numbers are the encoder's choice, the others absent.
    input.placeholder = fallback === undefined ? (f.symbol ? 'auto' : 'none') : String(fallback);
  }
  if (f.bounds !== null && f.type !== 'option-string') input.title = `${f.bounds[0]}..=${f.bounds[1]}`;
  row.append(label, input);
  optionsBox.insertBefore(row, $('path').parentElement);
}
const form = { text: $('text'), path: $('path'), ...Object.fromEntries(FIELDS.map((f) => [f.wit, $(f.wit)])) };
const fieldValue = (f) => (f.type === 'bool' ? (form[f.wit].checked ? 'true' : '') : form[f.wit].value);
for (const name of PATH_NAMES) form.path.add(new Option(name, name));

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
  const given = (f) => params.get(f.wit) ?? (isFilled(f) ? String(DEFAULTS[f.name]) : '');
  return {
    dataHex: params.get('data-hex'),
    text: params.get('text') ?? REFERENCE_URL,
    ...Object.fromEntries(FIELDS.map((f) => [f.wit, given(f)])),
    path: params.get('path') ?? DEFAULT_PATH,
  };
}

function stateFromForm() {
  return { text: form.text.value, ...Object.fromEntries(FIELDS.map((f) => [f.wit, fieldValue(f)])), path: form.path.value };
}

function showState(state) {
  form.text.value = state.text;
  payload = state.dataHex === null ? null : payloadFromHex(state.dataHex);
  showPayload();
  // A value the select does not offer (e.g. ?ec-level=ultra) stays visible as
  // an extra option, so the error shown below matches what the form says.
  for (const select of [...FIELDS.filter((f) => f.type === 'ec-level').map((f) => form[f.wit]), form.path]) {
    const value = state[select.id];
    if (![...select.options].some((o) => o.value === value)) select.add(new Option(`${value} (?)`, value));
    select.value = value;
  }
  for (const f of FIELDS) {
    if (f.type === 'bool') form[f.wit].checked = state[f.wit] === 'true';
    else if (f.type !== 'ec-level') form[f.wit].value = state[f.wit];
  }
}

function writeUrl(state) {
  // A text with a lone surrogate has no UTF-8 form to put in a URL (it would
  // become U+FFFD), a payload too long to be a code is not worth spelling in
  // hex, and a data-hex that is not hex stays as it was: the URL keeps the
  // last state it can spell exactly.
  if (payload === null ? !state.text.isWellFormed() : payload.bytes === undefined || payload.bytes.length > MAX_TEXT_BYTES) return;
  const input = payload === null ? { text: state.text } : { 'data-hex': toHex(payload.bytes) };
  // The pre-filled options always, then the others when given, each in table order.
  const shown = [...FIELDS.filter(isFilled), ...FIELDS.filter((f) => !isFilled(f) && state[f.wit] !== '')];
  const params = new URLSearchParams({ ...input, ...Object.fromEntries(shown.map((f) => [f.wit, state[f.wit]])), path: state.path });
  const url = `${location.pathname}?${params}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

// A field's text as the option value the glue checks: numbers as numbers,
// empty as "use the default", anything else passed as typed so the error
// message quotes it. A colour, title or class as typed (the glue checks it,
// and the error quotes it); a box ticked is true, else the default.
function optionValue(f, field) {
  if (f.type === 'bool') return field === 'true' || undefined;
  if (f.type === 'ec-level') return field;
  if (f.type === 'rgba') return field.trim() === '' ? undefined : field;
  if (f.type === 'option-string') return field === '' ? undefined : field;
  const trimmed = field.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : field;
}

const optionsFrom = (fields, state) => Object.fromEntries(fields.map((f) => [f.name, optionValue(f, state[f.wit])]));
const optionsOf = (state) => optionsFrom(OPTION_FIELDS, state);
// svg()'s options: the others and the SVG's own.
const svgOptionsOf = (state) => optionsFrom(FIELDS, state);

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
