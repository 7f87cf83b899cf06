//! Count policy, in one room: how a count of the whole problem goes,
//! decided from what the job asks alone (by the frontier counter, by one
//! search that lists the tours, or cube by cube on many threads; or
//! refused for the board's size), and the steps [`Method::Auto`] counts
//! by: the frontier counter where it is the fastest, orbits up to a
//! limit, and an open count split by its ends.

use crate::model::problem::Problem;
use crate::runtime::memory::bytes_of_mib;
use crate::solve::auto::{every_tour_step, Step};
use crate::solve::{Method, Request};

/// What a count of the whole problem asks, as far as its way of counting
/// goes: the facts [`way`] decides from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WholeCount {
    /// The method asked for, once "auto means SAT" is applied
    /// ([`Method::chosen`]).
    pub asked: Method,
    /// The method the route counts by ([`Method::Auto`] resolved).
    pub route: Method,
    /// Every tour is heard one by one.
    pub listing: bool,
    /// Orbits are counted, not tours.
    pub orbits: bool,
    /// The count stops at a limit.
    pub limit: bool,
    /// One thread is asked for (or none given) and no cube depth.
    pub one_thread: bool,
    /// The board is too large for the time-indexed encoding, which SAT
    /// counts by and which numbers backtracking's cubes.
    pub past_encoding: bool,
}

/// The way a count of the whole problem goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// Refused for the board's size (once the gate has had its chance to
    /// prove there is no tour).
    Refused,
    /// The frontier counter, its states split between threads.
    Frontier,
    /// One search that lists every tour (or orbit).
    OneSearch,
    /// Cube by cube, on many threads.
    Cubes,
}

/// The way `count` goes.
///
/// Backtracking counts by cubes on any number of threads: its cube counter
/// skips building and verifying each tour, which listing them one by one
/// (for orbits, limits and listeners) needs. Cubes are numbered by the
/// time-indexed encoding: on a board too large for it, `--method backtrack`
/// on one thread counts in one search, as with a limit. The default route
/// refuses such a board instead, naming that way out: a search of thousands
/// of squares that nobody asked for by name would not end. SAT is refused
/// there whatever was asked.
pub(crate) fn way(count: WholeCount) -> Way {
    let one_search_past_encoding =
        count.asked == Method::Backtrack && count.one_thread && count.past_encoding;
    let lists_each_tour = count.listing || count.orbits || count.limit;
    let cubes_by_backtracking =
        count.route == Method::Backtrack && !lists_each_tour && !one_search_past_encoding;
    if count.past_encoding && (count.route == Method::Sat || cubes_by_backtracking) {
        Way::Refused
    } else if count.route == Method::Frontier {
        Way::Frontier
    } else if count.listing || (count.one_thread && !cubes_by_backtracking) {
        Way::OneSearch
    } else {
        Way::Cubes
    }
}

/// The step [`Method::Auto`] lists the orbits of `problem`'s tours with
/// when it stops at a limit: SAT for closed tours, whose search blocks
/// each orbit whole as it finds it, where backtracking would wade through
/// tours that are not the least of their orbits (the least turns each
/// image to start on the tour's first square, which the search cannot
/// tell from a prefix): on boards from 6x8 it found no 5 orbits in 20 s,
/// SAT in under 0.1 s (docs/notebook.md, "Orbits up to a limit").
/// Otherwise the step that lists every tour ([`every_tour_step`]).
pub(crate) fn orbits_up_to_limit_step(problem: &Problem, request: &Request) -> Step {
    let step = every_tour_step(problem, request);
    if step.method == Method::Backtrack && problem.is_closed() {
        return every_tour_by(problem, Method::Sat, &step.request);
    }
    step
}

/// The method and request [`Method::Auto`] counts `problem`'s tours with
/// when only their number is wanted (a plain `count`: no tour listed,
/// compared or counted up to a limit): the frontier counter where it is
/// the fastest ([`frontier_is_fastest`]), else the step that enumerates
/// them ([`every_tour_step`]).
pub(crate) fn tally_step(problem: &Problem, request: &Request) -> Step {
    let step = every_tour_step(problem, request);
    if step.method == Method::Backtrack && frontier_is_fastest(problem) {
        return Step {
            method: Method::Frontier,
            ..step
        };
    }
    step
}

/// Whether the frontier counter counts this plain problem faster than
/// backtracking, by the rule `scripts/bench-auto.sh` measured
/// (docs/notebook.md, "The default route" and "Meeting in the middle"):
/// the frontier's cost grows with the board's width and length,
/// backtracking's with the number of tours, which grows much faster along
/// the board. The frontier spans about as many files of the short side as
/// the leaper's longer leg (a knight's two): up to four knight files wide
/// it wins on every board; wider, on every board for closed tours (square
/// ones meet in the middle: 6x6 closed ties, and 8x8 closed takes minutes
/// where backtracking would take days), and for open ones with no end
/// fixed on boards of 30 squares or more up to seven knight files wide
/// (meeting in the middle; on 5x5 open backtracking is faster) or longer by
/// two ranks, and for open ones with an end fixed on boards of 36 squares
/// or more up to eight knight files wide (both halves of the meet know the
/// fixed ends: 7x8 from a1 to b1 in 21 s where backtracking passes a
/// minute, 6x6 from a1 0.20 s against 0.27 s). An open count with no end
/// fixed eight knight files wide is split by its ends, or on a square board
/// within a large budget counted whole ([`splits_by_ends`]): 8x8 in hours,
/// where backtracking would take years.
fn frontier_is_fastest(problem: &Problem) -> bool {
    let (short, long, reach) = sides_and_reach(problem);
    if short * reach <= 8 {
        return true;
    }
    let no_end_fixed = problem.start().is_none() && problem.end().is_none();
    problem.is_closed()
        || eight_files_open(problem)
        || (no_end_fixed && short * reach <= 14 && short * long >= 30)
        || (!no_end_fixed && short * reach <= 16 && short * long >= 36)
        || long >= short + 2
}

/// The board's short and long sides and the leaper's longer leg (at
/// least 1): the frontier spans about `short * reach` files.
fn sides_and_reach(problem: &Problem) -> (usize, usize, usize) {
    let board = problem.board();
    (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
        board.leaper().lengths().1.max(1),
    )
}

/// The memory budget, in MiB, from which an open count with no end fixed on
/// a square board eight knight files wide is counted in one piece rather
/// than split by its ends ([`splits_by_ends`]): the budget the whole 8x8
/// count was measured within (docs/notebook.md, "Paths by where their
/// ends lie").
pub(crate) const WHOLE_SQUARE_EIGHT_FILES_MIB: u64 = 20_000;

/// Whether the frontier counter, in its default order, splits a whole
/// count of `problem` by its ends by itself, within a memory budget of
/// `budget_bytes`: one count per class of end pairs under the board's
/// symmetries, each with both ends fixed. It does where one piece
/// outgrows the budget and the classes do not: an open count with no end
/// given on a board eight knight files wide and at most twice as long
/// ([`eight_files_open`]), unless the board is square and the budget
/// holds the whole count ([`WHOLE_SQUARE_EIGHT_FILES_MIB`]). Each class,
/// with both ends fixed, is the size of a cycle count (8x8: 136 classes
/// of about 2 to 10 minutes and at most 3 GB each; docs/notebook.md,
/// "Every open 8x8 tour by its ends", after Chernov and Stertenbrink,
/// 2014); the whole 8x8 count, meeting in the middle by where the ends
/// lie, takes far less time than the classes' sum but more memory than
/// the default budget.
pub(crate) fn splits_by_ends(problem: &Problem, budget_bytes: u64) -> bool {
    let (short, long, _) = sides_and_reach(problem);
    let holds_the_whole = budget_bytes >= bytes_of_mib(WHOLE_SQUARE_EIGHT_FILES_MIB);
    eight_files_open(problem) && !(short == long && holds_the_whole)
}

/// An open count with no end given, on a board eight knight files wide
/// (the short side times the leaper's longer leg is 15 or 16) and at most
/// twice as long as wide: where the open count meeting in the middle with
/// its ends anywhere needs far more than memory (8x8: about 1.8 TB
/// projected). Seven knight files and fewer meet in the middle in one
/// piece, faster than their classes would (7x8 open: 97 s; its class from
/// a1 to b1 alone takes 8 s, and it has some 200).
fn eight_files_open(problem: &Problem) -> bool {
    let (short, long, reach) = sides_and_reach(problem);
    !problem.is_closed()
        && problem.start().is_none()
        && problem.end().is_none()
        && problem.clues().is_empty()
        && (15..=16).contains(&(short * reach))
        && long <= 2 * short
}

/// The step that finds every tour of `problem` by `method`: for
/// [`Method::Auto`] its [`every_tour_step`], for any other method that
/// method with `request` as given.
pub(crate) fn every_tour_by(problem: &Problem, method: Method, request: &Request) -> Step {
    match method {
        Method::Auto => every_tour_step(problem, request),
        method => Step {
            method,
            request: request.clone(),
            rivals: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{splits_by_ends, WHOLE_SQUARE_EIGHT_FILES_MIB};
    use super::{way, Way, WholeCount};
    use crate::model::board::{Board, Leaper};
    use crate::model::problem::Problem;
    use crate::runtime::memory::{bytes_of_mib, DEFAULT_MEMORY_BUDGET_MIB};
    use crate::solve::Method;

    const PLAIN: WholeCount = WholeCount {
        asked: Method::Auto,
        route: Method::Backtrack,
        listing: false,
        orbits: false,
        limit: false,
        one_thread: false,
        past_encoding: false,
    };

    /// Every combination a count of the whole problem can send, with the
    /// way the table below gives it: the table names each rule by a row,
    /// the rest follow from the first row that matches.
    #[test]
    fn each_count_goes_the_way_its_row_says() {
        use Method::{Auto, Backtrack, Frontier, Sat};
        // (asked, route) pairs a job can hold: auto resolves to any route,
        // a named method is its own route.
        let methods = [
            (Auto, Sat),
            (Auto, Backtrack),
            (Auto, Frontier),
            (Sat, Sat),
            (Backtrack, Backtrack),
            (Frontier, Frontier),
        ];
        let mut seen = 0;
        for (asked, route) in methods {
            for bits in 0..32u32 {
                let bit = |n: u32| bits & (1 << n) != 0;
                let count = WholeCount {
                    asked,
                    route,
                    listing: bit(0),
                    orbits: bit(1),
                    limit: bit(2),
                    one_thread: bit(3),
                    past_encoding: bit(4),
                };
                assert_eq!(way(count), expected(count), "{count:?}");
                seen += 1;
            }
        }
        assert_eq!(seen, 6 * 32);
    }

    /// The ways, as a table of rules read top to bottom: the first row
    /// whose condition holds gives the way.
    fn expected(c: WholeCount) -> Way {
        let lists = c.listing || c.orbits || c.limit;
        let named_backtracking_alone = c.asked == Method::Backtrack && c.one_thread;
        let rows: [(bool, Way); 7] = [
            // SAT numbers its variables by the encoding.
            (c.past_encoding && c.route == Method::Sat, Way::Refused),
            // Cubes are numbered by the encoding; one search by name is not.
            (
                c.past_encoding
                    && c.route == Method::Backtrack
                    && !lists
                    && !named_backtracking_alone,
                Way::Refused,
            ),
            // The frontier counter has no cubes and no encoding.
            (c.route == Method::Frontier, Way::Frontier),
            // Listing is one search, however many threads.
            (c.listing, Way::OneSearch),
            // Backtracking's count goes by cubes unless each tour is
            // listed or it is past the encoding.
            (
                c.route == Method::Backtrack && !lists && !c.past_encoding,
                Way::Cubes,
            ),
            // SAT, orbits and limits on one thread: one search.
            (c.one_thread, Way::OneSearch),
            // Many threads or a depth: cubes.
            (true, Way::Cubes),
        ];
        rows.into_iter()
            .find_map(|(holds, way)| holds.then_some(way))
            .unwrap()
    }

    /// The rows that matter most, spelt out.
    #[test]
    fn the_plain_counts_go_their_known_ways() {
        assert_eq!(way(PLAIN), Way::Cubes);
        let one_thread = WholeCount {
            one_thread: true,
            ..PLAIN
        };
        assert_eq!(
            way(one_thread),
            Way::Cubes,
            "backtracking's tally goes by cubes"
        );
        let listed = WholeCount {
            listing: true,
            ..PLAIN
        };
        assert_eq!(way(listed), Way::OneSearch);
        let huge = WholeCount {
            past_encoding: true,
            ..PLAIN
        };
        assert_eq!(way(huge), Way::Refused);
        let huge_by_name = WholeCount {
            asked: Method::Backtrack,
            one_thread: true,
            ..huge
        };
        assert_eq!(way(huge_by_name), Way::OneSearch);
        let frontier = WholeCount {
            route: Method::Frontier,
            past_encoding: true,
            ..PLAIN
        };
        assert_eq!(way(frontier), Way::Frontier);
        let sat = WholeCount {
            route: Method::Sat,
            ..PLAIN
        };
        assert_eq!(way(sat), Way::Cubes);
        assert_eq!(
            way(WholeCount {
                one_thread: true,
                ..sat
            }),
            Way::OneSearch
        );
    }

    fn open(rows: usize, cols: usize, leaper: (usize, usize)) -> Problem {
        let leaper = Leaper::new(leaper.0, leaper.1).unwrap();
        Problem::new(Board::new(rows, cols).unwrap().with_leaper(leaper))
    }

    /// Eight knight files wide, at most twice as long, open with no end
    /// given: split by the ends, unless square within a budget that holds
    /// the whole count; anything else: one piece.
    #[test]
    fn open_counts_eight_knight_files_wide_split_by_their_ends() {
        let knight = (1, 2);
        let budget = DEFAULT_MEMORY_BUDGET_MIB;
        let large = WHOLE_SQUARE_EIGHT_FILES_MIB;
        for (rows, cols, leaper, budget, split) in [
            (8, 8, knight, large, false),
            (8, 8, knight, large - 1, true),
            (8, 9, knight, large, true),
            (5, 5, (1, 3), large, false),
            (5, 5, (1, 3), budget, true),
        ] {
            let problem = open(rows, cols, leaper);
            assert_eq!(
                splits_by_ends(&problem, bytes_of_mib(budget)),
                split,
                "{rows}x{cols} {leaper:?} within {budget} MiB"
            );
        }
        for (rows, cols, leaper, split) in [
            (8, 8, knight, true),
            (8, 9, knight, true),
            (16, 8, knight, true),
            (8, 17, knight, false),
            (7, 8, knight, false),
            (8, 7, knight, false),
            (9, 9, knight, false),
            (5, 6, (2, 3), true),
            (4, 8, (1, 4), true),
            (4, 9, (1, 4), false),
        ] {
            let problem = open(rows, cols, leaper);
            assert_eq!(
                splits_by_ends(&problem, bytes_of_mib(budget)),
                split,
                "{rows}x{cols} {leaper:?}"
            );
        }
        let eight = open(8, 8, knight);
        assert!(
            !splits_by_ends(&eight.clone().closed(true), bytes_of_mib(large)),
            "closed"
        );
        assert!(
            !splits_by_ends(
                &eight.clone().with_start(Some(0)).unwrap(),
                bytes_of_mib(budget)
            ),
            "a start"
        );
        assert!(
            !splits_by_ends(&eight.with_end(Some(63)).unwrap(), bytes_of_mib(budget)),
            "an end"
        );
    }
}
