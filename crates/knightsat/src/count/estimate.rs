//! Estimating a count from a simple random sample of its cubes: the
//! sample counted in full, scaled up to every cube, with a margin and the
//! time the whole count would take.

use super::split::{count_cubes, counting_cubes, CubeCount, CubeCounter, CubeProgress};
use super::tally::CubeRange;
use crate::cubes::{cube_count_until, cubes_at, Cube};
use crate::error::Error;
use crate::model::problem::Problem;
use crate::runtime::deadline::Deadline;
use crate::runtime::threads::resolve_jobs;
use crate::solve::{Method, Request};

/// What counting a random sample of the cubes says about the whole count
/// and how long it would take (a [`super::CountJob`] with a
/// [sample](super::CountJob::sample)).
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
/// are no more), drawn with `seed`, on `jobs` threads, and scales it up to
/// every cube of `depth` moves (the automatic depth for `jobs` threads
/// when `None`): an unbiased estimate of the count with its margin, and of
/// the time the whole count would take. Each cube is counted by `method`
/// as a count by cubes counts it ([`super::split::count_by_cubes`]): the
/// same cubes, the same sample for the same seed, and for backtracking the
/// time of its search. The gate is the caller's.
pub(super) fn estimate_count(
    problem: &Problem,
    (method, request): (Method, &Request),
    depth: Option<usize>,
    jobs: usize,
    (sample, seed): (usize, u64),
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<Estimate, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let deadline = request.deadline();
    let halt = || deadline.check();
    let config = &request.config;
    let choose = |all: usize| sample_of(0..all, sample, seed);
    // A depth given may have more cubes than memory holds: they are
    // counted, and only the sample's are made.
    let (depth, all, sampled) = if let Some(depth) = depth {
        let all = cube_count_until(problem, config, depth, usize::MAX, &halt)?;
        (
            depth,
            all,
            cubes_at(problem, config, depth, &choose(all), &halt)?,
        )
    } else {
        let (depth, all) = counting_cubes(
            problem,
            config,
            (resolve_jobs(jobs), request.memory_budget_mib),
            &halt,
        )?;
        let sampled = choose(all.len()).iter().map(|&i| all[i].clone()).collect();
        (depth, all.len(), sampled)
    };
    let counts = count_sample(
        problem,
        counter,
        (&request, &deadline),
        &sampled,
        jobs,
        on_progress,
    )?;
    Ok(scale_up(depth, all, &counts))
}

/// [`estimate_count`] for the cubes numbered `range` (as
/// [`super::range::count_cube_range`] numbers them) of `depth` moves
/// alone: how many tours a cluster task of that range will count, and how
/// long it will take. Over every cube, with the same seed, it draws the
/// same sample.
pub(super) fn estimate_cube_range(
    problem: &Problem,
    (method, request): (Method, &Request),
    depth: usize,
    range: CubeRange,
    jobs: usize,
    (sample, seed): (usize, u64),
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<Estimate, Error> {
    let (counter, request) = CubeCounter::for_route(problem, method, request)?;
    let deadline = request.deadline();
    let halt = || deadline.check();
    let all = cube_count_until(problem, &request.config, depth, usize::MAX, &halt)?;
    let range = range.cut_to(all)?;
    let chosen = sample_of(range.indices(), sample, seed);
    let sampled = cubes_at(problem, &request.config, depth, &chosen, &halt)?;
    let counts = count_sample(
        problem,
        counter,
        (&request, &deadline),
        &sampled,
        jobs,
        on_progress,
    )?;
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

/// The counts of the `sampled` cubes, each in full.
fn count_sample(
    problem: &Problem,
    counter: CubeCounter,
    (request, deadline): (&Request, &Deadline),
    sampled: &[Cube],
    jobs: usize,
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<Vec<CubeCount>, Error> {
    let request = Request {
        timeout: deadline.limit_left(),
        ..request.clone()
    };
    count_cubes(
        problem,
        counter,
        &request,
        (sampled, None),
        jobs,
        u64::MAX,
        on_progress,
    )
    .map_err(|error| deadline.with_whole_limit(error))
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
