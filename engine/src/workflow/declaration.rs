//! What a workflow declares, and the two things built from a program for it: the program itself,
//! line by line (`Builder`), and the code panel's listing (`Listing`).

use crate::block::{Block, Shape};
use crate::code;
use crate::lane::LaneKind;
use crate::program::{Line, Program};
use crate::scenario::Scenario;
use crate::switch::Switch;

/// What a workflow is, in one place.
pub struct Declaration {
    /// The name used in scenario files and messages.
    pub name: &'static str,
    /// The lanes besides the workers, left to right: id, label, kind.
    pub lanes: &'static [(&'static str, &'static str, LaneKind)],
    /// Every block a program of this workflow may use, in the order a learner meets them.
    pub blocks: &'static [Block],
    /// The stages a journal row records, in the order a run reaches them; none for a workflow
    /// whose runs have no stages.
    pub stages: &'static [&'static str],
    /// By stage, the blocks that do it: a stage's output is kept when one succeeds, and the
    /// stage recorded as failed when one fails.
    pub stage_blocks: &'static [&'static [Block]],
    /// The design switches this workflow reads, in the order a learner meets them.
    pub switches: &'static [Switch],
    /// Each row of the results table is an effect of its operation (a results table), rather
    /// than bookkeeping (an idempotency table).
    pub rows_are_effects: bool,
    /// The sink whose message tells the customer the operation's effect happened (a receipt
    /// email), if the workflow sends one: it must go out before the operation is marked
    /// verified, and only for an effect that exists at the provider.
    pub receipt: Option<&'static str>,
    /// Whether the program promises one row per key (the `one_row_per_key` invariant applies).
    pub promises_unique_rows: fn(&Program, &Scenario) -> bool,
    /// The program the scenario's design describes: the base program with each switch's edit.
    pub program: fn(&Scenario) -> Program,
    /// The lines the code panel prints above the program: the function's header, the key.
    pub preamble: fn(&Scenario) -> Vec<code::Preamble>,
}

/// What a workflow declares unless it says otherwise (`..UNSTAGED`): no stages, no receipt,
/// one row per key wherever the table has UNIQUE on it.
pub(crate) const UNSTAGED: Declaration = Declaration {
    name: "",
    lanes: &[],
    blocks: &[],
    stages: &[],
    stage_blocks: &[],
    switches: &[],
    rows_are_effects: false,
    receipt: None,
    promises_unique_rows: |_, scenario| scenario.switches.unique,
    program: |_| Program::default(),
    preamble: |_| Vec::new(),
};

/// A program built line by line at a moving indentation, as the designs' programs are written.
#[derive(Default)]
pub(crate) struct Builder {
    program: Program,
    depth: u8,
}

impl Builder {
    /// Adds a line at the current indentation; a header's body is indented until `close`.
    pub fn line(&mut self, block: Block) -> &mut Self {
        self.program.lines.push(Line {
            block,
            depth: self.depth,
        });
        if block.spec().shape.opens_body() {
            self.depth += 1;
        }
        self
    }

    /// Adds the lines in order.
    pub fn lines(&mut self, blocks: &[Block]) -> &mut Self {
        for &block in blocks {
            self.line(block);
        }
        self
    }

    /// Ends the innermost body.
    pub fn close(&mut self) -> &mut Self {
        self.depth = self.depth.saturating_sub(1);
        self
    }

    /// A header and its body of one line.
    pub fn under(&mut self, header: Block, body: Block) -> &mut Self {
        debug_assert!(header.spec().shape.opens_body());
        debug_assert!(!matches!(body.spec().shape, Shape::If | Shape::Try));
        self.line(header).line(body).close()
    }

    pub fn build(&mut self) -> Program {
        std::mem::take(&mut self.program)
    }
}

/// The code panel's listing: the preamble, then each line of the program, indented.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Listing {
    pub code: Vec<String>,
    /// The listing line of each program line (its last, when its text takes several).
    line_at: Vec<u16>,
    /// The line a run's arrival points at (the function's header).
    pub def_line: Option<u16>,
    /// The line a cancelled run points at (a comment on where the cancel flag is read).
    pub cancel_line: Option<u16>,
}

impl Listing {
    pub fn of(program: &Program, scenario: &Scenario) -> Listing {
        let mut listing = Listing::default();
        let keyed = program.keyed();
        for line in (scenario.workflow.declaration().preamble)(scenario) {
            let at = listing.code.len() as u16;
            match line {
                code::Preamble::Def(text) => {
                    listing.def_line = Some(at);
                    listing.code.push(text);
                }
                code::Preamble::Cancel(text) => {
                    listing.cancel_line = Some(at);
                    listing.code.push(text);
                }
                // A program that sets its key on a line of its own shows that line only.
                code::Preamble::Key(_) if keyed => {}
                code::Preamble::Key(text) | code::Preamble::Text(text) => listing.code.push(text),
            }
        }
        for line in &program.lines {
            let indent = "    ".repeat(usize::from(line.depth) + 1);
            for text in code::text(line.block, scenario).lines() {
                listing.code.push(format!("{indent}{text}"));
            }
            listing.line_at.push(listing.code.len() as u16 - 1);
        }
        listing
    }

    /// The listing line of program line `pc`, if it is one.
    pub fn line_of(&self, pc: u16) -> Option<u16> {
        self.line_at.get(pc as usize).copied()
    }
}
