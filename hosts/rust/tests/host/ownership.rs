//! Results are owned by the caller: nothing a later call does (1,000 calls,
//! a large result through the same guest memory) changes an earlier one.

use qrglue_host::Path;

use crate::corpus;

#[test]
fn a_result_is_unchanged_after_1000_later_calls() {
    let cases = corpus::reference_cases();
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).unwrap();
        let (first_case, first_digest) = &cases[1];
        let first = generator.png(&first_case.text, &first_case.options).unwrap();
        for i in 0..1000 {
            let (case, _) = &cases[i % cases.len()];
            generator.png(&case.text, &case.options).unwrap();
        }
        generator.produce(1 << 20).unwrap(); // and a large result through the same memory
        assert_eq!(&corpus::sha256_hex(&first), first_digest, "{path}: the first result changed");
    }
}
