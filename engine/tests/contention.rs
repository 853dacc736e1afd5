//! Both contention models on several seeds. The capacity model: jitter cuts the work, full
//! jitter does no more work than equal jitter, and without jitter the retries arrive in
//! synchronised waves. The overlap model (the study's): the shapes of Brooker's "Exponential
//! Backoff And Jitter", over 100 seeds.

use lab_engine::{Contention, Model, Policy, PolicyRun};

const SEEDS: std::ops::Range<u64> = 0..8;

fn runs(clients: u32, seed: u64) -> Vec<PolicyRun> {
    Contention {
        model: Model::Capacity,
        clients,
        seed,
        ..Contention::default()
    }
    .run_all()
}

fn of(runs: &[PolicyRun], policy: Policy) -> &PolicyRun {
    runs.iter().find(|run| run.policy == policy).unwrap()
}

#[test]
fn every_client_finishes_and_the_counts_add_up() {
    for seed in SEEDS {
        for run in runs(100, seed) {
            assert_eq!(run.succeeded + run.gave_up, 100, "{:?}", run.policy);
            assert_eq!(
                run.gave_up, 0,
                "{:?}: the default bounds let all finish",
                run.policy
            );
            assert_eq!(run.calls_per_tick.iter().sum::<u32>(), run.calls);
            assert_eq!(run.calls_per_tick.len() as u32, run.completed_tick + 1);
            // One optimistic write wins per tick, so 100 writers need at least 100 ticks.
            assert!(run.completed_tick >= 99, "{:?}", run.policy);
        }
    }
}

#[test]
fn full_jitter_does_less_work_than_exponential_and_no_more_than_equal_jitter() {
    for seed in SEEDS {
        let runs = runs(100, seed);
        let full = of(&runs, Policy::FullJitter);
        let equal = of(&runs, Policy::EqualJitter);
        let exponential = of(&runs, Policy::Exponential);
        assert!(
            full.calls * 2 < exponential.calls,
            "seed {seed}: full jitter {} calls, exponential {}",
            full.calls,
            exponential.calls
        );
        assert!(
            full.calls <= equal.calls,
            "seed {seed}: full jitter {} calls, equal jitter {}",
            full.calls,
            equal.calls
        );
    }
}

#[test]
fn without_jitter_the_calls_stay_clustered() {
    for seed in SEEDS {
        let runs = runs(100, seed);
        let jittered = [
            Policy::FullJitter,
            Policy::EqualJitter,
            Policy::DecorrelatedJitter,
        ]
        .map(|policy| of(&runs, policy).clustering_permille);
        let plain = of(&runs, Policy::Exponential).clustering_permille;
        // Every retry of plain exponential backoff lands in a handful of waves.
        assert!(plain >= 990, "seed {seed}: exponential clustering {plain}");
        for clustering in jittered {
            assert!(
                clustering < 950,
                "seed {seed}: jittered clustering {clustering}"
            );
        }
    }
}

#[test]
fn the_retry_budget_caps_calls_per_client() {
    for seed in SEEDS {
        for retry_budget in [0, 1, 3] {
            let spec = Contention {
                model: Model::Capacity,
                clients: 50,
                seed,
                retry_budget: Some(retry_budget),
                ..Contention::default()
            };
            for run in spec.run_all() {
                assert!(run.client_calls_max <= retry_budget + 1, "{:?}", run.policy);
                assert!(run.calls <= 50 * (retry_budget + 1), "{:?}", run.policy);
                if retry_budget == 0 {
                    // No retries: one writer wins tick 0 and the 49 others give up at once.
                    assert_eq!((run.calls, run.gave_up), (50, 49), "{:?}", run.policy);
                }
            }
        }
    }
}

#[test]
fn max_attempts_cap_calls_per_client() {
    for model in Model::ALL {
        let spec = Contention {
            model,
            clients: 30,
            attempts_max: 4,
            ..Contention::default()
        };
        for run in spec.run_all() {
            assert!(run.client_calls_max <= 4, "{:?}", run.policy);
            assert_eq!(run.succeeded + run.gave_up, 30, "{:?}", run.policy);
        }
    }
}

/// The capacity model at 100 clients, on the page whose seed slider runs from 0 to 99: a
/// jittered policy makes far fewer calls than an unjittered one, on every one of those seeds.
#[test]
fn at_100_clients_every_jittered_policy_beats_every_unjittered_one_on_every_page_seed() {
    for seed in 0..=99 {
        let runs = runs(100, seed);
        let jittered = [
            Policy::FullJitter,
            Policy::EqualJitter,
            Policy::DecorrelatedJitter,
        ];
        let most_jittered = jittered
            .iter()
            .map(|&policy| of(&runs, policy).calls)
            .max()
            .unwrap();
        for policy in [Policy::None, Policy::Constant, Policy::Exponential] {
            let calls = of(&runs, policy).calls;
            assert!(
                most_jittered * 5 < calls,
                "seed {seed}: {policy:?} {calls} calls, a jittered policy {most_jittered}"
            );
        }
    }
}

/// The study's shape at 100 clients over 100 seeds, in the overlap model: full jitter does the
/// least work; decorrelated jitter a little more work for a little less time; equal jitter more
/// work than full jitter and the most time of the three; exponential backoff without jitter
/// more work and far more time than any jittered policy.
#[test]
fn the_overlap_model_has_the_study_s_shape_at_100_clients() {
    let spec = Contention {
        clients: 100,
        ..Contention::default()
    };
    let seeds = spec.run_seeds(&Policy::ALL, 100);
    let of = |policy| {
        seeds
            .policies
            .iter()
            .find(|entry| entry.policy == policy)
            .unwrap()
    };
    let (full, equal, decorrelated, exponential) = (
        of(Policy::FullJitter),
        of(Policy::EqualJitter),
        of(Policy::DecorrelatedJitter),
        of(Policy::Exponential),
    );
    assert_eq!(seeds.least_mean().unwrap().0, Policy::FullJitter);
    assert!(full.fewest_calls_seeds >= 80, "{}", full.fewest_calls_seeds);
    assert!(full.calls.mean < equal.calls.mean);
    assert!(equal.calls.mean < decorrelated.calls.mean);
    assert!(decorrelated.completed_ticks.mean < full.completed_ticks.mean);
    assert!(full.completed_ticks.mean < equal.completed_ticks.mean);
    for jittered in [full, equal, decorrelated] {
        assert!(jittered.calls.max < exponential.calls.min);
        assert!(jittered.completed_ticks.max * 5 < exponential.completed_ticks.min);
    }
    for run in spec.run_all() {
        assert_eq!(run.calls_per_tick.iter().sum::<u32>(), run.calls);
        assert_eq!(run.calls_per_tick.len() as u32, run.completed_tick + 1);
        assert_eq!((run.succeeded, run.gave_up), (100, 0));
    }
}
