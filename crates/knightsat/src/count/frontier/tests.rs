//! The frontier counter's tests: counts against published tables and
//! brute force, parts, ends, orders and limits.

use super::ends::{early_image, end_classes, EndClass, OrderPositions};
use super::*;
use crate::model::board::{Board, Leaper};

/// The problem of a `rows` x `cols` board without the cells `holes`,
/// for the `(a, b)`-leaper, from its first square when `from_first`.
fn problem(
    (rows, cols): (usize, usize),
    holes: &[usize],
    (a, b): (usize, usize),
    closed: bool,
    from_first: bool,
) -> Problem {
    let exists: Vec<bool> = (0..rows * cols)
        .map(|cell| !holes.contains(&cell))
        .collect();
    let board = Board::with_cells(rows, cols, &exists).with_leaper(Leaper::new(a, b).unwrap());
    Problem::new(board)
        .closed(closed)
        .with_start(from_first.then_some(0))
        .unwrap()
}

/// A board: its shape, holes and leaper.
type Case = ((usize, usize), Vec<usize>, (usize, usize));

/// For each leaper but the knight too, the boards of `rows` ranks and
/// at most `cells` squares, with each of the hole sets `holes(rows,
/// cols)` whose cells are on the board.
fn holed_boards(
    rows: std::ops::RangeInclusive<usize>,
    cells: usize,
    holes: impl Fn(usize, usize) -> Vec<Vec<usize>>,
) -> Vec<Case> {
    let mut cases = Vec::new();
    for leaper in [(1, 2), (1, 3), (2, 3)] {
        for rows in rows.clone() {
            for cols in rows..=cells / rows {
                for set in holes(rows, cols) {
                    if set.iter().all(|&cell| cell < rows * cols) {
                        cases.push(((rows, cols), set, leaper));
                    }
                }
            }
        }
    }
    cases
}

/// Calls `check` with each problem of `cases` (open and closed, from
/// any start and from the first square unless it is a hole), in each
/// order of the squares, and words naming them.
fn each_problem(cases: Vec<Case>, mut check: impl FnMut(&Problem, SquareOrder, &str)) {
    for (shape, holes, leaper) in cases {
        for (closed, from_first) in [(false, false), (false, true), (true, false), (true, true)] {
            if holes.contains(&0) && from_first {
                continue;
            }
            let problem = problem(shape, &holes, leaper, closed, from_first);
            for order in [SquareOrder::Rows, SquareOrder::Snake, SquareOrder::Meet] {
                let named = format!(
                    "{shape:?} holes {holes:?} leaper {leaper:?} closed {closed} from a1 {from_first} {order:?}"
                );
                check(&problem, order, &named);
            }
        }
    }
}

/// Fails if anything is left in `dir`.
fn assert_empty(dir: &std::path::Path) {
    let left: Vec<_> = dir.read_dir().unwrap().collect();
    assert!(left.is_empty(), "{left:?} left behind");
}

/// Every board of the frontier oracle's test (all of at most 30
/// squares, open and closed, from any start and from the first; those of
/// at most 20 with holes and other leapers) counts the same with every
/// table spilled to disk as soon as it holds more than a few states as
/// it does in memory, in every order of the squares and on one and two
/// threads; and no file is left behind.
#[test]
fn counts_spilled_to_disk_equal_counts_in_memory() {
    let parent = crate::count::frontier::spill::test_parent();
    let mut cases: Vec<Case> = (1..=30)
        .flat_map(|rows| (rows..=30 / rows).map(move |cols| ((rows, cols), vec![], (1, 2))))
        .collect();
    cases.extend(holed_boards(2..=20, 20, |rows, cols| {
        let cells = rows * cols;
        let sets = vec![vec![0], vec![cells - 1, cells / 2], vec![1, cols + 2]];
        if cells > 4 {
            sets
        } else {
            Vec::new()
        }
    }));
    let (mut compared, mut spilled, mut nonzero) = (0, 0, 0);
    each_problem(cases, |problem, order, named| {
        let jobs = 1 + compared % 2;
        let in_memory = Options {
            jobs,
            order,
            ..Options::default()
        };
        let want = count(problem, &in_memory).unwrap();
        let dir = SpillDir::eager(parent.path(), 3);
        let on_disk = Options {
            spill: Some(&dir),
            ..in_memory
        };
        let got = count(problem, &on_disk).unwrap();
        assert_eq!(got, want, "{named} on {jobs} threads");
        compared += 1;
        spilled += usize::from(dir.most() > 0);
        nonzero += usize::from(!want.is_zero());
        assert_eq!(dir.on_disk(), 0);
    });
    assert!(compared > 1900, "{compared}");
    assert!(
        spilled >= nonzero && nonzero >= 90,
        "{spilled} spilled, {nonzero} with tours"
    );
    assert_empty(parent.path());
}

/// The counts of the `of` parts of `problem` split `by`, with
/// `options` otherwise, and their sum.
fn parts_and_sum(
    problem: &Problem,
    options: &Options,
    of: usize,
    by: PartSplit,
) -> (Vec<TourNumber>, TourNumber) {
    let parts: Vec<TourNumber> = (0..of)
        .map(|index| {
            let part = Some(Part {
                index,
                of,
                by,
                top_first: false,
            });
            count(problem, &Options { part, ..*options }).unwrap()
        })
        .collect();
    let sum = parts
        .iter()
        .try_fold(TourNumber::ZERO, |sum, &part| sum.checked_add(part))
        .unwrap();
    (parts, sum)
}

/// A count in K parts adds up to the whole for K = 1, 2, 3 and 7, on
/// boards with holes and without, open and closed, with a start and
/// without, in every order (meeting in the middle splits by the
/// degrees of the cut, forward by the states of the middle step), on
/// one and two threads, and spilled; and the parts split the tours
/// (for K > 1, at least two parts have some on most boards with tours).
#[test]
fn counts_in_parts_add_up_to_the_whole() {
    let parent = crate::count::frontier::spill::test_parent();
    let mut cases = vec![
        ((5, 6), vec![], (1, 2)),
        ((6, 6), vec![0, 35], (1, 2)),
        ((5, 7), vec![17], (1, 2)),
        ((6, 6), vec![14], (1, 2)),
        ((4, 7), vec![1, 9], (1, 2)),
        ((3, 10), vec![], (1, 2)),
        ((4, 6), vec![], (1, 2)),
        ((5, 5), vec![], (1, 2)),
    ];
    cases.extend(holed_boards(3..=5, 24, |rows, cols| {
        let cells = rows * cols;
        vec![vec![cells - 1, cells / 2], vec![1, cols + 2]]
    }));
    let (mut summed, mut splittable, mut split) = (0, 0, 0);
    each_problem(cases, |problem, order, named| {
        let whole_options = Options {
            jobs: 1 + summed % 2,
            order,
            ..Options::default()
        };
        let whole = count(problem, &whole_options).unwrap();
        for of in [1, 2, 3, 7] {
            // Every seventh sum spilled, every table on disk.
            let dir = SpillDir::eager(parent.path(), 3);
            let spill = (summed % 7 == 0).then_some(&dir);
            let options = Options {
                spill,
                ..whole_options
            };
            let (parts, sum) = parts_and_sum(problem, &options, of, PartSplit::States);
            assert_eq!(sum, whole, "{named} in {of} parts {parts:?}");
            summed += 1;
            if of > 1 && !whole.is_zero() {
                splittable += 1;
                split += usize::from(parts.iter().filter(|p| !p.is_zero()).count() > 1);
            }
        }
    });
    assert!(summed > 2000, "{summed}");
    assert!(
        splittable >= 100 && split * 4 >= splittable * 3,
        "{split} of {splittable} with tours split"
    );
    assert_empty(parent.path());
}

/// An open count split by its ends ([`PartSplit::Ends`]) in K parts
/// adds up to the whole for K = 1, 2, 3 and 7, and, where there are
/// at most 64 classes of ends, for one and two parts a class and one
/// more (the classes then split by their states), on boards with holes and
/// without, for each leaper, from any start and from a given one, in
/// each order of the squares; the parts split the tours; and a closed
/// count, which has no ends, is all in its first part.
#[test]
fn counts_split_by_their_ends_add_up_to_the_whole() {
    let mut cases = vec![
        ((5, 5), vec![], (1, 2)),
        ((5, 6), vec![], (1, 2)),
        ((6, 6), vec![0, 35], (1, 2)),
        ((4, 7), vec![1, 9], (1, 2)),
        ((3, 4), vec![], (1, 2)),
        ((1, 1), vec![], (1, 2)),
    ];
    cases.extend(holed_boards(3..=4, 16, |rows, cols| {
        vec![vec![], vec![rows * cols - 1]]
    }));
    let (mut summed, mut splittable, mut split) = (0, 0, 0);
    let (mut class_shared, mut class_split) = (0, 0);
    each_problem(cases, |problem, order, named| {
        let whole_options = Options {
            jobs: 1 + summed % 2,
            order,
            ..Options::default()
        };
        let whole = count(problem, &whole_options).unwrap();
        // Past as many parts as classes, the parts that share a class
        // split it by its states.
        let classes =
            CellGraph::new(problem.board()).map_or(0, |graph| end_classes(problem, &graph).len());
        let shared = (classes <= 64).then_some([classes + 1, 2 * classes + 1]);
        let few = [1, 2, 3, 7].map(|of| (of, false));
        let many = shared.into_iter().flatten().map(|of| (of, true));
        for (of, past_classes) in few.into_iter().chain(many) {
            let (parts, sum) = parts_and_sum(problem, &whole_options, of, PartSplit::Ends);
            assert_eq!(sum, whole, "{named} in {of} parts by ends {parts:?}");
            summed += 1;
            if past_classes {
                // A class with tours, shared by parts 1 and 1 + classes.
                let first = [parts[0], parts[classes % of]];
                if !problem.is_closed() && first.iter().any(|p| !p.is_zero()) {
                    class_shared += 1;
                    class_split += usize::from(!parts[0].is_zero() && !parts[classes].is_zero());
                }
            } else if of > 1 && !whole.is_zero() && !problem.is_closed() {
                splittable += 1;
                split += usize::from(parts.iter().filter(|p| !p.is_zero()).count() > 1);
            } else if problem.is_closed() {
                assert!(parts[1..].iter().all(|p| p.is_zero()), "{named}");
            }
        }
    });
    assert!(summed > 500, "{summed}");
    assert!(
        splittable >= 50 && split * 3 >= splittable * 2,
        "{split} of {splittable} with tours split"
    );
    assert!(
        class_shared >= 30 && class_split * 2 >= class_shared,
        "{class_split} of {class_shared} first classes split by their states"
    );
}

/// The end pairs of 8x8 fall into the 136 classes Chernov and
/// Stertenbrink counted (the 32 x 32 pairs of opposite colours under
/// the 8 symmetries), standing for every such pair once; from a corner,
/// the other end's 32 squares of the other colour, none of them on the
/// corner's diagonal, fall into 16 pairs under the diagonal mirror.
#[test]
fn the_end_pairs_of_8x8_make_136_classes() {
    let board = Board::new(8, 8).unwrap();
    let graph = CellGraph::new(&board).unwrap();
    let open = Problem::new(board.clone());
    let classes = end_classes(&open, &graph);
    assert_eq!(classes.len(), 136);
    assert_eq!(classes.iter().map(|c| c.pairs).sum::<u64>(), 32 * 32);
    assert!(classes.iter().all(|c| c.ways == 2));
    let corner = open.with_start(Some(0)).unwrap();
    let classes = end_classes(&corner, &graph);
    assert_eq!(classes.len(), 16);
    assert_eq!(classes.iter().map(|c| c.pairs).sum::<u64>(), 32);
    assert!(classes.iter().all(|c| c.ways == 1 && c.start == 0));
}

/// Each class of 8x8 end pairs is counted by an image of its own pair
/// under the board's symmetries, with both ends before the middle of
/// the counter's order whenever an image has them there: 104 of the
/// 136 classes (the other 32 have one end in each half however the
/// board is turned); from a given start, that start stays an end.
#[test]
fn each_class_of_ends_is_counted_by_an_image_with_both_ends_early_where_one_has() {
    let board = Board::new(8, 8).unwrap();
    let graph = CellGraph::new(&board).unwrap();
    let (lines, _) = Lines::best(&graph, false);
    let at = |sq: usize| {
        let cell = CellGraph::cell_of(&board, sq);
        lines.squares.iter().position(|&c| c == cell).unwrap()
    };
    let early = |(s, e): (usize, usize)| at(s) < 32 && at(e) < 32;
    for start in [None, Some(0)] {
        let problem = Problem::new(board.clone()).with_start(start).unwrap();
        let symmetries = problem.symmetries();
        let images = |class: &EndClass| -> Vec<(usize, usize)> {
            symmetries
                .iter()
                .flat_map(|map| {
                    [
                        (map[class.start], map[class.end]),
                        (map[class.end], map[class.start]),
                    ]
                })
                .collect()
        };
        let mut counted_early = 0;
        for class in end_classes(&problem, &graph) {
            let chosen = early_image(&class, &symmetries, &OrderPositions::new(&board, &lines));
            assert!(images(&class).contains(&chosen), "{class:?} as {chosen:?}");
            assert_eq!(
                early(chosen),
                images(&class).into_iter().any(early),
                "{class:?}"
            );
            if let Some(s) = start {
                assert!(chosen.0 == s || chosen.1 == s, "{class:?} as {chosen:?}");
            }
            counted_early += usize::from(early(chosen));
        }
        if start.is_none() {
            assert_eq!(counted_early, 104);
        }
    }
}

/// Past the oracle's boards, where the tables hold thousands of states:
/// spilled whenever they pass a budget of 24 KiB on one thread (96 KiB
/// on two, whose tables take turns), the buckets too large to merge
/// within it split again, counts equal those in memory.
#[test]
fn counts_spilled_past_a_small_budget_equal_counts_in_memory() {
    let parent = crate::count::frontier::spill::test_parent();
    for (shape, closed) in [
        ((5, 6), false),
        ((6, 6), true),
        ((4, 8), false),
        ((6, 7), true),
    ] {
        let problem = problem(shape, &[], (1, 2), closed, false);
        for (order, jobs, budget) in [(SquareOrder::Rows, 1, 24), (SquareOrder::Snake, 2, 96)] {
            let in_memory = Options {
                jobs,
                order,
                ..Options::default()
            };
            let want = count(&problem, &in_memory).unwrap();
            let dir = SpillDir::new(parent.path());
            let on_disk = Options {
                spill: Some(&dir),
                memory_budget: Some(budget << 10),
                ..in_memory
            };
            assert_eq!(
                count(&problem, &on_disk),
                Ok(want),
                "{shape:?} {closed} {order:?}"
            );
            assert!(
                dir.most() > budget << 10,
                "{shape:?}: {} bytes on disk",
                dir.most()
            );
            // Without a directory, the same budget is refused.
            let refused = count(
                &problem,
                &Options {
                    spill: None,
                    ..on_disk
                },
            );
            assert!(
                matches!(refused, Err(FrontierError::OverMemory { .. })),
                "{refused:?}"
            );
        }
    }
    assert_empty(parent.path());
}

/// The whole count's place in `checkpoint`.
fn saving(checkpoint: &crate::count::checkpoint::Checkpoint) -> Saving<'_> {
    Saving {
        checkpoint,
        name: "count",
    }
}

/// What a count gives when it is stopped after `stop_after` steps with a
/// checkpoint in `dir` that saves at every boundary, then run again
/// through from that checkpoint (`None` when it finished before the
/// stop); and whether the second run went on from saved states.
fn stopped_and_gone_on(
    problem: &Problem,
    options: &Options,
    dir: &std::path::Path,
    stop_after: usize,
) -> Option<(TourNumber, bool)> {
    use crate::count::checkpoint::Checkpoint;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let open = || {
        Checkpoint::open(dir, "test", std::time::Duration::ZERO)
            .unwrap()
            .at_every_boundary()
    };
    let first = open();
    let stop = AtomicBool::new(false);
    let steps = AtomicUsize::new(0);
    let progress = |_: SquareProgress| {
        if steps.fetch_add(1, Ordering::Relaxed) + 1 >= stop_after {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let stopped = count(
        problem,
        &Options {
            stop: Some(&stop),
            progress: Some(&progress),
            saving: Some(saving(&first)),
            ..*options
        },
    );
    match stopped {
        Err(FrontierError::Stopped) => {}
        Ok(_) => {
            first.finish().unwrap();
            return None;
        }
        Err(e) => panic!("{e}"),
    }
    assert!(first.report().states_written > 0 || first.report().pieces_read == 0);
    drop(first);
    let again = open();
    let tours = count(
        problem,
        &Options {
            saving: Some(saving(&again)),
            ..*options
        },
    )
    .unwrap();
    let from_states = again.report().states_read.is_some();
    again.finish().unwrap();
    Some((tours, from_states))
}

/// A count stopped after its first steps or after each fifth of them,
/// then run again from its checkpoint,
/// gives the count run through: counts met in the middle (cycles, paths
/// by where their ends lie, paths from a fixed start), split by their
/// ends, in parts of either split, with holes and another leaper, on one
/// and two threads; and counts processed forward, their tables in memory
/// or on disk, their counts widened to 128 and 256 bits; and the
/// checkpoint is gone once the count is done.
#[test]
fn counts_stopped_at_any_step_go_on_from_their_checkpoint_to_the_same_count() {
    let parent = tempfile::tempdir().unwrap();
    let (mut resumed, mut from_states) = (0, 0);
    let spill = SpillDir::eager(parent.path(), 3);
    let (auto, rows, snake) = (SquareOrder::Auto, SquareOrder::Rows, SquareOrder::Snake);
    let (states, ends) = (Some(PartSplit::States), Some(PartSplit::Ends));
    let cases = [
        ((4, 6), vec![], (1, 2), false, false, None, false, auto),
        ((5, 6), vec![], (1, 2), true, false, None, false, auto),
        ((5, 5), vec![], (1, 2), false, true, None, false, auto),
        ((4, 6), vec![0, 23], (1, 2), false, false, None, false, auto),
        ((5, 6), vec![], (2, 3), false, false, None, false, auto),
        ((4, 5), vec![], (1, 2), false, false, None, true, auto),
        ((4, 6), vec![], (1, 2), false, false, states, false, auto),
        ((4, 6), vec![], (1, 2), false, false, ends, false, auto),
        // Forward: in memory, on disk, and widened past 64 and 128 bits.
        ((4, 6), vec![], (1, 2), false, false, None, false, rows),
        ((5, 6), vec![], (1, 2), true, false, None, false, snake),
        ((5, 5), vec![], (1, 2), false, false, states, false, rows),
        ((3, 110), vec![], (1, 2), true, false, None, false, rows),
    ];
    for (case, (shape, holes, leaper, closed, from_first, split, by_ends, order)) in
        cases.into_iter().enumerate()
    {
        let problem = problem(shape, &holes, leaper, closed, from_first);
        let parts: Vec<Option<Part>> = match split {
            None => vec![None],
            Some(by) => (0..3)
                .map(|index| {
                    Some(Part {
                        index,
                        of: 3,
                        by,
                        top_first: false,
                    })
                })
                .collect(),
        };
        for part in parts {
            // One thread or two, case by case.
            for jobs in [1 + case % 2] {
                let options = Options {
                    jobs,
                    part,
                    by_ends,
                    order,
                    // One forward count keeps its tables on disk.
                    spill: (order == snake).then_some(&spill),
                    ..Options::default()
                };
                let steps = std::sync::atomic::AtomicUsize::new(0);
                let step = |_: SquareProgress| {
                    steps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                };
                let through = Options {
                    progress: Some(&step),
                    ..options
                };
                let want = count(&problem, &through).unwrap();
                let steps = steps.into_inner();
                let dir = parent.path().join("checkpoint");
                let before = resumed;
                // The first steps, the last, and every fifth of the way.
                let mut stops: Vec<usize> = (1..5).map(|fifth| steps * fifth / 5).collect();
                stops.extend([1, 2, steps.saturating_sub(1)]);
                stops.retain(|&stop| stop >= 1);
                stops.sort_unstable();
                stops.dedup();
                for stop_after in stops {
                    let Some((got, states)) =
                        stopped_and_gone_on(&problem, &options, &dir, stop_after)
                    else {
                        // The join, the last step, does not stop.
                        assert!(
                            stop_after + 1 >= steps,
                            "stopped after {stop_after} of {steps} steps, it finished"
                        );
                        continue;
                    };
                    assert_eq!(
                        got, want,
                        "{shape:?} holes {holes:?} {leaper:?} closed {closed} part {part:?} by ends {by_ends} on {jobs} threads, stopped after {stop_after} steps"
                    );
                    assert!(!dir.exists(), "a finished count left its checkpoint");
                    resumed += 1;
                    from_states += usize::from(states);
                }
                assert!(resumed - before >= 4, "{shape:?}: {steps} steps");
            }
        }
    }
    assert!(resumed > 80, "{resumed}");
    assert!(from_states * 2 > resumed, "{from_states} of {resumed}");
}
