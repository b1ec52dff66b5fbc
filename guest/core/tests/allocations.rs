//! Heap allocations per encode, counted by a global allocator: the mask
//! choice must add no allocation per module or row position (ours stays
//! within what stock qrcode allocates besides its scoring), and stock
//! qrcode's count is reported for UPSTREAM.md (its finder rule boxes a
//! closure per row position, direction and mask).
//!
//! One test function only: the counter is process-wide, and a second test
//! running in parallel would add its allocations to it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_of<T>(f: impl FnOnce() -> T) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    std::hint::black_box(f());
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn encode_allocates_a_few_times_per_code_at_any_version() {
    let reference_url = "https://www.reddit.com/r/rustjerk/top/?t=all"; // version 3 at EC low
    let version_40 = "7".repeat(7089);
    for (name, text, width) in [("reference URL", reference_url.to_owned(), 29), ("7089 digits", version_40, 177)] {
        // The first code of a version also builds that version's layout (its
        // function patterns and data order, made once per process); every
        // later code of the version is the per-code count asserted below.
        let first = allocations_of(|| qrglue_core::encode(&text, qrglue_core::EcLevel::Low).expect("fits"));
        let ours = allocations_of(|| qrglue_core::encode(&text, qrglue_core::EcLevel::Low).expect("fits"));
        // (Its vectors grow as the modules are walked: tens of allocations once, never per code.)
        assert!(first - ours <= 32, "{name}: the version's one-time layout took {} allocations", first - ours);
        let stock = allocations_of(|| qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::L).expect("fits"));
        // The finder rule alone boxes one closure per row position, both
        // directions, eight masks: 2 * n * (n - 6) * 8.
        let boxed_closures = 2 * width * (width - 6) * 8;
        println!(
            "{name} (width {width}): ours {ours} allocations ({first} with the version's layout), stock qrcode {stock} (of which {boxed_closures} boxed closures)"
        );
        assert!(stock >= boxed_closures, "{name}: stock qrcode made {stock} allocations, fewer than its {boxed_closures} boxed closures");
        // Segmenting and Reed-Solomon blocks allocate in qrcode as in ours
        // (more blocks at higher versions); the mask choice must add none
        // beyond the symbol itself, so ours stays within stock's own count
        // without the closures.
        let stock_without_closures = stock - boxed_closures;
        assert!(
            ours <= stock_without_closures,
            "{name}: {ours} allocations in our encode, stock without its closures {stock_without_closures}"
        );
    }
}
