//! Runs the steps of a plan over a table of states, serially or sharded
//! across threads.
//!
//! With `jobs` threads every step's table is split into `jobs` shards by the
//! high bits of each state's hash. Thread `i` expands the states of shard `i`
//! of the current table and owns shard `i` of the next one: a successor that
//! hashes to its own shard it adds at once, any other it batches and sends
//! to the owner over a channel. Owners drain their channel between input
//! states and once more at the end, so no state is ever shared.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use crate::count::frontier::plan::{Plan, Step};
use crate::count::frontier::state::{expand, Mode};
use crate::count::frontier::table::{Budget, Count, Key, Queue, Table, TableError};
use crate::count::frontier::{FrontierError, Options, Progress};

/// Successors on their way to another shard's owner.
type Batch<K, C> = Vec<(K, C)>;

/// A thread's shard of the next table and the tours it completed.
type Shard<'b, K, C> = Result<(Table<'b, K, C>, u128), FrontierError>;

/// One channel per shard: the senders (cloned to every thread) and the
/// receivers (one to each shard's owner).
type Channels<K, C> = (Vec<Sender<Batch<K, C>>>, Vec<Receiver<Batch<K, C>>>);

/// Successors sent to another shard's owner at once.
const BATCH: usize = 4096;
/// Input states between two looks at the stop flag and the inbox.
const POLL: usize = 4096;

/// The shard a hash belongs to among `jobs`.
#[inline]
fn shard_of(hash: u64, jobs: usize) -> usize {
    #[allow(clippy::cast_possible_truncation)]
    let s = (((hash >> 32) * jobs as u64) >> 32) as usize;
    s
}

/// Maps a table error to the count's error; `limit` is the memory budget.
fn table_error(e: TableError, limit: u64) -> FrontierError {
    match e {
        TableError::Overflow => FrontierError::Overflow,
        TableError::OverMemory(needed) => FrontierError::OverMemory {
            needed,
            budget: limit,
        },
    }
}

/// Whether the caller asked to stop.
fn stopped(options: &Options) -> bool {
    options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Counts the tours the plan describes: runs every step and returns the
/// number of completed tours (each counted once per state path, that is
/// once per undirected tour with the plan's fixed ends).
pub(crate) fn run<K: Key, C: Count>(
    plan: &Plan,
    mode: Mode,
    options: &Options,
) -> Result<u128, FrontierError> {
    let limit = options.memory_budget.unwrap_or(u64::MAX);
    let budget = Budget::new(limit);
    let jobs = options.jobs.clamp(1, 256);
    let err = |e| table_error(e, limit);
    let mut current: Vec<Table<K, C>> = (0..jobs)
        .map(|_| Table::with_expected(1, &budget))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let start = K::from_u128(0);
    let one = C::from_u128(1).ok_or(FrontierError::Overflow)?;
    current[shard_of(start.hash(), jobs)]
        .add(start, start.hash(), one)
        .map_err(err)?;
    let mut finished = 0u128;
    let total = plan.steps.len();
    for (t, step) in plan.steps.iter().enumerate() {
        if stopped(options) {
            return Err(FrontierError::Stopped);
        }
        let expected = current.iter().map(Table::len).max().unwrap_or(0);
        let (next, done) = if jobs == 1 {
            let mut out = Table::with_expected(expected, &budget).map_err(err)?;
            let done = step_serial(step, mode, &current[0], &mut out, options, limit)?;
            (vec![out], done)
        } else {
            step_parallel(step, mode, &current, expected, options, &budget, limit)?
        };
        finished = finished.checked_add(done).ok_or(FrontierError::Overflow)?;
        drop(current);
        current = next;
        if let Some(progress) = options.progress {
            progress(Progress {
                done: t + 1,
                total,
                states: current.iter().map(Table::len).sum(),
                bytes: budget.used(),
            });
        }
    }
    Ok(finished)
}

/// Adds `count × times` (tours completed by one state) to `done`.
fn add_completed<C: Count>(done: u128, count: C, times: u32) -> Result<u128, FrontierError> {
    count
        .to_u128()
        .checked_mul(u128::from(times))
        .and_then(|x| done.checked_add(x))
        .ok_or(FrontierError::Overflow)
}

/// One step on one thread: expands every state of `input` into `out`;
/// returns the tours completed.
fn step_serial<K: Key, C: Count>(
    step: &Step,
    mode: Mode,
    input: &Table<K, C>,
    out: &mut Table<K, C>,
    options: &Options,
    limit: u64,
) -> Result<u128, FrontierError> {
    let mut done = 0u128;
    let mut queue = Queue::new();
    for (i, (key, count)) in input.iter().enumerate() {
        if i % POLL == 0 && stopped(options) {
            return Err(FrontierError::Stopped);
        }
        let mut failed = None;
        let times = expand(step, mode, key.to_word(), |next| {
            let k = K::from_word(next);
            if let Err(e) = out.add_soon(&mut queue, k, k.hash(), count) {
                failed.get_or_insert(e);
            }
        });
        if let Some(e) = failed {
            return Err(table_error(e, limit));
        }
        if times > 0 {
            done = add_completed(done, count, times)?;
        }
    }
    out.flush(&mut queue).map_err(|e| table_error(e, limit))?;
    Ok(done)
}

/// One step on `input.len()` threads, each owning one shard of the next
/// table; returns the next table's shards and the tours completed.
fn step_parallel<'b, K: Key, C: Count>(
    step: &Step,
    mode: Mode,
    input: &[Table<'b, K, C>],
    expected: usize,
    options: &Options,
    budget: &'b Budget,
    limit: u64,
) -> Result<(Vec<Table<'b, K, C>>, u128), FrontierError> {
    let jobs = input.len();
    let abort = AtomicBool::new(false);
    let (senders, receivers): Channels<K, C> = (0..jobs).map(|_| mpsc::channel()).unzip();
    let results: Vec<Shard<'b, K, C>> = std::thread::scope(|s| {
        let handles: Vec<_> = receivers
            .into_iter()
            .zip(input)
            .enumerate()
            .map(|(me, (inbox, shard))| {
                let outboxes = senders.clone();
                let worker = Worker {
                    me,
                    step,
                    mode,
                    options,
                    budget,
                    limit,
                    abort: &abort,
                };
                s.spawn(move || {
                    let r = worker.run(shard, expected, inbox, outboxes);
                    if r.is_err() {
                        worker.abort.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        drop(senders);
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(FrontierError::Stopped)))
            .collect()
    });
    let mut shards = Vec::with_capacity(jobs);
    let mut done = 0u128;
    let mut first_error = None;
    for r in results {
        match r {
            Ok((table, d)) => {
                shards.push(table);
                done = done.checked_add(d).ok_or(FrontierError::Overflow)?;
            }
            // A thread that stopped because another failed reports
            // `Stopped`; keep the cause.
            Err(e) if first_error.is_none() || first_error == Some(FrontierError::Stopped) => {
                first_error = Some(e);
            }
            Err(_) => {}
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok((shards, done)),
    }
}

/// One thread of a parallel step.
struct Worker<'a, 'b> {
    me: usize,
    step: &'a Step,
    mode: Mode,
    options: &'a Options<'a>,
    budget: &'b Budget,
    limit: u64,
    abort: &'a AtomicBool,
}

impl<'b> Worker<'_, 'b> {
    /// Expands `shard` into this thread's shard of the next table, sending
    /// other shards' successors to their owners, then takes in what the
    /// others sent until they are all done.
    fn run<K: Key, C: Count>(
        &self,
        shard: &Table<'b, K, C>,
        expected: usize,
        inbox: Receiver<Batch<K, C>>,
        outboxes: Vec<Sender<Batch<K, C>>>,
    ) -> Shard<'b, K, C> {
        let err = |e| table_error(e, self.limit);
        let mut own: Table<'b, K, C> = Table::with_expected(expected, self.budget).map_err(err)?;
        let done = self.expand_shard(shard, &mut own, &inbox, outboxes)?;
        for batch in inbox {
            for (k, c) in batch {
                own.add(k, k.hash(), c).map_err(err)?;
            }
        }
        Ok((own, done))
    }

    /// The expansion loop of [`Worker::run`]; drops `outboxes` when done so
    /// the other threads' inboxes can close.
    fn expand_shard<K: Key, C: Count>(
        &self,
        shard: &Table<'b, K, C>,
        own: &mut Table<'b, K, C>,
        inbox: &Receiver<Batch<K, C>>,
        outboxes: Vec<Sender<Batch<K, C>>>,
    ) -> Result<u128, FrontierError> {
        let jobs = outboxes.len();
        let err = |e| table_error(e, self.limit);
        let mut pending: Vec<Vec<(K, C)>> = (0..jobs).map(|_| Vec::new()).collect();
        let mut queue = Queue::new();
        let mut done = 0u128;
        for (i, (key, count)) in shard.iter().enumerate() {
            if i % POLL == 0 {
                if stopped(self.options) || self.abort.load(Ordering::Relaxed) {
                    return Err(FrontierError::Stopped);
                }
                while let Ok(batch) = inbox.try_recv() {
                    for (k, c) in batch {
                        own.add(k, k.hash(), c).map_err(err)?;
                    }
                }
            }
            let mut failed = None;
            let times = expand(self.step, self.mode, key.to_word(), |next| {
                let k = K::from_word(next);
                let h = k.hash();
                let d = shard_of(h, jobs);
                if d == self.me {
                    if let Err(e) = own.add_soon(&mut queue, k, h, count) {
                        failed.get_or_insert(e);
                    }
                } else {
                    let out = &mut pending[d];
                    out.push((k, count));
                    if out.len() >= BATCH {
                        // A closed inbox means its owner failed; the abort
                        // flag ends this thread soon.
                        let _ = outboxes[d].send(std::mem::take(out));
                    }
                }
            });
            if let Some(e) = failed {
                return Err(err(e));
            }
            if times > 0 {
                done = add_completed(done, count, times)?;
            }
        }
        own.flush(&mut queue).map_err(err)?;
        for (d, out) in pending.into_iter().enumerate() {
            if !out.is_empty() {
                let _ = outboxes[d].send(out);
            }
        }
        drop(outboxes);
        Ok(done)
    }
}
