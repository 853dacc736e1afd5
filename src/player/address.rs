//! The address hook: keeps the address bar and what a page shows in step, both ways. The
//! learner's changes replace the address (no history entry per step); an address the page did not
//! write (a link opened, a step typed, Back in the browser) goes to the page to show.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;
use yew_router::prelude::*;

use super::state::{PlayerAction, PlayerState, Setup};
use crate::route::Route;

/// What a page answers to an address it did not write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    /// The page shows what the address names (or the address is not the page's to show).
    Shown,
    /// The address names nothing the page can show: it goes back to the page's last one.
    Refused,
}

/// How a page keeps the address in step with `S`, the state it shows.
pub struct Address<S> {
    /// What the page shows now.
    pub shown: S,
    /// `shown` is the learner's doing, not what an address or the start asked: it is written.
    pub changed: bool,
    /// How long the page must rest (no change) before the address is written, in milliseconds;
    /// 0 writes at once. A pause writes a run of steps or held-down keys once.
    pub pause_milliseconds: u32,
    /// The address of a state.
    pub route_of: Rc<dyn Fn(&S) -> Route>,
    /// Shows an address the page did not write.
    pub onroute: Callback<Route, Answered>,
    /// Hears each address the page writes.
    pub onwritten: Option<Callback<Route>>,
}

/// Writes the address of `address.shown` when the learner changed it, and hands an address the
/// page did not write to `address.onroute`. `written` is the page's record of its own
/// addresses: a page that remakes its lab (the sandbox, for each scenario) keeps one across them.
#[hook]
pub fn use_address<S: Clone + PartialEq + 'static>(
    address: Address<S>,
    written: &Rc<RefCell<Written>>,
) {
    let navigator = use_navigator().expect("a page with an address is inside a router");
    let route = use_route::<Route>();
    let Address {
        shown,
        changed,
        pause_milliseconds,
        route_of,
        onroute,
        onwritten,
    } = address;
    {
        let written = Rc::clone(written);
        use_effect_with((shown, changed), move |(shown, changed)| {
            let write = {
                let shown = shown.clone();
                move || {
                    let route = route_of(&shown);
                    // Recorded before the router hears of it, which may be at once.
                    if written.borrow_mut().wrote(&route) {
                        navigator.replace(&route);
                    }
                    if let Some(onwritten) = &onwritten {
                        onwritten.emit(route);
                    }
                }
            };
            let timer = match (*changed, pause_milliseconds) {
                (false, _) => None,
                (true, 0) => {
                    write();
                    None
                }
                (true, pause) => Some(Timeout::new(pause, write)),
            };
            move || drop(timer)
        });
    }
    let navigator = use_navigator().expect("a page with an address is inside a router");
    let written = Rc::clone(written);
    use_effect_with(route, move |route| {
        let Some(route) = route else {
            return;
        };
        if written.borrow_mut().seen_back(route) {
            return;
        }
        match onroute.emit(route.clone()) {
            Answered::Shown => written.borrow_mut().showing(route),
            Answered::Refused => {
                let last = written.borrow().last().cloned();
                if let Some(last) = last.filter(|last| last != route) {
                    written.borrow_mut().wrote(&last);
                    navigator.replace(&last);
                }
            }
        }
    });
}

/// [`use_address`] for a page whose state is a player's: the learner's changes are written at
/// once, and an address the page did not write loads `asked` (what it names) into the player.
#[hook]
pub fn use_player_address(
    player: &UseReducerHandle<PlayerState>,
    asked: Setup,
    route_of: Rc<dyn Fn(&Setup) -> Route>,
) {
    let written = use_mut_ref(Written::default);
    let current = player.setup();
    let dispatcher = player.dispatcher();
    let onroute = Callback::from(move |_: Route| {
        if asked != current {
            dispatcher.dispatch(PlayerAction::Load(asked.clone()));
        }
        Answered::Shown
    });
    let address = Address {
        shown: player.setup(),
        changed: !player.linked(),
        pause_milliseconds: 0,
        route_of,
        onroute,
        onwritten: None,
    };
    use_address(address, &written);
}

/// The addresses a page wrote and has not yet seen back in the route, oldest first (the router
/// may show an older one while the page has moved on, and that is not a link to load), and the
/// address the page shows now.
#[derive(Debug, Default)]
pub struct Written {
    pending: VecDeque<Route>,
    last: Option<Route>,
}

impl Written {
    /// Records `route` as the page's address; false when it is that already (nothing to write).
    pub fn wrote(&mut self, route: &Route) -> bool {
        if self.last.as_ref() == Some(route) {
            return false;
        }
        self.pending.push_back(route.clone());
        self.last = Some(route.clone());
        true
    }

    /// Records `route`, which the page did not write, as the one it shows now.
    pub fn showing(&mut self, route: &Route) {
        self.last = Some(route.clone());
    }

    /// The address of what the page shows, as it last wrote or showed it.
    pub fn last(&self) -> Option<&Route> {
        self.last.as_ref()
    }

    /// Whether `route` is one the page wrote (then it and every older one are done with) or the
    /// one it shows.
    pub fn seen_back(&mut self, route: &Route) -> bool {
        match self.pending.iter().position(|candidate| candidate == route) {
            Some(position) => {
                self.pending.drain(..=position);
                true
            }
            None => self.last.as_ref() == Some(route),
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
