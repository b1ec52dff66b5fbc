// Type-only checks of 'qrglue/auto' (run by `just lint` with typecheck/entries.ts):
// its .d.ts against the declarations tsc infers from auto.js, and its API
// being the API of 'qrglue' and 'qrglue/native'.
import type * as declaredAuto from '../auto.js';
import type * as jsAuto from '../node_modules/.cache/qrglue-js-types/auto.js';
import * as auto from '../auto.js';
import * as index from '../index.js';
import * as native from '../native.js';

type Compatible<A, B> = [A] extends [B] ? true : [B] extends [A] ? true : false;
type Mismatches<D, J> =
  | Exclude<keyof D, keyof J>
  | Exclude<keyof J, keyof D>
  | { [K in keyof D & keyof J]: Compatible<D[K], J[K]> extends true ? never : K }[keyof D & keyof J];
type Agrees<M extends never> = M;

export type AutoDeclaredVsJs = Agrees<Mismatches<typeof declaredAuto, typeof jsAuto>>;

// The same functions as the component and native entries.
const fromIndex: Pick<typeof index, 'png' | 'svg' | 'matrix' | 'text' | 'pngDataUrl' | 'svgDataUrl' | 'isDark'> = auto;
const fromNative: Pick<typeof native, 'png' | 'svg' | 'matrix' | 'text' | 'pngDataUrl' | 'svgDataUrl' | 'isDark'> = auto;
const chosen: 'native' | 'component' = auto.path;
// @ts-expect-error: path is one of the two names, not any string
const notAPath: typeof auto.path = 'raw';
export { fromIndex, fromNative, chosen, notAPath };
