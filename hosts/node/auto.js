// qrglue/auto: the API of 'qrglue' through the fastest path this install has.
// The native addon where one is installed for this platform (qrglue/native:
// the platform package npm picked from optionalDependencies, or the in-tree
// build), else the Component Model wasm path ('qrglue'), which needs nothing
// but the package itself. `path` says which was chosen. Only a missing addon
// (the Error with code QRGLUE_NO_ADDON) falls back: an addon that is there but
// fails to load throws, so a broken install is never silently slower.
async function choose() {
  try {
    return { path: 'native', api: await import('./native.js') };
  } catch (error) {
    if (error?.code !== 'QRGLUE_NO_ADDON') throw error;
    return { path: 'component', api: await import('./index.js') };
  }
}

const chosen = await choose();

/** The path this entry uses: 'native' (the addon) or 'component' (wasm). */
export const path = chosen.path;
export const { png, svg, matrix, text, pngDataUrl, svgDataUrl } = chosen.api;
export { QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES, isDark } from './lib/common.js';
