//! The process's memory allocator: mimalloc, tuned for the commands. The
//! library leaves its allocator to its callers; this binary chooses one.

use std::sync::atomic::{AtomicBool, Ordering};

/// mimalloc for every allocation in the process: with its `override`
/// feature it also serves the `malloc` and `new` of the `CaDiCaL` linked in,
/// whose millions of small clauses glibc's allocator hands out and frees
/// slowly (docs/benchmarks.md, "Solvers side by side").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Asks the kernel for no transparent huge pages in this process. mimalloc
/// asks for them for its arenas, and on these virtual machines a fresh 2 MiB
/// page costs more to clear than it saves: large successor solves on
/// `CaDiCaL` spent most of their time clearing pages (docs/benchmarks.md,
/// "Solvers side by side", mimalloc and no transparent huge pages).
/// A refusal (an old kernel) only loses the speed.
#[cfg(target_os = "linux")]
pub fn without_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments and touches no
    // memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Elsewhere transparent huge pages are not the kernel's default.
#[cfg(not(target_os = "linux"))]
pub fn without_huge_pages() {}

/// mimalloc's `mi_option_purge_delay` (the option's place in mimalloc 3's
/// `mi_option_e`, between `eager_commit_delay`, 14, and `use_numa_nodes`,
/// 16, which libmimalloc-sys names; checked by a test).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Has mimalloc give the memory freed so far, and from now on at once,
/// back to the kernel, rather than a second later (mimalloc 3's default
/// purge delay). The frontier counter frees its tables by the gigabyte,
/// part by part as it reads them, while the next step's grow: with the
/// delay, a refusal within a --memory-budget came well above the budget.
/// Not for every run: small counts and large `CaDiCaL` solves take longer
/// so (docs/benchmarks.md, "The memory budget bounds the process").
fn give_memory_back_at_once() {
    // SAFETY: mi_option_set stores an integer in mimalloc's option table;
    // mi_collect only returns free memory.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        libmimalloc_sys::mi_collect(true);
    }
}

/// Watches the frontier counter's tables against the memory budget: once
/// they pass a quarter of it after a square, has mimalloc give freed memory
/// back at once ([`give_memory_back_at_once`]), so that the budget bounds
/// the process. A quarter, because the next square's tables hold the last
/// ones and the new ones, which have grown up to 2.4 times a square (8x8
/// closed); below it, the delay saves some of a small count's time
/// (docs/benchmarks.md, "The memory budget bounds the process").
pub struct BudgetWatch {
    /// The memory budget, in bytes.
    budget_bytes: u64,
    /// Whether freed memory already goes back at once.
    eager: AtomicBool,
}

impl BudgetWatch {
    /// A watch over a budget of `budget_mib` MiB.
    pub fn new(budget_mib: u64) -> BudgetWatch {
        BudgetWatch {
            budget_bytes: budget_mib.saturating_mul(1 << 20),
            eager: AtomicBool::new(false),
        }
    }

    /// Hears that the tables take `bytes` after a square.
    pub fn tables_hold(&self, bytes: u64) {
        if bytes > self.budget_bytes / 4 && !self.eager.swap(true, Ordering::Relaxed) {
            give_memory_back_at_once();
        }
    }
}

/// Half the address space this process may take (`ulimit -v`), in MiB
/// (at least 1), or `None` with no limit. The default memory budget stays
/// under it, so that a count meets its own refusal, in one line, before an
/// allocation fails and aborts the process: 7x7 open by the frontier
/// counter under `ulimit -v 409600` aborted at the default 4096 MiB and
/// refused cleanly at 200.
pub fn half_the_address_space_mib() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &raw mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    Some(((limit.rlim_cur / 2) >> 20).max(1))
}

#[cfg(test)]
mod tests {
    use super::{give_memory_back_at_once, MI_OPTION_PURGE_DELAY};

    /// The option set is mimalloc's purge delay: it lies just before the
    /// one libmimalloc-sys names 16, holds a delay in milliseconds, and
    /// reads 0 once set.
    #[test]
    fn memory_goes_back_with_no_delay() {
        assert_eq!(
            MI_OPTION_PURGE_DELAY + 1,
            libmimalloc_sys::mi_option_use_numa_nodes
        );
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // SAFETY: reads an integer from mimalloc's option table.
            let default = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
            assert_eq!(
                default, 1000,
                "mimalloc 3's default purge delay (options.c)"
            );
        }
        give_memory_back_at_once();
        // SAFETY: reads an integer from mimalloc's option table.
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            0
        );
    }
}
