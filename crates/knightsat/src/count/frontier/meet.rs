//! Counts Hamiltonian cycles by meeting in the middle: the squares before a
//! cut (the top) are processed forward as usual, the squares after it (the
//! bottom) backward, and the two last tables are joined.
//!
//! The forward table at the cut describes the top's edges as seen from the
//! cut's squares `F` (top squares with a bottom neighbour): each one's
//! degree and, for degree one, the square of `F` its fragment ends at. The
//! backward table is made to describe the rest of a tour on the same
//! squares: after the bottom's squares, each square of `F` is added with its
//! edges to the bottom only (a "half step"), so that a state says how many
//! edges each square of `F` has into the bottom and which square of `F` its
//! bottom path leads to. A top and a bottom state make Hamiltonian cycles
//! when every square of `F` gets two edges in all and the two pairings of
//! the squares with one edge on each side make one cycle. A cycle splits
//! into its top edges and the rest in exactly one way, so the cycles are
//! the sum, over such pairs, of the products of their counts.
//!
//! Paths (open tours, no end fixed) join the same way, with the path's two
//! ends either free ends used on one side (a fragment leading to one ends
//! in [`PATH_END`]) or squares of the cut with one edge in all; the join
//! chooses which squares of the cut are ends and walks the path through
//! the cut from one end to the other ([`paths_with`]).
//!
//! A half step fixes its square's bottom degree for good, so states that
//! differ there never merge again: when the half steps' tables grow too
//! large, they are split into parts by those degrees, and each part
//! finishes on its own ([`Meet::bottom`]).
//!
//! Why: the forward counter's tables keep growing past the middle of a
//! board (for 8x8 closed past 16 GiB three quarters of the way), while
//! both tables here are made of states at the middle: 8x8 closed in 7
//! minutes within 1.4 GiB, 7x7 open in 53 s where the forward order took
//! 146 s (docs/benchmarks.md, "Meeting in the middle").

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::Ordering;

use crate::count::frontier::engine::{advance, first_tables, shard_of, table_error};
use crate::count::frontier::plan::{Graph, Lines, Plan, Step};
use crate::count::frontier::state::MAX_WIDTH_U64;
use crate::count::frontier::state::{
    first_slots, Mode, Word, EMPTY, FIRST_LABEL, FULL, MAX_WIDTH, TAIL,
};
use crate::count::frontier::table::{mix, Base12, Budget, Key, Table, TableError, BASE12_SLOTS};
use crate::count::frontier::{FrontierError, Options, Progress};
use crate::count::number::Wide;

/// Not paired: a square of the cut with no edge or two on its side.
const UNPAIRED: u8 = u8::MAX;
/// The partner of a square whose fragment leads to a path end on its side
/// (open paths): a node past the cut's squares.
const PATH_END: u8 = MAX_WIDTH as u8;

/// A state at the cut in the forward order of its squares: two bits a
/// square for the top degree it has (a top state) or needs (a bottom
/// state), and for each square of degree one the square its fragment
/// leads to.
#[derive(Clone, Copy)]
struct Cut {
    degrees: u64,
    partner: [u8; MAX_WIDTH + 1],
    /// Free path ends used on its side (open paths only).
    used: u8,
}

impl Cut {
    /// Reads the packed state `word` whose slot `j` holds the square of
    /// the cut numbered `at[j]` (`None`: a slot of the bottom); `bottom`
    /// reads the top degree a bottom state needs, two less its own.
    fn read(word: u128, at: &[Option<usize>], bottom: bool, used_shift: u32) -> Cut {
        #[allow(clippy::cast_possible_truncation)]
        let mut cut = Cut {
            degrees: 0,
            partner: [UNPAIRED; MAX_WIDTH + 1],
            used: ((word >> used_shift) & 3) as u8,
        };
        let mut first_with = [UNPAIRED; 16];
        for (j, f) in at.iter().enumerate() {
            let Some(f) = *f else { continue };
            #[allow(clippy::cast_possible_truncation)]
            let code = ((word >> (4 * j)) & 15) as u8;
            let degree: u64 = match code {
                EMPTY => 0,
                FULL => 2,
                _ => 1,
            };
            cut.degrees |= (if bottom { 2 - degree } else { degree }) << (2 * f);
            if code == TAIL {
                cut.partner[f] = PATH_END;
            } else if code >= FIRST_LABEL {
                let other = &mut first_with[usize::from(code)];
                // At most 23 squares: `f` fits a byte.
                #[allow(clippy::cast_possible_truncation)]
                if *other == UNPAIRED {
                    *other = f as u8;
                } else {
                    cut.partner[f] = *other;
                    cut.partner[usize::from(*other)] = f as u8;
                }
            }
        }
        cut
    }

    /// The first paired square, and how many are paired.
    fn paired(&self) -> Option<(usize, usize)> {
        let first = self.partner.iter().position(|&p| p != UNPAIRED)?;
        Some((
            first,
            self.partner.iter().filter(|&&p| p != UNPAIRED).count(),
        ))
    }
}

/// Top degree words, hashed by the splitmix64 finaliser.
type DegreeSet = HashSet<u64, BuildHasherDefault<MixHasher>>;

/// Hashes the one `u64` written to it by the splitmix64 finaliser.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).rotate_left(5);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Where a square stands relative to the cut.
struct Sides {
    /// Whether each cell is in the top.
    top: Vec<bool>,
    /// The cut's squares in forward order.
    cut: Vec<usize>,
}

impl Sides {
    /// The number of `sq` among the cut's squares, if it is one.
    fn at(&self, sq: usize) -> Option<usize> {
        self.cut.iter().position(|&f| f == sq)
    }
}

/// The undirected Hamiltonian cycles (`closed`) or paths of `graph` (at
/// least two squares, three for cycles), no end fixed, processing the first
/// half of `lines` forward and the rest backward and joining the two at
/// the middle; `mirror` as for [`Plan::build`].
pub(crate) fn count(
    graph: &Graph,
    lines: &Lines,
    mirror: Option<&[usize]>,
    closed: bool,
    options: &Options,
) -> Result<Wide, FrontierError> {
    let limit = options.memory_budget.unwrap_or(u64::MAX);
    count_splitting_above(graph, lines, mirror, closed, options, limit / SPLIT_SHARE)
        .map(|(sum, _)| sum)
}

/// [`count`], the half steps' tables split into parts whenever they take
/// more than `split_above` bytes; also how many parts were joined.
fn count_splitting_above(
    graph: &Graph,
    lines: &Lines,
    mirror: Option<&[usize]>,
    closed: bool,
    options: &Options,
    split_above: u64,
) -> Result<(Wide, usize), FrontierError> {
    let order = &lines.squares;
    let n = order.len();
    let cut = cut_at(n, lines.shape.0, closed);
    let mut top = vec![false; graph.hole.len()];
    for &sq in &order[..cut] {
        top[sq] = true;
    }
    let sides = Sides {
        cut: order[..cut]
            .iter()
            .copied()
            .filter(|&sq| graph.neighbours(sq).any(|m| !top[m]))
            .collect(),
        top,
    };
    let mut forward = Plan::build(graph, order, &[], mirror);
    forward.steps.truncate(cut);
    let reversed: Vec<usize> = order.iter().rev().copied().collect();
    let mut backward = Plan::build(graph, &reversed, &[], None);
    backward.steps.truncate(n - cut);
    let (half, fronts) = half_steps(graph, &reversed[..n - cut], &sides);
    let width = forward.width.max(backward.width).max(half.width);
    if width > MAX_WIDTH {
        return Err(FrontierError::TooWide {
            width,
            max: MAX_WIDTH,
        });
    }
    let budget = Budget::new(options.memory_budget.unwrap_or(u64::MAX));
    let total = n + half.steps.len() + 1;
    let meet = Meet {
        options,
        budget: &budget,
        jobs: options.jobs.clamp(1, 256),
        sides: &sides,
        fronts: &fronts,
        forward_steps: cut,
        total,
        closed,
        split_above,
    };
    let top = if forward.width <= MAX_WIDTH_U64 {
        meet.top::<u64>(&forward, 62)
    } else if forward.width <= BASE12_SLOTS {
        meet.top::<Base12>(&forward, 126)
    } else {
        meet.top::<[u64; 2]>(&forward, 126)
    }?;
    let backward_width = backward.width.max(half.width);
    let joined = if backward_width <= MAX_WIDTH_U64 {
        meet.bottom::<u64>(&backward, half, &top, 62)
    } else if backward_width <= BASE12_SLOTS {
        meet.bottom::<Base12>(&backward, half, &top, 126)
    } else {
        meet.bottom::<[u64; 2]>(&backward, half, &top, 126)
    };
    budget.give(top.bytes);
    joined
}

/// Where the top ends: after half the squares for cycles; for paths,
/// after half the lines and one more (rounded down), since the half steps
/// of paths, whose squares of the cut may be path ends, make more states
/// than a cycle's: 6x6 open took 0.40 s cut after four lines of six, 0.65 s
/// after three; 7x7 open 55 s after four lines of seven, 143 s after 33
/// squares.
fn cut_at(squares: usize, lines: usize, closed: bool) -> usize {
    let cut = if closed {
        squares / 2
    } else {
        squares * (lines / 2 + 1) / lines.max(1)
    };
    cut.clamp(1, squares - 1)
}

/// The plan of the half steps, each adding one square of the cut with its
/// edges to the bottom only, and the frontier (cells in slot order) after
/// each. Each step adds the square that leaves the fewest squares on the
/// frontier; the last frontier is the cut's squares alone.
fn half_steps(graph: &Graph, bottom_order: &[usize], sides: &Sides) -> (Plan, Vec<Vec<usize>>) {
    let top = |sq: usize| sides.top[sq];
    let mut front: Vec<usize> = bottom_order
        .iter()
        .copied()
        .filter(|&sq| graph.neighbours(sq).any(top))
        .collect();
    let mut added = vec![false; graph.hole.len()];
    // Edges a bottom square may still get: from cut squares not added yet.
    let to_come = |sq: usize, added: &[bool]| {
        graph
            .neighbours(sq)
            .filter(|&m| top(m) && !added[m])
            .count()
    };
    let mut left = sides.cut.clone();
    let (mut steps, mut fronts) = (Vec::new(), Vec::new());
    let mut width = front.len();
    while !left.is_empty() {
        let stays = |sq: usize, added: &[bool]| top(sq) || to_come(sq, added) > 0;
        let pick = (0..left.len())
            .min_by_key(|&i| {
                added[left[i]] = true;
                let after = front.iter().filter(|&&sq| stays(sq, &added)).count();
                added[left[i]] = false;
                (after, i)
            })
            .unwrap_or(0);
        let new = left.remove(pick);
        added[new] = true;
        let back = slots(&front, |sq| !top(sq) && graph.is_move(sq, new));
        front.push(new);
        let departs = slots(&front, |sq| !stays(sq, &added));
        let keep = slots(&front, |sq| stays(sq, &added));
        front.retain(|&sq| stays(sq, &added));
        width = width.max(front.len());
        let kept_slots = first_slots::<u128>(keep.len());
        // A bottom square left with fewer than two edges to come cannot
        // stay empty.
        let short = slots(&front, |sq| !top(sq) && to_come(sq, &added) < 2);
        let short_slots = short
            .iter()
            .fold(0u128, |bits, &j| bits | 1 << (4 * u32::from(j)));
        steps.push(Step {
            back,
            departs,
            keep,
            bipartite: false,
            // The cut's squares need their other edges from the top, which
            // the join matches: no bound on demand here.
            capacity: [1 << 20, 0],
            inner_edges: 1 << 20,
            kept_slots,
            class_slots: [kept_slots, 0],
            short_slots,
            fixed_end: false,
            watch: Vec::new(),
            // A cycle may close at the last half step: a tour with no
            // edge among the top's squares.
            last: left.is_empty(),
            mirror: None,
        });
        fronts.push(front.clone());
    }
    (Plan { steps, width }, fronts)
}

/// The slots of `front` whose cells satisfy `select`.
fn slots(front: &[usize], select: impl Fn(usize) -> bool) -> Vec<u8> {
    front
        .iter()
        .enumerate()
        .filter(|&(_, &sq)| select(sq))
        // A frontier is at most `MAX_WIDTH` + 1 slots.
        .map(|(j, _)| u8::try_from(j).unwrap_or(u8::MAX))
        .collect()
}

/// A top state's pairing of the cut's squares, and its count.
type Pairing = ([u8; MAX_WIDTH + 1], u64);

/// States at the cut as pairings and counts, grouped by [`group_key`].
type Groups = HashMap<u64, Vec<Pairing>, BuildHasherDefault<MixHasher>>;

/// The top's states at the cut, grouped by their degrees.
struct Top {
    groups: Groups,
    /// The count of the state with no edge (0 if it died): it completes the
    /// cycles that close at the last half step.
    edgeless: u64,
    /// For each half step, the degrees some top state has on the cut's
    /// squares added so far.
    allowed: Vec<DegreeSet>,
    /// The memory charged for it.
    bytes: u64,
}

/// What the phases of a meeting share.
struct Meet<'a> {
    options: &'a Options<'a>,
    budget: &'a Budget,
    jobs: usize,
    sides: &'a Sides,
    /// The frontier after each half step (cells in slot order).
    fronts: &'a [Vec<usize>],
    /// The forward phase's steps.
    forward_steps: usize,
    /// The steps of every phase, and one for the join.
    total: usize,
    /// Cycles, or paths.
    closed: bool,
    /// The bytes of half-step tables past which they are split.
    split_above: u64,
}

impl Meet<'_> {
    /// The run's options, with progress reported by `show`.
    fn phase<'o>(&'o self, show: &'o (dyn Fn(Progress) + Sync)) -> Options<'o> {
        Options {
            progress: self.options.progress.map(|_| show),
            ..*self.options
        }
    }

    /// Reports `done` steps of the whole with `states`, in `part` (the
    /// part being counted and the parts made) once split.
    fn report(&self, done: usize, states: usize, part: Option<(usize, usize)>) {
        if let Some(progress) = self.options.progress {
            progress(Progress {
                done,
                total: self.total,
                states,
                bytes: self.budget.used(),
                part,
            });
        }
    }

    /// Runs `plan` from the empty frontier, its progress reported after
    /// `before` steps of the whole; its last tables.
    fn run_from_empty<K: Key>(
        &self,
        plan: &Plan,
        used_shift: u32,
        before: usize,
    ) -> Result<Vec<Table<'_, K, u64>>, FrontierError> {
        let show = |p: Progress| self.report(before + p.done, p.states, None);
        let (tables, _) = advance(
            plan,
            self.mode(used_shift),
            &self.phase(&show),
            self.budget,
            first_tables::<K>(self.jobs, self.budget)?,
        )?;
        Ok(tables)
    }

    /// Runs the forward plan and reads its last table, charging what it
    /// keeps to the budget.
    fn top<K: Key>(&self, plan: &Plan, used_shift: u32) -> Result<Top, FrontierError> {
        let mut tables = self.run_from_empty::<K>(plan, used_shift, 0)?;
        let at: Vec<Option<usize>> = (0..self.sides.cut.len()).map(Some).collect();
        let (groups, states) = group_states(&mut tables, &at, false, used_shift)?;
        drop(tables);
        let bytes = states * (std::mem::size_of::<Pairing>() as u64 + 16);
        self.budget
            .take(bytes)
            .map_err(|needed| table_error(TableError::OverMemory(needed), self.budget.limit()))?;
        // Only the state with no edge has no degree and no used end.
        let edgeless = groups.get(&group_key(0, 0)).map_or(0, |g| g[0].1);
        // Closed: a group's key is its degrees.
        let mut degrees: Vec<u64> = if self.closed {
            groups.keys().copied().collect()
        } else {
            Vec::new()
        };
        let mut top = Top {
            groups,
            edgeless,
            allowed: Vec::new(),
            bytes,
        };
        degrees.sort_unstable();
        // The cut's squares stay once added: a half step's mask is its
        // frontier's. (Paths do not filter: see `bottom`.)
        for front in self.fronts.iter().filter(|_| self.closed) {
            let mask = self
                .cut_slots(front)
                .into_iter()
                .flatten()
                .fold(0u64, |mask, f| mask | 3 << (2 * f));
            top.allowed
                .push(degrees.iter().map(|&d| d & mask).collect());
        }
        Ok(top)
    }

    /// Runs the bottom's steps, then the half steps and the join, part by
    /// part: the cycles (or paths), and how many parts there were.
    ///
    /// A half step fixes how many bottom edges its square of the cut has,
    /// for good: states that differ there never merge again. So when a
    /// half step's tables grow past `split_above` bytes, they are split
    /// into parts by those degrees, and each part runs the remaining half
    /// steps and its join alone, the others waiting as lists of states.
    /// The parts' sums add up to the whole's and their states are disjoint,
    /// so splitting costs no work beyond the lists: it bounds the memory
    /// of the widest half steps (8x8 closed peaked at 140 M states whole).
    fn bottom<K: Key>(
        &self,
        plan: &Plan,
        half: Plan,
        top: &Top,
        used_shift: u32,
    ) -> Result<(Wide, usize), FrontierError> {
        let tables = self.run_from_empty::<K>(plan, used_shift, self.forward_steps)?;
        let width = half.width;
        let steps: Vec<Plan> = half
            .steps
            .into_iter()
            .map(|step| Plan {
                steps: vec![step],
                width,
            })
            .collect();
        let done = self.forward_steps + plan.steps.len();
        let mut parts = Parts {
            started: 0,
            waiting: Vec::new(),
        };
        let mut sum = Wide::ZERO;
        let mut next = Some((0, tables));
        while let Some((from, tables)) = next.take() {
            parts.started += 1;
            let found = self.finish(tables, from, &steps, done, top, used_shift, &mut parts)?;
            sum = sum.checked_add(found).ok_or(FrontierError::Overflow)?;
            if let Some((from, part)) = parts.waiting.pop() {
                next = Some((from, part.tables(self.jobs, self.budget)?));
            }
        }
        self.report(self.total, 0, parts.label());
        Ok((sum, parts.started))
    }

    /// Runs the half `steps` from the one numbered `from` on `tables` (the
    /// whole's progress `done` steps before the first half step) and joins
    /// the last table with the top's; parts split off wait in `parts`.
    #[allow(clippy::too_many_arguments)]
    fn finish<'b, K: Key>(
        &'b self,
        mut tables: Vec<Table<'b, K, u64>>,
        from: usize,
        steps: &[Plan],
        done: usize,
        top: &Top,
        used_shift: u32,
        parts: &mut Parts<'b, K>,
    ) -> Result<Wide, FrontierError> {
        let mode = self.mode(used_shift);
        let mut closed_at_last = Wide::ZERO;
        for (i, one) in steps.iter().enumerate().skip(from) {
            let part = parts.label();
            let show = |p: Progress| self.report(done + i + p.done, p.states, part);
            let options = self.phase(&show);
            let (next, finished) = advance(one, mode, &options, self.budget, tables)?;
            closed_at_last = finished;
            let at = self.cut_slots(&self.fronts[i]);
            tables = if self.closed {
                keep_completable(next, &at, &top.allowed[i], self.budget, used_shift)?
            } else {
                // A square of the cut may still be a path end, with a top
                // degree one less than a cycle's.
                next
            };
            let bytes: u64 = tables.iter().map(Table::bytes).sum();
            if i + 1 < steps.len() && bytes > self.split_above {
                let pieces = bytes.div_ceil(self.split_above.max(1) / 2 + 1).clamp(2, 16);
                let mut split = Part::split(tables, &at, pieces, self.budget, used_shift)?;
                // No state left: nothing more to find.
                let Some(first) = split.pop() else {
                    return Ok(Wide::ZERO);
                };
                parts
                    .waiting
                    .extend(split.into_iter().map(|part| (i + 1, part)));
                tables = first.tables(self.jobs, self.budget)?;
            }
        }
        let at = self.cut_slots(self.fronts.last().map_or(&[][..], Vec::as_slice));
        let joined = if self.closed {
            self.join(tables, &at, top, used_shift)?
        } else {
            self.join_paths(tables, &at, top, used_shift)?
        };
        let edgeless = closed_at_last * Wide::from(top.edgeless);
        joined.checked_add(edgeless).ok_or(FrontierError::Overflow)
    }

    /// For each slot of a frontier, its number among the cut's squares.
    fn cut_slots(&self, front: &[usize]) -> Vec<Option<usize>> {
        front
            .iter()
            .map(|&sq| {
                if self.sides.top[sq] {
                    self.sides.at(sq)
                } else {
                    None
                }
            })
            .collect()
    }

    /// The paths the bottom states of `tables` (their slots the cut's
    /// squares numbered `at`) make with the top's states, weighted by both
    /// counts. The bottom states are grouped by their degrees and used ends
    /// first, so that the top's groups that fit are looked up once a group
    /// rather than once a state; the groups are shared between threads.
    fn join_paths<K: Key>(
        &self,
        mut tables: Vec<Table<'_, K, u64>>,
        at: &[Option<usize>],
        top: &Top,
        used_shift: u32,
    ) -> Result<Wide, FrontierError> {
        let (groups, states) = group_states(&mut tables, at, true, used_shift)?;
        drop(tables);
        let bytes = states * (std::mem::size_of::<Pairing>() as u64 + 16);
        self.budget
            .take(bytes)
            .map_err(|needed| table_error(TableError::OverMemory(needed), self.budget.limit()))?;
        let groups: Vec<(u64, Vec<Pairing>)> = groups.into_iter().collect();
        let stop = self.options.stop;
        let chunk = groups.len().div_ceil(self.jobs).max(1);
        let sums = on_threads(groups.chunks(chunk).collect(), |part| {
            let mut sum = Wide::ZERO;
            for (i, (key, bottoms)) in part.iter().enumerate() {
                if i.is_multiple_of(256) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Err(FrontierError::Stopped);
                }
                #[allow(clippy::cast_possible_truncation)]
                let used = (key >> 56) as u8;
                let degrees = key & ((1 << 56) - 1);
                sum = paths_with(degrees, used, bottoms, top)
                    .and_then(|x| sum.checked_add(x))
                    .ok_or(FrontierError::Overflow)?;
            }
            Ok(sum)
        });
        self.budget.give(bytes);
        add_up(sums?)
    }

    /// The cycles each bottom state of `tables` (their slots the cut's
    /// squares numbered `at`) makes with the top's states, weighted by both
    /// counts; each thread takes one shard.
    fn join<K: Key>(
        &self,
        tables: Vec<Table<'_, K, u64>>,
        at: &[Option<usize>],
        top: &Top,
        used_shift: u32,
    ) -> Result<Wide, FrontierError> {
        let stop = self.options.stop;
        add_up(on_threads(tables, |mut table| {
            let mut sum = Wide::ZERO;
            let mut i = 0usize;
            table.read(true, |key, count| {
                i += 1;
                if i.is_multiple_of(4096) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Err(FrontierError::Stopped);
                }
                let bottom = Cut::read(key.to_word().wide(), at, true, used_shift);
                let matched = cycles_with(&bottom, top);
                if matched > 0 {
                    sum = Wide::from(matched)
                        .checked_mul(Wide::from(count))
                        .and_then(|x| sum.checked_add(x))
                        .ok_or(FrontierError::Overflow)?;
                }
                Ok(())
            })?;
            Ok(sum)
        })?)
    }
}

/// The share of the memory budget past which the half steps' tables are
/// split into parts: an eighth, so that the tables of the next half step
/// (which grew up to 1.8 times a step on 8x9) and the parts waiting fit.
const SPLIT_SHARE: u64 = 8;

/// The parts of the half steps' states: how many have been started, and
/// the rest, each with the half step it resumes at.
struct Parts<'b, K: Key> {
    started: usize,
    waiting: Vec<(usize, Part<'b, K>)>,
}

impl<K: Key> Parts<'_, K> {
    /// The part being counted and the parts made so far, once the states
    /// have been split into more than one.
    fn label(&self) -> Option<(usize, usize)> {
        let made = self.started + self.waiting.len();
        (made > 1).then_some((self.started, made))
    }
}

/// Some of the half steps' states, waiting as a list charged to the
/// budget.
struct Part<'b, K: Key> {
    states: Vec<(K, u64)>,
    budget: &'b Budget,
}

impl<'b, K: Key> Part<'b, K> {
    /// The bytes a list with room for `len` states takes.
    fn bytes(len: usize) -> u64 {
        (len * std::mem::size_of::<(K, u64)>()) as u64
    }

    /// The states of `tables` (their slots the cut's squares numbered
    /// `at`) in `parts` lists by a hash of the degrees of the cut's squares
    /// added so far, the tables freed as they are read.
    fn split(
        mut tables: Vec<Table<'b, K, u64>>,
        at: &[Option<usize>],
        parts: u64,
        budget: &'b Budget,
        used_shift: u32,
    ) -> Result<Vec<Self>, FrontierError> {
        let mut lists: Vec<Vec<(K, u64)>> = (0..parts).map(|_| Vec::new()).collect();
        let mut charged = 0u64;
        for table in &mut tables {
            table.read(true, |key, count| {
                let degrees = Cut::read(key.to_word().wide(), at, true, used_shift).degrees;
                #[allow(clippy::cast_possible_truncation)]
                let list = &mut lists[(mix(degrees) % parts) as usize];
                if list.len() == list.capacity() {
                    let more = Self::bytes(list.capacity().max(4096));
                    budget.take(more).map_err(|needed| {
                        table_error(TableError::OverMemory(needed), budget.limit())
                    })?;
                    charged += more;
                    list.reserve_exact(list.capacity().max(4096));
                }
                list.push((key, count));
                Ok(())
            })?;
        }
        // Charged again below by each part's own capacity.
        budget.give(charged);
        lists
            .into_iter()
            .filter(|list| !list.is_empty())
            .map(|states| {
                budget
                    .take(Self::bytes(states.capacity()))
                    .map_err(|needed| {
                        table_error(TableError::OverMemory(needed), budget.limit())
                    })?;
                Ok(Part { states, budget })
            })
            .collect()
    }

    /// The part as tables, one a thread, each state in its hash's shard;
    /// the list is freed.
    fn tables(
        self,
        jobs: usize,
        budget: &'b Budget,
    ) -> Result<Vec<Table<'b, K, u64>>, FrontierError> {
        let limit = budget.limit();
        let mut tables: Vec<Table<K, u64>> = (0..jobs)
            .map(|_| Table::with_expected(self.states.len() / jobs + 1, budget))
            .collect::<Result<_, _>>()
            .map_err(|e| table_error(e, limit))?;
        for &(key, count) in &self.states {
            let hash = key.hash();
            tables[shard_of(hash, jobs)]
                .add(key, hash, count)
                .map_err(|e| table_error(e, limit))?;
        }
        Ok(tables)
    }
}

impl<K: Key> Drop for Part<'_, K> {
    fn drop(&mut self) {
        self.budget.give(Self::bytes(self.states.capacity()));
    }
}

/// Runs `work` on each of `parts`, each on a thread of its own: the results
/// in order, or the first error (a thread that panicked counts as stopped).
fn on_threads<P: Send, T: Send>(
    parts: Vec<P>,
    work: impl Fn(P) -> Result<T, FrontierError> + Sync,
) -> Result<Vec<T>, FrontierError> {
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| s.spawn(move || work(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(FrontierError::Stopped)))
            .collect()
    })
}

/// The sum of `sums`.
fn add_up(sums: Vec<Wide>) -> Result<Wide, FrontierError> {
    sums.into_iter().try_fold(Wide::ZERO, |total, sum| {
        total.checked_add(sum).ok_or(FrontierError::Overflow)
    })
}

/// The states of `tables` (their slots the cut's squares numbered `at`,
/// `bottom` as for [`Cut::read`]) as pairings and counts, grouped by their
/// degrees and used ends ([`group_key`]); and how many there are.
fn group_states<K: Key>(
    tables: &mut [Table<'_, K, u64>],
    at: &[Option<usize>],
    bottom: bool,
    used_shift: u32,
) -> Result<(Groups, u64), FrontierError> {
    let mut groups = Groups::default();
    let mut states = 0u64;
    for table in tables {
        table.read(true, |key, count| {
            let cut = Cut::read(key.to_word().wide(), at, bottom, used_shift);
            states += 1;
            groups
                .entry(group_key(cut.degrees, cut.used))
                .or_default()
                .push((cut.partner, count));
            Ok::<(), FrontierError>(())
        })?;
    }
    Ok((groups, states))
}

/// Whether the pairings `top` and `bottom` of the same `paired` squares
/// (`first` among them) make one cycle through all of them.
#[inline]
fn one_cycle(
    top: &[u8; MAX_WIDTH + 1],
    bottom: &[u8; MAX_WIDTH + 1],
    first: usize,
    paired: usize,
) -> bool {
    let mut at = first;
    let mut length = 0;
    loop {
        at = usize::from(bottom[usize::from(top[at])]);
        length += 2;
        if at == first {
            return length == paired;
        }
    }
}

impl Meet<'_> {
    /// The mode of the count, its packed words keeping the used ends at
    /// `used_shift`.
    fn mode(&self, used_shift: u32) -> Mode {
        Mode {
            closed: self.closed,
            free_ends: if self.closed { 0 } else { 2 },
            used_shift,
        }
    }
}

/// The key of the top's group of states with `degrees` on the cut and
/// `used` free path ends.
fn group_key(degrees: u64, used: u8) -> u64 {
    degrees | u64::from(used) << 56
}

/// The top states' counts that make one cycle with `bottom`.
fn cycles_with(bottom: &Cut, top: &Top) -> u128 {
    let (Some(group), Some((first, paired))) = (
        top.groups.get(&group_key(bottom.degrees, 0)),
        bottom.paired(),
    ) else {
        return 0;
    };
    group
        .iter()
        .filter(|(partner, _)| one_cycle(partner, &bottom.partner, first, paired))
        .map(|&(_, c)| u128::from(c))
        .sum()
}

/// The Hamiltonian paths the bottom states `bottoms` (pairings and counts),
/// all with the cut degrees `degrees` and `used` free ends, make with the
/// top's states, weighted by both counts. The path's two ends are free ends
/// used on either side (fragments that lead to them end in [`PATH_END`]) or
/// squares of the cut with one edge in all (`ends`, taking their one edge
/// from one side): so for each way of choosing the squares of the cut that
/// are ends, the top states that fit are those of one degree less there.
fn paths_with(degrees: u64, used: u8, bottoms: &[Pairing], top: &Top) -> Option<Wide> {
    let candidates: Vec<usize> = (0..MAX_WIDTH)
        .filter(|&f| degrees >> (2 * f) & 3 >= 1)
        .collect();
    // `None` once a sum overflows.
    let mut sum = Some(Wide::ZERO);
    for top_used in 0..=2 - used.min(2) {
        let k = 2 - used - top_used;
        let mut tally = |ends: u32| {
            let lowered = (0..MAX_WIDTH)
                .filter(|&f| ends >> f & 1 == 1)
                .fold(degrees, |d, f| d - (1 << (2 * f)));
            let Some(group) = top.groups.get(&group_key(lowered, top_used)) else {
                return;
            };
            for (bottom, count) in bottoms {
                let matched: u128 = group
                    .iter()
                    .filter(|(partner, _)| one_path(partner, bottom, ends))
                    .map(|&(_, c)| u128::from(c))
                    .sum();
                if matched > 0 {
                    sum = sum.and_then(|sum| {
                        Wide::from(matched)
                            .checked_mul(Wide::from(*count))
                            .and_then(|x| sum.checked_add(x))
                    });
                }
            }
        };
        match k {
            0 => tally(0),
            1 => candidates.iter().for_each(|&a| tally(1 << a)),
            _ => {
                for (i, &a) in candidates.iter().enumerate() {
                    for &b in &candidates[i + 1..] {
                        tally(1 << a | 1 << b);
                    }
                }
            }
        }
    }
    sum
}

/// Whether the top's and the bottom's fragments, joined at the squares of
/// the cut, make one path: `ends` are the squares of the cut that are path
/// ends (their missing side leads to [`PATH_END`]). Walks from one end,
/// crossing sides at each square, and checks that it reaches the other
/// end having passed every square with a fragment end.
fn one_path(top: &[u8; MAX_WIDTH + 1], bottom: &[u8; MAX_WIDTH + 1], ends: u32) -> bool {
    let link = |from_top: bool, f: usize| {
        let p = if from_top { top[f] } else { bottom[f] };
        if p == UNPAIRED && ends >> f & 1 == 1 {
            PATH_END
        } else {
            p
        }
    };
    let mut linked = 0;
    let mut start = None;
    for f in 0..MAX_WIDTH {
        let (t, b) = (link(true, f), link(false, f));
        if t != UNPAIRED || b != UNPAIRED {
            linked += 1;
        }
        if start.is_none() && (t == PATH_END || b == PATH_END) {
            // Came in from the path's end on that side; leave by the other.
            start = Some((f, t == PATH_END));
        }
    }
    let Some((mut at, mut leave_bottom)) = start else {
        return false;
    };
    let mut visited = 1;
    loop {
        let next = link(!leave_bottom, at);
        if next == PATH_END {
            return visited == linked;
        }
        if next == UNPAIRED || visited >= linked {
            return false;
        }
        at = usize::from(next);
        visited += 1;
        leave_bottom = !leave_bottom;
    }
}

/// The states of `tables` whose cut squares (`at`: each slot's number
/// among the cut's squares, if it is one) need top degrees that some top
/// state has; one thread a shard.
fn keep_completable<'b, K: Key>(
    tables: Vec<Table<'b, K, u64>>,
    at: &[Option<usize>],
    allowed: &DegreeSet,
    budget: &'b Budget,
    used_shift: u32,
) -> Result<Vec<Table<'b, K, u64>>, FrontierError> {
    let limit = budget.limit();
    on_threads(tables, |mut table| {
        let mut out =
            Table::with_expected(table.len() / 2, budget).map_err(|e| table_error(e, limit))?;
        table.read(true, |key, count| {
            let need = Cut::read(key.to_word().wide(), at, true, used_shift).degrees;
            if allowed.contains(&need) {
                out.add_soon(key, key.hash(), count)
                    .map_err(|e| table_error(e, limit))?;
            }
            Ok(())
        })?;
        out.flush().map_err(|e| table_error(e, limit))?;
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::{count_undirected, SquareOrder};

    /// Cycles and paths counted by meeting in the middle and by the forward counter
    /// (itself checked against the brute-force oracle), on boards where
    /// the cut falls inside a line and at its end, with holes that break
    /// the mirror, with other leapers, and on boards where some cycles
    /// have no edge among the top's squares; whole, and with the half
    /// steps split into parts at every step.
    #[test]
    fn meeting_in_the_middle_counts_the_cycles_the_forward_counter_counts() {
        let mut checked = 0;
        let mut nonzero = 0;
        let mut split = 0;
        for (rows, cols, holes, leap) in [
            (3, 4, vec![], (1, 2)),
            (3, 10, vec![], (1, 2)),
            (5, 6, vec![], (1, 2)),
            (6, 5, vec![], (1, 2)),
            (5, 5, vec![12], (1, 2)),
            (6, 6, vec![], (1, 2)),
            (6, 6, vec![0, 35], (1, 2)),
            (7, 6, vec![3], (1, 2)),
            (6, 7, vec![], (1, 2)),
            (5, 8, vec![], (1, 2)),
            (4, 7, vec![1, 9], (1, 2)),
            (6, 6, vec![], (1, 3)),
            (4, 6, vec![], (1, 3)),
            (5, 7, vec![], (2, 3)),
            (2, 4, vec![], (1, 1)),
            (3, 4, vec![], (0, 1)),
            (4, 5, vec![], (0, 1)),
            (4, 4, vec![5], (0, 1)),
        ] {
            let graph = Graph::new(rows, cols, &holes, leap).unwrap();
            let rows_only = Options {
                order: SquareOrder::Rows,
                ..Options::default()
            };
            // Paths only up to 30 squares: 6x7 open alone takes seconds.
            for closed in [true, false]
                .into_iter()
                .filter(|&c| c || rows * cols <= 30)
            {
                let want = count_undirected(&graph, &[], closed, &rows_only).unwrap();
                // Split or not, on one thread or two.
                for (jobs, split_above) in [(1, u64::MAX), (2, u64::MAX), (2, 0)] {
                    let reported = std::sync::Mutex::new(Vec::new());
                    let record = |p: Progress| reported.lock().unwrap().push(p.part);
                    let options = Options {
                        jobs,
                        progress: Some(&record),
                        ..Options::default()
                    };
                    let (lines, mirror) = Lines::best(&graph, false);
                    let (got, parts) = count_splitting_above(
                        &graph,
                        &lines,
                        mirror.as_deref(),
                        closed,
                        &options,
                        split_above,
                    )
                    .unwrap();
                    assert_eq!(
                        crate::count::number::TourNumber::from_wide(got),
                        want,
                        "{rows}x{cols} holes {holes:?} leaper {leap:?} closed {closed} on {jobs} threads, split above {split_above}"
                    );
                    // Progress names the part being counted once split,
                    // and ends on the last of all the parts.
                    let reported = reported.into_inner().unwrap();
                    let named: Vec<(usize, usize)> = reported.iter().flatten().copied().collect();
                    if parts == 1 {
                        assert!(named.is_empty(), "{named:?}");
                    } else {
                        assert!(named.iter().all(|&(part, of)| 1 <= part && part <= of));
                        assert_eq!(reported.last(), Some(&Some((parts, parts))));
                    }
                    if split_above == u64::MAX {
                        assert_eq!(parts, 1);
                    } else {
                        split += usize::from(parts > 1);
                    }
                }
                checked += 1;
                nonzero += usize::from(!want.is_zero());
            }
        }
        assert_eq!(checked, 29);
        assert!(nonzero >= 16, "{nonzero}");
        assert!(split >= 15, "{split}");
    }
}
