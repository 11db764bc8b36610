//! The `arena` binary: parses the command line, runs the job, and turns any error into one
//! `error:` line on stderr with exit code 2.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use tetris_arena::cli::{Cli, run};

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
            // clap's message spans several lines (usage, hints); the contract is one line.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("error: bad command line");
            let line = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("error: {line}");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
