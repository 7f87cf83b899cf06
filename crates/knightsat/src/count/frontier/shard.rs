//! A thread's share of a step's states: a table in memory, or, once the
//! tables would pass the memory budget, files on disk (see `spill`).

use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};
use crate::count::frontier::spill::{Buckets, SpillDir, SpillFile};
use crate::count::frontier::table::{Table, TableError};
use crate::count::frontier::FrontierError;

/// One thread's states of a step.
pub(crate) enum Shard<'b, K: Key, C: Count> {
    /// In a table.
    Held(Table<'b, K, C>),
    /// In files, each state in one of them once.
    Spilled(Vec<SpillFile>),
}

/// Maps a table's error to the count's; `limit` is the memory budget.
pub(crate) fn table_error(e: TableError, limit: u64) -> FrontierError {
    match e {
        TableError::Overflow => FrontierError::Overflow,
        TableError::OverMemory(needed) => FrontierError::OverMemory {
            needed,
            budget: limit,
        },
    }
}

impl<'b, K: Key, C: Count> Shard<'b, K, C> {
    /// The states held.
    pub(crate) fn len(&self) -> usize {
        match self {
            Shard::Held(table) => table.len(),
            Shard::Spilled(files) => records(files),
        }
    }

    /// Every count summed (saturating at `u128::MAX`).
    pub(crate) fn total(&self) -> u128 {
        match self {
            Shard::Held(table) => table.total(),
            Shard::Spilled(files) => files
                .iter()
                .fold(0u128, |total, file| total.saturating_add(file.total())),
        }
    }

    /// Calls `f` on every (state, count) pair, up to its first error; with
    /// `free` each part of a table or file is given back (to the budget, or
    /// removed) as soon as it has been read, and the shard left empty.
    pub(crate) fn read(
        &mut self,
        free: bool,
        mut f: impl FnMut(K, C) -> Result<(), FrontierError>,
    ) -> Result<(), FrontierError> {
        match self {
            Shard::Held(table) => table.read(free, f),
            Shard::Spilled(files) if free => {
                while let Some(file) = files.pop() {
                    file.read(&mut f)?;
                }
                Ok(())
            }
            Shard::Spilled(files) => files.iter().try_for_each(|file| file.read(&mut f)),
        }
    }

    /// The states in a table charged to `budget` (files read in and
    /// removed).
    pub(crate) fn into_table(self, budget: &'b Budget) -> Result<Table<'b, K, C>, FrontierError> {
        match self {
            Shard::Held(table) => Ok(table),
            Shard::Spilled(mut files) => {
                let limit = budget.limit();
                let err = |e| table_error(e, limit);
                let mut table = Table::with_expected(records(&files), budget).map_err(err)?;
                while let Some(file) = files.pop() {
                    file.read(|key: K, count: C| table.add(key, key.hash(), count).map_err(err))?;
                }
                Ok(table)
            }
        }
    }

    /// The same states with counts of type `D` (files written again).
    pub(crate) fn widen<D: Count>(
        self,
        budget: &'b Budget,
        spill: Option<&SpillDir>,
    ) -> Result<Shard<'b, K, D>, FrontierError> {
        let limit = budget.limit();
        let err = |e| table_error(e, limit);
        let wider = |count: C| D::from_wide(count.to_wide()).ok_or(FrontierError::Overflow);
        match (self, spill) {
            (Shard::Held(table), _) => {
                let mut out = Table::with_expected(table.len(), budget).map_err(err)?;
                for (key, count) in table.iter() {
                    out.add(key, key.hash(), wider(count)?).map_err(err)?;
                }
                Ok(Shard::Held(out))
            }
            (Shard::Spilled(files), Some(dir)) => {
                let mut out = Vec::with_capacity(files.len());
                for file in files {
                    out.push(SpillFile::rewrite(dir, &file, |key: K, count: C| {
                        Ok((key, wider(count)?))
                    })?);
                }
                Ok(Shard::Spilled(out))
            }
            // Only a count that spills has files.
            (Shard::Spilled(_), None) => Err(FrontierError::Overflow),
        }
    }
}

/// The records of `files`.
fn records(files: &[SpillFile]) -> usize {
    files
        .iter()
        .map(|file| usize::try_from(file.states()).unwrap_or(usize::MAX))
        .fold(0, usize::saturating_add)
}

/// A thread's states of the next step as they are made: a table, emptied
/// into buckets on disk whenever it would pass the budget (when there is
/// a directory to spill into).
pub(crate) struct Output<'b, K: Key, C: Count> {
    table: Table<'b, K, C>,
    spill: Option<SpillDir>,
    /// The most states the table holds before it spills, whatever the
    /// budget (see [`SpillDir::eager_above`]).
    eager_above: Option<usize>,
    /// The bytes of the budget this thread's table may take.
    share: u64,
    /// Additions between two looks at the table's size, and until the
    /// next.
    check_every: usize,
    until_check: usize,
    /// The budget's [`Budget::pressed`] when this table last emptied.
    pressed: u64,
    buckets: Option<Buckets>,
    budget: &'b Budget,
}

impl<'b, K: Key, C: Count> Output<'b, K, C> {
    /// An empty output, one of `threads`, with room for about `expected`
    /// states, or as many as a quarter of what the budget has left.
    pub(crate) fn new(
        expected: usize,
        budget: &'b Budget,
        spill: Option<&SpillDir>,
        threads: usize,
    ) -> Result<Self, FrontierError> {
        let cell = std::mem::size_of::<(K, C)>() as u64;
        let share = budget.limit() / threads.max(1) as u64;
        let check_every = usize::try_from(share / cell / 8)
            .unwrap_or(usize::MAX)
            .clamp(1, 4096);
        // Sized for `expected` where the budget allows, as without a
        // directory; else for what is left of this thread's share; else
        // as small as a table can be: the input (freed as it is read) or
        // another thread's table holds the room for now.
        let table = match (Table::with_expected(expected, budget), spill) {
            (Err(TableError::OverMemory(_)), Some(_)) => {
                let room = Table::<K, C>::states_within(share.min(budget.left()));
                Table::with_expected(expected.min(room), budget)
                    .unwrap_or_else(|_| Table::smallest(budget))
            }
            (table, _) => table.map_err(|e| table_error(e, budget.limit()))?,
        };
        Ok(Output {
            share,
            check_every,
            until_check: check_every,
            pressed: budget.pressed(),
            table,
            spill: spill.cloned(),
            eager_above: spill.and_then(SpillDir::eager_above),
            buckets: None,
            budget,
        })
    }

    /// Adds `count` to the state `key` (of hash `hash`), soon.
    #[inline]
    pub(crate) fn add(&mut self, key: K, hash: u64, count: C) -> Result<(), FrontierError> {
        match self.table.add_soon(key, hash, count) {
            Err(TableError::OverMemory(_)) if self.spill.is_some() => {
                self.empty_to_disk()?;
                self.add_once_there_is_room(key, hash, count)
            }
            Ok(()) if self.eager_above.is_some_and(|most| self.table.len() > most) => {
                self.empty_to_disk()
            }
            Ok(()) if self.spill.is_some() => {
                // Each thread's table keeps to its share, so that one
                // thread emptying its own makes room for it to go on.
                self.until_check -= 1;
                if self.until_check == 0 {
                    self.until_check = self.check_every;
                    let pressed = self.budget.pressed();
                    if self.table.bytes() > self.share || pressed != self.pressed {
                        self.pressed = pressed;
                        return self.empty_to_disk();
                    }
                }
                Ok(())
            }
            added => added.map_err(|e| table_error(e, self.budget.limit())),
        }
    }

    /// Adds to the table just emptied; where other threads' tables leave
    /// no room, asks them to empty theirs and waits for them (for up to
    /// a few seconds: a table they no longer add to is given back soon).
    fn add_once_there_is_room(&mut self, key: K, hash: u64, count: C) -> Result<(), FrontierError> {
        let alone = self.share >= self.budget.limit();
        let table = &mut self.table;
        let added = self.budget.wait_for_room(
            || table.add_soon(key, hash, count),
            |e| !alone && matches!(e, TableError::OverMemory(_)),
        );
        self.pressed = self.budget.pressed();
        added.map_err(|e| table_error(e, self.budget.limit()))
    }

    /// Moves every state of the table to the buckets.
    fn empty_to_disk(&mut self) -> Result<(), FrontierError> {
        let Some(dir) = &self.spill else {
            return Ok(());
        };
        self.buckets
            .get_or_insert_with(|| Buckets::new(dir))
            .drain(&mut self.table)
    }

    /// The states made: the table, or, once it has spilled, the merged
    /// buckets' files.
    pub(crate) fn finish(mut self) -> Result<Shard<'b, K, C>, FrontierError> {
        match self.table.flush() {
            Err(TableError::OverMemory(_)) if self.spill.is_some() => self.empty_to_disk()?,
            flushed => flushed.map_err(|e| table_error(e, self.budget.limit()))?,
        }
        match self.buckets.take() {
            None => Ok(Shard::Held(self.table)),
            Some(mut buckets) => {
                buckets.drain(&mut self.table)?;
                drop(self.table);
                Ok(Shard::Spilled(
                    buckets.merge::<K, C>(self.budget, self.share)?,
                ))
            }
        }
    }
}
