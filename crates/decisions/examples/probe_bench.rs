//! The routing evidence's reference probe over a generated repository of 10,000 files, beside
//! `grep` over the same tree in the same run: `grep -rlF --exclude-dir=.git -f PATTERNS .`, one
//! pass that lists the files mentioning any of the paths (the probe does more: a count per
//! path, honouring .gitignore, skipping binaries and files over 1 MiB).
//!
//!     cargo run --release -p decisions --example probe_bench [-- FILES ROUNDS]
//!
//! Prints the median of ROUNDS (default 7) for each, and their ratio.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use decisions::consumer::routing::{Probe, RepoProbe};

/// Write the tree; each file's size in bytes.
fn generate(root: &Path, files: usize, paths: &[String]) -> usize {
    std::fs::create_dir_all(root.join(".git")).expect("git");
    std::fs::write(root.join(".gitignore"), "target/\n").expect("gitignore");
    let filler = "fn step(x: u64) -> u64 { x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) }\n";
    for i in 0..files {
        let dir = root.join(format!("src/m{:03}", i % 100));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let mut text = filler.repeat(20);
        // One file in seven mentions one of the paths.
        if i % 7 == 0 {
            text.push_str(&format!("// see {}\n", paths[i % paths.len()]));
        }
        std::fs::write(dir.join(format!("f{i:05}.rs")), text).expect("write");
    }
    // Ignored output and a binary file, as a real tree has.
    std::fs::create_dir_all(root.join("target")).expect("target");
    std::fs::write(root.join("target/out.txt"), paths.join("\n")).expect("write");
    std::fs::write(root.join("logo.bin"), [0u8, 1, 2, 3].repeat(1000)).expect("write");
    filler.len() * 20
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let files: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().join("repo");
    let paths: Vec<String> = (0..5).map(|i| format!("src/m{i:03}/f{i:05}.rs")).collect();
    let size = generate(&root, files, &paths);
    let patterns = dir.path().join("patterns.txt");
    std::fs::write(&patterns, paths.join("\n")).expect("write");
    let probe = RepoProbe { root: root.clone(), budget: Duration::from_secs(60) };

    // Warm the page cache for both.
    let counts = probe.references(&paths);
    assert!(counts.incomplete.is_none());
    let grep = || {
        Command::new("grep")
            .args(["-rlF", "--exclude-dir=.git", "-f"])
            .arg(&patterns)
            .arg(".")
            .current_dir(&root)
            .output()
            .expect("grep runs")
    };
    let listed = String::from_utf8_lossy(&grep().stdout).lines().count();

    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        let r = probe.references(&paths);
        ours.push(t.elapsed());
        assert_eq!(r.counts, counts.counts);
        let t = Instant::now();
        grep();
        theirs.push(t.elapsed());
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!("repository: {files} files of about {size} bytes, {} paths to count", paths.len());
    println!("probe counts: {:?}", counts.counts.values().collect::<Vec<_>>());
    println!("grep lists {listed} files (it also reads the ignored target/)");
    println!("probe (RepoProbe::references), median of {rounds}: {:.1} ms", ours.as_secs_f64() * 1000.0);
    println!("grep -rlF -f (baseline), median of {rounds}:        {:.1} ms", theirs.as_secs_f64() * 1000.0);
    println!("probe / grep: {:.2}", ours.as_secs_f64() / theirs.as_secs_f64());
}
