//! One row per operation: what the journal says, what the provider, the database and each side
//! effect hold. The columns follow the lanes of the workflow. Cells that changed at this step are
//! marked, in text as well as colour; a duplicate says so in words. Each cell reads the world
//! through its indexed lookups by operation (`World::provider_records_of`, `Table::rows_of`,
//! `World::sink_effects`), so a cell costs the same at 10 records as at 10,000.

use std::rc::Rc;

use lab_engine::{Change, JobStatus, Lane, LaneKind, Text, Trace, World};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RecordTableProps {
    /// The run, shown as it stands at `cursor`. Shared, not copied.
    pub trace: Rc<Trace>,
    pub cursor: u32,
    /// Mark the cells the event at the cursor changed.
    #[prop_or(true)]
    pub mark_changes: bool,
    /// The operations of the scenario, in order.
    pub operations: Vec<String>,
    /// The table's name; several tables on one page need different ones.
    #[prop_or(AttrValue::from("Records"))]
    pub title: AttrValue,
}

/// A status as icon and word; never colour alone.
pub fn status_label(status: Option<JobStatus>) -> (&'static str, &'static str) {
    match status {
        None => ("–", "no row"),
        Some(JobStatus::Pending) => ("◷", "pending"),
        Some(JobStatus::Verified) => ("✓", "verified"),
        Some(JobStatus::Failed) => ("✗", "failed"),
        Some(JobStatus::NeedsReview) => ("⚑", "needs review"),
        Some(JobStatus::Unknown) => ("?", "unknown"),
        Some(JobStatus::Cancelled) => ("⊘", "cancelled"),
    }
}

/// One column of the table.
#[derive(Clone, Debug, PartialEq)]
enum Column {
    Journal,
    Attempts,
    Receipt,
    Stages,
    Review,
    Provider,
    Rows,
    Tracker,
    Sink { id: String, label: String },
}

impl Column {
    fn header(&self) -> String {
        match self {
            Column::Journal => "Journal".into(),
            Column::Attempts => "Attempts".into(),
            Column::Receipt => "Receipt".into(),
            Column::Stages => "Stages done".into(),
            Column::Review => "Review item".into(),
            Column::Provider => "Provider records".into(),
            Column::Rows => "Database rows".into(),
            Column::Tracker => "Tracker".into(),
            Column::Sink { label, .. } => label.clone(),
        }
    }
}

/// The columns for a run, left to right: its workflow's lanes, and a review item column when
/// some row of the run is ever handed to a person.
fn columns(trace: &Trace) -> Vec<Column> {
    let lanes = &trace.lanes;
    let has = |kind: LaneKind| lanes.iter().any(|lane| lane.kind == kind);
    let mut columns = Vec::new();
    if has(LaneKind::Journal) {
        columns.extend([Column::Journal, Column::Attempts]);
        if has(LaneKind::Provider) {
            columns.push(Column::Receipt);
        }
        if has(LaneKind::Model) {
            columns.push(Column::Stages);
        }
        if hands_over(trace) {
            columns.push(Column::Review);
        }
    }
    if has(LaneKind::Provider) {
        columns.push(Column::Provider);
    }
    if has(LaneKind::Database) {
        columns.push(Column::Rows);
    }
    if has(LaneKind::Tracker) {
        columns.push(Column::Tracker);
    }
    for lane in lanes.iter().filter(|lane| lane.kind == LaneKind::Sink) {
        columns.push(Column::Sink {
            id: lane.id.clone(),
            label: lane.label.clone(),
        });
    }
    columns
}

/// Whether any event of the run gives a journal row a review item.
fn hands_over(trace: &Trace) -> bool {
    trace
        .events
        .iter()
        .flat_map(|event| &event.changes)
        .any(|change| matches!(change, Change::Job { row } if row.review.is_some()))
}

/// A cell: its text, an icon, and how many effects it counts (more than one is a duplicate).
struct Cell {
    text: String,
    icon: Option<&'static str>,
    effects: u32,
}

fn cell(world: &World, stages: &[String], op: &str, column: &Column) -> Cell {
    let job = world.journal.get(op);
    let plain = |text: String| Cell {
        text,
        icon: None,
        effects: 0,
    };
    match column {
        Column::Journal => {
            let (icon, word) = status_label(job.map(|job| job.status));
            let reason = job
                .and_then(|job| job.reason.clone())
                .map(|reason| format!(" ({reason})"));
            Cell {
                text: format!("{word}{}", reason.unwrap_or_default()),
                icon: Some(icon),
                effects: 0,
            }
        }
        Column::Attempts => plain(
            job.map(|job| job.attempts.to_string())
                .unwrap_or_else(|| "–".into()),
        ),
        Column::Receipt => plain(
            job.and_then(|job| job.receipt.as_ref())
                .map_or_else(|| "–".into(), ToString::to_string),
        ),
        Column::Stages => {
            // The workflow's order, not the alphabet's.
            let stages: Vec<&str> = stages
                .iter()
                .filter(|stage| job.is_some_and(|job| job.stages.contains_key(stage.as_str())))
                .map(String::as_str)
                .collect();
            let failed = job
                .and_then(|job| job.failed_stage.clone())
                .map(|stage| format!("; failed at {stage}"));
            let done = if stages.is_empty() {
                "none".to_string()
            } else {
                stages.join(", ")
            };
            plain(format!("{done}{}", failed.unwrap_or_default()))
        }
        Column::Review => plain(match job.and_then(|job| job.review.as_ref()) {
            None => "–".into(),
            Some(review) => format!(
                "owner: {}; next: {}",
                review.owner.as_deref().unwrap_or("nobody"),
                review.next_action
            ),
        }),
        Column::Provider => {
            let held: Vec<&str> = world
                .provider_records_of(op)
                .map(|record| record.receipt.as_str())
                .collect();
            Cell {
                text: listed(&held),
                icon: None,
                effects: held.len() as u32,
            }
        }
        Column::Rows => {
            let keys: Vec<String> = world
                .table
                .rows_of(op)
                .map(|row| format!("key {}", row.key))
                .collect();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            Cell {
                text: listed(&keys),
                icon: None,
                effects: keys.len() as u32,
            }
        }
        Column::Tracker => {
            let marked = world.tracker.values().any(|operation| operation == op);
            plain(if marked {
                "marked done".into()
            } else {
                "–".into()
            })
        }
        Column::Sink { id, .. } => {
            let count = world.sink_effects(id, op);
            Cell {
                text: if count == 0 {
                    "none".into()
                } else {
                    format!("{count} sent")
                },
                icon: None,
                effects: count,
            }
        }
    }
}

fn listed(items: &[&str]) -> String {
    match items.len() {
        0 => "none".to_string(),
        count => format!("{count}: {}", items.join(", ")),
    }
}

/// Counters that belong to the whole run, not to one operation.
fn totals(world: &World, lanes: &[Lane]) -> Vec<String> {
    let mut totals = Vec::new();
    if lanes.iter().any(|lane| lane.kind == LaneKind::Model) {
        totals.push(format!("Model calls: {}", world.counts.model_calls));
    }
    if lanes.iter().any(|lane| lane.kind == LaneKind::Counter) {
        totals.push(format!("Progress counter: {} done", world.counts.progress));
    }
    if world.counts.deepest_calls > 1 {
        totals.push(format!(
            "Calls that reached the provider: {}",
            world.counts.deepest_calls
        ));
    }
    if !world.counts.cancelled.is_empty() {
        let workers: Vec<&str> = world
            .counts
            .cancelled
            .iter()
            .filter_map(|&worker| world.workers.get(worker as usize))
            .map(|worker| worker.name.as_str())
            .collect();
        totals.push(format!("Cancel flag raised for: {}", workers.join(", ")));
    }
    if !world.table.dedup.is_empty() {
        let keys: Vec<&str> = world.table.dedup.iter().map(Text::as_str).collect();
        totals.push(format!("Tracking table: {}", keys.join(", ")));
    }
    totals
}

#[component]
pub fn RecordTable(props: &RecordTableProps) -> Html {
    let trace = &props.trace;
    let world = trace.state_at(props.cursor);
    let previous =
        (props.mark_changes && props.cursor > 0).then(|| trace.state_at(props.cursor - 1));
    let (lanes, stages) = (&trace.lanes, &trace.stages);
    let columns = columns(trace);
    let rows = props.operations.iter().map(|op| {
        let tds = columns.iter().map(|column| {
            let now = cell(&world, stages, op, column);
            let changed = previous.as_ref().is_some_and(|before| cell(before, stages, op, column).text != now.text);
            let duplicate = now.effects > 1;
            html! {
                <td class={classes!(changed.then_some("changed"), duplicate.then_some("duplicate"))}>
                    if let Some(icon) = now.icon {
                        <span class="status-word">
                            <span class="status-icon" aria-hidden="true">{ icon }{ " " }</span>
                            { now.text }
                        </span>
                    } else {
                        { now.text }
                    }
                    if duplicate {
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
    let totals = totals(&world, lanes);
    let title_id = format!(
        "{}-title",
        props
            .title
            .to_lowercase()
            .replace(|c: char| !c.is_alphanumeric(), "-")
    );
    html! {
        <section class="records" aria-labelledby={title_id.clone()}>
            <h2 id={title_id.clone()} class="panel-title">{ props.title.clone() }</h2>
            <div class="table-scroll" tabindex="0" role="group" aria-labelledby={title_id.clone()}>
                <table aria-labelledby={title_id.clone()}>
                    <thead>
                        <tr>
                            <th scope="col">{ "Operation" }</th>
                            { for columns.iter().map(|column| html! { <th scope="col">{ column.header() }</th> }) }
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            if !totals.is_empty() {
                <ul class="totals" aria-label="Totals">
                    { for totals.into_iter().map(|total| html! { <li>{ total }</li> }) }
                </ul>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_engine::{Engine, Trace};

    fn scenario(lesson: &str, design: &str) -> lab_engine::Scenario {
        let course = crate::course::course();
        let lesson = course.lesson(lesson).expect("lesson exists");
        let design = lesson.design(design).expect("design exists");
        lab_engine::Scenario::clone(&design.scenario)
    }

    fn trace() -> Trace {
        Engine::run(scenario("lost-reply", "reconcile")).expect("runs")
    }

    async fn render(trace: &Trace, cursor: u32, mark_changes: bool) -> String {
        render_operations(trace, cursor, mark_changes, &["OP-001"]).await
    }

    async fn render_operations(
        trace: &Trace,
        cursor: u32,
        mark_changes: bool,
        operations: &[&str],
    ) -> String {
        let props = RecordTableProps {
            trace: std::rc::Rc::new(trace.clone()),
            cursor,
            mark_changes,
            operations: operations.iter().map(|op| op.to_string()).collect(),
            title: "Records".into(),
        };
        yew::LocalServerRenderer::<RecordTable>::with_props(props)
            .render()
            .await
    }

    #[tokio::test]
    async fn shows_the_lost_reply_state() {
        let trace = trace();
        // The lesson loses OP-001's request, then OP-002's reply: the provider committed OP-002.
        let lost = trace
            .events
            .iter()
            .find(|event| event.fault == Some(lab_engine::FaultKind::LoseReply))
            .expect("a lost reply")
            .index;
        let html = render_operations(&trace, lost, true, &["OP-002"]).await;
        assert!(html.contains("pending"), "{html}");
        assert!(html.contains("1: receipt-OP-002"), "{html}");
        assert!(
            html.contains("(changed)"),
            "the provider cell changed: {html}"
        );
    }

    #[tokio::test]
    async fn shows_no_row_before_the_first_event() {
        let trace = trace();
        let html = render(&trace, 0, true).await;
        assert!(html.contains("no row") && html.contains("none"), "{html}");
        assert!(!html.contains("(changed)"));
    }

    /// The stages read in the order the trace gives, not the alphabet's
    /// ("downstream_write" before "model_call").
    #[tokio::test]
    async fn stages_follow_the_traces_order() {
        let trace = Engine::run(scenario("resume-stage", "resume")).expect("runs");
        let last = trace.state_at(trace.len());
        let op = last.journal.keys().next().expect("a journal row").clone();
        let html = render_operations(&trace, trace.len(), false, &[&op]).await;
        assert!(
            html.contains("model_call, downstream_write, notification"),
            "{html}"
        );
    }

    /// The tracker column reads the operation the engine recorded, also under a key that does
    /// not end with the operation's id (an auto-increment key, `notify:seq-1`).
    #[tokio::test]
    async fn the_tracker_column_reads_the_recorded_operation() {
        let mut keyed = scenario("side-effect-keys", "tracker");
        keyed.switches.key = lab_engine::KeySource::AutoIncrement;
        let op = keyed.operations[0].id.clone();
        let trace = Engine::run(keyed).expect("runs");
        let last = trace.state_at(trace.len());
        assert!(
            last.tracker.keys().all(|key| !key.ends_with(&op)),
            "{:?}",
            last.tracker
        );
        let html = render_operations(&trace, trace.len(), false, &[&op]).await;
        assert!(html.contains("marked done"), "{html}");
    }

    #[test]
    fn columns_follow_the_lanes() {
        let headers: Vec<String> = columns(&trace()).iter().map(Column::header).collect();
        assert_eq!(
            headers,
            vec!["Journal", "Attempts", "Receipt", "Provider records"]
        );
    }

    /// A run that hands a row to a person gets a review item column; the row shows who owns the
    /// item and what they may do next, and the row's status is `unknown` while the cancelled
    /// submit is still in flight.
    #[tokio::test]
    async fn a_handed_over_row_shows_its_review_item() {
        let trace = Engine::run(scenario("cancel-and-review", "cancel-in-flight")).expect("runs");
        let headers: Vec<String> = columns(&trace).iter().map(Column::header).collect();
        assert_eq!(
            headers,
            vec![
                "Journal",
                "Attempts",
                "Receipt",
                "Review item",
                "Provider records"
            ]
        );
        let cancel = trace
            .events
            .iter()
            .position(|event| event.fault == Some(lab_engine::FaultKind::Cancel))
            .expect("the design cancels") as u32
            + 1;
        let html = render_operations(&trace, cancel, false, &["OP-401"]).await;
        assert!(
            html.contains("unknown (cancelled with a submit in flight"),
            "{html}"
        );
        assert!(
            html.contains("owner: operator; next: look OP-401 up under its own key"),
            "{html}"
        );
        let html = render_operations(&trace, trace.len(), false, &["OP-401"]).await;
        assert!(html.contains("verified"), "{html}");
        assert!(!html.contains("owner: operator"), "{html}");
    }
}
