//! Stage 1: text -> QR module matrix.
//!
//! The symbol is the one `qrcode::QrCode::with_error_correction_level` builds
//! (its codewords, drawing and mask), assembled from qrcode's public parts as
//! `QrCode::with_bits` does, with two differences:
//! - segmentation: the text's UTF-8 goes into numeric, alphanumeric and byte
//!   segments only, never Kanji ([`data_bits`] says why);
//! - the mask: qrcode's `apply_best_mask` spends ~95 % of the encoding time
//!   scoring masks, so [`crate::mask`] scores them with qrcode's rules and
//!   tie-break, without allocating, and masks the winner.

use qrcode::bits::Bits;
use qrcode::canvas::{Canvas, MaskPattern};
use qrcode::optimize::{Optimizer, Parser, Segment, total_encoded_len};
use qrcode::types::{Color, Mode, Version};

use crate::{EcLevel, MAX_VERSION, QrError, Symbol, contract, mask};

/// A square matrix of modules; `true` is dark. Row-major, `width * width`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    width: usize,
    dark: Vec<bool>,
}

impl QrMatrix {
    /// Any square of modules, `true` dark (row-major, `width * width` of
    /// them), for fuzz/'s writer target: the PNG and SVG writers must take
    /// every matrix, not only the ones the encoder makes. Not the contract's
    /// API, hence the feature.
    #[cfg(feature = "fuzzing")]
    pub fn from_modules(width: usize, dark: Vec<bool>) -> QrMatrix {
        assert_eq!(dark.len(), width * width, "a matrix is width * width modules");
        QrMatrix { width, dark }
    }

    /// Modules per side (21 for version 1, 177 for version 40).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether the module at column `x`, row `y` is dark.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        self.dark[y * self.width + x]
    }

    /// Row `y` of the matrix; `true` is dark.
    pub fn row(&self, y: usize) -> &[bool] {
        &self.dark[y * self.width..(y + 1) * self.width]
    }

    /// The modules as the contract's `qr-matrix` carries them: `width * width`
    /// bits, row-major, most significant bit first (module (x, y) is bit
    /// `y * width + x`), 1 for dark, unused bits of the last byte 0. One bit a
    /// module keeps a version-40 matrix at 3.9 KB for any host to copy.
    pub fn packed_modules(&self) -> Vec<u8> {
        let mut packed = vec![0u8; self.dark.len().div_ceil(8)];
        for (i, _) in self.dark.iter().enumerate().filter(|(_, dark)| **dark) {
            packed[i / 8] |= 0x80 >> (i % 8);
        }
        packed
    }
}

/// Encodes `data` (a text's UTF-8 or a binary payload, already validated) at `ec_level`. The smallest version that
/// holds it is chosen, as `qrcode::QrCode::with_error_correction_level` does,
/// and the result is that function's symbol, module for module.
pub fn encode(data: impl AsRef<[u8]>, ec_level: EcLevel) -> Result<QrMatrix, QrError> {
    let level = ec_level.to_qrcode();
    let bits = data_bits(data, ec_level)?;
    let version = bits.version();
    let (data, ec) = qrcode::ec::construct_codewords(&bits.into_bytes(), version, level).map_err(from_qrcode_error)?;
    // data_bits only yields normal (non-micro) versions: width 21..=177.
    let Version::Normal(number) = version else { unreachable!("data_bits yields normal versions only") };
    let width = version.width() as usize;
    let dark = mask::best_masked_codewords(number, level, &data, &ec);
    Ok(QrMatrix { width, dark })
}

/// Encodes `data` (already validated, `symbol` included) at `ec_level` as
/// `symbol` asks. The default symbol is [`encode`]'s, module for module
/// (that function runs); otherwise the version, the mask and the EC level
/// are chosen as `symbol` says, with the same segmentation (never Kanji):
///
/// - the version: the smallest normal version from `min_version` (or 1) that
///   holds the text, as [`encode`] searches, or exactly `version`; Micro QR
///   searches M1..=M4 the same way (each micro version has its own length
///   fields and modes: M1 numeric only, M2 numeric and alphanumeric);
/// - the EC level: with `boost_ec`, the highest level at which the chosen
///   version still holds the same segments (segno's `boost_error`);
/// - the mask: `mask` if given, else the lowest penalty (the crate's `mask` module for
///   normal codes; qrcode's own `apply_best_mask`, the standard's light-side
///   rule, for the four Micro QR masks).
pub fn encode_symbol(data: impl AsRef<[u8]>, ec_level: EcLevel, symbol: &Symbol) -> Result<QrMatrix, QrError> {
    let data = data.as_ref();
    if *symbol == Symbol::default() {
        return encode(data, ec_level);
    }
    let (codewords, version, level) = symbol_codewords(data, ec_level, symbol)?;
    let (data, ec) = qrcode::ec::construct_codewords(&codewords, version, level).map_err(from_qrcode_error)?;
    let mut canvas = Canvas::new(version, level);
    canvas.draw_all_functional_patterns();
    draw_data(&mut canvas, version, level, &data, &ec);
    let width = version.width() as usize;
    let dark = match (symbol.mask, version) {
        (None, Version::Normal(_)) => mask::best_masked_symbol(&canvas, width, level),
        (None, Version::Micro(_)) => dark_modules(canvas.apply_best_mask()),
        (Some(number), _) => {
            canvas.apply_mask(mask_pattern(number, symbol.micro));
            dark_modules(canvas)
        }
    };
    Ok(QrMatrix { width, dark })
}

fn dark_modules(canvas: Canvas) -> Vec<bool> {
    canvas.into_colors().into_iter().map(|color| color == Color::Dark).collect()
}

/// Mask `number` as the format information numbers it: normal codes 0..=7
/// (qrcode's `MaskPattern` discriminants), Micro QR 0..=3 (the four patterns
/// Micro QR allows, in the standard's order).
fn mask_pattern(number: u32, micro: bool) -> MaskPattern {
    const NORMAL: [MaskPattern; 8] = [
        MaskPattern::Checkerboard,
        MaskPattern::HorizontalLines,
        MaskPattern::VerticalLines,
        MaskPattern::DiagonalLines,
        MaskPattern::LargeCheckerboard,
        MaskPattern::Fields,
        MaskPattern::Diamonds,
        MaskPattern::Meadow,
    ];
    const MICRO: [MaskPattern; 4] =
        [MaskPattern::HorizontalLines, MaskPattern::LargeCheckerboard, MaskPattern::Diamonds, MaskPattern::Meadow];
    if micro { MICRO[number as usize] } else { NORMAL[number as usize] }
}

/// The data codewords as `canvas.draw_data` takes them. qrcode 0.14.1 knows
/// that M1 and M3-M end on a 4-bit data codeword but not that M3-L does too
/// (upstream: kennytm/qrcode-rust#90): its M3-L symbols put every bit after
/// that codeword four modules off, and no reader reads them. The modules an
/// M3 symbol's data and EC codewords go to are the same at both levels (the
/// level enters only the format information, drawn when masking), so M3-L
/// is drawn on an M3-M canvas, whose half codeword is right, and copied.
fn draw_data(canvas: &mut Canvas, version: Version, level: qrcode::EcLevel, data: &[u8], ec: &[u8]) {
    if (version, level) != (Version::Micro(3), qrcode::EcLevel::L) {
        canvas.draw_data(data, ec);
        return;
    }
    let mut drawn = Canvas::new(version, qrcode::EcLevel::M);
    drawn.draw_all_functional_patterns();
    drawn.draw_data(data, ec);
    let width = version.width();
    for y in 0..width {
        for x in 0..width {
            *canvas.get_mut(x, y) = drawn.get(x, y);
        }
    }
}

/// [`data_bits`] for any symbol, finished into data codewords: the
/// codewords, the version and the (possibly boosted) level.
fn symbol_codewords(data: &[u8], ec_level: EcLevel, symbol: &Symbol) -> Result<(Vec<u8>, Version, qrcode::EcLevel), QrError> {
    let level = ec_level.to_qrcode();
    let (from, to) = match (symbol.version, symbol.min_version) {
        (Some(exact), _) => (exact as i16, exact as i16),
        (None, Some(min)) => (min as i16, symbol.max_version() as i16),
        (None, None) => (1, symbol.max_version() as i16),
    };
    // ECI designator 26 (UTF-8): mode indicator 0111 and one 8-bit designator
    // byte before the segments (ISO/IEC 18004 7.4.2), 12 bits every version
    // must hold besides the segments. Never with Micro QR (validated).
    let eci_bits = if symbol.eci { ECI_UTF8_BITS } else { 0 };
    let search = |segments: &[Segment]| {
        if symbol.micro { smallest_micro_fit(segments, level, from, to) } else { smallest_fit_within(segments, level, from, to, eci_bits) }
    };
    let is_kanji = |segment: &Segment| segment.mode == Mode::Kanji;
    let parsed: Vec<Segment> = Parser::new(data).collect();
    let fit = match search(&parsed) {
        Some((version, segments)) if !segments.iter().any(is_kanji) => Some((version, segments)),
        _ if parsed.iter().any(is_kanji) => {
            let as_bytes: Vec<Segment> = parsed.iter().map(|&s| if is_kanji(&s) { Segment { mode: Mode::Byte, ..s } } else { s }).collect();
            search(&as_bytes)
        }
        none => none,
    };
    let (version, segments) = fit.ok_or_else(|| does_not_fit(&parsed, ec_level, symbol, to, eci_bits))?;
    let level = if symbol.boost_ec { boosted(level, version, eci_bits + total_encoded_len(&segments, version)) } else { level };
    let mut bits = Bits::new(version);
    if symbol.eci {
        bits.push_eci_designator(ECI_UTF8).map_err(from_qrcode_error)?;
    }
    bits.push_segments(data, segments.into_iter()).map_err(from_qrcode_error)?;
    let codewords = match version {
        // The search found this level's capacity (a version without it never fits).
        Version::Micro(v) => finish_micro(bits, v, data_capacity(version, level).expect("the version search checked the level")),
        Version::Normal(_) => {
            bits.push_terminator(level).map_err(from_qrcode_error)?;
            bits.into_bytes()
        }
    };
    Ok((codewords, version, level))
}

/// The `data-too-long` of a failed version search, naming the limit hit:
/// the last version the search could try (`to`: version 40, M4, or the
/// fixed `version`), its capacity at `level`, and the data bits the text
/// needs there (ECI header included). Micro QR versions also lack levels
/// (M1 has low only, M2 and M3 go up to medium) and modes (M1 numeric only,
/// M2 no byte mode), which no bit count can overcome: those are named
/// instead.
///
/// The segments counted are the ones the search settled on: the parse, or
/// (with Kanji runs, which the symbol never declares) the parse with those
/// runs as bytes.
fn does_not_fit(parsed: &[Segment], ec_level: EcLevel, symbol: &Symbol, to: i16, header_bits: usize) -> QrError {
    let segments: Vec<Segment> =
        parsed.iter().map(|&s| if s.mode == Mode::Kanji { Segment { mode: Mode::Byte, ..s } } else { s }).collect();
    let fixed = symbol.version.is_some();
    let level = ec_level.to_qrcode();
    // A normal version's length fields are its group's (1..=9, 10..=26, 27..=40).
    let version =
        if symbol.micro { Version::Micro(to) } else { Version::Normal([9, 26, 40].into_iter().find(|&top| top >= to).unwrap_or(40)) };
    let optimized: Vec<Segment> = Optimizer::new(segments.iter().copied(), version).collect();
    let needed = header_bits + total_encoded_len(&optimized, version);
    let version = if symbol.micro { version } else { Version::Normal(to) };
    let message = match (symbol.micro, fixed) {
        (false, false) => contract::does_not_fit_any(ec_level, to as u32, capacity_bits(to, level), needed),
        (false, true) => contract::does_not_fit_version(ec_level, to as u32, capacity_bits(to, level), needed),
        (true, _) => {
            let lacks = |mode: Mode| optimized.iter().any(|s| s.mode == mode);
            let missing_mode = match to {
                1 => lacks(Mode::Alphanumeric) || lacks(Mode::Byte),
                2 => lacks(Mode::Byte),
                _ => false,
            };
            match data_capacity(version, level) {
                None => contract::micro_lacks_level(ec_level, to as u32),
                Some(_) if missing_mode => contract::micro_lacks_mode(to as u32),
                Some(capacity) if fixed => contract::does_not_fit_micro_version(ec_level, to as u32, capacity, needed),
                Some(capacity) => contract::does_not_fit_micro(ec_level, to as u32, capacity, needed),
            }
        }
    };
    QrError::DataTooLong(message)
}

/// The ECI designator for UTF-8 (ISO/IEC 18004's table of assignment
/// numbers; segno's `eci=True`).
const ECI_UTF8: u32 = 26;

/// Bits of the ECI header for a designator within 0..=127: the mode
/// indicator 0111 and one designator byte.
const ECI_UTF8_BITS: usize = 12;

/// The terminator and padding of a Micro QR symbol holding `capacity` data
/// bits (ISO/IEC 18004 7.4.9 and 7.4.10): up to 2v+1 zero bits, zeros to the
/// codeword boundary, pad codewords 11101100 and 00010001 alternately in
/// every whole codeword left, and 0000 in M1's and M3's final 4-bit one.
///
/// Not qrcode's `push_terminator`: it counts the pad codewords as whole
/// codewords minus the bytes written, which underflows when the data ends
/// inside the final half codeword (a panic in a debug build; in a release
/// build `usize::MAX` pad bytes, memory until the process dies). Where it
/// does not underflow the two give the same bytes.
fn finish_micro(bits: Bits, version: i16, capacity: usize) -> Vec<u8> {
    let length = bits.len();
    let terminator = (2 * version as usize + 1).min(capacity - length);
    let mut codewords = bits.into_bytes();
    // Bits leaves the unused low bits of its last byte zero: the terminator
    // and the zeros to the boundary are already there.
    codewords.resize((length + terminator).div_ceil(8), 0);
    let whole_codewords = capacity / 8;
    for pad in [0b1110_1100, 0b0001_0001].into_iter().cycle().take(whole_codewords.saturating_sub(codewords.len())) {
        codewords.push(pad);
    }
    if !capacity.is_multiple_of(8) && codewords.len() == whole_codewords {
        codewords.push(0);
    }
    codewords
}

/// The highest level from `level` up at which `version` holds `total_bits`.
fn boosted(level: qrcode::EcLevel, version: Version, total_bits: usize) -> qrcode::EcLevel {
    use qrcode::EcLevel::{H, L, M, Q};
    [H, Q, M, L]
        .into_iter()
        .take_while(|&higher| higher > level)
        .find(|&higher| data_capacity(version, higher).is_some_and(|capacity| capacity >= total_bits))
        .unwrap_or(level)
}

/// [`smallest_fit`] between versions `from` and `to`: the same groups and
/// optimizer runs, so that the whole range (1..=40) gives [`encode`]'s
/// version and segments. A version's length fields are the same across its
/// group (1..=9, 10..=26, 27..=40), so optimizing for the group's top is
/// optimizing for the version itself.
///
/// `header_bits` (the ECI designator's 12, or 0) precede the segments and
/// count against every version's capacity.
fn smallest_fit_within(
    parsed: &[Segment],
    level: qrcode::EcLevel,
    from: i16,
    to: i16,
    header_bits: usize,
) -> Option<(Version, Vec<Segment>)> {
    [9, 26, 40].into_iter().filter(|&top| top >= from).find_map(|group_top| {
        let optimized: Vec<Segment> = Optimizer::new(parsed.iter().copied(), Version::Normal(group_top)).collect();
        let total_bits = header_bits + total_encoded_len(&optimized, Version::Normal(group_top));
        let version = (from..=group_top.min(to)).find(|&v| capacity_bits(v, level) >= total_bits)?;
        Some((Version::Normal(version), optimized))
    })
}

/// The smallest Micro QR version in `from..=to` that holds the text at
/// `level`: each version optimized for its own length fields, and only
/// with the modes it has (M1 numeric; M2 numeric and alphanumeric).
fn smallest_micro_fit(parsed: &[Segment], level: qrcode::EcLevel, from: i16, to: i16) -> Option<(Version, Vec<Segment>)> {
    (from..=to).find_map(|v| {
        let version = Version::Micro(v);
        let optimized: Vec<Segment> = Optimizer::new(parsed.iter().copied(), version).collect();
        let has_modes = optimized.iter().all(|s| match s.mode {
            Mode::Numeric => true,
            Mode::Alphanumeric => v >= 2,
            Mode::Byte | Mode::Kanji => v >= 3,
        });
        let fits = data_capacity(version, level).is_some_and(|capacity| capacity >= total_encoded_len(&optimized, version));
        (has_modes && fits).then_some((version, optimized))
    })
}

/// Data bits `version` holds at `level`; `None` where the version has no such
/// level (Micro QR: M1 has only low, M2 and M3 up to medium, M4 up to
/// quartile).
fn data_capacity(version: Version, level: qrcode::EcLevel) -> Option<usize> {
    Bits::new(version).max_len(level).ok()
}

/// The data bits of `text`'s symbol at `ec_level`, terminated and padded, in
/// the smallest normal version that holds them: qrcode's `encode_auto`, except
/// that the text's UTF-8 is never declared as Shift-JIS Kanji.
///
/// Why: `encode_auto` reads its input as Shift-JIS and puts byte pairs in the
/// Kanji ranges into Kanji segments. UTF-8's bytes for U+0800 and up (all
/// CJK, kana, Hangul) often form such pairs, so the symbol declared Kanji for
/// bytes that were UTF-8, and a reader showed mojibake ("漢字です" read back as
/// "æ¼¢蟄励…"). Byte segments carry the UTF-8 as it is, and readers detect
/// UTF-8 in byte mode. No ECI header is written: neither segno nor
/// node-qrcode writes one by default, and without it every symbol that was
/// right stays byte-identical (guest/core/UPSTREAM.md has the measurements).
///
/// A binary payload (the `*_bytes` generators) takes the same path: its
/// digits and upper-case runs may become numeric and alphanumeric segments,
/// which a reader returns as the same bytes, and the rest byte segments.
///
/// So: qrcode's segmentation when it has no Kanji segment (the symbol is
/// `encode_auto`'s, bit for bit); otherwise the same parse with its Kanji
/// runs turned into byte runs, through the same greedy optimizer and
/// version search.
pub fn data_bits(data: impl AsRef<[u8]>, ec_level: EcLevel) -> Result<Bits, QrError> {
    let level = ec_level.to_qrcode();
    let data = data.as_ref();
    let is_kanji = |segment: &Segment| segment.mode == Mode::Kanji;
    let parsed: Vec<Segment> = Parser::new(data).collect();
    let fit = match smallest_fit(&parsed, level) {
        Some((version, segments)) if !segments.iter().any(is_kanji) => Some((version, segments)),
        _ if parsed.iter().any(is_kanji) => {
            let as_bytes = parsed.iter().map(|&s| if is_kanji(&s) { Segment { mode: Mode::Byte, ..s } } else { s });
            smallest_fit(&as_bytes.collect::<Vec<_>>(), level)
        }
        none => none,
    };
    let (version, segments) = fit.ok_or_else(|| does_not_fit(&parsed, ec_level, &Symbol::AUTOMATIC, MAX_VERSION as i16, 0))?;
    let mut bits = Bits::new(Version::Normal(version));
    bits.push_segments(data, segments.into_iter()).map_err(from_qrcode_error)?;
    bits.push_terminator(level).map_err(from_qrcode_error)?;
    Ok(bits)
}

/// `encode_auto`'s version search: the parsed runs merged by qrcode's greedy
/// optimizer for the length fields of versions 9, 26 and 40 in turn; the first
/// group whose top version holds them gives the smallest version in it that
/// does (qrcode's `find_min_version`). None when not even version 40 does.
fn smallest_fit(parsed: &[Segment], level: qrcode::EcLevel) -> Option<(i16, Vec<Segment>)> {
    [9, 26, 40].into_iter().find_map(|group_top| {
        let optimized: Vec<Segment> = Optimizer::new(parsed.iter().copied(), Version::Normal(group_top)).collect();
        let total_bits = total_encoded_len(&optimized, Version::Normal(group_top));
        // Capacities grow with the version, and the previous group's top did
        // not hold them: the answer is within this group.
        let version = (1..=group_top).find(|&v| capacity_bits(v, level) >= total_bits)?;
        Some((version, optimized))
    })
}

/// Data bits a normal version holds at `level` (qrcode's DATA_LENGTHS table).
fn capacity_bits(version: i16, level: qrcode::EcLevel) -> usize {
    Bits::new(Version::Normal(version)).max_len(level).expect("versions 1..=40 are valid")
}

/// qrcode's errors cannot happen here, so none becomes a [`QrError`]:
/// `DataTooLong` needs more bits than the version holds, and the version
/// search counted the same bits against the same capacity table
/// (`Bits::max_len`; a text that fits nowhere is [`does_not_fit`]'s error,
/// before any bit is pushed). Every other one needs a mode the version lacks,
/// an ECI designator out of range or a bad character set, none of which this
/// crate asks for (byte segments take any bytes; numeric and alphanumeric
/// runs are the parser's own; ECI only 26, only in normal versions, counted
/// in the version search).
fn from_qrcode_error(error: qrcode::types::QrError) -> QrError {
    unreachable!("qrcode error impossible after the version search: {error}")
}
