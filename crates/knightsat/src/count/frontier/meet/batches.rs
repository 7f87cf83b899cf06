//! The batches: when the half steps' tables grow past a share of the
//! budget, their states split by the degrees the half steps have fixed,
//! each batch waiting as a list until it is counted on its own (not a
//! part of `count --part`, which splits the count between processes).

use super::cut::{Needs, Reading};
use crate::count::frontier::budget::Budget;
use crate::count::frontier::engine::{shard_of, table_error};
use crate::count::frontier::packing::{mix, Key};
use crate::count::frontier::state::Word;
use crate::count::frontier::table::{Table, TableError};
use crate::count::frontier::{Batch, FrontierError};
use crate::count::number::Wide;

/// The share of the memory budget past which the half steps' tables are
/// split into batches: an eighth, so that the tables of the next half step
/// (which grew up to 1.8 times a step on 8x9) and the batches waiting fit.
pub(super) const SPLIT_SHARE: u64 = 8;

/// The batches of the half steps' states: how many have been started, and
/// the rest, each with the half step it resumes at.
pub(super) struct Batches<'b, K: Key> {
    pub(super) started: usize,
    pub(super) waiting: Vec<(usize, WaitingBatch<'b, K>)>,
    /// The cycles or paths of the batches joined so far.
    pub(super) joined: Wide,
    /// The states the batch being counted began with.
    pub(super) began_with: usize,
}

impl<K: Key> Batches<'_, K> {
    /// The batch being counted, once the states have been split into more
    /// than one.
    pub(super) fn label(&self) -> Option<Batch> {
        let made = self.started + self.waiting.len();
        (made > 1).then(|| Batch {
            under_way: self.started,
            made,
            began_with: self.began_with,
            waiting: self
                .waiting
                .iter()
                .map(|(_, batch)| batch.states().len())
                .sum(),
        })
    }
}

/// Some of the half steps' states, waiting as a list charged to the
/// budget.
pub(super) struct WaitingBatch<'b, K: Key> {
    states: Vec<(K, u64)>,
    budget: &'b Budget,
}

impl<'b, K: Key> WaitingBatch<'b, K> {
    /// The bytes a list with room for `len` states takes.
    fn bytes(len: usize) -> u64 {
        (len * std::mem::size_of::<(K, u64)>()) as u64
    }

    /// An empty list with room for `len` states, charged to `budget`.
    pub(super) fn with_room(len: usize, budget: &'b Budget) -> Result<Self, FrontierError> {
        let states = Vec::with_capacity(len);
        budget
            .take(Self::bytes(states.capacity()))
            .map_err(|needed| table_error(TableError::OverMemory(needed), budget.limit()))?;
        Ok(WaitingBatch { states, budget })
    }

    /// Adds a state to a list [with room](Self::with_room) for it.
    pub(super) fn push(&mut self, key: K, count: u64) {
        debug_assert!(self.states.len() < self.states.capacity());
        self.states.push((key, count));
    }

    /// The states and their counts.
    pub(super) fn states(&self) -> &[(K, u64)] {
        &self.states
    }

    /// The states of `tables` (their slots the cut's squares numbered
    /// `at`) in `batches` lists by a hash of the degrees of the cut's squares
    /// added so far, the tables freed as they are read.
    pub(super) fn split(
        mut tables: Vec<Table<'b, K, u64>>,
        at: &[Option<usize>],
        batches: u64,
        budget: &'b Budget,
        reading: Reading,
    ) -> Result<Vec<Self>, FrontierError> {
        let mut lists: Vec<Vec<(K, u64)>> = (0..batches).map(|_| Vec::new()).collect();
        let mut charged = 0u64;
        let needs = Needs::new(at, reading);
        for table in &mut tables {
            table.read(true, |key, count| {
                let degrees = needs.of(key.to_word().wide());
                #[allow(clippy::cast_possible_truncation)]
                let list = &mut lists[(mix(degrees) % batches) as usize];
                if list.len() == list.capacity() {
                    let more = Self::bytes(list.capacity().max(4096));
                    budget.take(more).map_err(|needed| {
                        table_error(TableError::OverMemory(needed), budget.limit())
                    })?;
                    charged += more;
                    list.reserve_exact(list.capacity().max(4096));
                }
                list.push((key, count));
                Ok::<(), FrontierError>(())
            })?;
        }
        // Charged again below by each batch's own capacity.
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
                Ok(WaitingBatch { states, budget })
            })
            .collect()
    }

    /// The batch as tables, one a thread, each state in its hash's shard;
    /// the list is freed.
    pub(super) fn tables(
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

impl<K: Key> Drop for WaitingBatch<'_, K> {
    fn drop(&mut self) {
        self.budget.give(Self::bytes(self.states.capacity()));
    }
}
