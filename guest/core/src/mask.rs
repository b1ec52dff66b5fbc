//! Mask choice: the symbol `qrcode` 0.14.1's `Canvas::apply_best_mask` would
//! make, found without building eight canvases and with one allocation (the
//! output), none per module or per position.
//!
//! `apply_best_mask` clones the canvas once per mask, applies it, and scores
//! each result with `compute_total_penalty_scores`, whose finder rule boxes a
//! closure per row position (~10,700 heap allocations for a version-3 code;
//! see UPSTREAM.md). That is ~95 % of qrcode's encoding time.
//!
//! Here the unmasked canvas is read once into bit planes (one bit per module,
//! `W` 64-bit words per line; rows and, separately, columns), and each of the
//! eight masked symbols is scored line by line with word-wide bit operations.
//! The scores are qrcode's, rule by rule, quirks included (ISO/IEC 18004
//! section 7.8.3 as qrcode implements it), and the winner is qrcode's:
//!
//! 1. Adjacent (`compute_adjacent_penalty_score`), per row and per column:
//!    a run of L >= 5 same-coloured modules scores L - 2.
//! 2. Blocks (`compute_block_penalty_score`): every 2x2 block of one colour,
//!    overlaps counted, scores 3.
//! 3. Finder-like (`compute_finder_penalty_score`), per row and per column:
//!    every 1:1:3:1:1 dark-light-dark-light-dark run (`#.###.#`) that has
//!    four light modules on at least one side scores 40; modules outside the
//!    symbol count as light. The three real finder patterns always match 9
//!    times per direction, so qrcode subtracts 360 per direction.
//! 4. Balance (`compute_balance_penalty_score`): `|dark * 200 / total - 100|`
//!    with integer division (the standard rounds to 5 % steps; qrcode does not).
//!
//! Quirks reproduced on purpose:
//! - Every score is a `u16` summed with wrapping arithmetic, as qrcode's are in
//!   a release build (overflow checks off). Totals come close: a version-40
//!   code of all-zero data bits scores ~59,000 under mask 2. Should one pass
//!   65,535, the wrapped total decides here as it does in qrcode.
//! - Ties go to the lowest mask number: `Iterator::min_by_key` keeps the first
//!   minimum.
//! - The format information (EC level + mask, BCH-coded) is part of the scored
//!   symbol: qrcode draws it inside `apply_mask`, before scoring.
//!
//! The differential test (tests/mask_differential.rs) checks the chosen
//! symbol against stock qrcode on seeded random inputs of every version.

use std::ops::{BitAnd, BitOr, BitXor, Not};
use std::sync::OnceLock;

use qrcode::canvas::{Canvas, Module};
use qrcode::types::{Color, Version};

/// Modules per side of a version-40 code.
const MAX_WIDTH: usize = 177;

/// Whether mask number `mask` inverts the module at column `x`, row `y`:
/// qrcode's `mask_functions`, numbered as its `MaskPattern` (Checkerboard = 0
/// ... Meadow = 7), which is also the order `apply_best_mask` tries them in
/// and the mask's number in the format information.
const fn inverts(mask: usize, x: usize, y: usize) -> bool {
    match mask {
        0 => (x + y).is_multiple_of(2),
        1 => y.is_multiple_of(2),
        2 => x.is_multiple_of(3),
        3 => (x + y).is_multiple_of(3),
        4 => (y / 2 + x / 3).is_multiple_of(2),
        5 => (x * y) % 2 + (x * y) % 3 == 0,
        6 => ((x * y) % 2 + (x * y) % 3).is_multiple_of(2),
        _ => ((x + y) % 2 + (x * y) % 3).is_multiple_of(2),
    }
}

/// Every mask repeats every 12 rows and every 12 columns (periods 2, 3, 4
/// and 6 all divide 12), so 12 precomputed lines per mask and orientation
/// cover the symbol.
const PERIOD: usize = 12;

/// `MASK_LINES[mask][across][k % 12]`: line `k` of the mask as bits, bit `j`
/// of the line being module `j` along it. `across = 0`: line `k` is row `y = k`
/// and bit `j` is column `x = j`; `across = 1`: line `k` is column `x = k`
/// and bit `j` is row `y = j`.
static MASK_LINES: [[[[u64; 3]; PERIOD]; 2]; 8] = {
    let mut table = [[[[0u64; 3]; PERIOD]; 2]; 8];
    let mut mask = 0;
    while mask < 8 {
        let mut k = 0;
        while k < PERIOD {
            let mut j = 0;
            while j < 3 * 64 {
                if inverts(mask, j, k) {
                    table[mask][0][k][j / 64] |= 1 << (j % 64);
                }
                if inverts(mask, k, j) {
                    table[mask][1][k][j / 64] |= 1 << (j % 64);
                }
                j += 1;
            }
            k += 1;
        }
        mask += 1;
    }
    table
};

/// One row or column of the symbol, one bit per module (bit `j` = module `j`
/// along the line, 1 = dark). Bits at and beyond the symbol's width are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line<const W: usize>([u64; W]);

impl<const W: usize> Line<W> {
    const EMPTY: Self = Line([0; W]);

    /// Bits `0..len` set.
    fn first(len: usize) -> Self {
        Line(std::array::from_fn(|i| {
            let start = i * 64;
            if len >= start + 64 {
                u64::MAX
            } else if len > start {
                (1u64 << (len - start)) - 1
            } else {
                0
            }
        }))
    }

    fn set(&mut self, j: usize) {
        self.0[j / 64] |= 1 << (j % 64);
    }

    fn get(&self, j: usize) -> bool {
        self.0[j / 64] >> (j % 64) & 1 == 1
    }

    /// Bit `j` of the result is bit `j + k` of `self` (0 past the end); `1 <= k < 64`.
    #[inline(always)]
    fn ahead(self, k: u32) -> Self {
        Line(std::array::from_fn(|i| {
            let carry = if i + 1 < W { self.0[i + 1] << (64 - k) } else { 0 };
            self.0[i] >> k | carry
        }))
    }

    /// Bit `j` of the result is bit `j - k` of `self` (0 before the start); `1 <= k < 64`.
    #[inline(always)]
    fn behind(self, k: u32) -> Self {
        Line(std::array::from_fn(|i| {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            self.0[i] << k | carry
        }))
    }

    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    fn prefix(words: &[u64; 3]) -> Self {
        Line(std::array::from_fn(|i| words[i]))
    }
}

impl<const W: usize> BitAnd for Line<W> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, rhs: Self) -> Self {
        Line(std::array::from_fn(|i| self.0[i] & rhs.0[i]))
    }
}

impl<const W: usize> BitOr for Line<W> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, rhs: Self) -> Self {
        Line(std::array::from_fn(|i| self.0[i] | rhs.0[i]))
    }
}

impl<const W: usize> BitXor for Line<W> {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, rhs: Self) -> Self {
        Line(std::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}

impl<const W: usize> Not for Line<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Line(std::array::from_fn(|i| !self.0[i]))
    }
}

/// Masks over one line's bit positions, fixed by the symbol's width `n`.
#[derive(Clone, Copy)]
struct Bounds<const W: usize> {
    /// Modules `0..n`.
    modules: Line<W>,
    /// Positions `j` where `j` and `j + 1` are both modules: `0..n - 1`.
    pairs: Line<W>,
}

impl<const W: usize> Bounds<W> {
    fn new(n: usize) -> Self {
        Bounds { modules: Line::first(n), pairs: Line::first(n - 1) }
    }
}

/// Rule 1 on one line: each run of L >= 5 equal modules scores L - 2.
///
/// `same5` has a bit at each `j` where modules `j..j + 5` are equal: a run of
/// length L >= 5 sets L - 4 consecutive bits there, and exactly one of them
/// (its start) has no set bit before it. So the run's L - 2 points are
/// (L - 4) + 2 * 1.
#[inline(always)]
fn adjacent_points<const W: usize>(line: Line<W>, bounds: &Bounds<W>) -> u32 {
    let same_next = !(line ^ line.ahead(1)) & bounds.pairs;
    let same5 = same_next & same_next.ahead(1) & same_next.ahead(2) & same_next.ahead(3);
    let run_starts = same5 & !same5.behind(1);
    same5.count() + 2 * run_starts.count()
}

/// Rule 3 on one line: the number of `#.###.#` runs (dark = 1) starting at
/// `j` whose four modules before (`j - 4..j`) or after (`j + 7..j + 11`) are
/// all light, positions outside the symbol counting as light (qrcode's
/// `check` closure). Each scores 40.
#[inline(always)]
fn finder_hits<const W: usize>(line: Line<W>, bounds: &Bounds<W>) -> u32 {
    let light = !line & bounds.modules;
    // `line.ahead(6)` is 0 past the end, so a match lies wholly inside.
    let pattern = line & light.ahead(1) & line.ahead(2) & line.ahead(3) & line.ahead(4) & light.ahead(5) & line.ahead(6);
    // Rare outside the finder patterns' own rows: skip the side checks.
    if pattern == Line::EMPTY {
        return 0;
    }
    let dark_before = line.behind(1) | line.behind(2) | line.behind(3) | line.behind(4);
    let dark_after = line.ahead(7) | line.ahead(8) | line.ahead(9) | line.ahead(10);
    (pattern & !(dark_before & dark_after)).count()
}

/// Rule 2 between two neighbouring rows: the number of 2x2 one-colour blocks
/// whose top-left module is at `j` of `upper`. Each scores 3.
#[inline(always)]
fn block_count<const W: usize>(upper: Line<W>, lower: Line<W>, bounds: &Bounds<W>) -> u32 {
    let same_below = !(upper ^ lower);
    let same_right = !(upper ^ upper.ahead(1));
    (same_below & same_below.ahead(1) & same_right & bounds.pairs).count()
}

/// The symbol before masking, as bit planes, in both orientations
/// (`lines[0]` = rows, `lines[1]` = columns, as in [`MASK_LINES`]).
struct Planes<const W: usize> {
    n: usize,
    /// Dark modules before masking (functional patterns and data).
    dark: [[Line<W>; MAX_WIDTH]; 2],
    /// Modules the mask flips: data and error-correction bits, and the
    /// remainder bits `draw_data` leaves `Empty` (masked as light modules).
    maskable: [[Line<W>; MAX_WIDTH]; 2],
}

impl<const W: usize> Planes<W> {
    fn read(canvas: &Canvas, n: usize) -> Self {
        let mut planes = Planes { n, dark: [[Line::EMPTY; MAX_WIDTH]; 2], maskable: [[Line::EMPTY; MAX_WIDTH]; 2] };
        for y in 0..n {
            for x in 0..n {
                // n <= 177, so the coordinates fit i16.
                let (dark, maskable) = match canvas.get(x as i16, y as i16) {
                    Module::Empty => (false, true),
                    Module::Unmasked(color) => (color == Color::Dark, true),
                    Module::Masked(color) => (color == Color::Dark, false),
                };
                if dark {
                    planes.dark[0][y].set(x);
                    planes.dark[1][x].set(y);
                }
                if maskable {
                    planes.maskable[0][y].set(x);
                    planes.maskable[1][x].set(y);
                }
            }
        }
        planes
    }
}

/// What a normal symbol of one version is before its data: the functional
/// patterns qrcode's `draw_all_functional_patterns` draws (they depend on the
/// version only; the format information is drawn light, as reserved), the
/// modules left for data, and the order qrcode's `draw_data` fills them in.
/// Made once per version from qrcode's own canvas, so each encode places its
/// codewords' bits straight into the bit planes: no canvas to build, draw
/// module by module and read back (~40 % of a version-3 encode).
struct Layout {
    n: usize,
    /// Per orientation (as [`MASK_LINES`]), per line, three words: the dark
    /// functional modules, and the modules data goes to.
    dark: [Vec<[u64; 3]>; 2],
    maskable: [Vec<[u64; 3]>; 2],
    /// The data modules in placement order, as (x, y).
    order: Vec<(u8, u8)>,
}

/// One [`Layout`] per normal version, made on first use.
static LAYOUTS: [OnceLock<Layout>; 40] = [const { OnceLock::new() }; 40];

impl Layout {
    fn get(version: i16) -> &'static Layout {
        LAYOUTS[version as usize - 1].get_or_init(|| Layout::new(version))
    }

    fn new(version: i16) -> Layout {
        let mut canvas = Canvas::new(Version::Normal(version), qrcode::EcLevel::L);
        canvas.draw_all_functional_patterns();
        let n = version as usize * 4 + 17;
        let mut dark = [vec![[0u64; 3]; n], vec![[0u64; 3]; n]];
        let mut maskable = [vec![[0u64; 3]; n], vec![[0u64; 3]; n]];
        let set = |lines: &mut [Vec<[u64; 3]>; 2], x: usize, y: usize| {
            lines[0][y][x / 64] |= 1 << (x % 64);
            lines[1][x][y / 64] |= 1 << (y % 64);
        };
        for y in 0..n {
            for x in 0..n {
                // n <= 177, so the coordinates fit i16.
                match canvas.get(x as i16, y as i16) {
                    Module::Empty => set(&mut maskable, x, y),
                    Module::Masked(Color::Dark) | Module::Unmasked(Color::Dark) => set(&mut dark, x, y),
                    Module::Masked(Color::Light) | Module::Unmasked(Color::Light) => {}
                }
            }
        }
        // qrcode's `DataModuleIter` for normal versions (timing column 6):
        // upward and downward two-column strips from the bottom right,
        // column 6 skipped; `draw_codewords` takes the empty modules in
        // this order.
        let width = n as i16;
        let (mut x, mut y) = (width - 1, width - 1);
        let mut taken = vec![false; n * n];
        let mut order = Vec::new();
        loop {
            let adjusted = if x <= 6 { x + 1 } else { x };
            if adjusted <= 0 {
                break;
            }
            let (ux, uy) = (x as usize, y as usize);
            if canvas.get(x, y) == Module::Empty && !taken[uy * n + ux] {
                taken[uy * n + ux] = true;
                order.push((ux as u8, uy as u8));
            }
            match (width - adjusted) % 4 {
                2 if y > 0 => (x, y) = (x + 1, y - 1),
                0 if y < width - 1 => (x, y) = (x + 1, y + 1),
                0 | 2 if x == 7 => x -= 2,
                _ => x -= 1,
            }
        }
        Layout { n, dark, maskable, order }
    }
}

impl<const W: usize> Planes<W> {
    /// The planes of a normal symbol of `layout`'s version with the data
    /// codewords `data` and then the EC codewords `ec` drawn, most
    /// significant bit first: what [`Planes::read`] reads from qrcode's
    /// canvas after `draw_all_functional_patterns` and `draw_data`. Modules
    /// beyond the last codeword stay empty (maskable, light).
    fn from_codewords(layout: &Layout, data: &[u8], ec: &[u8]) -> Self {
        let n = layout.n;
        let mut planes = Planes { n, dark: [[Line::EMPTY; MAX_WIDTH]; 2], maskable: [[Line::EMPTY; MAX_WIDTH]; 2] };
        for across in 0..2 {
            for k in 0..n {
                planes.dark[across][k] = Line::prefix(&layout.dark[across][k]);
                planes.maskable[across][k] = Line::prefix(&layout.maskable[across][k]);
            }
        }
        let bits = data.iter().chain(ec).flat_map(|&byte| (0..8).rev().map(move |j| byte >> j & 1 == 1));
        for (&(x, y), dark) in layout.order.iter().zip(bits) {
            if dark {
                let (x, y) = (usize::from(x), usize::from(y));
                planes.dark[0][y].set(x);
                planes.dark[1][x].set(y);
            }
        }
        planes
    }
}

impl<const W: usize> Planes<W> {
    /// Line `k` of orientation `across` of the symbol under mask number
    /// `mask`, with the format modules `format` drawn: what qrcode's
    /// `apply_mask` makes of it.
    #[inline(always)]
    fn masked_line(&self, mask: usize, format: &FormatModules<W>, across: usize, k: usize) -> Line<W> {
        let flips = Line::prefix(&MASK_LINES[mask][across][k % PERIOD]) & self.maskable[across][k];
        (self.dark[across][k] ^ flips) | format.on_line(across, k)
    }
}

/// The 15-bit format information for `ec_level` and mask number `mask`:
/// BCH(15, 5) with generator 0x537, XOR 0x5412 (ISO/IEC 18004 annex C);
/// equal to qrcode's `FORMAT_INFOS_QR[(ec_level ^ 1) << 3 | mask]`.
fn format_info(ec_level: qrcode::EcLevel, mask: usize) -> u16 {
    let data = ((ec_level as u16 ^ 1) << 3) | mask as u16;
    let mut remainder = data << 10;
    for bit in (10..15).rev() {
        if remainder & (1 << bit) != 0 {
            remainder ^= 0x537 << (bit - 10);
        }
    }
    ((data << 10) | remainder) ^ 0x5412
}

/// The dark format-information modules for one mask. They all lie on row 8
/// or column 8; `on_line8[0]` holds row 8's (bit = column), `on_line8[1]`
/// column 8's (bit = row). qrcode's reserved area is light before masking,
/// so OR-ing these in draws the format information.
struct FormatModules<const W: usize> {
    on_line8: [Line<W>; 2],
}

impl<const W: usize> FormatModules<W> {
    /// qrcode's `FORMAT_INFO_COORDS_QR_MAIN` and `_SIDE` (negative
    /// coordinates counting from the far edge), most significant bit first.
    fn new(n: usize, info: u16) -> Self {
        let far = |k: usize| n - k;
        let main = [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8), (8, 7), (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)];
        let side = [
            (8, far(1)),
            (8, far(2)),
            (8, far(3)),
            (8, far(4)),
            (8, far(5)),
            (8, far(6)),
            (8, far(7)),
            (far(8), 8),
            (far(7), 8),
            (far(6), 8),
            (far(5), 8),
            (far(4), 8),
            (far(3), 8),
            (far(2), 8),
            (far(1), 8),
        ];
        let mut on_line8 = [Line::EMPTY; 2];
        for coords in [main, side] {
            for (i, (x, y)) in coords.into_iter().enumerate() {
                if info >> (14 - i) & 1 == 0 {
                    continue;
                }
                if y == 8 {
                    on_line8[0].set(x);
                }
                if x == 8 {
                    on_line8[1].set(y);
                }
            }
        }
        FormatModules { on_line8 }
    }

    /// The format modules on line `k` of orientation `across`.
    #[inline(always)]
    fn on_line(&self, across: usize, k: usize) -> Line<W> {
        let mut line = if k == 8 { self.on_line8[across] } else { Line::EMPTY };
        // Line 8 of the other orientation crosses this line at position 8.
        if self.on_line8[1 - across].get(k) {
            line.set(8);
        }
        line
    }
}

/// qrcode's six penalty scores for one masked symbol, before they are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Penalties {
    adjacent: [u32; 2],
    blocks: u32,
    finder_hits: [u32; 2],
    dark_modules: u32,
    total_modules: u32,
}

impl Penalties {
    /// `compute_total_penalty_scores`: the same sum, in the same `u16`
    /// wrapping arithmetic as qrcode's release build.
    fn total(&self) -> u16 {
        let adjacent = self.adjacent.map(|points| points as u16);
        let blocks = (3 * self.blocks) as u16;
        let finder = self.finder_hits.map(|hits| ((40 * hits) as u16).wrapping_sub(360));
        let ratio = self.dark_modules as usize * 200 / self.total_modules as usize;
        let balance = ratio.abs_diff(100) as u16;
        adjacent[0].wrapping_add(adjacent[1]).wrapping_add(blocks).wrapping_add(finder[0]).wrapping_add(finder[1]).wrapping_add(balance)
    }
}

/// Scores the symbol `planes` becomes under mask number `mask` with the
/// format modules `format` drawn.
fn penalties<const W: usize>(planes: &Planes<W>, mask: usize, format: &FormatModules<W>) -> Penalties {
    let n = planes.n;
    let bounds = Bounds::<W>::new(n);
    let mut result = Penalties { adjacent: [0; 2], blocks: 0, finder_hits: [0; 2], dark_modules: 0, total_modules: (n * n) as u32 };
    for across in 0..2 {
        let mut previous = Line::EMPTY;
        for k in 0..n {
            let line = planes.masked_line(mask, format, across, k);
            result.adjacent[across] += adjacent_points(line, &bounds);
            result.finder_hits[across] += finder_hits(line, &bounds);
            // Blocks and balance do not depend on orientation: count them on rows.
            if across == 0 {
                result.dark_modules += line.count();
                if k > 0 {
                    result.blocks += block_count(previous, line, &bounds);
                }
            }
            previous = line;
        }
    }
    result
}

/// Scores the eight masks and returns the winner's symbol, row-major.
fn best_masked_symbol_in<const W: usize>(planes: &Planes<W>, ec_level: qrcode::EcLevel) -> Vec<bool> {
    let n = planes.n;
    let formats: [FormatModules<W>; 8] = std::array::from_fn(|mask| FormatModules::new(n, format_info(ec_level, mask)));
    let mut best = (u16::MAX, 0);
    for (mask, format) in formats.iter().enumerate() {
        let total = penalties(planes, mask, format).total();
        // Strictly lower only: on a tie the lower mask number stays, as
        // with qrcode's `min_by_key`. (If mask 0 scores u16::MAX, it is
        // already `best`, so the initial value cannot win a tie wrongly.)
        if total < best.0 {
            best = (total, mask);
        }
    }
    let mask = best.1;
    let mut dark = Vec::with_capacity(n * n);
    for y in 0..n {
        let row = planes.masked_line(mask, &formats[mask], 0, y);
        dark.extend((0..n).map(|x| row.get(x)));
    }
    dark
}

/// The symbol qrcode's `apply_best_mask` makes of `canvas` (a normal QR
/// symbol of width `n`, functional patterns and data drawn, no mask yet), as
/// dark flags in row-major order.
///
/// The winner is masked here from the same bit planes that were scored,
/// rather than by qrcode's `apply_mask`, which calls the mask function
/// through a pointer per module in column order (~3 us of the ~13 us of a
/// version-3 encode). The differential test checks every module against
/// stock qrcode.
pub(crate) fn best_masked_symbol(canvas: &Canvas, n: usize, ec_level: qrcode::EcLevel) -> Vec<bool> {
    assert!((21..=MAX_WIDTH).contains(&n), "QR symbol width {n} out of range");
    // The smallest word count that holds a line: less work for small codes.
    match n.div_ceil(64) {
        1 => best_masked_symbol_in(&Planes::<1>::read(canvas, n), ec_level),
        2 => best_masked_symbol_in(&Planes::<2>::read(canvas, n), ec_level),
        _ => best_masked_symbol_in(&Planes::<3>::read(canvas, n), ec_level),
    }
}

/// [`best_masked_symbol`] of the normal symbol of `version` (1..=40) with
/// the codewords `data` and `ec` drawn, without a canvas: the version's
/// [`Layout`] and the codewords' bits placed in its order.
pub(crate) fn best_masked_codewords(version: i16, ec_level: qrcode::EcLevel, data: &[u8], ec: &[u8]) -> Vec<bool> {
    assert!((1..=40).contains(&version), "QR version {version} out of range");
    let layout = Layout::get(version);
    match layout.n.div_ceil(64) {
        1 => best_masked_symbol_in(&Planes::<1>::from_codewords(layout, data, ec), ec_level),
        2 => best_masked_symbol_in(&Planes::<2>::from_codewords(layout, data, ec), ec_level),
        _ => best_masked_symbol_in(&Planes::<3>::from_codewords(layout, data, ec), ec_level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qrcode::canvas::MaskPattern;
    use qrcode::types::Version;

    /// qrcode's own `penalty_tests` canvas (version 1-Q, checkerboard mask),
    /// built through the public API.
    fn qrcode_test_canvas() -> Canvas {
        let mut c = Canvas::new(Version::Normal(1), qrcode::EcLevel::Q);
        c.draw_all_functional_patterns();
        c.draw_data(b"\x20\x5b\x0b\x78\xd1\x72\xdc\x4d\x43\x40\xec\x11\x00", b"\xa8\x48\x16\x52\xd9\x36\x9c\x00\x2e\x0f\xb4\x7a\x10");
        c.apply_mask(MaskPattern::Checkerboard);
        c
    }

    /// A masked canvas has nothing left to flip: scoring it with any mask
    /// and no extra format modules scores the canvas as it is.
    fn score_as_is(canvas: &Canvas) -> Penalties {
        let planes = Planes::<1>::read(canvas, 21);
        assert!(planes.maskable.iter().flatten().all(|line| *line == Line::EMPTY));
        penalties(&planes, 0, &FormatModules { on_line8: [Line::EMPTY; 2] })
    }

    #[test]
    fn each_rule_matches_qrcodes_own_unit_test_figures() {
        // qrcode 0.14.1 canvas.rs, mod penalty_tests: adjacent 88 / 92,
        // block 90, finder 0 / 40 (after the -360), balance 2.
        let p = score_as_is(&qrcode_test_canvas());
        assert_eq!(p.adjacent, [88, 92]);
        assert_eq!(3 * p.blocks, 90);
        assert_eq!(p.finder_hits.map(|h| 40 * h - 360), [0, 40]);
        let ratio = p.dark_modules as usize * 200 / 441;
        assert_eq!(ratio.abs_diff(100), 2);
        assert_eq!(p.total(), 88 + 92 + 90 + 40 + 2);
    }

    #[test]
    fn total_wraps_around_in_u16_as_qrcodes_release_build_does() {
        let p = Penalties { adjacent: [40_000, 30_000], blocks: 1, finder_hits: [9, 10], dark_modules: 220, total_modules: 441 };
        // 40,000 + 30,000 + 3 + (360 - 360) + (400 - 360) + |220 * 200 / 441 - 100| = 70,044.
        assert_eq!(p.total(), (70_044u32 - 65_536) as u16);
    }

    /// The layout's planes with codewords placed equal what qrcode's canvas
    /// reads as after `draw_data`, for every version and level, with as
    /// many codewords as the version has and with fewer (modules left empty).
    #[test]
    fn planes_from_codewords_equal_qrcodes_canvas() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut byte = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        };
        for version in 1..=40i16 {
            for level in [qrcode::EcLevel::L, qrcode::EcLevel::M, qrcode::EcLevel::Q, qrcode::EcLevel::H] {
                let n = version as usize * 4 + 17;
                let modules = Layout::get(version).order.len();
                for (data_len, ec_len) in [(modules / 16, modules / 16), (modules / 8 / 2, modules / 8 - modules / 8 / 2), (3, 2)] {
                    let data: Vec<u8> = (0..data_len).map(|_| byte()).collect();
                    let ec: Vec<u8> = (0..ec_len).map(|_| byte()).collect();
                    let mut canvas = Canvas::new(Version::Normal(version), level);
                    canvas.draw_all_functional_patterns();
                    canvas.draw_data(&data, &ec);
                    let read = Planes::<3>::read(&canvas, n);
                    let placed = Planes::<3>::from_codewords(Layout::get(version), &data, &ec);
                    assert_eq!(read.dark, placed.dark, "version {version} {level:?} {data_len}+{ec_len}");
                    assert_eq!(read.maskable, placed.maskable, "version {version} {level:?} {data_len}+{ec_len}");
                }
            }
        }
    }

    #[test]
    fn format_info_matches_qrcodes_table() {
        // qrcode's FORMAT_INFOS_QR, indexed by (ec_level ^ 1) << 3 | mask.
        const FORMAT_INFOS_QR: [u16; 32] = [
            0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0, 0x77c4, 0x72f3, 0x7daa, 0x789d, 0x662f, 0x6318, 0x6c41, 0x6976,
            0x1689, 0x13be, 0x1ce7, 0x19d0, 0x0762, 0x0255, 0x0d0c, 0x083b, 0x355f, 0x3068, 0x3f31, 0x3a06, 0x24b4, 0x2183, 0x2eda, 0x2bed,
        ];
        use qrcode::EcLevel::*;
        for level in [L, M, Q, H] {
            for mask in 0..8 {
                assert_eq!(format_info(level, mask), FORMAT_INFOS_QR[((level as usize) ^ 1) << 3 | mask]);
            }
        }
    }

    #[test]
    fn mask_lines_match_the_mask_functions_everywhere() {
        for (mask, [rows, columns]) in MASK_LINES.iter().enumerate() {
            for y in 0..MAX_WIDTH {
                for x in 0..MAX_WIDTH {
                    let row = Line::<3>::prefix(&rows[y % PERIOD]);
                    let column = Line::<3>::prefix(&columns[x % PERIOD]);
                    assert_eq!(row.get(x), inverts(mask, x, y), "mask {mask} row {y} col {x}");
                    assert_eq!(column.get(y), inverts(mask, x, y), "mask {mask} col {x} row {y}");
                }
            }
        }
    }

    #[test]
    fn line_rules_on_hand_made_lines() {
        let bounds = Bounds::<3>::new(177);
        let from = |bits: &str| {
            let mut line = Line::<3>::EMPTY;
            for (j, c) in bits.chars().enumerate() {
                if c == '#' {
                    line.set(j);
                }
            }
            line
        };
        // Runs: 5 light at the start (3), 6 dark (4), the rest light: 177 - 11 = 166 -> 164.
        assert_eq!(adjacent_points(from(".....######"), &bounds), 3 + 4 + 164);
        // Across a word boundary: dark 60..70 (10 modules -> 8), light 0..60 (58), light 70..177 (105).
        let mut line = Line::<3>::EMPTY;
        (60..70).for_each(|j| line.set(j));
        assert_eq!(adjacent_points(line, &bounds), 8 + 58 + 105);
        // A finder-like run at the very start: light outside the symbol.
        assert_eq!(finder_hits(from("#.###.#"), &bounds), 1);
        // Dark on both sides within 4: no hit; light on one side: a hit.
        assert_eq!(finder_hits(from("#...#.###.#...#"), &bounds), 0);
        assert_eq!(finder_hits(from("#....#.###.#...#"), &bounds), 1);
        // Ending at the last module of a 21-wide symbol (outside = light).
        let bounds21 = Bounds::<1>::new(21);
        let mut end = Line::<1>::EMPTY;
        for (j, c) in "#.###.#".chars().enumerate() {
            if c == '#' {
                end.set(14 + j);
            }
        }
        end.set(10);
        assert_eq!(finder_hits(end, &bounds21), 1);
        // Blocks: two equal all-light rows of 21 have 20 blocks.
        assert_eq!(block_count(Line::<1>::EMPTY, Line::EMPTY, &bounds21), 20);
    }
}
