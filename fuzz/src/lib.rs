//! The oracles the fuzz targets share: a PNG decoded by the `png` crate and
//! compared module by module with the matrix it was drawn from, a QR read
//! back by `rqrr`, an SVG parsed by `roxmltree`.

use qrglue_core::{Options, QrError, QrMatrix, Rgba};

/// A decoded image: width, height, RGBA pixels.
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<[u8; 4]>,
}

/// Decodes `bytes` with the `png` crate (every colour type and depth our
/// writer might choose, expanded to 8-bit RGBA). Panics (a fuzz finding) on
/// anything the decoder refuses.
pub fn decode_png(bytes: &[u8]) -> Image {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("the png crate reads the header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane image size")];
    let frame = reader.next_frame(&mut buf).expect("the png crate decodes the image data");
    let (width, height) = (frame.width as usize, frame.height as usize);
    let data = &buf[..frame.buffer_size()];
    let channels = frame.color_type.samples();
    assert_eq!(frame.bit_depth, png::BitDepth::Eight, "EXPAND gives 8-bit samples");
    let rgba = data
        .chunks_exact(channels)
        .map(|p| match frame.color_type {
            png::ColorType::Grayscale => [p[0], p[0], p[0], 255],
            png::ColorType::GrayscaleAlpha => [p[0], p[0], p[0], p[1]],
            png::ColorType::Rgb => [p[0], p[1], p[2], 255],
            png::ColorType::Rgba => [p[0], p[1], p[2], p[3]],
            png::ColorType::Indexed => unreachable!("EXPAND turns a palette into RGB(A)"),
        })
        .collect::<Vec<_>>();
    assert_eq!(rgba.len(), width * height, "one pixel per sample group");
    // The writer ends with IEND and nothing after: a decoder that stops at
    // the image must still find a well-formed tail.
    reader.finish().expect("the png crate reads through IEND");
    Image { width, height, rgba }
}

/// The PNG is the matrix: square, a whole number of pixels per module
/// (quiet zone included), every pixel of a module in its module's colour.
pub fn check_png_matches(bytes: &[u8], matrix: &QrMatrix, options: &Options) -> Image {
    let image = decode_png(bytes);
    assert_eq!(image.width, image.height, "square image");
    let modules = matrix.width() + 2 * options.quiet_zone as usize;
    assert_eq!(image.width % modules, 0, "{} px is not a whole number of pixels for {modules} modules", image.width);
    let px = image.width / modules;
    assert!(px >= 1);
    if let Some(scale) = options.scale {
        assert_eq!(px, scale as usize, "scale is pixels per module");
    } else {
        assert!(image.width >= options.min_size as usize, "min-size is a lower bound");
        assert!(px == 1 || (px - 1) * modules < options.min_size as usize, "the smallest module size that reaches min-size");
    }
    let rgba = |c: Rgba| [c.r, c.g, c.b, c.a];
    let (dark, light) = (rgba(options.dark), rgba(options.light));
    let qz = options.quiet_zone as usize;
    // Three pixels of every module (its corners and centre): every module's
    // extent and colour, without walking all 17 M pixels of a 4180 px image.
    for my in 0..modules {
        for mx in 0..modules {
            let is_dark =
                (qz..qz + matrix.width()).contains(&mx) && (qz..qz + matrix.width()).contains(&my) && matrix.is_dark(mx - qz, my - qz);
            let want = if is_dark { dark } else { light };
            for (dx, dy) in [(0, 0), (px / 2, px / 2), (px - 1, px - 1)] {
                let (x, y) = (mx * px + dx, my * px + dy);
                assert_eq!(image.rgba[y * image.width + x], want, "pixel ({x}, {y}) of module ({mx}, {my})");
            }
        }
    }
    image
}

/// The text `rqrr` reads from the image, if it finds exactly one code.
pub fn read_back(image: &Image) -> Option<String> {
    let luma = |p: [u8; 4]| ((u32::from(p[0]) * 299 + u32::from(p[1]) * 587 + u32::from(p[2]) * 114) / 1000) as u8;
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(image.width, image.height, |x, y| luma(image.rgba[y * image.width + x]));
    let grids = prepared.detect_grids();
    if grids.len() != 1 {
        return None;
    }
    grids[0].decode().ok().map(|(_, text)| text)
}

/// An SVG document: well-formed XML whose root is `<svg>` in the SVG
/// namespace.
pub fn check_svg(svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML ({e}): {svg:.200}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
}

/// Errors only of the contract's kinds, each with a message where the kind
/// carries one (the enum is the contract's four kinds; a message must say
/// something).
pub fn check_error(error: &QrError) {
    match error {
        QrError::EmptyText | QrError::DataTooLong(_) => {}
        QrError::InvalidText(message) | QrError::InvalidOptions(message) => assert!(!message.is_empty(), "{error:?} without a message"),
    }
}
