//! The `arena` binary: parses the command line, runs the job, and turns any error into one
//! `error:` line on stderr with exit code 2.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use tetris_arena::cli::{Cli, run};
use tetris_arena::report::output::print_to_stderr;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = error.print();
                return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // clap's message spans several lines (the message, indented details such as the
            // missing arguments, then usage and hints after a blank line); the contract is one
            // line, so the first paragraph is joined.
            let rendered = error.render().to_string();
            let paragraph: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            let mut joined = paragraph.join(" ");
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
            print_to_stderr(&format!("error: {error}"));
            ExitCode::from(2)
        }
    }
}
