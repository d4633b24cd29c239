//! The command-line surface, pinned: every subcommand's help as a user reads it. A change to a
//! flag, a default or a help line shows here as a snapshot diff to accept or fix.

use assert_cmd::Command;

const SUBCOMMANDS: [&str; 19] = [
    "ask",
    "validate",
    "schema",
    "providers",
    "ledger",
    "judgment",
    "card",
    "install",
    "remove",
    "status",
    "doctor",
    "hook",
    "route",
    "review",
    "triage",
    "batch",
    "eval",
    "watch",
    "mcp",
];

fn help(args: &[&str]) -> String {
    let out = Command::cargo_bin("decisions").expect("binary").args(args).arg("--help").output().expect("runs");
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_top_level_help_lists_every_subcommand() {
    let text = help(&[]);
    for s in SUBCOMMANDS {
        assert!(text.lines().any(|l| l.trim_start().starts_with(s)), "{s} missing from\n{text}");
    }
    insta::assert_snapshot!("top", text);
}

#[test]
fn each_subcommand_help_reads_as_pinned() {
    for s in SUBCOMMANDS {
        insta::assert_snapshot!(s, help(&[s]));
    }
}
