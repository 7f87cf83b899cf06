//! The one job of counting: a [`CountJob`] says what to count and how,
//! and its [`run`](CountJob::run) checks the feasibility gate once, picks
//! the route and counts, saying in a [`CountReport`] what it counted.

use std::fmt;
use std::sync::Once;
use std::time::Duration;

use super::checkpoint::{self, Checkpoint, CheckpointMoment, CheckpointReport};
use super::enumerate::{enumerate_by, Listing};
use super::estimate::{estimate_count, estimate_cube_range, Estimate};
use super::frontier::{self, PartSplit, SquareOrder};
use super::number::TourNumber;
use super::parts::{checkpoint_record, frontier_part, PartTask};
use super::range::{count_cube_range, cube_task};
use super::route::{
    every_tour_by, orbits_up_to_limit_step, splits_by_ends, tally_step, way, Way, WholeCount,
};
use super::split::{count_by_cubes, CubeProgress, ParallelOptions};
use super::tally::{CubeRange, CubeTally, PartOf, PartTally};
use crate::error::{EncodingError, Error, Unsupported};
use crate::gate::{refute_until, Refutation};
use crate::model::problem::Problem;
use crate::runtime::deadline::Deadline;
use crate::runtime::memory::bytes_of_mib;
use crate::runtime::threads::resolve_jobs;
use crate::solve::auto::Step;
use crate::solve::{Method, Request};
use crate::tour::Tour;

/// A count to make: the problem and everything asked of the count. Build
/// one with [`CountJob::new`] and struct update syntax, then
/// [`run`](CountJob::run) it.
///
/// What is counted follows from the options:
/// - neither `cubes` nor `sample`: the tours of the whole problem (or its
///   orbits), up to `limit`, by one search or cube by cube on `jobs`
///   threads ([`CountReport::Tours`]);
/// - `sample`: an estimate from a random sample of the cubes (of the
///   cubes numbered `cubes` alone, when given) ([`CountReport::Estimate`]);
/// - `cubes` alone: the tours of each cube numbered so, one line each as
///   it ends ([`CountReport::Cubes`]).
///
/// Where the gate refutes the problem, a sample, and a range of a problem
/// with no cube at all, give what a count of the whole gives: no tour
/// ([`CountReport::Tours`], with the refutation).
pub struct CountJob<'a> {
    /// The problem whose tours are counted.
    pub problem: &'a Problem,
    /// How: [`Method::Auto`] picks the route (the frontier counter for a
    /// plain count where it is fastest, else the one that lists every
    /// tour: [`crate::solve::auto`]). Warnsdorff's rule does not count.
    pub method: Method,
    /// Whether the caller named an option only SAT takes (an encoding or
    /// one of its switches, a solver), even at its default value:
    /// [`Method::Auto`] then counts by SAT ([`Method::chosen`]).
    pub sat_named: bool,
    /// The encoding, solver, memory budget and time limit, and whether to
    /// check the feasibility gate first (`request.gate`). The job always
    /// asks for every tour (`every_tour`).
    pub request: Request,
    /// What the count is asked besides its problem, method and request:
    /// threads, cubes, a sample, a limit, orbits, the frontier's order,
    /// spill directory and part.
    pub options: CountOptions,
    /// Hears how the count goes, from any thread: the route, then tours
    /// found, cubes done or squares processed.
    pub on_progress: Option<&'a (dyn Fn(Progress<'_>) + Sync)>,
    /// Hears each line of a count of numbered cubes (`cubes`) as its cube
    /// ends: the task's header line first, once, then a tally per cube.
    pub on_cube: Option<&'a (dyn Fn(CubeLine<'_>) + Sync)>,
    /// Hears every tour (or orbit) as it is found, which lists them: the
    /// count is then one search, whatever `jobs` and `depth` say. An error
    /// ends the count with it.
    pub on_tour: Option<&'a mut OnTour<'a>>,
}

/// What a count is asked besides its problem, method and request, as
/// values a caller builds once (the command's options are one of these):
/// threads, cubes, a sample, a limit, orbits, and the frontier counter's
/// order, spill directory and part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Threads; `Some(0)` means one per core, and more than one counts
    /// cube by cube. `None` (the default) uses one thread per core where
    /// the route splits its work without changing what it does
    /// (backtracking's cubes, the frontier counter's states, a count
    /// split by `depth`, a sample or a range of cubes), and one search on
    /// one thread where it does not (a SAT count, a count of orbits or up
    /// to a limit).
    pub jobs: Option<usize>,
    /// Cube depth in moves; `None` chooses it from `jobs` and the board
    /// ([`super::CUBES_PER_JOB`]). Given, the count goes cube by cube.
    pub depth: Option<usize>,
    /// Count the cubes numbered so (from 1) of `depth` moves alone, as a
    /// cluster task does; needs `depth`.
    pub cubes: Option<CubeRange>,
    /// Estimate the count from a random sample of the cubes instead of
    /// counting them all.
    pub sample: Option<Sample>,
    /// Stop once this many tours (or orbits) are counted (a count of the
    /// whole problem only).
    pub limit: Option<u64>,
    /// Count orbits: tours that are images of each other under a symmetry
    /// of the board, read forwards or backwards, count once wherever the
    /// transform keeps every anchor (start, end, clues) in place
    /// ([`Problem::orbit_transforms`](crate::model::problem::Problem)): a
    /// closed tour's rotations and its reverse turned so that every clue is
    /// back on its move, an open tour's reverse when that keeps the
    /// anchors. One search, no cubes.
    pub up_to_symmetry: bool,
    /// The frontier counter's order of the squares (the same count either
    /// way).
    pub frontier_order: SquareOrder,
    /// Where the frontier counter keeps the states that would pass the
    /// memory budget: a directory of its own made in this one (the
    /// system's temporary directory when `None`) and removed when the
    /// count ends.
    pub spill_dir: Option<std::path::PathBuf>,
    /// Count this part alone of a frontier count split into parts, as a
    /// cluster task does ([`CountReport::Part`]): the parts of one
    /// problem, order and number of parts add up to the whole count.
    pub part: Option<PartOf>,
    /// What `part` splits: the frontier counter's states (any count), or
    /// the pairs of squares the paths end on (open counts).
    pub part_by: PartSplit,
    /// Where the frontier counter keeps a checkpoint of the count, and
    /// goes on from the one an earlier run of the same count left there
    /// ([`Checkpoint`]); removed when the count is done.
    pub checkpoint: Option<std::path::PathBuf>,
    /// The least time between two writings of the states in the
    /// checkpoint (`None`: [`checkpoint::DEFAULT_EVERY`]).
    pub checkpoint_every: Option<std::time::Duration>,
}

/// What hears each tour a count lists ([`CountJob::on_tour`]).
pub type OnTour<'a> = dyn FnMut(&Tour) -> Result<(), Error> + 'a;

/// A simple random sample of cubes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// How many cubes (all of them if there are no more).
    pub cubes: usize,
    /// The seed that draws them: one seed, one sample.
    pub seed: u64,
}

/// How a count is going.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress<'a> {
    /// The route the count takes, heard once before anything is counted:
    /// for a count of the whole problem once the gate has let the problem
    /// on, for a count of cubes (a sample or a range) before their cubes
    /// are made.
    Route {
        /// The method the route counts by.
        method: Method,
        /// What it is given.
        request: &'a Request,
        /// Whether it counts cube by cube (else by one search).
        cube_by_cube: bool,
    },
    /// One search: this many tours found so far, after each.
    Tours(u64),
    /// Cube by cube: after each tour and each cube.
    Cubes(CubeProgress),
    /// The frontier counter: after each square.
    Squares(frontier::SquareProgress),
    /// The frontier counter splits the whole count by its ends by itself
    /// into this many classes of end pairs, each counted with both ends
    /// fixed on every thread (heard once, before the first class).
    EndClasses(usize),
    /// The frontier counter's checkpoint: opened (what it found to go on
    /// from), then once more when the count ends, however it ends (what
    /// it read and wrote).
    Checkpoint {
        /// The checkpoint's directory.
        dir: &'a std::path::Path,
        /// What it read and wrote so far.
        report: &'a CheckpointReport,
        /// Opened, removed with the count done, or kept.
        moment: CheckpointMoment,
    },
}

/// One line of a count of numbered cubes, as a cluster task prints it
/// (without its newline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeLine<'a> {
    /// The header line that records the task, before the first cube's.
    Header(&'a str),
    /// One cube's tally.
    Tally(&'a CubeTally),
}

impl fmt::Display for CubeLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubeLine::Header(header) => f.write_str(header),
            CubeLine::Tally(tally) => write!(f, "{tally}"),
        }
    }
}

/// What a count counted.
#[derive(Clone, Debug, PartialEq)]
pub enum CountReport {
    /// The tours (or orbits) of the whole problem.
    Tours(TourCount),
    /// An estimate from a sample of the cubes.
    Estimate(Estimate),
    /// The tours of a range of numbered cubes.
    Cubes(CubeRangeCount),
    /// The tours of one part of a frontier count.
    Part(PartCount),
}

impl CountReport {
    /// The exact number counted: the tours (or orbits), or the tours of
    /// the cubes counted; `None` for an estimate.
    pub fn tours(&self) -> Option<TourNumber> {
        match self {
            CountReport::Tours(count) => Some(count.tours),
            CountReport::Cubes(count) => Some(TourNumber::from(count.tours)),
            CountReport::Part(count) => Some(count.tally.tours),
            CountReport::Estimate(_) => None,
        }
    }

    /// The estimate, if the count was one.
    pub fn estimate(&self) -> Option<&Estimate> {
        match self {
            CountReport::Estimate(estimate) => Some(estimate),
            _ => None,
        }
    }
}

/// The tours (or orbits) of a whole problem, and how they were counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourCount {
    /// How many.
    pub tours: TourNumber,
    /// The method of the route taken.
    pub method: Method,
    /// Why there is no tour, where the feasibility gate proved it without
    /// a search.
    pub refuted: Option<Refutation>,
    /// Whether the count stopped at the limit (there may be more).
    pub at_limit: bool,
}

/// The tours of a range of numbered cubes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeRangeCount {
    /// The header line of the task's output (no newline).
    pub header: String,
    /// The cubes counted: the range asked for, cut to the last cube.
    pub range: CubeRange,
    /// Their tours, a cube that counts as another one counting nothing.
    pub tours: u64,
    /// The gate's proof that the problem has no tour, where it has one
    /// (every cube then has none, uncounted).
    pub refuted: Option<Refutation>,
}

/// One part of a frontier count, as a cluster task prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartCount {
    /// The header line of the part's output (no newline).
    pub header: String,
    /// The part's line.
    pub tally: PartTally,
}

/// The feasibility gate gets this long to prove there is no tour on a
/// board that would be refused for its size: a refusal is quick.
const GATE_BEFORE_REFUSAL: Duration = Duration::from_millis(100);

impl<'a> CountJob<'a> {
    /// A count of every tour of `problem` by the default route, on every
    /// core where the route splits its work, with the default request,
    /// nothing heard.
    pub fn new(problem: &'a Problem) -> CountJob<'a> {
        CountJob {
            problem,
            method: Method::Auto,
            sat_named: false,
            request: Request::default(),
            options: CountOptions::default(),
            on_progress: None,
            on_cube: None,
            on_tour: None,
        }
    }

    /// Counts. What the method cannot do is refused first; then the
    /// feasibility gate is checked, once (unless `request.gate` is off),
    /// and a problem it refutes has no tour; then the count.
    ///
    /// When `request.timeout` runs out: [`RunError::TimedOutPartway`](crate::error::RunError::TimedOutPartway) with the
    /// tours counted so far (the cube lines heard are whole cubes), or
    /// [`RunError::Timeout`](crate::error::RunError::Timeout) from the frontier counter, both with the whole
    /// limit.
    pub fn run(&mut self) -> Result<CountReport, Error> {
        self.request = self.request.for_problem(self.problem);
        self.check()?;
        self.method = self.chosen_method();
        let request = Request {
            every_tour: true,
            ..self.request.clone()
        };
        let range = self
            .options
            .cubes
            .zip(self.options.depth)
            .map(|(range, depth)| (depth, range));
        if let Some(part) = self.options.part {
            return self.count_part(&request, part);
        }
        match (self.options.sample, range) {
            (Some(sample), range) => self.estimate(&request, sample, range),
            (None, Some((depth, range))) => self.count_range(&request, depth, range),
            (None, None) => {
                let on_tour = self.on_tour.take();
                self.count_whole(&request, on_tour)
            }
        }
    }

    /// Refuses what the job cannot do, before any work: what the method
    /// cannot do for every tour, a limit of 0, orbits of cubes (split by
    /// threads or a depth, sampled or numbered), a range of cubes without
    /// their depth, a part of a count by any method but the frontier
    /// counter, or with cubes, a limit, orbits or clues. ([`run`](Self::run)
    /// checks first.)
    pub fn check(&self) -> Result<(), Error> {
        if self.options.part.is_some() {
            return self.check_part();
        }
        self.chosen_method()
            .check_supports(self.problem, &self.every_tour_request())?;
        if self.options.limit == Some(0) {
            return Err(Error::ZeroLimit);
        }
        let split = self.options.jobs.is_some_and(|jobs| jobs != 1) || self.options.depth.is_some();
        if self.options.up_to_symmetry
            && (split || self.options.cubes.is_some() || self.options.sample.is_some())
        {
            return Err(Error::Unsupported(Unsupported::OrbitsWithCubes));
        }
        if self.options.cubes.is_some() && self.options.depth.is_none() {
            return Err(Error::Unsupported(Unsupported::RangeWithoutDepth));
        }
        if self.chosen_method() == Method::Frontier {
            self.check_frontier()?;
        } else if self.options.frontier_order != SquareOrder::Auto {
            return Err(Error::Unsupported(Unsupported::OrderWithoutFrontier));
        }
        Ok(())
    }

    /// Refuses what a part of a frontier count cannot be: by any method but
    /// the frontier counter (which the default route means for a part),
    /// with cubes, a limit, orbits or clues, split by the ends of cycles,
    /// or what the frontier counter cannot do.
    fn check_part(&self) -> Result<(), Error> {
        let method = self.chosen_method();
        if !matches!(method, Method::Auto | Method::Frontier) {
            return Err(Error::Unsupported(Unsupported::PartsWithoutFrontier(
                method.name(),
            )));
        }
        let cubes = self.options.depth.is_some()
            || self.options.cubes.is_some()
            || self.options.sample.is_some();
        if cubes || self.options.limit.is_some() || self.options.up_to_symmetry {
            return Err(Error::Unsupported(Unsupported::PartsWithCubes));
        }
        if self.options.part_by == PartSplit::Ends && self.problem.is_closed() {
            return Err(Error::Unsupported(Unsupported::EndsOfCycles));
        }
        if !self.problem.clues().is_empty() {
            return Err(Error::Unsupported(Unsupported::CluesInParts));
        }
        Method::Frontier.check_supports(self.problem, &self.every_tour_request())?;
        self.check_frontier()
    }

    /// The job's request for this problem, asking for every tour.
    fn every_tour_request(&self) -> Request {
        Request {
            every_tour: true,
            ..self.request.for_problem(self.problem)
        }
    }

    /// Refuses what the frontier counter cannot do: list the tours, count
    /// orbits, stop at a limit or count cubes (a depth, a range or a
    /// sample).
    fn check_frontier(&self) -> Result<(), Error> {
        if self.on_tour.is_some() {
            return Err(Error::Unsupported(Unsupported::TourByFrontier));
        }
        if self.options.up_to_symmetry {
            return Err(Error::Unsupported(Unsupported::OrbitsByFrontier));
        }
        let cubes = self.options.depth.is_some()
            || self.options.cubes.is_some()
            || self.options.sample.is_some();
        if self.options.limit.is_some() || cubes {
            return Err(Error::Unsupported(Unsupported::CubesByFrontier));
        }
        Ok(())
    }

    /// The method that counts: [`Method::chosen`] of the one asked for (a
    /// part is counted by the frontier counter whatever it says:
    /// [`check`](Self::check) refuses any other).
    pub(crate) fn chosen_method(&self) -> Method {
        self.method
            .chosen(self.sat_named, self.problem, &self.request)
    }

    /// The threads a count that splits its work runs on (0: one per core):
    /// `jobs`, or one per core where it is not given.
    pub fn threads(&self) -> usize {
        self.options.jobs.unwrap_or(0)
    }

    /// The gate's refutation of the problem, within `deadline` and until
    /// the request's interrupt, where the request asks for the gate.
    fn gate(&self, deadline: &Deadline) -> Option<Refutation> {
        if !self.request.gate {
            return None;
        }
        let deadline = deadline.clone().interrupted_by(&self.request.interrupt);
        refute_until(self.problem, &deadline)
    }

    /// Tells `on_progress` how the count goes.
    fn progress(&self) -> impl Fn(Progress<'_>) + Sync + 'a {
        let on_progress = self.on_progress;
        move |progress| {
            if let Some(on_progress) = on_progress {
                on_progress(progress);
            }
        }
    }

    /// Tells `progress` the route of a count of cubes.
    fn cube_route(&self, request: &Request, progress: &impl Fn(Progress<'_>)) {
        let step = every_tour_by(self.problem, self.method, request);
        progress(Progress::Route {
            method: step.method,
            request: &step.request,
            cube_by_cube: true,
        });
    }

    /// The route of a count of the whole problem, the way it goes
    /// ([`way`]), and why the board is too large for the time-indexed
    /// encoding, if it is.
    fn whole_route(&self, request: &Request, listing: bool) -> (Step, Way, Option<EncodingError>) {
        let orbits = self.options.up_to_symmetry;
        let tally_only =
            !orbits && self.options.limit.is_none() && self.options.depth.is_none() && !listing;
        let route = match self.method {
            Method::Auto if tally_only => tally_step(self.problem, request),
            Method::Auto if orbits && self.options.limit.is_some() => {
                orbits_up_to_limit_step(self.problem, request)
            }
            method => every_tour_by(self.problem, method, request),
        };
        let past_encoding = route.request.config.check(self.problem).err();
        let way = way(WholeCount {
            asked: self.method,
            route: route.method,
            listing,
            orbits,
            limit: self.options.limit.is_some(),
            one_thread: self.options.jobs.unwrap_or(1) == 1 && self.options.depth.is_none(),
            past_encoding: past_encoding.is_some(),
        });
        (route, way, past_encoding)
    }

    /// The tours of the whole problem (or its orbits).
    fn count_whole(
        &self,
        request: &Request,
        mut on_tour: Option<&mut OnTour<'_>>,
    ) -> Result<CountReport, Error> {
        let listing = on_tour.is_some();
        let (route, way, past_encoding) = self.whole_route(request, listing);
        if self.options.checkpoint.is_some() && way != Way::Frontier {
            return Err(Error::Unsupported(Unsupported::CheckpointWithoutFrontier(
                route.method.name(),
            )));
        }
        // A board too large for the encoding (or for numbering cubes by
        // it) is refused, unless the gate proves first that it has no
        // tour; the gate gets 0.1 s for that (it walks the move graph,
        // seconds on millions of squares), so that a refusal is quick.
        let refused = past_encoding.filter(|_| way == Way::Refused);
        let deadline = Deadline::new(request.timeout);
        let gate_deadline = match refused {
            Some(_) => Deadline::new(Some(GATE_BEFORE_REFUSAL)),
            None => deadline.clone(),
        };
        let counted = |tours: TourNumber, refuted: Option<Refutation>| {
            Ok(CountReport::Tours(TourCount {
                tours,
                method: route.method,
                at_limit: refuted.is_none()
                    && self.options.limit.map(TourNumber::from) == Some(tours),
                refuted,
            }))
        };
        if let Some(refutation) = self.gate(&gate_deadline) {
            return counted(TourNumber::ZERO, Some(refutation));
        }
        if let Some(error) = refused {
            return Err(error.into());
        }
        let progress = self.progress();
        progress(Progress::Route {
            method: route.method,
            request: &route.request,
            cube_by_cube: way == Way::Cubes,
        });
        // The gate's time counts against the limit: each route gets what
        // is left of it, and a timeout names the whole limit.
        let request = Request {
            timeout: deadline.limit_left(),
            ..route.request.clone()
        };
        let tours = if way == Way::Frontier {
            self.count_by_frontier(&request, listing, &progress, None)
        } else if way == Way::OneSearch {
            let options = Listing {
                limit: self.options.limit,
                up_to_symmetry: self.options.up_to_symmetry,
            };
            let mut found = 0;
            enumerate_by(self.problem, route.method, &request, options, |tour| {
                if let Some(on_tour) = on_tour.as_mut() {
                    on_tour(tour)?;
                }
                found += 1;
                progress(Progress::Tours(found));
                Ok(())
            })
            .map(TourNumber::from)
        } else {
            let parallel = ParallelOptions {
                jobs: self.threads(),
                depth: self.options.depth,
                limit: self.options.limit,
            };
            count_by_cubes(self.problem, route.method, &request, parallel, |done| {
                progress(Progress::Cubes(done));
            })
            .map(TourNumber::from)
        };
        counted(
            tours.map_err(|error| deadline.with_whole_limit(error))?,
            None,
        )
    }

    /// The tours of the whole problem (or of `part` of it) by the
    /// frontier counter, which neither lists them (`listing`), nor counts
    /// orbits, nor stops at a limit, nor splits into cubes.
    fn count_by_frontier(
        &self,
        request: &Request,
        listing: bool,
        progress: &(impl Fn(Progress<'_>) + Sync),
        part: Option<PartOf>,
    ) -> Result<TourNumber, Error> {
        // `check` refused these before any work started.
        debug_assert!(!listing && !self.options.up_to_symmetry);
        debug_assert!(self.options.limit.is_none() && self.options.depth.is_none());
        let budget = bytes_of_mib(request.memory_budget_mib);
        let by_ends = part.is_none()
            && self.options.frontier_order == SquareOrder::Auto
            && splits_by_ends(self.problem, budget);
        if let Some(classes) = by_ends
            .then(|| frontier::end_classes_of(self.problem))
            .flatten()
        {
            progress(Progress::EndClasses(classes));
        }
        let show = |squares| progress(Progress::Squares(squares));
        let checkpoint = self
            .options
            .checkpoint
            .as_deref()
            .map(|dir| {
                let record = checkpoint_record(
                    self.problem,
                    self.options.frontier_order,
                    part,
                    self.options.part_by,
                );
                let every = self
                    .options
                    .checkpoint_every
                    .unwrap_or(checkpoint::DEFAULT_EVERY);
                Checkpoint::open(dir, &record, every)
            })
            .transpose()?;
        let heard = |checkpoint: &Checkpoint, moment: CheckpointMoment| {
            progress(Progress::Checkpoint {
                dir: checkpoint.dir(),
                report: &checkpoint.report(),
                moment,
            });
        };
        if let Some(checkpoint) = &checkpoint {
            heard(checkpoint, CheckpointMoment::Opened);
        }
        let limits = frontier::Limits {
            jobs: resolve_jobs(self.threads()),
            memory_budget: budget,
            timeout: request.timeout,
            interrupt: &request.interrupt,
            order: self.options.frontier_order,
            spill_dir: self.options.spill_dir.as_deref(),
            part: part.map(|part| frontier_part(part, self.options.part_by)),
            by_ends,
            progress: Some(&show),
            checkpoint: checkpoint.as_ref(),
        };
        let counted = frontier::count_tours(self.problem, &limits);
        if let Some(checkpoint) = checkpoint {
            if counted.is_ok() {
                // Heard before the directory goes, which it names.
                heard(&checkpoint, CheckpointMoment::Removed);
                checkpoint.finish()?;
            } else {
                heard(&checkpoint, CheckpointMoment::Kept);
            }
        }
        counted
    }

    /// The tours of one part of the frontier count of the whole problem.
    /// Where the gate refutes the problem, every part has none.
    fn count_part(&self, request: &Request, part: PartOf) -> Result<CountReport, Error> {
        let task = PartTask {
            problem: self.problem,
            order: self.options.frontier_order,
            parts: part.parts,
            by: self.options.part_by,
        };
        let deadline = Deadline::new(request.timeout);
        let tours = if self.gate(&deadline).is_some() {
            TourNumber::ZERO
        } else {
            let progress = self.progress();
            progress(Progress::Route {
                method: Method::Frontier,
                request,
                cube_by_cube: false,
            });
            let request = Request {
                timeout: deadline.limit_left(),
                ..request.clone()
            };
            self.count_by_frontier(&request, false, &progress, Some(part))
                .map_err(|error| deadline.with_whole_limit(error))?
        };
        Ok(CountReport::Part(PartCount {
            header: task.header(),
            tally: PartTally {
                part,
                tours,
                task: task.fingerprint(),
            },
        }))
    }

    /// The count of a problem the gate refuted: no tour, as a count of
    /// the whole problem says it.
    fn refuted(&self, request: &Request, refuted: Refutation) -> CountReport {
        CountReport::Tours(TourCount {
            tours: TourNumber::ZERO,
            method: every_tour_by(self.problem, self.method, request).method,
            refuted: Some(refuted),
            at_limit: false,
        })
    }

    /// An estimate from a sample of the cubes (of `range`'s alone, with
    /// its depth, when given). The gate takes as long as it needs, and
    /// where it refutes the problem, the answer is its count of no tour
    /// ([`CountReport::Tours`]), not an estimate.
    fn estimate(
        &self,
        request: &Request,
        sample: Sample,
        range: Option<(usize, CubeRange)>,
    ) -> Result<CountReport, Error> {
        if let Some(refuted) = self.gate(&Deadline::new(None)) {
            return Ok(self.refuted(request, refuted));
        }
        let progress = self.progress();
        self.cube_route(request, &progress);
        let on_progress = |done| progress(Progress::Cubes(done));
        let route = (self.method, request);
        let sample = (sample.cubes, sample.seed);
        let estimate = match range {
            Some((depth, range)) => estimate_cube_range(
                self.problem,
                route,
                depth,
                range,
                self.threads(),
                sample,
                on_progress,
            )?,
            None => estimate_count(
                self.problem,
                route,
                self.options.depth,
                self.threads(),
                sample,
                on_progress,
            )?,
        };
        Ok(CountReport::Estimate(estimate))
    }

    /// The tours of the cubes numbered `range` of `depth` moves, each
    /// cube's line heard as it ends, after the header. The gate takes as
    /// long as it needs; where it refutes the problem, every cube has 0.
    /// A problem with no cube at all has the header alone, which `sum`
    /// reads as no tour, so that every task of a cluster prints what
    /// `sum` takes whatever route answers.
    fn count_range(
        &self,
        request: &Request,
        depth: usize,
        range: CubeRange,
    ) -> Result<CountReport, Error> {
        let refuted = self.gate(&Deadline::new(None));
        let impossible = refuted.is_some();
        self.cube_route(request, &self.progress());
        let task = cube_task(self.problem, self.method, request, depth)?;
        let header = task.header();
        let on_cube = self.on_cube;
        // The header goes out before the first cube's line, and alone
        // when there is no cube; not at all when the count stops first.
        let header_once = Once::new();
        let (range, tours) = count_cube_range(
            self.problem,
            (self.method, request),
            &task,
            depth,
            range,
            self.threads(),
            impossible,
            |tally| {
                if let Some(on_cube) = on_cube {
                    header_once.call_once(|| on_cube(CubeLine::Header(&header)));
                    on_cube(CubeLine::Tally(tally));
                }
            },
        )?;
        if let Some(on_cube) = on_cube {
            header_once.call_once(|| on_cube(CubeLine::Header(&header)));
        }
        Ok(CountReport::Cubes(CubeRangeCount {
            header,
            range,
            tours,
            refuted,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::{CountJob, CountOptions, CountReport, Progress};
    use crate::encoding::{EncodingConfig, SuccessorConfig};
    use crate::model::board::Board;
    use crate::model::problem::Problem;
    use crate::sat::Backend;
    use crate::solve::{Method, Request, SolveJob};

    /// A solve and a count given the same method, request and `sat_named`
    /// run the same method: "auto means SAT" is one rule.
    #[test]
    fn the_jobs_read_auto_as_sat_by_one_rule() {
        let problem = Problem::new(Board::new(5, 5).unwrap());
        let default = Request::default();
        let cadical = Request {
            backend: Backend::Cadical,
            ..Request::default()
        };
        let successor = Request {
            config: EncodingConfig::Successor(SuccessorConfig::default()),
            ..Request::default()
        };
        let proof = Request {
            proof: true,
            ..Request::default()
        };
        let cases = [
            (Method::Auto, &default, false, Method::Auto),
            (Method::Auto, &default, true, Method::Sat),
            (Method::Auto, &cadical, false, Method::Sat),
            (Method::Auto, &successor, false, Method::Sat),
            (Method::Auto, &proof, false, Method::Sat),
            (Method::Backtrack, &cadical, true, Method::Backtrack),
            (Method::Frontier, &default, true, Method::Frontier),
        ];
        for (method, request, sat_named, runs) in cases {
            let solve = SolveJob {
                method,
                sat_named,
                request: request.clone(),
                ..SolveJob::new(&problem)
            };
            let count = CountJob {
                method,
                sat_named,
                request: request.clone(),
                ..CountJob::new(&problem)
            };
            let case = format!("{method:?} {request:?} sat_named={sat_named}");
            assert_eq!(method.chosen(sat_named, &problem, request), runs, "{case}");
            assert_eq!(solve.chosen_method(), runs, "{case}");
            assert_eq!(count.chosen_method(), runs, "{case}");
        }
    }

    /// A part is counted by the frontier counter where the default route
    /// is asked for, and an order of the squares is refused by any other
    /// method, in the job's check: the command and Python ask it.
    #[test]
    fn parts_take_the_frontier_counter_and_orders_need_it() {
        use crate::count::frontier::{PartSplit, SquareOrder};
        use crate::count::tally::PartOf;
        use crate::error::{Error, Unsupported};
        let problem = Problem::new(Board::new(5, 6).unwrap());
        let route = std::sync::Mutex::new(None);
        let on_progress = |progress: Progress<'_>| {
            if let Progress::Route { method, .. } = progress {
                *route.lock().unwrap() = Some(method);
            }
        };
        let mut part = CountJob {
            options: CountOptions {
                part: Some(PartOf { part: 1, parts: 2 }),
                part_by: PartSplit::States,
                ..CountOptions::default()
            },
            on_progress: Some(&on_progress),
            ..CountJob::new(&problem)
        };
        assert!(part.check().is_ok());
        assert!(matches!(part.run(), Ok(CountReport::Part(_))));
        assert_eq!(*route.lock().unwrap(), Some(Method::Frontier));
        for method in [Method::Backtrack, Method::Sat] {
            let by_another = CountJob {
                method,
                options: part.options.clone(),
                ..CountJob::new(&problem)
            };
            assert!(matches!(
                by_another.check(),
                Err(Error::Unsupported(Unsupported::PartsWithoutFrontier(_)))
            ));
        }
        for method in [Method::Auto, Method::Backtrack, Method::Sat] {
            let ordered = CountJob {
                method,
                options: CountOptions {
                    frontier_order: SquareOrder::Snake,
                    ..CountOptions::default()
                },
                ..CountJob::new(&problem)
            };
            assert!(
                matches!(
                    ordered.check(),
                    Err(Error::Unsupported(Unsupported::OrderWithoutFrontier))
                ),
                "{method:?}"
            );
        }
        let by_frontier = CountJob {
            method: Method::Frontier,
            options: CountOptions {
                frontier_order: SquareOrder::Snake,
                ..CountOptions::default()
            },
            ..CountJob::new(&problem)
        };
        assert!(by_frontier.check().is_ok());
    }
}
