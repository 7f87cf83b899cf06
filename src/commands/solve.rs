//! `solve`: one tour, every tour, or a proof that there is none.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use knightsat::certify::solve_with_proof;
use knightsat::count::{CountJob, TourNumber};
use knightsat::encoding::EncodingConfig;
use knightsat::error::{Error, Unsupported};
use knightsat::model::problem::Problem;
use knightsat::render::Format;
use knightsat::runtime::deadline::Deadline;
use knightsat::solve::auto::every_tour_step;
use knightsat::solve::{find_tour, solve_parallel, Method, Outcome, Request, Solved};
use knightsat::tour::Tour;

use super::{
    answered_by_gate, note_default_start, note_whole_tour, print_outcome, print_tour,
    route_in_words, with_way_out,
};
use crate::plan::Solve;

/// `solve`: one tour, every tour, or a proof that there is none.
pub fn solve(plan: &Solve) -> anyhow::Result<ExitCode> {
    let Solve {
        problem, method, ..
    } = plan;
    // One time limit for the gate and the search: on a large holed board
    // the gate alone walks the move graph for seconds, so it gives up at
    // the limit and the search gets what is left.
    let deadline = Deadline::new(plan.timeout);
    note_whole_tour(problem);
    if !plan.no_theory && plan.proof.is_none() && answered_by_gate(problem, &deadline) {
        return print_outcome(Outcome::NoTour, plan.format);
    }
    let request = Request {
        // No time left: a limit that has run out, which the search reports.
        timeout: deadline.left().unwrap_or(Some(Duration::from_nanos(1))),
        ..plan.request.clone()
    };
    let way_out = |error| {
        let error = deadline.with_whole_limit(error);
        solve_way_out(error, plan, &request)
    };
    if *method == Method::Sat {
        // Options that do not fit the problem are refused before any work.
        request.config.check(problem).map_err(way_out)?;
    }
    method.check_supports(problem, &request)?;
    if let Some((proof, cnf)) = &plan.proof {
        note_default_start(problem);
        let outcome = solve_with_proof(problem, &request, proof, cnf).map_err(way_out)?;
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
        return print_outcome(outcome, plan.format);
    }
    if plan.all {
        if plan.verbose && *method == Method::Auto {
            let step = every_tour_step(problem, &request);
            note!("route: {}", route_in_words(step.method, &step.request));
        }
        return print_all(problem, *method, &request, plan.limit, plan.format).map_err(|error| {
            match error.downcast::<Error>() {
                Ok(error) => way_out(error),
                Err(other) => other,
            }
        });
    }
    note_default_start(problem);
    let started = Instant::now();
    let progress = io::stderr().is_terminal();
    if progress {
        let by = match method {
            Method::Sat => request.backend.name().to_string(),
            method => route_in_words(*method, &request),
        };
        let _ = write!(
            io::stderr(),
            "solving {} ({}) with {by}…",
            problem.board(),
            problem.kind()
        );
    }
    let solved = if plan.jobs == 1 && plan.depth.is_none() {
        find_tour(problem, *method, &request)
    } else if *method != Method::Sat {
        Err(Error::Unsupported(Unsupported::CubesWithoutSat(
            method.name(),
        )))
    } else {
        solve_parallel(problem, &request, plan.jobs, plan.depth)
    };
    if progress {
        note!(" {:.2} s", started.elapsed().as_secs_f64());
    }
    let solved = solved.map_err(way_out)?;
    if plan.verbose {
        note_how(&solved);
    }
    print_outcome(solved.outcome, plan.format)
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

/// `error` from `solve`, with the route that would work where there is
/// one: only options `solve` takes, and only those that work with the
/// other options given (`request` is the plan's, its time limit what the
/// gate left).
fn solve_way_out(error: Error, plan: &Solve, request: &Request) -> anyhow::Error {
    let (problem, method) = (&plan.problem, plan.method);
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
        Error::OverMemoryBudget {
            estimate_mib,
            budget_mib,
            sessions,
            ..
        } => {
            // Cubes (--jobs, --depth) need the time-indexed encoding, SAT
            // and a built-in solver; a proof, SAT and the whole formula in
            // a built-in solver; any option only SAT takes, SAT.
            let cubes = plan.jobs != 1 || plan.depth.is_some();
            let mut ways = Vec::new();
            if plain && time_indexed && !request.every_tour && !cubes && !request.proof {
                ways.push("--encoding successor (linear in the board)".to_string());
            }
            if !plan.names_sat && !request.every_tour && plain {
                ways.push("--method warnsdorff".into());
            }
            if !plan.names_sat && (!plain || request.every_tour) {
                ways.push("--method backtrack (no formula)".into());
            }
            let each = estimate_mib / (*sessions).max(1) as u64;
            if *sessions > 1 && each <= *budget_mib {
                let fit = (budget_mib / each.max(1)).max(1);
                ways.push(format!("--jobs {fit}"));
            }
            if !request.every_tour && !request.proof && !cubes {
                ways.push("a solver program (--solver kissat reads the CNF from disk)".into());
            }
            ways.push("a larger --memory-budget".into());
            Some(format!("try {}", ways.join(", ")))
        }
        _ => None,
    };
    with_way_out(error, hint)
}

/// Streams every tour in `format`: JSON Lines for json, blank lines between grids.
fn print_all(
    problem: &Problem,
    method: Method,
    request: &Request,
    limit: Option<u64>,
    format: Format,
) -> anyhow::Result<ExitCode> {
    let mut out = super::stdout()?;
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
    if listed.tours().is_some_and(TourNumber::is_zero) {
        return print_outcome(Outcome::NoTour, format);
    }
    Ok(ExitCode::SUCCESS)
}
