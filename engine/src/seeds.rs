//! Many seeds of one contention experiment: each policy's mean work and time with their spread,
//! and in how many seeds each policy did best, so that a ranking can be told from one seed's luck.

use serde::{Deserialize, Serialize};

use crate::contention::{Contention, Policy};

/// The most seeds one summary runs.
pub const SEEDS_MAX: u32 = 10_000;

/// One measure over many seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    /// The sample standard deviation (0 for one seed).
    pub deviation: f64,
    pub min: u32,
    /// The median, by nearest rank.
    pub p50: u32,
    /// The 90th percentile, by nearest rank: nine seeds in ten did no worse.
    pub p90: u32,
    pub max: u32,
}

impl Spread {
    /// The spread of `values`; all zero when there are none.
    pub fn of(values: &[u32]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let count = sorted.len() as f64;
        let mean = sorted.iter().map(|&value| f64::from(value)).sum::<f64>() / count.max(1.0);
        let squares: f64 = sorted
            .iter()
            .map(|&value| (f64::from(value) - mean).powi(2))
            .sum();
        let deviation = if sorted.len() > 1 {
            (squares / (count - 1.0)).sqrt()
        } else {
            0.0
        };
        // Nearest rank: the smallest value with at least `share` of the values at or below it.
        let rank = |share: f64| {
            let at = (share * count).ceil() as usize;
            sorted
                .get(at.saturating_sub(1))
                .copied()
                .unwrap_or_default()
        };
        Spread {
            mean,
            deviation,
            min: sorted.first().copied().unwrap_or_default(),
            p50: rank(0.5),
            p90: rank(0.9),
            max: sorted.last().copied().unwrap_or_default(),
        }
    }
}

/// What one policy did over many seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicySeeds {
    pub policy: Policy,
    /// Calls to the resource: the work.
    pub calls: Spread,
    /// The tick by which every client was done: the time.
    pub completed_ticks: Spread,
    /// Clients that gave up, over all the seeds.
    pub gave_up: u64,
    /// Seeds in which this policy made the fewest calls; a tie counts for every tied policy.
    pub fewest_calls_seeds: u32,
    /// Seeds in which this policy was done first; a tie counts for every tied policy.
    pub soonest_done_seeds: u32,
}

/// One experiment run from many seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seeds {
    /// The experiment; its seed is the first of the run.
    pub spec: Contention,
    /// How many seeds: `spec.seed` and the ones after it.
    pub seeds: u32,
    /// One entry per policy, in the order asked.
    pub policies: Vec<PolicySeeds>,
}

impl Seeds {
    /// The policy with the least mean work, then the one with the least mean time.
    pub fn least_mean(&self) -> Option<(Policy, Policy)> {
        let least = |measure: fn(&PolicySeeds) -> f64| {
            self.policies
                .iter()
                .min_by(|a, b| measure(a).total_cmp(&measure(b)))
                .map(|entry| entry.policy)
        };
        Some((
            least(|entry| entry.calls.mean)?,
            least(|entry| entry.completed_ticks.mean)?,
        ))
    }
}

impl Contention {
    /// Each of `policies` run from `seeds` seeds, from this experiment's seed on (at most
    /// [`SEEDS_MAX`]).
    pub fn run_seeds(&self, policies: &[Policy], seeds: u32) -> Seeds {
        let seeds = seeds.clamp(1, SEEDS_MAX);
        // calls[p][s] and ticks[p][s]: policy p in the s-th seed.
        let mut calls = vec![Vec::with_capacity(seeds as usize); policies.len()];
        let mut ticks = vec![Vec::with_capacity(seeds as usize); policies.len()];
        let mut gave_up = vec![0u64; policies.len()];
        let mut fewest_calls = vec![0u32; policies.len()];
        let mut soonest_done = vec![0u32; policies.len()];
        for offset in 0..u64::from(seeds) {
            let spec = Contention {
                seed: self.seed.wrapping_add(offset),
                ..self.clone()
            };
            for (index, &policy) in policies.iter().enumerate() {
                let run = spec.run(policy);
                calls[index].push(run.calls);
                ticks[index].push(run.completed_tick);
                gave_up[index] += u64::from(run.gave_up);
            }
            let seed = offset as usize;
            count_wins(&calls, seed, &mut fewest_calls);
            count_wins(&ticks, seed, &mut soonest_done);
        }
        let policies = policies
            .iter()
            .enumerate()
            .map(|(index, &policy)| PolicySeeds {
                policy,
                calls: Spread::of(&calls[index]),
                completed_ticks: Spread::of(&ticks[index]),
                gave_up: gave_up[index],
                fewest_calls_seeds: fewest_calls[index],
                soonest_done_seeds: soonest_done[index],
            })
            .collect();
        Seeds {
            spec: self.clone(),
            seeds,
            policies,
        }
    }
}

/// One more win for every policy whose value in `seed` is the least.
fn count_wins(values: &[Vec<u32>], seed: usize, wins: &mut [u32]) {
    let least = values.iter().map(|of| of[seed]).min();
    for (index, of) in values.iter().enumerate() {
        if Some(of[seed]) == least {
            wins[index] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_by_hand() {
        // Mean 5; squared deviations 16, 4, 0, 4, 16 sum to 40, over 4 is 10.
        let spread = Spread::of(&[9, 1, 5, 3, 7]);
        assert_eq!(
            (spread.min, spread.p50, spread.p90, spread.max),
            (1, 5, 9, 9)
        );
        assert_eq!(spread.mean, 5.0);
        assert_eq!(spread.deviation, 10f64.sqrt());
        let one = Spread::of(&[4]);
        assert_eq!((one.mean, one.deviation, one.p90), (4.0, 0.0, 4));
        let ten: Vec<u32> = (1..=10).collect();
        assert_eq!((Spread::of(&ten).p50, Spread::of(&ten).p90), (5, 9));
    }

    #[test]
    fn every_tied_policy_wins_the_seed() {
        let values = vec![vec![3, 7], vec![3, 5], vec![4, 9]];
        let mut wins = vec![0; 3];
        count_wins(&values, 0, &mut wins);
        count_wins(&values, 1, &mut wins);
        assert_eq!(wins, vec![1, 2, 0]);
    }

    #[test]
    fn many_seeds_are_the_single_seeds_summed_up() {
        let spec = Contention {
            clients: 20,
            seed: 7,
            ..Contention::default()
        };
        let policies = [Policy::FullJitter, Policy::Exponential];
        let seeds = spec.run_seeds(&policies, 5);
        let calls: Vec<u32> = (7..12)
            .map(|seed| {
                Contention {
                    seed,
                    ..spec.clone()
                }
                .run(Policy::FullJitter)
                .calls
            })
            .collect();
        assert_eq!(seeds.policies[0].calls, Spread::of(&calls));
        let wins: u32 = seeds
            .policies
            .iter()
            .map(|entry| entry.fewest_calls_seeds)
            .sum();
        assert!((5..=10).contains(&wins), "every seed has a winner: {wins}");
        assert_eq!(seeds, spec.run_seeds(&policies, 5));
    }
}
