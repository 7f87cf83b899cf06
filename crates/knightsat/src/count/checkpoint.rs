//! Checkpoints of a long frontier count, so that a count killed partway
//! (Ctrl-C, an out-of-memory kill, a reboot, a cluster's time limit or
//! preemption) goes on from where it was when the same command runs again.
//!
//! A checkpoint is a directory of two files, each written whole under a
//! temporary name and renamed into place ([`write_atomically`]), so that a
//! kill at any moment leaves the last complete one:
//! - `finished.checkpoint` (text): the counts of the pieces of the count
//!   that are done (a class of end pairs, the paths by where their ends
//!   lie), each under the name of its place in the count;
//! - `states.checkpoint` (binary): now and then, the states of the piece
//!   being counted, at a step or batch boundary, under the name of that
//!   piece (the frontier counter decides what they are).
//!
//! Each file starts with what it is a checkpoint of (knightsat's version,
//! the file format and the count's record: problem, order, part) and ends
//! with a CRC-32 of everything before it. One of another count or another
//! version, or one cut short or changed by so much as a byte, is refused
//! with [`CheckpointError`], never read as a smaller count. A finished
//! count removes the files ([`Checkpoint::finish`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::CheckpointError;
use crate::runtime::output::write_atomically;

/// The layout of the files; a change to what they hold changes it.
const FORMAT: u32 = 1;
/// The first line of every checkpoint file.
const MAGIC: &str = "knightsat checkpoint";
/// The file of the pieces finished.
const FINISHED: &str = "finished.checkpoint";
/// The file of the states of the piece being counted.
const STATES: &str = "states.checkpoint";
/// The longest header line read (a count's record is one line).
const LONGEST_LINE: usize = 1 << 16;
/// The states are written no more often than every this many times the
/// time their last writing took, so that writing them costs at most about
/// 1/20 of the count.
const WRITING_SHARE: u32 = 20;

/// The default least time between two writings of the states.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(30);

/// A count's checkpoint directory: what it has finished and the states it
/// last saved, read when it opens, and written as the count goes.
pub struct Checkpoint {
    dir: PathBuf,
    /// The count's record: what a checkpoint must be of to be read.
    count: String,
    /// The least time between two writings of the states.
    every: Duration,
    /// How many times its writing takes the least time after a writing
    /// is ([`WRITING_SHARE`]).
    share: u32,
    book: Mutex<Book>,
}

/// What a checkpoint holds and has done, behind its lock.
struct Book {
    /// The pieces finished, by name, with their counts (decimal).
    finished: BTreeMap<String, String>,
    /// The piece whose states are saved, if any.
    states_of: Option<String>,
    /// When the states were last written (or the count began).
    last: Instant,
    /// The least time until the next writing.
    wait: Duration,
    /// What was read and written, for -v.
    report: CheckpointReport,
}

/// Where a count is with its checkpoint, as [`crate::count::Progress`]
/// tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointMoment {
    /// Opened, before the count: what it found to go on from.
    Opened,
    /// The count is done, and the checkpoint removed.
    Removed,
    /// The count stopped before its end, and the checkpoint keeps what
    /// it had done.
    Kept,
}

/// Whether the checkpoint directory `dir` holds anything a count can go on
/// from: a finished piece or saved states. Each file is renamed into place
/// whole, so one that is there is complete. A count stopped before its
/// first save (the states are written at a step's or batch's end, once
/// [`DEFAULT_EVERY`] or `--checkpoint-every` has passed) leaves nothing,
/// and the same command then starts over.
pub fn holds_saved_work(dir: &Path) -> bool {
    dir.join(FINISHED).exists() || dir.join(STATES).exists()
}

/// What a checkpoint did in one run: what it found to go on from, and what
/// it wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckpointReport {
    /// Pieces the checkpoint held finished when it opened.
    pub pieces_found: usize,
    /// The piece whose states the checkpoint held when it opened, if any.
    pub states_found: Option<String>,
    /// Pieces whose counts were read rather than counted.
    pub pieces_read: usize,
    /// The piece whose saved states the count went on from, if any.
    pub states_read: Option<String>,
    /// Times the states were written.
    pub states_written: usize,
    /// The largest states file written, in bytes.
    pub most_bytes: u64,
    /// The time spent writing the states.
    pub writing: Duration,
}

impl Checkpoint {
    /// Opens the checkpoint of the count recorded as `count` in `dir`
    /// (made if absent), reading what an earlier run of the same count
    /// left there; the states are written at most every `every` (and no
    /// more often than 20 times the time they take to write).
    ///
    /// # Errors
    ///
    /// [`CheckpointError`] when the directory cannot be made or read, or a
    /// file in it is of another count or version, cut short or changed.
    pub fn open(dir: &Path, count: &str, every: Duration) -> Result<Checkpoint, CheckpointError> {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, "making", &e))?;
        let count = count.replace('\n', " ");
        let mut finished = BTreeMap::new();
        let finished_path = dir.join(FINISHED);
        if let Some(text) = read_if_there(&finished_path)? {
            let body = check_text(&finished_path, &text, &count)?;
            for line in body.lines() {
                let (name, tours) = line
                    .strip_prefix("done ")
                    .and_then(|rest| rest.rsplit_once('\t'))
                    .filter(|(_, tours)| tours.parse::<super::TourNumber>().is_ok())
                    .ok_or_else(|| corrupt(&finished_path, "a line that is no finished piece"))?;
                finished.insert(name.to_string(), tours.to_string());
            }
        }
        let states_path = dir.join(STATES);
        let states_of = if states_path.exists() {
            Some(check_states(&states_path, &count)?)
        } else {
            None
        };
        Ok(Checkpoint {
            dir: dir.to_path_buf(),
            count,
            every,
            share: WRITING_SHARE,
            book: Mutex::new(Book {
                last: Instant::now(),
                wait: every,
                report: CheckpointReport {
                    pieces_found: finished.len(),
                    states_found: states_of.clone(),
                    ..CheckpointReport::default()
                },
                finished,
                states_of,
            }),
        })
    }

    /// The checkpoint with its states written at every boundary, however
    /// long writing takes: for tests that go on from every step.
    #[cfg(test)]
    pub(crate) fn at_every_boundary(self) -> Checkpoint {
        let mut book = self.book();
        book.wait = Duration::ZERO;
        drop(book);
        Checkpoint {
            every: Duration::ZERO,
            share: 0,
            ..self
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What the checkpoint read and wrote so far.
    pub fn report(&self) -> CheckpointReport {
        self.book().report.clone()
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The count of the piece `name`, if an earlier run finished it.
    pub(crate) fn finished(&self, name: &str) -> Option<super::TourNumber> {
        let mut book = self.book();
        let tours = book.finished.get(name)?.parse().ok()?;
        book.report.pieces_read += 1;
        Some(tours)
    }

    /// Records that the piece `name` is finished with `tours`; the states
    /// saved within it are no longer needed.
    pub(crate) fn finish_piece(
        &self,
        name: &str,
        tours: super::TourNumber,
    ) -> Result<(), CheckpointError> {
        let mut book = self.book();
        book.finished.insert(name.to_string(), tours.to_string());
        let mut text = self.header();
        for (name, tours) in &book.finished {
            let _ = writeln!(text, "done {name}\t{tours}");
        }
        let crc = crc32fast::hash(text.as_bytes());
        let _ = writeln!(text, "crc32 {crc:08x}");
        let path = self.dir.join(FINISHED);
        let failed = |e: io::Error| io_error(&path, "writing", &e);
        write_atomically(&path, |file: &mut File| {
            file.write_all(text.as_bytes()).map_err(failed)?;
            sync(file).map_err(failed)
        })?;
        if book.states_of.as_deref().is_some_and(|of| within(of, name)) {
            remove_if_there(&self.dir.join(STATES))?;
            book.states_of = None;
        }
        Ok(())
    }

    /// Whether it is time to write the states again.
    pub(crate) fn due(&self) -> bool {
        let book = self.book();
        book.last.elapsed() >= book.wait
    }

    /// Writes the states of the piece `name` through `fill`, replacing the
    /// states saved before; `key_bytes` says how the states are packed.
    pub(crate) fn save_states(
        &self,
        name: &str,
        fill: impl FnOnce(&mut StatesWriter) -> io::Result<()>,
    ) -> Result<(), CheckpointError> {
        let began = Instant::now();
        let path = self.dir.join(STATES);
        let mut header = self.header();
        let _ = writeln!(header, "piece {}", name.replace('\n', " "));
        let failed = |e: io::Error| io_error(&path, "writing", &e);
        let bytes = write_atomically(&path, |file: &mut File| -> Result<u64, CheckpointError> {
            let written = (|| -> io::Result<u64> {
                let mut writer = StatesWriter {
                    out: BufWriter::with_capacity(1 << 20, &mut *file),
                    crc: crc32fast::Hasher::new(),
                    bytes: 0,
                };
                writer.bytes(header.as_bytes())?;
                fill(&mut writer)?;
                let crc = writer.crc.clone().finalize();
                writer.out.write_all(&crc.to_le_bytes())?;
                let bytes = writer.bytes + 4;
                writer.out.flush()?;
                drop(writer);
                sync(file)?;
                Ok(bytes)
            })();
            written.map_err(failed)
        })?;
        let took = began.elapsed();
        let mut book = self.book();
        book.states_of = Some(name.to_string());
        book.last = Instant::now();
        book.wait = self.every.max(took * self.share);
        book.report.states_written += 1;
        book.report.most_bytes = book.report.most_bytes.max(bytes);
        book.report.writing += took;
        Ok(())
    }

    /// The saved states of the piece `name`, if the checkpoint holds them,
    /// to be read through once and [finished](StatesReader::finish).
    pub(crate) fn states_of(&self, name: &str) -> Result<Option<StatesReader>, CheckpointError> {
        let mut book = self.book();
        if book.states_of.as_deref() != Some(name) {
            return Ok(None);
        }
        let path = self.dir.join(STATES);
        let file = File::open(&path).map_err(|e| io_error(&path, "reading", &e))?;
        let len = file
            .metadata()
            .map_err(|e| io_error(&path, "reading", &e))?
            .len();
        let mut reader = StatesReader {
            path: path.clone(),
            input: BufReader::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            left: len.saturating_sub(4),
        };
        // The header was checked when the checkpoint opened.
        let lines = 5;
        for _ in 0..lines {
            reader.line()?;
        }
        book.report.states_read = Some(name.to_string());
        Ok(Some(reader))
    }

    /// The count is done: its checkpoint files go, and the directory too
    /// when nothing else is left in it.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Io`] when a file cannot be removed.
    pub fn finish(self) -> Result<(), CheckpointError> {
        remove_if_there(&self.dir.join(STATES))?;
        remove_if_there(&self.dir.join(FINISHED))?;
        let _ = std::fs::remove_dir(&self.dir);
        Ok(())
    }

    /// The header lines every file of this checkpoint starts with.
    fn header(&self) -> String {
        format!(
            "{MAGIC}\nformat {FORMAT}\nversion {}\ncount {}\n",
            env!("CARGO_PKG_VERSION"),
            self.count
        )
    }
}

/// Puts `file` on the disk before it is renamed into place, so that a
/// checkpoint outlives a reboot too (a kill alone leaves the system's
/// cache, which reaches the disk anyway). Tests, which write thousands of
/// checkpoints and reboot nothing, leave it to the system.
fn sync(file: &File) -> io::Result<()> {
    if cfg!(test) {
        Ok(())
    } else {
        file.sync_all()
    }
}

/// Whether the piece named `inner` is `outer` or within it.
fn within(inner: &str, outer: &str) -> bool {
    inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The states being written: everything put goes into the file's CRC.
pub(crate) struct StatesWriter<'f> {
    out: BufWriter<&'f mut File>,
    crc: crc32fast::Hasher,
    bytes: u64,
}

impl StatesWriter<'_> {
    /// Writes `bytes`.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.crc.update(bytes);
        self.bytes += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    /// Writes `value`, little-endian.
    pub(crate) fn u64(&mut self, value: u64) -> io::Result<()> {
        self.bytes(&value.to_le_bytes())
    }
}

/// Saved states being read: [`finish`](Self::finish) checks that they were
/// read to the end and that the CRC matches.
pub(crate) struct StatesReader {
    path: PathBuf,
    input: BufReader<File>,
    crc: crc32fast::Hasher,
    /// Bytes before the CRC not yet read.
    left: u64,
}

impl StatesReader {
    /// Fills `buffer`.
    pub(crate) fn bytes(&mut self, buffer: &mut [u8]) -> Result<(), CheckpointError> {
        if (buffer.len() as u64) > self.left {
            return Err(corrupt(&self.path, "cut short"));
        }
        self.input
            .read_exact(buffer)
            .map_err(|e| io_error(&self.path, "reading", &e))?;
        self.left -= buffer.len() as u64;
        self.crc.update(buffer);
        Ok(())
    }

    /// Reads a little-endian `u64`.
    pub(crate) fn u64(&mut self) -> Result<u64, CheckpointError> {
        let mut bytes = [0u8; 8];
        self.bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// Reads a length that must fit in what is left of the file, `each`
    /// bytes an item: a damaged length is refused before anything is made
    /// of its size.
    pub(crate) fn len(&mut self, each: u64) -> Result<usize, CheckpointError> {
        let len = self.u64()?;
        if len.saturating_mul(each.max(1)) > self.left {
            return Err(corrupt(&self.path, "a length past the file's end"));
        }
        usize::try_from(len).map_err(|_| corrupt(&self.path, "a length past the file's end"))
    }

    /// Refuses what is not a state the counter could have saved.
    pub(crate) fn bad(&self, why: &str) -> CheckpointError {
        corrupt(&self.path, why)
    }

    fn line(&mut self) -> Result<(), CheckpointError> {
        let mut byte = [0u8; 1];
        for _ in 0..LONGEST_LINE {
            self.bytes(&mut byte)?;
            if byte[0] == b'\n' {
                return Ok(());
            }
        }
        Err(corrupt(&self.path, "a header line too long"))
    }

    /// Checks that every state was read and that the CRC matches.
    pub(crate) fn finish(mut self) -> Result<(), CheckpointError> {
        if self.left != 0 {
            return Err(corrupt(&self.path, "more states than it says"));
        }
        let mut stored = [0u8; 4];
        self.input
            .read_exact(&mut stored)
            .map_err(|_| corrupt(&self.path, "cut short"))?;
        if u32::from_le_bytes(stored) != self.crc.finalize() {
            return Err(corrupt(&self.path, "its checksum does not match"));
        }
        Ok(())
    }
}

fn io_error(path: &Path, doing: &str, error: &io::Error) -> CheckpointError {
    CheckpointError::Io {
        message: format!("{doing} {}: {error}", path.display()),
    }
}

fn corrupt(path: &Path, why: &str) -> CheckpointError {
    CheckpointError::Damaged {
        path: path.display().to_string(),
        why: why.to_string(),
    }
}

fn read_if_there(path: &Path) -> Result<Option<Vec<u8>>, CheckpointError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error(path, "reading", &e)),
    }
}

fn remove_if_there(path: &Path) -> Result<(), CheckpointError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(path, "removing", &e)),
        _ => Ok(()),
    }
}

/// Checks a header's first three lines (magic, format, version) and its
/// count's record against `count`; returns what follows them.
fn check_header<'t>(path: &Path, text: &'t str, count: &str) -> Result<&'t str, CheckpointError> {
    let mut lines = text.splitn(5, '\n');
    if lines.next() != Some(MAGIC) {
        return Err(corrupt(path, "not a knightsat checkpoint"));
    }
    let format = lines.next().and_then(|l| l.strip_prefix("format "));
    let version = lines.next().and_then(|l| l.strip_prefix("version "));
    let (Some(format), Some(version)) = (format, version) else {
        return Err(corrupt(path, "no format or version"));
    };
    if format != FORMAT.to_string() || version != env!("CARGO_PKG_VERSION") {
        return Err(CheckpointError::OtherVersion {
            path: path.display().to_string(),
            theirs: format!("{version} (format {format})"),
            ours: format!("{} (format {FORMAT})", env!("CARGO_PKG_VERSION")),
        });
    }
    let theirs = lines
        .next()
        .and_then(|l| l.strip_prefix("count "))
        .ok_or_else(|| corrupt(path, "no count"))?;
    if theirs != count {
        return Err(CheckpointError::OtherCount {
            path: path.display().to_string(),
            theirs: theirs.to_string(),
        });
    }
    Ok(lines.next().unwrap_or(""))
}

/// Checks the finished pieces' file: whole (its last line the CRC of the
/// rest), of this version and count; returns its lines of pieces.
fn check_text<'t>(path: &Path, bytes: &'t [u8], count: &str) -> Result<&'t str, CheckpointError> {
    let text = std::str::from_utf8(bytes).map_err(|_| corrupt(path, "not text"))?;
    let body = text
        .strip_suffix('\n')
        .ok_or_else(|| corrupt(path, "cut short"))?;
    let (before, crc) = body
        .rsplit_once('\n')
        .and_then(|(before, last)| Some((before, last.strip_prefix("crc32 ")?)))
        .ok_or_else(|| corrupt(path, "cut short"))?;
    let covered = &text[..=before.len()];
    if u32::from_str_radix(crc, 16).ok() != Some(crc32fast::hash(covered.as_bytes())) {
        return Err(corrupt(path, "its checksum does not match"));
    }
    check_header(path, covered, count)
}

/// Checks the states file: of this version and count, whole and unchanged
/// (read through once for its CRC); returns the name of its piece.
fn check_states(path: &Path, count: &str) -> Result<String, CheckpointError> {
    let file = File::open(path).map_err(|e| io_error(path, "reading", &e))?;
    let len = file
        .metadata()
        .map_err(|e| io_error(path, "reading", &e))?
        .len();
    if len < 4 {
        return Err(corrupt(path, "cut short"));
    }
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut crc = crc32fast::Hasher::new();
    let mut left = len - 4;
    let mut head = Vec::new();
    let mut buffer = vec![0u8; 1 << 20];
    while left > 0 {
        let n = usize::try_from(left.min(buffer.len() as u64)).unwrap_or(buffer.len());
        input
            .read_exact(&mut buffer[..n])
            .map_err(|e| io_error(path, "reading", &e))?;
        crc.update(&buffer[..n]);
        if head.len() < LONGEST_LINE * 2 {
            head.extend_from_slice(&buffer[..n.min(LONGEST_LINE * 2)]);
        }
        left -= n as u64;
    }
    let mut stored = [0u8; 4];
    input
        .read_exact(&mut stored)
        .map_err(|e| io_error(path, "reading", &e))?;
    let text = String::from_utf8_lossy(&head);
    // The header is refused for what it says before the checksum is, so
    // that another version's file is named as such.
    let rest = check_header(path, &text, count)?;
    if u32::from_le_bytes(stored) != crc.finalize() {
        return Err(corrupt(path, "its checksum does not match"));
    }
    let piece = rest
        .split('\n')
        .next()
        .and_then(|line| line.strip_prefix("piece "))
        .filter(|_| rest.contains('\n'))
        .ok_or_else(|| corrupt(path, "no piece named"))?;
    Ok(piece.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::TourNumber;

    fn open(dir: &Path, count: &str) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::open(dir, count, Duration::ZERO)
    }

    /// Pieces and states written by one run are read by the next run of
    /// the same count, and refused by another count.
    #[test]
    fn what_a_run_writes_the_next_run_of_the_same_count_reads() {
        let dir = tempfile::tempdir().unwrap();
        let first = open(dir.path(), "a count").unwrap();
        first
            .finish_piece("class 3", TourNumber::from(17u64))
            .unwrap();
        first
            .save_states("class 4", |w| {
                w.u64(1)?;
                w.u64(99)
            })
            .unwrap();
        drop(first);
        let again = open(dir.path(), "a count").unwrap();
        assert_eq!(again.finished("class 3"), Some(TourNumber::from(17u64)));
        assert_eq!(again.finished("class 4"), None);
        assert!(again.states_of("class 3").unwrap().is_none());
        let mut states = again.states_of("class 4").unwrap().unwrap();
        assert_eq!(states.len(8).unwrap(), 1);
        assert_eq!(states.u64().unwrap(), 99);
        states.finish().unwrap();
        // Finishing the piece the states are of drops them.
        again
            .finish_piece("class 4", TourNumber::from(5u64))
            .unwrap();
        assert!(!dir.path().join(STATES).exists());
        assert!(matches!(
            open(dir.path(), "another count"),
            Err(CheckpointError::OtherCount { .. })
        ));
        again.finish().unwrap();
        assert!(!dir.path().exists());
    }
}
