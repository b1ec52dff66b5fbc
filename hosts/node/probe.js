// qrglue/probe: the measuring calls of both paths, for benchmarks and tests.
// Not an API for users: `trap` replaces the instance, `produce` over 16 MiB
// traps on the component path and is invalid-options on the raw path.
export { probe as component } from './lib/component.js';
export { probe as raw } from './lib/raw.js';
