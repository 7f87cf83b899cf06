//! `count` in all its forms, and `sum`, which adds up a split count.

use crate::failure::{Failure, Fallible};
use knightsat::error::{EncodingError, RunError, SatError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use indicatif::ProgressBar;

use knightsat::count::frontier::{Piece, SquareProgress};
use knightsat::count::tally::{CubeRange, CubeSum};
use knightsat::count::{
    count_cnf as count_cnf_file, sum_tallies, CountJob, CountReport, CubeLine, Estimate, Progress,
};
use knightsat::encoding::TimeIndexed;
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
    let job = CountJob {
        method,
        request: request.clone(),
        options: args.options.clone(),
        on_progress: Some(&on_progress),
        on_cube: Some(&on_cube),
        ..CountJob::new(problem)
    };
    note_whole_tour(problem);
    let threads = job.threads();
    let report = job.run();
    let (printed, failed) = show.finish();
    let report = report.map_err(|error| count_failure(error, plan, printed))?;
    print_report(report, args, threads, failed)?;
    Ok(ExitCode::SUCCESS)
}

/// What `count` says of `error`: a count cut short by its time limit,
/// by what stands printed (`printed` cubes' lines), or the error with
/// the way out where there is one.
fn count_failure(error: Error, plan: &Count, printed: usize) -> Failure {
    let args = &plan.args;
    let (whole, estimate) = (args.whole(), args.options.sample.is_some());
    match error {
        // Before the first tour there is no partial count to give: the
        // timeout's own words, with the faster route where there is one.
        Error::Run(RunError::TimedOutPartway { seconds, found: 0 }) if whole => {
            count_way_out(Error::Run(RunError::Timeout { seconds }), plan)
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
        error if whole => count_way_out(error, plan),
        // A part's way out of the budget: the same for every part.
        error @ Error::FrontierOverMemoryBudget { .. } => count_way_out(error, plan),
        // A sample's cubes need the encoding as the whole count's do.
        error @ Error::Encoding(EncodingError::BoardTooLargeForEncoding { .. }) if estimate => {
            count_way_out(error, plan)
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
            }
            return show_count_progress(self.bar.get(), progress);
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
fn show_count_progress(bar: Option<&ProgressBar>, progress: Progress<'_>) {
    let Some(bar) = bar else { return };
    match progress {
        Progress::Tours(found) => bar.set_position(found),
        Progress::Cubes(done) => show_cube_progress(bar, done),
        Progress::Squares(done) => {
            show_step(bar, done.done as u64, done.total as u64);
            // A piece or a batch runs steps again: its number says why the
            // bar stepped back.
            let piece = done.piece.map(piece_words);
            let batch = done
                .batch
                .map(|(batch, batches)| format!("batch {batch} of {batches}"));
            let label = piece
                .into_iter()
                .chain(batch)
                .collect::<Vec<_>>()
                .join(", ");
            let label = if label.is_empty() {
                label
            } else {
                label + ": "
            };
            bar.set_message(format!(
                "{label}{} states, {} MiB",
                done.states,
                done.bytes.div_ceil(1 << 20)
            ));
        }
        Progress::Route { .. } | Progress::EndClasses(_) => {}
    }
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

/// The method the default route counts `problem`'s plain tours by, where
/// that method can take the board: backtracking on any board, the
/// frontier counter where its states hold the board's frontier.
fn faster_plain_count(problem: &Problem) -> Option<Method> {
    let method = CountJob::new(problem).plain_count_method();
    match method {
        Method::Backtrack => Some(method),
        Method::Frontier if knightsat::count::frontier::holds(problem) => Some(method),
        _ => None,
    }
}

/// `error` from `count`, with the route that would work where there is
/// one: only options `count` takes (no solver programs), and only those
/// that work with the other options given.
fn count_way_out(error: Error, plan: &Count) -> Failure {
    let (problem, method) = (&plan.problem, plan.method);
    let plain = problem.clues().is_empty();
    let faster = (method == Method::Sat && plain)
        .then(|| faster_plain_count(problem))
        .flatten();
    let hint = match &error {
        Error::Run(RunError::Timeout { .. }) if faster.is_some() => faster.map(|fastest| {
            format!(
                "without --method and SAT options, the default route counts these tours by {}, faster",
                fastest.describe(&Request::default())
            )
        }),
        Error::Run(RunError::Timeout { .. }) => Some("try a longer --timeout".to_string()),
        // Backtracking numbers its cubes by the time-indexed encoding; in
        // one search, named by `--method backtrack`, it takes any board.
        Error::Encoding(EncodingError::BoardTooLargeForEncoding { .. }) if plain => {
            Some(past_the_encoding(plan).to_string())
        }
        Error::Sat(refusal @ SatError::OverMemoryBudget { .. }) => {
            Some(sat_over_budget(plan, refusal))
        }
        Error::FrontierOverMemoryBudget { .. }
        | Error::FrontierDisk { .. }
        | Error::FrontierTooWide { .. } => Some(frontier_way_out(&error, plan)),
        // The cubes of a depth given take the same memory by any method
        // and on any number of threads: the smaller depth that fits is
        // said with the error.
        Error::CubesOverMemoryBudget { .. } => Some("try a larger --memory-budget".to_string()),
        _ => None,
    };
    with_way_out(error, hint)
}

/// The way out for a plain count of a board too large for the
/// time-indexed encoding, by what the plan asked.
fn past_the_encoding(plan: &Count) -> &'static str {
    let cubes = plan.args.options.jobs.unwrap_or(1) != 1 || plan.args.options.depth.is_some();
    let sampled = plan.args.options.sample.is_some() || plan.args.options.cubes.is_some();
    match (plan.method == Method::Backtrack, cubes) {
        _ if sampled => "--sample and --cubes number their cubes by that encoding, so nothing samples a board this large; --method backtrack --limit N counts its first N tours",
        // The default route takes the frontier counter wherever its
        // frontier fits (count::route::tally_step); a square board this
        // large has one over 180 squares wide.
        (false, false) => "no exact route counts a board this large: its frontier is far wider than the 23 squares the frontier counter holds, backtracking lists the tours one by one (far too many), and --sample numbers its cubes by that encoding too; --method backtrack --limit N counts its first N tours",
        (false, true) => "--method backtrack without --jobs and --depth counts without a formula, on any board",
        (true, _) => "backtracking numbers its cubes by that encoding: without --jobs and --depth it counts in one search, on any board",
    }
}

/// The ways out of SAT's memory budget: backtracking, fewer threads where
/// one session fits, a larger budget.
fn sat_over_budget(plan: &Count, refusal: &SatError) -> String {
    let mut ways = Vec::new();
    // Backtracking takes clues and cubes, and no SAT option.
    if plan.method == Method::Sat && !plan.names_sat {
        ways.push("--method backtrack (no memory to speak of)".to_string());
    }
    if let Some(fit) = refusal.threads_that_fit() {
        ways.push(format!("--jobs {fit}"));
    }
    ways.push("a larger --memory-budget".into());
    format!("try {}", ways.join(", "))
}

/// The way out of the frontier counter's refusals: its memory budget,
/// its disk, or a board wider than any state holds.
fn frontier_way_out(error: &Error, plan: &Count) -> String {
    let part = plan.args.options.part.is_some();
    match error {
        // The frontier counter takes no clues, so the count is a plain
        // one that backtracking takes too.
        Error::FrontierOverMemoryBudget { meeting: true, .. } if part => "try --frontier-order rows or snake, which keep on disk the states that do not fit (the same order for every part), or a larger --memory-budget".to_string(),
        Error::FrontierOverMemoryBudget { meeting: true, .. } => "try --frontier-order rows or snake, which keep on disk the states that do not fit, a larger --memory-budget, or --method backtrack".to_string(),
        Error::FrontierOverMemoryBudget { .. } if part => "try a larger --memory-budget".to_string(),
        Error::FrontierOverMemoryBudget { .. } => "try a larger --memory-budget, or --method backtrack (little memory, but its time grows with the number of tours)".to_string(),
        Error::FrontierDisk { .. } => "give --spill-dir a directory with more room, or a larger --memory-budget".to_string(),
        // Wider than any state holds: every other route lists the tours
        // one by one, and a board this wide has far too many. A sample's
        // cubes are numbered by the time-indexed encoding, which takes
        // boards up to its size limit.
        _ => {
            let instead = if plan.problem.board().squares() <= TimeIndexed::MAX_SQUARES {
                "--sample K --depth D estimates the count from K cubes where each cube is small enough to count"
            } else {
                "--method backtrack --limit N counts its first N tours"
            };
            format!("no route counts a board this wide: backtracking and SAT list the tours one by one, far too many here; {instead}")
        }
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
