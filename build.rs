//! Generates the chess attack tables and Zobrist keys at build time, so
//! the engine has no runtime initialisation and no table is committed to
//! the repository. The geometry comes from `src/chess/slow.rs`, the same
//! ray-walking reference the tests check the tables against.

#[path = "src/chess/slow.rs"]
#[allow(dead_code)]
mod slow;

#[path = "src/rng.rs"]
#[allow(dead_code)]
mod rng;

use rng::SplitMix;
use slow::{BISHOP_DIRS, KING_STEPS, KNIGHT_JUMPS, ROOK_DIRS};
use std::fmt::Write as _;

/// Every subset of `mask`, by the carry-rippler trick.
fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// Finds a magic for one square and appends its attack table to `table`.
/// Returns (mask, magic, shift, offset).
fn find_magic(
    sq: u8,
    dirs: &[(i8, i8)],
    rng: &mut SplitMix,
    table: &mut Vec<u64>,
) -> (u64, u64, u32, usize) {
    let mask = slow::relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occs = subsets(mask);
    let attacks: Vec<u64> = occs
        .iter()
        .map(|&o| slow::slider_attacks(sq, o, dirs))
        .collect();
    let mut slots = vec![u64::MAX; 1 << bits];
    loop {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        slots.iter_mut().for_each(|s| *s = u64::MAX);
        let ok = occs.iter().zip(&attacks).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if slots[idx] == u64::MAX || slots[idx] == att {
                slots[idx] = att;
                true
            } else {
                false
            }
        });
        if ok {
            let offset = table.len();
            // Unreached slots are never looked up; store 0 there.
            table.extend(slots.iter().map(|&s| if s == u64::MAX { 0 } else { s }));
            return (mask, magic, shift, offset);
        }
    }
}

fn write_array(out: &mut String, name: &str, ty: &str, values: impl Iterator<Item = String>) {
    let values: Vec<String> = values.collect();
    writeln!(
        out,
        "pub(crate) static {name}: [{ty}; {}] = [",
        values.len()
    )
    .unwrap();
    for chunk in values.chunks(8) {
        writeln!(out, "    {},", chunk.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn hex(v: u64) -> String {
    format!("0x{v:016x}")
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/chess/slow.rs");
    println!("cargo:rerun-if-changed=src/rng.rs");
    let mut out = String::new();
    let mut rng = SplitMix(0x5EED_A11C_4E55);
    let mut table = Vec::new();
    for (name, dirs) in [("ROOK_MAGICS", &ROOK_DIRS), ("BISHOP_MAGICS", &BISHOP_DIRS)] {
        let magics: Vec<String> = (0..64)
            .map(|sq| {
                let (mask, magic, shift, offset) = find_magic(sq, dirs, &mut rng, &mut table);
                format!(
                    "Magic {{ mask: {}, magic: {}, shift: {shift}, offset: {offset} }}",
                    hex(mask),
                    hex(magic)
                )
            })
            .collect();
        write_array(&mut out, name, "Magic", magics.into_iter());
    }
    write_array(
        &mut out,
        "SLIDER_ATTACKS",
        "u64",
        table.iter().map(|&v| hex(v)),
    );
    write_array(
        &mut out,
        "KNIGHT_ATTACKS",
        "u64",
        (0..64).map(|s| hex(slow::leaper_attacks(s, &KNIGHT_JUMPS))),
    );
    write_array(
        &mut out,
        "KING_ATTACKS",
        "u64",
        (0..64).map(|s| hex(slow::leaper_attacks(s, &KING_STEPS))),
    );
    let pawn = |white| {
        (0..64)
            .map(move |s| hex(slow::pawn_attacks(s, white)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(
        out,
        "pub(crate) static PAWN_ATTACKS: [[u64; 64]; 2] = [[{}], [{}]];",
        pawn(true),
        pawn(false)
    )
    .unwrap();
    for (name, f) in [
        ("BETWEEN", slow::between as fn(u8, u8) -> u64),
        ("LINE", slow::line),
    ] {
        let rows: Vec<String> = (0..64)
            .map(|a| {
                format!(
                    "[{}]",
                    (0..64).map(|b| hex(f(a, b))).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        write_array(&mut out, name, "[u64; 64]", rows.into_iter());
    }
    // Zobrist keys: 12 pieces x 64 squares, 16 castling-right sets, 8 en
    // passant files, side to move.
    write_array(
        &mut out,
        "ZOBRIST_PIECES",
        "u64",
        (0..12 * 64).map(|_| hex(rng.next_u64())),
    );
    write_array(
        &mut out,
        "ZOBRIST_CASTLING",
        "u64",
        (0..16).map(|_| hex(rng.next_u64())),
    );
    write_array(
        &mut out,
        "ZOBRIST_EP",
        "u64",
        (0..8).map(|_| hex(rng.next_u64())),
    );
    writeln!(
        out,
        "pub(crate) const ZOBRIST_SIDE: u64 = {};",
        hex(rng.next_u64())
    )
    .unwrap();
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("chess_tables.rs");
    std::fs::write(path, out).unwrap();
}
