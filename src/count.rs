//! Counting and enumerating tours by incremental solving with blocking clauses.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Blocking clauses range over the x
//! variables only, so auxiliary variables never multiply the count.

use crate::encoding::EncodingConfig;
use crate::error::Error;
use crate::problem::Problem;
use crate::solve::Session;
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

/// Finds every tour of `problem` (or one per orbit), calling `on_tour`
/// for each as it is found; returns how many were found.
///
/// A closed tour with no start or end given is searched from a1 (every
/// closed tour can be rotated to start there) and each one found is reported
/// in all its N rotations, so the count stays that of sequences.
pub fn enumerate(
    problem: &Problem,
    config: &EncodingConfig,
    count: CountOptions,
    mut on_tour: impl FnMut(&Tour) -> Result<(), Error>,
) -> Result<u64, Error> {
    // Symmetry breaking would drop tours from the count; orbits keep one
    // tour each, which it may rightly choose.
    let config = if count.up_to_symmetry {
        config.clone()
    } else {
        config.keeping_every_tour()
    };
    let limit = count.limit.unwrap_or(u64::MAX);
    let mut found = 0u64;
    // A theorem that rules out every tour answers at once, on any size.
    if limit == 0 || no_tour_because(problem).is_some() {
        return Ok(0);
    }
    let encoding = config.prepare(problem)?;
    let mut session = Session::new(encoding)?;
    let symmetries = problem.symmetries();
    while let Some(tour) = session.next_tour()? {
        let reported: Vec<Tour> = if count.up_to_symmetry || !problem.start_fixed_by_default() {
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
        if count.up_to_symmetry {
            for variant in orbit(&tour, problem, &symmetries) {
                session.block(&variant);
            }
        } else {
            session.block(&tour.squares);
        }
    }
    Ok(found)
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
        let mut reverse = tour.squares.clone();
        if problem.is_closed() {
            reverse[1..].reverse();
        } else {
            reverse.reverse();
        }
        bases.push(reverse);
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
