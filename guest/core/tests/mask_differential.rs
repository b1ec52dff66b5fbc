//! Differential test of the mask choice: `qrglue_core::encode` must give the
//! very symbol stock qrcode draws and masks for the same data bits
//! (`QrCode::with_bits` over `qrglue_core::data_bits`: every module, so the
//! mask, its format bits and everything else), or the same error, on seeded
//! random texts. Segmentation is not compared here: ours never uses Kanji
//! mode where qrcode's `encode_auto` does (tests/segmentation.rs).
//!
//! Case `i` is generated from (seed, i) alone, so any failure can be replayed:
//! - EC level and target version cycle through all 4 x 40 pairs (version
//!   `1 + i % 40`, level `(i / 40) % 4`), so every 160 cases cover them all;
//! - the mode cycles every 160 cases: numeric, alphanumeric, byte (ASCII and
//!   multi-byte UTF-8: Latin, CJK, emoji) and mixed (random chunks of each,
//!   CJK included, which qrcode's segmenter partly reads as Kanji pairs);
//! - the length is drawn between the capacity of the previous version and that
//!   of the target version in that mode, so large versions are really hit
//!   (mixed texts may land a version off, or not fit: errors must agree too).
//!
//! `QRGLUE_MASK_CASES` (default 5,000) sets the count, `QRGLUE_MASK_SEED`
//! (default below) the seed. Runs on all cores; meant for `--release` (stock
//! qrcode takes ~0.3-10 ms per code there, far more in a debug build).
//! Locally: `just diff-mask 100000`.

use std::time::Instant;

use qrcode::types::Version;
use qrglue_core::{EcLevel, QrError};

const DEFAULT_CASES: u64 = 5_000;
const DEFAULT_SEED: u64 = 0x005e_ed0f_9e11_2024;

/// SplitMix64: small, seedable, good enough to spread test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Numeric,
    Alphanumeric,
    Byte,
    Mixed,
}

const NUMERIC: &[char] = &['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
const ALPHANUMERIC: &[char] = &[
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q',
    'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', ' ', '$', '%', '*', '+', '-', '.', '/', ':',
];
/// Mostly ASCII outside the alphanumeric set, with multi-byte characters.
const BYTES: &[char] = &[
    'a', 'b', 'c', 'h', 'q', 'r', 's', 't', 'u', 'w', 'x', 'y', 'z', '?', '&', '=', '_', '~', '#', '@', '!', 'é', 'ß', 'ñ', '€', '日',
    '本', '語', 'ー', 'コ', '😀', '🦀', '\n', '"', '\'', 'ó',
];

/// Data bits a version holds at an EC level (qrcode's own table).
fn capacity_bits(version: i16, level: qrcode::EcLevel) -> usize {
    qrcode::bits::Bits::new(Version::Normal(version)).max_len(level).expect("normal version")
}

/// About how many characters (bytes for byte mode) of one mode fit in `bits`
/// data bits, after the 4-bit mode indicator and the character count.
fn capacity_chars(mode: Mode, version: i16, level: qrcode::EcLevel) -> usize {
    let bits = capacity_bits(version, level);
    // (count bits, data bits per `per` characters): numeric 10 per 3,
    // alphanumeric 11 per 2, byte 8 per 1. Integer floor is exact for the
    // numeric and alphanumeric tails (4 / 7 bits, 6 bits).
    let (count_bits, bits_per, per) = match (mode, version) {
        (Mode::Numeric, 1..=9) => (10, 10, 3),
        (Mode::Numeric, 10..=26) => (12, 10, 3),
        (Mode::Numeric, _) => (14, 10, 3),
        (Mode::Alphanumeric, 1..=9) => (9, 11, 2),
        (Mode::Alphanumeric, 10..=26) => (11, 11, 2),
        (Mode::Alphanumeric, _) => (13, 11, 2),
        (Mode::Byte | Mode::Mixed, 1..=9) => (8, 8, 1),
        (Mode::Byte | Mode::Mixed, _) => (16, 8, 1),
    };
    (bits - 4 - count_bits) * per / bits_per
}

struct Case {
    text: String,
    level: qrcode::EcLevel,
    mode: Mode,
    target_version: i16,
}

fn generate(seed: u64, index: u64) -> Case {
    let mut rng = Rng(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95));
    let target_version = 1 + (index % 40) as i16;
    let level = [qrcode::EcLevel::L, qrcode::EcLevel::M, qrcode::EcLevel::Q, qrcode::EcLevel::H][(index / 40 % 4) as usize];
    let mode = [Mode::Numeric, Mode::Alphanumeric, Mode::Byte, Mode::Mixed][(index / 160 % 4) as usize];
    let low = if target_version == 1 { 1 } else { capacity_chars(mode, target_version - 1, level) + 1 };
    let high = capacity_chars(mode, target_version, level).max(low);
    let target_len = low + rng.below(high - low + 1);

    let mut text = String::new();
    // Length in bytes (what byte mode counts); for one-byte alphabets, chars.
    while text.len() < target_len {
        match mode {
            Mode::Numeric => text.push(*rng.pick(NUMERIC)),
            Mode::Alphanumeric => text.push(*rng.pick(ALPHANUMERIC)),
            Mode::Byte => text.push(*rng.pick(BYTES)),
            Mode::Mixed => {
                let alphabet = *rng.pick(&[NUMERIC, ALPHANUMERIC, BYTES]);
                let chunk = 1 + rng.below(40);
                for _ in 0..chunk.min(target_len - text.len()) {
                    text.push(*rng.pick(alphabet));
                }
            }
        }
    }
    Case { text, level, mode, target_version }
}

fn our_level(level: qrcode::EcLevel) -> EcLevel {
    match level {
        qrcode::EcLevel::L => EcLevel::Low,
        qrcode::EcLevel::M => EcLevel::Medium,
        qrcode::EcLevel::Q => EcLevel::Quartile,
        qrcode::EcLevel::H => EcLevel::High,
    }
}

/// What one case gave: the stock version on success, or a mismatch report.
enum Outcome {
    Same { version: Option<i16> },
    Mismatch(String),
}

fn check(seed: u64, index: u64) -> Outcome {
    let case = generate(seed, index);
    let stock = qrglue_core::data_bits(&case.text, our_level(case.level))
        .map_err(|_| qrcode::types::QrError::DataTooLong)
        .and_then(|bits| qrcode::QrCode::with_bits(bits, case.level));
    let ours = qrglue_core::encode(&case.text, our_level(case.level));
    let describe = |what: String| {
        format!(
            "case {index} (seed {seed:#x}, mode {:?}, target version {}): {what}\n  ec level {:?}, {} bytes: {:?}",
            case.mode,
            case.target_version,
            case.level,
            case.text.len(),
            case.text
        )
    };
    match (stock, ours) {
        (Err(qrcode::types::QrError::DataTooLong), Err(QrError::DataTooLong(_))) => Outcome::Same { version: None },
        (Ok(stock), Ok(ours)) => {
            let width = stock.width();
            let stock_dark: Vec<bool> = stock.to_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
            let ours_dark: Vec<bool> = (0..width * width).map(|i| ours.width() == width && ours.is_dark(i % width, i / width)).collect();
            if ours.width() == width && ours_dark == stock_dark {
                let Version::Normal(version) = stock.version() else { unreachable!("encode_auto yields normal versions") };
                Outcome::Same { version: Some(version) }
            } else {
                let differing = ours_dark.iter().zip(&stock_dark).filter(|(a, b)| a != b).count();
                Outcome::Mismatch(describe(format!("symbols differ: width {} vs stock {width}, {differing} modules differ", ours.width())))
            }
        }
        (stock, ours) => Outcome::Mismatch(describe(format!(
            "outcomes differ: ours {:?}, stock {:?}",
            ours.map(|m| m.width()),
            stock.map(|c| c.width())
        ))),
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Err(_) => default,
        Ok(value) => {
            let value = value.trim();
            let parsed = match value.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => value.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name} must be a number, got {value:?}"))
        }
    }
}

#[test]
fn encode_matches_stock_qrcode_symbol_for_symbol() {
    let cases = env_u64("QRGLUE_MASK_CASES", DEFAULT_CASES);
    let seed = env_u64("QRGLUE_MASK_SEED", DEFAULT_SEED);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let started = Instant::now();

    // Each thread takes every `threads`-th case; results are merged after.
    let results: Vec<(Vec<u64>, u64, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut versions_hit = vec![0u64; 41];
                    let mut too_long = 0;
                    let mut mismatches = Vec::new();
                    for index in (t..cases).step_by(threads as usize) {
                        match check(seed, index) {
                            Outcome::Same { version: Some(v) } => versions_hit[v as usize] += 1,
                            Outcome::Same { version: None } => too_long += 1,
                            Outcome::Mismatch(report) => mismatches.push(report),
                        }
                    }
                    (versions_hit, too_long, mismatches)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("worker panicked")).collect()
    });

    let mut versions_hit = vec![0u64; 41];
    let mut too_long = 0;
    let mut mismatches = Vec::new();
    for (hits, long, found) in results {
        versions_hit.iter_mut().zip(&hits).for_each(|(total, h)| *total += h);
        too_long += long;
        mismatches.extend(found);
    }
    let elapsed = started.elapsed();
    println!(
        "{cases} cases (seed {seed:#x}) on {threads} threads in {:.1} s: {} encoded, {too_long} too long for version 40, {} mismatches",
        elapsed.as_secs_f64(),
        cases - too_long - mismatches.len() as u64,
        mismatches.len()
    );
    println!("codes per version 1..=40: {:?}", &versions_hit[1..]);

    assert!(
        mismatches.is_empty(),
        "{} of {cases} cases differ from stock qrcode; first ones:\n{}",
        mismatches.len(),
        mismatches.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
    if cases >= 640 {
        // 640 cases run every (version, level, mode) target once; every
        // version must then really have been produced.
        let missing: Vec<usize> = (1..=40).filter(|&v| versions_hit[v] == 0).collect();
        assert!(missing.is_empty(), "versions never produced: {missing:?}");
    }
}

#[test]
fn generator_reaches_version_40_at_every_level_and_covers_errors() {
    // The generator itself: the largest target really is version 40, and a
    // text just past the capacity is rejected by both encoders alike.
    for (i, level) in [qrcode::EcLevel::L, qrcode::EcLevel::M, qrcode::EcLevel::Q, qrcode::EcLevel::H].into_iter().enumerate() {
        let numeric_max = capacity_chars(Mode::Numeric, 40, level);
        let text = "7".repeat(numeric_max);
        let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), level).expect("capacity fits");
        assert_eq!(code.version(), Version::Normal(40));
        let ours = qrglue_core::encode(&text, our_level(level)).expect("capacity fits");
        assert_eq!(ours.width(), 177);

        let too_long = "7".repeat(numeric_max + 1);
        assert!(matches!(qrglue_core::encode(&too_long, our_level(level)), Err(QrError::DataTooLong(_))), "level {i}");
        assert!(qrcode::QrCode::with_error_correction_level(too_long.as_bytes(), level).is_err());
    }
}
