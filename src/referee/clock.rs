//! The two players' clocks, kept by the referee from wall time: sudden
//! death with an optional increment. Only the referee's own measurements
//! count, never what a player says about its time.

use crate::chess::Color;
use std::time::{Duration, Instant};

/// What stopping a clock found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Whose clock ran.
    pub side: Color,
    /// How long it ran.
    pub elapsed: Duration,
    /// Whether it ran out (no increment is added then).
    pub flagged: bool,
}

/// Both clocks; at most one runs at a time.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    left: [Duration; 2],
    increment: Duration,
    running: Option<(Color, Instant)>,
}

impl Clocks {
    /// Clocks with the given times, in milliseconds, and increment per move.
    pub fn new(white_ms: u64, black_ms: u64, increment_ms: u64) -> Clocks {
        Clocks {
            left: [
                Duration::from_millis(white_ms),
                Duration::from_millis(black_ms),
            ],
            increment: Duration::from_millis(increment_ms),
            running: None,
        }
    }

    /// The increment added after each move, in milliseconds.
    pub fn increment_ms(&self) -> u64 {
        millis(self.increment)
    }

    /// Starts `side`'s clock, stopping the other one first.
    pub fn start(&mut self, side: Color) {
        self.stop_without_increment();
        self.running = Some((side, Instant::now()));
    }

    /// Stops the running clock after a move: charges the time used and
    /// adds the increment unless the clock ran out.
    pub fn stop(&mut self) -> Option<Stopped> {
        let stopped = self.stop_without_increment()?;
        if !stopped.flagged {
            self.left[stopped.side.index()] += self.increment;
        }
        Some(stopped)
    }

    /// Stops the running clock without a move (the game was paused or
    /// ended): the time used is charged, nothing is added.
    pub fn pause(&mut self) {
        self.stop_without_increment();
    }

    fn stop_without_increment(&mut self) -> Option<Stopped> {
        let (side, since) = self.running.take()?;
        let elapsed = since.elapsed();
        let left = &mut self.left[side.index()];
        let flagged = elapsed >= *left;
        *left = left.saturating_sub(elapsed);
        Some(Stopped {
            side,
            elapsed,
            flagged,
        })
    }

    /// Whose clock is running.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// Time left for `side` now, counting a running clock.
    pub fn left(&self, side: Color) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((s, since)) if s == side => left.saturating_sub(since.elapsed()),
            _ => left,
        }
    }

    /// Time left for `side` now, in milliseconds.
    pub fn left_ms(&self, side: Color) -> u64 {
        millis(self.left(side))
    }

    /// Whether `side`'s time has run out.
    pub fn flagged(&self, side: Color) -> bool {
        self.left(side).is_zero()
    }

    /// Sets the time left for `side`; a running clock counts on from the
    /// new value.
    pub fn set_ms(&mut self, side: Color, ms: u64) {
        self.left[side.index()] = Duration::from_millis(ms);
        if let Some((s, since)) = &mut self.running
            && *s == side
        {
            *since = Instant::now();
        }
    }
}

/// Whole milliseconds, saturating.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `m:ss` (or `h:mm:ss`) with tenths under ten seconds, for screens and
/// progress lines.
pub fn show(d: Duration) -> String {
    let ms = millis(d);
    if ms < 10_000 {
        return format!("0:0{}.{}", ms / 1000, ms % 1000 / 100);
    }
    // Whole seconds round up, so that a clock just started still shows
    // its full time.
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increment_only_without_flag() {
        let mut c = Clocks::new(0, 1000, 500);
        c.start(Color::White);
        let s = c.stop().unwrap();
        assert!(s.flagged);
        assert_eq!(c.left_ms(Color::White), 0);
        c.set_ms(Color::White, 60_000);
        c.start(Color::White);
        let s = c.stop().unwrap();
        assert!(!s.flagged);
        assert!(c.left_ms(Color::White) > 60_000);
        assert_eq!(c.left_ms(Color::Black), 1000);
    }

    #[test]
    fn shows_minutes_and_tenths() {
        assert_eq!(show(Duration::from_millis(300_000)), "5:00");
        assert_eq!(show(Duration::from_millis(9_450)), "0:09.4");
        assert_eq!(show(Duration::from_millis(3_723_000)), "1:02:03");
    }
}
