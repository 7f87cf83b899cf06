//! The move graph: the board's squares, joined where the leaper moves
//! between them, built once from a [`Board`] and shared by every search,
//! check and encoding that walks it; and breadth-first search on it.
//!
//! The graph is compact (CSR): one list of every node's neighbours, node
//! after node, and where each node's part begins, as 32-bit indices (a
//! board has at most 2²² cells, so at most 2²⁵ moves). Nodes are square
//! indices; [`MoveGraph::with_twin`] adds one more node for searches that
//! want a copy of a square (the end of a closed tour, which returns to its
//! start).

use std::ops::Range;

use crate::model::board::Board;

/// The distance [`MoveGraph::distances_from`] gives a node no sequence of
/// moves reaches.
pub const UNREACHED: u32 = u32::MAX;

/// The order of each node's neighbours.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// The leaper's fixed move order (see [`Board::moves`]).
    Moves,
    /// Ascending square index.
    Ascending,
}

/// The move graph of a board (see the [module](self) docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveGraph {
    /// Where each node's neighbours begin in `targets`, and after the last
    /// node where they end: nodes + 1 entries.
    offsets: Vec<u32>,
    /// Every node's neighbours, node after node.
    targets: Vec<u32>,
}

impl MoveGraph {
    /// The move graph of `board`, each square's neighbours in the leaper's
    /// fixed move order (as [`Board::moves`] gives them), which searches
    /// follow.
    pub(crate) fn new(board: &Board) -> MoveGraph {
        Self::build(board, Order::Moves, || false).expect("nothing stops the build")
    }

    /// The move graph of `board`, each square's neighbours in ascending
    /// order of their indices, which encodings number moves by.
    pub(crate) fn ascending(board: &Board) -> MoveGraph {
        Self::build(board, Order::Ascending, || false).expect("nothing stops the build")
    }

    /// [`MoveGraph::new`], unless `stop` (asked once a square) says to give
    /// up first.
    pub(crate) fn new_unless(board: &Board, stop: impl FnMut() -> bool) -> Option<MoveGraph> {
        Self::build(board, Order::Moves, stop)
    }

    fn build(board: &Board, order: Order, mut stop: impl FnMut() -> bool) -> Option<MoveGraph> {
        if let Some(graph) = board.graph() {
            // A graph's neighbours are ascending, which is its move order.
            let n = graph.vertices();
            let mut offsets = Vec::with_capacity(n + 1);
            let mut targets = Vec::with_capacity(2 * graph.edges());
            offsets.push(0);
            for v in 0..n {
                targets.extend_from_slice(graph.neighbours(v));
                offsets.push(targets.len() as u32);
            }
            return Some(MoveGraph { offsets, targets });
        }
        let deltas = board.leaper().deltas();
        let n = board.squares();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * deltas.len());
        offsets.push(0);
        for s in 0..n {
            if stop() {
                return None;
            }
            let from = board.square(s);
            let begin = targets.len();
            targets.extend(
                deltas
                    .iter()
                    .filter_map(|&delta| board.leap(from, delta))
                    .map(|to| to as u32),
            );
            if order == Order::Ascending {
                targets[begin..].sort_unstable();
            }
            offsets.push(targets.len() as u32);
        }
        Some(MoveGraph { offsets, targets })
    }

    /// This graph with one node more, numbered after the others: a twin of
    /// `node`, joined to the same neighbours (last in each of their lists),
    /// but not to `node` itself.
    #[must_use]
    pub(crate) fn with_twin(&self, node: usize) -> MoveGraph {
        let twin = self.nodes() as u32;
        let joined = self.neighbours(node);
        let mut offsets = Vec::with_capacity(self.offsets.len() + 1);
        let mut targets = Vec::with_capacity(self.targets.len() + 2 * joined.len());
        offsets.push(0);
        for v in 0..self.nodes() {
            targets.extend_from_slice(self.neighbours(v));
            if joined.contains(&(v as u32)) {
                targets.push(twin);
            }
            offsets.push(targets.len() as u32);
        }
        targets.extend_from_slice(joined);
        offsets.push(targets.len() as u32);
        MoveGraph { offsets, targets }
    }

    /// The number of nodes: the board's squares (and a twin, if added).
    pub(crate) fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of moves, each way counted: the sum of the degrees.
    pub(crate) fn arcs(&self) -> usize {
        self.targets.len()
    }

    /// The neighbours of `node`: the nodes one move away.
    pub(crate) fn neighbours(&self, node: usize) -> &[u32] {
        &self.targets[self.arcs_of(node)]
    }

    /// Where the moves out of `node` are in the list of all [`arcs`](Self::arcs):
    /// the k-th neighbour's move is number `arcs_of(node).start + k`.
    pub(crate) fn arcs_of(&self, node: usize) -> Range<usize> {
        self.offsets[node] as usize..self.offsets[node + 1] as usize
    }

    /// The number of neighbours of `node`.
    pub(crate) fn degree(&self, node: usize) -> usize {
        (self.offsets[node + 1] - self.offsets[node]) as usize
    }

    /// Breadth-first search from `sources` (each at distance 0), node by
    /// node in order of distance.
    pub(crate) fn bfs(&self, sources: &[usize]) -> Bfs<'_> {
        let mut distance = vec![UNREACHED; self.nodes()];
        let mut queue = Vec::with_capacity(self.nodes());
        for &source in sources {
            if distance[source] == UNREACHED {
                distance[source] = 0;
                queue.push(source as u32);
            }
        }
        Bfs {
            graph: self,
            distance,
            queue,
            head: 0,
            limit: UNREACHED,
        }
    }

    /// The fewest moves from the nearest of `sources` to every node
    /// ([`UNREACHED`] where no sequence of moves leads).
    pub(crate) fn distances_from(&self, sources: &[usize]) -> Vec<u32> {
        self.bfs(sources).into_distances()
    }

    /// The two sides of a connected bipartite graph (node 0's side
    /// `false`), or `None` for a graph that is not bipartite or not
    /// connected, or when `stop` (asked once a node) says to give up.
    pub(crate) fn sides_unless(&self, mut stop: impl FnMut() -> bool) -> Option<Vec<bool>> {
        if self.nodes() == 0 {
            return Some(Vec::new());
        }
        let mut reached = 0;
        let mut side = vec![false; self.nodes()];
        for (v, distance) in self.bfs(&[0]) {
            if stop() {
                return None;
            }
            side[v] = distance % 2 == 1;
            reached += 1;
        }
        let bipartite = reached == self.nodes()
            && (0..self.nodes()).all(|v| {
                self.neighbours(v)
                    .iter()
                    .all(|&w| side[w as usize] != side[v])
            });
        bipartite.then_some(side)
    }
}

/// A breadth-first search on a [`MoveGraph`] ([`MoveGraph::bfs`]): an
/// iterator over the nodes reached, each with its distance, nearest first,
/// that a caller may stop at any node.
pub struct Bfs<'g> {
    graph: &'g MoveGraph,
    distance: Vec<u32>,
    /// Every node reached, in order; those before `head` are expanded.
    queue: Vec<u32>,
    head: usize,
    /// Nodes this far away are not expanded.
    limit: u32,
}

impl Bfs<'_> {
    /// The same search, going no further than `limit` moves from the sources.
    #[must_use]
    pub(crate) fn no_further_than(mut self, limit: usize) -> Self {
        self.limit = u32::try_from(limit).unwrap_or(UNREACHED);
        self
    }

    /// Runs the search to its end and gives every node's distance
    /// ([`UNREACHED`] for the nodes it did not reach).
    pub(crate) fn into_distances(mut self) -> Vec<u32> {
        while self.next().is_some() {}
        self.distance
    }
}

impl Iterator for Bfs<'_> {
    type Item = (usize, u32);

    fn next(&mut self) -> Option<(usize, u32)> {
        let node = *self.queue.get(self.head)? as usize;
        self.head += 1;
        let d = self.distance[node];
        if d < self.limit {
            for &w in self.graph.neighbours(node) {
                if self.distance[w as usize] == UNREACHED {
                    self.distance[w as usize] = d + 1;
                    self.queue.push(w);
                }
            }
        }
        Some((node, d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::board::Leaper;

    #[test]
    fn neighbours_are_the_moves_in_move_order_or_ascending() {
        for (rows, cols) in [(1, 1), (3, 4), (5, 5), (8, 8)] {
            let board = Board::new(rows, cols).unwrap();
            let graph = MoveGraph::new(&board);
            let sorted = MoveGraph::ascending(&board);
            assert_eq!(graph.nodes(), board.squares());
            for s in 0..board.squares() {
                let moves: Vec<u32> = board.moves(s).map(|w| w as u32).collect();
                assert_eq!(graph.neighbours(s), moves);
                assert_eq!(graph.degree(s), moves.len());
                let mut ascending = moves.clone();
                ascending.sort_unstable();
                assert_eq!(sorted.neighbours(s), ascending);
            }
            assert_eq!(graph.arcs(), sorted.arcs());
        }
    }

    #[test]
    fn sides_are_the_colours_of_a_connected_bipartite_graph_only() {
        // A knight changes colour every move: on 3x4 the sides are the
        // colours (a1's side false); a (1,1)-leaper never leaves its
        // colour, so its graph is disconnected.
        let board = Board::new(3, 4).unwrap();
        let sides = MoveGraph::new(&board).sides_unless(|| false).unwrap();
        assert_eq!(sides, (0..12).map(|s| board.colour(s)).collect::<Vec<_>>());
        let bishop = board.clone().with_leaper(Leaper::new(1, 1).unwrap());
        assert_eq!(MoveGraph::new(&bishop).sides_unless(|| false), None);
        // A triangle is connected and not bipartite; a path is.
        let graph = |edges: &[(usize, usize)]| {
            let graph = crate::model::graph::Graph::new(3, edges).unwrap();
            MoveGraph::new(&Board::from_graph(graph))
        };
        assert_eq!(
            graph(&[(1, 2), (2, 3), (1, 3)]).sides_unless(|| false),
            None
        );
        assert_eq!(
            graph(&[(1, 2), (2, 3)]).sides_unless(|| false),
            Some(vec![false, true, false])
        );
        // Told to stop, it gives up.
        assert_eq!(MoveGraph::new(&board).sides_unless(|| true), None);
    }

    #[test]
    fn a_twin_joins_its_squares_neighbours_last() {
        let board = Board::new(3, 4).unwrap();
        let graph = MoveGraph::new(&board);
        let twin = graph.with_twin(0);
        let n = board.squares();
        assert_eq!(twin.nodes(), n + 1);
        assert_eq!(twin.neighbours(n), graph.neighbours(0));
        for v in 0..n {
            let mut expected = graph.neighbours(v).to_vec();
            if graph.neighbours(0).contains(&(v as u32)) {
                expected.push(n as u32);
            }
            assert_eq!(twin.neighbours(v), expected);
        }
    }

    #[test]
    fn distances_count_the_fewest_moves() {
        let board = Board::new(8, 8).unwrap();
        let graph = MoveGraph::new(&board);
        let a1 = board.parse_square("a1").unwrap();
        let h8 = board.parse_square("h8").unwrap();
        let b3 = board.parse_square("b3").unwrap();
        let distance = graph.distances_from(&[a1]);
        assert_eq!(distance[a1], 0);
        assert_eq!(distance[b3], 1);
        assert_eq!(distance[h8], 6);
        let both = graph.distances_from(&[a1, h8]);
        assert_eq!(both[h8], 0);
        assert!(both.iter().zip(&distance).all(|(b, d)| b <= d));
        // Nearest first, and a limit stops the search there.
        let order: Vec<u32> = graph.bfs(&[a1]).map(|(_, d)| d).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(order.len(), 64);
        assert!(graph.bfs(&[a1]).no_further_than(2).all(|(_, d)| d <= 2));
        // The bishop-like (1, 1)-leaper never reaches the other colour.
        let dabbaba = Board::new(4, 4)
            .unwrap()
            .with_leaper(Leaper::new(1, 1).unwrap());
        let far = MoveGraph::new(&dabbaba).distances_from(&[0]);
        assert_eq!(far[1], UNREACHED);
    }
}
