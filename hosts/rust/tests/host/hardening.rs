//! Hardening: owned results, bounded guest memory and flat host RSS
//! over 100,000 calls, and the raw ABI under a hostile host.

use qrglue_host::testing::RawAbi;
use qrglue_host::{Generator, Path, RawGenerator, RawRuntime};

use crate::vectors;

/// The ten reference texts (ref-01..ref-10) with their golden PNG digests.
fn reference_cases() -> Vec<(vectors::Case, String)> {
    (1..=10)
        .map(|i| {
            let id = format!("ref-{i:02}");
            (vectors::case(&id), vectors::expected_png_sha256(&id))
        })
        .collect()
}

#[test]
fn a_result_is_unchanged_after_1000_later_calls() {
    let cases = reference_cases();
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).unwrap();
        let (first_case, first_digest) = &cases[1];
        let first = generator.png(&first_case.text, &first_case.options).unwrap();
        for i in 0..1000 {
            let (case, _) = &cases[i % cases.len()];
            generator.png(&case.text, &case.options).unwrap();
        }
        generator.produce(1 << 20).unwrap(); // and a large result through the same memory
        assert_eq!(&vectors::sha256_hex(&first), first_digest, "{path}: the first result changed");
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
        .args(["--exact", "hardening::soak_child_entry", "--nocapture", "--test-threads=1"])
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
    let cases = reference_cases();
    let mut generator = qrglue_host::generator(path).unwrap();
    let call = |g: &mut dyn Generator, i: usize| {
        let (case, digest) = &cases[i % cases.len()];
        let png = g.png(&case.text, &case.options).unwrap();
        // Every 97th result is checked in full: a soak that returns wrong
        // bytes must fail too.
        if i.is_multiple_of(97) {
            assert_eq!(&vectors::sha256_hex(&png), digest, "{path} call {i}");
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

/// xorshift64*: a seeded, dependency-free source of hostile arguments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.u32() % n
    }
}

/// Random pointers and lengths into every raw export: each call either
/// succeeds or answers an error status; none traps; and the instance keeps
/// rendering golden bytes (nothing it owns was corrupted).
#[test]
fn the_raw_abi_survives_random_pointers_and_lengths() {
    let mut raw: RawGenerator = RawRuntime::shared().unwrap().instantiate().unwrap();
    let case = vectors::case("ref-02");
    let golden = vectors::expected_png_sha256("ref-02");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Pointers the guest really handed out, so hostile calls also hit live
    // buffers with wrong lengths, twice, or after they were freed.
    let mut seen: Vec<u32> = Vec::new();
    // Buffers left allocated on purpose, capped so the guest never runs out
    // of its 64 MiB (memory exhaustion is documented to trap).
    let mut kept = 0;
    let pick_ptr = |rng: &mut Rng, seen: &[u32], memory: u32| -> u32 {
        match rng.below(4) {
            0 => rng.u32(),
            1 => rng.below(memory.max(1)),
            _ if !seen.is_empty() => seen[rng.below(seen.len() as u32) as usize].wrapping_add(rng.below(9).wrapping_sub(4)),
            _ => 0,
        }
    };
    for round in 0..20_000u32 {
        let memory = raw.abi_memory_size() as u32;
        let ptr = pick_ptr(&mut rng, &seen, memory);
        let len = match rng.below(3) {
            0 => rng.u32(),
            1 => rng.below(64),
            _ => rng.below(8192),
        };
        match rng.below(6) {
            0 => {
                let p = raw.abi_alloc(len % (1 << 16)).expect("qr_alloc never traps");
                if p != 0 {
                    seen.push(p);
                    if kept < 200 && rng.below(2) == 0 {
                        kept += 1;
                    } else {
                        assert_eq!(raw.abi_free(p).unwrap(), 0, "a fresh buffer is live");
                    }
                }
            }
            1 => {
                let status = raw.abi_free(ptr).expect("qr_free never traps");
                assert!(status <= 1, "qr_free answered {status}");
            }
            2 => {
                let n = raw.abi_consume(ptr, len).expect("qr_consume never traps");
                assert!(n == len || n == u32::MAX, "qr_consume answered {n} for len {len}");
            }
            3 | 4 => {
                let record = raw.abi_png(ptr, len, rng.below(5), rng.below(5000), rng.below(20)).expect("qr_png never traps");
                let (status, _) = raw.abi_read_record(record).expect("the record lies in memory");
                assert!(status <= 4, "status {status}");
                assert_eq!(raw.abi_free(record).unwrap(), 0, "the record is live");
            }
            _ => {
                let record = raw.abi_produce(rng.below(1 << 16)).expect("qr_produce never traps");
                assert_eq!(raw.abi_free(record).unwrap(), 0, "the record is live");
                seen.push(record);
            }
        }
        if round % 1_000 == 999 {
            let png = raw.png(&case.text, &case.options).expect("a good call after hostile ones");
            assert_eq!(vectors::sha256_hex(&png), golden, "round {round}");
        }
    }
    let png = raw.png(&case.text, &case.options).unwrap();
    assert_eq!(vectors::sha256_hex(&png), golden);
    assert!(raw.memory_pages().unwrap() <= 1024);
}
