//! Our placements in StackRabbit's coordinates: the conversions live with the StackRabbit
//! client of the outside engines (`tetris_outside::stackrabbit`), which reads the same
//! answers this server writes; one definition for both directions.

pub use tetris_registry::stackrabbit::{
    initial_y, placement_from_stackrabbit, stackrabbit_cpp_placement, stackrabbit_placement,
};
