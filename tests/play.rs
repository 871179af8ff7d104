//! The `craftmate play` REPL driven through stdin, as a person would type at it.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(input: &str) -> (i32, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["play", "--name", "alice"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect())
}

#[test]
fn commands_edit_and_inspect_the_world() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("world.json");
    let script = format!(
        "/where\n/setblock 2 5 2 red_wool\n/fill 4 5 -2 4 7 -2 blue_concrete\n/map 4\n/tp ~1 ~ ~\n/look 180 0\n/save {0}\n/setblock 2 5 2 air\n/load {0}\n/map 4\n/quit\nthis line is never read\n",
        save.display()
    );
    let (code, lines) = play(&script);
    assert_eq!(code, 0);
    assert!(lines[0].contains("you are alice"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "* you are at (3, 5, 0), the bot is at (0, 5, 0) (3.0 blocks away)"), "{lines:?}");
    assert!(lines.contains(&"* set (2, 5, 2) to red_wool".to_string()));
    assert!(lines.contains(&"* filled 3 blocks with blue_concrete".to_string()));
    // The first map: 9 rows of 9 cells centred on alice, the bot two columns left of her.
    let map_start = lines.iter().position(|l| l.starts_with(",,,,,,,,,")).unwrap();
    let map: Vec<&String> = lines[map_start..map_start + 9].iter().collect();
    assert_eq!(map[4], ",@,,P,,,,", "{map:?}");
    assert_eq!(&map[6][3..4], "R");
    assert_eq!(&map[2][5..6], "B");
    assert!(lines.iter().any(|l| l.starts_with("legend:") && l.contains("R=red") && l.contains("B=blue")));
    assert!(lines.contains(&"* you are at (4, 5, 0)".to_string()));
    // Load brought the red block back after it was removed.
    let second_map = lines.iter().rposition(|l| l.starts_with("legend:")).unwrap();
    assert!(lines[second_map].contains("R=red"), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "* bye");
    assert!(!lines.iter().any(|l| l.contains("never read")));
}

#[test]
fn bad_input_gets_clear_answers_not_crashes() {
    let long = "x".repeat(5000);
    let script = format!("/bogus\n/tp 1 2\n/setblock 0 5 0 unobtainium\n/fill 0 0 0 999 99 999 stone\n/load /no/such/file\n\n   \n{long}\n🙂🙂🙂\n'; DROP TABLE memories; --\n/help\n");
    let (code, lines) = play(&script);
    assert_eq!(code, 0, "EOF ends the session normally");
    assert!(lines.contains(&"* unknown command /bogus; /help lists them".to_string()));
    assert!(lines.contains(&"* usage: /tp X Y Z".to_string()));
    assert!(lines.iter().any(|l| l.contains("unknown block \"unobtainium\"")));
    assert!(lines.iter().any(|l| l.contains("/fill edits at most")));
    assert!(lines.iter().any(|l| l.starts_with("* could not load /no/such/file")));
    assert!(lines.iter().any(|l| l.contains("/tp X Y Z")), "help is printed at the end");
}
