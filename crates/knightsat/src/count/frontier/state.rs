//! A state of the dynamic program and how one step changes it.
//!
//! A state describes the partial tours on the processed squares as seen from
//! the frontier (processed squares with unprocessed neighbours), one code per
//! frontier slot, slots in processing order:
//!
//! - [`EMPTY`]: no tour edge yet; the square needs two (one if it becomes a
//!   free path end).
//! - [`FULL`]: takes no more edges (degree 2, or a fixed path end that has
//!   its one edge).
//! - [`TAIL`]: one edge, and the other end of its fragment is a path end
//!   (open tours only).
//! - [`LONE_END`]: a fixed path end (the given start or end) with no edge
//!   yet: it takes exactly one.
//! - a label ≥ [`FIRST_LABEL`]: one edge; the fragment's other end is the
//!   other slot with the same label.
//!
//! Labels are renumbered in slot order when a state is packed, so equal
//! states pack to equal words. The packed word also keeps, in its top two
//! bits, how many free path ends (ends other than a given start or end) the
//! open tour has used so far.
//!
//! A step works on the packed codes directly, four bits a slot in a `u128`:
//! finding a fragment's other end, and counting the slots that are empty
//! or can still take an edge, are a few word operations (SWAR) rather than
//! a walk over the slots.

use std::ops::{BitAnd, BitOr, BitXor, Mul, Not, Shl, Shr, Sub};

use crate::count::frontier::schedule::SquareStep;

/// Degree 0: needs edges.
pub(crate) const EMPTY: u8 = 0;
/// Takes no more edges.
pub(crate) const FULL: u8 = 1;
/// Degree 1, the fragment's other end is a path end.
pub(crate) const TAIL: u8 = 2;
/// A fixed path end with no edge yet.
pub(crate) const LONE_END: u8 = 3;
/// The first fragment label.
pub(crate) const FIRST_LABEL: u8 = 4;
/// The last fragment label: labels are nibbles.
const LAST_LABEL: u8 = 15;
/// The widest frontier a packed state holds: four bits a slot below the two
/// top bits of a `u128`, and labels 4..=15 for the fragments. A step works
/// on the frontier and the new square, at most 24 slots; joining two empty
/// squares there needs a label that the other 22 (at most 11 fragments)
/// leave free.
pub(crate) const MAX_WIDTH: usize = 23;
/// The widest frontier that packs into a `u64`.
pub(crate) const MAX_WIDTH_U64: usize = 15;

/// Bit 0 of each of the 32 nibbles of a `u128`: slot `j` is bit `4j`.
pub(crate) const NIBBLE_LOW: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;

/// A machine word holding a frontier's codes, four bits a slot: `u64` for
/// frontiers of up to 16 slots (with the new square), `u128` for wider.
pub(crate) trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Bit 0 of every nibble.
    const LOW: Self;
    /// Slots the word holds.
    const SLOTS: usize;
    /// The low bits of `x`.
    fn of(x: u128) -> Self;
    /// The word, widened.
    fn wide(self) -> u128;
    /// Trailing zero bits.
    fn tz(self) -> u32;
    /// Bits set.
    fn ones(self) -> u32;
}

macro_rules! word {
    ($t:ty, $slots:expr) => {
        impl Word for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            #[allow(clippy::cast_possible_truncation)]
            const LOW: $t = NIBBLE_LOW as $t;
            const SLOTS: usize = $slots;
            #[inline]
            #[allow(clippy::cast_possible_truncation)]
            fn of(x: u128) -> $t {
                x as $t
            }
            #[inline]
            fn wide(self) -> u128 {
                u128::from(self)
            }
            #[inline]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
        }
    };
}

word!(u64, 16);
word!(u128, 32);

/// Bit `4j` for each slot `j < len`.
#[inline]
pub(crate) fn first_slots<W: Word>(len: usize) -> W {
    if len >= W::SLOTS {
        W::LOW
    } else {
        W::LOW & ((W::ONE << (4 * len as u32)) - W::ONE)
    }
}

/// The code `code` in every nibble.
#[inline]
fn every_slot<W: Word>(code: u8) -> W {
    W::LOW * W::of(u128::from(code))
}

/// Bit `4j` for each nibble `j` of `word` equal to `code`.
#[inline]
fn slots_equal<W: Word>(word: W, code: u8) -> W {
    let x = word ^ every_slot(code);
    !(x | x >> 1 | x >> 2 | x >> 3) & W::LOW
}

/// How many slots a mask of slot bits holds.
#[inline]
fn slots_in<W: Word>(mask: W) -> i32 {
    // At most 32.
    #[allow(clippy::cast_possible_wrap)]
    let n = mask.ones() as i32;
    n
}

/// The path ends a count leaves free for the tour to choose: none for
/// cycles, else two less those fixed (a start, an end).
pub(crate) fn free_ends(closed: bool, fixed_ends: usize) -> u8 {
    if closed {
        0
    } else {
        2 - u8::try_from(fixed_ends.min(2)).unwrap_or(2)
    }
}

/// What is being counted, as the steps need it.
#[derive(Clone, Copy)]
pub(crate) struct Mode {
    /// Hamiltonian cycles (`true`) or Hamiltonian paths (`false`).
    pub closed: bool,
    /// How many path ends may be chosen freely: 2 less the fixed ends
    /// (0 for cycles).
    pub free_ends: u8,
    /// How many of the free ends may lie on the squares this run processes
    /// (at most `free_ends`): fewer when a count meeting in the middle
    /// places the others on the other side of its cut. The state checks
    /// still leave room for all `free_ends`, wherever they will lie.
    pub ends_here: u8,
    /// Bit position of the used-ends counter in the packed word.
    pub used_shift: u32,
}

/// A state unpacked for one step: the old frontier's codes, then the new
/// square's, four bits a slot.
#[derive(Clone, Copy)]
struct Work<W: Word> {
    word: W,
    len: usize,
    used: u8,
}

/// What adding one edge did.
#[derive(Clone, Copy)]
enum Join {
    /// Two fragments (or a fragment and a lone square) became one.
    Joined,
    /// The edge closed a fragment on itself: a cycle.
    Cycle,
    /// The edge joined two fragments each leading to a path end: the whole
    /// path.
    Path,
}

/// What a step made of a state with one choice of edges.
enum Fate<W: Word> {
    /// A state of the next frontier.
    Next(W),
    /// A whole tour: counted, not kept.
    Complete,
    /// No tour extends this.
    Dead,
}

impl<W: Word> Work<W> {
    /// Unpacks `key`, a state of a frontier of `before` slots, and appends
    /// the new square (a lone fixed end or an empty square).
    #[inline]
    fn unpack(key: W, before: usize, fixed_end: bool, mode: Mode) -> Work<W> {
        debug_assert!(before < W::SLOTS);
        let at = 4 * before as u32;
        let mut word = key & ((W::ONE << at) - W::ONE);
        if fixed_end {
            word = word | W::of(u128::from(LONE_END)) << at;
        }
        #[allow(clippy::cast_possible_truncation)]
        let used = ((key >> mode.used_shift).wide() & 3) as u8;
        Work {
            word,
            len: before + 1,
            used,
        }
    }

    /// The code of slot `i`.
    #[inline]
    fn code(&self, i: usize) -> u8 {
        #[allow(clippy::cast_possible_truncation)]
        let c = ((self.word >> (4 * i as u32)).wide() & 15) as u8;
        c
    }

    /// Sets the code of slot `i`.
    #[inline]
    fn set(&mut self, i: usize, code: u8) {
        let at = 4 * i as u32;
        self.word = (self.word & !(W::of(15) << at)) | W::of(u128::from(code)) << at;
    }

    /// The slot holding the other end of the fragment that ends at slot `i`
    /// (`i` itself for an empty square), or `None` when that end is a path
    /// end.
    #[inline]
    fn other_end(&self, i: usize) -> Option<usize> {
        match self.code(i) {
            EMPTY => Some(i),
            TAIL | LONE_END => None,
            label => Some(self.partner(i, label)),
        }
    }

    /// The other slot labelled `label` (a label is always on exactly two
    /// slots; `i` itself should that ever fail).
    #[inline]
    fn partner(&self, i: usize, label: u8) -> usize {
        let others =
            slots_equal(self.word, label) & first_slots(self.len) & !(W::ONE << (4 * i as u32));
        if others == W::ZERO {
            i
        } else {
            (others.tz() / 4) as usize
        }
    }

    /// A label no slot has.
    fn fresh_label(&self) -> u8 {
        let slots: W = first_slots(self.len);
        (FIRST_LABEL..=LAST_LABEL)
            .find(|&label| slots_equal(self.word, label) & slots == W::ZERO)
            .unwrap_or(LAST_LABEL)
    }

    /// Adds the edge between slots `x` and `y`, both able to take one
    /// (neither [`FULL`]).
    #[inline]
    fn join(&mut self, x: usize, y: usize) -> Join {
        let ox = self.other_end(x);
        let oy = self.other_end(y);
        if ox == Some(y) || (ox.is_none() && oy.is_none()) {
            self.set(x, FULL);
            self.set(y, FULL);
            return if ox.is_none() {
                Join::Path
            } else {
                Join::Cycle
            };
        }
        // The joined fragment's ends take a label x or y had (both now
        // inner squares), or a fresh one when both were empty.
        let (cx, cy) = (self.code(x), self.code(y));
        let label = if cx >= FIRST_LABEL {
            cx
        } else if cy >= FIRST_LABEL {
            cy
        } else if cx == EMPTY && cy == EMPTY {
            self.fresh_label()
        } else {
            0
        };
        // An empty square stays an end of the joined fragment (it is its own
        // other end, and takes the label below); any other becomes full.
        if cx != EMPTY {
            self.set(x, FULL);
        }
        if cy != EMPTY {
            self.set(y, FULL);
        }
        match (ox, oy) {
            (Some(a), Some(b)) => {
                self.set(a, label);
                self.set(b, label);
            }
            (Some(a), None) | (None, Some(a)) => self.set(a, TAIL),
            (None, None) => {}
        }
        Join::Joined
    }

    /// Whether every slot is [`FULL`]: nothing is left to join.
    #[inline]
    fn all_full(&self) -> bool {
        let slots: W = first_slots(self.len);
        slots_equal(self.word, FULL) & slots == slots
    }

    /// Makes this the next frontier's state: squares leaving the frontier
    /// must be done (full, or a path end), the others must still be able to
    /// get the edges they need; then packs it. A tour that completes must be
    /// the last step's and cover every square.
    #[inline]
    fn finish(mut self, step: &SquareStep, mode: Mode) -> Fate<W> {
        for &d in &step.departs {
            let d = usize::from(d);
            match self.code(d) {
                FULL => {}
                EMPTY | LONE_END => return Fate::Dead,
                TAIL => {
                    // Its fragment already has one path end; this square
                    // becomes the other: the path is whole.
                    if self.used >= mode.ends_here {
                        return Fate::Dead;
                    }
                    self.set(d, FULL);
                    return if step.last && self.all_full() {
                        Fate::Complete
                    } else {
                        Fate::Dead
                    };
                }
                label => {
                    // A free path end: the fragment's other end now leads
                    // to a path end.
                    if mode.closed || self.used >= mode.ends_here {
                        return Fate::Dead;
                    }
                    self.used += 1;
                    let p = self.partner(d, label);
                    self.set(p, TAIL);
                    self.set(d, FULL);
                }
            }
        }
        self.check_and_pack(step, mode)
    }

    /// Packs the kept slots, labels renumbered in slot order from
    /// [`FIRST_LABEL`], if the state can still become a tour as far as
    /// three cheap necessary conditions tell:
    ///
    /// - each empty square staying in the frontier still has enough
    ///   unprocessed neighbours, and each unprocessed square of the step's
    ///   watch list enough neighbours that can take an edge: two, or one if
    ///   it becomes a free path end (and there are free ends enough for all
    ///   such squares);
    /// - demand meets capacity: the edges the frontier squares still need
    ///   all go to unprocessed squares, whose own needs are met by those
    ///   edges and by edges among themselves (at most `inner_edges`), give
    ///   or take the free path ends still to come (`spare`);
    /// - on a bipartite graph that holds per colour class (an edge from a
    ///   frontier square of one class goes to an unprocessed square of the
    ///   other), and the classes' needs differ by the difference between the
    ///   free ends yet to come in each: |Δ| ≤ spare and Δ ≡ spare (mod 2).
    #[inline]
    fn check_and_pack(&self, step: &SquareStep, mode: Mode) -> Fate<W> {
        let spare = mode.free_ends - self.used;
        // Drop the departing slots, highest first, so the kept ones close
        // up in order.
        let mut word = self.word;
        for &d in step.departs.iter().rev() {
            let low = (W::ONE << (4 * u32::from(d))) - W::ONE;
            word = (word & low) | ((word >> 4) & !low);
        }
        let kept = W::of(step.kept_slots);
        word = word & (kept * W::of(15));
        let empty = slots_equal(word, EMPTY) & kept;
        let open = kept & !slots_equal(word, FULL);
        // Empty squares need two edges, other open ones one: count the
        // open slots' bits and the empty slots' bits moved up one, at once.
        let needs = open | empty << 1;
        let demand = step.class_slots.map(|class| {
            let class = W::of(class);
            slots_in(needs & (class | class << 1))
        });
        let short = empty & W::of(step.short_slots);
        let mut must_end = if short == W::ZERO { 0 } else { slots_in(short) };
        for w in &step.watch {
            // Whether the square can reach none, or just one, of the
            // squares that can still take an edge.
            let near = W::of(w.slots) & open;
            let reachable = i32::from(w.unprocessed)
                + if near == W::ZERO {
                    0
                } else if near & (near - W::ONE) == W::ZERO {
                    1
                } else {
                    2
                };
            match (reachable, w.fixed_end) {
                (0, _) => return Fate::Dead,
                (1, false) => must_end += 1,
                _ => {}
            }
        }
        if must_end > i32::from(spare) || !balanced(demand, i32::from(spare), step) {
            return Fate::Dead;
        }
        // Renumber the labels in order of first slot, one label a round.
        let labelled = (word >> 2 | word >> 3) & kept;
        let mut key = word & !(labelled * W::of(15));
        let mut rest = labelled;
        let mut next = FIRST_LABEL;
        while rest != W::ZERO {
            let at = rest.tz();
            #[allow(clippy::cast_possible_truncation)]
            let label = ((word >> at).wide() & 15) as u8;
            let both = slots_equal(word, label) & kept;
            key = key | (both * W::of(u128::from(next)));
            rest = rest & !both;
            next += 1;
        }
        Fate::Next(key | W::of(u128::from(self.used) << mode.used_shift))
    }
}

/// Whether the frontier's edge demand (per colour class) can meet the
/// unprocessed squares' capacity, `spare` free path ends still to come (see
/// [`Work::check_and_pack`]).
fn balanced(demand: [i32; 2], spare: i32, step: &SquareStep) -> bool {
    let inner = step.inner_edges;
    if step.bipartite {
        // Frontier class X feeds unprocessed class Y: demand[X] =
        // capacity[Y] − inner + (ends among frontier X) − (ends among
        // unprocessed Y), with 0 ≤ inner ≤ inner_edges.
        let fits = |d: i32, cap: i32| d <= cap + spare && d >= cap - inner - spare;
        let delta = demand[0] - demand[1] + step.capacity[0] - step.capacity[1];
        fits(demand[0], step.capacity[1])
            && fits(demand[1], step.capacity[0])
            && delta.abs() <= spare
            && (delta - spare) % 2 == 0
    } else {
        let (d, cap) = (demand[0] + demand[1], step.capacity[0] + step.capacity[1]);
        d <= cap + spare && d >= cap - 2 * inner - spare
    }
}

/// Applies `step` to the state `key`: for every choice of edges from the new
/// square to earlier squares (none, one, or two; one for a fixed path end),
/// calls `emit` with each resulting state of the next frontier, and returns
/// how many choices completed a tour.
pub(crate) fn expand<W: Word>(
    step: &SquareStep,
    mode: Mode,
    key: W,
    mut emit: impl FnMut(W),
) -> u32 {
    let before = step.keep.len() + step.departs.len() - 1;
    let base = Work::unpack(key, before, step.fixed_end, mode);
    let new = before;
    let mut candidates = [0usize; 16];
    let mut m = 0;
    for &b in &step.back {
        if base.code(usize::from(b)) != FULL && m < candidates.len() {
            candidates[m] = usize::from(b);
            m += 1;
        }
    }
    let two = !step.fixed_end;
    let mut complete = 0;
    let mut settle = |work: Work<W>, complete: &mut u32| match work.finish(step, mode) {
        Fate::Next(k) => emit(match &step.mirror {
            Some(mirror) => canonical(k, mirror, mode),
            None => k,
        }),
        Fate::Complete => *complete += 1,
        Fate::Dead => {}
    };
    settle(base, &mut complete);
    for i in 0..m {
        let mut one = base;
        match one.join(new, candidates[i]) {
            Join::Joined => settle(one, &mut complete),
            closed => {
                complete += u32::from(closes_tour(closed, &one, step, mode));
                continue;
            }
        }
        if !two {
            continue;
        }
        for &c in &candidates[i + 1..m] {
            let mut both = one;
            match both.join(new, c) {
                Join::Joined => settle(both, &mut complete),
                closed => complete += u32::from(closes_tour(closed, &both, step, mode)),
            }
        }
    }
    complete
}

/// The smaller of the packed state `key` and its mirror image: slot `j` of
/// the image holds the code of slot `mirror[j]`, its labels renumbered in
/// slot order, its used path ends the same (see [`SquareStep::mirror`]).
fn canonical<W: Word>(key: W, mirror: &[u8], mode: Mode) -> W {
    let mut image = key & (W::of(3) << mode.used_shift);
    let mut relabel = [0u8; 16];
    let mut next = FIRST_LABEL;
    for (j, &from) in mirror.iter().enumerate() {
        #[allow(clippy::cast_possible_truncation)]
        let mut code = ((key >> (4 * u32::from(from))).wide() & 15) as u8;
        if code >= FIRST_LABEL {
            let label = &mut relabel[usize::from(code)];
            if *label == 0 {
                *label = next;
                next += 1;
            }
            code = *label;
        }
        image = image | W::of(u128::from(code)) << (4 * j as u32);
    }
    if image.wide() < key.wide() {
        image
    } else {
        key
    }
}

/// Whether an edge that closed a fragment completes the tour: a cycle when
/// counting cycles, the whole path when counting paths, at the last square,
/// with nothing else left open.
fn closes_tour<W: Word>(closed: Join, work: &Work<W>, step: &SquareStep, mode: Mode) -> bool {
    let right_kind = match closed {
        Join::Cycle => mode.closed,
        Join::Path => !mode.closed,
        Join::Joined => false,
    };
    right_kind && step.last && work.all_full()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word operations agree with a slot-by-slot reading, in both word
    /// sizes: which nibbles hold a code, and the first `len` slots.
    #[test]
    fn slot_masks_match_a_slot_by_slot_reading() {
        let codes: [u8; 32] = [
            0, 1, 2, 3, 4, 15, 4, 0, 9, 9, 1, 15, 3, 2, 0, 7, 7, 5, 5, 0, 1, 1, 8, 8, 14, 14, 0, 3,
            2, 6, 6, 1,
        ];
        let wide = codes
            .iter()
            .enumerate()
            .fold(0u128, |w, (j, &c)| w | u128::from(c) << (4 * j));
        let narrow = u64::of(wide);
        for code in 0..16u8 {
            let want = codes
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == code)
                .fold(0u128, |m, (j, _)| m | 1 << (4 * j));
            assert_eq!(slots_equal(wide, code), want, "code {code}");
            assert_eq!(slots_equal(narrow, code), u64::of(want), "code {code}");
        }
        assert_eq!(first_slots::<u128>(3), 0x111);
        assert_eq!(first_slots::<u64>(16), u64::MAX / 15);
        assert_eq!(first_slots::<u128>(40), NIBBLE_LOW);
    }

    /// Labels are renumbered in order of first slot when a state is
    /// packed, so one state reached with different labels packs to one
    /// word; and a partner is the other slot with the label.
    #[test]
    fn packing_renumbers_labels_in_slot_order() {
        let word = |codes: &[u8]| {
            codes
                .iter()
                .enumerate()
                .fold(0u64, |w, (j, &c)| w | u64::from(c) << (4 * j))
        };
        let step = SquareStep {
            back: Vec::new(),
            departs: Vec::new(),
            keep: (0..6).collect(),
            bipartite: false,
            capacity: [12, 0],
            inner_edges: 6,
            kept_slots: first_slots(6),
            class_slots: [first_slots(6), 0],
            short_slots: 0,
            fixed_end: false,
            watch: Vec::new(),
            last: false,
            mirror: None,
        };
        let mode = Mode {
            closed: true,
            free_ends: 0,
            ends_here: 0,
            used_shift: 62,
        };
        let packed = |codes: &[u8]| {
            let work = Work {
                word: word(codes),
                len: codes.len(),
                used: 0,
            };
            assert_eq!(work.partner(0, codes[0]), 3);
            match work.check_and_pack(&step, mode) {
                Fate::Next(k) => k,
                _ => panic!("the state {codes:?} should live"),
            }
        };
        let canonical = word(&[4, 5, 0, 4, 5, 1]);
        assert_eq!(packed(&[9, 12, 0, 9, 12, 1]), canonical);
        assert_eq!(packed(&[15, 4, 0, 15, 4, 1]), canonical);
    }
}
