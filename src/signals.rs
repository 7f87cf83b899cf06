//! Signals and the exits they cause: on SIGINT, SIGTERM or SIGHUP the
//! command cleans up what the library registered (temporary files, solver
//! process groups: [`knightsat::runtime::cleanup`]) and exits with status 128 + the
//! signal's number (130, 143, 129), as shells report a process ended by
//! that signal, after a note the command left for that case (a count's
//! checkpoint kept). The library itself never exits.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::exit;

/// The signal received, once one has been (0 before).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// What the command says on stderr if a signal ends it now, worded when
/// the signal comes (what a count's checkpoint holds by then).
type Note = Box<dyn Fn() -> String + Send>;

/// The note for a signal, if the command left one.
static NOTE: Mutex<Option<Note>> = Mutex::new(None);

/// Says what `note` words on stderr if a signal ends the command from now
/// on (what a count's checkpoint keeps for the same command to go on
/// from); `None` says nothing.
pub fn note_on_signal(note: Option<Note>) {
    *NOTE.lock().unwrap_or_else(PoisonError::into_inner) = note;
}

/// Cleans up, says the note there is, and exits as `signal` ends a
/// process.
fn exit_by(signal: i32) -> ! {
    knightsat::runtime::cleanup::clean_up_now();
    if let Some(note) = NOTE.lock().unwrap_or_else(PoisonError::into_inner).take() {
        eprintln!("{}", note());
    }
    std::process::exit(exit::SIGNALLED + signal);
}

/// Starts a thread that waits for SIGINT, SIGTERM or SIGHUP, then cleans up
/// and exits. Call once, early, and [`exit_if_signalled`] before `main`
/// returns.
pub fn exit_on_signals() -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                SIGNALLED.store(signal, Ordering::SeqCst);
                exit_by(signal);
            }
        })?;
    Ok(())
}

/// Exits as [`exit_on_signals`] would if a signal has arrived: the work
/// that ended because of it (a killed solver, say) must not report that as
/// its own failure.
pub fn exit_if_signalled() {
    let signal = SIGNALLED.load(Ordering::SeqCst);
    if signal != 0 {
        exit_by(signal);
    }
}
