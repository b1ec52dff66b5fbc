//! The raw module against arguments no correct glue passes (guest/raw/ABI.md,
//! "What the guest guarantees"): every call returns a status, none traps, and
//! the instance keeps giving golden bytes afterwards.

use qrglue_host::testing::{self, RawAbi};
use qrglue_host::{ErrorKind, Generator, RawGenerator, RawRuntime};

use crate::corpus;

const STATUS_OK: u32 = 0;
const EMPTY_TEXT: u32 = ErrorKind::EmptyText.code();
const INVALID_TEXT: u32 = ErrorKind::InvalidText.code();
const INVALID_OPTIONS: u32 = ErrorKind::InvalidOptions.code();
const MAX_ALLOC: u32 = 16 << 20;

fn fresh() -> RawGenerator {
    RawRuntime::shared().expect("raw runtime").instantiate().expect("raw instance")
}

/// A live guest buffer holding `bytes` (the ABI's step 1).
fn buffer(raw: &mut RawGenerator, bytes: &[u8]) -> u32 {
    let ptr = raw.abi_alloc(bytes.len() as u32).expect("qr_alloc does not trap");
    assert_ne!(ptr, 0, "qr_alloc({}) refused", bytes.len());
    raw.abi_write(ptr, bytes).expect("buffer lies inside memory");
    ptr
}

/// `qr_png` with these arguments: its status and message; frees the record.
fn png_status(raw: &mut RawGenerator, ptr: u32, len: u32, ec_level: u32, min_size: u32, quiet_zone: u32) -> (u32, String) {
    let mut wire = testing::abi_options(&qrglue_host::Options::default());
    wire[..3].copy_from_slice(&[ec_level, min_size, quiet_zone]);
    let record = raw.abi_png(ptr, len, wire).expect("qr_png does not trap");
    let (status, payload) = raw.abi_read_record(record).expect("record inside memory");
    assert_eq!(raw.abi_free(record).expect("qr_free does not trap"), 0, "the record is a live buffer");
    (status, String::from_utf8_lossy(&payload).into_owned())
}

/// The instance still renders the reference URL to its golden bytes.
fn assert_still_golden(raw: &mut RawGenerator) {
    let case = corpus::case("ref-02");
    let png = raw.png(&case.text, &case.options).expect("a good call after bad ones");
    assert_eq!(corpus::sha256_hex(&png), corpus::expected_png_sha256("ref-02"));
}

#[test]
fn bad_text_arguments_are_invalid_or_empty_text() {
    let mut raw = fresh();
    let text = b"https://www.reddit.com/r/rustjerk/top/?t=all";

    let ptr = buffer(&mut raw, &[0x68, 0xff, 0xfe, 0x69]);
    let (status, message) = png_status(&mut raw, ptr, 4, 0, 200, 4);
    assert_eq!((status, message.contains("UTF-8")), (INVALID_TEXT, true), "invalid UTF-8: {message}");

    assert_eq!(png_status(&mut raw, 0, 0, 0, 200, 4).0, EMPTY_TEXT, "(0, 0) is the empty text");

    let ptr = buffer(&mut raw, text);
    assert_eq!(png_status(&mut raw, ptr, text.len() as u32 + 1, 0, 200, 4).0, INVALID_TEXT, "text_len past the buffer");

    let past_end = raw.abi_memory_size() as u32 + 64;
    assert_eq!(png_status(&mut raw, past_end, 8, 0, 200, 4).0, INVALID_TEXT, "pointer past the end of memory");
    assert_eq!(png_status(&mut raw, u32::MAX - 3, 4, 0, 200, 4).0, INVALID_TEXT, "pointer at the top of the address space");

    let ptr = buffer(&mut raw, text);
    assert_eq!(png_status(&mut raw, ptr + 1, 4, 0, 200, 4).0, INVALID_TEXT, "a pointer inside a buffer, never handed out");
    assert_eq!(png_status(&mut raw, 1024, 4, 0, 200, 4).0, INVALID_TEXT, "a pointer never allocated");
    assert_eq!(png_status(&mut raw, 0, 4, 0, 200, 4).0, INVALID_TEXT, "null with a length");

    // Refused calls leave the buffer live; a good call takes it, and then
    // it is gone: using it again is refused.
    assert_eq!(png_status(&mut raw, ptr, text.len() as u32, 0, 200, 4).0, STATUS_OK, "the buffer is still live");
    assert_eq!(png_status(&mut raw, ptr, text.len() as u32, 0, 200, 4).0, INVALID_TEXT, "a buffer used twice");

    assert_still_golden(&mut raw);
}

#[test]
fn out_of_range_options_are_invalid_options() {
    let mut raw = fresh();
    let text = b"hello";
    for (ec_level, min_size, quiet_zone, names) in [
        (4, 200, 4, "ec-level"),
        (u32::MAX, 200, 4, "ec-level"),
        (0, 0, 4, "min-size"),
        (0, 4097, 4, "min-size"),
        (0, 200, 17, "quiet-zone"),
    ] {
        let ptr = buffer(&mut raw, text);
        let (status, message) = png_status(&mut raw, ptr, text.len() as u32, ec_level, min_size, quiet_zone);
        assert_eq!(status, INVALID_OPTIONS, "({ec_level}, {min_size}, {quiet_zone})");
        assert!(message.contains(names), "message {message:?} should name {names}");
    }
    // The same text with in-range options succeeds on the same instance.
    let ptr = buffer(&mut raw, text);
    assert_eq!(png_status(&mut raw, ptr, text.len() as u32, 3, 4096, 16).0, STATUS_OK);
    assert_still_golden(&mut raw);
}

#[test]
fn alloc_and_free_refuse_what_they_must() {
    let mut raw = fresh();
    assert_eq!(raw.abi_alloc(0).unwrap(), 0, "qr_alloc(0)");
    assert_eq!(raw.abi_alloc(MAX_ALLOC + 1).unwrap(), 0, "qr_alloc over 16 MiB");
    assert_eq!(raw.abi_alloc(u32::MAX).unwrap(), 0, "qr_alloc(u32::MAX)");

    assert_eq!(raw.abi_free(12345).unwrap(), 1, "free of a pointer never handed out");
    assert_eq!(raw.abi_free(0).unwrap(), 1, "free of null");
    assert_eq!(raw.abi_free(u32::MAX).unwrap(), 1, "free past memory");
    let ptr = buffer(&mut raw, b"abc");
    assert_eq!(raw.abi_free(ptr + 1).unwrap(), 1, "free inside a buffer");
    assert_eq!(raw.abi_free(ptr).unwrap(), 0, "first free");
    assert_eq!(raw.abi_free(ptr).unwrap(), 1, "double free");

    assert_eq!(raw.abi_consume(ptr, 3).unwrap(), u32::MAX, "consume of a freed buffer");
    let ptr = buffer(&mut raw, b"abcd");
    assert_eq!(raw.abi_consume(ptr, 5).unwrap(), u32::MAX, "consume past the buffer");
    assert_eq!(raw.abi_consume(ptr, 4).unwrap(), 4, "consume of a live buffer");
    assert_eq!(raw.abi_consume(0, 0).unwrap(), 0, "consume of the empty list");

    assert_still_golden(&mut raw);
}

#[test]
fn produce_over_16_mib_is_invalid_options_and_at_16_mib_is_the_pattern() {
    let mut raw = fresh();
    let record = raw.abi_produce(MAX_ALLOC + 1).expect("qr_produce does not trap");
    let (status, message) = raw.abi_read_record(record).unwrap();
    assert_eq!(status, INVALID_OPTIONS, "{}", String::from_utf8_lossy(&message));
    assert_eq!(raw.abi_free(record).unwrap(), 0);

    let bytes = raw.produce(MAX_ALLOC).expect("exactly 16 MiB is allowed");
    assert_eq!(bytes.len(), MAX_ALLOC as usize);
    assert!(bytes.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8), "byte i must be i mod 251");
    assert_still_golden(&mut raw);
}

/// xorshift64*: a seeded, dependency-free source of hostile arguments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.u32() % n
    }
}

/// Random pointers and lengths into every raw export: each call either
/// succeeds or answers an error status; none traps; and the instance keeps
/// rendering golden bytes (nothing it owns was corrupted).
#[test]
fn the_raw_abi_survives_random_pointers_and_lengths() {
    let mut raw: RawGenerator = RawRuntime::shared().unwrap().instantiate().unwrap();
    let case = corpus::case("ref-02");
    let golden = corpus::expected_png_sha256("ref-02");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Pointers the guest really handed out, so hostile calls also hit live
    // buffers with wrong lengths, twice, or after they were freed.
    let mut seen: Vec<u32> = Vec::new();
    // Buffers left allocated on purpose, capped so the guest never runs out
    // of its 64 MiB (memory exhaustion is documented to trap).
    let mut kept = 0;
    let pick_ptr = |rng: &mut Rng, seen: &[u32], memory: u32| -> u32 {
        match rng.below(4) {
            0 => rng.u32(),
            1 => rng.below(memory.max(1)),
            _ if !seen.is_empty() => seen[rng.below(seen.len() as u32) as usize].wrapping_add(rng.below(9).wrapping_sub(4)),
            _ => 0,
        }
    };
    for round in 0..20_000u32 {
        let memory = raw.abi_memory_size() as u32;
        let ptr = pick_ptr(&mut rng, &seen, memory);
        let len = match rng.below(3) {
            0 => rng.u32(),
            1 => rng.below(64),
            _ => rng.below(8192),
        };
        match rng.below(6) {
            0 => {
                let p = raw.abi_alloc(len % (1 << 16)).expect("qr_alloc never traps");
                if p != 0 {
                    seen.push(p);
                    if kept < 200 && rng.below(2) == 0 {
                        kept += 1;
                    } else {
                        assert_eq!(raw.abi_free(p).unwrap(), 0, "a fresh buffer is live");
                    }
                }
            }
            1 => {
                let status = raw.abi_free(ptr).expect("qr_free never traps");
                assert!(status <= 1, "qr_free answered {status}");
            }
            2 => {
                let n = raw.abi_consume(ptr, len).expect("qr_consume never traps");
                assert!(n == len || n == u32::MAX, "qr_consume answered {n} for len {len}");
            }
            3 | 4 => {
                // Any options, the colours, scale and symbol words included
                // (flags past the defined bits too): never a trap.
                let options = [
                    rng.below(5),
                    rng.below(5000),
                    rng.below(20),
                    rng.below(3),
                    rng.below(25),
                    rng.below(u32::MAX),
                    rng.below(3),
                    rng.below(40),
                    rng.below(45),
                    rng.below(45),
                    rng.below(10),
                ];
                let record = raw.abi_png(ptr, len, options).expect("qr_png never traps");
                let (status, _) = raw.abi_read_record(record).expect("the record lies in memory");
                assert!(status <= 4, "status {status}");
                assert_eq!(raw.abi_free(record).unwrap(), 0, "the record is live");
            }
            _ => {
                let record = raw.abi_produce(rng.below(1 << 16)).expect("qr_produce never traps");
                assert_eq!(raw.abi_free(record).unwrap(), 0, "the record is live");
                seen.push(record);
            }
        }
        if round % 1_000 == 999 {
            let png = raw.png(&case.text, &case.options).expect("a good call after hostile ones");
            assert_eq!(corpus::sha256_hex(&png), golden, "round {round}");
        }
    }
    let png = raw.png(&case.text, &case.options).unwrap();
    assert_eq!(corpus::sha256_hex(&png), golden);
    assert!(raw.memory_pages().unwrap() <= 1024);
}

/// `qr_svg` with a text and these SVG arguments: its status and message.
fn svg_status(raw: &mut RawGenerator, text: &[u8], svg: [u32; 4]) -> (u32, String) {
    let ptr = buffer(raw, text);
    let wire = testing::abi_options(&qrglue_host::Options::default());
    let record = raw.abi_svg(ptr, text.len() as u32, wire, svg).expect("qr_svg does not trap");
    let (status, payload) = raw.abi_read_record(record).expect("record inside memory");
    assert_eq!(raw.abi_free(record).expect("qr_free does not trap"), 0);
    (status, String::from_utf8_lossy(&payload).into_owned())
}

#[test]
fn bad_svg_arguments_are_invalid_options_and_their_buffer_is_always_freed() {
    let mut raw = fresh();
    let text = b"hi";
    // The flags word, title_len past the buffer, a dead buffer, bytes that
    // are not UTF-8 (and an encoded surrogate, named as hosts name it).
    let mut passed = Vec::new();
    let mut strings = |raw: &mut RawGenerator, bytes: &[u8]| {
        let ptr = buffer(raw, bytes);
        passed.push(ptr);
        ptr
    };
    let ptr = strings(&mut raw, b"tc");
    assert_eq!(svg_status(&mut raw, text, [8, 1, ptr, 2]), (INVALID_OPTIONS, "svg-flags must be within 0..=7, got 8".into()));
    let ptr = strings(&mut raw, b"tc");
    assert_eq!(svg_status(&mut raw, text, [2, 3, ptr, 2]), (INVALID_OPTIONS, "title-len must be within 0..=2, got 3".into()));
    let (status, message) = svg_status(&mut raw, text, [2, 1, 0xdead_0000, 2]);
    assert_eq!((status, message.starts_with("svg strings buffer")), (INVALID_OPTIONS, true), "{message}");
    let ptr = strings(&mut raw, b"a\xffc");
    assert_eq!(svg_status(&mut raw, text, [6, 2, ptr, 3]), (INVALID_OPTIONS, "title is not valid UTF-8 from byte 1".into()));
    let ptr = strings(&mut raw, b"t\xed\xa0\x80");
    assert_eq!(
        svg_status(&mut raw, text, [6, 1, ptr, 4]),
        (INVALID_OPTIONS, "class contains a lone surrogate (not encodable as UTF-8)".into())
    );
    // A buffer passed without its flags is freed unread; a good one works.
    let ptr = strings(&mut raw, b"\xff\xff");
    assert_eq!(svg_status(&mut raw, text, [0, 1, ptr, 2]).0, STATUS_OK);
    let ptr = strings(&mut raw, b"Tqr");
    let (status, svg) = svg_status(&mut raw, text, [7, 1, ptr, 3]);
    assert_eq!(status, STATUS_OK);
    assert!(svg.contains(r#" class="qr" viewBox="#) && svg.contains("<title>T</title>"), "{svg}");
    // An error in the text or the options comes first, and still frees the strings.
    let ptr = strings(&mut raw, b"\xff");
    assert_eq!(svg_status(&mut raw, b"\xff", [2, 1, ptr, 1]).0, INVALID_TEXT);
    // Every strings buffer passed above is gone, whatever the outcome:
    // freeing any of them again says 1.
    for ptr in passed {
        assert_eq!(raw.abi_free(ptr).unwrap(), 1, "the guest freed the strings buffer {ptr:#x}");
    }
    assert_still_golden(&mut raw);
}
