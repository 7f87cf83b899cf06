//! Counting the tours of a CNF file that knightsat wrote: a job of its own,
//! since the problem, the encoding and the cube come from the file's
//! comments, not from the caller.

use super::enumerate::{enumerate, every_tour, Listing};
use super::split::count_in_cube;
use std::io::BufRead;

use crate::cnf_file::{check_clauses_as_written, read_cnf_info, CnfInfo};
use crate::cubes::cube_of;
use crate::error::Error;
use crate::gate::refute;
use crate::runtime::stop::Stop;
use crate::solve::{Method, Request};

/// Counts the tours of the knightsat CNF `input` holds: its comments read
/// ([`read_cnf_info`]), its clauses checked to be the ones knightsat
/// writes for what they describe (`check_clauses_as_written`: a file
/// with other clauses is refused, since the count follows the comments),
/// then [`count_recorded`].
pub fn count_cnf(mut input: impl BufRead, request: &Request) -> Result<u64, Error> {
    let info = read_cnf_info(&mut input)?;
    check_clauses_as_written(&info, input)?;
    count_recorded(&info, request)
}

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
    // A file written with a block schedule or a corridor holds only some
    // tours: its models are not the count.
    Method::Sat.check_supports(
        &info.problem,
        &Request {
            every_tour: true,
            ..request.clone()
        },
    )?;
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
    enumerate(&info.problem, &request, Listing::default(), |_| Ok(()))
}
