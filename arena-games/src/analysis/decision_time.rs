//! How long a strategy takes to decide, per piece: the mean and high percentiles of many
//! decisions' times in bounded memory, for the timing part of a report (a player has a
//! piece's entry delay, at least 10 frames, to decide in).
//!
//! Times are counted in a histogram of buckets, 16 per doubling (each doubling split in 16
//! equal parts): a percentile is read as the upper edge of the bucket that holds its rank, so
//! it is never below the true value and at most a sixteenth (6.25 %) above it. The mean is exact (the sum is kept in
//! nanoseconds). Memory is fixed (`BUCKETS` counters) however many decisions are counted, and
//! histograms of several threads merge by adding counters, so the result does not depend on
//! how the decisions were split among them.

use std::time::Duration;

/// Buckets per doubling of the time.
const PER_DOUBLING: u32 = 16;

/// Doublings covered from 1 ns: 2^40 ns is about 18 minutes; longer times share the last
/// bucket.
const DOUBLINGS: u32 = 40;

/// How many buckets a histogram has.
const BUCKETS: usize = (PER_DOUBLING * DOUBLINGS) as usize;

/// Decision times: a count per logarithmic bucket, their number and their exact sum. The
/// buckets are allocated with the first decision, so an empty histogram (a game kept in a
/// report's list after its times were counted in the run's) costs nothing.
#[derive(Clone, Debug, Default)]
pub struct DecisionTimes {
    /// [`BUCKETS`] counters, or none before the first decision.
    buckets: Vec<u64>,
    count: u64,
    total_nanos: u128,
}

impl PartialEq for DecisionTimes {
    /// The same decisions counted (an unallocated histogram equals an all-zero one).
    fn eq(&self, other: &DecisionTimes) -> bool {
        let counter =
            |times: &DecisionTimes, bucket: usize| times.buckets.get(bucket).copied().unwrap_or(0);
        (self.count, self.total_nanos) == (other.count, other.total_nanos)
            && (0..BUCKETS).all(|bucket| counter(self, bucket) == counter(other, bucket))
    }
}

impl Eq for DecisionTimes {}

/// The bucket of `nanos` (≥ 1): 16 × the exponent of its leading bit, plus the four bits
/// after that bit (which sixteenth of its doubling it is in; exact integer arithmetic).
fn bucket_of(nanos: u64) -> usize {
    let nanos = nanos.max(1);
    let exponent = 63 - nanos.leading_zeros();
    let fraction = if exponent >= 4 {
        (nanos >> (exponent - 4)) & 0xF
    } else {
        (nanos << (4 - exponent)) & 0xF
    };
    ((exponent * PER_DOUBLING) as usize + fraction as usize).min(BUCKETS - 1)
}

/// The upper edge of `bucket`, in nanoseconds: (17 + its sixteenth) / 16 × 2^exponent,
/// rounded up (below 16 ns, where a doubling has fewer than 16 whole nanoseconds), so above
/// every time in the bucket.
fn upper_edge_nanos(bucket: usize) -> u64 {
    let exponent = bucket as u32 / PER_DOUBLING;
    let fraction = bucket as u64 % u64::from(PER_DOUBLING);
    (((16 + fraction + 1) << exponent) + 15) >> 4
}

impl DecisionTimes {
    /// No decision yet.
    pub fn new() -> DecisionTimes {
        DecisionTimes::default()
    }

    /// Counts one decision that took `time`.
    pub fn record(&mut self, time: Duration) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.allocate();
        self.buckets[bucket_of(nanos)] += 1;
        self.count += 1;
        self.total_nanos += u128::from(nanos);
    }

    /// Adds `other`'s decisions.
    pub fn merge(&mut self, other: &DecisionTimes) {
        if other.buckets.is_empty() {
            return;
        }
        self.allocate();
        for (mine, theirs) in self.buckets.iter_mut().zip(other.buckets.iter()) {
            *mine += theirs;
        }
        self.count += other.count;
        self.total_nanos += other.total_nanos;
    }

    /// The counters, allocated when they are first needed.
    fn allocate(&mut self) {
        if self.buckets.is_empty() {
            self.buckets = vec![0; BUCKETS];
        }
    }

    /// How many decisions were counted.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean time (`None` without decisions).
    pub fn mean(&self) -> Option<Duration> {
        (self.count > 0).then(|| {
            let nanos = self.total_nanos / u128::from(self.count);
            Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
        })
    }

    /// The `percent` percentile (0 < `percent` ≤ 100): the upper edge of the bucket holding
    /// the decision of rank ⌈percent × count / 100⌉ (nearest rank), so at most 6.25 % above
    /// the true time of that rank and never below it; `None` without decisions.
    pub fn percentile(&self, percent: f64) -> Option<Duration> {
        if self.count == 0 {
            return None;
        }
        let rank = ((percent / 100.0 * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (bucket, &count) in self.buckets.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Some(Duration::from_nanos(upper_edge_nanos(bucket)));
            }
        }
        unreachable!("the counters add up to the count")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_their_times_and_edges_are_at_most_a_sixteenth_above() {
        for nanos in (1..5000u64).chain([123_456, 7_654_321, 99_999_999, 1 << 39]) {
            let bucket = bucket_of(nanos);
            let edge = upper_edge_nanos(bucket);
            assert!(edge > nanos, "{nanos} ns: edge {edge}");
            // The edge is within a sixteenth of the bucket's doubling above, so at most
            // nanos / 16 (+ 1 for the rounding of the shortest times).
            assert!(edge - nanos <= nanos / 16 + 1, "{nanos} ns: edge {edge}");
            // And the bucket below ends at or before it.
            if bucket > 0 {
                assert!(upper_edge_nanos(bucket - 1) <= nanos, "{nanos} ns");
            }
        }
    }

    #[test]
    fn mean_and_percentiles_of_known_times() {
        let mut times = DecisionTimes::new();
        assert_eq!(times.mean(), None);
        assert_eq!(times.percentile(99.0), None);
        // 1, 2, …, 100 ms: mean 50.5 ms, nearest-rank 50th = 50 ms, 99th = 99 ms, 100th = 100.
        for ms in 1..=100u64 {
            times.record(Duration::from_millis(ms));
        }
        assert_eq!(times.count(), 100);
        assert_eq!(times.mean(), Some(Duration::from_micros(50_500)));
        for (percent, ms) in [(50.0, 50u64), (99.0, 99), (100.0, 100), (1.0, 1)] {
            let read = times.percentile(percent).unwrap().as_nanos() as f64;
            let truth = (ms * 1_000_000) as f64;
            assert!(
                read > truth && read <= truth * 1.0625,
                "{percent}: {read} against {truth}"
            );
        }
    }

    #[test]
    fn merging_is_counting_together() {
        let (mut one, mut other, mut all) = (
            DecisionTimes::new(),
            DecisionTimes::new(),
            DecisionTimes::new(),
        );
        for micros in [3u64, 70, 900, 12_000, 45_000] {
            one.record(Duration::from_micros(micros));
            all.record(Duration::from_micros(micros));
        }
        for micros in [5u64, 800, 250_000] {
            other.record(Duration::from_micros(micros));
            all.record(Duration::from_micros(micros));
        }
        one.merge(&other);
        assert_eq!(one, all);
    }
}
