//! Counting the tours of a CNF file that knightsat wrote: a job of its own,
//! since the problem, the encoding and the cube come from the file's
//! comments, not from the caller.

use super::enumerate::{enumerate, every_tour, CountOptions};
use super::split::count_in_cube;
use crate::cnf_file::CnfInfo;
use crate::cubes::cube_of;
use crate::error::Error;
use crate::gate::refute;
use crate::sat::Stop;
use crate::solve::Request;

/// Counts the tours of a knightsat CNF from what its comments record: the
/// problem and encoding, and for a cube CNF (`cubes --split`) the cube, so
/// that the counts of a split's files add up to the count of the whole.
/// `request` gives the solver; the encoding is the file's. The gate is
/// checked once, after the cube (if any) is found legal.
pub fn count_recorded(info: &CnfInfo, request: &Request) -> Result<u64, Error> {
    let request = Request {
        config: info.encoding.clone(),
        ..request.clone()
    };
    if let Some(squares) = &info.cube {
        let request = every_tour(&request);
        let cube = cube_of(&info.problem, &request.config, squares)?;
        if refute(&info.problem).is_some() {
            return Ok(0);
        }
        return count_in_cube(&info.problem, &request, &cube, &Stop::new(), |_| true);
    }
    if request.gate && refute(&info.problem).is_some() {
        return Ok(0);
    }
    enumerate(&info.problem, &request, CountOptions::default(), |_| Ok(()))
}
