//! `count` in all its forms, and `sum`, which adds up a split count.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use knightsat::cnf_file::read_cnf_info;
use knightsat::count::frontier::{self, Progress as FrontierProgress};
use knightsat::count::{
    count_cube_range as library_count_cube_range, count_parallel_by, count_recorded, cube_task,
    enumerate_by, estimate_count_by, estimate_cube_range, sum_tallies, CountOptions,
    ParallelOptions,
};
use knightsat::cube_tally::{CubeRange, CubeSum};
use knightsat::cubes::resolve_jobs;
use knightsat::deadline::Deadline;
use knightsat::error::{Error, Unsupported};
use knightsat::input;
use knightsat::problem::Problem;
use knightsat::solve::auto::{every_tour_by, tally_step};
use knightsat::solve::{Method, Request};

use super::{
    answered_by_gate, cube_progress_bar, emit, note_default_start, progress_bar, route_in_words,
    seconds_in_words, show_cube_progress, step_bar, with_way_out, with_whole_limit,
};
use crate::plan::Count;
use crate::EXIT_TIMEOUT;

/// `count`: how many tours (or orbits), by the plan's route; with
/// `--sample` an estimate, with `--cubes` the tours of each cube.
pub fn run(plan: Count) -> anyhow::Result<ExitCode> {
    let Count {
        problem,
        method,
        request,
        options,
        jobs,
        depth,
        cubes,
        sample,
        verbose,
    } = plan;
    match (sample, cubes, depth) {
        (Some((sample, seed)), range, depth) => {
            estimate(&problem, method, &request, jobs, depth, range, sample, seed)
        }
        (None, Some(range), Some(depth)) => {
            count_cube_range(&problem, method, &request, jobs, depth, range)
        }
        _ => count(&problem, method, &request, options, jobs, depth, verbose),
    }
}

/// `count`: how many tours (or orbits); `sat` gives the solver, budget
/// and time limit for --method sat, the time limit for the others.
fn count(
    problem: &Problem,
    method: Method,
    request: &Request,
    options: CountOptions,
    jobs: usize,
    depth: Option<usize>,
    verbose: bool,
) -> anyhow::Result<ExitCode> {
    let problem = problem.clone();
    let sat = request;
    if options.up_to_symmetry && (jobs != 1 || depth.is_some()) {
        return Err(Error::Unsupported(Unsupported::OrbitsWithCubes).into());
    }
    let tally_only = !options.up_to_symmetry && options.limit.is_none() && depth.is_none();
    let route = if method == Method::Auto && tally_only {
        tally_step(&problem, request)
    } else {
        every_tour_by(&problem, method, request)
    };
    // Backtracking counts by cubes on any number of threads: its cube
    // counter skips building and verifying each tour, which listing them
    // one by one (for orbits and limits) needs.
    let cubes_by_backtracking =
        route.method == Method::Backtrack && !options.up_to_symmetry && options.limit.is_none();
    // A board too large for the encoding (or for numbering cubes by it)
    // is refused, unless the gate proves first that it has no tour; the
    // gate gets 0.1 s for that (it walks the move graph, seconds on
    // millions of squares), so that a refusal is quick.
    let refused = (route.method == Method::Sat || cubes_by_backtracking)
        .then(|| route.request.config.check(&problem).err())
        .flatten();
    let deadline = Deadline::new(sat.timeout);
    let gate_deadline = match refused {
        Some(_) => Deadline::new(Some(Duration::from_millis(100))),
        None => deadline,
    };
    if answered_by_gate(&problem, gate_deadline) {
        emit(|out| writeln!(out, "0"))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(error) = refused {
        return Err(count_way_out(error, &problem, route.method, jobs));
    }
    let one_solver = jobs == 1 && depth.is_none() && !cubes_by_backtracking;
    if verbose {
        let how = if one_solver { "" } else { ", cube by cube" };
        note!(
            "route: {}{how}",
            route_in_words(route.method, &route.request)
        );
    }
    let way_out = |error| count_way_out(error, &problem, route.method, jobs);
    if route.method == Method::Frontier {
        if options.up_to_symmetry {
            return Err(Error::Unsupported(Unsupported::OrbitsByFrontier).into());
        }
        if options.limit.is_some() || depth.is_some() {
            return Err(Error::Unsupported(Unsupported::PartsByFrontier).into());
        }
        // The gate's time counts against the limit.
        let request = Request {
            timeout: deadline.left().unwrap_or(Some(Duration::from_nanos(1))),
            ..route.request.clone()
        };
        let found = count_by_frontier(&problem, &request, jobs)
            .map_err(|error| way_out(with_whole_limit(error, deadline)))?;
        emit(|out| writeln!(out, "{found}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let found = if one_solver {
        let progress = progress_bar("tours");
        let found = enumerate_by(&problem, route.method, &route.request, options, |_| {
            progress.inc(1);
            Ok(())
        });
        progress.finish_and_clear();
        found
    } else {
        let progress = cube_progress_bar();
        let parallel = ParallelOptions {
            jobs,
            depth,
            limit: options.limit,
        };
        let found = count_parallel_by(&problem, route.method, &route.request, parallel, |done| {
            show_cube_progress(&progress, done);
        });
        progress.finish_and_clear();
        found
    };
    let found = match found {
        Err(Error::TimedOutPartway { seconds, found }) => {
            note!(
                "knightsat: the --timeout of {seconds} s ran out after {found} tours: there are at least {found}, maybe more (exit 124)"
            );
            return Ok(ExitCode::from(EXIT_TIMEOUT));
        }
        other => other.map_err(way_out)?,
    };
    emit(|out| writeln!(out, "{found}"))?;
    if options.limit == Some(found) {
        note!("note: stopped at the limit of {found}; there may be more");
    }
    Ok(ExitCode::SUCCESS)
}

/// The frontier counter on `jobs` threads, with a bar over the squares
/// that shows the live states and the memory they take.
fn count_by_frontier(problem: &Problem, request: &Request, jobs: usize) -> Result<u128, Error> {
    let bar = step_bar("squares");
    let show = |done: FrontierProgress| {
        bar.set_length(done.total as u64);
        bar.set_position(done.done as u64);
        bar.set_message(format!(
            "{} states, {} MiB",
            done.states,
            done.bytes.div_ceil(1 << 20)
        ));
    };
    let found = frontier::count_tours(problem, request, resolve_jobs(jobs), Some(&show));
    bar.finish_and_clear();
    found
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

/// `count --sample`: the count and its time estimated from a random sample
/// of the cubes.
///
/// With `range`, of the cubes numbered `range` of `depth` moves alone (a
/// cluster task's share).
#[allow(clippy::too_many_arguments)]
fn estimate(
    problem: &Problem,
    method: Method,
    request: &Request,
    jobs: usize,
    depth: Option<usize>,
    range: Option<CubeRange>,
    sample: usize,
    seed: u64,
) -> anyhow::Result<ExitCode> {
    let (problem, request) = (problem.clone(), request.clone());
    let progress = cube_progress_bar();
    let options = ParallelOptions {
        jobs,
        depth,
        limit: None,
    };
    let on_progress = |done| show_cube_progress(&progress, done);
    let estimate = match (range, depth) {
        (Some(range), Some(depth)) => estimate_cube_range(
            &problem,
            method,
            &request,
            depth,
            range,
            jobs,
            sample,
            seed,
            on_progress,
        )?,
        _ => estimate_count_by(
            &problem,
            method,
            &request,
            options,
            sample,
            seed,
            on_progress,
        )?,
    };
    progress.finish_and_clear();
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
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `count --cubes A-B`: the tours of each cube numbered A to B, one line
/// per cube as it is done (see [`CubeTally`]), for `sum` to add up.
fn count_cube_range(
    problem: &Problem,
    method: Method,
    request: &Request,
    jobs: usize,
    depth: usize,
    range: CubeRange,
) -> anyhow::Result<ExitCode> {
    let (problem, request) = (problem.clone(), request.clone());
    note_default_start(&problem);
    // The header before the first cube's line, so that `sum` knows what
    // the cubes are cubes of (nothing when no cube is counted).
    let header = format!(
        "{}\n",
        cube_task(&problem, method, &request, depth)?.header()
    );
    let header_once = std::sync::Once::new();
    // Lines go out whole as each cube ends, so that a task stopped midway
    // leaves the cubes it finished (the sum then names the others).
    let failed = std::sync::Mutex::new(None);
    let printed = std::sync::atomic::AtomicUsize::new(0);
    let counted =
        library_count_cube_range(&problem, method, &request, depth, range, jobs, |tally| {
            let mut written = Ok(());
            header_once.call_once(|| written = emit(|out| out.write_all(header.as_bytes())));
            let written = written.and_then(|()| emit(|out| writeln!(out, "{tally}")));
            printed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Err(error) = written {
                failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get_or_insert(error);
            }
        });
    if let Err(Error::TimedOutPartway { seconds, .. }) = counted {
        note!(
            "knightsat: the --timeout of {seconds} s ran out after {} cubes: each line printed is a whole cube; `knightsat sum` names the cubes left (exit 124)",
            printed.into_inner()
        );
        return Ok(ExitCode::from(EXIT_TIMEOUT));
    }
    counted?;
    match failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(error) => Err(error),
        None => Ok(ExitCode::SUCCESS),
    }
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

/// `count --cnf`: the tours of a knightsat CNF, cube CNFs included, by
/// the solver `sat` names.
pub fn count_cnf(cnf: &Path, sat: &Request) -> anyhow::Result<ExitCode> {
    let info = read_cnf_info(input::open(cnf)?).with_context(|| cnf.display().to_string())?;
    let found = count_recorded(&info, sat).with_context(|| cnf.display().to_string())?;
    emit(|out| writeln!(out, "{found}"))?;
    Ok(ExitCode::SUCCESS)
}
