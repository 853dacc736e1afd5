//! The explorer's report in words, and the counts it is written with: the one wording that
//! `lab explore`, `lab check` and the app's "What could go wrong?" panel share, so all three say
//! the same thing about the same report.

use lab_engine::{PropertyVerdict, Report};

/// A count with its digits grouped by thousands: 10000 as "10,000".
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A count and its noun: "1 fault", "2 faults", "1,200 schedules".
pub fn count(number: u64, one: &str, many: &str) -> String {
    match number {
        1 => format!("1 {one}"),
        _ => format!("{} {many}", thousands(number)),
    }
}

/// The budget searched: "2 faults, 2 preemptions".
pub fn budget(faults_max: u32, preemptions_max: u32) -> String {
    format!(
        "{}, {}",
        count(faults_max.into(), "fault", "faults"),
        count(preemptions_max.into(), "preemption", "preemptions")
    )
}

/// How much was explored: "1,234 schedules, 567 distinct states".
pub fn figures(report: &Report) -> String {
    explored(report.extent.schedules, report.extent.states)
}

/// `figures`, from the two counts (a report that crossed from the explorer's worker).
pub fn explored(schedules: u64, states: u64) -> String {
    format!(
        "{}, {}",
        count(schedules, "schedule", "schedules"),
        count(states, "distinct state", "distinct states")
    )
}

/// What the figures cover: every schedule in the budget, or only those explored before the
/// search was cancelled or reached its limit of engine steps.
pub fn extent(report: &Report, cancelled: bool) -> &'static str {
    covered(report.extent.complete, cancelled)
}

/// `extent`, from whether the search was complete.
pub fn covered(complete: bool, cancelled: bool) -> &'static str {
    match (cancelled, complete) {
        (true, _) => "Cancelled: the figures count what was explored so far",
        (false, true) => "Every schedule within the budget was explored",
        (false, false) => {
            "The search reached its limit of engine steps: the figures are lower bounds"
        }
    }
}

/// One property over every schedule explored: "Every operation is submitted at most once: holds".
pub fn verdict(verdict: &PropertyVerdict) -> String {
    stated(verdict.property.statement(), verdict.holds)
}

/// `verdict`, from the property's statement.
pub fn stated(statement: &str, holds: bool) -> String {
    let word = if holds { "holds" } else { "broken" };
    format!("{statement}: {word}")
}

/// The finding: the shortest counterexample in the engine's words, or that there is none within
/// the budget.
pub fn conclusion(report: &Report) -> String {
    match &report.counterexample {
        Some(example) => format!("{COUNTEREXAMPLE}{}", example.description),
        None => none_within(report.extent.faults_max, report.extent.preemptions_max),
    }
}

/// The conclusion when nothing broke.
pub fn none_within(faults_max: u32, preemptions_max: u32) -> String {
    format!(
        "No counterexample: no schedule within the budget ({}) breaks an invariant.",
        budget(faults_max, preemptions_max)
    )
}

/// What the shortest counterexample's description follows in [`conclusion`].
pub const COUNTEREXAMPLE: &str = "Shortest counterexample: ";

#[cfg(test)]
mod tests {
    use super::*;

    fn report(complete: bool) -> Report {
        Report {
            extent: lab_engine::Extent {
                schedules: 1,
                states: 69_034,
                transitions: 2_000_000,
                complete,
                faults_max: 1,
                preemptions_max: 2,
            },
            properties: Vec::new(),
            counterexample: None,
        }
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(69_034), "69,034");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn counts_take_their_noun() {
        assert_eq!(count(1, "fault", "faults"), "1 fault");
        assert_eq!(count(0, "fault", "faults"), "0 faults");
        assert_eq!(count(1_200, "fault", "faults"), "1,200 faults");
    }

    #[test]
    fn a_report_in_words() {
        assert_eq!(figures(&report(true)), "1 schedule, 69,034 distinct states");
        assert_eq!(
            extent(&report(true), false),
            "Every schedule within the budget was explored"
        );
        assert!(extent(&report(false), false).contains("lower bounds"));
        assert!(extent(&report(true), true).starts_with("Cancelled"));
        assert_eq!(
            conclusion(&report(true)),
            "No counterexample: no schedule within the budget (1 fault, 2 preemptions) breaks an invariant."
        );
    }
}
