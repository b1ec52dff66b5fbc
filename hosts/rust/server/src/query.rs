//! The query of `GET /qrcode`, checked by qrglue-http-query
//! (`guest/http-query`, the one implementation every server uses) in
//! `tests/http/README.md`'s order: bad-query, invalid-text, empty-text,
//! text-too-long, invalid-options. Here with the core's own invalid-text
//! messages and its `Options` (the crate's `core` feature).

pub use qrglue_http_query::with_core::{check, options};
pub use qrglue_http_query::{Checked, Refusal};
