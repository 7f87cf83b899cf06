//! Counting by cubes: the problem split into disjoint, exhaustive cubes
//! ([`crate::cubes`]), each counted on its own (by SAT in a session of its
//! own, or by backtracking from its last square) on any number of
//! threads, the counts added up. The feasibility gate is the caller's.

use crate::error::RunError;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use super::enumerate::{every_tour, weight};
use super::tally::CubeRange;
use crate::cubes::{
    bytes_per_cube, cube_count_until, cubes_within, effective_depth, for_each_cube_until,
    on_cubes_in_runs, Cube, Halt, DEEPEST_AUTOMATIC_DEPTH,
};
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::model::problem::Problem;
use crate::runtime::memory::bytes_of_mib;
use crate::runtime::stop::Stop;
use crate::runtime::threads::resolve_jobs;
use crate::sat::{Setup, Workload};
use crate::search;
use crate::solve::{Method, Request};

/// Counts the tours in `cube` with `request` as given, in a session tuned
/// for enumeration; `on_tours` hears the weight of each tour found and
/// says whether to go on (a count stops between tours, so its sessions are
/// [stoppable](Setup::stoppable) mid-search only under a time limit). A
/// session stopped by `stop` counts what it found.
pub(super) fn count_in_cube(
    problem: &Problem,
    request: &Request,
    cube: &Cube,
    stop: &Stop,
    mut on_tours: impl FnMut(u64) -> bool,
) -> Result<u64, Error> {
    let weight = weight(problem);
    let setup = Setup {
        workload: Workload::CubeEnumeration,
        stoppable: request.may_stop(),
        ..Setup::new(stop)
    };
    let mut session = request.cube_session(problem, cube, setup)?;
    let mut found = 0;
    loop {
        let tour = match session.next_tour() {
            Ok(Some(tour)) => tour,
            Ok(None) | Err(Error::Run(RunError::Stopped)) => break,
            Err(error) => return Err(error),
        };
        found += weight;
        if !on_tours(weight) {
            break;
        }
        session.block(&tour.squares);
    }
    Ok(found)
}

/// How a count is split into cubes and spread over threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ParallelOptions {
    /// Threads; 0 means one per core.
    pub jobs: usize,
    /// Cube depth in moves; `None` chooses it with [`counting_cubes`].
    pub depth: Option<usize>,
    /// Stop once this many tours are counted.
    pub limit: Option<u64>,
}

/// With no depth given, a count's cubes number at least this many per
/// thread: enough for threads to finish close together.
pub const CUBES_PER_JOB: usize = 1000;

/// With no depth given, a count's cubes are also at least N / this many
/// moves deep (N squares, rounded up), as long as they number at most
/// [`MAX_AUTOMATIC_CUBES`]: a shallow cube holds many tours and its session
/// many blocking clauses, a deep one costs a session for a few tours.
/// Measured on 6x6 with `scripts/bench-cubes.sh` (docs/cubes.md, Figures,
/// "Tours/s against depth"): closed from a1 counts fastest at depths 5 and
/// 6, and open with no start counts more tours a second at depths 6 to 8
/// than at depths 4 and 5, where 1,000 cubes per thread alone would stop
/// (depth 3 or 4).
pub const SQUARES_PER_MOVE_OF_DEPTH: usize = 6;

/// The most cubes the automatic depth deepens to (they are all held in
/// memory, about 200 bytes each: [`crate::bytes_per_cube`]).
pub const MAX_AUTOMATIC_CUBES: usize = 250_000;

/// The cubes a count over `jobs` threads uses when no depth is given, with
/// their depth: the smallest depth giving [`CUBES_PER_JOB`] cubes per
/// thread (per thread that can run at once: threads past the machine's
/// parallelism take turns on its cores, and more cubes for them would only
/// make each cube's session cost more than its tours), deepened towards N / [`SQUARES_PER_MOVE_OF_DEPTH`] moves while
/// the cubes number at most [`MAX_AUTOMATIC_CUBES`] and fit in the memory
/// budget of `budget_mib` MiB ([`bytes_per_cube`] each); at most
/// [`DEEPEST_AUTOMATIC_DEPTH`] moves.
/// Each depth's cubes are counted without being held (a count stops past
/// what it may take once there are enough), and only the chosen depth's
/// are made ([`cubes_within`], which refuses cubes over the budget: only
/// depth 1 can be). `halt`'s error ends the walks.
pub(super) fn counting_cubes(
    problem: &Problem,
    config: &EncodingConfig,
    (jobs, budget_mib): (usize, u64),
    halt: Halt<'_>,
) -> Result<(usize, Vec<Cube>), Error> {
    let squares = problem.board().squares();
    let deepest = effective_depth(DEEPEST_AUTOMATIC_DEPTH, squares);
    let wanted = effective_depth(squares.div_ceil(SQUARES_PER_MOVE_OF_DEPTH), squares)
        .min(DEEPEST_AUTOMATIC_DEPTH);
    let enough = jobs.clamp(1, resolve_jobs(0)) * CUBES_PER_JOB;
    let budget_bytes = bytes_of_mib(budget_mib);
    let fitting =
        |depth: usize| usize::try_from(budget_bytes / bytes_per_cube(depth)).unwrap_or(usize::MAX);
    let mut depth = 1;
    let mut count = cube_count_until(problem, config, depth, usize::MAX, halt)?;
    while depth < deepest {
        let many = count >= enough;
        if many && depth >= wanted {
            break;
        }
        let at_most = if many {
            MAX_AUTOMATIC_CUBES
        } else {
            usize::MAX
        }
        .min(fitting(depth + 1));
        let deeper = cube_count_until(problem, config, depth + 1, at_most, halt)?;
        if deeper > at_most {
            break;
        }
        depth += 1;
        count = deeper;
    }
    Ok((
        depth,
        cubes_within(problem, config, depth, budget_bytes, halt)?,
    ))
}

/// How far a count over cubes has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeProgress {
    /// Cubes finished.
    pub cubes_done: usize,
    /// Cubes in all.
    pub cubes: usize,
    /// Tours counted so far.
    pub tours: u64,
}

/// Counts the tours of `problem` as [`super::enumerate::enumerate`] does
/// (sequences, no orbits), solving its cubes on `options.jobs` threads:
/// each cube counted by SAT in a session of its own, or by backtracking
/// from the cube's last square ([`search::PrefixCounter`]); the
/// per-cube counts add up to the count, because the cubes are disjoint and
/// exhaustive (see [`crate::cubes`]). `on_progress` is called from the
/// worker threads after each tour and each cube.
/// Backtracking takes the cubes of the
/// default time-indexed encoding (`request`'s configuration, which the
/// search does not use otherwise), so that its cubes are those `cubes
/// --split` numbers in its manifest. With backtracking the limit is
/// checked as each cube ends (the count is then cut to it).
pub(super) fn count_by_cubes(
    problem: &Problem,
    method: Method,
    request: &Request,
    options: ParallelOptions,
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<u64, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let limit = options.limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    // The walk that makes the cubes keeps the count's time limit too; the
    // counting then has what is left of it.
    let deadline = request.deadline();
    let (_, cubes) = cubes_for(problem, &request, options, &|| deadline.check())?;
    let request = Request {
        timeout: deadline.limit_left(),
        ..request
    };
    // Without a limit, backtracking counts one cube of each class that the
    // problem's symmetries map onto each other; SAT counts every cube, an
    // independent check of the numbers.
    let by_class = counter == CubeCounter::Backtrack && options.limit.is_none();
    let (cubes, stand_for) = if by_class {
        let (cubes, stand_for) = one_cube_per_class(problem, &cubes);
        (cubes, Some(stand_for))
    } else {
        (cubes, None)
    };
    let counts = count_cubes(
        problem,
        counter,
        &request,
        (&cubes, stand_for.as_deref()),
        options.jobs,
        limit,
        on_progress,
    )
    .map_err(|error| deadline.with_whole_limit(error))?;
    Ok(counts.iter().map(|c| c.tours).sum::<u64>().min(limit))
}

/// One cube of each class of `cubes` that a symmetry of the rooted problem
/// (a rotation or reflection keeping the board, its holes, the root and
/// every anchor: [`Problem::symmetries`]) maps onto each other, in the
/// order of `cubes`, with how many of `cubes` each stands for. Such a
/// symmetry maps the tours that begin with a cube one-to-one onto the
/// tours that begin with its image, so every cube of a class has the same
/// count: counting one and multiplying counts them all (6x6 open: 8 cubes
/// of a class for almost every class).
fn one_cube_per_class(problem: &Problem, cubes: &[Cube]) -> (Vec<Cube>, Vec<u64>) {
    let symmetries = problem.rooted().symmetries();
    let mut class_of: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut chosen = Vec::new();
    let mut stand_for = Vec::new();
    for cube in cubes {
        match class_of.entry(least_image(&symmetries, cube)) {
            Entry::Occupied(class) => stand_for[*class.get()] += 1,
            Entry::Vacant(class) => {
                class.insert(chosen.len());
                chosen.push(cube.clone());
                stand_for.push(1);
            }
        }
    }
    (chosen, stand_for)
}

/// The class of `cube` under `symmetries` (square permutations, the
/// identity among them): its least image, as a sequence of squares.
fn least_image(symmetries: &[Vec<usize>], cube: &Cube) -> Vec<u32> {
    symmetries
        .iter()
        .map(|map| cube.squares.iter().map(|&s| map[s] as u32).collect())
        .min()
        .unwrap_or_default()
}

/// The cubes numbered `range` of `depth` moves (with `config`'s
/// numbering), each with the lowest-numbered cube of its class
/// ([`one_cube_per_class`]) when that is another one: its count is that
/// cube's. One walk over the cubes up to the range's end, holding one
/// number per class.
pub(super) fn cubes_with_classes(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    range: CubeRange,
    halt: Halt<'_>,
) -> Result<(Vec<Cube>, Vec<Option<usize>>), Error> {
    let symmetries = problem.rooted().symmetries();
    let mut first: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut cubes = Vec::with_capacity(range.indices().len());
    let mut same_as = Vec::with_capacity(range.indices().len());
    let mut number = 0;
    for_each_cube_until(problem, config, depth, halt, |cube| {
        number += 1;
        if number > range.last {
            return Err(Error::Run(RunError::Stopped));
        }
        let first = *first
            .entry(least_image(&symmetries, cube))
            .or_insert(number);
        if number >= range.first {
            cubes.push(cube.clone());
            same_as.push((first != number).then_some(first));
        }
        Ok(())
    })
    .or_else(|error| match error {
        Error::Run(RunError::Stopped) => Ok(()),
        error => Err(error),
    })?;
    Ok((cubes, same_as))
}

/// How each cube of a count is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CubeCounter {
    /// By SAT, in a session of its own with the cube pinned as clues.
    Sat,
    /// By backtracking from the cube's last square.
    Backtrack,
}

impl CubeCounter {
    /// How many neighbouring cubes a thread takes at a time: one for SAT
    /// (each cube gets a session of its own); for backtracking a run of up
    /// to 256 whose counter remembers what they share, as long as every
    /// thread gets 16 runs or more to keep them finishing together.
    pub(super) fn run(self, cubes: usize, jobs: usize) -> usize {
        match self {
            CubeCounter::Sat => 1,
            CubeCounter::Backtrack => (cubes / (16 * resolve_jobs(jobs))).clamp(1, 256),
        }
    }

    /// The counter `method` counts `problem`'s cubes with (the default
    /// route's choice for [`Method::Auto`]), and the request it counts
    /// them under: every tour, no symmetry breaking.
    pub(super) fn for_route(
        problem: &Problem,
        method: Method,
        request: &Request,
    ) -> Result<(CubeCounter, Request), Error> {
        let step = super::route::every_tour_by(problem, method, request);
        Ok((CubeCounter::of(step.method)?, every_tour(&step.request)))
    }

    /// The counter for `method`: Warnsdorff's rule does not count.
    fn of(method: Method) -> Result<CubeCounter, Error> {
        match method {
            Method::Sat => Ok(CubeCounter::Sat),
            Method::Backtrack => Ok(CubeCounter::Backtrack),
            // The default route counts by one of the two above
            // ([`super::route::every_tour_by`] resolves it first): what is left
            // finds one tour.
            Method::Warnsdorff | Method::Auto => {
                Err(Error::Unsupported(Unsupported::EveryTourByWarnsdorff))
            }
            Method::Frontier => Err(Error::Unsupported(Unsupported::CubesByFrontier)),
        }
    }
}

/// Backtracking's counter for the cubes of one problem, shared by the
/// threads: what it remembers of one cube's search saves work in the others
/// ([`search::PrefixCounter`]).
pub(super) struct CubeBacktracker<'a> {
    problem: &'a Problem,
    counter: search::PrefixCounter,
}

impl<'a> CubeBacktracker<'a> {
    pub(super) fn new(problem: &'a Problem) -> Self {
        CubeBacktracker {
            problem,
            counter: search::PrefixCounter::new(problem),
        }
    }

    /// The tours of the problem in `cube`, weighted as [`super::enumerate::enumerate`]
    /// counts them; `None` once `stop` is raised.
    pub(super) fn count(&self, cube: &Cube, stop: &Stop) -> Option<u64> {
        let tours = self
            .counter
            .count_unless_stopped(&cube.squares, &stop.as_interrupt())?;
        Some(tours * weight(self.problem))
    }
}

/// The cubes `options` asks for (its depth, or the automatic one) for
/// `request`'s encoding, within its memory budget, with the depth used.
fn cubes_for(
    problem: &Problem,
    request: &Request,
    options: ParallelOptions,
    halt: Halt<'_>,
) -> Result<(usize, Vec<Cube>), Error> {
    let (config, budget) = (&request.config, request.memory_budget_mib);
    match options.depth {
        Some(depth) => Ok((
            depth,
            cubes_within(problem, config, depth, bytes_of_mib(budget), halt)?,
        )),
        None => counting_cubes(problem, config, (resolve_jobs(options.jobs), budget), halt),
    }
}

/// What counting one cube gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct CubeCount {
    /// Tours in the cube (weighted as [`super::enumerate::enumerate`] counts them).
    pub tours: u64,
    /// Seconds the cube's session took, setup included.
    pub seconds: f64,
}

/// Counts each of `cubes` in a session of its own, on `jobs` threads
/// (0: one per core), stopping everything once `limit` tours are counted;
/// a backtracking count is multiplied by the cubes each one stands for
/// (`stand_for`, when given: see [`one_cube_per_class`]).
/// When `request.timeout` runs out first: [`RunError::TimedOutPartway`] with
/// the tours counted so far.
/// Returns the count of each cube, in order (zero for cubes not reached).
pub(super) fn count_cubes(
    problem: &Problem,
    counter: CubeCounter,
    request: &Request,
    (cubes, stand_for): (&[Cube], Option<&[u64]>),
    jobs: usize,
    limit: u64,
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<Vec<CubeCount>, Error> {
    if counter == CubeCounter::Sat {
        request.check_budget_for_threads(problem, resolve_jobs(jobs).min(cubes.len()))?;
    }
    let done = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let stop = Stop::new();
    let counters = CubeBacktracker::new(problem);
    let counts: Mutex<Vec<CubeCount>> = Mutex::new(vec![CubeCount::default(); cubes.len()]);
    let progress = |tours| CubeProgress {
        cubes_done: done.load(Ordering::Relaxed),
        cubes: cubes.len(),
        tours,
    };
    let work = |index, cube: &Cube| {
        let started = Instant::now();
        let mut reached = false;
        let tours = match counter {
            CubeCounter::Sat => count_in_cube(problem, request, cube, &stop, |weight| {
                let tours = total.fetch_add(weight, Ordering::Relaxed) + weight;
                on_progress(progress(tours));
                reached = tours >= limit;
                !reached
            })?,
            // Millions of tours a second: counted in the cube's total only.
            CubeCounter::Backtrack => {
                let cubes_like_it = stand_for.map_or(1, |stand_for| stand_for[index]);
                let tours = counters
                    .count(cube, &stop)
                    .ok_or(Error::Run(RunError::Stopped))?
                    * cubes_like_it;
                reached = total.fetch_add(tours, Ordering::Relaxed) + tours >= limit;
                tours
            }
        };
        lock(&counts)[index] = CubeCount {
            tours,
            seconds: started.elapsed().as_secs_f64(),
        };
        done.fetch_add(1, Ordering::Relaxed);
        on_progress(progress(total.load(Ordering::Relaxed)));
        Ok(if reached {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    };
    let run = counter.run(cubes.len(), jobs);
    let counted = stop.within(request.timeout, &request.interrupt, || {
        on_cubes_in_runs(cubes, jobs, run, &stop, work)
    });
    let timed_out = |seconds| {
        Error::Run(RunError::TimedOutPartway {
            seconds,
            found: total.load(Ordering::Relaxed),
        })
    };
    match counted {
        Err(Error::Run(RunError::Timeout { seconds })) => return Err(timed_out(seconds)),
        // Every cube ended, but the limit did not stop them: the time
        // limit cut the last ones short.
        Ok(None) if stop.is_stopped() => {
            let seconds = request.timeout.map_or(0.0, |limit| limit.as_secs_f64());
            return Err(timed_out(seconds));
        }
        counted => counted?,
    };
    Ok(counts.into_inner().unwrap_or_else(PoisonError::into_inner))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
