//! The shipped lexicon parses, its meanings are ones the code knows, and the readers read it.

use super::*;

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

fn num(text: &str) -> Option<(i64, usize)> {
    lexicon().number(&words(text), 0)
}

#[test]
fn the_shipped_file_parses() {
    Lexicon::parse(SOURCE).expect("data/lexicon.toml parses");
}

#[test]
fn broken_files_are_errors_not_panics() {
    assert!(Lexicon::parse("[numbers\n").is_err());
    let missing = Lexicon::parse("[filler]\nwords = [\"um\"]\n").unwrap_err();
    assert!(missing.contains("missing section"), "{missing}");
    let extra = format!("{SOURCE}\n[zorp]\nwords = [\"a\"]\n");
    assert!(Lexicon::parse(&extra).unwrap_err().contains("unknown section [zorp]"));
    let upper = SOURCE.replace("words = [\"um\",", "words = [\"Um\",");
    assert!(Lexicon::parse(&upper).unwrap_err().contains("lower case"));
    let wrong = SOURCE.replace("hundred = 100", "hundred = \"100\"");
    assert!(Lexicon::parse(&wrong).unwrap_err().contains("expected a number"));
    let slots = SOURCE.replace("combined = [", "combined = [\n  [\"and|\", \"When\"],");
    assert!(Lexicon::parse(&slots).unwrap_err().contains("lower case"));
}

#[test]
fn combined_phrases_are_every_choice_of_their_slots() {
    let lx = lexicon();
    // `["and|", "when|once|after", …, "|with that|…"]`: with and without the optional slots.
    for line in ["and once ur done with that", "when you are finished", "after youre done with it", "once thats done"] {
        assert_eq!(lx.phrase_at(Class::Connector, &words(line), 0), Some(words(line).len()), "{line}");
    }
    assert!(!lx.is(Class::Connector, "and once"));
}

#[test]
fn every_meaning_is_one_the_code_knows() {
    let lx = lexicon();
    for (m, _) in lx.meanings(Group::Verb) {
        assert!(ActionType::ALL.iter().any(|a| a.as_str().eq_ignore_ascii_case(m)), "[verbs] {m}");
    }
    for group in [Group::Relative, Group::Relation] {
        for (m, _) in lx.meanings(group) {
            assert!(relative_direction(m).is_some(), "[{}] {m}", group.section());
        }
    }
    for (m, _) in lx.meanings(Group::Compass) {
        assert!(Compass::named(m).is_some(), "[compass] {m}");
    }
    for (m, _) in lx.meanings(Group::Dimension) {
        assert!(Dimension::named(m).is_some(), "[dimensions] {m}");
    }
    for (m, _) in lx.meanings(Group::Colour) {
        assert!(crate::world::blocks::DYE_COLOURS.contains(&m), "[colours] {m}");
    }
    for colour in crate::world::blocks::DYE_COLOURS {
        assert_eq!(lx.colour(colour), Some(colour), "every dye colour is its own word");
    }
    for (m, _) in lx.meanings(Group::Material).chain(lx.meanings(Group::Terrain)) {
        assert!(crate::world::Block::from_name(m).is_some(), "{m} is a block");
    }
    // A word has one meaning in a group.
    for group in Group::ALL {
        let mut seen = std::collections::HashMap::new();
        for (m, words) in lx.meanings(*group) {
            for w in words {
                if let Some(other) = seen.insert(w.as_str(), m) {
                    panic!("[{}] {w:?} means both {other} and {m}", group.section());
                }
            }
        }
    }
    // Number words are told apart by value: units, teens, whole tens.
    let (entries, values) = &lx.values[Values::Number as usize];
    for (w, v) in entries.words.iter().zip(values) {
        assert!(*v >= 0.0 && (*v < 20.0 || (*v < 100.0 && v % 10.0 == 0.0)), "[numbers] {w} = {v}");
    }
}

#[test]
fn numbers() {
    assert_eq!(num("sixty-seven"), Some((67, 1)));
    assert_eq!(num("sixty seven blocks"), Some((67, 2)));
    assert_eq!(num("ninety"), Some((90, 1)));
    assert_eq!(num("a stack"), Some((64, 2)));
    assert_eq!(num("two stacks"), Some((128, 2)));
    assert_eq!(num("2 stacks of stone"), Some((128, 2)));
    assert_eq!(num("a couple stacks of glass"), Some((128, 3)));
    assert_eq!(num("a couple of stacks"), Some((128, 4)));
    assert_eq!(num("a couple of blocks"), Some((2, 3)));
    assert_eq!(num("3 dozen eggs"), Some((36, 2)));
    assert_eq!(num("half a stack of stone"), Some((32, 4)));
    assert_eq!(num("a stack and a half of sand"), Some((96, 6)));
    assert_eq!(num("both of those"), Some((2, 2)));
    assert_eq!(num("a couple of blocks"), Some((2, 3)));
    assert_eq!(num("a few"), Some((3, 2)));
    assert_eq!(num("a dozen"), Some((12, 2)));
    assert_eq!(num("two dozen"), Some((24, 2)));
    assert_eq!(num("12 wide"), Some((12, 1)));
    assert_eq!(num("-3"), Some((-3, 1)));
    assert_eq!(num("2.5"), Some((3, 1)));
    assert_eq!(num("1,000"), Some((1000, 1)));
    assert_eq!(num("zero"), Some((0, 1)));
    assert_eq!(num("two hundred and five"), Some((205, 4)));
    assert_eq!(num("a hundred"), Some((100, 2)));
    assert_eq!(num("one hundred twenty"), Some((120, 3)));
    assert_eq!(num("three thousand"), Some((3000, 2)));
    assert_eq!(num("minus five"), Some((-5, 2)));
    assert_eq!(num("Five"), Some((5, 1)));
    // Not numbers, and where a number stops.
    assert_eq!(num("a"), None);
    assert_eq!(num("a tower"), None);
    assert_eq!(num("wide"), None);
    assert_eq!(num("twenty-zero"), None);
    assert_eq!(num("five three"), Some((5, 1)));
    assert_eq!(num("twenty and"), Some((20, 1)));
    assert_eq!(num("-"), None);
    assert_eq!(num("99999999999999999999999"), Some((numbers::CAP, 1)));
    let lx = lexicon();
    assert_eq!(lx.number(&["twenty", "five"], 0), Some((25, 2)));
    assert_eq!((lx.ordinal("third"), lx.ordinal("21st"), lx.ordinal("house")), (Some(3), Some(21), None));
}

#[test]
fn typed_readers() {
    let lx = lexicon();
    assert_eq!(lx.verb("construct"), Some(ActionType::Build));
    assert_eq!(lx.verb("dug"), Some(ActionType::Dig));
    assert_eq!(lx.verb("demolish"), Some(ActionType::Destroy));
    assert_eq!(lx.verb("house"), None);
    assert!(lx.step_verbs().any(|v| v == "come"));
    assert_eq!(lx.compass("Northwards"), Some(Compass::North));
    assert_eq!(Compass::East.offset(), (1, 0));
    assert_eq!(Compass::West.yaw(), 90.0);
    assert_eq!(lx.relative("ahead"), Some(RelativeDirection::Front));
    assert_eq!(lx.relative("behind"), Some(RelativeDirection::Back));
    assert_eq!(lx.relation_at(&words("on top of the house"), 0), Some((RelativeDirection::Up, 3)));
    assert_eq!(lx.relation_at(&words("on the top of it"), 0), Some((RelativeDirection::Up, 4)));
    assert_eq!(lx.unit("metres"), Some(1.0));
    assert_eq!(lx.unit("house"), None);
    assert_eq!(lx.dimension("tall"), Some(Dimension::Height));
    assert_eq!(lx.dimension("across"), Some(Dimension::Width));
    assert_eq!(lx.colour("Grey"), Some("gray"));
    assert_eq!(lx.colour("light-blue"), Some("light_blue"));
    assert_eq!(lx.colour("light_blue"), Some("light_blue"));
    assert_eq!(lx.colour("silver"), Some("light_gray"));
    assert_eq!(lx.colour("stone"), None);
    assert_eq!(lx.material("wooden"), Some("oak_planks"));
    assert_eq!(lx.material("red_sand"), Some("red_sandstone"));
    assert_eq!(lx.shape("box"), Some("cuboid"));
    assert_eq!(lx.size("large"), Some("big"));
}

#[test]
fn classes_and_phrases() {
    let lx = lexicon();
    assert!(lx.is(Class::Yes, "yeah") && lx.is(Class::No, "nope") && !lx.is(Class::Yes, "nope"));
    // Phrases match as written and as chat splits them.
    assert!(lx.is(Class::No, "don't") && lx.is(Class::No, "do n't") && lx.is(Class::Cancel, "never mind"));
    assert_eq!(lx.phrase_at(Class::Connector, &words("and then come here"), 0), Some(2));
    assert_eq!(lx.phrase_at(Class::Connector, &words("once you 're done"), 0), Some(4));
    assert_eq!(lx.phrase_at(Class::Connector, &words("a red tower"), 0), None);
    assert!(lx.phrases(Class::Connector).iter().any(|p| p == &words("when you 're done")));
    assert!(lx.any_in(Class::Here, &words("come over here")));
    assert!(lx.is(Class::By, "×") && lx.phrase_at(Class::By, &["×"], 0) == Some(1));
    assert_eq!(lx.text(Texts::Shorthand, "pls"), Some("please"));
    assert_eq!(lx.text_at(Texts::Rewrite, &words("get rid of it"), 0), Some(("destroy", 3)));
    assert_eq!(lx.words_for(Group::Shape, "cuboid").first().map(String::as_str), Some("cube"));
}
