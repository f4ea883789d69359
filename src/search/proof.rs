//! Proof-number search: a best-first search for a forced win, which goes
//! as deep as the defender's choices are few, however many the attacker's.
//!
//! Forced-capture games suit it: the defender often has one or two
//! captures to choose from, so a win thirty plies away can be proven in
//! a few hundred thousand nodes where alpha-beta, which must look at every
//! attacker move to a fixed depth, sees nothing. The driver uses it at the
//! root to prove which of the side to move's moves lose by force, and
//! leaves them out of the alpha-beta search (`driver.rs`).
//!
//! Only proofs are trusted. A line is given up (counted as a defence that
//! holds) when it repeats a position or runs past [`MAX_LINE`] plies, so a
//! disproof can be wrong; a proof never relies on one. The tree lives in an
//! arena sized once; when it is full the search stops with what it has.

use super::game::{Game, MoveList, Outcome};

/// "Infinite" proof or disproof number: the node is settled the other way.
const INF: u32 = u32::MAX / 4;

/// Plies below the root after which a line counts as defended.
pub const MAX_LINE: usize = 120;

/// Expansions between two looks at the budget.
const POLL_INTERVAL: u32 = 64;

/// What a proof search established about a node, for the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins by force.
    Proven,
    /// The attacker does not (or not within the line limit, or not without
    /// repeating a position).
    Disproven,
    /// The budget ran out first.
    Unknown,
}

/// One node of the tree: the move that led to it, its numbers, and where
/// its children are in the arena (none until it is expanded).
#[derive(Clone, Copy, Debug)]
struct PnNode<M> {
    mv: M,
    proof: u32,
    disproof: u32,
    first_child: u32,
    children: u16,
    expanded: bool,
}

impl<M: Copy> PnNode<M> {
    fn leaf(mv: M, proof: u32, disproof: u32) -> Self {
        PnNode {
            mv,
            proof,
            disproof,
            first_child: 0,
            children: 0,
            expanded: false,
        }
    }

    fn verdict(&self) -> Verdict {
        if self.proof == 0 {
            Verdict::Proven
        } else if self.disproof == 0 {
            Verdict::Disproven
        } else {
            Verdict::Unknown
        }
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.children as usize
    }
}

/// A proof-number searcher with an arena of fixed size.
pub struct ProofSearch<M> {
    nodes: Vec<PnNode<M>>,
    capacity: usize,
    /// Keys of the game before the root and of the current line.
    keys: Vec<u64>,
    /// Arena indices of the current line, root first.
    path: Vec<usize>,
    /// Whether the attacker is to move at the root.
    attacker_first: bool,
}

impl<M: Copy + Default> ProofSearch<M> {
    /// A searcher whose tree holds at most `capacity` nodes (16 bytes
    /// each for chess moves), allocated now.
    pub fn new(capacity: usize) -> Self {
        ProofSearch {
            nodes: Vec::with_capacity(capacity.max(1)),
            capacity: capacity.max(1),
            keys: Vec::with_capacity(1024 + MAX_LINE),
            path: Vec::with_capacity(MAX_LINE + 1),
            attacker_first: false,
        }
    }

    /// Searches for a forced win of the side *not* to move at `root` (the
    /// attacker replies to every move of the defender, who is to move), so
    /// that [`ProofSearch::root_moves`] says which of the defender's moves
    /// lose. `history` holds the keys before `root`, oldest first; a
    /// repetition of any counts as a draw. `budget` is asked every few
    /// expansions whether the search may go on, given the nodes so far.
    pub fn refute<G: Game<Move = M>>(
        &mut self,
        root: &G,
        history: &[u64],
        budget: impl FnMut(u64) -> bool,
    ) -> Verdict {
        self.attacker_first = false;
        self.run(root, history, budget)
    }

    /// Searches for a forced win of the side to move at `root`; otherwise
    /// as [`ProofSearch::refute`].
    pub fn prove<G: Game<Move = M>>(
        &mut self,
        root: &G,
        history: &[u64],
        budget: impl FnMut(u64) -> bool,
    ) -> Verdict {
        self.attacker_first = true;
        self.run(root, history, budget)
    }

    fn run<G: Game<Move = M>>(
        &mut self,
        root: &G,
        history: &[u64],
        mut budget: impl FnMut(u64) -> bool,
    ) -> Verdict {
        self.nodes.clear();
        self.keys.clear();
        self.keys.extend_from_slice(history);
        if self.keys.last() == Some(&root.key()) {
            self.keys.pop();
        }
        let history_len = self.keys.len();
        let (proof, disproof) = numbers(root, self.attacker_first);
        self.nodes.push(PnNode::leaf(M::default(), proof, disproof));
        let mut polls = 0u32;
        while self.nodes[0].verdict() == Verdict::Unknown {
            polls += 1;
            if polls.is_multiple_of(POLL_INTERVAL) && !budget(self.nodes.len() as u64) {
                break;
            }
            self.keys.truncate(history_len);
            let leaf = self.select(root);
            if !self.expand(&leaf) {
                break;
            }
            self.back_up();
        }
        self.nodes[0].verdict()
    }

    /// The defender's moves at the root and what was established about
    /// each (proven: the move loses by force), after
    /// [`ProofSearch::refute`].
    pub fn root_moves(&self) -> impl Iterator<Item = (M, Verdict)> + '_ {
        let range = self.nodes.first().map_or(0..0, PnNode::child_range);
        self.nodes[range].iter().map(|n| (n.mv, n.verdict()))
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Walks from the root to the most proving leaf, filling `path` and
    /// the key stack; returns the leaf's position.
    fn select<G: Game<Move = M>>(&mut self, root: &G) -> G {
        self.path.clear();
        self.path.push(0);
        self.keys.push(root.key());
        let mut pos = root.clone();
        let mut index = 0;
        while self.nodes[index].expanded {
            // At the defender's nodes the attacker must answer every move
            // (proof numbers add up), at the attacker's one answer is
            // enough.
            let attacker_to_move = self.attacker_at(self.path.len() - 1);
            let range = self.nodes[index].child_range();
            let children = &self.nodes[range.clone()];
            let pick = if attacker_to_move {
                min_index(children.iter().map(|n| n.proof))
            } else {
                min_index(children.iter().map(|n| n.disproof))
            };
            index = range.start + pick;
            pos = pos.play(self.nodes[index].mv);
            self.path.push(index);
            self.keys.push(pos.key());
        }
        pos
    }

    /// Gives the leaf at the end of `path` its children, each settled if
    /// the game (or a table) ends there, else numbered by its moves; false
    /// when the arena has no room.
    fn expand<G: Game<Move = M>>(&mut self, pos: &G) -> bool {
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        if self.nodes.len() + moves.len() > self.capacity {
            return false;
        }
        let Some(&leaf) = self.path.last() else {
            return false;
        };
        let depth = self.path.len();
        let child_attacker = self.attacker_at(depth);
        let first = self.nodes.len();
        for &mv in &moves {
            let child = pos.play(mv);
            let (proof, disproof) = if depth >= MAX_LINE || self.repeats(&child) {
                (INF, 0)
            } else {
                numbers(&child, child_attacker)
            };
            self.nodes.push(PnNode::leaf(mv, proof, disproof));
        }
        let node = &mut self.nodes[leaf];
        node.first_child = first as u32;
        node.children = moves.len() as u16;
        node.expanded = true;
        true
    }

    /// Whether the attacker is to move `depth` plies below the root.
    fn attacker_at(&self, depth: usize) -> bool {
        (depth % 2 == 1) != self.attacker_first
    }

    /// Whether `pos` repeats a position of the game or the line with the
    /// same side to move since the last irreversible move.
    fn repeats<G: Game>(&self, pos: &G) -> bool {
        let key = pos.key();
        let reach = (pos.reversible_plies() as usize).min(self.keys.len());
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[self.keys.len() - back] == key)
    }

    /// Recomputes the numbers of the line's nodes from their children,
    /// leaf first, stopping where nothing changes.
    fn back_up(&mut self) {
        for depth in (0..self.path.len()).rev() {
            let index = self.path[depth];
            let range = self.nodes[index].child_range();
            let children = &self.nodes[range];
            let proofs = children.iter().map(|n| n.proof);
            let disproofs = children.iter().map(|n| n.disproof);
            let attacker_to_move = self.attacker_at(depth);
            let (proof, disproof) = if attacker_to_move {
                (proofs.min().unwrap_or(INF), sum(disproofs))
            } else {
                (sum(proofs), disproofs.min().unwrap_or(INF))
            };
            let node = &mut self.nodes[index];
            if (node.proof, node.disproof) == (proof, disproof) && depth + 1 < self.path.len() {
                break;
            }
            node.proof = proof;
            node.disproof = disproof;
        }
    }
}

/// The initial numbers of a new node: settled if the game or a table
/// ends there, else by its legal moves (a side with few is easy to settle
/// the way that depends on its choices all failing).
fn numbers<G: Game>(pos: &G, attacker_to_move: bool) -> (u32, u32) {
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let outcome = pos
        .outcome(&moves)
        .or_else(|| pos.table_result().map(|(outcome, _)| outcome));
    match outcome {
        Some(outcome) => {
            let attacker_wins = match outcome {
                Outcome::Win => attacker_to_move,
                Outcome::Loss => !attacker_to_move,
                Outcome::Draw => false,
            };
            if attacker_wins { (0, INF) } else { (INF, 0) }
        }
        None if attacker_to_move => (1, moves.len() as u32),
        None => (moves.len() as u32, 1),
    }
}

/// Sum of proof or disproof numbers, saturating at [`INF`].
fn sum(values: impl Iterator<Item = u32>) -> u32 {
    values.fold(0u32, |acc, v| acc.saturating_add(v)).min(INF)
}

/// Index of the first smallest value (0 for none).
fn min_index(values: impl Iterator<Item = u32>) -> usize {
    let mut best = (0, u32::MAX);
    for (i, v) in values.enumerate() {
        if v < best.1 {
            best = (i, v);
        }
    }
    best.0
}
