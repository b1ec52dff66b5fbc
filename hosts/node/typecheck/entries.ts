// Type-only checks, run by `just lint` (tsc -p tsconfig.json; never executed).
//
// 1. Each entry's hand-written .d.ts against its JavaScript: the declarations
//    tsc infers from the JS (tsconfig.js-types.json, emitted first into
//    node_modules/.cache/qrglue-js-types) must export exactly the same values,
//    each compatible with the declared type, and the probe objects and error
//    classes the same members. A .d.ts that names an export the JS lacks (or
//    misses one, or declares a different constant) fails here.
// 2. The declared API used the way a TypeScript user uses it, and misuses that
//    must not type-check (@ts-expect-error), so a .d.ts cannot decay to `any`.
import type * as declaredIndex from '../index.js';
import type * as declaredRaw from '../raw.js';
import type * as declaredBindgen from '../bindgen.js';
import type * as declaredNative from '../native.js';
import type * as declaredProbe from '../probe.js';
import type * as declaredNativeProbe from '../native-probe.js';
import type * as jsIndex from '../node_modules/.cache/qrglue-js-types/index.js';
import type * as jsRaw from '../node_modules/.cache/qrglue-js-types/raw.js';
import type * as jsBindgen from '../node_modules/.cache/qrglue-js-types/bindgen.js';
import type * as jsNative from '../node_modules/.cache/qrglue-js-types/native.js';
import type * as jsProbe from '../node_modules/.cache/qrglue-js-types/probe.js';
import type * as jsNativeProbe from '../node_modules/.cache/qrglue-js-types/native-probe.js';
import {
  png, svg, matrix, text, isDark, QrError, GuestTrapError, DEFAULTS, EC_LEVELS, TEXT_STYLES, MAX_TEXT_BYTES,
  pngDataUrl, svgDataUrl,
} from '../index.js';
import type { EcLevel, Input, Options, QrErrorKind, QrMatrix, SvgOptions, TextOptions, TextStyle } from '../index.js';
import * as raw from '../raw.js';
import * as bindgen from '../bindgen.js';
import * as native from '../native.js';
import { component, raw as rawProbe, bindgen as bindgenProbe } from '../probe.js';
import type { Probe } from '../probe.js';
import { native as nativeProbe } from '../native-probe.js';

// --- 1. declared vs JavaScript ---------------------------------------------

/** One of the two types is assignable to the other (the JS side is often wider: `any`, `string`). */
type Compatible<A, B> = [A] extends [B] ? true : [B] extends [A] ? true : false;

/** True when T is `any`. */
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * The JS side with what inference cannot know made permissive: a function that
 * returns `any` (e.g. a probe that only ever throws) may return anything, so it
 * becomes one that returns `never`, one level into objects (the probes).
 */
type LoosenFn<T> = T extends (...args: infer A) => infer R ? (IsAny<R> extends true ? (...args: A) => never : T) : T;
type Loosen<T> = T extends abstract new (...args: never) => unknown
  ? T
  : T extends (...args: never) => unknown
    ? LoosenFn<T>
    : T extends object
      ? { readonly [K in keyof T]: LoosenFn<T[K]> }
      : T;

/** The names on which a declaration D and the JS J disagree: missing on one side, or incompatible. */
type Mismatches<D, J> =
  | Exclude<keyof D, keyof J>
  | Exclude<keyof J, keyof D>
  | { [K in keyof D & keyof J]: Compatible<D[K], Loosen<J[K]>> extends true ? never : K }[keyof D & keyof J];

/** Compiles only when there is no mismatch; the error names the disagreeing exports. */
function agree<M extends never>(): void {}

agree<Mismatches<typeof declaredIndex, typeof jsIndex>>();
agree<Mismatches<typeof declaredRaw, typeof jsRaw>>();
agree<Mismatches<typeof declaredBindgen, typeof jsBindgen>>();
agree<Mismatches<typeof declaredNative, typeof jsNative>>();
agree<Mismatches<typeof declaredProbe, typeof jsProbe>>();
agree<Mismatches<typeof declaredNativeProbe, typeof jsNativeProbe>>();
// The probe objects, member by member.
agree<Mismatches<typeof declaredProbe.component, typeof jsProbe.component>>();
agree<Mismatches<typeof declaredProbe.raw, typeof jsProbe.raw>>();
agree<Mismatches<typeof declaredProbe.bindgen, typeof jsProbe.bindgen>>();
agree<Mismatches<typeof declaredNativeProbe.native, typeof jsNativeProbe.native>>();
// The error classes' instances, and the defaults object.
agree<Mismatches<InstanceType<typeof declaredIndex.QrError>, InstanceType<typeof jsIndex.QrError>>>();
agree<Mismatches<InstanceType<typeof declaredIndex.GuestTrapError>, InstanceType<typeof jsIndex.GuestTrapError>>>();
agree<Mismatches<typeof declaredIndex.DEFAULTS, typeof jsIndex.DEFAULTS>>();

// --- 2. the declared API in use ---------------------------------------------

const bytes: Uint8Array = png('https://www.reddit.com/r/rustjerk/top/?t=all');
const options: Options = { ecLevel: 'high', minSize: 400, quietZone: 2 };
const coloured: Options = { scale: 4, dark: '#336699', light: DEFAULTS.light };
const noScale: undefined = DEFAULTS.scale;
const symbolic: Options = { micro: true, version: 2, mask: 1, boostEc: false, ecLevel: 'quartile' };
const grown: TextOptions = { minVersion: 5, boostEc: true, style: 'ascii' };
const automatic: [boolean, undefined, undefined, undefined, boolean] =
  [DEFAULTS.micro, DEFAULTS.version, DEFAULTS.minVersion, DEFAULTS.mask, DEFAULTS.boostEc];
const microMatrix: QrMatrix = native.matrix('12345', symbolic);
const urls: string = pngDataUrl('hello', coloured) + svgDataUrl('hello') + native.pngDataUrl('x') + raw.svgDataUrl('x');
const sameDataUrl: Array<typeof pngDataUrl> = [raw.pngDataUrl, bindgen.pngDataUrl, native.pngDataUrl];
const doc: string = svg('hello', options);
const level: EcLevel = EC_LEVELS[0] ?? DEFAULTS.ecLevel;
const limit: 7089 = MAX_TEXT_BYTES;
const sameApi: Array<typeof png> = [raw.png, bindgen.png, native.png];
const sameSvg: Array<typeof svg> = [raw.svg, bindgen.svg, native.svg];
const sameMatrix: Array<typeof matrix> = [raw.matrix, bindgen.matrix, native.matrix];
const sameText: Array<typeof text> = [raw.text, bindgen.text, native.text];
const grid: QrMatrix = matrix('hello', options);
const width: number = grid.width;
const modules: Uint8Array = grid.modules;
const corner: boolean = isDark(grid, 0, 0) && native.isDark(native.matrix('x'), 0, 0);
const style: TextStyle = TEXT_STYLES[2] ?? DEFAULTS.style;
const textOptions: TextOptions = { ...options, style: 'half-blocks-inverted' };
const drawn: string = text('hello', textOptions) + text('hello') + raw.text('x', { style });
try {
  png('');
} catch (error) {
  if (error instanceof QrError) {
    const kind: QrErrorKind = error.kind;
    const name: 'QrError' = error.name;
    void [kind, name];
  } else if (error instanceof GuestTrapError) {
    const name: 'GuestTrapError' = error.name;
    void name;
  }
}
const probes: Probe[] = [component, rawProbe, bindgenProbe];
const pages: number = component.memoryPages() + rawProbe.memoryBytes();
const last: number = nativeProbe.pngRepeat('hello', undefined, 3);
const produced: Uint8Array = nativeProbe.produce(8);
// Binary payloads: the same functions take bytes as a Uint8Array, an ArrayBuffer or a DataView.
const payload = new Uint8Array([0xff, 0xfe]); // a Uint8Array<ArrayBuffer>
const fromBytes: Uint8Array = png(payload) ?? raw.png(payload.buffer) ?? native.png(new DataView(payload.buffer));
const inputs: Input[] = ['text', payload, payload.buffer, new DataView(payload.buffer)];
const bytesEverywhere: string = svg(payload, options) + text(payload, { style: 'ascii' }) + pngDataUrl(payload) + bindgen.svgDataUrl(payload)
  + String(matrix(payload).width);
// The SVG options: svg and svgDataUrl alone, on every path.
const svgOptions: SvgOptions = { ...options, viewBoxOnly: true, title: 'A code', class: 'qr qr-large' };
const svgDocs: string = svg('x', svgOptions) + raw.svg('x', { title: 't' }) + native.svgDataUrl(payload, { class: 'c' })
  + bindgen.svg('x', { viewBoxOnly: false });
const svgDefaults: [false, undefined, undefined] = [DEFAULTS.viewBoxOnly, DEFAULTS.title, DEFAULTS.class];

// @ts-expect-error: not an ec-level
png('x', { ecLevel: 'best' });
// @ts-expect-error: an unknown option
png('x', { size: 3 });
// @ts-expect-error: minSize is a number
svg('x', { minSize: '200' });
// @ts-expect-error: the input is a string or bytes, not a number
png(42);
// @ts-expect-error: an array of numbers is not bytes
png([104, 105]);
// @ts-expect-error: a Uint16Array's elements are not bytes
svg(new Uint16Array(2));
// @ts-expect-error: a SharedArrayBuffer is not taken as it is (a Uint8Array over it is)
matrix(new SharedArrayBuffer(2));
// @ts-expect-error: the probes take a text only
component.pngRepeat(payload, undefined, 1);
// @ts-expect-error: png returns bytes, not a string
const notText: string = png('x');
// @ts-expect-error: not a text style
text('x', { style: 'blocks' });
// @ts-expect-error: style is text's option alone
png('x', { style: 'ascii' });
// @ts-expect-error: a colour is a CSS hex string, not a number
png('x', { dark: 0x000000ff });
// @ts-expect-error: a colour is CSS hex (HexColor), not a colour name
png('x', { light: 'red' });
// @ts-expect-error: an error kind is one of the WIT cases
const misspelt: QrErrorKind = 'empty-txt';
// @ts-expect-error: micro is a boolean, not a string
png('x', { micro: 'yes' });
// @ts-expect-error: version is a number
svg('x', { version: '5' });
// @ts-expect-error: the option is minVersion, not the WIT name
matrix('x', { 'min-version': 5 });
// @ts-expect-error: boostEc is a boolean
text('x', { boostEc: 1 });
// @ts-expect-error: the SVG options are svg's alone
png('x', { title: 'x' });
// @ts-expect-error: viewBoxOnly is a boolean
svg('x', { viewBoxOnly: 1 });
// @ts-expect-error: class is a string (names separated by spaces), not a list
svgDataUrl('x', { class: ['a', 'b'] });
// @ts-expect-error: the matrix is read-only
grid.width = 3;
// @ts-expect-error: text returns a string, not bytes
const notBytes: Uint8Array = text('x');
// @ts-expect-error: the native path has no GuestTrapError
void native.GuestTrapError;
// @ts-expect-error: the native probe has no trap(), only panic()
nativeProbe.trap();

void [bytes, doc, level, limit, sameApi, sameSvg, probes, pages, last, produced, notText];
void [sameMatrix, sameText, width, modules, corner, style, drawn, notBytes, grown, automatic, microMatrix];
void [fromBytes, inputs, bytesEverywhere, svgDocs, svgDefaults];
