//! The query grammar of GET /qrcode (guest/http-query): arbitrary query
//! strings. No panic; a refusal only of the endpoint's kinds; and where a
//! second, simple reference parse (split on `&` and the first `=`, `+` as a
//! space, the `percent-encoding` crate's decoder, `str::parse`) also accepts,
//! the same request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qrglue_http_query::{Checked, Level, MAX_TEXT_BYTES, NAMES, Request, Rgba, Symbol, check};

fuzz_target!(|query: &[u8]| {
    let checked = check(query, |bytes| String::from_utf8(bytes).map_err(|e| format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to())));
    let reference = reference(query);
    match checked {
        Err(refusal) => {
            assert!(
                ["bad-query", "invalid-text", "text-too-long", "invalid-options"].contains(&refusal.kind),
                "refusal kind {}",
                refusal.kind
            );
            assert!(!refusal.message.is_empty());
        }
        Ok(Checked::Empty) => {
            if let Some(reference) = reference {
                assert!(reference.text.is_empty(), "the reference reads text {:?}", reference.text);
            }
        }
        Ok(Checked::Request(request)) => {
            assert!(!request.text.is_empty() && request.text.len() <= MAX_TEXT_BYTES);
            // The reference is the looser parse: what the grammar accepts it
            // must accept too, and read the same.
            let reference =
                reference.unwrap_or_else(|| panic!("the grammar accepts {:?}, the reference does not", String::from_utf8_lossy(query)));
            assert_eq!(request, reference, "query {:?}", String::from_utf8_lossy(query));
        }
    }
});

/// The simple parse: None where it refuses. It is looser than the grammar
/// in places (a malformed `%` stays literal, `u32::from_str` takes a `+`
/// sign), which is why only queries both accept are compared.
fn reference(query: &[u8]) -> Option<Request> {
    let mut values: Vec<Option<String>> = vec![None; NAMES.len()];
    for part in query.split(|&b| b == b'&').filter(|p| !p.is_empty()) {
        let (name, value) = match part.iter().position(|&b| b == b'=') {
            Some(at) => (&part[..at], &part[at + 1..]),
            None => (part, &b""[..]),
        };
        let decode = |bytes: &[u8]| {
            let plus: Vec<u8> = bytes.iter().map(|&b| if b == b'+' { b' ' } else { b }).collect();
            percent_encoding::percent_decode(&plus).decode_utf8().ok().map(|s| s.into_owned())
        };
        let name = decode(name)?;
        let index = NAMES.iter().position(|known| *known == name)?;
        if values[index].is_some() {
            return None;
        }
        values[index] = Some(decode(value)?);
    }
    let text = values[0].clone()?;
    let get = |name: &str| values[NAMES.iter().position(|n| *n == name).unwrap()].as_deref();
    let number = |name: &str| given(get(name).map(|v| v.parse::<u32>().ok()));
    let flag = |name: &str| {
        given(get(name).map(|v| match v {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }))
    };
    let color = |name: &str| given(get(name).map(|v| qrglue_core::Rgba::from_hex(v).map(|c| Rgba { r: c.r, g: c.g, b: c.b, a: c.a })));
    let ec_level = given(get("ec-level").map(|v| match v {
        "low" => Some(Level::Low),
        "medium" => Some(Level::Medium),
        "quartile" => Some(Level::Quartile),
        "high" => Some(Level::High),
        _ => None,
    }))?;
    let symbol_given = ["micro", "version", "min-version", "mask", "boost-ec", "eci"].iter().any(|n| get(n).is_some());
    let symbol = Symbol {
        micro: flag("micro")?,
        version: number("version")?,
        min_version: number("min-version")?,
        mask: number("mask")?,
        boost_ec: flag("boost-ec")?,
        eci: flag("eci")?,
    };
    if text.len() > MAX_TEXT_BYTES {
        return None;
    }
    Some(Request {
        text,
        ec_level,
        min_size: number("min-size")?,
        quiet_zone: number("quiet-zone")?,
        scale: number("scale")?,
        dark: color("dark")?,
        light: color("light")?,
        symbol: symbol_given.then_some(symbol),
    })
}

/// An option's parse: `Some(None)` when not given, `None` (refused) when
/// given but unreadable, `Some(Some(value))` otherwise.
fn given<T>(parsed: Option<Option<T>>) -> Option<Option<T>> {
    match parsed {
        None => Some(None),
        Some(value) => value.map(Some),
    }
}
