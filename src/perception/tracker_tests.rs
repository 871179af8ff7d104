//! The tracker's rules, cell by cell: growth, splits, merges and pinned objects.

use super::*;

fn stone() -> Block {
    Block::from_name("stone_bricks").unwrap()
}

fn ids() -> impl FnMut() -> Result<MemoryId, ()> {
    let mut next = 100;
    move || {
        next += 1;
        Ok(next)
    }
}

fn column(x: i32, ys: std::ops::RangeInclusive<i32>) -> Vec<Edit> {
    ys.map(|y| Edit::Set(Pos::new(x, y, 0), stone())).collect()
}

#[test]
fn growing_keeps_the_id() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    let o = t.apply(&column(0, 5..=7), &mut alloc).unwrap();
    assert_eq!(o.created, vec![101]);
    let o = t.apply(&column(0, 8..=9), &mut alloc).unwrap();
    assert!(o.created.is_empty());
    assert_eq!(o.changed, vec![101]);
    assert_eq!(t.cells(101).unwrap().len(), 5);
}

#[test]
fn splitting_keeps_the_id_on_the_largest_part() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    t.apply(&column(0, 5..=12), &mut alloc).unwrap();
    let o = t.apply(&[Edit::Clear(Pos::new(0, 7, 0))], &mut alloc).unwrap();
    assert_eq!(o.created, vec![102]);
    assert_eq!(t.cells(101).unwrap().len(), 5, "the upper part is larger");
    assert_eq!(t.cells(102).unwrap().len(), 2);
    assert_eq!(t.owner_of(Pos::new(0, 5, 0)), Some(102));
}

#[test]
fn merging_keeps_the_older_id() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    t.apply(&column(0, 5..=6), &mut alloc).unwrap();
    t.apply(&column(4, 5..=9), &mut alloc).unwrap();
    let bridge: Vec<Edit> = (1..=3).map(|x| Edit::Set(Pos::new(x, 6, 0), stone())).collect();
    let o = t.apply(&bridge, &mut alloc).unwrap();
    assert_eq!(o.merged, vec![(102, 101)]);
    assert!(o.destroyed.is_empty());
    assert_eq!(t.cells(101).unwrap().len(), 10);
    assert!(t.cells(102).is_none());
}

#[test]
fn destroying_everything_removes_the_object() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    t.apply(&column(0, 5..=6), &mut alloc).unwrap();
    let o = t.apply(&[Edit::Clear(Pos::new(0, 5, 0)), Edit::Clear(Pos::new(0, 6, 0))], &mut alloc).unwrap();
    assert_eq!(o.destroyed, vec![101]);
    assert_eq!(t.object_count(), 0);
}

#[test]
fn diagonal_cells_connect_and_last_edit_wins() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    let o = t
        .apply(
            &[
                Edit::Set(Pos::new(0, 5, 0), stone()),
                Edit::Set(Pos::new(1, 6, 1), stone()),
                Edit::Set(Pos::new(5, 5, 5), stone()),
                Edit::Clear(Pos::new(5, 5, 5)),
            ],
            &mut alloc,
        )
        .unwrap();
    assert_eq!(o.created.len(), 1);
    assert_eq!(t.cell_count(), 2);
}

#[test]
fn a_pinned_object_keeps_its_cells_whatever_it_touches() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    t.apply(&column(0, 5..=9), &mut alloc).unwrap(); // 101, a tower somebody built
    // Stairs a build makes for object 50, touching the tower.
    let stairs: Vec<Edit> = (1..=3).map(|x| Edit::Join(Pos::new(x, 4 + x, 0), stone(), 50)).collect();
    let o = t.apply(&stairs, &mut alloc).unwrap();
    assert!(o.merged.is_empty() && o.created.is_empty(), "{o:?}");
    assert_eq!(t.cells(101).unwrap().len(), 5, "the tower is still the tower");
    assert_eq!(t.cells(50).unwrap().len(), 3);
    // A loose block touching both joins the tower, never the stairs.
    t.apply(&[Edit::Set(Pos::new(1, 7, 1), stone())], &mut alloc).unwrap();
    assert_eq!(t.owner_of(Pos::new(1, 7, 1)), Some(101));
    // Taking the middle step out does not split the stairs, and putting it back mends them.
    let o = t.apply(&[Edit::Clear(Pos::new(2, 6, 0))], &mut alloc).unwrap();
    assert!(o.created.is_empty() && o.destroyed.is_empty());
    assert_eq!(t.cells(50).unwrap().len(), 2);
    t.apply(&[Edit::Set(Pos::new(2, 6, 0), stone())], &mut alloc).unwrap();
    assert_eq!(t.owner_of(Pos::new(2, 6, 0)), Some(50));
    t.apply(&[Edit::Clear(Pos::new(2, 6, 0))], &mut alloc).unwrap();
    let o = t.apply(&[Edit::Clear(Pos::new(1, 5, 0)), Edit::Clear(Pos::new(3, 7, 0))], &mut alloc).unwrap();
    assert_eq!(o.destroyed, vec![50]);
    assert!(!t.is_pinned(50));
}

#[test]
fn split_and_merge_in_one_batch() {
    let mut t = Tracker::new();
    let mut alloc = ids();
    t.apply(&column(0, 5..=9), &mut alloc).unwrap(); // 101
    t.apply(&column(3, 5..=5), &mut alloc).unwrap(); // 102
    // Cut 101 at y=6 and bridge its lower part (y=5) to 102.
    let o = t
        .apply(&[Edit::Clear(Pos::new(0, 6, 0)), Edit::Set(Pos::new(1, 5, 0), stone()), Edit::Set(Pos::new(2, 5, 0), stone())], &mut alloc)
        .unwrap();
    assert_eq!(t.cells(101).unwrap().len(), 3, "upper part keeps 101");
    assert_eq!(t.owner_of(Pos::new(0, 5, 0)), Some(102), "lower part joined 102");
    assert!(o.created.is_empty() && o.merged.is_empty());
}
