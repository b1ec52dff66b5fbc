// The native path: qrglue-core compiled for this machine as a Node-API addon
// (hosts/node/native, napi-rs), loaded in-process. No wasm: the text crosses
// as a JS string read by the addon, the PNG comes back as a Uint8Array whose
// bytes Rust allocated (moved, not copied). This file adds what the other
// paths add: the host-side checks of common.js (run before the addon sees the
// text, so the contract's order holds), and the mapping of the addon's errors
// (a JS Error whose `code` is the WIT kind) to QrError.
//
// The addon is a platform binary built from the repository (`just
// build-node`), never shipped in the npm package: where it is absent, loading
// this module throws an Error that says how to build it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  QrError, ERROR_KINDS, checkCount, checkText, dataUrlHelpers, matrixFromPayload, resolveOptions, resolveTextOptions,
} from './common.js';

/** `<platform>-<arch>` of this process, as in the addon's file name. */
export const PLATFORM = `${process.platform}-${process.arch}`;
/** Where `just build-node` puts the addon for this platform. */
export const ADDON_PATH = fileURLToPath(new URL(`../native/qrglue.${PLATFORM}.node`, import.meta.url));

function loadAddon() {
  if (!existsSync(ADDON_PATH)) {
    throw new Error(`qrglue/native: no native addon for ${PLATFORM} (looked for ${ADDON_PATH}). ` +
      'It is built from the qrglue repository, not shipped in the package: run `just build-node`, or ' +
      '`cargo build --locked --profile addon -p qrglue-node-native` and copy ' +
      `target/addon/libqrglue_node_native.so (.dylib on macOS) to ${ADDON_PATH}. ` +
      "The wasm paths ('qrglue', 'qrglue/raw') need no build.");
  }
  return createRequire(import.meta.url)(ADDON_PATH);
}

const addon = loadAddon();
const QR_ERROR_KINDS = new Set(ERROR_KINDS);

// Runs one addon call; an error whose code is a WIT kind becomes QrError with
// the core's message. Anything else (a Rust panic, caught by the addon and
// thrown as an Error with code 'GenericFailure') passes through unchanged.
function nativeCall(call) {
  try {
    return call();
  } catch (error) {
    if (QR_ERROR_KINDS.has(error?.code)) throw new QrError(error.code, error.message);
    throw error;
  }
}

// Text and options checked and resolved as on every path, then passed flat:
// the addon takes the EC level as its WIT index.
function callWithText(exportFn, text, options, ...extra) {
  checkText(text);
  return callResolved(exportFn, text, resolveOptions(text, options, validate(text)), ...extra);
}

// scale: a number or undefined (WIT's none); colours as 0xRRGGBBAA.
function callResolved(exportFn, text, { ecIndex, minSize, quietZone, scale, dark, light }, ...extra) {
  return nativeCall(() => exportFn(text, ecIndex, minSize, quietZone, scale, dark, light, ...extra));
}

// Checks text and options and renders nothing (pngRepeat zero times): what
// common.js runs before it reports a problem only the host sees.
const validate = (text) => (resolved) => callResolved(addon.pngRepeat, text, resolved, 0);

export function png(text, options) {
  return callWithText(addon.png, text, options);
}

export function svg(text, options) {
  return callWithText(addon.svg, text, options);
}

export function matrix(text, options) {
  // One array out: the width as a little-endian u32, then the packed modules.
  return matrixFromPayload(callWithText(addon.matrix, text, options));
}

export function text(text, options) {
  checkText(text);
  const resolved = resolveTextOptions(text, options, validate(text));
  return callResolved(addon.text, text, resolved, resolved.styleIndex);
}

export const { pngDataUrl, svgDataUrl } = dataUrlHelpers(png, svg);

/**
 * Probes of the native path (for benchmarks and tests, not for users). There
 * is no guest memory, so no memoryPages/memoryBytes, and nothing to trap:
 * `panic` panics inside Rust instead.
 */
export const probe = Object.freeze({
  path: 'native',
  noop: () => addon.noop(),
  consume: (data) => nativeCall(() => addon.consume(data)),
  produce: (len) => nativeCall(() => addon.produce(checkCount('len', len))),
  pngRepeat: (text, options, times) => callWithText(addon.pngRepeat, text, options, checkCount('times', times)),
  panic: () => addon.panic(),
});
