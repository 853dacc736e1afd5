//! Retry delays: backoff and jitter, as pure functions of the policy, the attempt and the RNG.

use crate::rng::Rng;
use crate::scenario::{Backoff, Jitter, RetryPolicy};

/// The delay before retry number `retry` (0 for the first retry), in ticks. `previous` is the
/// last delay, which decorrelated jitter grows from.
pub fn delay_ticks(policy: &RetryPolicy, retry: u32, previous: u32, rng: &mut Rng) -> u32 {
    let base = policy.delay_base_ticks.max(1);
    let cap = policy.delay_cap_ticks.max(base);
    let grown = match policy.backoff {
        Backoff::Constant => base,
        Backoff::Exponential => base.saturating_mul(1u32 << retry.min(20)).min(cap),
    };
    match policy.jitter {
        Jitter::None => grown,
        Jitter::Full => rng.below(grown + 1),
        Jitter::Equal => grown / 2 + rng.below(grown / 2 + 1),
        Jitter::Decorrelated => {
            let high = previous.max(base).saturating_mul(3);
            (base + rng.below(high - base + 1)).min(cap)
        }
    }
}

/// How many calls reach the deepest layer when every call fails: each layer makes
/// `attempts_max` attempts of the layer below, or only the outermost one does.
pub fn deepest_calls_max(policy: &RetryPolicy) -> u32 {
    let layers = if policy.single_layer {
        1
    } else {
        policy.layers.clamp(1, crate::scenario::LAYERS_MAX)
    };
    policy.attempts_max.max(1).saturating_pow(layers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(backoff: Backoff, jitter: Jitter) -> RetryPolicy {
        RetryPolicy {
            attempts_max: 5,
            delay_base_ticks: 2,
            delay_cap_ticks: 20,
            backoff,
            jitter,
            ..RetryPolicy::default()
        }
    }

    #[test]
    fn exponential_doubles_up_to_the_cap() {
        let policy = policy(Backoff::Exponential, Jitter::None);
        let mut rng = Rng::new(1);
        let delays: Vec<u32> = (0..6)
            .map(|n| delay_ticks(&policy, n, 0, &mut rng))
            .collect();
        assert_eq!(delays, vec![2, 4, 8, 16, 20, 20]);
    }

    #[test]
    fn jitter_stays_within_its_bounds() {
        let mut rng = Rng::new(9);
        for retry in 0..8 {
            let full = delay_ticks(
                &policy(Backoff::Exponential, Jitter::Full),
                retry,
                0,
                &mut rng,
            );
            let equal = delay_ticks(
                &policy(Backoff::Exponential, Jitter::Equal),
                retry,
                0,
                &mut rng,
            );
            let ceiling = (2u32 << retry).min(20);
            assert!(full <= ceiling);
            assert!(equal >= ceiling / 2 && equal <= ceiling);
            let decorrelated = delay_ticks(
                &policy(Backoff::Constant, Jitter::Decorrelated),
                retry,
                6,
                &mut rng,
            );
            assert!((2..=18).contains(&decorrelated));
        }
    }

    #[test]
    fn three_layers_of_three_make_twenty_seven() {
        let policy = RetryPolicy {
            attempts_max: 3,
            layers: 3,
            ..RetryPolicy::default()
        };
        assert_eq!(deepest_calls_max(&policy), 27);
    }
}
