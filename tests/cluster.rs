//! The cluster recipes of docs/cluster.md, run for real: GNU parallel over
//! two ssh hosts on loopback (`scripts/ssh-run.sh`) and Slurm array jobs
//! on a one-node cluster (`scripts/slurm-run.sh`), each running its blocks
//! of the documentation verbatim, cubes and a frontier count in parts;
//! each sum must be `knightsat count`'s and an independent count's (the
//! oracle's, backtracking's, the other line order's), and one part,
//! preempted and requeued, goes on from its checkpoint. The scripts start
//! daemons, which needs root.

use crate::common;

use std::path::Path;
use std::process::Command;

/// Runs `script` with the knightsat under test and the `recipes` named;
/// its stdout's lines (each recipe's sum, after `sbatch`'s "Submitted
/// batch job N") and its stderr.
fn run(script: &str, recipes: &[&str]) -> (Vec<String>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(root.join("scripts").join(script))
        .arg(env!("CARGO_BIN_EXE_knightsat"))
        .args(recipes)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{script}: {stdout}\n{stderr}");
    let sums = stdout
        .lines()
        .filter(|line| !line.starts_with("Submitted batch job "))
        .map(str::to_string)
        .collect();
    (sums, stderr)
}

/// What the cubes' recipes count: 5x5 open tours from every square.
fn expected() -> String {
    let count = common::cli::stdout_of(&["count", "--size", "5"]);
    assert_eq!(
        count.trim(),
        common::count_tours(5, 5, false, None).to_string()
    );
    count.trim().to_string()
}

/// What the frontier recipes count in parts: the open tours of 6x6 without
/// a1, as the frontier counter counts them whole and as backtracking does.
fn expected_in_parts() -> String {
    counted_two_ways(
        &["--board", "6x6", "--holes", "a1"],
        &["--method", "backtrack"],
    )
}

/// `count ARGS` by the default route, checked against the same count by
/// `OTHER_ROUTE` too.
fn counted_two_ways(args: &[&str], other_route: &[&str]) -> String {
    let count = common::cli::stdout_of(&[&["count"], args].concat());
    let other = common::cli::stdout_of(&[&["count"], args, other_route].concat());
    assert_eq!(count, other, "count {args:?} {other_route:?}");
    count.trim().to_string()
}

#[test]
#[cfg_attr(
    not(all(has_sshd, has_parallel, is_root)),
    ignore = "needs root, sshd and GNU parallel: run scripts/install-solvers.sh as root"
)]
fn the_ssh_recipes_sum_to_count_over_two_hosts() {
    let (sums, stderr) = run("ssh-run.sh", &["ssh", "ssh-frontier"]);
    assert_eq!(sums, [expected(), expected_in_parts()], "{stderr}");
    // Both hosts took tasks.
    for host in ["127.0.0.2", "127.0.0.3"] {
        let sessions: usize = stderr
            .lines()
            .find_map(|line| line.strip_prefix(&format!("ssh-run: {host}: ")))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no sessions reported for {host}: {stderr}"));
        assert!(sessions >= 1, "{host}: {stderr}");
    }
}

#[test]
#[cfg_attr(
    not(all(has_slurmctld, is_root)),
    ignore = "needs root, slurm-wlm and munge: run scripts/install-solvers.sh as root"
)]
fn the_slurm_array_jobs_sum_to_count() {
    let (sums, stderr) = run(
        "slurm-run.sh",
        &[
            "slurm",
            "slurm-frontier",
            "slurm-frontier-ends",
            "slurm-frontier-requeue",
        ],
    );
    let in_parts = expected_in_parts();
    assert_eq!(
        sums,
        [expected(), in_parts.clone(), in_parts, expected_6x7()],
        "{stderr}"
    );
    // One output file per array task: 488 cubes in tasks of 100, the
    // four parts, split by the states and by the ends, and the two parts
    // with checkpoints.
    for files in [
        "slurm: array tasks: 5 output files",
        "slurm-frontier: array tasks: 4 output files",
        "slurm-frontier-ends: array tasks: 4 output files",
        "slurm-frontier-requeue: array tasks: 2 output files",
    ] {
        assert!(stderr.contains(&format!("slurm-run: {files}")), "{stderr}");
    }
    // One part was preempted once it had saved states, requeued, and went
    // on from its checkpoint to the count the parts add up to.
    assert!(stderr.contains("slurm-run: requeued "), "{stderr}");
    assert!(
        stderr.contains("slurm-frontier-requeue: 1 task(s) went on from a checkpoint"),
        "{stderr}"
    );
}

/// What the requeued parts count: the open tours of 6x7, as the frontier
/// counter counts them whole in either line order (different states,
/// the same count).
fn expected_6x7() -> String {
    counted_two_ways(
        &["--board", "6x7"],
        &["--method", "frontier", "--frontier-order", "snake"],
    )
}

#[test]
fn each_recipe_is_in_the_documentation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "local",
        "ssh",
        "slurm",
        "ssh-frontier",
        "slurm-frontier",
        "slurm-frontier-ends",
        "slurm-frontier-requeue",
    ] {
        let output = Command::new(root.join("scripts/recipe.sh"))
            .arg(name)
            .output()
            .unwrap();
        assert!(output.status.success(), "{name}");
        let block = String::from_utf8(output.stdout).unwrap();
        assert!(block.contains("knightsat sum"), "{name}: {block}");
    }
}

#[test]
#[cfg_attr(
    not(has_parallel),
    ignore = "GNU parallel is not on PATH: run scripts/install-solvers.sh"
)]
fn the_local_recipe_sums_to_count() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let recipe = Command::new(root.join("scripts/recipe.sh"))
        .arg("local")
        .output()
        .unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_knightsat")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let output = Command::new("bash")
        .args(["-euo", "pipefail", "-c"])
        .arg(String::from_utf8(recipe.stdout).unwrap())
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), expected());
}
