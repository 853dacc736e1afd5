//! One row per operation: what the journal says, what the provider holds, what happened outside.
//! Cells that changed at this step are marked, in text as well as colour.

use lab_engine::{JobStatus, LaneKind, World};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RecordTableProps {
    pub world: World,
    /// The state before the current event, to mark what changed.
    pub previous: Option<World>,
    /// The operations of the scenario, in order.
    pub operations: Vec<String>,
    /// The lanes of this workflow, which decide the columns.
    pub lanes: Vec<LaneKind>,
}

/// A status as icon and word; never colour alone.
pub fn status_label(status: Option<JobStatus>) -> (&'static str, &'static str) {
    match status {
        None => ("–", "no row"),
        Some(JobStatus::Pending) => ("◷", "pending"),
        Some(JobStatus::Unknown) => ("?", "unknown"),
        Some(JobStatus::Verified) => ("✓", "verified"),
        Some(JobStatus::Failed) => ("✗", "failed"),
        Some(JobStatus::NeedsReview) => ("⚑", "needs review"),
        Some(JobStatus::Cancelled) => ("⊘", "cancelled"),
    }
}

/// The cells of one operation's row, as text, in column order.
fn cells(world: &World, op: &str, lanes: &[LaneKind]) -> Vec<(String, Option<&'static str>)> {
    let job = world.journal.get(op);
    let (icon, word) = status_label(job.map(|job| job.status));
    let mut cells = vec![
        (word.to_string(), Some(icon)),
        (
            job.map(|job| job.attempts.to_string())
                .unwrap_or_else(|| "–".into()),
            None,
        ),
        (
            job.and_then(|job| job.receipt.clone())
                .unwrap_or_else(|| "–".into()),
            None,
        ),
    ];
    if lanes.contains(&LaneKind::Provider) {
        let held: Vec<&str> = world
            .provider
            .iter()
            .filter(|record| record.operation == op)
            .map(|record| record.receipt.as_str())
            .collect();
        let text = match held.len() {
            0 => "none".to_string(),
            count => format!("{count}: {}", held.join(", ")),
        };
        cells.push((text, None));
    }
    cells
}

fn headers(lanes: &[LaneKind]) -> Vec<&'static str> {
    let mut headers = vec!["Journal", "Attempts", "Receipt"];
    if lanes.contains(&LaneKind::Provider) {
        headers.push("Provider records");
    }
    headers
}

#[component]
pub fn RecordTable(props: &RecordTableProps) -> Html {
    let headers = headers(&props.lanes);
    let rows = props.operations.iter().map(|op| {
        let now = cells(&props.world, op, &props.lanes);
        let before = props
            .previous
            .as_ref()
            .map(|world| cells(world, op, &props.lanes));
        let duplicate = props.world.provider_effects(op) > 1;
        let tds = now.into_iter().enumerate().map(|(index, (text, icon))| {
            let changed = before
                .as_ref()
                .is_some_and(|before| before[index].0 != text);
            let warn = duplicate && headers[index] == "Provider records";
            html! {
                <td class={classes!(changed.then_some("changed"), warn.then_some("duplicate"))}>
                    if let Some(icon) = icon {
                        <span class="status-icon" aria-hidden="true">{ icon }{ " " }</span>
                    }
                    { text }
                    if warn {
                        <span class="warn">{ " ⚠ duplicate" }</span>
                    }
                    if changed {
                        <span class="visually-hidden">{ " (changed)" }</span>
                    }
                </td>
            }
        });
        html! {
            <tr>
                <th scope="row">{ op.clone() }</th>
                { for tds }
            </tr>
        }
    });
    html! {
        <section class="records" aria-labelledby="records-title">
            <h2 id="records-title" class="panel-title">{ "Records" }</h2>
            <div class="table-scroll">
                <table aria-labelledby="records-title">
                    <thead>
                        <tr>
                            <th scope="col">{ "Operation" }</th>
                            { for headers.iter().map(|header| html! { <th scope="col">{ *header }</th> }) }
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_engine::{Engine, Trace};

    fn trace() -> Trace {
        let course = crate::course::course();
        let lesson = course.lesson("lost-reply").expect("lesson exists");
        let variant = lesson.variant("reconcile").expect("variant exists");
        Engine::run(variant.scenario.clone()).expect("runs")
    }

    async fn render(world: World, previous: Option<World>) -> String {
        let props = RecordTableProps {
            world,
            previous,
            operations: vec!["OP-001".into()],
            lanes: vec![LaneKind::Journal, LaneKind::Provider],
        };
        yew::LocalServerRenderer::<RecordTable>::with_props(props)
            .render()
            .await
    }

    #[tokio::test]
    async fn shows_the_lost_reply_state() {
        let trace = trace();
        let lost = trace
            .events
            .iter()
            .find(|event| event.fault.is_some())
            .expect("a fault")
            .index;
        let html = render(
            trace.state_at(lost).clone(),
            Some(trace.state_at(lost - 1).clone()),
        )
        .await;
        assert!(html.contains("pending"), "{html}");
        assert!(html.contains("1: receipt-OP-001"), "{html}");
        assert!(
            html.contains("(changed)"),
            "the provider cell changed: {html}"
        );
    }

    #[tokio::test]
    async fn shows_no_row_before_the_first_event() {
        let html = render(trace().initial.clone(), None).await;
        assert!(html.contains("no row") && html.contains("none"), "{html}");
        assert!(!html.contains("(changed)"));
    }
}
