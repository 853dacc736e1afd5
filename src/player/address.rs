//! Keeps the address bar and a player in step, both ways: the learner's changes replace the
//! address (no history entry per step); an address the page did not write (a link opened, a step
//! typed, Back in the browser) loads into the player.

use std::collections::VecDeque;
use std::rc::Rc;

use yew::prelude::*;
use yew_router::prelude::*;

use super::state::{PlayerAction, PlayerState, Setup};
use crate::route::Route;

/// `asked` is what the address shown now asks the player to show; `route_of` writes the address
/// of a player state.
#[hook]
pub fn use_address(
    player: &UseReducerHandle<PlayerState>,
    asked: Setup,
    route_of: Rc<dyn Fn(&Setup) -> Route>,
) {
    let navigator = use_navigator().expect("a player page is inside a router");
    let address = use_route::<Route>();
    let written = use_mut_ref(Written::default);
    {
        let written = Rc::clone(&written);
        use_effect_with(
            (player.setup(), player.linked()),
            move |(setup, from_link)| {
                if !*from_link {
                    let route = route_of(setup);
                    navigator.replace(&route);
                    written.borrow_mut().wrote(route);
                }
            },
        );
    }
    let current = player.setup();
    let dispatcher = player.dispatcher();
    use_effect_with(address, move |address| {
        let echo = address
            .as_ref()
            .is_some_and(|address| written.borrow_mut().seen_back(address));
        if echo || asked == current {
            return;
        }
        dispatcher.dispatch(PlayerAction::Load(asked));
    });
}

/// Addresses a page wrote and has not yet seen back in the route, oldest first: the router may
/// show an older one while the page has moved on, and that is not a link to load.
#[derive(Debug, Default)]
pub struct Written {
    pending: VecDeque<Route>,
    last: Option<Route>,
}

impl Written {
    pub fn wrote(&mut self, route: Route) {
        self.pending.push_back(route.clone());
        self.last = Some(route);
    }

    /// The address the page wrote last.
    pub fn last(&self) -> Option<&Route> {
        self.last.as_ref()
    }

    /// Whether `route` is one the page wrote (then it and every older one are done with).
    pub fn seen_back(&mut self, route: &Route) -> bool {
        match self.pending.iter().position(|candidate| candidate == route) {
            Some(position) => {
                self.pending.drain(..=position);
                true
            }
            None => false,
        }
    }
}

/// The full address of a route on this site, as a learner would paste it.
pub fn absolute(route: &Route) -> String {
    let location = gloo::utils::window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_else(|_| "/".into());
    format!("{origin}{path}#{}", route.to_path())
}
