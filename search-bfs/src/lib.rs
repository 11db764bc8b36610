//! Full breadth-first lock search (slides and spins) with input paths, in the canonical order (being written).
