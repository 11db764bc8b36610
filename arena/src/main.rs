//! The `arena` binary: records its command line for the outputs' `made_by`, parses it, runs
//! the job, and turns any error into one `error:` line on stderr with the exit code of its
//! kind (2 for bad input, as clap's own errors; docs/commands.md, "Exit codes").
//!
//! The only crate that uses clap: `cli.rs` defines the command line and dispatches,
//! `commands/` holds one module per subcommand (its options, its request, its printing).

use std::io::Write;
use std::process::ExitCode;

mod cli;
mod commands;

use clap::Parser;
use clap::error::ErrorKind;
use tetris_arena_io::Words;
use tetris_arena_io::output::{MadeBy, print_to_stderr};
use tetris_arena_io::values::ValueError;
use tetris_arena_requests::error::ArenaError;

use cli::{Cli, run};

fn main() -> ExitCode {
    // Every JSON report and page written from here on names this command line (`made_by`).
    MadeBy::record_command_line(std::env::args_os());
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                // Help and the version go to stdout: a stdout that cannot take them (a full
                // disk, `> /dev/full`) is an error, not a success.
                if let Err(write_error) = error.print().and_then(|()| std::io::stdout().flush()) {
                    print_to_stderr(&format!("error: standard output: {write_error}"));
                    return ExitCode::from(2);
                }
                return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // A value that clap handed to the request layer's typed parsers: their message
            // names the option and is the one every front end gives for that mistake.
            if let Some(message) = own_value_error(&error) {
                print_to_stderr(&format!("error: {message}"));
                return ExitCode::from(2);
            }
            // clap's message spans several lines (the message, indented details such as the
            // missing arguments, then usage and hints after a blank line); the contract is one
            // line, so the first paragraph is joined, with clap's tips (`a similar argument
            // exists: '--games'`) after it.
            let rendered = error.render().to_string();
            let paragraph: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            let mut joined = paragraph.join(" ");
            for tip in rendered
                .lines()
                .skip(paragraph.len())
                .map(str::trim)
                .filter(|line| line.starts_with("tip:"))
            {
                joined.push_str("; ");
                joined.push_str(tip);
            }
            if error.kind() == ErrorKind::MissingSubcommand {
                // `arena` alone: clap's usage line and its hint, on the one line.
                joined.push_str("; usage: arena <COMMAND>; for more information, try '--help'");
            }
            let line = joined.strip_prefix("error: ").unwrap_or(&joined);
            print_to_stderr(&format!("error: {line}"));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            print_to_stderr(&format!("error: {}", Words::CommandLine.message(&error)));
            // The error's kind alone decides the code (docs/commands.md, "Exit codes").
            ExitCode::from(error.kind().exit_code())
        }
    }
}

/// The message of a value the arena's own parsers refused ([`tetris_arena_io::values`],
/// or a type whose `FromStr` gives an [`ArenaError`]), without clap's `invalid value … for
/// …` around it: those messages already name the option and the value.
fn own_value_error(error: &clap::Error) -> Option<String> {
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let source = std::error::Error::source(error)?;
    if let Some(value) = source.downcast_ref::<ValueError>() {
        return Some(Words::CommandLine.message(value));
    }
    source
        .downcast_ref::<ArenaError>()
        .map(|error| Words::CommandLine.message(error))
}
