//! Every registered evaluator's leaf evaluation ([`Evaluator::last_link_values`], which an
//! evaluator may compute by updating the board's features column by column) gives, bit for
//! bit, what locking each placement on a copy of the board and evaluating the whole board
//! gives ([`link_value_by_locking`]): on at least 100,000 (board, placement) pairs per
//! evaluator, line clears and earlier chain links included, with its presets and with random
//! weights (so that no feature hides behind a zero weight). And the stand-ins an evaluator
//! may give a deciding chain instead ([`Evaluator::last_link_values_to_beat`]) are lower
//! bounds of those values, above the cost to beat.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tetris_core::{
    BOARD_WIDTH, Board, ChainRule, Evaluator, LinkValue, Piece, PlacementRecord, Placements,
    SearchOptions, Searcher,
};
use tetris_registry::{
    AnyEvaluator, EvaluatorEntry, WeightsChoice, evaluator_by_name, evaluator_from_weights_json,
    evaluators,
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

/// The record of a chain's one placement that cleared four rows at once (a vertical I into a
/// well beside four full rows, on a 20-row board): after it, an evaluator with a rule for
/// Tetrises (NES-plateau's) prefers every chain it does not reject. The evaluators read the
/// rows cleared and lock heights from the records, so the chain's board may be another.
fn tetris_records() -> Vec<PlacementRecord> {
    let mut board = Board::from_bottom_rows(&["#########."; 4], 20).expect("a 20-row board");
    let mut placements = Placements::new();
    Bfs::new().search(&board, Piece::I, SearchOptions::default(), &mut placements);
    let tetris = *placements
        .as_slice()
        .iter()
        .find(|placement| {
            let mut after = board;
            after.lock(placement.piece, placement.state()).rows_cleared == 4
        })
        .expect("an I in the well clears four rows");
    vec![PlacementRecord::lock(&mut board, tetris)]
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

/// The evaluator of `entry` for round `round` of a test: a shipped preset in turn on even
/// rounds, random weights on odd ones.
fn preset_or_random(entry: &EvaluatorEntry, round: usize, rng: &mut Pcg64Mcg) -> AnyEvaluator {
    if round.is_multiple_of(2) {
        let preset = entry.presets[round / 2 % entry.presets.len()].name;
        evaluator_by_name(entry.name, &WeightsChoice::Preset(preset.to_string()))
            .expect("a registered evaluator")
            .expect("a shipped preset")
    } else {
        with_random_weights(entry.name, entry.feature_names, rng)
    }
}

#[test]
fn fast_leaf_values_equal_whole_board_values_for_every_evaluator() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x1EAF + index as u64);
        let mut check = tetris_fixtures::LeafCheck::default();
        let mut round = 0;
        while check.checked < PAIRS_PER_EVALUATOR {
            let evaluator = preset_or_random(&entry, round, &mut rng);
            round += 1;
            let board = test_board(&mut rng);
            let mut records = earlier_records(&mut rng, board.height() as usize);
            for piece in Piece::ALL {
                bfs.search(&board, piece, SearchOptions::default(), &mut placements);
                check.check(&evaluator, &board, &mut records, placements.as_slice());
            }
        }
        // The property covered what it claims: line clears and earlier links, many times.
        assert!(check.clearing >= 5_000, "{}: {check:?}", entry.name);
        assert!(check.with_earlier >= 30_000, "{}: {check:?}", entry.name);
    }
}

/// What [`Evaluator::last_link_values_to_beat`] promises, for every registered evaluator on
/// the same kind of boards: each value is the exact one, or — only where the exact chain is
/// `Neutral` and costs more than the cost to beat — a `Neutral` stand-in whose cost lies in
/// (cost to beat, exact cost]. The cost to beat is `to_beat`, or the lowest exact `Neutral`
/// cost the call gave for an earlier placement when that is lower. `to_beat` is drawn among
/// the exact costs of the same call (the cheapest, as a deciding chain's best usually is, or
/// any; and just beside them, and +∞), so that it falls where stand-ins are possible; an
/// evaluator that says it gives no stand-ins gives every exact value.
#[test]
fn stand_ins_are_lower_bounds_above_the_cost_to_beat_for_every_evaluator() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    let (mut exact, mut bounded) = (Vec::<LinkValue>::new(), Vec::<LinkValue>::new());
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x5A1D + index as u64);
        let (mut checked, mut stand_ins, mut clearing_stand_ins) = (0usize, 0usize, 0usize);
        for round in 0..40_000 {
            let evaluator = if round % 4 != 3 {
                let preset = entry.presets[round % entry.presets.len()].name;
                evaluator_by_name(entry.name, &WeightsChoice::Preset(preset.to_string()))
                    .expect("a registered evaluator")
                    .expect("a shipped preset")
            } else {
                with_random_weights(entry.name, entry.feature_names, &mut rng)
            };
            let board = test_board(&mut rng);
            let mut records = match round % 8 {
                7 => tetris_records(),
                _ => earlier_records(&mut rng, board.height() as usize),
            };
            let piece = Piece::ALL[rng.next_u32() as usize % 7];
            bfs.search(&board, piece, SearchOptions::default(), &mut placements);
            let placements = placements.as_slice();
            if placements.is_empty() {
                continue;
            }
            evaluator.last_link_values(&board, &mut records, placements, &mut exact);
            let pick = exact[rng.next_u32() as usize % exact.len()].cost;
            let cheapest = exact
                .iter()
                .map(|value| value.cost)
                .fold(f64::INFINITY, f64::min);
            let to_beat = match rng.next_u32() % 5 {
                0 => cheapest,
                1 => cheapest.next_down(),
                2 => pick,
                3 => pick.next_up(),
                _ => f64::INFINITY,
            };
            evaluator.last_link_values_to_beat(
                &board,
                &mut records,
                placements,
                to_beat,
                &mut bounded,
            );
            assert_eq!(bounded.len(), placements.len(), "{}", entry.name);
            // The cost to beat: `to_beat`, or the lowest exact `Neutral` cost given so far.
            let mut beat = to_beat;
            for ((value, whole), placement) in bounded.iter().zip(&exact).zip(placements) {
                checked += 1;
                if value.rule == whole.rule && value.cost.to_bits() == whole.cost.to_bits() {
                    if value.rule == ChainRule::Neutral && value.cost < beat {
                        beat = value.cost;
                    }
                    continue;
                }
                assert!(
                    evaluator.gives_stand_ins()
                        && beat < f64::INFINITY
                        && whole.rule == ChainRule::Neutral
                        && value.rule == ChainRule::Neutral
                        && beat < value.cost
                        && value.cost <= whole.cost,
                    "{}: {placement:?} after {} earlier links on\n{board}\nto beat {to_beat} \
                     ({beat} in the call), given {value:?}, exact {whole:?}",
                    entry.name,
                    records.len()
                );
                stand_ins += 1;
                let mut after = board;
                clearing_stand_ins +=
                    usize::from(after.lock(piece, placement.state()).rows_cleared > 0);
            }
        }
        assert!(checked >= 300_000, "{}: {checked} values", entry.name);
        // The evaluators that give stand-ins gave many, line clears among them where the
        // bound holds with clears (El-Ashi's; BCTS and NES-plateau bound only placements that
        // clear no row).
        if evaluator_by_name(entry.name, &WeightsChoice::Default)
            .expect("a registered evaluator")
            .expect("default weights")
            .gives_stand_ins()
        {
            assert!(stand_ins >= 50_000, "{}: {stand_ins} stand-ins", entry.name);
            if !["bcts", "nes-plateau"].contains(&entry.name) {
                assert!(
                    clearing_stand_ins >= 100,
                    "{}: {clearing_stand_ins}",
                    entry.name
                );
            }
        }
    }
}

/// The first best of `values` (a better rule rank, then a lower cost; the earlier among
/// equals), as a lookahead chain takes it: its index and value.
fn first_best(values: &[LinkValue]) -> Option<(usize, LinkValue)> {
    let mut best: Option<(usize, LinkValue)> = None;
    for (index, &value) in values.iter().enumerate() {
        let better = best.is_none_or(|(_, best)| {
            (value.rule as u8) < (best.rule as u8)
                || (value.rule == best.rule && value.cost < best.cost)
        });
        if better {
            best = Some((index, value));
        }
    }
    best
}

/// What [`Evaluator::last_link_values_of_searches`] promises, for every registered
/// evaluator: with the 7 pieces' placements in one call for an evaluator that takes several
/// searches at once (one piece's otherwise), each value is the exact one or, only where the
/// exact chain is `Neutral` and costs more than an exact `Neutral` value given for another
/// placement of the same search, a `Neutral` stand-in whose cost lies between the two; so each search's first
/// best is the same placement with the same value. On the test boards after none, one or two
/// random earlier links, or after a Tetris (every chain then preferred unless rejected, which
/// a stand-in must not hide). At least 100,000 values per evaluator; asserts that the
/// NES-plateau evaluator gave many stand-ins and preferred chains.
#[test]
fn each_search_keeps_its_first_best_among_stand_ins_for_every_evaluator() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    let (mut all, mut ends) = (Vec::new(), Vec::new());
    let (mut exact, mut given) = (Vec::<LinkValue>::new(), Vec::<LinkValue>::new());
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0xB357 + index as u64);
        let (mut checked, mut stand_ins, mut preferred) = (0usize, 0usize, 0usize);
        let mut round = 0;
        while checked < 100_000 || round < 2_000 {
            let evaluator = preset_or_random(&entry, round, &mut rng);
            let board = test_board(&mut rng);
            let mut records = match round % 4 {
                3 => tetris_records(),
                _ => earlier_records(&mut rng, board.height() as usize),
            };
            let pieces = match evaluator.values_several_searches_at_once() {
                true => &Piece::ALL[..],
                false => &Piece::ALL[round % 7..round % 7 + 1],
            };
            all.clear();
            ends.clear();
            for &piece in pieces {
                bfs.search(&board, piece, SearchOptions::default(), &mut placements);
                all.extend_from_slice(placements.as_slice());
                ends.push(all.len());
            }
            evaluator.last_link_values(&board, &mut records, &all, &mut exact);
            evaluator.last_link_values_of_searches(&board, &mut records, &all, &ends, &mut given);
            assert_eq!(given.len(), all.len(), "{}", entry.name);
            let mut start = 0;
            for &end in &ends {
                let is_exact = |at: usize| {
                    given[at].rule == exact[at].rule
                        && given[at].cost.to_bits() == exact[at].cost.to_bits()
                };
                // The lowest exact `Neutral` cost given in this search.
                let beat = (start..end)
                    .filter(|&at| is_exact(at) && exact[at].rule == ChainRule::Neutral)
                    .map(|at| exact[at].cost)
                    .fold(f64::INFINITY, f64::min);
                for at in start..end {
                    let (value, whole) = (given[at], exact[at]);
                    checked += 1;
                    preferred += usize::from(whole.rule == ChainRule::Prefer);
                    if is_exact(at) {
                        continue;
                    }
                    assert!(
                        evaluator.gives_stand_ins()
                            && whole.rule == ChainRule::Neutral
                            && value.rule == ChainRule::Neutral
                            && beat < value.cost
                            && value.cost <= whole.cost,
                        "{}: {:?} after {} earlier links on\n{board}\n{beat} in the search, \
                         given {value:?}, exact {whole:?}",
                        entry.name,
                        all[at],
                        records.len()
                    );
                    stand_ins += 1;
                }
                let (one, other) = (
                    first_best(&given[start..end]),
                    first_best(&exact[start..end]),
                );
                assert!(
                    one.map(|(at, value)| (at, value.rule, value.cost.to_bits()))
                        == other.map(|(at, value)| (at, value.rule, value.cost.to_bits())),
                    "{}: first best {one:?} with stand-ins, {other:?} without, on\n{board}",
                    entry.name
                );
                start = end;
            }
            round += 1;
        }
        // NES-plateau's, the one evaluator that gives stand-ins here (and has a Tetris rule),
        // gave many, and preferred chains were among its values.
        if entry.name == "nes-plateau" {
            assert!(stand_ins >= 10_000, "{}: {stand_ins} stand-ins", entry.name);
            assert!(preferred >= 10_000, "{}: {preferred} preferred", entry.name);
        }
    }
}

/// What [`Evaluator::values_several_searches_at_once`] promises, for every registered
/// evaluator that says it: one call with the 7 pieces' placements one search after the other
/// gives each placement, bit for bit, what a call with its own search's placements gives it.
/// Asserts that at least one evaluator says it (the NES-plateau evaluator), so that the
/// property is tested at all.
#[test]
fn several_searches_in_one_call_are_valued_as_each_alone() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    let (mut together, mut alone) = (Vec::<LinkValue>::new(), Vec::<LinkValue>::new());
    let mut all = Vec::new();
    let mut expected = Vec::<LinkValue>::new();
    let mut tested = 0;
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x5EA7 + index as u64);
        for round in 0..3_000 {
            let evaluator = preset_or_random(&entry, round, &mut rng);
            if !evaluator.values_several_searches_at_once() {
                break;
            }
            let board = test_board(&mut rng);
            let mut records = earlier_records(&mut rng, board.height() as usize);
            all.clear();
            expected.clear();
            for piece in Piece::ALL {
                bfs.search(&board, piece, SearchOptions::default(), &mut placements);
                evaluator.last_link_values(&board, &mut records, placements.as_slice(), &mut alone);
                all.extend_from_slice(placements.as_slice());
                expected.extend_from_slice(&alone);
            }
            evaluator.last_link_values(&board, &mut records, &all, &mut together);
            assert_eq!(together.len(), all.len(), "{}", entry.name);
            for ((value, whole), placement) in together.iter().zip(&expected).zip(&all) {
                assert!(
                    value.rule == whole.rule && value.cost.to_bits() == whole.cost.to_bits(),
                    "{}: {placement:?} on\n{board}\ntogether {value:?}, alone {whole:?}",
                    entry.name
                );
            }
            tested += all.len();
        }
    }
    assert!(tested >= 100_000, "{tested} placements");
}

/// What [`Evaluator::may_prefer_after_every_piece`] promises when it says `false`, for every
/// registered evaluator: some piece has no placement after the chain that makes a preferred
/// chain. On test boards, half of them with four rows full but for one common column (an I
/// there clears four at once), after up to two earlier links. Asserts that promises were made
/// and that, on the boards they were made for, some piece could make a preferred chain, so
/// that neither side is vacuous.
#[test]
fn a_chain_that_may_not_be_preferred_after_every_piece_is_not_for_some_piece() {
    let mut bfs = Bfs::new();
    let mut placements = Placements::new();
    let (mut promises, mut preferred) = (0, 0);
    for (index, entry) in evaluators().into_iter().enumerate() {
        let mut rng = Pcg64Mcg::seed_from_u64(0x9EF + index as u64);
        for round in 0..3_000 {
            let evaluator = preset_or_random(&entry, round, &mut rng);
            let mut board = test_board(&mut rng);
            let height = board.height() as usize;
            // A column empty on the bottom four rows, if any, becomes the well.
            let gap = (0..BOARD_WIDTH)
                .find(|&x| (height - 4..height).all(|row| !board.is_occupied(x, row)));
            if let Some(gap) = gap.filter(|_| round % 2 == 0 && height >= 8) {
                for row in height - 4..height {
                    for x in (0..BOARD_WIDTH).filter(|&x| x != gap) {
                        board.set(x, row);
                    }
                }
            }
            let mut records = earlier_records(&mut rng, height);
            let chain = tetris_core::Chain {
                board: &board,
                records: &records,
            };
            if evaluator.may_prefer_after_every_piece(chain) {
                continue;
            }
            promises += 1;
            // Per piece, whether some placement makes a preferred chain.
            let mut prefers = [false; 7];
            for (slot, piece) in Piece::ALL.into_iter().enumerate() {
                bfs.search(&board, piece, SearchOptions::default(), &mut placements);
                for &placement in placements.as_slice() {
                    let mut after = board;
                    records.push(PlacementRecord::lock(&mut after, placement));
                    let rule = evaluator.chain_rule(tetris_core::Chain {
                        board: &after,
                        records: &records,
                    });
                    records.pop();
                    prefers[slot] |= rule == ChainRule::Prefer;
                }
            }
            preferred += usize::from(prefers.contains(&true));
            assert!(
                prefers.contains(&false),
                "{}: promised, but every piece can be preferred after {} links on\n{board}",
                entry.name,
                records.len()
            );
        }
    }
    assert!(promises >= 1_000, "{promises} promises");
    assert!(
        preferred >= 50,
        "{preferred} promises where some piece can be preferred"
    );
}
