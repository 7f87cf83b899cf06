//! Counting cubes by number, as cluster tasks do: the cubes numbered A to
//! B of a depth, one [`CubeTally`] line each as it is counted, under a
//! header that records the task ([`CubeTask`]); and the sum of such lines
//! ([`sum_tallies`]), checked against the task.

use crate::error::RunError;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use super::number::TourNumber;
use super::parts::check_parts;
use super::split::{count_in_cube, cubes_with_classes, CubeBacktracker, CubeCounter};
use super::tally::{
    header_line, record_of, CubeRange, CubeSum, CubeTally, CubeTours, Fingerprint, LineKind,
};
use crate::cnf_file::{options, problem_and_encoding};
use crate::cubes::{
    cube_count_until, cubes_at, cubes_refused, effective_depth, for_each_cube, on_cubes_in_runs,
};
use crate::encoding::EncodingConfig;
use crate::error::{Error, TallyError};
use crate::model::problem::Problem;
use crate::runtime::stop::Stop;
use crate::runtime::threads::resolve_jobs;
use crate::solve::{Method, Request};

/// Counts the cubes numbered `range` (from 1, in the order of `cubes
/// --split`'s files and manifest) of `depth` moves by `method`, on `jobs`
/// threads, handing each cube's [`CubeTally`] to `on_cube` as it is
/// counted (in any order); the cubes and their numbers are those of
/// `request`'s encoding with symmetry breaking off, as the split writes
/// them. Backtracking counts one cube per class of symmetric cubes, the
/// lowest-numbered: the others' tallies say which cube's count is theirs
/// ([`CubeTours::SameAs`]), wherever that cube is, and `sum` adds it in.
/// Returns the range cut to the last cube and the tours of the cubes
/// counted. A range ending past the last cube stops there; one starting
/// past it is refused, unless there is no cube at all (and no tour). `task` is [`cube_task`]'s; where the gate proved
/// the problem `impossible`, every cube is given 0 tours uncounted.
#[allow(clippy::too_many_arguments)]
pub(super) fn count_cube_range(
    problem: &Problem,
    (method, request): (Method, &Request),
    task: &CubeTask,
    depth: usize,
    range: CubeRange,
    jobs: usize,
    impossible: bool,
    on_cube: impl Fn(&CubeTally) + Sync,
) -> Result<(CubeRange, u64), Error> {
    let task = task.fingerprint();
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    // The walks that number and make the cubes keep the time limit too;
    // the counting then has what is left of it.
    let deadline = request.deadline();
    let halt = || deadline.check();
    let all = cube_count_until(problem, &request.config, depth, usize::MAX, &halt)?;
    // Every tour starts with one of the cubes, so with none there is no
    // tour, and every range has its count: none.
    if all == 0 {
        return Ok((range, 0));
    }
    let range = range.cut_to(all)?;
    // Backtracking counts one cube per class of symmetric cubes; SAT, the
    // independent check, counts each.
    let (cubes, same_as) = match counter {
        CubeCounter::Backtrack => {
            cubes_with_classes(problem, &request.config, depth, range, &halt)?
        }
        CubeCounter::Sat => {
            let indices: Vec<usize> = range.indices().collect();
            let cubes = cubes_at(problem, &request.config, depth, &indices, &halt)?;
            request.check_budget_for_threads(problem, resolve_jobs(jobs).min(cubes.len()))?;
            let each_its_own = vec![None; cubes.len()];
            (cubes, each_its_own)
        }
    };
    let total = AtomicU64::new(0);
    let counters = CubeBacktracker::new(problem);
    let run = counter.run(cubes.len(), jobs);
    let stop = Stop::new();
    let left = deadline.limit_left();
    let counted = stop.within(left, &request.interrupt, || {
        on_cubes_in_runs(&cubes, jobs, run, &stop, |index, cube| {
            let tours = match counter {
                _ if impossible => 0,
                _ if same_as[index].is_some() => 0,
                CubeCounter::Sat => count_in_cube(problem, &request, cube, &stop, |_| true)?,
                CubeCounter::Backtrack => counters
                    .count(cube, &stop)
                    .ok_or(Error::Run(RunError::Stopped))?,
            };
            // A cube cut short by the time limit is left out, not printed
            // with part of its count.
            if stop.is_stopped() {
                return Err(Error::Run(RunError::Stopped));
            }
            total.fetch_add(tours, Ordering::Relaxed);
            on_cube(&CubeTally {
                number: range.first + index,
                cubes: all,
                tours: match same_as[index] {
                    Some(other) => CubeTours::SameAs(other),
                    None => CubeTours::Counted(tours),
                },
                squares: cube
                    .squares
                    .iter()
                    .map(|&s| problem.board().name(s))
                    .collect(),
                task,
            });
            Ok(ControlFlow::<()>::Continue(()))
        })
    });
    let found = total.into_inner();
    counted
        .map(|_| (range, found))
        .map_err(|error| deadline.with_whole_limit(error.after_tours(found)))
}

/// What a cluster task's cube counts are counts of: the problem, the
/// encoding whose cubes are numbered (symmetry breaking off), the depth
/// and how each cube is counted. Its [`record`](CubeTask::record) heads the
/// task's output ([`CubeTask::header`]), and its fingerprint ends each
/// cube's line, so that `sum` refuses lines of two tasks and checks each
/// line's squares against its cube ([`sum_tallies`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CubeTask {
    /// The problem.
    pub problem: Problem,
    /// The encoding, as its cubes are numbered.
    pub config: EncodingConfig,
    /// The depth in moves, at most N − 1.
    pub depth: usize,
    /// `sat` or `backtrack`: how each cube is counted.
    pub method: Method,
}

impl CubeTask {
    /// The task as one line of `key value` pairs separated by `; `:
    /// `depth`, `method`, then the problem and the encoding's switches as
    /// a CNF's `c option` comments record them.
    pub(crate) fn record(&self) -> String {
        let settings = match &self.config {
            EncodingConfig::TimeIndexed(config) => config.settings(),
            // Refused by [`cube_task`]; recorded for completeness.
            EncodingConfig::Successor(_) => vec![("encoding", "successor".to_string())],
        };
        let mut pairs = vec![
            ("depth", self.depth.to_string()),
            ("method", self.method.name().to_string()),
        ];
        pairs.extend(options(&self.problem, settings));
        record_of(&pairs)
    }

    /// The header line of the task's output (no newline).
    pub(crate) fn header(&self) -> String {
        header_line(&self.record())
    }

    /// The fingerprint of its record, which ends each cube's line.
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.record())
    }

    /// The task a [`record`](CubeTask::record) describes; the error says
    /// why it is none.
    pub(crate) fn from_record(record: &str) -> Result<CubeTask, String> {
        let mut depth = None;
        let mut method = None;
        let mut values = Vec::new();
        for pair in record.split("; ") {
            let (key, value) = pair.split_once(' ').ok_or_else(|| {
                format!(
                    "'{}' is no key and value",
                    crate::runtime::input::shown(pair)
                )
            })?;
            match key {
                "depth" => depth = value.parse::<usize>().ok(),
                "method" => {
                    method = [Method::Sat, Method::Backtrack]
                        .into_iter()
                        .find(|m| m.name() == value);
                }
                _ => values.push((key.to_string(), value.to_string())),
            }
        }
        let (Some(depth), Some(method)) = (depth, method) else {
            return Err("no depth or no method".to_string());
        };
        let (problem, config) = problem_and_encoding(&values)
            .map_err(|error| error.to_string())?
            .ok_or("no board")?;
        let task = CubeTask {
            problem,
            config,
            depth,
            method,
        };
        // Only a record knightsat writes reads back: the same, byte for byte.
        if task.record() == record {
            Ok(task)
        } else {
            Err("it is not as `count --cubes` writes it".to_string())
        }
    }
}

/// The task counting the cubes of `depth` moves of `problem` by `method`
/// under `request` ([`count_cube_range`]'s): the counter the route picks
/// and the encoding with symmetry breaking off.
pub(super) fn cube_task(
    problem: &Problem,
    method: Method,
    request: &Request,
    depth: usize,
) -> Result<CubeTask, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    if let EncodingConfig::Successor(_) = request.config {
        return Err(Error::Unsupported(cubes_refused(problem)));
    }
    Ok(CubeTask {
        problem: problem.clone(),
        config: request.config,
        depth: effective_depth(depth, problem.board().squares()),
        method: match counter {
            CubeCounter::Sat => Method::Sat,
            CubeCounter::Backtrack => Method::Backtrack,
        },
    })
}

/// The sum of the cube lines added to `sum` (with `range`, of the cubes
/// numbered `range` alone), once every line is checked against the task
/// its header records: each line's squares are its cube's, and the lines
/// count the task's cubes. Walks every cube of the task.
pub fn sum_tallies(sum: &CubeSum, range: Option<CubeRange>) -> Result<TourNumber, Error> {
    let Some((record, header)) = sum.task() else {
        return Err(TallyError::Nothing.into());
    };
    let lines = sum.cubes();
    if sum.kind() == Some(LineKind::Part) {
        if lines.is_none() {
            return Err(TallyError::Nothing.into());
        }
        check_parts(sum, record, header)?;
        return Ok(match range {
            Some(range) => sum.total_of(range)?,
            None => sum.total()?,
        });
    }
    let task = CubeTask::from_record(record).map_err(|reason| TallyError::BadHeader {
        header: header.to_string(),
        reason,
    })?;
    let board = task.problem.board();
    let mut index = 0;
    for_each_cube(&task.problem, &task.config, task.depth, |cube| {
        let names: Vec<String> = cube.squares.iter().map(|&s| board.name(s)).collect();
        sum.check_cube(index, &names.join(" "))?;
        index += 1;
        Ok(())
    })?;
    let Some(lines) = lines else {
        // A header alone is the whole output of a task whose problem has
        // no cube at its depth, and so no tour.
        if index == 0 {
            return Ok(TourNumber::ZERO);
        }
        let missing = match range {
            Some(range) => range.cut_to(index)?.indices(),
            None => 0..index,
        };
        return Err(TallyError::Missing {
            kind: LineKind::Cube,
            cubes: index,
            missing: missing.map(|i| i + 1).collect(),
        }
        .into());
    };
    if index != lines {
        return Err(TallyError::WrongCubeCount {
            header: header.to_string(),
            lines,
            cubes: index,
        }
        .into());
    }
    Ok(match range {
        Some(range) => sum.total_of(range)?,
        None => sum.total()?,
    })
}
