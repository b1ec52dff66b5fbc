//! Many threads at once, each with its own generator over the one shared
//! compiled guest: every result golden.

use qrglue_host::Path;

use crate::corpus;

/// README's concurrency guarantee: per path, 4 threads (one generator each,
/// over the one shared compiled guest) x 2,500 calls, every result equal
/// to its golden digest. Calls alternate png and svg and rotate through the
/// ten reference texts, each thread starting at a different one, so
/// neighbouring threads never render the same thing at the same moment.
#[test]
fn four_threads_x_2500_calls_per_path_are_all_golden() {
    const THREADS: usize = 4;
    const CALLS: usize = 2_500;
    let golden: Vec<(corpus::Case, String, String)> = (1..=10)
        .map(|i| {
            let id = format!("ref-{i:02}");
            (corpus::case(&id), corpus::expected_png_sha256(&id), corpus::expected_svg_sha256(&id))
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
                                (corpus::sha256_hex(&generator.png(&case.text, &case.options).unwrap()), png_sha256)
                            } else {
                                (corpus::sha256_hex(generator.svg(&case.text, &case.options).unwrap().as_bytes()), svg_sha256)
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
