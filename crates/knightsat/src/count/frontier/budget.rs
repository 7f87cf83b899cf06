//! The memory budget that every table of a count draws on at once: bytes
//! taken and given back, and the flag a thread raises when it found no
//! room, so that the others empty their tables to disk.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Times a thread waits a millisecond for room in the budget.
const ROOM_TRIES: u32 = 5000;

/// Bytes of table memory in use, and the most that may be.
pub(crate) struct Budget {
    used: AtomicU64,
    limit: u64,
    /// Raised by a thread that found no room even with its own table
    /// emptied: the others empty theirs when they see it change.
    pressed: AtomicU64,
}

impl Budget {
    /// A budget of `limit` bytes (`u64::MAX` for none).
    pub(crate) fn new(limit: u64) -> Budget {
        Budget {
            used: AtomicU64::new(0),
            limit,
            pressed: AtomicU64::new(0),
        }
    }

    /// The most bytes it allows.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes in use now.
    pub(crate) fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// Takes `bytes` more, or refuses with the total that would be needed.
    pub(crate) fn take(&self, bytes: u64) -> Result<(), u64> {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        let after = before.saturating_add(bytes);
        if after > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            return Err(after);
        }
        Ok(())
    }

    /// Takes `bytes` more even past the limit (a few bytes that must be
    /// had).
    pub(crate) fn charge(&self, bytes: u64) {
        self.used.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Bytes it has left.
    pub(crate) fn left(&self) -> u64 {
        self.limit.saturating_sub(self.used())
    }

    /// Asks every thread to empty its table to disk.
    pub(crate) fn press(&self) {
        self.pressed.fetch_add(1, Ordering::Relaxed);
    }

    /// How often [`Budget::press`] was called.
    pub(crate) fn pressed(&self) -> u64 {
        self.pressed.load(Ordering::Relaxed)
    }

    /// Calls `attempt` until it stops failing for want of room, asking
    /// the other threads to empty their tables (see [`Budget::press`])
    /// and waiting a millisecond between tries, for up to a few seconds:
    /// a table they no longer add to is given back soon. `short_of_room`
    /// tells an error that waiting may cure; any other ends the wait.
    pub(crate) fn wait_for_room<T, E>(
        &self,
        mut attempt: impl FnMut() -> Result<T, E>,
        short_of_room: impl Fn(&E) -> bool,
    ) -> Result<T, E> {
        let mut tries = 0;
        loop {
            match attempt() {
                Err(e) if short_of_room(&e) && tries < ROOM_TRIES => {
                    self.press();
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(1));
                }
                done => return done,
            }
        }
    }

    /// Gives back `bytes`.
    pub(crate) fn give(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}
