//! `count` in all its forms, and `sum`, which adds up a split count.

use crate::failure::{Failure, Fallible};
use knightsat::error::{EncodingError, RunError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use indicatif::ProgressBar;

use knightsat::count::checkpoint::{CheckpointMoment, CheckpointReport};
use knightsat::count::frontier::{Piece, SquareProgress, TimeLeft};
use knightsat::count::tally::{CubeRange, CubeSum};
use knightsat::count::way_out::CountWayOut;
use knightsat::count::{
    count_cnf as count_cnf_file, sum_tallies, CountJob, CountReport, CubeLine, Estimate, Progress,
};
use knightsat::error::Error;
use knightsat::model::problem::Problem;
use knightsat::runtime::input;
use knightsat::runtime::threads::resolve_jobs;
use knightsat::solve::{Method, Request};

use super::{
    cube_progress_bar, emit, note_default_start, note_refuted_by_gate, note_whole_tour,
    progress_bar, seconds_in_words, show_cube_progress, show_step, step_bar,
};
use crate::allocator::BudgetWatch;
use crate::failure::{with_way_out, CutShort};
use crate::plan::{Count, CountArgs};
use crate::words;

/// `count`: how many tours (or orbits), an estimate from a sample of the
/// cubes (--sample; of the cubes numbered A to B alone with --cubes), or
/// the tours of each cube numbered A to B (--cubes), one line per cube as
/// it is done, for `sum` to add up.
pub fn count(plan: &Count) -> Fallible<ExitCode> {
    let Count {
        problem,
        method,
        request,
        args,
        ..
    } = plan;
    let method = *method;
    let show = CountShow::new(problem, args);
    let memory = BudgetWatch::new(request.memory_budget_mib);
    let on_progress = |progress: Progress<'_>| {
        if let Progress::Squares(done) = &progress {
            memory.tables_hold(done.bytes);
        }
        show.progress(progress);
    };
    let on_cube = |line: CubeLine<'_>| show.line(line);
    let mut job = CountJob {
        method,
        sat_named: plan.names_sat,
        request: request.clone(),
        options: args.options.clone(),
        on_progress: Some(&on_progress),
        on_cube: Some(&on_cube),
        ..CountJob::new(problem)
    };
    note_whole_tour(problem);
    let threads = job.threads();
    let report = job.run().map_err(|error| {
        let way = job.way_out(&error);
        (error, way)
    });
    drop(job);
    let (printed, failed) = show.finish();
    let report =
        report.map_err(|(error, way)| count_failure(error, way.as_ref(), args, printed))?;
    print_report(report, args, threads, failed)?;
    Ok(ExitCode::SUCCESS)
}

/// What `count` says of `error`: a count cut short by its time limit,
/// by what stands printed (`printed` cubes' lines), or the error with
/// the way out (`way`, the job's) where there is one.
fn count_failure(
    error: Error,
    way: Option<&CountWayOut>,
    args: &CountArgs,
    printed: usize,
) -> Failure {
    let (whole, estimate) = (args.whole(), args.options.sample.is_some());
    let with_way = |error| with_way_out(error, way.map(words::count_way_out));
    match error {
        // Before the first tour there is no partial count to give: the
        // timeout's own words, with the faster route where there is one.
        Error::Run(RunError::TimedOutPartway { seconds, found: 0 }) if whole => {
            with_way(Error::Run(RunError::Timeout { seconds }))
        }
        Error::Run(RunError::TimedOutPartway { seconds, found }) if whole => CutShort::Tours {
            seconds,
            found,
            orbits: args.options.up_to_symmetry,
        }
        .into(),
        Error::Run(RunError::TimedOutPartway { seconds, .. }) if estimate => {
            CutShort::Sample { seconds }.into()
        }
        Error::Run(RunError::TimedOutPartway { seconds, .. }) => {
            CutShort::Cubes { seconds, printed }.into()
        }
        error if whole => with_way(error),
        // A part's way out of the budget: the same for every part.
        error @ Error::FrontierOverMemoryBudget { .. } => with_way(error),
        // A sample's cubes need the encoding as the whole count's do.
        error @ Error::Encoding(EncodingError::BoardTooLargeForEncoding { .. }) if estimate => {
            with_way(error)
        }
        error => error.into(),
    }
}

/// Prints what the count found: the count (with the gate's note, or the
/// limit's), the estimate, nothing more for numbered cubes (their lines
/// are out, unless one failed to be: `failed`), or a part's lines.
fn print_report(
    report: CountReport,
    args: &CountArgs,
    threads: usize,
    failed: Option<Failure>,
) -> Fallible<()> {
    match report {
        CountReport::Tours(count) => {
            if let Some(refutation) = &count.refuted {
                note_refuted_by_gate(refutation);
            }
            emit(|out| writeln!(out, "{}", count.tours))?;
            if count.at_limit {
                note!(
                    "note: stopped at the limit of {}; there may be more",
                    count.tours
                );
            }
        }
        CountReport::Estimate(estimate) => {
            print_estimate(&estimate, args.options.cubes, threads)?;
        }
        CountReport::Cubes(count) => {
            if let Some(error) = failed {
                return Err(error);
            }
            if let Some(refutation) = &count.refuted {
                note_refuted_by_gate(refutation);
            }
        }
        CountReport::Part(part) => {
            emit(|out| writeln!(out, "{}\n{}", part.header, part.tally))?;
        }
    }
    Ok(())
}

/// What `count` shows while it counts: the route (-v), the note on the
/// default start before numbered cubes, a progress bar, and the lines of
/// numbered cubes, each whole as its cube ends, so that a task stopped
/// midway leaves the cubes it finished (the sum then names the others).
struct CountShow<'a> {
    problem: &'a Problem,
    args: &'a CountArgs,
    bar: OnceLock<ProgressBar>,
    printed: AtomicUsize,
    failed: Mutex<Option<Failure>>,
    /// The frontier counter's largest table so far: its live states and
    /// the step it was at; the most bytes its tables took, and the most
    /// it kept on disk.
    peak: Mutex<(Option<SquareProgress>, u64, u64)>,
    /// When the count began, the frontier counter's estimate of the time
    /// it has left, and when -v last said it.
    time_left: Mutex<(Instant, TimeLeft, Option<Instant>)>,
}

impl<'a> CountShow<'a> {
    fn new(problem: &'a Problem, args: &'a CountArgs) -> Self {
        CountShow {
            problem,
            args,
            bar: OnceLock::new(),
            printed: AtomicUsize::new(0),
            failed: Mutex::new(None),
            peak: Mutex::new((None, 0, 0)),
            time_left: Mutex::new((Instant::now(), TimeLeft::new(), None)),
        }
    }

    /// Shows how the count goes: the route starts the bar.
    fn progress(&self, progress: Progress<'_>) {
        let (whole, estimate) = (self.args.whole(), self.args.options.sample.is_some());
        let Progress::Route {
            method,
            request,
            cube_by_cube,
        } = progress
        else {
            if let Progress::Checkpoint {
                dir,
                report,
                moment,
            } = progress
            {
                return self.checkpoint(dir, report, moment);
            }
            if let Progress::EndClasses(classes) = progress {
                if self.args.verbose {
                    note!("frontier: split by its ends into {classes} classes of end pairs under the board's symmetries, each counted with both ends fixed (the bar says which)");
                }
                return;
            }
            if let Progress::Squares(step) = progress {
                let mut peak = self.peak.lock().unwrap_or_else(PoisonError::into_inner);
                if peak.0.is_none_or(|largest| step.states > largest.states) {
                    peak.0 = Some(step);
                }
                peak.1 = peak.1.max(step.bytes);
                if peak.2 == 0 && step.on_disk > 0 && self.args.verbose {
                    note!(
                        "frontier: the states pass --memory-budget; the rest go to files in {} until the count ends",
                        self.spill_dir().display()
                    );
                }
                peak.2 = peak.2.max(step.on_disk);
                drop(peak);
                let left = self.time_left(&step);
                return show_count_progress(self.bar.get(), progress, left);
            }
            return show_count_progress(self.bar.get(), progress, None);
        };
        if whole && self.args.verbose {
            let how = if cube_by_cube { ", cube by cube" } else { "" };
            note!("route: {}{how}", method.describe(request));
        }
        if !estimate && !whole {
            note_default_start(self.problem);
        }
        let _ = self
            .bar
            .set(count_bar(estimate, whole, method, cube_by_cube));
    }

    /// The frontier counter's estimate of the seconds the count has left
    /// after `step`, said by -v every --time-left-every (a minute).
    fn time_left(&self, step: &SquareProgress) -> Option<f64> {
        let mut time_left = self
            .time_left
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let (began, estimate, said) = &mut *time_left;
        let left = estimate.observe(began.elapsed().as_secs_f64(), step)?;
        if self.args.verbose && said.unwrap_or(*began).elapsed() >= self.args.time_left_every {
            *said = Some(Instant::now());
            note!(
                "frontier: {} in, about {} left ({}step {} of {})",
                time_words(began.elapsed().as_secs_f64()),
                time_words(left),
                piece_and_batch(step)
                    .map(|label| label + ", ")
                    .unwrap_or_default(),
                step.done,
                step.total
            );
        }
        Some(left)
    }

    /// Says where a count stands with its checkpoint: what it goes on
    /// from, and at its end what it wrote (-v) and, when it stopped
    /// first, that the same command goes on.
    fn checkpoint(&self, dir: &Path, report: &CheckpointReport, moment: CheckpointMoment) {
        let path = dir.to_path_buf();
        let dir = dir.display();
        match moment {
            CheckpointMoment::Opened => {
                crate::signals::note_on_signal(Some(Box::new(move || kept_in_words(&path))));
                let states = report
                    .states_found
                    .as_deref()
                    .map(|piece| format!(" and the states of {piece}"))
                    .unwrap_or_default();
                if report.pieces_found > 0 || !states.is_empty() {
                    note!(
                        "checkpoint: going on from {dir}: {} pieces finished{states}",
                        report.pieces_found
                    );
                } else if self.args.verbose {
                    note!("checkpoint: {dir}, nothing in it yet");
                }
            }
            CheckpointMoment::Removed | CheckpointMoment::Kept => {
                crate::signals::note_on_signal(None);
                if self.args.verbose {
                    note!(
                        "checkpoint: read {} finished pieces{}; wrote the states {} times, at most {} MiB, in {:.1} s",
                        report.pieces_read,
                        if report.states_read.is_some() { " and saved states" } else { "" },
                        report.states_written,
                        report.most_bytes.div_ceil(1 << 20),
                        report.writing.as_secs_f64()
                    );
                }
                if moment == CheckpointMoment::Kept {
                    note!("{}", kept_in_words(&path));
                }
            }
        }
    }

    /// The directory the frontier counter spills into.
    fn spill_dir(&self) -> std::path::PathBuf {
        knightsat::count::frontier::spill_parent(self.args.options.spill_dir.as_deref())
    }

    /// Prints a line of numbered cubes; the first failure to is kept.
    fn line(&self, line: CubeLine<'_>) {
        if let CubeLine::Tally(_) = line {
            self.printed.fetch_add(1, Ordering::Relaxed);
        }
        if let Err(error) = emit(|out| writeln!(out, "{line}")) {
            let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
            failed.get_or_insert(error);
        }
    }

    /// Clears the bar and, with -v, says the frontier counter's peak; the
    /// cubes' lines printed, and the first failure to print one.
    fn finish(self) -> (usize, Option<Failure>) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
        let (largest, bytes, on_disk) = *self.peak.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(largest) = largest.filter(|_| self.args.verbose) {
            let disk = if on_disk > 0 {
                format!(", the files at most {} MiB", on_disk.div_ceil(1 << 20))
            } else {
                String::new()
            };
            let piece = largest
                .piece
                .map(|piece| format!(" ({})", piece_words(piece)))
                .unwrap_or_default();
            note!(
                "frontier: at most {} live states, at step {} of {}{piece}; the tables took at most {} MiB{disk}",
                largest.states,
                largest.done,
                largest.total,
                bytes.div_ceil(1 << 20)
            );
        }
        let failed = self.failed.into_inner();
        (
            self.printed.into_inner(),
            failed.unwrap_or_else(PoisonError::into_inner),
        )
    }
}

/// The progress bar of a count whose route is `method` (cube by cube or
/// not): steps for the frontier, cubes for a count by cubes or a
/// sample, tours for one search; none for a count of numbered cubes,
/// whose lines say how far it is.
fn count_bar(estimate: bool, whole: bool, method: Method, cube_by_cube: bool) -> ProgressBar {
    match (estimate, whole) {
        (true, _) => cube_progress_bar(),
        (false, false) => ProgressBar::hidden(),
        _ if method == Method::Frontier => step_bar("steps"),
        _ if cube_by_cube => cube_progress_bar(),
        _ => progress_bar("tours"),
    }
}

/// Shows how far a count has got on its bar: tours found by one search,
/// cubes done (see [`show_cube_progress`]), or the steps the frontier
/// counter has taken (a square each, and when meeting in the middle one
/// more for each square of the cut), with its live states and the memory
/// they take.
fn show_count_progress(bar: Option<&ProgressBar>, progress: Progress<'_>, left: Option<f64>) {
    let Some(bar) = bar else { return };
    match progress {
        Progress::Tours(found) => bar.set_position(found),
        Progress::Cubes(done) => show_cube_progress(bar, done),
        Progress::Squares(done) => {
            show_step(bar, done.done as u64, done.total as u64);
            // A piece or a batch runs steps again: its number says why the
            // bar stepped back.
            let label = piece_and_batch(&done).map_or(String::new(), |label| label + ": ");
            let left = left.map_or(String::new(), |left| {
                format!(", about {} left", time_words(left))
            });
            bar.set_message(format!(
                "{label}{} states, {} MiB{left}",
                done.states,
                done.bytes.div_ceil(1 << 20)
            ));
        }
        Progress::Route { .. } | Progress::EndClasses(_) | Progress::Checkpoint { .. } => {}
    }
}

/// A time as the estimate of the time left says it: to the second within
/// the hour (`12 min 05 s`), to the minute past it (`1 h 05 min`).
fn time_words(seconds: f64) -> String {
    // Whole seconds: far finer than the estimate, and never negative.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = seconds.max(0.0).round() as u64;
    match (whole / 3600, whole / 60 % 60, whole % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s:02} s"),
        (h, m, _) => format!("{h} h {m:02} min"),
    }
}

/// What a count stopped before its end leaves in its checkpoint `dir`, in
/// words: what was done, for the same command to go on from, or nothing
/// yet (no state had been saved), and the same command starts over.
fn kept_in_words(dir: &Path) -> String {
    let shown = dir.display();
    if knightsat::count::checkpoint::holds_saved_work(dir) {
        format!("checkpoint: {shown} keeps what was done; the same command goes on from it")
    } else {
        format!("checkpoint: {shown} holds nothing yet (the count stopped before its first save, which comes at the end of a step once --checkpoint-every has passed); the same command starts over")
    }
}

/// Which of the counts run one after another and which batch a frontier
/// count is in, where it runs several.
fn piece_and_batch(step: &SquareProgress) -> Option<String> {
    let piece = step.piece.map(piece_words);
    let batch = step
        .batch
        .map(|batch| format!("batch {} of {}", batch.under_way, batch.made));
    let label = piece
        .into_iter()
        .chain(batch)
        .collect::<Vec<_>>()
        .join(", ");
    (!label.is_empty()).then_some(label)
}

/// Which of the counts run one after another a count is in, as the bar and
/// `-v` say it.
fn piece_words(piece: Piece) -> String {
    match piece {
        Piece::BothEndsInOneHalf => "both ends in one half".to_string(),
        Piece::AnEndInEachHalf => "an end in each half".to_string(),
        Piece::EndClass { class, of } => format!("class of ends {class} of {of}"),
    }
}

/// An estimate as `count --sample` prints it: the count with its margin,
/// and the time, for the cubes numbered `range` alone when given.
fn print_estimate(estimate: &Estimate, range: Option<CubeRange>, jobs: usize) -> Fallible<()> {
    let threads = resolve_jobs(jobs);
    let duration = seconds_in_words;
    emit(|out| {
        let margin = match (estimate.margin, estimate.cubes_for_margin) {
            (Some(margin), None) => format!("± {margin:.0} tours (95%)"),
            (Some(margin), Some(needed)) => {
                let needed = match needed {
                    Some(needed) if needed as usize >= estimate.cubes => format!(
                        "Cochran's rule, 25 × skewness², asks for {needed}, more than there are: count them all"
                    ),
                    Some(needed) => format!("Cochran's rule, 25 × skewness², asks for {needed}"),
                    None => "every cube sampled has the same count, which says nothing of the others".into(),
                };
                format!("± {margin:.0} tours (not a 95% interval: too few cubes for counts this skewed; {needed}; take it as an order of magnitude)")
            }
            (None, _) => "tours (one cube: no margin)".into(),
        };
        let cubes = match range {
            Some(range) => format!(
                "the {} cubes numbered {}-{}",
                estimate.cubes,
                range.first,
                range.first + estimate.cubes - 1
            ),
            None => format!("{} cubes", estimate.cubes),
        };
        writeln!(
            out,
            "estimate: {:.0} {margin}, from {} of {cubes} at depth {} ({} tours in the sample)",
            estimate.tours, estimate.sampled, estimate.depth, estimate.sample_tours
        )?;
        write!(
            out,
            "time: the sample took {} of solving; every cube would take about {} on 1 thread",
            duration(estimate.sample_seconds),
            duration(estimate.seconds)
        )?;
        if threads > 1 {
            write!(
                out,
                ", {} on {threads}",
                duration(estimate.seconds / threads as f64)
            )?;
        }
        writeln!(out)
    })
}

/// The longest line `sum` reads: far beyond any line of a task's output.
const MAX_TALLY_LINE: u64 = 64 << 10;

/// `sum`: the lines of `count --cubes` from `files` (stdin when there are
/// none) added up, every cube counted exactly once.
/// With `range`, exactly the cubes numbered `range` are to be there.
pub fn sum(files: &[PathBuf], range: Option<CubeRange>) -> Fallible<ExitCode> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut total = CubeSum::new();
    for file in files {
        let name = if file.as_os_str() == "-" {
            "stdin".to_string()
        } else {
            file.display().to_string()
        };
        let mut reader = input::open(file)?;
        let mut line = Vec::new();
        for number in 1.. {
            line.clear();
            // Lines with their newline: a last line without one was cut.
            // No line of a task's output is near 64 KiB: a longer one is
            // refused at its first 64 KiB, whatever the file holds, as
            // other inputs are refused past their bound.
            let read = io::BufRead::read_until(
                &mut io::Read::take(&mut reader, MAX_TALLY_LINE),
                b'\n',
                &mut line,
            )
            .map_err(|e| Error::io(format!("reading {name}"), e))?;
            if read == 0 {
                break;
            }
            if read as u64 == MAX_TALLY_LINE && line.last() != Some(&b'\n') {
                return Err(Error::Run(RunError::CannotRead {
                    path: name,
                    error: io::Error::other(format!(
                        "line {number} is longer than {} KiB, longer than any line `count --cubes` or `count --part` prints",
                        MAX_TALLY_LINE >> 10
                    )),
                })
                .into());
            }
            total
                .add(
                    &format!("{name} line {number}"),
                    &String::from_utf8_lossy(&line),
                )
                .map_err(Error::from)?;
        }
    }
    let tours = sum_tallies(&total, range)?;
    emit(|out| writeln!(out, "{tours}"))?;
    Ok(ExitCode::SUCCESS)
}

/// `count --cnf`: the tours of a knightsat CNF, cube CNFs included, by
/// the solver `sat` names.
pub fn count_cnf(cnf: &Path, sat: &Request) -> Fallible<ExitCode> {
    let found =
        count_cnf_file(input::open(cnf)?, sat).map_err(|error| Failure::in_file(cnf, error))?;
    emit(|out| writeln!(out, "{found}"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::time_words;

    #[test]
    fn times_left_are_said_to_the_second_within_the_hour_and_to_the_minute_past_it() {
        assert_eq!(time_words(42.4), "42 s");
        assert_eq!(time_words(59.6), "1 min 00 s");
        assert_eq!(time_words(725.0), "12 min 05 s");
        assert_eq!(time_words(3900.0), "1 h 05 min");
        assert_eq!(time_words(-3.0), "0 s");
    }
}
