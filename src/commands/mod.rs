//! One module per command, each running its plan; what they share
//! (printing, progress bars, the gate's note, hints) is here.

/// Writes a line to stderr; a closed stderr loses the note, not the run.
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = ::std::io::Write::write_fmt(&mut ::std::io::stderr(), format_args!("{}\n", format_args!($($arg)*)));
    }};
}

pub mod check;
pub mod count;
pub mod formula;
pub mod generate;
pub mod puzzle;
pub mod solve;

use crate::exit;
use crate::failure::Fallible;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressStyle};

use knightsat::count::CubeProgress;
use knightsat::error::Error;
use knightsat::model::problem::Problem;
use knightsat::solve::Outcome;
use knightsat::Refutation;
use knightsat::Tour;
use knightsat::{render, render_no_tour, Format};

/// Says on stderr that the feasibility gate proved there is no tour, and why.
/// With -v: what a graph file had that the graph leaves out (self-loops,
/// repeated edges), since no Hamiltonian path or cycle uses them twice.
pub fn note_graph_read(problem: &Problem, verbose: bool) {
    let Some(graph) = problem.board().graph().filter(|_| verbose) else {
        return;
    };
    let (loops, repeats) = graph.dropped();
    let format = graph
        .format()
        .map_or_else(String::new, |format| format!(" ({format})"));
    note!(
        "read the {graph}{format}; left out {loops} self-loop(s) and {repeats} repeated edge(s), which no Hamiltonian path uses"
    );
}

pub fn note_refuted_by_gate(refutation: &Refutation) {
    note!("note: no tour, proved without search by the feasibility gate: {refutation}");
}

/// A duration for people: below a minute in seconds, milliseconds or
/// microseconds with two or three significant digits (a cube of a small
/// board takes microseconds, which "0 seconds" would hide), from a minute
/// on in the largest whole unit ("5 minutes").
pub fn seconds_in_words(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds >= 60.0 {
        return HumanDuration(Duration::from_secs_f64(seconds)).to_string();
    }
    let (value, unit) = if seconds == 0.0 || seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else {
        (seconds * 1e6, "µs")
    };
    let digits = usize::from(value > 0.0 && value < 10.0);
    format!("{value:.digits$} {unit}")
}

/// Shows how far a count over cubes has got on its bar: cubes done of all,
/// and in the message the tours so far and their rate.
pub fn show_cube_progress(progress: &ProgressBar, done: CubeProgress) {
    progress.set_length(done.cubes as u64);
    progress.set_position(done.cubes_done as u64);
    let seconds = progress.elapsed().as_secs_f64().max(1e-3);
    progress.set_message(format!(
        "{} tours, {:.0} tours/s",
        done.tours,
        done.tours as f64 / seconds
    ));
}

/// Progress of a count over cubes: cubes done of all, tours, rate and ETA
/// (on stderr, when it is a terminal).
pub fn cube_progress_bar() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} cubes, {msg}, {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Says on stderr where a closed tour with nothing fixed starts.
pub fn note_default_start(problem: &Problem) {
    if problem.start_fixed_by_default() {
        note!(
            "note: closed tour with no --start, --end or clue: start fixed at {}, which loses no tour",
            problem.board().name(0)
        );
    }
}

/// Says on stderr when the clues number every square (a puzzle already
/// filled in): it is a tour to check, not a puzzle, and whether it is one.
pub fn note_whole_tour(problem: &Problem) {
    let Some(squares) = problem.squares_of_clues() else {
        return;
    };
    let said =
        "note: every square is numbered, so this is a whole tour to check, not a puzzle to solve";
    match knightsat::model::verify::verify(&squares, problem) {
        Ok(()) => note!("{said}: it is a tour"),
        Err(violation) => note!("{said}: it is not a tour: {violation}"),
    }
}

/// A bar with position, length and elapsed time on stderr, or nothing
/// when stderr is not a terminal; drawn from the first [`show_step`] on.
pub fn step_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}} {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar
}

/// Shows `done` of `total` steps on a [`step_bar`], which starts ticking
/// at the first: before it, the length is unknown and would read `0/0`.
pub fn show_step(bar: &ProgressBar, done: u64, total: u64) {
    if bar.length() == Some(0) {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar.set_length(total);
    bar.set_position(done);
}

/// A spinner with the count, rate and elapsed time on stderr, or nothing
/// when stderr is not a terminal.
pub fn progress_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{human_pos}} {what} found, {{per_sec}}, {{elapsed}}"
        ))
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Prints the outcome of `problem`; the exit status is the verdict,
/// whether or not anyone still reads the output. With no tour, standard
/// output gets what stands for one in `format` (`render_no_tour`), and
/// the words go to stderr where standard output does not hold them.
pub fn print_outcome(outcome: Outcome, format: Format, problem: &Problem) -> Fallible<ExitCode> {
    match outcome {
        Outcome::Tour(tour) => {
            emit(|out| print_tour(out, &tour, format))?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NoTour => {
            if !matches!(format, Format::Board | Format::Moves) {
                note!("no tour exists for these constraints");
            }
            let answer = render_no_tour(problem.board(), problem.is_closed(), format);
            emit(|out| out.write_all(answer.as_bytes()))?;
            Ok(ExitCode::from(exit::NO_TOUR))
        }
    }
}

/// Whether standard output was closed when the process started (`>&-`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Notes a closed standard output before Rust's runtime starts: the
/// runtime then opens /dev/null on any closed standard descriptor (so that
/// no file opened later takes its number and gets what is printed), after
/// which a closed stdout looks like `> /dev/null` and the output would be
/// lost without a word. Run by the loader, before `main` (`ctor`): it
/// only asks the kernel about a descriptor and stores a flag, which is
/// safe before the runtime is set up.
#[ctor::ctor(unsafe)]
fn note_closed_stdout() {
    // SAFETY: fcntl(2) with F_GETFD only asks about the descriptor.
    if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Where the runtime left standard output closed (a platform that does
/// not reopen it), notes it and puts /dev/null on its descriptor, as the
/// runtime does elsewhere. Call it first, before anything is opened.
pub fn guard_closed_stdout() {
    // SAFETY: fcntl(2) with F_GETFD only asks; open(2) and dup2(2) take a
    // NUL-terminated path and descriptors, and touch no memory of ours.
    unsafe {
        if libc::fcntl(1, libc::F_GETFD) != -1 {
            return;
        }
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if null >= 0 && null != 1 {
            libc::dup2(null, 1);
            libc::close(null);
        }
    }
}

/// Standard output, locked; an error when it was closed at the start
/// ([`guard_closed_stdout`]).
pub fn stdout() -> Fallible<io::StdoutLock<'static>> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        let closed = io::Error::other("standard output is closed");
        return Err(Error::io("writing the output", closed).into());
    }
    Ok(io::stdout().lock())
}

/// Writes to stdout and flushes: a closed pipe quietly ends the output (the
/// reader has all it wanted), any other failure is an error.
pub fn emit(write: impl FnOnce(&mut io::StdoutLock<'_>) -> io::Result<()>) -> Fallible<()> {
    let mut out = stdout()?;
    match write(&mut out).and_then(|()| out.flush()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => Ok(result.map_err(|e| Error::io("writing the output", e))?),
    }
}

/// Writes one tour in `format`.
pub fn print_tour(out: &mut impl Write, tour: &Tour, format: Format) -> io::Result<()> {
    out.write_all(render(tour, format).as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::seconds_in_words;

    #[test]
    fn durations_read_in_their_unit() {
        for (seconds, words) in [
            (0.0, "0 s"),
            (-0.0, "0 s"),
            (3.2e-7, "0.3 µs"),
            (4.25e-5, "42 µs"),
            (0.0042, "4.2 ms"),
            (0.5, "500 ms"),
            (1.26, "1.3 s"),
            (42.4, "42 s"),
            (300.0, "5 minutes"),
        ] {
            assert_eq!(seconds_in_words(seconds), words, "{seconds}");
        }
    }
}
