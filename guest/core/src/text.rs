//! Stage 2c: matrix -> text for a terminal or a plain-text file.
//!
//! Two forms, as node-qrcode (`toString({type: 'utf8'})`) and segno
//! (`terminal()`, `txt`) offer them:
//! - half blocks: two module rows per line with U+2580/U+2584/U+2588, so a
//!   code keeps its square shape in a terminal whose cells are twice as tall
//!   as wide; ink is the dark modules (a light background, a file), or, in the
//!   inverted form, the light modules (a dark terminal);
//! - ascii: one line per module row, two characters per module ("##" dark,
//!   two spaces light), readable anywhere.
//!
//! The quiet zone is drawn (light modules on every side): without it a reader
//! cannot find the code on a dark terminal. Every line ends with "\n".

use crate::{Options, QrMatrix, TextStyle};

const FULL: char = '\u{2588}';
const UPPER: char = '\u{2580}';
const LOWER: char = '\u{2584}';

/// Stage 2c alone: the lines of `matrix` in `style`, with `options`'
/// quiet zone on every side (no checks: [`crate::text`] validates first).
/// Every line ends with `\n`.
pub fn render_text(matrix: &QrMatrix, options: &Options, style: TextStyle) -> String {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let side = n + 2 * quiet;
    // Whether the module at (x, y) of the grid with its quiet zone is dark.
    let dark = |x: usize, y: usize| {
        let inside = |v: usize| (quiet..quiet + n).contains(&v);
        inside(x) && inside(y) && matrix.is_dark(x - quiet, y - quiet)
    };
    let mut out = String::new();
    match style {
        TextStyle::Ascii => {
            out.reserve(side * (2 * side + 1));
            for y in 0..side {
                for x in 0..side {
                    out.push_str(if dark(x, y) { "##" } else { "  " });
                }
                out.push('\n');
            }
        }
        TextStyle::HalfBlocks | TextStyle::HalfBlocksInverted => {
            let ink_is_dark = style == TextStyle::HalfBlocks;
            // A row past the grid (the last line of an odd side) has no ink.
            let ink = |x: usize, y: usize| y < side && dark(x, y) == ink_is_dark;
            out.reserve(side.div_ceil(2) * (3 * side + 1));
            for y in (0..side).step_by(2) {
                for x in 0..side {
                    out.push(match (ink(x, y), ink(x, y + 1)) {
                        (true, true) => FULL,
                        (true, false) => UPPER,
                        (false, true) => LOWER,
                        (false, false) => ' ',
                    });
                }
                out.push('\n');
            }
        }
    }
    out
}
