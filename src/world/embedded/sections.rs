//! Sparse block storage: only 16×16×16 sections somebody edited are kept, as 2-byte block handles;
//! everything else is read from the preset. Saved worlds store each section with a palette.

use super::Preset;
use crate::world::{Block, Pos};
use serde::{Deserialize, Serialize};

pub(super) const SECTION: i32 = 16;
pub(super) const SECTION_VOLUME: usize = (SECTION * SECTION * SECTION) as usize;

/// One edited 16³ section: block handles indexed by `(y * 16 + z) * 16 + x` within the section.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Section {
    pub(super) blocks: Vec<u16>,
}

pub(super) type SectionKey = (i32, i32, i32);

pub(super) fn section_key(p: Pos) -> (SectionKey, usize) {
    let key = (p.x.div_euclid(SECTION), p.y.div_euclid(SECTION), p.z.div_euclid(SECTION));
    let (lx, ly, lz) = (p.x.rem_euclid(SECTION), p.y.rem_euclid(SECTION), p.z.rem_euclid(SECTION));
    (key, ((ly * SECTION + lz) * SECTION + lx) as usize)
}

impl Section {
    /// A section holding the preset's terrain, so untouched cells keep it once edited.
    pub(super) fn from_preset(key: SectionKey, preset: Preset) -> Section {
        let origin = Pos::new(key.0 * SECTION, key.1 * SECTION, key.2 * SECTION);
        let blocks = (0..SECTION_VOLUME)
            .map(|i| {
                let i = i as i32;
                let d = Pos::new(i % SECTION, i / (SECTION * SECTION), (i / SECTION) % SECTION);
                preset.block_at(origin + d).index()
            })
            .collect();
        Section { blocks }
    }
}

pub(super) fn block_from_index(i: u16) -> Block {
    // Sections only ever hold indices of registry blocks, so this cannot miss.
    Block::from_index(i).unwrap_or(Block::AIR)
}


/// Saved worlds store sections with a palette of block names, so a save stays readable when the
/// registry's order changes between versions.
pub(super) mod saved {
    use super::{Block, Section, SectionKey};
    use rustc_hash::FxHashMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// One section as saved: its key, the block names it uses, and indices into them.
    #[derive(Serialize, Deserialize)]
    struct Saved {
        key: SectionKey,
        palette: Vec<Block>,
        blocks: Vec<u16>,
    }

    impl Saved {
        fn of(key: SectionKey, section: &Section) -> Saved {
            let mut palette: Vec<u16> = Vec::new();
            let blocks = section
                .blocks
                .iter()
                .map(|b| match palette.iter().position(|p| p == b) {
                    Some(i) => i as u16,
                    None => {
                        palette.push(*b);
                        (palette.len() - 1) as u16
                    }
                })
                .collect();
            let palette = palette.into_iter().map(super::block_from_index).collect();
            Saved { key, palette, blocks }
        }

        fn section(&self) -> Result<Section, String> {
            if self.blocks.len() != super::SECTION_VOLUME {
                return Err(format!("section {:?} has {} blocks", self.key, self.blocks.len()));
            }
            let blocks = self
                .blocks
                .iter()
                .map(|&i| self.palette.get(i as usize).map(|b| b.index()))
                .collect::<Option<Vec<u16>>>()
                .ok_or_else(|| format!("section {:?} refers past its palette", self.key))?;
            Ok(Section { blocks })
        }
    }

    pub fn serialize<S: Serializer>(m: &FxHashMap<SectionKey, Section>, s: S) -> Result<S::Ok, S::Error> {
        let mut keys: Vec<_> = m.keys().copied().collect();
        keys.sort();
        let saved: Vec<Saved> = keys.into_iter().map(|key| Saved::of(key, &m[&key])).collect();
        saved.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FxHashMap<SectionKey, Section>, D::Error> {
        use serde::de::Error;
        let saved: Vec<Saved> = Vec::deserialize(d)?;
        let mut out = FxHashMap::default();
        for s in saved {
            out.insert(s.key, s.section().map_err(D::Error::custom)?);
        }
        Ok(out)
    }
}
