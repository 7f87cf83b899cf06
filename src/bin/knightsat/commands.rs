//! One function per command: each converts its arguments, calls the
//! library, and prints what it returns.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use knightsat::certify::{check_proof, solve_with_proof, Verdict};
use knightsat::cnf::dimacs::{read_answer, Answer};
use knightsat::cnf_file::{read_cnf_info, stats, write_cnf, write_cnf_file};
use knightsat::count::{enumerate_by, CountOptions};
use knightsat::decode::tour_from_model;
use knightsat::encoding::Model;
use knightsat::error::Error;
use knightsat::input;
use knightsat::problem::Problem;
use knightsat::puzzle::{generate, puzzle_grid, puzzle_picture, Generated, PuzzleJson};
use knightsat::render::{board_grid, render, stats_table, svg, Format};
use knightsat::solve::{find_tour, Backend, Method, Outcome, Request};
use knightsat::theory;
use knightsat::tour::{check_tour, Tour};

use crate::args::{
    EncodingArgs, FormatArg, MethodArg, ProblemArgs, PuzzleFormat, ShapeArgs, StatsFormat,
};

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
        eprintln!(
            "wrote {}: {} variables, {} clauses",
            output.display(),
            stats.vars,
            stats.clauses
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What `solve` is asked for, beyond the problem and its encoding.
pub struct SolveArgs {
    /// How to find the tour.
    pub method: MethodArg,
    /// Random tie-breaks for Warnsdorff's rule.
    pub seed: Option<u64>,
    /// How to print the tour.
    pub format: FormatArg,
    /// The solver's name or path.
    pub solver: String,
    /// Extra arguments for a solver program.
    pub solver_arg: Vec<String>,
    /// The time limit.
    pub timeout: Option<Duration>,
    /// Print every tour.
    pub all: bool,
    /// With `all`: at most this many.
    pub limit: Option<u64>,
    /// Where to write a proof of impossibility.
    pub proof: Option<PathBuf>,
    /// Where to write the CNF the proof refers to.
    pub cnf_out: Option<PathBuf>,
    /// Search even where a theorem answers.
    pub no_theory: bool,
}

/// `solve`: one tour, every tour, or a proof that there is none.
pub fn solve(encoding: &EncodingArgs, args: SolveArgs) -> anyhow::Result<ExitCode> {
    let method = Method::from(args.method);
    let (problem, config) = match method {
        // Preparing checks that the encoding's options fit the problem.
        Method::Sat => {
            let (problem, config, _) = encoding.problem_and_encoding()?;
            (problem, config)
        }
        Method::Warnsdorff | Method::Backtrack => encoding.problem_and_config()?,
    };
    let format = Format::from(args.format);
    if !args.no_theory && !args.all && args.proof.is_none() {
        if let Some(theorem) = theory::no_tour_because(&problem) {
            eprintln!("note: answered without search, by {theorem} (--no-theory searches)");
            return print_outcome(Outcome::NoTour, format);
        }
    }
    let request = Request {
        config,
        backend: Backend::from_name(&args.solver, args.solver_arg)?,
        seed: args.seed,
        timeout: args.timeout,
        proof: args.proof.is_some(),
        every_tour: args.all,
    };
    method.check_supports(&problem, &request)?;
    if let Some(proof) = args.proof {
        let cnf = args.cnf_out.unwrap_or_else(|| default_cnf_path(&proof));
        note_default_start(&problem);
        let outcome = solve_with_proof(&problem, &request.config, &proof, &cnf)?;
        match outcome {
            Outcome::NoTour => eprintln!(
                "wrote {} (DRAT proof) for {}; check with: knightsat certify --cnf {} --proof {}",
                proof.display(),
                cnf.display(),
                cnf.display(),
                proof.display()
            ),
            Outcome::Tour(_) => eprintln!("a tour exists, so there is no proof to write"),
        }
        return print_outcome(outcome, format);
    }
    if args.all {
        return print_all(&problem, method, &request, args.limit, format);
    }
    note_default_start(&problem);
    let started = Instant::now();
    let progress = io::stderr().is_terminal();
    if progress {
        let by = match method {
            Method::Sat => args.solver.as_str(),
            Method::Warnsdorff => "Warnsdorff's rule",
            Method::Backtrack => "backtracking",
        };
        eprint!(
            "solving {} ({}) with {by}…",
            problem.board(),
            problem.kind()
        );
    }
    let outcome = find_tour(&problem, method, &request);
    if progress {
        eprintln!(" {:.2} s", started.elapsed().as_secs_f64());
    }
    print_outcome(outcome?, format)
}

/// `decode`: a solver's output for a knightsat CNF, as a verified tour.
pub fn decode(cnf: &Path, solver_output: &Path, format: FormatArg) -> anyhow::Result<ExitCode> {
    let info = read_cnf_info(input::open(cnf)?).with_context(|| cnf.display().to_string())?;
    let text = input::read_text(solver_output)?;
    let outcome = match read_answer(text.as_bytes())? {
        Answer::Unsat => Outcome::NoTour,
        Answer::Unknown => return Err(Error::NoAnswer.into()),
        Answer::Sat(values) => {
            let encoding = info.encoding.prepare(&info.problem)?;
            let model = Model::new(values);
            Outcome::Tour(tour_from_model(&*encoding, &model, Some(info.vars))?)
        }
    };
    print_outcome(outcome, format.into())
}

/// `verify`: a tour handed in, checked without SAT.
pub fn verify(problem: &ProblemArgs, tour: &Path) -> anyhow::Result<ExitCode> {
    let given = problem.given()?;
    let text = input::read_text(tour)?;
    let closed = given.as_ref().map_or(problem.closed(), Problem::is_closed);
    let board = given.as_ref().map(|given| given.board().clone());
    let tour = check_tour(&text, board, closed, |board, closed| {
        let base = match &given {
            Some(given) => given.clone(),
            None => Problem::new(board),
        };
        problem.complete(base.closed(closed))
    })?;
    println!(
        "valid {} {} tour of the {} board ({} squares)",
        if tour.closed { "closed" } else { "open" },
        tour.board.leaper().name(),
        tour.board,
        tour.squares.len()
    );
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

/// `puzzle`: a numbered grid with one solution.
pub fn puzzle(shape: &ShapeArgs, args: PuzzleArgs) -> anyhow::Result<ExitCode> {
    let board = shape.required_board()?;
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let bar = step_bar("clues tried");
    let generated = generate(&board, args.closed, seed, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let Some(Generated {
        puzzle,
        solution: tour,
    }) = generated
    else {
        return print_outcome(Outcome::NoTour, Format::Board);
    };
    eprintln!(
        "{} {} puzzle on the {} board: {} clues (seed {seed}; --seed {seed} makes it again)",
        if args.closed { "closed" } else { "open" },
        board.leaper().name(),
        board,
        puzzle.clues().len()
    );
    let answer = args.solution.then_some(&tour);
    let text = match args.format {
        PuzzleFormat::Board => match answer {
            Some(tour) => format!("{}\n{}", puzzle_grid(&puzzle), board_grid(tour)),
            None => puzzle_grid(&puzzle),
        },
        PuzzleFormat::Json => serde_json::to_string(&PuzzleJson::new(&puzzle, answer))? + "\n",
        PuzzleFormat::Svg => svg(&puzzle_picture(&puzzle, answer)),
    };
    io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// `count`: how many tours (or orbits).
pub fn count(
    encoding: &EncodingArgs,
    method: MethodArg,
    limit: Option<u64>,
    up_to_symmetry: bool,
) -> anyhow::Result<ExitCode> {
    let (problem, config) = encoding.problem_and_config()?;
    let method = Method::from(method);
    let request = Request {
        config,
        every_tour: true,
        ..Request::default()
    };
    method.check_supports(&problem, &request)?;
    let progress = progress_bar("tours");
    let count = CountOptions {
        limit,
        up_to_symmetry,
    };
    let found = enumerate_by(&problem, method, &request, count, |_| {
        progress.inc(1);
        Ok(())
    })?;
    progress.finish_and_clear();
    println!("{found}");
    if limit == Some(found) {
        eprintln!("note: stopped at the limit of {found}; there may be more");
    }
    Ok(ExitCode::SUCCESS)
}

/// `certify`: a DRAT proof checked by `rate`.
pub fn certify(cnf: &Path, proof: &Path) -> anyhow::Result<ExitCode> {
    match check_proof(cnf, proof)? {
        Verdict::Verified => {
            println!(
                "verified: {} proves {} unsatisfiable",
                proof.display(),
                cnf.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Rejected(why) => {
            eprintln!("knightsat: proof rejected by rate: {why}");
            Ok(ExitCode::from(EXIT_FAILURE))
        }
    }
}

/// `stats`: the formula's size per family.
pub fn stats_of(encoding: &EncodingArgs, format: StatsFormat) -> anyhow::Result<ExitCode> {
    let (_, _, encoding) = encoding.problem_and_encoding()?;
    let stats = stats(&*encoding);
    let mut out = io::stdout().lock();
    match format {
        StatsFormat::Json => {
            serde_json::to_writer(&mut out, &stats)?;
            writeln!(out)?;
        }
        StatsFormat::Table => {
            let table = stats_table(&stats, encoding.primary_vars(), encoding.live_vars());
            out.write_all(table.as_bytes())?;
        }
    }
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
        eprintln!(
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
        ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}}"))
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
    let count = CountOptions {
        limit,
        up_to_symmetry: false,
    };
    let mut first = true;
    let found = enumerate_by(problem, method, request, count, |tour| {
        if format == Format::Board && !std::mem::take(&mut first) {
            out.write_all(b"\n")
                .map_err(|e| Error::io("writing a tour", e))?;
        }
        print_tour(&mut out, tour, format).map_err(|e| Error::io("writing a tour", e))
    })?;
    if found == 0 {
        writeln!(out, "no tour exists for these constraints")?;
        return Ok(ExitCode::from(EXIT_NO_TOUR));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_outcome(outcome: Outcome, format: Format) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    match outcome {
        Outcome::Tour(tour) => {
            print_tour(&mut out, &tour, format)?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NoTour => {
            writeln!(out, "no tour exists for these constraints")?;
            Ok(ExitCode::from(EXIT_NO_TOUR))
        }
    }
}

fn print_tour(out: &mut impl Write, tour: &Tour, format: Format) -> io::Result<()> {
    out.write_all(render(tour, format).as_bytes())?;
    out.flush()
}
