//! Cubes for cube-and-conquer: the formula split into disjoint, exhaustive
//! parts that can be solved (or counted) one by one, on many cores or many
//! machines, and whose answers add up.
//!
//! For the time-indexed encoding a cube is a legal prefix of the tour: the
//! squares after 0, 1, …, D moves, given as the positive literals
//! x(0, s₀) … x(D, s\_D). The prefixes are all sequences of D + 1 distinct
//! squares, each a move of the board's leaper from the one before, with
//! every x(t, s\_t) live in the encoding's [domain](crate::encoding::time_indexed::Domain)
//! (which already holds the start, the end and the clues).
//!
//! - **Disjoint**: two different prefixes put some step t on two different
//!   squares, and a tour is on one square after t moves; so no tour extends
//!   two cubes.
//! - **Exhaustive**: the first D + 1 squares of any tour of the formula are
//!   distinct, joined by moves and live (the domain only rules out
//!   x(t, s) that no tour of the formula sets), so they are one of the
//!   prefixes enumerated.
//! - **Dead ends**: a prefix is dropped only when no live, unvisited square
//!   one move on exists for its next step: no tour can extend it, so nothing
//!   is lost.

use crate::cnf::Lit;
use crate::encoding::time_indexed::TimeIndexed;
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::problem::{Clue, Problem};

/// One cube: a legal prefix of the tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The squares after 0, 1, …, D moves.
    pub squares: Vec<usize>,
    /// x(t, squares\[t\]) for each t, positive.
    pub literals: Vec<Lit>,
}

impl Cube {
    /// `problem` confined to this cube: each of its squares a clue at its
    /// step. Its tours are exactly the tours of `problem` that extend the
    /// cube, as with the cube's literals as unit clauses, but the
    /// [domain](crate::encoding::time_indexed::Domain) prunes with the
    /// clues (no other step on a cube square, reachability from each), so
    /// the formula is smaller: counting 6x6 closed from a1 cube by cube at
    /// depth 8 took 26 s this way against 45 s with unit clauses.
    pub fn pinned(&self, problem: &Problem) -> Result<Problem, Error> {
        let clues = self
            .squares
            .iter()
            .enumerate()
            .map(|(step, &square)| Clue { step, square });
        Ok(problem.clone().with_clues(clues)?)
    }

    /// The cube in DIMACS numbers, as in an iCNF `a … 0` line (without the 0).
    pub fn dimacs(&self) -> Vec<isize> {
        self.literals.iter().map(|lit| lit.to_dimacs()).collect()
    }
}

/// The depth actually used for a board of `squares` squares: at most
/// N − 1 moves (a prefix of N squares is a whole tour).
pub fn effective_depth(depth: usize, squares: usize) -> usize {
    depth.min(squares.saturating_sub(1))
}

/// Every legal prefix of `depth` moves of the encoding's tours, in a fixed
/// order (start squares in index order, then moves in the board's order).
pub fn prefixes(encoding: &TimeIndexed, depth: usize) -> Vec<Cube> {
    let problem = crate::encoding::Encoding::problem(encoding);
    let board = problem.board();
    let n = board.squares();
    if n == 0 {
        return Vec::new();
    }
    let depth = effective_depth(depth, n);
    let graph = board.move_graph();
    let live = live_in_cubes(encoding);
    let vars = encoding.vars();
    let mut cubes = Vec::new();
    let mut path: Vec<usize> = Vec::with_capacity(depth + 1);
    let mut visited = vec![false; n];
    let mut emit = |path: &[usize]| {
        cubes.push(Cube {
            squares: path.to_vec(),
            literals: path
                .iter()
                .enumerate()
                .map(|(t, &s)| vars.x(t, s).positive())
                .collect(),
        });
    };
    for start in (0..n).filter(|&s| live(0, s)) {
        path.push(start);
        visited[start] = true;
        extend(&graph, &live, depth, &mut path, &mut visited, &mut emit);
        visited[start] = false;
        path.pop();
    }
    cubes
}

/// Whether x(t, s) may be in a cube: live in the encoding's domain, and not
/// the end square before the last step (the domain pins the clues but
/// leaves the end to its unit clause).
fn live_in_cubes(encoding: &TimeIndexed) -> impl Fn(usize, usize) -> bool + '_ {
    let problem = crate::encoding::Encoding::problem(encoding);
    let last = problem.board().squares().saturating_sub(1);
    let end = problem.end();
    move |t, s| encoding.domain().is_live(t, s) && (t == last || end != Some(s))
}

fn extend(
    graph: &[Vec<usize>],
    live: &dyn Fn(usize, usize) -> bool,
    depth: usize,
    path: &mut Vec<usize>,
    visited: &mut [bool],
    emit: &mut dyn FnMut(&[usize]),
) {
    let step = path.len();
    if step == depth + 1 {
        emit(path);
        return;
    }
    let here = path[step - 1];
    for &next in &graph[here] {
        if !visited[next] && live(step, next) {
            visited[next] = true;
            path.push(next);
            extend(graph, live, depth, path, visited, emit);
            path.pop();
            visited[next] = false;
        }
    }
}

/// The cubes of `depth` moves for `problem` encoded as `config` says.
pub fn cubes(problem: &Problem, config: &EncodingConfig, depth: usize) -> Result<Vec<Cube>, Error> {
    match config {
        EncodingConfig::TimeIndexed(config) => {
            Ok(prefixes(&TimeIndexed::new(problem, *config)?, depth))
        }
        EncodingConfig::Successor(_) => Err(Error::Unsupported(Unsupported::CubesWithSuccessor)),
    }
}

/// The cube of the squares `squares` (after 0, 1, … moves), checked to be
/// a legal prefix for `problem` encoded as `config` says.
pub fn cube_of(
    problem: &Problem,
    config: &EncodingConfig,
    squares: &[usize],
) -> Result<Cube, Error> {
    let EncodingConfig::TimeIndexed(config) = config else {
        return Err(Error::Unsupported(Unsupported::CubesWithSuccessor));
    };
    let encoding = TimeIndexed::new(problem, *config)?;
    let board = problem.board();
    let names = || {
        squares
            .iter()
            .map(|&s| board.name(s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let live = live_in_cubes(&encoding);
    let legal = !squares.is_empty()
        && squares.len() <= board.squares()
        && squares
            .iter()
            .enumerate()
            .all(|(t, &s)| s < board.squares() && live(t, s) && !squares[..t].contains(&s))
        && squares.windows(2).all(|w| board.is_move(w[0], w[1]));
    if !legal {
        return Err(Error::NotKnightsatCnf(format!(
            "the cube {} is not a legal start of a tour of this CNF",
            names()
        )));
    }
    let vars = encoding.vars();
    Ok(Cube {
        squares: squares.to_vec(),
        literals: squares
            .iter()
            .enumerate()
            .map(|(t, &s)| vars.x(t, s).positive())
            .collect(),
    })
}

/// The number of threads `jobs` asks for: itself, or one per core for 0.
pub fn resolve_jobs(jobs: usize) -> usize {
    if jobs == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    } else {
        jobs
    }
}

/// The depth chosen when none is given: the smallest that gives at least
/// `per_job` × `jobs` cubes (so that threads finish close together and each
/// cube keeps few blocking clauses), at most 12 moves.
pub fn automatic_depth(
    problem: &Problem,
    config: &EncodingConfig,
    jobs: usize,
    per_job: usize,
) -> Result<usize, Error> {
    let wanted = jobs.max(1) * per_job;
    let cap = effective_depth(12, problem.board().squares());
    for depth in 1..=cap {
        if cubes(problem, config, depth)?.len() >= wanted {
            return Ok(depth);
        }
    }
    Ok(cap.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn a_fixed_start_gives_one_cube_per_first_move() {
        let problem = Problem::new(Board::new(5, 5).unwrap())
            .with_start(Some(0))
            .unwrap();
        let cubes = cubes(&problem, &EncodingConfig::default(), 1).unwrap();
        assert_eq!(cubes.len(), 2);
        for cube in &cubes {
            assert_eq!(cube.squares[0], 0);
            assert_eq!(cube.dimacs()[0], 1);
        }
    }
}
