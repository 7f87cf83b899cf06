//! Every parser, given arbitrary input, returns a value or a one-line error:
//! never a panic, an abort or a multi-line message. Inputs are random bytes
//! and random text built from each format's own alphabet, so that they get
//! past the first check and into the parser's depths.

use knightsat::cnf::dimacs::read_answer;
use knightsat::cnf_file::read_cnf_info;
use knightsat::model::board::{Board, Leaper};
use knightsat::model::problem::parse_clue;
use knightsat::parse_tour;
use knightsat::puzzle::parse_puzzle;
use proptest::prelude::*;

/// How many inputs each property runs (about a second in all).
const CASES: u32 = 10_000;

fn one_line<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<(), TestCaseError> {
    if let Err(error) = result {
        let message = error.to_string();
        prop_assert!(!message.contains('\n'), "multi-line message: {message:?}");
        prop_assert!(message.len() < 1000, "message too long: {}", message.len());
    }
    Ok(())
}

/// Text from an alphabet that matters to the parsers, plus anything.
fn text(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(
            proptest::sample::select(alphabet.chars().collect::<Vec<_>>()),
            0..max
        )
        .prop_map(|chars| chars.into_iter().collect()),
        proptest::collection::vec(any::<u8>(), 0..max)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

fn board() -> Board {
    Board::new(5, 6).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn board_sizes(input in text("0123456789xX -+", 24)) {
        one_line(input.parse::<Board>())?;
    }

    #[test]
    fn leapers(input in text("0123456789, -", 16)) {
        one_line(input.parse::<Leaper>())?;
    }

    #[test]
    fn squares(input in text("abcxyz0123456789 ", 16)) {
        one_line(board().parse_square(&input))?;
    }

    #[test]
    fn clues(input in text("0123456789=abcf ", 16)) {
        one_line(parse_clue(&board(), &input))?;
    }

    #[test]
    fn board_files(input in text(".# \n\r.x", 200)) {
        one_line(Board::from_ascii(&input))?;
    }

    #[test]
    fn puzzles(input in text("0123456789.# \nabcdef{}\"rows:cols,clues[]=", 200), closed: bool) {
        one_line(parse_puzzle(&input, None, closed))?;
    }

    #[test]
    fn tours(input in text("abcdef123456 ,\n{}\"rows:cols,tour[]01", 200), closed: bool) {
        one_line(parse_tour(&input, Some(board()), closed))?;
        one_line(parse_tour(&input, None, closed))?;
    }

    #[test]
    fn solver_output(input in text("sv cSATUNIFBLE-0123456789 \n", 300), vars in 0usize..100) {
        one_line(read_answer(input.as_bytes(), vars))?;
    }

    #[test]
    fn cnf_comments(lines in proptest::collection::vec(
        prop_oneof![
            Just("c knightsat 0.1.0: knight's tour, time-indexed encoding".to_string()),
            Just("c option board 5x6".to_string()),
            Just("c option closed true".to_string()),
            Just("c option start a1".to_string()),
            Just("c option clues 3=c2".to_string()),
            Just("c option amo pairwise".to_string()),
            Just("c option blocks 2x2".to_string()),
            Just("c option corridor 4".to_string()),
            Just("c option corridor -1".to_string()),
            Just("c option max-clause-len 2".to_string()),
            Just("p cnf 900 3000".to_string()),
            text("cop nbardx0123456789=, ", 40),
        ],
        0..12,
    )) {
        one_line(read_cnf_info(lines.join("\n").as_bytes()))?;
    }
}
