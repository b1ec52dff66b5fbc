//! An independent reader (rqrr, over PNGs decoded by the `image` crate) reads
//! the text back from each path's PNG.

use qrglue_host::{EcLevel, Options, Path};

use crate::corpus;

fn read_qr(png: &[u8]) -> String {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).expect("a PNG the image crate reads").to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "exactly one QR code in the image");
    let (_meta, content) = grids[0].decode().expect("rqrr decodes the code");
    content
}

#[test]
fn reference_url_reads_back_on_every_path() {
    let case = corpus::case("ref-02");
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).unwrap();
        let png = generator.png(&case.text, &case.options).unwrap();
        assert_eq!(read_qr(&png), case.text, "{path}");
    }
}

#[test]
fn other_levels_and_texts_read_back() {
    let mut generator = qrglue_host::generator(Path::Raw).unwrap();
    for (text, ec_level) in [("HELLO WORLD 42", EcLevel::High), ("Grüße aus Köln", EcLevel::Quartile), ("31415926535", EcLevel::Medium)]
    {
        let png = generator.png(text, &Options { ec_level, ..Options::default() }).unwrap();
        assert_eq!(read_qr(&png), text);
    }
}
