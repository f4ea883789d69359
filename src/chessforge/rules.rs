//! Movement and replacement rules: where the next strike may land, and
//! what a strike does to the struck tile.
//!
//! Movement is a table, computed at compile time, of the squares each
//! rule reaches from each square, ignoring which squares are occupied;
//! legal strikes are that mask and the occupied squares. Removed tiles
//! never block: lines pass over empty squares.

use std::fmt;

use super::board::{Board, Strike};
use super::rng::Rng;
use super::square::{SIZE, SQUARES, Square, SquareSet};
use super::tile::{Symbol, Tile};

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// The square `(dr, dc)` away from `from`, if on the board.
const fn offset(from: Square, dr: i8, dc: i8) -> Option<Square> {
    let r = from.row() as i8 + dr;
    let c = from.col() as i8 + dc;
    if r < 0 || c < 0 {
        return None;
    }
    Square::new(r as u8, c as u8)
}

/// Squares exactly `n` steps away in any of `dirs`.
const fn at_distance(from: Square, dirs: &[(i8, i8)], n: i8) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < dirs.len() {
        if let Some(sq) = offset(from, dirs[i].0 * n, dirs[i].1 * n) {
            mask |= sq.bit().0;
        }
        i += 1;
    }
    mask
}

/// Edge squares on the rays from `from` along `dirs`, `from` excluded.
const fn edge_of_rays(from: Square, dirs: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < dirs.len() {
        let mut n = 1;
        while let Some(sq) = offset(from, dirs[i].0 * n, dirs[i].1 * n) {
            if sq.is_edge() {
                mask |= sq.bit().0;
            }
            n += 1;
        }
        i += 1;
    }
    mask
}

/// Everything but `from`.
const fn all_but(from: Square) -> u64 {
    SquareSet::ALL.0 & !from.bit().0
}

/// The squares `rule` reaches from `from` on an otherwise full board.
const fn reach_mask(rule: Symbol, from: Square) -> u64 {
    let lines = [
        ORTHOGONAL[0],
        ORTHOGONAL[1],
        ORTHOGONAL[2],
        ORTHOGONAL[3],
        DIAGONAL[0],
        DIAGONAL[1],
        DIAGONAL[2],
        DIAGONAL[3],
    ];
    match rule {
        Symbol::One => at_distance(from, &lines, 1),
        Symbol::Two => at_distance(from, &lines, 2),
        Symbol::Three => at_distance(from, &lines, 3),
        Symbol::Four => at_distance(from, &lines, 4),
        Symbol::Knight => at_distance(from, &KNIGHT, 1),
        Symbol::Bishop => edge_of_rays(from, &DIAGONAL),
        Symbol::Rook => edge_of_rays(from, &ORTHOGONAL),
        Symbol::Queen => edge_of_rays(from, &lines),
        // A lambda never governs a strike (it hands on the rule that led
        // to it); should one ever do, it behaves as the wild it stands in
        // for on a first strike.
        Symbol::Wild | Symbol::Lambda => all_but(from),
        Symbol::Shamrock => {
            let mut mask = 0;
            let mut dr = -2;
            while dr <= 2 {
                let mut dc = -2;
                while dc <= 2 {
                    if let Some(sq) = offset(from, dr, dc) {
                        mask |= sq.bit().0;
                    }
                    dc += 1;
                }
                dr += 1;
            }
            mask & !from.bit().0
        }
        Symbol::Skull => from.mirror().bit().0,
    }
}

const fn build_reach() -> [[SquareSet; SQUARES]; Symbol::COUNT] {
    let mut table = [[SquareSet::EMPTY; SQUARES]; Symbol::COUNT];
    let mut s = 0;
    while s < Symbol::COUNT {
        let mut i = 0;
        while i < SQUARES {
            let from = Square::new(i as u8 / SIZE, i as u8 % SIZE);
            if let Some(from) = from {
                table[s][i] = SquareSet(reach_mask(Symbol::ALL[s], from));
            }
            i += 1;
        }
        s += 1;
    }
    table
}

static REACH: [[SquareSet; SQUARES]; Symbol::COUNT] = build_reach();

/// The squares `rule` reaches from `from`, occupied or not.
pub fn reach(rule: Symbol, from: Square) -> SquareSet {
    REACH[rule.index()][from.index()]
}

/// What a strike does to the struck tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// It had one hit left and leaves the board.
    Removed,
    /// It had more hits than every other tile left, so it turns wild.
    Wild,
    /// It takes a symbol drawn uniformly from this pool.
    Drawn(&'static [Symbol]),
}

/// Why a strike cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrikeError {
    /// No legal strike is left.
    GameOver,
    /// The square's tile has been removed.
    Empty(Square),
    /// The last strike's rule does not reach the square.
    Unreachable {
        /// The square asked for.
        square: Square,
        /// The strike whose rule applies.
        last: Strike,
        /// Where the next strike may go instead.
        targets: SquareSet,
    },
    /// A replacement symbol was given that the rules would not draw here.
    WrongReplacement {
        /// The square struck.
        square: Square,
        /// What the caller said the tile became (`None`: nothing said).
        given: Option<Symbol>,
        /// What the rules do to the tile.
        expected: Replacement,
    },
}

impl fmt::Display for StrikeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GameOver => write!(f, "no legal strike is left: the game is over"),
            Self::Empty(sq) => write!(f, "{sq} is empty: its tile has been removed"),
            Self::Unreachable {
                square,
                last,
                targets,
            } => {
                if last.rule == Symbol::Wild {
                    write!(f, "{square} was just struck; a wild allows any other tile")
                } else {
                    write!(
                        f,
                        "{square} cannot be struck: the {} on {} reaches only {targets}",
                        last.rule, last.square
                    )
                }
            }
            Self::WrongReplacement {
                square,
                given,
                expected,
            } => {
                let given = given.map_or("no symbol".to_string(), |s| format!("a {s}"));
                match expected {
                    Replacement::Removed => write!(
                        f,
                        "{square} has one hit left and is removed, so it cannot become {given}"
                    ),
                    Replacement::Wild => write!(
                        f,
                        "{square} has more hits than any other tile, so it turns wild, not {given}"
                    ),
                    Replacement::Drawn(pool) => {
                        let letters: String = pool.iter().map(|s| s.letter()).collect();
                        write!(
                            f,
                            "{square} cannot become {given}: its new symbol is one of {letters}"
                        )
                    }
                }
            }
        }
    }
}

impl std::error::Error for StrikeError {}

impl Board {
    /// The squares the next strike may go to; empty when the game is over.
    pub fn targets(&self) -> SquareSet {
        match self.last {
            None => self.occupied,
            Some(last) => reach(last.rule, last.square) & self.occupied,
        }
    }

    /// Whether no legal strike remains.
    pub fn is_over(&self) -> bool {
        self.targets().is_empty()
    }

    /// What striking `sq` would do to its tile; `None` if `sq` is empty.
    pub fn replacement(&self, sq: Square) -> Option<Replacement> {
        let tile = self.tile(sq)?;
        let at_least: u8 = self.counts[tile.hits() as usize..].iter().sum();
        Some(if tile.hits() == 1 {
            Replacement::Removed
        } else if at_least == 1 {
            // Strictly more hits than every other tile: ties never go wild.
            Replacement::Wild
        } else {
            Replacement::Drawn(self.rules.pool(sq.is_centre()))
        })
    }

    /// The rule the strike after striking `tile` on `sq` follows.
    pub(super) fn rule_after(&self, tile: Tile) -> Symbol {
        match tile.symbol() {
            Symbol::Lambda => self.last.map_or(Symbol::Wild, |last| last.rule),
            symbol => symbol,
        }
    }

    /// The squares legal right after striking `sq`, whatever it turns into;
    /// what greedy play looks at. Empty if `sq` is empty.
    pub fn targets_after(&self, sq: Square) -> SquareSet {
        let Some(tile) = self.tile(sq) else {
            return SquareSet::EMPTY;
        };
        let occupied = if tile.hits() == 1 {
            self.occupied.without(sq)
        } else {
            self.occupied
        };
        reach(self.rule_after(tile), sq) & occupied
    }

    /// Checks that `sq` is a legal strike now.
    pub fn check_strike(&self, sq: Square) -> Result<(), StrikeError> {
        let targets = self.targets();
        if targets.contains(sq) {
            return Ok(());
        }
        match self.last {
            _ if targets.is_empty() => Err(StrikeError::GameOver),
            _ if !self.occupied.contains(sq) => Err(StrikeError::Empty(sq)),
            Some(last) => Err(StrikeError::Unreachable {
                square: sq,
                last,
                targets,
            }),
            // Before the first strike every occupied square is a target.
            None => Err(StrikeError::Empty(sq)),
        }
    }

    /// Strikes `sq`, drawing any random replacement from `rng`.
    pub fn strike(&self, sq: Square, rng: &mut Rng) -> Result<Board, StrikeError> {
        self.check_strike(sq)?;
        Ok(self.play_random(sq, rng))
    }

    /// Strikes `sq`, whose tile becomes `new` (`None` when it is removed;
    /// a wild may be given or left out). For an outside random source.
    pub fn strike_as(&self, sq: Square, new: Option<Symbol>) -> Result<Board, StrikeError> {
        self.check_strike(sq)?;
        let expected = self.replacement(sq).ok_or(StrikeError::Empty(sq))?;
        let drawn = match (expected, new) {
            (Replacement::Removed, None) => Symbol::Wild,
            (Replacement::Wild, None | Some(Symbol::Wild)) => Symbol::Wild,
            (Replacement::Drawn(pool), Some(s)) if pool.contains(&s) => s,
            _ => {
                return Err(StrikeError::WrongReplacement {
                    square: sq,
                    given: new,
                    expected,
                });
            }
        };
        Ok(self.play(sq, drawn))
    }

    /// Strikes `sq` without checking legality, drawing from `rng` only if
    /// the replacement is random (so a seed's stream means the same thing
    /// whichever tiles are struck).
    pub(crate) fn play_random(&self, sq: Square, rng: &mut Rng) -> Board {
        let drawn = match self.replacement(sq) {
            Some(Replacement::Drawn(pool)) => rng.pick(pool).unwrap_or(Symbol::One),
            _ => Symbol::Wild,
        };
        self.play(sq, drawn)
    }

    /// Strikes `sq` without checking legality. `drawn` is the new symbol
    /// if the replacement is random and ignored otherwise. Striking an
    /// empty square changes nothing.
    pub(crate) fn play(&self, sq: Square, drawn: Symbol) -> Board {
        let Some(replacement) = self.replacement(sq) else {
            return *self;
        };
        let Some(tile) = self.tile(sq) else {
            return *self;
        };
        let mut next = *self;
        next.last = Some(Strike {
            square: sq,
            rule: self.rule_after(tile),
        });
        let hits = tile.hits();
        next.counts[hits as usize] -= 1;
        let new_symbol = match replacement {
            Replacement::Removed => None,
            Replacement::Wild => Some(Symbol::Wild),
            Replacement::Drawn(_) => Some(drawn),
        };
        match new_symbol.and_then(|s| Tile::new(s, hits - 1)) {
            Some(new_tile) => {
                next.counts[new_tile.hits() as usize] += 1;
                next.tiles[sq.index()] = Some(new_tile);
            }
            None => {
                next.tiles[sq.index()] = None;
                next.occupied = next.occupied.without(sq);
            }
        }
        next
    }
}
