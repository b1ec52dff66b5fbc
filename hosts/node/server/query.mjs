// The endpoint's query grammar and request-target rules (tests/http/README.md)
// are guest/http-query's: the one Rust crate every server uses. This server
// reaches it through the native addon (hosts/node/native: httpQuery,
// httpPathAndQuery, httpMethodClass), loaded on every tier whatever path the
// tier measures; docs/contract.md ("One query grammar") says why the addon.
import { createRequire } from 'node:module';
import { LOAD_ERROR, LOADED_FROM } from '../lib/native.js';

if (LOAD_ERROR !== null) throw LOAD_ERROR;
const addon = createRequire(import.meta.url)(LOADED_FROM);

export const UNKNOWN_METHOD_MESSAGE = addon.HTTP_UNKNOWN_METHOD_MESSAGE;
export const NO_HOST_MESSAGE = addon.HTTP_NO_HOST_MESSAGE;

export class HttpError extends Error {
  constructor(kind, message, status = 400) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

// A refusal's code is its kind (lowercase words); anything else (a panic's
// GenericFailure) is the server's failure, not the client's.
const KIND = /^[a-z]+(?:-[a-z]+)*$/;

/**
 * The raw query (after '?', or '', as node:http hands it over: latin1, one
 * char per byte) -> { text, options }, the options the query gives by the Node
 * API's names. `alone`: the tier has no qrglue generator (static, qrcode), so
 * an empty text and the generator's option checks are refused here; without
 * it an empty text is `text: ''`, for the generator to refuse.
 */
export function checkQuery(query, alone) {
  try {
    return addon.httpQuery(Buffer.from(query, 'latin1'), alone);
  } catch (error) {
    if (KIND.test(error?.code)) throw new HttpError(error.code, error.message);
    throw error;
  }
}

/** 'served' (GET, HEAD), 'not-allowed' (405) or 'unknown' (400: methods are case-sensitive). */
export const methodClass = (method) => addon.httpMethodClass(method);

/** A request target -> [path, query]: a fragment dropped, absolute-form reduced, an empty path '/'. */
export const pathAndQuery = (target) => addon.httpPathAndQuery(target);

/**
 * Sets TCP_NOTSENT_LOWAT to `bytes` on the connection `socket` (the addon's
 * httpBoundUnsent: Node has no API for socket options), so that its writes
 * stall once that much waits unsent in the kernel. False where it could not
 * be set (no descriptor, or the OS refused): the write timeout still ends a
 * client that never reads, after more renders.
 */
export function boundUnsent(socket, bytes) {
  const fd = socket._handle?.fd;
  if (!(fd >= 0)) return false;
  try {
    addon.httpBoundUnsent(fd, bytes);
    return true;
  } catch {
    return false;
  }
}
