//! Options and their bounds. WIT has no defaults, so every host applies
//! [`Options::default`]'s values itself: low, 200, 4, no scale, black on
//! white, the automatic symbol.

use crate::{QrError, contract};

/// Error-correction level: how much of the code may be damaged and still read
/// (about 7 %, 15 %, 25 %, 30 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EcLevel {
    /// About 7 % of codewords recoverable: the smallest code (the default).
    #[default]
    Low,
    /// About 15 % recoverable.
    Medium,
    /// About 25 % recoverable.
    Quartile,
    /// About 30 % recoverable: the largest code. Not available in Micro QR.
    High,
}

impl EcLevel {
    /// Every level, in WIT order (the raw ABI's indices 0..=3).
    pub const ALL: [EcLevel; 4] = [EcLevel::Low, EcLevel::Medium, EcLevel::Quartile, EcLevel::High];

    /// The raw ABI encoding (0..=3, in WIT order); other values are invalid options.
    pub fn from_index(index: u32) -> Option<EcLevel> {
        Self::ALL.get(index as usize).copied()
    }

    /// This level's index in WIT order: the raw ABI's encoding.
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// The level for a WIT case name (`"quartile"`).
    pub fn from_name(name: &str) -> Option<EcLevel> {
        Self::ALL.into_iter().find(|level| level.as_str() == name)
    }

    /// The WIT case name (`"quartile"`), as hosts take and show it.
    pub fn as_str(self) -> &'static str {
        match self {
            EcLevel::Low => "low",
            EcLevel::Medium => "medium",
            EcLevel::Quartile => "quartile",
            EcLevel::High => "high",
        }
    }

    pub(crate) fn to_qrcode(self) -> qrcode::EcLevel {
        match self {
            EcLevel::Low => qrcode::EcLevel::L,
            EcLevel::Medium => qrcode::EcLevel::M,
            EcLevel::Quartile => qrcode::EcLevel::Q,
            EcLevel::High => qrcode::EcLevel::H,
        }
    }
}

/// How [`crate::text`] draws a code (WIT `text-style`); hosts default to
/// [`TextStyle::HalfBlocks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextStyle {
    /// Two module rows per line in half blocks, ink on the dark modules.
    #[default]
    HalfBlocks,
    /// The same with ink on the light modules, for a dark terminal.
    HalfBlocksInverted,
    /// One line per module row, "##" for dark, two spaces for light.
    Ascii,
}

impl TextStyle {
    /// Every style, in WIT order (the raw ABI's indices 0..=2).
    pub const ALL: [TextStyle; 3] = [TextStyle::HalfBlocks, TextStyle::HalfBlocksInverted, TextStyle::Ascii];

    /// The raw ABI encoding (0..=2, in WIT order); other values are invalid options.
    pub fn from_index(index: u32) -> Option<TextStyle> {
        Self::ALL.get(index as usize).copied()
    }

    /// This style's index in WIT order: the raw ABI's encoding.
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// The style for a WIT case name (`"half-blocks"`).
    pub fn from_name(name: &str) -> Option<TextStyle> {
        Self::ALL.into_iter().find(|style| style.as_str() == name)
    }

    /// The WIT case name (`"half-blocks"`), as hosts take and show it.
    pub fn as_str(self) -> &'static str {
        match self {
            TextStyle::HalfBlocks => "half-blocks",
            TextStyle::HalfBlocksInverted => "half-blocks-inverted",
            TextStyle::Ascii => "ascii",
        }
    }
}

/// The largest `min_size` accepted. 4096 px is well past any screen or print
/// need, and caps the PNG stage's working memory at a few MiB (a version-40
/// code at this size is 4180 px wide: 2.2 MB of 1-bit rows) so the guest's
/// 64 MiB linear memory can never be exhausted by options alone.
pub const MAX_MIN_SIZE: u32 = 4096;

/// The largest `scale` (pixels per module). A version-40 code with the
/// largest quiet zone is 209 modules across: 20 px each is 4180 px, the
/// widest image `min_size` can already produce, so the PNG stage's memory
/// bound holds whichever of the two sizes the image.
pub const MAX_SCALE: u32 = 20;

/// A colour: red, green, blue and alpha (0 transparent, 255 opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgba {
    /// Red, 0..=255.
    pub r: u8,
    /// Green, 0..=255.
    pub g: u8,
    /// Blue, 0..=255.
    pub b: u8,
    /// Alpha: 0 transparent, 255 opaque.
    pub a: u8,
}

impl Rgba {
    /// Opaque black, `#000000ff`: the default dark colour.
    pub const BLACK: Rgba = Rgba { r: 0, g: 0, b: 0, a: 255 };
    /// Opaque white, `#ffffffff`: the default light colour.
    pub const WHITE: Rgba = Rgba { r: 255, g: 255, b: 255, a: 255 };

    /// A CSS hex colour as node-qrcode and segno take it: `#rgb`, `#rgba`,
    /// `#rrggbb` or `#rrggbbaa` (either case). Anything else is `None`;
    /// hosts answer it with [`contract::bad_color`].
    pub fn from_hex(text: &str) -> Option<Rgba> {
        let digits = text.strip_prefix('#')?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let nibble = |i: usize| u8::from_str_radix(&digits[i..i + 1], 16).ok();
        let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
        let (r, g, b, a) = match digits.len() {
            3 | 4 => (nibble(0)? * 17, nibble(1)? * 17, nibble(2)? * 17, if digits.len() == 4 { nibble(3)? * 17 } else { 255 }),
            6 | 8 => (byte(0)?, byte(2)?, byte(4)?, if digits.len() == 8 { byte(6)? } else { 255 }),
            _ => return None,
        };
        Some(Rgba { r, g, b, a })
    }

    /// `#rrggbbaa`, lowercase: how the contract and messages show a colour.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}{:02x}", self.r, self.g, self.b, self.a)
    }

    /// The raw ABI's encoding: `0xRRGGBBAA`.
    pub const fn to_u32(self) -> u32 {
        u32::from_be_bytes([self.r, self.g, self.b, self.a])
    }

    /// From the raw ABI's `0xRRGGBBAA`.
    pub const fn from_u32(value: u32) -> Rgba {
        let [r, g, b, a] = value.to_be_bytes();
        Rgba { r, g, b, a }
    }
}

/// The largest normal QR version (177 modules across).
pub const MAX_VERSION: u32 = 40;

/// The largest Micro QR version, M4 (17 modules across).
pub const MAX_MICRO_VERSION: u32 = 4;

/// Which symbol to build (WIT `symbol-options`). The default is the
/// automatic choice every earlier release made: the smallest normal version
/// that holds the text, the mask with the lowest penalty score, the EC level
/// as given. Each field moves one of those choices to the caller, as
/// node-qrcode's `version`/`maskPattern` and segno's `version`, `mask`,
/// `micro` and `boost_error` do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Symbol {
    /// A Micro QR code (versions M1..=M4, 11 to 17 modules, one finder
    /// pattern) instead of a normal one: for short payloads in little space.
    pub micro: bool,
    /// Exactly this version (1..=40, or 1..=4 with `micro`); a text it cannot
    /// hold is `data-too-long`.
    pub version: Option<u32>,
    /// At least this version (same bounds): the smallest version from it up
    /// that holds the text. Excludes `version`.
    pub min_version: Option<u32>,
    /// This mask pattern (0..=7, or 0..=3 with `micro`, numbered as in the
    /// format information) instead of the lowest-penalty one.
    pub mask: Option<u32>,
    /// Raise the EC level as far as the chosen version still holds the text
    /// (segno's `boost_error`; off by default, which keeps the bytes of
    /// earlier releases).
    pub boost_ec: bool,
    /// Precede the data with ECI designator 26 (UTF-8) so that readers
    /// decode its bytes as UTF-8 (segno's `eci=True`). Costs 12 bits, so a
    /// text near a version's capacity may need the next version. Not with
    /// `micro` (Micro QR has no ECI). Off by default: the bytes of earlier
    /// releases.
    pub eci: bool,
}

impl Symbol {
    /// Every field at its default: the automatic symbol (`Symbol::default()`
    /// in a `const`).
    pub const AUTOMATIC: Symbol = Symbol { micro: false, version: None, min_version: None, mask: None, boost_ec: false, eci: false };

    /// The largest version number for this kind of symbol.
    pub const fn max_version(&self) -> u32 {
        if self.micro { MAX_MICRO_VERSION } else { MAX_VERSION }
    }

    /// The largest mask number for this kind of symbol.
    pub const fn max_mask(&self) -> u32 {
        if self.micro { 3 } else { 7 }
    }

    /// The checks of [`Options::validate`] for the symbol fields, in WIT
    /// field order: version, min-version, both given, mask, then Micro QR
    /// at level high (M4 goes up to quartile), then Micro QR with ECI.
    fn validate(&self, ec_level: EcLevel) -> Result<(), QrError> {
        let max_version = self.max_version();
        for (name, value) in [("version", self.version), ("min-version", self.min_version)] {
            if let Some(v) = value.filter(|v| !(1..=max_version).contains(v)) {
                return Err(QrError::InvalidOptions(contract::out_of_range(name, 1, max_version, v)));
            }
        }
        if self.version.is_some() && self.min_version.is_some() {
            return Err(QrError::InvalidOptions(contract::VERSION_CONFLICT_MESSAGE.to_owned()));
        }
        if let Some(mask) = self.mask.filter(|m| *m > self.max_mask()) {
            return Err(QrError::InvalidOptions(contract::out_of_range("mask", 0, self.max_mask(), mask)));
        }
        if self.micro && ec_level == EcLevel::High {
            return Err(QrError::InvalidOptions(contract::MICRO_EC_LEVEL_MESSAGE.to_owned()));
        }
        if self.micro && self.eci {
            return Err(QrError::InvalidOptions(contract::MICRO_ECI_MESSAGE.to_owned()));
        }
        Ok(())
    }
}

/// The largest quiet zone, in modules. The standard asks for 4; 16 leaves room
/// for generous margins without letting the margin dominate the image.
pub const MAX_QUIET_ZONE: u32 = 16;

/// No QR code holds more than 7089 characters (numeric mode, version 40,
/// EC low), and every character is at least one UTF-8 byte: any longer text
/// is `data-too-long` without trying to encode it. Hosts use this bound to
/// reject long texts before copying them into guest memory.
pub const MAX_TEXT_BYTES: usize = 7089;

/// How to build and draw a code (WIT `options`). Every generating call takes
/// one; [`Options::default`] is what every host fills in for an option the
/// caller leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Error-correction level (default [`EcLevel::Low`]).
    pub ec_level: EcLevel,
    /// Minimum width (and height) of the image in pixels. The module size is
    /// the smallest whole number of pixels that reaches it, as the `qrcode`
    /// crate's `min_dimensions` computes it, so the image may be wider.
    pub min_size: u32,
    /// Margin around the code, in modules.
    pub quiet_zone: u32,
    /// Pixels per module, `1..=MAX_SCALE`; when set, `min_size` is checked
    /// but does not size the image (node-qrcode's `scale`, segno's `scale`).
    pub scale: Option<u32>,
    /// The dark modules' colour.
    pub dark: Rgba,
    /// The light modules' and the quiet zone's colour.
    pub light: Rgba,
    /// Which symbol: version, mask, EC boost, Micro QR (all automatic by default).
    pub symbol: Symbol,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ec_level: EcLevel::Low,
            min_size: 200,
            quiet_zone: 4,
            scale: None,
            dark: Rgba::BLACK,
            light: Rgba::WHITE,
            symbol: Symbol::default(),
        }
    }
}

impl Options {
    /// Checks every option against its bounds, in WIT field order: min-size
    /// (`1..=MAX_MIN_SIZE`), quiet-zone (`0..=MAX_QUIET_ZONE`), scale
    /// (`1..=MAX_SCALE`), dark differing from light, then the symbol
    /// options. The first failure is [`QrError::InvalidOptions`], its
    /// message naming the option, its bounds and the value given.
    pub fn validate(&self) -> Result<(), QrError> {
        if !(contract::MIN_MIN_SIZE..=MAX_MIN_SIZE).contains(&self.min_size) {
            return Err(QrError::InvalidOptions(contract::out_of_range("min-size", contract::MIN_MIN_SIZE, MAX_MIN_SIZE, self.min_size)));
        }
        if self.quiet_zone > MAX_QUIET_ZONE {
            return Err(QrError::InvalidOptions(contract::out_of_range("quiet-zone", 0, MAX_QUIET_ZONE, self.quiet_zone)));
        }
        if let Some(scale) = self.scale.filter(|s| !(1..=MAX_SCALE).contains(s)) {
            return Err(QrError::InvalidOptions(contract::out_of_range("scale", 1, MAX_SCALE, scale)));
        }
        // A code drawn in one colour cannot be read; nearly equal colours are
        // the caller's choice (readers differ in what contrast they need).
        if self.dark == self.light {
            return Err(QrError::InvalidOptions(contract::same_colors(self.dark)));
        }
        self.symbol.validate(self.ec_level)
    }

    /// Whether the image is the default black on opaque white, which the
    /// PNG stage writes as 1-bit grayscale (the golden bytes); any other
    /// colours take a two-entry palette.
    pub(crate) fn is_black_on_white(&self) -> bool {
        self.dark == Rgba::BLACK && self.light == Rgba::WHITE
    }

    /// Modules across the whole image, quiet zone included.
    pub(crate) fn modules_across(&self, matrix_width: usize) -> u32 {
        matrix_width as u32 + 2 * self.quiet_zone
    }

    /// Pixels per module: `scale` if set, else ceil(min_size /
    /// modules_across), as qrcode's `Renderer::min_dimensions` computes it
    /// (never 0 since min_size >= 1).
    pub(crate) fn module_pixels(&self, matrix_width: usize) -> u32 {
        self.scale.unwrap_or_else(|| self.min_size.div_ceil(self.modules_across(matrix_width)))
    }
}

/// The most UTF-8 bytes an SVG `title` may have.
pub const MAX_SVG_TITLE_BYTES: u32 = 1024;
/// The most bytes an SVG `class` may have.
pub const MAX_SVG_CLASS_BYTES: u32 = 256;

/// How [`crate::svg`] writes its document (WIT `svg-options`). The default
/// is the document every earlier version wrote, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SvgOptions {
    /// Leave out `width` and `height`: only the viewBox stays, and the
    /// document scales to whatever box it is put in (CSS, an `<img>`).
    pub view_box_only: bool,
    /// A `<title>`: the code's accessible name (screen readers read it,
    /// browsers show it as a tooltip), XML-escaped. At most
    /// [`MAX_SVG_TITLE_BYTES`], and only characters XML 1.0 can carry.
    pub title: Option<String>,
    /// The `<svg>` element's `class` attribute: CSS class names (ASCII
    /// letters, digits, `-`, `_`) separated by single spaces, 1 to
    /// [`MAX_SVG_CLASS_BYTES`] bytes.
    pub class: Option<String>,
}

impl SvgOptions {
    /// Checked after [`Options::validate`] (as `text`'s style is), only by
    /// the SVG calls: nothing is echoed that the document could not hold.
    pub fn validate(&self) -> Result<(), QrError> {
        if let Some(title) = &self.title {
            if title.len() > MAX_SVG_TITLE_BYTES as usize {
                return Err(QrError::InvalidOptions(contract::too_long("title", MAX_SVG_TITLE_BYTES, title.len())));
            }
            // XML 1.0's Char production: no C0 control but tab, line feed and
            // carriage return, no U+FFFE or U+FFFF (surrogates cannot be in a str).
            let not_xml = |c: char| (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}');
            if let Some((at, c)) = title.char_indices().find(|&(_, c)| not_xml(c)) {
                return Err(QrError::InvalidOptions(contract::not_xml_char("title", c, at)));
            }
        }
        if let Some(class) = &self.class {
            let name = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            // Over its bound first, in the title's words: a host that never
            // copies an oversized string into a guest says the same without
            // restating the class rules (docs/contract.md).
            if class.len() > MAX_SVG_CLASS_BYTES as usize {
                return Err(QrError::InvalidOptions(contract::too_long("class", MAX_SVG_CLASS_BYTES, class.len())));
            }
            if !class.split(' ').all(name) {
                return Err(QrError::InvalidOptions(contract::bad_class(class)));
            }
        }
        Ok(())
    }
}
