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
//! Paths (open tours) join the same way, with the path's two ends either
//! ends used on one side (a fragment leading to one ends in [`PATH_END`]:
//! a free end, or a fixed end of that side's squares) or squares of the
//! cut with one edge in all; the join chooses which squares of the cut are
//! free ends and walks the path through the cut from one end to the other
//! ([`paths_with`]). A fixed end that is a square of the cut has its one
//! edge on one side: each side reads its degree there as its edges (a
//! bottom state needing one less than its own), so that the degrees match
//! exactly when the edge is on one side alone.
//!
//! A half step fixes its square's bottom degree for good, so states that
//! differ there never merge again: when the half steps' tables grow too
//! large, they are split into batches by those degrees, and each batch
//! finishes on its own ([`Meet::bottom`]).
//!
//! Why: the forward counter's tables keep growing past the middle of a
//! board, while both tables here are made of states at the middle, so
//! they stay smaller and the count faster (docs/notebook.md, "Meeting in
//! the middle").

mod batches;
mod contract;
mod cut;
mod degrees;
mod join;
mod part;
mod saved;

use crate::count::checkpoint::{StatesReader, StatesWriter};
use crate::count::frontier::budget::Budget;
use crate::count::frontier::engine::table_error;
use crate::count::frontier::engine::{advance, first_tables};
use crate::count::frontier::packing::{by_key_width, Key, WithKey};
use crate::count::frontier::saved::piece;
use crate::count::frontier::schedule::{CellGraph, Lines, Schedule};
use crate::count::frontier::state::{free_ends, Mode, Word, MAX_WIDTH};
use crate::count::frontier::table::{Table, TableError};
use crate::count::frontier::{Batch, FrontierError, Options, Piece, SpillDir, SquareProgress};
use crate::count::number::{TourNumber, Wide};
use batches::{Batches, WaitingBatch, SPLIT_SHARE};
use cut::{cut_at, half_steps, HalfStepTies, Needs, Reading, Sides};
use join::{group_key, group_within_budget, join_cycles, join_paths, may_join, Allowed, Top};
use part::{PartCut, Plan};

/// The shortest lines on which a count with both ends fixed is cut at half
/// the squares wherever its ends lie.
const HALF_CUT_LINE: usize = 8;

/// The undirected Hamiltonian cycles (`closed`) or paths of `graph` (at
/// least two squares, three for cycles), paths with the ends `ends` (at
/// most two cells; none for cycles), processing the first half of `lines`
/// forward and the rest backward and joining the two at the middle;
/// `mirror` as for [`Schedule::build`].
pub(crate) fn count(
    graph: &CellGraph,
    lines: &Lines,
    mirror: Option<&[usize]>,
    (closed, ends): (bool, &[usize]),
    options: &Options,
) -> Result<Wide, FrontierError> {
    let limit = options.memory_budget.unwrap_or(u64::MAX);
    // A count in parts keeps the route its parts were made by.
    if !closed
        && ends.is_empty()
        && options.part.is_none()
        && lines.shape.0.is_multiple_of(2)
        && halves_turn_into_each_other(graph, &lines.squares)
    {
        return count_by_sides_of_ends(graph, lines, mirror, options, limit / SPLIT_SHARE);
    }
    count_splitting_above(
        graph,
        lines,
        mirror,
        (closed, ends),
        options,
        limit / SPLIT_SHARE,
        None,
    )
    .map(|(sum, _)| sum)
}

/// The undirected Hamiltonian paths of `graph` with no fixed end, met at
/// half the squares of `lines`, where turning the board half round
/// carries the top onto the bottom: counted as two sums by where their
/// two ends lie, both in the top (the cut's squares among them), taken
/// twice for both in the bottom, and one on each side. Each holds far
/// fewer states than a count whose ends may lie anywhere: a side that
/// takes no end grows as a cycle's does, one that takes one end as a
/// count from a fixed square (on 7x8, 18.2 M live states at the peak
/// against 125.6 M; docs/notebook.md, "Paths by where their ends lie").
fn count_by_sides_of_ends(
    graph: &CellGraph,
    lines: &Lines,
    mirror: Option<&[usize]>,
    options: &Options,
    split_above: u64,
) -> Result<Wide, FrontierError> {
    let ways = [
        (
            EndSides { top: 2, bottom: 0 },
            2u32,
            Piece::BothEndsInOneHalf,
            "both ends in one half",
        ),
        (
            EndSides { top: 1, bottom: 1 },
            1,
            Piece::AnEndInEachHalf,
            "an end in each half",
        ),
    ];
    let mut sum = Wide::ZERO;
    for &(sides, times, shown, label) in &ways {
        let progress = options.progress.map(|outer| {
            move |step: SquareProgress| {
                outer(SquareProgress {
                    piece: Some(shown),
                    ..step
                });
            }
        });
        let one = Options {
            progress: progress
                .as_ref()
                .map(|p| p as &(dyn Fn(SquareProgress) + Sync)),
            ..*options
        };
        let paths = piece(&one, label, |options| {
            let (paths, _) = count_splitting_above(
                graph,
                lines,
                mirror,
                (false, &[]),
                options,
                split_above,
                Some(sides),
            )?;
            Ok(TourNumber::from_wide(paths))
        })?
        .wide();
        sum = paths
            .checked_mul(Wide::from(times))
            .and_then(|paths| sum.checked_add(paths))
            .ok_or(FrontierError::Overflow)?;
    }
    Ok(sum)
}

/// Whether turning the board half round (cell `c` to `N - 1 - c`) maps
/// the graph onto itself and the first half of `order` onto the second:
/// on a board whose holes allow it, with an even number of squares taken
/// line by line. Then the paths with both ends in the bottom are the
/// images of those with both in the top.
fn halves_turn_into_each_other(graph: &CellGraph, order: &[usize]) -> bool {
    let cells = graph.hole.len();
    let turn = |cell: usize| cells - 1 - cell;
    if order.len() % 2 == 1 {
        return false;
    }
    let (first, second) = order.split_at(order.len() / 2);
    let mut in_second = vec![false; cells];
    for &cell in second {
        in_second[cell] = true;
    }
    (0..cells).all(|cell| graph.hole[cell] == graph.hole[turn(cell)])
        && first.iter().all(|&cell| in_second[turn(cell)])
        && (0..cells).all(|cell| {
            graph
                .neighbours(cell)
                .all(|to| graph.is_move(turn(cell), turn(to)))
        })
}

/// Where the free ends of an open count lie: how many on the top's
/// squares (the cut's among them), how many on the bottom's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EndSides {
    top: u8,
    bottom: u8,
}

/// [`count`], the half steps' tables split into batches whenever they
/// take more than `split_above` bytes; also how many batches were joined.
fn count_splitting_above(
    graph: &CellGraph,
    lines: &Lines,
    mirror: Option<&[usize]>,
    (closed, ends): (bool, &[usize]),
    options: &Options,
    split_above: u64,
    sides_of_ends: Option<EndSides>,
) -> Result<(Wide, usize), FrontierError> {
    let order = &lines.squares;
    let n = order.len();
    let (ends_early, long_lines) = where_the_ends_lie(lines, ends);
    let cut = cut_at(
        n,
        lines.shape.0,
        closed || ends_early || long_lines || sides_of_ends.is_some(),
    );
    let sides = Sides::of(graph, &order[..cut]);
    // Merging a state with its mirror image assumes that what follows it
    // is its own mirror image; where the ends may lie is not when the cut
    // falls inside a line.
    let mirror = mirror.filter(|image| {
        sides_of_ends.is_none() || order[..cut].iter().all(|&sq| sides.top[image[sq]])
    });
    let ties = HalfStepTies::for_count(options.part.is_some());
    let (forward, backward, (half, fronts)) =
        schedules(graph, (order, cut), ends, mirror, (&sides, ties));
    let fixed_cut = ends
        .iter()
        .filter_map(|&end| sides.at(end))
        .fold(0u64, |mask, f| mask | 1 << f);
    within_width(forward.width.max(backward.width).max(half.width))?;
    let budget = Budget::new(options.memory_budget.unwrap_or(u64::MAX));
    let total = n + half.steps.len() + 1;
    let plan = Plan {
        graph,
        // There the top, with both ends, holds more states than the half
        // steps (8x8 from a1 to b1: 36.1 M at the cut against 23.6 M);
        // on lines of seven the half steps hold more (7x8: 10.9 M at step
        // 68 of 71).
        top_holds_more: ends_early && long_lines,
        sides: &sides,
        top_order: &order[..cut],
        forward: &forward,
        fronts: &fronts,
    };
    let part = match options.part.map(|part| PartCut::new(part, &plan)) {
        Some(Some(part)) => Some(part),
        // No half step to split at: the first part has every tour.
        Some(None) if options.part.is_some_and(|part| !part.takes_earlier_tours()) => {
            return Ok((Wide::ZERO, 1))
        }
        _ => None,
    };
    let free_ends = free_ends(closed, ends.len());
    let meet = Meet {
        options,
        budget: &budget,
        jobs: options.jobs.clamp(1, 256),
        sides: &sides,
        fronts: &fronts,
        forward_steps: cut,
        total,
        closed,
        free_ends,
        sides_of_ends: sides_of_ends.unwrap_or(EndSides {
            top: free_ends,
            bottom: free_ends,
        }),
        fixed_cut,
        split_above,
        part,
    };
    meet.top_and_bottom(forward, &backward, half)
}

/// Refuses a frontier `width` slots wide, past what any state holds.
fn within_width(width: usize) -> Result<(), FrontierError> {
    if width > MAX_WIDTH {
        return Err(FrontierError::TooWide {
            width,
            max: MAX_WIDTH,
        });
    }
    Ok(())
}

/// The schedules of a count met at `cut` of `order`: the top's squares
/// forward, the bottom's backward, and the half steps that add the cut's
/// squares to the bottom (with the frontier after each), ordered by
/// `ties`. Both halves know every fixed end: its square needs one edge.
fn schedules(
    graph: &CellGraph,
    (order, cut): (&[usize], usize),
    ends: &[usize],
    mirror: Option<&[usize]>,
    (sides, ties): (&Sides, HalfStepTies),
) -> (Schedule, Schedule, (Schedule, Vec<Vec<usize>>)) {
    let n = order.len();
    let mut forward = Schedule::build(graph, order, ends, mirror);
    forward.steps.truncate(cut);
    let reversed: Vec<usize> = order.iter().rev().copied().collect();
    let mut backward = Schedule::build(graph, &reversed, ends, None);
    backward.steps.truncate(n - cut);
    let half = half_steps(graph, &reversed[..n - cut], sides, ends, ties);
    (forward, backward, half)
}

/// Where a path's two fixed ends lie, for the cut: both before the middle
/// of `lines`' order, and whether its lines are long. With both ends
/// fixed before the middle, the top's fragments lead to them and none of
/// the cut's squares can be a free end: the half steps grow as a cycle's
/// do, and the cycles' earlier cut holds fewer states (docs/notebook.md,
/// "Every open 8x8 tour by its ends"). On lines of eight squares or more
/// it does so with the ends anywhere: there the later cut's top of five
/// lines outgrows both halves (8x8 from a1 to f5: unfinished after two
/// hours, against 478 s at half the squares), while on lines of seven the
/// later cut was still the faster ("Where the fixed ends lie").
fn where_the_ends_lie(lines: &Lines, ends: &[usize]) -> (bool, bool) {
    let order = &lines.squares;
    let n = order.len();
    let position = |cell: usize| order.iter().position(|&sq| sq == cell).unwrap_or(n);
    let ends_early = ends.len() == 2 && ends.iter().all(|&end| position(end) < n / 2);
    let long_lines = ends.len() == 2 && lines.shape.1 >= HALF_CUT_LINE;
    (ends_early, long_lines)
}

/// The top half of a count met in the middle: its schedule forward.
struct TopHalf<'m, 'a> {
    meet: &'m Meet<'a>,
    forward: Schedule,
}

impl WithKey for TopHalf<'_, '_> {
    type Out = Result<Top, FrontierError>;

    fn run<K: Key>(self, used_shift: u32) -> Self::Out {
        self.meet.top::<K>(self.forward, used_shift)
    }
}

/// The bottom half, backward then by half steps, joined to the `top`.
struct BottomHalf<'m, 'a> {
    meet: &'m Meet<'a>,
    backward: &'m Schedule,
    half: Schedule,
    width: usize,
    top: &'m Top,
    /// The rest of the states a checkpoint saved, read after the top's.
    saved: Option<StatesReader>,
}

impl WithKey for BottomHalf<'_, '_> {
    type Out = Result<(Wide, usize), FrontierError>;

    fn run<K: Key>(self, used_shift: u32) -> Self::Out {
        self.meet
            .bottom::<K>(self.backward, self.half, self.top, used_shift, self.saved)
    }
}

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
    /// The path ends not fixed (0 for cycles).
    free_ends: u8,
    /// How many of them may lie in the top (the cut's squares among
    /// them) and how many in the bottom.
    sides_of_ends: EndSides,
    /// Bit `f` for each square of the cut that is a fixed path end.
    fixed_cut: u64,
    /// The bytes of half-step tables past which they are split.
    split_above: u64,
    /// The part of the count to make, and where it is split off.
    part: Option<PartCut>,
}

impl Meet<'_> {
    /// The top half counted, then the bottom joined to it, each with the
    /// key its width needs, and the top's memory given back.
    fn top_and_bottom(
        &self,
        forward: Schedule,
        backward: &Schedule,
        half: Schedule,
    ) -> Result<(Wide, usize), FrontierError> {
        let mut saved = match self.options.saving {
            Some(saving) => saving.checkpoint.states_of(saving.name)?,
            None => None,
        };
        // States the forward counter saved for this piece are not ours.
        if let Some(input) = saved.as_mut() {
            if !saved::is_meet(input)? {
                saved = None;
            }
        }
        let top = if let Some(input) = saved.as_mut() {
            self.top_as_saved(input)?
        } else {
            let top = by_key_width(
                forward.width,
                TopHalf {
                    meet: self,
                    forward,
                },
            )?;
            self.save_if_due(|out| {
                saved::write_top(out, &top)?;
                saved::write_no_bottom(out)
            })?;
            top
        };
        let bottom = BottomHalf {
            meet: self,
            backward,
            width: half.width,
            half,
            top: &top,
            saved,
        };
        let joined = by_key_width(backward.width.max(bottom.width), bottom);
        self.budget.give(top.bytes);
        joined
    }

    /// The run's options, with progress reported by `show`.
    fn phase<'o>(&'o self, show: &'o (dyn Fn(SquareProgress) + Sync)) -> Options<'o> {
        Options {
            progress: self.options.progress.map(|_| show),
            // The phases run whole; the part is taken at a half step.
            part: None,
            ..*self.options
        }
    }

    /// Reports `done` steps of the whole with `states`, in `batch` once
    /// split.
    fn report(&self, done: usize, states: usize, batch: Option<Batch>) {
        if let Some(progress) = self.options.progress {
            progress(SquareProgress {
                done,
                total: self.total,
                states,
                bytes: self.budget.used(),
                on_disk: self.options.spill.map_or(0, SpillDir::on_disk),
                batch,
                piece: None,
                joins: true,
            });
        }
    }

    /// Runs `plan` from the empty frontier, its progress reported after
    /// `before` steps of the whole; its last tables.
    fn run_from_empty<K: Key>(
        &self,
        plan: &Schedule,
        mode: Mode,
        before: usize,
    ) -> Result<Vec<Table<'_, K, u64>>, FrontierError> {
        let show = |p: SquareProgress| self.report(before + p.done, p.states, None);
        let (tables, _) = advance(
            plan,
            mode,
            &self.phase(&show),
            self.budget,
            first_tables::<K>(self.jobs, self.budget)?,
        )?;
        Ok(tables)
    }

    /// Runs the forward plan and reads its last table, charging what it
    /// keeps to the budget.
    fn top<K: Key>(&self, plan: Schedule, used_shift: u32) -> Result<Top, FrontierError> {
        let mode = self.mode(used_shift, self.sides_of_ends.top);
        let at: Vec<Option<usize>> = (0..self.sides.cut.len()).map(Some).collect();
        // A part keeps the groups its bottom states can join, and the
        // state with no edge, whose count the cycles of the bottom alone
        // take (extra groups cost memory, never a tour).
        let in_part = |key: u64| {
            key == group_key(0, 0)
                || self
                    .part
                    .as_ref()
                    .is_none_or(|split| self.top_in_part(key, split))
        };
        let mut tables = self.top_tables::<K>(plan, mode, self.reading(used_shift))?;
        let (groups, bytes) = group_within_budget(
            &mut tables,
            &at,
            false,
            self.reading(used_shift),
            in_part,
            self.budget,
        )?;
        drop(tables);
        Ok(self.top_of(groups, bytes))
    }

    /// The top as a checkpoint saved it, charged to the budget; the
    /// states that follow it in `input` are the bottom's.
    fn top_as_saved(&self, input: &mut StatesReader) -> Result<Top, FrontierError> {
        let (groups, states) = saved::read_top(input)?;
        let bytes = join::group_bytes(states);
        self.budget
            .take(bytes)
            .map_err(|needed| table_error(TableError::OverMemory(needed), self.budget.limit()))?;
        Ok(self.top_of(groups, bytes))
    }

    /// The top of `groups` (taking `bytes` of the budget), with what it
    /// allows at each half step.
    fn top_of(&self, groups: join::Groups, bytes: u64) -> Top {
        // Only the state with no edge has no degree and no used end.
        let edgeless = groups.get(&group_key(0, 0)).map_or(0, |g| g[0].1);
        let mut top = Top {
            groups,
            edgeless,
            allowed: Vec::new(),
            bytes,
            free_ends: self.free_ends,
            own_ends: self.sides_of_ends.top,
        };
        // The cut's squares stay once added: a half step's mask is its
        // frontier's. A cycle's groups have used no end.
        let one_end = self.free_ends.min(self.sides_of_ends.top) >= 1;
        for front in self.fronts {
            let mask = self
                .cut_slots(front)
                .into_iter()
                .flatten()
                .fold(0u64, |mask, f| mask | 3 << (2 * f));
            #[allow(clippy::cast_possible_truncation)]
            let words = top.groups.keys().map(|&key| (key, (key >> 56) as u8));
            top.allowed
                .push(Allowed::new(words, mask, one_end, self.fixed_cut));
        }
        top
    }

    /// The top's tables at the cut. A part's last forward steps, from the
    /// one that settles the top degrees of the squares that decide its
    /// part, keep only the states that can join it ([`PartCut`]).
    fn top_tables<K: Key>(
        &self,
        mut plan: Schedule,
        mode: Mode,
        reading: Reading,
    ) -> Result<Vec<Table<'_, K, u64>>, FrontierError> {
        let Some(split) = self.part.as_ref() else {
            return self.run_from_empty::<K>(&plan, mode, 0);
        };
        let first = split.top_from;
        let mut last_steps = plan.steps.split_off(first);
        let mut filtered_from = first;
        if split.dealt {
            // The step that settles the squares' degrees runs whole, so
            // that its states can deal the classes to the parts.
            filtered_from += 1;
            plan.steps.extend(last_steps.drain(..1));
        }
        let mut tables = self.run_from_empty::<K>(&plan, mode, 0)?;
        if split.dealt {
            split.deal(tables.iter().flat_map(|table| {
                table
                    .iter()
                    .map(|(key, _)| split.top_degrees(key.to_word().wide(), first, reading))
            }));
        }
        for (i, step) in last_steps.into_iter().enumerate() {
            let step_number = filtered_from + i;
            // A state whose squares have no edge may still be the one
            // with no edge at all, which every part keeps.
            let keep = |word: u128| {
                let degrees = split.top_degrees(word, step_number, reading);
                degrees == 0 || self.top_in_part(degrees, split)
            };
            let show = |p: SquareProgress| self.report(step_number + p.done, p.states, None);
            let options = Options {
                keep: Some(&keep),
                ..self.phase(&show)
            };
            let one = Schedule {
                steps: vec![step],
                width: plan.width,
            };
            (tables, _) = advance(&one, mode, &options, self.budget, tables)?;
        }
        Ok(tables)
    }

    /// Whether the top's group of `key` can join a bottom state of the
    /// part `split`, whose bottom degrees are fixed on its squares: the
    /// bottom state needs, on each, the top degree the group has, or for a
    /// path's end one more.
    fn top_in_part(&self, key: u64, split: &PartCut) -> bool {
        let degrees = key & split.mask;
        // With no free path end (cycles, or both ends fixed) a square
        // takes two edges in all, a fixed end one, so the degrees match
        // exactly.
        if self.free_ends == 0 {
            return split.holds(degrees);
        }
        // Free path ends: no end, one end or two among the squares.
        let ends = split
            .squares
            .iter()
            .filter(|&&f| (degrees >> (2 * f)) & 3 < 2);
        let one = |f: &usize| 1u64 << (2 * f);
        split.holds(degrees)
            || ends.clone().enumerate().any(|(i, f)| {
                split.holds(degrees + one(f))
                    || ends
                        .clone()
                        .skip(i + 1)
                        .any(|g| split.holds(degrees + one(f) + one(g)))
            })
    }

    /// Runs the bottom's steps, then the half steps and the join, batch
    /// by batch: the cycles (or paths), and how many batches there were.
    ///
    /// A half step fixes how many bottom edges its square of the cut has,
    /// for good: states that differ there never merge again. So when a
    /// half step's tables grow past `split_above` bytes, they are split
    /// into batches by those degrees, and each batch runs the remaining
    /// half steps and its join alone, the others waiting as lists of
    /// states. The batches' sums add up to the whole's and their states are disjoint,
    /// so splitting costs no work beyond the lists: it bounds the memory
    /// of the widest half steps (8x8 closed peaked at 140 M states whole).
    fn bottom<K: Key>(
        &self,
        plan: &Schedule,
        half: Schedule,
        top: &Top,
        used_shift: u32,
        saved: Option<StatesReader>,
    ) -> Result<(Wide, usize), FrontierError> {
        let (from, tables, mut batches) = match saved {
            Some(mut input) => {
                let read = saved::read_bottom::<K>(&mut input, self.jobs, self.budget)?;
                input.finish()?;
                match read {
                    Some(bottom) => bottom,
                    None => self.bottom_from_empty(plan, top, used_shift)?,
                }
            }
            None => self.bottom_from_empty(plan, top, used_shift)?,
        };
        let width = half.width;
        let steps: Vec<Schedule> = half
            .steps
            .into_iter()
            .map(|step| Schedule {
                steps: vec![step],
                width,
            })
            .collect();
        let done = self.forward_steps + plan.steps.len();
        let mut next = Some((from, tables));
        while let Some((from, tables)) = next.take() {
            batches.started += 1;
            let found = self.finish(tables, from, &steps, done, top, used_shift, &mut batches)?;
            batches.joined = batches
                .joined
                .checked_add(found)
                .ok_or(FrontierError::Overflow)?;
            // Each batch's join is a step of its own on the bar, and the
            // estimate of the time left learns how long joins take.
            self.report(self.total, 0, batches.label());
            if let Some((from, batch)) = batches.waiting.pop() {
                batches.began_with = batch.states().len();
                next = Some((from, batch.tables(self.jobs, self.budget)?));
            }
        }
        Ok((batches.joined, batches.started))
    }

    /// The bottom's steps run from the empty frontier: its tables before
    /// the first half step, and no batch yet (saved if it is time).
    #[allow(clippy::type_complexity)]
    fn bottom_from_empty<'b, K: Key>(
        &'b self,
        plan: &Schedule,
        top: &Top,
        used_shift: u32,
    ) -> Result<(usize, Vec<Table<'b, K, u64>>, Batches<'b, K>), FrontierError> {
        let mode = self.mode(used_shift, self.sides_of_ends.bottom);
        let tables = self.run_from_empty::<K>(plan, mode, self.forward_steps)?;
        let batches = Batches {
            started: 0,
            waiting: Vec::new(),
            joined: Wide::ZERO,
            began_with: 0,
        };
        self.save_bottom_if_due(top, 0, &tables, &batches)?;
        Ok((0, tables, batches))
    }

    /// Saves the top and where the bottom is (`next_step`, `tables`,
    /// `batches`) in the checkpoint, if the count keeps one and it is
    /// time.
    fn save_bottom_if_due<K: Key>(
        &self,
        top: &Top,
        next_step: usize,
        tables: &[Table<'_, K, u64>],
        batches: &Batches<'_, K>,
    ) -> Result<(), FrontierError> {
        self.save_if_due(|out| {
            saved::write_top(out, top)?;
            saved::write_bottom(out, next_step, tables, batches)
        })
    }

    /// Saves what `write` writes as the states of this count's piece, if
    /// the count keeps a checkpoint and it is time.
    fn save_if_due(
        &self,
        write: impl FnOnce(&mut StatesWriter) -> std::io::Result<()>,
    ) -> Result<(), FrontierError> {
        match self.options.saving {
            Some(saving) if saving.checkpoint.due() => {
                Ok(saving.checkpoint.save_states(saving.name, write)?)
            }
            _ => Ok(()),
        }
    }

    /// Runs the half `steps` from the one numbered `from` on `tables` (the
    /// whole's progress `done` steps before the first half step) and joins
    /// the last table with the top's; batches split off wait in `batches`.
    #[allow(clippy::too_many_arguments)]
    fn finish<'b, K: Key>(
        &'b self,
        mut tables: Vec<Table<'b, K, u64>>,
        from: usize,
        steps: &[Schedule],
        done: usize,
        top: &Top,
        used_shift: u32,
        batches: &mut Batches<'b, K>,
    ) -> Result<Wide, FrontierError> {
        let mode = self.mode(used_shift, self.sides_of_ends.bottom);
        let mut closed_at_last = Wide::ZERO;
        for (i, one) in steps.iter().enumerate().skip(from) {
            let batch = batches.label();
            let show = |p: SquareProgress| self.report(done + i + p.done, p.states, batch);
            let at = self.cut_slots(&self.fronts[i]);
            let split = self.part.as_ref().filter(|split| split.half_step == i);
            let part = split.map(|split| split.part);
            let reading = self.reading(used_shift);
            let in_part = |need: u64| split.is_none_or(|split| split.holds(need));
            let needs = Needs::new(&at, reading);
            // The bottom states no top state can complete (and, at the
            // split step, those of other parts) are dropped as the step
            // makes them.
            let keep = |word: u128| {
                let need = needs.of(word);
                // A square of the cut may still be a path end, with a top
                // degree one less than a cycle's (cycles have no free end).
                #[allow(clippy::cast_possible_truncation)]
                let used = ((word >> used_shift) & 3) as u8;
                in_part(need)
                    && may_join(
                        need,
                        used,
                        &top.allowed[i],
                        (top.free_ends, top.own_ends),
                        reading.fixed,
                    )
            };
            let options = Options {
                keep: Some(&keep),
                ..self.phase(&show)
            };
            let (next, finished) = advance(one, mode, &options, self.budget, tables)?;
            tables = next;
            closed_at_last = finished;
            // The tours completed at the split step, from every part's
            // states, are the first part's.
            if part.is_some_and(|part| !part.takes_earlier_tours()) {
                closed_at_last = Wide::ZERO;
            }
            let bytes: u64 = tables.iter().map(Table::bytes).sum();
            if i + 1 < steps.len() && bytes > self.split_above {
                let pieces = bytes.div_ceil(self.split_above.max(1) / 2 + 1).clamp(2, 16);
                let mut split = WaitingBatch::split(
                    tables,
                    &at,
                    pieces,
                    self.budget,
                    self.reading(used_shift),
                )?;
                // No state left: nothing more to find.
                let Some(first) = split.pop() else {
                    return Ok(Wide::ZERO);
                };
                batches
                    .waiting
                    .extend(split.into_iter().map(|batch| (i + 1, batch)));
                batches.began_with = first.states().len();
                tables = first.tables(self.jobs, self.budget)?;
            }
            // After the last half step the join follows at once, and the
            // tours the step completed are not saved.
            if i + 1 < steps.len() {
                self.save_bottom_if_due(top, i + 1, &tables, batches)?;
            }
        }
        let joined = self.join(tables, top, used_shift)?;
        let edgeless = closed_at_last * Wide::from(top.edgeless);
        joined.checked_add(edgeless).ok_or(FrontierError::Overflow)
    }

    /// The bottom's last `tables` joined with the `top`: the pairs that
    /// make one cycle, or one path.
    fn join<K: Key>(
        &self,
        tables: Vec<Table<'_, K, u64>>,
        top: &Top,
        used_shift: u32,
    ) -> Result<Wide, FrontierError> {
        let at = self.cut_slots(self.fronts.last().map_or(&[][..], Vec::as_slice));
        let reading = self.reading(used_shift);
        if self.closed {
            join_cycles(tables, &at, top, reading, self.options.stop)
        } else {
            join_paths(
                tables,
                &at,
                top,
                reading,
                self.jobs,
                self.options.stop,
                self.budget,
            )
        }
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

    /// The mode of the count, its packed words keeping the used ends at
    /// `used_shift`, for a run on a side that takes `ends_here` free ends.
    fn mode(&self, used_shift: u32, ends_here: u8) -> Mode {
        Mode {
            closed: self.closed,
            free_ends: self.free_ends,
            ends_here,
            used_shift,
        }
    }

    /// How the states at the cut are read, their used ends at
    /// `used_shift`.
    fn reading(&self, used_shift: u32) -> Reading {
        Reading {
            used_shift,
            fixed: self.fixed_cut,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::whole::count_undirected;
    use crate::count::frontier::{Part, SquareOrder};

    /// Cycles and paths counted by meeting in the middle and by the forward counter
    /// (itself checked against the brute-force oracle), on boards where
    /// the cut falls inside a line and at its end, with holes that break
    /// the mirror, with other leapers, and on boards where some cycles
    /// have no edge among the top's squares; whole, and with the half
    /// steps split into batches at every step.
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
            let graph = CellGraph::of(rows, cols, &holes, leap);
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
                    let record = |p: SquareProgress| reported.lock().unwrap().push(p.batch);
                    let options = Options {
                        jobs,
                        progress: Some(&record),
                        ..Options::default()
                    };
                    let (lines, mirror) = Lines::best(&graph, false);
                    let (got, batches) = count_splitting_above(
                        &graph,
                        &lines,
                        mirror.as_deref(),
                        (closed, &[]),
                        &options,
                        split_above,
                        None,
                    )
                    .unwrap();
                    assert_eq!(
                        crate::count::number::TourNumber::from_wide(got),
                        want,
                        "{rows}x{cols} holes {holes:?} leaper {leap:?} closed {closed} on {jobs} threads, split above {split_above}"
                    );
                    // SquareProgress names the batch being counted once split,
                    // with the states it began with and those waiting (each
                    // batch waiting has some), and ends on the last of all
                    // the batches, none waiting.
                    let reported = reported.into_inner().unwrap();
                    let named: Vec<Batch> = reported.iter().flatten().copied().collect();
                    if batches == 1 {
                        assert!(named.is_empty(), "{named:?}");
                    } else {
                        assert!(named.iter().all(|b| 1 <= b.under_way
                            && b.under_way <= b.made
                            && b.began_with > 0
                            && b.waiting >= b.made - b.under_way
                            && (b.waiting == 0) == (b.under_way == b.made)));
                        let last = reported.last().copied().flatten().unwrap();
                        assert_eq!(
                            (last.under_way, last.made, last.waiting),
                            (batches, batches, 0)
                        );
                    }
                    if split_above == u64::MAX {
                        assert_eq!(batches, 1);
                    } else {
                        split += usize::from(batches > 1);
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

    /// On lines of eight squares a count with both ends fixed is cut at
    /// half the squares wherever its ends lie, one on each side of the
    /// middle too; every pair of ends of an 8x8 board whose upper half is
    /// holes (4x8 left, taken in lines of eight) counts the paths the
    /// forward counter counts.
    #[test]
    fn both_ends_fixed_on_long_lines_count_what_the_forward_counter_counts() {
        let holes: Vec<usize> = (32..64).collect();
        let graph = CellGraph::of(8, 8, &holes, (1, 2));
        let (lines, mirror) = Lines::best(&graph, false);
        assert!(lines.shape.1 >= HALF_CUT_LINE, "{:?}", lines.shape);
        let half = lines.squares.len() / 2;
        let side = |cell: usize| lines.squares.iter().position(|&sq| sq == cell).unwrap() < half;
        let rows_only = Options {
            order: SquareOrder::Rows,
            ..Options::default()
        };
        let (mut apart, mut nonzero) = (0, 0);
        for start in 0..32 {
            for end in start + 1..32 {
                let want = count_undirected(&graph, &[start, end], false, &rows_only).unwrap();
                let got = count(
                    &graph,
                    &lines,
                    mirror.as_deref(),
                    (false, &[start, end]),
                    &Options::default(),
                )
                .unwrap();
                assert_eq!(
                    crate::count::number::TourNumber::from_wide(got),
                    want,
                    "ends {start} and {end}"
                );
                if !want.is_zero() {
                    nonzero += 1;
                    apart += usize::from(side(start) != side(end));
                }
            }
        }
        assert!(
            nonzero >= 60 && apart >= 30,
            "{nonzero} pairs joined, {apart} apart"
        );
    }

    /// A part whose squares are those whose top degrees settle first
    /// ([`Part::top_first`]) keeps only its class of the top's states from
    /// the step that settles them: on five lines of eight with both ends
    /// fixed in the top, each part of 2, 3 and 4 holds at most a quarter
    /// more than its share of the whole's states at the top's last step
    /// (the classes dealt by the top's states), and the parts add up to the
    /// forward count, as they do when split by the half steps' first
    /// squares.
    #[test]
    fn parts_split_where_the_top_settles_hold_less_of_the_top_and_add_up() {
        use crate::count::frontier::PartSplit;
        let holes: Vec<usize> = (40..64).collect();
        let graph = CellGraph::of(8, 8, &holes, (1, 2));
        let (lines, mirror) = Lines::best(&graph, false);
        let cut = cut_at(lines.squares.len(), lines.shape.0, true);
        let rows_only = Options {
            order: SquareOrder::Rows,
            ..Options::default()
        };
        let top_peak = |part: Option<Part>| {
            let states = std::sync::Mutex::new(0);
            let record = |p: SquareProgress| {
                if p.done == cut && p.piece.is_none() {
                    let mut most = states.lock().unwrap();
                    *most = (*most).max(p.states);
                }
            };
            let options = Options {
                part,
                progress: Some(&record),
                ..Options::default()
            };
            let paths = count(
                &graph,
                &lines,
                mirror.as_deref(),
                (false, &[0, 1]),
                &options,
            );
            (paths.unwrap(), states.into_inner().unwrap())
        };
        let want = count_undirected(&graph, &[0, 1], false, &rows_only).unwrap();
        assert!(!want.is_zero());
        let (whole, whole_top) = top_peak(None);
        assert_eq!(crate::count::number::TourNumber::from_wide(whole), want);
        for of in [2, 3, 4] {
            for top_first in [true, false] {
                let mut sum = Wide::ZERO;
                for index in 0..of {
                    let part = Part {
                        index,
                        of,
                        by: PartSplit::States,
                        top_first,
                    };
                    let (paths, top) = top_peak(Some(part));
                    // Dealt by the top's states, no part holds more than
                    // a quarter over its share.
                    if top_first {
                        assert!(
                            top * of * 4 <= whole_top * 5,
                            "part {index} of {of}: {top} of {whole_top}"
                        );
                    }
                    sum = sum.checked_add(paths).unwrap();
                }
                assert_eq!(
                    crate::count::number::TourNumber::from_wide(sum),
                    want,
                    "{of} parts, top first {top_first}"
                );
            }
        }
    }

    /// Paths counted by where their ends lie: with both ends in the top,
    /// both in the bottom, or one on each side of the cut at half the
    /// squares, each sum is the sum of the paths between every such pair of
    /// fixed ends counted forward (itself checked against the brute-force
    /// oracle), on boards cut at the end of a line and inside one (where
    /// the mirror may not merge), with holes and other leapers; and the
    /// whole count, which takes the first sum twice where the board turned
    /// half round carries the top onto the bottom, is the forward count.
    #[test]
    fn paths_counted_by_where_their_ends_lie_are_the_sums_over_their_ends() {
        let rows_only = Options {
            order: SquareOrder::Rows,
            ..Options::default()
        };
        let (mut sums, mut turned, mut nonzero) = (0, 0, 0);
        for (rows, cols, holes, leap) in [
            (3, 4, vec![], (1, 2)),
            (4, 5, vec![], (1, 2)),
            (4, 6, vec![], (1, 2)),
            (3, 7, vec![], (1, 2)),
            (4, 9, vec![], (1, 2)),
            (5, 5, vec![], (1, 2)),
            (5, 6, vec![0, 29], (1, 2)),
            (4, 6, vec![0], (1, 2)),
            (4, 6, vec![], (1, 3)),
            (4, 4, vec![], (0, 1)),
        ] {
            let graph = CellGraph::of(rows, cols, &holes, leap);
            let (lines, mirror) = Lines::best(&graph, false);
            let (top, _) = lines.squares.split_at(lines.squares.len() / 2);
            let mut pairs = [0u128; 3];
            let cells: Vec<usize> = lines.squares.clone();
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    let paths = count_undirected(&graph, &[a, b], false, &rows_only).unwrap();
                    let in_top = usize::from(top.contains(&a)) + usize::from(top.contains(&b));
                    pairs[in_top] += paths.to_string().parse::<u128>().unwrap();
                }
            }
            let [bottom_both, apart, top_both] = pairs;
            for (sides, want) in [
                (EndSides { top: 2, bottom: 0 }, top_both),
                (EndSides { top: 0, bottom: 2 }, bottom_both),
                (EndSides { top: 1, bottom: 1 }, apart),
            ] {
                // Whole, and with the half steps split into batches.
                for split_above in [u64::MAX, 0] {
                    let (got, _) = count_splitting_above(
                        &graph,
                        &lines,
                        mirror.as_deref(),
                        (false, &[]),
                        &Options::default(),
                        split_above,
                        Some(sides),
                    )
                    .unwrap();
                    assert_eq!(
                        crate::count::number::TourNumber::from_wide(got).to_string(),
                        want.to_string(),
                        "{rows}x{cols} holes {holes:?} leaper {leap:?} {sides:?}"
                    );
                }
                sums += 1;
                nonzero += usize::from(want > 0);
            }
            let whole = count(
                &graph,
                &lines,
                mirror.as_deref(),
                (false, &[]),
                &Options::default(),
            );
            let want = count_undirected(&graph, &[], false, &rows_only).unwrap();
            assert_eq!(
                crate::count::number::TourNumber::from_wide(whole.unwrap()),
                want,
                "{rows}x{cols} holes {holes:?} leaper {leap:?}"
            );
            if lines.shape.0.is_multiple_of(2)
                && halves_turn_into_each_other(&graph, &lines.squares)
            {
                turned += 1;
                assert_eq!(top_both, bottom_both, "{rows}x{cols} holes {holes:?}");
            }
        }
        assert_eq!(sums, 30);
        assert!(nonzero >= 20, "{nonzero}");
        assert!(turned >= 3, "{turned}");
    }

    /// Half steps split into batches at every step, stopped after any
    /// step and gone on from the checkpoint, count what they count run
    /// through: the batches waiting and the sum of those joined are
    /// saved with the tables.
    #[test]
    fn batches_stopped_at_any_step_go_on_from_their_checkpoint() {
        use crate::count::checkpoint::Checkpoint;
        use crate::count::frontier::Saving;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("checkpoint");
        let (mut resumed, mut batched) = (0, 0);
        for (rows, cols, closed) in [(5, 6, true), (4, 6, false), (6, 5, true)] {
            let graph = CellGraph::of(rows, cols, &[], (1, 2));
            let (lines, mirror) = Lines::best(&graph, false);
            let run = |options: &Options| {
                count_splitting_above(
                    &graph,
                    &lines,
                    mirror.as_deref(),
                    (closed, &[]),
                    options,
                    0,
                    None,
                )
            };
            let steps = AtomicUsize::new(0);
            let step = |_: SquareProgress| {
                steps.fetch_add(1, Ordering::Relaxed);
            };
            let (want, batches) = run(&Options {
                progress: Some(&step),
                ..Options::default()
            })
            .unwrap();
            assert!(batches > 1, "{rows}x{cols}");
            let steps = steps.into_inner();
            for stop_after in (1..10).map(|tenth| steps * tenth / 10).filter(|&s| s > 0) {
                let open = || {
                    Checkpoint::open(&dir, "test", std::time::Duration::ZERO)
                        .unwrap()
                        .at_every_boundary()
                };
                let first = open();
                let stop = AtomicBool::new(false);
                let seen = AtomicUsize::new(0);
                let progress = |_: SquareProgress| {
                    if seen.fetch_add(1, Ordering::Relaxed) + 1 >= stop_after {
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                let saving = Saving {
                    checkpoint: &first,
                    name: "count",
                };
                let stopped = run(&Options {
                    stop: Some(&stop),
                    progress: Some(&progress),
                    saving: Some(saving),
                    ..Options::default()
                });
                assert_eq!(stopped, Err(FrontierError::Stopped), "{rows}x{cols}");
                drop(first);
                let again = open();
                let saving = Saving {
                    checkpoint: &again,
                    name: "count",
                };
                let (got, _) = run(&Options {
                    saving: Some(saving),
                    ..Options::default()
                })
                .unwrap();
                assert_eq!(
                    got, want,
                    "{rows}x{cols} closed {closed} stopped after {stop_after} of {steps}"
                );
                batched += usize::from(again.report().states_read.is_some());
                again.finish().unwrap();
                resumed += 1;
            }
        }
        assert!(
            resumed >= 25 && batched >= 15,
            "{resumed} resumed, {batched} from states"
        );
    }
}
