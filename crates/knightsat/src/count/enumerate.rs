//! Listing every tour of a problem (or one per orbit) in one search: by
//! incremental solving with blocking clauses (SAT), or by backtracking.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Blocking clauses range over the x
//! variables only, so auxiliary variables never multiply the count. Both
//! methods report through the same code, so they count the same way. The
//! feasibility gate is the caller's: none is checked here.

use std::ops::ControlFlow;

use crate::error::{Error, Unsupported};
use crate::model::problem::{OrbitTransform, Problem};
use crate::runtime::stop::Stop;
use crate::sat::{Setup, Workload};
use crate::search;
use crate::solve::{auto, Method, Request};
use crate::tour::Tour;

/// What to list: up to a limit, and every tour or one per orbit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Listing {
    /// Stop after this many tours (or orbits).
    pub limit: Option<u64>,
    /// Count orbits: tours that are images of each other under a symmetry of
    /// the board that keeps the given start and end in place count once; so
    /// do a closed tour's rotations and reverse, and an open tour's reverse
    /// when neither end is fixed.
    pub up_to_symmetry: bool,
}

/// Finds every tour of `problem` (or one per orbit) by `method` (SAT with
/// `request`'s encoding and built-in solver, backtracking, or for
/// [`Method::Auto`] the step of its route that enumerates), calling
/// `on_tour` for each as it is found; returns how many were found. Check
/// `request` first with [`Method::check_supports`]: Warnsdorff's rule finds
/// one tour and does not count ([`Unsupported::EveryTourByWarnsdorff`]),
/// and the frontier counter counts without holding a tour
/// ([`Unsupported::TourByFrontier`]).
/// No gate is checked: the caller's job ([`super::CountJob`]) has.
///
/// When `request.timeout` runs out first, every method ends the same way:
/// [`RunError::TimedOutPartway`] with the number of tours `on_tour` was given,
/// which are then only part of them.
pub(crate) fn enumerate_by(
    problem: &Problem,
    method: Method,
    request: &Request,
    count: Listing,
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
/// [`RunError::TimedOutPartway`].
///
/// A closed tour with no start or end given is searched from a1 (every
/// closed tour can be rotated to start there) and each one found is reported
/// in all its N rotations, so the count stays that of sequences.
pub(crate) fn enumerate(
    problem: &Problem,
    request: &Request,
    count: Listing,
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
    if report.is_done() {
        return Ok(0);
    }
    let stop = Stop::new();
    let listed = stop.within(request.timeout, &request.interrupt, || {
        let encoding = config.prepare(problem)?;
        let setup = Setup {
            workload: Workload::Enumeration,
            stoppable: request.may_stop(),
            watch_subtours: request.watch_subtours,
            ..Setup::new(&stop)
        };
        let mut session = request.session(encoding, setup)?;
        while let Some(tour) = session.next_tour()? {
            if report.tour(&tour)?.is_break() {
                break;
            }
            if count.up_to_symmetry {
                for variant in orbit(&tour, problem, &report.transforms) {
                    session.block(&variant);
                }
            } else {
                session.block(&tour.squares);
            }
        }
        Ok(())
    });
    listed
        .map(|()| report.found)
        .map_err(|error: Error| error.after_tours(report.found))
}

/// [`enumerate`] by backtracking instead of SAT: every tour of the problem
/// as rooted is listed once by the search, and reported the same way. With
/// `up_to_symmetry`, a tour counts when it is the least (as a sequence of
/// square indices) of the tours its symmetries make of it, so each orbit
/// counts once. Honours `request.timeout`.
fn enumerate_by_backtracking(
    problem: &Problem,
    count: Listing,
    request: &Request,
    on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    let mut report = Report::new(problem, count, on_tour);
    if report.is_done() {
        return Ok(0);
    }
    // What reporting a tour failed with (the caller's own error), which the
    // search, whose errors are its own, is stopped for.
    let mut failed = None;
    let mut least = LeastPrefix::new(problem, &report.transforms);
    let keep = |step: usize, square: usize| least.keep(step, square);
    let searched = search::each_tour_keeping(problem, &request.deadline(), keep, |tour| {
        if count.up_to_symmetry {
            let variants = orbit(tour, problem, &report.transforms);
            if variants.iter().min() != Some(&tour.squares) {
                return Ok(ControlFlow::Continue(()));
            }
        }
        Ok(report.tour(tour).unwrap_or_else(|error| {
            failed = Some(error);
            ControlFlow::Break(())
        }))
    })
    .map_err(Error::from);
    if let Some(error) = failed {
        return Err(error);
    }
    searched
        .map(|()| report.found)
        .map_err(|error: Error| error.after_tours(report.found))
}

/// Cuts short every prefix whose tours are none of them the least of their
/// orbit, as counting orbits by backtracking takes them: where a board
/// symmetry that keeps the tour's first square maps the prefix to a
/// sequence that is smaller at the first step where the two differ, every
/// tour the prefix begins has a smaller image. Without it, the search
/// would list a whole subtree of tours that are never the least (every
/// tour of 8x8 from a1 to b3 before the first from a1 to c2) before the
/// first orbit it counts. Only the symmetries that map each step to the
/// same step are asked (a closed tour's must keep its first square, where
/// its images are turned to start); reading backwards and turning are
/// left to the check of each whole tour.
struct LeastPrefix {
    /// The square permutations, as counted.
    maps: Vec<Vec<usize>>,
    /// For each step, the maps (a bit each) under which the prefix before
    /// it is its own image.
    tied: Vec<u32>,
}

impl LeastPrefix {
    fn new(problem: &Problem, transforms: &[OrbitTransform]) -> LeastPrefix {
        let squares = problem.board().squares();
        let root = problem.effective_start().filter(|_| problem.is_closed());
        let mut maps: Vec<Vec<usize>> = Vec::new();
        for transform in transforms {
            let stepwise = !transform.reversed && transform.turn == 0;
            let keeps_root = root.is_none_or(|root| transform.map[root] == root);
            let identity = transform.map.iter().enumerate().all(|(s, &t)| s == t);
            if stepwise && keeps_root && !identity && !maps.contains(&transform.map) {
                maps.push(transform.map.clone());
            }
        }
        maps.truncate(32);
        let all = if maps.len() == 32 {
            u32::MAX
        } else {
            (1u32 << maps.len()) - 1
        };
        let mut tied = vec![0; squares + 2];
        tied[0] = all;
        LeastPrefix { maps, tied }
    }

    /// Whether a tour may go on with `square` on `step`.
    fn keep(&mut self, step: usize, square: usize) -> bool {
        let Some(&tied) = self.tied.get(step) else {
            return true;
        };
        let mut still = tied;
        let mut bits = tied;
        while bits != 0 {
            let map = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // A square past the board (a closed walk's last, virtual one)
            // is the tour's first again: no symmetry tells it apart.
            let Some(&image) = self.maps[map].get(square) else {
                continue;
            };
            if image < square {
                return false;
            }
            if image > square {
                still &= !(1 << map);
            }
        }
        if let Some(next) = self.tied.get_mut(step + 1) {
            *next = still;
        }
        true
    }
}

/// Reports tours as counting wants them, and counts them up to the limit.
struct Report<'a, F> {
    problem: &'a Problem,
    count: Listing,
    limit: u64,
    found: u64,
    /// The transforms whose images count as one tour (orbits only).
    transforms: Vec<OrbitTransform>,
    on_tour: F,
}

impl<'a, F: FnMut(&Tour) -> Result<(), Error>> Report<'a, F> {
    fn new(problem: &'a Problem, count: Listing, on_tour: F) -> Self {
        Report {
            problem,
            count,
            limit: count.limit.unwrap_or(u64::MAX),
            found: 0,
            transforms: if count.up_to_symmetry {
                problem.orbit_transforms()
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

/// The tours `transforms` ([`Problem::orbit_transforms`]) make of
/// `tour`, each rooted as the encoding requires, without repeats.
fn orbit(tour: &Tour, problem: &Problem, transforms: &[OrbitTransform]) -> Vec<Vec<usize>> {
    let root = problem.effective_start().filter(|_| problem.is_closed());
    let mut variants: Vec<Vec<usize>> = Vec::new();
    for transform in transforms {
        let mut image = transform.apply(&tour.squares, problem.is_closed());
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
    variants
}

/// How many tours one solution found stands for: a closed tour searched
/// from its default start stands for its N rotations.
pub(super) fn weight(problem: &Problem) -> u64 {
    if problem.start_fixed_by_default() {
        problem.board().squares() as u64
    } else {
        1
    }
}

/// `request` with symmetry breaking off, so that every tour counts.
pub(super) fn every_tour(request: &Request) -> Request {
    Request {
        config: request.config.keeping_every_tour(),
        ..request.clone()
    }
}
