//! Symbols, tiles and the two rule sets.
//!
//! A tile is a symbol plus the hits it has left; a removed tile is simply
//! absent (`Option<Tile>` on the board). The rule set decides which
//! symbols exist and which ones random replacement draws from.

use std::fmt;

/// Hits every tile starts with.
pub const START_HITS: u8 = 3;

/// The symbol on a tile; it decides where the next strike may go.
///
/// Declared in an order that makes every replacement pool a contiguous
/// run of [`Symbol::ALL`]: the extra symbols, the standard ones, then the
/// four (which centre squares never draw) and the wild (never drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// Extra rules: the next strike repeats the rule that led here.
    Lambda,
    /// Extra rules: any tile within two squares (a 5x5 box).
    Shamrock,
    /// Extra rules: only the square mirrored through the centre.
    Skull,
    /// Exactly one square away along a row, column or diagonal.
    One,
    /// Exactly two squares away along a row, column or diagonal.
    Two,
    /// Exactly three squares away along a row, column or diagonal.
    Three,
    /// A knight's move.
    Knight,
    /// Along a diagonal, landing on the edge of the board.
    Bishop,
    /// Along a row or column, landing on the edge of the board.
    Rook,
    /// Along any line, landing on the edge of the board.
    Queen,
    /// Exactly four squares away along a row, column or diagonal.
    Four,
    /// Any tile but the one just struck; never drawn at random.
    Wild,
}

impl Symbol {
    /// Number of symbols, the size of per-symbol tables.
    pub const COUNT: usize = 12;

    /// Every symbol, in declaration order.
    pub const ALL: [Symbol; Symbol::COUNT] = [
        Symbol::Lambda,
        Symbol::Shamrock,
        Symbol::Skull,
        Symbol::One,
        Symbol::Two,
        Symbol::Three,
        Symbol::Knight,
        Symbol::Bishop,
        Symbol::Rook,
        Symbol::Queen,
        Symbol::Four,
        Symbol::Wild,
    ];

    /// Position in [`Symbol::ALL`], for tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter form used by the board text and the terminal.
    pub const fn letter(self) -> char {
        match self {
            Symbol::One => '1',
            Symbol::Two => '2',
            Symbol::Three => '3',
            Symbol::Four => '4',
            Symbol::Knight => 'N',
            Symbol::Bishop => 'B',
            Symbol::Rook => 'R',
            Symbol::Queen => 'Q',
            Symbol::Wild => 'W',
            Symbol::Lambda => 'L',
            Symbol::Shamrock => 'S',
            Symbol::Skull => 'X',
        }
    }

    /// The symbol written as `letter`; lower case is accepted.
    pub fn from_letter(letter: char) -> Option<Symbol> {
        let upper = letter.to_ascii_uppercase();
        Symbol::ALL.into_iter().find(|s| s.letter() == upper)
    }

    /// The symbol's English name.
    pub const fn name(self) -> &'static str {
        match self {
            Symbol::One => "one",
            Symbol::Two => "two",
            Symbol::Three => "three",
            Symbol::Four => "four",
            Symbol::Knight => "knight",
            Symbol::Bishop => "bishop",
            Symbol::Rook => "rook",
            Symbol::Queen => "queen",
            Symbol::Wild => "wild",
            Symbol::Lambda => "lambda",
            Symbol::Shamrock => "shamrock",
            Symbol::Skull => "skull",
        }
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tile still on the board: its symbol and the hits it has left (1–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    symbol: Symbol,
    hits: u8,
}

impl Tile {
    /// A tile with `hits` left, if `hits` is 1–3.
    pub const fn new(symbol: Symbol, hits: u8) -> Option<Tile> {
        if hits >= 1 && hits <= START_HITS {
            Some(Tile { symbol, hits })
        } else {
            None
        }
    }

    /// The tile's symbol.
    pub const fn symbol(self) -> Symbol {
        self.symbol
    }

    /// Hits left, 1–3.
    pub const fn hits(self) -> u8 {
        self.hits
    }
}

/// Which rules are in force: the course's, or the extra-credit variant
/// with lambda, shamrock and skull.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The handout's rules; the default.
    #[default]
    Standard,
    /// The standard rules plus lambda, shamrock and skull (see docs/chessforge.md).
    Extra,
}

/// `ALL` as a slice, so that the pools below can be cut from it.
const SYMBOLS: &[Symbol] = &Symbol::ALL;
/// Where the standard symbols start (after the three extra ones).
const FIRST_STANDARD: usize = 3;
/// Where the four is; the wild follows it.
const FOUR: usize = Symbol::Four as usize;

/// `SYMBOLS[from..to]`, usable in constants.
const fn run(from: usize, to: usize) -> &'static [Symbol] {
    SYMBOLS.split_at(to).0.split_at(from).1
}

impl RuleSet {
    /// The symbols a random replacement draws from, uniformly; centre
    /// squares leave out the four. Wild is never among them.
    pub const fn pool(self, centre: bool) -> &'static [Symbol] {
        match (self, centre) {
            (RuleSet::Standard, false) => run(FIRST_STANDARD, FOUR + 1),
            (RuleSet::Standard, true) => run(FIRST_STANDARD, FOUR),
            (RuleSet::Extra, false) => run(0, FOUR + 1),
            (RuleSet::Extra, true) => run(0, FOUR),
        }
    }

    /// Whether a tile may carry `symbol` under these rules.
    pub const fn allows(self, symbol: Symbol) -> bool {
        match symbol {
            Symbol::Lambda | Symbol::Shamrock | Symbol::Skull => matches!(self, RuleSet::Extra),
            _ => true,
        }
    }

    /// The word for these rules in the board text and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Standard => "standard",
            RuleSet::Extra => "extra",
        }
    }
}
