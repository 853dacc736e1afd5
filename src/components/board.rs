//! A Parsons board: blocks in a bank, a program beside it. Blocks move by keyboard (a line's
//! handle: Space or Enter picks it up, the arrows move it and change its indentation, Space
//! drops it, Escape puts it back), by buttons (Add, Move up, Move down, Indent, Outdent, Remove)
//! and by dragging with a mouse or a finger (pointer events on each block's grip). Every move is
//! announced in a polite live region. [`Board`] is the board alone (the challenge builder edits
//! an answer and a start with it); [`BuildBoard`] is a build task: the board, **Check my
//! design** (the explorer, in the second module, under the task's budget), the verdict, and
//! hints one at a time, the last the answer.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::{Build, Wrong};
use lab_engine::{Block, Invariant, Line, Program, Property, Scenario};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::board::{
    add, bank, indented, locked_lines, locked_of, move_line, out_of_place, remove, start, words,
};
use crate::format::count;
use crate::search::{search, Slot, Status};
use crate::worker_module;

#[derive(Properties, PartialEq)]
pub struct BoardProps {
    /// The lines on the board.
    pub board: Program,
    /// The blocks the bank shows, in order.
    pub bank: Vec<Block>,
    /// The locked lines, in order: they stay where they are.
    pub locked: Vec<Line>,
    /// The design the program runs in: a block's words name its operations.
    pub scenario: Arc<Scenario>,
    pub onchange: Callback<Program>,
    /// Tells two boards on one page apart: their headings' and hints' ids start with it.
    #[prop_or(AttrValue::from("board"))]
    pub id: AttrValue,
    /// The bank's heading.
    #[prop_or(AttrValue::from("Blocks"))]
    pub bank_title: AttrValue,
    /// The program's heading, and how the bank's buttons name it ("Add … to your program").
    #[prop_or(AttrValue::from("Your program"))]
    pub title: AttrValue,
    #[prop_or(AttrValue::from("your program"))]
    pub name: AttrValue,
    /// What the structure line says of a well-formed program.
    #[prop_or(AttrValue::from(
        "The program reads as Python would: check it against every schedule."
    ))]
    pub ready_words: AttrValue,
    /// Locks and unlocks a line (the builder's start): the toolbar offers it.
    #[prop_or_default]
    pub onlock: Option<Callback<usize>>,
}

#[derive(Properties, PartialEq)]
pub struct BuildBoardProps {
    pub build: Rc<Build>,
    /// The design the program runs in: its operations, workers, settings and faults.
    pub scenario: Arc<Scenario>,
    /// The lines on the board.
    pub board: Program,
    /// What to build, drawn by the page (a lesson's is trusted HTML; a challenge's, text).
    pub prompt: Html,
    /// The author's own hints, drawn by the page, shown before the answer.
    #[prop_or_default]
    pub hints_shown: Vec<Html>,
    /// Hints shown so far, and whether a check found the program holding.
    pub hints: u32,
    pub solved: bool,
    pub onchange: Callback<Program>,
    /// A hint more is shown: how many are shown now.
    pub onhint: Callback<u32>,
    /// A check found the board's program holding.
    pub onsolved: Callback<()>,
    /// A check was asked for.
    #[prop_or_default]
    pub onchecked: Callback<()>,
    /// Opens a counterexample in the player: its scenario and the event that breaks.
    pub onopen: Callback<(Scenario, u32)>,
    /// Runs the board's program in the player.
    pub onrun: Callback<Scenario>,
}

/// A block picked up by the keyboard: where it was, and the board before it moved.
#[derive(Clone, PartialEq)]
struct Lifted {
    before: Program,
}

/// What the keys act on, kept between renders. Keys can come faster than the page redraws (a
/// busy machine, a quick typist): each must act on the board the key before it left, at the
/// line it left the keys on, not on the board and the line last drawn, whose handlers the
/// keys still reach until the page catches up.
#[derive(Default)]
struct Keys {
    /// The boards sent to the page and not drawn yet, oldest first.
    pending: std::collections::VecDeque<Program>,
    /// The board last drawn.
    drawn: Program,
    /// The line the last move left the keys on.
    at: Option<usize>,
    /// The line picked up, and the board before it.
    lifted: Option<Lifted>,
}

impl Keys {
    /// The board and line a key acts on: the board the last move left (drawn or not), and the
    /// line the keys were left on while a line is carried or a move is not drawn yet (the focus
    /// reaches the carried line only after the page draws the move); otherwise the line whose
    /// handle has the focus.
    fn now(&self, drawn: &Program, index: usize) -> (Program, usize) {
        let board = self.pending.back().unwrap_or(drawn).clone();
        let index = match self.lifted.is_some() || !self.pending.is_empty() {
            true => self.at.unwrap_or(index),
            false => index,
        };
        (board, index)
    }
}

/// A press on a block's grip, until it is released: where the block comes from, where the press
/// began, and where it would drop.
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    from: Source,
    start: (i32, i32),
    moved: bool,
    drop: Option<(usize, u8)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Source {
    Bank(Block),
    Line(usize),
}

/// Pixels of one level of indentation on the board (the CSS's `--indent`).
const INDENT_PIXELS: i32 = 24;

#[component]
pub fn Board(props: &BoardProps) -> Html {
    let scenario = &props.scenario;
    let board = &props.board;
    let selected = use_state(|| None::<usize>);
    let lifted = use_state(|| None::<Lifted>);
    let drag = use_mut_ref(|| None::<Drag>);
    let drop_shown = use_state(|| None::<(usize, u8)>);
    let said = use_state(String::new);
    let focus = use_state(|| None::<usize>);
    let keys = use_mut_ref(Keys::default);
    {
        // The page has drawn a board: the moves up to it are no longer ahead of it. A board
        // that no move sent (another tab, a link) drops them all.
        let mut keys = keys.borrow_mut();
        if *board != keys.drawn {
            keys.drawn = board.clone();
            match keys.pending.iter().position(|sent| sent == board) {
                Some(drawn) => {
                    keys.pending.drain(..=drawn);
                }
                None => keys.pending.clear(),
            }
        }
    }
    let lines_ref = use_node_ref();
    let offered = scenario.offered();
    let structure = board.structure(&offered);
    let locks = locked_lines(&props.locked, board);
    let in_bank = &props.bank;
    let code = |block: Block| words(block, scenario).1;
    let total = board.lines.len();

    // Every move: the new board, what to say, the line to focus.
    let apply = {
        let onchange = props.onchange.clone();
        let said = said.clone();
        let selected = selected.clone();
        let focus = focus.clone();
        let keys = Rc::clone(&keys);
        Callback::from(move |(next, words, at): (Program, String, Option<usize>)| {
            {
                let mut keys = keys.borrow_mut();
                keys.pending.push_back(next.clone());
                keys.at = at;
            }
            onchange.emit(next);
            said.set(words);
            selected.set(at);
            focus.set(at);
        })
    };
    // Focus follows the line a move selected.
    {
        let lines_ref = lines_ref.clone();
        let focus = focus.clone();
        use_effect_with(*focus, move |at| {
            if let Some(at) = at {
                focus_line(&lines_ref, *at);
                focus.set(None);
            }
        });
    }

    let on_add = |block: Block| {
        let apply = apply.clone();
        let board = board.clone();
        let selected = *selected;
        let code = code(block);
        Callback::from(move |_: MouseEvent| {
            let at = selected.map_or(board.lines.len(), |index| index + 1);
            let depth = match at.checked_sub(1).map(|before| board.lines[before]) {
                Some(before) if before.block.spec().shape.opens_body() => before.depth + 1,
                Some(before) => before.depth,
                None => 0,
            };
            let next = add(&board, block, at, depth);
            let words = format!("Added “{code}” as line {} of {}.", at + 1, next.lines.len());
            apply.emit((next, words, Some(at)));
        })
    };
    let bank_items = in_bank.iter().enumerate().map(|(index, &block)| {
        let (comment, text) = words(block, scenario);
        let ondown = grip_down(&drag, Source::Bank(block));
        let onmove = grip_move(&drag, &drop_shown, &lines_ref, board.lines.len());
        let onup = grip_up(&drag, &drop_shown, &apply, board, scenario);
        html! {
            <li key={format!("bank-{index}-{}", block.name())}>
                <span class="grip" aria-hidden="true" onpointerdown={ondown} onpointermove={onmove} onpointerup={onup.clone()} onpointercancel={onup}>{ "⠿" }</span>
                // The name holds every word a person sees, the comment line too.
                <button type="button" class="block" onclick={on_add(block)} aria-label={match &comment {
                    Some(comment) => format!("Add “{comment} {text}” to {}", props.name),
                    None => format!("Add “{text}” to {}", props.name),
                }}>
                    // The space keeps the two lines two words in the button's text, as in its name.
                    if let Some(comment) = comment { <span class="comment">{ comment }</span>{ " " } }
                    <code>{ text }</code>
                </button>
            </li>
        }
    });

    let lines = board.lines.iter().enumerate().map(|(index, line)| {
        let is_locked = locks.get(index).copied().unwrap_or(false);
        let (comment, text) = words(line.block, scenario);
        let is_selected = *selected == Some(index);
        let is_lifted = is_selected && lifted.is_some();
        let label = format!(
            "Line {} of {total}: {text}, {}{}{}",
            index + 1,
            depth_words(line.depth),
            if is_locked { ", locked" } else { "" },
            if is_lifted { ", picked up" } else { "" }
        );
        let onkeydown = {
            let drawn = board.clone();
            let lifted = lifted.clone();
            let selected = selected.clone();
            let apply = apply.clone();
            let said = said.clone();
            let lines_ref = lines_ref.clone();
            let keys = Rc::clone(&keys);
            let locked = props.locked.clone();
            let scenario = Arc::clone(scenario);
            Callback::from(move |event: KeyboardEvent| {
                let key = event.key();
                let (board, index) = keys.borrow().now(&drawn, index);
                let Some(line) = board.lines.get(index).copied() else {
                    return;
                };
                let is_locked = locked_lines(&locked, &board)[index];
                let code_here = words(line.block, &scenario).1;
                let describe_here = format!(
                    "“{code_here}”, line {} of {}, {}",
                    index + 1,
                    board.lines.len(),
                    depth_words(line.depth)
                );
                let held = keys.borrow().lifted.clone();
                let lift = |to: Option<Lifted>| {
                    keys.borrow_mut().lifted = to.clone();
                    lifted.set(to);
                };
                let handled = match (key.as_str(), held) {
                    (" " | "Enter", None) if !is_locked => {
                        lift(Some(Lifted { before: board.clone() }));
                        keys.borrow_mut().at = Some(index);
                        selected.set(Some(index));
                        said.set(format!("Picked up {describe_here}. Up and down move it, left and right change its indentation, Space drops it, Escape puts it back."));
                        true
                    }
                    (" " | "Enter", None) => {
                        said.set(format!("{describe_here} is locked: it stays where it is."));
                        true
                    }
                    (" " | "Enter", Some(_)) => {
                        lift(None);
                        said.set(format!("Dropped {describe_here}."));
                        true
                    }
                    ("Escape", Some(held)) => {
                        let before = held.before;
                        let at = (!before.lines.is_empty()).then(|| index.min(before.lines.len() - 1));
                        lift(None);
                        apply.emit((before, format!("Put back “{code_here}” where it was."), at));
                        true
                    }
                    ("ArrowUp" | "ArrowDown", Some(_)) => {
                        let to = match key.as_str() {
                            "ArrowUp" => index.checked_sub(1),
                            _ => (index + 1 < board.lines.len()).then_some(index + 1),
                        };
                        if let Some(to) = to {
                            let next = move_line(&board, index, to, line.depth);
                            let words = format!("Moved to line {} of {}.", to + 1, next.lines.len());
                            apply.emit((next, words, Some(to)));
                        }
                        true
                    }
                    ("ArrowLeft" | "ArrowRight", Some(_)) => {
                        let by = if key == "ArrowLeft" { -1 } else { 1 };
                        let depth = indented(line.depth, by);
                        let next = move_line(&board, index, index, depth);
                        apply.emit((next, format!("Now {}.", depth_words(depth)), Some(index)));
                        true
                    }
                    ("ArrowUp" | "ArrowDown", None) => {
                        let to = match key.as_str() {
                            "ArrowUp" => index.checked_sub(1),
                            _ => (index + 1 < board.lines.len()).then_some(index + 1),
                        };
                        if let Some(to) = to {
                            keys.borrow_mut().at = Some(to);
                            selected.set(Some(to));
                            focus_line(&lines_ref, to);
                        }
                        true
                    }
                    ("Delete" | "Backspace", None) if !is_locked => {
                        let next = remove(&board, index);
                        let at = (!next.lines.is_empty()).then(|| index.min(next.lines.len() - 1));
                        apply.emit((next, format!("Took “{code_here}” back to the bank."), at));
                        true
                    }
                    _ => false,
                };
                if handled {
                    event.prevent_default();
                    event.stop_propagation();
                }
            })
        };
        let onclick = {
            let selected = selected.clone();
            let lifted = lifted.clone();
            let keys = Rc::clone(&keys);
            Callback::from(move |event: MouseEvent| {
                // A click (not the Enter or Space that picks a line up) selects the line.
                if event.detail() > 0 {
                    let mut keys = keys.borrow_mut();
                    keys.lifted = None;
                    keys.at = Some(index);
                    lifted.set(None);
                    selected.set(Some(index));
                }
            })
        };
        let drop_here = drop_shown.is_some_and(|(at, _)| at == index);
        let ondown = grip_down(&drag, Source::Line(index));
        let onmove = grip_move(&drag, &drop_shown, &lines_ref, board.lines.len());
        let onup = grip_up(&drag, &drop_shown, &apply, board, scenario);
        html! {
            // The indentation is a class, not an inline style: the site's CSP allows no inline style.
            <li class={classes!("board-line", format!("depth-{}", line.depth), is_selected.then_some("selected"), is_lifted.then_some("lifted"), is_locked.then_some("locked"), drop_here.then_some("drop-before"))}
                data-line={index.to_string()}>
                if is_locked {
                    // Drawn, not an emoji: a machine without an emoji font shows a box instead.
                    <span class="grip lock" aria-hidden="true">
                        <svg viewBox="0 0 16 16" width="14" height="14" focusable="false">
                            <rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor" />
                            <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6" />
                        </svg>
                    </span>
                } else {
                    <span class="grip" aria-hidden="true" onpointerdown={ondown} onpointermove={onmove} onpointerup={onup.clone()} onpointercancel={onup}>{ "⠿" }</span>
                }
                <button type="button" class="handle" aria-label={label} aria-pressed={is_lifted.to_string()} {onkeydown} {onclick}>
                    // The space keeps the two lines two words in the button's text, as in its name.
                    if let Some(comment) = comment { <span class="comment">{ comment }</span>{ " " } }
                    <code>{ text }</code>
                </button>
            </li>
        }
    });
    let drop_at_end = drop_shown.is_some_and(|(at, _)| at >= board.lines.len());

    // The toolbar acts on the selected line, for those who do not drag or use the keys.
    let toolbar = selected.filter(|&index| index < board.lines.len()).map(|index| {
        let line = board.lines[index];
        let is_locked = locks.get(index).copied().unwrap_or(false);
        let step = |label: &'static str, enabled: bool, make: Rc<dyn Fn() -> (Program, String, Option<usize>)>| {
            let apply = apply.clone();
            let onclick = Callback::from(move |_: MouseEvent| apply.emit(make()));
            html! { <button type="button" disabled={!enabled || is_locked} {onclick}>{ label }</button> }
        };
        let here = board.clone();
        let text = code(line.block);
        let up = {
            let here = here.clone();
            Rc::new(move || {
                let next = move_line(&here, index, index - 1, here.lines[index].depth);
                (next, format!("Moved to line {index}."), Some(index - 1))
            })
        };
        let down = {
            let here = here.clone();
            Rc::new(move || {
                let next = move_line(&here, index, index + 1, here.lines[index].depth);
                (next, format!("Moved to line {}.", index + 2), Some(index + 1))
            })
        };
        let by = |amount: i8| {
            let here = here.clone();
            Rc::new(move || {
                let depth = indented(here.lines[index].depth, amount);
                (move_line(&here, index, index, depth), format!("Now {}.", depth_words(depth)), Some(index))
            }) as Rc<dyn Fn() -> (Program, String, Option<usize>)>
        };
        let take = {
            let here = here.clone();
            Rc::new(move || {
                let next = remove(&here, index);
                let at = (!next.lines.is_empty()).then(|| index.min(next.lines.len() - 1));
                (next, format!("Took “{text}” back to the bank."), at)
            })
        };
        let lock = props.onlock.as_ref().map(|onlock| {
            let onlock = onlock.clone();
            let said = said.clone();
            let focus = focus.clone();
            let words = match is_locked {
                true => format!("Unlocked line {}: learners may move it.", index + 1),
                false => format!("Locked line {}: learners get it in place.", index + 1),
            };
            let onclick = Callback::from(move |_: MouseEvent| {
                onlock.emit(index);
                said.set(words.clone());
                focus.set(Some(index));
            });
            html! {
                <button type="button" aria-pressed={is_locked.to_string()} {onclick}>{ "Locked" }</button>
            }
        });
        html! {
            <div class="board-toolbar" role="toolbar" aria-label={format!("Line {}", index + 1)}>
                { step("Move up", index > 0, up) }
                { step("Move down", index + 1 < board.lines.len(), down) }
                { step("Outdent", line.depth > 0, by(-1)) }
                { step("Indent", true, by(1)) }
                { step("Remove", true, take) }
                { lock.unwrap_or_default() }
            </div>
        }
    });

    let structure_words = match (&structure, board.lines.is_empty()) {
        (_, true) => {
            let mut name = props.name.chars();
            let capital = name
                .next()
                .map(|first| first.to_uppercase().collect::<String>());
            format!(
                "{}{} is empty: add blocks from the bank.",
                capital.unwrap_or_default(),
                name.as_str()
            )
        }
        (Ok(_), false) => props.ready_words.to_string(),
        (Err(error), false) if error.line == 0 => error.message.clone(),
        (Err(error), false) => format!("Line {}: {}", error.line, error.message),
    };
    let id = &props.id;
    html! {
        <div class="board-columns">
            <section class="bank" aria-labelledby={format!("{id}-bank-title")}>
                <h3 id={format!("{id}-bank-title")}>{ props.bank_title.clone() }</h3>
                if in_bank.is_empty() {
                    <p class="hint">{ "Every block is on the board." }</p>
                } else {
                    <ul>{ for bank_items }</ul>
                }
            </section>
            <section class="program" aria-labelledby={format!("{id}-program-title")}>
                <h3 id={format!("{id}-program-title")}>{ props.title.clone() }</h3>
                <p class="hint" id={format!("{id}-keys")}>{ "Select a line, then Space to pick it up; arrows move and indent it; Space drops it. Or drag a block by its grip." }</p>
                <ol class={classes!("board-lines", drop_at_end.then_some("drop-after"))} ref={lines_ref.clone()} aria-describedby={format!("{id}-keys")}>
                    { for lines }
                </ol>
                // One node whether or not a line is selected: an optional child written as
                // `for` adds or removes a sibling, and Yew matches siblings from the end, so
                // the list before it would be rebuilt and the focused line lost.
                { toolbar.unwrap_or_default() }
                <p class={classes!("structure", structure.is_err().then_some("wrong"))} role="status">{ structure_words }</p>
            </section>
            <p class="visually-hidden" aria-live="polite">{ (*said).clone() }</p>
        </div>
    }
}

#[component]
pub fn BuildBoard(props: &BuildBoardProps) -> Html {
    let build = &props.build;
    let scenario = &props.scenario;
    let board = &props.board;
    let said = use_state(String::new);
    let status = use_reducer(|| Status::Idle);
    let module: Slot = use_mut_ref(|| None);
    use_effect_with((), |_| worker_module::when_settled(worker_module::prefetch));
    let offered = scenario.offered();
    let structure = board.structure(&offered);
    let well_formed = structure.is_ok() && !board.lines.is_empty();
    let with_program = |program: &Program| {
        let mut changed = (**scenario).clone();
        changed.program = Some(program.clone());
        changed
    };
    let oncheck = {
        let status = status.clone();
        let module = Rc::clone(&module);
        let scenario = Arc::new(with_program(board));
        let budget = build.explore.budget();
        let onchecked = props.onchecked.clone();
        Callback::from(move |_: MouseEvent| {
            onchecked.emit(());
            search(&status, &module, &scenario, &budget)
        })
    };
    let onrun = {
        let onrun = props.onrun.clone();
        let scenario = with_program(board);
        Callback::from(move |_: MouseEvent| onrun.emit(scenario.clone()))
    };
    let onreset = {
        let onchange = props.onchange.clone();
        let said = said.clone();
        let first = start(build);
        Callback::from(move |_: MouseEvent| {
            onchange.emit(first.clone());
            said.set("The board is as it was at the start.".into());
        })
    };
    let checking = matches!(&*status, Status::Running { .. } | Status::Loading { .. });
    // What the program's own run must still do, run here: a lesson's scenario is small.
    let unmet = {
        let scenario = with_program(board);
        let expect = build.expect.clone();
        use_memo(
            (board.clone(), well_formed),
            move |(_, well_formed)| match well_formed {
                true => lab_engine::Engine::run(scenario)
                    .map(|trace| expect.unmet(&trace))
                    .unwrap_or_else(|error| vec![error.to_string()]),
                false => Vec::new(),
            },
        )
    };
    let verdict = verdict(&status, build, board, &unmet, &props.onopen);
    let solved_now = verdict.as_ref().is_some_and(|(holds, _)| *holds);
    {
        let onsolved = props.onsolved.clone();
        use_effect_with(solved_now, move |solved| {
            if *solved {
                onsolved.emit(());
            }
        });
    }
    let wrong = build
        .wrong
        .iter()
        .find(|wrong| wrong.program == *board)
        .map(misconception);
    let hints = hints(props, &status);
    html! {
        <div class="board" data-keys="own">
            <p class="prompt">{ props.prompt.clone() }</p>
            <Board board={board.clone()} bank={bank(build, board)} locked={locked_of(&build.start)}
                scenario={Arc::clone(scenario)} onchange={props.onchange.clone()} />
            <div class="board-actions">
                <button type="button" class="primary" onclick={oncheck} disabled={!well_formed || checking}>{ "Check my design" }</button>
                <button type="button" onclick={onrun} disabled={!well_formed}>{ "Run it in the player" }</button>
                <button type="button" onclick={onreset}>{ "Start over" }</button>
            </div>
            { verdict.map(|(_, html)| html).unwrap_or_default() }
            { wrong.unwrap_or_default() }
            { hints }
            <p class="visually-hidden" aria-live="polite">{ (*said).clone() }</p>
        </div>
    }
}

/// "not indented", "indented 1 level", "indented 2 levels".
fn depth_words(depth: u8) -> String {
    match depth {
        0 => "not indented".into(),
        depth => format!("indented {}", count(depth.into(), "level", "levels")),
    }
}

/// Moves the focus to the handle of line `at`.
fn focus_line(lines: &NodeRef, at: usize) {
    let Some(list) = lines.cast::<web_sys::Element>() else {
        return;
    };
    let selector = format!("[data-line=\"{at}\"] .handle");
    if let Ok(Some(handle)) = list.query_selector(&selector) {
        if let Ok(handle) = handle.dyn_into::<web_sys::HtmlElement>() {
            let _ = handle.focus();
        }
    }
}

fn grip_down(drag: &Rc<std::cell::RefCell<Option<Drag>>>, from: Source) -> Callback<PointerEvent> {
    let drag = Rc::clone(drag);
    Callback::from(move |event: PointerEvent| {
        if event.button() != 0 {
            return;
        }
        if let Some(target) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        {
            let _ = target.set_pointer_capture(event.pointer_id());
        }
        event.prevent_default();
        *drag.borrow_mut() = Some(Drag {
            from,
            start: (event.client_x(), event.client_y()),
            moved: false,
            drop: None,
        });
    })
}

/// Where a drag would drop, from the pointer: before the first line whose middle is below it,
/// at the indentation its distance from the board's left edge says.
fn grip_move(
    drag: &Rc<std::cell::RefCell<Option<Drag>>>,
    shown: &UseStateHandle<Option<(usize, u8)>>,
    lines: &NodeRef,
    count: usize,
) -> Callback<PointerEvent> {
    let (drag, shown, lines) = (Rc::clone(drag), shown.clone(), lines.clone());
    Callback::from(move |event: PointerEvent| {
        let mut held = drag.borrow_mut();
        let Some(press) = held.as_mut() else {
            return;
        };
        let (x, y) = (event.client_x(), event.client_y());
        if !press.moved && (x - press.start.0).abs() + (y - press.start.1).abs() < 6 {
            return;
        }
        press.moved = true;
        let Some(list) = lines.cast::<web_sys::Element>() else {
            return;
        };
        let left = list.get_bounding_client_rect().left() as i32;
        let children = list.children();
        let at = (0..children.length())
            .filter_map(|index| children.item(index))
            .position(|child| {
                let rect = child.get_bounding_client_rect();
                f64::from(y) < rect.top() + rect.height() / 2.0
            })
            .unwrap_or(count);
        let depth =
            ((x - left) / INDENT_PIXELS).clamp(0, i32::from(lab_engine::PROGRAM_DEPTH_MAX)) as u8;
        press.drop = Some((at, depth));
        shown.set(Some((at, depth)));
    })
}

fn grip_up(
    drag: &Rc<std::cell::RefCell<Option<Drag>>>,
    shown: &UseStateHandle<Option<(usize, u8)>>,
    apply: &Callback<(Program, String, Option<usize>)>,
    board: &Program,
    scenario: &Scenario,
) -> Callback<PointerEvent> {
    let (drag, shown, apply, board, scenario) = (
        Rc::clone(drag),
        shown.clone(),
        apply.clone(),
        board.clone(),
        scenario.clone(),
    );
    Callback::from(move |_: PointerEvent| {
        let press = drag.borrow_mut().take();
        shown.set(None);
        let Some(Drag {
            from,
            moved: true,
            drop: Some((at, depth)),
            ..
        }) = press
        else {
            return;
        };
        let (next, block, to) = match from {
            Source::Bank(block) => (add(&board, block, at, depth), block, at),
            Source::Line(from) => {
                let to = if at > from { at - 1 } else { at };
                (
                    move_line(&board, from, to, depth),
                    board.lines[from].block,
                    to,
                )
            }
        };
        let words = format!(
            "Dropped “{}” at line {} of {}, {}.",
            words(block, &scenario).1,
            to + 1,
            next.lines.len(),
            depth_words(depth)
        );
        apply.emit((next, words, Some(to)));
    })
}

/// The last check's verdict, when it was for the board as it is: whether the goal held, and
/// its words.
fn verdict(
    status: &Status,
    build: &Build,
    board: &Program,
    unmet: &[String],
    onopen: &Callback<(Scenario, u32)>,
) -> Option<(bool, Html)> {
    let budget = format!(
        "{} and {}",
        count(build.explore.faults.into(), "fault", "faults"),
        count(
            build.explore.preemptions.into(),
            "preemption",
            "preemptions"
        )
    );
    match status {
        Status::Idle | Status::Cancelled { .. } => None,
        Status::Loading { .. } => Some((
            false,
            html! { <p class="explore-progress" role="status">{ "Loading the explorer…" }</p> },
        )),
        Status::Running { progress, .. } => Some((
            false,
            html! {
                <p class="explore-progress" role="status">{ match progress {
                    Some((states, _, _)) => format!("Checking every schedule of up to {budget}: {} so far…", count(*states, "state", "states")),
                    None => format!("Checking every schedule of up to {budget}…"),
                } }</p>
            },
        )),
        Status::Failed(words) => Some((
            false,
            html! { <p class="notice" role="status">{ words.clone() }</p> },
        )),
        Status::Done { findings, scenario } => {
            let stale = scenario.program.as_ref() != Some(board);
            let broken: Vec<Invariant> = Property::ALL
                .iter()
                .zip(&findings.verdicts)
                .filter_map(|(property, verdict)| match property {
                    Property::Always(invariant)
                        if !verdict.holds && build.goal.contains(invariant) =>
                    {
                        Some(*invariant)
                    }
                    _ => None,
                })
                .collect();
            let holds = broken.is_empty() && findings.extent.complete;
            let when = if stale {
                " (for your arrangement before its last change)"
            } else {
                ""
            };
            if holds && !stale && !unmet.is_empty() {
                return Some((
                    false,
                    html! {
                        <div class="feedback wrong" role="status">
                            <p><strong>{ "Holds, but does not do the job." }</strong>{ " No schedule breaks an invariant, yet its own run falls short:" }</p>
                            <ul>{ for unmet.iter().map(|words| html! { <li>{ words.clone() }</li> }) }</ul>
                        </div>
                    },
                ));
            }
            let html = if holds {
                html! {
                    <p class="feedback right" role="status">
                        <strong>{ "Holds" }</strong>
                        { format!(" under every schedule of up to {budget}: {}{when}.", count(findings.extent.schedules, "schedule", "schedules")) }
                    </p>
                }
            } else if !findings.extent.complete {
                html! { <p class="feedback" role="status">{ "The search reached its limit of engine steps before every schedule was tried: no verdict." }</p> }
            } else {
                let names: Vec<String> = broken
                    .iter()
                    .map(|invariant| format!("“{}”", invariant.statement()))
                    .collect();
                let open = findings.counterexample.as_ref().and_then(|found| {
                    let scenario = found.scenario().ok()?;
                    let event = found.events;
                    let onopen = onopen.clone();
                    Some(html! {
                        <button type="button" onclick={Callback::from(move |_: MouseEvent| onopen.emit((scenario.clone(), event)))}>
                            { "Open it in the player" }
                        </button>
                    })
                });
                html! {
                    <div class="feedback wrong" role="status">
                        <p><strong>{ "Breaks" }</strong>{ format!(" {}{when}.", names.join(" and ")) }</p>
                        if let Some(found) = &findings.counterexample {
                            <p>{ format!("Shortest counterexample: {}", found.description) }</p>
                        }
                        { open.unwrap_or_default() }
                    </div>
                }
            };
            Some((holds && !stale, html))
        }
    }
}

/// A known wrong arrangement's message.
fn misconception(wrong: &Wrong) -> Html {
    html! {
        <p class="feedback wrong misconception">
            <strong>{ format!("{}: ", wrong.misconception) }</strong>
            { Html::from_html_unchecked(AttrValue::from(wrong.message_html.clone())) }
        </p>
    }
}

/// The hints shown so far, and the button for the next: which invariant breaks, which line is
/// out of place, the author's own, then the answer.
fn hints(props: &BuildBoardProps, status: &Status) -> Html {
    let build = &props.build;
    let scenario = &props.scenario;
    let total = 3 + props.hints_shown.len() as u32;
    let shown = props.hints.min(total);
    let first = match status {
        Status::Done { findings, .. } => match &findings.counterexample {
            Some(found) => format!("What breaks, and how: {}", found.description),
            None => "Your last check found nothing broken.".into(),
        },
        _ => "Check your design first: this hint then says which invariant breaks, and the schedule that breaks it.".into(),
    };
    let items = (0..shown).map(|index| {
        let index = index as usize;
        let body = match index {
            0 => html! { { first.clone() } },
            1 => html! { { out_of_place(&props.board, &build.reference, scenario) } },
            index if index - 2 < props.hints_shown.len() => props.hints_shown[index - 2].clone(),
            _ => {
                let lines = build.reference.lines.iter().map(|line| {
                    let (_, text) = words(line.block, scenario);
                    format!("{}{text}\n", "    ".repeat(line.depth.into()))
                });
                let onuse = {
                    let onchange = props.onchange.clone();
                    let reference = build.reference.clone();
                    Callback::from(move |_: MouseEvent| onchange.emit(reference.clone()))
                };
                html! {
                    <>
                        { "The answer:" }
                        <pre><code>{ for lines }</code></pre>
                        <button type="button" onclick={onuse}>{ "Put the answer on the board" }</button>
                    </>
                }
            }
        };
        html! { <li>{ body }</li> }
    });
    let onhint = {
        let onhint = props.onhint.clone();
        Callback::from(move |_: MouseEvent| onhint.emit(shown + 1))
    };
    let label = match shown + 1 {
        next if next == total => "Show the answer".to_string(),
        next => format!("Show a hint ({next} of {total})"),
    };
    html! {
        <div class="hints">
            if shown > 0 {
                <ol class="hint-list" aria-label="Hints">{ for items }</ol>
            }
            if shown < total && !props.solved {
                <button type="button" onclick={onhint}>{ label }</button>
            }
        </div>
    }
}
