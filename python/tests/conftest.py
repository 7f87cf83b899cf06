"""Shared helpers for the knightsat Python tests."""

import os


def os_threads() -> int:
    """The threads this process runs now, Rust's included (Linux)."""
    return len(os.listdir("/proc/self/task"))
