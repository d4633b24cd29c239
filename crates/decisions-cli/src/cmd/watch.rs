//! `decisions watch`: the decisions meters from the project's event log (`decisions::watch`).
//! Off a terminal, or with `--once`, one snapshot (text, or `--json`); on a terminal, a live
//! view that redraws as lines arrive, follows the log across rotation and truncation, and
//! leaves with `q`, Esc or Ctrl-C (exit 0). Idle, it looks at the log's size twice a second.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use decisions::run::summary::by_reason;
use decisions::watch::{Consumer, Filter, Meters, Reader};
use ratatui::backend::Backend;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Sparkline};

use crate::exit::{self, CliError};

/// Show the decisions meters from the event log: calls, decide time, fallback, bands, denials
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only lines from this far back (30m, 1h, 24h, 7d) or since a UTC date or time (2026-11-30)
    #[arg(long, value_name = "WHEN", value_parser = since)]
    since: Option<String>,
    /// Only this consumer (permission, routing, review, triage, batch, eval, ...)
    #[arg(long, value_name = "NAME")]
    consumer: Option<String>,
    /// One set of meters a UTC day
    #[arg(long, value_name = "PERIOD", value_parser = ["day"])]
    by: Option<String>,
    /// Print the meters as JSON and exit
    #[arg(long)]
    json: bool,
    /// Print one snapshot and exit, even on a terminal
    #[arg(long)]
    once: bool,
    /// The project's .leopold directory [default: the nearest above the working directory]
    #[arg(long, value_name = "DIR")]
    leo_dir: Option<PathBuf>,
}

fn since(s: &str) -> Result<String, String> {
    decisions::watch::since(s)
        .ok_or_else(|| format!("expected 30m, 1h, 24h, 7d or a date such as 2026-11-30, found {s:?}"))
}

/// How often the live view looks for new lines and keys.
const TICK: Duration = Duration::from_millis(500);

pub fn run(args: Args) -> anyhow::Result<u8> {
    let filter = Filter { since: args.since.clone(), consumer: args.consumer.clone(), by_day: args.by.is_some() };
    let Some(leo) = crate::seam::leo_dir(args.leo_dir.clone()).filter(|l| l.is_dir()) else {
        if args.json {
            crate::output::print_json(&json(&Meters::default()), false)?;
        } else {
            println!("Nothing was asked: no .leopold directory here, so no event log.");
        }
        return Ok(exit::OK);
    };
    let mut reader = Reader::new(&leo, filter);
    reader.refresh().map_err(|e| CliError::fail(format!("{}: {e}", decisions::event::log_path(&leo).display())))?;
    if args.json {
        crate::output::print_json(&json(&reader.meters()), false)?;
        return Ok(exit::OK);
    }
    if args.once || !std::io::stdout().is_terminal() {
        for line in text(&reader.meters()).lines() {
            println!("{}", decisions::escape::terminal(line));
        }
        return Ok(exit::OK);
    }
    let mut terminal = ratatui::init();
    let result = live(&mut terminal, &mut reader, key);
    ratatui::restore();
    result?;
    Ok(exit::OK)
}

/// A key that ends the view, if one came within `timeout`.
fn key(timeout: Duration) -> std::io::Result<bool> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    if !event::poll(timeout)? {
        return Ok(false);
    }
    Ok(match event::read()? {
        Event::Key(k) if k.kind == KeyEventKind::Press => {
            matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
                || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL))
        }
        _ => false,
    })
}

/// The live view: draw, then wait a tick for a key that ends it or for new lines, and draw
/// again when something changed.
pub fn live<B: Backend>(
    terminal: &mut ratatui::Terminal<B>,
    reader: &mut Reader,
    mut quit: impl FnMut(Duration) -> std::io::Result<bool>,
) -> anyhow::Result<()>
where
    B::Error: Send + Sync + 'static,
{
    let mut meters = reader.meters();
    terminal.draw(|f| draw(f, &meters))?;
    loop {
        if quit(TICK)? {
            return Ok(());
        }
        if reader.refresh()? {
            meters = reader.meters();
            terminal.draw(|f| draw(f, &meters))?;
        }
    }
}

/// One frame: the meters as text, and under them calls and fallbacks an hour.
pub fn draw(frame: &mut ratatui::Frame<'_>, meters: &Meters) {
    let [top, chart] = Layout::vertical([Constraint::Min(3), Constraint::Length(8)]).areas(frame.area());
    let body: Vec<Line<'_>> =
        text(meters).lines().map(|l| Line::raw(decisions::escape::terminal(l).into_owned())).collect();
    frame.render_widget(
        Paragraph::new(body)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(Block::bordered().title(" decisions watch (q to leave) ")),
        top,
    );
    let [calls, failed] = Layout::vertical([Constraint::Length(4), Constraint::Length(4)]).areas(chart);
    let width = chart.width.saturating_sub(2) as usize;
    let hours = meters.hourly(width);
    let recent: Vec<&(String, u64, u64)> = hours.iter().collect();
    let span = match (recent.first(), recent.last()) {
        (Some(a), Some(b)) => format!("{}:00 to {}:59 UTC", a.0, b.0),
        _ => "no calls yet".to_string(),
    };
    let calls_data: Vec<u64> = recent.iter().map(|(_, c, _)| *c).collect();
    let failed_data: Vec<u64> = recent.iter().map(|(_, _, f)| *f).collect();
    frame.render_widget(
        Sparkline::default().block(Block::bordered().title(format!(" calls an hour, {span} "))).data(&calls_data),
        calls,
    );
    frame.render_widget(
        Sparkline::default()
            .block(Block::bordered().title(" fallbacks (failed questions) an hour "))
            .data(&failed_data),
        failed,
    );
}

/// The meters as JSON: the library's shape, with whether anything asked.
fn json(m: &Meters) -> serde_json::Value {
    let mut v = serde_json::to_value(m).unwrap_or_default();
    v["asked"] = serde_json::json!(m.asked());
    v
}

/// The snapshot as a person reads it. Absent, not zeroed: only what asked has a row.
pub fn text(m: &Meters) -> String {
    let mut out = String::new();
    let skipped = if m.skipped > 0 { format!(", {} skipped (torn or not events)", m.skipped) } else { String::new() };
    out.push_str(&format!("{} read{skipped}\n", crate::output::count(m.lines as usize, "log line")));
    if !m.asked() {
        let mut line = "Nothing was asked: no consumer put a question to a provider".to_string();
        let aside: u64 = m.stood_aside.values().sum();
        if aside > 0 {
            line.push_str(&format!("; the hook stood aside {} ({})", times(aside), by_reason(&m.stood_aside)));
        }
        let unasked: u64 = m.unasked.values().sum();
        if unasked > 0 {
            line.push_str(&format!(
                "; {} fell back with no provider asked ({})",
                crate::output::count(unasked as usize, "question"),
                by_reason(&m.unasked)
            ));
        }
        out.push_str(&line);
        out.push_str(".\n");
        return out;
    }
    for (period, p) in &m.periods {
        if period != "all" {
            out.push_str(&format!("\n{period}\n"));
        }
        for (name, c) in &p.consumers {
            consumer(&mut out, name, c);
        }
    }
    out
}

fn times(n: u64) -> String {
    if n == 1 { "once".into() } else { format!("{n} times") }
}

fn consumer(out: &mut String, name: &str, c: &Consumer) {
    out.push_str(&format!("\n{name}\n"));
    for (provider, p) in &c.providers {
        let ms = |v: Option<u64>| v.map_or("-".to_string(), |x| format!("{x} ms"));
        let fallback = p
            .fallback
            .map_or("-".to_string(), |f| format!("{:.1}% ({} of {})", f * 100.0, p.failed, p.answered + p.failed));
        out.push_str(&format!("  {provider}: calls {}, fallback {fallback}\n", p.calls));
        if p.decide_ms_max.is_some() {
            out.push_str(&format!(
                "    decide p50 {}, p95 {}, max {}\n",
                ms(p.decide_ms_p50),
                ms(p.decide_ms_p95),
                ms(p.decide_ms_max)
            ));
        }
        if !p.failures.is_empty() || p.retries > 0 {
            let failures = if p.failures.is_empty() { "none".to_string() } else { by_reason(&p.failures) };
            out.push_str(&format!("    failures {failures}; retries {} ({} for 429)\n", p.retries, p.too_many));
        }
        for (q, bands) in &p.bands {
            let b = |k: &str| bands.get(k).copied().unwrap_or(0);
            out.push_str(&format!("    {q}: act {}, escalate {}, floor {}\n", b("act"), b("escalate"), b("floor")));
        }
    }
    if let Some(h) = &c.hook {
        let counted = |m: &BTreeMap<String, u64>| {
            let n: u64 = m.values().sum();
            if m.is_empty() { n.to_string() } else { format!("{n} ({})", by_reason(m)) }
        };
        out.push_str(&format!(
            "  hook: judged {}, denied {}, fell back {}, skipped {}, timeouts {}, outages {}\n",
            h.judged,
            h.denied,
            counted(&h.fell_back),
            counted(&h.skipped),
            h.timeouts,
            h.outages
        ));
        if !h.last_denials.is_empty() {
            out.push_str("  last denials:\n");
            for d in &h.last_denials {
                out.push_str(&format!("    {}  {:.2}  {}\n", d.ts, d.score, d.command));
            }
        }
    }
    if let Some(r) = &c.runs {
        out.push_str(&format!(
            "  runs: {}, {} items, {} answered{}\n",
            r.runs,
            r.items,
            r.answered,
            if r.stopped > 0 { format!(", {} stopped early", r.stopped) } else { String::new() }
        ));
    }
    if let Some(o) = &c.outcomes {
        let share = o.share_correct.map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0));
        out.push_str(&format!("  outcomes: {} known, {share} correct\n", o.known));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;

    fn screen(terminal: &ratatui::Terminal<TestBackend>) -> String {
        let buffer = terminal.backend().buffer();
        let width = buffer.area.width as usize;
        buffer
            .content
            .chunks(width)
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>().trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn line(ts: &str, consumer: &str, event: &str, rest: &str) -> String {
        format!("{{\"ts\":\"{ts}\",\"consumer\":\"{consumer}\",\"event\":\"{event}\"{rest}}}\n")
    }

    #[test]
    fn the_live_view_redraws_as_lines_arrive_and_leaves_on_q() {
        let dir = tempfile::tempdir().expect("tmp");
        let leo = dir.path().join(".leopold");
        std::fs::create_dir_all(&leo).expect("mkdir");
        let log = leo.join("events.jsonl");
        let asked =
            ",\"provider\":\"jev\",\"model\":\"jev-1.13.0\",\"questions\":[\"destructive\"],\"source\":\"config\"";
        let answered = |ms: u64, band: &str| {
            format!(
                ",\"provider\":\"jev\",\"model\":\"jev-1.13.0\",\"question\":\"destructive\",\"confidence\":0.9,\"certainty\":0.9,\"threshold_fired\":\"{band}\",\"elapsed_ms\":{ms},\"source\":\"config\""
            )
        };
        let first = [
            line("2026-11-30T09:00:01Z", "permission", "decision_asked", asked),
            line("2026-11-30T09:00:01Z", "permission", "decision_answered", &answered(180, "act")),
        ]
        .concat();
        std::fs::write(&log, first).expect("write");
        let mut reader = Reader::new(&leo, Filter::default());
        reader.refresh().expect("read");
        let mut terminal = ratatui::Terminal::new(TestBackend::new(90, 24)).expect("terminal");
        let mut tick = 0;
        live(&mut terminal, &mut reader, |_| {
            tick += 1;
            match tick {
                1 => {
                    // A second ask arrives, denied.
                    let more = [
                        line("2026-11-30T10:15:00Z", "permission", "decision_asked", asked),
                        line("2026-11-30T10:15:00Z", "permission", "decision_answered", &answered(420, "act")),
                        line(
                            "2026-11-30T10:15:00Z",
                            "permission",
                            "decision_denied",
                            ",\"command\":\"rm -rf build/\",\"score\":0.97,\"question\":\"destructive\"",
                        ),
                    ]
                    .concat();
                    let mut f = std::fs::OpenOptions::new().append(true).open(&log).expect("open");
                    std::io::Write::write_all(&mut f, more.as_bytes()).expect("append");
                    Ok(false)
                }
                2 => Ok(false),
                _ => Ok(true),
            }
        })
        .expect("live");
        insta::assert_snapshot!("live_after_a_denial", screen(&terminal));
    }

    #[test]
    fn the_first_frame_shows_the_meters_and_the_chart() {
        let dir = tempfile::tempdir().expect("tmp");
        let leo = dir.path().join(".leopold");
        std::fs::create_dir_all(&leo).expect("mkdir");
        let mut text = String::new();
        for h in 0..6 {
            for _ in 0..=h {
                text.push_str(&line(
                    &format!("2026-11-30T0{h}:00:00Z"),
                    "routing",
                    "decision_asked",
                    ",\"provider\":\"jev\",\"model\":\"jev-1.13.0\",\"questions\":[\"effort\"],\"source\":\"config\"",
                ));
            }
            text.push_str(&line(
                &format!("2026-11-30T0{h}:00:00Z"),
                "routing",
                "decision_failed",
                ",\"provider\":\"jev\",\"question\":\"effort\",\"reason\":\"timeout\",\"elapsed_ms\":2000,\"source\":\"config\"",
            ));
        }
        std::fs::write(leo.join("events.jsonl"), text).expect("write");
        let mut reader = Reader::new(&leo, Filter::default());
        reader.refresh().expect("read");
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 20)).expect("terminal");
        live(&mut terminal, &mut reader, |_| Ok(true)).expect("live");
        insta::assert_snapshot!("first_frame", screen(&terminal));
    }
}
