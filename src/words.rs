//! Errors in the command line's words: the library's errors carry values
//! and name no flag; this is the one place that words them for a user of
//! the command.

use knightsat::count::way_out::{CountWayOut, FrontierWayOut, PastTheEncoding};
use knightsat::error::Unsupported;
use knightsat::error::{CheckpointError, EncodingError, RunError, SatError, TourError};
use knightsat::solve::way_out::{LargerBoards, MemoryWay, SolveWayOut};
use knightsat::solve::Request;
use knightsat::Error;

use crate::failure::Failure;
use crate::failure::WayOut;
use crate::flags;

/// The error in one line, in the command line's words: the library's
/// errors carry values, and those that concern a flag are worded with it.
pub fn describe(failure: &Failure) -> String {
    match failure {
        Failure::WayOut(way_out) => {
            let WayOut { error, hint } = &**way_out;
            format!("{}; {hint}", describe_library(error, None))
        }
        Failure::Library(error) => describe_library(error, None),
        // The file the command names stays in front.
        Failure::InFile { path, error } => describe_library(error, Some(path.clone())),
        usage => usage.to_string(),
    }
}

/// A library error in one line, in the command line's words, after the
/// `context` the command added.
fn describe_library(library: &Error, context: Option<String>) -> String {
    let worded = match library {
        Error::Tour(TourError::MoveListNeedsBoard) => {
            return "cannot read the tour: a move list needs --board (JSON tours carry their own)"
                .into();
        }
        Error::Run(RunError::TimedOutPartway { seconds, found }) => {
            return format!(
                "the --timeout of {seconds} s ran out after {found} tours: the tours printed are a partial list, not every tour (exit 124)"
            );
        }
        Error::Sat(SatError::OverMemoryBudget { .. }) | Error::FrontierOverMemoryBudget { .. } => {
            return format!("{library} (--memory-budget)");
        }
        Error::CubesOverMemoryBudget { smaller_depth, .. } => {
            let instead = match smaller_depth {
                Some(depth) => format!("--depth {depth} or less fits"),
                None => "no smaller --depth fits".to_string(),
            };
            return format!(
                "{library} (--memory-budget): {instead}; `cubes -o FILE` and `cubes --split DIR` write any number of cubes without holding them"
            );
        }
        Error::Tour(TourError::ClosedButFileSaysOpen { file }) => {
            format!("--closed, but the {file} file says the tour is open")
        }
        Error::Run(RunError::SameOutputTwice { path }) => {
            format!("--proof and --cnf-out both name {path}: give them different files")
        }
        Error::Encoding(EncodingError::ClauseLengthTooShort { len }) => {
            format!("--max-clause-len must be at least 3, got {len}")
        }
        Error::Encoding(EncodingError::BlocksDoNotFit { rows, cols, board }) => format!(
            "--blocks {rows}x{cols} does not fit the {board} board: each block needs a rank and a file"
        ),
        Error::Encoding(EncodingError::NeedsBoard { encoding }) => format!(
            "--graph: --encoding {encoding} needs a board's squares in their places; a graph takes --encoding successor"
        ),
        Error::Encoding(EncodingError::CorridorWithoutClues { .. }) => {
            format!("--corridor: {library}: give at least two clues with --at, or leave --corridor out")
        }
        // Not an option at fault: the directory's content.
        Error::Checkpoint(CheckpointError::Io { .. }) => return library.to_string(),
        Error::Checkpoint(_) => {
            return format!(
                "{library}: remove it to count from the start, or give --checkpoint another directory"
            )
        }
        Error::Unsupported(what) => unsupported_in_words(*what),
        Error::Problem(why) => why.to_string(),
        Error::Encoding(EncodingError::BoardTooLargeForEncoding { .. }) => library.to_string(),
        _ => {
            let mut text = context.map_or_else(String::new, |context| format!("{context}: "));
            text.push_str(&library.to_string());
            let mut source = std::error::Error::source(library);
            while let Some(cause) = source {
                let _ = std::fmt::Write::write_fmt(&mut text, format_args!(": {cause}"));
                source = cause.source();
            }
            return text;
        }
    };
    match context {
        None => format!("bad option: {worded}"),
        Some(context) => format!("{context}: bad option: {worded}"),
    }
}

/// A request the library cannot serve, in the command line's words (the
/// library's own where the command has none).
fn unsupported_in_words(what: Unsupported) -> String {
    sat_request_in_words(&what)
        .or_else(|| frontier_request_in_words(&what))
        .or_else(|| method_request_in_words(&what))
        .unwrap_or_else(|| what.to_string())
}

/// What only SAT (a built-in solver, the time-indexed encoding, the complete formula) takes, in words; `None` for another request.
fn sat_request_in_words(what: &Unsupported) -> Option<String> {
    let words = match what {
        Unsupported::ProofWithExternalSolver => {
            "--proof uses a built-in solver: --solver varisat or --solver cadical".into()
        },
        Unsupported::AllWithExternalSolver => {
            "--all uses a built-in solver: --solver varisat or --solver cadical".into()
        },
        Unsupported::JobsWithExternalSolver => {
            "--jobs and --depth solve cubes with a built-in solver: --solver varisat or --solver cadical".into()
        },
        Unsupported::ArgumentsForBuiltIn(solver) => {
            format!("--solver-arg is for solver programs, not the built-in {solver}")
        },
        Unsupported::ProofWithoutSat(method) => {
            format!("--proof needs --method sat: only SAT writes proofs, not --method {method}")
        },
        Unsupported::SolverWithoutSat(method) => format!(
            "--solver is for --method sat: --method {method} searches without a SAT solver"
        ),
        Unsupported::EncodingOptionsWithoutSat(method) => format!(
            "the encoding options ({}) are for --method sat, not --method {method}",
            flags::listed(flags::ENCODING)
        ),
        Unsupported::CubesWithoutSat(method) => {
            format!("--jobs and --depth split the SAT encoding into cubes: not for --method {method}")
        },
        Unsupported::CubesWithSuccessor => {
            "cubes (`cubes`, --jobs, --depth) need --encoding time-indexed: they fix the first moves in time, which --encoding successor does not number".into()
        },
        Unsupported::CubesOnGraph => {
            "--graph: cubes (`cubes`, --jobs, --depth, --sample) fix the first moves in time on a board's squares; a graph is solved and counted whole by --method sat (or the default route)".into()
        },
        Unsupported::LazyFormulaWritten => {
            "--subtours lazy is for solving in a loop: a file of it would have models that are not tours; encode writes --subtours complete".into()
        },
        Unsupported::ProofWithLazySubtours => {
            "--proof needs the complete formula: add --subtours complete (lazy subtour cuts do not follow from the clauses)".into()
        },
        _ => return None,
    };
    Some(words)
}

/// What the frontier counter and its parts do not take, in words; `None` for another request.
fn frontier_request_in_words(what: &Unsupported) -> Option<String> {
    let words = match what {
        Unsupported::TourByFrontier => {
            "--method frontier counts tours without finding one: it is for count".into()
        },
        Unsupported::CluesByFrontier => {
            "--method frontier does not take clues (--at, --puzzle): count them with --method backtrack or sat".into()
        },
        Unsupported::CubesByFrontier => {
            "--method frontier counts the whole board at once: not with --depth, --cubes, --sample or --limit (--part K/N splits it)".into()
        },
        Unsupported::CheckpointWithoutFrontier(method) => format!(
            "--checkpoint is kept by the frontier counter; this count goes by {method}: give --method frontier, or leave --checkpoint out"
        ),
        Unsupported::PartsWithoutFrontier(method) => format!(
            "--part splits the frontier counter's states: not with --method {method}"
        ),
        Unsupported::PartsWithCubes => {
            "--part counts one part of a frontier count whole: not with --depth, --cubes, --sample, --limit or --up-to-symmetry".into()
        },
        Unsupported::EndsOfCycles => {
            "--part-by ends splits open tours by the squares they end on, and a closed tour has no ends: split a closed count with --part-by states".into()
        },
        Unsupported::CluesInParts => {
            "--part splits the frontier counter's states, and the frontier counter does not take clues (--at, --puzzle): count a clued board whole with --method backtrack or sat".into()
        },
        Unsupported::OrbitsByFrontier => {
            "--up-to-symmetry compares the tours it lists, which --method frontier never does: use --method backtrack or sat".into()
        },
        Unsupported::OrderWithoutFrontier => {
            "--frontier-order is for the frontier counter: add --method frontier".into()
        },
        _ => return None,
    };
    Some(words)
}

/// What Warnsdorff's rule, cubes, orbits, restrictions and graphs do not take, in words; `None` for another request.
fn method_request_in_words(what: &Unsupported) -> Option<String> {
    let words = match what {
        Unsupported::EveryTourByWarnsdorff => {
            "--method warnsdorff finds one tour: --all and count need --method backtrack or sat".into()
        },
        Unsupported::CluesByWarnsdorff => {
            "--method warnsdorff does not take clues (--at, --puzzle): use --method backtrack or sat".into()
        },
        Unsupported::SeedWithoutWarnsdorff(method) => {
            format!("--seed is for --method warnsdorff, not --method {method}")
        },
        Unsupported::OrbitsWithCubes => {
            "--up-to-symmetry counts orbits with one solver, without cubes: not with --jobs N (N > 1) or --depth, since a tour and its images fall in different cubes".into()
        },
        Unsupported::RangeWithoutDepth => {
            "--cubes A-B numbers the cubes of one depth: give --depth".into()
        },
        Unsupported::EveryTourOrProofWithinARestriction => {
            "--blocks and --corridor keep only some tours: they find one, but cannot count or list every tour or prove there is none; drop them".into()
        },
        Unsupported::NeedsBoard(what) => format!(
            "--graph: {} needs a board's squares; a graph is solved and counted by --method sat (or the default route) with --encoding successor",
            if what.starts_with("the ") { what.to_string() } else { format!("--method {what}") }
        ),
        _ => return None,
    };
    Some(words)
}

/// A way past `solve`'s refusal or timeout, in its options.
pub fn solve_way_out(way: &SolveWayOut) -> String {
    match way {
        SolveWayOut::DefaultRoute { route } => format!(
            "without --method and encoding options, the default route ({route}) finds plain tours fastest"
        ),
        SolveWayOut::BacktrackListsFastest => "--method backtrack lists plain tours fastest".into(),
        SolveWayOut::LongerTimeout => "try a longer --timeout".into(),
        SolveWayOut::LargerBoards(larger) => match larger {
            LargerBoards::LazySubtoursOrWarnsdorff => {
                "--subtours lazy and --method warnsdorff take larger boards"
            }
            LargerBoards::SuccessorOrWarnsdorff => {
                "--encoding successor and --method warnsdorff take larger boards"
            }
            LargerBoards::Successor => "--encoding successor takes larger boards",
        }
        .into(),
        SolveWayOut::WithinMemory(ways) => {
            let ways: Vec<String> = ways
                .iter()
                .map(|way| match way {
                    MemoryWay::SuccessorEncoding => {
                        "--encoding successor (linear in the board)".to_string()
                    }
                    MemoryWay::Warnsdorff => "--method warnsdorff".into(),
                    MemoryWay::Backtrack => "--method backtrack (no formula)".into(),
                    MemoryWay::Jobs(fit) => format!("--jobs {fit}"),
                    MemoryWay::SolverProgram { successor: true } => "a solver program (--encoding successor --solver kissat reads the CNF from disk)".into(),
                    MemoryWay::SolverProgram { successor: false } => {
                        "a solver program (--solver kissat reads the CNF from disk)".into()
                    }
                    MemoryWay::LargerBudget => "a larger --memory-budget".into(),
                })
                .collect();
            format!("try {}", ways.join(", "))
        }
    }
}

/// A way past `count`'s refusal or timeout, in its options (no solver
/// programs).
pub fn count_way_out(way: &CountWayOut) -> String {
    match way {
        CountWayOut::DefaultRouteFaster(method) => format!(
            "without --method and SAT options, the default route counts these tours by {}, faster",
            method.describe(&Request::default())
        ),
        CountWayOut::LongerTimeout => "try a longer --timeout".into(),
        CountWayOut::PastTheEncoding(past) => match past {
            PastTheEncoding::Sampled => "--sample and --cubes number their cubes by that encoding, so nothing samples a board this large; --method backtrack --limit N counts its first N tours",
            // A square board this large has a frontier over 180 squares wide.
            PastTheEncoding::NoExactRoute => "no exact route counts a board this large: its frontier is far wider than the 23 squares the frontier counter holds, backtracking lists the tours one by one (far too many), and --sample numbers its cubes by that encoding too; --method backtrack --limit N counts its first N tours",
            PastTheEncoding::BacktrackWithoutCubes => "--method backtrack without --jobs and --depth counts without a formula, on any board",
            PastTheEncoding::BacktrackInOneSearch => "backtracking numbers its cubes by that encoding: without --jobs and --depth it counts in one search, on any board",
        }
        .into(),
        CountWayOut::SatWithinMemory {
            backtrack,
            jobs_that_fit,
        } => {
            let mut ways = Vec::new();
            if *backtrack {
                ways.push("--method backtrack (no memory to speak of)".to_string());
            }
            if let Some(fit) = jobs_that_fit {
                ways.push(format!("--jobs {fit}"));
            }
            ways.push("a larger --memory-budget".into());
            format!("try {}", ways.join(", "))
        }
        CountWayOut::Frontier(frontier) => frontier_way_out(*frontier),
        CountWayOut::LargerBudget => "try a larger --memory-budget".into(),
    }
}

/// The way past the frontier counter's refusals: its memory budget, its
/// disk, or a board wider than any state holds.
fn frontier_way_out(way: FrontierWayOut) -> String {
    match way {
        FrontierWayOut::SpillingOrder { part: true } => "try --frontier-order rows or snake, which keep on disk the states that do not fit (the same order for every part), or a larger --memory-budget".to_string(),
        FrontierWayOut::SpillingOrder { part: false } => "try --frontier-order rows or snake, which keep on disk the states that do not fit, a larger --memory-budget, or --method backtrack".to_string(),
        FrontierWayOut::LargerBudget { part: true } => "try a larger --memory-budget".to_string(),
        FrontierWayOut::LargerBudget { part: false } => "try a larger --memory-budget, or --method backtrack (little memory, but its time grows with the number of tours)".to_string(),
        FrontierWayOut::Disk => "give --spill-dir a directory with more room, or a larger --memory-budget".to_string(),
        FrontierWayOut::TooWide { sample } => {
            let instead = if sample {
                "--sample K --depth D estimates the count from K cubes where each cube is small enough to count"
            } else {
                "--method backtrack --limit N counts its first N tours"
            };
            format!("no route counts a board this wide: backtracking and SAT list the tours one by one, far too many here; {instead}")
        }
    }
}
