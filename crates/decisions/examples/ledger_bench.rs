//! Ledger benchmarks: appends per second from one process; propose and report over 1,000,000
//! calibration-ledger rows; judgment search and recall over 100,000 and 1,000,000 records.
//! Each figure is printed beside a baseline measured in the same run (reading the same file
//! and counting its lines, or writing the same lines without the lock), and the ratio.
//!
//!     cargo run --release -p decisions --example ledger_bench
//!
//! Files go to a temporary directory and are removed afterwards.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use decisions::Band;
use decisions::judgment::{Judgment, recall, search};
use decisions::ledger::{
    DecisionRow, OutcomeRow, Row, append_row, calibration_report, propose_file, propose_thresholds, read_ledger,
    report_file,
};

const RUNS: usize = 5;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

fn baseline_read(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap_or_default();
    bytes.iter().filter(|b| **b == b'\n').count()
}

fn report(what: &str, took: Duration, base: Duration) {
    println!(
        "{what:<58} {:>9.1} ms   baseline {:>7.1} ms   ratio {:>5.1}",
        took.as_secs_f64() * 1e3,
        base.as_secs_f64() * 1e3,
        took.as_secs_f64() / base.as_secs_f64()
    );
}

/// A tiny deterministic generator, so every run measures the same data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 1_000_000) as f64 / 1_000_000.0
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);

    // Appends from one process: each a locked, one-line append of its own.
    let appends = 20_000;
    let path = dir.path().join("appends.jsonl");
    let row = |i: usize| {
        Row::Decision(DecisionRow {
            id: format!("d{i}"),
            ts: "2026-11-29T12:00:00Z".into(),
            consumer: "routing".into(),
            question: "effort".into(),
            provider: "jev".into(),
            model: "jev-1.13.0".into(),
            confidence: Some(0.8),
            certainty: Some(0.8),
            band: Band::Escalate,
            acted: false,
        })
    };
    let t = Instant::now();
    for i in 0..appends {
        append_row(&path, &row(i)).expect("append");
    }
    let took = t.elapsed();
    let plain = dir.path().join("plain.jsonl");
    let t = Instant::now();
    for i in 0..appends {
        let mut f = std::fs::OpenOptions::new().append(true).create(true).open(&plain).expect("open");
        let mut line = serde_json::to_vec(&row(i)).expect("json");
        line.push(b'\n');
        f.write_all(&line).expect("write");
    }
    let base = t.elapsed();
    println!(
        "{:<58} {:>9.0} /s   baseline {:>7.0} /s (open+write, no lock)   ratio {:.2}",
        format!("calibration ledger: appends, {appends} rows, one process"),
        appends as f64 / took.as_secs_f64(),
        appends as f64 / base.as_secs_f64(),
        took.as_secs_f64() / base.as_secs_f64()
    );

    // One million calibration rows: decisions and their outcomes, over 4 providers x 5 questions.
    let ledger = dir.path().join("ledger.jsonl");
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&ledger).expect("create"));
        let providers = ["jev", "generic", "openrouter", "vercel"];
        let questions = ["effort", "irreversible", "cosmetic", "kind", "destructive"];
        for i in 0..500_000usize {
            let c = rng.unit();
            let d = Row::Decision(DecisionRow {
                id: format!("{:016x}", rng.next()),
                ts: "2026-11-29T12:00:00Z".into(),
                consumer: "routing".into(),
                question: questions[i % 5].into(),
                provider: providers[(i / 5) % 4].into(),
                model: "jev-1.13.0".into(),
                confidence: Some(c),
                certainty: Some(c),
                band: Band::Escalate,
                acted: false,
            });
            let Row::Decision(ref dr) = d else { unreachable!() };
            let o = Row::Outcome(OutcomeRow {
                id: dr.id.clone(),
                ts: "2026-11-30T12:00:00Z".into(),
                correct: Some(rng.unit() < 0.5 + c / 2.0),
                note: None,
            });
            for r in [d, o] {
                serde_json::to_writer(&mut w, &r).expect("write");
                w.write_all(b"\n").expect("write");
            }
        }
    }
    let base = time(|| baseline_read(&ledger));
    report("calibration ledger: propose_file, 1,000,000 rows", time(|| propose_file(&ledger).expect("propose")), base);
    report("calibration ledger: report_file, 1,000,000 rows", time(|| report_file(&ledger).expect("report")), base);
    report(
        "calibration ledger: read_ledger + propose_thresholds (owned rows)",
        time(|| propose_thresholds(&read_ledger(&ledger).expect("read").records)),
        base,
    );
    let _ = calibration_report;

    // Judgment ledgers of 100,000 and 1,000,000 records over 50 projects.
    let words = [
        "merge",
        "release",
        "storage",
        "rewrite",
        "cache",
        "deploy",
        "friday",
        "rollback",
        "schema",
        "migration",
        "リリース",
        "判断",
        "移行",
        "auth",
        "token",
        "queue",
        "retry",
        "budget",
        "review",
        "panel",
    ];
    for n in [100_000usize, 1_000_000] {
        let path = dir.path().join(format!("judgments-{n}.jsonl"));
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        for i in 0..n {
            let mut q = String::new();
            for _ in 0..8 {
                q.push_str(words[(rng.next() % words.len() as u64) as usize]);
                q.push(' ');
            }
            let j = Judgment {
                id: format!("{:016x}", rng.next()),
                project: format!("project-{}", i % 50),
                decided_at: format!("2026-{:02}-{:02}T10:00:00Z", 1 + i % 12, 1 + i % 28),
                question: q.trim().to_string(),
                answer: words[i % words.len()].into(),
                rationale: "because the evidence said so".into(),
                card_ref: format!("cards/{i}.json"),
                tags: vec![words[(i * 7) % words.len()].into()],
            };
            serde_json::to_writer(&mut w, &j).expect("write");
            w.write_all(b"\n").expect("write");
        }
        drop(w);
        let base = time(|| baseline_read(&path));
        report(
            &format!("judgment: search, {n} records (one project of 50)"),
            time(|| search(&path, "project-7", "release storage migration").expect("search")),
            base,
        );
        report(
            &format!("judgment: recall, {n} records (one project of 50)"),
            time(|| recall(&path, "project-7", "merge the storage rewrite before the release?").expect("recall")),
            base,
        );
        if n == 1_000_000 {
            // The worst case for the project filter: every record is the project's.
            let one = dir.path().join("judgments-one-project.jsonl");
            let text = std::fs::read_to_string(&path).expect("read");
            let re = text
                .lines()
                .map(|l| {
                    let mut j: Judgment = serde_json::from_str(l).expect("record");
                    j.project = "solo".into();
                    serde_json::to_string(&j).expect("json")
                })
                .collect::<Vec<_>>()
                .join("\n");
            std::fs::write(&one, re + "\n").expect("write");
            let base = time(|| baseline_read(&one));
            report(
                "judgment: search, 1,000,000 records (all one project)",
                time(|| search(&one, "solo", "release storage migration").expect("search")),
                base,
            );
            report(
                "judgment: recall, 1,000,000 records (all one project)",
                time(|| recall(&one, "solo", "merge the storage rewrite before the release?").expect("recall")),
                base,
            );
        }
    }
}
