//! The plan's checks of the paths it is given: standard input read once,
//! outputs that are not directories, and the CNF a proof is written beside.

use std::path::{Path, PathBuf};

use crate::failure::OptionsConflict;

/// Refuses standard input (`-`) named for two of a command's inputs: the
/// first would read it all and leave the second nothing.
pub fn stdin_once(inputs: &[(&str, Option<&Path>)]) -> Result<(), OptionsConflict> {
    let on_stdin: Vec<&str> = inputs
        .iter()
        .filter(|(_, path)| path.is_some_and(|path| path.as_os_str() == "-"))
        .map(|&(name, _)| name)
        .collect();
    match on_stdin[..] {
        [first, second, ..] => Err(OptionsConflict(format!(
            "{first} and {second} both read standard input (-): it can be read once; give a file for one"
        ))),
        _ => Ok(()),
    }
}

/// Refuses an output file (`flag`'s `path`) that is a directory, as the
/// bad argument it is, before any work: writing it could only fail.
pub fn not_a_directory(flag: &str, path: &Path) -> Result<(), OptionsConflict> {
    if path.is_dir() {
        return Err(OptionsConflict(format!(
            "{flag} {} is a directory: give the name of a file",
            path.display()
        )));
    }
    Ok(())
}

/// Refuses `path` for a directory option `flag` where it names something
/// that is not a directory (a file): nothing could be written into it.
pub fn a_directory_if_there(flag: &str, path: &Path) -> Result<(), OptionsConflict> {
    if path.exists() && !path.is_dir() {
        return Err(OptionsConflict(format!(
            "{flag} {} is not a directory: give a directory (made if it is not there)",
            path.display()
        )));
    }
    Ok(())
}

/// Refuses `path` for a directory option `flag` where it names nothing
/// or something that is not a directory: the command makes its own
/// directory inside it, and would find that out only when it first
/// writes there, after its work so far.
pub fn an_existing_directory(flag: &str, path: &Path) -> Result<(), OptionsConflict> {
    if !path.is_dir() {
        let what = if path.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(OptionsConflict(format!(
            "{flag} {} {what}: give a directory that is there",
            path.display()
        )));
    }
    Ok(())
}

/// Refuses a file of `sum` named twice (standard input included): its
/// cubes would be added twice, which `sum` would refuse later as the same
/// line twice, without saying why.
pub fn each_once(files: &[PathBuf]) -> Result<(), OptionsConflict> {
    let shown = |path: &Path| {
        if path.as_os_str() == "-" {
            "standard input (-)".to_string()
        } else {
            path.display().to_string()
        }
    };
    // Each file resolved once: a cluster's sum names thousands.
    let mut seen: std::collections::HashMap<PathBuf, &PathBuf> = std::collections::HashMap::new();
    for file in files {
        let key = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        if let Some(twice) = seen.insert(key, file) {
            let what = if twice == file {
                format!("{} is named twice", shown(file))
            } else {
                format!("{} and {} are one file", shown(twice), shown(file))
            };
            return Err(OptionsConflict(format!(
                "{what}: each file of cube or part counts is added once"
            )));
        }
    }
    Ok(())
}

/// The proof's path and its CNF's: `--cnf-out` when given, else the
/// proof's name with `.cnf` ([`default_cnf_path`]), which only a file can
/// have: a proof to standard output or a device needs `--cnf-out`
/// (`/dev/null.cnf` or `-.cnf` would be a stray file, not a CNF beside it).
///
/// `-` is standard output (as `encode -o -` has it), written as
/// `/dev/stdout`; one of the two at most can go there.
pub fn proof_and_cnf(
    proof: Option<PathBuf>,
    cnf_out: Option<PathBuf>,
) -> Result<Option<(PathBuf, PathBuf)>, OptionsConflict> {
    let dash_is_stdout = |path: PathBuf| {
        if path.as_os_str() == "-" {
            PathBuf::from("/dev/stdout")
        } else {
            path
        }
    };
    let (proof, cnf_out) = (proof.map(dash_is_stdout), cnf_out.map(dash_is_stdout));
    for (flag, path) in [("--proof", &proof), ("--cnf-out", &cnf_out)] {
        if let Some(path) = path {
            not_a_directory(flag, path)?;
        }
    }
    if proof.as_deref().is_some_and(is_standard_output)
        && cnf_out.as_deref().is_some_and(is_standard_output)
    {
        return Err(OptionsConflict(
            "--proof and --cnf-out both name standard output, which can hold one of them: give a file for the other".into(),
        ));
    }
    match (proof, cnf_out) {
        (Some(proof), Some(cnf)) => Ok(Some((proof, cnf))),
        (Some(proof), None) if !names_a_file(&proof) => Err(OptionsConflict(
            "--proof to standard output or a device needs --cnf-out FILE for the CNF it proves"
                .into(),
        )),
        (Some(proof), None) => {
            let cnf = default_cnf_path(&proof);
            Ok(Some((proof, cnf)))
        }
        (None, _) => Ok(None),
    }
}

/// Whether `path` names standard output (`/dev/stdout` or descriptor 1),
/// where the answer of a command would go too.
pub fn is_standard_output(path: &Path) -> bool {
    ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .any(|name| path == Path::new(name))
}

/// Whether `path` names a file that is or can be a regular file (not `-`,
/// not a device, a pipe or a socket), beside which a CNF can be named.
fn names_a_file(path: &Path) -> bool {
    path.as_os_str() != "-"
        && !is_standard_output(path)
        && std::fs::metadata(path).map_or(true, |meta| meta.is_file() || meta.is_dir())
}

/// The proof's path with the extension `.cnf`, or with `.cnf` appended when
/// that would be the proof itself.
fn default_cnf_path(proof: &Path) -> PathBuf {
    let cnf = proof.with_extension("cnf");
    if cnf == proof {
        let mut name = proof.as_os_str().to_owned();
        name.push(".cnf");
        PathBuf::from(name)
    } else {
        cnf
    }
}
