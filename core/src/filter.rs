//! Placement filters (stub, being written).
