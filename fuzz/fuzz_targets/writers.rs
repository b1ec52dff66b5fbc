//! The PNG and SVG writers directly: arbitrary matrices (any width, any
//! modules, not only what the encoder makes), scales, sizes, quiet zones and
//! colours. Every PNG decodes (the `png` crate) to exactly the matrix; every
//! SVG is well-formed XML with one dark path covering exactly the dark modules.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qrglue_core::{Options, QrMatrix, Rgba, SvgOptions, Symbol};
use qrglue_fuzz::{check_png_matches, check_svg};

#[derive(Arbitrary, Debug)]
struct Input {
    width: u8,
    modules: Vec<u8>,
    min_size: u16,
    quiet_zone: u8,
    scale: Option<u8>,
    dark: u32,
    light: u32,
    view_box_only: bool,
    title: Option<String>,
    class: Option<String>,
}

fuzz_target!(|input: Input| {
    // 1..=177 modules across: every width a symbol has, and the ones between.
    let width = 1 + input.width as usize % 177;
    let dark = (0..width * width).map(|i| input.modules.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0)).collect();
    let matrix = QrMatrix::from_modules(width, dark);
    let options = Options {
        min_size: 1 + u32::from(input.min_size) % 4096,
        quiet_zone: u32::from(input.quiet_zone % 17),
        scale: input.scale.map(|s| 1 + u32::from(s) % 20),
        dark: Rgba::from_u32(input.dark),
        light: Rgba::from_u32(input.light),
        symbol: Symbol::default(),
        ..Options::default()
    };
    // The writers are only ever given validated options.
    if options.validate().is_err() {
        return;
    }
    check_png_matches(&qrglue_core::render_png(&matrix, &options), &matrix, &options);

    let svg_options = SvgOptions { view_box_only: input.view_box_only, title: input.title, class: input.class };
    if svg_options.validate().is_err() {
        return;
    }
    let svg = qrglue_core::render_svg(&matrix, &options, &svg_options);
    check_svg(&svg);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("width").is_none(), svg_options.view_box_only);
    let title = root.children().find(|n| n.has_tag_name("title"));
    assert_eq!(title.map(|t| t.text().unwrap_or("").to_string()), svg_options.title, "the title reads back as given");
    assert_eq!(root.attribute("class").map(str::to_string), svg_options.class, "the class reads back as given");
    // The one path, drawn: its unit-high runs cover exactly the dark modules
    // (each once), offset by the quiet zone.
    let path = root.children().find(|n| n.has_tag_name("path")).expect("a path");
    let d = path.attribute("d").expect("d");
    let qz = options.quiet_zone as usize;
    let mut drawn = vec![false; width * width];
    for run in d.split('z').filter(|r| !r.is_empty()) {
        let (x, rest) = run.strip_prefix('M').and_then(|r| r.split_once(',')).unwrap_or_else(|| panic!("run {run:?}"));
        let (y, rest) = rest.split_once('h').unwrap();
        let (len, back) = rest.split_once("v1h-").unwrap();
        assert_eq!(len, back, "a run closes on itself");
        let (x, y, len): (usize, usize, usize) = (x.parse().unwrap(), y.parse().unwrap(), len.parse().unwrap());
        assert!(len >= 1 && x >= qz && y >= qz && x - qz + len <= width && y - qz < width, "run {run:?} outside the matrix");
        for i in x - qz..x - qz + len {
            let cell = &mut drawn[(y - qz) * width + i];
            assert!(!*cell, "a module drawn twice");
            *cell = true;
        }
    }
    for y in 0..width {
        for x in 0..width {
            assert_eq!(drawn[y * width + x], matrix.is_dark(x, y), "module ({x}, {y})");
        }
    }
});
