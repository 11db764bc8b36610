//! A depth-2 lookahead chain (current + preview) over column drop with a trivial evaluator
//! (cost = pile height), on the mid-game board: the cost of the chain machinery itself; and
//! what expectimax's 3 finalists cost at depth 2 without and with 16 playouts of 6 pieces.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tetris_core::chain::{ChainOptions, LookaheadChain};
use tetris_core::{Board, Chain, Evaluator, Piece, Playouts, Weights};
use tetris_search_column_drop::ColumnDrop;

const NAMES: &[&str] = &["pile_height"];

/// Cost = pile height of the final board.
struct PileHeight {
    weights: Weights,
}

impl Evaluator for PileHeight {
    fn name(&self) -> &str {
        "pile-height"
    }

    fn feature_names(&self) -> &'static [&'static str] {
        NAMES
    }

    fn features(&self, chain: Chain<'_>, out: &mut [f64]) {
        out[0] = chain.board.column_heights().into_iter().max().unwrap_or(0) as f64;
    }

    fn weights(&self) -> &Weights {
        &self.weights
    }
}

fn mid_game() -> Board {
    let mut rows = vec![".........."; 12];
    rows.extend([
        "....#.....",
        "..####....",
        ".#.####.#.",
        ".######.##",
        "####.###.#",
        "#.#######.",
        "##.######.",
        "###.######",
    ]);
    Board::from_rows(&rows).expect("bench board")
}

fn chain(c: &mut Criterion) {
    let evaluator = PileHeight {
        weights: Weights::from_values("pile-height", NAMES, &[1.0]).expect("weights"),
    };
    let board = mid_game();
    let mut searcher = ColumnDrop::new();
    let mut group = c.benchmark_group("chain");
    let mut depth_two = LookaheadChain::new(ChainOptions::with_depth(2));
    // T then L: both have 4 rotations, about as many chains as two pieces can have.
    group.bench_function("depth_2/T_L/mid_game", |b| {
        b.iter(|| {
            depth_two.best(
                &mut searcher,
                &evaluator,
                black_box(&board),
                &[Piece::T, Piece::L],
            )
        })
    });
    group.bench_function("depth_2/O_I/mid_game", |b| {
        b.iter(|| {
            depth_two.best(
                &mut searcher,
                &evaluator,
                black_box(&board),
                &[Piece::O, Piece::I],
            )
        })
    });
    let mut expectimax = LookaheadChain::new(ChainOptions {
        expectimax: true,
        ..ChainOptions::with_depth(1)
    });
    group.bench_function("depth_1_expectimax/T/mid_game", |b| {
        b.iter(|| expectimax.best(&mut searcher, &evaluator, black_box(&board), &[Piece::T]))
    });
    let finalists = ChainOptions {
        expectimax: true,
        expectimax_finalists: Some(3),
        ..ChainOptions::with_depth(2)
    };
    let mut without = LookaheadChain::new(finalists.clone());
    let mut with = LookaheadChain::new(ChainOptions {
        playouts: Some(Playouts::new(16)),
        ..finalists
    });
    for (name, chain) in [("", &mut without), ("_16_playouts", &mut with)] {
        group.bench_function(format!("depth_2_3_finalists{name}/T_L/mid_game"), |b| {
            b.iter(|| {
                chain.decide_in(
                    &mut searcher,
                    &evaluator,
                    black_box(&board),
                    &[Piece::T, Piece::L],
                    Default::default(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, chain);
criterion_main!(benches);
