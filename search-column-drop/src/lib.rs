//! Rotate, shift, hard drop: the fast baseline searcher (being written).
