//! A race: one question put to several searches at once, each on a thread
//! of its own; the first answer wins and stops the others.
//!
//! A SAT solver's time on a clued board swings widely with changes that
//! keep the formula's meaning, such as the at-most-one
//! encoding: bimander is faster on some clue sets, pairwise on others, and
//! neither wins on all (docs/notebook.md, "The race on clued boards").
//! Racing the formulations on two cores answers in about the time of the
//! faster one, slowed by what two searches sharing the memory cost each
//! other: the idea of parallel portfolio solvers (Hamadi, Jabbour and
//! Sais, "`ManySAT`: a parallel SAT solver", JSAT 6, 2009).

use crate::error::RunError;
use std::sync::{Mutex, PoisonError};

use crate::error::Error;
use crate::runtime::stop::Stop;
use crate::runtime::threads::spawn_or_hand_back;

/// One entrant: a search that watches the race's [`Stop`] and ends with
/// [`RunError::Stopped`] once it is raised.
pub type Racer<'a, T> = Box<dyn FnOnce() -> Result<T, Error> + Send + 'a>;

/// Runs `racers` at once and returns the first answer, after raising
/// `stop` so that the others end; every thread has ended when this
/// returns. An entrant's error does not end the race while another may
/// still answer: the first error comes back only when no entrant
/// answered, and [`RunError::Stopped`] when every one was stopped (by a time
/// limit raising `stop` from outside).
pub(crate) fn first_answer<T: Send>(stop: &Stop, racers: Vec<Racer<'_, T>>) -> Result<T, Error> {
    let answer: Mutex<Option<T>> = Mutex::new(None);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let mut here = Vec::new();
        for racer in racers {
            let (answer, failure) = (&answer, &failure);
            // A racer no thread can take (an address-space limit) runs on
            // this one after the others have started.
            let spawned = spawn_or_hand_back(scope, racer, move |racer| {
                run_racer(racer, stop, answer, failure);
            });
            if let Err(racer) = spawned {
                here.push(racer);
            }
        }
        for racer in here {
            run_racer(racer, stop, &answer, &failure);
        }
    });
    let failure = failure.into_inner().unwrap_or_else(PoisonError::into_inner);
    match answer.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(value) => Ok(value),
        None => Err(failure.unwrap_or(Error::Run(RunError::Stopped))),
    }
}

/// Runs `racer`: its answer is kept if it is the first (and `stop`
/// raised, so that the others end), its error if it is the first error.
fn run_racer<T>(
    racer: Racer<'_, T>,
    stop: &Stop,
    answer: &Mutex<Option<T>>,
    failure: &Mutex<Option<Error>>,
) {
    match racer() {
        Ok(value) => {
            answer
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(value);
            stop.stop();
        }
        Err(Error::Run(RunError::Stopped)) => {}
        Err(error) => {
            failure
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(error);
        }
    }
}

/// Whether racing `entrants` searches is worth it here: this machine has
/// a core for each of them.
pub(crate) fn cores_for(entrants: usize) -> bool {
    crate::runtime::threads::cores() >= entrants
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use crate::error::SatError;
    use crate::runtime::interrupt::Interrupt;

    /// An entrant that waits for the stop, as a long search would.
    fn until_stopped(stop: &Stop) -> Racer<'_, u32> {
        Box::new(move || {
            while !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(Error::Run(RunError::Stopped))
        })
    }

    #[test]
    fn the_first_answer_wins_and_stops_the_rest() {
        let stop = Stop::new();
        let answer = first_answer(&stop, vec![until_stopped(&stop), Box::new(|| Ok(7))]);
        assert_eq!(answer.unwrap(), 7);
        assert!(stop.is_stopped());
    }

    #[test]
    fn an_error_waits_for_the_other_entrants() {
        let stop = Stop::new();
        let answer = first_answer(
            &stop,
            vec![
                Box::new(|| Err(Error::Sat(SatError::NoAnswer))),
                Box::new(|| {
                    std::thread::sleep(Duration::from_millis(20));
                    Ok(3)
                }),
            ],
        );
        assert_eq!(answer.unwrap(), 3);
    }

    #[test]
    fn with_no_answer_the_error_comes_back() {
        let stop = Stop::new();
        let limit = Some(Duration::from_millis(20));
        let answer = stop.within(limit, &Interrupt::default(), || {
            first_answer(
                &stop,
                vec![
                    Box::new(|| Err(Error::Sat(SatError::NoAnswer))),
                    until_stopped(&stop),
                ],
            )
        });
        assert!(
            matches!(answer, Err(Error::Sat(SatError::NoAnswer))),
            "{answer:?}"
        );
    }

    #[test]
    fn a_race_that_runs_out_of_time_is_a_timeout() {
        let stop = Stop::new();
        let limit = Some(Duration::from_millis(20));
        let answer = stop.within(limit, &Interrupt::default(), || {
            first_answer(&stop, vec![until_stopped(&stop), until_stopped(&stop)])
        });
        assert!(
            matches!(answer, Err(Error::Run(RunError::Timeout { .. }))),
            "{answer:?}"
        );
    }

    #[test]
    fn a_raised_interrupt_stops_the_work_and_says_so() {
        let stop = Stop::new();
        let interrupt = Interrupt::new();
        let answer = stop.within(None, &interrupt, || {
            interrupt.raise();
            until_stopped(&stop)()
        });
        assert!(
            matches!(answer, Err(Error::Run(RunError::Interrupted))),
            "{answer:?}"
        );
        let answer = Stop::new().within(None, &interrupt, || Ok(1));
        assert!(
            matches!(answer, Err(Error::Run(RunError::Interrupted))),
            "{answer:?}"
        );
    }
}
