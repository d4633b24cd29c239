//! Training the builtin model, deterministically: the same labelled rows give the same bytes.
//!
//! Rows come from `model/labels/` (`commands.jsonl` and the settled `labels.jsonl`) and from the
//! sets others wrote and were labelled the same way that are trained on ([`SETS`]), and the
//! program descriptions from `model/data/tldr-examples.jsonl` ([`super::dictionary`]). Whole
//! tools are held out for evaluation: a fifth of them, by a hash of their name. Two models are
//! fitted the same way: the held-out twin on the other tools' rows, which the held-out
//! figures and the shipped bars are measured with, and the shipped model on every row.
//!
//! Each is fitted by full-batch Adam on the likelihood of each command's label under the
//! highest-of-its-calls distribution, with L2. Every row is fitted twice: as it is, and with
//! the features that name its program taken out, so that what a call does (its subcommand,
//! flags, paths, what tldr-pages says the program does) carries weight of its own for programs
//! no row names. A row marked `unsure` is a soft target (most of its mass on its level, the
//! rest spread), so what the labels could not decide stays undecided. Two temperatures are
//! fitted on out-of-fold predictions and written with the weights: one for calls of programs
//! the model has seen (five folds of rows), one for programs it has not (five folds of whole
//! programs).

use std::path::Path;

use serde_json::Value;

use super::features::{BUCKETS, bucket, generic_buckets};
use super::shell::analyse;
use super::{LEVELS, Temperatures, softmax};

/// How a model is fitted.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Passes over the training rows.
    pub epochs: usize,
    /// Adam's step.
    pub step: f64,
    /// The L2 weight.
    pub l2: f64,
    /// Whether each row is fitted a second time without the features naming its program.
    pub generic: bool,
    /// The L2 weight of the rule facts.
    pub l2_rules: f64,
}

/// The parameters the shipped model is fitted with.
pub const PARAMS: Params = Params { epochs: 600, step: 0.05, l2: 3e-4, generic: true, l2_rules: 1e-6 };
/// The sets written by others, labelled by the same rules, that are trained on beside
/// `model/labels/`; the k-th's row `id` is read as `k * 1,000,000 + id` (`model/fresh/`'s row 17
/// is row 1000017). The later sets (`model/fresh-8/` on) and the long tail are never trained on:
/// they measure.
pub const SETS: [&str; 7] = [
    "model/fresh",
    "model/fresh-sessions",
    "model/fresh-3",
    "model/fresh-4",
    "model/fresh-5",
    "model/fresh-6",
    "model/fresh-7",
];
/// How far apart the rows of the sets' ids are put.
pub const SET_IDS: u64 = 1_000_000;
/// The mass an `unsure` row puts on its own level.
const UNSURE_MASS: f64 = 0.6;

/// One labelled command, as the model sees it.
#[derive(Debug, Clone)]
pub struct Example {
    /// The row's id.
    pub id: u64,
    /// The command.
    pub command: String,
    /// The tool its label turns on.
    pub tool: String,
    /// Its kind (`plain`, `mention`, ...), as its writer gave it.
    pub kind: String,
    /// The level.
    pub level: usize,
    /// Whether the labellers marked it unsure.
    pub unsure: bool,
    /// Each call's buckets.
    pub calls: Vec<Vec<usize>>,
    /// Each call's program ([`super::features::program`]).
    pub programs: Vec<Option<u32>>,
    /// Each call's buckets without the features that name its program.
    pub generic: Vec<Vec<usize>>,
    /// The buckets of its rule facts.
    pub rules: Vec<usize>,
    /// Where each call runs ([`super::Place`]).
    pub places: Vec<super::Place>,
    /// The distribution it is fitted to.
    pub target: [f64; LEVELS],
}

/// Why the rows could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {what}")]
pub struct DataError {
    /// The file.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// Read the labelled rows: `commands.jsonl` joined with `labels.jsonl` by id.
pub fn load(dir: &Path) -> Result<Vec<Example>, DataError> {
    let read = |name: &str| -> Result<Vec<Value>, DataError> {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| DataError {
            file: path.display().to_string(),
            line: 0,
            what: e.to_string(),
        })?;
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                serde_json::from_str(l).map_err(|e| DataError {
                    file: path.display().to_string(),
                    line: i + 1,
                    what: e.to_string(),
                })
            })
            .collect()
    };
    let commands = read("commands.jsonl")?;
    let labels = read("labels.jsonl")?;
    let by_id: std::collections::BTreeMap<u64, &Value> =
        labels.iter().filter_map(|l| Some((l.get("id")?.as_u64()?, l))).collect();
    let mut out = Vec::with_capacity(commands.len());
    for (i, c) in commands.iter().enumerate() {
        let bad = |what: &str| DataError {
            file: dir.join("commands.jsonl").display().to_string(),
            line: i + 1,
            what: what.into(),
        };
        let id = c.get("id").and_then(Value::as_u64).ok_or_else(|| bad("no id"))?;
        let command = c.get("command").and_then(Value::as_str).ok_or_else(|| bad("no command"))?.to_string();
        let tool = c.get("tool").and_then(Value::as_str).unwrap_or_default().to_string();
        let kind = c.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        let label = by_id.get(&id).ok_or_else(|| bad("no label for this id in labels.jsonl"))?;
        let level = label
            .get("level")
            .and_then(Value::as_u64)
            .filter(|l| *l < LEVELS as u64)
            .ok_or_else(|| bad("its label has no level 0..3"))? as usize;
        let unsure = label.get("unsure").and_then(Value::as_bool).unwrap_or(false);
        out.push(Example { kind, ..example(id, command, tool, level, unsure) });
    }
    Ok(out)
}

/// Every row trained on: `model/labels/` and the [`SETS`], under `root`, each set's ids moved
/// past the others'.
pub fn load_all(root: &Path) -> Result<Vec<Example>, DataError> {
    let mut all = load(&root.join("model/labels"))?;
    for (k, dir) in SETS.iter().enumerate() {
        all.extend(load(&root.join(dir))?.into_iter().map(|e| Example { id: (k as u64 + 1) * SET_IDS + e.id, ..e }));
    }
    Ok(all)
}

/// An example from a labelled command.
pub fn example(id: u64, command: String, tool: String, level: usize, unsure: bool) -> Example {
    let program = analyse(&command);
    // Each call told once, as the model tells them.
    let kept = super::told_once(&program.calls);
    let mut programs: Vec<Option<u32>> = kept.iter().map(|(c, _, _)| super::features::program(c)).collect();
    let mut generic: Vec<Vec<usize>> = kept.iter().map(|(c, _, _)| generic_buckets(c)).collect();
    let (mut calls, mut places): (Vec<Vec<usize>>, Vec<super::Place>) =
        kept.into_iter().map(|(_, b, r)| (b, r)).unzip();
    let rules: Vec<usize> = program.calls.iter().flat_map(super::features::rule_buckets).collect();
    if calls.is_empty() {
        calls.push(vec![bucket("bias")]);
        generic.push(vec![bucket("bias")]);
        programs.push(None);
        places.push(super::Place::Here);
    }
    let mut target = [0.0; LEVELS];
    if unsure {
        target = [(1.0 - UNSURE_MASS) / (LEVELS - 1) as f64; LEVELS];
        target[level] = UNSURE_MASS;
    } else {
        target[level] = 1.0;
    }
    Example { id, command, tool, kind: String::new(), level, unsure, calls, programs, generic, rules, places, target }
}

/// Whether a tool's rows are held out for evaluation: a fifth of the tools, by name.
pub fn held_out(tool: &str) -> bool {
    super::features::part(&format!("heldout:{tool}")).is_multiple_of(5)
}

/// The rows split into (training, held out), whole tools held out.
pub fn split(examples: &[Example]) -> (Vec<Example>, Vec<Example>) {
    examples.iter().cloned().partition(|e| !held_out(&e.tool))
}

/// A fitted model: [`BUCKETS`] rows of [`LEVELS`] weights, and the programs the rows it was
/// fitted on name ([`super::features::program`], sorted).
#[derive(Debug, Clone)]
pub struct Weights {
    /// The weights, bucket by bucket.
    pub w: Vec<f64>,
    /// The programs some fitted row named.
    pub seen: Vec<u32>,
}

fn logits(w: &[f64], call: &[usize], temperature: f64) -> [f64; LEVELS] {
    let mut z = [0.0; LEVELS];
    for &b in call {
        for (k, zk) in z.iter_mut().enumerate() {
            *zk += w[b * LEVELS + k];
        }
    }
    z.map(|x| x / temperature)
}

/// Whether some row the weights were fitted on named a program, as [`super::Model::has_seen`]
/// reads it from the bytes they encode to.
fn has_seen(w: &Weights, program: Option<u32>) -> bool {
    program.is_none_or(|p| w.seen.binary_search(&p).is_ok())
}

/// The distribution of one example under weights, as the embedded model gives it.
pub fn predict(w: &Weights, e: &Example, t: Temperatures) -> [f64; LEVELS] {
    let ps: Vec<[f64; LEVELS]> = e
        .calls
        .iter()
        .zip(&e.programs)
        .zip(&e.places)
        .map(|((c, p), r)| super::placed(softmax(t.scaled(logits(&w.w, c, 1.0), has_seen(w, *p))), *r))
        .collect();
    super::highest(&super::most_destructive(ps))
}

/// The calls a command's distribution is made of, as [`super::most_destructive`] picks them:
/// their indices. Up to [`super::CALLS_COMBINED`] calls are all picked, in order, with no need
/// to score them first (most rows are one call).
fn combined(w: &[f64], calls: &[Vec<usize>], places: &[super::Place]) -> Vec<usize> {
    if calls.len() <= super::CALLS_COMBINED {
        return (0..calls.len()).collect();
    }
    let ps: Vec<[f64; LEVELS]> =
        calls.iter().zip(places).map(|(c, r)| super::placed(softmax(logits(w, c, 1.0)), *r)).collect();
    super::most_destructive_of(&ps)
}

/// The loss of one example and its gradient with respect to each call's logits.
fn loss_and_grad(
    w: &[f64],
    calls: &[&Vec<usize>],
    places: &[super::Place],
    target: &[f64; LEVELS],
) -> (f64, Vec<[f64; LEVELS]>) {
    let ps: Vec<[f64; LEVELS]> = calls.iter().map(|c| softmax(logits(w, c, 1.0))).collect();
    let qs: Vec<[f64; LEVELS]> = ps.iter().zip(places).map(|(p, r)| super::placed(*p, *r)).collect();
    let cdfs: Vec<[f64; LEVELS]> = qs
        .iter()
        .map(|p| {
            let mut c = [0.0; LEVELS];
            let mut acc = 0.0;
            for k in 0..LEVELS {
                acc += p[k];
                c[k] = if k == LEVELS - 1 { 1.0 } else { acc.min(1.0) };
            }
            c
        })
        .collect();
    let g = |k: isize| -> f64 { if k < 0 { 0.0 } else { cdfs.iter().map(|c| c[k as usize]).product() } };
    let mut loss = 0.0;
    let mut dl_dp = [0.0; LEVELS + 1];
    for k in 0..LEVELS {
        let p = (g(k as isize) - g(k as isize - 1)).max(1e-12);
        if target[k] > 0.0 {
            loss -= target[k] * p.ln();
            dl_dp[k] = -target[k] / p;
        }
    }
    let grads = (0..ps.len())
        .map(|i| {
            // dL/dF_i(c) for c < top: the others' product at c, times the difference of dL/dP.
            let mut dl_df = [0.0; LEVELS];
            for c in 0..LEVELS - 1 {
                let others: f64 = cdfs.iter().enumerate().filter(|(l, _)| *l != i).map(|(_, f)| f[c]).product();
                dl_df[c] = others * (dl_dp[c] - dl_dp[c + 1]);
            }
            // dF(c)/dp_j = [j <= c]; then through the softmax.
            let mut dl_dpj = [0.0; LEVELS];
            for (j, d) in dl_dpj.iter_mut().enumerate() {
                *d = (j..LEVELS - 1).map(|c| dl_df[c]).sum();
            }
            // Through the map of where it runs, back to the distribution the softmax gave.
            dl_dpj = super::place_grad(places[i], dl_dpj);
            let p = ps[i];
            let mean: f64 = (0..LEVELS).map(|j| p[j] * dl_dpj[j]).sum();
            let mut dz = [0.0; LEVELS];
            for j in 0..LEVELS {
                dz[j] = p[j] * (dl_dpj[j] - mean);
            }
            dz
        })
        .collect();
    (loss, grads)
}

/// Fit weights to examples: full-batch Adam, in a fixed order, so the result is the same bytes
/// on every run.
pub fn fit(examples: &[Example]) -> Weights {
    fit_with(examples, &PARAMS)
}

/// Fit weights with the given parameters.
pub fn fit_with(examples: &[Example], params: &Params) -> Weights {
    let n = if params.generic { 2.0 } else { 1.0 } * examples.len().max(1) as f64;
    let size = BUCKETS * LEVELS;
    let (mut w, mut m, mut v) = (vec![0.0; size], vec![0.0; size], vec![0.0; size]);
    let mut touched: Vec<usize> = examples.iter().flat_map(|e| e.calls.iter().flatten().copied()).collect();
    touched.sort_unstable();
    touched.dedup();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let rules: std::collections::BTreeSet<usize> = examples.iter().flat_map(|e| e.rules.iter().copied()).collect();
    let l2_of: Vec<f64> = touched.iter().map(|b| if rules.contains(b) { params.l2_rules } else { params.l2 }).collect();
    let mut grad = vec![0.0; size];
    for epoch in 1..=params.epochs {
        for (&b, l2) in touched.iter().zip(&l2_of) {
            for k in 0..LEVELS {
                grad[b * LEVELS + k] = l2 * w[b * LEVELS + k];
            }
        }
        for e in examples {
            let twice = [&e.calls, &e.generic];
            for all in twice.iter().take(if params.generic { 2 } else { 1 }) {
                let picked = combined(&w, all, &e.places);
                let calls: Vec<&Vec<usize>> = picked.iter().map(|i| &all[*i]).collect();
                let places: Vec<super::Place> = picked.iter().map(|i| e.places[*i]).collect();
                let (_, dz) = loss_and_grad(&w, &calls, &places, &e.target);
                for (call, d) in calls.iter().zip(&dz) {
                    for &b in call.iter() {
                        for k in 0..LEVELS {
                            grad[b * LEVELS + k] += d[k] / n;
                        }
                    }
                }
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for &b in &touched {
            for k in 0..LEVELS {
                let i = b * LEVELS + k;
                m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
                v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
                w[i] -= params.step * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
    }
    let mut seen: Vec<u32> = examples.iter().flat_map(|e| e.programs.iter().flatten().copied()).collect();
    seen.sort_unstable();
    seen.dedup();
    Weights { w, seen }
}

/// The total negative log-likelihood of the labels under weights at temperatures.
fn loss(w: &Weights, examples: &[Example], t: Temperatures) -> f64 {
    examples
        .iter()
        .map(|e| {
            let p = predict(w, e, t);
            -(0..LEVELS).map(|k| e.target[k] * p[k].max(1e-12).ln()).sum::<f64>()
        })
        .sum()
}

/// The mean negative log-likelihood of the labels under weights at temperatures.
pub fn nll(w: &Weights, examples: &[Example], t: Temperatures) -> f64 {
    loss(w, examples, t) / examples.len().max(1) as f64
}

/// The temperatures that make out-of-fold predictions honest. Two sets of five folds, each
/// fold predicted by a model fitted without it: folds of rows, where most programs were seen
/// in the other folds, and folds of whole programs, where none was. Each temperature, from 0.5
/// to 4 by 0.05, is the one with the lowest likelihood loss on its folds (`seen` on the rows',
/// `unseen` on the programs'), the other held where it is; then on the programs' folds each
/// level's shift of an unseen program's logits (level 0's stays 0), from -2 to 2 by 0.05, the
/// others held; three rounds settle them all.
pub fn fit_temperatures(examples: &[Example]) -> Temperatures {
    fit_temperatures_with(examples, &PARAMS)
}

/// The temperatures with the given parameters.
pub fn fit_temperatures_with(examples: &[Example], params: &Params) -> Temperatures {
    // Ten fits, independent of each other, so on every core at once: each is the same bytes
    // wherever it runs.
    let split = |key: &dyn Fn(&Example) -> String, f: usize| -> (Vec<Example>, Vec<Example>) {
        examples.iter().cloned().partition(|e| super::features::part(&key(e)) % 5 != f)
    };
    let mut splits: Vec<(Vec<Example>, Vec<Example>)> =
        (0..5).map(|f| split(&|e| format!("fold:{}", e.id), f)).collect();
    splits.extend((0..5).map(|f| split(&|e| format!("tfold:{}", e.tool), f)));
    let fitted: Vec<(Weights, Vec<Example>)> = std::thread::scope(|s| {
        let running: Vec<_> =
            splits.into_iter().map(|(rest, this)| s.spawn(move || (fit_with(&rest, params), this))).collect();
        running.into_iter().map(|h| h.join().expect("a fold's fit")).collect()
    });
    let (rows, programs) = fitted.split_at(5);
    // The value, in steps of 0.05 over a range, with the lowest loss (the first of equals).
    let best = |steps: std::ops::RangeInclusive<i32>, loss_at: &dyn Fn(f64) -> f64| {
        let mut best = (f64::INFINITY, 0.0);
        for step in steps {
            let x = step as f64 * 0.05;
            let l = loss_at(x);
            if l < best.0 {
                best = (l, x);
            }
        }
        best.1
    };
    let on = |sets: &[(Weights, Vec<Example>)], t: Temperatures| sets.iter().map(|(w, ex)| loss(w, ex, t)).sum::<f64>();
    let mut t = Temperatures { seen: 1.0, unseen: 1.0, shift: [0.0; LEVELS] };
    for _ in 0..3 {
        t.seen = best(10..=80, &|x| on(rows, Temperatures { seen: x, unseen: t.unseen, shift: t.shift }));
        t.unseen = best(10..=80, &|x| on(programs, Temperatures { seen: t.seen, unseen: x, shift: t.shift }));
        for k in 1..LEVELS {
            t.shift[k] = best(-40..=40, &|x| {
                let mut shift = t.shift;
                shift[k] = x;
                on(programs, Temperatures { seen: t.seen, unseen: t.unseen, shift })
            });
        }
    }
    t
}

/// The smallest weight a bucket's row is written for: a row whose every weight is smaller moves
/// no logit by more than this, and is left out (about 500 rows of the two models).
pub const WEIGHT_MIN: f64 = 1e-4;

/// The bytes the binary embeds ([`super::Model::from_bytes`]): only the buckets some feature
/// reached with a weight of at least [`WEIGHT_MIN`] have a row, listed in order, each weight a
/// half float (11 bits of precision: a weight of 3 is kept to 0.002, far inside what moves a
/// decision, in half the bytes of an f32); then the programs the rows named.
pub fn encode(weights: &Weights, t: Temperatures) -> Vec<u8> {
    // A bucket is written as a u16.
    const _: () = assert!(BUCKETS <= 1 << 16);
    let w = &weights.w;
    let used: Vec<usize> =
        (0..BUCKETS).filter(|b| w[b * LEVELS..(b + 1) * LEVELS].iter().any(|x| x.abs() >= WEIGHT_MIN)).collect();
    let mut out = Vec::with_capacity(24 + LEVELS * 8 + used.len() * (2 + LEVELS * 2) + weights.seen.len() * 4);
    out.extend_from_slice(&t.seen.to_le_bytes());
    out.extend_from_slice(&t.unseen.to_le_bytes());
    for s in t.shift {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out.extend_from_slice(&(used.len() as u32).to_le_bytes());
    for b in &used {
        out.extend_from_slice(&(*b as u16).to_le_bytes());
    }
    for b in &used {
        for k in 0..LEVELS {
            out.extend_from_slice(&half::f16::from_f64(w[b * LEVELS + k]).to_le_bytes());
        }
    }
    out.extend_from_slice(&(weights.seen.len() as u32).to_le_bytes());
    for p in &weights.seen {
        out.extend_from_slice(&p.to_le_bytes());
    }
    out
}

/// The model's name for its bytes: `decisions-builtin-` and a hash of them.
pub fn name(bytes: &[u8]) -> String {
    format!("decisions-builtin-{:08x}", super::features::fnv1a(bytes) >> 32)
}

/// What training makes: the shipped model's bytes, the held-out twin's, and the held-out rows.
pub struct Trained {
    /// The shipped model, fitted on every row.
    pub shipped: Vec<u8>,
    /// The twin, fitted without the held-out tools.
    pub heldout: Vec<u8>,
    /// The rows of the held-out tools.
    pub held: Vec<Example>,
}

/// One model from rows: its temperatures from their folds, its weights from all of them.
fn model_of(rows: &[Example]) -> Vec<u8> {
    encode(&fit(rows), fit_temperatures(rows))
}

/// What the features read of tldr-pages, from `model/data/tldr-examples.jsonl`: each file
/// [`super::dictionary`] embeds (`tldr.txt`, `tldr-examples.txt`, `tldr-words.txt`) with its text.
pub fn dictionary(data: &Path) -> Result<[(&'static str, String); 3], DataError> {
    let path = data.join("tldr-examples.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| DataError {
        file: path.display().to_string(),
        line: 0,
        what: e.to_string(),
    })?;
    let rows: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let (examples, words) = super::dictionary::build_examples(&rows);
    Ok([("tldr.txt", super::dictionary::build(&rows)), ("tldr-examples.txt", examples), ("tldr-words.txt", words)])
}

/// Train both models from every row trained on under `root` ([`load_all`]).
pub fn train(root: &Path) -> Result<Trained, DataError> {
    let all = load_all(root)?;
    let (training, held) = split(&all);
    // The two models are independent: fitted side by side, so no core waits on the other's
    // last fit. Each is the same bytes wherever it runs.
    let (shipped, heldout) = std::thread::scope(|s| {
        let twin = s.spawn(|| model_of(&training));
        (model_of(&all), twin.join().expect("the held-out twin's fit"))
    });
    Ok(Trained { shipped, heldout, held })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_whose_every_weight_is_under_the_minimum_is_left_out_and_reads_as_zero() {
        let mut w = vec![0.0; BUCKETS * LEVELS];
        let (small, kept) = (bucket("f=--small"), bucket("f=--kept"));
        w[small * LEVELS..(small + 1) * LEVELS].copy_from_slice(&[5e-5, -9e-5, 0.0, 1e-5]);
        w[kept * LEVELS + 2] = -WEIGHT_MIN;
        let bytes = encode(&Weights { w, seen: vec![] }, Temperatures { seen: 1.0, unseen: 1.0, shift: [0.0; LEVELS] });
        let m = super::super::Model::from_bytes(&bytes).expect("a model");
        assert_eq!(m.weights_of("f=--small"), [0.0; LEVELS]);
        assert_eq!(m.weights_of("f=--kept")[2], half::f16::from_f64(-WEIGHT_MIN).to_f64());
    }

    #[test]
    fn an_unseen_programs_call_is_shifted_after_its_temperature_and_a_seen_ones_is_not() {
        let mut w = vec![0.0; BUCKETS * LEVELS];
        let b = bucket("f=--x");
        w[b * LEVELS..(b + 1) * LEVELS].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        let t = Temperatures { seen: 1.0, unseen: 2.0, shift: [0.0, 0.0, 0.0, 1.5] };
        let bytes = encode(&Weights { w, seen: vec![] }, t);
        let m = super::super::Model::from_bytes(&bytes).expect("a model");
        assert_eq!(m.temperatures, t);
        let close = |a: [f64; LEVELS], b: [f64; LEVELS]| a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-3);
        assert!(close(m.call(&[b], true), softmax([1.0, 0.0, 0.0, 0.0])));
        assert!(close(m.call(&[b], false), softmax([0.5, 0.0, 0.0, 1.5])));
        // A shift that is no number is no model.
        let mut broken = bytes.clone();
        broken[16 + 3 * 8..16 + 4 * 8].copy_from_slice(&f64::NAN.to_le_bytes());
        assert!(super::super::Model::from_bytes(&broken).is_none());
    }
}
