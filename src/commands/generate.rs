//! `generate`: the man page and the shells' completions, made from the
//! same definitions as `--help` ([`crate::args::command`]), so that they
//! cannot drift from it.

use crate::failure::Fallible;
use std::io::Write;
use std::process::ExitCode;

use clap_complete::Shell;

use super::emit;
use crate::args::{self, Generated};

/// Prints what `what` names on standard output.
pub fn generate(what: Generated) -> Fallible<ExitCode> {
    let mut command = args::command();
    command.build();
    let shell = match what {
        Generated::Man => {
            let page = man_page(&command)?;
            emit(|out| out.write_all(&page))?;
            return Ok(ExitCode::SUCCESS);
        }
        Generated::CompleteBash => Shell::Bash,
        Generated::CompleteZsh => Shell::Zsh,
        Generated::CompleteFish => Shell::Fish,
        Generated::CompleteElvish => Shell::Elvish,
        Generated::CompletePowershell => Shell::PowerShell,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "knightsat", &mut script);
    emit(|out| out.write_all(&script))?;
    Ok(ExitCode::SUCCESS)
}

/// One man page for the whole tool: the top level as `clap_mangen` renders
/// it, then each command's synopsis, description and options as a section
/// of its own (their sections demoted to subsections), then the exit
/// statuses and the version.
fn man_page(command: &clap::Command) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    // clap_mangen's list names a page per command (knightsat-solve(1));
    // this page holds them all, each in a section below.
    let mut subs: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|sub| sub.get_name() != "help")
        .collect();
    // In the order `--help` lists them (changing one moves it last).
    subs.sort_by_key(|sub| sub.get_display_order());
    writeln!(page, ".SH COMMANDS")?;
    for sub in &subs {
        let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
        writeln!(
            page,
            ".TP\n\\fBknightsat {}\\fR\n{}",
            sub.get_name(),
            roff_text(&about)
        )?;
    }
    for sub in subs {
        let name = sub.get_bin_name().unwrap_or(sub.get_name()).to_uppercase();
        writeln!(page, ".SH \"{name}\"")?;
        let sub_man = clap_mangen::Man::new(sub.clone());
        let mut sections = Vec::new();
        sub_man.render_synopsis_section(&mut sections)?;
        sub_man.render_description_section(&mut sections)?;
        sub_man.render_options_section(&mut sections)?;
        for line in String::from_utf8_lossy(&sections).lines() {
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(page, ".SS {heading}")?,
                None => writeln!(page, "{line}")?,
            }
        }
    }
    writeln!(page, ".SH \"EXIT STATUS\"")?;
    writeln!(page, ".nf")?;
    for line in args::EXIT_STATUSES.lines().skip(1) {
        // A line starting with `.` or `'` would be a roff request.
        writeln!(page, "{}", roff_text(line))?;
    }
    writeln!(page, ".fi")?;
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// `text` as a line of roff: backslashes escaped, and a leading `.` or
/// `'` kept from reading as a request.
fn roff_text(text: &str) -> String {
    format!("\\&{}", text.replace('\\', "\\e").replace('-', "\\-"))
}
