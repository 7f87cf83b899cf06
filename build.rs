//! Tells the tests which real SAT solvers (and the proof checker `rate`, and
//! `chromium` for rendering SVG) are on PATH, as `has_kissat`, `has_cadical`,
//! `has_minisat`, `has_picosat`, `has_rate` and `has_chromium` cfgs. A test whose tool
//! is missing is marked ignored, so `cargo test` reports it as skipped rather
//! than passed. Under CI (CI=true) the solvers must be there, so the cfgs are
//! always set and a missing solver fails its tests.

use std::env;
use std::path::PathBuf;

const SOLVERS: [&str; 6] = [
    "kissat", "cadical", "minisat", "picosat", "rate", "chromium",
];

fn on_path(program: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

fn main() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    let ci = env::var("CI").is_ok_and(|value| value == "true");
    for solver in SOLVERS {
        println!("cargo::rustc-check-cfg=cfg(has_{solver})");
        match on_path(solver) {
            Some(path) => {
                println!("cargo::rerun-if-changed={}", path.display());
                println!("cargo::rustc-cfg=has_{solver}");
            }
            None => {
                // A path that does not exist makes cargo rerun this script on
                // every build, so a solver installed later is noticed.
                println!("cargo::rerun-if-changed=/usr/local/bin/{solver}");
                if ci {
                    println!("cargo::rustc-cfg=has_{solver}");
                }
            }
        }
    }
}
