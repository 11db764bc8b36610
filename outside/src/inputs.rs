//! Input sequences in StackRabbit's notation: one letter a frame, the buttons held on it.
//!
//! An outside engine of an NES game may answer with the frames it presses, not only with a
//! placement (the bot protocol's `inputs`, StackRabbit's `get-move` sequence); the arena then
//! plays those frames through its own frame model. The notation is the one StackRabbit's
//! tools read and our server writes (docs/stackrabbit.md): this table is its one definition,
//! for both directions.
//!
//! | letter | buttons | letter | buttons |
//! |---|---|---|---|
//! | `.` | nothing | `E` | Left + A |
//! | `A` | A (turn clockwise) | `F` | Left + B |
//! | `B` | B (turn counterclockwise) | `I` | Right + A |
//! | `L` | Left | `G` | Right + B |
//! | `R` | Right | `D` | Down (soft drop) |
//!
//! Any other combination (Down with A, Left with Right, …) has no letter.

use tetris_core::Buttons;

/// Every letter with the buttons it stands for.
const LETTERS: [(char, Buttons); 10] = [
    ('.', Buttons::NONE),
    ('A', Buttons::A),
    ('B', Buttons::B),
    ('L', Buttons::LEFT),
    ('R', Buttons::RIGHT),
    ('E', Buttons::LEFT.with(Buttons::A)),
    ('F', Buttons::LEFT.with(Buttons::B)),
    ('I', Buttons::RIGHT.with(Buttons::A)),
    ('G', Buttons::RIGHT.with(Buttons::B)),
    ('D', Buttons::DOWN),
];

/// The most frames an answer's sequence may hold: more than any piece falls at the slowest
/// gravity (level 0: 48 frames a row over 22 rows, after the first piece's 96 frames of entry
/// delay), so a real sequence never comes near it.
pub const MAX_INPUT_FRAMES: usize = 4096;

/// The letter of a frame holding `buttons`, or `None` for a combination without one.
pub fn frame_letter(buttons: Buttons) -> Option<char> {
    LETTERS
        .iter()
        .find(|&&(_, held)| held == buttons)
        .map(|&(letter, _)| letter)
}

/// The frames of a sequence of letters, the first letter the piece's first input frame; or
/// what is wrong with it (a character that is no letter, or more than [`MAX_INPUT_FRAMES`]).
pub fn parse_input_sequence(letters: &str) -> Result<Vec<Buttons>, String> {
    let count = letters.chars().count();
    if count > MAX_INPUT_FRAMES {
        return Err(format!(
            "{count} frames of inputs; at most {MAX_INPUT_FRAMES}"
        ));
    }
    letters
        .chars()
        .enumerate()
        .map(|(frame, letter)| {
            LETTERS
                .iter()
                .find(|&&(known, _)| known == letter)
                .map(|&(_, buttons)| buttons)
                .ok_or_else(|| {
                    format!(
                        "frame {} of the inputs is {letter:?}, not one of . A B L R E F I G D",
                        frame + 1
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_reads_back_as_itself() {
        for (letter, buttons) in LETTERS {
            assert_eq!(frame_letter(buttons), Some(letter));
            assert_eq!(parse_input_sequence(&letter.to_string()), Ok(vec![buttons]));
        }
        // Distinct buttons for distinct letters.
        for (index, (_, buttons)) in LETTERS.iter().enumerate() {
            assert!(
                LETTERS[index + 1..]
                    .iter()
                    .all(|(_, other)| other != buttons)
            );
        }
    }

    #[test]
    fn combinations_without_a_letter() {
        assert_eq!(frame_letter(Buttons::DOWN.with(Buttons::A)), None);
        assert_eq!(frame_letter(Buttons::LEFT.with(Buttons::RIGHT)), None);
        assert_eq!(frame_letter(Buttons::A.with(Buttons::B)), None);
    }

    #[test]
    fn a_sequence_reads_frame_by_frame_and_refuses_what_is_no_letter() {
        assert_eq!(
            parse_input_sequence("L.E"),
            Ok(vec![
                Buttons::LEFT,
                Buttons::NONE,
                Buttons::LEFT.with(Buttons::A)
            ])
        );
        assert_eq!(parse_input_sequence(""), Ok(vec![]));
        assert_eq!(
            parse_input_sequence("..x"),
            Err("frame 3 of the inputs is 'x', not one of . A B L R E F I G D".to_string())
        );
        assert!(parse_input_sequence(&".".repeat(MAX_INPUT_FRAMES)).is_ok());
        assert!(parse_input_sequence(&".".repeat(MAX_INPUT_FRAMES + 1)).is_err());
    }
}
