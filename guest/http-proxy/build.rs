//! The static tier's golden PNG (the reference URL, default options), computed
//! at build time by the core running natively: the .wasm only embeds bytes.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "static")]
    {
        const REFERENCE_URL: &str = "https://www.reddit.com/r/rustjerk/top/?t=all";
        let png = qrglue_core::png(REFERENCE_URL, &qrglue_core::Options::default()).expect("the reference URL renders");
        let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        std::fs::write(out.join("golden.png"), png).expect("write golden.png");
    }
}
