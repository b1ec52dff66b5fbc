//! The contract's options as flat u32 words (guest/raw/ABI.md's argument
//! order), decoded into [`Options`], [`SvgOptions`] and [`TextStyle`], and
//! encoded back ([`words`]).
//!
//! Shared by the two guests that take options as integers: `guest/raw`
//! (one wasm argument per word) and `guest/extism` (the same words,
//! little-endian, at the head of the plugin's input), and by the hosts that
//! pass them (hosts/rust's raw path, hosts/c's C ABI). One decoder and one
//! encoder, so every side names the same option in the same words, in the
//! contract's order, and a new symbol option is packed in one place.

use crate::{EcLevel, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle, contract};

/// How many option words every generating call takes: ec_level, min_size,
/// quiet_zone, has_scale, scale, dark, light, symbol_flags, version,
/// min_version, mask.
pub const OPTION_WORDS: usize = 11;

/// Options from the ABI's words (run after the text checks: the order every
/// path reports errors in, see wit/qr.wit).
pub fn options(
    [ec_level, min_size, quiet_zone, has_scale, scale, dark, light, symbol_flags, version, min_version, mask]: [u32; OPTION_WORDS],
) -> Result<Options, QrError> {
    let ec_level = EcLevel::from_index(ec_level).ok_or_else(|| QrError::InvalidOptions(contract::bad_ec_level_index(ec_level)))?;
    // `has_scale` 0 is WIT's `none` (any other value: `some(scale)`), so every
    // u32 a host passes reaches the range check; colours are 0xRRGGBBAA.
    let scale = (has_scale != 0).then_some(scale);
    // The symbol options: one word of flags (ABI.md), then the three
    // numbers, each used only when its flag says `some`.
    if symbol_flags > contract::RAW_SYMBOL_FLAGS_MAX {
        return Err(QrError::InvalidOptions(contract::out_of_range("symbol-flags", 0, contract::RAW_SYMBOL_FLAGS_MAX, symbol_flags)));
    }
    let flag = |bit: u32| symbol_flags & bit != 0;
    let symbol = Symbol {
        micro: flag(contract::RAW_SYMBOL_MICRO),
        boost_ec: flag(contract::RAW_SYMBOL_BOOST_EC),
        eci: flag(contract::RAW_SYMBOL_ECI),
        version: flag(contract::RAW_SYMBOL_HAS_VERSION).then_some(version),
        min_version: flag(contract::RAW_SYMBOL_HAS_MIN_VERSION).then_some(min_version),
        mask: flag(contract::RAW_SYMBOL_HAS_MASK).then_some(mask),
    };
    Ok(Options { ec_level, min_size, quiet_zone, scale, dark: Rgba::from_u32(dark), light: Rgba::from_u32(light), symbol })
}

/// The ABI's words for `options` (the inverse of [`options`]): a `none`
/// is its flag or `has_scale` off and a 0 word.
pub fn words(options: &Options) -> [u32; OPTION_WORDS] {
    let s = &options.symbol;
    let bit = |on: bool, bit: u32| if on { bit } else { 0 };
    let symbol_flags = bit(s.micro, contract::RAW_SYMBOL_MICRO)
        | bit(s.boost_ec, contract::RAW_SYMBOL_BOOST_EC)
        | bit(s.eci, contract::RAW_SYMBOL_ECI)
        | bit(s.version.is_some(), contract::RAW_SYMBOL_HAS_VERSION)
        | bit(s.min_version.is_some(), contract::RAW_SYMBOL_HAS_MIN_VERSION)
        | bit(s.mask.is_some(), contract::RAW_SYMBOL_HAS_MASK);
    [
        options.ec_level.index(),
        options.min_size,
        options.quiet_zone,
        u32::from(options.scale.is_some()),
        options.scale.unwrap_or(0),
        options.dark.to_u32(),
        options.light.to_u32(),
        symbol_flags,
        s.version.unwrap_or(0),
        s.min_version.unwrap_or(0),
        s.mask.unwrap_or(0),
    ]
}

/// The SVG options from the flags word and one buffer holding the title's
/// UTF-8 (its first `title_len` bytes) and the class's (the rest).
pub fn svg_options(flags: u32, title_len: u32, strings: &[u8]) -> Result<SvgOptions, QrError> {
    if flags > contract::RAW_SVG_FLAGS_MAX {
        return Err(QrError::InvalidOptions(contract::out_of_range("svg-flags", 0, contract::RAW_SVG_FLAGS_MAX, flags)));
    }
    if title_len as usize > strings.len() {
        return Err(QrError::InvalidOptions(contract::out_of_range("title-len", 0, strings.len() as u32, title_len)));
    }
    let (title, class) = strings.split_at(title_len as usize);
    let text = |option: &str, bytes: &[u8]| {
        String::from_utf8(bytes.to_vec())
            .map_err(|e| QrError::InvalidOptions(contract::option_not_text(option, bytes, e.utf8_error().valid_up_to())))
    };
    let given = |bit: u32, option: &str, bytes: &[u8]| if flags & bit != 0 { text(option, bytes).map(Some) } else { Ok(None) };
    Ok(SvgOptions {
        view_box_only: flags & contract::RAW_SVG_VIEW_BOX_ONLY != 0,
        title: given(contract::RAW_SVG_HAS_TITLE, "title", title)?,
        class: given(contract::RAW_SVG_HAS_CLASS, "class", class)?,
    })
}

/// The text style from its index (WIT `text-style` order).
pub fn text_style(style: u32) -> Result<TextStyle, QrError> {
    TextStyle::from_index(style).ok_or_else(|| QrError::InvalidOptions(contract::bad_text_style_index(style)))
}
