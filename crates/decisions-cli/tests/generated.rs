//! Generated files on disk are exactly what the code generates now.

use std::path::PathBuf;

use assert_cmd::Command;

fn repo_file(rel: &str) -> (PathBuf, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    (path, text)
}

fn generated(subcommand: &str) -> String {
    let out = Command::cargo_bin("decisions").expect("binary").arg(subcommand).output().expect("runs");
    assert!(out.status.success(), "decisions {subcommand} failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn assert_pinned(subcommand: &str, rel: &str) {
    let (path, on_disk) = repo_file(rel);
    assert!(
        on_disk == generated(subcommand),
        "{} differs from what the code generates now; regenerate it with: cargo run -q -p decisions-cli -- {subcommand} > {rel}",
        path.display()
    );
}

#[test]
fn catalog_schema_on_disk_is_generated() {
    assert_pinned("schema", "schemas/catalog.schema.json");
}

#[test]
fn provider_templates_on_disk_are_generated() {
    assert_pinned("providers", "schemas/providers.json");
}
