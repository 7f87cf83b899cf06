//! Encode throughput: DIMACS bytes per second written to a sink that
//! discards them (`cargo bench --bench encode`).

use divan::counter::BytesCount;
use divan::Bencher;
use knightsat::cnf_file::write_cnf;
use knightsat::encoding::{Encoding, EncodingConfig, TimeIndexedConfig};
use knightsat::model::board::Board;
use knightsat::model::problem::Problem;

fn main() {
    divan::main();
}

/// Counts the bytes written, so divan can report throughput.
#[derive(Default)]
struct Counting(usize);

impl std::io::Write for Counting {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn bytes_of(encoding: &dyn Encoding) -> usize {
    let mut out = Counting::default();
    write_cnf(encoding, &mut out).unwrap();
    out.0
}

/// The encoding of the open tour of the size x size board under `config`.
fn prepared(size: usize, config: TimeIndexedConfig) -> Box<dyn Encoding> {
    let problem = Problem::new(Board::new(size, size).unwrap());
    EncodingConfig::from(config).prepare(&problem).unwrap()
}

#[divan::bench(args = [8, 12, 20, 30])]
fn default_encoding(bencher: Bencher, size: usize) {
    let encoding = prepared(size, TimeIndexedConfig::default());
    let bytes = bytes_of(&*encoding);
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| write_cnf(&*encoding, std::io::sink()).unwrap());
}

#[divan::bench(args = [8, 12, 16])]
fn naive_encoding(bencher: Bencher, size: usize) {
    let encoding = prepared(size, TimeIndexedConfig::naive());
    let bytes = bytes_of(&*encoding);
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| write_cnf(&*encoding, std::io::sink()).unwrap());
}
