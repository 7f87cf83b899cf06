//! The board as a graph, the order in which its squares are processed, and
//! for each step which frontier slots the new square touches, which squares
//! leave the frontier and how many unprocessed neighbours the others keep.
//!
//! Everything here depends on the board only, never on a state: the engine
//! reads it once per step and applies it to every state of that step.

use crate::count::frontier::{FrontierError, SquareOrder};
use crate::graph::{MoveGraph, UNREACHED};
use crate::model::board::Board;

/// The most squares a board may have (rows × cols, holes included).
pub(crate) const MAX_SQUARES: usize = 1 << 20;

/// The leaper graph of a board with holes, by cell: squares are original
/// indices (`row * cols + col`), holes have no neighbours. The moves are
/// the library's one [`MoveGraph`], over the board's squares; this is its
/// view by cell, which frontier states number their slots by.
pub(crate) struct CellGraph {
    /// Rows of the board as given.
    pub rows: usize,
    /// Columns of the board as given.
    pub cols: usize,
    /// `true` for squares that are holes.
    pub hole: Vec<bool>,
    /// The moves between the board's squares (square indices).
    moves: MoveGraph,
    /// The square index of each cell; `u32::MAX` for a hole.
    square_of_cell: Vec<u32>,
    /// The cell of each square index.
    cell_of_square: Vec<usize>,
}

impl CellGraph {
    /// The graph of `board`'s leaper by cell; refuses a board of more
    /// cells than the counter numbers ([`MAX_SQUARES`]).
    pub(crate) fn new(board: &Board) -> Result<CellGraph, FrontierError> {
        let (rows, cols) = (board.rows(), board.cols());
        let cells = rows * cols;
        if cells > MAX_SQUARES {
            return Err(FrontierError::TooManySquares {
                squares: cells,
                max: MAX_SQUARES,
            });
        }
        let cell_of_square: Vec<usize> = (0..board.squares())
            .map(|index| CellGraph::cell_of(board, index))
            .collect();
        let mut square_of_cell = vec![u32::MAX; cells];
        for (index, &cell) in cell_of_square.iter().enumerate() {
            square_of_cell[cell] = index as u32;
        }
        Ok(CellGraph {
            rows,
            cols,
            hole: square_of_cell
                .iter()
                .map(|&square| square == u32::MAX)
                .collect(),
            moves: MoveGraph::new(board),
            square_of_cell,
            cell_of_square,
        })
    }

    /// The cell of `board`'s square `index`.
    pub(crate) fn cell_of(board: &Board, index: usize) -> usize {
        let square = board.square(index);
        square.rank * board.cols() + square.file
    }

    /// The graph of the (a, b)-leaper on a `rows` x `cols` board without
    /// the cells `holes`, for the tests.
    #[cfg(test)]
    pub(crate) fn of(rows: usize, cols: usize, holes: &[usize], leap: (usize, usize)) -> CellGraph {
        use crate::model::board::{Leaper, Square};
        let rectangle = Board::new(rows, cols).unwrap();
        let names: Vec<String> = holes
            .iter()
            .map(|&cell| {
                let square = Square {
                    file: cell % cols,
                    rank: cell / cols,
                };
                rectangle.name(rectangle.index_at(square).unwrap())
            })
            .collect();
        let board = rectangle
            .with_holes(&names)
            .unwrap()
            .with_leaper(Leaper::new(leap.0, leap.1).unwrap());
        CellGraph::new(&board).unwrap()
    }

    /// The squares that are not holes, in index order.
    pub(crate) fn squares(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.hole.len()).filter(|&s| !self.hole[s])
    }

    /// The cells a move away from `cell` (none for a hole).
    pub(crate) fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let list: &[u32] = match self.square_of_cell[cell] {
            u32::MAX => &[],
            square => self.moves.neighbours(square as usize),
        };
        list.iter().map(|&to| self.cell_of_square[to as usize])
    }

    /// How many cells are a move away from `cell`.
    pub(crate) fn degree(&self, cell: usize) -> usize {
        match self.square_of_cell[cell] {
            u32::MAX => 0,
            square => self.moves.degree(square as usize),
        }
    }

    /// Whether every square can reach every other.
    pub(crate) fn is_connected(&self) -> bool {
        self.moves.nodes() == 0
            || self
                .moves
                .distances_from(&[0])
                .iter()
                .all(|&distance| distance != UNREACHED)
    }

    /// A proper two-colouring (+1 / −1 per square, 0 on holes) if the graph
    /// is bipartite: by the parity of the distance from the first square
    /// of each component, in the one breadth-first search.
    pub(crate) fn two_colouring(&self) -> Option<Vec<i8>> {
        let mut colour = vec![0i8; self.hole.len()];
        for root in 0..self.moves.nodes() {
            if colour[self.cell_of_square[root]] != 0 {
                continue;
            }
            for (square, distance) in self.moves.bfs(&[root]) {
                colour[self.cell_of_square[square]] = if distance % 2 == 0 { 1 } else { -1 };
            }
        }
        let proper = self
            .squares()
            .all(|cell| self.neighbours(cell).all(|to| colour[to] != colour[cell]));
        proper.then_some(colour)
    }

    /// Whether squares `a` and `b` are a leaper move apart.
    pub(crate) fn is_move(&self, a: usize, b: usize) -> bool {
        a < self.hole.len() && self.neighbours(a).any(|to| to == b)
    }
}

/// An unprocessed square that has fewer than two unprocessed neighbours, so
/// depends on frontier squares that can still take an edge.
pub(crate) struct Watch {
    /// Bit `4j` for each kept slot `j` that is a neighbour (as in
    /// [`crate::count::frontier::state::first_slots`]).
    pub slots: u128,
    /// Its unprocessed neighbours.
    pub unprocessed: u8,
    /// Whether it is a fixed path end (it needs one edge, not two).
    pub fixed_end: bool,
}

/// What the engine does when one square is added.
pub(crate) struct SquareStep {
    /// Slots (indices into the frontier before the step) of the new square's
    /// neighbours that were processed before it.
    pub back: Vec<u8>,
    /// Slots of the extended frontier (old frontier, then the new square
    /// last) that leave the frontier after this step, ascending.
    pub departs: Vec<u8>,
    /// Slots of the extended frontier that stay, ascending: the frontier
    /// after the step, in this order.
    pub keep: Vec<u8>,
    /// Whether the graph is bipartite: `class_slots` and `capacity` split
    /// by colour class.
    pub bipartite: bool,
    /// Edges still needed by the unprocessed squares (2 each, 1 for a fixed
    /// path end), per colour class: `[+1 class, −1 class]`; on a graph that
    /// is not bipartite, all in the first.
    pub capacity: [i32; 2],
    /// The most tour edges that can join two unprocessed squares: the
    /// graph's edges among them, and fewer than their number (they lie on
    /// paths of the tour).
    pub inner_edges: i32,
    /// Bit `4j` for each kept slot `j`.
    pub kept_slots: u128,
    /// Kept slots by colour class, `[+1 (or uncoloured), −1]`, as bits `4j`.
    pub class_slots: [u128; 2],
    /// Kept slots with fewer than two unprocessed neighbours, as bits `4j`.
    pub short_slots: u128,
    /// Whether the new square is a fixed path end (it takes exactly one edge).
    pub fixed_end: bool,
    /// Unprocessed squares with fewer than two unprocessed neighbours that
    /// neighbour the frontier.
    pub watch: Vec<Watch>,
    /// Whether this is the last square of the order.
    pub last: bool,
    /// When the squares processed so far are their own mirror image
    /// across the middle of the lines the order takes, and no path end is
    /// fixed: for each kept slot, the slot of its square's mirror image.
    /// A state and its mirror image then have the same completions (the
    /// mirror is an automorphism of the graph that keeps the processed
    /// squares), so only the smaller of the two packed words need be kept,
    /// with both counts: about half the states from the first line on.
    pub mirror: Option<Vec<u8>>,
}

/// The processing order and its steps.
pub(crate) struct Schedule {
    /// One step per square, in processing order.
    pub steps: Vec<SquareStep>,
    /// The widest frontier kept between two steps.
    pub width: usize,
}

/// A line-by-line order of the squares.
pub(crate) struct Lines {
    /// The squares in order.
    pub squares: Vec<usize>,
    /// How many lines it takes, and how long they are.
    pub shape: (usize, usize),
}

impl Lines {
    /// The better of the two line-by-line orders (the board as given, or
    /// transposed), every other line reversed with `snake`: the one whose
    /// widest frontier is smaller, the frontier spanning the shorter side
    /// on a tie; with the mirror image of each cell across the middle of
    /// its lines, when the holes allow it.
    pub(crate) fn best(graph: &CellGraph, snake: bool) -> (Lines, Option<Vec<usize>>) {
        let (rows, cols) = (
            row_major(graph, false, snake),
            row_major(graph, true, snake),
        );
        // Widths first, by a sweep: building the plan along the long side
        // of 4x3000 (a frontier of 6000 squares) took minutes.
        let (rows_width, cols_width) = (frontier_width(graph, &rows), frontier_width(graph, &cols));
        if (cols_width, graph.rows > graph.cols) < (rows_width, graph.cols > graph.rows) {
            let lines = Lines {
                squares: cols,
                shape: (graph.cols, graph.rows),
            };
            (lines, line_mirror(graph, true))
        } else {
            let lines = Lines {
                squares: rows,
                shape: (graph.rows, graph.cols),
            };
            (lines, line_mirror(graph, false))
        }
    }
}

impl Schedule {
    /// The plan for the better of the two line-by-line orders (the board
    /// as given, or transposed), each line taken as `order` says: the one
    /// whose widest frontier is smaller, the frontier spanning the shorter
    /// side on a tie. `fixed_ends` are the squares that must be path ends.
    /// [`SquareOrder::Diagonal`] takes the anti-diagonals instead.
    pub(crate) fn best(graph: &CellGraph, fixed_ends: &[usize], order: SquareOrder) -> Schedule {
        if order == SquareOrder::Diagonal {
            return Schedule::build(graph, &diagonal_sweep(graph), fixed_ends, None);
        }
        let (order, mirror) = Lines::best(graph, order == SquareOrder::Snake);
        Schedule::build(graph, &order.squares, fixed_ends, mirror.as_deref())
    }

    /// The plan for processing `order` (every non-hole square once);
    /// `mirror`, the mirror image of each cell under an automorphism of the
    /// graph, lets the steps after which the processed squares are their
    /// own image keep one state of each mirror pair ([`SquareStep::mirror`]).
    pub(crate) fn build(
        graph: &CellGraph,
        order: &[usize],
        fixed_ends: &[usize],
        mirror: Option<&[usize]>,
    ) -> Schedule {
        let mirror = mirror.filter(|_| fixed_ends.is_empty());
        let (position, last_neighbour) = positions(graph, order);
        let colouring = graph.two_colouring();
        let colour_of = |sq: usize| colouring.as_ref().map_or(0, |c| c[sq]);
        let need = |sq: usize| if fixed_ends.contains(&sq) { 1 } else { 2 };
        let class = |sq: usize| usize::from(colour_of(sq) < 0);
        let mut capacity = [0i32, 0];
        for &sq in order {
            capacity[class(sq)] += need(sq);
        }
        // Graph edges among unprocessed squares: all of them at first.
        let mut inner = edges_among(graph, order);
        let mut frontier: Vec<usize> = Vec::new(); // positions, ascending
        let mut steps = Vec::with_capacity(order.len());
        let mut width = 0;
        // Processed squares whose mirror image is not processed yet.
        let mut unmatched = 0usize;
        for (t, &sq) in order.iter().enumerate() {
            if let Some(twin) = mirror.map(|m| m[sq]).filter(|&twin| twin != sq) {
                if position[twin] < t {
                    unmatched -= 1;
                } else {
                    unmatched += 1;
                }
            }
            let back = frontier
                .iter()
                .enumerate()
                .filter(|&(_, &p)| graph.is_move(order[p], sq))
                .map(|(i, _)| slot(i))
                .collect();
            frontier.push(t);
            capacity[class(sq)] -= need(sq);
            inner -= i32::try_from(graph.neighbours(sq).filter(|&n| position[n] > t).count())
                .unwrap_or(i32::MAX);
            let unprocessed = i32::try_from(order.len() - t - 1).unwrap_or(i32::MAX);
            let mut departs = Vec::new();
            let (mut keep, mut remaining, mut colour) = (Vec::new(), Vec::new(), Vec::new());
            for (i, &p) in frontier.iter().enumerate() {
                if last_neighbour[p] <= t {
                    departs.push(slot(i));
                    continue;
                }
                keep.push(slot(i));
                let later = graph.neighbours(order[p]).filter(|&n| position[n] > t);
                remaining.push(u8::try_from(later.count()).unwrap_or(u8::MAX));
                colour.push(colour_of(order[p]));
            }
            frontier.retain(|&p| last_neighbour[p] > t);
            let last = t + 1 == order.len();
            let mirror_slots = mirror
                .filter(|_| unmatched == 0 && !last)
                .and_then(|m| mirror_slots(m, order, &frontier));
            let watch = watch_list(graph, order, &position, &frontier, t, fixed_ends);
            width = width.max(frontier.len());
            let (kept_slots, class_slots, short_slots) = slot_masks(&remaining, &colour);
            steps.push(SquareStep {
                back,
                departs,
                keep,
                bipartite: colouring.is_some(),
                capacity,
                inner_edges: inner.min((unprocessed - 1).max(0)),
                kept_slots,
                class_slots,
                short_slots,
                fixed_end: fixed_ends.contains(&sq),
                watch,
                last,
                mirror: mirror_slots,
            });
        }
        Schedule { steps, width }
    }
}

/// Each cell's position in `order` (`usize::MAX` for a hole), and for
/// each position the position of the square's last-processed neighbour.
fn positions(graph: &CellGraph, order: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut position = vec![usize::MAX; graph.hole.len()];
    for (p, &sq) in order.iter().enumerate() {
        position[sq] = p;
    }
    let last_neighbour = order
        .iter()
        .map(|&sq| graph.neighbours(sq).map(|n| position[n]).max().unwrap_or(0))
        .collect();
    (position, last_neighbour)
}

/// The graph's edges among the squares of `order`.
fn edges_among(graph: &CellGraph, order: &[usize]) -> i32 {
    order
        .iter()
        .map(|&sq| i32::try_from(graph.degree(sq)).unwrap_or(i32::MAX))
        .sum::<i32>()
        / 2
}

/// The masks of a step's kept slots (a nibble each, the first 32): all of
/// them, those of each colour class (`colour`: each kept slot's colour,
/// negative for the second class), and those with fewer than two moves
/// still to come (`remaining`).
fn slot_masks(remaining: &[u8], colour: &[i8]) -> (u128, [u128; 2], u128) {
    let slot_bits = |select: &dyn Fn(usize) -> bool| -> u128 {
        (0..remaining.len().min(32))
            .filter(|&j| select(j))
            .fold(0, |bits, j| bits | 1u128 << (4 * j))
    };
    (
        slot_bits(&|_| true),
        [
            slot_bits(&|j| colour[j] >= 0),
            slot_bits(&|j| colour[j] < 0),
        ],
        slot_bits(&|j| remaining[j] < 2),
    )
}

/// The mirror image of each cell across the middle of the lines of a
/// line-by-line order (ranks, or files when `transposed`), if the holes
/// are their own mirror image: then it maps leaper moves to leaper moves.
fn line_mirror(graph: &CellGraph, transposed: bool) -> Option<Vec<usize>> {
    let (rows, cols) = (graph.rows, graph.cols);
    let image: Vec<usize> = (0..rows * cols)
        .map(|cell| {
            let (row, col) = (cell / cols, cell % cols);
            if transposed {
                (rows - 1 - row) * cols + col
            } else {
                row * cols + (cols - 1 - col)
            }
        })
        .collect();
    (0..rows * cols)
        .all(|cell| graph.hole[cell] == graph.hole[image[cell]])
        .then_some(image)
}

/// For each slot of `frontier` (positions in `order`), the slot of its
/// square's mirror image; `None` if one is missing (the frontier of a
/// processed set that is its own image never misses one) or if every
/// slot is its own image (nothing to gain).
fn mirror_slots(mirror: &[usize], order: &[usize], frontier: &[usize]) -> Option<Vec<u8>> {
    let slots = frontier
        .iter()
        .map(|&p| {
            let twin = mirror[order[p]];
            frontier.iter().position(|&q| order[q] == twin).map(slot)
        })
        .collect::<Option<Vec<u8>>>()?;
    slots
        .iter()
        .enumerate()
        .any(|(j, &k)| usize::from(k) != j)
        .then_some(slots)
}

/// The widest frontier of processing `order`: the most squares processed
/// with a neighbour still to come after any step, as [`Schedule::build`]
/// measures it, in time linear in the board.
pub(crate) fn frontier_width(graph: &CellGraph, order: &[usize]) -> usize {
    let mut position = vec![usize::MAX; graph.hole.len()];
    for (p, &sq) in order.iter().enumerate() {
        position[sq] = p;
    }
    // Square p is on the frontier after steps p up to its last neighbour's, excluded.
    let mut change = vec![0i64; order.len() + 1];
    for (p, &sq) in order.iter().enumerate() {
        let last = graph.neighbours(sq).map(|n| position[n]).max().unwrap_or(0);
        if last > p {
            change[p] += 1;
            change[last] -= 1;
        }
    }
    let mut on_frontier = 0i64;
    let mut widest = 0;
    for delta in change {
        on_frontier += delta;
        widest = widest.max(on_frontier);
    }
    usize::try_from(widest).unwrap_or(0)
}

/// The unprocessed squares after step `t` with fewer than two unprocessed
/// neighbours and at least one in `frontier` (positions, as kept).
fn watch_list(
    graph: &CellGraph,
    order: &[usize],
    position: &[usize],
    frontier: &[usize],
    t: usize,
    fixed_ends: &[usize],
) -> Vec<Watch> {
    // Only unprocessed neighbours of the frontier can be watched: looking
    // at them alone, in processing order, keeps a step linear in the
    // frontier (scanning every later square made 4x3000 quadratic: minutes).
    let mut near: Vec<usize> = frontier
        .iter()
        .flat_map(|&p| graph.neighbours(order[p]))
        .filter(|&n| position[n] > t)
        .collect();
    near.sort_unstable_by_key(|&n| position[n]);
    near.dedup();
    let mut watch = Vec::new();
    for u in near {
        let unprocessed = graph.neighbours(u).filter(|&n| position[n] > t).count();
        if unprocessed >= 2 {
            continue;
        }
        let mut slots = 0u128;
        for (j, &p) in frontier.iter().enumerate() {
            if j < 32 && graph.is_move(order[p], u) {
                slots |= 1 << (4 * j);
            }
        }
        if slots != 0 {
            watch.push(Watch {
                slots,
                unprocessed: u8::try_from(unprocessed).unwrap_or(u8::MAX),
                fixed_end: fixed_ends.contains(&u),
            });
        }
    }
    watch
}

/// A frontier slot index as stored in a step (frontiers wider than the
/// engine's limit are refused before any state is built, so this saturates
/// only on plans that are never run).
fn slot(i: usize) -> u8 {
    u8::try_from(i).unwrap_or(u8::MAX)
}

/// The squares (not holes) anti-diagonal by anti-diagonal from a1: by rank
/// plus file, then by rank.
fn diagonal_sweep(graph: &CellGraph) -> Vec<usize> {
    let mut order: Vec<usize> = graph.squares().collect();
    order.sort_by_key(|&cell| {
        let (rank, file) = (cell / graph.cols, cell % graph.cols);
        (rank + file, rank)
    });
    order
}

/// The non-hole squares in row-major order of the board, or of the
/// transposed board (column by column) when `transposed`; with `snake`,
/// every other line is taken the other way (a boustrophedon).
pub(crate) fn row_major(graph: &CellGraph, transposed: bool, snake: bool) -> Vec<usize> {
    let (outer, inner) = if transposed {
        (graph.cols, graph.rows)
    } else {
        (graph.rows, graph.cols)
    };
    let mut order = Vec::new();
    for o in 0..outer {
        for i in 0..inner {
            let i = if snake && o % 2 == 1 {
                inner - 1 - i
            } else {
                i
            };
            let sq = if transposed {
                i * graph.cols + o
            } else {
                o * graph.cols + i
            };
            if !graph.hole[sq] {
                order.push(sq);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The knight's frontier on a board 8 wide is two rows and a square:
    /// squares leave it once their last neighbour (two rows on, one column
    /// right) is processed.
    #[test]
    fn knight_frontier_on_eight_wide_board_is_seventeen() {
        let g = CellGraph::of(8, 8, &[], (1, 2));
        let plan = Schedule::best(&g, &[], SquareOrder::Rows);
        assert_eq!(plan.width, 17);
        assert_eq!(plan.steps.len(), 64);
    }

    #[test]
    fn the_sweep_measures_the_width_the_plan_has() {
        for (rows, cols, holes, leap) in [
            (8, 8, vec![], (1, 2)),
            (3, 11, vec![4], (1, 2)),
            (5, 7, vec![0, 17], (1, 3)),
            (6, 4, vec![], (2, 3)),
        ] {
            let g = CellGraph::of(rows, cols, &holes, leap);
            for transposed in [false, true] {
                let order = row_major(&g, transposed, false);
                assert_eq!(
                    frontier_width(&g, &order),
                    Schedule::build(&g, &order, &[], None).width,
                    "{rows}x{cols} {holes:?} {leap:?} transposed={transposed}"
                );
            }
        }
    }

    /// On a board with no fixed end and holes that are their own mirror
    /// image, the steps that end a line (and only those, the last aside)
    /// carry the mirror of their slots, an involution; a fixed end or a
    /// lopsided hole leaves none.
    #[test]
    fn lines_ends_carry_the_mirror_of_the_frontier() {
        let g = CellGraph::of(8, 8, &[], (1, 2));
        let plan = Schedule::best(&g, &[], SquareOrder::Rows);
        let mirrored: Vec<usize> = (0..64)
            .filter(|&t| plan.steps[t].mirror.is_some())
            .collect();
        assert_eq!(mirrored, vec![7, 15, 23, 31, 39, 47, 55]);
        for t in mirrored {
            let m = plan.steps[t].mirror.as_ref().unwrap();
            assert_eq!(m.len(), plan.steps[t].keep.len());
            assert!(
                (0..m.len()).all(|j| usize::from(m[usize::from(m[j])]) == j),
                "{t}"
            );
        }
        let snake = Schedule::best(&g, &[], SquareOrder::Snake);
        assert_eq!(snake.steps.iter().filter(|s| s.mirror.is_some()).count(), 7);
        let fixed = Schedule::best(&g, &[0], SquareOrder::Rows);
        assert!(fixed.steps.iter().all(|s| s.mirror.is_none()));
        let lopsided = CellGraph::of(8, 8, &[10], (1, 2));
        let plan = Schedule::best(&lopsided, &[], SquareOrder::Rows);
        assert!(plan.steps.iter().all(|s| s.mirror.is_none()));
        let even = CellGraph::of(8, 8, &[10, 13, 50, 53], (1, 2));
        let plan = Schedule::best(&even, &[], SquareOrder::Rows);
        assert!(plan.steps.iter().any(|s| s.mirror.is_some()));
    }

    /// A leaper's moves are its eight offsets, fewer when a is b or 0:
    /// the degrees of a square far from the edges, and of a corner.
    #[test]
    fn a_leaper_has_its_distinct_moves_by_cell() {
        let centre = 3 * 7 + 3;
        for (leap, degree) in [((1, 2), 8), ((1, 1), 4), ((0, 1), 4), ((2, 3), 8)] {
            let g = CellGraph::of(7, 7, &[], leap);
            assert_eq!(g.degree(centre), degree, "{leap:?}");
            assert!(g.neighbours(centre).all(|to| g.is_move(to, centre)));
        }
        let knight = CellGraph::of(8, 8, &[], (1, 2));
        assert_eq!(knight.neighbours(0).collect::<Vec<_>>().len(), 2);
        let holed = CellGraph::of(8, 8, &[10], (1, 2));
        assert_eq!(holed.degree(0), 1, "a1's move to c2 (cell 10) is gone");
        assert_eq!(holed.degree(10), 0);
        assert!(knight.two_colouring().is_some());
    }

    /// The processing order runs along the longer side: on a 10x3 board
    /// and on a 3x10 board alike the frontier spans the side of 3.
    #[test]
    fn frontier_spans_the_shorter_side() {
        for (rows, cols) in [(10, 3), (3, 10)] {
            let g = CellGraph::of(rows, cols, &[], (1, 2));
            let along_rows = Schedule::build(&g, &row_major(&g, false, false), &[], None).width;
            let along_cols = Schedule::build(&g, &row_major(&g, true, false), &[], None).width;
            assert_eq!(
                Schedule::best(&g, &[], SquareOrder::Rows).width,
                along_rows.min(along_cols)
            );
            assert_eq!(Schedule::best(&g, &[], SquareOrder::Rows).width, 7);
        }
    }
}
