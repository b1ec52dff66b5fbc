//! The path table every test file iterates (uniffi's discipline: one table,
//! the same test names in every host): component, raw and native, and the
//! check most tests end with.

use qrglue_host::{Error, ErrorKind, Generator, Path};

use crate::corpus;

/// One generator per path, in `Path::ALL`'s order.
pub fn all_paths() -> Vec<Box<dyn Generator>> {
    Path::ALL.into_iter().map(|path| qrglue_host::generator(path).expect("generator")).collect()
}

pub fn kind_of<T: std::fmt::Debug>(result: Result<T, Error>) -> ErrorKind {
    match result {
        Err(error) => error.kind().unwrap_or_else(|| panic!("not a contract error: {error}")),
        Ok(value) => panic!("expected an error, got {value:?}"),
    }
}

pub fn assert_golden_png(generator: &mut dyn Generator) {
    let case = corpus::case("ref-02");
    let png = generator.png(&case.text, &case.options).unwrap_or_else(|e| panic!("{}: {e}", generator.path()));
    assert_eq!(corpus::sha256_hex(&png), corpus::expected_png_sha256("ref-02"), "{}", generator.path());
}
