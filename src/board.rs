//! A build task's board, as data: the lines placed, which of them are locked, what is left in the
//! bank, the moves a learner makes (each one a new board), and the words of the hints. The view
//! (`components::board`) draws it and sends the moves; nothing here touches the page.

use lab_course::{Build, Placed};
use lab_engine::{Block, Line, Program, Scenario, PROGRAM_DEPTH_MAX, PROGRAM_LINES_MAX};

/// The board at the start: the task's starting lines.
pub fn start(build: &Build) -> Program {
    Program {
        lines: build
            .start
            .iter()
            .map(|placed| Line {
                block: placed.block,
                depth: placed.depth,
            })
            .collect(),
    }
}

/// Which lines of `board` are the task's locked lines: the first lines that match them, in order.
pub fn locked(build: &Build, board: &Program) -> Vec<bool> {
    locked_lines(&locked_of(&build.start), board)
}

/// The locked lines of a start, in order.
pub fn locked_of(start: &[Placed]) -> Vec<Line> {
    start
        .iter()
        .filter(|placed| placed.locked)
        .map(|placed| Line {
            block: placed.block,
            depth: placed.depth,
        })
        .collect()
}

/// Which lines of `board` are the `locked` lines: the first lines that match them, in order. A
/// locked line never moves, so this finds it on every board made from the start (a line equal to
/// it, block and depth, is the same to the program).
pub fn locked_lines(locked: &[Line], board: &Program) -> Vec<bool> {
    let mut wanted = locked.iter().peekable();
    board
        .lines
        .iter()
        .map(|line| {
            let matches = wanted.peek().is_some_and(|locked| *locked == line);
            if matches {
                wanted.next();
            }
            matches
        })
        .collect()
}

/// The blocks still in the bank, in the order it shows them: the task's blocks and its unlocked
/// starting lines, less one for each line on the board that is not locked.
pub fn bank(build: &Build, board: &Program) -> Vec<Block> {
    let locked = locked(build, board);
    let mut placed: Vec<Block> = board
        .lines
        .iter()
        .zip(&locked)
        .filter(|(_, locked)| !**locked)
        .map(|(line, _)| line.block)
        .collect();
    let offered = build.blocks.iter().copied().chain(
        build
            .start
            .iter()
            .filter(|placed| !placed.locked)
            .map(|placed| placed.block),
    );
    offered
        .filter(|block| match placed.iter().position(|on| on == block) {
            Some(index) => {
                placed.swap_remove(index);
                false
            }
            None => true,
        })
        .collect()
}

/// A block's line as the code panel prints it: the comment above it, if any, and the code.
pub use lab_engine::block_words as words;

/// The board with `block` added as line `at` (0-based), at `depth`; unchanged when it is full.
pub fn add(board: &Program, block: Block, at: usize, depth: u8) -> Program {
    let mut next = board.clone();
    if next.lines.len() < PROGRAM_LINES_MAX {
        let at = at.min(next.lines.len());
        next.lines.insert(
            at,
            Line {
                block,
                depth: depth.min(PROGRAM_DEPTH_MAX),
            },
        );
    }
    next
}

/// The board without line `at`.
pub fn remove(board: &Program, at: usize) -> Program {
    let mut next = board.clone();
    if at < next.lines.len() {
        next.lines.remove(at);
    }
    next
}

/// The board with line `from` moved to be line `to`, at `depth`.
pub fn move_line(board: &Program, from: usize, to: usize, depth: u8) -> Program {
    let mut next = board.clone();
    if from >= next.lines.len() {
        return next;
    }
    let mut line = next.lines.remove(from);
    line.depth = depth.min(PROGRAM_DEPTH_MAX);
    let to = to.min(next.lines.len());
    next.lines.insert(to, line);
    next
}

/// The depth one level in (`by` = 1) or out (`by` = -1), within bounds.
pub fn indented(depth: u8, by: i8) -> u8 {
    (i16::from(depth) + i16::from(by)).clamp(0, i16::from(PROGRAM_DEPTH_MAX)) as u8
}

/// The second hint: which line is out of place, against the reference. A block no program that
/// holds needs comes first; then the first line of the reference the board does not hold in its
/// order (at its indentation).
pub fn out_of_place(board: &Program, reference: &Program, scenario: &Scenario) -> String {
    let code = |block: Block| words(block, scenario).1;
    // A block used more often than the reference uses it is a distractor.
    let mut needed: Vec<Block> = reference.lines.iter().map(|line| line.block).collect();
    for line in &board.lines {
        match needed.iter().position(|block| *block == line.block) {
            Some(index) => {
                needed.swap_remove(index);
            }
            None => {
                return format!(
                    "“{}” has no place in a program that holds: take it out.",
                    code(line.block)
                )
            }
        }
    }
    let matched = common(&board.lines, &reference.lines);
    let Some(missing) = (0..reference.lines.len()).find(|index| !matched.contains(index)) else {
        return "Every line is where a program that holds has it: check your design.".into();
    };
    let line = reference.lines[missing];
    let depth = match line.depth {
        0 => "not indented".to_string(),
        1 => "indented 1 level".to_string(),
        depth => format!("indented {depth} levels"),
    };
    let place = match missing {
        0 => "comes first".to_string(),
        _ => format!("comes after “{}”", code(reference.lines[missing - 1].block)),
    };
    match board.lines.iter().any(|on| on.block == line.block) {
        true => format!(
            "Look at “{}”: in a program that holds, it {place}, {depth}.",
            code(line.block)
        ),
        false => format!(
            "A program that holds also needs “{}” (it is in the bank): it {place}, {depth}.",
            code(line.block)
        ),
    }
}

/// The reference lines (by index) of a longest common subsequence of the two line lists.
fn common(board: &[Line], reference: &[Line]) -> Vec<usize> {
    let (rows, columns) = (board.len(), reference.len());
    let mut table = vec![vec![0u16; columns + 1]; rows + 1];
    for row in (0..rows).rev() {
        for column in (0..columns).rev() {
            table[row][column] = match board[row] == reference[column] {
                true => table[row + 1][column + 1] + 1,
                false => table[row + 1][column].max(table[row][column + 1]),
            };
        }
    }
    let (mut row, mut column, mut matched) = (0, 0, Vec::new());
    while row < rows && column < columns {
        if board[row] == reference[column] {
            matched.push(column);
            row += 1;
            column += 1;
        } else if table[row + 1][column] >= table[row][column + 1] {
            row += 1;
        } else {
            column += 1;
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_course::{Explore, Placed};
    use Block as B;

    fn build() -> Build {
        Build {
            prompt: String::new(),
            prompt_html: String::new(),
            blocks: vec![B::Submit, B::Lookup, B::Submit],
            start: vec![
                Placed {
                    block: B::JournalGet,
                    depth: 0,
                    locked: true,
                },
                Placed {
                    block: B::MarkVerified,
                    depth: 0,
                    locked: false,
                },
            ],
            reference: Program::of(&[(B::JournalGet, 0), (B::Submit, 0), (B::MarkVerified, 0)]),
            goal: Vec::new(),
            explore: Explore::default(),
            expect: Default::default(),
            wrong: Vec::new(),
            hints_html: Vec::new(),
            figures: None,
        }
    }

    fn scenario() -> Scenario {
        serde_json::from_str(
            r#"{"workflow":"reserve","operations":[{"id":"A"}],"workers":[{"name":"w","runs":[{"op":"A"}]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn the_bank_holds_what_the_board_does_not() {
        let build = build();
        let board = start(&build);
        assert_eq!(locked(&build, &board), [true, false]);
        assert_eq!(bank(&build, &board), [B::Submit, B::Lookup, B::Submit]);
        let board = add(&board, B::Submit, 1, 0);
        assert_eq!(bank(&build, &board), [B::Lookup, B::Submit]);
        // The unlocked starting line taken off the board goes back to the bank.
        let board = remove(&board, 2);
        assert_eq!(
            bank(&build, &board),
            [B::Lookup, B::Submit, B::MarkVerified]
        );
    }

    #[test]
    fn moves_keep_every_line_and_bound_the_indentation() {
        let board = Program::of(&[(B::JournalGet, 0), (B::Submit, 0), (B::MarkVerified, 0)]);
        let moved = move_line(&board, 2, 0, 3);
        assert_eq!(moved.text(), "      mark_verified\njournal_get\nsubmit\n");
        assert_eq!(indented(0, -1), 0);
        assert_eq!(indented(PROGRAM_DEPTH_MAX, 1), PROGRAM_DEPTH_MAX);
    }

    #[test]
    fn the_hint_names_a_distractor_then_the_first_line_out_of_place() {
        let build = build();
        let scenario = scenario();
        let with_lookup = Program::of(&[(B::JournalGet, 0), (B::Lookup, 0)]);
        assert!(out_of_place(&with_lookup, &build.reference, &scenario)
            .contains("has no place in a program that holds"));
        let swapped = Program::of(&[(B::JournalGet, 0), (B::MarkVerified, 0), (B::Submit, 0)]);
        let hint = out_of_place(&swapped, &build.reference, &scenario);
        // Either of the two swapped lines is out of place against the other.
        assert!(hint.starts_with("Look at “"), "{hint}");
        let missing = Program::of(&[(B::JournalGet, 0), (B::MarkVerified, 0)]);
        assert!(out_of_place(&missing, &build.reference, &scenario).contains("also needs"));
        assert!(out_of_place(&build.reference, &build.reference, &scenario).contains("Every line"));
    }
}
