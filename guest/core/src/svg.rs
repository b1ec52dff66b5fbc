//! Stage 2b: matrix -> SVG text.
//!
//! One `<path>` draws every dark module: each horizontal run of dark modules
//! in a row is one `M x,y h len v1 h -len z` rectangle, in module units
//! (the viewBox), so the file size does not depend on the pixel size.
//! `shape-rendering="crispEdges"` keeps module edges sharp when scaled.

use std::fmt::Write;

use crate::{Options, QrMatrix};

pub fn render_svg(matrix: &QrMatrix, options: &Options) -> String {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let across = options.modules_across(n);
    let side = across * options.module_pixels(n);

    let mut out = String::with_capacity(256 + n * n * 3);
    // write! into a String cannot fail.
    let _ = write!(
        out,
        concat!(
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{side}" height="{side}" viewBox="0 0 {across} {across}" shape-rendering="crispEdges">"#,
            r##"<rect width="{across}" height="{across}" fill="#fff"/><path fill="#000" d=""##
        ),
        side = side,
        across = across
    );
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
