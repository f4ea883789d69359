//! What bounds a search: depth, nodes, fixed move time, an absolute
//! deadline and the game clock, and the time manager that turns a clock
//! into a soft target and a hard deadline.
//!
//! The soft target decides whether another iteration is worth starting; the
//! hard deadline interrupts an iteration in progress and is always honoured.
//! Both leave a move overhead for the pipe, the referee and the scheduler.

use std::time::{Duration, Instant};

/// The side to move's clock, as a referee or `go wtime ...` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock of the side to move.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control; `None` for sudden death.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; unset fields do not limit. With nothing set the
/// search runs until stopped (UCI `go infinite`) or until the maximum depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (levels cap strength with this).
    pub depth: Option<u32>,
    /// Most nodes to visit; the count never exceeds it.
    pub nodes: Option<u64>,
    /// Think for this long (minus the overhead), then move.
    pub movetime: Option<Duration>,
    /// An absolute hard deadline.
    pub deadline: Option<Instant>,
    /// The game clock, managed by [`TimeManager`].
    pub clock: Option<Clock>,
    /// Safety margin kept from any time limit, for transmission and
    /// process scheduling.
    pub move_overhead: Duration,
    /// When the search was requested (when the command arrived); the search
    /// start if unset. Time limits count from here.
    pub start: Option<Instant>,
}

/// Default [`Limits::move_overhead`].
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            deadline: None,
            clock: None,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            start: None,
        }
    }
}

impl Limits {
    /// Search to exactly `depth` plies.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Think for `time`, minus the overhead.
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Play on a clock with `remaining` time, `increment` per move and
    /// `moves_to_go` moves to the next control (`None`: sudden death).
    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Self {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    /// The same limits, also capped at `depth` plies (strength levels).
    pub fn with_depth(self, depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..self
        }
    }

    /// Whether a clock governs the search, so that spending less time than
    /// allowed is a gain (a forced move is played at once).
    pub fn is_clock_managed(&self) -> bool {
        self.clock.is_some()
    }
}

/// Sudden death: how many more moves to plan for, by the time left. The
/// share of the clock a move may take shrinks as the clock runs down, so
/// that a game of hundreds of moves (antichess endings can shuffle on for
/// long) never brings the clock down to the few milliseconds a pipe and a
/// busy scheduler can eat: `full` moves of thinking while 2 s or more is
/// left, `short` while 0.2 s or more is, then 200 (the game's
/// [`SearchParams::time_horizon`] and [`SearchParams::tm_short`]).
///
/// [`SearchParams::time_horizon`]: super::SearchParams::time_horizon
/// [`SearchParams::tm_short`]: super::SearchParams::tm_short
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Horizons {
    /// Moves planned for while 2 s or more is left.
    pub full: u32,
    /// Moves planned for while 0.2 s to 2 s is left.
    pub short: u32,
}

impl Horizons {
    fn moves(self, remaining: Duration) -> u32 {
        let moves = if remaining >= Duration::from_secs(2) {
            self.full
        } else if remaining >= Duration::from_millis(200) {
            self.short
        } else {
            200
        };
        moves.clamp(1, 200)
    }
}

/// Turns [`Limits`] into instants.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Do not start an iteration past this share of the target.
    soft: Option<Duration>,
    /// Stop the search in progress here.
    hard: Option<Duration>,
}

impl TimeManager {
    /// Plans the time of one search with chess's horizons.
    pub fn new(limits: &Limits, now: Instant) -> Self {
        Self::planned(limits, now, super::params::DEFAULT.horizons())
    }

    /// Plans the time of one search; in sudden death the clock is shared
    /// among as many moves as `horizons` says for the time left.
    pub fn planned(limits: &Limits, now: Instant, horizons: Horizons) -> Self {
        let start = limits.start.unwrap_or(now);
        let mut soft = None;
        let mut hard = None;
        if let Some(clock) = limits.clock {
            let (s, h) = clock_budget(clock, limits.move_overhead, horizons);
            soft = Some(s);
            hard = Some(h);
        }
        if let Some(time) = limits.movetime {
            let usable = time.saturating_sub(limits.move_overhead.min(time / 4));
            hard = Some(hard.map_or(usable, |h: Duration| h.min(usable)));
        }
        if let Some(deadline) = limits.deadline {
            let usable = deadline
                .saturating_duration_since(start)
                .saturating_sub(limits.move_overhead);
            hard = Some(hard.map_or(usable, |h: Duration| h.min(usable)));
        }
        if let (Some(s), Some(h)) = (soft, hard) {
            soft = Some(s.min(h));
        }
        TimeManager { start, soft, hard }
    }

    /// Time since the search was requested.
    pub fn elapsed(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.start)
    }

    /// Whether the hard deadline has passed: stop at once.
    pub fn hard_expired(&self, now: Instant) -> bool {
        self.hard.is_some_and(|hard| self.elapsed(now) >= hard)
    }

    /// Whether another iteration is worth starting. The next one usually
    /// costs more than all before it, so stop well before the target.
    pub fn next_iteration_ok(&self, now: Instant) -> bool {
        self.next_iteration_ok_scaled(now, 100)
    }

    /// [`TimeManager::next_iteration_ok`] with the target scaled by
    /// `percent`: more while the best move keeps changing, less once it
    /// has settled. Never past the hard limit.
    pub fn next_iteration_ok_scaled(&self, now: Instant, percent: u32) -> bool {
        let elapsed = self.elapsed(now);
        let soft_ok = self
            .soft
            .is_none_or(|soft| elapsed < soft * 6 * percent / 1000);
        soft_ok && !self.hard_expired(now)
    }

    /// The planned target, if a clock governs the search.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit, counted from the start, if any.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

/// Soft target and hard limit for a move on `clock`.
fn clock_budget(clock: Clock, overhead: Duration, horizons: Horizons) -> (Duration, Duration) {
    // Never let the overhead eat the whole clock when little is left.
    let available = clock
        .remaining
        .saturating_sub(overhead.min(clock.remaining / 4));
    let moves = clock
        .moves_to_go
        .map_or_else(|| horizons.moves(clock.remaining), |m| m.clamp(1, 50));
    let base = available / moves + clock.increment * 3 / 4;
    let soft = base.min(available * 6 / 10);
    let hard = (base * 3).min(available * 8 / 10).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn sudden_death_spends_a_share() {
        let limits = Limits::clock(MS(300_000), Duration::ZERO, None);
        let tm = TimeManager::new(&limits, Instant::now());
        let soft = tm.soft().unwrap();
        assert!(soft > MS(5_000) && soft < MS(15_000), "{soft:?}");
        assert!(tm.hard().unwrap() <= MS(60_000));
    }

    #[test]
    fn a_shorter_horizon_spends_more_while_the_clock_is_full() {
        let now = Instant::now();
        let soft = |left, full, short| {
            let plan = Horizons { full, short };
            TimeManager::planned(&Limits::clock(left, Duration::ZERO, None), now, plan).soft()
        };
        assert!(soft(MS(10_000), 15, 80) > soft(MS(10_000), 22, 80));
        // Under 2 s the short horizon alone counts.
        assert_eq!(soft(MS(1_500), 15, 80), soft(MS(1_500), 22, 80));
        assert!(soft(MS(1_500), 15, 40) > soft(MS(1_500), 15, 80));
        // Under 0.2 s every plan is for 200 moves.
        assert_eq!(soft(MS(150), 15, 40), soft(MS(150), 22, 80));
    }

    #[test]
    fn a_long_game_never_runs_the_clock_out() {
        // Each move spends its target plus 1 ms of transmission: a game of
        // 300 moves a side on a 10 s clock must still leave time to answer.
        let mut left = MS(10_000);
        for _ in 0..300 {
            let tm = TimeManager::new(&Limits::clock(left, Duration::ZERO, None), Instant::now());
            left = left.saturating_sub(tm.soft().unwrap() + MS(1));
        }
        assert!(left > MS(10), "{left:?}");
    }

    #[test]
    fn answers_well_inside_a_tiny_clock() {
        let limits = Limits::clock(MS(100), Duration::ZERO, None);
        let tm = TimeManager::new(&limits, Instant::now());
        assert!(tm.hard().unwrap() <= MS(20), "{:?}", tm.hard());
        let limits = Limits::clock(MS(0), Duration::ZERO, None);
        assert_eq!(
            TimeManager::new(&limits, Instant::now()).hard(),
            Some(MS(0))
        );
    }

    #[test]
    fn increment_and_last_move_before_control() {
        let inc = TimeManager::new(&Limits::clock(MS(10_000), MS(1_000), None), Instant::now());
        let no_inc = TimeManager::new(&Limits::clock(MS(10_000), MS(0), None), Instant::now());
        assert!(inc.soft() > no_inc.soft());
        let last = Limits::clock(MS(10_000), MS(0), Some(1));
        let tm = TimeManager::new(&last, Instant::now());
        assert!(tm.hard().unwrap() < MS(10_000));
        assert!(tm.soft().unwrap() >= MS(5_000));
    }

    #[test]
    fn movetime_and_deadline_cap_the_hard_limit() {
        let now = Instant::now();
        let tm = TimeManager::new(&Limits::movetime(MS(1_000)), now);
        assert_eq!(tm.hard(), Some(MS(1_000) - DEFAULT_MOVE_OVERHEAD));
        assert_eq!(tm.soft(), None);
        let limits = Limits {
            deadline: Some(now + MS(500)),
            start: Some(now),
            ..Limits::movetime(MS(1_000))
        };
        let tm = TimeManager::new(&limits, now);
        assert_eq!(tm.hard(), Some(MS(500) - DEFAULT_MOVE_OVERHEAD));
        assert!(!TimeManager::new(&Limits::depth(3), now).hard_expired(now + MS(1 << 40)));
    }
}
