//! What the packages pull in, by `cargo tree`: building needs a C++
//! compiler and nothing that loads libclang, and a program that adds the
//! library to its Cargo.toml gets no command-line parser, progress bars or
//! allocator with it.

use std::path::Path;
use std::process::Command;

/// The crate names in `cargo tree`'s answer for `args`, one per line.
fn tree(args: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "--prefix", "none"])
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn nothing_in_the_build_needs_libclang() {
    let crates = tree(&["--workspace", "-e", "normal,build"]);
    assert!(
        crates.iter().any(|name| name == "cadical-sys"),
        "{crates:?}"
    );
    let needs_libclang: Vec<&String> = crates
        .iter()
        .filter(|name| ["bindgen", "clang-sys"].contains(&name.as_str()))
        .collect();
    assert!(
        needs_libclang.is_empty(),
        "{needs_libclang:?} load libclang at build time, which a fresh machine does not have"
    );
}

#[test]
fn the_library_carries_nothing_of_the_command_line() {
    let crates = tree(&["-p", "knightsat", "-e", "normal"]);
    assert!(crates.iter().any(|name| name == "varisat"), "{crates:?}");
    let of_the_cli: Vec<&String> = crates
        .iter()
        .filter(|name| ["clap", "indicatif", "mimalloc"].contains(&name.as_str()))
        .collect();
    assert!(
        of_the_cli.is_empty(),
        "the library depends on {of_the_cli:?}"
    );
    // And the command still has them, so the check above looks at the right tree.
    let cli = tree(&["-p", "knightsat-cli", "-e", "normal", "--depth", "1"]);
    assert!(cli.iter().any(|name| name == "clap"), "{cli:?}");
}
