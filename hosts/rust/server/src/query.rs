//! The query of `GET /qrcode`, checked by qrglue-http-query
//! (`hosts/rust/http-query`, the one implementation shared with the wasi:http
//! component) in `tests/http/README.md`'s order: bad-query, invalid-text,
//! empty-text, text-too-long, invalid-options. Here with the core's own
//! invalid-text messages and its `EcLevel`.

use qrglue_core::EcLevel;
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
