//! An independent brute-force oracle for knight's tours: plain depth-first
//! search over its own move table, sharing no code with the library.
#![allow(dead_code)]

/// The knight-move graph of a rows x cols board, squares indexed rank * cols + file.
pub fn knight_graph(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut graph = vec![Vec::new(); rows * cols];
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            for (dr, dc) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                let (r2, c2) = (r + dr, c + dc);
                if (0..rows as i64).contains(&r2) && (0..cols as i64).contains(&c2) {
                    graph[(r * cols as i64 + c) as usize].push((r2 * cols as i64 + c2) as usize);
                }
            }
        }
    }
    graph
}

/// Whether `path` visits every square once by knight moves (and closes, if asked).
pub fn is_tour(rows: usize, cols: usize, closed: bool, path: &[usize]) -> bool {
    let n = rows * cols;
    let graph = knight_graph(rows, cols);
    let mut seen = vec![false; n];
    for &s in path {
        if s >= n || seen[s] {
            return false;
        }
        seen[s] = true;
    }
    path.len() == n
        && path.windows(2).all(|w| graph[w[0]].contains(&w[1]))
        && (!closed || (n > 1 && graph[path[n - 1]].contains(&path[0])))
}

struct Search<'a> {
    graph: &'a [Vec<usize>],
    closed: bool,
    visited: Vec<bool>,
    path: Vec<usize>,
    /// Stop after this many tours.
    limit: u64,
    found: u64,
}

impl Search<'_> {
    fn extend(&mut self) {
        let n = self.graph.len();
        let here = *self.path.last().expect("path starts non-empty");
        if self.path.len() == n {
            if !self.closed || (n > 1 && self.graph[here].contains(&self.path[0])) {
                self.found += 1;
            }
            return;
        }
        for &next in &self.graph[here] {
            if self.found >= self.limit {
                return;
            }
            if !self.visited[next] {
                self.visited[next] = true;
                self.path.push(next);
                self.extend();
                self.path.pop();
                self.visited[next] = false;
            }
        }
    }
}

/// Number of tours (sequences of squares) starting on `start`, up to `limit`.
pub fn count_from(rows: usize, cols: usize, closed: bool, start: usize, limit: u64) -> u64 {
    let graph = knight_graph(rows, cols);
    let mut search = Search {
        graph: &graph,
        closed,
        visited: vec![false; rows * cols],
        path: vec![start],
        limit,
        found: 0,
    };
    search.visited[start] = true;
    search.extend();
    search.found
}

/// Whether a tour exists, from `start` or from any square. A closed tour
/// can be rotated to start anywhere, so one start square decides it.
pub fn tour_exists(rows: usize, cols: usize, closed: bool, start: Option<usize>) -> bool {
    match start {
        Some(start) => count_from(rows, cols, closed, start, 1) > 0,
        None if closed => count_from(rows, cols, closed, 0, 1) > 0,
        None => (0..rows * cols).any(|s| count_from(rows, cols, closed, s, 1) > 0),
    }
}

/// Every board with rows <= cols and at most `max_squares` squares.
pub fn small_boards(max_squares: usize) -> Vec<(usize, usize)> {
    (1..=max_squares)
        .flat_map(|rows| (rows..=max_squares / rows).map(move |cols| (rows, cols)))
        .collect()
}
