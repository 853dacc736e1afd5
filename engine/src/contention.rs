//! Many clients, one resource: retry policies under contention, after Marc Brooker's
//! "Exponential Backoff And Jitter" study. Every client makes one write to one shared resource;
//! the writes that conflict fail with a temporary error, and their clients retry under a policy.
//! Two models say when writes conflict (see [`Model`]): the study's, where writes that overlap in
//! time conflict, and a resource that admits a fixed number of calls a tick. Time is a tick
//! counter and the one RNG is the engine's seeded SplitMix64, so a run is the same natively and
//! in WebAssembly.

use serde::{Deserialize, Serialize};

use crate::retry::delay_ticks;
use crate::rng::Rng;
use crate::scenario::{Backoff, Jitter, RetryPolicy};

/// The most clients a contention run simulates.
pub const CLIENTS_MAX: u32 = 10_000;
/// The most attempts a client may make.
pub const CONTENTION_ATTEMPTS_MAX: u32 = 1_000;
/// The shortest and longest network hop of the overlap model, in ticks.
const HOP_TICKS_MIN: u32 = 6;
const HOP_TICKS_MAX: u32 = 14;

/// When two writes conflict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// The study's (its public simulator, aws-samples/aws-arch-backoff-simulator): every client
    /// updates one row under optimistic concurrency. It reads the row's version, and its write
    /// reaches the row two network hops later; the write succeeds only if no other write
    /// succeeded in between, so calls take time and calls that overlap in time conflict: of the
    /// writes that read one version, the first to arrive wins and the others fail. A hop is 6 to
    /// 14 ticks (mean 10, standard deviation 2, the study's normal(10, 2) drawn as a triangle to
    /// stay in integers); pauses start at 5 ticks and are capped at 2,000, as in the study.
    /// Stands for contention on shared data: a database row, a lock, a compare-and-set.
    #[default]
    Overlap,
    /// A resource that admits `capacity_per_tick` calls a tick, whoever sends them; the rest of
    /// that tick's calls fail. A tick is the window in which two calls conflict; pauses start at
    /// 10 ticks and are capped at 1,000. Stands for a rate limit or a fixed pool of workers: it
    /// rewards ever-longer pauses, since a client that waits out the crowd always gets through.
    Capacity,
}

impl Model {
    /// Both models, the study's first.
    pub const ALL: [Model; 2] = [Model::Overlap, Model::Capacity];

    /// The snake_case name used by `lab retries --model` and a lesson's `contention`.
    pub fn name(self) -> &'static str {
        match self {
            Model::Overlap => "overlap",
            Model::Capacity => "capacity",
        }
    }

    /// How the page calls it.
    pub fn label(self) -> &'static str {
        match self {
            Model::Overlap => "Overlapping writes conflict (the study's model)",
            Model::Capacity => "A fixed capacity per tick",
        }
    }

    /// One sentence on what the model stands for, for the page and `lab retries`.
    pub fn description(self) -> &'static str {
        match self {
            Model::Overlap => "Each client reads a version and writes it back two network hops later; a write fails if another write succeeded in between, as in Brooker's study of optimistic-concurrency writes.",
            Model::Capacity => "The resource admits a fixed number of calls each tick, whoever sends them, and the rest fail: a rate limit, which rewards ever-longer pauses.",
        }
    }

    /// The time in which two calls can collide: a tick of the capacity model, and under the
    /// overlap model the two mean hops between a read and its write.
    pub fn window_ticks(self) -> u32 {
        match self {
            Model::Overlap => HOP_TICKS_MIN + HOP_TICKS_MAX,
            Model::Capacity => 1,
        }
    }

    /// The first pause and the longest, in ticks, when the experiment does not set them.
    fn pauses_ticks(self) -> (u32, u32) {
        match self {
            Model::Overlap => (5, 2_000),
            Model::Capacity => (10, 1_000),
        }
    }
}

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
    fn retry_policy(self, spec: &Bounds) -> RetryPolicy {
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

/// One contention experiment: the model, the clients, and the bounds every policy runs under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Contention {
    /// When writes conflict. Default overlap, the study's.
    pub model: Model,
    /// Clients, each with one write to make. 1 to 10,000. Default 100.
    pub clients: u32,
    /// Calls the resource admits per tick, under the capacity model only; the rest of that
    /// tick's calls conflict. Default 1: one writer per tick wins.
    pub capacity_per_tick: Option<u32>,
    /// Attempts per client, the first included. 1 to 1,000. Default 1,000 (the study sets none).
    pub attempts_max: u32,
    /// Retries a client may make in all, on top of its first call; `None` for no budget.
    /// Default none.
    pub retry_budget: Option<u32>,
    /// The first pause, in ticks. Default the model's: 5 (overlap) or 10 (capacity, where a
    /// pause of one tick would leave jitter no room to spread the retries).
    pub delay_base_ticks: Option<u32>,
    /// The longest pause, in ticks. Default the model's: 2,000 (overlap) or 1,000 (capacity).
    pub delay_cap_ticks: Option<u32>,
    /// Seeds the RNG: every network hop, which conflicting calls win, and every jittered pause.
    /// Default 0.
    pub seed: u64,
}

impl Default for Contention {
    fn default() -> Self {
        Contention {
            model: Model::Overlap,
            clients: 100,
            capacity_per_tick: None,
            attempts_max: CONTENTION_ATTEMPTS_MAX,
            retry_budget: None,
            delay_base_ticks: None,
            delay_cap_ticks: None,
            seed: 0,
        }
    }
}

/// What one policy did in one experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyRun {
    pub policy: Policy,
    /// Calls to the resource (writes), first attempts and retries. The overlap model's reads
    /// are not counted, as the study counts only writes.
    pub calls: u32,
    /// When every client has succeeded or given up: the tick of the last call (capacity), or of
    /// the last answer reaching its client (overlap, the study's "time").
    pub completed_tick: u32,
    /// Calls at each tick, from tick 0 to `completed_tick`.
    pub calls_per_tick: Vec<u32>,
    /// Clients whose write went through.
    pub succeeded: u32,
    /// Clients that ran out of attempts or budget.
    pub gave_up: u32,
    /// The most calls any one client made.
    pub client_calls_max: u32,
    /// How clustered the retries are, in thousandths; see [`clustering_permille`].
    pub clustering_permille: u32,
}

/// An experiment's bounds made valid, and the model's defaults filled in.
#[derive(Clone, Debug)]
struct Bounds {
    model: Model,
    clients: u32,
    capacity_per_tick: u32,
    /// Calls one client may make: its attempts, or its budget plus the first call if smaller.
    calls_allowed: u32,
    delay_base_ticks: u32,
    delay_cap_ticks: u32,
    attempts_max: u32,
    seed: u64,
}

impl Contention {
    /// What is wrong with the experiment, in words a lesson's author or `lab` can act on.
    pub fn check(&self) -> Result<(), String> {
        if self.model == Model::Overlap && self.capacity_per_tick.is_some() {
            return Err(
                "capacity_per_tick is read only by model = \"capacity\": under model = \"overlap\" (the default, the study's) writes conflict when they overlap in time, whatever the capacity; remove it or set model = \"capacity\"".into(),
            );
        }
        if !(1..=CLIENTS_MAX).contains(&self.clients) {
            return Err(format!(
                "clients is {}; it must be from 1 to {CLIENTS_MAX}",
                self.clients
            ));
        }
        if !(1..=CONTENTION_ATTEMPTS_MAX).contains(&self.attempts_max) {
            return Err(format!(
                "attempts_max is {}; it must be from 1 to {CONTENTION_ATTEMPTS_MAX}",
                self.attempts_max
            ));
        }
        if self.capacity_per_tick == Some(0) {
            return Err("capacity_per_tick is 0; the resource must admit at least 1".into());
        }
        let (base, cap) = self.pauses_ticks();
        if self.delay_base_ticks == Some(0) || base > cap {
            return Err(format!(
                "the pauses run from delay_base_ticks {base} to delay_cap_ticks {cap}; the base must be at least 1 and at most the cap"
            ));
        }
        if cap > crate::TICKS_MAX {
            return Err(format!(
                "delay_cap_ticks is {cap}; it must be at most {}",
                crate::TICKS_MAX
            ));
        }
        Ok(())
    }

    /// The first pause and the longest, in ticks: the experiment's, or its model's.
    pub fn pauses_ticks(&self) -> (u32, u32) {
        let (base, cap) = self.model.pauses_ticks();
        (
            self.delay_base_ticks.unwrap_or(base),
            self.delay_cap_ticks.unwrap_or(cap),
        )
    }

    /// Calls the resource admits per tick (capacity model).
    pub fn capacity(&self) -> u32 {
        self.capacity_per_tick.unwrap_or(1)
    }

    /// The bounds made valid: every knob clamped into its documented range.
    fn bounds(&self) -> Bounds {
        let (base, cap) = self.pauses_ticks();
        let base = base.clamp(1, crate::TICKS_MAX);
        let attempts_max = self.attempts_max.clamp(1, CONTENTION_ATTEMPTS_MAX);
        Bounds {
            model: self.model,
            clients: self.clients.clamp(1, CLIENTS_MAX),
            capacity_per_tick: self.capacity().max(1),
            calls_allowed: match self.retry_budget {
                Some(budget) => attempts_max.min(budget.saturating_add(1)),
                None => attempts_max,
            },
            delay_base_ticks: base,
            delay_cap_ticks: cap.clamp(base, crate::TICKS_MAX),
            attempts_max,
            seed: self.seed,
        }
    }

    /// Every policy in turn, each from the same seed.
    pub fn run_all(&self) -> Vec<PolicyRun> {
        Policy::ALL
            .into_iter()
            .map(|policy| self.run(policy))
            .collect()
    }

    /// One policy, run until every client has succeeded or given up.
    pub fn run(&self, policy: Policy) -> PolicyRun {
        let mut running = self.start(policy);
        while !running.advance(u64::MAX) {}
        running.finish()
    }

    /// One policy, to be advanced a slice at a time (so a page can stay responsive).
    pub fn start(&self, policy: Policy) -> Running {
        let bounds = self.bounds();
        let clients = bounds.clients as usize;
        let pacing = policy.retry_policy(&bounds);
        // due[t % len] lists what happens at tick t: a ring, as nothing is scheduled further
        // ahead than a pause and the hops around it.
        let ring = (bounds.delay_cap_ticks + 2 + 3 * HOP_TICKS_MAX) as usize;
        let mut due: Vec<Vec<u32>> = vec![Vec::new(); ring];
        let mut rng = Rng::new(bounds.seed);
        // Every client starts at tick 0, as in the study, where the writers contend from the
        // same moment; under the overlap model its read reaches the row one hop later.
        for client in 0..bounds.clients {
            match bounds.model {
                Model::Capacity => due[0].push(client),
                Model::Overlap => due[hop_ticks(&mut rng) as usize].push(read(client)),
            }
        }
        Running {
            policy,
            pacing,
            rng,
            calls_made: vec![0; clients],
            last_delay: vec![0; clients],
            version_read: vec![0; clients],
            version: 0,
            due,
            waiting: clients,
            calls_per_tick: Vec::new(),
            retries_per_tick: Vec::new(),
            succeeded: 0,
            gave_up: 0,
            answered_tick: 0,
            happening: Vec::with_capacity(clients),
            tick: 0,
            bounds,
        }
    }
}

/// A network hop of the overlap model, in ticks: 6 to 14, mean 10 and standard deviation 2, as
/// the study's normal(10, 2); the sum of two uniform draws keeps it in integers, near the mean.
fn hop_ticks(rng: &mut Rng) -> u32 {
    let spread = (HOP_TICKS_MAX - HOP_TICKS_MIN) / 2 + 1;
    HOP_TICKS_MIN + rng.below(spread) + rng.below(spread)
}

/// An overlap-model event in the ring: a client's read reaching the row.
fn read(client: u32) -> u32 {
    client << 1
}

/// An overlap-model event in the ring: a client's write reaching the row.
fn write(client: u32) -> u32 {
    client << 1 | 1
}

/// A contention run under way: [`Contention::start`], then [`Running::advance`] until it says it
/// is done, then [`Running::finish`].
#[derive(Clone, Debug)]
pub struct Running {
    policy: Policy,
    bounds: Bounds,
    pacing: RetryPolicy,
    rng: Rng,
    calls_made: Vec<u32>,
    last_delay: Vec<u32>,
    /// The row's version each client last read (overlap).
    version_read: Vec<u32>,
    /// The row's version: the writes that succeeded so far (overlap).
    version: u32,
    /// What happens at each tick: clients calling (capacity), or reads and writes reaching the
    /// row (overlap, see [`read`] and [`write`]).
    due: Vec<Vec<u32>>,
    /// Clients with a call still to make.
    waiting: usize,
    calls_per_tick: Vec<u32>,
    retries_per_tick: Vec<u32>,
    succeeded: u32,
    gave_up: u32,
    /// The last tick at which a client learned its write's outcome (overlap).
    answered_tick: u32,
    /// This tick's events (a buffer kept between ticks).
    happening: Vec<u32>,
    tick: usize,
}

impl Running {
    /// Simulates ticks until every client is done or about `work_max` units of work are spent
    /// (a tick and an event cost one each). Returns true when every client is done.
    #[must_use]
    pub fn advance(&mut self, work_max: u64) -> bool {
        let ring = self.due.len();
        let mut work = 0u64;
        while self.waiting > 0 && work < work_max {
            std::mem::swap(&mut self.happening, &mut self.due[self.tick % ring]);
            work += 1 + self.happening.len() as u64;
            self.calls_per_tick.push(0);
            self.retries_per_tick.push(0);
            match self.bounds.model {
                Model::Capacity => self.tick_capacity(),
                Model::Overlap => self.tick_overlap(),
            }
            self.happening.clear();
            self.tick += 1;
        }
        self.waiting == 0
    }

    /// A tick of the capacity model: at most `capacity_per_tick` of the clients due, drawn at
    /// random, get through; the others pause as the policy says and call again.
    fn tick_capacity(&mut self) {
        let mut callers = std::mem::take(&mut self.happening);
        // A partial Fisher-Yates shuffle puts this tick's winners first.
        let winners = callers.len().min(self.bounds.capacity_per_tick as usize);
        if callers.len() > winners {
            for slot in 0..winners {
                let remaining = (callers.len() - slot) as u32;
                let pick = slot + self.rng.below(remaining) as usize;
                callers.swap(slot, pick);
            }
        }
        self.waiting -= callers.len();
        self.succeeded += winners as u32;
        for &client in &callers[..winners] {
            self.count_call(client);
        }
        for &client in &callers[winners..] {
            self.count_call(client);
            let calls = self.calls_made[client as usize];
            if calls >= self.bounds.calls_allowed {
                self.gave_up += 1;
                continue;
            }
            let delay = self.pause(client, calls - 1);
            let ring = self.due.len();
            self.due[(self.tick + 1 + delay as usize) % ring].push(client);
            self.waiting += 1;
        }
        self.happening = callers;
    }

    /// A tick of the overlap model. The reads and writes that reach the row in one tick arrive
    /// in a random order (the study's time is continuous, so no two arrive together). A read
    /// notes the row's version and sends the write two hops later; a write succeeds if the
    /// version is still the one its client read, and its answer takes a hop back. A client
    /// that failed pauses as its policy says, then sends a fresh read.
    fn tick_overlap(&mut self) {
        let mut events = std::mem::take(&mut self.happening);
        for slot in 1..events.len() {
            let pick = self.rng.below(slot as u32 + 1) as usize;
            events.swap(slot, pick);
        }
        let ring = self.due.len();
        for &event in &events {
            let client = event >> 1;
            let index = client as usize;
            if event & 1 == 0 {
                self.version_read[index] = self.version;
                let write_tick =
                    self.tick + (hop_ticks(&mut self.rng) + hop_ticks(&mut self.rng)) as usize;
                self.due[write_tick % ring].push(write(client));
                continue;
            }
            self.count_call(client);
            let answered = self.tick as u32 + hop_ticks(&mut self.rng);
            let calls = self.calls_made[index];
            let won = self.version_read[index] == self.version;
            if won || calls >= self.bounds.calls_allowed {
                if won {
                    self.version += 1;
                    self.succeeded += 1;
                } else {
                    self.gave_up += 1;
                }
                self.waiting -= 1;
                self.answered_tick = self.answered_tick.max(answered);
                continue;
            }
            // The study counts its first retry as n = 1, so its first ceiling is already twice
            // the base: `calls`, not `calls - 1` as in the capacity model.
            let delay = self.pause(client, calls);
            let read_tick = answered as usize + (hop_ticks(&mut self.rng) + delay) as usize;
            self.due[read_tick % ring].push(read(client));
        }
        self.happening = events;
    }

    /// A call (a write) by `client` at this tick.
    fn count_call(&mut self, client: u32) {
        let calls = &mut self.calls_made[client as usize];
        *calls += 1;
        let last = self.calls_per_tick.len() - 1;
        self.calls_per_tick[last] += 1;
        if *calls > 1 {
            self.retries_per_tick[last] += 1;
        }
    }

    /// The pause before `client`'s next try, the policy's `retry`-th.
    fn pause(&mut self, client: u32, retry: u32) -> u32 {
        let index = client as usize;
        let delay = match self.policy {
            Policy::None => 0,
            _ => delay_ticks(&self.pacing, retry, self.last_delay[index], &mut self.rng),
        };
        self.last_delay[index] = delay;
        delay
    }

    /// What the policy did. Call once `advance` has returned true.
    pub fn finish(mut self) -> PolicyRun {
        debug_assert_eq!(self.succeeded + self.gave_up, self.bounds.clients);
        let last_call_tick = self.calls_per_tick.len().saturating_sub(1) as u32;
        let completed_tick = match self.bounds.model {
            Model::Capacity => last_call_tick,
            Model::Overlap => self.answered_tick.max(last_call_tick),
        };
        self.calls_per_tick.resize(completed_tick as usize + 1, 0);
        PolicyRun {
            policy: self.policy,
            calls: self.calls_made.iter().sum(),
            completed_tick,
            clustering_permille: clustering_permille(
                &self.retries_per_tick,
                self.bounds.model.window_ticks(),
            ),
            client_calls_max: self.calls_made.iter().copied().max().unwrap_or(0),
            calls_per_tick: self.calls_per_tick,
            succeeded: self.succeeded,
            gave_up: self.gave_up,
        }
    }
}

/// How clustered the retries are over time: the share of the retries that land in the busiest
/// tenth of the conflict windows after tick 0, in thousandths, from retries (or calls) per tick.
/// A conflict window is `window_ticks` long: the time in which two calls can collide, one tick
/// under the capacity model and a write's two hops under the overlap model, so that retries
/// sparser than one a tick are not scored as bunched. Tick 0, where every client of the capacity
/// model starts together whatever the policy, is left out. Retries spread evenly over time score
/// about 100; retries that arrive in a few synchronised waves score near 1,000.
pub fn clustering_permille(calls_per_tick: &[u32], window_ticks: u32) -> u32 {
    let mut retries: Vec<u64> = calls_per_tick
        .get(1..)
        .unwrap_or_default()
        .chunks(window_ticks.max(1) as usize)
        .map(|window| window.iter().map(|&calls| u64::from(calls)).sum())
        .collect();
    let total: u64 = retries.iter().sum();
    if total == 0 {
        return 0;
    }
    retries.sort_unstable_by(|a, b| b.cmp(a));
    let busiest = retries.len().div_ceil(10);
    let in_busiest: u64 = retries[..busiest].iter().sum();
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
            model: Model::Capacity,
            clients: 5,
            capacity_per_tick: Some(5),
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
            model: Model::Capacity,
            clients: 4,
            delay_base_ticks: Some(1),
            ..Contention::default()
        };
        let run = spec.run(Policy::None);
        assert_eq!(run.calls_per_tick, vec![4, 3, 2, 1]);
        assert_eq!((run.calls, run.completed_tick), (10, 3));
    }

    #[test]
    fn overlapping_reads_leave_one_winner() {
        // Every read reaches the row by tick 14 (a hop is at most 14 ticks) and the first write
        // two hops after its read, at tick 18 at the soonest: all the clients read version 0,
        // the first write wins, and with one attempt each the other nine give up. On any seed.
        for seed in 0..50 {
            let spec = Contention {
                clients: 10,
                attempts_max: 1,
                seed,
                ..Contention::default()
            };
            for run in spec.run_all() {
                assert_eq!((run.calls, run.succeeded, run.gave_up), (10, 1, 9));
                assert_eq!(run.clustering_permille, 0, "no retries");
            }
        }
    }

    #[test]
    fn two_overlapping_writers_by_hand() {
        // Both read before either writes, so one write fails and its client retries alone:
        // 3 calls. The loser's path is read, write, answer, read, write, answer: 1 + 2 + 1 + 1
        // + 2 + 1 = 8 hops of 6 to 14 ticks, 48 to 112, plus its pause. No backoff pauses 0;
        // constant backoff the base, 5; exponential twice the base, 10, as the study's first
        // retry is its n = 1.
        let mut seen = [(u32::MAX, 0); 3];
        for seed in 0..300 {
            let spec = Contention {
                clients: 2,
                seed,
                ..Contention::default()
            };
            for (slot, (policy, pause)) in [
                (Policy::None, 0),
                (Policy::Constant, 5),
                (Policy::Exponential, 10),
            ]
            .into_iter()
            .enumerate()
            {
                let run = spec.run(policy);
                assert_eq!((run.calls, run.succeeded, run.client_calls_max), (3, 2, 2));
                let hops = run.completed_tick - pause;
                assert!(
                    (48..=112).contains(&hops),
                    "{policy:?}: {}",
                    run.completed_tick
                );
                seen[slot] = (seen[slot].0.min(hops), seen[slot].1.max(hops));
            }
        }
        for (low, high) in seen {
            // Eight hops: mean 80 ticks, standard deviation 2 × √8, about 5.7.
            assert!(low < 70 && high > 90, "the hops vary: {low}..{high}");
        }
    }

    #[test]
    fn a_hop_is_ten_ticks_give_or_take_two() {
        let mut rng = Rng::new(3);
        let hops: Vec<u32> = (0..20_000).map(|_| hop_ticks(&mut rng)).collect();
        assert!(hops.iter().all(|hop| (6..=14).contains(hop)));
        let mean = hops.iter().sum::<u32>() as f64 / hops.len() as f64;
        let variance = hops
            .iter()
            .map(|&hop| (f64::from(hop) - mean).powi(2))
            .sum::<f64>()
            / hops.len() as f64;
        assert!((mean - 10.0).abs() < 0.05, "mean {mean}");
        assert!(
            (variance.sqrt() - 2.0).abs() < 0.05,
            "deviation {}",
            variance.sqrt()
        );
    }

    #[test]
    fn a_capacity_under_the_overlap_model_is_refused() {
        let spec = Contention {
            capacity_per_tick: Some(2),
            ..Contention::default()
        };
        let error = spec.check().unwrap_err();
        assert!(
            error.starts_with("capacity_per_tick is read only by model = \"capacity\""),
            "{error}"
        );
        assert_eq!(
            Contention {
                model: Model::Capacity,
                ..spec
            }
            .check(),
            Ok(())
        );
        assert_eq!(Contention::default().check(), Ok(()));
        let wide = Contention {
            delay_base_ticks: Some(3_000),
            ..Contention::default()
        };
        assert!(wide.check().unwrap_err().contains("at most the cap"));
    }

    #[test]
    fn a_run_is_reproducible_from_its_seed() {
        for model in Model::ALL {
            let spec = Contention {
                model,
                clients: 200,
                seed: 42,
                ..Contention::default()
            };
            assert_eq!(spec.run_all(), spec.run_all());
            let other = Contention {
                seed: 43,
                ..spec.clone()
            };
            assert_ne!(spec.run(Policy::FullJitter), other.run(Policy::FullJitter));
        }
    }

    #[test]
    fn a_run_in_slices_is_the_run_in_one_go() {
        for model in Model::ALL {
            let spec = Contention {
                model,
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
                assert_eq!(running.finish(), spec.run(policy), "{model:?} {policy:?}");
            }
        }
    }

    #[test]
    fn clustering_scores_even_and_bunched_calls() {
        assert_eq!(
            clustering_permille(&[10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], 1),
            100
        );
        assert_eq!(
            clustering_permille(&[10, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0], 1),
            1000
        );
        assert_eq!(clustering_permille(&[3], 1), 0);
        // One retry every other tick is bunched tick by tick, and even in windows of two.
        let sparse = [
            0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,
        ];
        assert_eq!(clustering_permille(&sparse, 1), 200);
        assert_eq!(clustering_permille(&sparse, 2), 100);
    }
}
