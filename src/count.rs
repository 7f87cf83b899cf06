//! Counting and enumerating tours: by incremental solving with blocking
//! clauses (SAT), or by backtracking search.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Blocking clauses range over the x
//! variables only, so auxiliary variables never multiply the count. Both
//! methods report through the same code, so they count the same way.

use std::ops::ControlFlow;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::cnf_file::CnfInfo;
use crate::cubes::{cube_count, cube_of, cubes_at, effective_depth, resolve_jobs, Cube};
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::problem::Problem;
use crate::search;
use crate::solve::{check_budget_for, cubes_within_budget, Method, Request, Session};
use crate::theory::no_tour_because;
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
/// `request.config`, or backtracking), calling `on_tour` for each as it is
/// found; returns how many were found. Check `request` first with
/// [`Method::check_supports`]: Warnsdorff's rule finds one tour and does
/// not count ([`Unsupported::EveryTourByWarnsdorff`]).
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
        Method::Sat => match request.timeout {
            None => enumerate(problem, &request.config, count, on_tour),
            Some(timeout) => enumerate_within(problem, &request.config, count, timeout, on_tour),
        },
        Method::Backtrack => enumerate_by_backtracking(problem, count, request, on_tour),
        Method::Warnsdorff => Err(Error::Unsupported(Unsupported::EveryTourByWarnsdorff)),
    }
}

/// [`enumerate`] with a time limit. varisat cannot be interrupted, so the
/// enumeration runs on a thread of its own and hands its tours over one by
/// one; at the limit the caller gets [`Error::TimedOutPartway`] at once and
/// the thread is abandoned (it stops at its next tour, when nobody takes
/// it, or ends with the process).
fn enumerate_within(
    problem: &Problem,
    config: &EncodingConfig,
    count: CountOptions,
    timeout: std::time::Duration,
    mut on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    let deadline = Instant::now() + timeout;
    let (sender, tours) = std::sync::mpsc::sync_channel::<Tour>(64);
    let (problem, config) = (problem.clone(), config.clone());
    let worker = std::thread::Builder::new()
        .name("varisat".into())
        .spawn(move || {
            enumerate(&problem, &config, count, |tour| {
                sender
                    .send(tour.clone())
                    .map_err(|_| Error::Solver("nobody takes the tours any more".into()))
            })
        })
        .map_err(|e| Error::Solver(format!("cannot start the varisat thread: {e}")))?;
    let mut found = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tours.recv_timeout(left) {
            Ok(tour) => {
                on_tour(&tour)?;
                found += 1;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                return Err(Error::TimedOutPartway {
                    seconds: timeout.as_secs_f64(),
                    found,
                });
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    worker
        .join()
        .map_err(|_| Error::Solver("the varisat thread stopped without an answer".into()))?
}

/// Finds every tour of `problem` (or one per orbit) with the SAT
/// `config`, calling `on_tour` for each as it is found; returns how many
/// were found.
///
/// A closed tour with no start or end given is searched from a1 (every
/// closed tour can be rotated to start there) and each one found is reported
/// in all its N rotations, so the count stays that of sequences.
pub fn enumerate(
    problem: &Problem,
    config: &EncodingConfig,
    count: CountOptions,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    // Symmetry breaking would drop tours from the count; orbits keep one
    // tour each, which it may rightly choose.
    let config = if count.up_to_symmetry {
        config.clone()
    } else {
        config.keeping_every_tour()
    };
    let mut report = Report::new(problem, count, on_tour);
    // A theorem that rules out every tour answers at once, on any size.
    if report.is_done() || no_tour_because(problem).is_some() {
        return Ok(0);
    }
    let encoding = config.prepare(problem)?;
    let mut session = Session::new(encoding)?;
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
    Ok(report.found)
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
    if report.is_done() {
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
/// as for [`enumerate`]; symmetry breaking is turned off). `cube` must be
/// one of [`cubes`]`(problem, &config.keeping_every_tour(), depth)`.
pub fn count_cube(problem: &Problem, config: &EncodingConfig, cube: &Cube) -> Result<u64, Error> {
    count_in_cube(problem, &config.keeping_every_tour(), cube, |_| true)
}

/// Counts the tours in `cube` with `config` as given; `on_tours` hears the
/// weight of each tour found and says whether to go on.
fn count_in_cube(
    problem: &Problem,
    config: &EncodingConfig,
    cube: &Cube,
    mut on_tours: impl FnMut(u64) -> bool,
) -> Result<u64, Error> {
    let weight = weight(problem);
    let mut session = Session::enumerating(config.prepare(&cube.pinned(problem)?)?)?;
    let mut found = 0;
    while let Some(tour) = session.next_tour()? {
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
/// Measured on 6x6 with `scripts/bench-cubes.sh` (README, Cubes: Figures):
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
/// depth's are made, within the memory budget ([`cubes_within_budget`]).
pub fn counting_cubes(
    problem: &Problem,
    config: &EncodingConfig,
    jobs: usize,
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
    Ok((depth, cubes_within_budget(problem, config, depth)?))
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
    config: &EncodingConfig,
    options: ParallelOptions,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<u64, Error> {
    let config = config.keeping_every_tour();
    let limit = options.limit.unwrap_or(u64::MAX);
    if limit == 0 || no_tour_because(problem).is_some() {
        return Ok(0);
    }
    let (_, cubes) = cubes_for(problem, &config, options)?;
    let counts = count_cubes(problem, &config, &cubes, options.jobs, limit, on_progress)?;
    Ok(counts.iter().map(|c| c.tours).sum::<u64>().min(limit))
}

/// The cubes `options` asks for (its depth, or the automatic one), with
/// the depth used.
fn cubes_for(
    problem: &Problem,
    config: &EncodingConfig,
    options: ParallelOptions,
) -> Result<(usize, Vec<Cube>), Error> {
    match options.depth {
        Some(depth) => Ok((depth, cubes_within_budget(problem, config, depth)?)),
        None => counting_cubes(problem, config, resolve_jobs(options.jobs)),
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

/// Counts each of `cubes` in a session of its own, on `jobs` threads
/// (0: one per core), stopping everything once `limit` tours are counted.
/// Returns the count of each cube, in order (zero for cubes not reached).
fn count_cubes(
    problem: &Problem,
    config: &EncodingConfig,
    cubes: &[Cube],
    jobs: usize,
    limit: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Vec<CubeCount>, Error> {
    let threads = resolve_jobs(jobs).min(cubes.len());
    check_budget_for(&*config.prepare(problem)?, threads)?;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let counts: Mutex<Vec<CubeCount>> = Mutex::new(vec![CubeCount::default(); cubes.len()]);
    let progress = |tours| Progress {
        cubes_done: done.load(Ordering::Relaxed),
        cubes: cubes.len(),
        tours,
    };
    let worker = || {
        while !stop.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(cube) = cubes.get(index) else {
                return;
            };
            let started = Instant::now();
            let counted = count_in_cube(problem, config, cube, |weight| {
                let tours = total.fetch_add(weight, Ordering::Relaxed) + weight;
                on_progress(progress(tours));
                if tours >= limit {
                    stop.store(true, Ordering::Relaxed);
                }
                !stop.load(Ordering::Relaxed)
            });
            match counted {
                Ok(tours) => {
                    lock(&counts)[index] = CubeCount {
                        tours,
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    done.fetch_add(1, Ordering::Relaxed);
                    on_progress(progress(total.load(Ordering::Relaxed)));
                }
                Err(error) => {
                    stop.store(true, Ordering::Relaxed);
                    lock(&failure).get_or_insert(error);
                    return;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(worker);
        }
    });
    if let Some(error) = lock(&failure).take() {
        return Err(error);
    }
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
    /// cube was counted, `None` when one cube of several was.
    pub margin: Option<f64>,
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
    config: &EncodingConfig,
    options: ParallelOptions,
    sample: usize,
    seed: u64,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<Estimate, Error> {
    let config = config.keeping_every_tour();
    let choose = |all: usize| {
        let mut chosen = fastrand::Rng::with_seed(seed).choose_multiple(0..all, sample.min(all));
        chosen.sort_unstable();
        chosen
    };
    // A depth given may have more cubes than memory holds: they are
    // counted, and only the sample's are made.
    let (depth, all, sampled) = if let Some(depth) = options.depth {
        let all = cube_count(problem, &config, depth, usize::MAX)?;
        (depth, all, cubes_at(problem, &config, depth, &choose(all))?)
    } else {
        let (depth, all) = counting_cubes(problem, &config, resolve_jobs(options.jobs))?;
        let sampled = choose(all.len()).iter().map(|&i| all[i].clone()).collect();
        (depth, all.len(), sampled)
    };
    let counts = if no_tour_because(problem).is_some() {
        vec![CubeCount::default(); sampled.len()]
    } else {
        count_cubes(
            problem,
            &config,
            &sampled,
            options.jobs,
            u64::MAX,
            on_progress,
        )?
    };
    Ok(scale_up(depth, all, &counts))
}

/// The estimate a sample's per-cube counts give for `cubes` cubes.
fn scale_up(depth: usize, cubes: usize, counts: &[CubeCount]) -> Estimate {
    let k = counts.len();
    let scale = if k == 0 { 0.0 } else { cubes as f64 / k as f64 };
    let sample_tours: u64 = counts.iter().map(|c| c.tours).sum();
    let sample_seconds: f64 = counts.iter().map(|c| c.seconds).sum();
    let margin = if k == cubes {
        Some(0.0)
    } else if k < 2 {
        None
    } else {
        let mean = sample_tours as f64 / k as f64;
        let variance = counts
            .iter()
            .map(|c| (c.tours as f64 - mean).powi(2))
            .sum::<f64>()
            / (k - 1) as f64;
        let unsampled = 1.0 - k as f64 / cubes as f64;
        Some(1.96 * cubes as f64 * (variance / k as f64 * unsampled).sqrt())
    };
    Estimate {
        depth,
        cubes,
        sampled: k,
        sample_tours,
        sample_seconds,
        tours: sample_tours as f64 * scale,
        margin,
        seconds: sample_seconds * scale,
    }
}

/// Counts the tours of a knightsat CNF from what its comments record: the
/// problem and encoding, and for a cube CNF (`cubes --split`) the cube, so
/// that the counts of a split's files add up to the count of the whole.
pub fn count_recorded(info: &CnfInfo) -> Result<u64, Error> {
    match &info.cube {
        Some(squares) => {
            let config = info.encoding.keeping_every_tour();
            let cube = cube_of(&info.problem, &config, squares)?;
            if no_tour_because(&info.problem).is_some() {
                return Ok(0);
            }
            count_in_cube(&info.problem, &config, &cube, |_| true)
        }
        None => enumerate(
            &info.problem,
            &info.encoding,
            CountOptions::default(),
            |_| Ok(()),
        ),
    }
}
