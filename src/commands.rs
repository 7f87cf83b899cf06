//! One function per command: each converts its arguments, calls the
//! library, and prints what it returns.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{HumanDuration, ProgressBar, ProgressStyle};

use knightsat::certify::{check_proof, solve_with_proof, Verdict};
use knightsat::cnf::dimacs::{read_answer, Answer};
use knightsat::cnf_file::{
    read_cnf_info, stats, write_cnf, write_cnf_file, write_icnf_stream, write_icnf_stream_file,
    write_split_stream, CubeStream, MANIFEST,
};
use knightsat::count::tally::{CubeRange, CubeSum};
use knightsat::count::{
    count_recorded, sum_tallies, CountJob, CountReport, CubeLine, CubeProgress, Estimate, Progress,
    Sample,
};
use knightsat::cubes::{cube_count, effective_depth, for_each_cube, resolve_jobs, Cube};
use knightsat::deadline::Deadline;
use knightsat::decode::{check_model_satisfies, tour_from_model};
use knightsat::encoding::{EncodingConfig, Model};
use knightsat::error::{Error, Unsupported};
use knightsat::gate::refute_until;
use knightsat::input;
use knightsat::problem::Problem;
use knightsat::puzzle::{generate, puzzle_grid, puzzle_picture, Generated, PuzzleJson};
use knightsat::render::{board_grid, render, stats_table, svg, Format};
use knightsat::sat::Backend;
use knightsat::solve::auto::every_tour_step;
use knightsat::solve::{find_tour, solve_parallel, Method, Outcome, Request, Solved};
use knightsat::tour::{check_tour, Tour};

use crate::args::{
    EncodingArgs, FormatArg, MethodArg, ProblemArgs, PuzzleFormat, ShapeArgs, SolveArgs,
    StatsFormat,
};

/// Writes a line to stderr; a closed stderr loses the note, not the run.
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), $($arg)*);
    }};
}

/// Exit status when no tour exists (the formula is unsatisfiable), as SAT solvers use.
pub const EXIT_NO_TOUR: u8 = 20;
/// Exit status for a rejected tour or another failure.
pub const EXIT_FAILURE: u8 = 1;

/// `encode`: the CNF to stdout or atomically to a file.
pub fn encode(encoding: &EncodingArgs, output: &Path) -> anyhow::Result<ExitCode> {
    let (problem, _, encoding) = encoding.problem_and_encoding()?;
    note_default_start(&problem);
    if output.as_os_str() == "-" {
        write_cnf(&*encoding, io::stdout().lock())?;
    } else {
        let stats = write_cnf_file(&*encoding, output)?;
        note!(
            "wrote {}: {} variables, {} clauses",
            output.display(),
            stats.vars,
            stats.clauses
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `solve`: one tour, every tour, or a proof that there is none; the
/// built-in solvers may use `budget_mib` MiB.
pub fn solve(
    encoding: &EncodingArgs,
    args: SolveArgs,
    budget_mib: u64,
) -> anyhow::Result<ExitCode> {
    let names_sat = encoding.names_encoding()
        || args.solver.is_some()
        || !args.solver_arg.is_empty()
        || args.proof.is_some()
        || args.jobs != 1
        || args.depth.is_some();
    let method = match Method::from(args.method) {
        Method::Auto if names_sat => Method::Sat,
        method => method,
    };
    let (problem, config) = encoding.problem_and_config()?;
    let format = Format::from(args.format);
    // One time limit for the gate and the search: on a large holed board
    // the gate alone walks the move graph for seconds, so it gives up at
    // the limit and the search gets what is left.
    let deadline = Deadline::new(args.timeout);
    if !args.no_theory && args.proof.is_none() && answered_by_gate(&problem, deadline) {
        return print_outcome(Outcome::NoTour, format);
    }
    let solver = args.solver.as_deref().unwrap_or("varisat");
    let request = Request {
        config,
        backend: Backend::from_name(solver, args.solver_arg)?,
        memory_budget_mib: budget_mib,
        seed: args.seed,
        // No time left: a limit that has run out, which the search reports.
        timeout: deadline.left().unwrap_or(Some(Duration::from_nanos(1))),
        proof: args.proof.is_some(),
        every_tour: args.all,
        // Passed above (or skipped on purpose).
        gate: false,
    };
    let way_out = |error| {
        let error = with_whole_limit(error, deadline);
        solve_way_out(error, &problem, method, &request, args.jobs)
    };
    if method == Method::Sat {
        // Options that do not fit the problem are refused before any work.
        request.config.check(&problem).map_err(way_out)?;
    }
    method.check_supports(&problem, &request)?;
    if let Some(proof) = args.proof {
        let cnf = args.cnf_out.unwrap_or_else(|| default_cnf_path(&proof));
        note_default_start(&problem);
        let outcome = solve_with_proof(&problem, &request, &proof, &cnf).map_err(way_out)?;
        match outcome {
            Outcome::NoTour => note!(
                "wrote {} (DRAT proof) for {}; check with: knightsat certify --cnf {} --proof {}",
                proof.display(),
                cnf.display(),
                cnf.display(),
                proof.display()
            ),
            Outcome::Tour(_) => note!("a tour exists, so there is no proof to write"),
        }
        return print_outcome(outcome, format);
    }
    if args.all {
        if args.verbose && method == Method::Auto {
            let step = every_tour_step(&problem, &request);
            note!("route: {}", route_in_words(step.method, &step.request));
        }
        return print_all(&problem, method, &request, args.limit, format).map_err(
            |error| match error.downcast::<Error>() {
                Ok(error) => way_out(error),
                Err(other) => other,
            },
        );
    }
    note_default_start(&problem);
    let started = Instant::now();
    let progress = io::stderr().is_terminal();
    if progress {
        let by = match method {
            Method::Sat => solver.to_string(),
            method => route_in_words(method, &request),
        };
        let _ = write!(
            io::stderr(),
            "solving {} ({}) with {by}…",
            problem.board(),
            problem.kind()
        );
    }
    let depth = args.depth.map(usize::try_from).transpose()?;
    let solved = if args.jobs == 1 && depth.is_none() {
        find_tour(&problem, method, &request)
    } else if method != Method::Sat {
        Err(Error::Unsupported(Unsupported::CubesWithoutSat(
            method.name(),
        )))
    } else {
        solve_parallel(&problem, &request, args.jobs, depth)
    };
    if progress {
        note!(" {:.2} s", started.elapsed().as_secs_f64());
    }
    let solved = solved.map_err(way_out)?;
    if args.verbose {
        note_how(&solved);
    }
    print_outcome(solved.outcome, format)
}

/// `error` with the whole time limit of `deadline` where it is a timeout,
/// not what the gate left of it.
fn with_whole_limit(error: Error, deadline: Deadline) -> Error {
    match error {
        Error::Timeout { .. } => deadline.expired(),
        Error::TimedOutPartway { found, .. } => Error::TimedOutPartway {
            seconds: deadline.seconds(),
            found,
        },
        error => error,
    }
}

/// Says on stderr how a search went (`-v`): the route, and the subtour
/// loop's figures where it ran.
fn note_how(solved: &Solved) {
    note!("route: {}", solved.route);
    let rounds = solved.subtours;
    // Only the successor encoding's lazy loop has rounds worth telling.
    if rounds.rounds > 0 && solved.route.contains("successor") {
        note!(
            "subtour loop: models solved {}, subtour cuts added {}, tour patched together from subtours: {}",
            rounds.rounds,
            rounds.cuts,
            if rounds.patched > 0 { "yes" } else { "no" }
        );
    }
}

/// Runs the feasibility gate on `problem`; where it proves that there is
/// no tour, says why on stderr and returns true.
fn answered_by_gate(problem: &Problem, deadline: Deadline) -> bool {
    match refute_until(problem, deadline.until()) {
        Some(refutation) => {
            note!("note: no tour, proved without search by the feasibility gate: {refutation}");
            true
        }
        None => false,
    }
}

/// A route in words, as `-v` prints it.
fn route_in_words(method: Method, request: &Request) -> String {
    match method {
        Method::Sat => request.describe_sat(),
        Method::Warnsdorff => "Warnsdorff's rule".into(),
        Method::Backtrack => "backtracking".into(),
        Method::Auto => "the default route".into(),
        Method::Frontier => "the frontier counter".into(),
    }
}

/// `error` from `solve`, with the route that would work where there is
/// one: only options `solve` takes, and only those that apply.
fn solve_way_out(
    error: Error,
    problem: &Problem,
    method: Method,
    request: &Request,
    jobs: usize,
) -> anyhow::Error {
    let plain = problem.clues().is_empty();
    let time_indexed = request.config == EncodingConfig::default();
    let hint = match &error {
        Error::Timeout { .. } | Error::TimedOutPartway { .. } => match method {
            Method::Sat | Method::Backtrack if plain && !request.every_tour => Some(
                "without --method and encoding options, the default route (Warnsdorff's rule, then the successor encoding on built-in CaDiCaL) finds plain tours fastest"
                    .to_string(),
            ),
            Method::Sat if plain => Some("--method backtrack lists plain tours fastest".into()),
            _ => Some("try a longer --timeout".into()),
        },
        Error::BoardTooLargeForEncoding { encoding, .. } => Some(match *encoding {
            "successor" => "--subtours lazy and --method warnsdorff take larger boards".to_string(),
            _ if plain && !request.every_tour => {
                "--encoding successor and --method warnsdorff take larger boards".to_string()
            }
            _ => "--encoding successor takes larger boards".to_string(),
        }),
        Error::OverMemoryBudget { .. } => {
            let mut ways = Vec::new();
            if plain && time_indexed && !request.every_tour {
                ways.push("--encoding successor (linear in the board)".to_string());
                ways.push("--method warnsdorff".into());
            }
            if jobs != 1 {
                ways.push("fewer --jobs".into());
            }
            if !request.every_tour && !request.proof {
                ways.push("a solver program (--solver kissat reads the CNF from disk)".into());
            }
            ways.push("a larger --memory-budget".into());
            Some(format!("try {}", ways.join(", ")))
        }
        _ => None,
    };
    with_way_out(error, hint)
}

/// `error` with a hint that names the way out, when there is one.
fn with_way_out(error: Error, hint: Option<String>) -> anyhow::Error {
    match hint {
        Some(hint) => WayOut { error, hint }.into(),
        None => error.into(),
    }
}

/// A library error and the route that would work instead, worded for the
/// command that failed.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct WayOut {
    /// What went wrong.
    #[source]
    pub error: Error,
    /// What to try instead, in the command's options.
    pub hint: String,
}

/// `decode`: a solver's output for a knightsat CNF, as a verified tour.
pub fn decode(cnf: &Path, solver_output: &Path, format: FormatArg) -> anyhow::Result<ExitCode> {
    let mut clauses = input::open(cnf)?;
    let info = read_cnf_info(&mut clauses).with_context(|| cnf.display().to_string())?;
    let outcome = match read_answer(input::open(solver_output)?, info.vars)? {
        Answer::Unsat => Outcome::NoTour,
        Answer::Unknown => return Err(Error::NoAnswer.into()),
        Answer::Sat(values) => {
            let encoding = info.encoding.prepare(&info.problem)?;
            let model = Model::new(values);
            let tour = tour_from_model(&*encoding, &model, Some(info.vars))?;
            // The tour may be one of the problem's and the model still be
            // another CNF's (another cube's): the clauses decide.
            check_model_satisfies(clauses, &model, encoding.primary_vars())?;
            Outcome::Tour(tour)
        }
    };
    print_outcome(outcome, format.into())
}

/// `verify`: a tour handed in, checked without SAT.
pub fn verify(problem: &ProblemArgs, tour: &Path) -> anyhow::Result<ExitCode> {
    let given = problem.given()?;
    let text = input::read_text(tour)?;
    let closed = given.as_ref().map_or(problem.closed(), Problem::is_closed);
    let board = problem.given_board(given.as_ref())?;
    let tour = check_tour(&text, &board, closed, |board, closed| {
        let base = match &given {
            Some(given) => given.clone(),
            None => Problem::new(board),
        };
        problem.complete(base.closed(closed))
    })?;
    emit(|out| {
        writeln!(
            out,
            "valid {} {} tour of the {} board ({} squares)",
            if tour.closed { "closed" } else { "open" },
            tour.board.leaper().name(),
            tour.board,
            tour.squares.len()
        )
    })?;
    Ok(ExitCode::SUCCESS)
}

/// What `puzzle` is asked for.
#[derive(Clone, Copy)]
pub struct PuzzleArgs {
    /// The solution is a closed tour.
    pub closed: bool,
    /// The random seed, if given.
    pub seed: Option<u64>,
    /// Print the solution too.
    pub solution: bool,
    /// How to print.
    pub format: PuzzleFormat,
}

/// `puzzle`: a numbered grid with one solution, made by SAT as `request`
/// says.
pub fn puzzle(shape: &ShapeArgs, args: PuzzleArgs, request: &Request) -> anyhow::Result<ExitCode> {
    let board = shape.required_board()?;
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let bar = step_bar("clues tried");
    let generated = generate(&board, args.closed, seed, request, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let Some(Generated {
        puzzle,
        solution: tour,
        untried,
    }) = generated
    else {
        return print_outcome(Outcome::NoTour, Format::Board);
    };
    note!(
        "{} {} puzzle on the {} board: {} clues (seed {seed}{})",
        if args.closed { "closed" } else { "open" },
        board.leaper().name(),
        board,
        puzzle.clues().len(),
        if untried == 0 {
            format!("; --seed {seed} makes it again")
        } else {
            String::new()
        }
    );
    if untried > 0 {
        note!(
            "the time limit ran out with {untried} of {} clues untried: the solution is unique, but some clues may be unneeded (without --timeout, --seed {seed} makes a puzzle where none is)",
            board.squares()
        );
    }
    let answer = args.solution.then_some(&tour);
    let text = match args.format {
        PuzzleFormat::Board => match answer {
            Some(tour) => format!("{}\n{}", puzzle_grid(&puzzle), board_grid(tour)),
            None => puzzle_grid(&puzzle),
        },
        PuzzleFormat::Json => serde_json::to_string(&PuzzleJson::new(&puzzle, answer))? + "\n",
        PuzzleFormat::Svg => svg(&puzzle_picture(&puzzle, answer)),
    };
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// What `count` is asked besides the problem, the method and the request.
pub struct CountArgs {
    /// --limit.
    pub limit: Option<u64>,
    /// --up-to-symmetry.
    pub up_to_symmetry: bool,
    /// --jobs.
    pub jobs: usize,
    /// --depth.
    pub depth: Option<usize>,
    /// --sample and --seed.
    pub sample: Option<Sample>,
    /// --cubes.
    pub cubes: Option<CubeRange>,
    /// -v.
    pub verbose: bool,
}

/// `count`: how many tours (or orbits), an estimate from a sample of the
/// cubes (--sample; of the cubes numbered A to B alone with --cubes), or
/// the tours of each cube numbered A to B (--cubes), one line per cube as
/// it is done, for `sum` to add up (see [`CubeTally`]); `sat` gives the
/// solver, budget and time limit for --method sat, the time limit for the
/// others.
pub fn count(
    encoding: &EncodingArgs,
    method: MethodArg,
    sat: &Request,
    args: &CountArgs,
) -> anyhow::Result<ExitCode> {
    let (problem, config) = encoding.problem_and_config()?;
    let method = Method::from(method);
    let (whole, estimate) = (args.whole(), args.sample.is_some());
    let show = CountShow::new(&problem, args);
    let on_progress = |progress: Progress<'_>| show.progress(progress);
    let on_cube = |line: CubeLine<'_>| show.line(line);
    let job = CountJob {
        method,
        request: Request {
            config,
            ..sat.clone()
        },
        jobs: args.jobs,
        depth: args.depth,
        cubes: args.cubes,
        sample: args.sample,
        limit: args.limit,
        up_to_symmetry: args.up_to_symmetry,
        on_progress: Some(&on_progress),
        on_cube: Some(&on_cube),
        ..CountJob::new(&problem)
    };
    let report = job.run();
    let (printed, failed) = show.finish();
    let report = match report {
        Err(Error::TimedOutPartway { seconds, found }) if whole => {
            note!("knightsat: the --timeout of {seconds} s ran out after {found} tours: there are at least {found}, maybe more (exit 124)");
            return Ok(ExitCode::from(crate::EXIT_TIMEOUT));
        }
        Err(Error::TimedOutPartway { seconds, .. }) if !estimate => {
            note!("knightsat: the --timeout of {seconds} s ran out after {printed} cubes: each line printed is a whole cube; `knightsat sum` names the cubes left (exit 124)");
            return Ok(ExitCode::from(crate::EXIT_TIMEOUT));
        }
        Err(error) if whole => return Err(count_way_out(error, &problem, method, args.jobs)),
        report => report?,
    };
    match report {
        CountReport::Tours(count) => {
            if let Some(refutation) = &count.refuted {
                note!("note: no tour, proved without search by the feasibility gate: {refutation}");
            }
            emit(|out| writeln!(out, "{}", count.tours))?;
            if count.at_limit {
                note!(
                    "note: stopped at the limit of {}; there may be more",
                    count.tours
                );
            }
        }
        CountReport::Estimate(estimate) => print_estimate(&estimate, args.cubes, args.jobs)?,
        CountReport::Cubes(_) => {
            if let Some(error) = failed {
                return Err(error);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

impl CountArgs {
    /// Whether this is a count of the whole problem (neither --sample nor
    /// --cubes): the tours, with a route (-v) and a way out of errors.
    fn whole(&self) -> bool {
        self.sample.is_none() && self.cubes.is_none()
    }
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
    failed: Mutex<Option<anyhow::Error>>,
}

impl<'a> CountShow<'a> {
    fn new(problem: &'a Problem, args: &'a CountArgs) -> Self {
        CountShow {
            problem,
            args,
            bar: OnceLock::new(),
            printed: AtomicUsize::new(0),
            failed: Mutex::new(None),
        }
    }

    /// Shows how the count goes: the route starts the bar.
    fn progress(&self, progress: Progress<'_>) {
        let (whole, estimate) = (self.args.whole(), self.args.sample.is_some());
        let Progress::Route {
            method,
            request,
            cube_by_cube,
        } = progress
        else {
            return show_count_progress(self.bar.get(), progress);
        };
        if whole && self.args.verbose {
            let how = if cube_by_cube { ", cube by cube" } else { "" };
            note!("route: {}{how}", route_in_words(method, request));
        }
        if !estimate && !whole {
            note_default_start(self.problem);
        }
        let _ = self
            .bar
            .set(count_bar(estimate, whole, method, cube_by_cube));
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

    /// Clears the bar; the cubes' lines printed, and the first failure to
    /// print one.
    fn finish(self) -> (usize, Option<anyhow::Error>) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
        let failed = self.failed.into_inner();
        (
            self.printed.into_inner(),
            failed.unwrap_or_else(PoisonError::into_inner),
        )
    }
}

/// The progress bar of a count whose route is `method` (cube by cube or
/// not): squares for the frontier, cubes for a count by cubes or a
/// sample, tours for one search; none for a count of numbered cubes,
/// whose lines say how far it is.
fn count_bar(estimate: bool, whole: bool, method: Method, cube_by_cube: bool) -> ProgressBar {
    match (estimate, whole) {
        (true, _) => cube_progress_bar(),
        (false, false) => ProgressBar::hidden(),
        _ if method == Method::Frontier => step_bar("squares"),
        _ if cube_by_cube => cube_progress_bar(),
        _ => progress_bar("tours"),
    }
}

/// Shows how far a count has got on its bar: tours found by one search,
/// cubes done (see [`show_cube_progress`]), or the squares the frontier
/// counter has processed, with its live states and the memory they take.
fn show_count_progress(bar: Option<&ProgressBar>, progress: Progress<'_>) {
    let Some(bar) = bar else { return };
    match progress {
        Progress::Tours(found) => bar.set_position(found),
        Progress::Cubes(done) => show_cube_progress(bar, done),
        Progress::Squares(done) => {
            bar.set_length(done.total as u64);
            bar.set_position(done.done as u64);
            bar.set_message(format!(
                "{} states, {} MiB",
                done.states,
                done.bytes.div_ceil(1 << 20)
            ));
        }
        Progress::Route { .. } => {}
    }
}

/// `error` from `count`, with the route that would work where there is
/// one: only options `count` takes (no solver programs).
fn count_way_out(error: Error, problem: &Problem, method: Method, jobs: usize) -> anyhow::Error {
    let plain = problem.clues().is_empty();
    let hint = match &error {
        Error::Timeout { .. } if method == Method::Sat && plain => {
            Some("without --method and SAT options, the default route counts plain tours by backtracking, fastest".to_string())
        }
        Error::Timeout { .. } => Some("try a longer --timeout".to_string()),
        Error::BoardTooLargeForEncoding { .. } if plain => {
            Some("--method backtrack counts without a formula, on any board".to_string())
        }
        Error::OverMemoryBudget { .. } | Error::CubesOverMemoryBudget { .. } => {
            let mut ways = Vec::new();
            if plain && method == Method::Sat {
                ways.push("--method backtrack (no memory to speak of)".to_string());
            }
            if jobs != 1 {
                ways.push("fewer --jobs".into());
            }
            ways.push("a larger --memory-budget".into());
            Some(format!("try {}", ways.join(", ")))
        }
        _ => None,
    };
    with_way_out(error, hint)
}

/// An estimate as `count --sample` prints it: the count with its margin,
/// and the time, for the cubes numbered `range` alone when given.
fn print_estimate(
    estimate: &Estimate,
    range: Option<CubeRange>,
    jobs: usize,
) -> anyhow::Result<()> {
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

/// `sum`: the lines of `count --cubes` from `files` (stdin when there are
/// none) added up, every cube counted exactly once.
/// With `range`, exactly the cubes numbered `range` are to be there.
pub fn sum(files: &[PathBuf], range: Option<CubeRange>) -> anyhow::Result<ExitCode> {
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
            // refused at its first 64 KiB, whatever the file holds.
            let read = io::BufRead::read_until(
                &mut io::Read::take(&mut reader, 1 << 16),
                b'\n',
                &mut line,
            )
            .map_err(|e| Error::io(format!("reading {name}"), e))?;
            if read == 0 {
                break;
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

/// A duration for people: below a minute in seconds, milliseconds or
/// microseconds with two or three significant digits (a cube of a small
/// board takes microseconds, which "0 seconds" would hide), from a minute
/// on in the largest whole unit ("5 minutes").
fn seconds_in_words(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds >= 60.0 {
        return HumanDuration(Duration::from_secs_f64(seconds)).to_string();
    }
    let (value, unit) = if seconds == 0.0 || seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else {
        (seconds * 1e6, "µs")
    };
    let digits = usize::from(value > 0.0 && value < 10.0);
    format!("{value:.digits$} {unit}")
}

/// Shows how far a count over cubes has got on its bar: cubes done of all,
/// and in the message the tours so far and their rate.
fn show_cube_progress(progress: &ProgressBar, done: CubeProgress) {
    progress.set_length(done.cubes as u64);
    progress.set_position(done.cubes_done as u64);
    let seconds = progress.elapsed().as_secs_f64().max(1e-3);
    progress.set_message(format!(
        "{} tours, {:.0} tours/s",
        done.tours,
        done.tours as f64 / seconds
    ));
}

/// `count --cnf`: the tours of a knightsat CNF, cube CNFs included, by
/// the solver `sat` names.
pub fn count_cnf(cnf: &Path, sat: &Request) -> anyhow::Result<ExitCode> {
    let info = read_cnf_info(input::open(cnf)?).with_context(|| cnf.display().to_string())?;
    let found = count_recorded(&info, sat).with_context(|| cnf.display().to_string())?;
    emit(|out| writeln!(out, "{found}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Progress of a count over cubes: cubes done of all, tours, rate and ETA
/// (on stderr, when it is a terminal).
fn cube_progress_bar() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} cubes, {msg}, {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// `cubes`: the formula with its cubes, as an iCNF or split into one CNF
/// per cube. The cubes are counted, then handed out one at a time as they
/// are written, never all held: any depth fits in memory.
pub fn cubes(
    encoding: &EncodingArgs,
    depth: usize,
    output: &Path,
    split: Option<&Path>,
    count_only: bool,
) -> anyhow::Result<ExitCode> {
    let (problem, config, encoding) = encoding.problem_and_encoding()?;
    note_default_start(&problem);
    // --count counts the split's cubes, which `count --cubes` numbers.
    let (config, encoding) = if split.is_some() || count_only {
        let config = config.keeping_every_tour();
        let encoding = config.prepare(&problem)?;
        (config, encoding)
    } else {
        (config, encoding)
    };
    let count = cube_count(&problem, &config, depth, usize::MAX)?;
    if count_only {
        emit(|out| writeln!(out, "{count}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let walk = |visit: &mut dyn FnMut(&Cube) -> Result<(), Error>| {
        for_each_cube(&problem, &config, depth, visit)
    };
    let stream = CubeStream {
        count,
        depth: effective_depth(depth, problem.board().squares()),
        each: &walk,
    };
    if let Some(dir) = split {
        let files = write_split_stream(&*encoding, stream, dir)?;
        note!(
            "wrote {files} cube CNFs and {} into {}",
            MANIFEST,
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if output.as_os_str() == "-" {
        write_icnf_stream(&*encoding, stream, io::stdout().lock())?;
    } else {
        let stats = write_icnf_stream_file(&*encoding, stream, output)?;
        note!(
            "wrote {}: {} variables, {} clauses, {count} cubes",
            output.display(),
            stats.vars,
            stats.clauses,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `certify`: a DRAT proof checked by `rate`.
pub fn certify(cnf: &Path, proof: &Path) -> anyhow::Result<ExitCode> {
    match check_proof(cnf, proof)? {
        Verdict::Verified => {
            emit(|out| {
                writeln!(
                    out,
                    "verified: {} proves {} unsatisfiable",
                    proof.display(),
                    cnf.display()
                )
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Verdict::RefutedByPropagation => {
            emit(|out| {
                writeln!(
                    out,
                    "verified: unit propagation alone refutes {}, so it is unsatisfiable whatever {} says (rate cannot check proofs of such formulas)",
                    cnf.display(),
                    proof.display()
                )
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Rejected(why) => {
            note!("knightsat: proof rejected by rate: {why}");
            Ok(ExitCode::from(EXIT_FAILURE))
        }
    }
}

/// `stats`: the formula's size per family.
pub fn stats_of(encoding: &EncodingArgs, format: StatsFormat) -> anyhow::Result<ExitCode> {
    let (_, _, encoding) = encoding.problem_and_encoding()?;
    let stats = stats(&*encoding);
    let text = match format {
        StatsFormat::Json => serde_json::to_string(&stats)? + "\n",
        StatsFormat::Table => stats_table(
            &stats,
            encoding.variable_kind(),
            encoding.primary_vars(),
            encoding.live_vars(),
        ),
    };
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// The proof's path with the extension `.cnf`, or with `.cnf` appended when
/// that would be the proof itself.
fn default_cnf_path(proof: &Path) -> PathBuf {
    let cnf = proof.with_extension("cnf");
    if cnf == proof {
        let mut name = proof.as_os_str().to_owned();
        name.push(".cnf");
        PathBuf::from(name)
    } else {
        cnf
    }
}

fn note_default_start(problem: &Problem) {
    if problem.start_fixed_by_default() {
        note!(
            "note: closed tour with no --start, --end or clue: start fixed at {}, which loses no tour",
            problem.board().name(0)
        );
    }
}

/// A bar with position, length and elapsed time on stderr, or nothing
/// when stderr is not a terminal.
fn step_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}} {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner with the count, rate and elapsed time on stderr, or nothing
/// when stderr is not a terminal.
fn progress_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{human_pos}} {what} found, {{per_sec}}, {{elapsed}}"
        ))
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Streams every tour in `format`: JSON Lines for json, blank lines between grids.
fn print_all(
    problem: &Problem,
    method: Method,
    request: &Request,
    limit: Option<u64>,
    format: Format,
) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    let mut first = true;
    let mut on_tour = |tour: &Tour| {
        if format == Format::Board && !std::mem::take(&mut first) {
            out.write_all(b"\n")
                .map_err(|e| Error::io("writing a tour", e))?;
        }
        print_tour(&mut out, tour, format).map_err(|e| Error::io("writing a tour", e))
    };
    let listed = CountJob {
        method,
        request: request.clone(),
        limit,
        on_tour: Some(&mut on_tour),
        ..CountJob::new(problem)
    }
    .run()?;
    drop(out);
    if listed.tours() == Some(0) {
        return print_outcome(Outcome::NoTour, format);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the outcome; the exit status is the verdict, whether or not
/// anyone still reads the output.
fn print_outcome(outcome: Outcome, format: Format) -> anyhow::Result<ExitCode> {
    match outcome {
        Outcome::Tour(tour) => {
            emit(|out| print_tour(out, &tour, format))?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NoTour => {
            emit(|out| writeln!(out, "no tour exists for these constraints"))?;
            Ok(ExitCode::from(EXIT_NO_TOUR))
        }
    }
}

/// Writes to stdout and flushes: a closed pipe quietly ends the output (the
/// reader has all it wanted), any other failure is an error.
fn emit(write: impl FnOnce(&mut io::StdoutLock<'_>) -> io::Result<()>) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => Ok(result.map_err(|e| Error::io("writing the output", e))?),
    }
}

fn print_tour(out: &mut impl Write, tour: &Tour, format: Format) -> io::Result<()> {
    out.write_all(render(tour, format).as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::seconds_in_words;

    #[test]
    fn durations_read_in_their_unit() {
        for (seconds, words) in [
            (0.0, "0 s"),
            (-0.0, "0 s"),
            (3.2e-7, "0.3 µs"),
            (4.25e-5, "42 µs"),
            (0.0042, "4.2 ms"),
            (0.5, "500 ms"),
            (1.26, "1.3 s"),
            (42.4, "42 s"),
            (300.0, "5 minutes"),
        ] {
            assert_eq!(seconds_in_words(seconds), words, "{seconds}");
        }
    }
}
