//! The memory a run may take: the address-space limit the process runs
//! under, and the default memory budget within it, one rule for the
//! command and for Python.

/// The memory the in-process solvers and counters may use unless told
/// otherwise, in MiB (less under an address-space limit:
/// [`default_memory_budget_mib`]).
pub const DEFAULT_MEMORY_BUDGET_MIB: u64 = 4096;

/// A budget of `mib` MiB in bytes; a budget past what 64 bits count is
/// as good as none, so it saturates rather than wrapping round to a few
/// bytes (2^44 MiB once read as 0).
pub fn bytes_of_mib(mib: u64) -> u64 {
    mib.saturating_mul(1 << 20)
}

/// The address space this process may take (`ulimit -v`), in MiB (at
/// least 1), or `None` with no limit.
pub fn address_space_limit_mib() -> Option<u64> {
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
    Some((limit.rlim_cur >> 20).max(1))
}

/// The most memory budget an address-space limit leaves room for: a third
/// of the limit, in MiB (at least 1), or `None` with no limit. A budget
/// within it meets its own refusal, in one line, before an allocation
/// fails: the address space holds the tables, those the allocator freed
/// but keeps reserved, the threads' stacks and the code. 7x7 open by the
/// frontier counter under `ulimit -v 409600` aborted at the default 4096
/// MiB; with small arenas it ran out of address space at 200 MiB, a
/// half, and refused cleanly at 180 and below.
pub fn budget_within_the_address_space_mib() -> Option<u64> {
    address_space_limit_mib().map(|limit| (limit / 3).max(1))
}

/// The default memory budget: [`DEFAULT_MEMORY_BUDGET_MIB`], or the room
/// an address-space limit leaves ([`budget_within_the_address_space_mib`])
/// where that is less.
pub fn default_memory_budget_mib() -> u64 {
    budget_within_the_address_space_mib().map_or(DEFAULT_MEMORY_BUDGET_MIB, |room| {
        room.min(DEFAULT_MEMORY_BUDGET_MIB)
    })
}
