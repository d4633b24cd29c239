//! The `decisions/1.0` contract's constants, and the catalog JSON Schema derived from them
//! (`decisions schema`, `schemas/catalog.schema.json`). The validator in [`crate::contract`]
//! branches on the same constants, so the two cannot drift.

use serde_json::{Map, Value, json};

/// The contract version every catalog and config declares.
pub const CONTRACT_VERSION: &str = "decisions/1.0";
/// The legal question types, in the order the contract lists them.
pub const QUESTION_TYPES: [&str; 3] = ["choice", "score", "noul"];
/// The fewest and most levels a score question may have.
pub const SCORE_LEVELS: std::ops::RangeInclusive<usize> = 2..=10;
/// The fewest options a choice question may have.
pub const CHOICE_MIN_OPTIONS: usize = 2;
/// The contract's ceiling on a choice's options; a provider may declare less, never more.
pub const CHOICE_MAX_OPTIONS: usize = 255;
/// The keys a noul's criteria may carry.
pub const NOUL_CRITERIA_KEYS: [&str; 2] = ["true", "false"];

/// The bars every threshold block must set.
pub(crate) const REQUIRED_BARS: [&str; 3] = ["floor", "escalate", "act"];
/// The bars a threshold block may set.
pub(crate) const OPTIONAL_BARS: [&str; 2] = ["act_raise", "act_lower"];

/// The catalog JSON Schema (draft-07), derived from the contract's constants.
pub fn catalog_schema() -> Value {
    let bar = json!({"type": "number", "minimum": 0, "maximum": 1});
    let bars: Map<String, Value> =
        REQUIRED_BARS.iter().chain(OPTIONAL_BARS.iter()).map(|b| (b.to_string(), bar.clone())).collect();
    let instructions = json!({"description": "a string, or structured guidance such as {question, focus, note}",
        "not": {"enum": [null, "", [], {}]}});
    let typed = |name: &str, criteria: Value, required_criteria: bool| {
        let mut required = vec!["type", "instructions"];
        if required_criteria {
            required.push("criteria");
        }
        json!({
            "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
            "then": {"properties": {"criteria": criteria}, "required": required}
        })
    };
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://decisions.dev/schemas/catalog.schema.json",
        "title": format!("{CONTRACT_VERSION} question catalog"),
        "type": "object",
        "required": ["version", "questions", "thresholds"],
        "additionalProperties": false,
        "properties": {
            "$schema": {"type": "string"},
            "version": {"const": CONTRACT_VERSION},
            "thresholds_for": {"type": "string", "minLength": 1},
            "questions": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["type", "instructions"],
                    "additionalProperties": false,
                    "properties": {
                        "type": {"enum": QUESTION_TYPES},
                        "instructions": instructions,
                        "criteria": {}
                    },
                    "allOf": [
                        typed("choice", json!({"type": "object",
                            "minProperties": CHOICE_MIN_OPTIONS, "maxProperties": CHOICE_MAX_OPTIONS}), true),
                        typed("score", json!({"type": "array",
                            "minItems": SCORE_LEVELS.start(), "maxItems": SCORE_LEVELS.end()}), true),
                        typed("noul", json!({"type": ["object", "null"],
                            "propertyNames": {"enum": NOUL_CRITERIA_KEYS}}), false)
                    ]
                }
            },
            "thresholds": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": REQUIRED_BARS,
                    "additionalProperties": false,
                    "properties": bars
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_is_derived_from_the_constants() {
        let s = catalog_schema();
        assert_eq!(s["properties"]["version"]["const"], CONTRACT_VERSION);
        assert_eq!(
            s["properties"]["questions"]["additionalProperties"]["properties"]["type"]["enum"],
            json!(QUESTION_TYPES)
        );
        let all_of = &s["properties"]["questions"]["additionalProperties"]["allOf"];
        assert_eq!(all_of[0]["then"]["properties"]["criteria"]["maxProperties"], CHOICE_MAX_OPTIONS);
        assert_eq!(all_of[1]["then"]["properties"]["criteria"]["maxItems"], *SCORE_LEVELS.end());
    }
}
