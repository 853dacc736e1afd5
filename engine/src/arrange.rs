//! The arrangements of a Parsons puzzle: every program that places a set of blocks, in any order
//! and at any indentation, among lines given in place, and passes the structure check. A build
//! task's checker counts them and explores each, to tell how many hold: a task that most orders
//! solve teaches nothing.

use crate::block::{Block, Name, Shape};
use crate::program::{set_above, Line, Program, TRANSACTIONAL};

/// What an enumeration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangements {
    /// The programs, in the order the search met them (at most the limit asked for).
    pub programs: Vec<Program>,
    /// Every arrangement is listed: the limit was not reached.
    pub complete: bool,
}

/// Every program that holds `locked` (in their order, each at its own indentation) and each of
/// `movable` once (in any order, at any indentation a header allows), and passes the structure
/// check against `offered`; at most `limit` of them.
pub fn arrangements(
    locked: &[Line],
    movable: &[Block],
    offered: &[Block],
    limit: usize,
) -> Arrangements {
    let mut kinds: Vec<(Block, u32)> = Vec::new();
    for &block in movable {
        match kinds.iter_mut().find(|(known, _)| *known == block) {
            Some((_, count)) => *count += 1,
            None => kinds.push((block, 1)),
        }
    }
    let blocks = locked
        .iter()
        .map(|line| line.block)
        .chain(movable.iter().copied());
    let mut search = Search {
        locked,
        set_above: set_above(blocks),
        kinds,
        offered,
        limit,
        lines: Vec::new(),
        found: Vec::new(),
        complete: true,
    };
    search.extend(0);
    Arrangements {
        programs: search.found,
        complete: search.complete,
    }
}

struct Search<'a> {
    locked: &'a [Line],
    /// The names set above the program (the key, unless a line of it sets one).
    set_above: &'static [Name],
    /// The movable blocks left, each with how many copies remain.
    kinds: Vec<(Block, u32)>,
    offered: &'a [Block],
    limit: usize,
    lines: Vec<Line>,
    found: Vec<Program>,
    complete: bool,
}

impl Search<'_> {
    /// Places the next line every way it can go: the next locked line, or one of each movable
    /// block left at each indentation allowed.
    fn extend(&mut self, next_locked: usize) {
        if self.found.len() >= self.limit {
            self.complete = false;
            return;
        }
        let left: u32 = self.kinds.iter().map(|(_, count)| count).sum();
        if next_locked == self.locked.len() && left == 0 {
            let program = Program {
                lines: self.lines.clone(),
            };
            if program.structure(self.offered).is_ok() {
                self.found.push(program);
            }
            return;
        }
        if let Some(&line) = self.locked.get(next_locked) {
            if self.fits(line) {
                self.lines.push(line);
                self.extend(next_locked + 1);
                self.lines.pop();
            }
        }
        for kind in 0..self.kinds.len() {
            let (block, count) = self.kinds[kind];
            if count == 0 {
                continue;
            }
            for depth in self.depths() {
                let line = Line { block, depth };
                if !self.fits(line) {
                    continue;
                }
                self.kinds[kind].1 -= 1;
                self.lines.push(line);
                self.extend(next_locked);
                self.lines.pop();
                self.kinds[kind].1 += 1;
            }
        }
    }

    /// The indentations the next line may take: one deeper after a header, else any up to the
    /// line before's.
    fn depths(&self) -> std::ops::RangeInclusive<u8> {
        match self.lines.last() {
            None => 0..=0,
            Some(before) if before.block.spec().shape.opens_body() => {
                before.depth + 1..=before.depth + 1
            }
            Some(before) => 0..=before.depth,
        }
    }

    /// Whether `line` can follow the lines so far in a program that passes the structure check:
    /// its indentation, its names, and its place after an `if`, a `try` or in a loop or a
    /// transaction.
    fn fits(&self, line: Line) -> bool {
        if !self.depths().contains(&line.depth) {
            return false;
        }
        let spec = line.block.spec();
        let set = |name| {
            self.set_above.contains(&name)
                || self
                    .lines
                    .iter()
                    .any(|before| before.block.spec().sets.contains(&name))
        };
        if !spec.uses.iter().all(|&name| set(name)) {
            return false;
        }
        // The line before it at its own indentation, and the headers whose bodies it closes.
        let sibling = self
            .lines
            .iter()
            .rev()
            .find(|before| before.depth <= line.depth)
            .filter(|before| before.depth == line.depth)
            .map(|before| before.block.spec().shape);
        match spec.shape {
            Shape::Else if !matches!(sibling, Some(Shape::If | Shape::Loop)) => return false,
            Shape::Handler if !matches!(sibling, Some(Shape::Try | Shape::Handler)) => {
                return false
            }
            _ => {}
        }
        // A `try` whose body this line closes needs this line to be its first handler: the most
        // recent line at each indentation, from the line before down to this line's.
        let mut level = u8::MAX;
        for before in self.lines.iter().rev() {
            if before.depth >= level {
                continue;
            }
            level = before.depth;
            if before.depth < line.depth {
                break;
            }
            if before.block.spec().shape == Shape::Try
                && (before.depth > line.depth || spec.shape != Shape::Handler)
            {
                return false;
            }
        }
        let mut open = self.open_headers(line.depth);
        if line.block == Block::Sleep && !open.any(|header| header.spec().shape == Shape::Loop) {
            return false;
        }
        let innermost = self.open_headers(line.depth).next();
        if innermost == Some(Block::Transaction) && !TRANSACTIONAL.contains(&line.block) {
            return false;
        }
        true
    }

    /// The headers whose bodies a line at `depth` would be in, innermost first.
    fn open_headers(&self, depth: u8) -> impl Iterator<Item = Block> + '_ {
        let mut below = depth;
        self.lines.iter().rev().filter_map(move |before| {
            if before.depth < below && before.block.spec().shape.opens_body() {
                below = before.depth;
                Some(before.block)
            } else {
                None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Block as B;

    fn line(block: Block, depth: u8) -> Line {
        Line { block, depth }
    }

    #[test]
    fn every_order_of_plain_statements_is_an_arrangement() {
        let found = arrangements(
            &[],
            &[B::JournalGet, B::JournalInsert, B::Submit],
            &Block::ALL,
            100,
        );
        assert!(found.complete);
        // `submit` sets the receipt, nothing reads one: all six orders pass.
        assert_eq!(found.programs.len(), 6);
    }

    #[test]
    fn a_header_takes_a_body_and_names_are_set_first() {
        // `if_found` reads `found`: the lookup comes first, and something goes under the `if`.
        let found = arrangements(&[], &[B::Lookup, B::IfFound, B::Submit], &Block::ALL, 100);
        let texts: Vec<String> = found.programs.iter().map(Program::text).collect();
        assert_eq!(
            texts,
            ["lookup\nif_found\n  submit\n"],
            "the only order: lookup, then the if with the submit under it"
        );
    }

    #[test]
    fn locked_lines_keep_their_order_and_place() {
        let locked = [line(B::JournalGet, 0), line(B::ReturnVerified, 0)];
        let found = arrangements(&locked, &[B::Submit, B::MarkVerified], &Block::ALL, 100);
        for program in &found.programs {
            let first = program.lines.first().unwrap().block;
            assert!(
                first == B::JournalGet || first == B::Submit,
                "{}",
                program.text()
            );
        }
        // Four lines, the locked ones in their order, and `mark_verified` after the `submit`
        // whose receipt it reads: the 6 ways to interleave two pairs.
        assert!(found
            .programs
            .iter()
            .all(|program| program.structure(&Block::ALL).is_ok()));
        assert_eq!(found.programs.len(), 6);
    }

    #[test]
    fn a_key_line_comes_before_the_lines_that_read_the_key() {
        // With a key line among the blocks, the submit that reads the key comes after it.
        let found = arrangements(&[], &[B::Submit, B::KeyUuid4], &Block::ALL, 100);
        let texts: Vec<String> = found.programs.iter().map(Program::text).collect();
        assert_eq!(texts, ["key_uuid4\nsubmit\n"]);
        // Without one, the key is set above the program: the submit may come first.
        let found = arrangements(&[], &[B::Submit, B::JournalGet], &Block::ALL, 100);
        assert_eq!(found.programs.len(), 2);
    }

    #[test]
    fn the_limit_is_said() {
        let found = arrangements(
            &[],
            &[B::JournalGet, B::JournalInsert, B::Submit, B::SaveProgress],
            &Block::ALL,
            5,
        );
        assert_eq!(found.programs.len(), 5);
        assert!(!found.complete);
    }

    #[test]
    fn every_arrangement_passes_the_structure_check_and_none_is_missed() {
        // A brute force over every sequence and indentation of the same blocks.
        let sets: [&[Block]; 4] = [
            &[
                B::Try,
                B::Submit,
                B::ExceptBusy,
                B::ReturnGaveUp,
                B::ReturnVerified,
            ],
            &[
                B::JournalGet,
                B::IfNoRow,
                B::JournalInsert,
                B::Else,
                B::ReturnVerified,
            ],
            &[
                B::RetryLoop,
                B::Try,
                B::Submit,
                B::ExceptBusy,
                B::Sleep,
                B::ReturnGaveUp,
            ],
            &[
                B::Transaction,
                B::SaveUpsert,
                B::TrackingInsert,
                B::SendEmail,
                B::ReturnIngested,
            ],
        ];
        for blocks in sets {
            same_as_brute_force(blocks);
        }
    }

    fn same_as_brute_force(blocks: &[Block]) {
        let found = arrangements(&[], blocks, &Block::ALL, 100_000);
        let mut brute = 0;
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        permutations(&mut order, 0, &mut |order| {
            for depths in 0..4u32.pow(blocks.len() as u32) {
                let mut code = depths;
                let lines: Vec<(Block, u8)> = order
                    .iter()
                    .map(|&index| {
                        let depth = (code % 4) as u8;
                        code /= 4;
                        (blocks[index], depth)
                    })
                    .collect();
                let program = Program::of(&lines);
                if program.structure(&Block::ALL).is_ok() {
                    brute += 1;
                }
            }
        });
        assert_eq!(found.programs.len(), brute, "{blocks:?}");
        assert!(brute > 0, "{blocks:?}");
    }

    fn permutations(items: &mut Vec<usize>, from: usize, visit: &mut impl FnMut(&[usize])) {
        if from == items.len() {
            visit(items);
            return;
        }
        for index in from..items.len() {
            items.swap(from, index);
            permutations(items, from + 1, visit);
            items.swap(from, index);
        }
    }
}
