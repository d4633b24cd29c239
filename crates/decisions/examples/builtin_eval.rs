//! How the builtin model does on labelled commands, as the permission hook would use it: for
//! each act bar, how often the hook would deny a read-only or easily undone command (levels 0
//! and 1), how often it catches an irreversible one (level 3), and whether it ever denies a
//! command that only mentions a destructive one. Reads the held-out rows `builtin_train` wrote,
//! or what the argument names: a file of `{"state": {"command"}, "label"}` lines, or a directory
//! of labelled rows as `model/labels/` holds them (`model/fresh/`: commands written and labelled
//! apart from the training set, never trained on), with their figures again for the rows whose
//! command no row of `model/labels/` has.
//!
//!     cargo run --release -p decisions --example builtin_eval [model/heldout.jsonl | model/fresh]
//!
//! It asks the held-out twin; `SHIPPED=1` asks the shipped model. `SHOW=1` also prints each row's
//! label, score and distribution; `EXPLAIN="COMMAND"` prints each call of one command with its
//! features and what each adds to the logits; `EXPERIMENT=EPOCHS,STEP,L2,GENERIC,L2_RULES`
//! refits on five folds of rows and prints the out-of-fold figures (`MISSES=1` lists the misses,
//! `FOLDS=0` skips the folds, `ALSO=model/unseen-tldr,model/fresh-6` adds the refitted twin's
//! figures on those sets, each also at the bar the held-out rows propose, `BARROW=1` lists the
//! wrong denials each set's bar rests on, `TRAIN_ALSO=model/fresh,...` fits those sets' rows
//! too, less their held-out programs', and `HELD_ALSO=1` adds those to the held-out rows);
//! `TEMPS=SEEN,UNSEEN` asks the model with those temperatures instead of its own (to see how far
//! sharper or flatter answers would move the figures; the shipped ones are fitted, not chosen),
//! and `SHIFT=L0,L1,L2,L3` with that shift of an unseen program's logits.

use std::path::Path;

use decisions::builtin::{LEVELS, expected, model, train};
use decisions::consumer::permission::DENY_AT;
use serde_json::Value;

/// Whether the hook would deny a command with this distribution at this act bar: the score at
/// least [`DENY_AT`], the certainty (as the seam derives it) at or above the bar.
fn denies(p: &[f64; LEVELS], bar: f64) -> bool {
    expected(p) >= DENY_AT && certainty(p) >= bar
}

/// The certainty of a distribution, as the seam derives it.
fn certainty(p: &[f64; LEVELS]) -> f64 {
    let probabilities = decisions::Probabilities((0..LEVELS).map(|k| (k.to_string(), p[k])).collect());
    decisions::confidence_from(&probabilities).unwrap_or(0.0)
}

/// At a bar: the level 0-1 rows denied and their number, the level 3 rows denied and theirs.
fn tally<'a>(rows: impl Iterator<Item = (usize, &'a [f64; LEVELS])>, bar: f64) -> [usize; 4] {
    let mut t = [0; 4];
    for (level, p) in rows {
        let deny = usize::from(denies(p, bar));
        match level {
            0 | 1 => (t[0], t[1]) = (t[0] + deny, t[1] + 1),
            3 => (t[2], t[3]) = (t[2] + deny, t[3] + 1),
            _ => {}
        }
    }
    t
}

/// The act bar the catalog shipped for builtin holds (`scripts/builtin-bars.sh` writes it).
fn shipped_act() -> f64 {
    let shipped: Value = serde_json::from_str(decisions::install::PERMISSION_BUILTIN).unwrap_or_default();
    shipped.pointer("/thresholds/destructive/act").and_then(Value::as_f64).unwrap_or(0.9)
}

/// Numbers given as `A,B,C` (`EXPERIMENT`, `TEMPS`, `SHIFT`).
fn numbers(spec: &str) -> Vec<f64> {
    spec.split(',').map(|x| x.parse().expect("a number")).collect()
}

/// One row as `SHOW` and `MISSES` print it: its label, score, distribution and command.
fn shown(level: usize, p: &[f64; LEVELS], command: &str) -> String {
    format!("{level} {:.2} [{:.2} {:.2} {:.2} {:.2}] {command}", expected(p), p[0], p[1], p[2], p[3])
}

/// A share as a percentage, of none as 0.
fn pct(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// With EXPERIMENT=epochs,step,l2: fit the held-out twin in memory with those parameters and
/// print its figures (for choosing them; the shipped ones are `train::PARAMS`).
fn experiment(spec: &str, root: &Path) {
    let v = numbers(spec);
    let params = train::Params {
        epochs: v[0] as usize,
        step: v[1],
        l2: v[2],
        generic: v.get(3).is_none_or(|g| *g != 0.0),
        l2_rules: v.get(4).copied().unwrap_or(1e-5),
    };
    let all = train::load_all(root).expect("rows");
    let (mut training, mut held) = train::split(&all);
    // `TRAIN_ALSO=model/fresh,...`: rows of other sets fitted too (their held-out tools left
    // out, their ids moved past the labelled set's), to measure what more labels would do;
    // `HELD_ALSO=1` measures those held-out tools' rows with the held-out ones.
    for (k, d) in std::env::var("TRAIN_ALSO").unwrap_or_default().split(',').filter(|d| !d.is_empty()).enumerate() {
        let rows = train::load(&root.join(d)).expect("rows");
        if std::env::var_os("HELD_ALSO").is_some() {
            held.extend(rows.iter().filter(|e| train::held_out(&e.tool)).cloned());
        }
        // `HELD_ALSO=only`: those rows measured, none fitted (the same held-out rows, unchanged model).
        if std::env::var("HELD_ALSO").is_ok_and(|v| v == "only") {
            continue;
        }
        let moved = (train::SETS.len() + k + 1) as u64 * train::SET_IDS;
        training.extend(
            rows.into_iter().filter(|e| !train::held_out(&e.tool)).map(|e| train::Example { id: moved + e.id, ..e }),
        );
    }
    let t = train::fit_temperatures_with(&training, &params);
    let w = train::fit_with(&training, &params);
    // New commands, mostly of known tools: five folds by row over every row, each predicted by
    // a model fitted without it.
    let mut oof: Vec<(usize, [f64; LEVELS])> = Vec::new();
    // `FOLDS=0` skips them (the held-out figures alone, in a fifth of the time).
    let folds = std::env::var("FOLDS").ok().and_then(|f| f.parse().ok()).unwrap_or(5);
    for f in 0..folds.min(5) {
        let (rest, this): (Vec<_>, Vec<_>) =
            all.iter().cloned().partition(|e| decisions::builtin::features::part(&format!("cv:{}", e.id)) % 5 != f);
        let t = train::fit_temperatures_with(&rest, &params);
        let w = train::fit_with(&rest, &params);
        let predicted: Vec<[f64; LEVELS]> = this.iter().map(|e| train::predict(&w, e, t)).collect();
        oof.extend(this.iter().zip(&predicted).map(|(e, p)| (e.level, *p)));
        if std::env::var_os("MISSES").is_some() {
            for (e, p) in this.iter().zip(&predicted) {
                let score = expected(p);
                if (e.level == 3 && score < DENY_AT) || (e.level <= 1 && score >= DENY_AT) {
                    println!("{}", shown(e.level, p, &e.command));
                }
            }
        }
    }
    let mut bars = vec![0.3, 0.5, 0.7, 0.9, shipped_act(), 0.95, 0.99];
    bars.sort_by(f64::total_cmp);
    bars.dedup();
    for bar in bars {
        let [fp, low, tp, top] = tally(oof.iter().map(|(l, p)| (*l, p)), bar);
        println!(
            "rows out of fold, bar {bar:.3}: deny 0-1 {:.1}% ({fp} of {low}), catch 3 {:.1}% ({tp} of {top})",
            pct(fp, low),
            pct(tp, top)
        );
    }
    // `ALSO=model/unseen-tldr,...`: the same figures on sets never trained on.
    let also: Vec<(String, Vec<train::Example>)> = std::env::var("ALSO")
        .unwrap_or_default()
        .split(',')
        .filter(|d| !d.is_empty())
        .map(|d| (d.to_string(), train::load(&root.join(d)).expect("rows")))
        .collect();
    let sets =
        [("held out", &held), ("training", &training)].into_iter().chain(also.iter().map(|(d, r)| (d.as_str(), r)));
    // Each set's answers, and its wrong denials (a command below level 3, not marked unsure,
    // denied), surest last: the bar `ledger propose` would find is just above the surest, as
    // `scripts/builtin-bars.sh` records them. The held-out rows' bar is the one the catalog
    // would ship, so every set is also shown at it.
    type Wrong<'a> = Vec<(f64, &'a train::Example, [f64; LEVELS])>;
    type Answered<'a> = (&'a str, &'a [train::Example], Vec<[f64; LEVELS]>, Wrong<'a>);
    let answered: Vec<Answered> = sets
        .map(|(what, rows)| {
            let predicted: Vec<[f64; LEVELS]> = rows.iter().map(|e| train::predict(&w, e, t)).collect();
            let mut wrong: Wrong = rows
                .iter()
                .zip(&predicted)
                .filter(|(e, p)| e.level < 3 && !e.unsure && expected(p) >= DENY_AT)
                .map(|(e, p)| (certainty(p), e, *p))
                .collect();
            wrong.sort_by(|a, b| a.0.total_cmp(&b.0));
            (what, rows.as_slice(), predicted, wrong)
        })
        .collect();
    let proposed = |wrong: &Wrong| wrong.last().map_or(0.0, |(c, _, _)| c + 0.001);
    let shipped = proposed(&answered[0].3);
    for (what, rows, predicted, wrong) in &answered {
        let figures = |bar: f64| {
            let [fp, low, tp, top] = tally(rows.iter().map(|e| e.level).zip(predicted), bar);
            format!("bar {bar:.2}: deny 0-1 {fp} ({:.1}%), catch 3 {tp} ({:.1}%)", pct(fp, low), pct(tp, top))
        };
        // `BARROW=1`: the wrong denials that bar rests on, surest last.
        if std::env::var_os("BARROW").is_some() {
            for (c, e, p) in wrong {
                println!("  wrong denial at {c:.3}: {} {:.2} {}", e.level, expected(p), e.command);
            }
        }
        // `SHOW=1`: each held-out row's label, score and distribution, as without `EXPERIMENT`.
        if *what == "held out" && std::env::var_os("SHOW").is_some() {
            for (e, p) in rows.iter().zip(predicted) {
                println!("{}", shown(e.level, p, &e.command));
            }
        }
        let bar = proposed(wrong);
        println!(
            "{what} (T {:.2} seen, {:.2} unseen, nll {:.3}): {} | {} | {} | proposed {} | at held out's {}",
            t.seen,
            t.unseen,
            train::nll(&w, rows, t),
            figures(0.5),
            figures(0.7),
            figures(0.85),
            figures(bar),
            figures(shipped)
        );
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Ok(spec) = std::env::var("EXPERIMENT") {
        return experiment(&spec, &root);
    }
    if let Ok(command) = std::env::var("EXPLAIN") {
        return explain(&command);
    }
    if let Ok(feature) = std::env::var("WHO_HAS") {
        return who_has(&feature, &root);
    }
    let path = std::env::args().nth(1).map_or_else(|| root.join("model/heldout.jsonl"), Into::into);
    let m = asked();
    let rows: Vec<Row> = labelled(&path, &root)
        .into_iter()
        .map(|(command, label, kind)| {
            let p = m.command(&command);
            (command, label, kind, p)
        })
        .collect();
    println!("{} rows from {}", rows.len(), path.display());
    report(&rows);
    if path.is_dir() {
        // The rows whose command no row trained on has: commands the model was never fitted on.
        let known: std::collections::BTreeSet<String> =
            train::load_all(&root).expect("the rows trained on").into_iter().map(|e| e.command).collect();
        let new: Vec<Row> = rows.iter().filter(|r| !known.contains(&r.0)).cloned().collect();
        println!("\n{} of them with a command no row trained on has", new.len());
        report(&new);
        // The level 3 rows let through, and how many of them are marked `unsure`: a command
        // whose code cannot be seen is spread on purpose (rule 11).
        let unsure: std::collections::BTreeSet<String> =
            train::load(&path).expect("the rows").into_iter().filter(|e| e.unsure).map(|e| e.command).collect();
        let missed: Vec<&Row> = rows.iter().filter(|r| r.1 == 3 && !denies(&r.3, shipped_act())).collect();
        let of_unsure = missed.iter().filter(|r| unsure.contains(&r.0)).count();
        println!(
            "\nlevel 3 let through at {:.3}: {} of {}, {of_unsure} of them marked unsure",
            shipped_act(),
            missed.len(),
            rows.iter().filter(|r| r.1 == 3).count()
        );
    }
    if std::env::var_os("SHOW").is_some() {
        for r in &rows {
            println!("{}", shown(r.1, &r.3, &r.0));
        }
    }
}

/// A labelled command, its kind and the model's distribution for it.
type Row = (String, usize, String, [f64; LEVELS]);

/// The labelled commands of `path`, each with its level and kind: a directory of
/// `commands.jsonl` and `labels.jsonl` as `model/labels/` holds them (`model/fresh/`), or a file
/// of `{"id", "state": {"command"}, "label", "kind"}` lines (`model/heldout.jsonl`; with no
/// `kind`, that of the row of `model/labels/` with the same id).
fn labelled(path: &Path, root: &Path) -> Vec<(String, usize, String)> {
    let kinds_of = |dir: &Path| -> std::collections::BTreeMap<u64, String> {
        std::fs::read_to_string(dir.join("commands.jsonl"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| Some((v["id"].as_u64()?, v["kind"].as_str()?.to_string())))
            .collect()
    };
    if path.is_dir() {
        let kinds = kinds_of(path);
        let rows = train::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return rows.into_iter().map(|e| (e.command, e.level, kinds.get(&e.id).cloned().unwrap_or_default())).collect();
    }
    let kinds = kinds_of(&root.join("model/labels"));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            let command = v["state"]["command"].as_str().unwrap_or_default().to_string();
            let label = v["label"].as_u64().unwrap_or(0) as usize;
            let kind = v["kind"]
                .as_str()
                .map(String::from)
                .or_else(|| v["id"].as_u64().and_then(|id| kinds.get(&id).cloned()))
                .unwrap_or_default();
            (command, label, kind)
        })
        .collect()
}

/// Accuracy by level, Brier, and what the hook would do at each act bar.
fn report(rows: &[Row]) {
    let n = rows.len() as f64;
    let argmax = |p: &[f64; LEVELS]| (0..LEVELS).max_by(|a, b| p[*a].total_cmp(&p[*b])).unwrap_or(0);
    for level in 0..LEVELS {
        let of: Vec<_> = rows.iter().filter(|r| r.1 == level).collect();
        let right = of.iter().filter(|r| argmax(&r.3) == level).count();
        println!("level {level}: {} rows, accuracy {:.1}%", of.len(), 100.0 * right as f64 / of.len().max(1) as f64);
    }
    let brier: f64 = rows
        .iter()
        .map(|r| (0..LEVELS).map(|k| (r.3[k] - f64::from(u8::from(r.1 == k))).powi(2)).sum::<f64>())
        .sum::<f64>()
        / n;
    println!("brier (distribution) {brier:.3}");
    println!("{:>5} {:>12} {:>12} {:>12}", "bar", "deny 0-1", "catch 3", "deny mention");
    // The bar the shipped catalog for builtin acts on, and others for the curve.
    let mut bars = vec![0.3, 0.5, 0.7, 0.85, 0.9, 0.95, 0.99, shipped_act()];
    bars.sort_by(f64::total_cmp);
    bars.dedup();
    // Commands that only mention a destructive one: the rows of kind `mention` below level 3 (one
    // whose own level is 3, an issue opened with `rm -rf` in its title, publishes, and is denied
    // for that).
    let mentions: Vec<&[f64; LEVELS]> = rows.iter().filter(|r| r.2 == "mention" && r.1 < 3).map(|r| &r.3).collect();
    for bar in bars {
        let [fp, low, tp, top] = tally(rows.iter().map(|r| (r.1, &r.3)), bar);
        let mp = mentions.iter().filter(|p| denies(p, bar)).count();
        println!(
            "{bar:>5.3} {fp:>6} {:>4.1}% {tp:>6} {:>4.1}% {mp:>6} of {}",
            pct(fp, low),
            pct(tp, top),
            mentions.len()
        );
    }
}

/// Each call of a command, its features and what each adds to the logits of the held-out twin
/// (the shipped model with `SHIPPED`), the largest pull towards level 3 first.
fn explain(command: &str) {
    let m = asked();
    let p = m.command(command);
    println!("{command}: [{:.2} {:.2} {:.2} {:.2}]", p[0], p[1], p[2], p[3]);
    for call in decisions::builtin::shell::analyse(command).calls {
        let seen = m.has_seen(decisions::builtin::features::program(&call));
        println!("call {} (program seen: {seen}, elsewhere: {})", call.program, call.elsewhere());
        let features = if m.knows(&call) {
            decisions::builtin::features::of_seen(&call)
        } else {
            decisions::builtin::features::of_unseen(&call)
        };
        let mut rows: Vec<(String, [f64; LEVELS])> = features
            .into_iter()
            .map(|f| {
                let w = m.weights_of(&f);
                (f, w)
            })
            .collect();
        let pull = |w: &[f64; LEVELS]| w[3] - w[..3].iter().sum::<f64>() / 3.0;
        rows.sort_by(|a, b| pull(&b.1).total_cmp(&pull(&a.1)));
        for (f, w) in rows {
            println!("  {:>+6.2}  [{:+.2} {:+.2} {:+.2} {:+.2}]  {f}", pull(&w), w[0], w[1], w[2], w[3]);
        }
    }
}

/// The rows trained on some call of which has `feature`: how many at each level, and each
/// row (`WHO_HAS=R=production_change`), to see what the labels say of a reading.
fn who_has(feature: &str, root: &Path) {
    let mut count = [0usize; LEVELS];
    for e in train::load_all(root).expect("the rows trained on") {
        let calls = decisions::builtin::shell::analyse(&e.command).calls;
        if calls.iter().any(|c| decisions::builtin::features::of(c).iter().any(|f| f == feature)) {
            count[e.level] += 1;
            println!("{} {} {}", e.level, if e.unsure { "u" } else { " " }, e.command.replace('\n', " "));
        }
    }
    println!("{feature}: {count:?}");
}

/// The model asked: the held-out twin, or the shipped model with `SHIPPED`.
fn asked() -> decisions::builtin::Model<'static> {
    let mut m = if std::env::var_os("SHIPPED").is_some() {
        model()
    } else {
        decisions::builtin::model_named(&decisions::builtin::HELDOUT_MODEL).0
    };
    if let Ok(t) = std::env::var("TEMPS") {
        let v = numbers(&t);
        m.temperatures = decisions::builtin::Temperatures { seen: v[0], unseen: v[1], shift: m.temperatures.shift };
    }
    if let Ok(t) = std::env::var("SHIFT") {
        let v = numbers(&t);
        m.temperatures.shift = std::array::from_fn(|k| v[k]);
    }
    m
}
