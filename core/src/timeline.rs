//! Input-frame timelines: how fast a player presses buttons, in StackRabbit's notation.
//!
//! A timeline is a repeating pattern of frames, `X` for a frame on which an input may start and
//! `.` (or `-`) for a frame without one, read from a piece's first input frame (position 0)
//! onwards: `X.` is 30 presses a second, `X..` 20, `X...` 15, and mixed patterns such as
//! `X....X...X...` (3 presses every 13 frames) describe players between those rates. The
//! uniform timeline of one `X` and T − 1 dots is the tap rate T that the gravity-aware
//! searches took before timelines existed, and is still written that way in results.
//!
//! A timeline is parsed once into [`Timeline`], which keeps the frames as bits and is `Copy`,
//! so it travels inside [`crate::FrameTiming`] to every search. What the input models make of
//! it (docs/spec/search.md §3, "Input timelines"): under the article's model the press frames are
//! the timeline's `X` positions; under the two-thumb model the timeline's GAPS (frames from
//! one `X` to the next, cyclically: 5, 4, 4 for `X....X...X...`) are each thumb's cooldowns,
//! the k-th press of a thumb coming at least the k-th gap after its previous one.
//!
//! Why the rules: a button must be released for one frame before the console counts it as
//! pressed again, so two `X` may never be adjacent, read cyclically (the pattern repeats: `X`
//! alone and `X.X` are refused); the searches model gaps of 2 to 8 frames (slower players use
//! the delayed auto shift, which is not modelled) and at most 32 frames of pattern (one
//! 32-bit word). Patterns are kept in their shortest period (`X.X.` is `X.`), so that two
//! spellings of one timeline are one value.

use std::fmt;

/// Why a timeline's text was refused, with the text; its message says what a timeline is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "timeline {text:?}: {problem} (a timeline is X, a frame on which an input may start, and \
     dots or dashes, frames without one, repeated from a piece's first input frame: X. is 30 \
     presses a second, X... 15, X....X...X... 3 every 13 frames; at most 32 frames, starting \
     with X, with 2 to 8 frames from each X to the next, read cyclically)"
)]
pub struct TimelineError {
    /// The timeline as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

/// A parsed input-frame timeline (see the module documentation): its frames as bits, in its
/// shortest period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timeline {
    /// Bit i set: frame i of the pattern is an input frame (`X`). Bit 0 is always set.
    inputs: u32,
    /// Frames in the pattern: 2 to 32.
    length: u8,
}

impl Timeline {
    /// The most frames a pattern may have.
    pub const MAX_FRAMES: usize = 32;
    /// The frames from one `X` to the next that the searches model: 2 (a button released for
    /// one frame between presses, 30 presses a second) to 8 (7.5 a second).
    pub const GAPS: std::ops::RangeInclusive<u8> = 2..=8;
    /// The published bot's 30 Hz: `X.`.
    pub const THIRTY_HZ: Timeline = Timeline::uniform(2);

    /// The uniform timeline of tap rate `tap_rate`: one `X` and `tap_rate − 1` dots.
    ///
    /// # Panics
    /// If `tap_rate` is outside [`Timeline::GAPS`].
    pub const fn uniform(tap_rate: u8) -> Timeline {
        assert!(
            tap_rate >= *Timeline::GAPS.start() && tap_rate <= *Timeline::GAPS.end(),
            "a tap rate outside 2..=8"
        );
        Timeline {
            inputs: 1,
            length: tap_rate,
        }
    }

    /// Parses StackRabbit's notation; the error says what is wrong (see the module
    /// documentation for the rules).
    pub fn parse(text: &str) -> Result<Timeline, TimelineError> {
        let refuse = |problem| {
            Err(TimelineError {
                text: text.to_string(),
                problem,
            })
        };
        if text.is_empty() {
            return refuse("it is empty");
        }
        if !text.chars().all(|frame| matches!(frame, 'X' | '.' | '-')) {
            return refuse("only X, . and - may appear");
        }
        if !text.starts_with('X') {
            return refuse("it must start with X");
        }
        if text.len() > Timeline::MAX_FRAMES {
            return refuse("it is longer than 32 frames");
        }
        let inputs = text
            .bytes()
            .enumerate()
            .filter(|&(_, frame)| frame == b'X')
            .fold(0u32, |bits, (frame, _)| bits | 1 << frame);
        let timeline = Timeline {
            inputs,
            length: text.len() as u8,
        };
        let mut gaps = timeline.gaps();
        if gaps.clone().any(|gap| gap < *Timeline::GAPS.start()) {
            return refuse(
                "two X are adjacent (read cyclically, as the pattern repeats): a button must be \
                 released for a frame before it counts as pressed again",
            );
        }
        if gaps.any(|gap| gap > *Timeline::GAPS.end()) {
            return refuse("two X are more than 8 frames apart (read cyclically)");
        }
        Ok(timeline.shortest_period())
    }

    /// The same frames in the pattern's shortest period (`X.X.` → `X.`).
    fn shortest_period(self) -> Timeline {
        let length = u32::from(self.length);
        (1..length)
            .filter(|period| length % period == 0)
            .find(|&period| {
                (0..length)
                    .all(|frame| self.is_input_frame(frame) == self.is_input_frame(frame % period))
            })
            .map_or(self, |period| Timeline {
                inputs: self.inputs & ((1u32 << period) - 1),
                length: period as u8,
            })
    }

    /// Frames in the pattern (its shortest period).
    pub const fn length(self) -> u8 {
        self.length
    }

    /// Whether input frame `position` of a piece (0 = its first input frame) may start an
    /// input: the pattern's frame `position` modulo its length.
    pub const fn is_input_frame(self, position: u32) -> bool {
        self.inputs >> (position % self.length as u32) & 1 != 0
    }

    /// The frames from each `X` to the next, in pattern order from the first `X` (frame 0),
    /// the last one wrapping round to the pattern's next repeat: `X....X...X...` → 5, 4, 4.
    pub fn gaps(self) -> impl Iterator<Item = u8> + Clone {
        let length = u32::from(self.length);
        (0..length)
            .filter(move |&frame| self.is_input_frame(frame))
            .map(move |frame| {
                let later = self.inputs >> (frame + 1);
                let next = if later != 0 {
                    frame + 1 + later.trailing_zeros()
                } else {
                    length
                };
                (next - frame) as u8
            })
    }

    /// The number of `X` in the pattern, i.e. of its gaps.
    pub const fn gap_count(self) -> u8 {
        self.inputs.count_ones() as u8
    }

    /// The longest of its gaps.
    pub fn longest_gap(self) -> u8 {
        self.gaps().max().unwrap_or(self.length)
    }

    /// The tap rate T of a uniform timeline (one `X` every T frames), `None` for a mixed one.
    pub const fn tap_rate(self) -> Option<u8> {
        if self.inputs == 1 {
            Some(self.length)
        } else {
            None
        }
    }

    /// Input frames per second at `frames_per_second` (the NTSC console's 60.0988).
    pub fn presses_per_second(self, frames_per_second: f64) -> f64 {
        f64::from(self.gap_count()) * frames_per_second / f64::from(self.length)
    }
}

impl Default for Timeline {
    /// [`Timeline::THIRTY_HZ`].
    fn default() -> Timeline {
        Timeline::THIRTY_HZ
    }
}

impl fmt::Display for Timeline {
    /// The pattern with `X` and `.` (its shortest period).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for frame in 0..u32::from(self.length) {
            f.write_str(if self.is_input_frame(frame) { "X" } else { "." })?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Timeline {
    type Err = TimelineError;

    /// [`Timeline::parse`].
    fn from_str(text: &str) -> Result<Timeline, TimelineError> {
        Timeline::parse(text)
    }
}

impl serde::Serialize for Timeline {
    /// As its text.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Timeline {
    /// From its text, through [`Timeline::parse`].
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Timeline, D::Error> {
        let text = String::deserialize(deserializer)?;
        Timeline::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_timelines_are_tap_rates_in_any_spelling() {
        for (text, rate) in [
            ("X.", 2),
            ("X-", 2),
            ("X.X.", 2),
            ("X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.", 2),
            ("X..", 3),
            ("X...", 4),
            ("X...X...", 4),
            ("X.......", 8),
        ] {
            let timeline = Timeline::parse(text).unwrap();
            assert_eq!(timeline.tap_rate(), Some(rate), "{text}");
            assert_eq!(timeline, Timeline::uniform(rate));
            assert_eq!(timeline.gaps().collect::<Vec<_>>(), [rate]);
            assert_eq!(
                timeline.to_string(),
                format!("X{}", ".".repeat(usize::from(rate) - 1))
            );
        }
    }

    #[test]
    fn a_mixed_timeline_keeps_its_gaps_in_order_and_its_shortest_period() {
        // X at frames 0, 5 and 9 of 13: 5 frames to the second X, 4 to the third, 4 round to
        // the next repeat's first.
        let timeline = Timeline::parse("X----X---X---").unwrap();
        assert_eq!(timeline.gaps().collect::<Vec<_>>(), [5, 4, 4]);
        assert_eq!(timeline.to_string(), "X....X...X...");
        assert_eq!(timeline.tap_rate(), None);
        assert_eq!(
            (
                timeline.length(),
                timeline.gap_count(),
                timeline.longest_gap()
            ),
            (13, 3, 5)
        );
        let frames: Vec<bool> = (0..15)
            .map(|frame| timeline.is_input_frame(frame))
            .collect();
        let expected: Vec<bool> = "X....X...X...X."
            .chars()
            .map(|frame| frame == 'X')
            .collect();
        assert_eq!(frames, expected);
        // Written twice it is the same timeline.
        assert_eq!(
            Timeline::parse("X....X...X...X....X...X...").unwrap(),
            timeline
        );
        // 3 presses in 13 frames at 60.0988 frames a second.
        assert!((timeline.presses_per_second(60.0988) - 13.869).abs() < 0.001);
        // Two X two frames apart then three: the shortest gaps may differ.
        let fast = Timeline::parse("X.X..").unwrap();
        assert_eq!(fast.gaps().collect::<Vec<_>>(), [2, 3]);
        // The other order of the same gaps is another timeline.
        let other = Timeline::parse("X...X....X...").unwrap();
        assert_eq!(other.gaps().collect::<Vec<_>>(), [4, 5, 4]);
        assert_ne!(other, timeline);
    }

    #[test]
    fn refused_timelines_say_why() {
        let adjacent = "two X are adjacent (read cyclically, as the pattern repeats): a button \
                        must be released for a frame before it counts as pressed again";
        for (text, problem) in [
            ("", "it is empty"),
            ("X.a", "only X, . and - may appear"),
            ("x.", "only X, . and - may appear"),
            (".X", "it must start with X"),
            ("X", adjacent),
            ("XX", adjacent),
            ("X.X", adjacent),
            ("X..X", adjacent),
            ("X.X.X", adjacent),
            (
                "X........",
                "two X are more than 8 frames apart (read cyclically)",
            ),
            (
                "X.X........",
                "two X are more than 8 frames apart (read cyclically)",
            ),
            (&"X.".repeat(17), "it is longer than 32 frames"),
        ] {
            assert_eq!(
                Timeline::parse(text),
                Err(TimelineError {
                    text: text.to_string(),
                    problem
                }),
                "{text}"
            );
        }
        let message = Timeline::parse("X").unwrap_err().to_string();
        assert!(
            message.starts_with("timeline \"X\": two X are adjacent"),
            "{message}"
        );
    }

    #[test]
    #[should_panic(expected = "a tap rate outside 2..=8")]
    fn a_uniform_timeline_outside_the_gaps_is_a_bug() {
        Timeline::uniform(9);
    }

    #[test]
    fn timelines_serialize_as_their_text() {
        let timeline = Timeline::parse("X....X...X...").unwrap();
        let json = serde_json::to_string(&timeline).unwrap();
        assert_eq!(json, "\"X....X...X...\"");
        assert_eq!(serde_json::from_str::<Timeline>(&json).unwrap(), timeline);
        assert!(serde_json::from_str::<Timeline>("\"XX\"").is_err());
    }
}
