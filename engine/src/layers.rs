//! Stacked retry layers: a call passes down L layers to a backend that fails every time, and the
//! layers retry around the layer below. Counted by really making the calls, three ways: every
//! layer retries (the Builders' Library's 3^5 = 243), only the outermost layer retries (the SRE
//! book's "retry at one layer"), and every layer retries but draws on one retry budget for the
//! whole operation.

use serde::{Deserialize, Serialize};

use crate::scenario::LAYERS_MAX;

/// The most attempts a layer may make: 10^6 calls at the bottom is the most a stack makes.
pub const LAYER_ATTEMPTS_MAX: u32 = 10;

/// Who may retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Retrying {
    /// Every layer makes up to `attempts` attempts of the layer below.
    EveryLayer,
    /// The outermost layer retries; the layers inside it fail fast.
    OuterLayerOnly,
    /// Every layer may retry, while the operation's shared budget of retries lasts.
    Budget(u32),
}

/// A stack of retrying layers over a failing backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Stack {
    /// Layers between the caller and the backend, each retrying the one below. 1 to 6. Default 3.
    pub layers: u32,
    /// Attempts each layer makes, the first included. 1 to 10. Default 3.
    pub attempts: u32,
    /// Retries the whole operation may make, shared by every layer. Default 2.
    pub retry_budget: u32,
}

impl Default for Stack {
    fn default() -> Self {
        Stack {
            layers: 3,
            attempts: 3,
            retry_budget: 2,
        }
    }
}

/// The calls a stack made, three ways.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackRun {
    pub layers: u32,
    pub attempts: u32,
    pub retry_budget: u32,
    /// Calls that reached the backend when every layer retries.
    pub bottom_calls: u32,
    /// The same when only the outermost layer retries.
    pub bottom_calls_single_layer: u32,
    /// The same when every layer retries within the shared budget.
    pub bottom_calls_with_budget: u32,
    /// Calls that reached each depth when every layer retries: `[1, A, A^2, .., A^L]`, the
    /// caller's one call first and the backend last.
    pub calls_by_depth: Vec<u32>,
    /// The same when only the outermost layer retries.
    pub calls_by_depth_single_layer: Vec<u32>,
    /// The same within the budget.
    pub calls_by_depth_with_budget: Vec<u32>,
}

impl Stack {
    /// The stack with every knob clamped into its documented range.
    fn clamped(self) -> Stack {
        Stack {
            layers: self.layers.clamp(1, LAYERS_MAX),
            attempts: self.attempts.clamp(1, LAYER_ATTEMPTS_MAX),
            retry_budget: self.retry_budget,
        }
    }

    /// Makes the calls, three ways, and counts what reached every depth.
    pub fn run(self) -> StackRun {
        let stack = self.clamped();
        let every = stack.count(Retrying::EveryLayer);
        let single = stack.count(Retrying::OuterLayerOnly);
        let budget = stack.count(Retrying::Budget(stack.retry_budget));
        StackRun {
            layers: stack.layers,
            attempts: stack.attempts,
            retry_budget: stack.retry_budget,
            bottom_calls: every[stack.layers as usize],
            bottom_calls_single_layer: single[stack.layers as usize],
            bottom_calls_with_budget: budget[stack.layers as usize],
            calls_by_depth: every,
            calls_by_depth_single_layer: single,
            calls_by_depth_with_budget: budget,
        }
    }

    /// One call from the caller, and what reached each depth.
    fn count(&self, retrying: Retrying) -> Vec<u32> {
        let mut calls = vec![0u32; self.layers as usize + 1];
        let mut budget = match retrying {
            Retrying::Budget(retries) => retries,
            _ => u32::MAX,
        };
        let failed = self.call(0, retrying, &mut budget, &mut calls);
        debug_assert!(failed, "the backend fails every call");
        calls
    }

    /// A call arrives at `depth` (0 is the caller's layer, `layers` the backend). Returns true if
    /// it failed, which the backend always does: the question is only how often it is asked.
    fn call(&self, depth: u32, retrying: Retrying, budget: &mut u32, calls: &mut [u32]) -> bool {
        calls[depth as usize] += 1;
        if depth == self.layers {
            return true;
        }
        let attempts = match retrying {
            Retrying::OuterLayerOnly if depth > 0 => 1,
            _ => self.attempts,
        };
        for attempt in 1..=attempts {
            if !self.call(depth + 1, retrying, budget, calls) {
                return false;
            }
            let retries_left = attempt < attempts && *budget > 0;
            if !retries_left {
                break;
            }
            if matches!(retrying, Retrying::Budget(_)) {
                *budget -= 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_layers_of_three_make_twenty_seven() {
        let run = Stack::default().run();
        assert_eq!(run.bottom_calls, 27);
        assert_eq!(run.calls_by_depth, vec![1, 3, 9, 27]);
        assert_eq!(run.bottom_calls_single_layer, 3);
        assert_eq!(run.calls_by_depth_single_layer, vec![1, 3, 3, 3]);
        assert_eq!(run.bottom_calls_with_budget, 3);
    }

    #[test]
    fn every_layer_retrying_makes_a_to_the_l_exactly() {
        for layers in 1..=LAYERS_MAX {
            for attempts in 1..=6 {
                let run = Stack {
                    layers,
                    attempts,
                    retry_budget: 0,
                }
                .run();
                assert_eq!(
                    run.bottom_calls,
                    attempts.pow(layers),
                    "{attempts}^{layers}"
                );
                assert_eq!(run.bottom_calls_single_layer, attempts);
                for (depth, &calls) in run.calls_by_depth.iter().enumerate() {
                    assert_eq!(calls, attempts.pow(depth as u32));
                }
            }
        }
        // The Builders' Library's five-deep stack of three attempts.
        let deep = Stack {
            layers: 5,
            attempts: 3,
            retry_budget: 0,
        };
        assert_eq!(deep.run().bottom_calls, 243);
    }

    #[test]
    fn the_budget_caps_what_it_promises() {
        for layers in 1..=LAYERS_MAX {
            for attempts in 1..=5 {
                for retry_budget in 0..=30 {
                    let run = Stack {
                        layers,
                        attempts,
                        retry_budget,
                    }
                    .run();
                    // One first call plus at most the budget's retries reach the backend; and
                    // the budget never adds calls the layers would not have made.
                    let promised = (1 + retry_budget).min(run.bottom_calls);
                    assert_eq!(run.bottom_calls_with_budget, promised);
                }
            }
        }
    }

    #[test]
    fn knobs_out_of_range_are_clamped() {
        let run = Stack {
            layers: 9,
            attempts: 0,
            retry_budget: 0,
        }
        .run();
        assert_eq!((run.layers, run.attempts, run.bottom_calls), (6, 1, 1));
    }
}
