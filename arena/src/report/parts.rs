//! The old path of the parts of sharded runs and their merge, which are
//! [`crate::run::shard`]'s now (sharding in one place, below the reports): these re-exports
//! keep `report::parts::…` working for the code written against it.

pub use crate::run::shard::{
    Merged, PART_FORMAT, PART_VERSION, Part, PartBody, PartTiming, RunDelivery, check_part_file,
    merge_parts, nes_part, stats_part, tournament_part, write_part,
};
