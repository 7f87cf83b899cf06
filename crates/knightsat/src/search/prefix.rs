//! Counting the tours that begin with given prefixes, by the same walk as
//! backtracking's, without building or verifying each tour, and
//! remembering between prefixes how the states met end (what counting
//! cube by cube runs on).

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault};
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHasher;

use super::backtrack::{Memo, State, Walk};
use crate::graph::MoveGraph;
use crate::model::problem::Problem;
use crate::runtime::deadline::Deadline;
use crate::runtime::interrupt::Interrupt;

/// Counts the tours that begin with each of many prefixes of one problem,
/// remembering between prefixes how many ways
/// the last [`REMEMBERED_LEFT`](super::backtrack::REMEMBERED_LEFT) squares can be completed from each state
/// it met (the squares visited and the knight's square determine that
/// number): different prefixes end in the same few states. One counter
/// serves every thread: what one thread works out, the others look up.
pub struct PrefixCounter {
    rooted: Problem,
    /// The rooted problem's move graph.
    moves: MoveGraph,
    /// Completions by state, in shards (by the state's hash) that threads
    /// lock one at a time.
    shards: Vec<Mutex<Completions>>,
}

/// Completions by state: the nodes visited (a bit each), the head, and for
/// a closed tour the start (whose neighbours the virtual last square joins).
/// Hashed by `FxHash` (`rustc-hash`): the standard library's hash resists
/// attacks that do not concern a count, at several times the cost.
type Completions = HashMap<State, u64, BuildHasherDefault<FxHasher>>;

/// The most states remembered (about 66 bytes each with the table's room
/// to grow, so 280 MB in all): beyond it a shard is emptied and filled
/// again.
const MAX_REMEMBERED: usize = 1 << 22;

/// The shards of the table: enough that threads seldom wait for each other.
const SHARDS: usize = 64;

impl PrefixCounter {
    /// A counter for the tours of `problem`, rooted as
    /// [`each_tour_keeping`](super::backtrack::each_tour_keeping) lists them.
    pub(crate) fn new(problem: &Problem) -> PrefixCounter {
        let rooted = problem.rooted();
        PrefixCounter {
            moves: MoveGraph::new(rooted.board()),
            rooted,
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    /// How many tours of the problem, rooted as the listing of every tour
    /// takes them, begin with `prefix` (the squares after 0, 1, … moves):
    /// counted by the same search from the prefix's last square, without
    /// building or verifying each tour, which is what makes counting fast.
    /// A closed tour with nothing anchored is rooted on its default start,
    /// so a prefix starting elsewhere has none, and each tour counts once
    /// (not once per rotation, as the listing's caller reports it). A
    /// prefix that is no legal start of a tour (not joined by moves,
    /// repeating a square, against a clue) has none either. The prefixes of
    /// one length, over all legal ones, share out the tours: their counts
    /// add up to the number the listing finds. `None` once `stop` is raised
    /// (checked every few thousand steps): a count cut short is no count.
    pub(crate) fn count_unless_stopped(&self, prefix: &[usize], stop: &Interrupt) -> Option<u64> {
        let n = self.rooted.board().squares();
        let Some(&first) = prefix.first() else {
            return Some(0);
        };
        if first >= n || self.rooted.start().is_some_and(|start| start != first) {
            return Some(0);
        }
        let Some(mut graph) = Walk::new(&self.rooted, &self.moves, first) else {
            return Some(0);
        };
        graph.ordered = false;
        if graph.length > 128 {
            // No state fits a key: count without remembering, the walk
            // watching the flag every few thousand steps as it goes (a
            // tour may be a long way off on a large board).
            let mut found = 0u64;
            let watch = Deadline::new(None).interrupted_by(stop);
            let walked = graph.walks_from(prefix, &watch, &mut |_, _| true, &mut |_| {
                found += 1;
                Ok(ControlFlow::Continue(()))
            });
            return matches!(walked, Ok(ControlFlow::Continue(()))).then_some(found);
        }
        let start = if self.rooted.is_closed() {
            first as u32
        } else {
            0
        };
        graph.count_from(prefix, start, self, stop)
    }

    fn shard(&self, state: &State) -> std::sync::MutexGuard<'_, Completions> {
        let hash = BuildHasherDefault::<FxHasher>::default().hash_one(state);
        // The high bits: the table's own buckets use the low ones.
        let shard = &self.shards[(hash >> 58) as usize % SHARDS];
        shard.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The completions of states, shared by every thread counting prefixes.
impl Memo for PrefixCounter {
    /// The completions remembered for `state`, if any.
    fn recall(&self, state: &State) -> Option<u64> {
        self.shard(state).get(state).copied()
    }

    /// Remembers the completions of `state`.
    fn remember(&self, state: State, completions: u64) {
        let mut shard = self.shard(&state);
        if shard.len() >= MAX_REMEMBERED / SHARDS {
            shard.clear();
        }
        shard.insert(state, completions);
    }
}
