//! Signals and the exits they cause: on SIGINT, SIGTERM or SIGHUP the
//! command cleans up what the library registered (temporary files, solver
//! process groups: [`knightsat::runtime::cleanup`]) and exits with status 128 + the
//! signal's number (130, 143, 129), as shells report a process ended by
//! that signal. The library itself never exits.

use std::sync::atomic::{AtomicI32, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::exit;

/// The signal received, once one has been (0 before).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

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
                knightsat::runtime::cleanup::clean_up_now();
                std::process::exit(exit::SIGNALLED + signal);
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
        knightsat::runtime::cleanup::clean_up_now();
        std::process::exit(exit::SIGNALLED + signal);
    }
}
