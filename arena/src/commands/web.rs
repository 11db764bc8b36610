//! `arena web PAGE.html`: writes the live arena page, one self-contained file that plays,
//! duels and analyses with the engines compiled to WebAssembly, in the browser, from `file://`
//! with no server ([`tetris_web_page`]; docs/web.md).

use std::path::PathBuf;

use tetris_arena_io::Field;
use tetris_arena_io::output::{check_output_file, write_output};

use crate::cli::CliError;

/// What `arena web --help` says after the options.
const VIEWS: &str = "\
The page has four views: Watch (a strategy plays live), Duel (two strategies on the same
pieces, side by side), Analyse (edit a board, rank the placements of its pieces, see their
paths) and Share (the page's state in the link's #fragment). Its games are the command line's:
the same seed plays the same game as `arena play`. `arena serve` serves the same page at /.";

/// Options of `arena web`.
#[derive(Debug, clap::Args)]
#[command(after_help = VIEWS)]
pub struct Args {
    /// The page to write (replaced atomically; never an input or a folder).
    #[arg(value_name = "PAGE.html")]
    pub page: PathBuf,
}

/// Runs `arena web`.
pub fn run(args: Args) -> Result<(), CliError> {
    check_output_file(Field::PAGE, &args.page)?;
    let page = tetris_web_page::page()?;
    Ok(write_output(
        "live arena page",
        &args.page,
        page.as_bytes(),
    )?)
}
