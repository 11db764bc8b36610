//! NES levels and scoring (stub, being written).
/// Score.
#[derive(Clone, Debug)]
pub struct NesScore;
