//! Shape generation end to end, through the public API only: counts for known sizes, the
//! structure of buildings, build order, limits, errors, and invariants over every shape word.

use craftmate::schematics::{
    Limits, Schematic, SchematicError, ShapeRequest, generate, is_known_shape, known_shapes, shape_words,
};
use craftmate::world::{Block, Pos};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

fn build(req: ShapeRequest) -> Schematic {
    generate(&req, &Limits::default()).unwrap_or_else(|e| panic!("{req:?}: {e}"))
}

fn shape(name: &str, size: i32) -> Schematic {
    build(ShapeRequest::new(name).with_size(size))
}

fn block(name: &str) -> Block {
    Block::from_name(name).unwrap()
}

fn at(s: &Schematic) -> HashMap<Pos, Block> {
    s.blocks.iter().copied().collect()
}

/// Checks what every schematic promises and panics with `what` if not.
fn check_invariants(s: &Schematic, what: &str) {
    assert!(!s.is_empty(), "{what}: empty");
    let positions: HashSet<Pos> = s.blocks.iter().map(|(p, _)| *p).collect();
    assert_eq!(positions.len(), s.len(), "{what}: duplicate positions");
    assert!(s.blocks.iter().all(|(_, b)| !b.is_air()), "{what}: air");
    let bbox = s.bbox();
    assert_eq!(bbox.min, Pos::new(0, 0, 0), "{what}: minimum corner");
    assert_eq!(s.size(), bbox.size());
    // Build order: a permutation, layer by layer, each block after the one below it.
    let order = s.build_order();
    assert_eq!(order.len(), s.len(), "{what}: build order length");
    let mut index = HashMap::new();
    for (i, (p, _)) in order.iter().enumerate() {
        assert!(index.insert(*p, i).is_none(), "{what}: build order repeats {p}");
    }
    assert!(order.windows(2).all(|w| w[0].0.y <= w[1].0.y), "{what}: not bottom-up");
    for (i, (p, _)) in order.iter().enumerate() {
        if let Some(&j) = index.get(&p.down(1)) {
            assert!(j < i, "{what}: {p} placed before its support");
        }
    }
}

/// Whether every block of `s` is on the ground or face-touches a block placed before it.
fn each_block_leans_on_something(s: &Schematic) -> bool {
    let mut placed = HashSet::new();
    s.build_order().iter().all(|(p, _)| {
        let ok = p.y == 0 || p.faces().iter().any(|n| placed.contains(n));
        placed.insert(*p);
        ok
    })
}

#[test]
fn cubes_solid_and_hollow() {
    assert_eq!(shape("cube", 3).len(), 27);
    assert_eq!(build(ShapeRequest::new("cube").with_size(3).with_hollow(true)).len(), 26);
    assert_eq!(shape("hollow cube", 3).len(), 26);
    assert_eq!(build(ShapeRequest::new("hollow box").with_size(5).with_hollow(false)).len(), 125);
    let hollow5 = build(ShapeRequest::new("cube").with_size(5).with_hollow(true));
    assert_eq!(hollow5.len(), 125 - 27);
    assert!(!at(&hollow5).contains_key(&Pos::new(2, 2, 2)));
    let thick = build(ShapeRequest::new("cube").with_size(5).with_hollow(true).with_thickness(2));
    assert_eq!(thick.len(), 124);
    let cuboid = build(ShapeRequest::new("cuboid").with_width(4).with_height(2).with_length(3));
    assert_eq!((cuboid.size(), cuboid.len()), ([4, 2, 3], 24));
    assert_eq!(shape("cubes", 1).len(), 1);
}

#[test]
fn flat_shapes_walls_and_lines() {
    let square = shape("square", 4);
    assert_eq!((square.size(), square.len()), ([4, 1, 4], 16));
    let frame = build(ShapeRequest::new("square").with_size(4).with_hollow(true));
    assert_eq!(frame.len(), 12);
    let rect = build(ShapeRequest::new("rectangle"));
    assert_eq!(rect.size(), [7, 1, 5]);
    let floor = build(ShapeRequest::new("platform").with_width(5).with_length(3));
    assert_eq!((floor.size(), floor.len()), ([5, 1, 3], 15));
    assert!(floor.blocks.iter().all(|(_, b)| *b == block("oak_planks")));

    let wall = build(ShapeRequest::new("wall").with_width(10).with_length(4));
    assert_eq!(wall.size(), [10, 4, 1], "a wall 10 by 4 is 10 long, 4 high, 1 thick");
    assert_eq!(wall.len(), 40);
    let default_wall = build(ShapeRequest::new("wall"));
    assert_eq!(default_wall.size(), [10, 5, 1]);
    let thick = build(ShapeRequest::new("wall").with_size_words(&["thick"]));
    assert_eq!(thick.size()[2], 2);
    let line = build(ShapeRequest::new("line").with_length(8));
    assert_eq!((line.size(), line.len()), ([8, 1, 1], 8));
}

#[test]
fn spheres_domes_and_ellipsoids() {
    assert_eq!(shape("sphere", 3).len(), 19);
    assert_eq!(shape("ball", 5).len(), 81);
    let r3 = build(ShapeRequest::new("sphere").with_radius(3));
    assert_eq!(r3.size(), [7, 7, 7]);
    // Hollow: no block whose six neighbours are all part of the solid sphere.
    for d in [3, 5, 8, 11] {
        let solid = at(&shape("sphere", d));
        let hollow = build(ShapeRequest::new("sphere").with_size(d).with_hollow(true));
        assert!(hollow.len() < solid.len());
        for (p, _) in &hollow.blocks {
            assert!(solid.contains_key(p));
            assert!(
                p.faces().iter().any(|n| !solid.contains_key(n)),
                "interior block {p} in hollow sphere {d}"
            );
        }
        // ... and watertight: every surface block of the solid is there.
        let shell: HashSet<Pos> = hollow.blocks.iter().map(|(p, _)| *p).collect();
        for p in solid.keys() {
            if p.faces().iter().any(|n| !solid.contains_key(n)) {
                assert!(shell.contains(p), "hole at {p} in hollow sphere {d}");
            }
        }
    }
    // A dome is the top half of a sphere, hollow and open at the bottom by default.
    let dome = shape("dome", 7);
    assert_eq!(dome.size(), [7, 4, 7]);
    let bottom: Vec<Pos> = dome.blocks.iter().map(|(p, _)| *p).filter(|p| p.y == 0).collect();
    assert!(!bottom.contains(&Pos::new(3, 0, 3)), "dome floor is open");
    assert!(bottom.contains(&Pos::new(0, 0, 3)));
    let solid_dome = build(ShapeRequest::new("dome").with_size(7).with_hollow(false));
    let full = at(&shape("sphere", 7));
    assert_eq!(solid_dome.len(), full.keys().filter(|p| p.y >= 3).count());
    let egg = build(ShapeRequest::new("ellipsoid"));
    assert_eq!(egg.size(), [7, 5, 5]);
}

#[test]
fn pyramids_shrink_by_layer() {
    let p = shape("pyramid", 5);
    assert_eq!(p.len(), 25 + 9 + 1);
    let layers = |s: &Schematic| {
        let mut n = vec![0; s.size()[1] as usize];
        for (p, _) in &s.blocks {
            n[p.y as usize] += 1;
        }
        n
    };
    assert_eq!(layers(&shape("pyramid", 7)), vec![49, 25, 9, 1]);
    let big = build(ShapeRequest::new("pyramid").with_size_words(&["big"]));
    let n = layers(&big);
    assert!(n.windows(2).all(|w| w[1] < w[0]), "{n:?}");
    assert!(big.blocks.iter().all(|(_, b)| *b == block("sandstone")));
    let hollow = build(ShapeRequest::new("pyramid").with_size(7).with_hollow(true));
    assert!(hollow.len() < 84 && !at(&hollow).contains_key(&Pos::new(3, 1, 3)));
}

#[test]
fn towers_and_pillars() {
    let t = build(ShapeRequest::new("tower"));
    assert_eq!(t.size(), [5, 12, 5]);
    let blocks = at(&t);
    assert!(!blocks.contains_key(&Pos::new(2, 5, 2)), "tower is hollow");
    assert!(!blocks.contains_key(&Pos::new(2, 0, 0)) && !blocks.contains_key(&Pos::new(2, 1, 0)), "doorway");
    assert!(blocks.contains_key(&Pos::new(2, 2, 0)), "lintel");
    assert!(blocks.contains_key(&Pos::new(2, 10, 2)), "top floor");
    assert!(
        blocks.contains_key(&Pos::new(0, 11, 0)) && !blocks.contains_key(&Pos::new(1, 11, 0)),
        "battlements"
    );
    let tall = build(ShapeRequest::new("tower").with_height(20));
    assert_eq!(tall.size()[1], 20);
    let pillar = build(ShapeRequest::new("column").with_height(6));
    assert_eq!((pillar.size(), pillar.len()), ([1, 6, 1], 6));
    let thick = build(ShapeRequest::new("pillar").with_size_words(&["thick"]));
    assert_eq!(thick.size(), [2, 10, 2]);
}

#[test]
fn arches_disks_rings_cylinders_triangles() {
    let arch = build(ShapeRequest::new("arch"));
    assert_eq!((arch.size(), arch.len()), ([7, 6, 1], 19));
    let a = at(&arch);
    assert!((0..4).all(|y| !a.contains_key(&Pos::new(3, y, 0))), "walk-through opening");
    assert_eq!(build(ShapeRequest::new("arch").with_size(3).with_height(3)).len(), 7);
    assert_eq!(shape("arch", 3).size(), [3, 2, 1]);

    assert_eq!(shape("circle", 5).len(), 21);
    assert_eq!(shape("disk", 7).len(), 37);
    let ring = shape("ring", 7);
    assert!(ring.len() < 37 && !at(&ring).contains_key(&Pos::new(3, 0, 3)));
    let disk = at(&shape("disk", 7));
    for (p, _) in &ring.blocks {
        assert!([(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dz)| !disk.contains_key(&Pos::new(
            p.x + dx,
            0,
            p.z + dz
        ))));
    }
    let r = build(ShapeRequest::new("circle").with_radius(3));
    assert_eq!(r.size(), [7, 1, 7]);
    let cyl = build(ShapeRequest::new("cylinder").with_size(5).with_height(4));
    assert_eq!((cyl.size(), cyl.len()), ([5, 4, 5], 21 * 4));
    let tube = build(ShapeRequest::new("cylinder").with_size(5).with_height(4).with_hollow(true));
    assert!(
        at(&tube).contains_key(&Pos::new(2, 0, 2)) && !at(&tube).contains_key(&Pos::new(2, 1, 2)),
        "closed can"
    );

    let tri = shape("triangle", 7);
    assert_eq!((tri.size(), tri.len()), ([7, 4, 1], 16));
    let outline = build(ShapeRequest::new("triangle").with_size(7).with_hollow(true));
    assert!(outline.len() < 16 && !at(&outline).contains_key(&Pos::new(3, 1, 0)));
}

#[test]
fn stairs_rise_one_per_step() {
    let s = build(ShapeRequest::new("staircase").with_size(4).with_width(1));
    assert_eq!(s.len(), 1 + 2 + 3 + 4);
    let blocks = at(&s);
    for step in 0..4 {
        let top = (0..10).filter(|y| blocks.contains_key(&Pos::new(0, *y, step))).max();
        assert_eq!(top, Some(step));
    }
    let steps = build(ShapeRequest::new("steps"));
    assert_eq!(steps.size(), [2, 5, 5]);
    assert!(each_block_leans_on_something(&steps));
}

#[test]
fn house_has_door_windows_and_roof() {
    let house = build(ShapeRequest::new("house"));
    check_invariants(&house, "house");
    let b = at(&house);
    let [w, _, l] = house.size();
    // Wall top: the highest layer that has blocks at the corners.
    let wall_top = (0..)
        .take_while(|y| b.get(&Pos::new(0, *y, 0)) == Some(&block("oak_log")) || *y == 0)
        .last()
        .unwrap();
    assert_eq!(wall_top, 3);

    let doorways: Vec<i32> = (0..w)
        .filter(|x| {
            !b.contains_key(&Pos::new(*x, 1, 0))
                && !b.contains_key(&Pos::new(*x, 2, 0))
                && b.contains_key(&Pos::new(*x, 0, 0))
                && b.contains_key(&Pos::new(*x, 3, 0))
        })
        .collect();
    assert_eq!(doorways, vec![w / 2], "one doorway, 2 high, floor below and lintel above");

    let glass = house.blocks.iter().filter(|(_, blk)| *blk == block("glass")).collect::<Vec<_>>();
    assert!(glass.len() >= 3, "windows: {}", glass.len());
    assert!(
        glass.iter().all(|(p, _)| p.y >= 2
            && p.y <= wall_top
            && (p.x == 0 || p.x == w - 1 || p.z == 0 || p.z == l - 1))
    );

    let roof: Vec<&Pos> =
        house.blocks.iter().filter(|(_, blk)| *blk == block("spruce_planks")).map(|(p, _)| p).collect();
    assert!(!roof.is_empty() && roof.iter().all(|p| p.y > wall_top), "roof above the walls");
    assert!(
        (0..w).all(|x| (0..l).all(|z| b.contains_key(&Pos::new(x, wall_top + 1, z)))),
        "roof covers the house"
    );
    assert_eq!(house.len(), 211);
    assert!(each_block_leans_on_something(&house));

    let stone = build(ShapeRequest::new("home").with_material("stone"));
    let counts: HashMap<Block, usize> = stone.block_counts().into_iter().collect();
    assert!(counts.contains_key(&block("stone_bricks")) && !counts.contains_key(&block("oak_planks")));
    assert!(counts.contains_key(&block("glass")) && counts.contains_key(&block("cobblestone")));
}

#[test]
fn huts_bridges_fences() {
    let hut = build(ShapeRequest::new("cabin"));
    assert_eq!((hut.size(), hut.len()), ([5, 4, 5], 16 * 3 - 2 + 25));
    let h = at(&hut);
    assert!(
        !h.contains_key(&Pos::new(2, 0, 0))
            && !h.contains_key(&Pos::new(2, 1, 0))
            && h.contains_key(&Pos::new(2, 2, 0))
    );
    assert_eq!(h.get(&Pos::new(2, 1, 4)), Some(&block("glass")));

    let bridge = build(ShapeRequest::new("bridge"));
    assert_eq!((bridge.size(), bridge.len()), ([10, 2, 5], 50 + 20));
    let high = build(ShapeRequest::new("bridge").with_length(13).with_height(5));
    assert_eq!(high.size(), [13, 5, 5]);
    let hb = at(&high);
    assert!(
        hb.contains_key(&Pos::new(6, 0, 0))
            && hb.contains_key(&Pos::new(6, 3, 2))
            && !hb.contains_key(&Pos::new(3, 0, 0))
    );
    assert!(each_block_leans_on_something(&high));

    let fence = build(ShapeRequest::new("fence"));
    assert_eq!((fence.size(), fence.len()), ([10, 2, 10], 36 * 2));
    let pen = build(ShapeRequest::new("pen").with_width(4).with_length(1));
    assert_eq!(pen.len(), 8);
}

#[test]
fn every_shape_word_and_size_keeps_the_invariants() {
    let start = Instant::now();
    for word in shape_words() {
        for size in [1, 2, 3, 4, 5, 7, 10] {
            for hollow in [None, Some(true), Some(false)] {
                let mut req = ShapeRequest::new(word).with_size(size);
                req.hollow = hollow;
                let what = format!("{word} size {size} hollow {hollow:?}");
                match generate(&req, &Limits::default()) {
                    Ok(s) => check_invariants(&s, &what),
                    Err(SchematicError::BadSize(_)) if size < 5 => {}
                    Err(e) => panic!("{what}: {e}"),
                }
            }
        }
        for words in
            [&["tiny"][..], &["huge", "tall"], &["small", "thin", "short"], &["wide", "long", "thick"]]
        {
            let req = ShapeRequest::new(word).with_size_words(words);
            let s = generate(&req, &Limits::default()).unwrap_or_else(|e| panic!("{word} {words:?}: {e}"));
            check_invariants(&s, &format!("{word} {words:?}"));
        }
    }
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[test]
fn solid_shapes_build_from_the_ground_up() {
    for word in [
        "cube", "sphere", "pyramid", "tower", "arch", "stairs", "house", "hut", "bridge", "fence", "wall",
        "dome",
    ] {
        let s = build(ShapeRequest::new(word).with_hollow(false));
        assert!(each_block_leans_on_something(&s), "{word}");
    }
}

#[test]
fn size_words_and_numbers() {
    let edge = |words: &[&str]| build(ShapeRequest::new("cube").with_size_words(words)).size()[0];
    assert_eq!(edge(&[]), 5);
    assert_eq!(edge(&["tiny"]), 2);
    assert_eq!(edge(&["small"]), 3);
    assert_eq!(edge(&["big"]), 7);
    assert_eq!(edge(&["huge"]), 11);
    assert_eq!(build(ShapeRequest::new("cube").with_size_words(&["tall"])).size(), [5, 10, 5]);
    assert_eq!(build(ShapeRequest::new("cube").with_size_words(&["big", "short"])).size(), [7, 3, 7]);
    // Numbers beat words.
    assert_eq!(
        build(ShapeRequest::new("cube").with_size_words(&["huge", "tall"]).with_size(3)).size(),
        [3, 6, 3]
    );
    assert_eq!(
        build(ShapeRequest::new("box").with_size_words(&["tall"]).with_width(5).with_height(4)).size(),
        [5, 4, 5]
    );
    // One number on a cube sizes the whole cube.
    assert_eq!(build(ShapeRequest::new("cube").with_height(4)).size(), [4, 4, 4]);
    // Parsed numbers flow into a request.
    let words = ["a", "5", "by", "3", "platform"];
    let req = ShapeRequest::new("platform").with_dimensions(ShapeRequest::parse_dimensions(&words));
    assert_eq!(build(req).size(), [5, 1, 3]);
    let words = ["ten", "blocks", "tall"];
    let req = ShapeRequest::new("tower").with_dimensions(ShapeRequest::parse_dimensions(&words));
    assert_eq!(build(req).size()[1], 10);
}

#[test]
fn colours_and_materials() {
    let red = build(ShapeRequest::new("cube").with_size(2).with_colour("red"));
    assert!(red.blocks.iter().all(|(_, b)| *b == block("red_wool")));
    let glass = build(ShapeRequest::new("sphere").with_size(3).with_colour("blue").with_material("glass"));
    assert!(glass.blocks.iter().all(|(_, b)| *b == block("blue_stained_glass")));
    let concrete = build(ShapeRequest::new("wall").with_colour("lime").with_material("concrete"));
    assert_eq!(concrete.blocks[0].1, block("lime_concrete"));
    let gold = build(ShapeRequest::new("pyramid").with_colour("red").with_material("gold"));
    assert!(gold.blocks.iter().all(|(_, b)| *b == block("gold_block")));
    let id = build(ShapeRequest::new("ring").with_material("minecraft:oak_planks"));
    assert!(id.blocks.iter().all(|(_, b)| *b == block("oak_planks")));
    assert_eq!(build(ShapeRequest::new("cube")).blocks[0].1, block("stone_bricks"));
}

#[test]
fn clear_errors() {
    let limits = Limits::default();
    let err = generate(&ShapeRequest::new("zigurat"), &limits).unwrap_err();
    assert_eq!(err, SchematicError::UnknownShape("zigurat".into()));
    assert_eq!(err.to_string(), "I don't know how to build a zigurat yet");
    assert!(!is_known_shape("hole"));
    assert!(matches!(generate(&ShapeRequest::new("hole"), &limits), Err(SchematicError::UnknownShape(_))));
    let err = generate(&ShapeRequest::new("cube").with_material("unobtainium"), &limits).unwrap_err();
    assert_eq!(err, SchematicError::UnknownMaterial("unobtainium".into()));
    assert!(matches!(
        generate(&ShapeRequest::new("cube").with_material("lava"), &limits),
        Err(SchematicError::UnusableMaterial(_))
    ));
    assert!(matches!(
        generate(&ShapeRequest::new("cube").with_colour("plaid"), &limits),
        Err(SchematicError::UnknownColour(_))
    ));
    for bad in [
        ShapeRequest::new("cube").with_size(0),
        ShapeRequest::new("sphere").with_radius(-3),
        ShapeRequest::new("wall").with_height(i32::MIN),
        ShapeRequest::new("house").with_width(3),
        ShapeRequest::new("tower").with_height(2),
        ShapeRequest::new("arch").with_width(2),
    ] {
        let err = generate(&bad, &limits).unwrap_err();
        assert!(matches!(err, SchematicError::BadSize(_)), "{bad:?}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn limits_refuse_before_allocating() {
    let limits = Limits::default();
    let start = Instant::now();
    for req in [
        ShapeRequest::new("sphere").with_radius(100_000),
        ShapeRequest::new("cube").with_size(i32::MAX),
        ShapeRequest::new("hollow sphere").with_radius(i32::MAX),
        ShapeRequest::new("ring").with_radius(i32::MAX).with_thickness(i32::MAX),
        ShapeRequest::new("wall").with_width(i32::MAX).with_height(i32::MAX).with_thickness(i32::MAX),
        ShapeRequest::new("stairs").with_size(1_000_000),
        ShapeRequest::new("pyramid").with_width(i32::MAX).with_length(1).with_height(i32::MAX),
        ShapeRequest::new("house").with_size(i32::MAX),
        ShapeRequest::new("line").with_length(20_000),
        ShapeRequest::new("cube").with_size_words(&["huge"; 1]).with_size_words(&["tall"; 40]),
    ] {
        match generate(&req, &limits) {
            Err(SchematicError::TooLarge { blocks, limit }) => {
                assert!(blocks > limit as u64 && limit == 10_000)
            }
            other => panic!("{req:?}: {other:?}"),
        }
    }
    assert!(start.elapsed().as_millis() < 500, "refusals must be instant: {:?}", start.elapsed());

    // The limit is configurable, and exact at the boundary.
    assert!(generate(&ShapeRequest::new("cube").with_size(10), &Limits { max_blocks: 1000 }).is_ok());
    assert!(matches!(
        generate(&ShapeRequest::new("cube").with_size(10), &Limits { max_blocks: 999 }),
        Err(SchematicError::TooLarge { blocks: 1000, limit: 999 })
    ));
    assert!(matches!(
        generate(&ShapeRequest::new("cube"), &Limits { max_blocks: 0 }),
        Err(SchematicError::TooLarge { .. })
    ));
    // A hollow sphere far bigger than the limit when solid is still allowed.
    let hollow = build(ShapeRequest::new("sphere").with_size(40).with_hollow(true));
    assert!(hollow.len() > 4000 && hollow.len() <= 10_000);
    // A generous limit still cannot make a shape wider than the extent cap.
    let wide = generate(&ShapeRequest::new("line").with_length(200_000), &Limits { max_blocks: usize::MAX });
    assert!(matches!(wide, Err(SchematicError::BadSize(_))), "{wide:?}");
}

#[test]
fn catalogue_for_chat() {
    let names = known_shapes();
    for n in [
        "cube", "sphere", "dome", "pyramid", "wall", "tower", "arch", "circle", "square", "triangle",
        "stairs", "house", "hut", "bridge", "fence",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    let synonyms = "cubes box ball pillar column disk ring rectangle floor platform ellipsoid staircase steps \
                    home shack cabin cuboid block";
    for w in synonyms.split_whitespace() {
        assert!(is_known_shape(w), "{w}");
    }
}
