//! An estimate of the time a frontier count has left, made from nothing but
//! the progress it reports ([`SquareProgress`]) and when each report came.
//!
//! A step's time follows its live states, which are not known before the
//! step, and the pieces of a count (by where its ends lie, or by classes of
//! end pairs) and the batches of one differ far more than steps do
//! (docs/notebook.md, "Where a frontier count's time goes, step by step").
//! So the estimate assumes what was last seen goes on:
//! - each step left of the run under way takes as long as its last few
//!   steps took on average;
//! - when the count meets in the middle, its last step, the join of the two
//!   halves' tables, takes as long as the last join did; before any join
//!   has run, as long as the run before it;
//! - the batches waiting of a split take as long as their sibling under
//!   way will, all of whose own batches included (batches split again as
//!   they run: the count splits its states into batches by the memory
//!   budget at any half step, and the last made are counted first), times
//!   their states over the sibling's when they were split (the batches of
//!   one split differ in size several times over);
//! - each piece left takes as long as the pieces so far (the one under way
//!   as it will end).
//!
//! How good it is, measured at a quarter, a half and three quarters of
//! long counts, is in docs/benchmarks.md ("Time left").

use super::options::{Batch, Piece, SquareProgress};

/// How many of the last steps a step left is expected to take as long as.
const RECENT_STEPS: usize = 3;

/// Follows a frontier count's progress and estimates the time it has left
/// ([`TimeLeft::observe`]).
#[derive(Clone, Debug, Default)]
pub struct TimeLeft {
    /// Seconds of the last report.
    last: f64,
    /// Whether a report has come.
    started: bool,
    /// The piece of the last report.
    piece: Option<Piece>,
    /// Seconds at which the piece under way began.
    piece_began: f64,
    /// Seconds each finished piece took.
    pieces: Vec<f64>,
    /// The batch of the last report.
    batch: Option<Batch>,
    /// Seconds at which the batch under way (or the piece) began.
    run_began: f64,
    /// The splits into batches of the piece under way, the first made
    /// first.
    splits: Vec<Split>,
    /// Seconds the last steps of the run under way took, oldest first.
    recent: Vec<f64>,
    /// Seconds the last join took.
    join: Option<f64>,
}

/// One split of a count's states into batches.
#[derive(Clone, Copy, Debug)]
struct Split {
    /// Its batches that have not begun.
    waiting: usize,
    /// Their states.
    waiting_states: usize,
    /// The states the batch of it under way began with.
    child_states: usize,
    /// Seconds at which the batch of it under way began, its own batches
    /// included.
    child_began: f64,
}

impl Split {
    /// The time its batches waiting take, as a multiple of the time its
    /// batch under way takes with all of its own.
    #[allow(clippy::cast_precision_loss)]
    fn waiting_share(&self) -> f64 {
        if self.child_states == 0 {
            self.waiting as f64
        } else {
            self.waiting_states as f64 / self.child_states as f64
        }
    }
}

impl TimeLeft {
    /// Follows a count from its start.
    #[must_use]
    pub fn new() -> TimeLeft {
        TimeLeft::default()
    }

    /// Takes the report `step`, made `seconds` after the count began, and
    /// gives the seconds the count has left by the estimate (see the
    /// module's page), or `None` until a step's time is known.
    pub fn observe(&mut self, seconds: f64, step: &SquareProgress) -> Option<f64> {
        let took = (seconds - self.last).max(0.0);
        if self.started && self.piece != step.piece {
            self.pieces.push(self.last - self.piece_began);
            self.piece_began = self.last;
            self.run_began = self.last;
            self.batch = None;
            self.splits.clear();
            self.recent.clear();
        }
        self.started = true;
        self.piece = step.piece;
        if step.batch != self.batch {
            self.follow_batches(step.batch);
        }
        if step.joins && step.done == step.total {
            self.join = Some(took);
        } else {
            if self.recent.len() == RECENT_STEPS {
                self.recent.remove(0);
            }
            self.recent.push(took);
        }
        self.last = seconds;
        self.left(seconds, step)
    }

    /// Follows the batches from the last report's to `batch` (none before
    /// a split): a batch begun, taken from the split made last that has
    /// one waiting, and a split, which makes more.
    fn follow_batches(&mut self, batch: Option<Batch>) {
        let (was_under_way, were_made) = self.batch.map_or((1, 1), |b| (b.under_way, b.made));
        let (under_way, made, began_with, waiting) = batch.map_or((1, 1, 0, 0), |b| {
            (b.under_way, b.made, b.began_with, b.waiting)
        });
        if under_way > was_under_way {
            while self.splits.last().is_some_and(|split| split.waiting == 0) {
                self.splits.pop();
            }
            if let Some(split) = self.splits.last_mut() {
                split.waiting -= 1;
                split.waiting_states = split.waiting_states.saturating_sub(began_with);
                split.child_states = began_with;
                split.child_began = self.last;
            }
            // A batch runs its steps again from where its states were
            // split, with fewer states than the steps before.
            self.recent.clear();
            self.run_began = self.last;
        }
        if made > were_made {
            let earlier: usize = self.splits.iter().map(|split| split.waiting_states).sum();
            self.splits.push(Split {
                waiting: made - were_made,
                waiting_states: waiting.saturating_sub(earlier),
                child_states: began_with,
                child_began: self.last,
            });
        }
        self.batch = batch;
    }

    /// The estimate after the report `step` at `seconds`.
    #[allow(clippy::cast_precision_loss)]
    fn left(&self, seconds: f64, step: &SquareProgress) -> Option<f64> {
        if self.recent.is_empty() {
            return None;
        }
        let per_step = self.recent.iter().sum::<f64>() / self.recent.len() as f64;
        let steps_left = step.total.saturating_sub(step.done);
        let join_left = step.joins && steps_left > 0;
        let mut run_left = (steps_left - usize::from(join_left)) as f64 * per_step;
        if join_left {
            run_left += self.join.unwrap_or(seconds - self.run_began + run_left);
        }
        // Each split's batches waiting take their share of the time of the
        // one of them under way, whose own splits' batches come first.
        let piece_left = self.splits.iter().rev().fold(run_left, |left, split| {
            left + split.waiting_share() * (seconds - split.child_began + left)
        });
        let (index, of) = ordinal(step.piece);
        let this_piece = seconds - self.piece_began + piece_left;
        let per_piece =
            (self.pieces.iter().sum::<f64>() + this_piece) / (self.pieces.len() + 1) as f64;
        Some(piece_left + of.saturating_sub(index + 1) as f64 * per_piece)
    }
}

/// The piece's number from 0 and the pieces in all.
fn ordinal(piece: Option<Piece>) -> (usize, usize) {
    match piece {
        None => (0, 1),
        Some(Piece::BothEndsInOneHalf) => (0, 2),
        Some(Piece::AnEndInEachHalf) => (1, 2),
        Some(Piece::EndClass { class, of }) => (class.saturating_sub(1), of),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(done: usize, total: usize, piece: Option<Piece>, joins: bool) -> SquareProgress {
        SquareProgress {
            done,
            total,
            states: 1,
            bytes: 0,
            on_disk: 0,
            batch: None,
            piece,
            joins,
        }
    }

    fn close(got: Option<f64>, want: f64) {
        let got = got.expect("an estimate");
        assert!((got - want).abs() < 1e-9, "estimated {got}, want {want}");
    }

    #[test]
    fn steps_left_take_as_long_as_the_last_few_did() {
        let mut left = TimeLeft::new();
        // Steps of 1, 2, 3 and 4 s: the last three average 3 s.
        let mut at = 0.0;
        for (done, took) in [(1, 1.0), (2, 2.0), (3, 3.0)] {
            at += took;
            left.observe(at, &step(done, 10, None, false));
        }
        at += 4.0;
        close(left.observe(at, &step(4, 10, None, false)), 6.0 * 3.0);
        // The last step of a count that does not meet in the middle is a
        // step like the others: steps of 3, 4 and 3 s last.
        close(
            left.observe(at + 3.0, &step(9, 10, None, false)),
            10.0 / 3.0,
        );
        assert_eq!(
            left.observe(at + 6.0, &step(10, 10, None, false)),
            Some(0.0)
        );
    }

    #[test]
    fn no_estimate_before_a_step_has_taken_time_and_a_first_join_takes_as_long_as_the_run() {
        let mut left = TimeLeft::new();
        assert_eq!(TimeLeft::new().left(0.0, &step(0, 5, None, true)), None);
        // Four steps of 2 s each, then the join: before any join it takes
        // as long as the 8 s before it and the 0 s of steps between.
        for done in 1..=4 {
            let estimate = left.observe(2.0 * done as f64, &step(done, 5, None, true));
            if done == 4 {
                close(estimate, 8.0);
            }
        }
    }

    #[test]
    fn a_second_piece_takes_its_join_from_the_first_and_later_pieces_as_long_as_those_so_far() {
        let mut left = TimeLeft::new();
        let first = Some(Piece::BothEndsInOneHalf);
        let second = Some(Piece::AnEndInEachHalf);
        // First piece: 3 steps of 1 s, then a join of 10 s: 13 s.
        left.observe(1.0, &step(1, 4, first, true));
        left.observe(2.0, &step(2, 4, first, true));
        // The join left is expected to take as long as the 3 s run before
        // it, and the second piece as long as this one will: 6 s.
        close(left.observe(3.0, &step(3, 4, first, true)), 3.0 + 6.0);
        left.observe(13.0, &step(4, 4, first, true));
        // Second piece: steps of 5 s; two steps left and the join of 10 s.
        close(
            left.observe(18.0, &step(1, 4, second, true)),
            5.0 * 2.0 + 10.0,
        );
    }

    /// Step `done` of `total` of a count with no piece, in `batch`.
    fn in_batch(done: usize, total: usize, batch: Option<Batch>) -> SquareProgress {
        SquareProgress {
            batch,
            ..step(done, total, None, false)
        }
    }

    /// The batch `under_way` of `made`, begun with `began_with` states,
    /// with `waiting` states in the batches not begun.
    fn batch(under_way: usize, made: usize, began_with: usize, waiting: usize) -> Batch {
        Batch {
            under_way,
            made,
            began_with,
            waiting,
        }
    }

    #[test]
    fn batches_waiting_take_as_long_as_the_one_under_way_will() {
        let mut left = TimeLeft::new();
        let mut batched = |at: f64, done: usize, batch| left.observe(at, &in_batch(done, 6, batch));
        batched(1.0, 1, None);
        batched(2.0, 2, None);
        // Split after step 2 into 3 batches of 10 states; the first's step
        // 3 takes 2 s. Its 3 steps left at 4/3 s a step (the last three
        // took 1, 1 and 2 s), and two batches more, each its 2 s so far
        // and those steps.
        let per = 4.0 / 3.0;
        close(
            batched(4.0, 3, Some(batch(1, 3, 10, 20))),
            3.0 * per + 2.0 * (2.0 + 3.0 * per),
        );
        // Split again after step 3 into 2 of 5 states; step 4 takes 1 s
        // (4/3 s a step again). The second of those 2 takes as long as the
        // first will (its 1 s and 2 steps), and the first split's 2
        // waiting as long as all of theirs (3 s since it and what is left
        // of the second).
        let second = 1.0 + 2.0 * per;
        close(
            batched(5.0, 4, Some(batch(1, 4, 5, 25))),
            2.0 * per + second + 2.0 * (3.0 + 2.0 * per + second),
        );
        // The second batch of the second split begins from step 4 again
        // and its step takes 2 s: its 2 steps left at 2 s a step, and the
        // first split's 2 waiting as long as all the first of them took
        // (5 s since the split) and those 2 steps.
        close(
            batched(7.0, 4, Some(batch(2, 4, 5, 20))),
            2.0 * 2.0 + 2.0 * (5.0 + 2.0 * 2.0),
        );
    }

    #[test]
    fn batches_waiting_take_the_share_of_their_states() {
        let mut left = TimeLeft::new();
        let mut batched = |at: f64, done: usize, batch| left.observe(at, &in_batch(done, 4, batch));
        batched(1.0, 1, None);
        // Split after step 1: the first batch began with 10 states, the
        // other two wait with 30 and 10. Steps of 1 s: 2 left of the
        // first, then 4 times all of its 3 s for the 40 states waiting.
        close(batched(2.0, 2, Some(batch(1, 3, 10, 40))), 2.0 + 4.0 * 3.0);
        batched(3.0, 3, Some(batch(1, 3, 10, 40)));
        batched(4.0, 4, Some(batch(1, 3, 10, 40)));
        // The batch of 30 begins again from step 2, which takes 3 s: two
        // steps left of it at that pace, and the 10 states waiting a third
        // of all of it, the 3 s so far and those two steps.
        close(
            batched(7.0, 2, Some(batch(2, 3, 30, 10))),
            2.0 * 3.0 + (3.0 + 2.0 * 3.0) / 3.0,
        );
    }
}
