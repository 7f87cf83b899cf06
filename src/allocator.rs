//! The process's memory allocator: mimalloc, tuned for the commands. The
//! library leaves its allocator to its callers; this binary chooses one.

use knightsat::runtime::memory::address_space_limit_mib;
use std::alloc::{GlobalAlloc, Layout};
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, Ordering};

use crate::exit;

/// mimalloc for every allocation in the process: with its `override`
/// feature it also serves the `malloc` and `new` of the `CaDiCaL` linked in,
/// whose millions of small clauses glibc's allocator hands out and frees
/// slowly (docs/notebook.md, "Solvers side by side").
#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

/// mimalloc, ending the process in one line when an allocation fails
/// ([`out_of_memory`]) rather than aborting with files left behind.
struct Allocator;

// SAFETY: every call goes to mimalloc unchanged; only a null result is
// looked at before it is returned.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(unsafe { mimalloc::MiMalloc.alloc(layout) }, layout.size())
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) },
            layout.size(),
        )
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) },
            new_size,
        )
    }
}

/// `ptr`, unless it is null: then the process ends ([`out_of_memory`]).
#[inline]
fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory(Some(size));
    }
    ptr
}

/// mimalloc's error handler: its out-of-memory error ends the process as
/// a failed Rust allocation does ([`out_of_memory`]). It also hears the
/// linked `CaDiCaL`'s C++ `new`, whose failure otherwise aborted in
/// silence (exit 134, nothing on stderr).
unsafe extern "C" fn on_mimalloc_error(code: std::os::raw::c_int, _: *mut std::os::raw::c_void) {
    if code == libc::ENOMEM {
        out_of_memory(None);
    }
}

/// Memory kept aside under an address-space limit, freed when an
/// allocation fails so that the clean-up after it has room to run.
static RESERVE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
/// The size of [`RESERVE`].
const RESERVE_BYTES: usize = 4 << 20;
/// The thread (its Linux thread id) whose allocation failed first, 0
/// before any did. A second failure on that thread (the clean-up's own)
/// returns null, and Rust aborts; one on another thread waits for the
/// first to end the process (for up to 5 s), since returning at once
/// would have Rust print its own message and abort before the first
/// thread's line and clean-up.
static FAILED_ON: AtomicI64 = AtomicI64::new(0);

/// Ends the process after an allocation of `size` bytes (if known) failed (an
/// address-space limit, `ulimit -v`, or memory the machine lacks): frees
/// [`RESERVE`], says so in one line, removes the files and ends the child
/// processes the run registered, and exits with status 2, as a count over
/// its `--memory-budget` does. Returns only when the clean-up itself fails
/// to allocate, or when another thread's failure has not ended the
/// process within 5 s ([`FAILED_ON`]); Rust then aborts.
fn out_of_memory(size: Option<usize>) {
    // SAFETY: gettid takes no arguments and cannot fail.
    let me = i64::from(unsafe { libc::gettid() });
    if let Err(first) = FAILED_ON.compare_exchange(0, me, Ordering::SeqCst, Ordering::SeqCst) {
        if first == me {
            return;
        }
        // The first failure's `_exit` ends the process meanwhile. Should
        // its clean-up wait on a lock this thread holds, Rust's abort ends
        // it after a while instead of a hang.
        std::thread::sleep(std::time::Duration::from_secs(5));
        return;
    }
    let reserve = RESERVE.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !reserve.is_null() {
        // SAFETY: allocated in `watch_for_out_of_memory` with this layout.
        unsafe { mimalloc::MiMalloc.dealloc(reserve, reserve_layout()) };
    }
    let mut line = Line::default();
    let mut more = Line::default();
    if let Some(size) = size {
        let _ = write!(more, "{size} more bytes");
    } else {
        let _ = write!(more, "more memory");
    }
    let more = std::str::from_utf8(&more.bytes[..more.len]).unwrap_or("more memory");
    let _ = match address_space_limit_mib() {
        Some(limit) => writeln!(
            line,
            "knightsat: out of memory: {more} would pass the address-space limit (ulimit -v: {limit} MiB); give a smaller --memory-budget, or raise the limit"
        ),
        None => writeln!(
            line,
            "knightsat: out of memory: the machine has no {more}; give a smaller --memory-budget"
        ),
    };
    // SAFETY: writes the bytes of `line` to standard error.
    unsafe { libc::write(2, line.bytes.as_ptr().cast(), line.len) };
    knightsat::runtime::cleanup::clean_up_now();
    // SAFETY: ends the process at once, as the abort would have.
    unsafe { libc::_exit(i32::from(exit::BAD_INPUT)) };
}

/// A line formatted without allocating (what does not fit is cut).
struct Line {
    bytes: [u8; 320],
    len: usize,
}

impl Default for Line {
    fn default() -> Line {
        Line {
            bytes: [0; 320],
            len: 0,
        }
    }
}

impl std::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// The layout of [`RESERVE`].
fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE_BYTES, 64).unwrap_or(Layout::new::<u8>())
}

/// mimalloc's `mi_option_disallow_arena_alloc` (the option's place in
/// mimalloc 3's `mi_option_e`, 26; checked by a test).
const MI_OPTION_DISALLOW_ARENA_ALLOC: libmimalloc_sys::mi_option_t = 26;

/// Under an address-space limit (`ulimit -v`), has mimalloc take its
/// memory from the system as it goes, not from arenas reserved ahead,
/// unless `MIMALLOC_DISALLOW_ARENA_ALLOC` says otherwise. Under such a
/// limit the first 1 GiB reservation fell back to 128 MiB and left no room
/// for a second thread's stack (6x7 under `ulimit -v 150000`); smaller
/// arenas, freed but still reserved, filled the address space at a third
/// of it in use (7x7 open meeting in the middle under `ulimit -v 409600`
/// ran out of address space once in 12 runs at a budget of 133 MiB, and
/// never without arenas). Runs before `main` (from `.init_array`, ahead of
/// the constructors of default priority) because the Rust runtime's first
/// allocation reserves the first arena.
extern "C" fn fit_the_allocator_to_the_address_space() {
    if address_space_limit_mib().is_none()
        || std::env::var_os("MIMALLOC_DISALLOW_ARENA_ALLOC").is_some()
    {
        return;
    }
    // SAFETY: mi_option_set stores an integer in mimalloc's option table.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_DISALLOW_ARENA_ALLOC, 1) };
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00099")]
static FIT_THE_ALLOCATOR: extern "C" fn() = fit_the_allocator_to_the_address_space;

/// Has mimalloc's out-of-memory errors end the process in one line
/// ([`on_mimalloc_error`]), and under an address-space limit keeps
/// [`RESERVE`] aside for the clean-up after a failed allocation.
pub fn watch_for_out_of_memory() {
    // SAFETY: registers a function that lives as long as the process.
    unsafe { libmimalloc_sys::mi_register_error(Some(on_mimalloc_error), std::ptr::null_mut()) };
    if address_space_limit_mib().is_none() {
        return;
    }
    // SAFETY: a layout of non-zero size.
    let reserve = unsafe { mimalloc::MiMalloc.alloc(reserve_layout()) };
    RESERVE.store(reserve, Ordering::SeqCst);
}

/// Asks the kernel for no transparent huge pages in this process. mimalloc
/// asks for them for its arenas, and on these virtual machines a fresh 2 MiB
/// page costs more to clear than it saves: large successor solves on
/// `CaDiCaL` spent most of their time clearing pages (docs/notebook.md,
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
/// so (docs/notebook.md, "The memory budget bounds the process").
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
/// (docs/notebook.md, "The memory budget bounds the process").
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
            budget_bytes: knightsat::runtime::memory::bytes_of_mib(budget_mib),
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

#[cfg(test)]
mod tests {
    use super::{give_memory_back_at_once, MI_OPTION_DISALLOW_ARENA_ALLOC, MI_OPTION_PURGE_DELAY};

    /// The option set under an address-space limit is mimalloc's ban on
    /// arenas: it follows the one libmimalloc-sys names 20 by six and is
    /// off by default.
    #[test]
    fn the_arena_option_is_the_ban_on_arenas() {
        assert_eq!(
            MI_OPTION_DISALLOW_ARENA_ALLOC - 6,
            libmimalloc_sys::mi_option_max_warnings
        );
        if std::env::var_os("MIMALLOC_DISALLOW_ARENA_ALLOC").is_none() {
            // SAFETY: reads an integer from mimalloc's option table.
            let default = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_DISALLOW_ARENA_ALLOC) };
            assert_eq!(default, 0, "mimalloc 3's options.c");
        }
    }

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
