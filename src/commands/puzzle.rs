//! `puzzle`: a numbered grid with one solution.

use crate::failure::Fallible;
use std::io::Write;
use std::process::ExitCode;

use knightsat::model::problem::Problem;
use knightsat::puzzle::{
    generate, puzzle_grid, puzzle_picture, seed_or_random, Generated, PuzzleJson,
};
use knightsat::solve::Outcome;
use knightsat::{board_grid, svg, Format};

use super::{emit, print_outcome, show_step, step_bar};
use crate::args::PuzzleFormat;
use crate::plan::Puzzle;

/// `puzzle`: a numbered grid with one solution, made by SAT as `request`
/// says.
pub fn puzzle(args: &Puzzle) -> Fallible<ExitCode> {
    let Puzzle { board, request, .. } = args;
    let seed = seed_or_random(args.seed);
    let bar = step_bar("clues tried");
    let generated = generate(board, args.closed, seed, request, |done, total| {
        show_step(&bar, done as u64, total as u64);
    })?;
    bar.finish_and_clear();
    let Some(Generated {
        puzzle,
        solution: tour,
        untried,
    }) = generated
    else {
        // No puzzle: what stands for no tour in the format asked for.
        let format = match args.format {
            PuzzleFormat::Board => Format::Board,
            PuzzleFormat::Json => Format::Json,
            PuzzleFormat::Svg => Format::Svg,
        };
        let problem = Problem::new(board.clone()).closed(args.closed);
        return print_outcome(Outcome::NoTour, format, &problem);
    };
    note!(
        "{} {} puzzle on the {} board: {} clues (seed {seed}{})",
        if args.closed { "closed" } else { "open" },
        board.leaper().name(),
        board,
        puzzle.clues().len(),
        if untried == 0 {
            format!("; --seed {seed} makes it again")
        } else {
            String::new()
        }
    );
    if untried > 0 {
        note!(
            "the time limit ran out with {untried} of {} clues untried: the solution is unique, but some clues may be unneeded (without --timeout, --seed {seed} makes a puzzle where none is)",
            board.squares()
        );
    }
    let answer = args.solution.then_some(&tour);
    let text = match args.format {
        PuzzleFormat::Board => match answer {
            Some(tour) => format!("{}\n{}", puzzle_grid(&puzzle), board_grid(tour)),
            None => puzzle_grid(&puzzle),
        },
        PuzzleFormat::Json => serde_json::to_string(&PuzzleJson::new(&puzzle, answer))? + "\n",
        PuzzleFormat::Svg => svg(&puzzle_picture(&puzzle, answer)),
    };
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
