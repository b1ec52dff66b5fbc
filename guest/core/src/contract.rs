//! The contract's constants and fixed messages, in one place.
//!
//! `wit/qr.wit` fixes the types; it cannot say what the defaults are, where
//! the option bounds lie, in which order the error kinds are checked, or what
//! a payload-less error says. Those live here, and every host restates them
//! in its own language so its package stands alone. The build writes them to
//! `target/contract.json` ([`to_json`], `just contract`), and each host's
//! tests assert that its copies equal that file, so no copy can drift.
//!
//! Hosts that check an input before it reaches the core (a lone surrogate, an
//! option of the wrong type or outside `u32`) produce their error with these
//! same messages and templates, so every path of every host reports the same
//! kind and the same message for the same input.

use std::fmt::Display;

use crate::{EcLevel, ErrorKind, MAX_MIN_SIZE, MAX_QUIET_ZONE, MAX_SCALE, MAX_TEXT_BYTES, Options, Rgba, TextStyle};

/// The smallest `min-size` accepted, in pixels.
pub const MIN_MIN_SIZE: u32 = 1;

/// The message of `empty-text` (a payload-less WIT case: hosts fill it in).
pub const EMPTY_TEXT_MESSAGE: &str = "text is empty";

/// The message of `data-too-long` for a text (or payload) over
/// [`MAX_TEXT_BYTES`]: checked by length before any encoding, and by hosts
/// before they copy the text into a guest, so the one fixed `data-too-long`
/// message hosts restate. A text within the bound that fits no allowed
/// version gets [`DOES_NOT_FIT_TEMPLATE`] or a Micro QR message instead,
/// built by the core only and carried by every path as the error's payload.
pub const DATA_TOO_LONG_MESSAGE: &str = "text does not fit in any QR code: it is over 7089 bytes, the most one holds";

/// Template of `data-too-long` for a text that the version search could not
/// fit: `{symbol}` is what the options allowed (`a QR code`, `version 3`, `a
/// Micro QR code`, `Micro QR version M2`), `{limit}` the largest version of
/// those (`version 40`, `version 3`, `M4`, `M2`), `{capacity}` its data bits
/// at `{level}`, `{needed}` the data bits the text needs there (segment
/// headers and an ECI header included).
pub const DOES_NOT_FIT_TEMPLATE: &str =
    "text does not fit in {symbol} at level {level}: it needs {needed} data bits, {limit} holds {capacity}";

/// Template of `data-too-long` for a fixed Micro QR version without the EC
/// level (M1 has low only, M2 and M3 go up to medium).
pub const MICRO_LEVEL_TEMPLATE: &str = "text does not fit in Micro QR version M{version} at level {level}: M{version} {levels}";

/// Template of `data-too-long` for a fixed Micro QR version without a mode
/// the text needs (M1 has numeric only, M2 no byte mode).
pub const MICRO_MODE_TEMPLATE: &str = "text does not fit in Micro QR version M{version}: M{version} holds {characters} only";

/// The message of `invalid-text` for a host string with an unpaired UTF-16
/// surrogate (JavaScript, Python), or its WTF-8 bytes (Rust, the raw ABI).
pub const LONE_SURROGATE_MESSAGE: &str = "text contains a lone surrogate (not encodable as UTF-8)";

/// Template of `invalid-text` for bytes that are not UTF-8 (a Rust caller's
/// bytes, the raw ABI, a server's decoded query): `{index}` is where the
/// valid UTF-8 ends (Rust's `valid_up_to`, Python's `UnicodeDecodeError.start`),
/// the contract's own words so that no language restates another's error.
pub const NOT_UTF8_TEMPLATE: &str = "text is not valid UTF-8 from byte {index}";

/// Template of `invalid-options` for a number out of range:
/// `{option}` is the WIT field name (`min-size`, `quiet-zone`).
pub const OUT_OF_RANGE_TEMPLATE: &str = "{option} must be within {min}..={max}, got {value}";

/// Template of `invalid-options` for a number option that is not an integer
/// (a host value such as 2.5 or "3"; the guest takes `u32`s and never sees
/// one): hosts say it in these words, where an integer outside the bounds
/// gets [`OUT_OF_RANGE_TEMPLATE`].
pub const NOT_INTEGER_TEMPLATE: &str = "{option} must be an integer, got {value}";

/// Template of `invalid-options` for an unknown `ec-level` name (hosts that
/// take the level as a string).
pub const EC_LEVEL_NAME_TEMPLATE: &str = "ec-level must be one of low, medium, quartile, high, got {value}";

/// Template of `invalid-options` for an `ec-level` index outside 0..=3 (the
/// raw ABI passes the level as its WIT index).
pub const EC_LEVEL_INDEX_TEMPLATE: &str = "ec-level must be 0..=3 (low, medium, quartile, high), got {value}";

/// Template of `invalid-options` for a colour a host cannot read (hosts take
/// colours as CSS hex strings): `{option}` is `dark` or `light`, `{value}`
/// the value as the host shows it.
pub const COLOR_TEMPLATE: &str = "{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}";

/// Template of `invalid-options` when `dark` and `light` are the same colour
/// (`{value}` as `#rrggbbaa`): such a code cannot be read.
pub const SAME_COLORS_TEMPLATE: &str = "dark and light must be different colours, both are {value}";

/// Template of `invalid-options` for an unknown `text-style` name (hosts that
/// take the style as a string). Checked after every option.
pub const TEXT_STYLE_NAME_TEMPLATE: &str = "text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}";

/// Template of `invalid-options` for a `text-style` index outside 0..=2 (the
/// raw ABI passes the style as its WIT index).
pub const TEXT_STYLE_INDEX_TEMPLATE: &str = "text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got {value}";

/// Template of `invalid-options` for an SVG option string longer than its
/// bound (`{option}` is `title`; `{max}` the contract's bound).
pub const TOO_LONG_TEMPLATE: &str = "{option} must be at most {max} UTF-8 bytes, got {value}";

/// Template of `invalid-options` for a character an SVG document cannot
/// carry (`{char}` as `U+0007`), at UTF-8 byte `{index}` of `{option}`.
pub const NOT_XML_CHAR_TEMPLATE: &str = "{option} holds {char} at byte {index}, which XML 1.0 cannot carry";

/// Template of `invalid-options` for an SVG `class` that is not CSS class
/// names separated by single spaces (`{value}` as the host shows it).
pub const CLASS_TEMPLATE: &str =
    "class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got {value}";

/// Template of `invalid-options` for an option string's bytes that are not
/// UTF-8 (the raw ABI's title and class buffers).
pub const OPTION_NOT_TEXT_TEMPLATE: &str = "{option} is not valid UTF-8 from byte {index}";

/// Template of `invalid-options` for an option string with a lone surrogate
/// (a JavaScript or Python string; hosts must not replace it), or its WTF-8
/// bytes through the raw ABI.
pub const OPTION_LONE_SURROGATE_TEMPLATE: &str = "{option} contains a lone surrogate (not encodable as UTF-8)";

/// The message of `invalid-options` when both `version` and `min-version`
/// are given (one fixes the version, the other lets it grow).
pub const VERSION_CONFLICT_MESSAGE: &str = "version and min-version exclude each other: give one";

/// The message of `invalid-options` for a Micro QR code at level high: no
/// Micro QR version has it (M1 detects errors only, M2 and M3 go up to
/// medium, M4 to quartile).
pub const MICRO_EC_LEVEL_MESSAGE: &str = "ec-level high is not available in Micro QR (M4 goes up to quartile)";

/// The message of `invalid-options` for a Micro QR code with `eci`: Micro
/// QR has no ECI mode. Checked after every other symbol check.
pub const MICRO_ECI_MESSAGE: &str = "eci is not available in Micro QR (it has no ECI mode)";

/// The most renders one `png-repeat` call (the probe interface) may ask for. A call cannot be
/// interrupted by any host (a wasm call runs to its end), so the bound is
/// set by the slowest render there is (4096 pixels, the longest text that
/// fits: ~8 ms in wasm, so 50 of them take ~0.4 s) to keep every public
/// call under a second (docs/contract.md).
pub const MAX_PNG_REPEAT_TIMES: u32 = 50;

/// The raw ABI version guest/raw implements (`qr_abi_version`). Version 2
/// added `qr_matrix` and `qr_text`; version 3 gave every generating call the
/// `scale`, `dark` and `light` options, version 4 the symbol options
/// (`micro`, `version`, `min-version`, `mask`, `boost-ec`), version 5 the
/// binary-payload calls (`qr_png_bytes`, `qr_svg_bytes`, `qr_matrix_bytes`,
/// `qr_text_bytes`), version 6 the SVG calls' `svg_flags, title_ptr,
/// title_len, class_ptr, class_len`, version 7 the `symbol_flags` bit
/// `eci`, all contract 0.2.0.
pub const RAW_ABI_VERSION: u32 = 7;

/// The raw ABI's `symbol_flags` bits (guest/raw/ABI.md): Micro QR, EC
/// boost, ECI (UTF-8), and which of `version`, `min_version`, `mask` are given. A word
/// over [`RAW_SYMBOL_FLAGS_MAX`] (an unknown bit) is `invalid-options`.
///
/// `symbol_flags` bit: a Micro QR code ([`Symbol::micro`](crate::Symbol::micro)).
pub const RAW_SYMBOL_MICRO: u32 = 1;
/// `symbol_flags` bit: raise the EC level while the version still holds the
/// text ([`Symbol::boost_ec`](crate::Symbol::boost_ec)).
pub const RAW_SYMBOL_BOOST_EC: u32 = 2;
/// `symbol_flags` bit: the `version` parameter is given (otherwise ignored).
pub const RAW_SYMBOL_HAS_VERSION: u32 = 4;
/// `symbol_flags` bit: the `min_version` parameter is given (otherwise ignored).
pub const RAW_SYMBOL_HAS_MIN_VERSION: u32 = 8;
/// `symbol_flags` bit: the `mask` parameter is given (otherwise ignored).
pub const RAW_SYMBOL_HAS_MASK: u32 = 16;
/// `symbol_flags` bit: an ECI 26 (UTF-8) header ([`Symbol::eci`](crate::Symbol::eci)).
pub const RAW_SYMBOL_ECI: u32 = 32;
/// Every `symbol_flags` bit set: the largest valid word.
pub const RAW_SYMBOL_FLAGS_MAX: u32 = 63;

/// The raw ABI's `svg_flags` bits (`qr_svg`, `qr_svg_bytes`): viewBox only,
/// and whether the title and class buffers are given. A word over
/// [`RAW_SVG_FLAGS_MAX`] is `invalid-options`.
///
/// `svg_flags` bit: no `width`/`height` attributes, the SVG scales to its
/// container ([`SvgOptions::view_box_only`](crate::SvgOptions::view_box_only)).
pub const RAW_SVG_VIEW_BOX_ONLY: u32 = 1;
/// `svg_flags` bit: `title_ptr, title_len` hold a title (otherwise ignored).
pub const RAW_SVG_HAS_TITLE: u32 = 2;
/// `svg_flags` bit: `class_ptr, class_len` hold a class (otherwise ignored).
pub const RAW_SVG_HAS_CLASS: u32 = 4;
/// Every `svg_flags` bit set: the largest valid word.
pub const RAW_SVG_FLAGS_MAX: u32 = 7;

/// Bytes in a raw-ABI result record: `{status, payload_ptr, payload_len}`.
pub const RAW_RECORD_BYTES: u32 = 12;

/// Where an option lives in the WIT: a field of `options`, of its
/// `symbol-options` record, of the SVG calls' `svg-options`, or `text`'s own
/// `style` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A field of the `options` record (every generating call takes it).
    Options,
    /// A field of `options`' `symbol-options` record.
    Symbol,
    /// A field of `svg-options`, the SVG calls' extra argument.
    Svg,
    /// `text`'s `style` argument.
    TextStyle,
}

impl Place {
    /// The WIT type that holds the option (`text-style` is the argument's type).
    pub const fn wit_record(self) -> &'static str {
        match self {
            Place::Options => "options",
            Place::Symbol => "symbol-options",
            Place::Svg => "svg-options",
            Place::TextStyle => "text-style",
        }
    }
}

/// An option's type as the hosts take it (the WIT type it is checked
/// against in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// One of [`EcLevel::ALL`]'s names (`ec-level`).
    EcLevel,
    /// One of [`TextStyle::ALL`]'s names (`text-style`).
    TextStyle,
    /// An integer (`u32`).
    U32,
    /// An integer or none (`option<u32>`).
    OptionU32,
    /// A CSS hex colour (`rgba`).
    Rgba,
    /// A boolean (`bool`).
    Bool,
    /// A string or none (`option<string>`).
    OptionString,
}

/// How the raw ABI passes an option (guest/raw/ABI.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raw {
    /// A parameter of its own (a number, a colour, an enum index).
    Param,
    /// A bit of `symbol_flags`.
    SymbolFlag(u32),
    /// A parameter, given when this `symbol_flags` bit is set.
    SymbolParam(u32),
    /// A bit of `svg_flags`.
    SvgFlag(u32),
    /// A buffer, given when this `svg_flags` bit is set.
    SvgBuffer(u32),
}

/// An option's default, as the hosts fill it in (WIT has no defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// An EC level ([`Ty::EcLevel`]).
    EcLevel(EcLevel),
    /// A text style ([`Ty::TextStyle`]).
    TextStyle(TextStyle),
    /// An integer ([`Ty::U32`]).
    U32(u32),
    /// A colour ([`Ty::Rgba`]).
    Rgba(Rgba),
    /// A boolean ([`Ty::Bool`]).
    Bool(bool),
    /// No value: WIT's `none`.
    None,
}

/// One option, in every spelling, with its type, default, bounds and raw
/// ABI slot: the one table the hosts' option layers are generated from
/// (`just contract`, tools/contract). `bounds` (inclusive) are the guest's
/// checks, stated here once; `micro_bounds` replace them with `micro`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The WIT field name (`min-size`), the messages' name for the option.
    pub wit: &'static str,
    /// JavaScript's (`minSize`).
    pub js: &'static str,
    /// Python's keyword (`min_size`; `svg_class` for `class`, a keyword).
    pub py: &'static str,
    /// The CLIs' flag without its dashes (`symbol-version` for `version`,
    /// since `--version` prints the program's version).
    pub cli: &'static str,
    /// The HTTP query parameter, for the options `GET /qrcode` takes.
    pub query: Option<&'static str>,
    /// Which WIT record or argument holds it.
    pub place: Place,
    /// Its type.
    pub ty: Ty,
    /// The value a host fills in when the caller gives none.
    pub default: DefaultValue,
    /// The accepted range (inclusive) of an integer option; `None` when any
    /// value of its type is accepted.
    pub bounds: Option<(u32, u32)>,
    /// The range that replaces `bounds` when `micro` is set (version, mask).
    pub micro_bounds: Option<(u32, u32)>,
    /// How the raw ABI passes it.
    pub raw: Raw,
    /// One line for the generated docs and types.
    pub doc: &'static str,
}

const fn spec(wit: &'static str, js: &'static str, py: &'static str, place: Place, ty: Ty, default: DefaultValue) -> OptionSpec {
    OptionSpec { wit, js, py, cli: wit, query: Some(wit), place, ty, default, bounds: None, micro_bounds: None, raw: Raw::Param, doc: "" }
}

/// Every option, in the order the contract checks them: the `options`
/// record's fields, its `symbol-options` fields, then the SVG calls' and
/// `text`'s own (each checked after every other option, by its calls alone).
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        doc: "Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable.",
        ..spec("ec-level", "ecLevel", "ec_level", Place::Options, Ty::EcLevel, DefaultValue::EcLevel(EcLevel::Low))
    },
    OptionSpec {
        bounds: Some((MIN_MIN_SIZE, MAX_MIN_SIZE)),
        doc: "Minimum image width and height in pixels.",
        ..spec("min-size", "minSize", "min_size", Place::Options, Ty::U32, DefaultValue::U32(200))
    },
    OptionSpec {
        bounds: Some((0, MAX_QUIET_ZONE)),
        doc: "Light margin around the code, in modules (the standard asks for 4).",
        ..spec("quiet-zone", "quietZone", "quiet_zone", Place::Options, Ty::U32, DefaultValue::U32(4))
    },
    OptionSpec {
        bounds: Some((1, MAX_SCALE)),
        doc: "Pixels per module; when given it sizes the image (min-size is checked but unused).",
        ..spec("scale", "scale", "scale", Place::Options, Ty::OptionU32, DefaultValue::None)
    },
    OptionSpec {
        doc: "The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa.",
        ..spec("dark", "dark", "dark", Place::Options, Ty::Rgba, DefaultValue::Rgba(Rgba::BLACK))
    },
    OptionSpec {
        doc: "The light modules' and the quiet zone's colour, as dark; must differ from dark.",
        ..spec("light", "light", "light", Place::Options, Ty::Rgba, DefaultValue::Rgba(Rgba::WHITE))
    },
    OptionSpec {
        raw: Raw::SymbolFlag(RAW_SYMBOL_MICRO),
        doc: "A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI.",
        ..spec("micro", "micro", "micro", Place::Symbol, Ty::Bool, DefaultValue::Bool(false))
    },
    OptionSpec {
        cli: "symbol-version",
        bounds: Some((1, crate::MAX_VERSION)),
        micro_bounds: Some((1, crate::MAX_MICRO_VERSION)),
        raw: Raw::SymbolParam(RAW_SYMBOL_HAS_VERSION),
        doc: "Exactly this version; a text it cannot hold is data-too-long. Not with min-version.",
        ..spec("version", "version", "version", Place::Symbol, Ty::OptionU32, DefaultValue::None)
    },
    OptionSpec {
        bounds: Some((1, crate::MAX_VERSION)),
        micro_bounds: Some((1, crate::MAX_MICRO_VERSION)),
        raw: Raw::SymbolParam(RAW_SYMBOL_HAS_MIN_VERSION),
        doc: "At least this version: the smallest from it up that holds the text.",
        ..spec("min-version", "minVersion", "min_version", Place::Symbol, Ty::OptionU32, DefaultValue::None)
    },
    OptionSpec {
        bounds: Some((0, 7)),
        micro_bounds: Some((0, 3)),
        raw: Raw::SymbolParam(RAW_SYMBOL_HAS_MASK),
        doc: "This mask pattern instead of the one with the lowest penalty score.",
        ..spec("mask", "mask", "mask", Place::Symbol, Ty::OptionU32, DefaultValue::None)
    },
    OptionSpec {
        raw: Raw::SymbolFlag(RAW_SYMBOL_BOOST_EC),
        doc: "Raise the EC level as far as the chosen version still holds the text.",
        ..spec("boost-ec", "boostEc", "boost_ec", Place::Symbol, Ty::Bool, DefaultValue::Bool(false))
    },
    OptionSpec {
        raw: Raw::SymbolFlag(RAW_SYMBOL_ECI),
        doc: "Precede the data with ECI designator 26 (UTF-8); not with micro.",
        ..spec("eci", "eci", "eci", Place::Symbol, Ty::Bool, DefaultValue::Bool(false))
    },
    OptionSpec {
        query: None,
        raw: Raw::SvgFlag(RAW_SVG_VIEW_BOX_ONLY),
        doc: "SVG only: leave out width and height, so the document scales to its box.",
        ..spec("view-box-only", "viewBoxOnly", "view_box_only", Place::Svg, Ty::Bool, DefaultValue::Bool(false))
    },
    OptionSpec {
        query: None,
        bounds: Some((0, crate::MAX_SVG_TITLE_BYTES)),
        raw: Raw::SvgBuffer(RAW_SVG_HAS_TITLE),
        doc: "SVG only: a <title> (the code's accessible name), in UTF-8 bytes of text XML 1.0 can carry.",
        ..spec("title", "title", "title", Place::Svg, Ty::OptionString, DefaultValue::None)
    },
    OptionSpec {
        query: None,
        bounds: Some((1, crate::MAX_SVG_CLASS_BYTES)),
        raw: Raw::SvgBuffer(RAW_SVG_HAS_CLASS),
        doc: "SVG only: the <svg> element's class, CSS class names separated by single spaces, in bytes.",
        ..spec("class", "class", "svg_class", Place::Svg, Ty::OptionString, DefaultValue::None)
    },
    OptionSpec {
        cli: "style",
        query: None,
        doc: "text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module.",
        ..spec("text-style", "style", "style", Place::TextStyle, Ty::TextStyle, DefaultValue::TextStyle(TextStyle::HalfBlocks))
    },
];

/// The option named `wit` in [`OPTIONS`].
pub fn option(wit: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|spec| spec.wit == wit)
}

/// An option's help line in the CLIs and the docs: its doc line with its
/// bounds (Micro QR's too). The CLIs append the default and the possible
/// values as clap does (`[default: 200]`). One wording for the three CLIs
/// (the Rust CLI calls it, tools/contract writes it into the Node and Python
/// CLIs' flag tables) and docs/contract.md's option table.
pub fn help(spec: &OptionSpec) -> String {
    let doc = spec.doc.trim_end_matches('.');
    match (spec.ty, spec.bounds, spec.micro_bounds) {
        (Ty::OptionString, Some((_, max)), _) => format!("{doc} (at most {max})"),
        (_, Some((min, max)), Some((micro_min, micro_max))) => format!("{doc} ({min}..={max}, {micro_min}..={micro_max} with micro)"),
        (_, Some((min, max)), None) => format!("{doc} ({min}..={max})"),
        _ => doc.to_owned(),
    }
}

/// [`help`] of the option named `wit` (which must be in [`OPTIONS`]).
pub fn help_for(wit: &str) -> String {
    help(option(wit).unwrap_or_else(|| panic!("{wit} is not in contract::OPTIONS")))
}

/// `NOT_UTF8_TEMPLATE` filled in.
pub fn not_utf8(index: usize) -> String {
    format!("text is not valid UTF-8 from byte {index}")
}

/// `OUT_OF_RANGE_TEMPLATE` filled in.
pub fn out_of_range(option: &str, min: u32, max: u32, value: impl Display) -> String {
    format!("{option} must be within {min}..={max}, got {value}")
}

/// `DOES_NOT_FIT_TEMPLATE` for the automatic normal versions (or from a
/// `min-version`): the limit is version `max` (40).
pub fn does_not_fit_any(level: EcLevel, max: u32, capacity: usize, needed: usize) -> String {
    does_not_fit("a QR code", level, &format!("version {max}"), capacity, needed)
}

/// `DOES_NOT_FIT_TEMPLATE` for a fixed normal `version`.
pub fn does_not_fit_version(level: EcLevel, version: u32, capacity: usize, needed: usize) -> String {
    does_not_fit(&format!("version {version}"), level, &format!("version {version}"), capacity, needed)
}

/// `DOES_NOT_FIT_TEMPLATE` for the automatic Micro QR versions (or from a
/// `min-version`): the limit is M`max` (M4).
pub fn does_not_fit_micro(level: EcLevel, max: u32, capacity: usize, needed: usize) -> String {
    does_not_fit("a Micro QR code", level, &format!("M{max}"), capacity, needed)
}

/// `DOES_NOT_FIT_TEMPLATE` for a fixed Micro QR `version`.
pub fn does_not_fit_micro_version(level: EcLevel, version: u32, capacity: usize, needed: usize) -> String {
    does_not_fit(&format!("Micro QR version M{version}"), level, &format!("M{version}"), capacity, needed)
}

fn does_not_fit(symbol: &str, level: EcLevel, limit: &str, capacity: usize, needed: usize) -> String {
    format!("text does not fit in {symbol} at level {}: it needs {needed} data bits, {limit} holds {capacity}", level.as_str())
}

/// `MICRO_LEVEL_TEMPLATE` filled in for Micro QR `version` (1..=3; M4 has
/// every level but high, which is invalid-options before any encoding).
pub fn micro_lacks_level(level: EcLevel, version: u32) -> String {
    let levels = if version == 1 { "has level low only" } else { "goes up to level medium" };
    format!("text does not fit in Micro QR version M{version} at level {}: M{version} {levels}", level.as_str())
}

/// `MICRO_MODE_TEMPLATE` filled in for Micro QR `version` (1 or 2).
pub fn micro_lacks_mode(version: u32) -> String {
    let characters = if version == 1 { "digits" } else { "digits, A-Z, space and $%*+-./:" };
    format!("text does not fit in Micro QR version M{version}: M{version} holds {characters} only")
}

/// `NOT_INTEGER_TEMPLATE` filled in (`value` as the host shows it).
pub fn not_integer(option: &str, value: impl Display) -> String {
    format!("{option} must be an integer, got {value}")
}

/// `EC_LEVEL_NAME_TEMPLATE` filled in (`value` as the host shows it).
pub fn bad_ec_level_name(value: impl Display) -> String {
    format!("ec-level must be one of low, medium, quartile, high, got {value}")
}

/// `EC_LEVEL_INDEX_TEMPLATE` filled in.
pub fn bad_ec_level_index(value: u32) -> String {
    format!("ec-level must be 0..=3 (low, medium, quartile, high), got {value}")
}

/// `COLOR_TEMPLATE` filled in (`value` as the host shows it).
pub fn bad_color(option: &str, value: impl Display) -> String {
    format!("{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}")
}

/// `TOO_LONG_TEMPLATE` filled in.
pub fn too_long(option: &str, max: u32, value: usize) -> String {
    format!("{option} must be at most {max} UTF-8 bytes, got {value}")
}

/// `NOT_XML_CHAR_TEMPLATE` filled in.
pub fn not_xml_char(option: &str, c: char, index: usize) -> String {
    format!("{option} holds U+{:04X} at byte {index}, which XML 1.0 cannot carry", c as u32)
}

/// `CLASS_TEMPLATE` filled in (the value as Rust's `Debug` quotes it).
pub fn bad_class(value: &str) -> String {
    format!("class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got {value:?}")
}

/// The `invalid-options` message for an option string's bytes that are not
/// UTF-8: `OPTION_LONE_SURROGATE_TEMPLATE` where an encoded UTF-16 surrogate
/// starts at the first bad byte (as [`crate::text_from_utf8`] tells a text's),
/// else `OPTION_NOT_TEXT_TEMPLATE`.
pub fn option_not_text(option: &str, bytes: &[u8], index: usize) -> String {
    match bytes[index..] {
        [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..] => format!("{option} contains a lone surrogate (not encodable as UTF-8)"),
        _ => format!("{option} is not valid UTF-8 from byte {index}"),
    }
}

/// `SAME_COLORS_TEMPLATE` filled in.
pub fn same_colors(color: Rgba) -> String {
    format!("dark and light must be different colours, both are {}", color.to_hex())
}

/// `TEXT_STYLE_NAME_TEMPLATE` filled in (`value` as the host shows it).
pub fn bad_text_style_name(value: impl Display) -> String {
    format!("text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}")
}

/// `TEXT_STYLE_INDEX_TEMPLATE` filled in.
pub fn bad_text_style_index(value: u32) -> String {
    format!("text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got {value}")
}

/// The generated contract file: every constant above, the defaults, the
/// bounds, the EC-level order and the error kinds with their order and raw
/// ABI codes, as one JSON object (keys in a fixed order, no dependencies).
pub fn to_json() -> String {
    let defaults = Options::default();
    let quoted = |items: &mut dyn Iterator<Item = &str>| items.map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", ");
    let kinds_in_check_order = [ErrorKind::InvalidText, ErrorKind::EmptyText, ErrorKind::DataTooLong, ErrorKind::InvalidOptions];
    let codes = ErrorKind::ALL.iter().map(|k| format!("\"{}\": {}", k.as_str(), k.code())).collect::<Vec<_>>().join(", ");
    format!(
        r#"{{
  "comment": "Generated by the build from guest/core/src/contract.rs (just contract). Never edit or commit.",
  "ec_levels": [{ec_levels}],
  "text_styles": [{text_styles}],
  "defaults": {{"ec-level": "{ec}", "min-size": {min_size}, "quiet-zone": {quiet_zone}, "scale": null, "dark": "{dark}", "light": "{light}", "text-style": "{text_style}", "micro": false, "version": null, "min-version": null, "mask": null, "boost-ec": false, "eci": false, "view-box-only": false, "title": null, "class": null}},
  "bounds": {{"svg-title-bytes": [0, {max_title}], "svg-class-bytes": [1, {max_class}], "min-size": [{min_min}, {max_min}], "quiet-zone": [0, {max_quiet}], "scale": [1, {max_scale}], "version": [1, {max_version}], "micro-version": [1, {max_micro_version}], "mask": [0, 7], "micro-mask": [0, 3]}},
  "max_text_bytes": {max_text},
  "max_png_repeat_times": {max_repeat},
  "error_kinds": [{kinds}],
  "error_check_order": [{order}],
  "messages": {{
    "empty-text": "{empty}",
    "data-too-long": "{too_long}",
    "lone-surrogate": "{surrogate}",
    "not-utf8": "{not_utf8}",
    "out-of-range": "{range}",
    "not-integer": "{not_integer}",
    "ec-level-name": "{level_name}",
    "ec-level-index": "{level_index}",
    "color": "{color}",
    "same-colors": "{same_colors}",
    "text-style-name": "{style_name}",
    "text-style-index": "{style_index}",
    "version-conflict": "{version_conflict}",
    "micro-ec-level": "{micro_ec_level}",
    "micro-eci": "{micro_eci}",
    "too-long": "{too_long_template}",
    "not-xml-char": "{not_xml_char}",
    "class": "{class}",
    "option-not-text": "{option_not_text}",
    "option-lone-surrogate": "{option_lone_surrogate}"
  }},
  "raw_abi": {{"version": {abi}, "record_bytes": {record}, "status_ok": 0, "status_codes": {{{codes}}}, "symbol_flags": {{"micro": {f_micro}, "boost-ec": {f_boost}, "has-version": {f_version}, "has-min-version": {f_min_version}, "has-mask": {f_mask}, "eci": {f_eci}}}, "svg_flags": {{"view-box-only": {s_view_box}, "has-title": {s_title}, "has-class": {s_class}}}}}
}}
"#,
        ec_levels = quoted(&mut EcLevel::ALL.iter().map(|l| l.as_str())),
        text_styles = quoted(&mut TextStyle::ALL.iter().map(|s| s.as_str())),
        text_style = TextStyle::default().as_str(),
        ec = defaults.ec_level.as_str(),
        min_size = defaults.min_size,
        quiet_zone = defaults.quiet_zone,
        min_min = MIN_MIN_SIZE,
        max_min = MAX_MIN_SIZE,
        max_quiet = MAX_QUIET_ZONE,
        max_scale = MAX_SCALE,
        dark = defaults.dark.to_hex(),
        light = defaults.light.to_hex(),
        color = COLOR_TEMPLATE,
        same_colors = SAME_COLORS_TEMPLATE,
        max_text = MAX_TEXT_BYTES,
        max_repeat = MAX_PNG_REPEAT_TIMES,
        kinds = quoted(&mut ErrorKind::ALL.iter().map(|k| k.as_str())),
        order = quoted(&mut kinds_in_check_order.iter().map(|k| k.as_str())),
        empty = EMPTY_TEXT_MESSAGE,
        too_long = DATA_TOO_LONG_MESSAGE,
        surrogate = LONE_SURROGATE_MESSAGE,
        not_utf8 = NOT_UTF8_TEMPLATE,
        range = OUT_OF_RANGE_TEMPLATE,
        not_integer = NOT_INTEGER_TEMPLATE,
        level_name = EC_LEVEL_NAME_TEMPLATE,
        level_index = EC_LEVEL_INDEX_TEMPLATE,
        style_name = TEXT_STYLE_NAME_TEMPLATE,
        style_index = TEXT_STYLE_INDEX_TEMPLATE,
        version_conflict = VERSION_CONFLICT_MESSAGE,
        micro_ec_level = MICRO_EC_LEVEL_MESSAGE,
        micro_eci = MICRO_ECI_MESSAGE,
        too_long_template = TOO_LONG_TEMPLATE,
        not_xml_char = NOT_XML_CHAR_TEMPLATE,
        class = CLASS_TEMPLATE,
        option_not_text = OPTION_NOT_TEXT_TEMPLATE,
        option_lone_surrogate = OPTION_LONE_SURROGATE_TEMPLATE,
        max_title = crate::MAX_SVG_TITLE_BYTES,
        max_class = crate::MAX_SVG_CLASS_BYTES,
        max_version = crate::MAX_VERSION,
        max_micro_version = crate::MAX_MICRO_VERSION,
        abi = RAW_ABI_VERSION,
        f_micro = RAW_SYMBOL_MICRO,
        f_boost = RAW_SYMBOL_BOOST_EC,
        f_version = RAW_SYMBOL_HAS_VERSION,
        f_min_version = RAW_SYMBOL_HAS_MIN_VERSION,
        f_mask = RAW_SYMBOL_HAS_MASK,
        f_eci = RAW_SYMBOL_ECI,
        s_view_box = RAW_SVG_VIEW_BOX_ONLY,
        s_title = RAW_SVG_HAS_TITLE,
        s_class = RAW_SVG_HAS_CLASS,
        record = RAW_RECORD_BYTES,
    )
}
