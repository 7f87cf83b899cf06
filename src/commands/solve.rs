//! `solve`: one tour, every tour, or a proof that there is none.

use crate::failure::{Failure, Fallible};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use std::path::Path;
use std::sync::OnceLock;

use knightsat::count::{CountJob, CountOptions, CountReport, Progress, TourCount, TourNumber};
use knightsat::error::Error;
use knightsat::solve::{Method, Outcome, SolveJob, Solved};
use knightsat::solve_with_proof;
use knightsat::Format;
use knightsat::Tour;

use super::{note_default_start, note_refuted_by_gate, note_whole_tour, print_outcome, print_tour};
use crate::failure::with_way_out;
use crate::plan::Solve;

/// `solve`: one tour, every tour, or a proof that there is none.
pub fn solve(plan: &Solve) -> Fallible<ExitCode> {
    let problem = &plan.problem;
    note_whole_tour(problem);
    super::note_graph_read(problem, plan.verbose);
    let progress = io::stderr().is_terminal();
    let started = OnceLock::new();
    let on_start = |method: Method| {
        note_default_start(problem);
        if progress {
            let by = match method {
                Method::Sat => plan.request.backend.name().to_string(),
                method => method.describe(&plan.request),
            };
            let _ = write!(
                io::stderr(),
                "solving {} ({}) with {by}…",
                problem.board(),
                problem.kind()
            );
            let _ = started.set(Instant::now());
        }
    };
    let job = SolveJob {
        method: plan.method,
        sat_named: plan.names_sat,
        request: plan.request.clone(),
        jobs: plan.jobs,
        depth: plan.depth,
        on_start: Some(&on_start),
        ..SolveJob::new(problem)
    };
    let way_out = |error: Error| {
        let hint = job
            .way_out(&error)
            .map(|way| crate::words::solve_way_out(&way));
        with_way_out(error, hint)
    };
    if let Some((proof, cnf)) = &plan.proof {
        let outcome = solve_proving(&job, proof, cnf).map_err(way_out)?;
        if matches!(outcome, Outcome::NoTour) && on_standard_output(proof, cnf) {
            // Standard output holds the proof or the CNF: the answer goes
            // beside it, where it cannot spoil the file.
            note!("no tour exists for these constraints");
            return Ok(ExitCode::from(crate::exit::NO_TOUR));
        }
        return print_outcome(outcome, plan.format, problem);
    }
    if plan.all {
        return print_all(plan, job.chosen_method()).map_err(|failure| match failure {
            Failure::Library(error) => way_out(error),
            other => other,
        });
    }
    let solved = job.run();
    if let Some(started) = started.get() {
        note!(" {:.2} s", started.elapsed().as_secs_f64());
    }
    let solved = solved.map_err(way_out)?;
    if let Some(refutation) = &solved.refuted {
        note_refuted_by_gate(refutation);
    } else if plan.verbose {
        note_how(&solved);
    }
    print_outcome(solved.outcome, plan.format, problem)
}

/// `solve --proof`: the tour, or the DRAT proof and the CNF it refers to
/// that show there is none (no gate: the proof is of the formula).
fn solve_proving(job: &SolveJob<'_>, proof: &Path, cnf: &Path) -> Result<Outcome, Error> {
    job.check()?;
    note_default_start(job.problem);
    let outcome = solve_with_proof(job.problem, &job.request, proof, cnf)?;
    match outcome {
        Outcome::NoTour if on_standard_output(proof, cnf) => note!(
            "wrote {} (DRAT proof) and {} (the CNF it proves); certify reads files: keep both in files, then knightsat certify --cnf CNF --proof PROOF",
            proof.display(),
            cnf.display()
        ),
        Outcome::NoTour => note!(
            "wrote {} (DRAT proof) for {}; check with: knightsat certify --cnf {} --proof {}",
            proof.display(),
            cnf.display(),
            cnf.display(),
            proof.display()
        ),
        Outcome::Tour(_) => note!("a tour exists, so there is no proof to write"),
    }
    Ok(outcome)
}

/// Whether `--proof` or `--cnf-out` writes to standard output.
fn on_standard_output(proof: &Path, cnf: &Path) -> bool {
    crate::plan::is_standard_output(proof) || crate::plan::is_standard_output(cnf)
}

/// Says on stderr how a search went (`-v`): the route, and the subtour
/// loop's figures where it ran.
fn note_how(solved: &Solved) {
    note!("route: {}", solved.route);
    let rounds = solved.subtours;
    // Only the successor encoding's loop has rounds worth telling.
    if rounds.successor && rounds.rounds > 0 {
        note!(
            "subtour loop: models solved {}, subtour cuts added {}, tour patched together from subtours: {}",
            rounds.rounds,
            rounds.cuts,
            if rounds.patched > 0 { "yes" } else { "no" }
        );
        if rounds.watched > 0 {
            note!(
                "subtours cut during the solver's search: {}",
                rounds.watched
            );
        }
    }
}

/// `solve --all`: streams every tour in `format` (JSON Lines for json,
/// blank lines between grids), by `method`, as a count that lists them.
fn print_all(plan: &Solve, method: Method) -> Fallible<ExitCode> {
    let format = plan.format;
    let mut out = super::stdout()?;
    let mut first = true;
    let mut on_tour = |tour: &Tour| {
        if format == Format::Board && !std::mem::take(&mut first) {
            out.write_all(b"\n")
                .map_err(|e| Error::io("writing a tour", e))?;
        }
        print_tour(&mut out, tour, format).map_err(|e| Error::io("writing a tour", e))
    };
    let verbose = plan.verbose && plan.method == Method::Auto;
    let on_progress = |progress: Progress<'_>| {
        if let Progress::Route {
            method, request, ..
        } = progress
        {
            if verbose {
                note!("route: {}", method.describe(request));
            }
        }
    };
    let listed = CountJob {
        method,
        request: plan.request.clone(),
        options: CountOptions {
            limit: plan.limit,
            ..CountOptions::default()
        },
        on_tour: Some(&mut on_tour),
        on_progress: Some(&on_progress),
        ..CountJob::new(&plan.problem)
    }
    .run()?;
    drop(out);
    if let CountReport::Tours(TourCount {
        refuted: Some(refutation),
        ..
    }) = &listed
    {
        note_refuted_by_gate(refutation);
    }
    if listed.tours().is_some_and(TourNumber::is_zero) {
        return print_outcome(Outcome::NoTour, format, &plan.problem);
    }
    Ok(ExitCode::SUCCESS)
}
