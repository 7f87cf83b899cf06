//! An exact number of tours, wider than the machine's integers: the
//! frontier counter counts boards whose tours pass 2^128 (6 x 25 closed
//! from every start already does; OEIS A175881 runs to 6 x 40, about
//! 2^170 tours from one start).

use std::fmt;

/// The integer under a [`TourNumber`]: 256 bits in four 64-bit digits.
pub(crate) type Wide = bnum::BUint<4>;

/// An exact count of tours, from 0 to 2^256 − 1; printed in decimal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TourNumber(Wide);

impl TourNumber {
    /// No tours.
    pub const ZERO: TourNumber = TourNumber(Wide::ZERO);

    /// `self + other`, or `None` past 2^256 − 1.
    #[must_use]
    pub(crate) fn checked_add(self, other: TourNumber) -> Option<TourNumber> {
        self.0.checked_add(other.0).map(TourNumber)
    }

    /// `self × factor`, or `None` past 2^256 − 1.
    #[must_use]
    pub(crate) fn checked_mul(self, factor: u128) -> Option<TourNumber> {
        self.0.checked_mul(Wide::from(factor)).map(TourNumber)
    }

    /// The number, if it fits in 128 bits.
    #[must_use]
    pub fn to_u128(self) -> Option<u128> {
        u128::try_from(self.0).ok()
    }

    /// The number, if it fits in 64 bits.
    #[must_use]
    pub fn to_u64(self) -> Option<u64> {
        u64::try_from(self.0).ok()
    }

    /// Whether there are no tours.
    #[must_use]
    pub fn is_zero(self) -> bool {
        self.0 == Wide::ZERO
    }

    /// The count as a number of 256 bits.
    pub(crate) fn wide(self) -> Wide {
        self.0
    }

    /// The number as the frontier counter keeps it.
    pub(crate) fn from_wide(wide: Wide) -> TourNumber {
        TourNumber(wide)
    }
}

impl From<u64> for TourNumber {
    fn from(n: u64) -> TourNumber {
        TourNumber(Wide::from(n))
    }
}

impl From<u128> for TourNumber {
    fn from(n: u128) -> TourNumber {
        TourNumber(Wide::from(n))
    }
}

impl PartialEq<u128> for TourNumber {
    fn eq(&self, other: &u128) -> bool {
        self.to_u128() == Some(*other)
    }
}

impl std::str::FromStr for TourNumber {
    type Err = ();

    /// Decimal digits alone, below 2^256.
    fn from_str(text: &str) -> Result<TourNumber, ()> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        Wide::from_str_radix(text, 10)
            .map(TourNumber)
            .map_err(|_| ())
    }
}

impl fmt::Display for TourNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past 128 bits the arithmetic and the decimal stay exact: 2^128
    /// printed, doubled, and refused at 2^256.
    #[test]
    fn numbers_past_128_bits_add_multiply_and_print_exactly() {
        let big = TourNumber::from(u128::MAX)
            .checked_add(TourNumber::from(1u64))
            .unwrap();
        assert_eq!(big.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(big.to_u128(), None);
        assert_eq!(TourNumber::from(u128::from(u64::MAX) + 1).to_u64(), None);
        assert_eq!(TourNumber::from(u64::MAX).to_u64(), Some(u64::MAX));
        assert_eq!(
            big.checked_mul(2).unwrap().to_string(),
            "680564733841876926926749214863536422912"
        );
        assert!(big.checked_mul(u128::MAX).is_some());
        assert!(big.checked_mul(1 << 127).unwrap().checked_mul(2).is_none());
        assert_eq!(TourNumber::from(7u64), 7u128);
        assert!(TourNumber::ZERO.is_zero());
        // Read back as printed; 2^256 and anything but digits refused.
        let max = big.checked_mul(1 << 127).unwrap();
        assert_eq!(max.to_string().parse::<TourNumber>(), Ok(max));
        assert_eq!("0".parse::<TourNumber>(), Ok(TourNumber::ZERO));
        let past = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        for bad in [past, "", "-1", "+1", "1 ", "x"] {
            assert!(bad.parse::<TourNumber>().is_err(), "{bad}");
        }
    }
}
