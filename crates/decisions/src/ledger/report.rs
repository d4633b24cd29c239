//! The calibration report: per provider and question, how often decisions were right at each
//! certainty, with the Brier score, the expected calibration error, and a reliability diagram.
//! The forecast is the decision's certainty: the number its bars are compared with.

use std::fmt::Write;
use std::path::Path;

use serde::Serialize;

use super::{Entry, LedgerError, Row, samples, with_file};

/// Equal-width certainty bins.
const BINS: usize = 10;

/// One certainty bin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// The bin's lower edge.
    pub from: f64,
    /// The bin's upper edge (inclusive for the last bin).
    pub to: f64,
    /// Samples in the bin.
    pub count: usize,
    /// Their mean certainty.
    pub mean_certainty: f64,
    /// The share of them that were correct.
    pub accuracy: f64,
}

/// The calibration of one provider on one question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationReport {
    /// The provider.
    pub provider: String,
    /// The question id.
    pub question: String,
    /// Decisions with a known outcome and a certainty.
    pub samples: usize,
    /// The share that were correct.
    pub accuracy: f64,
    /// The certainty Brier score: the mean of (certainty - correct)² over the decisions, correct
    /// being 1 or 0 (0 is perfect, 1 the worst). `eval` reports the same number under the same
    /// name.
    pub brier_certainty: f64,
    /// Expected calibration error over equal-width bins.
    pub ece: f64,
    /// The non-empty bins.
    pub bins: Vec<Bin>,
}

/// Calibration per provider and question, from ledger rows (the latest outcome counts).
pub fn calibration_report(rows: &[Row]) -> Vec<CalibrationReport> {
    let entries: Vec<Vec<Entry>> = vec![rows.iter().map(Entry::from).collect()];
    report_all(&entries)
}

/// Calibration from a ledger file, reading it on every core. Also returns how many lines were
/// skipped.
pub fn report_file(path: &Path) -> Result<(Vec<CalibrationReport>, usize), LedgerError> {
    with_file(path, report_all)
}

fn report_all(entries: &[Vec<Entry>]) -> Vec<CalibrationReport> {
    samples(entries)
        .into_iter()
        .filter(|(_, samples)| !samples.is_empty())
        .map(|((provider, question), samples)| {
            let mut samples: Vec<(f64, bool)> = samples.into_iter().map(|(c, ok)| (c.clamp(0.0, 1.0), ok)).collect();
            // Summed in one order whatever order the ledger's rows were written in (eval
            // records as its answers arrive), so the same decisions give the same bytes.
            samples.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let n = samples.len() as f64;
            let y = |ok: bool| if ok { 1.0 } else { 0.0 };
            let mut sums = [(0usize, 0.0f64, 0.0f64); BINS];
            for (c, ok) in &samples {
                let b = ((c * BINS as f64) as usize).min(BINS - 1);
                sums[b].0 += 1;
                sums[b].1 += c;
                sums[b].2 += y(*ok);
            }
            let bins: Vec<Bin> = sums
                .iter()
                .enumerate()
                .filter(|(_, s)| s.0 > 0)
                .map(|(i, (count, c, ok))| Bin {
                    from: i as f64 / BINS as f64,
                    to: (i + 1) as f64 / BINS as f64,
                    count: *count,
                    mean_certainty: c / *count as f64,
                    accuracy: ok / *count as f64,
                })
                .collect();
            CalibrationReport {
                provider: provider.into(),
                question: question.into(),
                samples: samples.len(),
                accuracy: samples.iter().map(|(_, ok)| y(*ok)).sum::<f64>() / n,
                brier_certainty: samples.iter().map(|(c, ok)| (c - y(*ok)).powi(2)).sum::<f64>() / n,
                ece: bins.iter().map(|b| b.count as f64 / n * (b.accuracy - b.mean_certainty).abs()).sum(),
                bins,
            }
        })
        .collect()
}

/// A reliability diagram, one panel per provider and question: accuracy against certainty per
/// bin, the diagonal of perfect calibration, and each bin's sample count.
pub fn reliability_svg(reports: &[CalibrationReport]) -> String {
    const PANEL: f64 = 300.0;
    const PAD: f64 = 48.0;
    let cols = reports.len().clamp(1, 3);
    let rows = reports.len().div_ceil(cols).max(1);
    let (w, h) = (cols as f64 * (PANEL + 2.0 * PAD), rows as f64 * (PANEL + 2.0 * PAD + 20.0));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    if reports.is_empty() {
        let _ = writeln!(s, r#"<text x="20" y="40">no decisions with a known outcome yet</text>"#);
    }
    for (i, r) in reports.iter().enumerate() {
        let ox = (i % cols) as f64 * (PANEL + 2.0 * PAD) + PAD;
        let oy = (i / cols) as f64 * (PANEL + 2.0 * PAD + 20.0) + PAD + 20.0;
        let x = |v: f64| ox + v * PANEL;
        let y = |v: f64| oy + PANEL - v * PANEL;
        let _ = writeln!(
            s,
            r#"<text x="{ox}" y="{}" font-size="13" font-weight="bold">{} / {}</text>"#,
            oy - 26.0,
            crate::escape::xml(&r.provider),
            crate::escape::xml(&r.question)
        );
        let _ = writeln!(
            s,
            r#"<text x="{ox}" y="{}">n={} accuracy={:.3} Brier (certainty)={:.3} ECE={:.3}</text>"#,
            oy - 10.0,
            r.samples,
            r.accuracy,
            r.brier_certainty,
            r.ece
        );
        let _ =
            writeln!(s, r##"<rect x="{ox}" y="{oy}" width="{PANEL}" height="{PANEL}" fill="none" stroke="#444"/>"##);
        for t in 0..=BINS {
            let v = t as f64 / BINS as f64;
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{oy}" x2="{}" y2="{}" stroke="#eee"/><text x="{}" y="{}" text-anchor="middle">{}</text>"##,
                x(v),
                x(v),
                oy + PANEL,
                x(v),
                oy + PANEL + 14.0,
                if t % 2 == 0 { format!("{v:.1}") } else { String::new() }
            );
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                ox - 4.0,
                y(v) + 4.0,
                if t % 2 == 0 { format!("{v:.1}") } else { String::new() }
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-dasharray="4 3"/>"##,
            x(0.0),
            y(0.0),
            x(1.0),
            y(1.0)
        );
        let bar_w = PANEL / BINS as f64;
        for b in &r.bins {
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#4a7ab5" fill-opacity="0.35" stroke="#4a7ab5"><title>{:.1}-{:.1}: {} decisions, {:.0}% correct</title></rect>"##,
                x(b.from) + 1.0,
                y(b.accuracy),
                bar_w - 2.0,
                b.accuracy * PANEL,
                b.from,
                b.to,
                b.count,
                b.accuracy * 100.0
            );
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="3.5" fill="#c0392b"/><text x="{}" y="{}" text-anchor="middle" font-size="9">{}</text>"##,
                x(b.mean_certainty),
                y(b.accuracy),
                x(b.from) + bar_w / 2.0,
                // Above the bar, or inside it near the top so it never meets the subtitle.
                if b.accuracy > 0.9 { y(b.accuracy) + 12.0 } else { y(b.accuracy) - 6.0 },
                b.count
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">certainty</text><text x="{}" y="{}" text-anchor="middle" transform="rotate(-90 {} {})">share correct</text>"#,
            ox + PANEL / 2.0,
            oy + PANEL + 30.0,
            ox - 32.0,
            oy + PANEL / 2.0,
            ox - 32.0,
            oy + PANEL / 2.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::band::Band;
    use crate::ledger::{DecisionRow, OutcomeRow};

    fn pair(id: usize, certainty: f64, ok: bool) -> [Row; 2] {
        [
            Row::Decision(DecisionRow {
                id: id.to_string(),
                ts: "t".into(),
                consumer: "c".into(),
                question: "q".into(),
                provider: "jev".into(),
                model: "m".into(),
                confidence: None,
                certainty: Some(certainty),
                band: Band::Act,
                acted: true,
            }),
            Row::Outcome(OutcomeRow { id: id.to_string(), ts: "t".into(), correct: Some(ok), note: None }),
        ]
    }

    #[test]
    fn accuracy_brier_and_ece_are_computed_over_known_outcomes() {
        let mut rows = Vec::new();
        rows.extend(pair(1, 0.95, true));
        rows.extend(pair(2, 0.95, false));
        rows.extend(pair(3, 0.25, true));
        rows.extend(pair(4, 0.25, true));
        let r = &calibration_report(&rows)[0];
        assert_eq!((r.samples, r.accuracy), (4, 0.75));
        let brier = (0.05f64.powi(2) + 0.95f64.powi(2) + 0.75f64.powi(2) * 2.0) / 4.0;
        assert!((r.brier_certainty - brier).abs() < 1e-12);
        // Two bins: 0.9-1.0 (mean 0.95, 50% right) and 0.2-0.3 (mean 0.25, 100% right).
        assert_eq!(r.bins.len(), 2);
        let ece = 0.5 * (0.5f64 - 0.95).abs() + 0.5 * (1.0f64 - 0.25).abs();
        assert!((r.ece - ece).abs() < 1e-12);
    }

    #[test]
    fn the_same_decisions_in_another_order_give_the_same_diagram() {
        // eval records its decisions as the answers arrive; the diagram must not move with that.
        let certainties = [0.423796, 0.454423, 0.436996, 0.460392, 0.462572, 0.406553, 0.401317];
        let rows: Vec<Row> = certainties.iter().enumerate().flat_map(|(i, c)| pair(i, *c, i % 2 == 0)).collect();
        let mut reversed: Vec<Vec<Row>> = rows.chunks(2).map(<[Row]>::to_vec).collect();
        reversed.reverse();
        let reversed: Vec<Row> = reversed.concat();
        let once = reliability_svg(&calibration_report(&rows));
        assert_eq!(once, reliability_svg(&calibration_report(&reversed)));
    }

    #[test]
    fn certainty_one_falls_in_the_last_bin() {
        let rows: Vec<Row> = pair(1, 1.0, true).into_iter().collect();
        let r = &calibration_report(&rows)[0];
        assert_eq!((r.bins[0].from, r.bins[0].to), (0.9, 1.0));
    }

    #[test]
    fn a_bar_that_reaches_one_keeps_its_count_inside_the_panel() {
        // Once its count label sat on the subtitle above the panel.
        let rows: Vec<Row> = (0..7).flat_map(|i| pair(i, 0.95, true)).collect();
        let svg = reliability_svg(&calibration_report(&rows));
        let attr = |line: &str, name: &str| -> f64 {
            let at = line.find(&format!(" {name}=\"")).map_or(0, |i| i + name.len() + 3);
            line[at..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
        };
        let panel = svg.lines().find(|l| l.starts_with("<rect") && l.contains("fill=\"none\"")).unwrap_or_default();
        let (top, height) = (attr(panel, "y"), attr(panel, "height"));
        let label = svg.lines().find(|l| l.contains("font-size=\"9\">7<")).unwrap_or_default();
        let y = attr(&label[label.find("<text").unwrap_or(0)..], "y");
        assert!(y > top && y < top + height, "count label at {y}, panel {top}..{}", top + height);
    }

    #[test]
    fn the_svg_has_a_panel_per_group_and_escapes_names() {
        let mut rows: Vec<Row> = pair(1, 0.9, true).into_iter().collect();
        if let Row::Decision(d) = &mut rows[0] {
            d.question = "a<b".into();
        }
        let svg = reliability_svg(&calibration_report(&rows));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("jev / a&lt;b"));
        assert!(svg.contains("n=1 accuracy=1.000"));
    }
}
