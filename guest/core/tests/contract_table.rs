//! The option table (`contract::OPTIONS`), which the hosts' option layers are
//! generated from, says what the core does: its defaults are the core's
//! defaults, and its bounds are where the core's own checks start refusing,
//! with the contract's message.

use qrglue_core::contract::{self, DefaultValue, OPTIONS, Place, Ty};
use qrglue_core::{ErrorKind, Options, SvgOptions, Symbol, TextStyle};

#[test]
fn defaults_are_the_cores() {
    let options = Options::default();
    let symbol = Symbol::default();
    let svg = SvgOptions::default();
    for spec in OPTIONS {
        let core = match spec.wit {
            "ec-level" => DefaultValue::EcLevel(options.ec_level),
            "min-size" => DefaultValue::U32(options.min_size),
            "quiet-zone" => DefaultValue::U32(options.quiet_zone),
            "scale" => options.scale.map_or(DefaultValue::None, DefaultValue::U32),
            "dark" => DefaultValue::Rgba(options.dark),
            "light" => DefaultValue::Rgba(options.light),
            "micro" => DefaultValue::Bool(symbol.micro),
            "version" => symbol.version.map_or(DefaultValue::None, DefaultValue::U32),
            "min-version" => symbol.min_version.map_or(DefaultValue::None, DefaultValue::U32),
            "mask" => symbol.mask.map_or(DefaultValue::None, DefaultValue::U32),
            "boost-ec" => DefaultValue::Bool(symbol.boost_ec),
            "eci" => DefaultValue::Bool(symbol.eci),
            "view-box-only" => DefaultValue::Bool(svg.view_box_only),
            "title" => svg.title.as_ref().map_or(DefaultValue::None, |_| panic!("a default title")),
            "class" => svg.class.as_ref().map_or(DefaultValue::None, |_| panic!("a default class")),
            "text-style" => DefaultValue::TextStyle(TextStyle::default()),
            other => panic!("{other}: an option the core does not have"),
        };
        assert_eq!(spec.default, core, "{}", spec.wit);
    }
}

/// Options with one numeric field set (micro too when `micro`).
fn with(wit: &str, value: u32, micro: bool) -> Options {
    let mut options = Options::default();
    options.symbol.micro = micro;
    match wit {
        "min-size" => options.min_size = value,
        "quiet-zone" => options.quiet_zone = value,
        "scale" => options.scale = Some(value),
        "version" => options.symbol.version = Some(value),
        "min-version" => options.symbol.min_version = Some(value),
        "mask" => options.symbol.mask = Some(value),
        other => panic!("{other} is not a number"),
    }
    options
}

#[test]
fn number_bounds_are_where_the_core_refuses() {
    let numbers = OPTIONS.iter().filter(|s| matches!(s.ty, Ty::U32 | Ty::OptionU32));
    let mut seen = 0;
    for spec in numbers {
        seen += 1;
        let cases = [(spec.bounds.expect("a number has bounds"), false)].into_iter().chain(spec.micro_bounds.map(|b| (b, true)));
        for ((min, max), micro) in cases {
            for value in [min, max] {
                assert_eq!(with(spec.wit, value, micro).validate(), Ok(()), "{} = {value} (micro {micro})", spec.wit);
            }
            let below = min.checked_sub(1).into_iter();
            for value in below.chain([max + 1]) {
                let error = with(spec.wit, value, micro).validate().unwrap_err();
                assert_eq!(error.kind(), ErrorKind::InvalidOptions);
                assert_eq!(error.to_string(), contract::out_of_range(spec.wit, min, max, value), "micro {micro}");
            }
        }
    }
    assert_eq!(seen, 6, "min-size, quiet-zone, scale, version, min-version, mask");
}

#[test]
fn svg_string_bounds_are_where_the_core_refuses() {
    let title = contract::option("title").unwrap().bounds.unwrap().1 as usize;
    let ok = SvgOptions { title: Some("a".repeat(title)), ..SvgOptions::default() };
    assert_eq!(ok.validate(), Ok(()));
    let long = SvgOptions { title: Some("a".repeat(title + 1)), ..SvgOptions::default() };
    assert_eq!(long.validate().unwrap_err().to_string(), contract::too_long("title", title as u32, title + 1));
    let (least, most) = contract::option("class").unwrap().bounds.unwrap();
    for (len, fine) in [(least as usize, true), (most as usize, true), (least as usize - 1, false), (most as usize + 1, false)] {
        let svg = SvgOptions { class: Some("a".repeat(len)), ..SvgOptions::default() };
        assert_eq!(svg.validate().is_ok(), fine, "class of {len} bytes");
    }
}

#[test]
fn spellings_are_unique_and_places_in_check_order() {
    let spellings: [fn(&contract::OptionSpec) -> &'static str; 4] = [|s| s.wit, |s| s.js, |s| s.py, |s| s.cli];
    for name in spellings {
        let mut names: Vec<_> = OPTIONS.iter().map(name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }
    let places: Vec<_> = OPTIONS.iter().map(|s| s.place).collect();
    let order = [Place::Options, Place::Symbol, Place::Svg, Place::TextStyle];
    assert!(places.windows(2).all(|w| order.iter().position(|p| *p == w[0]) <= order.iter().position(|p| *p == w[1])));
}

/// `flat::words` is `flat::options`'s inverse on every symbol option alone
/// and all at once, and packs each by the table's bit (`contract::Raw`), so
/// that the hosts which pass the words (hosts/rust's raw path, hosts/c) and
/// the guests which read them agree without naming an option.
#[test]
fn flat_words_invert_the_decoder_bit_by_bit() {
    use qrglue_core::contract::Raw;
    use qrglue_core::flat;
    let mut all = Options::default();
    for spec in OPTIONS.iter().filter(|s| s.place == Place::Symbol) {
        // Each symbol option alone at a non-default value: its bit, and for a number its word.
        let one = match spec.ty {
            Ty::Bool => with_symbol(spec.wit, None),
            _ => with_symbol(spec.wit, Some(3)),
        };
        let words = flat::words(&one);
        let bit = match spec.raw {
            Raw::SymbolFlag(bit) | Raw::SymbolParam(bit) => bit,
            other => panic!("{}: {other:?} is not a symbol slot", spec.wit),
        };
        assert_eq!(words[7], bit, "{}", spec.wit);
        assert!(words[8..].iter().all(|&w| w == 0) || spec.ty != Ty::Bool, "{}", spec.wit);
        assert_eq!(flat::options(words).unwrap(), one, "{}", spec.wit);
        all.symbol = merge(all.symbol, one.symbol);
    }
    let words = flat::words(&all);
    assert_eq!(words[7], contract::RAW_SYMBOL_FLAGS_MAX, "every bit");
    assert_eq!(flat::options(words).unwrap(), all);
    let plain = Options { scale: Some(7), min_size: 300, quiet_zone: 2, ..Options::default() };
    assert_eq!(flat::options(flat::words(&plain)).unwrap(), plain);
}

/// Options with the symbol option `wit` set (a bool to true, a number to `n`).
fn with_symbol(wit: &str, n: Option<u32>) -> Options {
    let mut o = Options::default();
    let s = &mut o.symbol;
    match (wit, n) {
        ("micro", None) => s.micro = true,
        ("boost-ec", None) => s.boost_ec = true,
        ("eci", None) => s.eci = true,
        ("version", n) => s.version = n,
        ("min-version", n) => s.min_version = n,
        ("mask", n) => s.mask = n,
        other => panic!("a symbol option this test does not know: {other:?}; add it here"),
    }
    o
}

fn merge(a: Symbol, b: Symbol) -> Symbol {
    Symbol {
        micro: a.micro || b.micro,
        boost_ec: a.boost_ec || b.boost_ec,
        eci: a.eci || b.eci,
        version: a.version.or(b.version),
        min_version: a.min_version.or(b.min_version),
        mask: a.mask.or(b.mask),
    }
}
