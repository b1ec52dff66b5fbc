// The measuring calls of the wasm paths, for the bench and the tests, which
// import this file by path: not in the npm package, not an API for users: `trap` replaces the instance, `produce` over 16 MiB
// traps on the component and bindgen paths and is invalid-options on the raw
// path.
export { probe as component } from './lib/component.js';
export { probe as raw } from './lib/raw.js';
export { probe as bindgen } from './lib/bindgen.js';
// Each path's glue is initialised by its Node entry, which reads the .wasm.
import './index.js';
import './raw.js';
import './bindgen.js';
