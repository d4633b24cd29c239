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
        out.push(problem("/confidence", format!("must be one of high, medium, low, found {c}")));
    }
    if let Some(s) = obj.get("impact_score")
        && s.as_u64().is_none_or(|s| s > 100)
    {
        out.push(problem("/impact_score", format!("must be an integer from 0 to 100, found {s}")));
    }
    let ids = options(obj, &mut out);
    if let (Some(rec), Some(ids)) = (obj.get("recommendation").and_then(Value::as_str), ids)
        && !rec.is_empty()
        && !ids.iter().any(|id| id == rec)
    {
        out.push(problem("/recommendation", format!("\"{rec}\" is no option's id (options: {})", ids.join(", "))));
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
                                format!("must start with \"judgment-ledger:\", found \"{s}\""),
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
                out.push(problem(&format!("{at}/id"), format!("\"{id}\" is the id of an earlier option too")));
            }
            ids.push(id.to_string());
        }
    }
    Some(ids)
}

/// Fields outside `allowed` are refused, each named.
fn closed(obj: &Map<String, Value>, at: &str, allowed: &[&str], out: &mut Vec<CardProblem>) {
    for k in obj.keys().filter(|k| !allowed.contains(&k.as_str())) {
        out.push(problem(at, format!("unknown field \"{k}\"")));
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

/// The option an answer names, by id or label; `Err` lists the options to choose from.
pub fn chosen_option<'a>(card: &'a Value, answer: &str) -> Result<&'a Value, String> {
    let options = card["options"].as_array().map(Vec::as_slice).unwrap_or_default();
    options.iter().find(|o| o["id"].as_str() == Some(answer) || o["label"].as_str() == Some(answer)).ok_or_else(|| {
        let ids: Vec<String> = options
            .iter()
            .map(|o| format!("{} ({})", o["id"].as_str().unwrap_or("?"), o["label"].as_str().unwrap_or("?")))
            .collect();
        format!("\"{answer}\" is no option of this card (options: {})", ids.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
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
            chosen_option(&c, "maybe").err().as_deref(),
            Some("\"maybe\" is no option of this card (options: a (Ship), b (Wait))")
        );
    }
}
