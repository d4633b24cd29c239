//! Train the builtin model from `model/labels/` and the sets by others it trains on
//! (`train::SETS`) and write what the binary embeds:
//! `crates/decisions/src/builtin/weights.bin` and `model.txt` (its name), and the held-out rows
//! as `model/heldout.jsonl` (the input `decisions eval --provider builtin` reads). Deterministic:
//! the same rows give the same bytes, which a test checks.
//!
//!     cargo run --release -p decisions --example builtin_train

use std::path::Path;

use decisions::builtin::train;
use serde_json::json;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/builtin");
    let fail = |e: &dyn std::fmt::Display| -> ! {
        eprintln!("error: {e}");
        std::process::exit(1);
    };
    // The features read the embedded word list: a changed list is written, and the binary must
    // be built again with it before the weights mean anything.
    let mut changed = false;
    for (file, list) in train::dictionary(&root.join("model/data")).unwrap_or_else(|e| fail(&e)) {
        if std::fs::read_to_string(out.join(file)).ok().as_deref() != Some(list.as_str()) {
            std::fs::write(out.join(file), &list).unwrap_or_else(|e| fail(&format!("write {file}: {e}")));
            eprintln!("wrote src/builtin/{file} ({} pages)", list.lines().count());
            changed = true;
        }
    }
    if changed {
        eprintln!("run this again, with the lists built in, to train on them");
        std::process::exit(2);
    }
    let t = train::train(&root).unwrap_or_else(|e| fail(&e));
    let (shipped, heldout) = (train::name(&t.shipped), format!("{}-heldout", train::name(&t.heldout)));
    std::fs::write(out.join("weights.bin"), &t.shipped).expect("write weights.bin");
    std::fs::write(out.join("weights-heldout.bin"), &t.heldout).expect("write weights-heldout.bin");
    std::fs::write(out.join("model.txt"), format!("{shipped}\n{heldout}\n")).expect("write model.txt");
    let lines: String = t
        .held
        .iter()
        .map(|e| {
            let line = json!({"id": e.id, "state": {"command": e.command, "cwd": "/home/dev/project"}, "label": e.level,
                "tool": e.tool, "kind": e.kind, "unsure": e.unsure});
            format!("{line}\n")
        })
        .collect();
    std::fs::write(root.join("model/heldout.jsonl"), lines).expect("write heldout.jsonl");
    let tools: std::collections::BTreeSet<&str> = t.held.iter().map(|e| e.tool.as_str()).collect();
    for (name, bytes) in [(&shipped, &t.shipped), (&heldout, &t.heldout)] {
        let m = decisions::builtin::Model::from_bytes(bytes).expect("the bytes train wrote");
        let t = m.temperatures;
        println!(
            "{name}: {} bytes, temperatures {:.2} (programs seen), {:.2} (unseen), unseen shift {:?}",
            bytes.len(),
            t.seen,
            t.unseen,
            t.shift
        );
    }
    println!("held out {} rows over {} tools (model/heldout.jsonl)", t.held.len(), tools.len());
}
