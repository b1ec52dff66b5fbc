// The native path: qrglue-core compiled for this machine as a Node-API addon
// (hosts/node/native, napi-rs), loaded in-process. No wasm: the text crosses
// as a JS string read by the addon, the PNG comes back as a Uint8Array whose
// bytes Rust allocated (moved, not copied). This file adds what the other
// paths add: the host-side checks of common.js (run before the addon sees the
// text, so the contract's order holds), and the mapping of the addon's errors
// (a JS Error whose `code` is the WIT kind) to QrError.
//
// Where the addon comes from (napi-rs's layout, hosts/node/README.md
// "Installing"): first the platform package of this process's triple
// (qrglue-linux-x64-gnu, ...: an optionalDependency of the published package,
// so npm installs only the one whose os/cpu/libc match), then the in-tree
// build of the repository (`just build-node`). Where neither is there, this
// module still loads (so that 'qrglue/auto' can import it statically, with no
// top-level await, and stay loadable by require()), and LOAD_ERROR holds an
// Error saying how to get one (code QRGLUE_NO_ADDON): the 'qrglue/native'
// entry throws it on import, 'qrglue/auto' takes it as its cue for wasm.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { QrError, ERROR_KINDS, checkCount, dataUrlHelpers, flatGenerators } from './common.js';
import './node-base64.js';

/** `<platform>-<arch>` of this process, as in the in-tree addon's file name. */
export const PLATFORM = `${process.platform}-${process.arch}`;
/** Where `just build-node` puts the addon for this platform. */
export const ADDON_PATH = fileURLToPath(new URL(`../native/qrglue.${PLATFORM}.node`, import.meta.url));

// glibc or musl, as napi-rs's generated loader tells them: ldd's text first, then the process report.
function isMusl() {
  try {
    return readFileSync('/usr/bin/ldd', 'utf8').includes('musl');
  } catch {
    return !process.report?.getReport?.()?.header?.glibcVersionRuntime;
  }
}

/** napi-rs's name for this platform (its `platformArchABI`): linux-x64-gnu, darwin-arm64, win32-x64-msvc, ... */
export const TRIPLE = (() => {
  const { platform, arch } = process;
  if (platform === 'linux') {
    const musl = isMusl();
    return `linux-${arch}-${arch === 'arm' ? (musl ? 'musleabihf' : 'gnueabihf') : (musl ? 'musl' : 'gnu')}`;
  }
  if (platform === 'win32') return `win32-${arch}-msvc`;
  if (platform === 'android' && arch === 'arm') return 'android-arm-eabi';
  return `${platform}-${arch}`;
})();
/** The npm package that carries the addon for this platform (package.json "optionalDependencies"). */
export const PLATFORM_PACKAGE = `qrglue-${TRIPLE}`;

const require = createRequire(import.meta.url);

function platformPackagePath() {
  try {
    return require.resolve(PLATFORM_PACKAGE);
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
}

// -> { addon, path }, or { error } when no addon is installed. A platform
// package that is there but fails to load (a broken install) throws as it is.
function loadAddon() {
  const path = platformPackagePath() ?? (existsSync(ADDON_PATH) ? ADDON_PATH : null);
  if (path === null) {
    const error = new Error(`qrglue/native: no native addon for ${PLATFORM} (neither the package ` +
      `${PLATFORM_PACKAGE} nor ${ADDON_PATH}). npm installs ${PLATFORM_PACKAGE} with qrglue where it is ` +
      'published for this platform; in the qrglue repository, run `just build-node`, or ' +
      '`cargo build --locked --profile addon -p qrglue-node-native` and copy ' +
      `target/addon/libqrglue_node_native.so (.dylib on macOS) to ${ADDON_PATH}. ` +
      "The wasm paths ('qrglue', 'qrglue/raw', and 'qrglue/auto', which falls back to them) need no addon.");
    error.code = 'QRGLUE_NO_ADDON';
    return { error };
  }
  return { addon: require(path), path };
}

const loaded = loadAddon();
/** Null, or the Error (code QRGLUE_NO_ADDON) that says no addon is installed and how to get one. */
export const LOAD_ERROR = loaded.error ?? null;
/** The file the addon was loaded from: the platform package's, or the in-tree build (null without one). */
export const LOADED_FROM = loaded.path ?? null;
const addon = loaded.addon ?? null;
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

// png, svg, matrix and text as on the bindgen path (common.js
// flatGenerators): a text is read from the JS string, a payload's bytes in
// place (no copy).
// Without an addon the functions throw LOAD_ERROR (only reached by importing
// this file directly: the entries never hand them out then).
const generators = addon === null ? missingAddon() : flatGenerators(addon, nativeCall);

function missingAddon() {
  const fail = () => { throw LOAD_ERROR; };
  return { png: fail, svg: fail, matrix: fail, text: fail, pngRepeat: fail };
}

export const { png, svg, matrix, text } = generators;

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
  pngRepeat: generators.pngRepeat,
  panic: () => addon.panic(),
});
