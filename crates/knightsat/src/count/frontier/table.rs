//! An open-addressing hash table from packed states to counts, with linear
//! probing, power-of-two capacity and a load of at most 3/4. Its memory is
//! charged to a [`Budget`] shared by every table alive at once, so a count
//! that would need more memory than allowed stops with an error instead of
//! growing without bound.

use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};

/// Why an insertion failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableError {
    /// A count no longer fits its type.
    Overflow,
    /// Growing the table would take the total past the budget; the total
    /// that would have been needed.
    OverMemory(u64),
}

/// States and their counts, split by hash into blocks of about
/// [`BLOCK_BYTES`] each so that one block fits in a core's cache.
///
/// A table of a large step takes gigabytes, and adding to it at random
/// waited on memory for most of the step (a probe per successor, hundreds
/// of nanoseconds each). [`Table::add_soon`] instead appends a successor
/// to its block's short list, and a full list is added to its block at once:
/// one block's cells, touched by a burst of additions, stay in the cache
/// (Manegold, Boncz and Kersten's radix clustering, applied to hash
/// aggregation).
pub(crate) struct Table<'b, K: Key, C: Count> {
    blocks: Vec<Block<K, C>>,
    /// Additions waiting for their block, one list per block.
    pending: Vec<Vec<(K, C)>>,
    /// Every count added, summed (saturating at `u128::MAX`).
    total: u128,
    budget: &'b Budget,
}

/// Bytes of cells a block aims at: half of this machine's per-core L2
/// cache, leaving room for the lists being added.
const BLOCK_BYTES: u64 = 512 << 10;
/// The most blocks a table is split into.
const MAX_BLOCKS: usize = 1 << 12;
/// Additions a block's list holds before they are made.
const PENDING: usize = 128;
/// The hash bits that choose a block: above those a block's cells are
/// indexed by, below those that choose a thread's shard.
const BLOCK_SHIFT: u32 = 40;

impl<'b, K: Key, C: Count> Table<'b, K, C> {
    /// An empty table with room for about `expected` states (charged to
    /// `budget`).
    pub(crate) fn with_expected(expected: usize, budget: &'b Budget) -> Result<Self, TableError> {
        let bytes = cell_bytes::<K, C>(capacity_for(expected));
        let blocks = usize::try_from(bytes / BLOCK_BYTES)
            .unwrap_or(MAX_BLOCKS)
            .clamp(1, MAX_BLOCKS)
            .next_power_of_two();
        let mut table = Table {
            blocks: Vec::with_capacity(blocks),
            pending: Vec::new(),
            total: 0,
            budget,
        };
        if blocks > 1 {
            let lists = cell_bytes::<K, C>(blocks * PENDING);
            budget.take(lists).map_err(TableError::OverMemory)?;
            table.pending = (0..blocks).map(|_| Vec::with_capacity(PENDING)).collect();
        }
        for _ in 0..blocks {
            table
                .blocks
                .push(Block::with_expected(expected / blocks, budget)?);
        }
        Ok(table)
    }

    /// The most states to size a new table for so that it takes at most
    /// two thirds of `bytes` (its cells are a power of two at a load of at
    /// most 3/4: up to 8/3 cells a state).
    pub(crate) fn states_within(bytes: u64) -> usize {
        usize::try_from(bytes / cell_bytes::<K, C>(1).max(1) / 4).unwrap_or(usize::MAX)
    }

    /// An empty table of one small block, charged to `budget` even past
    /// its limit (a few hundred bytes that must be had to go on).
    pub(crate) fn smallest(budget: &'b Budget) -> Self {
        let cells = capacity_for(0);
        budget.charge(cell_bytes::<K, C>(cells));
        Table {
            blocks: vec![Block {
                cells: vec![(K::VACANT, C::default()); cells],
                len: 0,
            }],
            pending: Vec::new(),
            total: 0,
            budget,
        }
    }

    /// The sum of every count added (so of the counts held, once the
    /// waiting additions are made), or `u128::MAX` if it is larger.
    pub(crate) fn total(&self) -> u128 {
        self.total
    }

    /// Number of states held (additions still waiting aside).
    pub(crate) fn len(&self) -> usize {
        self.blocks.iter().map(|block| block.len).sum()
    }

    /// Bytes the table takes: a sum over its blocks (up to
    /// [`MAX_BLOCKS`]), so not for every addition.
    pub(crate) fn bytes(&self) -> u64 {
        let cells: usize = self.blocks.iter().map(|block| block.cells.len()).sum();
        cell_bytes::<K, C>(cells + self.pending.len() * PENDING)
    }

    /// The block a hash belongs to.
    #[inline]
    fn block_of(&self, hash: u64) -> usize {
        #[allow(clippy::cast_possible_truncation)]
        let block = (hash >> BLOCK_SHIFT) as usize & (self.blocks.len() - 1);
        block
    }

    /// Adds `count` to the state `key` (whose hash is `hash`), inserting it
    /// if new.
    #[inline]
    pub(crate) fn add(&mut self, key: K, hash: u64, count: C) -> Result<(), TableError> {
        let block = self.block_of(hash);
        self.blocks[block].add(key, hash, count, self.budget)?;
        self.total = self.total.saturating_add(count.saturating_u128());
        Ok(())
    }

    /// Adds `count` to the state `key` as [`Table::add`] does, now or at
    /// the latest at [`Table::flush`]. When the table would pass its
    /// budget, the addition is not made ([`TableError::OverMemory`]), so
    /// that it can be made again once the table is emptied.
    #[inline]
    pub(crate) fn add_soon(&mut self, key: K, hash: u64, count: C) -> Result<(), TableError> {
        if self.blocks.len() == 1 {
            return self.add(key, hash, count);
        }
        let block = self.block_of(hash);
        let list = &mut self.pending[block];
        list.push((key, count));
        if list.len() == PENDING {
            if let Err(e) = self.blocks[block].add_all(list, self.budget) {
                // `add_all` makes room before it adds anything: the list
                // is whole, and this addition its last.
                list.pop();
                return Err(e);
            }
        }
        self.total = self.total.saturating_add(count.saturating_u128());
        Ok(())
    }

    /// Hands every state held, and every addition still waiting, to `f`
    /// (a state may come more than once, its counts to be added), and
    /// leaves the table empty with its memory back in the budget but for
    /// one small block.
    pub(crate) fn drain<E>(&mut self, mut f: impl FnMut(K, C) -> Result<(), E>) -> Result<(), E> {
        let mut drained = Ok(());
        for list in &mut self.pending {
            for (key, count) in list.drain(..) {
                if drained.is_ok() {
                    drained = f(key, count);
                }
            }
        }
        let blocks = self.blocks.len();
        while let Some(block) = self.blocks.pop() {
            if drained.is_ok() {
                drained = block
                    .cells
                    .iter()
                    .filter(|(key, _)| *key != K::VACANT)
                    .try_for_each(|&(key, count)| f(key, count));
            }
            self.budget.give(cell_bytes::<K, C>(block.cells.len()));
        }
        // The lists stay (charged since the table was made), and the blocks
        // are as many again, a cell each: charged even past the limit, so
        // that emptying a table never fails.
        self.blocks = (0..blocks)
            .map(|_| Block {
                cells: vec![(K::VACANT, C::default()); 1],
                len: 0,
            })
            .collect();
        self.budget.charge(cell_bytes::<K, C>(blocks));
        self.total = 0;
        drained
    }

    /// Makes every addition still waiting.
    pub(crate) fn flush(&mut self) -> Result<(), TableError> {
        for (block, list) in self.blocks.iter_mut().zip(&mut self.pending) {
            block.add_all(list, self.budget)?;
        }
        Ok(())
    }

    /// Calls `f` on every (state, count) pair, in no particular order
    /// (additions still waiting aside), up to its first error. With `free`
    /// each block's memory goes back to the budget as soon as the block has
    /// been read, and the table is left empty.
    pub(crate) fn read<E>(
        &mut self,
        free: bool,
        mut f: impl FnMut(K, C) -> Result<(), E>,
    ) -> Result<(), E> {
        if !free {
            return self.iter().try_for_each(|(key, count)| f(key, count));
        }
        while let Some(block) = self.blocks.pop() {
            let read = block
                .cells
                .iter()
                .filter(|(key, _)| *key != K::VACANT)
                .try_for_each(|&(key, count)| f(key, count));
            self.budget.give(cell_bytes::<K, C>(block.cells.len()));
            read?;
        }
        Ok(())
    }

    /// Every (state, count) pair, in no particular order (additions still
    /// waiting aside).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (K, C)> + '_ {
        self.blocks
            .iter()
            .flat_map(|block| block.cells.iter().copied().filter(|(k, _)| *k != K::VACANT))
    }
}

impl<K: Key, C: Count> Drop for Table<'_, K, C> {
    fn drop(&mut self) {
        self.budget.give(self.bytes());
    }
}

/// One block of a [`Table`]: an open-addressing array with linear probing,
/// power-of-two capacity and a load of at most 3/4, each state next to its
/// count (one cache line to touch per addition).
struct Block<K: Key, C: Count> {
    cells: Vec<(K, C)>,
    len: usize,
}

impl<K: Key, C: Count> Block<K, C> {
    /// An empty block with room for about `expected` states, charged to
    /// `budget`.
    fn with_expected(expected: usize, budget: &Budget) -> Result<Self, TableError> {
        let cells = capacity_for(expected);
        budget
            .take(cell_bytes::<K, C>(cells))
            .map_err(TableError::OverMemory)?;
        Ok(Block {
            cells: vec![(K::VACANT, C::default()); cells],
            len: 0,
        })
    }

    /// Adds `count` to `key`'s cell, growing first if the load would pass
    /// 3/4.
    #[inline]
    fn add(&mut self, key: K, hash: u64, count: C, budget: &Budget) -> Result<(), TableError> {
        self.make_room(1, budget)?;
        self.insert(key, hash, count)
    }

    /// Adds every (state, count) of `list` and empties it, asking for each
    /// cell a few additions before it is written.
    fn add_all(&mut self, list: &mut Vec<(K, C)>, budget: &Budget) -> Result<(), TableError> {
        const AHEAD: usize = 8;
        // Room first, so that no cell moves between its prefetch and its
        // addition.
        self.make_room(list.len(), budget)?;
        debug_assert!(list.len() <= PENDING);
        let mut hashes = [0u64; PENDING];
        for (hash, (key, _)) in hashes.iter_mut().zip(list.iter()) {
            *hash = key.hash();
        }
        let hashes = &hashes[..list.len()];
        for (i, &(key, count)) in list.iter().enumerate() {
            if let Some(&ahead) = hashes.get(i + AHEAD) {
                self.prefetch(ahead);
            }
            self.insert(key, hashes[i], count)?;
        }
        list.clear();
        Ok(())
    }

    /// Grows until `more` new states fit below the 3/4 load.
    fn make_room(&mut self, more: usize, budget: &Budget) -> Result<(), TableError> {
        while (self.len + more) * 4 > self.cells.len() * 3 {
            self.grow(budget)?;
        }
        Ok(())
    }

    /// Adds `count` to `key`'s cell, taking a vacant one if it is new;
    /// there must be one.
    #[inline]
    fn insert(&mut self, key: K, hash: u64, count: C) -> Result<(), TableError> {
        let mask = self.cells.len() - 1;
        #[allow(clippy::cast_possible_truncation)]
        let mut i = hash as usize & mask;
        loop {
            let cell = &mut self.cells[i];
            if cell.0 == key {
                cell.1 = cell.1.checked_add(count).ok_or(TableError::Overflow)?;
                return Ok(());
            }
            if cell.0 == K::VACANT {
                *cell = (key, count);
                self.len += 1;
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to bring the cell where `hash` starts its probe
    /// into the cache.
    #[inline]
    fn prefetch(&self, hash: u64) {
        #[allow(clippy::cast_possible_truncation)]
        let i = hash as usize & (self.cells.len() - 1);
        #[cfg(target_arch = "x86_64")]
        {
            let cell: *const (K, C) = &raw const self.cells[i];
            // SAFETY: a prefetch is only a hint; it never faults, and the
            // address is that of a live cell.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(cell.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Doubles the capacity, rehashing every state.
    fn grow(&mut self, budget: &Budget) -> Result<(), TableError> {
        let cells = self.cells.len() * 2;
        budget
            .take(cell_bytes::<K, C>(cells))
            .map_err(TableError::OverMemory)?;
        let old = std::mem::replace(&mut self.cells, vec![(K::VACANT, C::default()); cells]);
        let mask = cells - 1;
        for &(k, c) in &old {
            if k == K::VACANT {
                continue;
            }
            #[allow(clippy::cast_possible_truncation)]
            let mut i = k.hash() as usize & mask;
            while self.cells[i].0 != K::VACANT {
                i = (i + 1) & mask;
            }
            self.cells[i] = (k, c);
        }
        budget.give(cell_bytes::<K, C>(old.len()));
        Ok(())
    }
}

/// Bytes for `cells` cells of states `K` with counts `C`.
fn cell_bytes<K, C>(cells: usize) -> u64 {
    (cells as u64).saturating_mul(std::mem::size_of::<(K, C)>() as u64)
}

/// The power-of-two number of cells that holds `expected` states below
/// the 3/4 load (at least 16).
fn capacity_for(expected: usize) -> usize {
    (expected.saturating_mul(4) / 3 + 1)
        .max(16)
        .checked_next_power_of_two()
        .unwrap_or(1 << (usize::BITS - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::packing::{Base12, BASE12_SLOTS};

    /// Equal keys merge by adding their counts, through growth.
    #[test]
    fn equal_states_merge_and_survive_growth() {
        let budget = Budget::new(u64::MAX);
        let mut t: Table<u64, u64> = Table::with_expected(0, &budget).unwrap();
        for round in 0..3 {
            for k in 0..1000u64 {
                t.add(k, k.hash(), k + round).unwrap();
            }
        }
        assert_eq!(t.len(), 1000);
        let total: u64 = t.iter().map(|(_, c)| c).sum();
        assert_eq!(total, 3 * (999 * 1000 / 2) + 3 * 1000);
        assert_eq!(budget.used(), t.bytes());
        drop(t);
        assert_eq!(budget.used(), 0);
    }

    /// A table split into blocks holds what one array would: every key
    /// once, its counts summed, whether added at once or through the
    /// blocks' waiting lists, across growth of the blocks; and its bytes are
    /// what it charged to the budget.
    #[test]
    fn a_table_in_blocks_sums_as_a_map_does() {
        let budget = Budget::new(u64::MAX);
        let mut t: Table<u64, u64> = Table::with_expected(100_000, &budget).unwrap();
        assert!(t.blocks.len() > 1, "{}", t.blocks.len());
        let mut want = std::collections::HashMap::new();
        let mut rng = fastrand::Rng::with_seed(7);
        for i in 0..600_000u64 {
            let key = rng.u64(..300_000) * 0x9e37_79b9;
            if i % 3 == 0 {
                t.add(key, key.hash(), i).unwrap();
            } else {
                t.add_soon(key, key.hash(), i).unwrap();
            }
            *want.entry(key).or_insert(0) += i;
        }
        t.flush().unwrap();
        assert_eq!(t.len(), want.len());
        assert_eq!(t.total(), want.values().map(|&c| u128::from(c)).sum());
        let got: std::collections::HashMap<u64, u64> = t.iter().collect();
        assert_eq!(got, want);
        assert_eq!(budget.used(), t.bytes());
        // Read once more, freeing as it goes: the same pairs, then nothing
        // held but the waiting lists.
        let mut read = std::collections::HashMap::new();
        t.read(true, |key, count| {
            read.insert(key, count);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(read, want);
        assert_eq!((t.len(), t.iter().count()), (0, 0));
        assert_eq!(budget.used(), t.bytes());
        drop(t);
        assert_eq!(budget.used(), 0);
    }

    /// A base-12 key gives back the word it was made of, for every code a
    /// frontier of 17 slots can hold (below 12) and every count of used
    /// ends (so distinct words make distinct keys), and no word makes the
    /// vacant key.
    #[test]
    fn base12_keys_round_trip() {
        let mut rng = fastrand::Rng::with_seed(12);
        for i in 0..20_000 {
            let mut word = u128::from(rng.u8(..3)) << 126;
            for slot in 0..BASE12_SLOTS {
                let code = if i == 0 { 11 } else { rng.u8(..12) };
                word |= u128::from(code) << (4 * slot);
            }
            let key = Base12::from_word(word);
            assert_ne!(key, Base12::VACANT);
            assert_eq!(key.to_word(), word, "{word:#x}");
        }
        assert_eq!(Base12::from_u128(0).to_word(), 0);
    }

    /// A count past its type is an error, never a wrap.
    #[test]
    fn overflow_is_reported() {
        let budget = Budget::new(u64::MAX);
        let mut t: Table<u64, u64> = Table::with_expected(4, &budget).unwrap();
        t.add(7, 7u64.hash(), u64::MAX).unwrap();
        assert_eq!(t.add(7, 7u64.hash(), 1), Err(TableError::Overflow));
    }

    /// Growing past the budget is refused with the bytes it would need.
    #[test]
    fn budget_is_enforced() {
        let budget = Budget::new(16 * 16 + 100);
        let mut t: Table<u64, u64> = Table::with_expected(0, &budget).unwrap();
        let mut err = None;
        for k in 0..100u64 {
            if let Err(e) = t.add(k, k.hash(), 1) {
                err = Some(e);
                break;
            }
        }
        assert_eq!(err, Some(TableError::OverMemory(16 * 16 + 32 * 16)));
    }
}
