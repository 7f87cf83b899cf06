//! How a count of the whole problem goes, decided from what the job asks
//! alone: by the frontier counter, by one search that lists the tours, or
//! cube by cube on many threads; or refused for the board's size.

use crate::solve::Method;

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

#[cfg(test)]
mod tests {
    use super::{way, Way, WholeCount};
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
}
