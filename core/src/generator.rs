//! Piece generators (stub, being written).
use crate::piece::Piece;
/// Which generator.
#[derive(Clone, Debug)]
pub enum GeneratorKind {
    /// Uniform.
    Uniform,
}
/// A generator.
#[derive(Clone, Debug)]
pub struct PieceGenerator;
impl Iterator for PieceGenerator {
    type Item = Piece;
    fn next(&mut self) -> Option<Piece> {
        None
    }
}
