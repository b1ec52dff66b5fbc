//! Bounded resources: guest memory settles after a warm-up and stays there,
//! and 100,000 calls leave guest memory and host RSS flat.

use qrglue_host::{Generator, MAX_TEXT_BYTES, Options, Path};

use crate::corpus;

#[test]
fn guest_memory_stays_bounded_after_warm_up() {
    let cases = corpus::utf8_cases();
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
            // Payloads: the largest byte-mode code, and one refused by its length before any copy.
            let _ = g.png_bytes(&vec![0xff; 2953], &Options::default());
            let _ = g.png_bytes(&vec![0xff; 1 << 20], &Options::default());
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

/// Resident set size of this process, in bytes (Linux /proc/self/statm).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let resident: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    resident * 4096
}

const SOAK_CHILD: &str = "QRGLUE_SOAK_CHILD";
const SOAK_CALLS: usize = 100_000;

/// Runs one path's 100,000-call soak in a child process (this same test
/// binary, filtered to `soak_child_entry`), so that other tests running in
/// parallel threads cannot move the RSS it measures.
fn run_soak_in_child(path: Path) -> String {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "limits::soak_child_entry", "--nocapture", "--test-threads=1"])
        .env(SOAK_CHILD, path.as_str())
        .output()
        .expect("run the soak child");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{path} soak failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    // libtest prints the child's line after its own "test ... " prefix.
    let at = stdout.find("soak ").unwrap_or_else(|| panic!("{path}: no soak line in\n{stdout}"));
    stdout[at..].lines().next().unwrap().to_owned()
}

/// The child's side of [`the_guest_memory_and_host_rss_stay_flat_over_100000_calls`]:
/// does nothing unless started by it (the env variable names the path).
#[test]
fn soak_child_entry() {
    let Ok(path) = std::env::var(SOAK_CHILD) else { return };
    let path = Path::ALL.into_iter().find(|p| p.as_str() == path).expect("a path name");
    let cases = corpus::reference_cases();
    let mut generator = qrglue_host::generator(path).unwrap();
    let call = |g: &mut dyn Generator, i: usize| {
        let (case, digest) = &cases[i % cases.len()];
        let png = g.png(&case.text, &case.options).unwrap();
        // Every 97th result is checked in full: a soak that returns wrong
        // bytes must fail too.
        if i.is_multiple_of(97) {
            assert_eq!(&corpus::sha256_hex(&png), digest, "{path} call {i}");
        }
    };
    for i in 0..2_000 {
        call(generator.as_mut(), i);
    }
    let pages_warm = memory_pages(generator.as_mut(), path);
    let rss_warm = rss_bytes();
    for i in 0..SOAK_CALLS {
        call(generator.as_mut(), i);
    }
    let pages_after = memory_pages(generator.as_mut(), path);
    let rss_after = rss_bytes();
    println!(
        "soak {path}: {SOAK_CALLS} png calls, guest pages {pages_warm:?} -> {pages_after:?}, host RSS {} -> {} KiB",
        rss_warm / 1024,
        rss_after / 1024
    );
    if let (Some(warm), Some(after)) = (pages_warm, pages_after) {
        assert!(after <= warm + 1, "{path}: guest memory grew from {warm} to {after} pages");
    }
    assert!(rss_after as f64 <= rss_warm as f64 * 1.10, "{path}: RSS grew from {rss_warm} to {rss_after} bytes");
}

/// The guest's linear memory in pages; the native path has none.
fn memory_pages(generator: &mut dyn Generator, path: Path) -> Option<u32> {
    (path != Path::Native).then(|| generator.memory_pages().unwrap())
}

#[test]
fn the_guest_memory_and_host_rss_stay_flat_over_100000_calls() {
    for path in Path::ALL {
        let line = run_soak_in_child(path);
        println!("{line}");
    }
}
