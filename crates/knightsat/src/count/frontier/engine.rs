//! Runs the steps of a plan over a table of states, serially or sharded
//! across threads, each thread's states in memory or, past the memory
//! budget, on disk (see `shard`).
//!
//! With `jobs` threads every step's table is split into `jobs` shards by the
//! high bits of each state's hash. Thread `i` expands the states of shard `i`
//! of the current table and owns shard `i` of the next one: a successor that
//! hashes to its own shard it adds at once, any other it batches and sends
//! to the owner over a channel. Owners drain their channel between input
//! states and once more at the end, so no state is ever shared.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};
use crate::count::frontier::schedule::{Schedule, SquareStep};
pub(crate) use crate::count::frontier::shard::table_error;
use crate::count::frontier::shard::{Output, Shard};
use crate::count::frontier::state::{expand, Mode, Word};
use crate::count::frontier::table::Table;
use crate::count::frontier::{FrontierError, Options, Part, SpillDir, SquareProgress};
use crate::count::number::Wide;

mod saved;

/// Successors on their way to another shard's owner.
type Batch<K, C> = Vec<(K, C)>;

/// A thread's shard of the next step and the tours it completed.
type Made<'b, K, C> = Result<(Shard<'b, K, C>, Wide), FrontierError>;

/// One channel per shard: the senders (cloned to every thread) and the
/// receivers (one to each shard's owner).
type Channels<K, C> = (Vec<Sender<Batch<K, C>>>, Vec<Receiver<Batch<K, C>>>);

/// Successors sent to another shard's owner at once.
const BATCH: usize = 4096;
/// Input states between two looks at the stop flag and the inbox.
const POLL: usize = 4096;

/// The shard a hash belongs to among `jobs`.
#[inline]
pub(crate) fn shard_of(hash: u64, jobs: usize) -> usize {
    #[allow(clippy::cast_possible_truncation)]
    let s = (((hash >> 32) * jobs as u64) >> 32) as usize;
    s
}

/// Whether the caller asked to stop.
fn stopped(options: &Options) -> bool {
    options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Counts the tours the plan describes: runs every step and returns the
/// number of completed tours (each counted once per state path, that is
/// once per undirected tour with the plan's fixed ends).
///
/// States keep 64-bit counts while they fit; when one would pass them, the
/// tables as they were before that step are widened to 128 bits, then to
/// 256 ([`Wide`]), and the step is done again.
///
/// With a checkpoint ([`Options::saving`]) the run saves its tables after
/// a step when it is time, and goes on from the tables a run of the same
/// piece saved.
pub(crate) fn run<K: Key>(
    plan: &Schedule,
    mode: Mode,
    options: &Options,
) -> Result<Wide, FrontierError> {
    let limit = options.memory_budget.unwrap_or(u64::MAX);
    let budget = Budget::new(limit);
    let jobs = options.jobs.clamp(1, 256);
    let mut finished = Wide::ZERO;
    let run = Run {
        plan,
        mode,
        options,
        budget: &budget,
        saves: options.saving.is_some(),
    };
    let (step, tables) = match saved::read::<K>(options, &budget, jobs, &mut finished)? {
        None => (0, held(first_tables::<K>(jobs, &budget)?)),
        Some(Saved::Narrow(step, tables)) => (step, tables),
        Some(Saved::Middle(step, tables)) => return run.go_on_in_128_bits(step, tables, finished),
        Some(Saved::Wide(step, tables)) => return run.go_on_in_256_bits(step, tables, finished),
    };
    let Next::Widened(step, tables) =
        run.steps_or_widen::<K, u64, u128>(step, tables, &mut finished)?
    else {
        return Ok(finished);
    };
    run.go_on_in_128_bits(step, tables, finished)
}

/// The tables a run saved, by the width of their counts, with the step
/// they go on at.
pub(crate) enum Saved<'b, K: Key> {
    Narrow(usize, Vec<Shard<'b, K, u64>>),
    Middle(usize, Vec<Shard<'b, K, u128>>),
    Wide(usize, Vec<Shard<'b, K, Wide>>),
}

/// The table of one state, the empty frontier, counted once, in the shard
/// its hash gives among `jobs`.
pub(crate) fn first_tables<K: Key>(
    jobs: usize,
    budget: &Budget,
) -> Result<Vec<Table<'_, K, u64>>, FrontierError> {
    let limit = budget.limit();
    let err = |e| table_error(e, limit);
    let mut tables: Vec<Table<K, u64>> = (0..jobs)
        .map(|_| Table::with_expected(1, budget))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let start = K::from_u128(0);
    tables[shard_of(start.hash(), jobs)]
        .add(start, start.hash(), 1)
        .map_err(err)?;
    Ok(tables)
}

/// Tables as shards held in memory.
fn held<K: Key, C: Count>(tables: Vec<Table<'_, K, C>>) -> Vec<Shard<'_, K, C>> {
    tables.into_iter().map(Shard::Held).collect()
}

/// Runs every step of `plan` on `tables` (one per thread, 64-bit counts)
/// and returns the tables after the last step, with the tours the steps
/// completed; the steps spill to disk as any do, the last tables are read
/// back into memory.
pub(crate) fn advance<'b, K: Key>(
    plan: &Schedule,
    mode: Mode,
    options: &Options,
    budget: &'b Budget,
    tables: Vec<Table<'b, K, u64>>,
) -> Result<(Vec<Table<'b, K, u64>>, Wide), FrontierError> {
    let run = Run {
        plan,
        mode,
        options,
        budget,
        saves: false,
    };
    let mut finished = Wide::ZERO;
    match run.steps(0, held(tables), &mut finished) {
        Ok(shards) => {
            let tables = shards
                .into_iter()
                .map(|shard| shard.into_table(budget))
                .collect::<Result<_, _>>()?;
            Ok((tables, finished))
        }
        Err(Halt::Failed(e)) => Err(e),
        Err(Halt::Outgrown { .. }) => Err(FrontierError::Overflow),
    }
}

/// Where [`Run::steps_or_widen`] left a run.
enum Next<'b, K: Key, D: Count> {
    /// Every step is done.
    Done,
    /// A count outgrew the narrower type at this step: the states before
    /// it, widened.
    Widened(usize, Vec<Shard<'b, K, D>>),
}

/// Why [`Run::steps`] stopped before the last step.
enum Halt<'b, K: Key, C: Count> {
    /// A count outgrew `C` in step `step`: the states before that step.
    Outgrown {
        step: usize,
        tables: Vec<Shard<'b, K, C>>,
    },
    /// Any other reason.
    Failed(FrontierError),
}

/// What every step of a run shares.
struct Run<'a, 'b> {
    plan: &'a Schedule,
    mode: Mode,
    options: &'a Options<'a>,
    budget: &'b Budget,
    /// Whether the run saves its tables in the checkpoint (a whole count
    /// forward; the phases of a count met in the middle save their own).
    saves: bool,
}

impl<'b> Run<'_, 'b> {
    /// The steps from `step` on `tables` with 128-bit counts, widened to
    /// 256 bits if one outgrows them; the tours completed.
    fn go_on_in_128_bits<K: Key>(
        &self,
        step: usize,
        tables: Vec<Shard<'b, K, u128>>,
        mut finished: Wide,
    ) -> Result<Wide, FrontierError> {
        let Next::Widened(step, tables) =
            self.steps_or_widen::<K, u128, Wide>(step, tables, &mut finished)?
        else {
            return Ok(finished);
        };
        self.go_on_in_256_bits(step, tables, finished)
    }

    /// The steps from `step` on `tables` with 256-bit counts; the tours
    /// completed.
    fn go_on_in_256_bits<K: Key>(
        &self,
        step: usize,
        tables: Vec<Shard<'b, K, Wide>>,
        mut finished: Wide,
    ) -> Result<Wide, FrontierError> {
        match self.steps(step, tables, &mut finished) {
            Ok(_) => Ok(finished),
            Err(Halt::Failed(e)) => Err(e),
            Err(Halt::Outgrown { .. }) => Err(FrontierError::Overflow),
        }
    }

    /// Runs the plan's steps from `first` on `current`, adding the tours
    /// each completes to `finished`.
    fn steps<K: Key, C: Count>(
        &self,
        first: usize,
        mut current: Vec<Shard<'b, K, C>>,
        finished: &mut Wide,
    ) -> Result<Vec<Shard<'b, K, C>>, Halt<'b, K, C>> {
        let options = self.options;
        let total = self.plan.steps.len();
        for (t, step) in self.plan.steps.iter().enumerate().skip(first) {
            if stopped(options) {
                return Err(Halt::Failed(FrontierError::Stopped));
            }
            // A part expands only its class of the states of the middle
            // step; the tours completed before it are the first part's.
            let keep = options.part.filter(|_| t == total / 2);
            if keep.is_some_and(|part| !part.takes_earlier_tours()) {
                *finished = Wide::ZERO;
            }
            let mut expected = current.iter().map(Shard::len).max().unwrap_or(0);
            if let Some(part) = keep {
                expected /= part.of;
            }
            let free = cannot_outgrow(step, &current);
            let stepped = if current.len() == 1 {
                Output::new(expected, self.budget, options.spill, 1).and_then(|mut out| {
                    let input = (&mut current[0], keep);
                    let done = step_serial(step, self.mode, input, free, &mut out, options)?;
                    Ok((vec![out.finish()?], done))
                })
            } else {
                step_parallel(
                    step,
                    self.mode,
                    (&mut current, keep),
                    free,
                    expected,
                    options,
                    self.budget,
                )
            };
            let (next, done) = match stepped {
                Ok(next) => next,
                // The bound of `cannot_outgrow` holds, so this is never
                // reached; the input is gone, so the step cannot be redone.
                Err(FrontierError::Overflow) if free => {
                    return Err(Halt::Failed(FrontierError::Overflow))
                }
                Err(FrontierError::Overflow) => {
                    return Err(Halt::Outgrown {
                        step: t,
                        tables: current,
                    })
                }
                Err(e) => return Err(Halt::Failed(e)),
            };
            *finished = finished
                .checked_add(done)
                .ok_or(Halt::Failed(FrontierError::Overflow))?;
            drop(current);
            current = next;
            if let Some(progress) = options.progress {
                progress(SquareProgress {
                    done: t + 1,
                    total,
                    states: current.iter().map(Shard::len).sum(),
                    bytes: self.budget.used(),
                    on_disk: options.spill.map_or(0, SpillDir::on_disk),
                    batch: None,
                    piece: None,
                    joins: false,
                });
            }
            if self.saves && t + 1 < total {
                saved::write_if_due(options, t + 1, &mut current, *finished)
                    .map_err(Halt::Failed)?;
            }
        }
        Ok(current)
    }

    /// Runs the steps from `first` with counts of type `C`; if one
    /// outgrows `C`, returns the tables before that step with counts of
    /// type `D`, to do it again.
    fn steps_or_widen<K: Key, C: Count, D: Count>(
        &self,
        first: usize,
        tables: Vec<Shard<'b, K, C>>,
        finished: &mut Wide,
    ) -> Result<Next<'b, K, D>, FrontierError> {
        match self.steps(first, tables, finished) {
            Ok(_) => Ok(Next::Done),
            Err(Halt::Failed(e)) => Err(e),
            Err(Halt::Outgrown { step, tables }) => {
                Ok(Next::Widened(step, self.widen::<K, C, D>(tables)?))
            }
        }
    }

    /// The same states with counts of type `D`.
    fn widen<K: Key, C: Count, D: Count>(
        &self,
        shards: Vec<Shard<'b, K, C>>,
    ) -> Result<Vec<Shard<'b, K, D>>, FrontierError> {
        shards
            .into_iter()
            .map(|shard| shard.widen(self.budget, self.options.spill))
            .collect()
    }
}

/// Whether no count can outgrow `C` in `step`: each state has at most
/// `1 + m + m(m − 1)/2` successors for `m` earlier neighbours of the new
/// square, so every count of the next table, and the tours completed, are
/// at most the input's total times that. Such a step frees its input part
/// by part as it reads it (it will never be redone with wider counts), so
/// the input and the output tables are never both whole: at the widest
/// step of 8x8 closed the input is over a third of the memory.
fn cannot_outgrow<K: Key, C: Count>(step: &SquareStep, input: &[Shard<K, C>]) -> bool {
    let m = step.back.len();
    let fan = Wide::from(1 + m + m * m.saturating_sub(1) / 2);
    // Summed in 128 bits, saturating: a sum that large fits no narrower
    // count either, and 256-bit counts have no wider type to be redone in.
    let total = input
        .iter()
        .fold(0u128, |total, shard| total.saturating_add(shard.total()));
    Wide::from(total)
        .checked_mul(fan)
        .and_then(C::from_wide)
        .is_some()
}

/// Adds `count × times` (tours completed by one state) to `done`.
fn add_completed<C: Count>(done: Wide, count: C, times: u32) -> Result<Wide, FrontierError> {
    count
        .to_wide()
        .checked_mul(Wide::from(times))
        .and_then(|x| done.checked_add(x))
        .ok_or(FrontierError::Overflow)
}

/// One step on one thread: expands every state of `input` (those of one
/// part alone, if one is given) into `out` (freeing `input` as it goes
/// with `free`); returns the tours completed.
fn step_serial<K: Key, C: Count>(
    step: &SquareStep,
    mode: Mode,
    (input, keep): (&mut Shard<K, C>, Option<Part>),
    free: bool,
    out: &mut Output<K, C>,
    options: &Options,
) -> Result<Wide, FrontierError> {
    let mut done = Wide::ZERO;
    let mut i = 0usize;
    input.read(free, |key, count| {
        if i.is_multiple_of(POLL) && stopped(options) {
            return Err(FrontierError::Stopped);
        }
        i += 1;
        if !Part::admits(keep, key.hash()) {
            return Ok(());
        }
        let mut failed = None;
        let times = expand(step, mode, key.to_word(), |next| {
            if options.keep.is_some_and(|keep| !keep(next.wide())) {
                return;
            }
            let k = K::from_word(next);
            if let Err(e) = out.add(k, k.hash(), count) {
                failed.get_or_insert(e);
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if times > 0 {
            done = add_completed(done, count, times)?;
        }
        Ok(())
    })?;
    Ok(done)
}

/// One step on `input.len()` threads, each owning one shard of the next
/// table (and freeing its shard of `input` as it goes with `free`), of
/// one part's states alone if one is given; returns the next table's
/// shards and the tours completed.
fn step_parallel<'b, K: Key, C: Count>(
    step: &SquareStep,
    mode: Mode,
    (input, keep): (&mut [Shard<'b, K, C>], Option<Part>),
    free: bool,
    expected: usize,
    options: &Options,
    budget: &'b Budget,
) -> Result<(Vec<Shard<'b, K, C>>, Wide), FrontierError> {
    let jobs = input.len();
    let abort = AtomicBool::new(false);
    let (senders, receivers): Channels<K, C> = (0..jobs).map(|_| mpsc::channel()).unzip();
    let results: Vec<Made<'b, K, C>> = std::thread::scope(|s| {
        let handles: Vec<_> = receivers
            .into_iter()
            .zip(input)
            .enumerate()
            .map(|(me, (inbox, shard))| {
                let outboxes = senders.clone();
                let worker = Worker {
                    me,
                    jobs,
                    step,
                    mode,
                    free,
                    keep,
                    options,
                    budget,
                    abort: &abort,
                };
                std::thread::Builder::new()
                    .spawn_scoped(s, move || {
                        let r = worker.run(shard, expected, inbox, outboxes);
                        if r.is_err() {
                            worker.abort.store(true, Ordering::Relaxed);
                        }
                        r
                    })
                    .map_err(|e| {
                        // The others stop, their shards incomplete.
                        abort.store(true, Ordering::Relaxed);
                        FrontierError::NoThread {
                            message: e.to_string(),
                        }
                    })
            })
            .collect();
        drop(senders);
        handles
            .into_iter()
            .map(|h| h.and_then(|h| h.join().unwrap_or(Err(FrontierError::Stopped))))
            .collect()
    });
    let mut shards = Vec::with_capacity(jobs);
    let mut done = Wide::ZERO;
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
    /// The threads of the step.
    jobs: usize,
    step: &'a SquareStep,
    mode: Mode,
    /// Whether to free the input shard as it is read.
    free: bool,
    /// The part whose states alone are expanded.
    keep: Option<Part>,
    options: &'a Options<'a>,
    budget: &'b Budget,
    abort: &'a AtomicBool,
}

impl<'b> Worker<'_, 'b> {
    /// Expands `shard` into this thread's shard of the next table, sending
    /// other shards' successors to their owners, then takes in what the
    /// others sent until they are all done.
    fn run<K: Key, C: Count>(
        &self,
        shard: &mut Shard<'b, K, C>,
        expected: usize,
        inbox: Receiver<Batch<K, C>>,
        outboxes: Vec<Sender<Batch<K, C>>>,
    ) -> Made<'b, K, C> {
        let mut own = Output::new(expected, self.budget, self.options.spill, self.jobs)?;
        let done = self.expand_shard(shard, &mut own, &inbox, outboxes)?;
        for batch in inbox {
            for (k, c) in batch {
                own.add(k, k.hash(), c)?;
            }
        }
        Ok((own.finish()?, done))
    }

    /// The expansion loop of [`Worker::run`]; drops `outboxes` when done so
    /// the other threads' inboxes can close.
    fn expand_shard<K: Key, C: Count>(
        &self,
        shard: &mut Shard<'b, K, C>,
        own: &mut Output<'b, K, C>,
        inbox: &Receiver<Batch<K, C>>,
        outboxes: Vec<Sender<Batch<K, C>>>,
    ) -> Result<Wide, FrontierError> {
        let jobs = outboxes.len();
        let mut pending: Vec<Vec<(K, C)>> = (0..jobs).map(|_| Vec::new()).collect();
        let mut done = Wide::ZERO;
        let mut i = 0usize;
        let keep_state = self.options.keep;
        shard.read(self.free, |key, count| {
            if i.is_multiple_of(POLL) {
                if stopped(self.options) || self.abort.load(Ordering::Relaxed) {
                    return Err(FrontierError::Stopped);
                }
                while let Ok(batch) = inbox.try_recv() {
                    for (k, c) in batch {
                        own.add(k, k.hash(), c)?;
                    }
                }
            }
            i += 1;
            if !Part::admits(self.keep, key.hash()) {
                return Ok(());
            }
            let mut failed = None;
            let times = expand(self.step, self.mode, key.to_word(), |next| {
                if keep_state.is_some_and(|keep| !keep(next.wide())) {
                    return;
                }
                let k = K::from_word(next);
                let h = k.hash();
                let d = shard_of(h, jobs);
                if d == self.me {
                    if let Err(e) = own.add(k, h, count) {
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
                return Err(e);
            }
            if times > 0 {
                done = add_completed(done, count, times)?;
            }
            Ok(())
        })?;
        for (d, out) in pending.into_iter().enumerate() {
            if !out.is_empty() {
                let _ = outboxes[d].send(out);
            }
        }
        drop(outboxes);
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::packing::{Base12, BASE12_SLOTS};
    use crate::count::frontier::schedule::{row_major, CellGraph};
    use crate::count::frontier::state::MAX_WIDTH_U64;
    use crate::count::frontier::{SpillDir, SquareOrder};

    /// The 8-wide knight's frontier (17 slots) counts the same in one
    /// base-12 word as in two: the closed tours of 8x5 taken along its
    /// ranks of eight (A193055 gives 44202 cycles), and the open ones of
    /// 8x4.
    #[test]
    fn base12_keys_count_as_two_words_do() {
        for (rows, closed) in [(5, true), (4, false)] {
            let graph = CellGraph::of(rows, 8, &[], (1, 2));
            let plan = Schedule::build(&graph, &row_major(&graph, false, false), &[], None);
            assert!(plan.width > MAX_WIDTH_U64 && plan.width <= BASE12_SLOTS);
            let mode = Mode {
                closed,
                free_ends: if closed { 0 } else { 2 },
                ends_here: if closed { 0 } else { 2 },
                used_shift: 126,
            };
            for jobs in [1, 2] {
                let options = Options {
                    jobs,
                    ..Options::default()
                };
                let two_words = run::<[u64; 2]>(&plan, mode, &options).unwrap();
                assert_eq!(run::<Base12>(&plan, mode, &options).unwrap(), two_words);
                assert!(two_words > Wide::ZERO);
                if closed {
                    assert_eq!(two_words, Wide::from(44202u32));
                }
            }
        }
    }

    /// Widening the counts mid-run (64 to 128 to 256 bits) gives what a run
    /// in 256 bits from the first step gives, on one and on two threads:
    /// the closed tours of 3x110 pass 2^128 (3x100 already does).
    #[test]
    fn counts_widened_mid_run_equal_counts_kept_wide_throughout() {
        let graph = CellGraph::of(3, 110, &[], (1, 2));
        let plan = Schedule::best(&graph, &[], SquareOrder::Rows);
        assert!(plan.width <= MAX_WIDTH_U64);
        let mode = Mode {
            closed: true,
            free_ends: 0,
            ends_here: 0,
            used_shift: 62,
        };
        let budget = Budget::new(u64::MAX);
        let wide_throughout = |jobs: usize| {
            let options = Options {
                jobs,
                ..Options::default()
            };
            let mut tables: Vec<Table<u64, Wide>> = (0..jobs)
                .map(|_| Table::with_expected(1, &budget).unwrap())
                .collect();
            tables[shard_of(0u64.hash(), jobs)]
                .add(0, 0u64.hash(), Wide::ONE)
                .unwrap();
            let run = Run {
                plan: &plan,
                mode,
                options: &options,
                budget: &budget,
                saves: false,
            };
            let mut finished = Wide::ZERO;
            assert!(run.steps(0, held(tables), &mut finished).is_ok());
            finished
        };
        let expected = wide_throughout(1);
        assert!(expected > Wide::from(u128::MAX), "{expected}");
        assert_eq!(wide_throughout(2), expected);
        let parent = crate::count::frontier::spill::test_parent();
        for jobs in [1, 2] {
            let options = Options {
                jobs,
                ..Options::default()
            };
            assert_eq!(run::<u64>(&plan, mode, &options).unwrap(), expected);
            // And with the states on disk, widened there.
            let dir = SpillDir::eager(parent.path(), 8);
            let spilled = Options {
                spill: Some(&dir),
                ..options
            };
            assert_eq!(run::<u64>(&plan, mode, &spilled).unwrap(), expected);
            assert!(dir.most() > 0);
        }
    }
}
