//! The System One wire (jev, generic): one request for every question, typed answers back.

use serde_json::{Map, Value, json};

use crate::answer::{Answer, AnswerValue, Failure, FailureReason, Probabilities, confidence_from};
use crate::contract::{Question, QuestionKind};

/// How far a distribution may sum from 1: providers round to about two decimals.
const SUM_TOLERANCE: f64 = 0.02;

/// The request body: exactly model, state and questions.
pub(crate) fn request(model: &str, state: &Value, questions: &[&Question]) -> Value {
    let qs: Map<String, Value> = questions
        .iter()
        .map(|q| {
            let mut body = Map::new();
            body.insert("type".into(), q.kind.type_name().into());
            body.insert("instructions".into(), q.instructions.clone());
            if let Some(c) = q.kind.criteria_json() {
                body.insert("criteria".into(), c);
            }
            (q.id.clone(), Value::Object(body))
        })
        .collect();
    json!({"model": model, "state": state, "questions": qs})
}

/// Map a 200 body to one result per question, in the order asked.
pub(crate) fn answers(
    provider: &str,
    asked_model: &str,
    body: &Value,
    questions: &[&Question],
) -> Vec<Result<Answer, Failure>> {
    let malformed = |detail: String| Failure::new(FailureReason::Malformed, provider, detail);
    let Some(answers) = body.get("answers").and_then(Value::as_object) else {
        let f = malformed(format!("provider \"{provider}\" answered without an answers object"));
        return questions.iter().map(|_| Err(f.clone())).collect();
    };
    let model = body.get("model").and_then(Value::as_str).filter(|m| !m.is_empty()).unwrap_or(asked_model);
    questions
        .iter()
        .map(|q| {
            let a = answers.get(&q.id).ok_or_else(|| malformed(format!("question \"{}\": no answer", q.id)))?;
            answer(provider, model, q, a).map_err(|what| malformed(format!("question \"{}\": {what}", q.id)))
        })
        .collect()
}

fn answer(provider: &str, model: &str, q: &Question, a: &Value) -> Result<Answer, String> {
    let asked = q.kind.type_name();
    match a.get("type").and_then(Value::as_str) {
        Some(t) if t == asked => {}
        Some(t) => return Err(format!("answered type \"{t}\", asked \"{asked}\"")),
        None => return Err("answer has no type".into()),
    }
    let (value, probabilities, confidence) = match &q.kind {
        QuestionKind::Noul { .. } => {
            let p = unit(a.get("noul"), "noul")?;
            (AnswerValue::Noul(p), None, None)
        }
        QuestionKind::Choice { options } => {
            let probs = distribution(a.get("probabilities"), &q.kind.outcomes())?;
            let choice = a.get("choice").and_then(Value::as_str).ok_or("choice is missing or not a string")?;
            let Some(p) = probs.get(choice) else {
                return Err(format!("choice \"{choice}\" is not one of the options ({})", names(options)));
            };
            let peak = probs.values().fold(0.0, f64::max);
            if p + 1e-9 < peak {
                return Err(format!("choice \"{choice}\" ({p}) is not the most likely option ({peak})"));
            }
            let conf = confidence(a, &probs)?;
            (AnswerValue::Choice(choice.to_string()), Some(probs), conf)
        }
        QuestionKind::Score { levels } => {
            let probs = distribution(a.get("probabilities"), &q.kind.outcomes())?;
            let top = (levels.len() - 1) as f64;
            let score = a.get("score").and_then(Value::as_f64).ok_or("score is missing or not a number")?;
            if !score.is_finite() || !(0.0..=top).contains(&score) {
                return Err(format!("score {score} is outside 0..{top}"));
            }
            let expected: f64 = probs.values().enumerate().map(|(i, p)| i as f64 * p).sum();
            // The score and each probability may be rounded by up to 0.005: the expectation by 0.005 * sum(i).
            let tolerance = 0.015 + 0.005 * top * (top + 1.0) / 2.0;
            if (score - expected).abs() > tolerance {
                return Err(format!("score {score} is not the expectation of its probabilities ({expected:.4})"));
            }
            let conf = confidence(a, &probs)?;
            let legend: Map<String, Value> =
                levels.iter().enumerate().map(|(i, l)| (i.to_string(), l.clone())).collect();
            (AnswerValue::Score { score, legend: Value::Object(legend) }, Some(probs), conf)
        }
    };
    Ok(Answer { provider: provider.into(), model: model.into(), value, probabilities, confidence, estimated: false })
}

/// The answer's own confidence when it has one (checked), else one derived from the distribution.
fn confidence(a: &Value, probs: &Probabilities) -> Result<Option<f64>, String> {
    match a.get("confidence") {
        None | Some(Value::Null) => Ok(confidence_from(probs)),
        v => unit(v, "confidence").map(Some),
    }
}

fn unit(v: Option<&Value>, what: &str) -> Result<f64, String> {
    match v.and_then(Value::as_f64) {
        Some(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => Err(format!("{what} {x} is outside [0, 1]")),
        None => Err(format!("{what} is missing or not a number")),
    }
}

/// A distribution keyed exactly by `keys`, each finite in [0, 1], summing to 1 within tolerance.
pub(crate) fn distribution(v: Option<&Value>, keys: &[String]) -> Result<Probabilities, String> {
    let obj = v.and_then(Value::as_object).ok_or("probabilities are missing or not an object")?;
    let expected = || keys.join(", ");
    if obj.len() != keys.len() || keys.iter().any(|k| !obj.contains_key(k)) {
        let got: Vec<&str> = obj.keys().map(String::as_str).collect();
        return Err(format!("probabilities are keyed by [{}], expected [{}]", got.join(", "), expected()));
    }
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let p = unit(obj.get(k), &format!("probability of \"{k}\""))?;
        out.push((k.clone(), p));
    }
    let sum: f64 = out.iter().map(|(_, p)| p).sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(format!("probabilities sum to {sum:.4}, not 1"));
    }
    Ok(Probabilities(out))
}

fn names(options: &[(String, Value)]) -> String {
    options.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", ")
}
