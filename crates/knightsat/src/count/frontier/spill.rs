//! States kept on disk: when a step's table would pass the memory budget,
//! its states go to files, split by their hash into buckets small enough
//! to merge in memory one at a time (external hash aggregation, as
//! Stertenbrink's sweep and the 9x10 closed count kept their partial tours
//! in files).
//!
//! Every file lives in one directory of the count's own, made at the first
//! need inside the directory the caller names and registered for the
//! clean-up a signal starts; each file is removed as soon as it has been
//! read for the last time, and the directory when the count ends, however
//! it ends. A count killed outright (SIGKILL) cannot: its directory is
//! named by its process id, and the next count that spills into the same
//! place removes it once no process of that id exists.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};
use crate::count::frontier::table::{Table, TableError};
use crate::count::frontier::FrontierError;
use crate::runtime::cleanup::{clear_dead_dirs, owned_prefix, TempPath};
use crate::runtime::stop::Stop;

/// Buckets a spilled table is split into at each level.
const BUCKETS: usize = 16;
/// How often a bucket too large to merge in memory is split again.
const MAX_LEVEL: u32 = 5;
/// Bytes of a file's buffer.
const BUFFER: usize = 1 << 16;
/// How a count's own directory is named: the prefix, the process's id, a
/// dash, then random letters.
const PREFIX: &str = "knightsat-states-";

/// Where a count keeps the states that do not fit in memory.
#[derive(Clone)]
pub(crate) struct SpillDir(Arc<Inner>);

struct Inner {
    /// The directory the caller named.
    parent: PathBuf,
    /// The count's own directory in it, once made.
    made: Mutex<Option<(tempfile::TempDir, TempPath)>>,
    /// Files named so far.
    named: AtomicU64,
    /// Bytes in files now, and the most there were at once.
    on_disk: AtomicU64,
    most: AtomicU64,
    /// Spill a table once it holds more states than this, whatever the
    /// budget (so that tests spill on boards of a few states).
    eager_above: Option<usize>,
    /// The count's stop flag: reading a file, the longest work on the
    /// files (a step's merge of tens of gigabytes takes minutes), ends
    /// with [`FrontierError::Stopped`] once it is raised.
    stop: Option<Stop>,
}

impl SpillDir {
    /// Spills into a directory made inside `parent` when first needed,
    /// with no stop flag (for tests).
    #[cfg(test)]
    pub(crate) fn new(parent: &Path) -> SpillDir {
        SpillDir::made(parent, None)
    }

    /// Spills into a directory made inside `parent` when first needed,
    /// its files' reading ending once `stop` is raised.
    pub(crate) fn stopped_by(parent: &Path, stop: &Stop) -> SpillDir {
        SpillDir::made(parent, Some(stop.clone()))
    }

    fn made(parent: &Path, stop: Option<Stop>) -> SpillDir {
        SpillDir(Arc::new(Inner {
            parent: parent.to_path_buf(),
            made: Mutex::new(None),
            named: AtomicU64::new(0),
            on_disk: AtomicU64::new(0),
            most: AtomicU64::new(0),
            eager_above: None,
            stop,
        }))
    }

    /// [`FrontierError::Stopped`] once the count's stop flag is raised.
    fn check_stop(&self) -> Result<(), FrontierError> {
        match &self.0.stop {
            Some(stop) if stop.is_stopped() => Err(FrontierError::Stopped),
            _ => Ok(()),
        }
    }

    /// Spills into a directory made inside `parent`, and spills any table
    /// as soon as it holds more than `states` states.
    #[cfg(test)]
    pub(crate) fn eager(parent: &Path, states: usize) -> SpillDir {
        let mut dir = SpillDir::new(parent);
        if let Some(inner) = Arc::get_mut(&mut dir.0) {
            inner.eager_above = Some(states);
        }
        dir
    }

    /// The most states a table holds before it spills whatever the
    /// budget, if set.
    pub(crate) fn eager_above(&self) -> Option<usize> {
        self.0.eager_above
    }

    /// Bytes in the count's files now.
    pub(crate) fn on_disk(&self) -> u64 {
        self.0.on_disk.load(Ordering::Relaxed)
    }

    /// The most bytes the count's files took at once.
    pub(crate) fn most(&self) -> u64 {
        self.0.most.load(Ordering::Relaxed)
    }

    /// The error for `error` met while writing or reading the files.
    fn failed(&self, error: &std::io::Error) -> FrontierError {
        FrontierError::Disk {
            dir: self.0.parent.clone(),
            message: error.to_string(),
            on_disk: self.most(),
        }
    }

    /// A new file's path, the directory made first if need be.
    fn new_path(&self) -> Result<PathBuf, FrontierError> {
        let mut made = self.0.made.lock().unwrap_or_else(PoisonError::into_inner);
        if made.is_none() {
            clear_dead_dirs(&self.0.parent, PREFIX);
            let created = TempPath::create(|| {
                tempfile::Builder::new()
                    .prefix(&owned_prefix(PREFIX))
                    .tempdir_in(&self.0.parent)
            })
            .map_err(|e| self.failed(&e))?;
            *made = Some(created);
        }
        let dir = made
            .as_ref()
            .map_or(self.0.parent.as_path(), |(dir, _)| dir.path());
        let n = self.0.named.fetch_add(1, Ordering::Relaxed);
        Ok(dir.join(format!("{n}.states")))
    }

    fn grew(&self, bytes: u64) {
        let now = self.0.on_disk.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.0.most.fetch_max(now, Ordering::Relaxed);
    }
}

/// A directory for a test's spilled files, on tmpfs (`/dev/shm`) where
/// the machine has one. The tests spill every table of more than a few
/// states, tens of thousands of small files a test, and on ext4 making a
/// file soon after removing others is slow (its inode allocator skips
/// recently deleted inodes): 8 s of kernel time in one test on this
/// project's 2-core machine, where tmpfs takes a fraction of it.
#[cfg(test)]
pub(crate) fn test_parent() -> tempfile::TempDir {
    let tmpfs = Path::new("/dev/shm");
    tmpfs
        .is_dir()
        .then(|| tempfile::tempdir_in(tmpfs).ok())
        .flatten()
        .unwrap_or_else(|| tempfile::tempdir().unwrap())
}

/// A file of states and counts, removed when dropped.
pub(crate) struct SpillFile {
    path: PathBuf,
    dir: SpillDir,
    /// Records in it.
    states: u64,
    /// Its counts summed (saturating).
    total: u128,
    bytes: u64,
}

impl SpillFile {
    /// Records in the file (states; in a bucket not yet merged, a state
    /// may come more than once).
    pub(crate) fn states(&self) -> u64 {
        self.states
    }

    /// The counts summed (saturating at `u128::MAX`).
    pub(crate) fn total(&self) -> u128 {
        self.total
    }

    /// Calls `f` on every (state, count) in the file, in the order written;
    /// ends with [`FrontierError::Stopped`] once the count's stop flag is
    /// raised (looked at every buffer of records).
    pub(crate) fn read<K: Key, C: Count, E: From<FrontierError>>(
        &self,
        mut f: impl FnMut(K, C) -> Result<(), E>,
    ) -> Result<(), E> {
        let record = K::BYTES + C::BYTES;
        let file = File::open(&self.path).map_err(|e| E::from(self.dir.failed(&e)))?;
        let mut reader = BufReader::with_capacity(BUFFER, file);
        let mut chunk = vec![0u8; record * (BUFFER / record).max(1)];
        let mut left = self.states;
        while left > 0 {
            self.dir.check_stop().map_err(E::from)?;
            let n = usize::try_from(left)
                .unwrap_or(usize::MAX)
                .min(chunk.len() / record);
            let bytes = &mut chunk[..n * record];
            reader
                .read_exact(bytes)
                .map_err(|e| E::from(self.dir.failed(&e)))?;
            for one in bytes.chunks_exact(record) {
                f(K::get(one), C::get(&one[K::BYTES..]))?;
            }
            left -= n as u64;
        }
        Ok(())
    }
}

impl SpillFile {
    /// A new file in `dir` of what `f` makes of each record of `file`.
    pub(crate) fn rewrite<K: Key, C: Count, D: Count>(
        dir: &SpillDir,
        file: &SpillFile,
        mut f: impl FnMut(K, C) -> Result<(K, D), FrontierError>,
    ) -> Result<SpillFile, FrontierError> {
        let mut writer = Writer::create(dir)?;
        file.read(|key: K, count: C| {
            let (key, count) = f(key, count)?;
            writer.put(key, count)
        })?;
        writer.finish()
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        self.dir.0.on_disk.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// A file being written: a [`SpillFile`] once done, removed if dropped
/// before.
struct Writer {
    file: SpillFile,
    out: BufWriter<File>,
    record: Vec<u8>,
}

impl Writer {
    fn create(dir: &SpillDir) -> Result<Writer, FrontierError> {
        let path = dir.new_path()?;
        let created = File::create(&path);
        let file = SpillFile {
            path,
            dir: dir.clone(),
            states: 0,
            total: 0,
            bytes: 0,
        };
        let out = created.map_err(|e| dir.failed(&e))?;
        Ok(Writer {
            file,
            out: BufWriter::with_capacity(BUFFER, out),
            record: Vec::with_capacity(64),
        })
    }

    fn put<K: Key, C: Count>(&mut self, key: K, count: C) -> Result<(), FrontierError> {
        self.record.clear();
        key.put(&mut self.record);
        count.put(&mut self.record);
        self.out
            .write_all(&self.record)
            .map_err(|e| self.file.dir.failed(&e))?;
        let bytes = self.record.len() as u64;
        self.file.bytes += bytes;
        self.file.dir.grew(bytes);
        self.file.states += 1;
        self.file.total = self.file.total.saturating_add(count.saturating_u128());
        Ok(())
    }

    fn finish(mut self) -> Result<SpillFile, FrontierError> {
        self.out.flush().map_err(|e| self.file.dir.failed(&e))?;
        Ok(self.file)
    }
}

/// The bucket of `hash` at `level`: four bits of it from bit 24 down,
/// clear of those that choose a thread's shard (the top ones), a table's
/// part (from bit 40) and a cell (the low ones).
fn bucket_of(hash: u64, level: u32) -> usize {
    #[allow(clippy::cast_possible_truncation)]
    let bucket = (hash >> (24 - 4 * level)) as usize % BUCKETS;
    bucket
}

/// States written to files by bucket, as a table that passed the budget
/// empties itself; a state may be written more than once.
pub(crate) struct Buckets {
    dir: SpillDir,
    level: u32,
    writers: Vec<Option<Writer>>,
}

impl Buckets {
    /// No bucket written yet.
    pub(crate) fn new(dir: &SpillDir) -> Buckets {
        Self::at(dir, 0)
    }

    fn at(dir: &SpillDir, level: u32) -> Buckets {
        Buckets {
            dir: dir.clone(),
            level,
            writers: (0..BUCKETS).map(|_| None).collect(),
        }
    }

    /// Writes `(key, count)` to its bucket's file.
    pub(crate) fn put<K: Key, C: Count>(&mut self, key: K, count: C) -> Result<(), FrontierError> {
        let writer = &mut self.writers[bucket_of(key.hash(), self.level)];
        if writer.is_none() {
            *writer = Some(Writer::create(&self.dir)?);
        }
        writer.as_mut().map_or(Ok(()), |w| w.put(key, count))
    }

    /// Empties `table` into the buckets.
    pub(crate) fn drain<K: Key, C: Count>(
        &mut self,
        table: &mut Table<'_, K, C>,
    ) -> Result<(), FrontierError> {
        table.drain(|key, count| self.put(key, count))
    }

    /// Merges each bucket's equal states in memory (charged to `budget`,
    /// of which this thread's tables keep to `share`), splitting a bucket
    /// again where it does not fit, and returns the files of the merged
    /// states, each state in one of them once.
    pub(crate) fn merge<K: Key, C: Count>(
        self,
        budget: &Budget,
        share: u64,
    ) -> Result<Vec<SpillFile>, FrontierError> {
        let mut merged = Vec::new();
        let (dir, level) = (self.dir.clone(), self.level);
        for writer in self.writers.into_iter().flatten() {
            let raw = writer.finish()?;
            merge_bucket::<K, C>(&dir, raw, level, (budget, share), &mut merged)?;
        }
        Ok(merged)
    }
}

/// Why a bucket was not merged in memory.
enum Unmerged {
    /// Its table would pass the budget: the bytes it would have needed.
    TooLarge(u64),
    /// Anything else.
    Failed(FrontierError),
}

impl From<FrontierError> for Unmerged {
    fn from(error: FrontierError) -> Unmerged {
        Unmerged::Failed(error)
    }
}

/// Merges the equal states of `raw` (the bucket of its states' hashes at
/// `level`) into one file added to `merged`, or, when they do not fit in
/// the budget, splits them into the next level's buckets and merges those.
fn merge_bucket<K: Key, C: Count>(
    dir: &SpillDir,
    raw: SpillFile,
    level: u32,
    (budget, share): (&Budget, u64),
    merged: &mut Vec<SpillFile>,
) -> Result<(), FrontierError> {
    match merged_table::<K, C>(&raw, budget, share) {
        Ok(table) => {
            let mut writer = Writer::create(dir)?;
            for (key, count) in table.iter() {
                writer.put(key, count)?;
            }
            drop(table);
            merged.push(writer.finish()?);
            Ok(())
        }
        Err(Unmerged::TooLarge(needed)) if level + 1 >= MAX_LEVEL => {
            Err(FrontierError::OverMemory {
                needed,
                budget: budget.limit(),
            })
        }
        Err(Unmerged::TooLarge(_)) => {
            let mut split = Buckets::at(dir, level + 1);
            raw.read(|key: K, count: C| split.put(key, count))?;
            drop(raw);
            for writer in split.writers.into_iter().flatten() {
                merge_bucket::<K, C>(dir, writer.finish()?, level + 1, (budget, share), merged)?;
            }
            Ok(())
        }
        Err(Unmerged::Failed(error)) => Err(error),
    }
}

/// The states of `raw` in a table, equal ones merged. A table past a
/// quarter of this thread's `share` that finds no room is too large (the
/// bucket is split); a smaller one waits for the other threads' tables to
/// make room, as a thread adding to its own does: however finely a
/// bucket is split, its table cannot be had while they hold the budget.
fn merged_table<'b, K: Key, C: Count>(
    raw: &SpillFile,
    budget: &'b Budget,
    share: u64,
) -> Result<Table<'b, K, C>, Unmerged> {
    let table_error = |e| match e {
        TableError::OverMemory(needed) => Unmerged::TooLarge(needed),
        TableError::Overflow => Unmerged::Failed(FrontierError::Overflow),
    };
    let alone = share >= budget.limit();
    let small = |bytes: u64| !alone && bytes <= share / 4;
    let short_of_room = |e: &TableError| matches!(e, TableError::OverMemory(_));
    // Room for every record would be too much where states repeat: at
    // most two thirds of what the budget has left, the table growing from
    // there.
    let records = usize::try_from(raw.states()).unwrap_or(usize::MAX);
    let expected = records.min(Table::<K, C>::states_within(budget.left()));
    let mut table = budget
        .wait_for_room(
            || Table::with_expected(expected, budget),
            |e| small(0) && short_of_room(e),
        )
        .map_err(table_error)?;
    raw.read(|key: K, count: C| {
        let hash = key.hash();
        match table.add(key, hash, count) {
            // The table's size (a sum over its blocks) is read only when
            // it finds no room: read for every record, it made merging a
            // bucket of a billion records take hours.
            Err(TableError::OverMemory(_)) => {
                let bytes = table.bytes();
                budget.wait_for_room(
                    || table.add(key, hash, count),
                    |e| small(bytes) && short_of_room(e),
                )
            }
            added => added,
        }
        .map_err(table_error)
    })?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A merge of spilled states ends with `Stopped` once the count's
    /// stop flag is raised (a time limit inside a long step), its files
    /// removed; before, the same merge runs through.
    #[test]
    fn a_raised_stop_ends_a_merge_and_leaves_no_file() {
        let parent = tempfile::tempdir().unwrap();
        let stop = Stop::new();
        let dir = SpillDir::stopped_by(parent.path(), &stop);
        let budget = Budget::new(1 << 20);
        let filled = || {
            let mut buckets = Buckets::new(&dir);
            for key in 0..1000u64 {
                buckets.put(key, 1u64).unwrap();
            }
            buckets
        };
        let merged = filled().merge::<u64, u64>(&budget, 1 << 20).unwrap();
        assert_eq!(merged.iter().map(SpillFile::states).sum::<u64>(), 1000);
        drop(merged);
        let buckets = filled();
        stop.stop();
        assert_eq!(
            buckets.merge::<u64, u64>(&budget, 1 << 20).err(),
            Some(FrontierError::Stopped)
        );
        assert_eq!(dir.on_disk(), 0);
    }

    /// A thread merging its buckets while another holds the whole budget
    /// (its input not yet freed) waits for that room rather than split
    /// the buckets down to nothing and give up; alone, it gives up at
    /// once, its states past the budget.
    #[test]
    fn merging_waits_for_room_another_thread_holds() {
        let parent = tempfile::tempdir().unwrap();
        let dir = SpillDir::new(parent.path());
        let budget = Budget::new(64 << 10);
        let fill = |buckets: &mut Buckets| {
            for key in 0..500u64 {
                buckets.put(key, key + 1).unwrap();
                buckets.put(key, 1u64).unwrap();
            }
        };
        let mut buckets = Buckets::new(&dir);
        fill(&mut buckets);
        budget.take(64 << 10).unwrap();
        let files = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                budget.give(64 << 10);
            });
            buckets.merge::<u64, u64>(&budget, 32 << 10)
        })
        .unwrap();
        let mut seen = std::collections::BTreeMap::new();
        for file in &files {
            file.read(|key: u64, count: u64| {
                assert!(seen.insert(key, count).is_none(), "{key} twice");
                Ok::<(), FrontierError>(())
            })
            .unwrap();
        }
        assert_eq!(seen.len(), 500);
        assert!(seen.iter().all(|(&key, &count)| count == key + 2));
        assert!(budget.pressed() > 0);
        drop(files);

        let mut buckets = Buckets::new(&dir);
        fill(&mut buckets);
        budget.take(64 << 10).unwrap();
        let alone = buckets.merge::<u64, u64>(&budget, 64 << 10);
        assert!(
            matches!(alone, Err(FrontierError::OverMemory { .. })),
            "{:?}",
            alone.map(|files| files.len())
        );
    }
}
