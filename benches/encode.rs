//! Encode throughput: DIMACS bytes per second written to a sink that
//! discards them (`cargo bench --bench encode`).

use divan::counter::BytesCount;
use divan::Bencher;
use knightsat::board::Board;
use knightsat::cnf::dimacs::write_cnf;
use knightsat::encode::Options;

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

fn bytes_of(options: &Options) -> usize {
    let mut out = Counting::default();
    write_cnf(options, &mut out).unwrap();
    out.0
}

#[divan::bench(args = [8, 12, 20, 30])]
fn default_encoding(bencher: Bencher, size: usize) {
    let options = Options::new(Board::new(size, size).unwrap());
    let bytes = bytes_of(&options);
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| write_cnf(&options, std::io::sink()).unwrap());
}

#[divan::bench(args = [8, 12, 16])]
fn naive_encoding(bencher: Bencher, size: usize) {
    let options = Options::naive(Board::new(size, size).unwrap());
    let bytes = bytes_of(&options);
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| write_cnf(&options, std::io::sink()).unwrap());
}
