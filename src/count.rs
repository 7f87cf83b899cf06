//! Counting and enumerating tours by incremental solving with blocking clauses.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Blocking clauses range over the x
//! variables only, so auxiliary variables never multiply the count.

use crate::cnf::{Lit, VarisatSink};
use crate::encode::{encode, Domain, Options};
use crate::error::Error;
use crate::solve::tour_from_solver;
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

/// Finds every tour meeting `options` (or one per orbit), calling `on_tour`
/// for each as it is found; returns how many were found.
///
/// A closed tour with no start or end given is searched from a1 (every
/// closed tour can be rotated to start there) and each one found is reported
/// in all its N rotations, so the count stays that of sequences.
pub fn enumerate(
    options: &Options,
    count: CountOptions,
    mut on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    options.validate()?;
    // Symmetry breaking would drop tours from the count; orbits keep one
    // tour each, which it may rightly choose.
    let options = &Options {
        symmetry_breaking: options.symmetry_breaking && count.up_to_symmetry,
        ..options.clone()
    };
    let limit = count.limit.unwrap_or(u64::MAX);
    let mut found = 0u64;
    if limit == 0 {
        return Ok(0);
    }
    let vars = options.vars();
    let mut sink = VarisatSink::new();
    encode(options, &mut sink);
    let symmetries = symmetries_keeping(options);
    let domain = Domain::new(options, &options.board.move_graph());
    let mut blocking = Vec::with_capacity(vars.squares);
    loop {
        let satisfiable = sink
            .solver
            .solve()
            .map_err(|e| Error::Solver(e.to_string()))?;
        if !satisfiable {
            return Ok(found);
        }
        let tour = tour_from_solver(options, &domain, &sink)?;
        let reported: Vec<Tour> = if count.up_to_symmetry || !options.start_fixed_by_default() {
            vec![tour.clone()]
        } else {
            rotations(&tour)
        };
        for each in &reported {
            on_tour(each)?;
            found += 1;
            if found >= limit {
                return Ok(found);
            }
        }
        let blocked = if count.up_to_symmetry {
            orbit(&tour, options, &symmetries)
        } else {
            vec![tour.squares]
        };
        for variant in blocked {
            blocking.clear();
            blocking.extend(
                variant
                    .iter()
                    .enumerate()
                    .map(|(step, &square)| -> Lit { vars.x(step, square).negative() }),
            );
            use varisat::ExtendFormula;
            sink.solver.add_clause(&blocking);
        }
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

/// The board's symmetries (as square permutations) that keep the options'
/// fixed start, end and clue squares in place. A closed tour whose start was fixed
/// only by default needs no such care: its images are re-rooted at a1.
fn symmetries_keeping(options: &Options) -> Vec<Vec<usize>> {
    let clue_squares = options.clues.iter().map(|&(_, square)| square);
    let fixed: Vec<usize> = [options.start, options.end]
        .into_iter()
        .flatten()
        .chain(clue_squares)
        .collect();
    options
        .board
        .symmetries()
        .into_iter()
        .filter(|map| fixed.iter().all(|&s| map[s] == s))
        .collect()
}

/// The tours `symmetries` (and reversal, where it applies) make of `tour`,
/// each rooted as the encoding requires, without repeats.
fn orbit(tour: &Tour, options: &Options, symmetries: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut bases = vec![tour.squares.clone()];
    // A reversed tour keeps a closed tour's start, but no clue or end.
    let reversible = if options.closed {
        options.end.is_none() && options.clues.is_empty()
    } else {
        !options.is_anchored()
    };
    if reversible {
        let mut reverse = tour.squares.clone();
        if options.closed {
            reverse[1..].reverse();
        } else {
            reverse.reverse();
        }
        bases.push(reverse);
    }
    let root = options.effective_start().filter(|_| options.closed);
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
