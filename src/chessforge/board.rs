//! The position: 36 squares, each a tile or empty, the last strike (which
//! says where the next strike may go) and the rule set in force.
//!
//! `Board` is a small `Copy` value and strikes are copy-make, so the
//! solver can branch freely. It keeps a mask of the occupied squares and
//! a count of tiles per hit count up to date, because move generation and
//! the wild rule ask for them on every strike.

use std::fmt;

use super::rng::Rng;
use super::square::{SQUARES, Square, SquareSet};
use super::tile::{RuleSet, START_HITS, Symbol, Tile};

/// Strikes needed to clear a board: 36 tiles of 3 hits.
pub const TOTAL_STRIKES: u32 = SQUARES as u32 * START_HITS as u32;

/// The most recent strike, as far as the next strike cares: where it
/// landed and whose movement rule the next strike must follow.
///
/// `rule` is the struck tile's symbol before it changed, except that a
/// struck lambda (extra rules) passes on the rule that led to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strike {
    /// The square that was struck.
    pub square: Square,
    /// The symbol whose movement rule the next strike follows.
    pub rule: Symbol,
}

/// Why a set of tiles is not a position the rules can produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A tile carries a symbol that the rule set in force does not have.
    SymbolNotInRules {
        /// Where the tile stands (or the last strike, for its rule).
        square: Square,
        /// The offending symbol.
        symbol: Symbol,
        /// The rules in force.
        rules: RuleSet,
    },
    /// A four on a centre square, which replacement never produces.
    FourInCentre(Square),
    /// A last strike whose rule is a lambda; a struck lambda always hands
    /// on a concrete rule.
    LambdaRule(Square),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SymbolNotInRules {
                square,
                symbol,
                rules,
            } => write!(
                f,
                "{square} has a {symbol}, which the {} rules do not have (add 'extra' for them)",
                rules.name()
            ),
            Self::FourInCentre(sq) => {
                write!(f, "{sq} holds a four, but centre squares never get a four")
            }
            Self::LambdaRule(sq) => write!(
                f,
                "the last strike on {sq} cannot follow a lambda: a lambda passes on the rule that led to it"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// A ChessForge position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) tiles: [Option<Tile>; SQUARES],
    pub(super) occupied: SquareSet,
    /// Tiles per hit count, indexed by hits (index 0 unused).
    pub(super) counts: [u8; START_HITS as usize + 1],
    pub(super) last: Option<Strike>,
    pub(super) rules: RuleSet,
}

impl Board {
    /// A fresh board: every tile has three hits and a symbol drawn exactly
    /// as a random replacement would be (no wilds, no four in the centre).
    pub fn random(rules: RuleSet, rng: &mut Rng) -> Board {
        let mut tiles = [None; SQUARES];
        for sq in Square::all() {
            let pool = rules.pool(sq.is_centre());
            let symbol = rng.pick(pool).unwrap_or(Symbol::One);
            tiles[sq.index()] = Tile::new(symbol, START_HITS);
        }
        Board::assemble(tiles, None, rules)
    }

    /// The position with these tiles and this last strike, if the rules
    /// can produce it.
    pub fn from_parts(
        tiles: [Option<Tile>; SQUARES],
        last: Option<Strike>,
        rules: RuleSet,
    ) -> Result<Board, BoardError> {
        for sq in Square::all() {
            let Some(tile) = tiles[sq.index()] else {
                continue;
            };
            let symbol = tile.symbol();
            if !rules.allows(symbol) {
                return Err(BoardError::SymbolNotInRules {
                    square: sq,
                    symbol,
                    rules,
                });
            }
            if symbol == Symbol::Four && sq.is_centre() {
                return Err(BoardError::FourInCentre(sq));
            }
        }
        if let Some(strike) = last {
            if strike.rule == Symbol::Lambda {
                return Err(BoardError::LambdaRule(strike.square));
            }
            if !rules.allows(strike.rule) {
                return Err(BoardError::SymbolNotInRules {
                    square: strike.square,
                    symbol: strike.rule,
                    rules,
                });
            }
        }
        Ok(Board::assemble(tiles, last, rules))
    }

    /// Builds the cached mask and counts; the caller has checked the tiles.
    fn assemble(tiles: [Option<Tile>; SQUARES], last: Option<Strike>, rules: RuleSet) -> Board {
        let mut occupied = SquareSet::EMPTY;
        let mut counts = [0; START_HITS as usize + 1];
        for sq in Square::all() {
            if let Some(tile) = tiles[sq.index()] {
                occupied = occupied.with(sq);
                counts[tile.hits() as usize] += 1;
            }
        }
        Board {
            tiles,
            occupied,
            counts,
            last,
            rules,
        }
    }

    /// The tile on `sq`, or `None` if it was removed.
    pub fn tile(&self, sq: Square) -> Option<Tile> {
        self.tiles[sq.index()]
    }

    /// The squares that still hold a tile.
    pub fn occupied(&self) -> SquareSet {
        self.occupied
    }

    /// The last strike, or `None` before the first.
    pub fn last(&self) -> Option<Strike> {
        self.last
    }

    /// The rule set in force.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Number of tiles with exactly `hits` hits left.
    pub fn count_with_hits(&self, hits: u8) -> u32 {
        self.counts.get(hits as usize).map_or(0, |&n| u32::from(n))
    }

    /// Hits left over the whole board: the most strikes still possible.
    pub fn hits_left(&self) -> u32 {
        (1..=START_HITS)
            .map(|h| u32::from(h) * self.count_with_hits(h))
            .sum()
    }

    /// Strikes made so far; every strike removes exactly one hit.
    pub fn strikes_made(&self) -> u32 {
        TOTAL_STRIKES - self.hits_left()
    }

    /// Tiles removed so far, out of 36.
    pub fn tiles_removed(&self) -> u32 {
        (SQUARES - self.occupied.len()) as u32
    }

    /// Whether every tile has been removed.
    pub fn is_cleared(&self) -> bool {
        self.occupied.is_empty()
    }
}
