//! Counts made through the one entry point, [`CountJob`], in the shapes the
//! tests ask for: every tour listed by one search, a count by cubes, an
//! estimate, a range of numbered cubes.

use std::sync::Mutex;

use knightsat::count::tally::{CubeRange, CubeTally};
use knightsat::count::{
    CountJob, CountOptions, CubeLine, CubeProgress, Estimate, Progress, Sample,
};
use knightsat::model::problem::Problem;
use knightsat::solve::{Method, Request};
use knightsat::Error;
use knightsat::Tour;

/// What a listing counts: up to a limit, tours or orbits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Listing {
    pub limit: Option<u64>,
    pub up_to_symmetry: bool,
}

/// Every tour of `problem` (or one per orbit) listed by `method` in one
/// search, each handed to `on_tour`; how many.
pub fn list_by(
    problem: &Problem,
    method: Method,
    request: &Request,
    listing: Listing,
    mut on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    let report = CountJob {
        method,
        request: request.clone(),
        on_tour: Some(&mut on_tour),
        options: CountOptions {
            limit: listing.limit,
            up_to_symmetry: listing.up_to_symmetry,
            ..CountOptions::default()
        },
        ..CountJob::new(problem)
    }
    .run()?;
    Ok(report.tours().expect("a count of tours").to_u64().unwrap())
}

/// [`list_by`] SAT, with `request`'s encoding and built-in solver.
pub fn list_by_sat(
    problem: &Problem,
    request: &Request,
    listing: Listing,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    list_by(problem, Method::Sat, request, listing, on_tour)
}

/// How a count is split into cubes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Split {
    pub jobs: usize,
    pub depth: Option<usize>,
    pub limit: Option<u64>,
}

/// The tours of `problem` counted by `method` on `split.jobs` threads
/// (cube by cube unless that is one thread with no depth, or a limit
/// with backtracking), `on_progress` hearing how far it has got.
pub fn count_split(
    problem: &Problem,
    method: Method,
    request: &Request,
    split: Split,
    on_progress: impl Fn(CubeProgress) + Sync,
) -> Result<u64, Error> {
    let on_progress = |progress: Progress<'_>| {
        if let Progress::Cubes(done) = progress {
            on_progress(done);
        }
    };
    let report = CountJob {
        method,
        request: request.clone(),
        on_progress: Some(&on_progress),
        options: CountOptions {
            jobs: Some(split.jobs),
            depth: split.depth,
            limit: split.limit,
            ..CountOptions::default()
        },
        ..CountJob::new(problem)
    }
    .run()?;
    Ok(report.tours().expect("a count of tours").to_u64().unwrap())
}

/// An estimate from a sample of `sample` cubes drawn with `seed` (of the
/// cubes numbered `range` alone, when given).
pub fn estimate(
    problem: &Problem,
    method: Method,
    request: &Request,
    split: Split,
    (sample, seed): (usize, u64),
    range: Option<CubeRange>,
) -> Result<Estimate, Error> {
    let report = CountJob {
        method,
        request: request.clone(),
        options: CountOptions {
            jobs: Some(split.jobs),
            depth: split.depth,
            cubes: range,
            sample: Some(Sample {
                cubes: sample,
                seed,
            }),
            ..CountOptions::default()
        },
        ..CountJob::new(problem)
    }
    .run()?;
    Ok(*report.estimate().expect("an estimate"))
}

/// The cubes numbered `range` of `depth` moves counted by `method` on
/// `jobs` threads: the header line and each cube's tally, as heard.
pub fn count_range(
    problem: &Problem,
    method: Method,
    request: &Request,
    (depth, range): (usize, CubeRange),
    jobs: usize,
) -> Result<(String, Vec<CubeTally>), Error> {
    let tallies = Mutex::new(Vec::new());
    let on_cube = |line: CubeLine<'_>| {
        if let CubeLine::Tally(tally) = line {
            tallies.lock().unwrap().push(tally.clone());
        }
    };
    let report = CountJob {
        method,
        request: request.clone(),
        on_cube: Some(&on_cube),
        options: CountOptions {
            jobs: Some(jobs),
            depth: Some(depth),
            cubes: Some(range),
            ..CountOptions::default()
        },
        ..CountJob::new(problem)
    }
    .run()?;
    let knightsat::count::CountReport::Cubes(counted) = report else {
        panic!("a count of cubes")
    };
    Ok((counted.header, tallies.into_inner().unwrap()))
}

/// The tours of the cube numbered `number` (from 1) of `depth` moves, as
/// a count of numbered cubes counts it by SAT with `request`.
pub fn count_cube(
    problem: &Problem,
    request: &Request,
    depth: usize,
    number: usize,
) -> Result<u64, Error> {
    let range = CubeRange {
        first: number,
        last: number,
    };
    let (_, tallies) = count_range(problem, Method::Sat, request, (depth, range), 1)?;
    match tallies[..] {
        [CubeTally {
            tours: knightsat::count::tally::CubeTours::Counted(tours),
            ..
        }] => Ok(tours),
        _ => panic!("one cube counted: {tallies:?}"),
    }
}
