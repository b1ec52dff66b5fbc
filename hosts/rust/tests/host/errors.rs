//! Every contract error kind on every path, each with its message; and trap
//! recovery on the wasm paths (the native path reports a trap the same way).

use qrglue_host::{EcLevel, Error, ErrorKind, Generator, MAX_TEXT_BYTES, Options, Path};

use crate::vectors;

fn all_paths() -> Vec<Box<dyn Generator>> {
    Path::ALL.into_iter().map(|path| qrglue_host::generator(path).expect("generator")).collect()
}

fn kind_of<T: std::fmt::Debug>(result: Result<T, Error>) -> ErrorKind {
    match result {
        Err(error) => error.kind().unwrap_or_else(|| panic!("not a contract error: {error}")),
        Ok(value) => panic!("expected an error, got {value:?}"),
    }
}

fn assert_golden_png(generator: &mut dyn Generator) {
    let case = vectors::case("ref-02");
    let png = generator.png(&case.text, &case.options).unwrap_or_else(|e| panic!("{}: {e}", generator.path()));
    assert_eq!(vectors::sha256_hex(&png), vectors::expected_png_sha256("ref-02"), "{}", generator.path());
}

#[test]
fn every_error_kind_on_every_path() {
    let fine = Options::default();
    let too_long = "a".repeat(MAX_TEXT_BYTES + 1);
    // 2000 bytes fit a version-40 code at EC low (2953) but not at high (1273).
    let fits_only_low = "x".repeat(2000);
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        assert_eq!(kind_of(g.png("", &fine)), ErrorKind::EmptyText, "{path}");
        assert_eq!(kind_of(g.svg("", &fine)), ErrorKind::EmptyText, "{path}");
        assert_eq!(kind_of(g.png_repeat("", &fine, 3)), ErrorKind::EmptyText, "{path}");
        // Empty comes before bad options, in the contract's order.
        assert_eq!(kind_of(g.png("", &Options { min_size: 0, ..fine })), ErrorKind::EmptyText, "{path}");

        assert_eq!(kind_of(g.png_from_bytes(b"ab\xffcd", &fine)), ErrorKind::InvalidText, "{path}");
        assert_eq!(kind_of(g.svg_from_bytes(b"\xed\xa0\x80", &fine)), ErrorKind::InvalidText, "{path}: a UTF-8-encoded lone surrogate");
        // Invalid text comes before empty and too long.
        let mut long_and_invalid = vec![b'a'; MAX_TEXT_BYTES + 10];
        long_and_invalid[5] = 0xc0;
        assert_eq!(kind_of(g.png_from_bytes(&long_and_invalid, &fine)), ErrorKind::InvalidText, "{path}");
        assert_eq!(g.png_from_bytes(b"hello", &fine).unwrap(), g.png("hello", &fine).unwrap(), "{path}: valid bytes = the str");

        assert_eq!(kind_of(g.png(&too_long, &fine)), ErrorKind::DataTooLong, "{path}");
        assert_eq!(kind_of(g.png_repeat(&too_long, &fine, 1)), ErrorKind::DataTooLong, "{path}");
        let high = Options { ec_level: EcLevel::High, ..fine };
        assert_eq!(kind_of(g.png(&fits_only_low, &high)), ErrorKind::DataTooLong, "{path}");
        assert!(g.png(&fits_only_low, &fine).is_ok(), "{path}: 2000 bytes fit at EC low");
        // Too long comes before bad options.
        assert_eq!(kind_of(g.png(&too_long, &Options { quiet_zone: 99, ..fine })), ErrorKind::DataTooLong, "{path}");

        for (bad, names) in [
            (Options { min_size: 0, ..fine }, "min-size"),
            (Options { min_size: 4097, ..fine }, "min-size"),
            (Options { quiet_zone: 17, ..fine }, "quiet-zone"),
        ] {
            let error = g.png("hello", &bad).expect_err("out-of-range option");
            assert_eq!(error.kind(), Some(ErrorKind::InvalidOptions), "{path}: {error}");
            assert!(error.to_string().contains(names), "{path}: {error} should name {names}");
            assert_eq!(kind_of(g.svg("hello", &bad)), ErrorKind::InvalidOptions, "{path}");
            assert_eq!(kind_of(g.png_repeat("hello", &bad, 2)), ErrorKind::InvalidOptions, "{path}");
        }
        assert_golden_png(g);
    }
}

#[test]
fn every_path_reports_the_same_messages() {
    let mut generators = all_paths();
    let inputs: [(&[u8], Options); 4] = [
        (b"", Options::default()),
        (b"\xff", Options::default()),
        (b"hello", Options { min_size: 5000, ..Options::default() }),
        (b"hello", Options { quiet_zone: 40, ..Options::default() }),
    ];
    for (text, options) in inputs {
        let messages: Vec<String> =
            generators.iter_mut().map(|g| g.png_from_bytes(text, &options).expect_err("bad input").to_string()).collect();
        // The raw guest writes its messages itself (UTF-8 included); they
        // must match the host-side ones word for word.
        assert!(messages.iter().all(|m| m == &messages[0]), "{:?} {options:?}: {messages:?}", String::from_utf8_lossy(text));
    }
}

#[test]
fn probes_agree_on_every_path() {
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        g.noop().unwrap();
        for len in [0usize, 1, 250, 251, 4096, 100_000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            assert_eq!(g.consume(&data).unwrap(), len as u32, "{path}: consume {len}");
            let produced = g.produce(len as u32).unwrap();
            assert_eq!(produced.len(), len, "{path}: produce {len}");
            assert!(produced.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8), "{path}: produce pattern");
        }
        let case = vectors::case("ref-02");
        let expected_len = vectors::expected_png_bytes("ref-02") as u32;
        assert_eq!(g.png_repeat(&case.text, &case.options, 3).unwrap(), expected_len, "{path}");
        assert_eq!(g.png_repeat(&case.text, &case.options, 0).unwrap(), 0, "{path}: zero repeats");
    }
}

#[test]
fn traps_become_errors_and_the_next_call_works() {
    for mut generator in all_paths() {
        let g = generator.as_mut();
        for _ in 0..2 {
            match g.trap() {
                Err(Error::Trap(message)) => assert!(!message.is_empty()),
                other => panic!("{}: trap() gave {other:?}", g.path()),
            }
            assert_golden_png(g);
        }
        g.noop().expect("noop after recovery");
    }
}

#[test]
fn component_produce_over_16_mib_traps_and_recovers_raw_refuses() {
    let over = (16 << 20) + 1;
    for mut generator in all_paths() {
        let g = generator.as_mut();
        match (g.path(), g.produce(over)) {
            (Path::Component, Err(Error::Trap(_))) => {}
            (Path::Raw | Path::Native, Err(error)) if error.kind() == Some(ErrorKind::InvalidOptions) => {}
            (path, other) => panic!("{path}: produce(16 MiB + 1) gave {:?}", other.map(|v| v.len())),
        }
        assert_golden_png(g);
    }
}

/// README's concurrency guarantee: per path, 4 threads (one generator each,
/// over the one shared compiled guest) x 2,500 calls, every result equal
/// to its golden digest. Calls alternate png and svg and rotate through the
/// ten reference texts, each thread starting at a different one, so
/// neighbouring threads never render the same thing at the same moment.
#[test]
fn four_threads_x_2500_calls_per_path_are_all_golden() {
    const THREADS: usize = 4;
    const CALLS: usize = 2_500;
    let golden: Vec<(vectors::Case, String, String)> = (1..=10)
        .map(|i| {
            let id = format!("ref-{i:02}");
            (vectors::case(&id), vectors::expected_png_sha256(&id), vectors::expected_svg_sha256(&id))
        })
        .collect();
    for path in Path::ALL {
        let checked: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..THREADS)
                .map(|thread| {
                    let golden = &golden;
                    scope.spawn(move || {
                        let mut generator = qrglue_host::generator(path).unwrap();
                        for call in 0..CALLS {
                            let (case, png_sha256, svg_sha256) = &golden[(thread + call) % golden.len()];
                            let (digest, want) = if call % 2 == 0 {
                                (vectors::sha256_hex(&generator.png(&case.text, &case.options).unwrap()), png_sha256)
                            } else {
                                (vectors::sha256_hex(generator.svg(&case.text, &case.options).unwrap().as_bytes()), svg_sha256)
                            };
                            assert_eq!(&digest, want, "{path}, thread {thread}, call {call}");
                        }
                        CALLS
                    })
                })
                .collect();
            handles.into_iter().map(|handle| handle.join().expect("a thread panicked")).sum()
        });
        assert_eq!(checked, THREADS * CALLS, "{path}");
    }
}

#[test]
fn guest_memory_stays_bounded_after_warm_up() {
    let cases = vectors::utf8_cases();
    for path in [Path::Component, Path::Raw] {
        let mut generator = qrglue_host::generator(path).unwrap();
        let g = generator.as_mut();
        // Every case (largest codes, largest images, every error), plus probes.
        let run_mix = |g: &mut dyn Generator| {
            for case in &cases {
                let _ = g.png(&case.text, &case.options);
                let _ = g.svg(&case.text, &case.options);
            }
            let _ = g.png(&"z".repeat(MAX_TEXT_BYTES + 1), &Options::default());
            g.consume(&vec![1u8; 1 << 20]).unwrap();
            g.produce(1 << 20).unwrap();
        };
        run_mix(g);
        let after_warm_up = g.memory_pages().unwrap();
        for _ in 0..3 {
            run_mix(g);
        }
        let after = g.memory_pages().unwrap();
        assert_eq!(after, after_warm_up, "{path}: memory grew from {after_warm_up} to {after} pages on a repeated workload");
        assert!(after <= 1024, "{path}: {after} pages is past the 64 MiB cap");
    }
}
