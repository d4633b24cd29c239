//! The pace of a run: a client-side rate every request waits its turn under, and a pause
//! every worker honours when a server says it is congested, not only the one told.
//!
//! The engine holds the one [`Pacer`]; each item's ask gets a [`Turn`] made from it, whose
//! first turn was taken before the item's deadline started (so a slow rate never eats into an
//! answer's budget), and whose later turns (retries) wait within the deadline.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::transport::Pace;

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

/// The run's pace: a token bucket (a burst of one, so requests are evenly spaced) and the
/// shared pause. It counts the requests sent and the 429s seen.
#[derive(Debug)]
pub struct Pacer {
    interval: Option<Duration>,
    state: Mutex<Slots>,
    requests: AtomicU64,
    too_many: AtomicU64,
}

#[derive(Debug, Clone, Copy)]
struct Slots {
    next: Instant,
    paused_until: Instant,
}

impl Pacer {
    /// A pacer at `rate`, or unpaced (it still counts, and still pauses on congestion).
    pub fn new(rate: Option<Rate>) -> Pacer {
        let now = Instant::now();
        Pacer {
            interval: rate.map(|r| r.per / r.count),
            state: Mutex::new(Slots { next: now, paused_until: now }),
            requests: AtomicU64::new(0),
            too_many: AtomicU64::new(0),
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

    fn slots(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Take a slot: the first free one no earlier than now, the next token, or the pause's end;
    /// none when it would come after `deadline`.
    fn slot(&self, deadline: Option<Instant>) -> Option<Instant> {
        let mut s = self.slots();
        let slot = Instant::now().max(s.next).max(s.paused_until);
        if deadline.is_some_and(|d| slot > d) {
            return None;
        }
        if let Some(i) = self.interval {
            s.next = slot + i;
        }
        Some(slot)
    }

    /// An item's first turn, taken before its deadline starts: sleep until it, waking to look
    /// at `stop`; none when stopped first.
    pub fn turn_for_item<'a>(&'a self, stop: &AtomicBool) -> Option<Turn<'a>> {
        let slot = self.slot(None).unwrap_or_else(Instant::now);
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let wait = slot.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                return Some(Turn { pacer: self, prepaid: AtomicBool::new(true) });
            }
            std::thread::sleep(wait.min(POLL));
        }
    }
}

impl Pace for Pacer {
    fn turn(&self, deadline: Instant) -> bool {
        let Some(slot) = self.slot(Some(deadline)) else { return false };
        std::thread::sleep(slot.saturating_duration_since(Instant::now()));
        self.honour_pause(deadline)
    }

    fn congested(&self, status: u16, wait: Duration) {
        if status == 429 {
            self.too_many.fetch_add(1, Ordering::Relaxed);
        }
        let mut s = self.slots();
        s.paused_until = s.paused_until.max(Instant::now() + wait);
    }
}

impl Pacer {
    /// A pause that began while this caller waited holds it too; then the request is counted.
    fn honour_pause(&self, deadline: Instant) -> bool {
        let paused_until = self.slots().paused_until;
        if let Some(more) = paused_until.checked_duration_since(Instant::now()) {
            if Instant::now() + more > deadline {
                return false;
            }
            std::thread::sleep(more);
        }
        self.requests.fetch_add(1, Ordering::Relaxed);
        true
    }
}

/// One item's pace: its first turn was taken before its deadline started; the next ones
/// (retries, or a chat provider's other questions) wait their turn within it.
#[derive(Debug)]
pub struct Turn<'a> {
    pacer: &'a Pacer,
    prepaid: AtomicBool,
}

impl Pace for Turn<'_> {
    fn turn(&self, deadline: Instant) -> bool {
        if self.prepaid.swap(false, Ordering::Relaxed) {
            return self.pacer.honour_pause(deadline);
        }
        self.pacer.turn(deadline)
    }

    fn congested(&self, status: u16, wait: Duration) {
        self.pacer.congested(status, wait);
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
    fn the_pacer_spaces_requests_and_pauses_everyone_on_congestion() {
        let p = Pacer::new(Some(Rate { count: 100, per: Duration::from_secs(1) }));
        let far = Instant::now() + Duration::from_secs(5);
        let t = Instant::now();
        for _ in 0..5 {
            assert!(p.turn(far));
        }
        assert!(t.elapsed() >= Duration::from_millis(35), "{:?}", t.elapsed());
        p.congested(429, Duration::from_millis(80));
        let t = Instant::now();
        assert!(p.turn(far));
        assert!(t.elapsed() >= Duration::from_millis(60), "{:?}", t.elapsed());
        assert_eq!((p.requests(), p.rate_limited()), (6, 1));
        // A turn that cannot come before the deadline is refused at once.
        p.congested(529, Duration::from_secs(10));
        assert!(!p.turn(Instant::now() + Duration::from_millis(10)));
    }

    #[test]
    fn an_items_first_turn_is_taken_before_its_deadline_and_is_not_taken_twice() {
        let p = Pacer::new(Some(Rate { count: 10, per: Duration::from_secs(1) }));
        let stop = AtomicBool::new(false);
        let first = p.turn_for_item(&stop).expect("a turn");
        // The prepaid turn costs no second slot; the next one does.
        let t = Instant::now();
        assert!(first.turn(Instant::now() + Duration::from_secs(1)));
        assert!(t.elapsed() < Duration::from_millis(50), "{:?}", t.elapsed());
        assert!(first.turn(Instant::now() + Duration::from_secs(1)));
        assert!(t.elapsed() >= Duration::from_millis(80), "{:?}", t.elapsed());
        stop.store(true, Ordering::Relaxed);
        assert!(p.turn_for_item(&stop).is_none(), "stopped: no turn");
    }
}
