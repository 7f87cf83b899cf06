//! The commands that write or measure the formula: `encode`, `cubes`, `stats`.

use crate::failure::Fallible;
use std::io::Write;
use std::process::ExitCode;

use knightsat::cnf_file::{
    stats, write_cnf, write_cnf_file, write_icnf_stream, write_icnf_stream_file,
    write_split_stream, CubeStream, MANIFEST,
};
use knightsat::encoding::Encoding;
use knightsat::error::Error;
use knightsat::stats_table;
use knightsat::{cube_count, effective_depth, for_each_cube, Cube};

use super::{emit, note_default_start};
use crate::args::StatsFormat;
use crate::plan::{Cubes, Encode};

/// `encode`: the CNF to stdout or atomically to a file.
pub fn encode(plan: &Encode) -> Fallible<ExitCode> {
    let Encode {
        problem,
        encoding,
        output,
    } = plan;
    note_default_start(problem);
    if output.as_os_str() == "-" {
        write_cnf(&**encoding, super::stdout()?)?;
    } else {
        let stats = write_cnf_file(&**encoding, output)?;
        note!(
            "wrote {}: {} variables, {} clauses",
            output.display(),
            stats.vars,
            stats.clauses
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `cubes`: the formula with its cubes, as an iCNF or split into one CNF
/// per cube. The cubes are counted, then handed out one at a time as they
/// are written, never all held: any depth fits in memory.
pub fn cubes(plan: Cubes) -> Fallible<ExitCode> {
    let Cubes {
        problem,
        config,
        encoding,
        depth,
        output,
        split,
        count_only,
    } = plan;
    note_default_start(&problem);
    // --count counts the split's cubes, which `count --cubes` numbers.
    let (config, encoding) = if split.is_some() || count_only {
        let config = config.keeping_every_tour();
        let encoding = config.prepare(&problem)?;
        (config, encoding)
    } else {
        (config, encoding)
    };
    let count = cube_count(&problem, &config, depth, usize::MAX)?;
    if count_only {
        emit(|out| writeln!(out, "{count}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let walk = |visit: &mut dyn FnMut(&Cube) -> Result<(), Error>| {
        for_each_cube(&problem, &config, depth, visit)
    };
    let stream = CubeStream {
        count,
        depth: effective_depth(depth, problem.board().squares()),
        each: &walk,
    };
    if let Some(dir) = split {
        let files = write_split_stream(&*encoding, stream, &dir)?;
        note!(
            "wrote {files} cube CNFs and {} into {}",
            MANIFEST,
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if output.as_os_str() == "-" {
        write_icnf_stream(&*encoding, stream, super::stdout()?)?;
    } else {
        let stats = write_icnf_stream_file(&*encoding, stream, &output)?;
        note!(
            "wrote {}: {} variables, {} clauses, {count} cubes",
            output.display(),
            stats.vars,
            stats.clauses,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `stats`: the formula's size per family.
pub fn stats_of(encoding: &dyn Encoding, format: StatsFormat) -> Fallible<ExitCode> {
    let stats = stats(encoding);
    let text = match format {
        StatsFormat::Json => serde_json::to_string(&stats)? + "\n",
        StatsFormat::Table => stats_table(
            &stats,
            encoding.variable_kind(),
            encoding.primary_vars(),
            encoding.live_vars(),
        ),
    };
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
