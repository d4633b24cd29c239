//! Bands: what a caller may do with an answer, given its certainty and the question's bars.

use serde::{Deserialize, Serialize};

use crate::contract::Thresholds;

/// What a caller may do with an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Act on the answer.
    Act,
    /// Keep the answer, but do not act on it unattended.
    Escalate,
    /// The deterministic fallback stands.
    Floor,
}

impl Band {
    /// The band's name as it is written in output and ledgers.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Act => "act",
            Band::Escalate => "escalate",
            Band::Floor => "floor",
        }
    }
}

impl std::str::FromStr for Band {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "act" => Ok(Band::Act),
            "escalate" => Ok(Band::Escalate),
            "floor" => Ok(Band::Floor),
            _ => Err(format!("unknown band \"{s}\" (expected act, escalate or floor)")),
        }
    }
}

/// Which way the consumer's verdict would move if it acted on the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Raising scrutiny: `act_raise` is the bar when the catalog sets it.
    Raise,
    /// Lowering scrutiny: `act_lower` is the bar when the catalog sets it.
    Lower,
}

/// The band a certainty falls in against a question's bars.
///
/// No certainty (a failure, an estimated answer) or a non-finite one is `Floor`; below the floor
/// is `Floor`; at or above the act bar is `Act`; otherwise `Escalate`. With a direction, the act
/// bar is `act_raise` / `act_lower` when present, else `act`.
pub fn band_of(thresholds: &Thresholds, certainty: Option<f64>, direction: Option<Direction>) -> Band {
    let Some(c) = certainty.filter(|c| c.is_finite()) else {
        return Band::Floor;
    };
    let bar = match direction {
        Some(Direction::Raise) => thresholds.act_raise.unwrap_or(thresholds.act),
        Some(Direction::Lower) => thresholds.act_lower.unwrap_or(thresholds.act),
        None => thresholds.act,
    };
    if c < thresholds.floor {
        Band::Floor
    } else if c >= bar {
        Band::Act
    } else {
        Band::Escalate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars(act_raise: Option<f64>, act_lower: Option<f64>) -> Thresholds {
        Thresholds { floor: 0.5, escalate: 0.65, act: 0.85, act_raise, act_lower }
    }

    #[test]
    fn certainty_exactly_at_floor_is_escalate_not_floor() {
        assert_eq!(band_of(&bars(None, None), Some(0.5), None), Band::Escalate);
        assert_eq!(band_of(&bars(None, None), Some(0.4999), None), Band::Floor);
    }

    #[test]
    fn certainty_exactly_at_act_acts() {
        assert_eq!(band_of(&bars(None, None), Some(0.85), None), Band::Act);
        assert_eq!(band_of(&bars(None, None), Some(0.8499), None), Band::Escalate);
    }

    #[test]
    fn no_certainty_or_nan_is_floor() {
        assert_eq!(band_of(&bars(None, None), None, None), Band::Floor);
        assert_eq!(band_of(&bars(None, None), Some(f64::NAN), None), Band::Floor);
        assert_eq!(band_of(&bars(None, None), Some(f64::INFINITY), None), Band::Floor);
    }

    #[test]
    fn direction_uses_its_own_bar_when_present() {
        let t = bars(Some(0.65), Some(0.95));
        assert_eq!(band_of(&t, Some(0.7), Some(Direction::Raise)), Band::Act);
        assert_eq!(band_of(&t, Some(0.9), Some(Direction::Lower)), Band::Escalate);
        assert_eq!(band_of(&t, Some(0.9), None), Band::Act);
    }

    #[test]
    fn act_raise_without_act_lower_falls_back_to_act_for_lowering() {
        let t = bars(Some(0.65), None);
        assert_eq!(band_of(&t, Some(0.7), Some(Direction::Raise)), Band::Act);
        assert_eq!(band_of(&t, Some(0.7), Some(Direction::Lower)), Band::Escalate);
        assert_eq!(band_of(&t, Some(0.85), Some(Direction::Lower)), Band::Act);
    }

    #[test]
    fn a_catalog_with_only_the_three_bars_ignores_direction() {
        let t = bars(None, None);
        for c in [0.3, 0.5, 0.7, 0.85, 1.0] {
            let plain = band_of(&t, Some(c), None);
            assert_eq!(band_of(&t, Some(c), Some(Direction::Raise)), plain);
            assert_eq!(band_of(&t, Some(c), Some(Direction::Lower)), plain);
        }
    }

    use proptest::prelude::*;

    fn rank(b: Band) -> u8 {
        match b {
            Band::Floor => 0,
            Band::Escalate => 1,
            Band::Act => 2,
        }
    }

    proptest! {
        /// More certainty never lowers the band, in either direction; the band is exactly where
        /// the certainty falls against the floor and the bar in force.
        #[test]
        fn the_band_follows_the_bars(
            floor in 0.0f64..=1.0,
            act in 0.0f64..=1.0,
            raise in prop::option::of(0.0f64..=1.0),
            lower in prop::option::of(0.0f64..=1.0),
            lo in 0.0f64..=1.0,
            hi in 0.0f64..=1.0,
            direction in prop::option::of(prop_oneof![Just(Direction::Raise), Just(Direction::Lower)]),
        ) {
            let act = act.max(floor);
            let t = Thresholds {
                floor,
                escalate: floor,
                act,
                act_raise: raise.map(|r| r.max(floor)),
                act_lower: lower.map(|l| l.max(floor)),
            };
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            let (a, b) = (band_of(&t, Some(lo), direction), band_of(&t, Some(hi), direction));
            prop_assert!(rank(a) <= rank(b), "{lo} -> {a:?}, {hi} -> {b:?}");
            let bar = match direction {
                Some(Direction::Raise) => t.act_raise.unwrap_or(act),
                Some(Direction::Lower) => t.act_lower.unwrap_or(act),
                None => act,
            };
            let want = if hi < floor { Band::Floor } else if hi >= bar { Band::Act } else { Band::Escalate };
            prop_assert_eq!(b, want);
            prop_assert_eq!(band_of(&t, None, direction), Band::Floor);
            prop_assert_eq!(band_of(&t, Some(f64::NAN), direction), Band::Floor);
        }
    }
}
