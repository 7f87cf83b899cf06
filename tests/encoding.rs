//! The encoding avoids each defect of the careless generator in seed 003,
//! writes an exact header, and round-trips through varisat's own DIMACS parser.

use knightsat::cnf::{ClauseSink, Formula, Lit, Stats};
use knightsat::cnf_file::write_cnf;
use knightsat::encoding::decode::tour_from_model;
use knightsat::encoding::time_indexed::{self, TimeIndexed, TimeIndexedConfig};
use knightsat::encoding::{Amo, Encoding, Model};
use knightsat::model::board::Board;
use knightsat::model::problem::Problem;
use varisat::ExtendFormula;

/// The time-indexed encoding of a plain board, open or closed.
fn prepared(rows: usize, cols: usize, closed: bool, config: TimeIndexedConfig) -> TimeIndexed {
    let problem = Problem::new(Board::new(rows, cols).unwrap()).closed(closed);
    TimeIndexed::new(&problem, config).unwrap()
}

/// The default configuration with `split` and `amo`.
fn config(split: Option<usize>, amo: Amo) -> TimeIndexedConfig {
    TimeIndexedConfig {
        max_clause_len: split,
        amo,
        ..TimeIndexedConfig::default()
    }
}

fn cnf_text(encoding: &TimeIndexed) -> String {
    let mut out = Vec::new();
    write_cnf(encoding, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Counts clauses and the highest variable in the body, and reads the header.
fn header_and_body_counts(text: &str) -> ((usize, usize), (usize, usize)) {
    let mut header = None;
    let (mut clauses, mut max_var) = (0, 0);
    for line in text.lines() {
        if line.starts_with('c') {
            assert!(header.is_none(), "comment after the header");
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let numbers: Vec<usize> = rest
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            header = Some((numbers[0], numbers[1]));
            continue;
        }
        let lits: Vec<i64> = line
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(
            lits.last(),
            Some(&0),
            "clause line without terminating 0: {line}"
        );
        assert!(lits[..lits.len() - 1].iter().all(|&l| l != 0));
        max_var = lits
            .iter()
            .map(|l| l.unsigned_abs() as usize)
            .fold(max_var, usize::max);
        clauses += 1;
    }
    (header.expect("no p cnf header"), (max_var, clauses))
}

#[test]
fn header_counts_match_the_body() {
    // Seed 003 wrote `p cnf 1 2` whatever the formula.
    for (rows, cols, closed, split) in [
        (4, 5, false, None),
        (3, 4, false, Some(3)),
        (5, 6, true, None),
        (6, 6, true, Some(4)),
    ] {
        let o = prepared(rows, cols, closed, config(split, Amo::default()));
        let text = cnf_text(&o);
        let (header, body) = header_and_body_counts(&text);
        assert_eq!(
            header, body,
            "{rows}x{cols} closed={closed} split={split:?}"
        );
    }
}

#[test]
fn variable_numbers_never_collide() {
    // Seed 003 numbered x as 100i + 10j + k, which collides from 10x10 on.
    for (rows, cols) in [(10, 10), (3, 17), (12, 11)] {
        let vars = prepared(rows, cols, false, TimeIndexedConfig::default()).vars();
        let n = rows * cols;
        let mut seen = vec![false; n * n + 1];
        for t in 0..n {
            for s in 0..n {
                let v = vars.x(t, s).to_dimacs() as usize;
                assert_eq!(v, 1 + t * n + s, "documented formula");
                assert!(!seen[v], "x({t},{s}) = {v} collides");
                seen[v] = true;
                assert_eq!(vars.step_and_square(v), Some((t, s)));
            }
        }
        assert!(
            seen[1..].iter().all(|&s| s),
            "x variables are exactly 1..=N²"
        );
    }
}

/// A varisat solver loaded with the clauses one family function writes, its
/// auxiliaries numbered after the 25x25 x variables of a 5x5 board.
fn solver_for_family(fill: impl FnOnce(&mut Formula)) -> varisat::Solver<'static> {
    let mut formula = Formula::default();
    formula.reserve_vars(25 * 25);
    fill(&mut formula);
    let mut solver = varisat::Solver::new();
    for clause in &formula.clauses {
        solver.add_clause(clause);
    }
    solver
}

#[test]
fn at_most_one_forbids_every_pair_including_shared_rows_and_columns() {
    // Seed 003 forbade only pairs differing in both row and column. The
    // families are checked on their own: in the whole formula, pigeonhole
    // would hide a missing pair.
    // Nothing pruned, so every x variable takes part.
    let encoding = prepared(5, 5, false, TimeIndexedConfig::naive());
    let vars = encoding.vars();
    for amo in Amo::ALL {
        let mut per_step = solver_for_family(|f| time_indexed::step_at_most_one(&encoding, amo, f));
        let mut per_square =
            solver_for_family(|f| time_indexed::square_at_most_one(&encoding, amo, f));
        for k in [0, 7, 24] {
            for a in 0..25 {
                per_step.assume(&[vars.x(k, a).positive()]);
                assert!(
                    per_step.solve().unwrap(),
                    "{amo}: step {k} may be on {a} alone"
                );
                for b in a + 1..25 {
                    per_step.assume(&[vars.x(k, a).positive(), vars.x(k, b).positive()]);
                    assert!(
                        !per_step.solve().unwrap(),
                        "{amo}: step {k} on squares {a} and {b}"
                    );
                    per_square.assume(&[vars.x(a, k).positive(), vars.x(b, k).positive()]);
                    assert!(
                        !per_square.solve().unwrap(),
                        "{amo}: square {k} at steps {a} and {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn at_least_one_holds_per_step_and_per_square() {
    // Seed 003 wrote one at-least-one clause over every variable, which lets a
    // step be empty as long as some other step is occupied.
    let encoding = prepared(5, 5, false, TimeIndexedConfig::naive());
    let vars = encoding.vars();
    let mut per_step = solver_for_family(|f| time_indexed::step_at_least_one(&encoding, f));
    let mut per_square = solver_for_family(|f| time_indexed::square_at_least_one(&encoding, f));
    for k in 0..25 {
        let nowhere_at_step: Vec<Lit> = (0..25).map(|s| vars.x(k, s).negative()).collect();
        per_step.assume(&nowhere_at_step);
        assert!(!per_step.solve().unwrap(), "step {k} may be empty");
        let square_never_visited: Vec<Lit> = (0..25).map(|t| vars.x(t, k).negative()).collect();
        per_square.assume(&square_never_visited);
        assert!(!per_square.solve().unwrap(), "square {k} may be skipped");
    }
    // The diagonal assignment (step t on square t) satisfies both families.
    let diagonal: Vec<Lit> = (0..25)
        .flat_map(|t| (0..25).map(move |s| vars.x(t, s).lit(t == s)))
        .collect();
    per_step.assume(&diagonal);
    assert!(per_step.solve().unwrap());
    per_square.assume(&diagonal);
    assert!(per_square.solve().unwrap());
    let mut stats = Stats::default();
    encoding.encode(&mut stats);
    for family in ["step-at-least-one", "square-at-least-one"] {
        let f = stats.families.iter().find(|f| f.name == family).unwrap();
        assert_eq!(
            (f.clauses, f.literals),
            (25, 625),
            "{family}: one clause of N literals each"
        );
    }
}

#[test]
fn tseytin_auxiliaries_are_fresh_and_used_by_one_clause_chain_each() {
    // Seed 003's auxiliaries collided between clauses. Every auxiliary of a
    // split must occur exactly twice: positively closing one link, negatively
    // opening the next.
    // Pairwise and no move variables: no auxiliaries but the splitter's.
    let o = prepared(
        5,
        5,
        false,
        TimeIndexedConfig {
            moves: false,
            ..config(Some(3), Amo::Pairwise)
        },
    );
    let mut formula = Formula::default();
    o.encode(&mut formula);
    let x_vars = 25 * 25;
    let mut positive = vec![0; formula.vars + 1];
    let mut negative = vec![0; formula.vars + 1];
    for clause in &formula.clauses {
        assert!(
            clause.len() <= 3,
            "clause longer than the bound: {clause:?}"
        );
        for lit in clause {
            let v = lit.var().to_dimacs() as usize;
            if v > x_vars {
                if lit.is_positive() {
                    positive[v] += 1;
                } else {
                    negative[v] += 1;
                }
            }
        }
    }
    assert!(formula.vars > x_vars);
    for v in x_vars + 1..=formula.vars {
        assert_eq!((positive[v], negative[v]), (1, 1), "auxiliary {v}");
    }
}

#[test]
fn round_trip_through_varisats_dimacs_parser() {
    for (rows, cols, closed, split, amo) in [
        (3, 4, false, None, Amo::Pairwise),
        (5, 5, false, Some(3), Amo::Pairwise),
        (5, 6, true, None, Amo::Sequential),
        (6, 6, true, Some(5), Amo::Pairwise),
        (4, 5, false, None, Amo::Sequential),
    ] {
        let o = prepared(rows, cols, closed, config(split, amo));
        let text = cnf_text(&o);
        let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula);
        assert!(solver.solve().unwrap(), "{rows}x{cols} has a tour");
        let model = Model::from_lits(&solver.model().unwrap());
        let tour = tour_from_model(&o, &model, Some(formula.var_count())).unwrap();
        assert_eq!(
            knightsat::model::verify::verify(&tour.squares, o.problem()),
            Ok(())
        );
    }
}

#[test]
fn the_same_options_give_byte_identical_output() {
    let o = prepared(6, 6, true, config(Some(3), Amo::default()));
    let again = prepared(6, 6, true, config(Some(3), Amo::default()));
    assert_eq!(cnf_text(&o), cnf_text(&again));
}

#[test]
fn the_stats_sink_sees_the_same_clauses_as_the_writer() {
    let o = prepared(5, 6, false, config(Some(4), Amo::default()));
    let mut stats = Stats::default();
    o.encode(&mut stats);
    let mut formula = Formula::default();
    o.encode(&mut formula);
    assert_eq!(stats.clauses, formula.clauses.len());
    assert_eq!(stats.vars, formula.vars);
    assert_eq!(
        stats.literals,
        formula.clauses.iter().map(Vec::len).sum::<usize>()
    );
    let (header, _) = header_and_body_counts(&cnf_text(&o));
    assert_eq!(header, (stats.vars, stats.clauses));
}
