//! The one error type. Every failure of every path maps to one of four kinds,
//! mirrored by the WIT `qr-error` variant and by the raw ABI's status codes.

use std::fmt;

/// The kind of a [`QrError`], as named in the WIT contract (kebab-case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `empty-text`: there is nothing to encode (raw code 1).
    EmptyText,
    /// `invalid-text`: the input is not exactly a text (raw code 2).
    InvalidText,
    /// `data-too-long`: no allowed version holds the data (raw code 3).
    DataTooLong,
    /// `invalid-options`: an option is out of range (raw code 4).
    InvalidOptions,
}

impl ErrorKind {
    /// Every kind, in raw ABI code order (1..=4).
    pub const ALL: [ErrorKind; 4] = [ErrorKind::EmptyText, ErrorKind::InvalidText, ErrorKind::DataTooLong, ErrorKind::InvalidOptions];

    /// The WIT case name, e.g. `"data-too-long"`; hosts expose this as `.kind`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::EmptyText => "empty-text",
            ErrorKind::InvalidText => "invalid-text",
            ErrorKind::DataTooLong => "data-too-long",
            ErrorKind::InvalidOptions => "invalid-options",
        }
    }

    /// The raw ABI status code (0 is success): see guest/raw/ABI.md.
    pub const fn code(self) -> u32 {
        match self {
            ErrorKind::EmptyText => 1,
            ErrorKind::InvalidText => 2,
            ErrorKind::DataTooLong => 3,
            ErrorKind::InvalidOptions => 4,
        }
    }

    /// The kind for a raw ABI status code; `None` for 0 (success) and for
    /// codes the ABI does not define.
    pub const fn from_code(code: u32) -> Option<ErrorKind> {
        match code {
            1 => Some(ErrorKind::EmptyText),
            2 => Some(ErrorKind::InvalidText),
            3 => Some(ErrorKind::DataTooLong),
            4 => Some(ErrorKind::InvalidOptions),
            _ => None,
        }
    }

    /// The kind for a WIT case name (`"data-too-long"`).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// Why a call made no code: the error every generating function returns.
/// Its [`Display`](fmt::Display) is the message every host shows for it;
/// [`QrError::kind`] is the kind hosts compare against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrError {
    /// The text is empty: there is nothing to encode.
    EmptyText,
    /// The input is not exactly a text: invalid UTF-8 (raw ABI), a host string
    /// with a lone surrogate, or a buffer the guest did not hand out.
    InvalidText(String),
    /// The text does not fit: over [`crate::MAX_TEXT_BYTES`], or more than
    /// the versions the symbol options allow hold at the EC level. The
    /// message names the limit hit (`contract`'s `does_not_fit_*`).
    DataTooLong(String),
    /// An option is out of range; the message names it and its bounds.
    InvalidOptions(String),
}

impl QrError {
    /// The `data-too-long` of a text or payload over [`crate::MAX_TEXT_BYTES`]
    /// (the fixed [`crate::contract::DATA_TOO_LONG_MESSAGE`]): what the core's
    /// length check and every host's check before copying say.
    pub fn over_max_text_bytes() -> QrError {
        QrError::DataTooLong(crate::contract::DATA_TOO_LONG_MESSAGE.to_owned())
    }

    /// This error's kind, without its message.
    pub fn kind(&self) -> ErrorKind {
        match self {
            QrError::EmptyText => ErrorKind::EmptyText,
            QrError::InvalidText(_) => ErrorKind::InvalidText,
            QrError::DataTooLong(_) => ErrorKind::DataTooLong,
            QrError::InvalidOptions(_) => ErrorKind::InvalidOptions,
        }
    }
}

impl fmt::Display for QrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QrError::EmptyText => f.write_str(crate::contract::EMPTY_TEXT_MESSAGE),
            QrError::InvalidText(msg) => f.write_str(msg),
            QrError::DataTooLong(msg) => f.write_str(msg),
            QrError::InvalidOptions(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for QrError {}
