//! `make bench`: the explorer over the largest lesson scenario (lesson 17's safe design, two
//! workers), at K=1 and K=2 injected faults with P=2 preemptions, so the growth is visible.
//! Prints figures (the fastest of a few runs); asserts nothing about speed.

use std::time::Instant;

use lab_engine::{Budget, Explorer, Scenario};

// The bench reads only a design's scenario of what the tests read.
#[allow(dead_code)]
#[path = "../tests/lessons/mod.rs"]
mod lessons;

/// Lesson 17's `safe` design: the lesson's scenario with the design's tables merged in.
fn largest() -> Scenario {
    lessons::lessons()
        .into_iter()
        .find(|design| design.name == "review / safe")
        .expect("lesson 17's safe design")
        .scenario
}

/// Runs of each exploration; the fastest counts (the first also warms caches and the
/// allocator), so a busy machine disturbs the figure less.
const RUNS: u32 = 5;

fn main() {
    let scenario = largest();
    println!("explorer over lesson 17 / safe (every fault kind), fastest of {RUNS} runs:");
    // A shared machine's load moves the figures: say it beside them (Linux only).
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let minute = load.split_whitespace().next().unwrap_or("?");
        println!("  (load average over the last minute: {minute})");
    }
    for faults_max in [1, 2] {
        let budget = Budget {
            faults_max,
            preemptions_max: 2,
            ..Budget::default()
        };
        let mut fastest = f64::INFINITY;
        let mut report = None;
        for _ in 0..RUNS {
            let started = Instant::now();
            let found = Explorer::run(scenario.clone(), budget.clone()).expect("valid");
            fastest = fastest.min(started.elapsed().as_secs_f64());
            report = Some(found);
        }
        let report = report.expect("at least one run");
        let seconds = fastest;
        println!(
            "  K={faults_max} P=2: {:>9} schedules, {:>8} states, {:>8} transitions in {:>8.1} ms ({:.0} schedules/s, {:.0} transitions/s){}",
            report.extent.schedules,
            report.extent.states,
            report.extent.transitions,
            seconds * 1000.0,
            report.extent.schedules as f64 / seconds,
            report.extent.transitions as f64 / seconds,
            if report.extent.complete { "" } else { ", CUT SHORT" }
        );
        split(&scenario, &budget, &report, seconds);
    }
}

/// Whether splitting the search across two Web Workers (`Explorer::part`, by the worker that
/// steps first) would pay: each part's time and transitions beside the whole search's. Two
/// workers take at least the slower part's time (plus starting the second module twice); the
/// parts together do more work than the whole, as each explores the states both reach.
fn split(scenario: &Scenario, budget: &Budget, whole: &lab_engine::Report, whole_seconds: f64) {
    const PARTS: u8 = 2;
    let mut parts = Vec::new();
    for part in 0..PARTS {
        let mut fastest = f64::INFINITY;
        let mut report = None;
        for _ in 0..RUNS {
            let started = Instant::now();
            let mut explorer =
                Explorer::part(scenario.clone(), budget.clone(), part, PARTS).expect("valid");
            while !explorer.advance(u32::MAX) {}
            fastest = fastest.min(started.elapsed().as_secs_f64());
            report = Some(explorer.report());
        }
        parts.push((report.expect("at least one run"), fastest));
    }
    let schedules: u64 = parts
        .iter()
        .map(|(report, _)| report.extent.schedules)
        .sum();
    let transitions: u64 = parts
        .iter()
        .map(|(report, _)| report.extent.transitions)
        .sum();
    let states: u64 = parts.iter().map(|(report, _)| report.extent.states).sum();
    let slowest = parts
        .iter()
        .map(|(_, seconds)| *seconds)
        .fold(0.0, f64::max);
    let each: Vec<String> = parts
        .iter()
        .map(|(report, seconds)| {
            format!(
                "{} transitions in {:.1} ms",
                report.extent.transitions,
                seconds * 1000.0
            )
        })
        .collect();
    println!(
        "    split in {PARTS} by the first worker to step: {}; schedules {} (the whole: {}); states {} (the whole's distinct: {}); work {:.1}% of the whole's transitions; two workers would take at least {:.0}% of the whole's time ({:.1} ms of {:.1})",
        each.join(", "),
        schedules,
        whole.extent.schedules,
        states,
        whole.extent.states,
        100.0 * transitions as f64 / whole.extent.transitions as f64,
        100.0 * slowest / whole_seconds,
        slowest * 1000.0,
        whole_seconds * 1000.0,
    );
}
