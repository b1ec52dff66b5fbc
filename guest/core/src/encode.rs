//! Stage 1: text -> QR module matrix.
//!
//! The symbol is exactly the one `qrcode::QrCode::with_error_correction_level`
//! builds (its segmentation, codewords, drawing and mask), assembled from
//! qrcode's public parts as `QrCode::with_bits` does, except for the last
//! step: qrcode's `apply_best_mask` spends ~95 % of the encoding time scoring
//! masks, so [`crate::mask`] scores them with qrcode's rules and tie-break,
//! without allocating, and masks the winner.

use qrcode::canvas::Canvas;

use crate::{EcLevel, QrError, mask};

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
/// holds it is chosen, as `qrcode::QrCode::with_error_correction_level` does,
/// and the result is that function's symbol, module for module.
pub fn encode(text: &str, ec_level: EcLevel) -> Result<QrMatrix, QrError> {
    let level = ec_level.to_qrcode();
    let bits = qrcode::bits::encode_auto(text.as_bytes(), level).map_err(from_qrcode_error)?;
    let version = bits.version();
    let (data, ec) = qrcode::ec::construct_codewords(&bits.into_bytes(), version, level).map_err(from_qrcode_error)?;
    let mut canvas = Canvas::new(version, level);
    canvas.draw_all_functional_patterns();
    canvas.draw_data(&data, &ec);
    // encode_auto only yields normal (non-micro) versions: width 21..=177.
    let width = version.width() as usize;
    let dark = mask::best_masked_symbol(&canvas, width, level);
    Ok(QrMatrix { width, dark })
}

fn from_qrcode_error(error: qrcode::types::QrError) -> QrError {
    match error {
        qrcode::types::QrError::DataTooLong => QrError::DataTooLong,
        // Every other qrcode error needs an explicit version, ECI or
        // character set, none of which this crate asks for.
        other => unreachable!("qrcode error impossible with automatic encoding: {other}"),
    }
}
