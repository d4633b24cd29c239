//! Decision Cards (`judgment-card.v1`, `schemas/judgment-card.v1.json`): every rule of the
//! schema, checked in Rust, plus the two a schema cannot say: the recommendation is one of the
//! options, and no two options share an id.

use serde_json::{Map, Value};

/// The confidences a card may state.
pub const CONFIDENCES: [&str; 3] = ["high", "medium", "low"];
const CARD_FIELDS: [&str; 8] = [
    "question",
    "options",
    "recommendation",
    "confidence",
    "impact",
    "impact_score",
    "diff_summary",
    "similar_past_decisions",
];
const REQUIRED: [&str; 6] = ["question", "options", "recommendation", "confidence", "impact", "diff_summary"];
const OPTION_FIELDS: [&str; 3] = ["id", "label", "consequence"];
const RECALL_FIELDS: [&str; 5] = ["summary", "decision", "outcome", "decided_at", "mem_id"];

/// One way a card breaks `judgment-card.v1`, naming where (a JSON pointer) and what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {what}")]
pub struct CardProblem {
    /// Where, as a JSON pointer (`/` for the card itself).
    pub at: String,
    /// What is wrong.
    pub what: String,
}

/// How much of a value from the card a problem quotes: a card may hold a 200 MB string.
const QUOTE_MAX: usize = 80;

/// A text from the card as a problem quotes it: clipped.
fn quoted(s: &str) -> String {
    crate::secret::clip(s, QUOTE_MAX)
}

/// A value from the card as a problem quotes it: its JSON, clipped, never serialized whole.
fn quoted_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{}\"", quoted(s)),
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(o) => format!("an object of {} fields", o.len()),
        other => quoted(&other.to_string()),
    }
}

fn problem(at: &str, what: impl Into<String>) -> CardProblem {
    CardProblem { at: if at.is_empty() { "/".into() } else { at.into() }, what: what.into() }
}

/// Every way `card` breaks the card rules, in document order.
pub fn card_problems(card: &Value) -> Vec<CardProblem> {
    let mut out = Vec::new();
    let Some(obj) = card.as_object() else {
        return vec![problem("", "a card must be a JSON object")];
    };
    closed(obj, "", &CARD_FIELDS, &mut out);
    for field in REQUIRED.iter().filter(|f| !obj.contains_key(**f)) {
        out.push(problem("", format!("missing required field \"{field}\"")));
    }
    text(obj, "", "question", true, &mut out);
    text(obj, "", "recommendation", true, &mut out);
    text(obj, "", "impact", false, &mut out);
    text(obj, "", "diff_summary", false, &mut out);
    if let Some(c) = obj.get("confidence")
        && !c.as_str().is_some_and(|c| CONFIDENCES.contains(&c))
    {
        out.push(problem("/confidence", format!("must be one of high, medium, low, found {}", quoted_value(c))));
    }
    if let Some(s) = obj.get("impact_score")
        && s.as_u64().is_none_or(|s| s > 100)
    {
        out.push(problem("/impact_score", format!("must be an integer from 0 to 100, found {}", quoted_value(s))));
    }
    let ids = options(obj, &mut out);
    if let (Some(rec), Some(ids)) = (obj.get("recommendation").and_then(Value::as_str), ids)
        && !rec.is_empty()
        && !ids.iter().any(|id| id == rec)
    {
        let ids: Vec<String> = ids.iter().map(|i| quoted(i)).collect();
        out.push(problem(
            "/recommendation",
            format!("\"{}\" is no option's id (options: {})", quoted(rec), ids.join(", ")),
        ));
    }
    match obj.get("similar_past_decisions") {
        None => {}
        Some(Value::Array(items)) => {
            if items.len() > 3 {
                out.push(problem("/similar_past_decisions", format!("at most 3 items, found {}", items.len())));
            }
            for (i, item) in items.iter().enumerate() {
                let at = format!("/similar_past_decisions/{i}");
                let Some(o) = item.as_object() else {
                    out.push(problem(&at, "must be an object"));
                    continue;
                };
                closed(o, &at, &RECALL_FIELDS, &mut out);
                for f in RECALL_FIELDS {
                    match o.get(f) {
                        None => out.push(problem(&at, format!("missing required field \"{f}\""))),
                        Some(Value::String(s)) if f == "mem_id" && !s.starts_with("judgment-ledger:") => {
                            out.push(problem(
                                &format!("{at}/mem_id"),
                                format!("must start with \"judgment-ledger:\", found \"{}\"", quoted(s)),
                            ));
                        }
                        Some(Value::String(_)) => {}
                        Some(_) => out.push(problem(&format!("{at}/{f}"), "must be a string")),
                    }
                }
            }
        }
        Some(_) => out.push(problem("/similar_past_decisions", "must be an array")),
    }
    out
}

/// The options' ids, when the options are well formed enough to have them.
fn options(obj: &Map<String, Value>, out: &mut Vec<CardProblem>) -> Option<Vec<String>> {
    let items = match obj.get("options")? {
        Value::Array(items) => items,
        _ => {
            out.push(problem("/options", "must be an array"));
            return None;
        }
    };
    if !(2..=3).contains(&items.len()) {
        out.push(problem("/options", format!("must have 2 or 3 options, found {}", items.len())));
    }
    let mut ids: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("/options/{i}");
        let Some(o) = item.as_object() else {
            out.push(problem(&at, "must be an object"));
            continue;
        };
        closed(o, &at, &OPTION_FIELDS, out);
        for f in OPTION_FIELDS.iter().filter(|f| !o.contains_key(**f)) {
            out.push(problem(&at, format!("missing required field \"{f}\"")));
        }
        text(o, &at, "id", true, out);
        text(o, &at, "label", true, out);
        text(o, &at, "consequence", false, out);
        if let Some(id) = o.get("id").and_then(Value::as_str) {
            if ids.iter().any(|x| x == id) {
                out.push(problem(
                    &format!("{at}/id"),
                    format!("\"{}\" is the id of an earlier option too", quoted(id)),
                ));
            }
            ids.push(id.to_string());
        }
    }
    Some(ids)
}

/// Fields outside `allowed` are refused, each named.
fn closed(obj: &Map<String, Value>, at: &str, allowed: &[&str], out: &mut Vec<CardProblem>) {
    for k in obj.keys().filter(|k| !allowed.contains(&k.as_str())) {
        out.push(problem(at, format!("unknown field \"{}\"", quoted(k))));
    }
}

/// A string field, when present; `non_empty` refuses "".
fn text(obj: &Map<String, Value>, at: &str, field: &str, non_empty: bool, out: &mut Vec<CardProblem>) {
    match obj.get(field) {
        None => {}
        Some(Value::String(s)) if non_empty && s.is_empty() => {
            out.push(problem(&format!("{at}/{field}"), "must not be empty"))
        }
        Some(Value::String(_)) => {}
        Some(_) => out.push(problem(&format!("{at}/{field}"), "must be a string")),
    }
}

/// Why a card could not be made from the flags given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewCardError {
    /// A card asks something.
    #[error("the question is empty")]
    NoQuestion,
    /// A card has 2 or 3 options.
    #[error("a card has 2 or 3 options, found {0}")]
    OptionCount(usize),
    /// An option with no text.
    #[error("option {0} is empty")]
    EmptyOption(usize),
    /// Two options that read the same.
    #[error("option \"{0}\" is given twice")]
    RepeatedOption(String),
    /// A recommendation that is none of the options.
    #[error("the recommendation \"{given}\" is none of the options ({options})")]
    Recommendation {
        /// What was given.
        given: String,
        /// The options' labels.
        options: String,
    },
    /// A confidence outside high, medium, low.
    #[error("the confidence must be one of high, medium, low, found \"{0}\"")]
    Confidence(String),
}

/// A valid card to fill in: the question, each option (its id made from its label), the
/// recommendation (the first option when none is given, by id or label), the confidence, and
/// empty `consequence`, `impact` and `diff_summary` for a person to write.
pub fn new_card(
    question: &str,
    options: &[String],
    recommendation: Option<&str>,
    confidence: &str,
) -> Result<Value, NewCardError> {
    if question.trim().is_empty() {
        return Err(NewCardError::NoQuestion);
    }
    if !(2..=3).contains(&options.len()) {
        return Err(NewCardError::OptionCount(options.len()));
    }
    if !CONFIDENCES.contains(&confidence) {
        return Err(NewCardError::Confidence(confidence.into()));
    }
    let mut made: Vec<(String, String)> = Vec::new();
    for (i, label) in options.iter().map(|o| o.trim()).enumerate() {
        if label.is_empty() {
            return Err(NewCardError::EmptyOption(i + 1));
        }
        if made.iter().any(|(_, l)| l == label) {
            return Err(NewCardError::RepeatedOption(label.into()));
        }
        let slug = slug(label).unwrap_or_else(|| format!("option-{}", i + 1));
        let id = if made.iter().any(|(id, _)| *id == slug) { format!("{slug}-{}", i + 1) } else { slug };
        made.push((id, label.to_string()));
    }
    let recommended = match recommendation.map(str::trim) {
        None => made[0].0.clone(),
        Some(r) => match made.iter().find(|(id, label)| id == r || label == r) {
            Some((id, _)) => id.clone(),
            None => {
                let labels: Vec<&str> = made.iter().map(|(_, l)| l.as_str()).collect();
                return Err(NewCardError::Recommendation { given: r.into(), options: labels.join(", ") });
            }
        },
    };
    let options: Vec<Value> =
        made.into_iter().map(|(id, label)| serde_json::json!({"id": id, "label": label, "consequence": ""})).collect();
    Ok(serde_json::json!({
        "question": question.trim(),
        "options": options,
        "recommendation": recommended,
        "confidence": confidence,
        "impact": "",
        "diff_summary": "",
    }))
}

/// An option's id from its label: lowercase ASCII letters and digits, words joined by `-`;
/// none when the label has no such characters.
fn slug(label: &str) -> Option<String> {
    let words: Vec<String> = label
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    (!words.is_empty()).then(|| words.join("-"))
}

/// An answer that names no option of its card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{answer}\" is no option of this card (options: {options})")]
pub struct NotAnOption {
    /// The answer given.
    pub answer: String,
    /// The card's options, `id (label)`.
    pub options: String,
}

/// The option an answer names, by id or label.
pub fn chosen_option<'a>(card: &'a Value, answer: &str) -> Result<&'a Value, NotAnOption> {
    let options = card["options"].as_array().map(Vec::as_slice).unwrap_or_default();
    options.iter().find(|o| o["id"].as_str() == Some(answer) || o["label"].as_str() == Some(answer)).ok_or_else(|| {
        let ids: Vec<String> = options
            .iter()
            .map(|o| format!("{} ({})", o["id"].as_str().unwrap_or("?"), o["label"].as_str().unwrap_or("?")))
            .collect();
        NotAnOption { answer: answer.to_string(), options: ids.join(", ") }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_card_is_valid_and_names_its_options_from_their_labels() {
        let opts = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let card =
            new_card("Ship on Friday?", &opts(&["Ship it", "Wait until Monday"]), Some("Wait until Monday"), "low")
                .expect("card");
        assert!(card_problems(&card).is_empty(), "{card}");
        assert_eq!(card["options"][1]["id"], "wait-until-monday");
        assert_eq!(card["recommendation"], "wait-until-monday");
        let jp = new_card("金曜日?", &opts(&["はい", "いいえ"]), None, "medium").expect("card");
        assert_eq!(
            (jp["options"][0]["id"].clone(), jp["recommendation"].clone()),
            (json!("option-1"), json!("option-1"))
        );
        assert!(card_problems(&jp).is_empty());
        assert_eq!(new_card("q", &opts(&["a"]), None, "low"), Err(NewCardError::OptionCount(1)));
        assert!(matches!(
            new_card("q", &opts(&["a", "b"]), Some("c"), "low"),
            Err(NewCardError::Recommendation { .. })
        ));
        assert_eq!(new_card("q", &opts(&["a", "a"]), None, "low"), Err(NewCardError::RepeatedOption("a".into())));
        let twins = new_card("q", &opts(&["A b", "a-B"]), None, "low").expect("card");
        assert_eq!(twins["options"][1]["id"], "a-b-2");
    }
    use serde_json::json;

    fn card() -> Value {
        json!({"question": "Ship it?", "options": [
            {"id": "a", "label": "Ship", "consequence": "users get it"},
            {"id": "b", "label": "Wait", "consequence": "a week later"}],
            "recommendation": "a", "confidence": "high", "impact": "medium", "diff_summary": "2 files"})
    }

    fn whats(card: &Value) -> Vec<String> {
        card_problems(card).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_good_card_has_no_problems() {
        assert_eq!(whats(&card()), Vec::<String>::new());
    }

    #[test]
    fn a_recommendation_that_is_no_option_is_refused_naming_the_options() {
        let mut c = card();
        c["recommendation"] = json!("Ship");
        assert_eq!(whats(&c), ["/recommendation: \"Ship\" is no option's id (options: a, b)"]);
    }

    #[test]
    fn duplicate_option_ids_are_refused() {
        let mut c = card();
        c["options"][1]["id"] = json!("a");
        assert_eq!(whats(&c), ["/options/1/id: \"a\" is the id of an earlier option too"]);
    }

    #[test]
    fn every_schema_rule_is_named_where_it_breaks() {
        let c = json!({"question": "", "options": [{"id": "a"}], "recommendation": "a", "confidence": "sure",
            "impact_score": 101, "extra": 1, "similar_past_decisions": [{"summary": "s", "decision": "d", "outcome": "o",
            "decided_at": "t", "mem_id": "x:1"}]});
        assert_eq!(
            whats(&c),
            [
                "/: unknown field \"extra\"",
                "/: missing required field \"impact\"",
                "/: missing required field \"diff_summary\"",
                "/question: must not be empty",
                "/confidence: must be one of high, medium, low, found \"sure\"",
                "/impact_score: must be an integer from 0 to 100, found 101",
                "/options: must have 2 or 3 options, found 1",
                "/options/0: missing required field \"label\"",
                "/options/0: missing required field \"consequence\"",
                "/similar_past_decisions/0/mem_id: must start with \"judgment-ledger:\", found \"x:1\"",
            ]
        );
    }

    #[test]
    fn an_answer_names_an_option_by_id_or_label() {
        let c = card();
        assert_eq!(chosen_option(&c, "b").map(|o| o["id"].clone()), Ok(json!("b")));
        assert_eq!(chosen_option(&c, "Wait").map(|o| o["id"].clone()), Ok(json!("b")));
        assert_eq!(
            chosen_option(&c, "maybe").err().map(|e| e.to_string()).as_deref(),
            Some("\"maybe\" is no option of this card (options: a (Ship), b (Wait))")
        );
    }
}
