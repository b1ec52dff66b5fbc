// Types of probe.js (in-tree only, not exported): the bridge-measuring calls of each path.
import type { Options } from './index.js';

export interface Probe {
  readonly path: 'component' | 'raw' | 'bindgen';
  /** Does nothing: the fixed cost of one call. */
  noop(): void;
  /** Copies `data` into the guest; returns its length. */
  consume(data: Uint8Array): number;
  /** `len` bytes from the guest, byte i = i mod 251 (at most 16 MiB). */
  produce(len: number): Uint8Array;
  /** Renders the PNG `times` times inside the guest; the last PNG's length. */
  pngRepeat(text: string, options: Options | undefined, times: number): number;
  /** Traps in the guest: throws GuestTrapError, and the instance is replaced. */
  trap(): never;
  /** The guest's linear memory size in 64 KiB pages, as the guest reports it. */
  memoryPages(): number;
  /** Current size of the guest's linear memory in bytes, read by the host. */
  memoryBytes(): number;
  /**
   * Instances this path has made in this process. A failure that is not a
   * QrError (a trap, stack exhaustion, a failed allocation) retires the
   * instance; the next call makes a fresh one.
   */
  instances(): number;
}

export declare const component: Probe;
export declare const raw: Probe;
export declare const bindgen: Probe;
