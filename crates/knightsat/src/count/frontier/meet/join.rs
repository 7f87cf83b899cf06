//! The join: the top's states at the cut grouped by their degrees, and the
//! cycles or paths each bottom state makes with them, weighted by both
//! counts; and the bottom's states no top state can complete, dropped
//! before the join.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};

use super::contract::{join_group, one_cycle, one_path, worth_contracting, Shape};
use super::cut::{Cut, Reading, PATH_END, UNPAIRED};
use super::degrees::{DegreeSet, MixHasher};
use crate::count::frontier::budget::Budget;
use crate::count::frontier::engine::table_error;
use crate::count::frontier::packing::Key;
use crate::count::frontier::state::{Word, MAX_WIDTH};
use crate::count::frontier::table::{Table, TableError};
use crate::count::frontier::FrontierError;
use crate::count::number::Wide;

/// What the top's states allow at one half step (see [`may_join`]).
pub(super) struct Allowed {
    /// The top's degree words on the cut's squares added so far, each with
    /// the fewest free path ends a top state of those degrees has used.
    pub(super) fewest: DegreeSet,
    /// The two bits of each square of the cut added so far.
    pub(super) mask: u64,
    /// Where the join may have room for free ends on the top's side, the
    /// degrees a bottom state may need with room for one: those of top
    /// states that used at most one end, and those one more at a square of
    /// the cut (not a fixed end) of top states that used none. One look-up
    /// where the test of `fewest` takes one a square (and one a square
    /// where the test of `fewest` takes one a pair of squares, with room
    /// for two).
    pub(super) one_end: Option<DegreeSet>,
}

impl Allowed {
    /// The allowance of the top's degree words `words`, each with the free
    /// path ends one top state of them used (a word may come more than
    /// once), read on the squares of `mask`, with the degrees that room for
    /// one free end allows worked out in advance when `one_end` (never at a
    /// fixed end, `fixed`).
    pub(super) fn new(
        words: impl Iterator<Item = (u64, u8)> + Clone,
        mask: u64,
        one_end: bool,
        fixed: u64,
    ) -> Allowed {
        let words = words.map(|(degrees, used)| (degrees & mask, used));
        let one_end = one_end.then(|| {
            let mut set = DegreeSet::new(mask);
            for (degrees, used) in words.clone() {
                if used <= 1 {
                    set.lower(degrees, 0);
                }
                if used == 0 {
                    for f in 0..MAX_WIDTH {
                        let d = degrees >> (2 * f) & 3;
                        if mask >> (2 * f) & 3 != 0 && d < 2 && fixed >> f & 1 == 0 {
                            set.lower(degrees + (1 << (2 * f)), 0);
                        }
                    }
                }
            }
            set
        });
        let mut fewest = DegreeSet::new(mask);
        for (degrees, used) in words {
            fewest.lower(degrees, used.min(2));
        }
        Allowed {
            fewest,
            mask,
            one_end,
        }
    }
}

/// A top state's pairing of the cut's squares, and its count.
pub(super) type Pairing = ([u8; MAX_WIDTH + 1], u64);

/// States at the cut as pairings and counts, grouped by [`group_key`].
pub(super) type Groups = HashMap<u64, Vec<Pairing>, BuildHasherDefault<MixHasher>>;

/// The top's states at the cut, grouped by their degrees.
pub(super) struct Top {
    pub(super) groups: Groups,
    /// The count of the state with no edge (0 if it died): it completes the
    /// cycles that close at the last half step.
    pub(super) edgeless: u64,
    /// For each half step, the degrees some top state has on the cut's
    /// squares added so far, with the fewest free path ends a top state of
    /// those degrees has used (0 for cycles), and the two bits of each
    /// square of the cut added so far.
    pub(super) allowed: Vec<Allowed>,
    /// The memory charged for it.
    pub(super) bytes: u64,
    /// The path ends not fixed (2 less the fixed ends; 0 for cycles).
    pub(super) free_ends: u8,
    /// How many of them may lie on the top's squares, the cut's among
    /// them: a square of the cut that the join makes a path end is the
    /// top's.
    pub(super) own_ends: u8,
}

/// The paths the bottom states of `tables` (their slots the cut's
/// squares numbered `at`) make with the top's states, weighted by both
/// counts. The bottom states are grouped by their degrees and used ends
/// first, so that the top's groups that fit are looked up once a group
/// rather than once a state; the groups are shared between threads.
pub(super) fn join_paths<K: Key>(
    mut tables: Vec<Table<'_, K, u64>>,
    at: &[Option<usize>],
    top: &Top,
    reading: Reading,
    jobs: usize,
    stop: Option<&AtomicBool>,
    budget: &Budget,
) -> Result<Wide, FrontierError> {
    let (groups, bytes) = group_within_budget(&mut tables, at, true, reading, |_| true, budget)?;
    drop(tables);
    let mut groups: Vec<(u64, Vec<Pairing>)> = groups.into_iter().collect();
    let chunk = groups.len().div_ceil(jobs).max(1);
    let sums = on_threads(groups.chunks_mut(chunk).collect(), |part| {
        let mut sum = Wide::ZERO;
        for (i, (key, bottoms)) in part.iter_mut().enumerate() {
            let key = *key;
            if i.is_multiple_of(256) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(FrontierError::Stopped);
            }
            #[allow(clippy::cast_possible_truncation)]
            let used = (key >> 56) as u8;
            let degrees = key & ((1 << 56) - 1);
            sum = paths_with(degrees, used, bottoms, top, reading.fixed)
                .and_then(|x| sum.checked_add(x))
                .ok_or(FrontierError::Overflow)?;
        }
        Ok(sum)
    });
    budget.give(bytes);
    add_up(sums?)
}

/// The cycles each bottom state of `tables` (their slots the cut's
/// squares numbered `at`) makes with the top's states, weighted by both
/// counts; each thread takes one shard.
pub(super) fn join_cycles<K: Key>(
    tables: Vec<Table<'_, K, u64>>,
    at: &[Option<usize>],
    top: &Top,
    reading: Reading,
    stop: Option<&AtomicBool>,
) -> Result<Wide, FrontierError> {
    add_up(on_threads(tables, |mut table| {
        let mut sum = Wide::ZERO;
        let mut i = 0usize;
        table.read(true, |key, count| {
            i += 1;
            if i.is_multiple_of(4096) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(FrontierError::Stopped);
            }
            let bottom = Cut::read(key.to_word().wide(), at, true, reading);
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

/// Runs `work` on each of `parts`, each on a thread of its own, or on this
/// one where no thread can start (an address-space limit): the results in
/// order, or the first error (a thread that panicked counts as stopped).
fn on_threads<P: Send, T: Send>(
    parts: Vec<P>,
    work: impl Fn(P) -> Result<T, FrontierError> + Sync,
) -> Result<Vec<T>, FrontierError> {
    let work = &work;
    std::thread::scope(|s| {
        let mut here = Vec::new();
        let mut handles = Vec::new();
        for (i, part) in parts.into_iter().enumerate() {
            // A part the thread could not take comes back in the error.
            let (tx, rx) = std::sync::mpsc::channel();
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                let part = rx.recv().map_err(|_| FrontierError::Stopped)?;
                work(part)
            });
            match spawned {
                Ok(handle) => match tx.send(part) {
                    Ok(()) => handles.push((i, handle)),
                    Err(std::sync::mpsc::SendError(part)) => here.push((i, part)),
                },
                Err(_) => here.push((i, part)),
            }
        }
        let mut results: Vec<(usize, Result<T, FrontierError>)> =
            here.into_iter().map(|(i, part)| (i, work(part))).collect();
        results.extend(
            handles
                .into_iter()
                .map(|(i, h)| (i, h.join().unwrap_or(Err(FrontierError::Stopped)))),
        );
        results.sort_by_key(|&(i, _)| i);
        results.into_iter().map(|(_, r)| r).collect()
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
/// degrees and used ends ([`group_key`]), the groups whose key `keep`
/// takes alone; and how many states there are in them.
pub(super) fn group_states<K: Key>(
    tables: &mut [Table<'_, K, u64>],
    at: &[Option<usize>],
    bottom: bool,
    reading: Reading,
    keep: impl Fn(u64) -> bool,
) -> Result<(Groups, u64), FrontierError> {
    let mut groups = Groups::default();
    let mut states = 0u64;
    for table in tables {
        table.read(true, |key, count| {
            let cut = Cut::read(key.to_word().wide(), at, bottom, reading);
            let group = group_key(cut.degrees, cut.used);
            if !keep(group) {
                return Ok(());
            }
            states += 1;
            groups.entry(group).or_default().push((cut.partner, count));
            Ok::<(), FrontierError>(())
        })?;
    }
    Ok((groups, states))
}

/// [`group_states`], the groups charged to `budget` before they are built
/// (the tables are held beside them until then): the groups and the bytes
/// charged for them, which the caller gives back.
pub(super) fn group_within_budget<K: Key>(
    tables: &mut [Table<'_, K, u64>],
    at: &[Option<usize>],
    bottom: bool,
    reading: Reading,
    keep: impl Fn(u64) -> bool,
    budget: &Budget,
) -> Result<(Groups, u64), FrontierError> {
    let most = group_bytes(tables.iter().map(|t| t.len() as u64).sum::<u64>());
    budget
        .take(most)
        .map_err(|needed| table_error(TableError::OverMemory(needed), budget.limit()))?;
    match group_states(tables, at, bottom, reading, keep) {
        Ok((groups, states)) => {
            budget.give(most - group_bytes(states));
            Ok((groups, group_bytes(states)))
        }
        Err(e) => {
            budget.give(most);
            Err(e)
        }
    }
}

/// The memory `states` grouped states are charged: a pairing and its
/// share of the map.
pub(super) fn group_bytes(states: u64) -> u64 {
    states * (std::mem::size_of::<Pairing>() as u64 + 16)
}

/// The key of the top's group of states with `degrees` on the cut and
/// `used` free path ends.
pub(super) fn group_key(degrees: u64, used: u8) -> u64 {
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
fn paths_with(
    degrees: u64,
    used: u8,
    bottoms: &mut [Pairing],
    top: &Top,
    fixed: u64,
) -> Option<Wide> {
    // A fixed end's one edge is matched by its degrees: it is never one
    // of the free ends chosen here.
    let candidates: Vec<usize> = (0..MAX_WIDTH)
        .filter(|&f| degrees >> (2 * f) & 3 >= 1 && fixed >> f & 1 == 0)
        .collect();
    // `None` once a sum overflows.
    let mut sum = Some(Wide::ZERO);
    let free = top.free_ends;
    // The ends the bottom leaves are the top's or the cut's.
    if free - used.min(free) > top.own_ends {
        return Some(Wide::ZERO);
    }
    for top_used in 0..=free - used.min(free) {
        let k = free - used.min(free) - top_used;
        let mut tally = |ends: u32| {
            let lowered = (0..MAX_WIDTH)
                .filter(|&f| ends >> f & 1 == 1)
                .fold(degrees, |d, f| d - (1 << (2 * f)));
            let Some(group) = top.groups.get(&group_key(lowered, top_used)) else {
                return;
            };
            // The bottom states of a group pair the same squares.
            let Some(&(first, _)) = bottoms.first() else {
                return;
            };
            let points = linked_squares(&first, ends);
            if points == 0 {
                return;
            }
            let joined = if worth_contracting(group.len(), bottoms.len()) {
                paths_by_contraction(group, bottoms, ends, points)
            } else {
                paths_pair_by_pair(group, bottoms, ends, points)
            };
            sum = sum.and_then(|sum| joined.and_then(|x| sum.checked_add(x)));
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

/// The paths the top states of `group` make with the `bottoms`, testing
/// each pair (`ends`: the squares of the cut chosen as path ends;
/// `points`: the squares the bottom links, and the ends); `None` once a
/// sum overflows.
fn paths_pair_by_pair(
    group: &[Pairing],
    bottoms: &[Pairing],
    ends: u32,
    points: u32,
) -> Option<Wide> {
    let first = points.trailing_zeros() as usize;
    let mut sum = Some(Wide::ZERO);
    for (bottom, count) in bottoms {
        let matched: u128 = group
            .iter()
            .filter(|(partner, _)| one_path(partner, bottom, ends, first, points.count_ones()))
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
    sum
}

/// [`paths_pair_by_pair`] by contraction ([`join_group`]): a chosen end's
/// missing side leads to a path end, in the top states and, in place, in
/// the bottom states (a group pairs the same squares, so each is changed
/// at the same ones), given back after rather than copied for each choice
/// of ends.
fn paths_by_contraction(
    group: &[Pairing],
    bottoms: &mut [Pairing],
    ends: u32,
    points: u32,
) -> Option<Wide> {
    let to_ends = |links: &[u8; MAX_WIDTH + 1]| {
        let mut links = *links;
        for f in (0..MAX_WIDTH).filter(|&f| ends >> f & 1 == 1) {
            if links[f] == UNPAIRED {
                links[f] = PATH_END;
            }
        }
        links
    };
    let tops = group
        .iter()
        .map(|(links, count)| (to_ends(links), u128::from(*count)));
    let first = bottoms
        .first()
        .map_or([UNPAIRED; MAX_WIDTH + 1], |&(links, _)| links);
    let given = (0..MAX_WIDTH)
        .filter(|&f| ends >> f & 1 == 1 && first[f] == UNPAIRED)
        .fold(0u32, |mask, f| mask | 1 << f);
    let each_given = |bottoms: &mut [Pairing], link: u8| {
        for (links, _) in bottoms.iter_mut() {
            for f in (0..MAX_WIDTH).filter(|&f| given >> f & 1 == 1) {
                links[f] = link;
            }
        }
    };
    each_given(bottoms, PATH_END);
    let joined = join_group(&tops, bottoms, points, Shape::Path);
    each_given(bottoms, UNPAIRED);
    joined
}

/// Whether a bottom state that needs the top degrees `need` on the cut's
/// squares added so far (two bits each in `mask`), having used `used` of
/// the `free` free path ends, can still join some top state of `allowed`:
/// the join lowers the degrees it needs by one at each square of the cut
/// it makes a path end (never a fixed end, `fixed`), as many as the free
/// ends both sides leave, so some top state must have the degrees needed
/// less at most that many squares already added, having used few enough
/// ends itself. A cycle is a path with no free end: its degrees must be
/// those of some top state.
pub(super) fn may_join(
    need: u64,
    used: u8,
    allowed: &Allowed,
    (free, own_ends): (u8, u8),
    fixed: u64,
) -> bool {
    let room = free.saturating_sub(used).min(own_ends);
    let need = need & allowed.mask;
    if let (1 | 2, Some(one_end)) = (room, &allowed.one_end) {
        if one_end.contains(need) || room == 2 && allowed.fewest.contains(need) {
            return true;
        }
        // With room for two, one end at a square here and one more
        // anywhere (this may keep a state that needs both at one square,
        // which the join then finds no path for).
        return room == 2
            && (0..MAX_WIDTH).any(|f| {
                need >> (2 * f) & 3 >= 1
                    && fixed >> f & 1 == 0
                    && one_end.contains(need - (1 << (2 * f)))
            });
    }
    let allowed = &allowed.fewest;
    let fits = |degrees: u64, ends: u8| {
        allowed
            .get(degrees)
            .is_some_and(|top_used| top_used + ends <= room)
    };
    if fits(need, 0) {
        return true;
    }
    if room == 0 {
        return false;
    }
    let mut candidates = [0u64; MAX_WIDTH];
    let mut n = 0;
    for f in 0..MAX_WIDTH {
        if need >> (2 * f) & 3 >= 1 && fixed >> f & 1 == 0 {
            candidates[n] = 1 << (2 * f);
            n += 1;
        }
    }
    let candidates = &candidates[..n];
    for (i, &a) in candidates.iter().enumerate() {
        if fits(need - a, 1) {
            return true;
        }
        if room >= 2 && candidates[i + 1..].iter().any(|&b| fits(need - a - b, 2)) {
            return true;
        }
    }
    false
}

/// The squares of the cut that a joined path passes through from one side
/// to the other: those the bottom pairs, and the chosen path ends `ends`
/// (paired on one side only). A square the bottom pairs is paired by the
/// top too, since the top's degree there is the one the bottom needs.
fn linked_squares(bottom: &[u8; MAX_WIDTH + 1], ends: u32) -> u32 {
    (0..MAX_WIDTH)
        .filter(|&f| bottom[f] != UNPAIRED)
        .fold(ends, |mask, f| mask | 1 << f)
}
