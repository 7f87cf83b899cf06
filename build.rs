//! Tells the tests which real SAT solvers (and the proof checker `rate`, and
//! `chromium` for rendering SVG, and GNU `parallel`) are on PATH, as
//! `has_kissat`, `has_cadical`, `has_minisat`, `has_picosat`, `has_rate`,
//! `has_chromium` and `has_parallel` cfgs. A test whose tool
//! is missing is marked ignored, so `cargo test` reports it as skipped rather
//! than passed. Under CI (CI=true) the solvers must be there, so the cfgs are
//! always set and a missing solver fails its tests.

use std::env;
use std::path::PathBuf;

const SOLVERS: [&str; 7] = [
    "kissat", "cadical", "minisat", "picosat", "rate", "chromium", "parallel",
];

fn on_path(program: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

fn main() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    // Cargo reruns this script when a file in a watched directory changes,
    // so a solver installed later is noticed; directories that do not exist
    // are not watched (a missing path would rerun it on every build).
    if let Some(path) = env::var_os("PATH") {
        for dir in env::split_paths(&path).filter(|dir| dir.is_absolute() && dir.is_dir()) {
            println!("cargo::rerun-if-changed={}", dir.display());
        }
    }
    let ci = env::var("CI").is_ok_and(|value| value == "true");
    for solver in SOLVERS {
        println!("cargo::rustc-check-cfg=cfg(has_{solver})");
        if ci || on_path(solver).is_some() {
            println!("cargo::rustc-cfg=has_{solver}");
        }
    }
}
