//! The query of `GET /qrcode`, checked by qrglue-http-query
//! (`guest/http-query`, the one implementation shared with the wasi:http
//! component) in `tests/http/README.md`'s order: bad-query, invalid-text,
//! empty-text, text-too-long, invalid-options. Here with the core's own
//! invalid-text messages and its `Options`.

use qrglue_core::{EcLevel, Options, Rgba, Symbol};
use qrglue_http_query::Level;

pub use qrglue_http_query::{Checked, Refusal, Request};

pub fn check(query: &str) -> Result<Checked, Refusal> {
    qrglue_http_query::check(query, |bytes| qrglue_core::text_from_utf8(&bytes).map(str::to_owned).map_err(|err| err.to_string()))
}

pub fn ec_level(level: Level) -> EcLevel {
    match level {
        Level::Low => EcLevel::Low,
        Level::Medium => EcLevel::Medium,
        Level::Quartile => EcLevel::Quartile,
        Level::High => EcLevel::High,
    }
}

/// The core's options for a request: what it gives, the hosts' defaults for
/// the rest (`Options::default`); no symbol option given is the automatic
/// symbol, the same options as before the symbol options existed.
pub fn options(request: &Request) -> Options {
    let defaults = Options::default();
    let rgba = |c: qrglue_http_query::Rgba| Rgba { r: c.r, g: c.g, b: c.b, a: c.a };
    Options {
        ec_level: request.ec_level.map_or(defaults.ec_level, ec_level),
        min_size: request.min_size.unwrap_or(defaults.min_size),
        quiet_zone: request.quiet_zone.unwrap_or(defaults.quiet_zone),
        scale: request.scale,
        dark: request.dark.map_or(defaults.dark, rgba),
        light: request.light.map_or(defaults.light, rgba),
        symbol: request.symbol.map_or(defaults.symbol, |s| Symbol {
            micro: s.micro,
            version: s.version,
            min_version: s.min_version,
            mask: s.mask,
            boost_ec: s.boost_ec,
            eci: s.eci,
        }),
    }
}
