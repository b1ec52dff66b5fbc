// Type-only checks of 'qrglue/auto' (run by `just lint` with typecheck/entries.ts):
// its .d.ts against the declarations tsc infers from auto.js, and its API
// being the API of 'qrglue' and 'qrglue/native'.
import type * as declaredAuto from '../auto.js';
import type * as jsAuto from '../node_modules/.cache/qrglue-js-types/auto.js';
import * as auto from '../auto.js';
import * as index from '../index.js';
import * as native from '../native.js';
import type * as indexTypes from '../index.js';
import type * as autoTypes from '../auto.js';
import type * as nativeTypes from '../native.js';
import type * as rawTypes from '../raw.js';
import type * as bindgenTypes from '../bindgen.js';

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

// Every type 'qrglue' exports, from each entry a user may import instead (a missing one fails here).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type EveryEntry<T extends true[]> = T;
export type TypesFromEveryEntry = EveryEntry<[
  Same<autoTypes.HexColor, indexTypes.HexColor>, Same<nativeTypes.HexColor, indexTypes.HexColor>,
  Same<rawTypes.HexColor, indexTypes.HexColor>, Same<bindgenTypes.HexColor, indexTypes.HexColor>,
  Same<autoTypes.EcLevel, indexTypes.EcLevel>, Same<nativeTypes.EcLevel, indexTypes.EcLevel>,
  Same<autoTypes.TextStyle, indexTypes.TextStyle>, Same<nativeTypes.TextStyle, indexTypes.TextStyle>,
  Same<autoTypes.QrErrorKind, indexTypes.QrErrorKind>, Same<nativeTypes.QrErrorKind, indexTypes.QrErrorKind>,
  Same<autoTypes.SvgOptions, indexTypes.SvgOptions>, Same<nativeTypes.SvgOptions, indexTypes.SvgOptions>,
  Same<autoTypes.TextOptions, indexTypes.TextOptions>, Same<nativeTypes.TextOptions, indexTypes.TextOptions>,
]>;
