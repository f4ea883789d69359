//! Four men, each side a king and one other man, numbered for the endgame
//! tables.
//!
//! A table is seen from the side to move, which is turned into White (the
//! board flipped top to bottom when Black is to move), so one table serves
//! both colours. Without pawns the board has eight symmetries, with pawns
//! only the left-right mirror; a position's number is the smallest of its
//! images whose mover's king lands in the table's slots (10 squares of a
//! triangle without pawns, the 32 of files a to d with them). A number
//! whose position is not the smallest of its images is never read.

use crate::chess::{Color, PieceKind, Position, Square};
use std::fmt;
use std::str::FromStr;

/// Squares each man can stand on, for the three men after the first king.
const PLACES: usize = 64 * 64 * 64;

/// The men besides the kings: `mover`'s belongs to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// The side to move's man.
    pub mover: PieceKind,
    /// The opponent's man.
    pub other: PieceKind,
}

/// The kinds a table's man can be: anything but a king.
pub const MEN: [PieceKind; 5] = [
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

impl Material {
    /// Every table, the ones without pawns first: a pawn's table needs the
    /// queen's it promotes into.
    pub fn all() -> Vec<Material> {
        let mut all: Vec<Material> = MEN
            .iter()
            .flat_map(|&mover| MEN.iter().map(move |&other| Material { mover, other }))
            .collect();
        all.sort_by_key(|m| (m.pawns(), m.mover, m.other));
        all
    }

    /// The same men seen from the other side: the table of the positions a
    /// move leads to.
    pub const fn flipped(self) -> Material {
        Material {
            mover: self.other,
            other: self.mover,
        }
    }

    /// How many pawns there are (0 to 2).
    pub fn pawns(self) -> usize {
        usize::from(self.mover == PieceKind::Pawn) + usize::from(self.other == PieceKind::Pawn)
    }

    /// Entries in the table: slots for the mover's king times the places
    /// of the other three men.
    pub fn size(self) -> usize {
        self.slots() * PLACES
    }

    fn slots(self) -> usize {
        if self.pawns() > 0 { 32 } else { 10 }
    }

    /// The symmetries that keep this material's game the same.
    fn symmetries(self) -> &'static [Symmetry] {
        if self.pawns() > 0 {
            &Symmetry::ALL[..2]
        } else {
            &Symmetry::ALL
        }
    }
}

impl fmt::Display for Material {
    /// `KQvKN`: the side to move's men first.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let upper = |k: PieceKind| k.letter().to_ascii_uppercase();
        write!(f, "K{}vK{}", upper(self.mover), upper(self.other))
    }
}

/// A name that is not a four-man material such as `KQvKN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMaterial(pub String);

impl fmt::Display for BadMaterial {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "'{}' is not a table's material: K, one of P N B R Q, v, K and one of them (KQvKN)",
            self.0
        )
    }
}

impl std::error::Error for BadMaterial {}

impl FromStr for Material {
    type Err = BadMaterial;

    fn from_str(s: &str) -> Result<Material, BadMaterial> {
        let bad = || BadMaterial(s.chars().take(20).collect());
        let chars: Vec<char> = s.chars().map(|c| c.to_ascii_uppercase()).collect();
        let ['K', mover, 'V', 'K', other] = chars[..] else {
            return Err(bad());
        };
        let man = |c: char| PieceKind::from_letter(c).filter(|k| *k != PieceKind::King);
        match (man(mover), man(other)) {
            (Some(mover), Some(other)) => Ok(Material { mover, other }),
            _ => Err(bad()),
        }
    }
}

/// Where the four men stand, the side to move playing up the board as
/// White: index 0 of each pair is the side to move's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Men {
    /// The kings.
    pub kings: [Square; 2],
    /// The other men.
    pub men: [Square; 2],
}

impl Men {
    /// The men of `pos` and their material, if it has exactly four men, a
    /// king and one more each.
    pub fn of(pos: &Position) -> Option<(Material, Men)> {
        if pos.occupied().count() != 4 {
            return None;
        }
        let us = pos.side_to_move();
        // The side to move plays up the board in the table.
        let seen = |sq: Square| if us == Color::White { sq } else { sq.flipped() };
        let mut kinds = [PieceKind::King; 2];
        let mut men = [Square::A1; 2];
        let mut kings = [Square::A1; 2];
        for (i, color) in [us, us.flip()].into_iter().enumerate() {
            let own = pos.color_bb(color);
            let king = pos.king(color);
            let man = (own & !king.bb()).first()?;
            if own.count() != 2 {
                return None;
            }
            kinds[i] = pos.kind_at(man)?;
            kings[i] = seen(king);
            men[i] = seen(man);
        }
        let material = Material {
            mover: kinds[0],
            other: kinds[1],
        };
        Some((material, Men { kings, men }))
    }

    /// Whether no two men share a square.
    pub fn apart(self) -> bool {
        let all = [self.kings[0], self.men[0], self.kings[1], self.men[1]];
        (0..4).all(|i| (i + 1..4).all(|j| all[i] != all[j]))
    }

    /// The same men after the side to move has moved: the opponent to
    /// move, the board turned so that it plays up.
    pub fn turned(self) -> Men {
        Men {
            kings: [self.kings[1].flipped(), self.kings[0].flipped()],
            men: [self.men[1].flipped(), self.men[0].flipped()],
        }
    }

    fn map(self, s: Symmetry) -> Men {
        Men {
            kings: self.kings.map(|sq| s.apply(sq)),
            men: self.men.map(|sq| s.apply(sq)),
        }
    }

    /// The number of this layout in `material`'s table.
    pub fn index(self, material: Material) -> usize {
        material
            .symmetries()
            .iter()
            .filter_map(|&s| {
                let image = self.map(s);
                let slot = slot(material, image.kings[0])?;
                Some(
                    slot * PLACES
                        + image.men[0].index() * 4096
                        + image.kings[1].index() * 64
                        + image.men[1].index(),
                )
            })
            .min()
            // Every square has an image in the slots under some symmetry.
            .unwrap_or(usize::MAX)
    }

    /// The layout numbered `index` in `material`'s table, if the number is
    /// in range (it may still be no position: men on one square, say).
    pub fn from_index(material: Material, index: usize) -> Option<Men> {
        let slot = index / PLACES;
        let king = *slot_squares(material).get(slot)?;
        let square = |shift: u32| Square::new(((index >> shift) & 63) as u8);
        Some(Men {
            kings: [king, square(6)?],
            men: [square(12)?, square(0)?],
        })
    }
}

/// The squares the mover's king may stand on in `material`'s table, in
/// slot order.
fn slot_squares(material: Material) -> Vec<Square> {
    Square::all()
        .filter(|&sq| slot(material, sq).is_some())
        .collect()
}

/// The slot of the mover's king on `sq`, if `sq` is one of the table's.
fn slot(material: Material, sq: Square) -> Option<usize> {
    let (file, rank) = (sq.file() as usize, sq.rank() as usize);
    if file > 3 {
        return None;
    }
    if material.pawns() > 0 {
        return Some(rank * 4 + file);
    }
    // The triangle a1-d1-d4: rank <= file <= d, numbered rank by rank.
    (rank <= file).then(|| [0, 4, 7, 9][rank] + file - rank)
}

/// One of the board's eight symmetries: an optional swap of files and
/// ranks, then optional mirrors.
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    mirror_files: bool,
    mirror_ranks: bool,
    transpose: bool,
}

impl Symmetry {
    /// The identity and the left-right mirror first: the two that keep
    /// pawns' direction.
    const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            mirror_files: false,
            mirror_ranks: false,
            transpose: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                mirror_files: i & 1 != 0,
                mirror_ranks: i & 2 != 0,
                transpose: i & 4 != 0,
            };
            i += 1;
        }
        all
    };

    fn apply(self, sq: Square) -> Square {
        let (mut file, mut rank) = (sq.file(), sq.rank());
        if self.transpose {
            std::mem::swap(&mut file, &mut rank);
        }
        if self.mirror_files {
            file = 7 - file;
        }
        if self.mirror_ranks {
            rank = 7 - rank;
        }
        Square::from_coords(file, rank).unwrap_or(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_parse_print_and_list_pawnless_first() {
        let all = Material::all();
        assert_eq!(all.len(), 25);
        assert!(all[..16].iter().all(|m| m.pawns() == 0));
        for m in &all {
            assert_eq!(m.to_string().parse::<Material>(), Ok(*m));
        }
        assert_eq!(
            "kqvkn".parse::<Material>().map(|m| m.to_string()),
            Ok("KQvKN".into())
        );
        for bad in ["KKvKN", "KQvK", "KQvKNN", "", "QvKN", "KQxKN", "KQvKé"] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_layout_has_one_number_shared_by_its_images() {
        for material in ["KNvKB", "KPvKR"] {
            let material: Material = material.parse().unwrap();
            let mut rng = crate::rng::SplitMix::new(7);
            for _ in 0..20_000 {
                let sq = |rng: &mut crate::rng::SplitMix| Square::new(rng.below(64) as u8).unwrap();
                let men = Men {
                    kings: [sq(&mut rng), sq(&mut rng)],
                    men: [sq(&mut rng), sq(&mut rng)],
                };
                let index = men.index(material);
                assert!(index < material.size());
                let stored = Men::from_index(material, index).unwrap();
                assert_eq!(stored.index(material), index);
                for &s in material.symmetries() {
                    assert_eq!(men.map(s).index(material), index);
                }
            }
        }
    }
}
