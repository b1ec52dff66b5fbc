//! Stage 1: text -> QR module matrix, with the `qrcode` crate's default
//! segmentation and mask choice.

use crate::{EcLevel, QrError};

/// A square matrix of modules; `true` is dark. Row-major, `width * width`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    width: usize,
    dark: Vec<bool>,
}

impl QrMatrix {
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
}

/// Encodes `text` (already validated) at `ec_level`. The smallest version that
/// holds it is chosen, as `qrcode::QrCode::with_error_correction_level` does.
pub fn encode(text: &str, ec_level: EcLevel) -> Result<QrMatrix, QrError> {
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), ec_level.to_qrcode()).map_err(|e| match e {
        qrcode::types::QrError::DataTooLong => QrError::DataTooLong,
        // Every other qrcode error needs an explicit version, ECI or
        // character set, none of which this crate asks for.
        other => unreachable!("qrcode error impossible with automatic encoding: {other}"),
    })?;
    let width = code.width();
    let dark = code.into_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
    Ok(QrMatrix { width, dark })
}
