//! The core's deflate writer (`current`, guest/core/src/deflate.rs as it is)
//! against `candidate` (src/candidate.rs, an edited copy) on the golden
//! corpus's images, filtered as the PNG stage filters them.
//!
//! Prints: whether every candidate stream inflates (zlib-rs) to its image
//! and how many are byte-identical to the current writer's; each writer's
//! worst size change against the zlib-rs level 4 PNG of the same image (the
//! oracle of guest/core/tests/png_pixels.rs, which allows +3 %) and the
//! reference PNG's size (ref-02, at most 400 B); then the time per image on
//! ref-01..ref-10, both writers interleaved in rounds (the order alternates),
//! median [p10, p90] and the ratio of medians. `ROUNDS=N` sets the rounds.

#![allow(dead_code)]

mod candidate;
#[path = "../../../guest/core/src/deflate.rs"]
mod current;

use std::hint::black_box;
use std::time::Instant;

use qrglue_core::png_stages::{filter, render_png_zlib_rs, render_rows, zlib_rs_deflate};
use qrglue_vectors::Text;

/// One corpus image as deflate sees it.
struct Image {
    id: String,
    data: Vec<u8>,
    line: usize,
    block: usize,
    /// The zlib-rs PNG's size, and the bytes around its IDAT data.
    oracle_png: usize,
    container: usize,
}

fn images() -> Vec<Image> {
    let mut images = Vec::new();
    for case in qrglue_vectors::cases() {
        let matrix = match &case.text {
            Text::Utf8(text) => qrglue_core::matrix(text, &case.options),
            Text::Bytes(data) => qrglue_core::matrix_bytes(data, &case.options),
            Text::LoneSurrogate => continue,
        };
        let Ok(matrix) = matrix else { continue };
        let filtered = filter(&render_rows(&matrix, &case.options));
        let oracle_png = render_png_zlib_rs(&matrix, &case.options).len();
        let container = oracle_png - zlib_rs_deflate(&filtered.data).len();
        images.push(Image { id: case.id, data: filtered.data, line: filtered.line, block: filtered.block, oracle_png, container });
    }
    images
}

fn inflate(stream: &[u8], len: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; len + 1];
    let (data, code) = zlib_rs::decompress_slice(&mut out, stream, zlib_rs::InflateConfig::default());
    (code == zlib_rs::ReturnCode::Ok).then(|| data.to_vec())
}

/// The worst growth against the oracle (fraction, case), how many grew past
/// 3 %, and the reference PNG's size.
fn sizes(images: &[Image], write: impl Fn(&Image) -> Vec<u8>) -> ((f64, String), usize, usize) {
    let (mut worst, mut over, mut reference) = ((f64::MIN, String::new()), 0, 0);
    for image in images {
        let png = write(image).len() + image.container;
        let growth = png as f64 / image.oracle_png as f64 - 1.0;
        over += usize::from(growth > 0.03);
        if growth > worst.0 {
            worst = (growth, image.id.clone());
        }
        if image.id == "ref-02" {
            reference = png;
        }
    }
    (worst, over, reference)
}

fn main() {
    let images = images();
    let mut identical = 0;
    for image in &images {
        let stream = candidate::zlib_image(&image.data, image.line, image.block);
        assert_eq!(inflate(&stream, image.data.len()).as_deref(), Some(&image.data[..]), "{}: the candidate's stream", image.id);
        identical += usize::from(stream == current::zlib_image(&image.data, image.line, image.block));
    }
    println!("{} images: every candidate stream inflates to its image; {identical} byte-identical to the current writer's", images.len());
    for (name, write) in [
        ("current", &(|i: &Image| current::zlib_image(&i.data, i.line, i.block)) as &dyn Fn(&Image) -> Vec<u8>),
        ("candidate", &|i: &Image| candidate::zlib_image(&i.data, i.line, i.block)),
    ] {
        let ((worst, case), over, reference) = sizes(&images, write);
        println!("{name:9}: worst {:+.2} % against zlib-rs ({case}), {over} over 3 %, reference PNG {reference} B", worst * 100.0);
    }

    let references: Vec<&Image> = images.iter().filter(|i| i.id.len() == 6 && i.id.starts_with("ref-")).collect();
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(200);
    let mut times = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    for round in 0..rounds {
        for k in 0..2 {
            let which = (round + k) % 2;
            let start = Instant::now();
            for _ in 0..10 {
                for image in &references {
                    let (data, line, block) = (black_box(&image.data[..]), image.line, image.block);
                    black_box(if which == 0 { current::zlib_image(data, line, block) } else { candidate::zlib_image(data, line, block) });
                }
            }
            times[which].push(start.elapsed().as_secs_f64() * 1e6 / (10 * references.len()) as f64);
        }
    }
    let mut summary = [(0.0, 0.0, 0.0); 2];
    for (s, t) in summary.iter_mut().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        let at = |q: f64| t[((t.len() - 1) as f64 * q) as usize];
        *s = (at(0.5), at(0.1), at(0.9));
    }
    let [(cm, c10, c90), (nm, n10, n90)] = summary;
    println!(
        "us per image, ref-01..ref-10, {rounds} interleaved rounds: current {cm:.2} [{c10:.2}, {c90:.2}], candidate {nm:.2} [{n10:.2}, {n90:.2}], ratio {:.3}",
        nm / cm
    );
}
