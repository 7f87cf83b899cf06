//! What clap answers instead of a command: `--help` and `--version`
//! printed, and bad usage said in one line.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use crate::args;
use crate::commands;
use crate::exit;

/// `--help` and `--version` print and succeed; any other error of clap's
/// is bad usage, said in one line: clap's message runs to the first blank
/// line, and its tips (a similar flag or command) are kept; the usage
/// after them is left to --help.
pub fn usage_error(error: &clap::Error) -> ExitCode {
    if !error.use_stderr() {
        return print_help(error);
    }
    if matches!(
        error.kind(),
        clap::error::ErrorKind::MissingSubcommand
            | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // clap's first paragraph would be the tool's description.
        let _ = writeln!(
            io::stderr(),
            "knightsat: no command given: {} (see --help)",
            args::command_names().join(", ")
        );
        return ExitCode::from(exit::BAD_INPUT);
    }
    let rendered = error.render().to_string();
    let mut paragraphs = rendered.split("\n\n").map(|paragraph| {
        paragraph
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let first = paragraphs.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(&first).to_string();
    // clap's tips name the flag or command meant (`--szie`: `--size`).
    // Where a command takes a file, clap also tips passing an unknown
    // option as the file's name (`-- --timeout`), which no one means: the
    // commands that do take the option are named instead.
    let elsewhere = other_commands_taking(error);
    for tip in paragraphs.filter(|paragraph| paragraph.starts_with("tip: ")) {
        if elsewhere.is_some() && tip.contains("as a value, use '-- ") {
            continue;
        }
        message.push_str("; ");
        message.push_str(&tip);
    }
    if let Some((option, commands)) = elsewhere {
        let _ = write!(
            message,
            "; {option} is an option of {}",
            commands.join(", ")
        );
    }
    let _ = writeln!(io::stderr(), "knightsat: {message} (see --help)");
    ExitCode::from(exit::BAD_INPUT)
}

/// For an unknown `--option` that other commands take: the option and
/// those commands.
fn other_commands_taking(error: &clap::Error) -> Option<(String, Vec<String>)> {
    if error.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    let clap::error::ContextValue::String(given) =
        error.get(clap::error::ContextKind::InvalidArg)?
    else {
        return None;
    };
    let long = given.strip_prefix("--")?.split('=').next()?;
    let command = args::command();
    let takers: Vec<String> = command
        .get_subcommands()
        .filter(|sub| sub.get_arguments().any(|arg| arg.get_long() == Some(long)))
        .map(|sub| sub.get_name().to_string())
        .collect();
    (!takers.is_empty()).then(|| (format!("--{long}"), takers))
}

/// Prints `--help` or `--version` to standard output. A failed write is an
/// error (`--help > /dev/full`), except a closed pipe (`--help | head`).
fn print_help(help: &clap::Error) -> ExitCode {
    let what = if help.kind() == clap::error::ErrorKind::DisplayVersion {
        "the version"
    } else {
        "the help"
    };
    let rendered = help.render();
    let mut text = if io::stdout().is_terminal() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let Ok(mut stdout) = commands::stdout() else {
        let _ = writeln!(
            io::stderr(),
            "knightsat: cannot write {what}: standard output is closed"
        );
        return ExitCode::from(exit::FAILURE);
    };
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(io::stderr(), "knightsat: cannot write {what}: {error}");
            ExitCode::from(exit::FAILURE)
        }
        _ => ExitCode::SUCCESS,
    }
}
