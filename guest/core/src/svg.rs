//! Stage 2b: matrix -> SVG text.
//!
//! One `<path>` draws every dark module: each horizontal run of dark modules
//! in a row is one `M x,y h len v1 h -len z` rectangle, in module units
//! (the viewBox), so the file size does not depend on the pixel size.
//! `shape-rendering="crispEdges"` keeps module edges sharp when scaled.

use std::borrow::Cow;
use std::fmt::Write;

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

/// `svg` must have been validated ([`SvgOptions::validate`]); its default
/// writes the document earlier versions wrote, byte for byte.
pub fn render_svg(matrix: &QrMatrix, options: &Options, svg: &SvgOptions) -> String {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let across = options.modules_across(n);
    let side = across * options.module_pixels(n);

    let mut out = String::with_capacity(256 + n * n * 3);
    // write! into a String cannot fail.
    out.push_str(r#"<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" version="1.1""#);
    if let Some(class) = &svg.class {
        // Validated: letters, digits, '-', '_' and spaces need no escaping.
        let _ = write!(out, r#" class="{class}""#);
    }
    if !svg.view_box_only {
        let _ = write!(out, r#" width="{side}" height="{side}""#);
    }
    let _ = write!(out, r#" viewBox="0 0 {across} {across}" shape-rendering="crispEdges">"#);
    if let Some(title) = &svg.title {
        let _ = write!(out, "<title>{}</title>", escape(title));
    }
    // Black on white is written as it always was ("#fff", "#000": the golden
    // bytes); a fully transparent background is no rectangle at all.
    let (light, dark): (Cow<str>, Cow<str>) = if options.is_black_on_white() {
        (r##"fill="#fff""##.into(), r##"fill="#000""##.into())
    } else {
        (fill(options.light).into(), fill(options.dark).into())
    };
    if options.light.a > 0 {
        let _ = write!(out, r#"<rect width="{across}" height="{across}" {light}/>"#);
    }
    let _ = write!(out, r#"<path {dark} d=""#);
    for y in 0..n {
        let row = matrix.row(y);
        let mut x = 0;
        while x < n {
            if !row[x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < n && row[x] {
                x += 1;
            }
            let len = x - start;
            let _ = write!(out, "M{},{}h{len}v1h-{len}z", start + quiet, y + quiet);
        }
    }
    out.push_str(r#""/></svg>"#);
    out.push('\n');
    out
}
