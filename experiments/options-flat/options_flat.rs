//! What do png's 25 flat argument values (the text's 2 and the options' 23)
//! cost a wasmtime call against 16 or fewer (issue 34, item 4)? Over 16
//! (the canonical ABI's MAX_FLAT_PARAMS) the caller allocates an argument
//! area in the guest through `cabi_realloc` and stores every value there;
//! the guest loads them back. The toy component (from gen_toy.py)
//! has three exports of png's shape returning a u32: `flat16` (the text and
//! 14 u32s: 16 values, in registers), `spill17` (15 u32s: 17, spilled) and
//! `options` (png's own arguments, tuples for its records: 25, spilled).
//!
//! Built as an example of qrglue-host, so it links the workspace's wasmtime
//! build and the host's engine configuration (README.md says how). One
//! process, every round a batch of each call, the order reversed every other
//! round; prints ns per call, median [p10, p90], and the per-round
//! differences against `flat16`.

use std::time::Instant;

use wasmtime::Store;
use wasmtime::component::{Component, Linker};

wasmtime::component::bindgen!({
    inline: "
        package toy:flat;
        world toy {
            export flat16: func(text: string, p0: u32, p1: u32, p2: u32, p3: u32, p4: u32, p5: u32, p6: u32,
                p7: u32, p8: u32, p9: u32, p10: u32, p11: u32, p12: u32, p13: u32) -> u32;
            export spill17: func(text: string, p0: u32, p1: u32, p2: u32, p3: u32, p4: u32, p5: u32, p6: u32,
                p7: u32, p8: u32, p9: u32, p10: u32, p11: u32, p12: u32, p13: u32, p14: u32) -> u32;
            export options: func(text: string, options: tuple<u8, u32, u32, option<u32>, tuple<u8, u8, u8, u8>,
                tuple<u8, u8, u8, u8>, option<tuple<bool, option<u32>, option<u32>, option<u32>, bool, bool>>>) -> u32;
        }
    ",
});

const URL: &str = "https://www.reddit.com/r/rustjerk/top/?t=all"; // ref-02
const BATCH: usize = 20_000;

fn main() -> wasmtime::Result<()> {
    let wasm = std::env::args().nth(1).expect("usage: options_flat TOY.wasm [ROUNDS]");
    let rounds: usize = std::env::args().nth(2).map_or(200, |r| r.parse().expect("ROUNDS"));
    let engine = wasmtime::Engine::new(&qrglue_host::engine_config())?;
    let component = Component::from_file(&engine, &wasm)?;
    let mut store = Store::new(&engine, ());
    let toy = Toy::instantiate(&mut store, &component, &Linker::new(&engine))?;
    // What png passes when no option is named: symbol none, scale none.
    let options = (0u8, 200u32, 4u32, None, (0u8, 0u8, 0u8, 255u8), (255u8, 255u8, 255u8, 255u8), None);
    let ops: [(&str, &dyn Fn(&mut Store<()>) -> u32); 3] = [
        ("flat16 (16 values, flat)", &|s| toy.call_flat16(s, URL, 0, 200, 4, 0, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0).unwrap()),
        ("spill17 (17 values, spilled)", &|s| toy.call_spill17(s, URL, 0, 200, 4, 0, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0).unwrap()),
        ("options (png's 25 values, spilled)", &|s| toy.call_options(s, URL, options).unwrap()),
    ];
    assert_eq!(ops[0].1(&mut store), ops[1].1(&mut store));
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
    for round in 0..rounds + 10 {
        let order: Vec<usize> = if round % 2 == 0 { (0..ops.len()).collect() } else { (0..ops.len()).rev().collect() };
        for i in order {
            let start = Instant::now();
            let mut sink = 0u32;
            for _ in 0..BATCH {
                sink = sink.wrapping_add(ops[i].1(&mut store));
            }
            std::hint::black_box(sink);
            if round >= 10 {
                samples[i].push(start.elapsed().as_nanos() as f64 / BATCH as f64);
            }
        }
    }
    let at = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    let summary = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        format!("{:7.1} [{:.1}, {:.1}]", at(&s, 0.5), at(&s, 0.1), at(&s, 0.9))
    };
    println!("wasmtime 48, concurrency support off, {rounds} rounds of {BATCH} calls; ns per call, median [p10, p90]");
    for (i, (name, _)) in ops.iter().enumerate() {
        println!("{name:36} {}", summary(&samples[i]));
    }
    println!("minus flat16, per round");
    for (i, (name, _)) in ops.iter().enumerate().skip(1) {
        let d: Vec<f64> = samples[i].iter().zip(&samples[0]).map(|(a, b)| a - b).collect();
        println!("{name:36} {}", summary(&d));
    }
    Ok(())
}
