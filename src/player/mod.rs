//! The player: one lab that steps through runs of the engine, shared by every page that shows a
//! scenario (a lesson, the sandbox, an embed, a shared link).
//!
//! How to use it:
//!
//! ```ignore
//! let designs = use_memo(lesson_id, |_| lesson.designs.clone());  // or vec![Design::own(..)]
//! let player = use_player(designs, Setup::default());
//! html! { <Lab player={player.clone()} name="my-file-prefix" /> }
//! ```
//!
//! - [`Design`]: what the player can show. A lesson gives one per design
//!   ([`Design::of_lesson`]), played one after another; a free scenario gives one
//!   ([`Design::free`]).
//! - [`Setup`]: where to start: the learner's own scenario for one design (switches flipped,
//!   faults injected or taken out, an explicit schedule) and the frame. [`PlayerState::setup`]
//!   gives it back for the current state, which is what a link holds
//!   (`lab_course::share` encodes it).
//! - [`use_player`] makes the reducer ([`PlayerState`], actions [`PlayerAction`]) and installs
//!   playback and the keyboard shortcuts.
//! - [`use_address`] keeps the address and a page's state in step, both ways;
//!   [`use_player_address`] is it for a page whose state is the player's setup (it loads a link
//!   with `PlayerAction::Load(setup)`, and writes the address when `PlayerState::linked` is
//!   false: the learner changed something). The sandbox, whose scenario lives in its own forms,
//!   uses `use_address` directly.
//! - [`Lab`] renders every panel, for every page (props say what differs: whether the switches
//!   show, where a counterexample opens); children go under the switches.
//!
//! The engine runs once per design when the player is made, then once per change of scenario
//! (never to move the cursor); `PlayerState::runs` counts the runs.

mod address;
pub(crate) mod explore;
mod hooks;
mod lab;
mod shortcuts;
mod state;

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

pub use address::{absolute, use_address, use_player_address, Address, Answered, Written};
pub use hooks::{use_playback, use_shortcuts};
pub use lab::Lab;
pub use state::{Design, Part, PlayerAction, PlayerState, Prediction, Setup};

use crate::store::use_app;

/// The player's reducer, with playback at the learner's speed and the keyboard shortcuts.
#[hook]
pub fn use_player(designs: Rc<Vec<Design>>, setup: Setup) -> UseReducerHandle<PlayerState> {
    use_player_with(designs, Rc::new(Vec::new()), BTreeMap::new(), setup)
}

/// [`use_player`] for a lesson: Next waits at a part that asks a prediction until the learner
/// answers or skips it (`known`: what saved progress says the learner already did, by part).
#[hook]
pub fn use_player_with(
    designs: Rc<Vec<Design>>,
    parts: Rc<Vec<Part>>,
    known: BTreeMap<usize, Prediction>,
    setup: Setup,
) -> UseReducerHandle<PlayerState> {
    let player = use_reducer(move || {
        PlayerState::new(designs, setup)
            .with_parts(parts)
            .with_predictions(known)
    });
    let speed = use_app().settings.speed;
    use_playback(&player, speed);
    use_shortcuts(&player);
    player
}
