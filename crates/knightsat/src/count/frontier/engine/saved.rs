//! The tables a count processed forward saves in its checkpoint after a
//! step, and reads back to go on from the next one.
//!
//! The layout, every number a little-endian `u64`: [`FORWARD`], the bytes
//! of a count (8, 16 or 32: the width the run had reached), the bytes of
//! a key, the next step, the tours completed so far (32 bytes), then the
//! shards (how many; each its states, then each key and count). A state
//! on disk in buckets not yet merged may come more than once: read back,
//! its counts add up as they would have.

use super::{shard_of, Saved};
use crate::count::checkpoint::StatesWriter;
use crate::count::frontier::budget::Budget;
use crate::count::frontier::packing::{Count, Key};
use crate::count::frontier::shard::{Output, Shard};
use crate::count::frontier::{FrontierError, Options};
use crate::count::number::Wide;

/// What the states of a count processed forward start with (a count met
/// in the middle saves others for the same piece when it takes that
/// route instead).
const FORWARD: u64 = 2;

/// Saves `shards`, the tables before step `next`, with the tours
/// `finished` so far, if the count keeps a checkpoint and it is time.
pub(super) fn write_if_due<K: Key, C: Count>(
    options: &Options,
    next: usize,
    shards: &mut [Shard<'_, K, C>],
    finished: Wide,
) -> Result<(), FrontierError> {
    let Some(saving) = options.saving else {
        return Ok(());
    };
    if !saving.checkpoint.due() {
        return Ok(());
    }
    saving.checkpoint.save_states(saving.name, |out| {
        out.u64(FORWARD)?;
        out.u64(C::BYTES as u64)?;
        out.u64(K::BYTES as u64)?;
        out.u64(next as u64)?;
        let mut wide = Vec::with_capacity(32);
        finished.put(&mut wide);
        out.bytes(&wide)?;
        out.u64(shards.len() as u64)?;
        for shard in shards.iter_mut() {
            write_shard(out, shard)?;
        }
        Ok(())
    })?;
    Ok(())
}

/// Writes one shard's states, read where they are (in memory or on disk)
/// and left there.
fn write_shard<K: Key, C: Count>(
    out: &mut StatesWriter,
    shard: &mut Shard<'_, K, C>,
) -> std::io::Result<()> {
    let len = shard.len();
    out.u64(len as u64)?;
    let mut record = Vec::with_capacity(K::BYTES + C::BYTES);
    let mut written = 0usize;
    let mut failed = None;
    let read = shard.read(false, |key, count| {
        record.clear();
        key.put(&mut record);
        count.put(&mut record);
        written += 1;
        out.bytes(&record).map_err(|e| {
            failed = Some(e);
            FrontierError::Stopped
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    read.map_err(|e| std::io::Error::other(e.to_string()))?;
    if written == len {
        Ok(())
    } else {
        Err(std::io::Error::other(
            "the tables changed while they were saved",
        ))
    }
}

/// The tables a run of the same piece saved, if the checkpoint holds
/// them, on `jobs` threads' shards (kept on disk past the budget as a
/// step's are), with the tours completed before them added to `finished`.
pub(super) fn read<'b, K: Key>(
    options: &Options,
    budget: &'b Budget,
    jobs: usize,
    finished: &mut Wide,
) -> Result<Option<Saved<'b, K>>, FrontierError> {
    let Some(saving) = options.saving else {
        return Ok(None);
    };
    let Some(mut input) = saving.checkpoint.states_of(saving.name)? else {
        return Ok(None);
    };
    // States a count met in the middle saved for this piece are not ours.
    if input.u64()? != FORWARD {
        return Ok(None);
    }
    let count_bytes = input.u64()?;
    if input.u64()? != K::BYTES as u64 {
        return Err(input.bad("states packed for another board").into());
    }
    let next = usize::try_from(input.u64()?).map_err(|_| input.bad("a step too far"))?;
    let mut wide = [0u8; 32];
    input.bytes(&mut wide)?;
    let mut shards = Shards {
        input: &mut input,
        budget,
        options,
        jobs,
    };
    let saved = match count_bytes {
        8 => Saved::Narrow(next, shards.read::<K, u64>()?),
        16 => Saved::Middle(next, shards.read::<K, u128>()?),
        32 => Saved::Wide(next, shards.read::<K, Wide>()?),
        _ => return Err(input.bad("counts of no width the counter keeps").into()),
    };
    input.finish()?;
    *finished = Wide::get(&wide);
    Ok(Some(saved))
}

/// Reads saved shards into a run's.
struct Shards<'i, 'o, 'b> {
    input: &'i mut crate::count::checkpoint::StatesReader,
    budget: &'b Budget,
    options: &'o Options<'o>,
    jobs: usize,
}

impl<'b> Shards<'_, '_, 'b> {
    /// The saved states dealt to `jobs` shards by their hash.
    fn read<K: Key, C: Count>(&mut self) -> Result<Vec<Shard<'b, K, C>>, FrontierError> {
        let saved = self.input.len(8)?;
        let record = K::BYTES + C::BYTES;
        let mut outputs: Vec<Output<'b, K, C>> = (0..self.jobs)
            .map(|_| Output::new(0, self.budget, self.options.spill, self.jobs))
            .collect::<Result<_, _>>()?;
        let mut buffer = vec![0u8; record];
        for _ in 0..saved {
            let len = self.input.len(record as u64)?;
            for _ in 0..len {
                self.input.bytes(&mut buffer)?;
                let key = K::get(&buffer);
                let hash = key.hash();
                outputs[shard_of(hash, self.jobs)].add(key, hash, C::get(&buffer[K::BYTES..]))?;
            }
        }
        outputs.into_iter().map(Output::finish).collect()
    }
}
