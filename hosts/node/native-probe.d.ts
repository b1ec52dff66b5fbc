// Types of native-probe.js (in-tree only, not exported): the bridge-measuring calls of the native path.
import type { Options } from './index.js';

export interface NativeProbe {
  readonly path: 'native';
  /** Does nothing: the fixed cost of one call. */
  noop(): void;
  /** Reads `data` in place (no copy); returns its length. */
  consume(data: Uint8Array): number;
  /** `len` bytes made in Rust, byte i = i mod 251 (at most 16 MiB, else QrError invalid-options). */
  produce(len: number): Uint8Array;
  /** Renders the PNG `times` times in Rust; the last PNG's length. */
  pngRepeat(text: string, options: Options | undefined, times: number): number;
  /** Panics inside Rust: throws an Error, and the next call works. */
  panic(): never;
}

export declare const native: NativeProbe;
