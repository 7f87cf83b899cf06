//! Sets of the cut's degree words (two bits a square of the cut, each a
//! degree of 0 to 2), each word with a small number (the fewest free ends
//! a top state of those degrees used): what the half steps' filter looks
//! up for every state it makes; and the hasher of the meet's maps keyed
//! by such words.
//!
//! Why not a hash map alone: on 8x7 open the filter looked up hundreds of
//! thousands of words, a probe at random into megabytes for each of
//! billions of states. Read in base 3, the words of a cut of up to
//! [`DENSE_SQUARES`] squares index an array of two bits a word, a few
//! hundred kilobytes to ten megabytes, which the caches hold far better:
//! 8x7 open took 7% less time (docs/notebook.md, "The half steps'
//! filter in arrays").

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::count::frontier::packing::mix;

/// The most squares of the cut whose words are kept in an array: 3^16
/// words (8x8's cut) take 10.8 MB at two bits each, for each half step;
/// 8x8 closed from a1 took 3.5% less time and 2% more memory so.
const DENSE_SQUARES: u32 = 16;

/// The base-3 value of each byte of a degree word: its four squares'
/// degrees as digits, the first square's the lowest (a digit of 3 never
/// occurs in a degree word).
const BASE3: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut value = 0;
        let mut digit = 4;
        while digit > 0 {
            digit -= 1;
            value = value * 3 + ((byte >> (2 * digit)) & 3) as u32;
        }
        table[byte] = value;
        byte += 1;
    }
    table
};

/// Degree words, each with its number.
type DegreeEnds = HashMap<u64, u8, BuildHasherDefault<MixHasher>>;

/// Hashes the one `u64` written to it by the splitmix64 finaliser.
#[derive(Default)]
pub(super) struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).rotate_left(5);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Degree words of the cut, each with a number below 3.
pub(super) enum DegreeSet {
    /// Two bits a word, indexed by the word in base 3; 3 for a word not in
    /// the set.
    Dense(Vec<u8>),
    /// Where the cut is wider.
    Sparse(DegreeEnds),
}

impl DegreeSet {
    /// An empty set of words whose squares' bits all lie in `mask`.
    pub(super) fn new(mask: u64) -> DegreeSet {
        let squares = (64 - mask.leading_zeros()).div_ceil(2);
        if squares <= DENSE_SQUARES {
            let words = 3usize.pow(squares);
            DegreeSet::Dense(vec![u8::MAX; words.div_ceil(4)])
        } else {
            DegreeSet::Sparse(HashMap::default())
        }
    }

    /// The index of `word` in an array.
    #[inline]
    fn index(word: u64) -> usize {
        let bytes = word.to_le_bytes();
        let index = BASE3[usize::from(bytes[0])]
            + 81 * BASE3[usize::from(bytes[1])]
            + 6561 * BASE3[usize::from(bytes[2])]
            + 531_441 * BASE3[usize::from(bytes[3])];
        index as usize
    }

    /// Puts `word` in the set with `value` (below 3), or with the smaller
    /// of it and the value it has.
    pub(super) fn lower(&mut self, word: u64, value: u8) {
        debug_assert!(value < 3);
        match self {
            DegreeSet::Dense(bits) => {
                let i = Self::index(word);
                let shift = 2 * (i % 4);
                let old = bits[i / 4] >> shift & 3;
                if value < old {
                    bits[i / 4] = bits[i / 4] & !(3 << shift) | value << shift;
                }
            }
            DegreeSet::Sparse(map) => {
                let least = map.entry(word).or_insert(value);
                *least = (*least).min(value);
            }
        }
    }

    /// The value of `word`, if it is in the set.
    #[inline]
    pub(super) fn get(&self, word: u64) -> Option<u8> {
        match self {
            DegreeSet::Dense(bits) => {
                let i = Self::index(word);
                let value = bits[i / 4] >> (2 * (i % 4)) & 3;
                (value < 3).then_some(value)
            }
            DegreeSet::Sparse(map) => map.get(&word).copied(),
        }
    }

    /// Whether `word` is in the set.
    #[inline]
    pub(super) fn contains(&self, word: u64) -> bool {
        self.get(word).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of up to six squares (each 0 to 2), in a dense set and a
    /// sparse one, reads back the least value put in, and a word never put
    /// in is absent; the dense words' indices are distinct.
    #[test]
    fn dense_and_sparse_sets_hold_the_least_value_of_each_word() {
        let words: Vec<u64> = (0..3u64.pow(6))
            .map(|mut n| {
                let mut word = 0;
                for square in 0..6 {
                    word |= (n % 3) << (2 * square);
                    n /= 3;
                }
                word
            })
            .collect();
        let mut indices: Vec<usize> = words.iter().map(|&w| DegreeSet::index(w)).collect();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices.len(), words.len());
        let mask = (1 << 12) - 1;
        let mut dense = DegreeSet::new(mask);
        assert!(matches!(dense, DegreeSet::Dense(_)));
        let mut sparse = DegreeSet::Sparse(HashMap::default());
        let value = |w: u64| u8::try_from(w.wrapping_mul(0x9E37_79B9) >> 7 & 3).unwrap();
        for set in [&mut dense, &mut sparse] {
            for &w in &words {
                match value(w) {
                    3 => {}
                    v => {
                        set.lower(w, 2);
                        set.lower(w, v);
                        set.lower(w, 2);
                    }
                }
            }
        }
        for set in [&dense, &sparse] {
            for &w in &words {
                let want = Some(value(w)).filter(|&v| v < 3);
                assert_eq!(set.get(w), want, "{w:b}");
                assert_eq!(set.contains(w), want.is_some());
            }
        }
        // A wide cut's words go to a map.
        assert!(matches!(
            DegreeSet::new((1 << 34) - 1),
            DegreeSet::Sparse(_)
        ));
    }
}
