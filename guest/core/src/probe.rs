//! Work behind the `probe` interface, shared by both guests so the component
//! and the raw ABI measure exactly the same computation.

use crate::{Options, QrError};

/// The most bytes `produce` returns: 16 MiB, a quarter of guest memory.
pub const MAX_PRODUCE_BYTES: u32 = 16 << 20;

/// `len` bytes, byte i = i mod 251: a pattern hosts can check, that no
/// allocator hands out by accident (unlike zeros).
pub fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

/// The most renders one `png-repeat` call may ask for: a contract bound
/// (it is in `target/contract.json`), so it lives in [`crate::contract`],
/// which this module uses and which never uses this one.
pub use crate::contract::MAX_PNG_REPEAT_TIMES;

/// Renders the PNG `times` times; returns the last PNG's length (0 if
/// `times` is 0). `black_box` keeps the optimiser from skipping repeats.
/// After the text and options are checked, a `times` over
/// [`MAX_PNG_REPEAT_TIMES`] is `invalid-options`.
pub fn png_repeat(text: &str, options: &Options, times: u32) -> Result<u32, QrError> {
    crate::validate(text, options)?;
    if times > MAX_PNG_REPEAT_TIMES {
        return Err(QrError::InvalidOptions(crate::contract::out_of_range("times", 0, MAX_PNG_REPEAT_TIMES, times)));
    }
    let mut last = 0;
    for _ in 0..times {
        last = std::hint::black_box(crate::png(std::hint::black_box(text), options)?).len() as u32;
    }
    Ok(last)
}
