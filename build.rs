//! Tells the tests which real SAT solvers (and the proof checker `rate`, and
//! `chromium` for rendering SVG, GNU `parallel`, and `sshd` and `slurmctld`
//! for the cluster recipes) are on PATH, as `has_kissat`, `has_cadical`,
//! `has_minisat`, `has_picosat`, `has_rate`, `has_chromium`, `has_parallel`,
//! `has_sshd` and `has_slurmctld` cfgs, and whether the build runs as root
//! (`is_root`), which the cluster recipes' daemons need. A test whose tool
//! is missing is marked ignored, so `cargo test` reports it as skipped rather
//! than passed. Under CI (CI=true) the solvers must be there, so the cfgs are
//! always set and a missing solver fails its tests.

use std::env;
use std::path::PathBuf;

const SOLVERS: [&str; 9] = [
    "kissat",
    "cadical",
    "minisat",
    "picosat",
    "rate",
    "chromium",
    "parallel",
    "sshd",
    "slurmctld",
];

fn on_path(program: &str) -> Option<PathBuf> {
    // sshd and slurmctld live in /usr/sbin, on root's PATH only.
    env::split_paths(&env::var_os("PATH")?)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// Whether the build runs as root (the cluster scripts start sshd and
/// slurmd, which need it): the effective uid in /proc/self/status.
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

fn main() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    let ci = env::var("CI").is_ok_and(|value| value == "true");
    // Cargo reruns this script when a file in a watched directory changes,
    // so a solver installed later is noticed; directories that do not exist
    // are not watched (a missing path would rerun it on every build). Under
    // CI every solver counts as there whatever the directories hold, and
    // watching them would only rebuild the tests whenever anything touches
    // one of them (a fresh CI run saw pyenv's shims directory change
    // during the first build, and every later cargo command rebuild).
    if !ci {
        if let Some(path) = env::var_os("PATH") {
            for dir in env::split_paths(&path).filter(|dir| dir.is_absolute() && dir.is_dir()) {
                println!("cargo::rerun-if-changed={}", dir.display());
            }
        }
    }
    println!("cargo::rustc-check-cfg=cfg(is_root)");
    if is_root() {
        println!("cargo::rustc-cfg=is_root");
    }
    for solver in SOLVERS {
        println!("cargo::rustc-check-cfg=cfg(has_{solver})");
        if ci || on_path(solver).is_some() {
            println!("cargo::rustc-cfg=has_{solver}");
        }
    }
}
