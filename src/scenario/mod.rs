//! The scenario runner (in progress).
