//! The states a count met in the middle saves in its checkpoint, and
//! reads back when it goes on: the top's groups at the cut once the top
//! is counted, and, once the bottom is under way, where its half steps
//! are (the next one, the tables before it, the batches waiting and the
//! sum of the batches joined).
//!
//! The layout, every number a little-endian `u64`: [`MEET`], the top's groups (how many; each its key, its
//! pairings, and each pairing's squares and count); then 0 for a bottom
//! not begun, or 1, the bytes of a key, the next half step, the batches
//! begun before the one being counted, the sum so far (32 bytes), the
//! tables' states (how many, then each key and count), and the batches
//! waiting (how many; each its half step and its states).

use std::io;

use super::batches::{Batches, WaitingBatch};
use super::join::{Groups, Pairing, Top};
use crate::count::checkpoint::{StatesReader, StatesWriter};
use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};
use crate::count::frontier::table::Table;
use crate::count::frontier::FrontierError;
use crate::count::number::Wide;
use crate::error::CheckpointError;

/// The bytes of a pairing's squares.
const PAIRING: usize = std::mem::size_of::<[u8; crate::count::frontier::state::MAX_WIDTH + 1]>();

/// What the states of a count met in the middle start with, so that a
/// count that went forward instead (another route for the same piece)
/// does not read them as its own.
pub(super) const MEET: u64 = 1;

/// Whether `input` holds the states of a count met in the middle (read
/// past the mark if it does).
pub(super) fn is_meet(input: &mut StatesReader) -> Result<bool, CheckpointError> {
    Ok(input.u64()? == MEET)
}

/// Writes the top's groups.
pub(super) fn write_top(out: &mut StatesWriter, top: &Top) -> io::Result<()> {
    out.u64(MEET)?;
    out.u64(top.groups.len() as u64)?;
    for (&key, pairings) in &top.groups {
        out.u64(key)?;
        out.u64(pairings.len() as u64)?;
        for (squares, count) in pairings {
            out.bytes(squares)?;
            out.u64(*count)?;
        }
    }
    Ok(())
}

/// Reads what [`write_top`] wrote: the groups, and how many pairings
/// they hold.
pub(super) fn read_top(input: &mut StatesReader) -> Result<(Groups, u64), CheckpointError> {
    let groups_len = input.len(16)?;
    let mut groups = Groups::default();
    let mut states = 0u64;
    for _ in 0..groups_len {
        let key = input.u64()?;
        let len = input.len(PAIRING as u64 + 8)?;
        let mut pairings: Vec<Pairing> = Vec::with_capacity(len);
        for _ in 0..len {
            let mut squares = [0u8; PAIRING];
            input.bytes(&mut squares)?;
            pairings.push((squares, input.u64()?));
        }
        states += len as u64;
        if groups.insert(key, pairings).is_some() {
            return Err(input.bad("a group saved twice"));
        }
    }
    Ok((groups, states))
}

/// Writes that the bottom has not begun.
pub(super) fn write_no_bottom(out: &mut StatesWriter) -> io::Result<()> {
    out.u64(0)
}

/// Writes where the bottom is: the half step it goes on at, its tables,
/// the batches begun before the one being counted, the sum of those
/// joined, and the batches waiting.
pub(super) fn write_bottom<K: Key>(
    out: &mut StatesWriter,
    next_step: usize,
    tables: &[Table<'_, K, u64>],
    batches: &Batches<'_, K>,
) -> io::Result<()> {
    out.u64(1)?;
    out.u64(K::BYTES as u64)?;
    out.u64(next_step as u64)?;
    // The batch being counted is begun again when the count goes on.
    out.u64(batches.started.saturating_sub(1) as u64)?;
    let mut sum = Vec::with_capacity(32);
    batches.joined.put(&mut sum);
    out.bytes(&sum)?;
    let states: usize = tables.iter().map(Table::len).sum();
    write_states(out, states, tables.iter().flat_map(Table::iter))?;
    out.u64(batches.waiting.len() as u64)?;
    for (next_step, batch) in &batches.waiting {
        out.u64(*next_step as u64)?;
        let states = batch.states();
        write_states(out, states.len(), states.iter().copied())?;
    }
    Ok(())
}

/// Writes `len` states and counts.
fn write_states<K: Key>(
    out: &mut StatesWriter,
    len: usize,
    states: impl Iterator<Item = (K, u64)>,
) -> io::Result<()> {
    out.u64(len as u64)?;
    let mut record = Vec::with_capacity(K::BYTES + 8);
    let mut written = 0usize;
    for (key, count) in states {
        record.clear();
        key.put(&mut record);
        Count::put(count, &mut record);
        out.bytes(&record)?;
        written += 1;
    }
    if written == len {
        Ok(())
    } else {
        Err(io::Error::other("the tables changed while they were saved"))
    }
}

/// The bottom as [`write_bottom`] left it, if it had begun: the half
/// step it goes on at, its tables (one a thread) and its batches, charged
/// to `budget`.
#[allow(clippy::type_complexity)]
pub(super) fn read_bottom<'b, K: Key>(
    input: &mut StatesReader,
    jobs: usize,
    budget: &'b Budget,
) -> Result<Option<(usize, Vec<Table<'b, K, u64>>, Batches<'b, K>)>, FrontierError> {
    match input.u64()? {
        0 => return Ok(None),
        1 => {}
        _ => return Err(input.bad("neither no bottom nor a bottom").into()),
    }
    if input.u64()? != K::BYTES as u64 {
        return Err(input.bad("states packed for another board").into());
    }
    let next_step = usize::try_from(input.u64()?).map_err(|_| input.bad("a step too far"))?;
    let started = usize::try_from(input.u64()?).map_err(|_| input.bad("too many batches"))?;
    let mut sum = [0u8; 32];
    input.bytes(&mut sum)?;
    let tables = read_states::<K>(input, budget)?.tables(jobs, budget)?;
    let waiting_len = input.len(16)?;
    let mut waiting = Vec::with_capacity(waiting_len);
    for _ in 0..waiting_len {
        let next_step = usize::try_from(input.u64()?).map_err(|_| input.bad("a step too far"))?;
        waiting.push((next_step, read_states::<K>(input, budget)?));
    }
    // The batch under way goes on from its saved step, not its first.
    let began_with = tables.iter().map(Table::len).sum();
    let batches = Batches {
        started,
        waiting,
        joined: Wide::get(&sum),
        began_with,
    };
    Ok(Some((next_step, tables, batches)))
}

/// A list of states and counts, charged to `budget`.
fn read_states<'b, K: Key>(
    input: &mut StatesReader,
    budget: &'b Budget,
) -> Result<WaitingBatch<'b, K>, FrontierError> {
    let record = K::BYTES + 8;
    let len = input.len(record as u64)?;
    let mut batch = WaitingBatch::with_room(len, budget)?;
    let mut buffer = vec![0u8; record];
    for _ in 0..len {
        input.bytes(&mut buffer)?;
        batch.push(K::get(&buffer), <u64 as Count>::get(&buffer[K::BYTES..]));
    }
    Ok(batch)
}
