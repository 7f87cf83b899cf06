//! Graphs from files: vertices numbered 1 to N as the file numbers them,
//! and undirected edges between them, read from DIMACS (`p edge N M`,
//! `p col N M` or `p N M`, then `e U V` lines, `c` comments), TSPLIB's HCP
//! format (`TYPE : HCP`, `DIMENSION : N`, `EDGE_DATA_SECTION`, pairs, `-1`,
//! `EOF`; Reinelt, "TSPLIB 95") or plain `U V` edge lists, told apart by
//! their content rather than by a file's name.
//!
//! A graph is the other kind of board (`Board::from_graph`): one without
//! squares' places, colours or symmetries.
//! Self-loops and repeated edges are read as the simple graph they mean
//! (a loop is never a step of a tour, a second edge is the same move), and
//! [`Graph::dropped`] says how many there were.

use std::fmt;

use crate::model::text::shown;

/// The most vertices a graph may have: as many as a board's cells (2²²,
/// `board::MAX_SQUARES`, which a test keeps equal).
pub const MAX_VERTICES: usize = 1 << 22;

/// What is wrong with a graph file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// A file with no edge and no vertex.
    #[error("the graph file has no vertices: expected DIMACS (p edge N M, e U V), TSPLIB HCP or one edge U V a line")]
    Empty,
    /// A line that is none of the format's lines.
    #[error("line {line}: '{text}' is not {expected}")]
    Unreadable {
        /// The line's number, from 1.
        line: usize,
        /// The line (shortened).
        text: String,
        /// What the format has there.
        expected: &'static str,
    },
    /// A vertex number that is not a whole number.
    #[error("line {line}: '{text}' is not a vertex number (a whole number from 1)")]
    NotANumber {
        /// The line's number, from 1.
        line: usize,
        /// The word (shortened).
        text: String,
    },
    /// A vertex numbered 0 or past the graph's vertices.
    #[error("line {line}: vertex {vertex} is not one of the graph's vertices 1 to {vertices}")]
    VertexOutOfRange {
        /// The line's number, from 1.
        line: usize,
        /// The vertex as given.
        vertex: String,
        /// The vertices the header says the graph has.
        vertices: usize,
    },
    /// A header whose count of edges is not the number of edge lines.
    #[error("the header says {}, but the file has {found}", counted(*said, "edge", "edges"))]
    EdgeCount {
        /// The edges the header gives.
        said: usize,
        /// The edge lines read.
        found: usize,
    },
    /// A second header: a DIMACS `p` line or a TSPLIB `DIMENSION` line again.
    #[error("line {line}: a second header")]
    SecondHeader {
        /// The line's number, from 1.
        line: usize,
    },
    /// Edges before the header, or a header missing in a format that needs one.
    #[error("{0}")]
    Header(String),
    /// A TSPLIB file of another type than HCP.
    #[error("TSPLIB type '{kind}': knightsat reads HCP (Hamiltonian cycle) files")]
    NotHcp {
        /// The type given.
        kind: String,
    },
    /// More vertices than any graph may have.
    #[error("{vertices} vertices: a graph has at most {MAX_VERTICES}")]
    TooLarge {
        /// The vertices asked for.
        vertices: String,
    },
    /// A header's count of edges past any whole number the reader holds.
    #[error(
        "line {line}: {edges} edges: more than any graph of at most {MAX_VERTICES} vertices has"
    )]
    TooManyEdges {
        /// The line's number, from 1.
        line: usize,
        /// The edges the header gives (shortened).
        edges: String,
    },
    /// A vertex named for a start, end or clue that is not one of the graph's.
    #[error("'{text}' is not a vertex of the graph (vertices are numbered 1 to {vertices})")]
    NoSuchVertex {
        /// The name given.
        text: String,
        /// The graph's vertices.
        vertices: usize,
    },
}

/// Which of the three formats a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GraphFormat {
    /// DIMACS: `p` header, `e` lines.
    Dimacs,
    /// TSPLIB HCP.
    Tsplib,
    /// One edge `U V` a line.
    EdgeList,
}

impl fmt::Display for GraphFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GraphFormat::Dimacs => "DIMACS",
            GraphFormat::Tsplib => "TSPLIB HCP",
            GraphFormat::EdgeList => "edge list",
        })
    }
}

/// An undirected simple graph on vertices 1 to N (indices 0 to N − 1
/// inside the library), each vertex's neighbours in ascending order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    neighbours: Vec<Vec<u32>>,
    edges: usize,
    format: Option<GraphFormat>,
    asks_cycle: bool,
    loops: usize,
    repeats: usize,
}

impl Graph {
    /// The graph on `vertices` vertices (numbered 1 to N) with `edges`
    /// between them, each a pair of vertex numbers; self-loops and repeated
    /// edges are dropped (see [`Graph::dropped`]).
    pub fn new(vertices: usize, edges: &[(usize, usize)]) -> Result<Graph, GraphError> {
        if vertices == 0 {
            return Err(GraphError::Empty);
        }
        if vertices > MAX_VERTICES {
            return Err(GraphError::TooLarge {
                vertices: vertices.to_string(),
            });
        }
        for (k, &(u, v)) in edges.iter().enumerate() {
            for w in [u, v] {
                if w == 0 || w > vertices {
                    return Err(GraphError::VertexOutOfRange {
                        line: k + 1,
                        vertex: w.to_string(),
                        vertices,
                    });
                }
            }
        }
        Ok(Graph::build(vertices, edges))
    }

    fn build(vertices: usize, edges: &[(usize, usize)]) -> Graph {
        let mut neighbours = vec![Vec::new(); vertices];
        let mut loops = 0;
        for &(u, v) in edges {
            if u == v {
                loops += 1;
                continue;
            }
            neighbours[u - 1].push((v - 1) as u32);
            neighbours[v - 1].push((u - 1) as u32);
        }
        let mut arcs = 0;
        for list in &mut neighbours {
            list.sort_unstable();
            list.dedup();
            arcs += list.len();
        }
        let simple = arcs / 2;
        Graph {
            neighbours,
            edges: simple,
            format: None,
            asks_cycle: false,
            loops,
            repeats: edges.len() - loops - simple,
        }
    }

    /// Reads a graph in any of the three formats (see the
    /// [module](self) docs), told apart by the first line that is not blank
    /// or a comment.
    pub fn parse(text: &str) -> Result<Graph, GraphError> {
        let lines = numbered_lines(text);
        let Some(&(_, first)) = lines.first() else {
            return Err(GraphError::Empty);
        };
        let first_word = first.split_whitespace().next().unwrap_or("");
        if matches!(first_word, "p" | "e" | "c") {
            parse_dimacs(&lines)
        } else if first.contains(':')
            || first_word.eq_ignore_ascii_case("EDGE_DATA_SECTION")
            || first_word.eq_ignore_ascii_case("NAME")
            || first_word.eq_ignore_ascii_case("TYPE")
        {
            parse_tsplib(&lines)
        } else {
            parse_edge_list(&lines)
        }
    }

    /// The number of vertices, N.
    pub fn vertices(&self) -> usize {
        self.neighbours.len()
    }

    /// The number of edges (of the simple graph).
    pub fn edges(&self) -> usize {
        self.edges
    }

    /// The neighbours of vertex index `v` (0-based), ascending.
    pub fn neighbours(&self, v: usize) -> &[u32] {
        &self.neighbours[v]
    }

    /// Whether vertex indices `a` and `b` (0-based) are joined by an edge.
    pub fn joined(&self, a: usize, b: usize) -> bool {
        self.neighbours[a].binary_search(&(b as u32)).is_ok()
    }

    /// The edges by vertex number (from 1), each once, the smaller end
    /// first, in ascending order.
    pub fn edge_list(&self) -> Vec<(usize, usize)> {
        (0..self.vertices())
            .flat_map(|v| {
                self.neighbours(v)
                    .iter()
                    .filter(move |&&w| w as usize > v)
                    .map(move |&w| (v + 1, w as usize + 1))
            })
            .collect()
    }

    /// The format the graph was read from (none for one built from edges).
    pub fn format(&self) -> Option<GraphFormat> {
        self.format
    }

    /// Whether the file asks for a cycle (TSPLIB's HCP type does).
    pub fn asks_cycle(&self) -> bool {
        self.asks_cycle
    }

    /// The self-loops and the repeated edges the file had, which the graph
    /// leaves out.
    pub fn dropped(&self) -> (usize, usize) {
        (self.loops, self.repeats)
    }

    /// The name of vertex index `v`: its number in the file, from 1.
    pub fn name(v: usize) -> String {
        (v + 1).to_string()
    }

    /// The index of the vertex named `text` (its number, from 1).
    pub fn parse_vertex(&self, text: &str) -> Result<usize, GraphError> {
        let text = text.trim();
        match text.parse::<usize>() {
            Ok(v) if (1..=self.vertices()).contains(&v) => Ok(v - 1),
            _ => Err(GraphError::NoSuchVertex {
                text: shown(text),
                vertices: self.vertices(),
            }),
        }
    }
}

impl fmt::Display for Graph {
    /// Formats as `graph of N vertices and M edges`, singular for one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "graph of {} and {}",
            counted(self.vertices(), "vertex", "vertices"),
            counted(self.edges, "edge", "edges")
        )
    }
}

/// `n` and the noun for that many: `1 edge`, `2 edges`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The lines that are not blank, each with its number from 1, trimmed, a
/// byte-order mark dropped.
fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(k, line)| (k + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty())
        .filter(|(_, line)| !line.starts_with('#') && !line.starts_with('%'))
        .collect()
}

/// A vertex number as written, or the error naming the line; digits past
/// any integer read as `usize::MAX`, a vertex past every graph.
fn vertex_number(line: usize, word: &str) -> Result<usize, GraphError> {
    match word.parse::<usize>() {
        Ok(v) => Ok(v),
        Err(_) if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) => Ok(usize::MAX),
        Err(_) => Err(GraphError::NotANumber {
            line,
            text: shown(word),
        }),
    }
}

/// The edges of `edges` (line number, two vertex words), checked against
/// `vertices`.
fn checked_edges(
    edges: &[(usize, &str, &str)],
    vertices: usize,
) -> Result<Vec<(usize, usize)>, GraphError> {
    let vertex = |line: usize, word: &str| match vertex_number(line, word)? {
        w if w == 0 || w > vertices => Err(GraphError::VertexOutOfRange {
            line,
            vertex: shown(word),
            vertices,
        }),
        w => Ok(w),
    };
    edges
        .iter()
        .map(|&(line, u, v)| Ok((vertex(line, u)?, vertex(line, v)?)))
        .collect()
}

/// What a header counts.
#[derive(Clone, Copy)]
enum Counted {
    Vertices,
    Edges,
}

/// A count in a header: a whole number; digits past any `usize` are a
/// graph too large for the count's kind.
fn header_count(line: usize, word: &str, counted: Counted) -> Result<usize, GraphError> {
    word.parse::<usize>().map_err(|_| {
        if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
            match counted {
                Counted::Vertices => GraphError::TooLarge {
                    vertices: shown(word),
                },
                Counted::Edges => GraphError::TooManyEdges {
                    line,
                    edges: shown(word),
                },
            }
        } else {
            GraphError::Unreadable {
                line,
                text: shown(word),
                expected: match counted {
                    Counted::Vertices => "a number of vertices",
                    Counted::Edges => "a number of edges",
                },
            }
        }
    })
}

/// Reads DIMACS: `c` comments, one `p [edge|col|edges] N M`, `e U V` lines.
fn parse_dimacs(lines: &[(usize, &str)]) -> Result<Graph, GraphError> {
    let mut header: Option<(usize, usize)> = None;
    let mut edges = Vec::new();
    for &(line, text) in lines {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["c", ..] => {}
            ["p", rest @ ..] => {
                if header.is_some() {
                    return Err(GraphError::SecondHeader { line });
                }
                if !edges.is_empty() {
                    return Err(GraphError::Header(format!(
                        "line {line}: the p header comes after edges; DIMACS puts it before them"
                    )));
                }
                let counts = match rest {
                    [kind, n, m] if matches!(*kind, "edge" | "edges" | "col") => (n, m),
                    [n, m] => (n, m),
                    _ => {
                        return Err(GraphError::Unreadable {
                            line,
                            text: shown(text),
                            expected: "a DIMACS header (p edge N M)",
                        })
                    }
                };
                let n = header_count(line, counts.0, Counted::Vertices)?;
                let m = header_count(line, counts.1, Counted::Edges)?;
                if n > MAX_VERTICES {
                    return Err(GraphError::TooLarge {
                        vertices: n.to_string(),
                    });
                }
                header = Some((n, m));
            }
            ["e", u, v] => {
                if header.is_none() {
                    return Err(GraphError::Header(format!(
                        "line {line}: an edge before the p header (p edge N M)"
                    )));
                }
                edges.push((line, *u, *v));
            }
            _ => {
                return Err(GraphError::Unreadable {
                    line,
                    text: shown(text),
                    expected: "a DIMACS line (c comment, p edge N M, e U V)",
                })
            }
        }
    }
    let Some((vertices, said)) = header else {
        return Err(GraphError::Header(
            "a DIMACS graph needs its p header (p edge N M)".into(),
        ));
    };
    if vertices == 0 {
        return Err(GraphError::Empty);
    }
    let edges = checked_edges(&edges, vertices)?;
    if edges.len() != said {
        return Err(GraphError::EdgeCount {
            said,
            found: edges.len(),
        });
    }
    let mut graph = Graph::build(vertices, &edges);
    graph.format = Some(GraphFormat::Dimacs);
    Ok(graph)
}

/// Reads TSPLIB HCP: `KEY : VALUE` lines, `EDGE_DATA_SECTION`, vertex
/// pairs (any number a line) ended by `-1`, `EOF`.
fn parse_tsplib(lines: &[(usize, &str)]) -> Result<Graph, GraphError> {
    let (dimension, section) = tsplib_header(lines)?;
    let words = tsplib_edge_words(&lines[section..])?;
    let Some(vertices) = dimension else {
        return Err(GraphError::Header(
            "a TSPLIB graph needs its DIMENSION : N line".into(),
        ));
    };
    if vertices == 0 {
        return Err(GraphError::Empty);
    }
    if vertices > MAX_VERTICES {
        return Err(GraphError::TooLarge {
            vertices: vertices.to_string(),
        });
    }
    if words.len() % 2 == 1 {
        let (line, word) = words[words.len() - 1];
        return Err(GraphError::Unreadable {
            line,
            text: shown(word),
            expected: "half of an edge: the section holds pairs U V",
        });
    }
    let pairs: Vec<(usize, &str, &str)> = words
        .chunks(2)
        .map(|pair| (pair[0].0, pair[0].1, pair[1].1))
        .collect();
    let edges = checked_edges(&pairs, vertices)?;
    let mut graph = Graph::build(vertices, &edges);
    graph.format = Some(GraphFormat::Tsplib);
    graph.asks_cycle = true;
    Ok(graph)
}

/// The `KEY : VALUE` lines of a TSPLIB file up to `EDGE_DATA_SECTION`:
/// its DIMENSION, if given, and where the lines after the section's
/// start begin (past the end where `EOF` comes first). Another TYPE than
/// HCP, or edges given otherwise than as a list, is refused.
fn tsplib_header(lines: &[(usize, &str)]) -> Result<(Option<usize>, usize), GraphError> {
    let mut dimension = None;
    for (at, &(line, text)) in lines.iter().enumerate() {
        if text.eq_ignore_ascii_case("EOF") {
            return Ok((dimension, lines.len()));
        }
        if text.eq_ignore_ascii_case("EDGE_DATA_SECTION") {
            return Ok((dimension, at + 1));
        }
        let Some((key, value)) = text.split_once(':') else {
            return Err(GraphError::Unreadable {
                line,
                text: shown(text),
                expected: "a TSPLIB line (KEY : VALUE, EDGE_DATA_SECTION)",
            });
        };
        let (key, value) = (key.trim().to_ascii_uppercase(), value.trim());
        match key.as_str() {
            "TYPE" if !value.eq_ignore_ascii_case("HCP") => {
                return Err(GraphError::NotHcp { kind: shown(value) })
            }
            "DIMENSION" if dimension.is_some() => {
                return Err(GraphError::SecondHeader { line });
            }
            "DIMENSION" => {
                dimension = Some(header_count(line, value, Counted::Vertices)?);
            }
            "EDGE_DATA_FORMAT" if !value.eq_ignore_ascii_case("EDGE_LIST") => {
                return Err(GraphError::Unreadable {
                    line,
                    text: shown(text),
                    expected: "EDGE_DATA_FORMAT : EDGE_LIST (adjacency lists are not read)",
                })
            }
            _ => {}
        }
    }
    Ok((dimension, lines.len()))
}

/// The vertex numbers of a TSPLIB edge section (`section`: its lines, by
/// number), up to the `-1` or `EOF` that ends it; after that only `EOF`
/// may follow.
fn tsplib_edge_words<'a>(
    section: &[(usize, &'a str)],
) -> Result<Vec<(usize, &'a str)>, GraphError> {
    let mut words = Vec::new();
    let mut ended = false;
    for &(line, text) in section {
        if ended {
            if text.eq_ignore_ascii_case("EOF") {
                continue;
            }
            return Err(GraphError::Unreadable {
                line,
                text: shown(text),
                expected: "EOF after the edge section's -1",
            });
        }
        for word in text.split_whitespace() {
            if word == "-1" || word.eq_ignore_ascii_case("EOF") {
                ended = true;
                break;
            }
            words.push((line, word));
        }
    }
    Ok(words)
}

/// Reads an edge list: `U V` a line; the vertices are 1 to the largest
/// number named.
fn parse_edge_list(lines: &[(usize, &str)]) -> Result<Graph, GraphError> {
    let mut edges = Vec::with_capacity(lines.len());
    let mut vertices = 0;
    for &(line, text) in lines {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [u, v] = words.as_slice() else {
            return Err(GraphError::Unreadable {
                line,
                text: shown(text),
                expected: "an edge U V (two vertex numbers)",
            });
        };
        let mut edge = [0; 2];
        for (end, word) in edge.iter_mut().zip([u, v]) {
            *end = vertex_number(line, word)?;
            if *end == 0 {
                return Err(GraphError::VertexOutOfRange {
                    line,
                    vertex: "0".into(),
                    vertices: vertices.max(1),
                });
            }
            if *end > MAX_VERTICES {
                return Err(GraphError::TooLarge {
                    vertices: format!("line {line}: {}", shown(word)),
                });
            }
            vertices = vertices.max(*end);
        }
        edges.push((edge[0], edge[1]));
    }
    if vertices == 0 {
        return Err(GraphError::Empty);
    }
    let mut graph = Graph::build(vertices, &edges);
    graph.format = Some(GraphFormat::EdgeList);
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &[(usize, usize)] = &[(1, 2), (2, 3), (3, 4), (4, 1)];

    #[test]
    fn the_three_formats_read_the_same_graph() {
        let dimacs = "c a square\np edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n";
        let bare_p = "p 4 4\nc NAME : sq\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n";
        let tsplib = "NAME : sq\nTYPE : HCP\nDIMENSION : 4\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n 1 2\n2 3 3 4\n4 1\n-1\nEOF\n";
        let list = "# a square\n1 2\n2 3\n\n3 4\n4 1\n";
        let expected = Graph::new(4, SQUARE).unwrap();
        assert_eq!(expected.edge_list(), [(1, 2), (1, 4), (2, 3), (3, 4)]);
        for (text, format) in [
            (dimacs, GraphFormat::Dimacs),
            (bare_p, GraphFormat::Dimacs),
            (tsplib, GraphFormat::Tsplib),
            (list, GraphFormat::EdgeList),
        ] {
            let graph = Graph::parse(text).unwrap();
            assert_eq!(graph.edge_list(), expected.edge_list(), "{text}");
            assert_eq!(graph.format(), Some(format));
            assert_eq!(graph.asks_cycle(), format == GraphFormat::Tsplib);
            assert_eq!(graph.edges(), 4);
        }
    }

    #[test]
    fn loops_and_repeats_are_the_simple_graph_they_mean() {
        let graph = Graph::parse("1 2\n2 1\n1 1\n2 3\n1 2\n").unwrap();
        assert_eq!(graph.vertices(), 3);
        assert_eq!(graph.edges(), 2);
        assert_eq!(graph.dropped(), (1, 2));
        assert!(graph.joined(0, 1) && graph.joined(1, 2) && !graph.joined(0, 2));
    }

    #[test]
    fn bad_files_are_named_by_their_line() {
        let cases: &[(&str, &str)] = &[
            ("", "no vertices"),
            (
                "p edge 3 1\ne 1 4\n",
                "line 2: vertex 4 is not one of the graph's vertices 1 to 3",
            ),
            ("p edge 3 1\ne 0 1\n", "line 2: vertex 0"),
            (
                "p edge 3 2\ne 1 2\n",
                "the header says 2 edges, but the file has 1",
            ),
            ("p edge 3 1\ne 1 x\n", "line 2: 'x' is not a vertex number"),
            ("p edge 3 1\np edge 3 1\ne 1 2\n", "line 2: a second header"),
            ("e 1 2\n", "an edge before the p header"),
            ("p edge 0 0\n", "no vertices"),
            ("1 2\n0 1\n", "line 2: vertex 0"),
            ("1 2 3\n", "line 1: '1 2 3' is not an edge"),
            ("1 -2\n", "'-2' is not a vertex number"),
            ("TYPE : TSP\nDIMENSION : 3\n", "TSPLIB type 'TSP'"),
            ("TYPE : HCP\nEDGE_DATA_SECTION\n1 2\n-1\n", "DIMENSION"),
            (
                "TYPE : HCP\nDIMENSION : 2\nEDGE_DATA_SECTION\n1 3\n-1\n",
                "vertex 3",
            ),
            (
                "TYPE : HCP\nDIMENSION : 2\nEDGE_DATA_SECTION\n1\n-1\n",
                "half of an edge",
            ),
            ("p edge 99999999999999999999999 1\n", "a graph has at most"),
            ("1 99999999999999999999999\n", "a graph has at most"),
            (
                "p edge 3 18446744073709551616\ne 1 2\n",
                "line 1: 18446744073709551616 edges: more than any graph",
            ),
            (
                "TYPE : HCP\nDIMENSION : 4\nDIMENSION : 5\nEDGE_DATA_SECTION\n1 2\n-1\n",
                "line 3: a second header",
            ),
        ];
        for (text, words) in cases {
            let error = Graph::parse(text).unwrap_err().to_string();
            assert!(error.contains(words), "{text:?}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn vertices_are_named_by_their_numbers_from_one() {
        let graph = Graph::new(4, SQUARE).unwrap();
        assert_eq!(Graph::name(0), "1");
        assert_eq!(graph.parse_vertex(" 4 ").unwrap(), 3);
        for bad in ["0", "5", "a1", "-1", ""] {
            assert!(graph.parse_vertex(bad).is_err(), "{bad}");
        }
    }
}
