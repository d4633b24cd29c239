//! The `builtin` provider: a model of our own inside the binary, answering in-process with no
//! endpoint, no key and no network. It answers the one question it was trained for, the
//! permission rubric's `destructive` (the four levels of the shipped `permission.json`, about a
//! state with a `command`); any other question, or a catalog whose levels are not the ones it
//! learned, is the explicit `unsupported` failure naming what it can answer.
//!
//! The command is read as a shell program ([`shell`]); each call that would run is seen as its
//! features ([`features`]) and given a distribution over the four levels by a multinomial
//! logistic regression; the command's level is the highest of its calls', so its distribution is
//! that of the maximum: `P(level <= k) = prod_i P_i(level <= k)`. A command it cannot read, or a
//! call it knows nothing of, comes out spread, not sure. The weights are trained by
//! `cargo run --release -p decisions --example builtin_train` from `model/labels/`
//! ([`train`]), and embedded here; docs/builtin-model.md is the model card.

pub mod dictionary;
pub mod features;
pub mod inline;
pub mod powershell;
pub mod shell;
pub mod train;

use serde_json::{Map, Value};

use crate::answer::{Answer, AnswerValue, Failure, FailureReason, Probabilities, confidence_from};
use crate::contract::{Question, QuestionKind};

/// The provider's name.
pub const NAME: &str = "builtin";
/// The question it answers.
pub const QUESTION: &str = "destructive";
/// The levels of the rubric it was trained on.
pub const LEVELS: usize = 4;

/// The shipped weights, as `train` writes them ([`Model::from_bytes`]), fitted on every
/// labelled row.
static WEIGHTS: &[u8] = include_bytes!("weights.bin");
/// The twin fitted without the held-out tools, by the same method: what the held-out figures
/// and the bars shipped for builtin are measured with (a descriptor pinning
/// [`HELDOUT_MODEL`] asks it).
static HELDOUT_WEIGHTS: &[u8] = include_bytes!("weights-heldout.bin");
/// The models' names, one a line (the shipped, then the held-out twin): a hash of each one's
/// bytes, so a name changes whenever its weights do.
static NAMES: &str = include_str!("model.txt");

/// The shipped model's name.
pub static MODEL: std::sync::LazyLock<&'static str> =
    std::sync::LazyLock::new(|| NAMES.lines().next().unwrap_or("decisions-builtin-untrained"));
/// The held-out twin's name.
pub static HELDOUT_MODEL: std::sync::LazyLock<&'static str> =
    std::sync::LazyLock::new(|| NAMES.lines().nth(1).unwrap_or("decisions-builtin-untrained-heldout"));

/// The `what` of each level of the shipped permission catalog's `destructive`, the levels the
/// model learned (a test holds them to the catalog): compared as text on every ask, with no
/// catalog to parse.
const RUBRIC_LEVELS: [&str; LEVELS] = [
    "Read-only: it only reads or prints, and changes nothing.",
    "Local and easily undone: it changes files in the project that version control or a rebuild restores.",
    "Local but costly to undo: it deletes or overwrites work that is not committed, or changes the machine outside the project.",
    "Irreversible, or reaches outside this machine: it destroys data for good, rewrites shared history, or sends, publishes or deploys.",
];

/// The shipped model.
pub fn model() -> Model<'static> {
    Model::from_bytes(WEIGHTS).unwrap_or(Model::EMPTY)
}

/// The model a descriptor's `model` names: the held-out twin when it names it, else the
/// shipped one; with its name.
pub fn model_named(name: &str) -> (Model<'static>, &'static str) {
    if name == *HELDOUT_MODEL {
        (Model::from_bytes(HELDOUT_WEIGHTS).unwrap_or(Model::EMPTY), *HELDOUT_MODEL)
    } else {
        (model(), *MODEL)
    }
}

/// What a call's logits are divided by, fitted so the probabilities are honest: one for a call
/// whose program the model has seen labelled, fitted on folds of rows, and one for a program it
/// has never seen, fitted on folds of whole programs held out. What it has never seen it is
/// less sure of, by as much as the evidence says; and what such a program's calls turn out to
/// be, level by level, moves them by as much as the same folds say (`shift`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Temperatures {
    /// For a program some labelled row named (and for a script, judged by its name).
    pub seen: f64,
    /// For a program no labelled row named.
    pub unseen: f64,
    /// Added to the logits of a call of a program no labelled row named, after the temperature.
    pub shift: [f64; LEVELS],
}

impl Temperatures {
    /// A call's logits as the model gives them: divided by the temperature for a program seen,
    /// or for one unseen divided by its own and shifted. Training and the embedded model both
    /// read a call through this.
    pub fn scaled(&self, z: [f64; LEVELS], seen: bool) -> [f64; LEVELS] {
        if seen { z.map(|x| x / self.seen) } else { std::array::from_fn(|k| z[k] / self.unseen + self.shift[k]) }
    }
}

/// A model: its temperatures, the buckets some feature reached (sorted), the weights of each,
/// and the programs its rows named (sorted). Read in place from the embedded bytes: nothing is
/// loaded or copied.
#[derive(Debug, Clone, Copy)]
pub struct Model<'a> {
    /// What the logits are divided by.
    pub temperatures: Temperatures,
    buckets: &'a [u8],
    weights: &'a [u8],
    programs: &'a [u8],
}

impl<'a> Model<'a> {
    /// A model that knows nothing: every distribution uniform.
    pub const EMPTY: Model<'static> = Model {
        temperatures: Temperatures { seen: 1.0, unseen: 1.0, shift: [0.0; LEVELS] },
        buckets: &[],
        weights: &[],
        programs: &[],
    };

    /// A model from the bytes `train` writes: the two temperatures (f64, seen then unseen), the
    /// unseen shift ([`LEVELS`] f64), the number of rows (u32), each row's bucket (u16,
    /// ascending), each row's [`LEVELS`] f16 weights, then the number of programs (u32) and each
    /// program's key (u32, ascending); little-endian. None when they are not that shape.
    pub fn from_bytes(bytes: &'a [u8]) -> Option<Model<'a>> {
        let number = |at: usize| -> Option<f64> {
            let x = f64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?);
            x.is_finite().then_some(x)
        };
        let temperature = |at: usize| number(at).filter(|t| *t > 0.0);
        let count =
            |at: usize| -> Option<usize> { Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize) };
        let shift: [f64; LEVELS] =
            (0..LEVELS).map(|k| number(16 + k * 8)).collect::<Option<Vec<f64>>>()?.try_into().ok()?;
        let temperatures = Temperatures { seen: temperature(0)?, unseen: temperature(8)?, shift };
        const HEAD: usize = 16 + LEVELS * 8;
        let rows = count(HEAD)?;
        let buckets = bytes.get(HEAD + 4..HEAD + 4 + rows * 2)?;
        let at = HEAD + 4 + rows * 2 + rows * LEVELS * 2;
        let weights = bytes.get(HEAD + 4 + rows * 2..at)?;
        let programs = bytes.get(at + 4..)?;
        (programs.len() == count(at)? * 4).then_some(Model { temperatures, buckets, weights, programs })
    }

    /// The row of a bucket some feature reached, by binary search; none for any other.
    fn row(&self, bucket: usize) -> Option<usize> {
        let (rows, _) = self.buckets.as_chunks::<2>();
        rows.binary_search_by_key(&bucket, |b| usize::from(u16::from_le_bytes(*b))).ok()
    }

    fn weight(&self, bucket: usize, level: usize) -> f64 {
        let Some(row) = self.row(bucket) else { return 0.0 };
        let at = (row * LEVELS + level) * 2;
        self.weights.get(at..at + 2).map_or(0.0, |b| half::f16::from_le_bytes([b[0], b[1]]).to_f64())
    }

    /// The weights of one feature (`t=rm`, `f=r`), as the model adds them to a call's logits:
    /// what `builtin_eval`'s `EXPLAIN` prints.
    pub fn weights_of(&self, feature: &str) -> [f64; LEVELS] {
        let b = features::bucket(feature);
        std::array::from_fn(|k| self.weight(b, k))
    }

    /// Whether some labelled row named the program of a call ([`features::program`]); a script
    /// is judged by its name, which it has learned.
    pub fn has_seen(&self, program: Option<u32>) -> bool {
        let (keys, _) = self.programs.as_chunks::<4>();
        program.is_none_or(|p| keys.binary_search_by_key(&p, |k| u32::from_le_bytes(*k)).is_ok())
    }

    /// Whether a call's program is one a labelled row names, so its features are read as
    /// training read them ([`features::buckets`]); else, a program never seen or a script, with
    /// the unseen readings too ([`features::unseen_buckets`]).
    pub fn knows(&self, call: &shell::Call) -> bool {
        features::program(call).is_some_and(|p| self.has_seen(Some(p)))
    }

    /// One call's distribution over the levels, from its buckets and whether its program was
    /// seen.
    pub fn call(&self, buckets: &[usize], seen: bool) -> [f64; LEVELS] {
        let mut z = [0.0; LEVELS];
        for &b in buckets {
            for (k, zk) in z.iter_mut().enumerate() {
                *zk += self.weight(b, k);
            }
        }
        softmax(self.temperatures.scaled(z, seen))
    }

    /// A command's distribution over the levels: the highest level of its calls, each told once
    /// ([`firsts`]).
    pub fn command(&self, command: &str) -> [f64; LEVELS] {
        let program = shell::analyse(command);
        let seen = |c: &shell::Call| self.has_seen(features::program(c));
        // A program it has never seen also has what its command language's words say
        // ([`features::unseen_buckets`]), read once with the rest of its features; so has a
        // script, whose code it never sees (what an option gives it to run is in the command).
        let buckets =
            |c: &shell::Call| if self.knows(c) { features::seen_buckets(c) } else { features::unseen_buckets(c) };
        let calls: Vec<[f64; LEVELS]> = told_once_by(&program.calls, buckets)
            .into_iter()
            .map(|(c, buckets, place)| placed(self.call(&buckets, seen(c)), place))
            .collect();
        if program.unreadable || calls.is_empty() {
            // Nothing it can read: what it knows of a command it knows nothing of.
            return self.call(&[features::bucket("bias")], true);
        }
        highest(&most_destructive(calls))
    }
}

/// How much of a call on another machine stays at the levels 1 and 2 the model gave it.
pub const KEPT_ELSEWHERE: f64 = 0.1;

/// Rule 4, as structure: on another machine, a call that changes anything is level 3 (nothing
/// here restores it), one that only reads is 0. The chance the model gives it of changing
/// something (levels 1 and 2, as if it ran here) moves to the top level, all but
/// [`KEPT_ELSEWHERE`] of it: a label can still say 1 (a read piped home into a file). Training
/// fits through the same map ([`elsewhere_grad`]).
pub fn elsewhere(p: [f64; LEVELS]) -> [f64; LEVELS] {
    let moved = (1.0 - KEPT_ELSEWHERE) * (p[1] + p[2]);
    [p[0], KEPT_ELSEWHERE * p[1], KEPT_ELSEWHERE * p[2], p[3] + moved]
}

/// How much of a call in a local cluster stays at the top level the model gave it.
pub const KEPT_LOCAL_CLUSTER: f64 = 0.1;

/// Settled point 22, as structure: a cluster this machine runs is this machine, so a cluster
/// client's call aimed at one (`kubectl apply -f k8s/ --context kind-dev`) reaches nothing
/// beyond it. The chance the model gives it of level 3, learnt from shared clusters, moves to
/// level 2, all but [`KEPT_LOCAL_CLUSTER`] of it: a label can still say 3 (a volume's data
/// deleted, as `docker volume rm`). Training fits through the same map ([`place_grad`]).
pub fn in_local_cluster(p: [f64; LEVELS]) -> [f64; LEVELS] {
    let moved = (1.0 - KEPT_LOCAL_CLUSTER) * p[3];
    [p[0], p[1], p[2] + moved, p[3] - moved]
}

/// Where a call runs, as the rules judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// On this machine.
    Here,
    /// On another machine, judged by rule 4 ([`shell::Call::elsewhere`]): [`elsewhere`].
    Elsewhere,
    /// A cluster client's call aimed at a cluster this machine runs
    /// ([`shell::in_local_cluster`]): [`in_local_cluster`].
    LocalCluster,
}

impl Place {
    /// Where a call runs.
    pub fn of(call: &shell::Call) -> Place {
        if call.elsewhere() {
            Place::Elsewhere
        } else if shell::in_local_cluster(call) {
            Place::LocalCluster
        } else {
            Place::Here
        }
    }
}

/// A call's distribution where it runs: through [`elsewhere`] on another machine, through
/// [`in_local_cluster`] in a local cluster, as it is here. The model and training both place
/// calls with it.
pub fn placed(p: [f64; LEVELS], place: Place) -> [f64; LEVELS] {
    match place {
        Place::Here => p,
        Place::Elsewhere => elsewhere(p),
        Place::LocalCluster => in_local_cluster(p),
    }
}

/// The gradient of a loss with respect to the distribution [`placed`] was given, from its
/// gradient with respect to the one it returned.
pub fn place_grad(place: Place, d: [f64; LEVELS]) -> [f64; LEVELS] {
    match place {
        Place::Here => d,
        Place::Elsewhere => elsewhere_grad(d),
        Place::LocalCluster => {
            let kept = KEPT_LOCAL_CLUSTER;
            [d[0], d[1], d[2], (1.0 - kept) * d[2] + kept * d[3]]
        }
    }
}

/// The gradient of a loss with respect to the distribution [`elsewhere`] was given, from its
/// gradient with respect to the one it returned.
pub fn elsewhere_grad(d: [f64; LEVELS]) -> [f64; LEVELS] {
    let kept = KEPT_ELSEWHERE;
    [d[0], kept * d[1] + (1.0 - kept) * d[3], kept * d[2] + (1.0 - kept) * d[3], d[3]]
}

/// The indices of the items no earlier item equals. A command's calls that are the same call
/// feature for feature, and run in the same place (a loop's body read once for each of its
/// words, `rm -rf a; rm -rf b`), are one piece of evidence, not independent ones: the highest of
/// their levels is the level of one of them. The model and training both tell each once.
pub fn firsts<T: std::hash::Hash + Eq>(items: &[T]) -> Vec<usize> {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    (0..items.len()).filter(|&i| seen.insert(&items[i])).collect()
}

/// A command's calls each told once ([`firsts`]), in order: the call, its features' buckets and
/// where it runs ([`Place`]). The model and training both read them.
pub fn told_once(calls: &[shell::Call]) -> Vec<(&shell::Call, Vec<usize>, Place)> {
    told_once_by(calls, features::buckets)
}

/// [`told_once`], with each call's buckets from `buckets`: the embedded model's, which reads more
/// of a program it has never seen.
pub fn told_once_by(
    calls: &[shell::Call],
    buckets: impl Fn(&shell::Call) -> Vec<usize>,
) -> Vec<(&shell::Call, Vec<usize>, Place)> {
    let mut keyed: Vec<(Vec<usize>, Place)> = calls.iter().map(|c| (buckets(c), Place::of(c))).collect();
    firsts(&keyed).into_iter().map(|i| (&calls[i], std::mem::take(&mut keyed[i].0), keyed[i].1)).collect()
}

/// How many of a command's calls its distribution is the highest of: its most destructive
/// ones. The calls' errors are not independent, so a long pipeline of harmless programs must
/// not add up to a destructive one.
pub const CALLS_COMBINED: usize = 3;

/// A distribution's expected level: the score a score answer gives.
pub fn expected(p: &[f64; LEVELS]) -> f64 {
    p.iter().enumerate().map(|(k, x)| k as f64 * x).sum()
}

/// Which calls a command's distribution is made of: the indices, in call order, of the
/// [`CALLS_COMBINED`] with the highest expected levels (the first of equals first). Training
/// picks the same ones.
pub fn most_destructive_of(calls: &[[f64; LEVELS]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by(|a, b| expected(&calls[*b]).total_cmp(&expected(&calls[*a])).then(a.cmp(b)));
    order.truncate(CALLS_COMBINED);
    order.sort_unstable();
    order
}

/// The calls [`most_destructive_of`] picks.
pub fn most_destructive(calls: Vec<[f64; LEVELS]>) -> Vec<[f64; LEVELS]> {
    most_destructive_of(&calls).into_iter().map(|i| calls[i]).collect()
}

/// The softmax of logits.
pub fn softmax(z: [f64; LEVELS]) -> [f64; LEVELS] {
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e = z.map(|x| (x - top).exp());
    let sum: f64 = e.iter().sum();
    e.map(|x| x / sum)
}

/// The distribution of the highest of independent levels.
pub fn highest(calls: &[[f64; LEVELS]]) -> [f64; LEVELS] {
    let mut below = [1.0; LEVELS];
    for p in calls {
        let mut cdf = 0.0;
        for (k, b) in below.iter_mut().enumerate() {
            cdf += p[k];
            *b *= cdf.min(1.0);
        }
    }
    let mut out = [0.0; LEVELS];
    let mut prev = 0.0;
    for k in 0..LEVELS {
        let g = if k == LEVELS - 1 { 1.0 } else { below[k] };
        out[k] = (g - prev).max(0.0);
        prev = g;
    }
    out
}

/// Why a question is not one the model answers; none when it is.
pub fn unsupported(question: &Question) -> Option<String> {
    // Said only when it is not: this runs on every ask.
    let can = || {
        format!(
            "builtin answers only \"{QUESTION}\" on the shipped permission rubric (a score of {LEVELS} levels about a state with a \"command\"), the question it was trained for"
        )
    };
    if question.id != QUESTION {
        return Some(format!("question \"{}\": {}", crate::secret::clip(&question.id, 80), can()));
    }
    let QuestionKind::Score { levels } = &question.kind else {
        return Some(format!("question \"{QUESTION}\" is a {}: {}", question.kind.type_name(), can()));
    };
    fn what(l: &Value) -> Option<&str> {
        l.get("what").and_then(Value::as_str).or_else(|| l.as_str())
    }
    if levels.len() != LEVELS || !levels.iter().map(what).eq(RUBRIC_LEVELS.map(Some)) {
        return Some(format!("question \"{QUESTION}\" has levels other than the ones it learned: {}", can()));
    }
    None
}

/// Answer one question about a state, with the model the descriptor pins.
pub fn answer(question: &Question, state: &Value, pinned: &str) -> Result<Answer, Failure> {
    if let Some(why) = unsupported(question) {
        return Err(Failure::new(FailureReason::Unsupported, NAME, why));
    }
    let Some(command) = state.get("command").and_then(Value::as_str) else {
        return Err(Failure::new(
            FailureReason::Unsupported,
            NAME,
            "builtin judges a state with a \"command\" string (the permission hook's), and this state has none",
        ));
    };
    let (model, name) = model_named(pinned);
    Ok(score_answer(question, model.command(command), name))
}

/// A distribution as the seam's score answer: the expectation as the score, the distribution,
/// and the confidence derived from it.
pub fn score_answer(question: &Question, p: [f64; LEVELS], model: &str) -> Answer {
    let probabilities = Probabilities((0..LEVELS).map(|k| (k.to_string(), p[k])).collect());
    let score = expected(&p);
    let legend: Map<String, Value> = match &question.kind {
        QuestionKind::Score { levels } => levels.iter().enumerate().map(|(i, l)| (i.to_string(), l.clone())).collect(),
        _ => Map::new(),
    };
    let confidence = confidence_from(&probabilities);
    Answer {
        provider: NAME.into(),
        model: model.into(),
        value: AnswerValue::Score { score, legend: Value::Object(legend) },
        probabilities: Some(probabilities),
        confidence,
        estimated: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_told_again_counts_once() {
        assert_eq!(
            firsts(&[(vec![1, 2], false), (vec![1, 2], false), (vec![1, 2], true), (vec![3], false)]),
            [0, 2, 3]
        );
        assert_eq!(firsts::<u8>(&[]), Vec::<usize>::new());
    }

    #[test]
    fn the_levels_it_learned_are_the_shipped_catalogs() {
        for catalog in
            [include_str!("../../catalogs/permission.json"), include_str!("../../catalogs/permission.builtin.json")]
        {
            let doc: Value = serde_json::from_str(catalog).unwrap_or_default();
            let levels = doc.pointer("/questions/destructive/criteria").and_then(Value::as_array).cloned();
            let what: Vec<_> =
                levels.unwrap_or_default().iter().map(|l| l["what"].as_str().map(str::to_string)).collect();
            assert_eq!(what, RUBRIC_LEVELS.map(|w| Some(w.to_string())));
        }
    }

    #[test]
    fn a_long_pipeline_of_harmless_calls_does_not_add_up_to_a_destructive_one() {
        let calm = [0.9, 0.05, 0.03, 0.02];
        let many = highest(&most_destructive(vec![calm; 10_000]));
        assert!(many[3] < 0.07, "{many:?}");
        let worst = [0.0, 0.0, 0.1, 0.9];
        let mut calls = vec![calm; 50];
        calls.push(worst);
        assert!(highest(&most_destructive(calls))[3] >= 0.9, "the worst call still counts");
    }

    #[test]
    fn rule_4_moves_a_remote_calls_chance_of_changing_something_to_the_top_level() {
        let p = [0.2, 0.5, 0.2, 0.1];
        let q = elsewhere(p);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12 && q[0] == p[0], "{q:?}");
        assert!((q[3] - (0.1 + 0.9 * 0.7)).abs() < 1e-12 && (q[1] - 0.05).abs() < 1e-12, "{q:?}");
        // The gradient training takes through the map is the map's own: a finite difference of a
        // loss that weighs each level differently.
        let weights = [0.3, -1.1, 0.7, 2.0];
        let loss = |p: [f64; LEVELS]| elsewhere(p).iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>();
        let g = elsewhere_grad(weights);
        for j in 0..LEVELS {
            let mut up = p;
            up[j] += 1e-6;
            let fd = (loss(up) - loss(p)) / 1e-6;
            assert!((fd - g[j]).abs() < 1e-6, "level {j}: {fd} against {}", g[j]);
        }
    }

    #[test]
    fn a_local_clusters_chance_of_level_3_moves_to_level_2() {
        let p = [0.05, 0.05, 0.1, 0.8];
        let q = placed(p, Place::LocalCluster);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12 && q[..2] == p[..2], "{q:?}");
        assert!((q[3] - 0.08).abs() < 1e-12 && (q[2] - 0.82).abs() < 1e-12, "{q:?}");
        let weights = [0.3, -1.1, 0.7, 2.0];
        let loss =
            |p: [f64; LEVELS]| placed(p, Place::LocalCluster).iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>();
        let g = place_grad(Place::LocalCluster, weights);
        for j in 0..LEVELS {
            let mut up = p;
            up[j] += 1e-6;
            let fd = (loss(up) - loss(p)) / 1e-6;
            assert!((fd - g[j]).abs() < 1e-6, "level {j}: {fd} against {}", g[j]);
        }
        // Which calls are placed there: a cluster client naming a local context, and no other.
        let place = |c: &str| Place::of(&shell::analyse(c).calls[0]);
        assert_eq!(place("kubectl apply -k config/samples/ --context kind-operator-dev"), Place::LocalCluster);
        assert_eq!(place("helm install x x/x --kube-context=minikube"), Place::LocalCluster);
        assert_eq!(place("kubectl apply -f k8s/ --context prod-eks"), Place::Here);
        assert_eq!(place("kubectl apply -f k8s/"), Place::Here);
        assert_eq!(place("kubectl --context kind-dev --server https://10.0.0.5:6443 apply -f k8s/"), Place::Here);
        assert_eq!(place("docker ps --context kind-dev"), Place::Here);
        // What runs in its pods is judged as run here, not on another machine.
        let inner = shell::analyse("kubectl exec redis-0 -n cache --context kind-dev -- redis-cli FLUSHALL");
        assert!(inner.calls.iter().any(|c| c.program == "redis-cli" && !c.remote), "{inner:?}");
        let shared = shell::analyse("kubectl exec redis-0 -n cache --context prod -- redis-cli FLUSHALL");
        assert!(shared.calls.iter().any(|c| c.program == "redis-cli" && c.remote), "{shared:?}");
    }

    #[test]
    fn the_highest_of_calls_is_their_maximums_distribution() {
        let sure_safe = [1.0, 0.0, 0.0, 0.0];
        let split = [0.5, 0.0, 0.0, 0.5];
        assert_eq!(highest(&[sure_safe, split]), split);
        let h = highest(&[split, split]);
        assert!((h[3] - 0.75).abs() < 1e-12 && (h[0] - 0.25).abs() < 1e-12, "{h:?}");
        assert!((highest(&[[0.25; 4]]).iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
