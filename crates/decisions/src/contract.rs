//! The `decisions/1.0` contract: the typed catalog and `validate_catalog`.
//!
//! A catalog is parsed from JSON into [`Catalog`] by [`validate_catalog`], which reports every
//! rule it finds broken rather than stopping at the first. The constants it branches on live in
//! [`crate::schema`], beside the JSON Schema derived from them.

use serde_json::{Map, Value};

use crate::descriptor::Descriptor;
use crate::schema::{
    CHOICE_MAX_OPTIONS, CHOICE_MIN_OPTIONS, CONTRACT_VERSION, NOUL_CRITERIA_KEYS, OPTIONAL_BARS, REQUIRED_BARS,
    SCORE_LEVELS,
};

const CATALOG_FIELDS: [&str; 5] = ["$schema", "version", "thresholds_for", "questions", "thresholds"];
const QUESTION_FIELDS: [&str; 3] = ["type", "instructions", "criteria"];

/// A validated catalog: the questions one consumer asks, each with its bars.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    /// The provider the bars were fitted or chosen against, when the catalog says.
    pub thresholds_for: Option<String>,
    /// The questions, in the order the catalog lists them.
    pub questions: Vec<Question>,
}

impl Catalog {
    /// The question with this id.
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }
}

/// One typed question with its instructions, criteria and threshold block.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The caller's key for the question; never shown to the model.
    pub id: String,
    /// Instructions exactly as the catalog gives them (a string or structured JSON).
    pub instructions: Value,
    /// The type and its criteria.
    pub kind: QuestionKind,
    /// The question's bars.
    pub thresholds: Thresholds,
}

/// The three question types, each with its criteria form.
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionKind {
    /// Pick one option; each option maps to a description or `null`.
    Choice {
        /// Option name and description, in catalog order.
        options: Vec<(String, Value)>,
    },
    /// An ordinal level; position in the array is the level number.
    Score {
        /// Level descriptions, low end first.
        levels: Vec<Value>,
    },
    /// The probability the answer is yes, with optional `true` / `false` clarifications.
    Noul {
        /// The criteria object, when the catalog gives one.
        criteria: Option<Value>,
    },
}

impl QuestionKind {
    /// The contract's name for this type.
    pub fn type_name(&self) -> &'static str {
        match self {
            QuestionKind::Choice { .. } => "choice",
            QuestionKind::Score { .. } => "score",
            QuestionKind::Noul { .. } => "noul",
        }
    }

    /// The values an answer may take, as strings: option names, levels `"0"`.., or true/false.
    pub fn outcomes(&self) -> Vec<String> {
        match self {
            QuestionKind::Choice { options } => options.iter().map(|(k, _)| k.clone()).collect(),
            QuestionKind::Score { levels } => (0..levels.len()).map(|i| i.to_string()).collect(),
            QuestionKind::Noul { .. } => vec!["true".into(), "false".into()],
        }
    }

    /// The criteria as the catalog wrote them.
    pub fn criteria_json(&self) -> Option<Value> {
        match self {
            QuestionKind::Choice { options } => {
                Some(Value::Object(options.iter().map(|(k, v)| (k.clone(), v.clone())).collect()))
            }
            QuestionKind::Score { levels } => Some(Value::Array(levels.clone())),
            QuestionKind::Noul { criteria } => criteria.clone(),
        }
    }
}

/// A question's bars: floor <= escalate <= act, each in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Below it the deterministic fallback stands, always.
    pub floor: f64,
    /// The answer is kept but not acted on unattended.
    pub escalate: f64,
    /// The bar to act on the answer.
    pub act: f64,
    /// Overrides `act` when the consumer is raising scrutiny.
    pub act_raise: Option<f64>,
    /// Overrides `act` when the consumer is lowering it.
    pub act_lower: Option<f64>,
}

/// One broken contract rule, naming the question or provider it concerns.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CatalogError {
    #[error("catalog must be a JSON object")]
    NotAnObject,
    #[error("version must be \"{CONTRACT_VERSION}\", found {found}")]
    Version { found: String },
    #[error("{at}: unknown field \"{field}\"")]
    UnknownField { at: String, field: String },
    #[error("{at}: {field} must be {expected}")]
    Shape { at: String, field: String, expected: String },
    #[error("{at}: missing field \"{field}\"")]
    MissingField { at: String, field: String },
    #[error("question \"{question}\": unknown type {found} (legal types: choice, score, noul)")]
    UnknownType { question: String, found: String },
    #[error("question \"{question}\": missing instructions")]
    MissingInstructions { question: String },
    #[error("question \"{question}\": a choice needs at least {CHOICE_MIN_OPTIONS} options, found {count}")]
    TooFewOptions { question: String, count: usize },
    #[error("question \"{question}\": {count} options is more than {}", limit_of(*max, provider.as_deref()))]
    TooManyOptions { question: String, count: usize, max: usize, provider: Option<String> },
    #[error("question \"{question}\": a score needs 2 to 10 levels, found {count}")]
    ScoreLevels { question: String, count: usize },
    #[error("question \"{question}\": noul criteria may only have the keys true and false, found \"{key}\"")]
    NoulCriteriaKey { question: String, key: String },
    #[error("question \"{question}\": no threshold block (add thresholds.{question})")]
    MissingThresholds { question: String },
    #[error("thresholds \"{question}\": orphan threshold block, no question has this id")]
    OrphanThresholds { question: String },
    #[error("thresholds \"{question}\": missing {field}")]
    MissingBar { question: String, field: String },
    #[error("thresholds \"{question}\": {field} must be a finite number in [0, 1], found {found}")]
    BarValue { question: String, field: String, found: String },
    #[error(
        "thresholds \"{question}\": floor <= escalate <= act is broken (floor {floor}, escalate {escalate}, act {act})"
    )]
    BarOrder { question: String, floor: f64, escalate: f64, act: f64 },
    #[error(
        "catalog thresholds are for provider \"{catalog}\" but the active provider is \"{active}\"; give \"{active}\" its own threshold file (\"thresholds_for\": \"{active}\"; see docs/providers.md, \"Starting an uncalibrated provider\")"
    )]
    ThresholdsForMismatch { catalog: String, active: String },
    #[error(
        "provider \"{provider}\" is uncalibrated and the catalog names no thresholds_for; it has no calibrated bars to borrow, so give it bars chosen for itself: \"thresholds_for\": \"{provider}\" (see docs/providers.md, \"Starting an uncalibrated provider\")"
    )]
    UncalibratedUnlabelled { provider: String },
}

fn limit_of(max: usize, provider: Option<&str>) -> String {
    match provider {
        Some(p) => format!("provider \"{p}\" allows ({max})"),
        None => format!("the contract's limit of {max}"),
    }
}

/// Validate a catalog document against the contract and the active provider.
///
/// Every broken rule is reported, each naming its question id or provider. The `none`
/// provider is exempt from the provider-dependent checks.
pub fn validate_catalog(doc: &Value, provider: &Descriptor) -> Result<Catalog, Vec<CatalogError>> {
    let mut errs = Vec::new();
    let Some(obj) = doc.as_object() else {
        return Err(vec![CatalogError::NotAnObject]);
    };
    unknown_fields(obj, &CATALOG_FIELDS, "catalog", &mut errs);
    match obj.get("version") {
        Some(Value::String(v)) if v == CONTRACT_VERSION => {}
        other => errs.push(CatalogError::Version { found: describe(other) }),
    }
    let thresholds_for = match obj.get("thresholds_for") {
        None => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => {
            errs.push(shape("catalog", "thresholds_for", "a non-empty provider name"));
            None
        }
    };
    let empty = Map::new();
    let questions = object_field(obj, "questions", "catalog", &mut errs).unwrap_or(&empty);
    let thresholds = object_field(obj, "thresholds", "catalog", &mut errs).unwrap_or(&empty);

    let exempt = provider.name == crate::descriptor::NONE;
    let max_options = if exempt { CHOICE_MAX_OPTIONS } else { (provider.max_options as usize).min(CHOICE_MAX_OPTIONS) };
    let provider_limit = (max_options < CHOICE_MAX_OPTIONS).then(|| provider.name.clone());

    let mut parsed = Vec::new();
    for (id, q) in questions {
        let kind = question_kind(id, q, max_options, &provider_limit, &mut errs);
        let bars = match thresholds.get(id) {
            Some(t) => bars(id, t, &mut errs),
            None => {
                errs.push(CatalogError::MissingThresholds { question: id.clone() });
                None
            }
        };
        let instructions = q.get("instructions").cloned();
        if let (Some(kind), Some(thresholds), Some(instructions)) = (kind, bars, instructions) {
            parsed.push(Question { id: id.clone(), instructions, kind, thresholds });
        }
    }
    for id in thresholds.keys().filter(|id| !questions.contains_key(*id)) {
        errs.push(CatalogError::OrphanThresholds { question: id.clone() });
    }

    if !exempt {
        match &thresholds_for {
            Some(named) if *named != provider.name => {
                errs.push(CatalogError::ThresholdsForMismatch { catalog: named.clone(), active: provider.name.clone() })
            }
            None if !provider.calibrated => {
                errs.push(CatalogError::UncalibratedUnlabelled { provider: provider.name.clone() })
            }
            _ => {}
        }
    }

    if errs.is_empty() { Ok(Catalog { thresholds_for, questions: parsed }) } else { Err(errs) }
}

fn question_kind(
    id: &str,
    q: &Value,
    max_options: usize,
    provider_limit: &Option<String>,
    errs: &mut Vec<CatalogError>,
) -> Option<QuestionKind> {
    let at = format!("question \"{id}\"");
    let Some(q) = q.as_object() else {
        errs.push(shape(&at, "the question", "an object"));
        return None;
    };
    unknown_fields(q, &QUESTION_FIELDS, &at, errs);
    if q.get("instructions").is_none_or(is_blank) {
        errs.push(CatalogError::MissingInstructions { question: id.into() });
    }
    let criteria = q.get("criteria");
    match q.get("type").and_then(Value::as_str) {
        Some("choice") => {
            let Some(opts) = criteria.and_then(Value::as_object) else {
                errs.push(shape(&at, "criteria", "an object of option name to description"));
                return None;
            };
            let count = opts.len();
            if count < CHOICE_MIN_OPTIONS {
                errs.push(CatalogError::TooFewOptions { question: id.into(), count });
            } else if count > max_options {
                errs.push(CatalogError::TooManyOptions {
                    question: id.into(),
                    count,
                    max: max_options,
                    provider: provider_limit.clone(),
                });
            }
            let options = opts.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            Some(QuestionKind::Choice { options })
        }
        Some("score") => {
            let Some(levels) = criteria.and_then(Value::as_array) else {
                errs.push(shape(&at, "criteria", "an array of level descriptions, low end first"));
                return None;
            };
            if !SCORE_LEVELS.contains(&levels.len()) {
                errs.push(CatalogError::ScoreLevels { question: id.into(), count: levels.len() });
            }
            Some(QuestionKind::Score { levels: levels.clone() })
        }
        Some("noul") => match criteria {
            None | Some(Value::Null) => Some(QuestionKind::Noul { criteria: None }),
            Some(Value::Object(c)) => {
                for key in c.keys().filter(|k| !NOUL_CRITERIA_KEYS.contains(&k.as_str())) {
                    errs.push(CatalogError::NoulCriteriaKey { question: id.into(), key: key.clone() });
                }
                Some(QuestionKind::Noul { criteria: Some(Value::Object(c.clone())) })
            }
            Some(_) => {
                errs.push(shape(&at, "criteria", "an object with the keys true and/or false"));
                None
            }
        },
        _ => {
            errs.push(CatalogError::UnknownType { question: id.into(), found: describe(q.get("type")) });
            None
        }
    }
}

fn bars(id: &str, t: &Value, errs: &mut Vec<CatalogError>) -> Option<Thresholds> {
    let at = format!("thresholds \"{id}\"");
    let Some(t) = t.as_object() else {
        errs.push(shape(&at, "the threshold block", "an object"));
        return None;
    };
    let before = errs.len();
    let allowed: Vec<&str> = REQUIRED_BARS.iter().chain(OPTIONAL_BARS.iter()).copied().collect();
    unknown_fields(t, &allowed, &at, errs);
    let mut bar = |field: &str, required: bool| -> Option<f64> {
        match t.get(field) {
            None => {
                if required {
                    errs.push(CatalogError::MissingBar { question: id.into(), field: field.into() });
                }
                None
            }
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Some(x),
                _ => {
                    errs.push(CatalogError::BarValue {
                        question: id.into(),
                        field: field.into(),
                        found: v.to_string(),
                    });
                    None
                }
            },
        }
    };
    let (floor, escalate, act) = (bar("floor", true), bar("escalate", true), bar("act", true));
    let (act_raise, act_lower) = (bar("act_raise", false), bar("act_lower", false));
    let (floor, escalate, act) = (floor?, escalate?, act?);
    if !(floor <= escalate && escalate <= act) {
        errs.push(CatalogError::BarOrder { question: id.into(), floor, escalate, act });
    }
    (errs.len() == before).then_some(Thresholds { floor, escalate, act, act_raise, act_lower })
}

fn unknown_fields(obj: &Map<String, Value>, allowed: &[&str], at: &str, errs: &mut Vec<CatalogError>) {
    for key in obj.keys().filter(|k| !allowed.contains(&k.as_str())) {
        errs.push(CatalogError::UnknownField { at: at.into(), field: key.clone() });
    }
}

fn object_field<'a>(
    obj: &'a Map<String, Value>,
    field: &str,
    at: &str,
    errs: &mut Vec<CatalogError>,
) -> Option<&'a Map<String, Value>> {
    let found = obj.get(field).and_then(Value::as_object);
    match obj.get(field) {
        None => errs.push(CatalogError::MissingField { at: at.into(), field: field.into() }),
        Some(_) if found.is_none() => errs.push(shape(at, field, "an object")),
        Some(_) => {}
    }
    found
}

fn shape(at: &str, field: &str, expected: &str) -> CatalogError {
    CatalogError::Shape { at: at.into(), field: field.into(), expected: expected.into() }
}

fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

fn describe(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".into(), Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::builtin;
    use serde_json::json;

    fn jev() -> Descriptor {
        builtin("jev").unwrap_or_else(unreachable_descriptor)
    }

    fn openrouter() -> Descriptor {
        Descriptor { model: "some/model".into(), ..builtin("openrouter").unwrap_or_else(unreachable_descriptor) }
    }

    fn unreachable_descriptor() -> Descriptor {
        Descriptor {
            name: "missing".into(),
            endpoint: String::new(),
            model: String::new(),
            calibrated: false,
            calibration_source: None,
            auth_env: None,
            timeout_ms: 0,
            max_options: 0,
            max_state_tokens: 0,
        }
    }

    fn bars() -> Value {
        json!({"floor": 0.5, "escalate": 0.65, "act": 0.85})
    }

    fn catalog(questions: Value) -> Value {
        let thresholds: Map<String, Value> =
            questions.as_object().map(|q| q.keys().map(|k| (k.clone(), bars())).collect()).unwrap_or_default();
        json!({"version": CONTRACT_VERSION, "questions": questions, "thresholds": thresholds})
    }

    fn choice(n: usize) -> Value {
        let opts: Map<String, Value> = (0..n).map(|i| (format!("o{i}"), Value::Null)).collect();
        json!({"type": "choice", "instructions": "pick", "criteria": opts})
    }

    fn errors(doc: &Value, d: &Descriptor) -> Vec<CatalogError> {
        validate_catalog(doc, d).err().unwrap_or_default()
    }

    #[test]
    fn a_valid_catalog_parses_into_typed_questions() {
        let doc = catalog(json!({
            "a": choice(3),
            "b": {"type": "score", "instructions": {"question": "how bad"}, "criteria": ["x", "y"]},
            "c": {"type": "noul", "instructions": "yes?", "criteria": {"true": {"what": "y"}}},
            "d": {"type": "noul", "instructions": "yes?"}
        }));
        let c = validate_catalog(&doc, &jev()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(c.questions.iter().map(|q| q.id.as_str()).collect::<Vec<_>>(), ["a", "b", "c", "d"]);
        assert_eq!(c.questions[0].kind.outcomes(), ["o0", "o1", "o2"]);
        assert_eq!(c.questions[1].kind.outcomes(), ["0", "1"]);
        assert_eq!(c.questions[3].kind, QuestionKind::Noul { criteria: None });
        assert_eq!(c.questions[0].thresholds.act, 0.85);
    }

    #[test]
    fn a_missing_section_is_named_missing_not_misshapen() {
        let doc = json!({"version": CONTRACT_VERSION, "thresholds": {}});
        assert_eq!(
            errors(&doc, &jev()),
            [CatalogError::MissingField { at: "catalog".into(), field: "questions".into() }]
        );
        assert_eq!(errors(&doc, &jev())[0].to_string(), "catalog: missing field \"questions\"");
        let doc = json!({"version": CONTRACT_VERSION, "questions": [], "thresholds": {}});
        assert_eq!(errors(&doc, &jev())[0].to_string(), "catalog: questions must be an object");
    }

    #[test]
    fn wrong_version_is_refused() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["version"] = json!("decisions/2.0");
        assert_eq!(errors(&doc, &jev()), [CatalogError::Version { found: "\"decisions/2.0\"".into() }]);
    }

    #[test]
    fn unknown_type_lists_the_legal_ones() {
        let doc = catalog(json!({"a": {"type": "boolean", "instructions": "x"}}));
        let errs = errors(&doc, &jev());
        assert_eq!(errs, [CatalogError::UnknownType { question: "a".into(), found: "\"boolean\"".into() }]);
        assert_eq!(errs[0].to_string(), "question \"a\": unknown type \"boolean\" (legal types: choice, score, noul)");
    }

    #[test]
    fn missing_or_empty_instructions_are_refused() {
        let doc = catalog(json!({
            "a": {"type": "noul"},
            "b": {"type": "noul", "instructions": "  "},
            "c": {"type": "noul", "instructions": {}}
        }));
        let errs = errors(&doc, &jev());
        let ids: Vec<String> = errs
            .iter()
            .map(|e| match e {
                CatalogError::MissingInstructions { question } => question.clone(),
                other => panic!("unexpected {other}"),
            })
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
    }

    #[test]
    fn one_option_is_too_few() {
        let errs = errors(&catalog(json!({"a": choice(1)})), &jev());
        assert_eq!(errs, [CatalogError::TooFewOptions { question: "a".into(), count: 1 }]);
    }

    #[test]
    fn option_ceiling_is_255_on_jev() {
        assert!(validate_catalog(&catalog(json!({"a": choice(255)})), &jev()).is_ok());
        let errs = errors(&catalog(json!({"a": choice(256)})), &jev());
        assert_eq!(errs, [CatalogError::TooManyOptions { question: "a".into(), count: 256, max: 255, provider: None }]);
        assert_eq!(errs[0].to_string(), "question \"a\": 256 options is more than the contract's limit of 255");
    }

    #[test]
    fn option_ceiling_is_the_providers_when_lower_and_names_it() {
        let mut ok = catalog(json!({"a": choice(64)}));
        ok["thresholds_for"] = json!("openrouter");
        assert!(validate_catalog(&ok, &openrouter()).is_ok());
        let mut over = catalog(json!({"a": choice(65)}));
        over["thresholds_for"] = json!("openrouter");
        let errs = errors(&over, &openrouter());
        assert_eq!(
            errs,
            [CatalogError::TooManyOptions {
                question: "a".into(),
                count: 65,
                max: 64,
                provider: Some("openrouter".into())
            }]
        );
        assert!(errs[0].to_string().contains("provider \"openrouter\" allows (64)"));
    }

    #[test]
    fn score_levels_are_2_to_10() {
        let score = |n: usize| json!({"type": "score", "instructions": "x", "criteria": vec!["l"; n]});
        assert!(validate_catalog(&catalog(json!({"a": score(10), "b": score(2)})), &jev()).is_ok());
        let errs = errors(&catalog(json!({"a": score(11), "b": score(1)})), &jev());
        assert_eq!(
            errs,
            [
                CatalogError::ScoreLevels { question: "a".into(), count: 11 },
                CatalogError::ScoreLevels { question: "b".into(), count: 1 }
            ]
        );
    }

    #[test]
    fn noul_criteria_keys_are_true_and_false_only() {
        let doc = catalog(json!({"a": {"type": "noul", "instructions": "x", "criteria": {"true": "y", "maybe": "z"}}}));
        assert_eq!(errors(&doc, &jev()), [CatalogError::NoulCriteriaKey { question: "a".into(), key: "maybe".into() }]);
    }

    #[test]
    fn missing_and_orphan_threshold_blocks_name_the_question() {
        let doc = json!({"version": CONTRACT_VERSION,
            "questions": {"a": choice(2)},
            "thresholds": {"ghost": bars()}});
        let errs = errors(&doc, &jev());
        assert_eq!(
            errs,
            [
                CatalogError::MissingThresholds { question: "a".into() },
                CatalogError::OrphanThresholds { question: "ghost".into() }
            ]
        );
        assert!(errs[0].to_string().contains("\"a\""));
        assert!(errs[1].to_string().contains("\"ghost\""));
    }

    #[test]
    fn thresholds_must_be_finite_numbers_in_the_unit_interval() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["thresholds"]["a"] =
            json!({"floor": "NaN", "escalate": 1.5, "act": -0.1, "act_raise": null, "act_lower": "0.9"});
        let fields: Vec<String> = errors(&doc, &jev())
            .into_iter()
            .map(|e| match e {
                CatalogError::BarValue { field, .. } => field,
                other => panic!("unexpected {other}"),
            })
            .collect();
        assert_eq!(fields, ["floor", "escalate", "act", "act_raise", "act_lower"]);
    }

    #[test]
    fn bar_order_is_enforced() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["thresholds"]["a"] = json!({"floor": 0.7, "escalate": 0.6, "act": 0.9});
        assert_eq!(
            errors(&doc, &jev()),
            [CatalogError::BarOrder { question: "a".into(), floor: 0.7, escalate: 0.6, act: 0.9 }]
        );
        doc["thresholds"]["a"] = json!({"floor": 0.7, "escalate": 0.7, "act": 0.7});
        assert!(validate_catalog(&doc, &jev()).is_ok());
    }

    #[test]
    fn act_raise_without_act_lower_is_legal() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["thresholds"]["a"]["act_raise"] = json!(0.65);
        let c = validate_catalog(&doc, &jev()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((c.questions[0].thresholds.act_raise, c.questions[0].thresholds.act_lower), (Some(0.65), None));
    }

    #[test]
    fn unknown_fields_are_refused_everywhere() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["extra"] = json!(1);
        doc["questions"]["a"]["hint"] = json!("x");
        doc["thresholds"]["a"]["ceiling"] = json!(1);
        assert_eq!(
            errors(&doc, &jev()),
            [
                CatalogError::UnknownField { at: "catalog".into(), field: "extra".into() },
                CatalogError::UnknownField { at: "question \"a\"".into(), field: "hint".into() },
                CatalogError::UnknownField { at: "thresholds \"a\"".into(), field: "ceiling".into() },
            ]
        );
    }

    #[test]
    fn every_error_is_reported_not_only_the_first() {
        let doc = json!({"version": "x", "questions": {"a": choice(1), "b": {"type": "nope"}},
                          "thresholds": {"a": {"floor": 2, "escalate": 0.1, "act": 0.2}, "z": bars()}});
        assert_eq!(errors(&doc, &jev()).len(), 7);
    }

    #[test]
    fn thresholds_for_naming_another_provider_is_refused_naming_both() {
        let mut doc = catalog(json!({"a": choice(2)}));
        doc["thresholds_for"] = json!("openrouter");
        let errs = errors(&doc, &jev());
        assert_eq!(errs, [CatalogError::ThresholdsForMismatch { catalog: "openrouter".into(), active: "jev".into() }]);
        let msg = errs[0].to_string();
        assert!(msg.contains("\"openrouter\"") && msg.contains("\"jev\""), "{msg}");
        assert!(msg.contains("give \"jev\" its own threshold file"), "{msg}");
    }

    #[test]
    fn uncalibrated_provider_needs_its_own_bars() {
        let doc = catalog(json!({"a": choice(2)}));
        let errs = errors(&doc, &openrouter());
        assert_eq!(errs, [CatalogError::UncalibratedUnlabelled { provider: "openrouter".into() }]);
        assert!(errs[0].to_string().contains("\"thresholds_for\": \"openrouter\""));
        // Absent thresholds_for stays legal for a calibrated provider.
        assert!(validate_catalog(&doc, &jev()).is_ok());
    }

    #[test]
    fn the_none_provider_is_exempt_from_provider_checks() {
        let none = builtin("none").unwrap_or_else(unreachable_descriptor);
        let mut doc = catalog(json!({"a": choice(255)}));
        doc["thresholds_for"] = json!("openrouter");
        assert!(validate_catalog(&doc, &none).is_ok());
        // Provider-independent rules still hold.
        let over = catalog(json!({"a": choice(256)}));
        assert_eq!(errors(&over, &none).len(), 1);
    }
}
