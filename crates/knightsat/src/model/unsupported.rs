//! Requests that cannot be served together: a method, a solver and the
//! options asked of them that do not go together. Every layer that serves
//! a request may refuse one, so the refusal is a value of the bottom layer.

/// Requests that cannot be served together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// Proofs are written by the built-in solvers only.
    #[error("proofs are written by the in-process solvers (varisat, cadical) only")]
    ProofWithExternalSolver,
    /// Every tour is enumerated by the built-in solvers only.
    #[error("every tour is enumerated by the in-process solvers (varisat, cadical) only")]
    AllWithExternalSolver,
    /// Cubes are solved on threads by the built-in solvers only.
    #[error("cubes are solved on threads by the in-process solvers (varisat, cadical) only")]
    JobsWithExternalSolver,
    /// Extra solver arguments go to external solver programs only, not to
    /// the named built-in solver.
    #[error("extra solver arguments are for external solver programs, not the built-in {0}")]
    ArgumentsForBuiltIn(&'static str),
    /// Proofs of impossibility come from the SAT solver only, not from the
    /// named search method.
    #[error("proofs of impossibility come from SAT, not from {0}")]
    ProofWithoutSat(&'static str),
    /// Solver programs solve the SAT encoding; the named search method
    /// searches by itself.
    #[error("solver programs solve the SAT encoding; {0} searches by itself")]
    SolverWithoutSat(&'static str),
    /// Encoding switches shape the SAT encoding, which the named search
    /// method does not use.
    #[error("encoding options shape the SAT encoding, which {0} does not use")]
    EncodingOptionsWithoutSat(&'static str),
    /// Warnsdorff's rule finds one tour: it neither lists nor counts them.
    #[error("Warnsdorff's rule finds one tour: it neither lists nor counts them")]
    EveryTourByWarnsdorff,
    /// Warnsdorff's rule does not follow clues.
    #[error("Warnsdorff's rule does not follow clues")]
    CluesByWarnsdorff,
    /// A random seed is for Warnsdorff's rule only; the named method takes none.
    #[error("a random seed is for Warnsdorff's rule; {0} takes none")]
    SeedWithoutWarnsdorff(&'static str),
    /// Cubes split the SAT encoding; the named search method does not use it.
    #[error("cubes split the SAT encoding; {0} does not use it")]
    CubesWithoutSat(&'static str),
    /// Cubes are prefixes of positions in time, which the successor
    /// encoding does not have.
    #[error("cubes fix the first moves in time, which the successor encoding does not number")]
    CubesWithSuccessor,
    /// Cubes are prefixes of squares in time, for the time-indexed
    /// encoding of a board; a graph from a file has only the successor
    /// encoding.
    #[error("cubes fix the first moves in time on a board's squares; a graph is solved and counted whole")]
    CubesOnGraph,
    /// Orbits are counted by one search: a tour and its images under the
    /// board's symmetries begin differently, so they fall in different cubes.
    #[error("orbits are counted by one search, without cubes: a tour and its images fall in different cubes")]
    OrbitsWithCubes,
    /// A formula with lazy subtours has models that are not tours: it is
    /// solved in a loop, never written alone.
    #[error(
        "a formula with lazy subtours has models that are not tours, so it is not written alone"
    )]
    LazyFormulaWritten,
    /// A proof of impossibility needs the whole formula: lazy subtour cuts
    /// are not derived from it.
    #[error(
        "a proof needs the complete formula: lazy subtour cuts do not follow from the clauses"
    )]
    ProofWithLazySubtours,
    /// A block schedule or a corridor keeps only some tours: a search on
    /// it may find one, but neither counts nor lists them all, nor proves
    /// that there is none.
    #[error("a block schedule or a corridor keeps only some tours: it may find one, but cannot count or list them all or prove there is none")]
    EveryTourOrProofWithinARestriction,
    /// The frontier counter counts tours without finding one.
    #[error("the frontier counter counts tours without finding one")]
    TourByFrontier,
    /// The frontier counter does not know a square's move number.
    #[error("the frontier counter does not follow clues")]
    CluesByFrontier,
    /// The frontier counter counts the whole board at once, with no cubes
    /// and no limit to stop a listing at (it splits into parts instead).
    #[error("the frontier counter counts the whole board at once: no cubes, samples or limit")]
    CubesByFrontier,
    /// A checkpoint is kept by the frontier counter; the count goes by
    /// the named method.
    #[error("a checkpoint is kept by the frontier counter; this count goes by {0}")]
    CheckpointWithoutFrontier(&'static str),
    /// A count in parts splits the frontier counter's states; the named
    /// method does not count by them.
    #[error("a count in parts splits the frontier counter's states; {0} does not count by them")]
    PartsWithoutFrontier(&'static str),
    /// A part of a frontier count is counted whole: no cubes, depth,
    /// sample, limit or orbits.
    #[error(
        "a part of a frontier count is counted whole: no cubes, depth, sample, limit or orbits"
    )]
    PartsWithCubes,
    /// A count split by its ends counts open tours: a cycle has none.
    #[error("a count split by its ends is of open tours: a closed tour has no ends (split closed counts by their states)")]
    EndsOfCycles,
    /// A count in parts splits the frontier counter's states, and the
    /// frontier counter does not know a square's move number.
    #[error("a count in parts splits the frontier counter's states, and the frontier counter does not follow clues")]
    CluesInParts,
    /// Orbits are counted by comparing tours, which the frontier counter
    /// never lists.
    #[error("orbits are counted by comparing tours, which the frontier counter never lists")]
    OrbitsByFrontier,
    /// A range of numbered cubes is a range of the cubes of one depth,
    /// which must be given.
    #[error("a range of cubes numbers the cubes of one depth, which is not given")]
    RangeWithoutDepth,
    /// An order of the squares is the frontier counter's, and another
    /// method counts.
    #[error("an order of the squares is the frontier counter's, and another method counts")]
    OrderWithoutFrontier,
    /// The named method or feature needs a board (squares in their places,
    /// colours, symmetries); a graph from a file is solved and counted by
    /// SAT with the successor encoding.
    #[error("{0} needs a board: a graph is solved and counted by SAT with the successor encoding")]
    NeedsBoard(&'static str),
}
