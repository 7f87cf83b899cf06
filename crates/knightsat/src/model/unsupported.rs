//! Requests that cannot be served together: a method, a solver and the
//! options asked of them that do not go together. Every layer that serves
//! a request may refuse one, so the refusal is a value of the bottom layer.

/// Requests that cannot be served together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Proofs are written by the built-in solvers only.
    ProofWithExternalSolver,
    /// Every tour is enumerated by the built-in solvers only.
    AllWithExternalSolver,
    /// Cubes are solved on threads by the built-in solvers only.
    JobsWithExternalSolver,
    /// Extra solver arguments go to external solver programs only, not to
    /// the named built-in solver.
    ArgumentsForBuiltIn(&'static str),
    /// Proofs of impossibility come from the SAT solver only, not from the
    /// named search method.
    ProofWithoutSat(&'static str),
    /// Solver programs solve the SAT encoding; the named search method
    /// searches by itself.
    SolverWithoutSat(&'static str),
    /// Encoding switches shape the SAT encoding, which the named search
    /// method does not use.
    EncodingOptionsWithoutSat(&'static str),
    /// Warnsdorff's rule finds one tour: it neither lists nor counts them.
    EveryTourByWarnsdorff,
    /// Warnsdorff's rule does not follow clues.
    CluesByWarnsdorff,
    /// A random seed is for Warnsdorff's rule only; the named method takes none.
    SeedWithoutWarnsdorff(&'static str),
    /// Cubes split the SAT encoding; the named search method does not use it.
    CubesWithoutSat(&'static str),
    /// Cubes are prefixes of positions in time, which the successor
    /// encoding does not have.
    CubesWithSuccessor,
    /// Orbits are counted by one search: a tour and its images under the
    /// board's symmetries begin differently, so they fall in different cubes.
    OrbitsWithCubes,
    /// A formula with lazy subtours has models that are not tours: it is
    /// solved in a loop, never written alone.
    LazyFormulaWritten,
    /// A proof of impossibility needs the whole formula: lazy subtour cuts
    /// are not derived from it.
    ProofWithLazySubtours,
    /// A block schedule or a corridor keeps only some tours: a search on
    /// it may find one, but neither counts nor lists them all, nor proves
    /// that there is none.
    EveryTourOrProofWithinARestriction,
    /// The frontier counter counts tours without finding one.
    TourByFrontier,
    /// The frontier counter does not know a square's move number.
    CluesByFrontier,
    /// The frontier counter counts the whole board at once, with no cubes
    /// and no limit to stop a listing at (it splits into parts instead).
    CubesByFrontier,
    /// A count in parts splits the frontier counter's states; the named
    /// method does not count by them.
    PartsWithoutFrontier(&'static str),
    /// A part of a frontier count is counted whole: no cubes, depth,
    /// sample, limit or orbits.
    PartsWithCubes,
    /// A count split by its ends counts open tours: a cycle has none.
    EndsOfCycles,
    /// A count in parts splits the frontier counter's states, and the
    /// frontier counter does not know a square's move number.
    CluesInParts,
    /// Orbits are counted by comparing tours, which the frontier counter
    /// never lists.
    OrbitsByFrontier,
    /// A range of numbered cubes is a range of the cubes of one depth,
    /// which must be given.
    RangeWithoutDepth,
    /// An order of the squares is the frontier counter's, and another
    /// method counts.
    OrderWithoutFrontier,
    /// The named method or feature needs a board (squares in their places,
    /// colours, symmetries); a graph from a file is solved and counted by
    /// SAT with the successor encoding.
    NeedsBoard(&'static str),
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsupported::ProofWithExternalSolver => f.write_str(
                "proofs are written by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::AllWithExternalSolver => f.write_str(
                "every tour is enumerated by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::JobsWithExternalSolver => f.write_str(
                "cubes are solved on threads by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::ArgumentsForBuiltIn(solver) => write!(
                f,
                "extra solver arguments are for external solver programs, not the built-in {solver}"
            ),
            Unsupported::ProofWithoutSat(method) => {
                write!(
                    f,
                    "proofs of impossibility come from SAT, not from {method}"
                )
            }
            Unsupported::SolverWithoutSat(method) => write!(
                f,
                "solver programs solve the SAT encoding; {method} searches by itself"
            ),
            Unsupported::EncodingOptionsWithoutSat(method) => write!(
                f,
                "encoding options shape the SAT encoding, which {method} does not use"
            ),
            Unsupported::EveryTourByWarnsdorff => {
                f.write_str("Warnsdorff's rule finds one tour: it neither lists nor counts them")
            }
            Unsupported::CluesByWarnsdorff => {
                f.write_str("Warnsdorff's rule does not follow clues")
            }
            Unsupported::SeedWithoutWarnsdorff(method) => {
                write!(
                    f,
                    "a random seed is for Warnsdorff's rule; {method} takes none"
                )
            }
            Unsupported::CubesWithoutSat(method) => {
                write!(f, "cubes split the SAT encoding; {method} does not use it")
            }
            Unsupported::CubesWithSuccessor => f.write_str(
                "cubes fix the first moves in time, which the successor encoding does not number",
            ),
            Unsupported::OrbitsWithCubes => f.write_str(
                "orbits are counted by one search, without cubes: a tour and its images fall in different cubes",
            ),
            Unsupported::LazyFormulaWritten => f.write_str(
                "a formula with lazy subtours has models that are not tours, so it is not written alone",
            ),
            Unsupported::ProofWithLazySubtours => f.write_str(
                "a proof needs the complete formula: lazy subtour cuts do not follow from the clauses",
            ),
            Unsupported::EveryTourOrProofWithinARestriction => f.write_str(
                "a block schedule or a corridor keeps only some tours: it may find one, but cannot count or list them all or prove there is none",
            ),
            Unsupported::TourByFrontier => {
                f.write_str("the frontier counter counts tours without finding one")
            }
            Unsupported::CluesByFrontier => {
                f.write_str("the frontier counter does not follow clues")
            }
            Unsupported::CubesByFrontier => f.write_str(
                "the frontier counter counts the whole board at once: no cubes, samples or limit",
            ),
            Unsupported::PartsWithoutFrontier(method) => write!(
                f,
                "a count in parts splits the frontier counter's states; {method} does not count by them"
            ),
            Unsupported::PartsWithCubes => f.write_str(
                "a part of a frontier count is counted whole: no cubes, depth, sample, limit or orbits",
            ),
            Unsupported::EndsOfCycles => f.write_str(
                "a count split by its ends is of open tours: a closed tour has no ends (split closed counts by their states)",
            ),
            Unsupported::CluesInParts => f.write_str(
                "a count in parts splits the frontier counter's states, and the frontier counter does not follow clues",
            ),
            Unsupported::OrbitsByFrontier => f.write_str(
                "orbits are counted by comparing tours, which the frontier counter never lists",
            ),
            Unsupported::RangeWithoutDepth => {
                f.write_str("a range of cubes numbers the cubes of one depth, which is not given")
            }
            Unsupported::OrderWithoutFrontier => f.write_str(
                "an order of the squares is the frontier counter's, and another method counts",
            ),
            Unsupported::NeedsBoard(what) => write!(
                f,
                "{what} needs a board: a graph is solved and counted by SAT with the successor encoding"
            ),
        }
    }
}

impl std::error::Error for Unsupported {}
