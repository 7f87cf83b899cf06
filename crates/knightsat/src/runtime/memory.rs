//! The memory a run may take: the address-space limit the process runs
//! under, and the default memory budget within it, one rule for the
//! command and for Python.

use std::path::Path;

/// The memory the in-process solvers and counters may use unless told
/// otherwise where the machine's memory is not known, in MiB (less under
/// an address-space limit: [`default_memory_budget_mib`]).
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

/// The default memory budget: what the machine has room for
/// ([`budget_within_the_machine_mib`]; [`DEFAULT_MEMORY_BUDGET_MIB`] where
/// its memory is not known), or the room an address-space limit leaves
/// ([`budget_within_the_address_space_mib`]) where that is less.
pub fn default_memory_budget_mib() -> u64 {
    let machine = budget_within_the_machine_mib().unwrap_or(DEFAULT_MEMORY_BUDGET_MIB);
    budget_within_the_address_space_mib().map_or(machine, |room| room.min(machine))
}

/// The budget the machine's memory leaves room for, in MiB (at least 1):
/// [`machine_room_mib`] less a margin for the process's code, stacks and
/// allocator, and for the rest of the machine: a sixteenth of the room or
/// 1 GiB, whichever is more, but never more than half. `None` where the
/// machine's memory is not known. On the 2-core, 24 GiB machine this
/// project measures on, 22,100 MiB or so: enough for the whole open 8x8
/// count in one run, whose tables took 16.3 GiB
/// (`crate::count::route`'s `WHOLE_SQUARE_EIGHT_FILES_MIB`).
pub fn budget_within_the_machine_mib() -> Option<u64> {
    machine_room_mib().map(|room| {
        let margin = (room / 16).max(1024).min(room / 2);
        (room - margin).max(1)
    })
}

/// The memory this machine could give a run when this process first
/// asked, in MiB: what the kernel counts as available (`MemAvailable` in
/// `/proc/meminfo`: free memory and the caches it can drop), and inside a
/// cgroup with a memory limit what that limit leaves (the least over the
/// group and the groups it is in), whichever is less. `None` where neither
/// is known (no `/proc`, as on macOS). Read once: every request's default
/// budget asks, and one process keeps one default (the one `--help`
/// shows), however the machine's free memory moves meanwhile.
pub fn machine_room_mib() -> Option<u64> {
    static ROOM: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *ROOM.get_or_init(|| {
        let available = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| available_in_meminfo_mib(&text));
        match (available, cgroup_room_mib()) {
            (Some(available), Some(cgroup)) => Some(available.min(cgroup)),
            (available, cgroup) => available.or(cgroup),
        }
    })
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
fn available_in_meminfo_mib(meminfo: &str) -> Option<u64> {
    meminfo.lines().find_map(|line| {
        let kib = line
            .strip_prefix("MemAvailable:")?
            .trim()
            .strip_suffix("kB")?;
        kib.trim().parse::<u64>().ok().map(|kib| kib >> 10)
    })
}

/// What the cgroups this process is in leave of their memory limits, in
/// MiB: the least of limit less use over its own group and every group
/// above it (cgroup v2, `memory.max` and `memory.current`), or the v1
/// memory controller's (`memory.limit_in_bytes` and
/// `memory.usage_in_bytes`). `None` where no group sets a limit.
fn cgroup_room_mib() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let root = Path::new("/sys/fs/cgroup");
    if let Some(path) = own.lines().find_map(|line| line.strip_prefix("0::")) {
        return cgroup_v2_room_mib(&root.join(path.trim().trim_start_matches('/')), root);
    }
    cgroup_v1_room_mib(&root.join("memory"))
}

/// The least room, limit less use, over the cgroup v2 group `dir` and the
/// groups above it up to `root`, in MiB; `None` where none sets a limit.
fn cgroup_v2_room_mib(dir: &Path, root: &Path) -> Option<u64> {
    let mut dir = dir.to_path_buf();
    let mut least: Option<u64> = None;
    while dir.starts_with(root) {
        if let Some(limit) = bytes_in(&dir.join("memory.max")) {
            let used = bytes_in(&dir.join("memory.current")).unwrap_or(0);
            let room = limit.saturating_sub(used) >> 20;
            least = Some(least.map_or(room, |least| least.min(room)));
        }
        if !dir.pop() {
            break;
        }
    }
    least
}

/// The room the cgroup v1 memory controller at `memory` leaves, limit
/// less use, in MiB; `None` where it sets no limit.
fn cgroup_v1_room_mib(memory: &Path) -> Option<u64> {
    let limit = bytes_in(&memory.join("memory.limit_in_bytes"))?;
    // An unlimited v1 group says so with a number near 2^63.
    if limit >= 1 << 60 {
        return None;
    }
    let used = bytes_in(&memory.join("memory.usage_in_bytes")).unwrap_or(0);
    Some(limit.saturating_sub(used) >> 20)
}

/// The number of bytes a cgroup file holds; `None` where it cannot be
/// read or says `max` (no limit).
fn bytes_in(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()
        .as_deref()
        .and_then(limit_bytes)
}

/// A cgroup file's number of bytes; `None` for `max` (no limit).
fn limit_bytes(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_gives_its_available_memory_in_mib() {
        let meminfo = "MemTotal:       24636212 kB\nMemFree:         1000000 kB\nMemAvailable:   24155616 kB\nBuffers:           12 kB\n";
        assert_eq!(available_in_meminfo_mib(meminfo), Some(24_155_616 / 1024));
        assert_eq!(available_in_meminfo_mib("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn a_cgroup_without_a_limit_says_max() {
        assert_eq!(limit_bytes("max\n"), None);
        assert_eq!(limit_bytes("1073741824\n"), Some(1 << 30));
    }

    #[test]
    fn the_default_keeps_within_the_machine_and_a_margin() {
        if let Some(room) = machine_room_mib() {
            let budget = budget_within_the_machine_mib().unwrap();
            assert!(budget < room, "{budget} of {room}");
            assert!(budget >= room / 2, "{budget} of {room}");
            assert!(default_memory_budget_mib() <= budget);
        } else {
            assert_eq!(budget_within_the_machine_mib(), None);
        }
    }
}
