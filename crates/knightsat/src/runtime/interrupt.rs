//! A way to stop a long task from outside it: a caller that runs a solve
//! or a count on one thread and wants to end it from another (a Python
//! caller's Ctrl-C, say) arms an [`Interrupt`], hands it over in the
//! request, and raises it; the task stops soon after and reports
//! [`RunError::Interrupted`](crate::runtime::RunError::Interrupted).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag that a caller raises to stop a task it handed the flag to.
/// The default flag is not armed: it can never be raised, and a task that
/// holds it pays nothing for watching it. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Option<Arc<AtomicBool>>);

impl Interrupt {
    /// An armed flag, not yet raised.
    pub fn new() -> Interrupt {
        Interrupt(Some(Arc::new(AtomicBool::new(false))))
    }

    /// An armed flag that is `flag`: raised when it is, and raising it.
    pub(crate) fn sharing(flag: Arc<AtomicBool>) -> Interrupt {
        Interrupt(Some(flag))
    }

    /// Raises the flag: every task holding it stops soon. Nothing for a
    /// flag that is not armed.
    pub fn raise(&self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the flag is raised.
    pub(crate) fn is_raised(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether the flag can be raised at all (it was made by
    /// [`Interrupt::new`]), so that a task must watch it.
    pub(crate) fn is_armed(&self) -> bool {
        self.0.is_some()
    }
}

/// Two requests are alike whatever flags they carry: the flag says who may
/// stop the work, not what the work is.
impl PartialEq for Interrupt {
    fn eq(&self, _: &Interrupt) -> bool {
        true
    }
}

impl Eq for Interrupt {}

#[cfg(test)]
mod tests {
    use super::Interrupt;

    #[test]
    fn only_an_armed_flag_is_raised() {
        let unarmed = Interrupt::default();
        unarmed.raise();
        assert!(!unarmed.is_armed() && !unarmed.is_raised());
        let armed = Interrupt::new();
        let clone = armed.clone();
        assert!(armed.is_armed() && !armed.is_raised());
        clone.raise();
        assert!(armed.is_raised());
    }
}
