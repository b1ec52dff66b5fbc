// The query of GET /qrcode, checked as tests/http/README.md orders it:
// bad-query (syntax, names, repeats, missing text), invalid-text,
// empty-text, text-too-long, then invalid-options for values that are not of
// their option's form, in WIT field order (NAMES after text): an ec-level
// name, a decimal u32, a CSS hex colour, true or false. Ranges are the
// generator's to refuse (checkRanges restates them for the tiers without one).
// The same rules as guest/http-query and hosts/python/server/http_contract.py
// (all three run tests/http/query_cases.json in their unit tests).

export const MAX_TEXT_BYTES = 512;
export const REFERENCE_TEXT = 'https://www.reddit.com/r/rustjerk/top/?t=all';
export const EC_LEVELS = ['low', 'medium', 'quartile', 'high'];
// The contract's fixed messages (guest/core/src/contract.rs), for the tiers
// with no qrglue library to ask (qrcode, static); contract.test.mjs checks
// them against target/contract.json.
export const EMPTY_TEXT_MESSAGE = 'text is empty';
export const LONE_SURROGATE_MESSAGE = 'text contains a lone surrogate (not encodable as UTF-8)';
export const NOT_UTF8_TEMPLATE = 'text is not valid UTF-8 from byte {index}';
// The query's names: the WIT names, in WIT field order.
export const NAMES = [
  'text', 'ec-level', 'min-size', 'quiet-zone', 'scale', 'dark', 'light', 'micro', 'version', 'min-version', 'mask', 'boost-ec', 'eci',
];
const KNOWN = new Set(NAMES);
export const UNKNOWN_NAME_MESSAGE = `unknown query parameter (known: ${NAMES.join(', ')})`;
// More of the contract's messages (guest/core/src/contract.rs), for checkRanges.
export const OUT_OF_RANGE_TEMPLATE = '{option} must be within {min}..={max}, got {value}';
export const SAME_COLORS_TEMPLATE = 'dark and light must be different colours, both are {value}';
export const VERSION_CONFLICT_MESSAGE = 'version and min-version exclude each other: give one';
export const MICRO_EC_LEVEL_MESSAGE = 'ec-level high is not available in Micro QR (M4 goes up to quartile)';
export const MICRO_ECI_MESSAGE = 'eci is not available in Micro QR (it has no ECI mode)';
export const DATA_TOO_LONG_MESSAGE = 'text does not fit in a QR code at this error-correction level';

export class HttpError extends Error {
  constructor(kind, message, status = 400) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

const HEX = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

// A query part -> bytes: '+' is a space, %XY the byte 0xXY; Node hands the
// request target over as latin1, so any other char is its own byte.
function decode(part) {
  const out = Buffer.allocUnsafe(part.length);
  let n = 0;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c === 43) {
      out[n++] = 32;
    } else if (c === 37) {
      const hi = HEX(part.charCodeAt(i + 1));
      const lo = HEX(part.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) {
        throw new HttpError('bad-query', 'malformed percent-encoding in the query (a % must be followed by two hex digits)');
      }
      out[n++] = hi * 16 + lo;
      i += 2;
    } else {
      out[n++] = c & 0xff;
    }
  }
  return out.subarray(0, n);
}

// ignoreBOM: keep a leading U+FEFF as the text's first character (the default
// strips it: the text would be changed, and a lone BOM would become empty-text).
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

// The contract's invalid-text message for bytes that are not UTF-8: where the
// valid UTF-8 ends (Rust's valid_up_to), the lone-surrogate message if an
// encoded surrogate (ED A0..BF 80..BF) starts there, else NOT_UTF8_TEMPLATE.
// The lenient decoder replaces each bad sequence with one U+FFFD and decodes
// everything before the first one exactly, so the first U+FFFD that the bytes
// do not spell (EF BF BD) marks the index.
function utf8Problem(b) {
  let at = 0;
  for (const ch of lenient.decode(b)) {
    if (ch === '\ufffd' && !(b[at] === 0xef && b[at + 1] === 0xbf && b[at + 2] === 0xbd)) break;
    at += Buffer.byteLength(ch);
  }
  if (b[at] === 0xed && b[at + 1] >= 0xa0 && b[at + 1] <= 0xbf && b[at + 2] >= 0x80 && b[at + 2] <= 0xbf) {
    return LONE_SURROGATE_MESSAGE;
  }
  return NOT_UTF8_TEMPLATE.replace('{index}', String(at));
}

function uint(name, bytes) {
  const s = bytes.toString('latin1');
  if (!/^[0-9]{1,10}$/.test(s) || Number(s) > 0xffff_ffff) {
    throw new HttpError('invalid-options', `${name} must be a decimal integer within 0..=4294967295`);
  }
  return Number(s);
}

// A CSS hex colour as the hosts take it (#rgb, #rgba, #rrggbb, #rrggbbaa,
// either case) -> '#rrggbbaa', lowercase. The message never shows the value.
function color(name, bytes) {
  const s = bytes.toString('latin1');
  if (!/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(s)) {
    throw new HttpError('invalid-options', `${name} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)`);
  }
  let digits = s.slice(1).toLowerCase();
  if (digits.length <= 4) digits = Array.from(digits, (digit) => digit + digit).join('');
  return `#${digits.length === 6 ? `${digits}ff` : digits}`;
}

function boolean(name, bytes) {
  const s = bytes.toString('latin1');
  if (s !== 'true' && s !== 'false') throw new HttpError('invalid-options', `${name} must be true or false`);
  return s === 'true';
}

/**
 * The raw query string (after '?', or '') -> { text, options } with options in
 * the Node API's shape (ecLevel, minSize, quietZone, scale, dark, light,
 * micro, version, minVersion, mask, boostEc, eci; colours as '#rrggbbaa'), only
 * the ones given. `text === ''` means empty-text:
 * the caller asks its generator, which says so in its own words.
 */
export function checkQuery(query) {
  const found = new Map();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq)).toString('latin1');
    const value = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (!KNOWN.has(name)) throw new HttpError('bad-query', UNKNOWN_NAME_MESSAGE);
    if (found.has(name)) {
      throw new HttpError('bad-query', `query parameter ${name} is given more than once`);
    }
    found.set(name, value);
  }
  const raw = found.get('text');
  if (raw === undefined) throw new HttpError('bad-query', 'query parameter text is required');
  let text;
  try {
    text = fatal.decode(raw);
  } catch {
    throw new HttpError('invalid-text', utf8Problem(raw));
  }
  if (text === '') return { text, options: undefined };
  if (raw.length > MAX_TEXT_BYTES) {
    throw new HttpError('text-too-long', `text is longer than ${MAX_TEXT_BYTES} UTF-8 bytes (this endpoint's limit)`);
  }
  const options = {};
  if (found.has('ec-level')) {
    const ecLevel = found.get('ec-level').toString('latin1');
    if (!EC_LEVELS.includes(ecLevel)) throw new HttpError('invalid-options', 'ec-level must be one of low, medium, quartile, high');
    options.ecLevel = ecLevel;
  }
  // The other options' forms, in WIT field order.
  for (const [name, key, read] of OPTIONS) {
    if (found.has(name)) options[key] = read(name, found.get(name));
  }
  return { text, options };
}

// [query name, Node API name, form] after ec-level, in WIT field order.
const OPTIONS = [
  ['min-size', 'minSize', uint], ['quiet-zone', 'quietZone', uint], ['scale', 'scale', uint],
  ['dark', 'dark', color], ['light', 'light', color], ['micro', 'micro', boolean], ['version', 'version', uint],
  ['min-version', 'minVersion', uint], ['mask', 'mask', uint], ['boost-ec', 'boostEc', boolean],
  ['eci', 'eci', boolean],
];

const outOfRange = (option, min, max, value) => new HttpError('invalid-options', OUT_OF_RANGE_TEMPLATE
  .replace('{option}', option).replace('{min}', String(min)).replace('{max}', String(max)).replace('{value}', String(value)));

/**
 * The generator's own option checks (qrglue-core's Options::validate) in its
 * order and words, for tiers with no qrglue library (static, qrcode):
 * min-size, quiet-zone, scale, equal colours (the defaults '#000000ff' and
 * '#ffffffff' for the ones not given), then the symbol: version,
 * min-version (1..=40, 1..=4 with micro), both given, mask (0..=7, 0..=3),
 * Micro QR at level high, Micro QR with eci. `options` as checkQuery returns them.
 */
export function checkRanges(options) {
  const {
    ecLevel = 'low', minSize = 200, quietZone = 4, scale, dark = '#000000ff', light = '#ffffffff', micro = false,
    version, minVersion, mask, eci = false,
  } = options ?? {};
  if (minSize < 1 || minSize > 4096) throw outOfRange('min-size', 1, 4096, minSize);
  if (quietZone > 16) throw outOfRange('quiet-zone', 0, 16, quietZone);
  if (scale !== undefined && (scale < 1 || scale > 20)) throw outOfRange('scale', 1, 20, scale);
  if (dark === light) throw new HttpError('invalid-options', SAME_COLORS_TEMPLATE.replace('{value}', dark));
  const [maxVersion, maxMask] = micro ? [4, 3] : [40, 7];
  for (const [name, value] of [['version', version], ['min-version', minVersion]]) {
    if (value !== undefined && (value < 1 || value > maxVersion)) throw outOfRange(name, 1, maxVersion, value);
  }
  if (version !== undefined && minVersion !== undefined) throw new HttpError('invalid-options', VERSION_CONFLICT_MESSAGE);
  if (mask !== undefined && mask > maxMask) throw outOfRange('mask', 0, maxMask, mask);
  if (micro && ecLevel === 'high') throw new HttpError('invalid-options', MICRO_EC_LEVEL_MESSAGE);
  if (micro && eci) throw new HttpError('invalid-options', MICRO_ECI_MESSAGE);
}

// Request targets and methods (tests/http/README.md), the same rules as
// guest/http-query's path_and_query and method_class.
export const UNKNOWN_METHOD_MESSAGE = 'unknown method (methods are case-sensitive: GET and HEAD are served)';
export const NO_HOST_MESSAGE = 'an HTTP/1.1 request must have a Host header';
export const BAD_REQUEST_MESSAGE = 'malformed HTTP request';
export const HEAD_TOO_LARGE_MESSAGE = 'request head larger than 16 KiB';
const NOT_ALLOWED = new Set(['POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** 'served' (GET, HEAD), 'not-allowed' (405) or 'unknown' (400: methods are case-sensitive). */
export function methodClass(method) {
  if (method === 'GET' || method === 'HEAD') return 'served';
  return NOT_ALLOWED.has(method) ? 'not-allowed' : 'unknown';
}

/**
 * A request target -> [path, query]: a fragment (a raw '#' on) dropped, an
 * absolute-form target reduced to its path and query whatever its scheme and
 * authority, an empty path '/'. Nothing is decoded.
 */
export function pathAndQuery(target) {
  const hash = target.indexOf('#');
  let t = hash < 0 ? target : target.slice(0, hash);
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(t);
  if (absolute && !t.startsWith('/')) {
    const rest = t.slice(absolute[0].length);
    const at = rest.search(/[/?]/);
    t = at < 0 ? '' : rest.slice(at);
  }
  const q = t.indexOf('?');
  const path = q < 0 ? t : t.slice(0, q);
  return [path === '' ? '/' : path, q < 0 ? '' : t.slice(q + 1)];
}
