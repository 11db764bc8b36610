//! Long-run statistics of the NES randomizer in its frame stand-in mode (docs/spec/rules.md, "NES
//! randomizer": "a piece repeats the previous one with probability about 1/32 (O and S:
//! 2/32) instead of 1/7; long-run frequencies are within ±1% of 1/7").
//!
//! The expected values come from the spec, not from this code (docs/spec/nes-facts.md §2.3, assuming
//! uniform random bits): the first roll `(high byte + counter) & 7` is the previous piece 1/8
//! of the time and 7 another 1/8, so 2/8 of picks reroll; the reroll
//! `((high byte & 7) + previous spawn id) mod 7` maps 8 values onto 7 residues and gives the
//! previous piece 1/8 of the time, so a repeat has probability 2/8 × 1/8 = 1/32. For O
//! (id 10, 10 mod 7 = 3 = O) and S (id 11, 11 mod 7 = 4 = S) the previous piece is the doubled
//! residue (high bits 0 and 7), 2/8, so 2/32.

use tetris_core::Piece;
use tetris_core::generator::NesGenerator;

const PICKS: usize = 1_000_000;
const TOLERANCE: f64 = 0.01;

#[test]
fn frequencies_and_repeat_rates_match_the_spec() {
    let mut counts = [0u64; 7];
    // follows[previous][next]
    let mut follows = [[0u64; 7]; 7];
    let mut previous: Option<Piece> = None;
    for piece in NesGenerator::new(2024).take(PICKS) {
        counts[piece.index()] += 1;
        if let Some(previous) = previous {
            follows[previous.index()][piece.index()] += 1;
        }
        previous = Some(piece);
    }

    let mut report = String::new();
    let mut failures = Vec::new();
    for piece in Piece::ALL {
        let frequency = counts[piece.index()] as f64 / PICKS as f64;
        let after_piece: u64 = follows[piece.index()].iter().sum();
        let repeat_rate = follows[piece.index()][piece.index()] as f64 / after_piece as f64;
        let expected_repeat = match piece {
            Piece::O | Piece::S => 2.0 / 32.0,
            _ => 1.0 / 32.0,
        };
        report.push_str(&format!(
            "{piece}: frequency {frequency:.5} (1/7 = {:.5}), repeat rate {repeat_rate:.5} \
             (expected {expected_repeat:.5})\n",
            1.0 / 7.0
        ));
        if (frequency - 1.0 / 7.0).abs() > TOLERANCE {
            failures.push(format!("{piece} frequency {frequency:.5}"));
        }
        if (repeat_rate - expected_repeat).abs() > TOLERANCE {
            failures.push(format!("{piece} repeat rate {repeat_rate:.5}"));
        }
    }
    // Shown with `--nocapture`, and in the failure message.
    println!("{report}");
    assert!(failures.is_empty(), "{failures:?}\n{report}");
}
