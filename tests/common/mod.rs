//! An independent brute-force oracle for knight's tours: plain depth-first
//! search over its own move table, with its own check of a tour and its own
//! symmetries. It never calls the library: it names no `knightsat` item and
//! shares no code with it. Beside it are a few helpers the tests share that
//! do not call the library either: a seeded random sequence and random
//! clues, the check of a `cubes --split` directory, and kissat's strict
//! parse of a CNF.
//!
//! The submodules are what the tests need around the oracle, and they do
//! call the library: [`adapters`] builds the library's values for the
//! oracle's boards (a [`Shape`]'s `board()`, the problem for a shape and
//! its [`Demands`], the encoding options to sweep), [`sat`] and [`count`]
//! run the library's solvers and counters, and [`cli`] runs the binary.

pub mod adapters;
pub mod cli;
pub mod count;
pub mod sat;

/// Fails with every collected disagreement listed, one per line.
pub fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The knight-move graph of a rows x cols board, squares indexed rank * cols + file.
pub fn knight_graph(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    Shape::knight(rows, cols).graph()
}

/// Whether `path` visits every square once by knight moves (and closes, if asked).
pub fn is_tour(rows: usize, cols: usize, closed: bool, path: &[usize]) -> bool {
    let demands = Demands {
        closed,
        clues: Vec::new(),
    };
    is_tour_of(&Shape::knight(rows, cols), &demands, path)
}

/// Whether a path that ends on `here`, having visited `visited`, can no
/// longer become a tour: every square still to visit needs a way in and,
/// unless it is the last square, a way out, both among the squares not yet
/// visited and `here`; so none may have no such neighbour, and at most one
/// (the last) only one. Sound for open and closed tours and under clues (a
/// closed tour is an open one first; clues only take tours away), it cuts
/// the oracle's search from minutes to a fraction of a second on 5x6.
fn stranded(graph: &[Vec<usize>], visited: &[bool], here: usize) -> bool {
    let mut last_squares = 0;
    for (square, neighbours) in graph.iter().enumerate() {
        if visited[square] {
            continue;
        }
        let ways = neighbours
            .iter()
            .filter(|&&other| other == here || !visited[other])
            .count();
        match ways {
            0 => return true,
            1 => {
                last_squares += 1;
                if last_squares > 1 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
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
        if stranded(self.graph, &self.visited, here) {
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

/// Every tour from `start` (closed or open), as square sequences.
pub fn tours_from(rows: usize, cols: usize, closed: bool, start: usize) -> Vec<Vec<usize>> {
    fn extend(
        graph: &[Vec<usize>],
        closed: bool,
        visited: &mut [bool],
        path: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let n = graph.len();
        let here = *path.last().unwrap();
        if path.len() == n {
            if !closed || (n > 1 && graph[here].contains(&path[0])) {
                out.push(path.clone());
            }
            return;
        }
        if stranded(graph, visited, here) {
            return;
        }
        for &next in &graph[here] {
            if !visited[next] {
                visited[next] = true;
                path.push(next);
                extend(graph, closed, visited, path, out);
                path.pop();
                visited[next] = false;
            }
        }
    }
    let graph = knight_graph(rows, cols);
    let mut visited = vec![false; rows * cols];
    visited[start] = true;
    let mut out = Vec::new();
    extend(&graph, closed, &mut visited, &mut vec![start], &mut out);
    out
}

/// The number of tours, as sequences of squares, from `start` or from any
/// square. Remembered: the tests of several methods ask for the same
/// boards, and the larger ones take the search seconds.
pub fn count_tours(rows: usize, cols: usize, closed: bool, start: Option<usize>) -> u64 {
    type Key = (usize, usize, bool, Option<usize>);
    static KNOWN: std::sync::Mutex<Vec<(Key, u64)>> = std::sync::Mutex::new(Vec::new());
    let key = (rows, cols, closed, start);
    let known = |key| {
        let known = KNOWN
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        known
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, count)| count)
    };
    if let Some(count) = known(key) {
        return count;
    }
    let count = match start {
        Some(s) => count_from(rows, cols, closed, s, u64::MAX),
        None => (0..rows * cols)
            .map(|s| count_from(rows, cols, closed, s, u64::MAX))
            .sum(),
    };
    KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push((key, count));
    count
}

/// The board's symmetries as square maps: 8 on a square board, 4 otherwise.
pub fn symmetries(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for transpose in [false, true] {
        if transpose && rows != cols {
            continue;
        }
        for flip_rank in [false, true] {
            for flip_file in [false, true] {
                let map = (0..rows * cols)
                    .map(|s| {
                        let (mut r, mut c) = (s / cols, s % cols);
                        if transpose {
                            std::mem::swap(&mut r, &mut c);
                        }
                        if flip_rank {
                            r = rows - 1 - r;
                        }
                        if flip_file {
                            c = cols - 1 - c;
                        }
                        r * cols + c
                    })
                    .collect();
                maps.push(map);
            }
        }
    }
    maps
}

/// The number of orbits among all tours meeting the constraints, under the
/// symmetries keeping `start` in place, reversal (closed tours, or open
/// tours with no start), and for closed tours with no start, rotation.
pub fn count_orbits(rows: usize, cols: usize, closed: bool, start: Option<usize>) -> usize {
    count_orbits_of(&Shape::knight(rows, cols), closed, start)
}

/// [`count_orbits`] on any shape: the symmetries are those of the
/// rectangle that map holes onto holes.
pub fn count_orbits_of(shape: &Shape, closed: bool, start: Option<usize>) -> usize {
    let demands = Demands {
        closed,
        clues: start.map(|s| (0, s)).into_iter().collect(),
    };
    let tours = tours_of(shape, &demands, usize::MAX);
    let maps: Vec<Vec<usize>> = square_symmetries(shape)
        .into_iter()
        .filter(|map| start.is_none_or(|s| map[s] == s))
        .collect();
    let canonical = |tour: &Vec<usize>| -> Vec<usize> {
        let mut variants = vec![tour.clone()];
        let mut reversed = tour.clone();
        reversed.reverse();
        if closed {
            // The same cycle backwards, from the same start.
            reversed.rotate_right(1);
        }
        if closed || start.is_none() {
            variants.push(reversed);
        }
        let mut best: Option<Vec<usize>> = None;
        for variant in &variants {
            for map in &maps {
                let image: Vec<usize> = variant.iter().map(|&s| map[s]).collect();
                let rotations = if closed && start.is_none() {
                    image.len()
                } else {
                    1
                };
                for k in 0..rotations {
                    let mut rotated = image.clone();
                    rotated.rotate_left(k);
                    if best.as_ref().is_none_or(|b| rotated < *b) {
                        best = Some(rotated);
                    }
                }
            }
        }
        best.expect("at least the identity")
    };
    let mut forms: Vec<Vec<usize>> = tours.iter().map(canonical).collect();
    forms.sort();
    forms.dedup();
    forms.len()
}

/// The symmetries of the rectangle that map squares onto squares (holes
/// onto holes), as maps of square numbers.
pub fn square_symmetries(shape: &Shape) -> Vec<Vec<usize>> {
    let cells = shape.cells();
    let cell_index = |cell: usize| {
        cells
            .iter()
            .position(|&c| c == (cell / shape.cols, cell % shape.cols))
    };
    symmetries(shape.rows, shape.cols)
        .into_iter()
        .filter_map(|cell_map| {
            cells
                .iter()
                .map(|&(r, c)| cell_index(cell_map[r * shape.cols + c]))
                .collect::<Option<Vec<usize>>>()
        })
        .collect()
}

/// The orbits of the tours of `shape` meeting `demands` (clues, and so a
/// start and an end, at any steps): every tour listed, and two counted as
/// one when a transform maps one onto the other. A transform is a symmetry
/// of the rectangle that keeps the holes, with or without reading the tour
/// backwards, and for closed tours turned round their cycle by any number
/// of steps; it counts when it maps the demands onto themselves, found by
/// moving the demands' pattern (the square each step must be on, where
/// one is named) exactly as a tour is moved.
pub fn count_orbits_where(shape: &Shape, demands: &Demands) -> usize {
    let tours = tours_of(shape, demands, usize::MAX);
    let n = shape.squares();
    let turns = if demands.closed { n } else { 1 };
    let moved = |steps: &[Option<usize>], map: &[usize], backwards: bool, turn: usize| {
        let mut base = steps.to_vec();
        if backwards {
            base.reverse();
        }
        base.rotate_left(turn);
        base.iter()
            .map(|square| square.map(|s| map[s]))
            .collect::<Vec<Option<usize>>>()
    };
    let mut pattern = vec![None; n];
    for &(step, square) in &demands.clues {
        pattern[step] = Some(square);
    }
    let mut transforms = Vec::new();
    for map in square_symmetries(shape) {
        for backwards in [false, true] {
            for turn in 0..turns {
                if moved(&pattern, &map, backwards, turn) == pattern {
                    transforms.push((map.clone(), backwards, turn));
                }
            }
        }
    }
    let mut forms: Vec<Vec<Option<usize>>> = tours
        .iter()
        .map(|tour| {
            let steps: Vec<Option<usize>> = tour.iter().copied().map(Some).collect();
            transforms
                .iter()
                .map(|(map, backwards, turn)| moved(&steps, map, *backwards, *turn))
                .min()
                .expect("the identity")
        })
        .collect();
    forms.sort();
    forms.dedup();
    forms.len()
}

/// A board for the oracle beyond the plain knight's rectangle: holes (by
/// cell, `rank * cols + file`) and any (a, b)-leaper. Squares are numbered
/// row-major from a1 over the cells that are not holes, as the library
/// documents its variable map. (The library's board for a shape, `board()`,
/// is in [`adapters`].)
#[derive(Clone, Debug)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub holes: Vec<usize>,
    pub leaper: (usize, usize),
}

impl Shape {
    pub fn knight(rows: usize, cols: usize) -> Shape {
        Shape {
            rows,
            cols,
            holes: Vec::new(),
            leaper: (1, 2),
        }
    }

    /// The (rank, file) of each square, in square-number order.
    pub fn cells(&self) -> Vec<(usize, usize)> {
        (0..self.rows * self.cols)
            .filter(|cell| !self.holes.contains(cell))
            .map(|cell| (cell / self.cols, cell % self.cols))
            .collect()
    }

    pub fn squares(&self) -> usize {
        self.cells().len()
    }

    /// The square number of a name like `c2`, parsed independently.
    pub fn index_of(&self, name: &str) -> usize {
        let file = (name.as_bytes()[0] - b'a') as usize;
        let rank: usize = name[1..].parse::<usize>().unwrap() - 1;
        self.cells()
            .iter()
            .position(|&cell| cell == (rank, file))
            .unwrap_or_else(|| panic!("{name} is not a square of {self:?}"))
    }

    /// Move graph by comparing every pair of squares' coordinates.
    pub fn graph(&self) -> Vec<Vec<usize>> {
        let cells = self.cells();
        let (a, b) = self.leaper;
        cells
            .iter()
            .map(|&(r1, c1)| {
                (0..cells.len())
                    .filter(|&j| {
                        let (r2, c2) = cells[j];
                        let (dr, dc) = (r1.abs_diff(r2), c1.abs_diff(c2));
                        (dr, dc) == (a, b) || (dr, dc) == (b, a)
                    })
                    .collect()
            })
            .collect()
    }
}

/// What a tour must do, for the oracle: closed or not, and (step, square)
/// clues (a start is the clue at step 0, an end the clue at step N-1).
#[derive(Clone, Debug, Default)]
pub struct Demands {
    pub closed: bool,
    pub clues: Vec<(usize, usize)>,
}

/// Whether `path` is a tour of `shape` meeting `demands`.
pub fn is_tour_of(shape: &Shape, demands: &Demands, path: &[usize]) -> bool {
    let graph = shape.graph();
    let n = graph.len();
    let mut seen = vec![false; n];
    for &s in path {
        if s >= n || seen[s] {
            return false;
        }
        seen[s] = true;
    }
    path.len() == n
        && path.windows(2).all(|w| graph[w[0]].contains(&w[1]))
        && (!demands.closed || (n > 1 && graph[path[n - 1]].contains(&path[0])))
        && demands.clues.iter().all(|&(t, s)| path[t] == s)
}

/// Every tour of `shape` meeting `demands`, up to `limit`, by depth-first
/// search from every square.
pub fn tours_of(shape: &Shape, demands: &Demands, limit: usize) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        graph: &'a [Vec<usize>],
        demands: &'a Demands,
        clue_at: Vec<Option<usize>>,
        clue_step_of: Vec<Option<usize>>,
        visited: Vec<bool>,
        path: Vec<usize>,
        out: Vec<Vec<usize>>,
        limit: usize,
    }
    impl Walk<'_> {
        fn allowed(&self, square: usize) -> bool {
            let step = self.path.len();
            !self.visited[square]
                && self.clue_at[step].is_none_or(|s| s == square)
                && self.clue_step_of[square].is_none_or(|t| t == step)
        }
        fn place(&mut self, square: usize) {
            self.visited[square] = true;
            self.path.push(square);
            let n = self.graph.len();
            if self.path.len() == n {
                let closes = n > 1 && self.graph[square].contains(&self.path[0]);
                if !self.demands.closed || closes {
                    self.out.push(self.path.clone());
                }
            } else if !stranded(self.graph, &self.visited, square) {
                for &next in &self.graph[square] {
                    if self.out.len() >= self.limit {
                        break;
                    }
                    if self.allowed(next) {
                        self.place(next);
                    }
                }
            }
            self.path.pop();
            self.visited[square] = false;
        }
    }
    let graph = shape.graph();
    let n = graph.len();
    let mut clue_at = vec![None; n];
    let mut clue_step_of = vec![None; n];
    for &(t, s) in &demands.clues {
        clue_at[t] = Some(s);
        clue_step_of[s] = Some(t);
    }
    let mut walk = Walk {
        graph: &graph,
        demands,
        clue_at,
        clue_step_of,
        visited: vec![false; n],
        path: Vec::new(),
        out: Vec::new(),
        limit,
    };
    for start in 0..n {
        if walk.out.len() < limit && walk.allowed(start) {
            walk.place(start);
        }
    }
    walk.out
}

/// Whether some tour of `shape` meets `demands`. A closed tour passes
/// through square 0, so with no clues the search starts only there.
pub fn has_tour(shape: &Shape, demands: &Demands) -> bool {
    if demands.closed && demands.clues.is_empty() {
        let from_0 = Demands {
            closed: true,
            clues: vec![(0, 0)],
        };
        return !tours_of(shape, &from_0, 1).is_empty();
    }
    !tours_of(shape, demands, 1).is_empty()
}

/// A small deterministic pseudo-random sequence (splitmix64), so that the
/// tests' random cases are the same on every run.
pub struct Sequence(pub u64);

impl Sequence {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// `count` random clues (step, square) on a board of `n` squares, sorted by
/// step with one clue per step: read off `tour` when one is given (so that
/// a tour keeps them all), else anywhere (so that they may contradict each
/// other or the board). `None` when two clues land on one square, which
/// the problem rejects as bad input.
pub fn random_clues(
    n: usize,
    count: usize,
    tour: Option<&[usize]>,
    random: &mut Sequence,
) -> Option<Vec<(usize, usize)>> {
    let mut clues: Vec<(usize, usize)> = (0..count)
        .map(|_| {
            let t = random.below(n);
            (t, tour.map_or_else(|| random.below(n), |tour| tour[t]))
        })
        .collect();
    clues.sort_unstable();
    clues.dedup_by_key(|clue| clue.0);
    let mut squares: Vec<usize> = clues.iter().map(|clue| clue.1).collect();
    squares.sort_unstable();
    squares.dedup();
    (squares.len() == clues.len()).then_some(clues)
}

/// Whether `kissat --strict` parses the CNF at `path` and answers it (SAT
/// or UNSAT; `-n`: no model, only the parse and the answer matter).
pub fn kissat_strict_accepts(path: &std::path::Path) -> bool {
    let status = std::process::Command::new("kissat")
        .args(["--strict", "-q", "-n"])
        .arg(path)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    matches!(status.code(), Some(10 | 20))
}

/// Checks a `cubes --split` directory: a manifest (header, then file name
/// and squares per line) and exactly the cube CNFs it lists, each naming
/// its manifest squares in its `c cube` comment, and nothing else. Returns
/// the cubes' squares in manifest order, or what disagrees.
pub fn split_in(dir: &std::path::Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .map_err(|e| format!("manifest.tsv: {e} (entries {names:?})"))?;
    let mut lines = manifest.lines();
    if lines.next() != Some("file\tsquares") {
        return Err("the manifest has no header".into());
    }
    let mut listed = Vec::new();
    let mut squares = Vec::new();
    for (i, line) in lines.enumerate() {
        let (file, cube) = line
            .split_once('\t')
            .ok_or(format!("manifest line {line:?}"))?;
        if file != format!("cube-{:06}.cnf", i + 1) {
            return Err(format!("manifest line {} names {file}", i + 2));
        }
        let text = std::fs::read_to_string(dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
        let comment = text.lines().find_map(|l| l.strip_prefix("c cube "));
        if comment != Some(cube) {
            return Err(format!(
                "{file} holds cube {comment:?}, the manifest says {cube}"
            ));
        }
        if !text.ends_with(" 0\n") {
            return Err(format!("{file} is not complete"));
        }
        listed.push(file.to_string());
        squares.push(cube.to_string());
    }
    listed.push("manifest.tsv".into());
    listed.sort();
    if listed != names {
        let extra: Vec<&String> = names.iter().filter(|n| !listed.contains(n)).collect();
        return Err(format!("files the manifest does not list: {extra:?}"));
    }
    Ok(squares)
}

/// A random simple graph on `vertices` vertices (numbered from 0), each
/// pair joined with probability `percent` / 100, as adjacency lists.
pub fn random_graph(random: &mut Sequence, vertices: usize, percent: usize) -> Vec<Vec<usize>> {
    let mut graph = vec![Vec::new(); vertices];
    for u in 0..vertices {
        for v in u + 1..vertices {
            if random.below(100) < percent {
                graph[u].push(v);
                graph[v].push(u);
            }
        }
    }
    graph
}

/// The number of orderings of every vertex of `graph` that are
/// Hamiltonian paths (closing into cycles when `closed`), starting on
/// `start` and ending on `end` where given: what knightsat counts for a
/// graph, as for a board's tours, by plain depth-first search.
pub fn hamiltonian_count(
    graph: &[Vec<usize>],
    closed: bool,
    start: Option<usize>,
    end: Option<usize>,
) -> u64 {
    fn walk(
        graph: &[Vec<usize>],
        path: &mut Vec<usize>,
        visited: &mut [bool],
        wanted: (bool, Option<usize>),
    ) -> u64 {
        let (closed, end) = wanted;
        let here = *path.last().unwrap();
        if path.len() == graph.len() {
            let ends_right = end.is_none_or(|end| end == here);
            let closes = !closed || (graph.len() > 1 && graph[here].contains(&path[0]));
            return u64::from(ends_right && closes);
        }
        let mut count = 0;
        for &next in &graph[here] {
            if !visited[next] {
                visited[next] = true;
                path.push(next);
                count += walk(graph, path, visited, wanted);
                path.pop();
                visited[next] = false;
            }
        }
        count
    }
    let starts: Vec<usize> = start.map_or_else(|| (0..graph.len()).collect(), |s| vec![s]);
    let mut count = 0;
    for first in starts {
        let mut visited = vec![false; graph.len()];
        visited[first] = true;
        count += walk(graph, &mut vec![first], &mut visited, (closed, end));
    }
    count
}

/// Whether `path` (vertex indices from 0) is a Hamiltonian path of
/// `graph`, closing into a cycle when `closed`.
pub fn is_hamiltonian(graph: &[Vec<usize>], closed: bool, path: &[usize]) -> bool {
    let mut seen = vec![false; graph.len()];
    for &v in path {
        if v >= graph.len() || seen[v] {
            return false;
        }
        seen[v] = true;
    }
    path.len() == graph.len()
        && path
            .windows(2)
            .all(|pair| graph[pair[0]].contains(&pair[1]))
        && (!closed || (path.len() > 1 && graph[path[path.len() - 1]].contains(&path[0])))
}
