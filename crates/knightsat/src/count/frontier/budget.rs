//! The memory budget that every table of a count draws on at once: bytes
//! taken and given back, and the flag a thread raises when it found no
//! room, so that the others empty their tables to disk.

use std::sync::atomic::{AtomicU64, Ordering};

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

    /// Gives back `bytes`.
    pub(crate) fn give(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}
