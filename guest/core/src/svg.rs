//! Stage 2b: matrix -> SVG text.
//!
//! One `<path>` draws every dark module: each horizontal run of dark modules
//! in a row is one `M x,y h len v1 h -len z` rectangle, in module units
//! (the viewBox), so the file size does not depend on the pixel size.
//! `shape-rendering="crispEdges"` keeps module edges sharp when scaled.

use std::borrow::Cow;

use crate::{Options, QrMatrix, Rgba, SvgOptions};

/// The `fill` attribute for `color`: `fill="#rrggbb"`, with `fill-opacity`
/// (alpha / 255, at most three decimals) when it is not opaque.
fn fill(color: Rgba) -> String {
    let rgb = format!("#{:02x}{:02x}{:02x}", color.r, color.g, color.b);
    if color.a == 255 {
        return format!(r#"fill="{rgb}""#);
    }
    let opacity = format!("{:.3}", f64::from(color.a) / 255.0);
    let opacity = opacity.trim_end_matches('0').trim_end_matches('.');
    format!(r#"fill="{rgb}" fill-opacity="{opacity}""#)
}

/// `text` with XML's five special characters escaped (element content and
/// double-quoted attributes alike), and the line breaks a reader may
/// normalise written as character references, which none does: a carriage
/// return (every XML reader turns it, and CR LF, into a line feed), U+0085
/// and U+2028 (XML 1.1 readers do).
fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'', '\r', '\u{85}', '\u{2028}']) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            '\u{85}' => out.push_str("&#133;"),
            '\u{2028}' => out.push_str("&#8232;"),
            c => out.push(c),
        }
    }
    out.into()
}

/// "M" x "," y "h" len "v1h-" len "z" with numbers of at most 3 digits.
const MAX_RUN_BYTES: usize = 1 + 3 + 1 + 3 + 1 + 3 + 4 + 3 + 1;

/// Words of a packed matrix row (177 modules, version 40, fit in 3).
const ROW_WORDS: usize = 3;

/// `row` packed: module x at bit x % 64 of word x / 64 (1 = dark), the
/// bits past the row clear.
fn pack_row(row: &[bool]) -> [u64; ROW_WORDS] {
    let mut words = [0; ROW_WORDS];
    for (word, chunk) in words.iter_mut().zip(row.chunks(64)) {
        *word = chunk.iter().rev().fold(0u64, |acc, &dark| acc << 1 | u64::from(dark));
    }
    words
}

/// The runs of dark modules in a packed row, left to right.
struct Runs<'a> {
    words: &'a [u64; ROW_WORDS],
    x: usize,
}

impl Runs<'_> {
    /// The first bit at or after `x` equal to `dark`, or the row's end
    /// (`64 * ROW_WORDS`) when there is none.
    fn find(&self, mut x: usize, dark: bool) -> usize {
        while x < 64 * ROW_WORDS {
            let word = if dark { self.words[x / 64] } else { !self.words[x / 64] };
            let rest = word >> (x % 64);
            if rest != 0 {
                return x + rest.trailing_zeros() as usize;
            }
            x = (x / 64 + 1) * 64;
        }
        64 * ROW_WORDS
    }

    /// The next run as (first module, length); the bits past the row are
    /// light, so a run ends at the row's end at the latest.
    fn next_run(&mut self) -> Option<(usize, usize)> {
        let start = self.find(self.x, true);
        if start >= 64 * ROW_WORDS {
            return None;
        }
        let end = self.find(start, false);
        self.x = end;
        Some((start, end - start))
    }
}

/// The number of dark runs in packed rows: the dark bits whose left
/// neighbour (the bit below, or the previous word's top bit) is light.
fn count_runs(rows: &[[u64; ROW_WORDS]]) -> usize {
    rows.iter()
        .map(|words| {
            let mut carry = 0;
            let mut runs = 0;
            for &w in words {
                runs += (w & !(w << 1 | carry)).count_ones() as usize;
                carry = w >> 63;
            }
            runs
        })
        .sum()
}

/// `svg` must have been validated ([`SvgOptions::validate`]); its default
/// writes the document earlier versions wrote, byte for byte.
pub fn render_svg(matrix: &QrMatrix, options: &Options, svg: &SvgOptions) -> String {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let across = options.modules_across(n);
    let side = across * options.module_pixels(n);

    // Every run is at most "M" 3 digits "," 3 digits "h" 3 digits "v1h-"
    // 3 digits "z" (a side is at most 209 modules): one buffer sized for
    // the counted runs, no growth while writing.
    let rows: Vec<[u64; ROW_WORDS]> = (0..n).map(|y| pack_row(matrix.row(y))).collect();
    let runs = count_runs(&rows);
    let extras = svg.title.as_ref().map_or(0, |t| t.len() * 6 + 16) + svg.class.as_ref().map_or(0, |c| c.len() + 10);
    let mut out = String::with_capacity(320 + extras + runs * MAX_RUN_BYTES);
    let reserved = out.capacity();
    let mut number = itoa::Buffer::new();
    out.push_str(r#"<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" version="1.1""#);
    if let Some(class) = &svg.class {
        // Validated: letters, digits, '-', '_' and spaces need no escaping.
        out.push_str(r#" class=""#);
        out.push_str(class);
        out.push('"');
    }
    if !svg.view_box_only {
        let side = number.format(side);
        out.push_str(r#" width=""#);
        out.push_str(side);
        out.push_str(r#"" height=""#);
        out.push_str(side);
        out.push('"');
    }
    let across_text = number.format(across).to_owned();
    out.push_str(r#" viewBox="0 0 "#);
    out.push_str(&across_text);
    out.push(' ');
    out.push_str(&across_text);
    out.push_str(r#"" shape-rendering="crispEdges">"#);
    if let Some(title) = &svg.title {
        out.push_str("<title>");
        out.push_str(&escape(title));
        out.push_str("</title>");
    }
    // Black on white is written as it always was ("#fff", "#000": the golden
    // bytes); a fully transparent background is no rectangle at all.
    let (light, dark): (Cow<str>, Cow<str>) = if options.is_black_on_white() {
        (r##"fill="#fff""##.into(), r##"fill="#000""##.into())
    } else {
        (fill(options.light).into(), fill(options.dark).into())
    };
    if options.light.a > 0 {
        out.push_str(r#"<rect width=""#);
        out.push_str(&across_text);
        out.push_str(r#"" height=""#);
        out.push_str(&across_text);
        out.push_str(r#"" "#);
        out.push_str(&light);
        out.push_str("/>");
    }
    out.push_str("<path ");
    out.push_str(&dark);
    out.push_str(r#" d=""#);
    for (y, words) in rows.iter().enumerate() {
        let mut runs = Runs { words, x: 0 };
        while let Some((start, len)) = runs.next_run() {
            out.push('M');
            out.push_str(number.format(start + quiet));
            out.push(',');
            out.push_str(number.format(y + quiet));
            out.push('h');
            let len = number.format(len);
            out.push_str(len);
            out.push_str("v1h-");
            out.push_str(len);
            out.push('z');
        }
    }
    out.push_str(r#""/></svg>"#);
    out.push('\n');
    debug_assert!(out.len() <= reserved, "the SVG outgrew its buffer: {} > {reserved}", out.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs found with bit tricks equal the runs of a plain scan, across
    /// word boundaries (modules 63/64, 127/128) and at the row's ends.
    #[test]
    fn runs_match_a_plain_scan() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for width in [1, 21, 63, 64, 65, 127, 128, 129, 177] {
            for pattern in 0..60 {
                let row: Vec<bool> = (0..width)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        match pattern {
                            0 => true,
                            1 => false,
                            2 => i % 64 == 63 || i % 64 == 0,
                            _ => x.is_multiple_of(3),
                        }
                    })
                    .collect();
                let mut want = Vec::new();
                let mut i = 0;
                while i < width {
                    if row[i] {
                        let start = i;
                        while i < width && row[i] {
                            i += 1;
                        }
                        want.push((start, i - start));
                    } else {
                        i += 1;
                    }
                }
                let words = pack_row(&row);
                let mut runs = Runs { words: &words, x: 0 };
                let got: Vec<(usize, usize)> = std::iter::from_fn(|| runs.next_run()).collect();
                assert_eq!(got, want, "width {width}, pattern {pattern}");
                assert_eq!(count_runs(&[words]), want.len(), "width {width}, pattern {pattern}");
            }
        }
    }
}
