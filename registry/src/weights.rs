//! Which weights an evaluator is built with, as a name writes them after `:`.

use std::fmt;

/// How a strategy built with candidate weights (while tuning) shows its weights: no preset or
/// file holds them, and a name must not claim the evaluator's default.
pub const TUNED: &str = "<tuned>";

/// Which weights an evaluator is built with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsChoice {
    /// The evaluator's default preset.
    Default,
    /// A named preset.
    Preset(String),
    /// A JSON weights file.
    File(String),
    /// Weights given as values (a tuning candidate): shown as `:<tuned>`, never rebuilt from
    /// the name.
    Tuned,
}

impl WeightsChoice {
    /// Parses what follows `:` in a name: a value ending in `.json` or containing `/` is a
    /// weights file, anything else a preset name.
    pub fn parse(value: &str) -> WeightsChoice {
        if value.ends_with(".json") || value.contains('/') {
            WeightsChoice::File(value.to_string())
        } else {
            WeightsChoice::Preset(value.to_string())
        }
    }

    /// `NAME` or `NAME:VALUE` split into the name and the weights it asks for.
    pub(crate) fn split(text: &str) -> (&str, WeightsChoice) {
        match text.split_once(':') {
            Some((name, value)) => (name, WeightsChoice::parse(value)),
            None => (text, WeightsChoice::Default),
        }
    }
}

impl fmt::Display for WeightsChoice {
    /// Nothing for the default, else `:preset`, `:file` or `:<tuned>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsChoice::Default => Ok(()),
            WeightsChoice::Preset(value) | WeightsChoice::File(value) => write!(f, ":{value}"),
            WeightsChoice::Tuned => write!(f, ":{TUNED}"),
        }
    }
}
