//! Every registered evaluator's leaf evaluation ([`Evaluator::last_link_values`], which an
//! evaluator may compute by updating the board's features column by column) gives, bit for
//! bit, what locking each placement on a copy of the board and evaluating the whole board
//! gives ([`link_value_by_locking`]): on at least 100,000 (board, placement) pairs per
//! evaluator, line clears and earlier chain links included, with its presets and with random
//! weights (so that no feature hides behind a zero weight).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::{
    BOARD_WIDTH, Board, LinkValue, Piece, PlacementRecord, Placements, SearchOptions, Searcher,
};
use tetris_registry::{
    AnyEvaluator, WeightsChoice, evaluator_by_name, evaluator_from_weights_json, evaluators,
};
use tetris_search_bfs::Bfs;
use tetris_tests::{grow_board, random_lock_placement};

const PAIRS_PER_EVALUATOR: usize = 100_000;

/// A grown board of random height with up to three rows filled but for one cell, so that many
/// placements clear rows (one, two or more at once).
fn test_board(rng: &mut Pcg64Mcg) -> Board {
    let height = 4 + (rng.next_u32() % 29) as usize;
    let grown = (rng.next_u32() % (3 * height as u32)) as usize;
    let mut board = grow_board(rng.next_u64(), grown, height);
    for _ in 0..rng.next_u32() % 4 {
        let row = height - 1 - (rng.next_u32() as usize % height.div_ceil(2));
        let gap = rng.next_u32() as usize % BOARD_WIDTH;
        for x in (0..BOARD_WIDTH).filter(|&x| x != gap) {
            board.set(x, row);
        }
    }
    board
}

/// Up to two earlier links of a chain, as records of random placements on another board.
fn earlier_records(rng: &mut Pcg64Mcg, height: usize) -> Vec<PlacementRecord> {
    let mut scratch = grow_board(rng.next_u64(), 10, height);
    let mut records = Vec::new();
    for _ in 0..rng.next_u32() % 3 {
        if let Some(placement) = random_lock_placement(&scratch, rng) {
            records.push(PlacementRecord::lock(&mut scratch, placement));
        }
    }
    records
}

/// The evaluator `name` with random weights in −50..50 for every feature.
fn with_random_weights(name: &str, features: &[&str], rng: &mut Pcg64Mcg) -> AnyEvaluator {
    let weights: Vec<String> = features
        .iter()
        .map(|feature| {
            let weight = (rng.next_u32() % 100_000) as f64 / 1000.0 - 50.0;
            format!("\"{feature}\": {weight}")
        })
        .collect();
    let json = format!(
        "{{\"evaluator\": \"{name}\", \"weights\": {{{}}}}}",
        weights.join(", ")
    );
    evaluator_from_weights_json(name, &json)
        .expect("a registered evaluator")
        .expect("valid random weights")
}

#[test]
fn fast_leaf_values_equal_whole_board_values_for_every_evaluator() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    let mut fast = Vec::<LinkValue>::new();
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x1EAF + index as u64);
        let (mut pairs, mut clearing, mut with_earlier) = (0, 0, 0);
        let mut round = 0;
        while pairs < PAIRS_PER_EVALUATOR {
            let evaluator = if round % 2 == 0 {
                let preset = entry.presets[round / 2 % entry.presets.len()].name;
                evaluator_by_name(entry.name, &WeightsChoice::Preset(preset.to_string()))
                    .expect("a registered evaluator")
                    .expect("a shipped preset")
            } else {
                with_random_weights(entry.name, entry.feature_names, &mut rng)
            };
            round += 1;
            let board = test_board(&mut rng);
            let mut records = earlier_records(&mut rng, board.height() as usize);
            for piece in Piece::ALL {
                bfs.search(&board, piece, SearchOptions::default(), &mut placements);
                let outcomes = tetris_fixtures::assert_leaf_values_equal_locking(
                    &evaluator,
                    &board,
                    &mut records,
                    placements.as_slice(),
                    &mut fast,
                );
                for lock in outcomes {
                    clearing += usize::from(lock.rows_cleared > 0);
                    with_earlier += usize::from(!records.is_empty());
                    pairs += 1;
                }
            }
        }
        // The property covered what it claims: line clears and earlier links, many times.
        assert!(clearing >= 5_000, "{}: {clearing} line clears", entry.name);
        assert!(with_earlier >= 30_000, "{}: {with_earlier}", entry.name);
    }
}
