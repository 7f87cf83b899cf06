//! Planning the cut: which squares are the top and which of them are the
//! cut's, where the top ends, the half steps that bring the bottom's
//! states onto the cut's squares, and a state read at the cut.

use crate::count::frontier::schedule::{CellGraph, Schedule, SquareStep};
use crate::count::frontier::state::{
    first_slots, EMPTY, FIRST_LABEL, FULL, LONE_END, MAX_WIDTH, TAIL,
};

/// Not paired: a square of the cut with no edge or two on its side.
pub(super) const UNPAIRED: u8 = u8::MAX;
/// The partner of a square whose fragment leads to a path end on its side
/// (open paths): a node past the cut's squares.
pub(super) const PATH_END: u8 = MAX_WIDTH as u8;

/// A state at the cut in the forward order of its squares: two bits a
/// square for the top degree it has (a top state) or needs (a bottom
/// state), and for each square of degree one the square its fragment
/// leads to.
#[derive(Clone, Copy)]
pub(super) struct Cut {
    pub(super) degrees: u64,
    pub(super) partner: [u8; MAX_WIDTH + 1],
    /// Free path ends used on its side (open paths only).
    pub(super) used: u8,
}

/// How the states at the cut are read: where their used path ends are
/// kept, and which of the cut's squares are fixed path ends.
#[derive(Clone, Copy)]
pub(super) struct Reading {
    /// The bit position of the used-ends counter in a packed word.
    pub(super) used_shift: u32,
    /// Bit `f` for each square of the cut (numbered `f`) that is a fixed
    /// path end: its one edge is on one side or the other.
    pub(super) fixed: u64,
}

/// The edges on its own side of a square of the cut whose slot holds
/// `code`. A fixed path end (`fixed_end`) has no edge yet or its one edge
/// (its fragment's far end, on this side, leads to it as to a path end).
pub(super) fn own_degree(code: u8, fixed_end: bool) -> u64 {
    if fixed_end {
        return u64::from(code != LONE_END);
    }
    match code {
        EMPTY => 0,
        FULL => 2,
        _ => 1,
    }
}

impl Cut {
    /// Reads the packed state `word` whose slot `j` holds the square of
    /// the cut numbered `at[j]` (`None`: a slot of the bottom); `bottom`
    /// reads the top degree a bottom state needs, two less its own (one
    /// less for a fixed path end, which takes one edge in all).
    pub(super) fn read(word: u128, at: &[Option<usize>], bottom: bool, reading: Reading) -> Cut {
        #[allow(clippy::cast_possible_truncation)]
        let mut cut = Cut {
            degrees: 0,
            partner: [UNPAIRED; MAX_WIDTH + 1],
            used: ((word >> reading.used_shift) & 3) as u8,
        };
        let mut first_with = [UNPAIRED; 16];
        for (j, f) in at.iter().enumerate() {
            let Some(f) = *f else { continue };
            #[allow(clippy::cast_possible_truncation)]
            let code = ((word >> (4 * j)) & 15) as u8;
            let fixed_end = reading.fixed >> f & 1 == 1;
            let degree = own_degree(code, fixed_end);
            let whole = if fixed_end { 1 } else { 2 };
            cut.degrees |= (if bottom { whole - degree } else { degree }) << (2 * f);
            if fixed_end {
                continue;
            }
            if code == TAIL {
                cut.partner[f] = PATH_END;
            } else if code >= FIRST_LABEL {
                let other = &mut first_with[usize::from(code)];
                // At most 23 squares: `f` fits a byte.
                #[allow(clippy::cast_possible_truncation)]
                if *other == UNPAIRED {
                    *other = f as u8;
                } else {
                    cut.partner[f] = *other;
                    cut.partner[usize::from(*other)] = f as u8;
                }
            }
        }
        cut
    }

    /// The first paired square, and how many are paired.
    pub(super) fn paired(&self) -> Option<(usize, usize)> {
        let first = self.partner.iter().position(|&p| p != UNPAIRED)?;
        Some((
            first,
            self.partner.iter().filter(|&&p| p != UNPAIRED).count(),
        ))
    }
}

/// The top degrees a bottom state needs on the cut's squares, as
/// [`Cut::read`] gives them with `bottom`, without pairing its fragments:
/// what the filter after each half step and the split into batches look
/// at, for every state. Worked out in advance for one frontier, as the two
/// bits each slot's code puts at its square, since it runs billions of
/// times on the largest boards.
pub(super) struct Needs(Vec<(u32, [u64; 16])>);

impl Needs {
    /// For states whose slot `j` holds the square of the cut numbered
    /// `at[j]` (`None`: a slot of the bottom, which needs nothing and is
    /// not read).
    pub(super) fn new(at: &[Option<usize>], reading: Reading) -> Needs {
        let slot = |f: usize| {
            let mut bits = [0u64; 16];
            for (code, bits) in (0u8..).zip(&mut bits) {
                let need = if reading.fixed >> f & 1 == 1 {
                    u64::from(code == LONE_END)
                } else {
                    match code {
                        EMPTY => 2,
                        FULL => 0,
                        _ => 1,
                    }
                };
                *bits = need << (2 * f);
            }
            bits
        };
        Needs(
            (0u32..)
                .zip(at)
                .filter_map(|(j, &f)| Some((4 * j, slot(f?))))
                .collect(),
        )
    }

    /// The degrees the state `word` needs.
    #[inline]
    pub(super) fn of(&self, word: u128) -> u64 {
        let mut degrees = 0;
        for &(shift, ref bits) in &self.0 {
            #[allow(clippy::cast_possible_truncation)]
            let code = ((word >> shift) & 15) as usize;
            degrees |= bits[code];
        }
        degrees
    }
}

/// Where a square stands relative to the cut.
pub(super) struct Sides {
    /// Whether each cell is in the top.
    pub(super) top: Vec<bool>,
    /// The cut's squares in forward order.
    pub(super) cut: Vec<usize>,
}

impl Sides {
    /// The sides of `graph` whose top is `top_order` (the squares before
    /// the cut, in forward order).
    pub(super) fn of(graph: &CellGraph, top_order: &[usize]) -> Sides {
        let mut top = vec![false; graph.hole.len()];
        for &sq in top_order {
            top[sq] = true;
        }
        Sides {
            cut: top_order
                .iter()
                .copied()
                .filter(|&sq| graph.neighbours(sq).any(|m| !top[m]))
                .collect(),
            top,
        }
    }

    /// The number of `sq` among the cut's squares, if it is one.
    pub(super) fn at(&self, sq: usize) -> Option<usize> {
        self.cut.iter().position(|&f| f == sq)
    }
}

/// Where the top ends: after half the squares for cycles (`closed`, or
/// paths with both ends fixed where the caller's rule says they grow as
/// cycles do); for other paths, after half the lines and one more (rounded down),
/// since the half steps of paths, whose squares of the cut may be path
/// ends, make more states than a cycle's: the later cut was the faster on
/// 6x6 and 7x7 open (docs/notebook.md, "Meeting in the middle").
pub(super) fn cut_at(squares: usize, lines: usize, closed: bool) -> usize {
    let cut = if closed {
        squares / 2
    } else {
        squares * (lines / 2 + 1) / lines.max(1)
    };
    cut.clamp(1, squares - 1)
}

/// Which square a half step adds among those that leave equally few
/// squares on the frontier (on a board taken line by line, nearly all of
/// them: the frontier keeps its width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HalfStepTies {
    /// The first in the top's order: the rule the parts of a count split
    /// by its states were made by, which decides their squares
    /// ([`super::part::PartCut`]).
    TopOrder,
    /// The one with the most edges into the bottom, then the first in the
    /// top's order: on a board taken line by line, the inner squares of
    /// the line next to the bottom before the line behind it, whose squares
    /// reach fewer of the bottom's. A bottom square then meets its squares
    /// of the cut sooner and leaves the frontier with its edges settled:
    /// 7x8 closed from a1 peaked at 3.8 M live states, not 7.7 M, and 8x7
    /// open took 100 s, not 143 s (docs/notebook.md, "The order of the
    /// half steps").
    MostBottomEdges,
}

impl HalfStepTies {
    /// The rule for a count split by its states (`by_states`: a part of
    /// `count --part`, or a class of end pairs shared by parts) or not. A
    /// split count keeps the order its parts were made by, since the first
    /// squares the half steps add decide a state's part: parts counted
    /// before and after this rule still add up.
    pub(super) fn for_count(by_states: bool) -> Self {
        if by_states {
            HalfStepTies::TopOrder
        } else {
            HalfStepTies::MostBottomEdges
        }
    }
}

/// The plan of the half steps, each adding one square of the cut with its
/// edges to the bottom only (one at most for a square of `fixed_ends`), and the frontier (cells in slot order) after
/// each. Each step adds the square that leaves the fewest squares on the
/// frontier, `ties` deciding between equals; the last frontier is the
/// cut's squares alone.
pub(super) fn half_steps(
    graph: &CellGraph,
    bottom_order: &[usize],
    sides: &Sides,
    fixed_ends: &[usize],
    ties: HalfStepTies,
) -> (Schedule, Vec<Vec<usize>>) {
    let top = |sq: usize| sides.top[sq];
    let mut front: Vec<usize> = bottom_order
        .iter()
        .copied()
        .filter(|&sq| graph.neighbours(sq).any(top))
        .collect();
    let mut added = vec![false; graph.hole.len()];
    // Edges a bottom square may still get: from cut squares not added yet.
    let to_come = |sq: usize, added: &[bool]| {
        graph
            .neighbours(sq)
            .filter(|&m| top(m) && !added[m])
            .count()
    };
    let mut left = sides.cut.clone();
    let (mut steps, mut fronts) = (Vec::new(), Vec::new());
    let mut width = front.len();
    while !left.is_empty() {
        let stays = |sq: usize, added: &[bool]| top(sq) || to_come(sq, added) > 0;
        let pick = (0..left.len())
            .min_by_key(|&i| {
                added[left[i]] = true;
                let after = front.iter().filter(|&&sq| stays(sq, &added)).count();
                added[left[i]] = false;
                let edges = match ties {
                    HalfStepTies::TopOrder => 0,
                    HalfStepTies::MostBottomEdges => {
                        graph.neighbours(left[i]).filter(|&m| !top(m)).count()
                    }
                };
                (after, std::cmp::Reverse(edges), i)
            })
            .unwrap_or(0);
        let new = left.remove(pick);
        added[new] = true;
        let back = slots(&front, |sq| !top(sq) && graph.is_move(sq, new));
        front.push(new);
        let departs = slots(&front, |sq| !stays(sq, &added));
        let keep = slots(&front, |sq| stays(sq, &added));
        front.retain(|&sq| stays(sq, &added));
        width = width.max(front.len());
        let kept_slots = first_slots::<u128>(keep.len());
        // A bottom square left with fewer than two edges to come cannot
        // stay empty.
        let short = slots(&front, |sq| !top(sq) && to_come(sq, &added) < 2);
        // (A slot past the 32 a word holds is of a front too wide to
        // count, refused once the steps are made: it sets no bit.)
        let short_slots = short.iter().fold(0u128, |bits, &j| {
            bits | 1u128.checked_shl(4 * u32::from(j)).unwrap_or(0)
        });
        steps.push(SquareStep {
            back,
            departs,
            keep,
            bipartite: false,
            // The cut's squares need their other edges from the top, which
            // the join matches: no bound on demand here.
            capacity: [1 << 20, 0],
            inner_edges: 1 << 20,
            kept_slots,
            class_slots: [kept_slots, 0],
            short_slots,
            fixed_end: fixed_ends.contains(&new),
            watch: Vec::new(),
            // A cycle may close at the last half step: a tour with no
            // edge among the top's squares.
            last: left.is_empty(),
            mirror: None,
        });
        fronts.push(front.clone());
    }
    (Schedule { steps, width }, fronts)
}

/// The slots of `front` whose cells satisfy `select`.
fn slots(front: &[usize], select: impl Fn(usize) -> bool) -> Vec<u8> {
    front
        .iter()
        .enumerate()
        .filter(|&(_, &sq)| select(sq))
        // A frontier is at most `MAX_WIDTH` + 1 slots.
        .map(|(j, _)| u8::try_from(j).unwrap_or(u8::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::schedule::Lines;

    /// The squares of the cut in the order the half steps add them, on a
    /// `rows` x `cols` knight's board cut after `lines` of its lines.
    fn added(rows: usize, cols: usize, lines: usize, ties: HalfStepTies) -> (Vec<usize>, Lines) {
        let graph = CellGraph::of(rows, cols, &[], (1, 2));
        let (order, _) = Lines::best(&graph, false);
        let cut = order.shape.1 * lines;
        let sides = Sides::of(&graph, &order.squares[..cut]);
        let bottom: Vec<usize> = order.squares[cut..].iter().rev().copied().collect();
        let (_, fronts) = half_steps(&graph, &bottom, &sides, &[], ties);
        let mut added: Vec<usize> = Vec::new();
        for front in &fronts {
            for &sq in front {
                if sides.top[sq] && !added.contains(&sq) {
                    added.push(sq);
                }
            }
        }
        assert_eq!(added.len(), sides.cut.len());
        (added, order)
    }

    /// On boards taken in lines of seven or eight, where the width ties at
    /// every half step, the half steps first add the squares of the cut
    /// with three or four edges into the bottom (the inner squares of the
    /// line next to it); the top's order (which a count split by its states
    /// keeps) adds a square of the line behind among them.
    #[test]
    fn half_steps_take_the_squares_with_most_edges_into_the_bottom_first() {
        for (rows, cols) in [(8, 7), (8, 8), (6, 7), (10, 7)] {
            let graph = CellGraph::of(rows, cols, &[], (1, 2));
            let (new, order) = added(rows, cols, rows / 2, HalfStepTies::MostBottomEdges);
            let cut = order.shape.1 * (rows / 2);
            let bottom = &order.squares[cut..];
            let many: Vec<usize> = new
                .iter()
                .copied()
                .filter(|&sq| graph.neighbours(sq).filter(|m| bottom.contains(m)).count() >= 3)
                .collect();
            let mut leading = new[..many.len()].to_vec();
            leading.sort_unstable();
            let mut expected = many.clone();
            expected.sort_unstable();
            assert_eq!(leading, expected, "{rows}x{cols}: {new:?}");
            let (old, _) = added(rows, cols, rows / 2, HalfStepTies::TopOrder);
            assert!(
                old[..many.len()].iter().any(|sq| !many.contains(sq)),
                "{rows}x{cols}: {old:?}"
            );
        }
    }

    /// `Needs` is `read`'s degrees for a bottom state, on every slot code,
    /// with and without fixed ends and slots of the bottom between.
    #[test]
    fn needs_are_the_degrees_read_gives() {
        let at: Vec<Option<usize>> = (0..=MAX_WIDTH)
            .map(|j| (j % 5 != 3).then_some(j * 7 % (MAX_WIDTH + 1)))
            .collect();
        let mut word: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        for round in 0..2000u64 {
            word = word
                .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
                .wrapping_add(1);
            for fixed in [0, 1 << (round % 23), 0b101 << (round % 20)] {
                let reading = Reading {
                    used_shift: 120,
                    fixed,
                };
                assert_eq!(
                    Needs::new(&at, reading).of(word),
                    Cut::read(word, &at, true, reading).degrees,
                    "word {word:#x}, fixed {fixed:#b}"
                );
            }
        }
    }
}
