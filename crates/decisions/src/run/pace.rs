//! The pace of a run: a sending rate that learns the provider's limit, and a pause every
//! worker honours when the provider says it is congested.
//!
//! - **A ceiling, never a target to hit exactly.** `--rate` is the most the run sends; requests
//!   go out at least 1% further apart than it implies, each grant measured from the last one
//!   actually made, so scheduling jitter cannot put one more than the limit in a server's
//!   window.
//! - **Additive increase, multiplicative decrease** (TCP's AIMD, the AWS SDKs' adaptive mode).
//!   Each 429/503/529 for a request sent after the last cut cuts the rate (to 0.7 of it; to
//!   0.9 when it came at a limit already known, the stated ceiling or the rate congestion came
//!   at before, which is then about right), and remembers the rate it came at; a quiet
//!   stretch lets the rate climb back toward just under that, then past it, slowly, toward the
//!   ceiling. Without `--rate` the run is unpaced until the first congestion, which sets the
//!   rate from what the provider let through in the second before the first request it
//!   refused (counted again, exactly, once every request sent by then has come back); when
//!   that is fewer than ten (the very first request refused), the rate doubles each quiet
//!   second until the provider pushes back again, as TCP's slow start does.
//! - **Retry-After is honoured by every worker**: the pause holds them all. An item whose
//!   budget ends inside the pause fails at once as transient (`rate_limit`, `overloaded`),
//!   instead of waiting; a pause longer than the run's bound (default 60 s) halts the run: the
//!   requests in flight finish, the rest are left for `--resume`, and the summary says when the
//!   provider asked to be called again.
//!
//! The engine holds the one [`Pacer`]; each item's ask gets a [`Turn`] made from it, whose
//! first turn was taken before the item's deadline started (so a slow rate never eats into an
//! answer's budget), and whose later turns (retries) wait within the deadline.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::transport::{Pace, Refused};

/// A client-side rate: `count` requests every `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed in each period.
    pub count: u32,
    /// The period.
    pub per: Duration,
}

/// A rate that does not read as `N/s`, `N/min` or `N/h`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected N/s, N/min or N/h (as 1200/min), found {0:?}")]
pub struct RateError(pub String);

impl std::str::FromStr for Rate {
    type Err = RateError;
    /// `N/s`, `N/min` (or `N/m`), `N/h`.
    fn from_str(s: &str) -> Result<Rate, RateError> {
        let bad = || RateError(s.to_string());
        let (n, unit) = s.trim().split_once('/').ok_or_else(bad)?;
        let count: u32 = n.trim().parse().ok().filter(|c| *c > 0).ok_or_else(bad)?;
        let per = match unit.trim() {
            "s" | "sec" => Duration::from_secs(1),
            "m" | "min" => Duration::from_secs(60),
            "h" => Duration::from_secs(3600),
            _ => return Err(bad()),
        };
        Ok(Rate { count, per })
    }
}

impl Rate {
    /// Requests a second.
    pub fn per_second(self) -> f64 {
        f64::from(self.count) / self.per.as_secs_f64()
    }
}

/// How often a waiting worker looks at the stop flag.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// The longest pause a provider may ask for before the run halts, by default.
pub const MAX_PAUSE: Duration = Duration::from_secs(60);

/// Requests go out this much further apart than the rate implies.
const MARGIN: f64 = 0.99;
/// The cut on congestion, and the gentler one when it came at a limit already known.
const BETA: f64 = 0.7;
const BETA_AT_CEILING: f64 = 0.9;
/// The climb back: toward just under the rate congestion came at, closing the gap with this
/// time constant.
const BELOW_LEARNED: f64 = 0.97;
const CLIMB: Duration = Duration::from_secs(1);
/// After this long without congestion, the learned rate itself rises, this much a second: a
/// limit that was lifted is found again in minutes, and a run at the limit seldom knocks.
const PROBE_AFTER: Duration = Duration::from_secs(20);
const PROBE: f64 = 0.01;
/// An estimate from fewer let-through requests than this is too weak to hold to: the rate
/// doubles each quiet second (TCP's slow start) until the provider pushes back again.
const SURE: f64 = 10.0;
/// The slowest the run is paced: one request every ten seconds.
const FLOOR: f64 = 0.1;
/// How far back the requests are counted that set the first rate.
const WINDOW: Duration = Duration::from_secs(1);

/// One request granted while the first rate is being found.
#[derive(Debug, Clone, Copy)]
struct Grant {
    at: u64,
    back: Back,
}

/// How a granted request came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Back {
    Pending,
    Through,
    Refused,
}

/// Why a run was halted by its pace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halt {
    /// The status that asked for the pause.
    pub status: u16,
    /// How long the provider asked the run to wait.
    pub wait: Duration,
    /// When that is.
    pub until: SystemTime,
    /// The longest pause the run would wait out (`--max-pause`).
    pub max_pause: Duration,
}

impl std::fmt::Display for Halt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = jiff::Timestamp::try_from(self.until).map(|t| t.round(jiff::Unit::Second).ok()).ok().flatten();
        let asked = if self.wait >= crate::transport::RETRY_AFTER_MAX {
            format!("more than {}", human(crate::transport::RETRY_AFTER_MAX))
        } else {
            human(self.wait)
        };
        write!(f, "the provider (HTTP {}) asked to be called again in {asked}", self.status)?;
        if let Some(at) = at {
            write!(f, ", at {at}")?;
        }
        write!(
            f,
            ", past the {} the run waits at most (--max-pause), so it stopped without waiting",
            human(self.max_pause)
        )
    }
}

/// A duration as a person says it: `3600 s` is `1 h`.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    match s {
        s if s >= 86_400.0 => format!("{:.1} days", s / 86_400.0),
        s if s >= 3_600.0 => format!("{:.1} h", s / 3_600.0),
        s if s >= 60.0 => format!("{:.1} min", s / 60.0),
        s => format!("{s:.1} s"),
    }
}

/// The run's pace. It counts the requests sent and the 429s seen.
#[derive(Debug)]
pub struct Pacer {
    ceiling: Option<f64>,
    max_pause: Duration,
    started: Instant,
    state: Mutex<State>,
    requests: AtomicU64,
    too_many: AtomicU64,
    halted: AtomicBool,
}

#[derive(Debug)]
struct State {
    /// Requests a second now; none, unpaced.
    rate: Option<f64>,
    /// The rate the last congestion came at.
    learned: Option<f64>,
    /// The earliest next grant.
    next: Instant,
    /// The last grant, or the last change to the rate.
    last: Instant,
    paused_until: Instant,
    /// The status that set the pause.
    pause_status: u16,
    /// When the rate was last cut: congestion for a request sent before it is already paid for.
    cut_at: Option<Instant>,
    /// When congestion was last seen.
    congested_at: Option<Instant>,
    /// The requests of the last two [`WINDOW`]s, while the run is unpaced or its first rate is
    /// an estimate: when each was granted (nanoseconds from the pacer's start, in order) and
    /// how it came back.
    grants: VecDeque<Grant>,
    /// The first rate of an unpaced run is an estimate until the requests around the first
    /// refusal have all been answered: (the refused request's grant, the cut), and how each
    /// request granted by then came back (its grant, let through).
    provisional: Option<(u64, u64)>,
    /// The learned rate is a weak guess: double the rate each quiet second until push-back.
    slow_start: bool,
    halt: Option<Halt>,
}

impl Pacer {
    /// A pacer under `rate` (none: unpaced until the provider pushes back), halting the run on
    /// a pause longer than [`MAX_PAUSE`].
    pub fn new(rate: Option<Rate>) -> Pacer {
        Pacer::with_max_pause(rate, MAX_PAUSE)
    }

    /// A pacer that halts the run on a pause longer than `max_pause`.
    pub fn with_max_pause(rate: Option<Rate>, max_pause: Duration) -> Pacer {
        let now = Instant::now();
        let ceiling = rate.map(Rate::per_second);
        Pacer {
            ceiling,
            max_pause,
            started: now,
            state: Mutex::new(State {
                rate: ceiling.map(|c| c * MARGIN),
                learned: None,
                next: now,
                last: now,
                paused_until: now,
                pause_status: 0,
                cut_at: None,
                congested_at: None,
                grants: VecDeque::new(),
                provisional: None,
                slow_start: false,
                halt: None,
            }),
            requests: AtomicU64::new(0),
            too_many: AtomicU64::new(0),
            halted: AtomicBool::new(false),
        }
    }

    /// HTTP requests sent so far.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// 429s seen so far.
    pub fn rate_limited(&self) -> u64 {
        self.too_many.load(Ordering::Relaxed)
    }

    /// The rate the run is paced at now, in requests a second; none while unpaced.
    pub fn rate(&self) -> Option<f64> {
        self.state().rate
    }

    /// The rate the run is paced at, only when it was measured: the ceiling it was given, or a
    /// rate learned from what the provider let through. A slow start's rate is a guess that
    /// doubles each second, and is not said.
    pub fn measured_rate(&self) -> Option<f64> {
        let s = self.state();
        if s.slow_start && self.ceiling.is_none() { None } else { s.rate }
    }

    /// Why the pace halted the run, once it has.
    pub fn halt(&self) -> Option<Halt> {
        if !self.halted.load(Ordering::Relaxed) {
            return None;
        }
        self.state().halt.clone()
    }

    /// Whether the pace halted the run.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Grant a turn now if one is due (`Ok(Ok(when))`), else say when to look again
    /// (`Ok(Err(at))`). `deadline` bounds the wait: past it, the refusal says why.
    fn try_grant(&self, deadline: Option<Instant>) -> Result<Result<Instant, Instant>, Refused> {
        let mut s = self.state();
        let now = Instant::now();
        if s.paused_until > now {
            let left = s.paused_until - now;
            if deadline.is_some_and(|d| s.paused_until > d) {
                return Err(Refused::Paused { status: s.pause_status, wait: left });
            }
            return Ok(Err(s.paused_until));
        }
        self.climb(&mut s, now);
        if s.next > now {
            if deadline.is_some_and(|d| s.next > d) {
                return Err(Refused::Late);
            }
            return Ok(Err(s.next));
        }
        // Measured from this grant, not from the slot it was due at: a late waker never
        // makes the next request closer than the interval.
        match s.rate {
            Some(rate) => s.next = now + Duration::from_secs_f64(1.0 / rate),
            None => {
                let at = self.nanos(now);
                s.grants.push_back(Grant { at, back: Back::Pending });
                let horizon = at.saturating_sub(2 * WINDOW.as_nanos() as u64);
                while s.grants.front().is_some_and(|g| g.at < horizon) {
                    s.grants.pop_front();
                }
            }
        }
        // An estimate whose requests never all come back (a worker stopped) is kept as it is.
        if s.provisional.is_some_and(|(_, cut)| self.nanos(now).saturating_sub(cut) > 4 * WINDOW.as_nanos() as u64) {
            s.provisional = None;
            s.grants.clear();
        }
        drop(s);
        self.requests.fetch_add(1, Ordering::Relaxed);
        Ok(Ok(now))
    }

    /// Additive increase: since the last look, close part of the gap to just under the learned
    /// rate; after a long quiet stretch, raise the learned rate itself; never past the ceiling.
    fn climb(&self, s: &mut State, now: Instant) {
        let (Some(rate), Some(learned)) = (s.rate, s.learned) else {
            s.last = now;
            return;
        };
        // Time paused sent nothing, so it measured nothing: the climb counts from the pause's end.
        let from = s.last.max(s.paused_until.min(now));
        let dt = now.duration_since(from).as_secs_f64();
        s.last = now;
        let quiet = s.congested_at.map_or(Duration::MAX, |t| now.duration_since(t));
        let mut learned = learned;
        if quiet > PROBE_AFTER {
            learned *= 1.0 + PROBE * dt;
        }
        let cap = self.ceiling.map_or(f64::INFINITY, |c| c * MARGIN);
        if s.slow_start {
            let rate = (rate * 2f64.powf(dt)).min(cap);
            s.learned = Some(learned.max(rate / BELOW_LEARNED));
            s.rate = Some(rate);
            return;
        }
        learned = learned.min(cap / BELOW_LEARNED);
        let target = (learned * BELOW_LEARNED).min(cap);
        let rate =
            if rate < target { rate + (target - rate) * (1.0 - (-dt / CLIMB.as_secs_f64()).exp()) } else { rate };
        s.learned = Some(learned);
        s.rate = Some(rate);
    }

    /// The provider pushed back on a request sent at `sent`: every worker pauses for `wait`,
    /// and the rate is cut, once for each stretch of congestion.
    fn push_back(&self, status: u16, wait: Duration, sent: Instant) {
        if status == 429 {
            self.too_many.fetch_add(1, Ordering::Relaxed);
        }
        let now = Instant::now();
        let mut s = self.state();
        Self::settle(&mut s, self.nanos(sent), Back::Refused);
        if now + wait > s.paused_until {
            s.paused_until = now + wait;
            s.pause_status = status;
        }
        s.congested_at = Some(now);
        if wait > self.max_pause && s.halt.is_none() {
            s.halt = Some(Halt { status, wait, until: SystemTime::now() + wait, max_pause: self.max_pause });
            self.halted.store(true, Ordering::Relaxed);
        }
        if s.cut_at.is_some_and(|cut| sent < cut) {
            return; // sent at the rate already cut for
        }
        if s.rate.is_some() && s.provisional.take().is_some() {
            s.grants.clear();
        }
        let new = match s.rate {
            Some(rate) if s.slow_start => {
                // The end of a slow start: the limit lies between half this rate and this.
                s.slow_start = false;
                s.learned = Some(rate * 0.75);
                rate * 0.5
            }
            Some(rate) => {
                // At a limit already known (the stated ceiling, or where congestion came
                // before), the limit is about right: a gentle cut. Far below where it came
                // before, the limit has fallen (CUBIC's fast convergence): a deep one, and the
                // learned rate comes down with it.
                let known = s.learned.or(self.ceiling.map(|c| c * MARGIN));
                let near = known.is_some_and(|k| rate >= k * BELOW_LEARNED * 0.95);
                s.learned = Some(match s.learned {
                    Some(l) if rate < l * BELOW_LEARNED * 0.9 => rate * (1.0 + BETA) / 2.0,
                    _ => rate,
                });
                rate * if near { BETA_AT_CEILING } else { BETA }
            }
            None => {
                // The first push-back of an unpaced run: the requests sent in the second before
                // the refused one were let through, so that is what the provider takes; with
                // none before it, a cut of what went out around it.
                let (at, window) = (self.nanos(sent), WINDOW.as_nanos() as u64);
                let before = s.grants.iter().filter(|g| g.at < at && at - g.at < window).count() as f64;
                let around = s.grants.iter().filter(|g| g.at.abs_diff(at) < window).count() as f64;
                // Requests that left together may arrive in another order: 3% less, until every
                // request sent by now has come back and the count is exact.
                let learned = (if before > 0.0 { before } else { around * BETA } * BELOW_LEARNED).max(FLOOR);
                s.slow_start = before < SURE;
                s.provisional = Some((at, self.nanos(now)));
                s.learned = Some(learned);
                learned * BELOW_LEARNED
            }
        };
        s.rate = Some(new.max(FLOOR));
        s.cut_at = Some(now);
        s.last = now;
        s.next = s.next.max(now + Duration::from_secs_f64(1.0 / new.max(FLOOR)));
    }

    /// A request granted at `at` came back, let through or not. Once every request granted
    /// before the first cut of an unpaced run has, the let-through ones in the second before
    /// the refusal are exactly what the provider takes: the learned rate is set to that.
    fn settle(s: &mut State, at: u64, back: Back) {
        if let Ok(i) = s.grants.binary_search_by_key(&at, |g| g.at) {
            s.grants[i].back = back;
        }
        let Some((refused, cut)) = s.provisional else { return };
        let window = WINDOW.as_nanos() as u64;
        let in_window = |g: &&Grant| g.at <= cut && refused.saturating_sub(g.at) < window;
        if s.grants.iter().filter(in_window).any(|g| g.back == Back::Pending) {
            return;
        }
        // No cut came since (a later one ends the estimate): the count replaces it.
        let through = s.grants.iter().filter(in_window).filter(|g| g.back == Back::Through).count() as f64;
        s.slow_start = through < SURE;
        if through > 0.0 {
            s.learned = Some(through);
            s.rate = Some(through * BELOW_LEARNED);
        }
        s.provisional = None;
        s.grants.clear();
    }

    /// A request granted at `sent` was answered without push-back.
    fn answered_at(&self, sent: Instant) {
        let mut s = self.state();
        if s.rate.is_none() || s.provisional.is_some() {
            Self::settle(&mut s, self.nanos(sent), Back::Through);
        }
    }

    /// An instant as nanoseconds from the pacer's start.
    fn nanos(&self, t: Instant) -> u64 {
        t.saturating_duration_since(self.started).as_nanos() as u64
    }

    /// An item's first turn, taken before its deadline starts: wait for it, waking to look at
    /// `stop`; none when stopped or halted first. A pause past the run's bound halts the run.
    pub fn turn_for_item<'a>(&'a self, stop: &AtomicBool) -> Option<Turn<'a>> {
        loop {
            if stop.load(Ordering::Relaxed) || self.halted() {
                return None;
            }
            match self.try_grant(None) {
                Ok(Ok(granted)) => {
                    let sent = AtomicU64::new(self.nanos(granted));
                    return Some(Turn { pacer: self, prepaid: AtomicBool::new(true), sent });
                }
                Ok(Err(at)) => std::thread::sleep(at.saturating_duration_since(Instant::now()).min(POLL)),
                Err(_) => return None,
            }
        }
    }

    /// Wait for a turn by `deadline`; when it was granted.
    fn wait_turn(&self, deadline: Instant) -> Result<Instant, Refused> {
        loop {
            match self.try_grant(Some(deadline))? {
                Ok(granted) => return Ok(granted),
                Err(at) => std::thread::sleep(at.saturating_duration_since(Instant::now())),
            }
        }
    }
}

impl Pace for Pacer {
    fn turn(&self, deadline: Instant) -> Result<(), Refused> {
        self.wait_turn(deadline).map(|_| ())
    }

    fn congested(&self, status: u16, wait: Duration) {
        self.push_back(status, wait, Instant::now());
    }
}

/// One item's pace: its first turn was taken before its deadline started; the next ones
/// (retries, or a chat provider's other questions) wait their turn within it.
#[derive(Debug)]
pub struct Turn<'a> {
    pacer: &'a Pacer,
    prepaid: AtomicBool,
    /// When its last request was granted, in nanoseconds from the pacer's start.
    sent: AtomicU64,
}

impl Turn<'_> {
    fn sent(&self) -> Instant {
        self.pacer.started + Duration::from_nanos(self.sent.load(Ordering::Relaxed))
    }
}

impl Pace for Turn<'_> {
    fn turn(&self, deadline: Instant) -> Result<(), Refused> {
        if !self.prepaid.swap(false, Ordering::Relaxed) {
            let granted = self.pacer.wait_turn(deadline)?;
            self.sent.store(self.pacer.nanos(granted), Ordering::Relaxed);
        }
        Ok(())
    }

    fn congested(&self, status: u16, wait: Duration) {
        self.pacer.push_back(status, wait, self.sent());
    }

    fn answered(&self) {
        self.pacer.answered_at(self.sent());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_as_people_write_them() {
        assert_eq!("1200/min".parse::<Rate>(), Ok(Rate { count: 1200, per: Duration::from_secs(60) }));
        assert_eq!("20/s".parse::<Rate>(), Ok(Rate { count: 20, per: Duration::from_secs(1) }));
        assert_eq!("0/s".parse::<Rate>(), Err(RateError("0/s".into())));
        assert!("fast".parse::<Rate>().is_err() && "5/day".parse::<Rate>().is_err());
    }

    #[test]
    fn requests_are_spaced_at_least_the_interval_and_a_push_back_pauses_everyone() {
        let p = Pacer::new(Some(Rate { count: 100, per: Duration::from_secs(1) }));
        let far = Instant::now() + Duration::from_secs(5);
        let t = Instant::now();
        for _ in 0..5 {
            assert_eq!(p.turn(far), Ok(()));
        }
        assert!(t.elapsed() >= Duration::from_millis(40), "{:?}", t.elapsed());
        p.congested(429, Duration::from_millis(80));
        let t = Instant::now();
        assert_eq!(p.turn(far), Ok(()));
        assert!(t.elapsed() >= Duration::from_millis(60), "{:?}", t.elapsed());
        assert_eq!((p.requests(), p.rate_limited()), (6, 1));
        // A pause that ends past the deadline refuses at once, saying what the server asked.
        p.congested(529, Duration::from_secs(10));
        assert!(matches!(p.turn(Instant::now() + Duration::from_millis(10)), Err(Refused::Paused { status: 529, .. })));
        assert!(!p.halted(), "ten seconds is within the run's bound");
    }

    #[test]
    fn a_push_back_cuts_the_rate_once_and_quiet_lets_it_climb_back() {
        let p = Pacer::new(Some(Rate { count: 20, per: Duration::from_secs(1) }));
        assert_eq!(p.rate(), Some(20.0 * MARGIN));
        p.congested(429, Duration::ZERO);
        let cut = p.rate().expect("paced");
        assert!((cut - 20.0 * MARGIN * BETA_AT_CEILING).abs() < 1e-9, "a gentle cut at the ceiling: {cut}");
        // A push-back for a request sent before the cut is already paid for.
        assert!(p.turn_for_item(&AtomicBool::new(false)).is_some());
        let cut = p.rate().expect("paced");
        p.push_back(429, Duration::ZERO, p.started);
        assert_eq!(p.rate(), Some(cut));
        std::thread::sleep(Duration::from_millis(300));
        let _ = p.turn(Instant::now() + Duration::from_secs(1));
        let climbed = p.rate().expect("paced");
        assert!(climbed > cut && climbed < 20.0 * MARGIN, "{cut} -> {climbed}");
    }

    #[test]
    fn an_unpaced_run_takes_its_first_rate_from_what_the_provider_let_through() {
        let p = Pacer::new(None);
        assert_eq!(p.rate(), None);
        for _ in 0..30 {
            assert_eq!(p.turn(Instant::now() + Duration::from_secs(1)), Ok(()));
        }
        // The 21st was refused: the 20 before it went through.
        let refused = p.started + Duration::from_nanos(p.state().grants[20].at);
        p.push_back(429, Duration::ZERO, refused);
        let rate = p.rate().expect("paced now");
        assert!((rate - 20.0 * BELOW_LEARNED * BELOW_LEARNED).abs() < 1e-9, "{rate}");
    }

    #[test]
    fn a_pause_past_the_bound_halts_the_run_and_says_when() {
        let p = Pacer::with_max_pause(None, Duration::from_secs(60));
        p.congested(429, Duration::from_secs(3600));
        assert!(p.turn_for_item(&AtomicBool::new(false)).is_none(), "no item starts");
        let halt = p.halt().expect("halted");
        assert_eq!((halt.status, halt.wait), (429, Duration::from_secs(3600)));
        assert!(
            halt.to_string().starts_with("the provider (HTTP 429) asked to be called again in 1.0 h, at "),
            "{halt}"
        );
        assert!(
            halt.to_string()
                .ends_with(", past the 1.0 min the run waits at most (--max-pause), so it stopped without waiting"),
            "{halt}"
        );
        // Two days are said as two days; past a year, as more than that.
        let p = Pacer::with_max_pause(None, Duration::from_secs(60));
        p.congested(429, Duration::from_secs(2 * 86_400));
        assert!(p.halt().expect("halted").to_string().contains("again in 2.0 days, at "));
        let p = Pacer::with_max_pause(None, Duration::from_secs(60));
        p.congested(429, crate::transport::RETRY_AFTER_MAX);
        assert!(p.halt().expect("halted").to_string().contains("again in more than 365.0 days"));
    }

    #[test]
    fn a_slow_start_rate_is_not_said_and_a_pause_does_not_grow_it() {
        let p = Pacer::new(None);
        let stop = AtomicBool::new(false);
        let first = p.turn_for_item(&stop).expect("a turn");
        let _ = first;
        // One early 429 with a pause: the run slow-starts from a guess.
        p.push_back(429, Duration::from_secs(1), Instant::now());
        assert_eq!(p.measured_rate(), None, "a guess is not a measurement");
        let before = p.rate().expect("a rate");
        std::thread::sleep(Duration::from_millis(1100));
        let _ = p.turn_for_item(&stop);
        let after = p.rate().expect("a rate");
        assert!(after < before * 1.5, "the pause grew the rate from {before} to {after}");
        let paced = Pacer::new(Some(Rate { count: 10, per: Duration::from_secs(1) }));
        assert!(paced.measured_rate().is_some(), "a ceiling is a stated rate");
    }

    #[test]
    fn an_items_first_turn_is_taken_before_its_deadline_and_is_not_taken_twice() {
        let p = Pacer::new(Some(Rate { count: 10, per: Duration::from_secs(1) }));
        let stop = AtomicBool::new(false);
        let first = p.turn_for_item(&stop).expect("a turn");
        assert_eq!(p.requests(), 1);
        // The prepaid turn costs no second slot; the next one does, a tenth of a second on.
        assert_eq!(first.turn(Instant::now() + Duration::from_secs(1)), Ok(()));
        assert_eq!(p.requests(), 1);
        let t = Instant::now();
        assert_eq!(first.turn(Instant::now() + Duration::from_secs(1)), Ok(()));
        assert!(t.elapsed() >= Duration::from_millis(80), "{:?}", t.elapsed());
        assert_eq!(p.requests(), 2);
        stop.store(true, Ordering::Relaxed);
        assert!(p.turn_for_item(&stop).is_none(), "stopped: no turn");
    }
}
