//! The documentation keeps its word: every example in the README runs as
//! shown, and every relative link in the README and `docs/` leads
//! somewhere.
//!
//! # Examples
//!
//! Every fenced block of `README.md` and of `docs/reference.md` marked
//! `console` is a session. A line
//! `$ COMMAND` is run and the lines after it, up to the next `$` line or
//! the end of the block, are what it must print: stdout and stderr together,
//! in the order written (both go to one pipe), trailing spaces ignored.
//!
//! - `COMMAND` is split as a shell would split it, with `'…'`, `"…"` and `\`
//!   quoting. It may be a pipeline (`a | b`, the status being the last
//!   command's), read its stdin from a file (`< FILE`) and write its stdout
//!   to one (`> FILE`). Anything else a shell would expand (`;`, `&`, `$`,
//!   backquotes, globs) is refused, so that an example never means
//!   something else to a reader's shell than to this test.
//! - `knightsat` is the binary under test, run by that name from a
//!   directory first on PATH, as `cargo install --path .` installs it;
//!   any other program is looked up on PATH. An example needing a program that is missing (the command
//!   itself, `--solver NAME` for a solver program, or `rate` for
//!   `knightsat certify`) is skipped with a
//!   note, and so is the rest of its block, which may need its files; under
//!   `CI=true` nothing is skipped.
//! - The exit status must be 0, unless the `$` line ends with the comment
//!   `# exit status N`.
//! - `...` on a line of its own stands for any number of lines, and within
//!   a line for any text.
//!
//! Every example of a file runs in order, in one fresh temporary
//! directory, so that files one writes are there for the next. Blocks
//! marked `python` are not sessions: `python/tests/test_readme.py` runs
//! them, with the Python package built.
//!
//! After an intended change of output, `README_BLESS=1 cargo test --test
//! integration readme` rewrites the output (and the exit-status comment) of every
//! example that no longer matches with what it printed, and passes.
//!
//! # Links
//!
//! Every relative link `[text](target)` (and reference definition) outside
//! code in `README.md` and `docs/*.md` must name a file or directory that
//! exists, and its `#anchor`, if any, a heading of that file, by GitHub's
//! rules: lowercase, spaces to `-`, punctuation other than `-` and `_`
//! dropped, `-1`, `-2`… after repeated headings.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// The longest an example may take, even in a debug build.
const EXAMPLE_LIMIT: Duration = Duration::from_secs(60);

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------
// Reading examples

/// One `$` line of a console block and the output shown after it.
#[derive(Debug)]
struct Example {
    /// Index (from 0) of the `$` line in the file.
    line: usize,
    /// The command, without its comment.
    command: String,
    /// The exit status it must end with.
    status: i32,
    /// The shown output, one string a line.
    expected: Vec<String>,
    /// Which console block (from 0) it belongs to.
    block: usize,
}

/// Whether `line` opens or closes a fenced code block, and its info string.
fn fence(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    (line.len() - trimmed.len() <= 3 && trimmed.starts_with("```"))
        .then(|| trimmed.trim_start_matches('`').trim())
}

/// The examples of every `console` block of a Markdown text, the file
/// `name` (for messages).
fn examples(text: &str, name: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut inside: Option<bool> = None; // Some(is console) within a fence
    let mut blocks = 0;
    for (index, line) in text.lines().enumerate() {
        if let Some(info) = fence(line) {
            inside = match inside {
                None => {
                    if info == "console" {
                        blocks += 1;
                    }
                    Some(info == "console")
                }
                Some(_) => None,
            };
            continue;
        }
        if inside != Some(true) {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let (command, comment) = split_comment(command);
            let status = match comment.as_deref() {
                None => 0,
                Some(comment) => parse_status(comment).unwrap_or_else(|| {
                    panic!(
                        "{name}:{}: a comment on a `$` line must be `# exit status N`, not `# {comment}`",
                        index + 1
                    )
                }),
            };
            found.push(Example {
                line: index,
                command,
                status,
                expected: Vec::new(),
                block: blocks - 1,
            });
        } else {
            match found.last_mut() {
                Some(example) if example.block == blocks - 1 => {
                    example.expected.push(line.to_string());
                }
                _ => panic!(
                    "{name}:{}: output before any `$` line in a console block",
                    index + 1
                ),
            }
        }
    }
    assert!(inside.is_none(), "a code fence of {name} is never closed");
    found
}

/// `exit status N` read as N.
fn parse_status(comment: &str) -> Option<i32> {
    comment
        .trim()
        .strip_prefix("exit status ")?
        .trim()
        .parse()
        .ok()
}

/// The command and its `#` comment, if any (a `#` that starts a word
/// outside quotes, as in a shell).
fn split_comment(command: &str) -> (String, Option<String>) {
    let mut quote = None;
    let mut previous = ' ';
    let mut escaped = false;
    for (at, c) in command.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quote != Some('\'') {
            escaped = true;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == '\'' || c == '"' {
            quote = Some(c);
        } else if c == '#' && previous.is_whitespace() {
            return (
                command[..at].trim_end().to_string(),
                Some(command[at + 1..].trim().to_string()),
            );
        }
        previous = c;
    }
    (command.trim_end().to_string(), None)
}

// ---------------------------------------------------------------------------
// Splitting commands

/// A word or an operator of a command line.
#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Pipe,
    To,
    From,
}

/// Splits a command line as a shell would, refusing what it would expand.
fn tokens(command: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                tokens.extend(word.take().map(Token::Word));
            }
            '|' | '>' | '<' => {
                tokens.extend(word.take().map(Token::Word));
                tokens.push(match c {
                    '|' => Token::Pipe,
                    '>' => Token::To,
                    _ => Token::From,
                });
            }
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("an unclosed '".into()),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("an unclosed \"".into()),
                        },
                        Some(c @ ('$' | '`')) => {
                            return Err(format!("{c} inside \"…\", which a shell would expand"));
                        }
                        Some(c) => word.push(c),
                        None => return Err("an unclosed \"".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a line continuation (\\ at the end)".into()),
            },
            ';' | '&' | '$' | '`' | '*' | '?' | '(' | ')' | '{' | '}' | '[' | ']' | '~' => {
                return Err(format!(
                    "{c}, which this test does not run as a shell would"
                ));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    tokens.extend(word.map(Token::Word));
    Ok(tokens)
}

/// One command of a pipeline.
#[derive(Debug, Default)]
struct Stage {
    argv: Vec<String>,
    stdin: Option<String>,
    stdout: Option<String>,
}

/// A command line as a pipeline: its stages, the first reading `< FILE`,
/// the last writing `> FILE`, if asked.
fn pipeline(command: &str) -> Result<Vec<Stage>, String> {
    let mut stages = vec![Stage::default()];
    let mut tokens = tokens(command)?.into_iter();
    while let Some(token) = tokens.next() {
        let stage = stages.last_mut().expect("there is always a stage");
        match token {
            Token::Word(word) => stage.argv.push(word),
            Token::Pipe => {
                if stage.argv.is_empty() || stage.stdout.is_some() {
                    return Err("a | after nothing, or after > FILE".into());
                }
                stages.push(Stage::default());
            }
            redirect @ (Token::To | Token::From) => {
                let Some(Token::Word(file)) = tokens.next() else {
                    return Err("a redirection without a file".into());
                };
                let slot = if redirect == Token::To {
                    &mut stage.stdout
                } else {
                    &mut stage.stdin
                };
                if slot.replace(file).is_some() {
                    return Err("two redirections of one stream".into());
                }
            }
        }
    }
    let count = stages.len();
    for (at, stage) in stages.iter().enumerate() {
        if stage.argv.is_empty() {
            return Err("an empty command".into());
        }
        if (stage.stdin.is_some() && at > 0) || (stage.stdout.is_some() && at + 1 < count) {
            return Err("a redirection inside a pipeline".into());
        }
    }
    Ok(stages)
}

// ---------------------------------------------------------------------------
// Running examples

/// Where `program` is on PATH, if it is.
fn on_path(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| program.into());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// The programs a pipeline needs that are not on PATH: each command's
/// program, the solver program a `knightsat … --solver NAME` runs, and the
/// proof checker `knightsat certify` runs.
fn missing_programs(stages: &[Stage]) -> Vec<String> {
    let mut missing = Vec::new();
    for stage in stages {
        let program = &stage.argv[0];
        if program == "knightsat" {
            // `certify` runs the DRAT checker `rate`.
            if stage
                .argv
                .get(1)
                .is_some_and(|command| command == "certify")
                && on_path("rate").is_none()
            {
                missing.push("rate".to_string());
            }
            let mut args = stage.argv.iter();
            while let Some(arg) = args.next() {
                let solver = match arg.strip_prefix("--solver=") {
                    Some(solver) => Some(solver),
                    None if arg == "--solver" => args.next().map(String::as_str),
                    None => None,
                };
                if let Some(solver) = solver.filter(|s| !["varisat", "cadical"].contains(s)) {
                    if on_path(solver).is_none() {
                        missing.push(solver.to_string());
                    }
                }
            }
        } else if on_path(program).is_none() {
            missing.push(program.clone());
        }
    }
    missing
}

/// What a command printed (stdout and stderr as one text) and its exit status.
struct Run {
    output: String,
    status: ExitStatus,
    took: Duration,
}

/// A directory holding the binary under test as `knightsat`, as `cargo
/// install --path .` leaves it in ~/.cargo/bin: the examples find the
/// command by that name on PATH, as a reader's shell does.
fn installed() -> &'static Path {
    static BIN: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let bin = tempfile::tempdir().expect("a temporary directory");
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_knightsat"),
            bin.path().join("knightsat"),
        )
        .expect("the binary links into it");
        bin
    })
    .path()
}

/// Runs a pipeline in `dir`: `knightsat` is the binary under test, found
/// on PATH under its installed name (first on PATH, so for the commands'
/// own children too); stdout and stderr of every stage go to one pipe,
/// except stdout between stages.
fn run(stages: &[Stage], dir: &Path) -> Result<Run, String> {
    let path = std::env::join_paths(std::iter::once(installed().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH joins");
    let started = Instant::now();
    let (mut reader, writer) = std::io::pipe().map_err(|e| e.to_string())?;
    let mut children: Vec<Child> = Vec::new();
    let mut previous = None;
    for (at, stage) in stages.iter().enumerate() {
        // By name: with PATH set for the child, Command looks it up there.
        let mut command = Command::new(&stage.argv[0]);
        command
            .args(&stage.argv[1..])
            .current_dir(dir)
            .env("PATH", &path)
            .stderr(writer.try_clone().map_err(|e| e.to_string())?);
        let stdin = match (&stage.stdin, previous.take()) {
            (Some(file), _) => Stdio::from(
                std::fs::File::open(dir.join(file)).map_err(|e| format!("< {file}: {e}"))?,
            ),
            (None, Some(piped)) => piped,
            (None, None) => Stdio::null(),
        };
        command.stdin(stdin);
        if let Some(file) = &stage.stdout {
            command.stdout(
                std::fs::File::create(dir.join(file)).map_err(|e| format!("> {file}: {e}"))?,
            );
        } else if at + 1 == stages.len() {
            command.stdout(writer.try_clone().map_err(|e| e.to_string())?);
        } else {
            command.stdout(Stdio::piped());
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", stage.argv[0]))?;
        previous = child.stdout.take().map(Stdio::from);
        children.push(child);
        // `command` and with it its copies of the pipe's writing end go here.
    }
    drop(writer);
    let collector = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map(|_| bytes)
    });
    let mut status = None;
    let mut timed_out = false;
    for child in &mut children {
        let left = EXAMPLE_LIMIT.saturating_sub(started.elapsed());
        let waited = child.wait_timeout(left).map_err(|e| e.to_string())?;
        status = Some(if let Some(status) = waited {
            status
        } else {
            timed_out = true;
            let _ = child.kill();
            child.wait().map_err(|e| e.to_string())?
        });
    }
    let output = collector
        .join()
        .expect("the reader thread does not panic")
        .map_err(|e| e.to_string())?;
    if timed_out {
        return Err(format!("took more than {} s", EXAMPLE_LIMIT.as_secs()));
    }
    Ok(Run {
        output: String::from_utf8_lossy(&output).into_owned(),
        status: status.expect("a pipeline has a command"),
        took: started.elapsed(),
    })
}

// ---------------------------------------------------------------------------
// Comparing

/// Whether `line` matches `pattern`, where `...` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let pieces: Vec<&str> = pattern.split("...").collect();
    if pieces.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether `lines` match `patterns`, where a pattern `...` alone stands for
/// any number of lines.
fn lines_match(patterns: &[String], lines: &[&str]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((first, rest)) => lines
            .split_first()
            .is_some_and(|(line, lines)| line_matches(first, line) && lines_match(rest, lines)),
    }
}

/// The output's lines, without the newline that ends the last one.
fn output_lines(output: &str) -> Vec<&str> {
    if output.is_empty() {
        return Vec::new();
    }
    output
        .strip_suffix('\n')
        .unwrap_or(output)
        .split('\n')
        .collect()
}

/// An exit status as the README writes it.
fn code(status: ExitStatus) -> String {
    status
        .code()
        .map_or_else(|| format!("killed ({status})"), |code| code.to_string())
}

/// Lines, indented, for a failure message.
fn indented(lines: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut text = String::new();
    for line in lines {
        let _ = writeln!(text, "    | {}", line.as_ref());
    }
    if text.is_empty() {
        text.push_str("    (nothing)\n");
    }
    text
}

/// The `$` line of an example printing `status`.
fn command_line(command: &str, status: i32) -> String {
    let line = format!("$ {command}");
    if status == 0 {
        return line;
    }
    // The comment in the README's column, or two spaces after a long command.
    let padding = 47usize.saturating_sub(line.chars().count()).max(2);
    format!("{line}{}# exit status {status}", " ".repeat(padding))
}

#[test]
fn every_example_in_the_readme_runs_as_shown() {
    runs_as_shown("README.md", 10);
}

#[test]
fn every_example_in_the_reference_runs_as_shown() {
    runs_as_shown("docs/reference.md", 10);
}

/// Runs every example of the Markdown file `name` (relative to the root),
/// which must have at least `at_least`, as the module's documentation says.
fn runs_as_shown(name: &str, at_least: usize) {
    let file = root().join(name);
    let text = std::fs::read_to_string(&file).unwrap();
    let examples = examples(&text, name);
    assert!(
        examples.len() >= at_least,
        "{name} has only {} examples in console blocks",
        examples.len()
    );
    let bless = std::env::var_os("README_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let dir = tempfile::tempdir().unwrap();
    let mut failures = String::new();
    // (first line, lines replaced, new lines), for blessing.
    let mut rewrites: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut skipped_block = None;
    let started = Instant::now();
    for example in &examples {
        let place = format!("{name}:{}: $ {}", example.line + 1, example.command);
        if skipped_block == Some(example.block) {
            println!("skipped (an earlier example of its block was): {place}");
            continue;
        }
        let stages = match pipeline(&example.command) {
            Ok(stages) => stages,
            Err(why) => {
                let _ = writeln!(failures, "{place}\n  cannot be run: {why}\n");
                continue;
            }
        };
        let missing = missing_programs(&stages);
        if !missing.is_empty() && !ci {
            println!(
                "skipped, with the rest of its block ({} not on PATH): {place}",
                missing.join(", ")
            );
            skipped_block = Some(example.block);
            continue;
        }
        let run = match run(&stages, dir.path()) {
            Ok(run) => run,
            Err(why) => {
                let _ = writeln!(failures, "{place}\n  {why}\n");
                continue;
            }
        };
        println!("ran in {:.2} s: {place}", run.took.as_secs_f64());
        let lines = output_lines(&run.output);
        let status_ok = run.status.code() == Some(example.status);
        if status_ok && lines_match(&example.expected, &lines) {
            continue;
        }
        let _ = write!(
            failures,
            "{place}\n  expected, exit status {}:\n{}  actual, exit status {}:\n{}\n",
            example.status,
            indented(&example.expected),
            code(run.status),
            indented(&lines),
        );
        if let Some(status) = run.status.code() {
            let mut new = vec![command_line(&example.command, status)];
            new.extend(lines.iter().map(|line| line.trim_end().to_string()));
            rewrites.push((example.line, 1 + example.expected.len(), new));
        }
    }
    println!(
        "{} examples in {:.1} s",
        examples.len(),
        started.elapsed().as_secs_f64()
    );
    if bless && !rewrites.is_empty() {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (first, count, new) in rewrites.iter().rev() {
            lines.splice(*first..first + count, new.iter().cloned());
        }
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        println!(
            "README_BLESS: rewrote {} examples of {name}:\n{failures}",
            rewrites.len()
        );
        return;
    }
    assert!(
        failures.is_empty(),
        "{name}: examples that do not run as shown (after an intended change, \
         README_BLESS=1 cargo test --test integration readme writes the actual output in):\n\n{failures}"
    );
}

// ---------------------------------------------------------------------------
// Links

/// The text outside fenced code blocks, fenced lines left blank so that
/// line numbers stay.
fn prose(text: &str) -> String {
    let mut inside = false;
    let mut kept = String::new();
    for line in text.lines() {
        if fence(line).is_some() {
            inside = !inside;
        } else if !inside {
            kept.push_str(line);
        }
        kept.push('\n');
    }
    kept
}

/// `text` with its inline code spans (`…`, ``…``) blanked, newlines kept.
fn without_code_spans(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('`') {
        kept.push_str(&rest[..at]);
        let run = rest[at..].len() - rest[at..].trim_start_matches('`').len();
        let body = &rest[at + run..];
        let mut closing = None;
        let mut from = 0;
        while let Some(found) = body[from..].find('`') {
            let start = from + found;
            let length = body[start..].len() - body[start..].trim_start_matches('`').len();
            if length == run {
                closing = Some(start);
                break;
            }
            from = start + length;
        }
        if let Some(end) = closing {
            kept.extend(body[..end].chars().filter(|&c| c == '\n'));
            rest = &body[end + run..];
        } else {
            // A run of backquotes that nothing closes is text.
            kept.push_str(&rest[at..at + run]);
            rest = body;
        }
    }
    kept.push_str(rest);
    kept
}

/// The targets of the links of a Markdown text, with their line numbers
/// (from 1): inline links `[text](target)` and definitions `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let text = without_code_spans(&prose(text));
    let mut found = Vec::new();
    for (at, _) in text.match_indices("](") {
        let line = text[..at].matches('\n').count() + 1;
        let target = &text[at + 2..];
        let end = target.find(')').unwrap_or(target.len());
        let target = target[..end].split_whitespace().next().unwrap_or("");
        found.push((line, target.trim_matches(['<', '>']).to_string()));
    }
    for (index, line) in text.lines().enumerate() {
        if let Some(rest) = line.trim_start().strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]: ") {
                if let Some(target) = target.split_whitespace().next() {
                    found.push((index + 1, target.to_string()));
                }
            }
        }
    }
    found
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings, repeated ones numbered.
fn anchors(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in prose(text).lines() {
        let hashes = line.len() - line.trim_start_matches('#').len();
        let Some(heading) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(heading.trim().trim_end_matches('#'));
        let repeats = found
            .iter()
            .filter(|seen| {
                **seen == base
                    || seen
                        .strip_prefix(&base)
                        .and_then(|n| n.strip_prefix('-'))
                        .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        found.push(if repeats == 0 {
            base
        } else {
            format!("{base}-{repeats}")
        });
    }
    found
}

/// `path` with `.` and `..` worked out, without touching the disk.
fn normal(path: &Path) -> PathBuf {
    let mut parts: Vec<Component> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.iter().collect()
}

/// The Markdown files whose links are checked: the README and `docs/*.md`.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| PathBuf::from("docs").join(entry.unwrap().file_name()))
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_relative_link_in_the_docs_leads_somewhere() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let files = documents();
    assert!(
        files.len() >= 8,
        "README.md and the pages of docs/: {files:?}"
    );
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let place = format!("{}:{line}: ({target})", file.display());
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                normal(&file.parent().unwrap_or(Path::new("")).join(path))
            };
            if !root().join(&linked).exists() {
                failures.push(format!("{place}: {} does not exist", linked.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let Ok(linked_text) = std::fs::read_to_string(root().join(&linked)) else {
                failures.push(format!("{place}: an anchor into {}", linked.display()));
                continue;
            };
            let headings = anchors(&linked_text);
            if !headings.iter().any(|heading| heading == anchor) {
                failures.push(format!(
                    "{place}: {} has no heading #{anchor}; it has #{}",
                    linked.display(),
                    headings.join(", #")
                ));
            }
        }
    }
    assert!(checked >= 20, "only {checked} relative links found");
    assert!(
        failures.is_empty(),
        "{} broken links:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The checker's own rules

#[test]
fn the_checker_reads_examples_and_links_as_documented() {
    let strings = |lines: &[&str]| lines.iter().map(ToString::to_string).collect::<Vec<_>>();
    // Elision, within a line and of whole lines.
    assert!(line_matches("a1 c2 ...", "a1 c2 e1 d3"));
    assert!(line_matches(
        r#"{"tour":["a1",...]}"#,
        r#"{"tour":["a1","c2"]}"#
    ));
    assert!(!line_matches("a1 ... h8", "a1 c2"));
    assert!(!line_matches("ab...ba", "aba"));
    assert!(lines_match(
        &strings(&["x", "...", "z"]),
        &["x", "y", "y", "z"]
    ));
    assert!(lines_match(&strings(&["..."]), &[]));
    assert!(!lines_match(&strings(&["x"]), &["x", "y"]));
    assert!(!lines_match(&strings(&["x", "...", "z"]), &["x", "y"]));
    assert_eq!(output_lines("a\nb\n"), ["a", "b"]);
    assert_eq!(output_lines(""), Vec::<&str>::new());
    // Commands: quoting, pipes, redirections, comments, refusals.
    let stages =
        pipeline(r#"echo "a1 c2" 'b\3' | knightsat verify --board 3x4 > out.txt"#).unwrap();
    assert_eq!(stages[0].argv, ["echo", "a1 c2", "b\\3"]);
    assert_eq!(stages[1].argv, ["knightsat", "verify", "--board", "3x4"]);
    assert_eq!(stages[1].stdout.as_deref(), Some("out.txt"));
    assert!(pipeline("kissat f.cnf; echo $?").is_err());
    assert!(pipeline("cat *.count").is_err());
    assert!(pipeline("a > f | b").is_err());
    assert_eq!(
        split_comment("knightsat solve --size 4   # exit status 20"),
        (
            "knightsat solve --size 4".to_string(),
            Some("exit status 20".to_string())
        )
    );
    assert_eq!(split_comment("grep '#x'").1, None);
    let found = examples(
        "```console\n$ knightsat solve --size 4  # exit status 20\nno tour\n$ a\n```\n\n```sh\n$ b\n```\n",
        "test.md",
    );
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].status, found[0].expected.clone()),
        (20, strings(&["no tour"]))
    );
    assert!(found[1].expected.is_empty());
    assert_eq!(command_line("x", 0), "$ x");
    assert_eq!(
        command_line("x", 3),
        format!("$ x{}# exit status 3", " ".repeat(44))
    );
    let long = "knightsat solve --size 8 --leaper 1,3 --no-theory";
    assert_eq!(
        command_line(long, 20),
        format!("$ {long}  # exit status 20")
    );
    // Links and GitHub's anchors.
    assert_eq!(slug("Warnsdorff's rule"), "warnsdorffs-rule");
    assert_eq!(slug("8x8 (open, no start)"), "8x8-open-no-start");
    assert_eq!(
        slug("`--jobs 1` against `--jobs 2`"),
        "--jobs-1-against---jobs-2"
    );
    assert_eq!(
        anchors("# A\n## B\n```\n# not a heading\n```\n## B\n#hashtag\n"),
        ["a", "b", "b-1"]
    );
    let found =
        links("[a](x.md#y) `[b](not.md)` [c\nd](../z.md)\n```\n[e](no.md)\n```\n[f]: g.md\n");
    assert_eq!(
        found,
        [
            (1, "x.md#y".into()),
            (2, "../z.md".into()),
            (6, "g.md".into())
        ]
    );
    assert_eq!(
        normal(Path::new("docs/../README.md")),
        Path::new("README.md")
    );
}
