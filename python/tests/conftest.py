"""Shared helpers for the knightsat Python tests."""

import os
import time


def os_threads() -> int:
    """The threads this process runs now, Rust's included (Linux)."""
    return len(os.listdir("/proc/self/task"))


def wait_for_threads(count: int) -> int:
    """The process's threads, once they are `count` or two seconds have
    passed: a joined thread leaves /proc/self/task a moment after join()
    returns (the kernel reaps it after waking the joiner)."""
    deadline = time.monotonic() + 2
    while os_threads() != count and time.monotonic() < deadline:
        time.sleep(0.001)
    return os_threads()
