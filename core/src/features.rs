//! Board feature primitives (stub, being written).
