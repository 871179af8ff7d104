//! The embedded voxel world (in progress).
