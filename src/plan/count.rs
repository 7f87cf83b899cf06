//! The plan of `count`: a count of a CNF file, or of a problem by the
//! method asked for, which the job resolves and checks before any work.

use crate::failure::Fallible;
use knightsat::count::{CountOptions, Sample};
use knightsat::model::problem::Problem;
use knightsat::solve::{Method, Request};
use std::time::Duration;

use super::{paths, sat_request, Plan};
use crate::args::CountCommand;

/// `count`: the problem and how to count it.
pub struct Count {
    /// The problem.
    pub problem: Problem,
    /// The method asked for (the job resolves `auto`: SAT where a SAT
    /// option is named).
    pub method: Method,
    /// The request: the solver, budget and time limit.
    pub request: Request,
    /// How to count: limits, threads, cubes, sample.
    pub args: CountArgs,
    /// Whether an option only SAT takes was named (an encoding option,
    /// --solver): `auto` means SAT, and a way out keeps to SAT.
    pub names_sat: bool,
}

/// What `count` is asked besides the problem, the method and the request:
/// the job's own options, as the command's flags give them, and -v.
pub struct CountArgs {
    /// --limit, --up-to-symmetry, --jobs, --depth, --sample and --seed,
    /// --cubes, --frontier-order, --spill-dir, --checkpoint and
    /// --checkpoint-every, --part and --part-by.
    pub options: CountOptions,
    /// -v.
    pub verbose: bool,
    /// How often -v says a frontier count's estimate of the time left
    /// (--time-left-every).
    pub time_left_every: Duration,
}

/// How often -v says a frontier count's estimate of the time left by
/// default: often enough to follow, seldom enough to read.
const TIME_LEFT_EVERY: Duration = Duration::from_secs(60);

impl CountArgs {
    /// Whether this is a count of the whole problem (neither --sample nor
    /// --cubes): the tours, with a route (-v) and a way out of errors.
    pub fn whole(&self) -> bool {
        let options = &self.options;
        options.sample.is_none() && options.cubes.is_none() && options.part.is_none()
    }
}

/// The plan of `count`: a count of a CNF file, or of a problem by the
/// method asked for; the job chooses the method that runs and refuses what
/// it cannot do before any work.
pub(super) fn count(command: CountCommand, names_sat: bool, budget: u64) -> Fallible<Plan> {
    Ok(match command {
        CountCommand {
            cnf: Some(cnf),
            solver,
            timeout,
            ..
        } => Plan::CountCnf {
            cnf,
            request: sat_request(solver, budget, timeout),
        },
        CountCommand {
            problem,
            encoding,
            method,
            solver,
            timeout,
            verbose,
            limit,
            up_to_symmetry,
            cnf: None,
            jobs,
            depth,
            sample,
            seed,
            cubes,
            frontier_order,
            spill_dir,
            checkpoint,
            checkpoint_every,
            time_left_every,
            part,
            part_by,
            memory: _,
        } => {
            if let Some(dir) = checkpoint.as_ref().filter(|dir| dir.exists()) {
                paths::an_existing_directory("--checkpoint", dir)?;
            }
            if let Some(dir) = &spill_dir {
                paths::an_existing_directory("--spill-dir", dir)?;
            }
            let (problem, config) = encoding.problem_and_config(&problem)?;
            let request = Request {
                config,
                every_tour: true,
                ..sat_request(solver, budget, timeout)
            };
            let method = Method::from(method);
            let sample = sample.map(usize::try_from).transpose()?;
            Plan::Count(Count {
                problem,
                method,
                request,
                args: CountArgs {
                    options: CountOptions {
                        limit,
                        up_to_symmetry,
                        jobs,
                        depth: depth.map(usize::try_from).transpose()?,
                        sample: sample.map(|cubes| Sample { cubes, seed }),
                        cubes,
                        frontier_order: frontier_order.into(),
                        spill_dir,
                        part,
                        part_by: part_by.into(),
                        checkpoint,
                        checkpoint_every,
                    },
                    verbose,
                    time_left_every: time_left_every.unwrap_or(TIME_LEFT_EVERY),
                },
                names_sat,
            })
        }
    })
}
