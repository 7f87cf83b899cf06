//! Running the `knightsat` binary from tests.

use assert_cmd::Command;

/// The binary under test.
pub fn knightsat() -> Command {
    Command::cargo_bin("knightsat").unwrap()
}

/// What a successful run prints on stdout.
pub fn stdout_bytes(args: &[&str]) -> Vec<u8> {
    knightsat()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// What a successful run prints on stdout, as text.
pub fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(stdout_bytes(args)).unwrap()
}
