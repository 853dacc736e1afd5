//! Many clients, one resource: retry policies under contention, after Marc Brooker's
//! "Exponential Backoff And Jitter" study. Every client makes one optimistic-concurrency write to
//! one shared resource, which admits at most `capacity_per_tick` calls per tick; the excess calls
//! of a tick conflict and fail with a temporary error, and their clients retry under a policy.
//! Time is a tick counter and the one RNG is the engine's seeded SplitMix64, so a run is the same
//! natively and in WebAssembly.

use serde::{Deserialize, Serialize};

use crate::retry::delay_ticks;
use crate::rng::Rng;
use crate::scenario::{Backoff, Jitter, RetryPolicy};

/// The most clients a contention run simulates.
pub const CLIENTS_MAX: u32 = 10_000;
/// The most attempts a client may make.
pub const CONTENTION_ATTEMPTS_MAX: u32 = 1_000;

/// How a client paces its retries. Names follow the study (and `lab retries --policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Retry on the next tick: no pause at all.
    None,
    /// The same pause (the base) before every retry.
    Constant,
    /// A pause that doubles from the base up to the cap; every client draws the same pause.
    Exponential,
    /// A pause drawn from 0 to the exponential ceiling: random(0, min(cap, base * 2^retry)).
    FullJitter,
    /// Half the exponential ceiling, plus a random draw of up to the other half.
    EqualJitter,
    /// A pause drawn from the base to three times the previous pause, capped.
    DecorrelatedJitter,
}

impl Policy {
    /// Every policy, in the order the study introduces them.
    pub const ALL: [Policy; 6] = [
        Policy::None,
        Policy::Constant,
        Policy::Exponential,
        Policy::FullJitter,
        Policy::EqualJitter,
        Policy::DecorrelatedJitter,
    ];

    /// The snake_case name used by `lab retries` and its JSON.
    pub fn name(self) -> &'static str {
        match self {
            Policy::None => "none",
            Policy::Constant => "constant",
            Policy::Exponential => "exponential",
            Policy::FullJitter => "full_jitter",
            Policy::EqualJitter => "equal_jitter",
            Policy::DecorrelatedJitter => "decorrelated_jitter",
        }
    }

    /// How the page and the CLI's table call it.
    pub fn label(self) -> &'static str {
        match self {
            Policy::None => "No backoff",
            Policy::Constant => "Constant",
            Policy::Exponential => "Exponential",
            Policy::FullJitter => "Full jitter",
            Policy::EqualJitter => "Equal jitter",
            Policy::DecorrelatedJitter => "Decorrelated jitter",
        }
    }

    /// The engine's retry policy that paces this one, so a contention run and a workflow's
    /// retry loop draw their pauses from one function (`retry::delay_ticks`).
    fn retry_policy(self, spec: &Contention) -> RetryPolicy {
        let (backoff, jitter) = match self {
            Policy::None | Policy::Constant => (Backoff::Constant, Jitter::None),
            Policy::Exponential => (Backoff::Exponential, Jitter::None),
            Policy::FullJitter => (Backoff::Exponential, Jitter::Full),
            Policy::EqualJitter => (Backoff::Exponential, Jitter::Equal),
            Policy::DecorrelatedJitter => (Backoff::Constant, Jitter::Decorrelated),
        };
        RetryPolicy {
            attempts_max: spec.attempts_max,
            delay_base_ticks: spec.delay_base_ticks,
            delay_cap_ticks: spec.delay_cap_ticks,
            backoff,
            jitter,
            ..RetryPolicy::default()
        }
    }
}

/// One contention experiment: the clients, the resource and the bounds every policy runs under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Contention {
    /// Clients, each with one write to make. 1 to 10,000. Default 100.
    pub clients: u32,
    /// Calls the resource admits per tick; the rest of that tick's calls conflict. Default 1, an
    /// optimistic-concurrency write: one writer per tick wins.
    pub capacity_per_tick: u32,
    /// Attempts per client, the first included. 1 to 1,000. Default 1,000 (the study sets none).
    pub attempts_max: u32,
    /// Retries a client may make in all, on top of its first call; `None` for no budget.
    /// Default none.
    pub retry_budget: Option<u32>,
    /// The first pause, in ticks. Default 10: a tick is the window in which two writes conflict,
    /// and a pause of one tick would leave jitter no room to spread the retries.
    pub delay_base_ticks: u32,
    /// The longest pause, in ticks. Default 1,000.
    pub delay_cap_ticks: u32,
    /// Seeds the RNG: which conflicting calls win, and every jittered pause. Default 0.
    pub seed: u64,
}

impl Default for Contention {
    fn default() -> Self {
        Contention {
            clients: 100,
            capacity_per_tick: 1,
            attempts_max: CONTENTION_ATTEMPTS_MAX,
            retry_budget: None,
            delay_base_ticks: 10,
            delay_cap_ticks: 1_000,
            seed: 0,
        }
    }
}

/// What one policy did in one experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyRun {
    pub policy: Policy,
    /// Calls to the resource, first attempts and retries.
    pub calls: u32,
    /// The tick of the last call, after which every client has succeeded or given up.
    pub completed_tick: u32,
    /// Calls at each tick, from tick 0 to `completed_tick`.
    pub calls_per_tick: Vec<u32>,
    /// Clients whose write went through.
    pub succeeded: u32,
    /// Clients that ran out of attempts or budget.
    pub gave_up: u32,
    /// The most calls any one client made.
    pub client_calls_max: u32,
    /// How clustered the calls are, in thousandths; see [`clustering_permille`].
    pub clustering_permille: u32,
}

impl Contention {
    /// The bounds made valid: every knob clamped into its documented range.
    fn clamped(&self) -> Contention {
        let base = self.delay_base_ticks.clamp(1, crate::TICKS_MAX);
        Contention {
            clients: self.clients.clamp(1, CLIENTS_MAX),
            capacity_per_tick: self.capacity_per_tick.max(1),
            attempts_max: self.attempts_max.clamp(1, CONTENTION_ATTEMPTS_MAX),
            retry_budget: self.retry_budget,
            delay_base_ticks: base,
            delay_cap_ticks: self.delay_cap_ticks.clamp(base, crate::TICKS_MAX),
            seed: self.seed,
        }
    }

    /// Calls one client may make: its attempts, or its budget plus the first call if smaller.
    fn calls_allowed(&self) -> u32 {
        match self.retry_budget {
            Some(budget) => self.attempts_max.min(budget.saturating_add(1)),
            None => self.attempts_max,
        }
    }

    /// Every policy in turn, each from the same seed.
    pub fn run_all(&self) -> Vec<PolicyRun> {
        Policy::ALL
            .into_iter()
            .map(|policy| self.run(policy))
            .collect()
    }

    /// One policy: tick by tick, the clients due call; at most `capacity_per_tick` of them, drawn
    /// at random, get through; the others pause as the policy says and call again.
    pub fn run(&self, policy: Policy) -> PolicyRun {
        let mut running = self.start(policy);
        while !running.advance(u64::MAX) {}
        running.finish()
    }

    /// One policy, to be advanced a slice at a time (so a page can stay responsive).
    pub fn start(&self, policy: Policy) -> Running {
        let spec = self.clamped();
        let clients = spec.clients as usize;
        // due[t % len] lists the clients that call at tick t: a ring, as no pause is longer than
        // the cap. Every client starts at tick 0, as in the study, where the writers contend
        // from the same moment.
        let ring = spec.delay_cap_ticks as usize + 2;
        let mut due: Vec<Vec<u32>> = vec![Vec::new(); ring];
        due[0] = (0..spec.clients).collect();
        Running {
            policy,
            pacing: policy.retry_policy(&spec),
            calls_allowed: spec.calls_allowed(),
            rng: Rng::new(spec.seed),
            calls_made: vec![0; clients],
            last_delay: vec![0; clients],
            due,
            waiting: clients,
            calls_per_tick: Vec::new(),
            succeeded: 0,
            gave_up: 0,
            callers: Vec::with_capacity(clients),
            tick: 0,
            spec,
        }
    }
}

/// A contention run under way: [`Contention::start`], then [`Running::advance`] until it says it
/// is done, then [`Running::finish`].
#[derive(Clone, Debug)]
pub struct Running {
    policy: Policy,
    spec: Contention,
    pacing: RetryPolicy,
    calls_allowed: u32,
    rng: Rng,
    calls_made: Vec<u32>,
    last_delay: Vec<u32>,
    due: Vec<Vec<u32>>,
    /// Clients with a call still to make.
    waiting: usize,
    calls_per_tick: Vec<u32>,
    succeeded: u32,
    gave_up: u32,
    /// This tick's callers (a buffer kept between ticks).
    callers: Vec<u32>,
    tick: usize,
}

impl Running {
    /// Simulates ticks until every client is done or about `work_max` units of work are spent
    /// (a tick and a call cost one each). Returns true when every client is done.
    #[must_use]
    pub fn advance(&mut self, work_max: u64) -> bool {
        let ring = self.due.len();
        let mut work = 0u64;
        while self.waiting > 0 && work < work_max {
            let tick = self.tick;
            std::mem::swap(&mut self.callers, &mut self.due[tick % ring]);
            let callers = &mut self.callers;
            self.calls_per_tick.push(callers.len() as u32);
            self.waiting -= callers.len();
            work += 1 + callers.len() as u64;
            // A partial Fisher-Yates shuffle puts this tick's winners first.
            let winners = callers.len().min(self.spec.capacity_per_tick as usize);
            if callers.len() > winners {
                for slot in 0..winners {
                    let remaining = (callers.len() - slot) as u32;
                    let pick = slot + self.rng.below(remaining) as usize;
                    callers.swap(slot, pick);
                }
            }
            self.succeeded += winners as u32;
            for &client in &callers[..winners] {
                self.calls_made[client as usize] += 1;
            }
            for &client in &callers[winners..] {
                let index = client as usize;
                self.calls_made[index] += 1;
                if self.calls_made[index] >= self.calls_allowed {
                    self.gave_up += 1;
                    continue;
                }
                let delay = match self.policy {
                    Policy::None => 0,
                    _ => delay_ticks(
                        &self.pacing,
                        self.calls_made[index] - 1,
                        self.last_delay[index],
                        &mut self.rng,
                    ),
                };
                self.last_delay[index] = delay;
                self.due[(tick + 1 + delay as usize) % ring].push(client);
                self.waiting += 1;
            }
            callers.clear();
            self.tick += 1;
        }
        self.waiting == 0
    }

    /// What the policy did. Call once `advance` has returned true.
    pub fn finish(self) -> PolicyRun {
        debug_assert_eq!(self.succeeded + self.gave_up, self.spec.clients);
        PolicyRun {
            policy: self.policy,
            calls: self.calls_made.iter().sum(),
            completed_tick: self.calls_per_tick.len().saturating_sub(1) as u32,
            clustering_permille: clustering_permille(&self.calls_per_tick),
            client_calls_max: self.calls_made.iter().copied().max().unwrap_or(0),
            calls_per_tick: self.calls_per_tick,
            succeeded: self.succeeded,
            gave_up: self.gave_up,
        }
    }
}

/// How clustered calls are over time: the share of the retries (every call after tick 0, where
/// all clients start together whatever the policy) that land in the busiest tenth of the ticks
/// after tick 0, in thousandths. Retries spread evenly over time score about 100; retries that
/// arrive in a few synchronised waves score near 1,000.
pub fn clustering_permille(calls_per_tick: &[u32]) -> u32 {
    let mut retries: Vec<u32> = calls_per_tick.iter().skip(1).copied().collect();
    let total: u64 = retries.iter().map(|&calls| u64::from(calls)).sum();
    if total == 0 {
        return 0;
    }
    retries.sort_unstable_by(|a, b| b.cmp(a));
    let busiest = retries.len().div_ceil(10);
    let in_busiest: u64 = retries[..busiest]
        .iter()
        .map(|&calls| u64::from(calls))
        .sum();
    (in_busiest * 1000 / total) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names_are_their_serde_names() {
        for policy in Policy::ALL {
            let json = serde_json::to_string(&policy).unwrap();
            assert_eq!(json, format!("\"{}\"", policy.name()));
        }
    }

    #[test]
    fn without_contention_every_client_succeeds_at_once() {
        let spec = Contention {
            clients: 5,
            capacity_per_tick: 5,
            ..Contention::default()
        };
        for run in spec.run_all() {
            assert_eq!((run.calls, run.completed_tick, run.succeeded), (5, 0, 5));
            assert_eq!(run.calls_per_tick, vec![5]);
        }
    }

    #[test]
    fn no_backoff_retries_every_tick() {
        // One winner a tick: the losers all come back on the next tick, N + (N-1) + .. + 1 calls.
        let spec = Contention {
            clients: 4,
            delay_base_ticks: 1,
            ..Contention::default()
        };
        let run = spec.run(Policy::None);
        assert_eq!(run.calls_per_tick, vec![4, 3, 2, 1]);
        assert_eq!((run.calls, run.completed_tick), (10, 3));
    }

    #[test]
    fn a_run_is_reproducible_from_its_seed() {
        let spec = Contention {
            clients: 200,
            seed: 42,
            ..Contention::default()
        };
        assert_eq!(spec.run_all(), spec.run_all());
        let other = Contention { seed: 43, ..spec };
        assert_ne!(spec.run(Policy::FullJitter), other.run(Policy::FullJitter));
    }

    #[test]
    fn a_run_in_slices_is_the_run_in_one_go() {
        let spec = Contention {
            clients: 300,
            seed: 5,
            ..Contention::default()
        };
        for policy in Policy::ALL {
            let mut running = spec.start(policy);
            let mut slices = 1;
            while !running.advance(500) {
                slices += 1;
            }
            assert!(slices > 1, "{policy:?} took more than one slice");
            assert_eq!(running.finish(), spec.run(policy), "{policy:?}");
        }
    }

    #[test]
    fn clustering_scores_even_and_bunched_calls() {
        assert_eq!(
            clustering_permille(&[10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]),
            100
        );
        assert_eq!(
            clustering_permille(&[10, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0]),
            1000
        );
        assert_eq!(clustering_permille(&[3]), 0);
    }
}
