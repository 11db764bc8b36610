//! Lookahead chains (stub, being written).
