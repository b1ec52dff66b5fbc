//! Options and their bounds. WIT has no defaults, so every host applies
//! [`Options::default`]'s values itself: low, 200, 4.

use crate::{QrError, contract};

/// Error-correction level: how much of the code may be damaged and still read
/// (about 7 %, 15 %, 25 %, 30 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EcLevel {
    #[default]
    Low,
    Medium,
    Quartile,
    High,
}

impl EcLevel {
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

/// The largest quiet zone, in modules. The standard asks for 4; 16 leaves room
/// for generous margins without letting the margin dominate the image.
pub const MAX_QUIET_ZONE: u32 = 16;

/// No QR code holds more than 7089 characters (numeric mode, version 40,
/// EC low), and every character is at least one UTF-8 byte: any longer text
/// is `data-too-long` without trying to encode it. Hosts use this bound to
/// reject long texts before copying them into guest memory.
pub const MAX_TEXT_BYTES: usize = 7089;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    pub ec_level: EcLevel,
    /// Minimum width (and height) of the image in pixels. The module size is
    /// the smallest whole number of pixels that reaches it, as the `qrcode`
    /// crate's `min_dimensions` computes it, so the image may be wider.
    pub min_size: u32,
    /// Margin around the code, in modules.
    pub quiet_zone: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { ec_level: EcLevel::Low, min_size: 200, quiet_zone: 4 }
    }
}

impl Options {
    pub fn validate(&self) -> Result<(), QrError> {
        if !(contract::MIN_MIN_SIZE..=MAX_MIN_SIZE).contains(&self.min_size) {
            return Err(QrError::InvalidOptions(contract::out_of_range("min-size", contract::MIN_MIN_SIZE, MAX_MIN_SIZE, self.min_size)));
        }
        if self.quiet_zone > MAX_QUIET_ZONE {
            return Err(QrError::InvalidOptions(contract::out_of_range("quiet-zone", 0, MAX_QUIET_ZONE, self.quiet_zone)));
        }
        Ok(())
    }

    /// Modules across the whole image, quiet zone included.
    pub(crate) fn modules_across(&self, matrix_width: usize) -> u32 {
        matrix_width as u32 + 2 * self.quiet_zone
    }

    /// Pixels per module: ceil(min_size / modules_across), as qrcode's
    /// `Renderer::min_dimensions` computes it (never 0 since min_size >= 1).
    pub(crate) fn module_pixels(&self, matrix_width: usize) -> u32 {
        self.min_size.div_ceil(self.modules_across(matrix_width))
    }
}
