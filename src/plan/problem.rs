//! The problem and its encoding from the options that describe them.

use crate::failure::Fallible;
use knightsat::encoding::{
    Acyclicity, Amo, Encoding, EncodingConfig, Laps, PositionCode, Subtours, SuccessorConfig,
    TimeIndexedConfig,
};
use knightsat::error::Error;
use knightsat::model::board::Board;
use knightsat::model::graph::Graph;
use knightsat::model::problem::{parse_clue, Problem};
use knightsat::puzzle::parse_puzzle;
use knightsat::runtime::input;
use knightsat::solve::auto;
use knightsat::GivenBoard;

use crate::args::{EncodingArg, EncodingArgs, Preset, ProblemArgs, ShapeArgs};
use crate::failure::{NoBoard, SwitchOfOtherEncoding};

/// What the formula is for, which decides its defaults.
#[derive(Clone, Copy)]
enum Purpose {
    /// Solved in this process (`solve`, `count`).
    Solving,
    /// Written whole for another program (`encode`, `stats`, `cubes`).
    Writing,
}

impl ShapeArgs {
    /// The board the options describe, or `None` when none of --board,
    /// --size, --board-file is given.
    pub fn board(&self) -> Result<Option<Board>, Error> {
        let args = &self.board;
        if let Some(path) = &args.graph {
            let graph = Graph::parse(&input::read_text(path)?)?;
            return Ok(Some(Board::from_graph(graph)));
        }
        let rectangle = match (&args.board, args.size, &args.board_file) {
            (&Some((rows, cols)), _, _) => Board::new(rows, cols)?,
            (None, Some(n), _) => Board::new(n, n)?,
            (None, None, Some(path)) => Board::from_ascii(&input::read_text(path)?)?,
            (None, None, None) => return Ok(None),
        };
        Ok(Some(
            rectangle
                .with_holes(&self.holes)?
                .with_leaper(self.leaper.unwrap_or_default()),
        ))
    }

    /// What the options say about the board, for a tour that may carry its own.
    pub fn given_board(&self) -> Result<GivenBoard, Error> {
        Ok(GivenBoard {
            board: self.board()?,
            leaper: self.leaper,
            holes: self.holes.clone(),
        })
    }

    /// The board, which must be given.
    pub fn required_board(&self) -> Fallible<Board> {
        Ok(self.board()?.ok_or(NoBoard {
            puzzle_allowed: false,
        })?)
    }
}

impl ProblemArgs {
    /// What the board options and any `--puzzle` give: the puzzle's problem
    /// (its board, closedness and clues), or an open problem on the board;
    /// `None` when no board is given.
    pub fn given(&self) -> Result<Option<Problem>, Error> {
        if let Some(path) = &self.puzzle {
            let text = input::read_text(path)?;
            return parse_puzzle(&text, self.shape.leaper, self.closed)
                .map(Some)
                .map_err(|error| match error {
                    Error::BadPuzzle(why) => Error::BadPuzzle(format!("{}: {why}", path.display())),
                    Error::Problem(why) => Error::BadPuzzle(format!("{}: {why}", path.display())),
                    other => other,
                });
        }
        Ok(self.shape.board()?.map(|board| {
            let closed = self.closed || board.asks_cycle();
            Problem::new(board).closed(closed)
        }))
    }

    /// `given` (a problem from the board options or a puzzle) with --start,
    /// --end and the clues of --at added.
    pub fn complete(&self, given: Problem) -> Result<Problem, Error> {
        let board = given.board().clone();
        let square = |name: &Option<String>| {
            name.as_deref()
                .map(|name| board.parse_square(name))
                .transpose()
        };
        let clues = self
            .at
            .iter()
            .map(|clue| parse_clue(&board, clue))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(given
            .with_start(square(&self.start)?)?
            .with_end(square(&self.end)?)?
            .with_clues(clues)?)
    }

    /// The whole problem; a board must be given.
    pub fn problem(&self) -> Fallible<Problem> {
        let given = self.given()?.ok_or(NoBoard {
            puzzle_allowed: true,
        })?;
        Ok(self.complete(given)?)
    }

    /// What the options say about the board (a puzzle's board counts as
    /// given whole).
    pub fn given_board(&self, given: Option<&Problem>) -> Result<GivenBoard, Error> {
        match given {
            Some(problem) if self.puzzle.is_some() => Ok(GivenBoard {
                board: Some(problem.board().clone()),
                ..GivenBoard::default()
            }),
            _ => self.shape.given_board(),
        }
    }

    /// Whether --closed was given.
    pub fn closed(&self) -> bool {
        self.closed
    }
}

impl EncodingArgs {
    /// The problem, the encoding configuration the options describe, and
    /// the encoding prepared for the problem (which checks that the options
    /// fit it before any work starts), for a formula that is written or
    /// measured: the successor encoding's subtours complete unless
    /// --subtours says otherwise.
    pub fn problem_and_encoding(
        &self,
        problem: &ProblemArgs,
    ) -> Fallible<(Problem, EncodingConfig, Box<dyn Encoding>)> {
        let (problem, config) = self.problem_and_config_with(problem, Purpose::Writing)?;
        let encoding = config.prepare(&problem)?;
        Ok((problem, config, encoding))
    }

    /// The problem and the encoding configuration the options describe,
    /// not yet prepared (searches without SAT never prepare it); the
    /// successor encoding's subtours lazy unless --subtours says otherwise.
    pub fn problem_and_config(&self, problem: &ProblemArgs) -> Fallible<(Problem, EncodingConfig)> {
        self.problem_and_config_with(problem, Purpose::Solving)
    }

    /// [`problem_and_config`](Self::problem_and_config) for `purpose`: the
    /// successor encoding's subtours lazy for solving and complete for
    /// writing unless --subtours says otherwise, and with no encoding named
    /// the library's choice for the purpose.
    fn problem_and_config_with(
        &self,
        problem: &ProblemArgs,
        purpose: Purpose,
    ) -> Fallible<(Problem, EncodingConfig)> {
        let problem = problem.problem()?;
        // The library's default for the purpose names the encoding; the
        // options below make its switches.
        let (subtours, by_default) = match purpose {
            Purpose::Solving => (Subtours::FOR_SOLVING, auto::default_config(&problem)),
            Purpose::Writing => (Subtours::FOR_WRITING, auto::written_config(&problem)),
        };
        let encoding = self.encoding.unwrap_or(match by_default {
            EncodingConfig::Successor(_) => EncodingArg::Successor,
            EncodingConfig::TimeIndexed(_) => EncodingArg::TimeIndexed,
        });
        let config = match encoding {
            EncodingArg::TimeIndexed => {
                let only_successor = [
                    (self.subtours.is_some(), "--subtours"),
                    (self.no_patching, "--no-patching"),
                    (self.no_merged_cuts, "--no-merged-cuts"),
                    (self.position_support, "--position-support"),
                    (self.lap_length.is_some(), "--lap-length"),
                    (self.positions.is_some(), "--positions"),
                    (self.acyclicity.is_some(), "--acyclicity"),
                ];
                for (given, switch) in only_successor {
                    Self::refuse(given, switch, "successor", "time-indexed")?;
                }
                let config = EncodingConfig::from(self.time_indexed());
                if problem.board().graph().is_some() {
                    // Named for a graph: the library's refusal, not the
                    // successor encoding the jobs give a graph by default.
                    config.prepare(&problem)?;
                }
                config
            }
            EncodingArg::Successor => {
                let only_time_indexed = [
                    (self.no_predecessor, "--no-predecessor"),
                    (self.no_moves, "--no-moves"),
                    (self.no_reachability, "--no-reachability"),
                    (self.blocks.is_some(), "--blocks"),
                    (self.corridor.is_some(), "--corridor"),
                ];
                for (given, switch) in only_time_indexed {
                    Self::refuse(given, switch, "time-indexed", "successor")?;
                }
                let naive = matches!(self.preset, Some(Preset::Naive));
                let base = SuccessorConfig::default();
                let subtours = self.subtours.map_or(subtours, Subtours::from);
                if subtours == Subtours::Lazy {
                    Self::refuse(
                        self.acyclicity.is_some(),
                        "--acyclicity",
                        "successor --subtours complete",
                        "successor --subtours lazy",
                    )?;
                }
                if subtours == Subtours::Complete {
                    for (given, switch) in [
                        (self.no_patching, "--no-patching"),
                        (self.no_merged_cuts, "--no-merged-cuts"),
                    ] {
                        Self::refuse(
                            given,
                            switch,
                            "successor --subtours lazy",
                            "successor --subtours complete",
                        )?;
                    }
                }
                EncodingConfig::from(SuccessorConfig {
                    max_clause_len: self.max_clause_len,
                    amo: self.amo.map_or(base.amo, Amo::from),
                    symmetry_breaking: !naive && !self.no_symmetry_breaking,
                    subtours,
                    parity: base.parity && !naive && !self.no_parity,
                    position_support: self.position_support,
                    laps: self
                        .lap_length
                        .map_or(Laps::Auto, |len| Laps::Of(len as usize)),
                    positions: self.positions.map_or(base.positions, PositionCode::from),
                    acyclicity: self.acyclicity.map_or(base.acyclicity, Acyclicity::from),
                    patching: !self.no_patching,
                    merged_cuts: !self.no_merged_cuts,
                })
            }
        };
        Ok((problem, config))
    }

    /// The time-indexed switches the options give.
    fn time_indexed(&self) -> TimeIndexedConfig {
        let base = match self.preset {
            Some(Preset::Naive) => TimeIndexedConfig::naive(),
            None => TimeIndexedConfig::default(),
        };
        TimeIndexedConfig {
            max_clause_len: self.max_clause_len,
            amo: self.amo.map_or(base.amo, Amo::from),
            predecessor: base.predecessor && !self.no_predecessor,
            moves: base.moves && !self.no_moves,
            parity: base.parity && !self.no_parity,
            reachability: base.reachability && !self.no_reachability,
            symmetry_breaking: base.symmetry_breaking && !self.no_symmetry_breaking,
            blocks: self.blocks,
            corridor: self.corridor,
        }
    }

    /// Refuses a switch given for the encoding it does not belong to.
    fn refuse(
        given: bool,
        switch: &'static str,
        belongs: &'static str,
        chosen: &'static str,
    ) -> Result<(), SwitchOfOtherEncoding> {
        if given {
            return Err(SwitchOfOtherEncoding {
                switch,
                belongs,
                given: chosen,
            });
        }
        Ok(())
    }
}
