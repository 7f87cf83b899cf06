//! What a frontier count keeps in its checkpoint: the counts of the pieces
//! it has finished, each under its name, read back rather than counted
//! again when the same count runs again (the states of a piece partway
//! are the meet's to save: `meet/saved.rs`).

use super::options::{Options, Saving};
use super::FrontierError;
use crate::count::number::TourNumber;

/// The tours of the piece `label` of the count `options` saves (or of the
/// whole, where it saves nothing): read from the checkpoint where an
/// earlier run finished the piece, else counted by `count` (given the
/// options that name the piece) and recorded as finished.
pub(super) fn piece(
    options: &Options,
    label: &str,
    count: impl FnOnce(&Options) -> Result<TourNumber, FrontierError>,
) -> Result<TourNumber, FrontierError> {
    let Some(saving) = options.saving else {
        return count(options);
    };
    let name = format!("{}/{label}", saving.name);
    if let Some(tours) = saving.checkpoint.finished(&name) {
        return Ok(tours);
    }
    let within = Options {
        saving: Some(Saving {
            checkpoint: saving.checkpoint,
            name: &name,
        }),
        ..*options
    };
    let tours = count(&within)?;
    saving.checkpoint.finish_piece(&name, tours)?;
    Ok(tours)
}
