//! How a state and its count are packed into a table's cells: a state
//! is a [`Key`] (one word, two words, or base-12 slots in one word), its
//! count a [`Count`] (64, 128 or 256 bits), each written to and read from
//! bytes, and [`mix`], the hash that spreads keys over a table's parts and
//! the threads.

use crate::count::frontier::state::{Word, MAX_WIDTH_U64};
use crate::count::number::Wide;

/// Work done with the key a frontier needs ([`by_key_width`]): one
/// generic function, given the key type and where its used-ends bits lie.
pub(crate) trait WithKey {
    /// What the work returns.
    type Out;
    /// Does the work with the key `K`, whose number of path ends used is
    /// in the two bits from `used_shift`.
    fn run<K: Key>(self, used_shift: u32) -> Self::Out;
}

/// Does `work` with the narrowest key that holds a frontier `width` slots
/// wide: one word up to [`MAX_WIDTH_U64`] slots (its ends used from bit
/// 62), base-12 slots up to [`BASE12_SLOTS`], two words past them (from
/// bit 126). The one place the key is chosen by width.
pub(crate) fn by_key_width<W: WithKey>(width: usize, work: W) -> W::Out {
    if width <= MAX_WIDTH_U64 {
        work.run::<u64>(62)
    } else if width <= BASE12_SLOTS {
        work.run::<Base12>(126)
    } else {
        work.run::<[u64; 2]>(126)
    }
}

/// A packed state: the frontier slots' codes, four bits each, with the
/// number of path ends already used in the top two bits. The all-ones word
/// never is a state (it would say three ends were used).
pub(crate) trait Key: Copy + Eq + Send + Sync {
    /// The word a step works on.
    type Word: Word;
    /// The word that marks an empty table cell.
    const VACANT: Self;
    /// The key as the word a step works on.
    fn to_word(self) -> Self::Word;
    /// The key of a word a step made.
    fn from_word(word: Self::Word) -> Self;
    /// The low `BITS` bits of `x`.
    fn from_u128(x: u128) -> Self;
    /// The word, widened.
    fn to_u128(self) -> u128;
    /// A well-mixed 64-bit hash of the word.
    fn hash(self) -> u64;
    /// The bytes a state takes on disk.
    const BYTES: usize;
    /// Appends the state's bytes (little-endian) to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// The state whose bytes [`Key::put`] wrote at the start of `bytes`.
    fn get(bytes: &[u8]) -> Self;
}

/// The little-endian 64-bit word at `at` in `bytes`.
#[inline]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Mixes a 64-bit word (the finaliser of splitmix64).
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Key for u64 {
    type Word = u64;
    const VACANT: u64 = u64::MAX;
    #[inline]
    fn to_word(self) -> u64 {
        self
    }
    #[inline]
    fn from_word(word: u64) -> u64 {
        word
    }
    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn from_u128(x: u128) -> u64 {
        x as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
    const BYTES: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(bytes: &[u8]) -> u64 {
        word_at(bytes, 0)
    }
}

/// A 128-bit state as two 64-bit words, low word first: aligned to 8 bytes,
/// so a table cell with a 64-bit count takes 24 bytes, not 32.
impl Key for [u64; 2] {
    type Word = u128;
    const VACANT: [u64; 2] = [u64::MAX; 2];
    #[inline]
    fn to_word(self) -> u128 {
        self.to_u128()
    }
    #[inline]
    fn from_word(word: u128) -> [u64; 2] {
        Self::from_u128(word)
    }
    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn from_u128(x: u128) -> [u64; 2] {
        [x as u64, (x >> 64) as u64]
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self[0]) | u128::from(self[1]) << 64
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self[0] ^ mix(self[1]))
    }
    const BYTES: usize = 16;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self[0].to_le_bytes());
        out.extend_from_slice(&self[1].to_le_bytes());
    }
    fn get(bytes: &[u8]) -> [u64; 2] {
        [word_at(bytes, 0), word_at(bytes, 8)]
    }
}

/// A state of a frontier of up to [`BASE12_SLOTS`] slots in one 64-bit
/// word: the slots' codes as the digits of a number in base 12, slot 0
/// lowest, and the used path ends in the top two bits. A code is below 12
/// there: four kinds of square and at most eight fragment labels (labels
/// are renumbered from the first, one per fragment, and 17 slots hold at
/// most eight fragments' ends). So the 8-wide knight's frontier (17
/// slots) takes 16 bytes a table cell instead of 24.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Base12(u64);

/// The most slots a [`Base12`] holds: 12^17 < 2^62.
pub(crate) const BASE12_SLOTS: usize = 17;

impl Key for Base12 {
    type Word = u128;
    const VACANT: Base12 = Base12(u64::MAX);
    #[inline]
    fn to_word(self) -> u128 {
        let mut rest = self.0 & ((1 << 62) - 1);
        let mut word = u128::from(self.0 >> 62) << 126;
        for slot in 0..BASE12_SLOTS {
            word |= u128::from(rest % 12) << (4 * slot);
            rest /= 12;
        }
        word
    }
    #[inline]
    fn from_word(word: u128) -> Base12 {
        #[allow(clippy::cast_possible_truncation)]
        let digit = |slot: usize| (word >> (4 * slot)) as u64 & 15;
        let value = (0..BASE12_SLOTS)
            .rev()
            .fold(0u64, |value, slot| value * 12 + digit(slot));
        #[allow(clippy::cast_possible_truncation)]
        let used = (word >> 126) as u64;
        Base12(value | used << 62)
    }
    #[inline]
    fn from_u128(x: u128) -> Base12 {
        Base12::from_word(x)
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self.to_word()
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self.0)
    }
    const BYTES: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
    }
    fn get(bytes: &[u8]) -> Base12 {
        Base12(word_at(bytes, 0))
    }
}

/// A number of tours (or partial tours) kept per state: 64 bits while
/// they fit, then 128, then 256 ([`Wide`]).
pub(crate) trait Count: Copy + Send + Sync + Default {
    /// `self + other`, or `None` on overflow.
    fn checked_add(self, other: Self) -> Option<Self>;
    /// The count, widened.
    fn to_wide(self) -> Wide;
    /// The count `x`, or `None` if it does not fit.
    fn from_wide(x: Wide) -> Option<Self>;
    /// The count, or `u128::MAX` if it is larger.
    fn saturating_u128(self) -> u128;
    /// The bytes a count takes on disk.
    const BYTES: usize;
    /// Appends the count's bytes (little-endian) to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// The count whose bytes [`Count::put`] wrote at the start of `bytes`.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! count {
    ($t:ty) => {
        impl Count for $t {
            #[inline]
            fn checked_add(self, other: $t) -> Option<$t> {
                <$t>::checked_add(self, other)
            }
            #[inline]
            fn to_wide(self) -> Wide {
                Wide::from(self)
            }
            #[inline]
            fn from_wide(x: Wide) -> Option<$t> {
                <$t>::try_from(x).ok()
            }
            #[inline]
            fn saturating_u128(self) -> u128 {
                u128::from(self)
            }
            const BYTES: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> $t {
                let mut le = [0u8; std::mem::size_of::<$t>()];
                le.copy_from_slice(&bytes[..std::mem::size_of::<$t>()]);
                <$t>::from_le_bytes(le)
            }
        }
    };
}

count!(u64);
count!(u128);

impl Count for Wide {
    #[inline]
    fn checked_add(self, other: Wide) -> Option<Wide> {
        Wide::checked_add(self, other)
    }
    #[inline]
    fn to_wide(self) -> Wide {
        self
    }
    #[inline]
    fn from_wide(x: Wide) -> Option<Wide> {
        Some(x)
    }
    #[inline]
    fn saturating_u128(self) -> u128 {
        u128::try_from(self).unwrap_or(u128::MAX)
    }
    const BYTES: usize = 32;
    fn put(self, out: &mut Vec<u8>) {
        for digit in self.digits() {
            out.extend_from_slice(&digit.to_le_bytes());
        }
    }
    fn get(bytes: &[u8]) -> Wide {
        Wide::from_digits(std::array::from_fn(|i| word_at(bytes, 8 * i)))
    }
}
