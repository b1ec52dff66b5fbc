//! A trap (or any failure that is not a contract error) on a wasm path is an
//! error for that call only: the instance is replaced and the next call is
//! golden (the native path reports its trap probe the same way).

use qrglue_host::{Error, ErrorKind, Path};

use crate::paths::{all_paths, assert_golden_png};

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
