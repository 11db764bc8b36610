//! Exact, mergeable summaries of counts: how many games had each distinct value (lines,
//! pieces, a score), from which every figure the reports print is computed exactly and
//! without holding the games.
//!
//! A run's values are integers (lines, pieces, points), so a histogram of them — one count
//! per distinct value — holds all a sample's order statistics: the median, any percentile,
//! the mean of the best third, the share at or above a threshold, the minimum and maximum.
//! Its sums are integers too: `Σv` and `Σv²` kept in 128 bits are exact for any run the
//! arena allows (10⁷ games of values below 2³² give `n·Σv²` below 2¹²⁰). Two histograms merge
//! by adding counts, in any order, with the same result: this is what lets a run of any size
//! keep its summaries in memory bounded by the number of distinct values (at most the piece
//! cap's or the line cap's range, and at most 50,001 for the NES score, a multiple of 20
//! below the 999,999 cap or the cap itself), never by the games, and what lets `arena merge`
//! add parts' summaries instead of their games.
//!
//! The figures, exactly as they are defined (docs/statistics.md):
//!
//! - mean = Σv / n (Σv rounded once to f64; exact below 2⁵³, as every run's sum is);
//! - variance = (n·Σv² − (Σv)²) / (n·(n − 1)), the two integers exact, each rounded once to
//!   f64, then divided; the standard deviation its square root. Independent of the games'
//!   order, unlike a floating-point sum over the games;
//! - median, percentile: the value at a rank, found by walking the counts in increasing order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How many times each distinct value occurred, with the exact sums (see the module
/// documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueCounts {
    /// `counts[v]`: how many values equal v (never 0).
    counts: BTreeMap<u64, u64>,
    /// How many values in all.
    count: u64,
    /// Σv.
    sum: u128,
    /// Σv².
    sum_of_squares: u128,
}

impl ValueCounts {
    /// No values.
    pub fn new() -> ValueCounts {
        ValueCounts::default()
    }

    /// The counts of `values`.
    pub fn of(values: impl IntoIterator<Item = u64>) -> ValueCounts {
        let mut counts = ValueCounts::new();
        for value in values {
            counts.add(value);
        }
        counts
    }

    /// Counts one more `value`.
    pub fn add(&mut self, value: u64) {
        self.add_times(value, 1);
    }

    /// Counts `value` `times` more times.
    pub fn add_times(&mut self, value: u64, times: u64) {
        if times == 0 {
            return;
        }
        *self.counts.entry(value).or_insert(0) += times;
        self.count += times;
        let (value, times) = (u128::from(value), u128::from(times));
        self.sum += value * times;
        self.sum_of_squares += value * value * times;
    }

    /// Adds every value of `other` (in any order: the result is the same).
    pub fn merge(&mut self, other: &ValueCounts) {
        for (&value, &times) in &other.counts {
            self.add_times(value, times);
        }
    }

    /// How many values.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Σv, exact.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// How many distinct values (what the counts' memory grows with).
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// How many values equal `value`.
    pub fn times(&self, value: u64) -> u64 {
        self.counts.get(&value).copied().unwrap_or(0)
    }

    /// Each distinct value with its count, in increasing order of value.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (u64, u64)> + '_ {
        self.counts.iter().map(|(&value, &times)| (value, times))
    }

    /// The smallest value.
    pub fn min(&self) -> Option<u64> {
        self.counts.keys().next().copied()
    }

    /// The largest value.
    pub fn max(&self) -> Option<u64> {
        self.counts.keys().next_back().copied()
    }

    /// The mean, Σv / n; `None` for no values.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// The value at 0-based rank `rank` in increasing order (`rank < count`).
    pub fn at_rank(&self, rank: u64) -> u64 {
        debug_assert!(rank < self.count);
        let mut below = 0u64;
        for (&value, &times) in &self.counts {
            below += times;
            if rank < below {
                return value;
            }
        }
        self.max().unwrap_or(0)
    }

    /// The middle value in increasing order, or the mean of the two middle values for an
    /// even count; `None` for no values.
    pub fn median(&self) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let middle = self.count / 2;
        Some(if self.count % 2 == 1 {
            self.at_rank(middle) as f64
        } else {
            (self.at_rank(middle - 1) as f64 + self.at_rank(middle) as f64) / 2.0
        })
    }

    /// The `p`th percentile (0 to 100) by linear interpolation between the closest ranks:
    /// with n values and `h = (n − 1) × p / 100`, the value at rank ⌊h⌋ plus (h − ⌊h⌋) times
    /// the step to the next one (NumPy's default, Hyndman and Fan's type 7; the 50th is the
    /// median). `None` for no values.
    pub fn percentile(&self, p: u32) -> Option<f64> {
        let last = self.count.checked_sub(1)?;
        let rank = last as f64 * f64::from(p) / 100.0;
        let below_rank = rank.floor() as u64;
        let above_rank = (below_rank + 1).min(last);
        let fraction = rank - below_rank as f64;
        let below = self.at_rank(below_rank) as f64;
        let above = self.at_rank(above_rank) as f64;
        Some(below + fraction * (above - below))
    }

    /// The mean of the `k` largest values (1 ≤ k ≤ count); `None` otherwise.
    pub fn top_mean(&self, k: u64) -> Option<f64> {
        if k == 0 || k > self.count {
            return None;
        }
        let (mut left, mut sum) = (k, 0u128);
        for (value, times) in self.iter().rev() {
            let taken = times.min(left);
            sum += u128::from(value) * u128::from(taken);
            left -= taken;
            if left == 0 {
                break;
            }
        }
        Some(sum as f64 / k as f64)
    }

    /// How many values are at least `threshold`.
    pub fn at_least(&self, threshold: u64) -> u64 {
        self.counts
            .range(threshold..)
            .map(|(_, &times)| times)
            .sum()
    }

    /// The sample variance `(n·Σv² − (Σv)²) / (n·(n − 1))` (see the module documentation);
    /// `None` below two values.
    pub fn variance(&self) -> Option<f64> {
        if self.count < 2 {
            return None;
        }
        let n = u128::from(self.count);
        // n·Σv² ≥ (Σv)² (Cauchy–Schwarz): the difference is never negative. Past 2¹²⁸ (no run
        // the arena allows comes near) the sums are taken in floating point.
        let exact = n
            .checked_mul(self.sum_of_squares)
            .zip(self.sum.checked_mul(self.sum))
            .map(|(scaled_squares, squared_sum)| (scaled_squares - squared_sum) as f64);
        let numerator = exact.unwrap_or_else(|| {
            let (n, sum, squares) = (n as f64, self.sum as f64, self.sum_of_squares as f64);
            (n * squares - sum * sum).max(0.0)
        });
        Some(numerator / (n * (n - 1)) as f64)
    }

    /// The sample standard deviation, the square root of [`ValueCounts::variance`].
    pub fn standard_deviation(&self) -> Option<f64> {
        self.variance().map(f64::sqrt)
    }
}

/// The JSON form: `[[value, count], …]` in increasing order of value, every count at least 1.
/// The sums are not stored: they are derived on reading, so a file cannot contradict them.
impl Serialize for ValueCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(|(value, times)| [value, times]))
    }
}

impl<'de> Deserialize<'de> for ValueCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let pairs = Vec::<[u64; 2]>::deserialize(deserializer)?;
        let mut counts = ValueCounts::new();
        let mut previous = None;
        for [value, times] in pairs {
            if times == 0 {
                return Err(D::Error::custom(format!("value {value} counted 0 times")));
            }
            if previous.is_some_and(|previous| value <= previous) {
                return Err(D::Error::custom(format!(
                    "value {value} out of increasing order"
                )));
            }
            if counts.count.checked_add(times).is_none() {
                return Err(D::Error::custom("more values than 64 bits count"));
            }
            previous = Some(value);
            counts.add_times(value, times);
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_statistics_of_hand_made_values() {
        // 3, 1, 4, 1, 5, 9, 2, 6: sorted 1 1 2 3 4 5 6 9.
        let counts = ValueCounts::of([3, 1, 4, 1, 5, 9, 2, 6]);
        assert_eq!(counts.count(), 8);
        assert_eq!(counts.distinct(), 7);
        assert_eq!((counts.min(), counts.max()), (Some(1), Some(9)));
        assert_eq!(counts.mean(), Some(31.0 / 8.0));
        assert_eq!(counts.median(), Some(3.5));
        assert_eq!(counts.at_rank(1), 1);
        assert_eq!(counts.at_rank(7), 9);
        // h = 7 × 25 / 100 = 1.75: 1 + 0.75 × (2 − 1).
        assert_eq!(counts.percentile(25), Some(1.75));
        assert_eq!(counts.percentile(100), Some(9.0));
        assert_eq!(counts.top_mean(3), Some((9 + 6 + 5) as f64 / 3.0));
        assert_eq!(counts.top_mean(9), None);
        assert_eq!(counts.at_least(5), 3);
        // Σ(v − 3.875)² = 52.875 (by hand); n·Σv² − (Σv)² = 8 × 173 − 31² = 423 = 8 × 52.875.
        assert_eq!(counts.variance(), Some(423.0 / 56.0));
    }

    #[test]
    fn merging_in_any_order_gives_the_same_counts() {
        let a = ValueCounts::of([7, 7, 0, 3]);
        let b = ValueCounts::of([3, 12]);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab, ValueCounts::of([0, 3, 3, 7, 7, 12]));
        assert_eq!(ValueCounts::new().median(), None);
        assert_eq!(ValueCounts::of([4]).variance(), None);
    }

    #[test]
    fn the_json_form_reads_back_and_refuses_what_no_count_is() {
        let counts = ValueCounts::of([5, 2, 5]);
        let text = serde_json::to_string(&counts).unwrap();
        assert_eq!(text, "[[2,1],[5,2]]");
        assert_eq!(serde_json::from_str::<ValueCounts>(&text).unwrap(), counts);
        for bad in [
            "[[5,1],[2,1]]",
            "[[2,0]]",
            "[[2,1],[2,1]]",
            "[[1,18446744073709551615],[2,1]]",
        ] {
            assert!(serde_json::from_str::<ValueCounts>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_variance_is_exact_where_a_float_sum_drifts() {
        // A million values 10⁹ and 10⁹ + 1: the variance is exactly 0.25 × 10⁶ / (10⁶ − 1).
        let mut counts = ValueCounts::new();
        counts.add_times(1_000_000_000, 500_000);
        counts.add_times(1_000_000_001, 500_000);
        assert_eq!(counts.variance(), Some(250_000.0 / 999_999.0));
    }
}
