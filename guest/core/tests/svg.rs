//! SVG options: the default document is the golden one (golden.rs); here,
//! what each option changes, that a title or class reads back exactly as
//! given through a real XML parser (no markup can be injected), and the
//! refusals, in the contract's order.

use proptest::prelude::*;
use qrglue_core::{MAX_SVG_TITLE_BYTES, Options, QrError, SvgOptions, svg, svg_bytes_with, svg_with};

const TEXT: &str = "https://www.reddit.com/r/rustjerk/top/?t=all";

fn parse(document: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(document).unwrap_or_else(|e| panic!("not XML: {e}\n{document}"))
}

fn options(view_box_only: bool, title: Option<&str>, class: Option<&str>) -> SvgOptions {
    SvgOptions { view_box_only, title: title.map(str::to_owned), class: class.map(str::to_owned) }
}

#[test]
fn the_default_svg_options_are_the_plain_document() {
    let plain = svg(TEXT, &Options::default()).unwrap();
    assert_eq!(svg_with(TEXT, &Options::default(), &SvgOptions::default()).unwrap(), plain);
    let parsed = parse(&plain);
    let root = parsed.root_element();
    assert_eq!((root.attribute("width"), root.attribute("height")), (Some("222"), Some("222")));
    assert_eq!(root.attribute("class"), None);
    assert!(root.children().all(|child| !child.has_tag_name("title")));
}

#[test]
fn view_box_only_drops_width_and_height_and_nothing_else() {
    let plain = svg(TEXT, &Options::default()).unwrap();
    let fluid = svg_with(TEXT, &Options::default(), &options(true, None, None)).unwrap();
    assert_eq!(fluid, plain.replace(r#" width="222" height="222""#, ""));
    let parsed = parse(&fluid);
    let root = parsed.root_element();
    assert_eq!((root.attribute("width"), root.attribute("viewBox")), (None, Some("0 0 37 37")));
}

#[test]
fn a_title_is_the_first_child_and_markup_in_it_stays_text() {
    let hostile = "</title><script>alert(\"x\")</script><title a='1'>&amp; ]]> <!-- -->\r\n\u{85}\u{2028}";
    let document = svg_with(TEXT, &Options::default(), &options(false, Some(hostile), Some("qr code-1 _x"))).unwrap();
    let parsed = parse(&document);
    let root = parsed.root_element();
    let first = root.first_element_child().unwrap();
    assert!(first.has_tag_name("title"));
    // Line breaks an XML 1.1 reader would normalise travel as references.
    assert!(document.contains("&#13;\n&#133;&#8232;</title>"), "{document}");
    assert_eq!(first.text(), Some(hostile));
    assert_eq!(root.attribute("class"), Some("qr code-1 _x"));
    assert_eq!(parsed.descendants().filter(|n| n.is_element()).count(), 4, "svg, title, rect, path: {document}");
    // The modules are the plain document's.
    let plain = svg(TEXT, &Options::default()).unwrap();
    let path = |d: &str| parse(d).descendants().find(|n| n.has_tag_name("path")).unwrap().attribute("d").unwrap().to_owned();
    assert_eq!(path(&document), path(&plain));
}

#[test]
fn bad_titles_and_classes_are_refused_after_the_other_options() {
    let refused = |svg: SvgOptions| svg_with(TEXT, &Options::default(), &svg).unwrap_err().to_string();
    assert_eq!(refused(options(false, Some("a\u{7}b"), None)), "title holds U+0007 at byte 1, which XML 1.0 cannot carry");
    assert_eq!(refused(options(false, Some("ok\u{fffe}"), None)), "title holds U+FFFE at byte 2, which XML 1.0 cannot carry");
    assert_eq!(refused(options(false, Some("\0"), None)), "title holds U+0000 at byte 0, which XML 1.0 cannot carry");
    let long = "é".repeat(513);
    assert_eq!(refused(options(false, Some(&long), None)), "title must be at most 1024 UTF-8 bytes, got 1026");
    for class in ["", " a", "a ", "a  b", "a\"b", "a>b", "é", "a\tb"] {
        assert!(refused(options(false, None, Some(class))).starts_with("class must be CSS class names"), "{class:?}");
    }
    // Over its bound, a class is refused in the title's words (hosts refuse it so before any copy).
    assert_eq!(refused(options(false, None, Some(&"c".repeat(257)))), "class must be at most 256 UTF-8 bytes, got 257");
    assert_eq!(refused(options(false, None, Some(&"c ".repeat(200)))), "class must be at most 256 UTF-8 bytes, got 400");
    // Tab, line feed and carriage return are XML; 1024 bytes is the bound.
    assert!(svg_with(TEXT, &Options::default(), &options(false, Some("a\tb\nc\rd"), None)).is_ok());
    assert!(
        svg_with(TEXT, &Options::default(), &options(false, Some(&"t".repeat(MAX_SVG_TITLE_BYTES as usize)), Some(&"c".repeat(256))))
            .is_ok()
    );
    // The text and the other options come first; the payload twin checks the same.
    let bad = options(false, Some("\0"), Some(""));
    assert_eq!(svg_with("", &Options::default(), &bad), Err(QrError::EmptyText));
    let bad_size = Options { min_size: 0, ..Options::default() };
    assert!(svg_with(TEXT, &bad_size, &bad).unwrap_err().to_string().starts_with("min-size"));
    assert_eq!(svg_bytes_with(b"\xff", &Options::default(), &bad).unwrap_err().to_string(), refused(bad.clone()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any title XML can carry (every printable character, the three
    /// whitespace controls, markup characters) reads back exactly.
    #[test]
    fn any_xml_title_reads_back_exactly(title in "[\t\n\r -~<>&\"'\u{a0}-\u{d7ff}\u{e000}-\u{fffd}\u{10000}-\u{10ffff}]{0,80}") {
        let document = svg_with("qr", &Options::default(), &options(true, Some(&title), None)).unwrap();
        let parsed = parse(&document);
        let got = parsed.root_element().first_element_child().unwrap().text().unwrap_or("").to_owned();
        // A carriage return included: it is written as &#13;, which XML does not normalise away.
        prop_assert_eq!(got, title);
    }
}
