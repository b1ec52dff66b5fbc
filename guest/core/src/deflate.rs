//! A zlib stream writer (RFC 1950/1951) specialised to the PNG stage's
//! filtered image: scanlines of `line` bytes, each module row `block` bytes
//! (`scale` scanlines), where every scanline but a module row's first is an
//! Up-filtered repeat (its filter byte, then zeros).
//!
//! A general deflate (zlib-rs, the oracle in the tests) hashes every byte of
//! the image to find matches whose places this writer knows up front: at any
//! position the bytes most likely to repeat are the previous byte (runs),
//! the scanline above (the repeats) and the same column of the previous
//! module rows (quiet zone, finder patterns, the repeats of the next row).
//! So the matcher tries only those distances, and a short hash chain over
//! the distinct rows' bytes for the rest (the code's own patterns at other
//! columns); a match runs as far as the bytes agree and is cut into 258-byte
//! pieces at the same distance. The tokens go into one block with dynamic
//! Huffman codes built from their counts, or the fixed codes when those are
//! smaller, written into one buffer sized from the exact bit count.
//!
//! Every match is checked byte by byte against the data before it is
//! emitted, so the stream is valid for any input whatever its layout: the
//! layout only chooses where to look. Distances never exceed deflate's
//! 32 KiB window (a candidate further back is skipped).

/// Deflate's largest match length and window.
const MAX_MATCH: usize = 258;
const MIN_MATCH: usize = 3;
const WINDOW: usize = 32768;

/// How many earlier module rows (same column) the matcher tries.
const BLOCK_CANDIDATES: usize = 4;

/// Hash chain over the distinct rows' bytes: table size, how far back it
/// reaches (zlib-rs's 4 KiB window of the previous writer; the module rows
/// further back are the fixed candidates) and how deep it is walked.
const HASH_BITS: u32 = 11;
const CHAIN_WINDOW: usize = 4096;
const CHAIN_DEPTH: usize = 8;
/// A match this long ends the search.
const NICE_MATCH: usize = 32;

/// Code length limits (RFC 1951, 3.2.7).
const MAX_CODE_BITS: usize = 15;
const MAX_CODE_LENGTH_BITS: usize = 7;

/// Symbol counts of the literal/length and distance alphabets.
const LITLEN_SYMBOLS: usize = 286;
const DIST_SYMBOLS: usize = 30;
const END_OF_BLOCK: usize = 256;

/// The order code length code lengths are sent in (RFC 1951, 3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// A token: a literal byte, or a match (bit 31 set, length - 3 in bits
/// 16..24, distance - 1 in bits 0..16).
#[derive(Clone, Copy)]
struct Token(u32);

const MATCH_FLAG: u32 = 1 << 31;

impl Token {
    fn literal(byte: u8) -> Token {
        Token(u32::from(byte))
    }

    fn matched(len: usize, dist: usize) -> Token {
        debug_assert!((MIN_MATCH..=MAX_MATCH).contains(&len) && (1..=WINDOW).contains(&dist));
        Token(MATCH_FLAG | (((len - MIN_MATCH) as u32) << 16) | (dist - 1) as u32)
    }
}

/// The length symbol (257..=285), its extra bit count and extra value.
fn length_code(len: usize) -> (usize, u32, u32) {
    let l = (len - MIN_MATCH) as u32;
    if len == MAX_MATCH {
        (285, 0, 0)
    } else if l < 8 {
        (257 + l as usize, 0, 0)
    } else {
        let top = 31 - l.leading_zeros(); // 3..=7
        let symbol = 257 + 4 * (top as usize - 1) + ((l >> (top - 2)) & 3) as usize;
        (symbol, top - 2, l & ((1 << (top - 2)) - 1))
    }
}

/// The distance symbol (0..=29), its extra bit count and extra value.
fn distance_code(dist: usize) -> (usize, u32, u32) {
    let d = (dist - 1) as u32;
    if d < 4 {
        (d as usize, 0, 0)
    } else {
        let top = 31 - d.leading_zeros(); // 2..=14
        let symbol = 2 * top as usize + ((d >> (top - 1)) & 1) as usize;
        (symbol, top - 1, d & ((1 << (top - 1)) - 1))
    }
}

/// The zlib stream of `data` (the filtered image; `line` and `block` as in
/// the module comment, any values >= 1 give a valid stream).
pub(crate) fn zlib_image(data: &[u8], line: usize, block: usize) -> Vec<u8> {
    let tokens = tokenize(data, line, block);
    let mut litlen_counts = [0u32; LITLEN_SYMBOLS];
    let mut dist_counts = [0u32; DIST_SYMBOLS];
    let mut extra_bits = 0u64;
    for &Token(t) in &tokens {
        if t & MATCH_FLAG == 0 {
            litlen_counts[t as usize] += 1;
        } else {
            let (ls, lx, _) = length_code(((t >> 16) & 0xFF) as usize + MIN_MATCH);
            let (ds, dx, _) = distance_code((t & 0xFFFF) as usize + 1);
            litlen_counts[ls] += 1;
            dist_counts[ds] += 1;
            extra_bits += u64::from(lx + dx);
        }
    }
    litlen_counts[END_OF_BLOCK] = 1;

    let dynamic = DynamicHeader::new(&litlen_counts, &dist_counts);
    let fixed = FixedCodes::new();
    let dynamic_bits = dynamic.header_bits() + cost(&litlen_counts, &dynamic.litlen_lengths) + cost(&dist_counts, &dynamic.dist_lengths);
    let fixed_bits = cost(&litlen_counts, &fixed.litlen_lengths) + cost(&dist_counts, &fixed.dist_lengths);
    let use_fixed = fixed_bits <= dynamic_bits;
    let block_bits = 3 + extra_bits + if use_fixed { fixed_bits } else { dynamic_bits };

    // zlib header 2 + block + adler32 4, rounded up to bytes.
    let size = 2 + block_bits.div_ceil(8) as usize + 4;
    let mut out = BitWriter::with_capacity(size);
    // CMF: deflate, 32 KiB window; FLG: level "fastest" (0) is what zlib
    // writes for levels < 2... any level value is valid: 2 = default, and
    // the check bits make CMF*256+FLG a multiple of 31.
    out.bytes(&zlib_header());
    // BFINAL = 1, BTYPE = 01 (fixed) or 10 (dynamic).
    out.bits(1, 1);
    let (litlen, dist) = if use_fixed {
        out.bits(1, 2);
        (Codes::new(&fixed.litlen_lengths), Codes::new(&fixed.dist_lengths))
    } else {
        out.bits(2, 2);
        dynamic.write(&mut out);
        (Codes::new(&dynamic.litlen_lengths), Codes::new(&dynamic.dist_lengths))
    };
    for &Token(t) in &tokens {
        if t & MATCH_FLAG == 0 {
            litlen.write(&mut out, t as usize);
        } else {
            let (ls, lx, lv) = length_code(((t >> 16) & 0xFF) as usize + MIN_MATCH);
            let (ds, dx, dv) = distance_code((t & 0xFFFF) as usize + 1);
            litlen.write(&mut out, ls);
            out.bits(lv, lx);
            dist.write(&mut out, ds);
            out.bits(dv, dx);
        }
    }
    litlen.write(&mut out, END_OF_BLOCK);
    out.align();
    out.bytes(&adler32(data).to_be_bytes());
    let bytes = out.finish();
    debug_assert_eq!(bytes.len(), size, "the stream fills the buffer sized for it");
    bytes
}

/// CMF = deflate with a 32 KiB window, FLG with the check bits and level 2
/// (default) noted.
fn zlib_header() -> [u8; 2] {
    let cmf: u16 = 0x78;
    let flevel: u16 = 2 << 6;
    let check = 31 - (cmf * 256 + flevel) % 31;
    [cmf as u8, (flevel + check % 31) as u8]
}

/// Bits of `counts` coded with `lengths`.
fn cost(counts: &[u32], lengths: &[u8]) -> u64 {
    counts.iter().zip(lengths).map(|(&c, &l)| u64::from(c) * u64::from(l)).sum()
}

/// Adler-32 of `data` (RFC 1950), in runs of 5552 bytes: the most that can
/// be summed in 32 bits before reducing mod 65521. Eight zero bytes (most
/// of an image: the Up rows) leave `a` as it is and add `8 * a` to `b`, one
/// step instead of eight.
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    const NMAX: usize = 5552;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(NMAX) {
        let mut words = chunk.chunks_exact(8);
        for w in &mut words {
            if u64::from_ne_bytes(w.try_into().unwrap()) == 0 {
                b += 8 * a;
                continue;
            }
            for &byte in w {
                a += u32::from(byte);
                b += a;
            }
        }
        for &byte in words.remainder() {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

/// The number of leading bytes equal in `data[a..]` and `data[b..]`, at most
/// `limit`, compared eight at a time.
fn common_prefix(data: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let (x, y) = (&data[a..a + limit], &data[b..b + limit]);
    let mut n = 0;
    while n + 8 <= limit {
        let u = u64::from_le_bytes(x[n..n + 8].try_into().unwrap());
        let v = u64::from_le_bytes(y[n..n + 8].try_into().unwrap());
        let diff = u ^ v;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < limit && x[n] == y[n] {
        n += 1;
    }
    n
}

/// Whether a match of `len` at `dist` is better than the best so far
/// (`best_len` at `best_dist`; 0 when there is none), by an estimate of its
/// bits: a match costs about `MATCH_BITS` for its two symbols plus its
/// extra bits, a byte left to literals about `LITERAL_BITS`. Two long
/// matches compare by bits per byte instead: in an Up row's zeros a
/// 258-byte match at distance 1 (no extra bits) beats one at the distance
/// of a 500-byte row above (8 extra bits), and what follows either is
/// another match, not literals; on the largest images that is a third of
/// the stream. Equal estimates keep the earlier (nearer) candidate.
fn better(len: usize, dist: usize, best_len: usize, best_dist: usize) -> bool {
    if len < MIN_MATCH {
        return false;
    }
    if best_len < MIN_MATCH {
        return true;
    }
    let cost = match_bits;
    if len >= LONG_MATCH && best_len >= LONG_MATCH {
        // cost / len < best_cost / best_len, without division.
        cost(len, dist) * best_len < cost(best_len, best_dist) * len
    } else {
        len * LITERAL_BITS + cost(best_len, best_dist) > best_len * LITERAL_BITS + cost(len, dist)
    }
}

/// The estimated bits of a match: its two symbols and their extra bits.
fn match_bits(len: usize, dist: usize) -> usize {
    MATCH_BITS + distance_code(dist).1 as usize + length_code(len).1 as usize
}

/// The estimates of [`better`], in bits; only their ratios matter.
const MATCH_BITS: usize = 10;
const LITERAL_BITS: usize = 5;
const LONG_MATCH: usize = 64;

fn hash3(data: &[u8], at: usize) -> usize {
    let v = u32::from(data[at]) | u32::from(data[at + 1]) << 8 | u32::from(data[at + 2]) << 16;
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// The match finder: the fixed candidates and a hash chain over the
/// positions whose next 3 bytes are not all zero (an Up row's zeros are
/// found at distance 1 or `line`), newest first.
struct Matcher<'a> {
    data: &'a [u8],
    fixed: [usize; 2 + BLOCK_CANDIDATES],
    fixed_count: usize,
    /// Newest position + 1 per hash (0: none).
    head: [u32; 1 << HASH_BITS],
    /// Per position mod `CHAIN_WINDOW`: the distance back to the previous
    /// position with the same hash (0: none). An entry is overwritten by
    /// the position `CHAIN_WINDOW` later, so the walk stops before reaching
    /// that far back; small fixed tables (12 KiB, on the stack) instead of
    /// tables the size of the image cost no allocation and little clearing.
    prev: [u16; CHAIN_WINDOW],
}

impl<'a> Matcher<'a> {
    fn new(data: &'a [u8], line: usize, block: usize) -> Self {
        // Fixed candidate distances, nearest first (a tie keeps the nearer).
        let mut fixed = [0usize; 2 + BLOCK_CANDIDATES];
        let mut fixed_count = 0;
        for d in [1, line].into_iter().chain((1..=BLOCK_CANDIDATES).map(|m| m * block)) {
            if (1..=WINDOW).contains(&d) && !fixed[..fixed_count].contains(&d) {
                fixed[fixed_count] = d;
                fixed_count += 1;
            }
        }
        fixed[..fixed_count].sort_unstable();
        Matcher { data, fixed, fixed_count, head: [0; 1 << HASH_BITS], prev: [0; CHAIN_WINDOW] }
    }

    /// Adds `p` to the hash chain if its 3 bytes are not all zero.
    fn insert(&mut self, p: usize) {
        let data = self.data;
        if p + MIN_MATCH <= data.len() && data[p] | data[p + 1] | data[p + 2] != 0 {
            self.link(p);
        }
    }

    /// Makes `p` the newest position of its hash.
    fn link(&mut self, p: usize) {
        let h = hash3(self.data, p);
        let newest = self.head[h] as usize;
        // 0 when there is none or it is too far back to walk to.
        let back = if newest == 0 || p + 1 - newest >= CHAIN_WINDOW { 0 } else { p + 1 - newest };
        self.prev[p % CHAIN_WINDOW] = back as u16;
        self.head[h] = p as u32 + 1;
    }

    /// The best match at `p` (length 0 if none), then inserts `p`.
    fn find(&mut self, p: usize) -> (usize, usize) {
        let data = self.data;
        let remaining = data.len() - p;
        let (mut best_len, mut best_dist) = (0, 0);
        if remaining < MIN_MATCH {
            return (0, 0);
        }
        let limit = remaining.min(MAX_MATCH);
        // Nearest first: a later candidate is further back (as many extra
        // bits or more), so it can only be better by being longer. Skip it
        // unless the byte that would make it longer agrees, and stop once a
        // match reaches the limit (in an Up row's zeros, the first one does).
        for &d in &self.fixed[..self.fixed_count] {
            if d > p || best_len == limit {
                break;
            }
            if data[p - d + best_len] != data[p + best_len] {
                continue;
            }
            let len = common_prefix(data, p, p - d, limit);
            if better(len, d, best_len, best_dist) {
                (best_len, best_dist) = (len, d);
            }
        }
        if data[p] | data[p + 1] | data[p + 2] != 0 {
            let mut candidate = self.head[hash3(data, p)] as usize;
            let mut depth = 0;
            // A nice match from the fixed candidates ends the search (zlib's
            // `nice_length`): the chain is for the short ones.
            while candidate != 0 && depth < CHAIN_DEPTH && best_len < NICE_MATCH {
                let c = candidate - 1;
                let d = p - c;
                if d >= CHAIN_WINDOW {
                    break;
                }
                // Further back costs more, so only a longer match can be
                // better: skip the compare unless the byte that would make
                // it longer agrees.
                if best_len == limit {
                    break;
                }
                if data[c + best_len] == data[p + best_len] {
                    let len = common_prefix(data, p, c, limit);
                    if better(len, d, best_len, best_dist) {
                        (best_len, best_dist) = (len, d);
                    }
                }
                let back = self.prev[c % CHAIN_WINDOW] as usize;
                candidate = if back == 0 { 0 } else { candidate - back };
                depth += 1;
            }
            self.link(p);
        }
        // A match must cost less than its bytes as literals.
        if best_len < MIN_MATCH || best_len * LITERAL_BITS <= match_bits(best_len, best_dist) {
            return (0, 0);
        }
        (best_len, best_dist)
    }
}

/// LZ77 over `data` with the candidates of the module comment and zlib's
/// one-step lazy evaluation: a match shorter than `LAZY_LIMIT` is deferred
/// by a literal when the next position has a longer one.
fn tokenize(data: &[u8], line: usize, block: usize) -> Vec<Token> {
    let n = data.len();
    let mut matcher = Matcher::new(data, line, block);
    let mut tokens = Vec::with_capacity(n / 16 + 64);
    let mut p = 0;
    let mut found = None;
    while p < n {
        let (len, dist) = found.take().unwrap_or_else(|| matcher.find(p));
        if len == 0 {
            tokens.push(Token::literal(data[p]));
            p += 1;
            continue;
        }
        let mut inserted = p + 1;
        if len < LAZY_LIMIT && p + 1 < n {
            let next = matcher.find(p + 1);
            inserted = p + 2;
            if next.0 > len {
                tokens.push(Token::literal(data[p]));
                p += 1;
                found = Some(next);
                continue;
            }
        }
        // The matched positions join the chain, so later rows find them;
        // a long match is an Up run's zeros or a repeat, found anyway.
        if len < LAZY_LIMIT {
            for q in inserted..p + len {
                matcher.insert(q);
            }
        }
        tokens.push(Token::matched(len, dist));
        p += len;
    }
    tokens
}

/// Matches at least this long are taken without looking one byte further
/// (zlib level 4's `max_lazy` is 4; the rows here are short enough for more).
const LAZY_LIMIT: usize = 32;

/// LSB-first bit writer into a buffer sized up front.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    len: u32,
}

impl BitWriter {
    fn with_capacity(bytes: usize) -> Self {
        BitWriter { out: Vec::with_capacity(bytes), acc: 0, len: 0 }
    }

    /// Appends the low `count` (<= 32) bits of `value`.
    fn bits(&mut self, value: u32, count: u32) {
        self.acc |= u64::from(value) << self.len;
        self.len += count;
        if self.len >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.len -= 32;
        }
    }

    /// Pads to a byte boundary with zero bits and flushes.
    fn align(&mut self) {
        let bytes = self.len.div_ceil(8);
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes as usize]);
        self.acc = 0;
        self.len = 0;
    }

    /// Appends whole bytes; the writer must be aligned.
    fn bytes(&mut self, bytes: &[u8]) {
        debug_assert_eq!(self.len, 0);
        self.out.extend_from_slice(bytes);
    }

    fn finish(self) -> Vec<u8> {
        debug_assert_eq!(self.len, 0);
        self.out
    }
}

/// Canonical Huffman codes (RFC 1951, 3.2.2), bit-reversed for LSB-first
/// writing.
struct Codes {
    /// (code, length) per symbol; room for the largest alphabet (288), on
    /// the stack.
    codes: [(u16, u8); 288],
}

impl Codes {
    fn new(lengths: &[u8]) -> Codes {
        let mut count = [0u16; MAX_CODE_BITS + 1];
        for &l in lengths {
            count[l as usize] += 1;
        }
        count[0] = 0;
        let mut next = [0u16; MAX_CODE_BITS + 2];
        let mut code = 0u16;
        for bits in 1..=MAX_CODE_BITS {
            code = (code + count[bits - 1]) << 1;
            next[bits] = code;
        }
        let mut codes = [(0u16, 0u8); 288];
        for (code, &l) in codes.iter_mut().zip(lengths) {
            if l != 0 {
                let c = next[l as usize];
                next[l as usize] += 1;
                *code = (c.reverse_bits() >> (16 - u32::from(l)), l);
            }
        }
        Codes { codes }
    }

    fn write(&self, out: &mut BitWriter, symbol: usize) {
        let (code, len) = self.codes[symbol];
        debug_assert!(len > 0, "symbol {symbol} has no code");
        out.bits(u32::from(code), u32::from(len));
    }
}

/// The fixed codes' lengths (RFC 1951, 3.2.6). Symbols 286/287 and
/// distances 30/31 never occur but are part of the canonical code: without
/// them the 9-bit literal codes would be numbered 4 too low.
struct FixedCodes {
    litlen_lengths: [u8; 288],
    dist_lengths: [u8; 32],
}

impl FixedCodes {
    fn new() -> FixedCodes {
        let mut litlen_lengths = [8u8; 288];
        litlen_lengths[144..256].fill(9);
        litlen_lengths[256..280].fill(7);
        FixedCodes { litlen_lengths, dist_lengths: [5; 32] }
    }
}

/// Code lengths for `counts`, none longer than `max_bits`: Huffman's
/// algorithm (two queues over the counts sorted ascending), then lengths
/// over the limit moved to it and the Kraft sum repaired as miniz does
/// (each step removes one code of the longest length and splits a shorter
/// code in two). Fewer than two used symbols get two codes of length 1 (a
/// complete code every inflater accepts).
fn code_lengths(counts: &[u32], max_bits: usize) -> Vec<u8> {
    // Working arrays on the stack, sized for the largest alphabet (288):
    // this runs three times a stream, and heap vectors cost more than the
    // tree itself at these sizes.
    const MAX_SYMBOLS: usize = 288;
    assert!(counts.len() <= MAX_SYMBOLS, "an alphabet of at most {MAX_SYMBOLS} symbols");
    let mut lengths = vec![0u8; counts.len()];
    let mut used = [(0u32, 0u16); MAX_SYMBOLS];
    let mut n = 0;
    for (s, &c) in counts.iter().enumerate() {
        if c > 0 {
            used[n] = (c, s as u16);
            n += 1;
        }
    }
    let symbols = &mut used[..n];
    if symbols.len() < 2 {
        // One used symbol (or none) and one other: both length 1.
        let first = symbols.first().map_or(0, |&(_, s)| s as usize);
        lengths[first] = 1;
        lengths[if first == 0 { 1 } else { 0 }] = 1;
        return lengths;
    }
    symbols.sort_unstable();
    let mut weight = [0u64; 2 * MAX_SYMBOLS];
    for (w, &(c, _)) in weight.iter_mut().zip(symbols.iter()) {
        *w = u64::from(c);
    }
    let mut parent = [0u16; 2 * MAX_SYMBOLS];
    let (mut leaf, mut inner) = (0, n);
    for next in n..2 * n - 1 {
        let mut pick = || {
            if leaf < n && (inner >= next || weight[leaf] <= weight[inner]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (pick(), pick());
        weight[next] = weight[a] + weight[b];
        parent[a] = next as u16;
        parent[b] = next as u16;
    }
    // Depths, root (the last node) first; reuse `weight` for them.
    let root = 2 * n - 2;
    weight[root] = 0;
    for i in (0..root).rev() {
        weight[i] = weight[usize::from(parent[i])] + 1;
    }
    let mut per_length = [0u32; 64];
    for &depth in &weight[..n] {
        per_length[(depth as usize).min(max_bits)] += 1;
    }
    let mut kraft: u64 = (1..=max_bits).map(|l| u64::from(per_length[l]) << (max_bits - l)).sum();
    while kraft > 1 << max_bits {
        per_length[max_bits] -= 1;
        for l in (1..max_bits).rev() {
            if per_length[l] != 0 {
                per_length[l] -= 1;
                per_length[l + 1] += 2;
                break;
            }
        }
        kraft -= 1;
    }
    // Longest lengths to the least frequent symbols.
    let mut sorted = symbols.iter();
    for l in (1..=max_bits).rev() {
        for _ in 0..per_length[l] {
            let &(_, s) = sorted.next().expect("as many lengths as symbols");
            lengths[s as usize] = l as u8;
        }
    }
    lengths
}

/// A dynamic block's code lengths and the header that sends them.
struct DynamicHeader {
    litlen_lengths: Vec<u8>,
    dist_lengths: Vec<u8>,
    hlit: usize,
    hdist: usize,
    /// Run-length coded lengths: (symbol 0..=18, extra value).
    runs: Vec<(u8, u8)>,
    cl_lengths: Vec<u8>,
    hclen: usize,
}

impl DynamicHeader {
    fn new(litlen_counts: &[u32], dist_counts: &[u32]) -> DynamicHeader {
        let litlen_lengths = code_lengths(litlen_counts, MAX_CODE_BITS);
        let dist_lengths = code_lengths(dist_counts, MAX_CODE_BITS);
        let hlit = 257.max(litlen_lengths.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
        let hdist = 1.max(dist_lengths.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
        let all: Vec<u8> = litlen_lengths[..hlit].iter().chain(&dist_lengths[..hdist]).copied().collect();
        let runs = run_lengths(&all);
        let mut cl_counts = [0u32; 19];
        for &(s, _) in &runs {
            cl_counts[s as usize] += 1;
        }
        let cl_lengths = code_lengths(&cl_counts, MAX_CODE_LENGTH_BITS);
        let hclen = 4.max(CODE_LENGTH_ORDER.iter().rposition(|&s| cl_lengths[s] > 0).map_or(0, |i| i + 1));
        DynamicHeader { litlen_lengths, dist_lengths, hlit, hdist, runs, cl_lengths, hclen }
    }

    /// HLIT, HDIST, HCLEN, the code length code and the run-coded lengths.
    fn header_bits(&self) -> u64 {
        let runs: u64 = self.runs.iter().map(|&(s, _)| u64::from(self.cl_lengths[s as usize]) + run_extra_bits(s)).sum();
        5 + 5 + 4 + 3 * self.hclen as u64 + runs
    }

    fn write(&self, out: &mut BitWriter) {
        out.bits((self.hlit - 257) as u32, 5);
        out.bits((self.hdist - 1) as u32, 5);
        out.bits((self.hclen - 4) as u32, 4);
        for &s in &CODE_LENGTH_ORDER[..self.hclen] {
            out.bits(u32::from(self.cl_lengths[s]), 3);
        }
        let codes = Codes::new(&self.cl_lengths);
        for &(s, extra) in &self.runs {
            codes.write(out, s as usize);
            out.bits(u32::from(extra), run_extra_bits(s) as u32);
        }
    }
}

fn run_extra_bits(symbol: u8) -> u64 {
    match symbol {
        16 => 2,
        17 => 3,
        18 => 7,
        _ => 0,
    }
}

/// `lengths` run-length coded with symbols 16 (repeat the previous 3..=6
/// times), 17 (3..=10 zeros) and 18 (11..=138 zeros).
fn run_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut runs = Vec::with_capacity(lengths.len());
    let mut i = 0;
    while i < lengths.len() {
        let value = lengths[i];
        let mut run = 1;
        while i + run < lengths.len() && lengths[i + run] == value {
            run += 1;
        }
        i += run;
        if value == 0 {
            while run >= 11 {
                let take = run.min(138);
                runs.push((18, (take - 11) as u8));
                run -= take;
            }
            if run >= 3 {
                runs.push((17, (run - 3) as u8));
                run = 0;
            }
        } else {
            runs.push((value, 0));
            run -= 1;
            while run >= 3 {
                let take = run.min(6);
                runs.push((16, (take - 3) as u8));
                run -= take;
            }
        }
        for _ in 0..run {
            runs.push((value, 0));
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inflates with zlib-rs (a port of zlib: it checks the header, the
    /// code lengths' completeness, every distance against the window and the
    /// Adler-32).
    fn inflate(stream: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len + 1];
        let (data, code) = zlib_rs::decompress_slice(&mut out, stream, zlib_rs::InflateConfig::default());
        assert_eq!(code, zlib_rs::ReturnCode::Ok, "zlib-rs inflates the stream");
        data.to_vec()
    }

    fn round_trip(data: &[u8], line: usize, block: usize) -> Vec<u8> {
        let stream = zlib_image(data, line, block);
        assert_eq!(inflate(&stream, data.len()), data, "line {line}, block {block}");
        stream
    }

    /// A deterministic xorshift, so failures reproduce.
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn small_inputs_round_trip() {
        for data in [&b""[..], b"a", b"ab", b"abc", b"aaaa", &[0u8; 300], &[7u8; 259], &[7u8; 260], &[7u8; 261], &[7u8; 516]] {
            round_trip(data, 1, 1);
            round_trip(data, 29, 174);
        }
    }

    /// The Kraft sum of `lengths` in units of 2^-max: 2^max for a complete code.
    fn kraft(lengths: &[u8], max: usize) -> u64 {
        lengths.iter().filter(|&&l| l > 0).map(|&l| 1u64 << (max - l as usize)).sum()
    }

    #[test]
    fn code_lengths_are_limited_and_complete() {
        // Fibonacci counts make an unlimited Huffman tree as deep as there
        // are symbols (29 here): the limit must cut it to 15 (7 for the
        // code length code) and keep the code complete.
        let mut fib = vec![1u32, 1];
        while fib.len() < 30 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        for max in [MAX_CODE_BITS, MAX_CODE_LENGTH_BITS] {
            let symbols = if max == MAX_CODE_LENGTH_BITS { 19 } else { 30 };
            let lengths = code_lengths(&fib[..symbols], max);
            assert_eq!(*lengths.iter().max().unwrap() as usize, max, "the deepest codes are cut to the limit");
            assert!(lengths.iter().all(|&l| l > 0), "every used symbol has a code");
            assert_eq!(kraft(&lengths, max), 1 << max, "complete after limiting");
            // More frequent symbols never get longer codes.
            assert!(lengths.windows(2).all(|w| w[0] >= w[1]), "{lengths:?}");
        }
        // Random counts, some zero: complete, limited, unused symbols uncoded.
        for seed in 1..200u64 {
            let counts: Vec<u32> = noise(seed, LITLEN_SYMBOLS)
                .iter()
                .map(|&b| if b < 96 { 0 } else { u32::from(b) * u32::from(b) * (b as u32 % 7 + 1) })
                .collect();
            let lengths = code_lengths(&counts, MAX_CODE_BITS);
            assert!(lengths.iter().all(|&l| l as usize <= MAX_CODE_BITS));
            assert!(counts.iter().zip(&lengths).all(|(&c, &l)| (c == 0) == (l == 0)), "seed {seed}");
            assert_eq!(kraft(&lengths, MAX_CODE_BITS), 1 << MAX_CODE_BITS, "seed {seed}");
        }
        // One used symbol (or none): two codes of length 1.
        let mut one = [0u32; DIST_SYMBOLS];
        one[7] = 5;
        let lengths = code_lengths(&one, MAX_CODE_BITS);
        assert_eq!((lengths[0], lengths[7], kraft(&lengths, MAX_CODE_BITS)), (1, 1, 1 << MAX_CODE_BITS));
        assert_eq!(kraft(&code_lengths(&[0u32; DIST_SYMBOLS], MAX_CODE_BITS), MAX_CODE_BITS), 1 << MAX_CODE_BITS);
    }

    #[test]
    fn skewed_literals_need_limited_codes_and_round_trip() {
        // Byte i appears fib(i) times, in a scrambled order: the literal
        // alphabet's unlimited tree would be over 15 deep.
        let mut data = Vec::new();
        let (mut a, mut b) = (1usize, 1usize);
        for byte in 0..24u8 {
            data.extend(std::iter::repeat_n(byte, a));
            (a, b) = (b, a + b);
        }
        let order = noise(99, data.len());
        let mut keyed: Vec<(u8, usize, u8)> = data.iter().enumerate().map(|(i, &d)| (order[i], i, d)).collect();
        keyed.sort_unstable();
        let data: Vec<u8> = keyed.into_iter().map(|(_, _, d)| d).collect();
        round_trip(&data, 97, 970);
    }

    #[test]
    fn random_and_structured_inputs_round_trip() {
        for seed in 1..40u64 {
            let len = (seed as usize * 7919) % 20_000;
            let data = noise(seed, len);
            round_trip(&data, 1 + seed as usize % 50, 1 + (seed as usize * 31) % 700);
            // Few distinct bytes and long repeats, as in an image.
            let sparse: Vec<u8> = data.iter().map(|&b| if b < 200 { 0 } else { b & 0xF0 }).collect();
            round_trip(&sparse, 29, 174);
        }
    }

    /// Rows wider than the window: the scanline and module-row distances
    /// exceed 32 KiB and must not be used (the matcher falls back to
    /// distance 1, the hash chain and literals).
    #[test]
    fn rows_wider_than_the_window_round_trip() {
        for row_bytes in [WINDOW - 2, WINDOW - 1, WINDOW, WINDOW + 1, 40_000] {
            let line = row_bytes + 1;
            let scale = 3;
            let mut data = vec![0u8; line * scale * 2];
            for (k, block) in data.chunks_exact_mut(line * scale).enumerate() {
                block[1..line].copy_from_slice(&noise(k as u64 + 5, row_bytes).iter().map(|&b| b & 0x81).collect::<Vec<_>>());
                for scanline in block.chunks_exact_mut(line).skip(1) {
                    scanline[0] = 2;
                }
            }
            let stream = round_trip(&data, line, line * scale);
            assert!(stream.len() < data.len() / 4, "{row_bytes}: {} B for {} B", stream.len(), data.len());
        }
    }

    #[test]
    fn length_and_distance_codes_match_rfc_1951() {
        // (length, symbol, extra bits, extra value) from RFC 1951 3.2.5's table.
        for (len, symbol, bits, value) in [
            (3, 257, 0, 0),
            (10, 264, 0, 0),
            (11, 265, 1, 0),
            (12, 265, 1, 1),
            (19, 269, 2, 0),
            (130, 280, 4, 15),
            (131, 281, 5, 0),
            (257, 284, 5, 30),
            (258, 285, 0, 0),
        ] {
            assert_eq!(length_code(len), (symbol, bits, value), "length {len}");
        }
        for (dist, symbol, bits, value) in [
            (1, 0, 0, 0),
            (4, 3, 0, 0),
            (5, 4, 1, 0),
            (6, 4, 1, 1),
            (7, 5, 1, 0),
            (193, 15, 6, 0),
            (24577, 29, 13, 0),
            (32768, 29, 13, 8191),
        ] {
            assert_eq!(distance_code(dist), (symbol, bits, value), "distance {dist}");
        }
    }

    #[test]
    fn adler32_matches_zlib_rs() {
        for seed in 1..20u64 {
            let data = noise(seed, seed as usize * 1111);
            assert_eq!(adler32(&data), zlib_rs::adler32::adler32(1, &data), "seed {seed}");
        }
        assert_eq!(adler32(&[0xFF; 100_000]), zlib_rs::adler32::adler32(1, &[0xFF; 100_000]));
        // Zero words (the one-step path) between bytes at their largest.
        let mixed: Vec<u8> = (0..100_003).map(|i| if (i / 13) % 3 == 0 { 0xFF } else { 0 }).collect();
        assert_eq!(adler32(&mixed), zlib_rs::adler32::adler32(1, &mixed));
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }
}
