//! Which blocks may be broken: something solid or a plant within reach, never bedrock.

use super::{REACH, in_height, reach_distance};
use crate::world::{ActionError, Block, Pos};

/// Can nobody break this block (bedrock)?
pub fn unbreakable(b: Block) -> bool {
    b.name() == "bedrock"
}

/// May the block at `p` be broken by a bot standing at `agent`?
pub fn check_break(p: Pos, agent: Pos, height: (i32, i32), block_at: impl Fn(Pos) -> Block) -> Result<(), ActionError> {
    if !in_height(p.y, height) {
        return Err(ActionError::OutOfWorld(p));
    }
    if reach_distance(agent, p) > REACH {
        return Err(ActionError::OutOfReach(p));
    }
    let here = block_at(p);
    if here.is_air() || here.is_liquid() {
        return Err(ActionError::NothingThere(p));
    }
    if unbreakable(here) {
        return Err(ActionError::Unbreakable(p));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{H, b, world};
    use super::*;

    #[test]
    fn breaking() {
        let agent = Pos::new(0, 5, 0);
        let bedrock = |p: Pos| if p.y == 0 { b("bedrock") } else { world(p) };
        assert_eq!(check_break(Pos::new(1, 4, 0), agent, H, world), Ok(()));
        assert_eq!(check_break(Pos::new(1, 5, 0), agent, H, world), Err(ActionError::NothingThere(Pos::new(1, 5, 0))));
        assert_eq!(
            check_break(Pos::new(0, 0, 0), Pos::new(0, 1, 0), H, bedrock),
            Err(ActionError::Unbreakable(Pos::new(0, 0, 0)))
        );
        assert_eq!(check_break(Pos::new(8, 4, 0), agent, H, world), Err(ActionError::OutOfReach(Pos::new(8, 4, 0))));
        assert_eq!(
            check_break(Pos::new(0, -65, 0), agent, H, world),
            Err(ActionError::OutOfWorld(Pos::new(0, -65, 0)))
        );
    }
}
