//! Joining one group of top states with one group of bottom states at
//! once, by contracting the bottom's links one square at a time, instead
//! of testing every pair.
//!
//! Each square of the cut taking part (a *point*) has one link on each
//! side: to another point (the two ends of one fragment of that side), or
//! to a path end past the cut ([`PATH_END`]). The tours are the pairs of a
//! top and a bottom state whose links together make one cycle through
//! every point (cycles) or one path from a path end to a path end through
//! every point (paths). Following the bottom's link from the lowest point
//! `p` to `q` and splicing it into the top's links (the top's fragments
//! through `p` and `q` become one, or one leading to a path end) leaves a
//! smaller problem of the same kind on the other points, in which top
//! states that differ only in how `p` and `q` were reached become one,
//! their counts added. So the bottom states are taken in groups by their
//! link at `p`, each group with the top states spliced for it: a trie of
//! the bottom's links, whose nodes near the root hold many top states and
//! those deep in it few, where testing every pair costs the product of
//! the two groups' sizes at every node.
//!
//! The walks that test one pair ([`one_cycle`], [`one_path`]) are here too:
//! small groups and the trie's leaves use them, and so does the join of
//! cycles, state by state.

use super::cut::{PATH_END, UNPAIRED};
use crate::count::frontier::state::MAX_WIDTH;
use crate::count::number::Wide;

/// Each point's link on one side: a point, [`PATH_END`], or
/// [`UNPAIRED`] for a square that is not a point.
pub(super) type Links = [u8; MAX_WIDTH + 1];

/// Below this many pairs of states, a group tests every pair: splicing
/// and hashing cost more than walking a few.
const PAIRS_TESTED_ONE_BY_ONE: usize = 256;

/// Whether `tops` top states and `bottoms` bottom states are joined by
/// contracting rather than by testing each pair.
pub(super) fn worth_contracting(tops: usize, bottoms: usize) -> bool {
    bottoms > 1 && tops.saturating_mul(bottoms) > PAIRS_TESTED_ONE_BY_ONE
}

/// What the joined links must make: one cycle, or one path.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// One cycle through every point; no link leads to a path end.
    Cycle,
    /// One path through every point, its two ends past the cut.
    Path,
}

/// The top states of a join, links and counts, read once for each use:
/// the caller's own (a group of the top, its chosen ends turned into path
/// ends as they are read, so that no copy of a large group is held) or
/// those a splice made.
pub(super) trait Tops: Iterator<Item = (Links, u128)> + ExactSizeIterator + Clone {}

impl<T: Iterator<Item = (Links, u128)> + ExactSizeIterator + Clone> Tops for T {}

/// The sum over the pairs of a state of `tops` and one of `bottoms` (links
/// on the points `points` and counts) whose links make one `shape`, of
/// the product of their counts; `None` if it passes 2^256.
pub(super) fn join_group(
    tops: &impl Tops,
    bottoms: &mut [(Links, u64)],
    points: u32,
    shape: Shape,
) -> Option<Wide> {
    if tops.len() == 0 || bottoms.is_empty() || points == 0 {
        return Some(Wide::ZERO);
    }
    if !worth_contracting(tops.len(), bottoms.len()) {
        return pair_by_pair(tops, bottoms, points, shape);
    }
    let p = points.trailing_zeros() as usize;
    // The bottom states sorted in place by their link at p, each run of one
    // link joined alone. Their links at the points already spliced are
    // never read again (no link left leads there), so they stay as they are.
    bottoms.sort_unstable_by_key(|(links, _)| links[p]);
    let mut sum = Wide::ZERO;
    for group in bottoms.chunk_by_mut(|a, b| a.0[p] == b.0[p]) {
        let q = usize::from(group[0].0[p]);
        if q > MAX_WIDTH {
            // A point without a bottom link is no state of this join.
            continue;
        }
        let to_point = q != usize::from(PATH_END);
        let mut left = points & !(1 << p);
        if to_point {
            left &= !(1 << q);
        }
        let (spliced, closed) = splice(tops.clone(), p, q, left, shape);
        if closed > 0 {
            let bottom_total: u128 = group.iter().map(|&(_, c)| u128::from(c)).sum();
            let product = Wide::from(closed).checked_mul(Wide::from(bottom_total))?;
            sum = sum.checked_add(product)?;
        }
        if left != 0 && !spliced.is_empty() {
            let spliced = spliced.iter().copied();
            sum = sum.checked_add(join_group(&spliced, group, left, shape)?)?;
        }
    }
    Some(sum)
}

/// The top states `tops` with the bottom's link from `p` to `q` (a point,
/// or [`PATH_END`]) spliced in, on the points `left`, equal ones merged;
/// and the total count of those the link completes into one `shape`
/// (only when no point is left: closing early leaves some point out).
fn splice(
    tops: impl Tops,
    p: usize,
    q: usize,
    left: u32,
    shape: Shape,
) -> (Vec<(Links, u128)>, u128) {
    let mut spliced: Vec<(Links, u128)> = Vec::new();
    let mut closed = 0u128;
    let end = usize::from(PATH_END);
    for (links, count) in tops {
        let from_p = usize::from(links[p]);
        let mut next = links;
        next[p] = UNPAIRED;
        if q == end {
            // The bottom leads from p to a path end: the top's fragment
            // through p now leads there too.
            if from_p == end {
                if left == 0 && shape == Shape::Path {
                    closed += count;
                }
                continue;
            }
            next[from_p] = PATH_END;
        } else {
            let from_q = usize::from(links[q]);
            if from_p == q {
                // The top links p and q too: a cycle of two links.
                if left == 0 && shape == Shape::Cycle {
                    closed += count;
                }
                continue;
            }
            if from_p == end && from_q == end {
                if left == 0 && shape == Shape::Path {
                    closed += count;
                }
                continue;
            }
            next[q] = UNPAIRED;
            if from_p != end {
                next[from_p] = links[q];
            }
            if from_q != end {
                next[from_q] = links[p];
            }
        }
        if left != 0 {
            spliced.push((next, count));
        }
    }
    (merged(spliced), closed)
}

/// `states` with the equal ones made one, their counts added: sorted and
/// merged in place, so that no second copy is held beside them.
fn merged(mut states: Vec<(Links, u128)>) -> Vec<(Links, u128)> {
    // Compared as three words: a byte array's order calls memcmp, which
    // took 8% of an open 8x7 count (`perf`), for an order no one reads.
    states.sort_unstable_by_key(|state| as_words(&state.0));
    let mut kept = 0;
    for i in 0..states.len() {
        if kept > 0 && as_words(&states[kept - 1].0) == as_words(&states[i].0) {
            states[kept - 1].1 += states[i].1;
        } else {
            states[kept] = states[i];
            kept += 1;
        }
    }
    states.truncate(kept);
    states
}

// Three words hold every link.
const _: () = assert!(std::mem::size_of::<Links>() == 24);

/// `links` as three words, equal exactly when the links are.
fn as_words(links: &Links) -> [u64; 3] {
    std::array::from_fn(|i| {
        let word: [u8; 8] = std::array::from_fn(|b| links[8 * i + b]);
        u64::from_ne_bytes(word)
    })
}

/// [`join_group`] by testing each pair.
fn pair_by_pair(
    tops: &impl Tops,
    bottoms: &[(Links, u64)],
    points: u32,
    shape: Shape,
) -> Option<Wide> {
    let mut sum = Wide::ZERO;
    for (bottom, bottom_count) in bottoms {
        let first = points.trailing_zeros() as usize;
        let all = points.count_ones();
        // The links that lead to path ends say so themselves: no end is
        // left to choose.
        let matched: u128 = tops
            .clone()
            .filter(|(top, _)| match shape {
                Shape::Cycle => one_cycle(top, bottom, first, all as usize),
                Shape::Path => one_path(top, bottom, 0, first, all),
            })
            .map(|(_, c)| c)
            .sum();
        if matched > 0 {
            sum = sum.checked_add(Wide::from(matched).checked_mul(Wide::from(*bottom_count))?)?;
        }
    }
    Some(sum)
}

/// Whether the pairings `top` and `bottom` of the same `paired` squares
/// (`first` among them) make one cycle through all of them.
#[inline]
pub(super) fn one_cycle(
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

/// Whether the top's and the bottom's fragments, joined at the squares of
/// the cut, make one path: `ends` are the squares of the cut that are path
/// ends (their missing side leads to [`PATH_END`]), `linked` how many
/// squares the joined fragments pass through, `first` one of them. Walks
/// from `first` both ways, crossing sides at each square: one path reaches
/// a path end both ways (not `first` again, which would be a cycle) having
/// passed every linked square.
pub(super) fn one_path(
    top: &[u8; MAX_WIDTH + 1],
    bottom: &[u8; MAX_WIDTH + 1],
    ends: u32,
    first: usize,
    linked: u32,
) -> bool {
    let link = |via_top: bool, f: usize| {
        let p = if via_top { top[f] } else { bottom[f] };
        if p == UNPAIRED && ends >> f & 1 == 1 {
            PATH_END
        } else {
            p
        }
    };
    let mut visited = 1;
    for leave_by_top in [true, false] {
        let (mut at, mut via_top) = (first, leave_by_top);
        loop {
            let next = link(via_top, at);
            if next == PATH_END {
                break;
            }
            if next == UNPAIRED || usize::from(next) == first || visited >= linked {
                return false;
            }
            at = usize::from(next);
            visited += 1;
            via_top = !via_top;
        }
    }
    visited == linked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pairing of `points` (as links), each point linked to another
    /// or, with up to `ends` of them, to a path end.
    fn pairings(points: &[usize], ends: usize) -> Vec<Links> {
        let Some((&first, rest)) = points.split_first() else {
            return vec![[UNPAIRED; MAX_WIDTH + 1]];
        };
        let mut all = Vec::new();
        if ends > 0 {
            for mut links in pairings(rest, ends - 1) {
                links[first] = PATH_END;
                all.push(links);
            }
        }
        for (i, &other) in rest.iter().enumerate() {
            let others: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &f)| f)
                .collect();
            for mut links in pairings(&others, ends) {
                #[allow(clippy::cast_possible_truncation)]
                {
                    links[first] = other as u8;
                    links[other] = first as u8;
                }
                all.push(links);
            }
        }
        all
    }

    /// The contracting join equals testing every pair, on every pairing of
    /// up to 8 points, for cycles and for paths with their ends on either
    /// side, with counts that differ from state to state.
    #[test]
    fn contracting_equals_testing_every_pair() {
        for n in 1..=8usize {
            let points: Vec<usize> = (0..n).map(|i| i * 3 % 23).collect();
            let mask = points.iter().fold(0u32, |m, &f| m | 1 << f);
            for (shape, top_ends, bottom_ends) in [
                (Shape::Cycle, 0, 0),
                (Shape::Path, 2, 0),
                (Shape::Path, 1, 1),
                (Shape::Path, 0, 2),
                (Shape::Path, 2, 2),
            ] {
                let tops: Vec<(Links, u128)> = pairings(&points, top_ends)
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| (l, i as u128 % 7 + 1))
                    .collect();
                let mut bottoms: Vec<(Links, u64)> = pairings(&points, bottom_ends)
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| (l, i as u64 % 5 + 1))
                    .collect();
                let by_pairs = pair_by_pair(&tops.iter().copied(), &bottoms, mask, shape);
                let contracted = join_group(&tops.iter().copied(), &mut bottoms, mask, shape);
                assert_eq!(
                    contracted, by_pairs,
                    "{n} points, ends {top_ends} and {bottom_ends}"
                );
            }
        }
    }

    /// The walks themselves, on small cases worked by hand: two points linked
    /// both ways are one cycle; a path a-b on top with both ends leading
    /// past the cut on the bottom is one path; two cycles are not one.
    #[test]
    fn the_walks_on_cases_worked_by_hand() {
        let one_shape = |top: &Links, bottom: &Links, points: u32, shape: Shape| {
            let first = points.trailing_zeros() as usize;
            match shape {
                Shape::Cycle => one_cycle(top, bottom, first, points.count_ones() as usize),
                Shape::Path => one_path(top, bottom, 0, first, points.count_ones()),
            }
        };
        let mut top = [UNPAIRED; MAX_WIDTH + 1];
        let mut bottom = [UNPAIRED; MAX_WIDTH + 1];
        (top[0], top[1], bottom[0], bottom[1]) = (1, 0, 1, 0);
        assert!(one_shape(&top, &bottom, 0b11, Shape::Cycle));
        assert!(!one_shape(&top, &bottom, 0b11, Shape::Path));
        (bottom[0], bottom[1]) = (PATH_END, PATH_END);
        assert!(one_shape(&top, &bottom, 0b11, Shape::Path));
        let mut top = [UNPAIRED; MAX_WIDTH + 1];
        let mut bottom = [UNPAIRED; MAX_WIDTH + 1];
        (top[0], top[1], top[2], top[3]) = (1, 0, 3, 2);
        (bottom[0], bottom[1], bottom[2], bottom[3]) = (1, 0, 3, 2);
        assert!(!one_shape(&top, &bottom, 0b1111, Shape::Cycle));
        (bottom[0], bottom[1], bottom[2], bottom[3]) = (3, 2, 1, 0);
        assert!(one_shape(&top, &bottom, 0b1111, Shape::Cycle));
    }
}
