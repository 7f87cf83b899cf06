//! Graphs from files (`--graph`): every route that takes one agrees with
//! the oracle's Hamiltonian paths and cycles on random small graphs, in
//! each of the three formats, and bad graph files and what a graph cannot
//! do are refused in one line.

use std::fmt::Write as _;
use std::path::Path;

use crate::common::cli::{knightsat, refused, stdout_of};
use crate::common::{self, Sequence};
use knightsat::model::board::Board;
use knightsat::model::graph::Graph;
use knightsat::{CountJob, Outcome, Problem, SolveJob};

/// The file formats a graph is written in for the command.
#[derive(Clone, Copy, Debug)]
enum Written {
    Dimacs,
    Tsplib,
    EdgeList,
}

/// `graph` (vertices from 0) as a file's text in `format`, numbered from 1.
fn text_of(graph: &[Vec<usize>], format: Written) -> String {
    let edges: Vec<(usize, usize)> = graph
        .iter()
        .enumerate()
        .flat_map(|(u, list)| {
            list.iter()
                .filter(move |&&v| v > u)
                .map(move |&v| (u + 1, v + 1))
        })
        .collect();
    let mut text = String::new();
    match format {
        Written::Dimacs => {
            let _ = writeln!(
                text,
                "c a random graph\np edge {} {}",
                graph.len(),
                edges.len()
            );
            for (u, v) in &edges {
                let _ = writeln!(text, "e {u} {v}");
            }
        }
        Written::Tsplib => {
            let _ = writeln!(
                text,
                "NAME : random\nTYPE : HCP\nDIMENSION : {}\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION",
                graph.len()
            );
            for (u, v) in &edges {
                let _ = writeln!(text, "{u} {v}");
            }
            text.push_str("-1\nEOF\n");
        }
        Written::EdgeList => {
            // The largest vertex must be named: an edge list has no header.
            for (u, v) in &edges {
                let _ = writeln!(text, "{u} {v}");
            }
        }
    }
    text
}

/// The library's problem for `graph` (vertices from 0).
fn problem_of(
    graph: &[Vec<usize>],
    closed: bool,
    start: Option<usize>,
    end: Option<usize>,
) -> Problem {
    let edges: Vec<(usize, usize)> = graph
        .iter()
        .enumerate()
        .flat_map(|(u, list)| list.iter().map(move |&v| (u + 1, v + 1)))
        .collect();
    let board = Board::from_graph(Graph::new(graph.len(), &edges).unwrap());
    Problem::new(board)
        .closed(closed)
        .with_start(start)
        .unwrap()
        .with_end(end)
        .unwrap()
}

#[test]
fn counts_and_tours_on_random_graphs_agree_with_the_oracle() {
    let mut random = Sequence(83);
    let mut failures = Vec::new();
    let mut with_tours = 0;
    for case in 0..160 {
        let vertices = 1 + random.below(8);
        let percent = [25, 45, 65, 90][case % 4];
        let graph = common::random_graph(&mut random, vertices, percent);
        let closed = case % 2 == 1;
        let start = (case % 3 == 1).then_some(0);
        let end = (!closed && case % 5 == 2 && vertices > 1).then_some(vertices - 1);
        let expected = common::hamiltonian_count(&graph, closed, start, end);
        with_tours += usize::from(expected > 0);
        let problem = problem_of(&graph, closed, start, end);
        let name = format!("case {case}: {graph:?} closed={closed} start={start:?} end={end:?}");
        match CountJob::new(&problem).run() {
            Ok(report) => {
                let counted = report.tours().map(|n| n.to_string());
                if counted != Some(expected.to_string()) {
                    failures.push(format!(
                        "{name}: counted {counted:?}, the oracle {expected}"
                    ));
                }
            }
            Err(error) => failures.push(format!("{name}: count failed: {error}")),
        }
        // With no end fixed, a graph's orbits are its tours read either way
        // (and, closed, from any vertex): with n >= 3 each comes 2 ways
        // (open) or 2n ways (closed) in the count.
        if start.is_none() && end.is_none() && vertices >= 3 {
            let mut job = CountJob::new(&problem);
            job.options.up_to_symmetry = true;
            let ways = if closed { 2 * vertices as u64 } else { 2 };
            let orbits = job
                .run()
                .map(|report| report.tours().map(|n| n.to_string()))
                .map_err(|error| error.to_string());
            if orbits != Ok(Some((expected / ways).to_string())) {
                failures.push(format!(
                    "{name}: up to symmetry {orbits:?}, the oracle {expected} / {ways}"
                ));
            }
        }
        match SolveJob::new(&problem).run().map(|solved| solved.outcome) {
            Ok(Outcome::Tour(tour)) => {
                if !common::is_hamiltonian(&graph, closed, &tour.squares)
                    || start.is_some_and(|s| tour.squares[0] != s)
                    || end.is_some_and(|e| tour.squares.last() != Some(&e))
                {
                    failures.push(format!(
                        "{name}: not a Hamiltonian path: {:?}",
                        tour.squares
                    ));
                }
                if expected == 0 {
                    failures.push(format!("{name}: a tour the oracle says cannot exist"));
                }
            }
            Ok(Outcome::NoTour) if expected > 0 => {
                failures.push(format!("{name}: no tour, the oracle counts {expected}"));
            }
            Ok(Outcome::NoTour) => {}
            Err(error) => failures.push(format!("{name}: solve failed: {error}")),
        }
    }
    common::assert_none(&failures);
    // The cases are worth something only if both answers occur often.
    assert!(
        (40..120).contains(&with_tours),
        "{with_tours} of 160 have tours"
    );
}

#[test]
fn the_command_reads_each_format_and_answers_as_the_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let mut random = Sequence(84);
    let formats = [Written::Dimacs, Written::Tsplib, Written::EdgeList];
    let mut failures = Vec::new();
    for case in 0..18 {
        let format = formats[case % 3];
        let vertices = 3 + random.below(6);
        let mut graph = common::random_graph(&mut random, vertices, 60);
        // An edge list names its vertices: keep the last one on an edge.
        if graph[vertices - 1].is_empty() {
            graph[vertices - 1].push(0);
            graph[0].push(vertices - 1);
        }
        // TSPLIB asks for a cycle; the others are open unless --closed.
        let closed = matches!(format, Written::Tsplib) || case % 2 == 1;
        let path = dir.path().join(format!("g{case}.txt"));
        std::fs::write(&path, text_of(&graph, format)).unwrap();
        let file = path.to_str().unwrap();
        let mut args = vec!["--graph", file];
        if closed && !matches!(format, Written::Tsplib) {
            args.push("--closed");
        }
        let expected = common::hamiltonian_count(&graph, closed, None, None);
        let name = format!("case {case} {format:?} {graph:?} closed={closed}");
        let count = knightsat().arg("count").args(&args).output().unwrap();
        let counted = String::from_utf8_lossy(&count.stdout).trim().to_string();
        if counted != expected.to_string() {
            failures.push(format!(
                "{name}: count printed {counted:?}, the oracle {expected}"
            ));
        }
        let solve = knightsat()
            .args(["solve", "--format", "moves"])
            .args(&args)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&solve.stdout).to_string();
        match solve.status.code() {
            Some(0) => {
                let path: Vec<usize> = printed
                    .split_whitespace()
                    .map(|v| v.parse::<usize>().unwrap() - 1)
                    .collect();
                // The vertex numbers of the file come back: the oracle's
                // check reads them as its own.
                if !common::is_hamiltonian(&graph, closed, &path) || expected == 0 {
                    failures.push(format!("{name}: solve printed {printed:?}"));
                }
                let tour = dir.path().join(format!("t{case}.txt"));
                std::fs::write(&tour, &printed).unwrap();
                let verify = knightsat()
                    .arg("verify")
                    .args(&args)
                    .arg(&tour)
                    .output()
                    .unwrap();
                if !verify.status.success() {
                    failures.push(format!("{name}: verify refused {printed:?}"));
                }
            }
            Some(20) if expected == 0 => {}
            status => failures.push(format!("{name}: solve exited {status:?}: {printed:?}")),
        }
    }
    common::assert_none(&failures);
}

#[test]
fn verify_names_the_edge_a_wrong_cycle_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let square = file_with(
        dir.path(),
        "square.col",
        "p edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n",
    );
    let cases = [
        (
            "1 3 2 4",
            false,
            "step 1 to 2, vertex 1 to 3, is not an edge of the graph",
        ),
        (
            "1 2 4 3",
            true,
            "step 2 to 3, vertex 2 to 4, is not an edge of the graph",
        ),
        ("1 2 3 4", true, ""),
        ("2 1 4 3", false, ""),
    ];
    for (tour, closed, words) in cases {
        let file = file_with(dir.path(), "tour.txt", tour);
        let mut args = vec!["verify", "--graph", &square, &file];
        if closed {
            args.push("--closed");
        }
        let output = knightsat().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.success(),
            words.is_empty(),
            "{tour}: {stderr}"
        );
        assert!(stderr.contains(words), "{tour}: {stderr}");
    }
    let path = file_with(dir.path(), "path.col", "p edge 3 2\ne 1 2\ne 2 3\n");
    let tour = file_with(dir.path(), "tour.txt", "1 2 3");
    let output = knightsat()
        .args(["verify", "--closed", "--graph", &path, &tour])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("the cycle is not closed: no edge joins 3, the last vertex, to 1"),
        "{stderr}"
    );
}

#[test]
fn a_graphs_cnf_counts_and_decodes_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let mut random = Sequence(85);
    let mut failures = Vec::new();
    for case in 0..8 {
        let vertices = 4 + random.below(4);
        let graph = common::random_graph(&mut random, vertices, 70);
        let closed = case % 2 == 0;
        let path = dir.path().join(format!("g{case}.col"));
        std::fs::write(&path, text_of(&graph, Written::Dimacs)).unwrap();
        let cnf = dir.path().join(format!("g{case}.cnf"));
        let mut args = vec!["encode", "--graph", path.to_str().unwrap(), "-o"];
        args.push(cnf.to_str().unwrap());
        if closed {
            args.push("--closed");
        }
        knightsat().args(&args).assert().success();
        // The CNF records the graph: count needs nothing else.
        let count = knightsat()
            .args(["count", "--cnf", cnf.to_str().unwrap()])
            .output()
            .unwrap();
        let counted = String::from_utf8_lossy(&count.stdout).trim().to_string();
        let expected = common::hamiltonian_count(&graph, closed, None, None);
        if counted != expected.to_string() {
            failures.push(format!(
                "case {case} {graph:?} closed={closed}: the CNF counts {counted:?}, the oracle {expected}"
            ));
        }
    }
    common::assert_none(&failures);
}

/// Writes `text` to a file in `dir` and returns its path.
fn file_with(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bad_graph_files_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        (
            "p edge 3 1\ne 1 4\n",
            "vertex 4 is not one of the graph's vertices 1 to 3",
        ),
        (
            "p edge 3 1\ne 0 1\n",
            "vertex 0 is not one of the graph's vertices",
        ),
        ("1 2\n0 2\n", "vertex 0 is not one of the graph's vertices"),
        (
            "p edge 3 3\ne 1 2\n",
            "the header says 3 edges, but the file has 1",
        ),
        ("p edge 3 1\ne 1 two\n", "'two' is not a vertex number"),
        ("1 2\nthree 4\n", "'three' is not a vertex number"),
        ("", "the graph file has no vertices"),
        ("c nothing\n", "needs its p header"),
        ("p edge 3 1\np edge 3 1\ne 1 2\n", "a second header"),
        ("TYPE : TSP\nDIMENSION : 3\n", "TSPLIB type 'TSP'"),
        ("p edge 99999999 1\ne 1 2\n", "a graph has at most"),
        (
            "p edge 3 18446744073709551616\ne 1 2\n",
            "18446744073709551616 edges: more than any graph",
        ),
        (
            "TYPE : HCP\nDIMENSION : 4\nDIMENSION : 5\nEDGE_DATA_SECTION\n1 2\n-1\nEOF\n",
            "line 3: a second header",
        ),
    ];
    for (number, (text, words)) in cases.iter().enumerate() {
        let file = file_with(dir.path(), &format!("bad{number}"), text);
        for command in ["solve", "count", "encode", "stats"] {
            refused(&[command, "--graph", &file], dir.path(), words);
        }
    }
    assert!(common::cli::entries(dir.path())
        .iter()
        .all(|name| name.starts_with("bad")));
}

#[test]
fn what_needs_a_board_is_refused_for_a_graph_naming_what_works() {
    let dir = tempfile::tempdir().unwrap();
    let file = file_with(
        dir.path(),
        "square.col",
        "p edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n",
    );
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "--method", "backtrack"],
            "--method backtrack needs a board",
        ),
        (
            &["solve", "--method", "warnsdorff"],
            "--method warnsdorff needs a board",
        ),
        (
            &["count", "--method", "frontier"],
            "--method frontier needs a board",
        ),
        (
            &["solve", "--encoding", "time-indexed"],
            "a graph takes --encoding successor",
        ),
        (
            &["solve", "--format", "svg"],
            "draw a graph with --format dot",
        ),
        (&["solve", "--holes", "1"], "cannot be used with"),
        (&["solve", "--leaper", "1,3"], "cannot be used with"),
        (&["solve", "--puzzle", "grid.txt"], "cannot be used with"),
        (
            &["solve", "--jobs", "2"],
            "a graph is solved and counted whole",
        ),
        (
            &["count", "--sample", "5"],
            "a graph is solved and counted whole",
        ),
        (
            &["cubes", "--depth", "2"],
            "a graph is solved and counted whole",
        ),
        (&["count", "--puzzle", "grid.txt"], "cannot be used with"),
        (
            &["puzzle"],
            "puzzle numbers a board's squares in a grid: not for --graph",
        ),
        (
            &["solve", "--start", "5"],
            "'5' is not a vertex of the graph",
        ),
        (
            &["solve", "--at", "5=1"],
            "clue 5=1: the path's steps are numbered 1 to 4, one a vertex",
        ),
        (
            &["solve", "--start", "a1"],
            "'a1' is not a vertex of the graph",
        ),
    ];
    for (args, words) in cases {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--graph", &file]);
        refused(&all, dir.path(), words);
    }
    // The graph and the tour cannot both come from standard input.
    refused(
        &["verify", "--graph", "-", "-"],
        dir.path(),
        "--graph and the tour both read standard input",
    );
    // Over the memory budget, only what takes a graph is offered.
    let complete = file_with(
        dir.path(),
        "k60.col",
        &(1..=60)
            .flat_map(|u| (u + 1..=60).map(move |v| format!("{u} {v}\n")))
            .collect::<String>(),
    );
    let stderr = refused(
        &["solve", "--graph", &complete, "--memory-budget", "1"],
        dir.path(),
        "solving the graph of 60 vertices and 1770 edges in-process",
    );
    assert!(
        !stderr.contains("warnsdorff") && !stderr.contains("backtrack"),
        "{stderr}"
    );
}

#[test]
fn a_graph_without_a_cycle_is_answered_by_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "two pieces",
            "1 2\n2 3\n3 1\n4 5\n5 6\n6 4\n",
            "not connected",
        ),
        ("a bridge", "1 2\n2 3\n3 1\n3 4\n4 5\n5 6\n6 4\n", "4 has a"),
        ("a dead end", "1 2\n2 3\n3 1\n3 4\n", "dead end"),
        ("uneven sides", "1 4\n1 5\n2 4\n2 5\n3 4\n3 5\n", "sides"),
        (
            "a cut vertex",
            "1 2\n2 3\n3 1\n3 4\n4 5\n5 3\n",
            "the graph: without vertex 3 it falls into 2 parts, and a Hamiltonian cycle",
        ),
    ];
    for (what, text, words) in cases {
        let file = file_with(dir.path(), "g", text);
        let output = knightsat()
            .args(["solve", "--closed", "--graph", &file])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(20), "{what}: {stderr}");
        assert!(stderr.contains("feasibility gate"), "{what}: {stderr}");
        assert!(
            stderr.contains(words) || what == "a bridge",
            "{what}: {stderr}"
        );
    }
}

#[test]
fn the_gates_anchored_sides_on_a_graph_are_worded_by_vertices_and_steps() {
    let dir = tempfile::tempdir().unwrap();
    let square = file_with(dir.path(), "square", "1 2\n2 3\n3 4\n4 1\n");
    let path = file_with(dir.path(), "path", "1 2\n2 3\n");
    let cases: [(&[&str], &str); 2] = [
        (
            &["--graph", &square, "--start", "1", "--end", "3"],
            "sides: the graph is bipartite, and step 1 on vertex 1 and step 4 on vertex 3 are an odd number of steps apart, but their vertices are on the same side",
        ),
        (
            &["--graph", &path, "--start", "2"],
            "sides: the graph is bipartite with one vertex more on one side, so a Hamiltonian path starts and ends there and its steps of odd number are there; step 1 on vertex 2 is not",
        ),
    ];
    for (args, words) in cases {
        let output = knightsat().arg("solve").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(20), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("colour") && !stderr.contains("square"),
            "{stderr}"
        );
    }
}

#[test]
fn a_graphs_tour_prints_its_vertices_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    // A cycle 1-2-…-6 with chords that leave one Hamiltonian cycle
    // through vertex 1 each way.
    let file = file_with(
        dir.path(),
        "ring",
        "1 2\n2 3\n3 4\n4 5\n5 6\n6 1\n1 1\n2 1\n",
    );
    let moves = knightsat()
        .args([
            "solve", "--closed", "--format", "moves", "-v", "--graph", &file,
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&moves.stdout);
    let stderr = String::from_utf8_lossy(&moves.stderr);
    assert!(
        ["1 2 3 4 5 6\n", "1 6 5 4 3 2\n"].contains(&stdout.as_ref()),
        "{stdout}"
    );
    assert!(
        stderr.contains("left out 1 self-loop(s) and 1 repeated edge(s)"),
        "{stderr}"
    );
    let json = knightsat()
        .args(["solve", "--closed", "--format", "json", "--graph", &file])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["vertices"], 6);
    assert_eq!(value["edges"], 6);
    assert_eq!(value["closed"], true);
    assert_eq!(value["tour"].as_array().unwrap().len(), 6);
    let dot = knightsat()
        .args(["solve", "--closed", "--format", "dot", "--graph", &file])
        .output()
        .unwrap();
    let dot = String::from_utf8_lossy(&dot.stdout);
    assert!(dot.starts_with("graph tour {"), "{dot}");
    // Every edge of the ring is on the cycle, so every edge is bold.
    assert_eq!(dot.matches(" -- ").count(), 6, "{dot}");
    assert_eq!(dot.matches("penwidth").count(), 6, "{dot}");
    // The default format, a board's grid, is the vertex list for a graph.
    let plain = knightsat()
        .args(["solve", "--closed", "--graph", &file])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&plain.stdout), stdout);
}

#[test]
#[cfg_attr(
    not(has_minisat),
    ignore = "minisat is not on PATH: run scripts/install-solvers.sh"
)]
fn a_large_graph_that_is_not_bipartite_gets_laps_and_its_cnf_decodes() {
    // The square of a 501-cycle (each vertex joined to the next two): odd
    // cycles, so not bipartite, and more than 420 vertices, so encode's
    // complete formula by positions has laps of 420 (two laps and a lap
    // counter); a knight board, bipartite, keeps one lap. With no
    // --acyclicity the same graph gets vertex elimination, and decodes too.
    let n = 501;
    let graph: Vec<Vec<usize>> = (0..n)
        .map(|u| vec![(u + 1) % n, (u + 2) % n, (u + n - 1) % n, (u + n - 2) % n])
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "square.col", &text_of(&graph, Written::Dimacs));
    let cnf = dir.path().join("square.cnf");
    for positions in [true, false] {
        let how: &[&str] = if positions {
            &["--acyclicity", "positions"]
        } else {
            &[]
        };
        knightsat()
            .args(["encode", "--closed", "--graph", &path, "-o"])
            .arg(&cnf)
            .args(how)
            .assert()
            .success();
        let text = std::fs::read_to_string(&cnf).unwrap();
        assert_eq!(
            text.contains("c option lap-length 420\n"),
            positions,
            "{text:.300}"
        );
        assert_eq!(text.contains("c family position-lap-ends"), positions);
        assert_eq!(
            text.contains("c option acyclicity vertex-elimination\n"),
            !positions
        );
        let mut vertices: Vec<usize> = crate::common::cli::minisat_decoded(&cnf)
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(vertices.len(), n);
        vertices.sort_unstable();
        assert_eq!(vertices, (1..=n).collect::<Vec<_>>());
    }
    let board = knightsat()
        .args([
            "encode",
            "--closed",
            "--size",
            "30",
            "--encoding",
            "successor",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&board.stdout).contains("c option lap-length none\n"));
}

#[test]
fn vertex_elimination_is_chosen_for_a_graph_while_its_clauses_stay_few() {
    // The knight's graph of 16x16 written as a file: least degree first
    // leaves 127 clauses of its own per move, within the rule's 300, so
    // encode's complete formula is vertex elimination; of 24x24, 378 per
    // move, past it, so the positions. (On the boards themselves the
    // positions always: a board keeps its formula.)
    let dir = tempfile::tempdir().unwrap();
    for (size, eliminated) in [(16, true), (24, false)] {
        let jumps = [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ];
        let graph: Vec<Vec<usize>> = (0..size * size)
            .map(|s| {
                let (r, c) = ((s / size) as i64, (s % size) as i64);
                jumps
                    .iter()
                    .map(|(dr, dc)| (r + dr, c + dc))
                    .filter(|&(r, c)| {
                        (0..size as i64).contains(&r) && (0..size as i64).contains(&c)
                    })
                    .map(|(r, c)| r as usize * size + c as usize)
                    .collect()
            })
            .collect();
        let path = file_with(
            dir.path(),
            &format!("knight{size}.col"),
            &text_of(&graph, Written::Dimacs),
        );
        let text = stdout_of(&["encode", "--closed", "--graph", &path]);
        assert_eq!(
            text.contains("c option acyclicity vertex-elimination\n"),
            eliminated,
            "{size}"
        );
        assert_eq!(text.contains("c family acyclic-by-elimination"), eliminated);
        assert_eq!(text.contains("c family position-advance"), !eliminated);
    }
    let board = stdout_of(&[
        "encode",
        "--closed",
        "--size",
        "16",
        "--encoding",
        "successor",
    ]);
    assert!(board.contains("c family position-advance"));
    assert!(!board.contains("acyclicity"));
}
