fn main() {
    // Link flags a Node addon needs (on macOS, `-undefined dynamic_lookup`:
    // the napi_* symbols come from the node binary at load time).
    napi_build::setup();
}
