//! Summary statistics of game results and the exact sign test that compares two strategies on
//! the same piece sequences.
//!
//! Everything here is a pure function of its inputs' values, never of their order (the
//! summaries come from [`ValueCounts`], exact integer counts and sums), so the same games give
//! bit-identical statistics whatever the number of threads or shards that played them.
//!
//! The distributions come from the `statrs` crate, a maintained and tested implementation,
//! rather than hand-written special functions: Student's t quantile for the 95% interval, and
//! `ln n!` inside the binomial tail. The binomial tail itself stays here: statrs' `Binomial`
//! goes through its regularized incomplete beta, whose continued fraction stops after 140
//! steps and whose `ln Γ(a + b) − ln Γ(a) − ln Γ(b)` cancels for large counts, so its p-values
//! are off in the tenth digit at 200 000 games and by about 2% at two million (0.982 for an
//! exact 1). The sign test here sums the tail relative to its last term, and that term uses
//! Loader's saddle-point form (as R's `dbinom` does): its relative error stays at a few 10⁻¹³
//! at any count.

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::analysis::counts::ValueCounts;

/// Two-sided 95% confidence: the interval leaves 2.5% on each side.
const UPPER_TAIL_95: f64 = 0.975;

/// The summary of a sample of counts, values that are never negative (e.g. the lines of every
/// game a strategy played).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// How many values.
    pub count: usize,
    /// The arithmetic mean.
    pub mean: f64,
    /// The middle value after sorting; the mean of the two middle values for an even count.
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
    /// The sample standard deviation, `sqrt(Σ (v − mean)² / (count − 1))`, computed from exact
    /// integer sums ([`ValueCounts::variance`]); `None` for one value.
    pub standard_deviation: Option<f64>,
    /// The standard error of the mean, `standard_deviation / sqrt(count)`; `None` for one value.
    pub standard_error: Option<f64>,
    /// The 95% confidence interval of the mean by Student's t with `count − 1` degrees of
    /// freedom, `mean ± t(0.975, count − 1) × standard_error`, cut at 0 below: the values are
    /// counts, so their true mean is never negative, and leaving out the negative part of
    /// the interval removes only means that cannot be (the interval still holds the true mean
    /// whenever Student's interval does). `None` for one value.
    pub interval_95: Option<(f64, f64)>,
}

impl Summary {
    /// Summarizes `values` (counts: whole numbers, never negative); `None` when there are
    /// none. The same as [`Summary::of_counts`] of their [`ValueCounts`].
    pub fn of(values: &[f64]) -> Option<Summary> {
        debug_assert!(
            values
                .iter()
                .all(|&value| value >= 0.0 && value.fract() == 0.0),
            "a summary is of counts"
        );
        Summary::of_counts(&ValueCounts::of(values.iter().map(|&value| value as u64)))
    }

    /// Summarizes the values `counts` counts (see [`ValueCounts`] for each figure's exact
    /// definition); `None` when there are none.
    pub fn of_counts(counts: &ValueCounts) -> Option<Summary> {
        let mean = counts.mean()?;
        let standard_deviation = counts.standard_deviation();
        let count = counts.count();
        let standard_error = standard_deviation.map(|deviation| deviation / (count as f64).sqrt());
        let interval_95 = standard_error.map(|error| {
            let half_width = student_t_quantile(UPPER_TAIL_95, count - 1) * error;
            ((mean - half_width).max(0.0), mean + half_width)
        });
        Some(Summary {
            count: count as usize,
            mean,
            median: counts.median()?,
            min: counts.min()? as f64,
            max: counts.max()? as f64,
            standard_deviation,
            standard_error,
            interval_95,
        })
    }
}

impl Summary {
    /// The summary with its interval also cut at `most` above: the most any one value can be
    /// (the lines a game of at most N pieces can clear), so that no mean above it is offered.
    /// As the cut at 0, it leaves out only means that cannot be.
    pub fn at_most(mut self, most: f64) -> Summary {
        self.interval_95 = self
            .interval_95
            .map(|(low, high)| (low.min(most), high.min(most)));
        self
    }
}

/// The quantile of Student's t with `degrees_of_freedom` (≥ 1): the t with
/// `P(T ≤ t) = probability`, from statrs.
fn student_t_quantile(probability: f64, degrees_of_freedom: u64) -> f64 {
    StudentsT::new(0.0, 1.0, degrees_of_freedom as f64)
        .expect("one or more degrees of freedom make a valid Student's t")
        .inverse_cdf(probability)
}

/// The exact two-sided sign test: the probability, if both outcomes were equally likely, of a
/// split at least as uneven as `wins` against `losses` (ties are left out before calling).
///
/// With `n = wins + losses` and `k = min(wins, losses)`, the p-value is
/// `min(1, 2 × P(X ≤ k))` for `X ~ Binomial(n, 1/2)`; it is 1 when `n = 0`.
pub fn sign_test_p_value(wins: u64, losses: u64) -> f64 {
    let trials = wins + losses;
    if trials == 0 {
        return 1.0;
    }
    (2.0 * binomial_half_cdf(wins.min(losses), trials)).min(1.0)
}

/// `P(X ≤ k)` for `X ~ Binomial(n, 1/2)`, i.e. `Σ_{i ≤ k} C(n, i) / 2ⁿ`.
///
/// Kept by hand rather than statrs' `Binomial::cdf`, which is not exact enough for large
/// counts (see the module documentation).
///
/// The sum is taken relative to its last term `C(n, k) / 2ⁿ` (the terms grow with i while
/// `k ≤ n/2`, and the sum of the ratios stays below `k + 1`), so no term overflows or
/// underflows however large n is; the tail below 10⁻¹⁷ of the sum is left out. The last term
/// (`C(n, k) / 2ⁿ`) is exact ratios up to n = 1000 and Loader's saddle-point form beyond,
/// accurate to a few units in the last place.
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    if k > n / 2 {
        // P(X ≤ k) = 1 − P(X ≥ k + 1) = 1 − P(X ≤ n − k − 1) by symmetry.
        return 1.0 - binomial_half_cdf(n - k - 1, n);
    }
    let mut ratio_sum = 0.0;
    let mut ratio = 1.0;
    let mut i = k;
    loop {
        ratio_sum += ratio;
        if i == 0 || ratio < ratio_sum * 1e-17 {
            break;
        }
        // C(n, i − 1) / C(n, i) = i / (n − i + 1).
        ratio *= i as f64 / (n - i + 1) as f64;
        i -= 1;
    }
    ratio_sum * binomial_half_probability(k, n)
}

/// `C(n, k) / 2ⁿ`, the probability that `Binomial(n, 1/2)` equals k (k ≤ n).
///
/// Up to n = 1000 (where `2⁻ⁿ` is still a normal f64) a product of exact ratios. Beyond,
/// Loader's saddle-point form (the one R's `dbinom` uses), which keeps full precision where
/// `ln n! − ln k! − ln (n − k)!` would cancel millions down to a few units:
/// `ln P = δ(n) − δ(k) − δ(n − k) − D(k, n/2) − D(n − k, n/2) + ½ ln(n / (2π k (n − k)))`, with
/// δ the Stirling error [`stirling_error`] and D the deviance [`binomial_deviance`].
fn binomial_half_probability(k: u64, n: u64) -> f64 {
    const EXACT_PRODUCT_LIMIT: u64 = 1000;
    let k = k.min(n - k);
    if n <= EXACT_PRODUCT_LIMIT {
        let mut probability = 0.5f64.powi(n as i32);
        for i in 0..k {
            probability *= (n - i) as f64 / (i + 1) as f64;
        }
        return probability;
    }
    let n_float = n as f64;
    if k == 0 {
        return (-n_float * std::f64::consts::LN_2).exp();
    }
    let k_float = k as f64;
    let rest = n_float - k_float;
    let half = n_float / 2.0;
    let ln_probability = stirling_error(n)
        - stirling_error(k)
        - stirling_error(n - k)
        - binomial_deviance(k_float, half)
        - binomial_deviance(rest, half)
        + 0.5 * (n_float / (2.0 * std::f64::consts::PI * k_float * rest)).ln();
    ln_probability.exp()
}

/// The Stirling error `δ(m) = ln m! − ((m + ½) ln m − m + ½ ln 2π)` for m ≥ 1: from statrs'
/// `ln m!` up to 15, from the asymptotic series `1/(12m) − 1/(360m³) + 1/(1260m⁵) − …`
/// (as many terms as m needs for full precision) above.
fn stirling_error(m: u64) -> f64 {
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    let m_float = m as f64;
    if m <= 15 {
        let ln_sqrt_two_pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
        return statrs::function::factorial::ln_factorial(m) - (m_float + 0.5) * m_float.ln()
            + m_float
            - ln_sqrt_two_pi;
    }
    let square = m_float * m_float;
    if m > 500 {
        (S0 - S1 / square) / m_float
    } else if m > 80 {
        (S0 - (S1 - S2 / square) / square) / m_float
    } else if m > 35 {
        (S0 - (S1 - (S2 - S3 / square) / square) / square) / m_float
    } else {
        (S0 - (S1 - (S2 - (S3 - S4 / square) / square) / square) / square) / m_float
    }
}

/// The deviance term `D(x, μ) = x ln(x/μ) + μ − x` (x, μ > 0), by its series in
/// `v = (x − μ)/(x + μ)` when x is near μ, where the direct form cancels.
fn binomial_deviance(x: f64, mean: f64) -> f64 {
    if (x - mean).abs() < 0.1 * (x + mean) {
        let v = (x - mean) / (x + mean);
        let v_squared = v * v;
        let mut sum = (x - mean) * v;
        let mut power = 2.0 * x * v;
        for j in 1..1000 {
            power *= v_squared;
            let next = sum + power / f64::from(2 * j + 1);
            if next == sum {
                break;
            }
            sum = next;
        }
        sum
    } else {
        x * (x / mean).ln() + mean - x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::assert_close;

    #[test]
    fn mean_median_and_standard_error_of_a_small_sample() {
        // 2 4 4 4 5 5 7 9: sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32, so the
        // sample variance is 32/7 and the standard error sqrt(32/7 / 8) = sqrt(4/7).
        let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let summary = Summary::of(&values).unwrap();
        assert_eq!(summary.count, 8);
        assert_eq!(summary.mean, 5.0);
        // Sorted, the middle pair is 4 and 5.
        assert_eq!(summary.median, 4.5);
        assert_eq!(summary.min, 2.0);
        assert_eq!(summary.max, 9.0);
        assert_close(
            summary.standard_deviation.unwrap(),
            (32.0f64 / 7.0).sqrt(),
            1e-15,
        );
        assert_close(
            summary.standard_error.unwrap(),
            (4.0f64 / 7.0).sqrt(),
            1e-15,
        );
        // t(0.975, 7) = 2.364624251592785 (tables give 2.365).
        let (low, high) = summary.interval_95.unwrap();
        let half_width = 2.364_624_251_592_785 * (4.0f64 / 7.0).sqrt();
        assert_close(low, 5.0 - half_width, 1e-12);
        assert_close(high, 5.0 + half_width, 1e-12);
    }

    #[test]
    fn medians_of_odd_and_even_counts_and_tiny_samples() {
        assert_eq!(Summary::of(&[3.0, 1.0, 2.0]).unwrap().median, 2.0);
        assert_eq!(Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap().median, 2.5);
        assert!(Summary::of(&[]).is_none());
        let single = Summary::of(&[7.0]).unwrap();
        assert_eq!(
            (single.mean, single.median, single.min, single.max),
            (7.0, 7.0, 7.0, 7.0)
        );
        assert_eq!(single.standard_error, None);
        assert_eq!(single.interval_95, None);
        // Two values 1 and 3: deviations ±1, variance 2/1, standard error sqrt(2)/sqrt(2) = 1,
        // and t(0.975, 1) = tan(0.475 π) = 12.706204736174698.
        let pair = Summary::of(&[1.0, 3.0]).unwrap();
        assert_close(pair.standard_error.unwrap(), 1.0, 1e-15);
        let (low, high) = pair.interval_95.unwrap();
        assert_close(high - 2.0, 12.706_204_736_174_698, 1e-12);
        // 2 − 12.7 is below 0, which no mean of counts can be: the interval starts at 0.
        assert_eq!(low, 0.0);
    }

    #[test]
    fn an_interval_cut_at_the_most_a_value_can_be_keeps_only_possible_means() {
        // 4 and 6 lines of games of at most 20 pieces (at most 8 lines): 5 ± 12.706...
        let summary = Summary::of(&[4.0, 6.0]).unwrap().at_most(8.0);
        assert_eq!(summary.interval_95, Some((0.0, 8.0)));
        // An interval wholly inside is unchanged.
        let inside = Summary::of(&[100.0, 102.0]).unwrap();
        assert_eq!(inside.at_most(200.0).interval_95, inside.interval_95);
        // One value has no interval to cut.
        assert_eq!(Summary::of(&[3.0]).unwrap().at_most(8.0).interval_95, None);
        assert_eq!(crate::analysis::tournament::most_lines(20), 8);
        assert_eq!(crate::analysis::tournament::most_lines(1_998), 799);
        assert_eq!(crate::analysis::tournament::most_lines(1), 0);
    }

    #[test]
    fn the_interval_of_a_mean_of_counts_never_goes_below_zero() {
        // A two-game tournament of 2 and 209 lines: mean 105.5, deviations ±103.5, variance
        // 2 × 103.5² / 1, standard error sqrt(2) × 103.5 / sqrt(2) = 103.5, and
        // t(0.975, 1) = 12.706204736174698: Student's interval is 105.5 ± 1315.09..., whose
        // low end (−1209.6) no mean of line counts can reach.
        let summary = Summary::of(&[2.0, 209.0]).unwrap();
        assert_close(summary.standard_error.unwrap(), 103.5, 1e-12);
        let (low, high) = summary.interval_95.unwrap();
        assert_eq!(low, 0.0);
        assert_close(high, 105.5 + 12.706_204_736_174_698 * 103.5, 1e-9);
        // An interval wholly above 0 is Student's, unchanged: 100 and 102 lines, mean 101,
        // standard error 1, so 101 ± 12.706...
        let (low, high) = Summary::of(&[100.0, 102.0]).unwrap().interval_95.unwrap();
        assert_close(low, 101.0 - 12.706_204_736_174_698, 1e-12);
        assert_close(high, 101.0 + 12.706_204_736_174_698, 1e-12);
        // No spread: the interval is the mean itself; all zeros: [0, 0].
        assert_eq!(
            Summary::of(&[0.0, 0.0]).unwrap().interval_95,
            Some((0.0, 0.0))
        );
    }

    #[test]
    fn sign_test_p_values_worked_by_hand() {
        // n = 10, k = 0: 2 × C(10, 0) / 2¹⁰ = 2/1024.
        assert_eq!(sign_test_p_value(0, 10), 0.001_953_125);
        assert_eq!(sign_test_p_value(10, 0), 0.001_953_125);
        // n = 5, k = 2: P(X ≤ 2) = (1 + 5 + 10)/32 = 1/2, doubled = 1.
        assert_eq!(sign_test_p_value(2, 3), 1.0);
        // n = 20, k = 15 → min 5: (1 + 20 + 190 + 1140 + 4845 + 15504)/2²⁰ = 21700/1048576,
        // doubled 43400/1048576 = 0.04138946533203125 (checked with Python's fractions).
        assert_close(sign_test_p_value(15, 5), 0.041_389_465_332_031_25, 1e-14);
        assert_close(sign_test_p_value(5, 15), 0.041_389_465_332_031_25, 1e-14);
        // No untied sequence: nothing to test.
        assert_eq!(sign_test_p_value(0, 0), 1.0);
        // n = 1: a single win is a coin flip, P = 2 × 1/2 = 1.
        assert_eq!(sign_test_p_value(1, 0), 1.0);
    }

    #[test]
    fn binomial_tails_stay_exact_for_large_counts() {
        // For odd n, P(X ≤ (n − 1)/2) = 1/2 exactly by symmetry, on both sides of the switch
        // from exact products to the saddle-point form at n = 1000.
        for n in [999u64, 1001, 20_001, 2_000_001] {
            assert_close(binomial_half_cdf((n - 1) / 2, n), 0.5, 1e-13);
        }
        // Values from Python's exact integers,
        // float(Fraction(sum(comb(n, i) for i in range(k + 1)), 2**n)):
        for (k, n, expected) in [
            (4900, 10_000, 0.023_292_763_852_473_693),
            (400, 1001, 1.132_536_674_330_522_5e-10),
            (49_500, 100_000, 0.000_791_179_939_425_797_8),
            (99_000, 200_001, 3.871_669_478_376_425e-6),
        ] {
            assert_close(binomial_half_cdf(k, n), expected, 1e-12);
        }
        // An extreme split on 5000 games: C(5000, 0)/2⁵⁰⁰⁰ underflows f64 to 0, as it must.
        assert_eq!(sign_test_p_value(5000, 0), 0.0);
        assert_eq!(binomial_half_cdf(10, 10), 1.0);
        // k above n/2 goes through the complement: P(X ≤ 3) for n = 5 is 1 − 6/32 = 26/32.
        assert_close(binomial_half_cdf(3, 5), 26.0 / 32.0, 1e-15);
    }

    /// Student's t quantile t(0.975, n − 1) as `Summary` uses it: the half-width of the 95%
    /// interval over the standard error, for a sample of n counts two apart centred on a
    /// power of two at least 2n and 64 (so the mean is exact, the counts and the interval stay
    /// above 0, and the centre's small ulp keeps the half-width's digits).
    fn t_975_through_interval(count: usize) -> f64 {
        let centre = (2 * count).next_power_of_two().max(64) as f64;
        let values: Vec<f64> = (0..count)
            .map(|i| centre + (2 * i) as f64 - (count - 1) as f64)
            .collect();
        let summary = Summary::of(&values).unwrap();
        assert_eq!(summary.mean, centre);
        let (low, high) = summary.interval_95.unwrap();
        assert_close(centre - low, high - centre, 1e-12);
        (high - centre) / summary.standard_error.unwrap()
    }

    #[test]
    fn student_t_quantiles_match_closed_forms_and_tables() {
        // ν = 1 is the Cauchy distribution: t = tan(π (p − 1/2)).
        let cauchy = (std::f64::consts::PI * 0.475).tan();
        assert_close(t_975_through_interval(2), cauchy, 1e-13);
        // ν = 2: t = (2p − 1) / sqrt(2 p (1 − p)) = 0.95 / sqrt(0.04875) = 4.302652729749464.
        assert_close(t_975_through_interval(3), 0.95 / 0.048_75f64.sqrt(), 1e-13);
        // Printed tables give ν = 10 → 2.228, ν = 30 → 2.042, ν = 1000 → 1.962; the digits below
        // are mpmath's (30-digit root of its regularized incomplete beta).
        assert_close(t_975_through_interval(11), 2.228_138_851_986_275, 1e-9);
        assert_close(t_975_through_interval(31), 2.042_272_456_301_238, 1e-9);
        assert_close(t_975_through_interval(1001), 1.962_339_080_826_408, 1e-9);
        // The lower tail and the median, which `Summary` does not ask for, from statrs directly.
        let ten = StudentsT::new(0.0, 1.0, 10.0).unwrap();
        assert_close(ten.inverse_cdf(0.025), -2.228_138_851_986_275, 1e-9);
        let four = StudentsT::new(0.0, 1.0, 4.0).unwrap();
        assert_eq!(four.inverse_cdf(0.5), 0.0);
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        // statrs' ln Γ and ln n! (the latter behind the Stirling error of the sign test):
        // Γ(n + 1) = n!: 5! = 120, 10! = 3628800; Γ(1/2) = √π.
        use statrs::function::factorial::ln_factorial;
        use statrs::function::gamma::ln_gamma;
        assert_close(ln_gamma(6.0), 120f64.ln(), 1e-14);
        assert_close(ln_gamma(11.0), 3_628_800f64.ln(), 1e-14);
        assert_close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-13);
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert_close(ln_factorial(5), 120f64.ln(), 1e-14);
        assert_close(ln_factorial(10), 3_628_800f64.ln(), 1e-14);
        assert!(ln_factorial(0).abs() < 1e-14);
        assert!(ln_factorial(1).abs() < 1e-14);
    }
}
