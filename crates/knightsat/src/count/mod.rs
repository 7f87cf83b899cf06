//! Counting and enumerating tours: by incremental solving with blocking
//! clauses (SAT), or by backtracking search.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Blocking clauses range over the x
//! variables only, so auxiliary variables never multiply the count. Both
//! methods report through the same code, so they count the same way.

pub mod frontier;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::ops::ControlFlow;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::cnf_file::{options, problem_and_encoding, CnfInfo};
use crate::cube_tally::{
    header_line, CubeRange, CubeSum, CubeTally, CubeTours, Fingerprint, TallyError,
};
use crate::cubes::{
    cube_count, cube_of, cubes_at, cubes_within, effective_depth, for_each_cube, on_cubes_in_runs,
    resolve_jobs, Cube,
};
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::gate::refute;
use crate::problem::Problem;
use crate::sat::{Setup, Stop, Workload};
use crate::search;
use crate::solve::{auto, Method, Request};
use crate::tour::Tour;

/// What to count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Stop after this many tours (or orbits).
    pub limit: Option<u64>,
    /// Count orbits: tours that are images of each other under a symmetry of
    /// the board that keeps the given start and end in place count once; so
    /// do a closed tour's rotations and reverse, and an open tour's reverse
    /// when neither end is fixed.
    pub up_to_symmetry: bool,
}

/// Finds every tour of `problem` (or one per orbit) by `method` (SAT with
/// `request`'s encoding and built-in solver, or backtracking), calling
/// `on_tour` for each as it is found; returns how many were found. Check
/// `request` first with [`Method::check_supports`]: Warnsdorff's rule finds
/// one tour and does not count ([`Unsupported::EveryTourByWarnsdorff`]).
///
/// When `request.timeout` runs out first, every method ends the same way:
/// [`Error::TimedOutPartway`] with the number of tours `on_tour` was given,
/// which are then only part of them.
pub fn enumerate_by(
    problem: &Problem,
    method: Method,
    request: &Request,
    count: CountOptions,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    match method {
        Method::Sat => enumerate(problem, request, count, on_tour),
        Method::Backtrack => enumerate_by_backtracking(problem, count, request, on_tour),
        Method::Warnsdorff => Err(Error::Unsupported(Unsupported::EveryTourByWarnsdorff)),
        // It counts them without ever holding one.
        Method::Frontier => Err(Error::Unsupported(Unsupported::TourByFrontier)),
        Method::Auto => {
            let step = auto::every_tour_step(problem, request);
            enumerate_by(problem, step.method, &step.request, count, on_tour)
        }
    }
}

/// Finds every tour of `problem` (or one per orbit) with `request`'s SAT
/// encoding and built-in solver, calling `on_tour` for each as it is
/// found; returns how many were found. Within `request.timeout`: at the
/// limit the solver is stopped, and the tours found so far are reported as
/// [`Error::TimedOutPartway`].
///
/// A closed tour with no start or end given is searched from a1 (every
/// closed tour can be rotated to start there) and each one found is reported
/// in all its N rotations, so the count stays that of sequences.
pub fn enumerate(
    problem: &Problem,
    request: &Request,
    count: CountOptions,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    // Symmetry breaking would drop tours from the count; orbits keep one
    // tour each, which it may rightly choose.
    let config = if count.up_to_symmetry {
        request.config.clone()
    } else {
        request.config.keeping_every_tour()
    };
    let mut report = Report::new(problem, count, on_tour);
    // The gate answers at once where a rule proves there is no tour.
    if report.is_done() || (request.gate && refute(problem).is_some()) {
        return Ok(0);
    }
    let stop = Stop::new();
    let listed = stop.within(request.timeout, || {
        let encoding = config.prepare(problem)?;
        let setup = Setup {
            workload: Workload::Enumeration,
            stoppable: request.timeout.is_some(),
            ..Setup::new(&stop)
        };
        let mut session = request.session(encoding, setup)?;
        while let Some(tour) = session.next_tour()? {
            if report.tour(&tour)?.is_break() {
                break;
            }
            if count.up_to_symmetry {
                for variant in orbit(&tour, problem, &report.symmetries) {
                    session.block(&variant);
                }
            } else {
                session.block(&tour.squares);
            }
        }
        Ok(())
    });
    match listed {
        Err(Error::Timeout { seconds }) => Err(Error::TimedOutPartway {
            seconds,
            found: report.found,
        }),
        other => other.map(|()| report.found),
    }
}

/// [`enumerate`] by backtracking instead of SAT: every tour of the problem
/// as rooted is listed once by the search, and reported the same way. With
/// `up_to_symmetry`, a tour counts when it is the least (as a sequence of
/// square indices) of the tours its symmetries make of it, so each orbit
/// counts once. Honours `request.timeout`.
fn enumerate_by_backtracking(
    problem: &Problem,
    count: CountOptions,
    request: &Request,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    let mut report = Report::new(problem, count, on_tour);
    if report.is_done() || (request.gate && refute(problem).is_some()) {
        return Ok(0);
    }
    let searched = search::each_tour(problem, request.timeout, |tour| {
        if count.up_to_symmetry {
            let variants = orbit(tour, problem, &report.symmetries);
            if variants.iter().min() != Some(&tour.squares) {
                return Ok(ControlFlow::Continue(()));
            }
        }
        report.tour(tour)
    });
    match searched {
        Err(Error::Timeout { seconds }) => Err(Error::TimedOutPartway {
            seconds,
            found: report.found,
        }),
        other => other.map(|()| report.found),
    }
}

/// Reports tours as counting wants them, and counts them up to the limit.
struct Report<'a, F> {
    problem: &'a Problem,
    count: CountOptions,
    limit: u64,
    found: u64,
    symmetries: Vec<Vec<usize>>,
    on_tour: F,
}

impl<'a, F: FnMut(&Tour) -> Result<(), Error>> Report<'a, F> {
    fn new(problem: &'a Problem, count: CountOptions, on_tour: F) -> Self {
        Report {
            problem,
            count,
            limit: count.limit.unwrap_or(u64::MAX),
            found: 0,
            symmetries: if count.up_to_symmetry {
                problem.symmetries()
            } else {
                Vec::new()
            },
            on_tour,
        }
    }

    fn is_done(&self) -> bool {
        self.found >= self.limit
    }

    /// Reports a tour found by a search rooted as the problem's
    /// [effective start](Problem::effective_start) wants: a closed tour
    /// with nothing anchored in all its rotations (unless counting orbits).
    /// Breaks at the limit.
    fn tour(&mut self, tour: &Tour) -> Result<ControlFlow<()>, Error> {
        let reported = if self.count.up_to_symmetry || !self.problem.start_fixed_by_default() {
            vec![tour.clone()]
        } else {
            rotations(tour)
        };
        for each in &reported {
            (self.on_tour)(each)?;
            self.found += 1;
            if self.is_done() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Every rotation of a closed tour, starting with the tour itself.
fn rotations(tour: &Tour) -> Vec<Tour> {
    (0..tour.squares.len())
        .map(|k| {
            let mut squares = tour.squares.clone();
            squares.rotate_left(k);
            Tour {
                squares,
                ..tour.clone()
            }
        })
        .collect()
}

/// The tours `symmetries` (and reversal, where it applies) make of `tour`,
/// each rooted as the encoding requires, without repeats.
fn orbit(tour: &Tour, problem: &Problem, symmetries: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut bases = vec![tour.squares.clone()];
    if problem.reversal_is_symmetry() {
        bases.push(problem.reversed(&tour.squares));
    }
    let root = problem.effective_start().filter(|_| problem.is_closed());
    let mut variants: Vec<Vec<usize>> = Vec::new();
    for base in &bases {
        for map in symmetries {
            let mut image: Vec<usize> = base.iter().map(|&s| map[s]).collect();
            if let Some(root) = root {
                let at = image
                    .iter()
                    .position(|&s| s == root)
                    .expect("a tour visits every square");
                image.rotate_left(at);
            }
            if !variants.contains(&image) {
                variants.push(image);
            }
        }
    }
    variants
}

/// How many tours one solution found stands for: a closed tour searched
/// from its default start stands for its N rotations.
fn weight(problem: &Problem) -> u64 {
    if problem.start_fixed_by_default() {
        problem.board().squares() as u64
    } else {
        1
    }
}

/// Counts the tours of `problem` that extend `cube` (tours are sequences,
/// as for [`enumerate`]; symmetry breaking is turned off), with `request`'s
/// built-in solver. `cube` must be one of
/// [`cubes`]`(problem, &request.config.keeping_every_tour(), depth)`.
pub fn count_cube(problem: &Problem, request: &Request, cube: &Cube) -> Result<u64, Error> {
    count_in_cube(problem, &every_tour(request), cube, &Stop::new(), |_| true)
}

/// Counts the tours in `cube` with `request` as given, in a session tuned
/// for enumeration; `on_tours` hears the weight of each tour found and
/// says whether to go on (a count stops between tours, so its sessions are
/// [stoppable](Setup::stoppable) mid-search only under a time limit). A
/// session stopped by `stop` counts what it found.
fn count_in_cube(
    problem: &Problem,
    request: &Request,
    cube: &Cube,
    stop: &Stop,
    mut on_tours: impl FnMut(u64) -> bool,
) -> Result<u64, Error> {
    let weight = weight(problem);
    let setup = Setup {
        workload: Workload::CubeEnumeration,
        stoppable: request.timeout.is_some(),
        ..Setup::new(stop)
    };
    let mut session = request.cube_session(problem, cube, setup)?;
    let mut found = 0;
    loop {
        let tour = match session.next_tour() {
            Ok(Some(tour)) => tour,
            Ok(None) | Err(Error::Stopped) => break,
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
pub struct ParallelOptions {
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
/// Measured on 6x6 with `scripts/bench-cubes.sh` (docs/cubes.md, Figures):
/// closed from a1 counts fastest at depths 5 and 6 (14.3 s; depth 4 19.7 s,
/// depth 8 22.3 s), and open with no start reaches 1,190 to 1,340 tours/s
/// per core at depths 6 to 8 against 610 to 830 at depths 4 and 5, where
/// 1,000 cubes per thread alone would stop (depth 3 or 4).
pub const SQUARES_PER_MOVE_OF_DEPTH: usize = 6;

/// The most cubes the automatic depth deepens to (they are all held in
/// memory, about 200 bytes each: [`crate::cubes::bytes_per_cube`]).
pub const MAX_AUTOMATIC_CUBES: usize = 250_000;

/// The cubes a count over `jobs` threads uses when no depth is given, with
/// their depth: the smallest depth giving [`CUBES_PER_JOB`] cubes per
/// thread, deepened towards N / [`SQUARES_PER_MOVE_OF_DEPTH`] moves while
/// the cubes number at most [`MAX_AUTOMATIC_CUBES`]; at most 12 moves.
/// Each depth's cubes are counted without being held (a count stops past
/// [`MAX_AUTOMATIC_CUBES`] once there are enough), and only the chosen
/// depth's are made, within the memory budget of `budget_mib` MiB
/// ([`cubes_within`]).
pub fn counting_cubes(
    problem: &Problem,
    config: &EncodingConfig,
    jobs: usize,
    budget_mib: u64,
) -> Result<(usize, Vec<Cube>), Error> {
    let squares = problem.board().squares();
    let deepest = effective_depth(12, squares);
    let wanted = effective_depth(squares.div_ceil(SQUARES_PER_MOVE_OF_DEPTH), squares).min(12);
    let enough = jobs.max(1) * CUBES_PER_JOB;
    let mut depth = 1;
    let mut count = cube_count(problem, config, depth, usize::MAX)?;
    while depth < deepest {
        let many = count >= enough;
        if many && depth >= wanted {
            break;
        }
        let at_most = if many {
            MAX_AUTOMATIC_CUBES
        } else {
            usize::MAX
        };
        let deeper = cube_count(problem, config, depth + 1, at_most)?;
        if deeper > at_most {
            break;
        }
        depth += 1;
        count = deeper;
    }
    Ok((
        depth,
        cubes_within(problem, config, depth, budget_mib << 20)?,
    ))
}

/// How far a parallel count has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Cubes finished.
    pub cubes_done: usize,
    /// Cubes in all.
    pub cubes: usize,
    /// Tours counted so far.
    pub tours: u64,
}

/// Counts the tours of `problem` as [`enumerate`] does (sequences, no
/// orbits), solving its cubes on `options.jobs` threads, each cube in a
/// session of its own; the per-cube counts add up to the count, because
/// the cubes are disjoint and exhaustive (see [`crate::cubes`]).
/// `on_progress` is called from the worker threads after each tour and
/// each cube.
pub fn count_parallel(
    problem: &Problem,
    request: &Request,
    options: ParallelOptions,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<u64, Error> {
    count_parallel_by(problem, Method::Sat, request, options, on_progress)
}

/// [`count_parallel`] by `method`: each cube counted by SAT in a session
/// of its own, or by backtracking from the cube's last square
/// ([`search::count_extending`]). Backtracking takes the cubes of the
/// default time-indexed encoding (`request`'s configuration, which the
/// search does not use otherwise), so that its cubes are those `cubes
/// --split` numbers in its manifest. With backtracking the limit is
/// checked as each cube ends (the count is then cut to it).
pub fn count_parallel_by(
    problem: &Problem,
    method: Method,
    request: &Request,
    options: ParallelOptions,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<u64, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let limit = options.limit.unwrap_or(u64::MAX);
    if limit == 0 || (request.gate && refute(problem).is_some()) {
        return Ok(0);
    }
    let (_, cubes) = cubes_for(problem, &request, options)?;
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
    )?;
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
fn cubes_with_classes(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    range: CubeRange,
) -> Result<(Vec<Cube>, Vec<Option<usize>>), Error> {
    let symmetries = problem.rooted().symmetries();
    let mut first: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut cubes = Vec::with_capacity(range.indices().len());
    let mut same_as = Vec::with_capacity(range.indices().len());
    let mut number = 0;
    for_each_cube(problem, config, depth, |cube| {
        number += 1;
        if number > range.last {
            return Err(Error::Stopped);
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
        Error::Stopped => Ok(()),
        error => Err(error),
    })?;
    Ok((cubes, same_as))
}

/// How each cube of a count is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CubeCounter {
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
    fn run(self, cubes: usize, jobs: usize) -> usize {
        match self {
            CubeCounter::Sat => 1,
            CubeCounter::Backtrack => (cubes / (16 * resolve_jobs(jobs))).clamp(1, 256),
        }
    }

    /// The counter `method` counts `problem`'s cubes with (the default
    /// route's choice for [`Method::Auto`]), and the request it counts
    /// them under: every tour, no symmetry breaking.
    fn for_route(
        problem: &Problem,
        method: Method,
        request: &Request,
    ) -> Result<(CubeCounter, Request), Error> {
        let step = auto::every_tour_by(problem, method, request);
        Ok((CubeCounter::of(step.method)?, every_tour(&step.request)))
    }

    /// The counter for `method`: Warnsdorff's rule does not count.
    fn of(method: Method) -> Result<CubeCounter, Error> {
        match method {
            Method::Sat => Ok(CubeCounter::Sat),
            Method::Backtrack => Ok(CubeCounter::Backtrack),
            // The default route counts by one of the two above
            // ([`auto::every_tour_by`] resolves it first): what is left
            // finds one tour.
            Method::Warnsdorff | Method::Auto => {
                Err(Error::Unsupported(Unsupported::EveryTourByWarnsdorff))
            }
            Method::Frontier => Err(Error::Unsupported(Unsupported::PartsByFrontier)),
        }
    }
}

/// Counts the cubes numbered `range` (from 1, in the order of `cubes
/// --split`'s files and manifest) of `depth` moves by `method`, on `jobs`
/// threads, handing each cube's [`CubeTally`] to `on_cube` as it is
/// counted (in any order); the cubes and their numbers are those of
/// `request`'s encoding with symmetry breaking off, as the split writes
/// them. Backtracking counts one cube per class of symmetric cubes, the
/// lowest-numbered: the others' tallies say which cube's count is theirs
/// ([`CubeTours::SameAs`]), wherever that cube is, and `sum` adds it in.
/// Returns the tours of the cubes counted. A range ending past the last
/// cube stops there; one starting past it is refused.
pub fn count_cube_range(
    problem: &Problem,
    method: Method,
    request: &Request,
    depth: usize,
    range: CubeRange,
    jobs: usize,
    on_cube: impl Fn(&CubeTally) + Sync,
) -> Result<u64, Error> {
    let task = cube_task(problem, method, request, depth)?.fingerprint();
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let all = cube_count(problem, &request.config, depth, usize::MAX)?;
    let range = range.within(all)?;
    // Backtracking counts one cube per class of symmetric cubes; SAT, the
    // independent check, counts each.
    let (cubes, same_as) = match counter {
        CubeCounter::Backtrack => cubes_with_classes(problem, &request.config, depth, range)?,
        CubeCounter::Sat => {
            let indices: Vec<usize> = range.indices().collect();
            let cubes = cubes_at(problem, &request.config, depth, &indices)?;
            request.check_budget_for_threads(problem, resolve_jobs(jobs).min(cubes.len()))?;
            let each_its_own = vec![None; cubes.len()];
            (cubes, each_its_own)
        }
    };
    let impossible = request.gate && refute(problem).is_some();
    let total = AtomicU64::new(0);
    let counters = CubeBacktracker::new(problem);
    let run = counter.run(cubes.len(), jobs);
    let stop = Stop::new();
    let counted = stop.within(request.timeout, || {
        on_cubes_in_runs(&cubes, jobs, run, &stop, |index, cube| {
            let tours = match counter {
                _ if impossible => 0,
                _ if same_as[index].is_some() => 0,
                CubeCounter::Sat => count_in_cube(problem, &request, cube, &stop, |_| true)?,
                CubeCounter::Backtrack => counters.count(cube, &stop).ok_or(Error::Stopped)?,
            };
            // A cube cut short by the time limit is left out, not printed
            // with part of its count.
            if stop.is_stopped() {
                return Err(Error::Stopped);
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
    match counted {
        Err(Error::Timeout { seconds }) => Err(Error::TimedOutPartway { seconds, found }),
        Err(error) => Err(error),
        Ok(_) => Ok(found),
    }
}

/// What a cluster task's cube counts are counts of: the problem, the
/// encoding whose cubes are numbered (symmetry breaking off), the depth
/// and how each cube is counted. Its [`record`](CubeTask::record) heads the
/// task's output ([`CubeTask::header`]), and its fingerprint ends each
/// cube's line, so that `sum` refuses lines of two tasks and checks each
/// line's squares against its cube ([`sum_tallies`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeTask {
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
    pub fn record(&self) -> String {
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
        pairs
            .iter()
            .map(|(key, value)| format!("{key} {value}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The header line of the task's output (no newline).
    pub fn header(&self) -> String {
        header_line(&self.record())
    }

    /// The fingerprint of its record, which ends each cube's line.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.record())
    }

    /// The task a [`record`](CubeTask::record) describes; the error says
    /// why it is none.
    pub fn from_record(record: &str) -> Result<CubeTask, String> {
        let mut depth = None;
        let mut method = None;
        let mut values = Vec::new();
        for pair in record.split("; ") {
            let (key, value) = pair
                .split_once(' ')
                .ok_or_else(|| format!("'{}' is no key and value", crate::input::shown(pair)))?;
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
pub fn cube_task(
    problem: &Problem,
    method: Method,
    request: &Request,
    depth: usize,
) -> Result<CubeTask, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    if let EncodingConfig::Successor(_) = request.config {
        return Err(Error::Unsupported(Unsupported::CubesWithSuccessor));
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
pub fn sum_tallies(sum: &CubeSum, range: Option<CubeRange>) -> Result<u64, Error> {
    let (Some((record, header)), Some(lines)) = (sum.task(), sum.cubes()) else {
        return Err(TallyError::Nothing.into());
    };
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

/// Backtracking's counter for the cubes of one problem, shared by the
/// threads: what it remembers of one cube's search saves work in the others
/// ([`search::PrefixCounter`]).
struct CubeBacktracker<'a> {
    problem: &'a Problem,
    counter: search::PrefixCounter,
}

impl<'a> CubeBacktracker<'a> {
    fn new(problem: &'a Problem) -> Self {
        CubeBacktracker {
            problem,
            counter: search::PrefixCounter::new(problem),
        }
    }

    /// The tours of the problem in `cube`, weighted as [`enumerate`]
    /// counts them; `None` once `stop` is raised.
    fn count(&self, cube: &Cube, stop: &Stop) -> Option<u64> {
        let tours = self
            .counter
            .count_unless_stopped(&cube.squares, stop.flag())?;
        Some(tours * weight(self.problem))
    }
}

/// The cubes `options` asks for (its depth, or the automatic one) for
/// `request`'s encoding, within its memory budget, with the depth used.
fn cubes_for(
    problem: &Problem,
    request: &Request,
    options: ParallelOptions,
) -> Result<(usize, Vec<Cube>), Error> {
    let (config, budget) = (&request.config, request.memory_budget_mib);
    match options.depth {
        Some(depth) => Ok((depth, cubes_within(problem, config, depth, budget << 20)?)),
        None => counting_cubes(problem, config, resolve_jobs(options.jobs), budget),
    }
}

/// What counting one cube gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CubeCount {
    /// Tours in the cube (weighted as [`enumerate`] counts them).
    pub tours: u64,
    /// Seconds the cube's session took, setup included.
    pub seconds: f64,
}

/// `request` with symmetry breaking off, so that every tour counts.
fn every_tour(request: &Request) -> Request {
    Request {
        config: request.config.keeping_every_tour(),
        ..request.clone()
    }
}

/// Counts each of `cubes` in a session of its own, on `jobs` threads
/// (0: one per core), stopping everything once `limit` tours are counted;
/// a backtracking count is multiplied by the cubes each one stands for
/// (`stand_for`, when given: see [`one_cube_per_class`]).
/// When `request.timeout` runs out first: [`Error::TimedOutPartway`] with
/// the tours counted so far.
/// Returns the count of each cube, in order (zero for cubes not reached).
fn count_cubes(
    problem: &Problem,
    counter: CubeCounter,
    request: &Request,
    (cubes, stand_for): (&[Cube], Option<&[u64]>),
    jobs: usize,
    limit: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Vec<CubeCount>, Error> {
    if counter == CubeCounter::Sat {
        request.check_budget_for_threads(problem, resolve_jobs(jobs).min(cubes.len()))?;
    }
    let done = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let stop = Stop::new();
    let counters = CubeBacktracker::new(problem);
    let counts: Mutex<Vec<CubeCount>> = Mutex::new(vec![CubeCount::default(); cubes.len()]);
    let progress = |tours| Progress {
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
                let tours = counters.count(cube, &stop).ok_or(Error::Stopped)? * cubes_like_it;
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
    let counted = stop.within(request.timeout, || {
        on_cubes_in_runs(cubes, jobs, run, &stop, work)
    });
    let timed_out = |seconds| Error::TimedOutPartway {
        seconds,
        found: total.load(Ordering::Relaxed),
    };
    match counted {
        Err(Error::Timeout { seconds }) => return Err(timed_out(seconds)),
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

/// What counting a random sample of the cubes says about the whole count
/// and how long it would take ([`estimate_count`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The cube depth.
    pub depth: usize,
    /// Cubes in all.
    pub cubes: usize,
    /// Cubes counted.
    pub sampled: usize,
    /// Tours in the cubes counted.
    pub sample_tours: u64,
    /// Session seconds the cubes counted took, summed over threads.
    pub sample_seconds: f64,
    /// The estimated count: the sample's mean per cube times the cubes.
    pub tours: f64,
    /// Half the width of the estimate's 95% confidence interval (normal
    /// approximation, with the finite-population correction); 0 when every
    /// cube was counted, `None` when one cube of several was. It is a 95%
    /// interval only when the sample is large enough for the normal
    /// approximation: see [`Estimate::cubes_for_margin`].
    pub margin: Option<f64>,
    /// When the sample is too small for counts as skewed as its own for
    /// the margin to be a 95% interval, the cubes Cochran's rule asks for,
    /// 25·g² (g the sample's skewness; `Some(None)` when the sample's
    /// counts are all equal, which says nothing of a skewed whole);
    /// `None` when the rule holds or every cube was counted. Cube counts
    /// are very skewed (on 6x6 open at depth 8, 95% of the cubes have no
    /// tour and the skewness is 67), and then the normal interval covers
    /// the count far less often than it says: in 51 of 100 samples of 200
    /// cubes, 77 of 100 of 2000 (docs/cluster.md).
    pub cubes_for_margin: Option<Option<u64>>,
    /// The estimated session seconds for all cubes on one thread; divide
    /// by the threads for the wall time of a count that keeps them busy.
    pub seconds: f64,
}

/// Counts a simple random sample of `sample` cubes (all of them if there
/// are no more), drawn with `seed`, on `options.jobs` threads, and scales
/// it up to every cube: an unbiased estimate of the count with its margin,
/// and of the time the whole count would take. Each cube counts exactly
/// as in [`count_parallel`]; `options.limit` is ignored.
pub fn estimate_count(
    problem: &Problem,
    request: &Request,
    options: ParallelOptions,
    sample: usize,
    seed: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Estimate, Error> {
    estimate_count_by(
        problem,
        Method::Sat,
        request,
        options,
        sample,
        seed,
        on_progress,
    )
}

/// [`estimate_count`] with each cube counted by `method`, as
/// [`count_parallel_by`] counts it: the same cubes, the same sample for the
/// same seed, and for backtracking the time of its search.
pub fn estimate_count_by(
    problem: &Problem,
    method: Method,
    request: &Request,
    options: ParallelOptions,
    sample: usize,
    seed: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Estimate, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let config = &request.config;
    let choose = |all: usize| sample_of(0..all, sample, seed);
    // A depth given may have more cubes than memory holds: they are
    // counted, and only the sample's are made.
    let (depth, all, sampled) = if let Some(depth) = options.depth {
        let all = cube_count(problem, config, depth, usize::MAX)?;
        (depth, all, cubes_at(problem, config, depth, &choose(all))?)
    } else {
        let (depth, all) = counting_cubes(
            problem,
            config,
            resolve_jobs(options.jobs),
            request.memory_budget_mib,
        )?;
        let sampled = choose(all.len()).iter().map(|&i| all[i].clone()).collect();
        (depth, all.len(), sampled)
    };
    let counts = count_sample(
        problem,
        counter,
        &request,
        &sampled,
        options.jobs,
        on_progress,
    )?;
    Ok(scale_up(depth, all, &counts))
}

/// [`estimate_count_by`] for the cubes numbered `range` (as
/// [`count_cube_range`] numbers them) of `depth` moves alone: how many
/// tours a cluster task of that range will count, and how long it will
/// take. Over every cube, with the same seed, it draws the same sample.
#[allow(clippy::too_many_arguments)]
pub fn estimate_cube_range(
    problem: &Problem,
    method: Method,
    request: &Request,
    depth: usize,
    range: CubeRange,
    jobs: usize,
    sample: usize,
    seed: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Estimate, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let all = cube_count(problem, &request.config, depth, usize::MAX)?;
    let range = range.within(all)?;
    let chosen = sample_of(range.indices(), sample, seed);
    let sampled = cubes_at(problem, &request.config, depth, &chosen)?;
    let counts = count_sample(problem, counter, &request, &sampled, jobs, on_progress)?;
    Ok(scale_up(depth, range.indices().len(), &counts))
}

/// A simple random sample of `size` of `indices` (all of them if there
/// are no more), drawn with `seed`, in order.
fn sample_of(indices: std::ops::Range<usize>, size: usize, seed: u64) -> Vec<usize> {
    let size = size.min(indices.len());
    let mut chosen = fastrand::Rng::with_seed(seed).choose_multiple(indices, size);
    chosen.sort_unstable();
    chosen
}

/// The counts of the `sampled` cubes, each in full (none where the gate
/// proves there is no tour).
fn count_sample(
    problem: &Problem,
    counter: CubeCounter,
    request: &Request,
    sampled: &[Cube],
    jobs: usize,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Vec<CubeCount>, Error> {
    if request.gate && refute(problem).is_some() {
        return Ok(vec![CubeCount::default(); sampled.len()]);
    }
    count_cubes(
        problem,
        counter,
        request,
        (sampled, None),
        jobs,
        u64::MAX,
        on_progress,
    )
}

/// The estimate a sample's per-cube counts give for `cubes` cubes.
fn scale_up(depth: usize, cubes: usize, counts: &[CubeCount]) -> Estimate {
    let k = counts.len();
    let scale = if k == 0 { 0.0 } else { cubes as f64 / k as f64 };
    let sample_tours: u64 = counts.iter().map(|c| c.tours).sum();
    let sample_seconds: f64 = counts.iter().map(|c| c.seconds).sum();
    let mean = sample_tours as f64 / k.max(1) as f64;
    let moment = |power: i32| {
        counts
            .iter()
            .map(|c| (c.tours as f64 - mean).powi(power))
            .sum::<f64>()
            / k.max(1) as f64
    };
    let margin = if k == cubes {
        Some(0.0)
    } else if k < 2 {
        None
    } else {
        let variance = moment(2) * k as f64 / (k - 1) as f64;
        let unsampled = 1.0 - k as f64 / cubes as f64;
        Some(1.96 * cubes as f64 * (variance / k as f64 * unsampled).sqrt())
    };
    // Cochran's rule for the normal approximation of a sample mean: at
    // least 25·g² draws, g the skewness (here the sample's own, which a
    // sample that missed the few cubes holding most tours underestimates:
    // the rule can only be too lenient).
    let cubes_for_margin = if k == cubes || k < 2 {
        None
    } else if moment(2) == 0.0 {
        Some(None)
    } else {
        let skewness = moment(3) / moment(2).powf(1.5);
        let needed = (25.0 * skewness * skewness).ceil();
        (needed > k as f64).then_some(Some(needed as u64))
    };
    Estimate {
        depth,
        cubes,
        sampled: k,
        sample_tours,
        sample_seconds,
        tours: sample_tours as f64 * scale,
        margin,
        cubes_for_margin,
        seconds: sample_seconds * scale,
    }
}

/// Counts the tours of a knightsat CNF from what its comments record: the
/// problem and encoding, and for a cube CNF (`cubes --split`) the cube, so
/// that the counts of a split's files add up to the count of the whole.
/// `request` gives the solver; the encoding is the file's.
pub fn count_recorded(info: &CnfInfo, request: &Request) -> Result<u64, Error> {
    let request = Request {
        config: info.encoding.clone(),
        ..request.clone()
    };
    match &info.cube {
        Some(squares) => {
            let request = every_tour(&request);
            let cube = cube_of(&info.problem, &request.config, squares)?;
            if refute(&info.problem).is_some() {
                return Ok(0);
            }
            count_in_cube(&info.problem, &request, &cube, &Stop::new(), |_| true)
        }
        None => enumerate(&info.problem, &request, CountOptions::default(), |_| Ok(())),
    }
}
