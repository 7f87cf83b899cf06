//! Which states a part of a count met in the middle keeps: a part is a
//! class of the degrees of a few squares of the cut, read in the top as
//! soon as those degrees are settled and in the bottom once its half steps
//! have fixed them.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::cut::{own_degree, Reading, Sides};
use crate::count::frontier::schedule::{CellGraph, Schedule};
use crate::count::frontier::Part;

/// Where a part of a count met in the middle is split off.
pub(super) struct PartCut {
    /// The part.
    pub(super) part: Part,
    /// The numbers among the cut's squares of those whose degrees decide a
    /// state's part.
    pub(super) squares: Vec<usize>,
    /// Their two bits each in a word of degrees.
    pub(super) mask: u64,
    /// The half step (from 0) after which the bottom keeps only its part's
    /// states: the last to fix the degree of one of `squares`.
    pub(super) half_step: usize,
    /// The first forward step after which the top keeps only the states
    /// that can join its part: the last to settle a degree of `squares`.
    pub(super) top_from: usize,
    /// For that step and each after it, the frontier slot of each of
    /// `squares` (with its number).
    pub(super) top_slots: Vec<Vec<(usize, usize)>>,
    /// Whether the part's classes are dealt by the top's states at
    /// `top_from` ([`PartCut::deal`]) rather than by a hash.
    pub(super) dealt: bool,
    /// Once dealt, the part each word of degrees of `squares` belongs to.
    owners: OnceLock<HashMap<u64, usize>>,
}

/// The half step after which a count in `parts` parts keeps its part's
/// states when the squares are taken in the half steps' order: the first
/// that has fixed the bottom degrees of enough squares of the cut for 16
/// classes of degrees a part (three degrees a square), so that the parts
/// come out of about equal size, or the last; `None` when there is no half
/// step.
pub(super) fn split_step(half_steps: usize, parts: usize) -> Option<usize> {
    (half_steps > 0).then(|| squares_for(parts).min(half_steps) - 1)
}

/// How many squares' degrees make at least 16 classes a part of `parts`.
fn squares_for(parts: usize) -> usize {
    let wanted = 16 * parts;
    let (mut classes, mut squares) = (3, 1);
    while classes < wanted {
        classes *= 3;
        squares += 1;
    }
    squares
}

/// What [`PartCut::new`] needs of the meet's plan.
pub(super) struct Plan<'a> {
    pub(super) graph: &'a CellGraph,
    /// Whether the top's last steps hold more states than the half steps:
    /// only there does a part take the squares that settle first in the
    /// top ([`Part::top_first`]).
    pub(super) top_holds_more: bool,
    pub(super) sides: &'a Sides,
    /// The top's squares in forward order.
    pub(super) top_order: &'a [usize],
    /// The top's steps.
    pub(super) forward: &'a Schedule,
    /// The frontier after each half step.
    pub(super) fronts: &'a [Vec<usize>],
}

impl PartCut {
    /// The split of `part` for `plan`, or `None` where there is no half
    /// step to split at.
    ///
    /// By default the squares are the first the half steps add, so that
    /// the bottom's half steps keep only the part's states from the first
    /// ones on (the top is cut down at the cut). With [`Part::top_first`],
    /// where the top holds more states than the half steps, they are the
    /// squares whose top degrees settle first, so that the
    /// top's last forward steps, the largest on a count with both ends
    /// fixed on long lines, keep only the part's states (8x8 from a1 to
    /// b1: 34 M states at step 30 of the 32, 11 M at step 28), and the
    /// bottom's are cut down where the half steps reach them.
    pub(super) fn new(part: Part, plan: &Plan) -> Option<PartCut> {
        let step = split_step(plan.fronts.len(), part.of)?;
        let added = half_step_adding(plan);
        let cut = &plan.sides.cut;
        // A state merged with its mirror image holds its squares' codes
        // in other slots.
        let top_first = part.top_first
            && plan.top_holds_more
            && plan.forward.steps.iter().all(|s| s.mirror.is_none());
        let settled = settling_steps(plan);
        let squares: Vec<usize> = if top_first {
            let mut by_settling: Vec<usize> = (0..cut.len()).collect();
            by_settling.sort_by_key(|&f| (settled[f], added[f]));
            by_settling.truncate(squares_for(part.of).min(cut.len()));
            by_settling
        } else {
            (0..cut.len()).filter(|&f| added[f] <= step).collect()
        };
        let half_step = squares.iter().map(|&f| added[f]).max().unwrap_or(step);
        let last = plan.top_order.len().saturating_sub(1);
        let top_from = if top_first {
            squares.iter().map(|&f| settled[f]).max().unwrap_or(last)
        } else {
            last
        };
        let fronts = forward_fronts(plan.top_order, plan.forward);
        let top_slots = fronts[top_from.min(last)..]
            .iter()
            .map(|front| {
                squares
                    .iter()
                    .filter_map(|&f| {
                        let slot = front.iter().position(|&sq| sq == cut[f])?;
                        Some((slot, f))
                    })
                    .collect()
            })
            .collect();
        let mask = squares.iter().fold(0u64, |mask, f| mask | 3 << (2 * f));
        Some(PartCut {
            part,
            squares,
            mask,
            half_step,
            top_from: top_from.min(last),
            top_slots,
            dealt: top_first,
            owners: OnceLock::new(),
        })
    }

    /// Whether a state whose degrees on `squares` are `degrees` (a top
    /// state's, or the top degrees a bottom state needs; other bits are
    /// ignored) belongs to the part.
    pub(super) fn holds(&self, degrees: u64) -> bool {
        let degrees = degrees & self.mask;
        match self.owners.get() {
            Some(owners) => owners.get(&degrees) == Some(&self.part.index),
            None => self.part.holds(degrees),
        }
    }

    /// Deals the words of degrees to the parts by how many of the top's
    /// states have each at `top_from` (`states`, the same in every part:
    /// the steps so far keep every state), the most first, each to the part
    /// with the fewest so far. A hash of words that are few and unevenly
    /// held left one part of four with 43% of a class (8x8 from a1 to h1,
    /// 2.8 GB against 1.4 to 1.7 GB).
    pub(super) fn deal(&self, states: impl Iterator<Item = u64>) {
        let mut held: HashMap<u64, u64> = HashMap::new();
        for degrees in states {
            *held.entry(degrees & self.mask).or_default() += 1;
        }
        let mut words: Vec<(u64, u64)> = held.into_iter().collect();
        words.sort_unstable_by_key(|&(word, states)| (std::cmp::Reverse(states), word));
        let mut loads = vec![0u64; self.part.of.max(1)];
        let owners = words
            .into_iter()
            .map(|(word, states)| {
                let (least, _) = loads
                    .iter()
                    .enumerate()
                    .min_by_key(|&(i, &load)| (load, i))
                    .unwrap_or((0, &0));
                loads[least] += states;
                (word, least)
            })
            .collect();
        // Dealt once: a second call (none is made) would deal the same.
        let _ = self.owners.set(owners);
    }

    /// The top degrees of `squares` in the packed state `word` made by
    /// forward step `step` (at least `top_from`), two bits a square at its
    /// number.
    pub(super) fn top_degrees(&self, word: u128, step: usize, reading: Reading) -> u64 {
        self.top_slots[step - self.top_from]
            .iter()
            .fold(0, |degrees, &(slot, f)| {
                #[allow(clippy::cast_possible_truncation)]
                let code = ((word >> (4 * slot)) & 15) as u8;
                degrees | own_degree(code, reading.fixed >> f & 1 == 1) << (2 * f)
            })
    }
}

/// For each square of the cut (by its number), the half step that adds
/// it: the first whose frontier holds it (they stay once added).
fn half_step_adding(plan: &Plan) -> Vec<usize> {
    plan.sides
        .cut
        .iter()
        .map(|&sq| {
            plan.fronts
                .iter()
                .position(|front| front.contains(&sq))
                .unwrap_or(plan.fronts.len())
        })
        .collect()
}

/// For each square of the cut (by its number), the forward step after
/// which its top degree is settled: the later of its own and its last top
/// neighbour's, after which no top edge of it is left to choose.
fn settling_steps(plan: &Plan) -> Vec<usize> {
    let position = |cell: usize| plan.top_order.iter().position(|&sq| sq == cell);
    plan.sides
        .cut
        .iter()
        .map(|&sq| {
            plan.graph
                .neighbours(sq)
                .filter(|&m| plan.sides.top[m])
                .chain(std::iter::once(sq))
                .filter_map(position)
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// The frontier (cells in slot order) after each step of `plan`, which
/// adds the squares of `order` in turn.
fn forward_fronts(order: &[usize], plan: &Schedule) -> Vec<Vec<usize>> {
    let mut front: Vec<usize> = Vec::new();
    order
        .iter()
        .zip(&plan.steps)
        .map(|(&sq, step)| {
            front.push(sq);
            front = step
                .keep
                .iter()
                .map(|&slot| front[usize::from(slot)])
                .collect();
            front.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The half step a part is split at: the first with three degrees
    /// a square for 16 classes a part, or the last there is.
    #[test]
    fn enough_squares_for_sixteen_classes_a_part() {
        assert_eq!(squares_for(1), 3);
        assert_eq!(squares_for(2), 4);
        assert_eq!(squares_for(5), 4);
        assert_eq!(squares_for(6), 5);
        assert_eq!(split_step(10, 4), Some(3));
        assert_eq!(split_step(2, 4), Some(1));
        assert_eq!(split_step(0, 4), None);
    }
}
