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

use crate::count::frontier::plan::Step;

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
/// The widest frontier a packed state holds: four bits a slot below the two
/// top bits of a `u128`, and at most 12 labels (4..=15).
pub(crate) const MAX_WIDTH: usize = 25;
/// The widest frontier that packs into a `u64`.
pub(crate) const MAX_WIDTH_U64: usize = 15;

/// What is being counted, as the steps need it.
#[derive(Clone, Copy)]
pub(crate) struct Mode {
    /// Hamiltonian cycles (`true`) or Hamiltonian paths (`false`).
    pub closed: bool,
    /// How many path ends may be chosen freely: 2 less the fixed ends
    /// (0 for cycles).
    pub free_ends: u8,
    /// Bit position of the used-ends counter in the packed word.
    pub used_shift: u32,
}

/// A state unpacked for one step: the old frontier's codes, then the new
/// square's.
#[derive(Clone, Copy)]
struct Work {
    codes: [u8; 32],
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
enum Outcome {
    /// A state of the next frontier.
    Next(u128),
    /// A whole tour: counted, not kept.
    Complete,
    /// No tour extends this.
    Dead,
}

impl Work {
    /// Unpacks `key`, a state of a frontier of `before` slots, and appends
    /// the new square (a lone fixed end or an empty square).
    fn unpack(key: u128, before: usize, fixed_end: bool, mode: Mode) -> Work {
        let mut codes = [EMPTY; 32];
        for (i, c) in codes.iter_mut().take(before).enumerate() {
            *c = nibble(key, i);
        }
        codes[before] = if fixed_end { LONE_END } else { EMPTY };
        #[allow(clippy::cast_possible_truncation)]
        let used = ((key >> mode.used_shift) & 3) as u8;
        Work {
            codes,
            len: before + 1,
            used,
        }
    }

    /// The slot holding the other end of the fragment that ends at slot `i`
    /// (`i` itself for an empty square), or `None` when that end is a path
    /// end.
    fn other_end(&self, i: usize) -> Option<usize> {
        match self.codes[i] {
            EMPTY => Some(i),
            TAIL | LONE_END => None,
            label => Some(self.partner(i, label)),
        }
    }

    /// The other slot labelled `label` (a label is always on exactly two
    /// slots; `i` itself should that ever fail).
    fn partner(&self, i: usize, label: u8) -> usize {
        (0..self.len)
            .find(|&j| j != i && self.codes[j] == label)
            .unwrap_or(i)
    }

    /// Adds the edge between slots `x` and `y`, both able to take one
    /// (neither [`FULL`]); `fresh` is a label no slot has.
    fn join(&mut self, x: usize, y: usize, fresh: u8) -> Join {
        let ox = self.other_end(x);
        let oy = self.other_end(y);
        if ox == Some(y) || (ox.is_none() && oy.is_none()) {
            self.codes[x] = FULL;
            self.codes[y] = FULL;
            return if ox.is_none() {
                Join::Path
            } else {
                Join::Cycle
            };
        }
        // An empty square stays an end of the joined fragment (it is its own
        // other end, and is relabelled below); any other becomes full.
        if self.codes[x] != EMPTY {
            self.codes[x] = FULL;
        }
        if self.codes[y] != EMPTY {
            self.codes[y] = FULL;
        }
        match (ox, oy) {
            (Some(a), Some(b)) => {
                self.codes[a] = fresh;
                self.codes[b] = fresh;
            }
            (Some(a), None) | (None, Some(a)) => self.codes[a] = TAIL,
            (None, None) => {}
        }
        Join::Joined
    }

    /// Whether every slot is [`FULL`]: nothing is left to join.
    fn all_full(&self) -> bool {
        self.codes[..self.len].iter().all(|&c| c == FULL)
    }

    /// Makes this the next frontier's state: squares leaving the frontier
    /// must be done (full, or a path end), the others must still be able to
    /// get the edges they need; then packs it. A tour that completes must be
    /// the last step's and cover every square.
    fn finish(mut self, step: &Step, mode: Mode) -> Outcome {
        for &d in &step.departs {
            let d = usize::from(d);
            match self.codes[d] {
                FULL => {}
                EMPTY | LONE_END => return Outcome::Dead,
                TAIL => {
                    // Its fragment already has one path end; this square
                    // becomes the other: the path is whole.
                    if self.used >= mode.free_ends {
                        return Outcome::Dead;
                    }
                    self.codes[d] = FULL;
                    return if step.last && self.all_full() {
                        Outcome::Complete
                    } else {
                        Outcome::Dead
                    };
                }
                label => {
                    // A free path end: the fragment's other end now leads
                    // to a path end.
                    if mode.closed || self.used >= mode.free_ends {
                        return Outcome::Dead;
                    }
                    self.used += 1;
                    let p = self.partner(d, label);
                    self.codes[p] = TAIL;
                    self.codes[d] = FULL;
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
    fn check_and_pack(&self, step: &Step, mode: Mode) -> Outcome {
        let spare = mode.free_ends - self.used;
        let mut must_end = 0u8;
        let mut demand = [0i32; 2];
        let mut rename = [0u8; 32];
        let mut next = FIRST_LABEL;
        let mut key = 0u128;
        let mut open_slots = 0u32;
        for (j, ((&k, &rem), &colour)) in step
            .keep
            .iter()
            .zip(&step.remaining)
            .zip(&step.colour)
            .enumerate()
        {
            let mut code = self.codes[usize::from(k)];
            if code == EMPTY && rem < 2 {
                must_end += 1;
            }
            demand[usize::from(colour < 0)] += needed_edges(code);
            if code != FULL {
                open_slots |= 1 << j;
            }
            if code >= FIRST_LABEL {
                let r = &mut rename[usize::from(code)];
                if *r == 0 {
                    *r = next;
                    next += 1;
                }
                code = *r;
            }
            key |= u128::from(code) << (4 * j);
        }
        for w in &step.watch {
            let reachable = u32::from(w.unprocessed) + (w.slots & open_slots).count_ones();
            match (reachable, w.fixed_end) {
                (0, _) => return Outcome::Dead,
                (1, false) => must_end += 1,
                _ => {}
            }
        }
        if must_end > spare || !balanced(demand, i32::from(spare), step) {
            return Outcome::Dead;
        }
        Outcome::Next(key | u128::from(self.used) << mode.used_shift)
    }
}

/// Whether the frontier's edge demand (per colour class) can meet the
/// unprocessed squares' capacity, `spare` free path ends still to come (see
/// [`Work::check_and_pack`]).
fn balanced(demand: [i32; 2], spare: i32, step: &Step) -> bool {
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

/// The edges a square with `code` still needs (a free path end needs one
/// fewer, which the caller accounts for).
#[inline]
fn needed_edges(code: u8) -> i32 {
    match code {
        EMPTY => 2,
        FULL => 0,
        _ => 1,
    }
}

/// The code of slot `i` of a packed state.
#[inline]
#[allow(clippy::cast_possible_truncation)]
fn nibble(key: u128, i: usize) -> u8 {
    ((key >> (4 * i)) & 15) as u8
}

/// Applies `step` to the state `key`: for every choice of edges from the new
/// square to earlier squares (none, one, or two; one for a fixed path end),
/// calls `emit` with each resulting state of the next frontier, and returns
/// how many choices completed a tour.
pub(crate) fn expand(step: &Step, mode: Mode, key: u128, mut emit: impl FnMut(u128)) -> u32 {
    let before = step.keep.len() + step.departs.len() - 1;
    let base = Work::unpack(key, before, step.fixed_end, mode);
    let new = before;
    let mut candidates = [0usize; 16];
    let mut m = 0;
    for &b in &step.back {
        if base.codes[usize::from(b)] != FULL && m < candidates.len() {
            candidates[m] = usize::from(b);
            m += 1;
        }
    }
    let two = !step.fixed_end;
    let mut complete = 0;
    let mut settle = |work: Work, complete: &mut u32| match work.finish(step, mode) {
        Outcome::Next(k) => emit(k),
        Outcome::Complete => *complete += 1,
        Outcome::Dead => {}
    };
    settle(base, &mut complete);
    for i in 0..m {
        let mut one = base;
        match one.join(new, candidates[i], 16) {
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
            match both.join(new, c, 17) {
                Join::Joined => settle(both, &mut complete),
                closed => complete += u32::from(closes_tour(closed, &both, step, mode)),
            }
        }
    }
    complete
}

/// Whether an edge that closed a fragment completes the tour: a cycle when
/// counting cycles, the whole path when counting paths, at the last square,
/// with nothing else left open.
fn closes_tour(closed: Join, work: &Work, step: &Step, mode: Mode) -> bool {
    let right_kind = match closed {
        Join::Cycle => mode.closed,
        Join::Path => !mode.closed,
        Join::Joined => false,
    };
    right_kind && step.last && work.all_full()
}
