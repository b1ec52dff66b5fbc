//! qrglue's component in two engines of one process: wasmtime built with
//! component-model-async (its default features have it), concurrency
//! support on (wasmtime's default then) and off. Interleaved batches.
use qrglue_host::{ComponentRuntime, Generator, Options};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(200, |r| r.parse().unwrap());
    let url = "https://www.reddit.com/r/rustjerk/top/?t=all";
    let mut gens: Vec<(String, Box<dyn Generator>)> = Vec::new();
    for on in [true, false] {
        let mut config = wasmtime::Config::new();
        config.concurrency_support(on);
        let engine = wasmtime::Engine::new(&config).unwrap();
        assert_eq!(engine.get_concurrency_support(), on);
        let runtime = ComponentRuntime::compile(&engine, qrglue_host::COMPONENT_WASM).unwrap();
        gens.push((format!("concurrency {}", if on { "on " } else { "off" }), Box::new(runtime.instantiate().unwrap())));
    }
    let opts = Options::default();
    assert_eq!(gens[0].1.png(url, &opts).unwrap(), gens[1].1.png(url, &opts).unwrap());
    // (op, generator index, batch, samples)
    let mut series: Vec<(&str, usize, usize, Vec<f64>)> = Vec::new();
    for g in 0..gens.len() {
        series.push(("noop", g, 20_000, Vec::new()));
        series.push(("png", g, 50, Vec::new()));
    }
    for round in 0..rounds + 10 {
        let order: Vec<usize> = if round % 2 == 0 { (0..series.len()).collect() } else { (0..series.len()).rev().collect() };
        for i in order {
            let (op, g, batch, _) = series[i];
            let gen_ = &mut gens[g].1;
            let start = Instant::now();
            for _ in 0..batch {
                if op == "noop" {
                    gen_.noop().unwrap();
                } else {
                    std::hint::black_box(gen_.png(url, &opts).unwrap());
                }
            }
            let ns = start.elapsed().as_nanos() as f64 / batch as f64;
            if round >= 10 {
                series[i].3.push(ns);
            }
        }
    }
    let at = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    let show = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        format!("{:9.1} [{:.1}, {:.1}]", at(&s, 0.5), at(&s, 0.1), at(&s, 0.9))
    };
    println!("wasmtime 48 with component-model-async, {rounds} rounds; ns per call, median [p10, p90]");
    for (op, g, _, v) in &series {
        println!("{op:5} {:16} {}", gens[*g].0, show(v));
    }
    for op in ["noop", "png"] {
        let on = &series.iter().find(|s| s.0 == op && s.1 == 0).unwrap().3;
        let off = &series.iter().find(|s| s.0 == op && s.1 == 1).unwrap().3;
        let d: Vec<f64> = off.iter().zip(on).map(|(a, b)| a - b).collect();
        println!("{op:5} off - on per round {}", show(&d));
    }
}
