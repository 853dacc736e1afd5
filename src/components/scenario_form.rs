//! The sandbox's scenario as forms: workflow, operations (with a generator for many records),
//! workers and their runs, design switches, provider, retry policy, faults, schedule and seed.
//! Every choice a form offers comes from the engine's declarations (its workflows, each
//! workflow's switches and fault table), so the forms can only build what the engine accepts.
//! Each change emits the whole next scenario; the page checks it and rewrites the TOML text.

use std::sync::Arc;

use lab_course::names::{by_name, name_of};
use lab_course::payload_text;
use lab_engine::{
    Action, Backoff, BatchSpec, CancelCheck, FailureClass, FaultKind, FaultRule, Jitter, KeySource,
    Operation, RejectStatus, Run, Scenario, Schedule, WorkerPlan, WorkflowKind, ATTEMPTS_MAX,
    LAYERS_MAX, STEP_CAP_MAX, TICKS_MAX, WORKERS_MAX,
};
use serde::Serialize;
use yew::prelude::*;

use crate::components::fields::{CheckField, NumberField, SelectField, TextField};
use crate::format::thousands;

/// How many operations and workers a page of the forms lists (thousands of inputs at once would
/// make the page slow); Previous and Next page, or a number to go to, reach the rest.
pub const LISTED_MAX: usize = 20;
/// How many runs a worker's run list shows as text; past this, the TOML text edits them.
const RUNS_LISTED_MAX: usize = 50;
/// The largest batch the generator makes.
pub const RECORDS_MAX: u64 = 10_000;

/// The value a scenario file's name stands for (a select offers only names of values).
fn from_name<T: serde::de::DeserializeOwned>(name: &str) -> Option<T> {
    by_name("choice", name).ok()
}

/// Options for a select, each value shown as its name with spaces.
fn options<T: Serialize>(values: &[T]) -> Vec<(String, String)> {
    values
        .iter()
        .map(|value| {
            let name = name_of(value);
            (name.clone(), name.replace('_', " "))
        })
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct ScenarioFormProps {
    pub scenario: Arc<Scenario>,
    /// The next scenario, after one change.
    pub onedit: Callback<Scenario>,
    /// The TOML text has errors: the forms wait until it reads again.
    pub disabled: bool,
}

/// A callback that applies one change to a copy of the scenario and emits it.
fn edit<T: 'static>(
    props: &ScenarioFormProps,
    apply: impl Fn(&mut Scenario, T) + 'static,
) -> Callback<T> {
    let scenario = Arc::clone(&props.scenario);
    let onedit = props.onedit.clone();
    Callback::from(move |value: T| {
        let mut next = (*scenario).clone();
        apply(&mut next, value);
        onedit.emit(next);
    })
}

/// Faults that no longer apply are dropped when the workflow changes: each workflow declares its
/// own fault table.
fn set_workflow(scenario: &mut Scenario, workflow: WorkflowKind) {
    scenario.workflow = workflow;
    if !scenario.switches.key.allowed_in(workflow) {
        scenario.switches.key = KeySource::SourceId;
    }
    scenario
        .faults
        .retain(|rule| workflow.faults_at(rule.at).contains(&rule.fault));
}

/// `count` operations: the first ones kept, new ones named after their number with a run each on
/// the first worker; runs of removed operations removed.
fn set_operation_count(scenario: &mut Scenario, count: usize) {
    scenario.operations.truncate(count);
    let mut number = scenario.operations.len();
    while scenario.operations.len() < count {
        number += 1;
        let id = format!("OP-{number:03}");
        if scenario
            .operations
            .iter()
            .any(|operation| operation.id == id)
        {
            continue;
        }
        scenario.operations.push(Operation {
            id: id.clone(),
            ..Operation::default()
        });
        if let Some(worker) = scenario.workers.first_mut() {
            worker.runs.push(Run::of(&id));
        }
    }
    let known: std::collections::BTreeSet<String> = scenario
        .operations
        .iter()
        .map(|operation| operation.id.clone())
        .collect();
    for worker in &mut scenario.workers {
        worker.runs.retain(|run| known.contains(&run.op));
    }
}

/// `count` workers: new ones named worker-N with no runs yet.
fn set_worker_count(scenario: &mut Scenario, count: usize) {
    scenario.workers.truncate(count.max(1));
    let mut number = scenario.workers.len();
    while scenario.workers.len() < count {
        number += 1;
        let name = format!("worker-{number}");
        if scenario.workers.iter().any(|worker| worker.name == name) {
            continue;
        }
        scenario.workers.push(WorkerPlan {
            name,
            runs: Vec::new(),
        });
    }
}

/// A generated batch in place of the operations and workers; the design, provider, retry policy,
/// faults and seed stay.
fn generate(scenario: &mut Scenario, records: u32, workers: u32) {
    let batch = BatchSpec {
        workflow: scenario.workflow,
        records,
        workers,
        seed: scenario.seed,
        faults: Vec::new(),
    }
    .scenario();
    scenario.operations = batch.operations;
    scenario.workers = batch.workers;
    scenario.schedule = batch.schedule;
    scenario.step_cap = batch.step_cap;
    let names: Vec<String> = scenario.workers.iter().map(|w| w.name.clone()).collect();
    for rule in &mut scenario.faults {
        if rule
            .worker
            .as_ref()
            .is_some_and(|name| !names.contains(name))
        {
            rule.worker = None;
        }
    }
}

/// A fault that applies in this workflow: the first its table declares, at its first occurrence.
fn first_fault(workflow: WorkflowKind) -> Option<FaultRule> {
    let (at, faults) = *workflow.fault_table().first()?;
    Some(FaultRule {
        fault: *faults.first()?,
        at,
        nth: Some(1),
        worker: None,
        chance_permille: None,
    })
}

#[derive(Properties, PartialEq)]
struct PagerProps {
    /// What the list holds, plural and capitalised: "Operations".
    what: AttrValue,
    /// What one item is called, for "Go to operation".
    one: AttrValue,
    total: usize,
    /// The first item listed (0-based).
    first: usize,
    /// The first item of the page to show.
    onfirst: Callback<usize>,
}

/// Pages of a long list: where the page is ("Operations 21-40 of 10,000"), Previous and Next
/// page, and the number of an item to go to its page. Every control is a real button or input.
#[component]
fn Pager(props: &PagerProps) -> Html {
    let (total, first) = (props.total, props.first);
    if total <= LISTED_MAX {
        return html! {};
    }
    let last = (first + LISTED_MAX).min(total);
    let lower = props.what.to_lowercase();
    let go = |to: usize| {
        let onfirst = props.onfirst.clone();
        Callback::from(move |_: MouseEvent| onfirst.emit(to))
    };
    let ongoto = {
        let onfirst = props.onfirst.clone();
        Callback::from(move |number: u64| {
            onfirst.emit((number as usize - 1) / LISTED_MAX * LISTED_MAX)
        })
    };
    html! {
        <div class="pager" role="group" aria-label={format!("Pages of {lower}")}>
            <p class="pager-where" role="status">{ format!("{} {}–{} of {}", props.what, thousands(first as u64 + 1), thousands(last as u64), thousands(total as u64)) }</p>
            <button type="button" aria-label={format!("Previous page of {lower}")} disabled={first == 0}
                onclick={go(first.saturating_sub(LISTED_MAX))}>{ "Previous page" }</button>
            <button type="button" aria-label={format!("Next page of {lower}")} disabled={last >= total}
                onclick={go(last)}>{ "Next page" }</button>
            <NumberField label={format!("Go to {}", props.one)} value={first as u64 + 1} min={1} max={total as u64} onchange={ongoto} />
        </div>
    }
}

/// The first item of the page `first` asks for, in a list that may have shrunk since.
fn page_start(first: usize, total: usize) -> usize {
    first.min(total.saturating_sub(1)) / LISTED_MAX * LISTED_MAX
}

#[component]
pub fn ScenarioForm(props: &ScenarioFormProps) -> Html {
    let scenario = &props.scenario;
    let workflow = scenario.workflow;
    let operations_first = use_state(|| 0usize);
    let workers_first = use_state(|| 0usize);
    let pager = |state: &UseStateHandle<usize>| {
        let state = state.clone();
        Callback::from(move |first: usize| state.set(first))
    };
    let operations = page_start(*operations_first, scenario.operations.len());
    let workers = page_start(*workers_first, scenario.workers.len());
    html! {
        <form class="scenario-form" aria-label="Scenario forms" onsubmit={Callback::from(|event: SubmitEvent| event.prevent_default())}>
            <fieldset disabled={props.disabled}>
                <legend class="visually-hidden">{ "Scenario" }</legend>
                if props.disabled {
                    <p class="hint">{ "The forms wait until the TOML text reads again: fix its error, or undo your typing." }</p>
                }
                { workflow_fields(props) }
                { operation_fields(props, operations, pager(&operations_first)) }
                { worker_fields(props, workers, pager(&workers_first)) }
                <fieldset class="form-section">
                    <legend>{ "Design switches" }</legend>
                    { for workflow.switches().iter().map(|&switch| html! {
                        <CheckField label={switch.label()} checked={switch.get(scenario)}
                            onchange={edit(props, move |next, on: bool| *next = switch.set(next, on))} />
                    }) }
                </fieldset>
                { design_fields(props) }
                { provider_fields(props) }
                { retry_fields(props) }
                { fault_fields(props) }
                { schedule_fields(props) }
            </fieldset>
        </form>
    }
}

fn workflow_fields(props: &ScenarioFormProps) -> Html {
    html! {
        <fieldset class="form-section">
            <legend>{ "Workflow" }</legend>
            <SelectField label="Workflow every worker runs" options={options(&WorkflowKind::ALL)}
                value={name_of(&props.scenario.workflow)}
                onchange={edit(props, |next, name: String| {
                    if let Some(workflow) = from_name(&name) {
                        set_workflow(next, workflow);
                    }
                })} />
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
struct GeneratorProps {
    /// Records and workers.
    ongenerate: Callback<(u32, u32)>,
}

/// Many records at once: the engine's batch generator (`lab generate`).
#[component]
fn Generator(props: &GeneratorProps) -> Html {
    let records = use_state(|| 1_000u64);
    let workers = use_state(|| 2u64);
    let onrecords = {
        let records = records.clone();
        Callback::from(move |value| records.set(value))
    };
    let onworkers = {
        let workers = workers.clone();
        Callback::from(move |value| workers.set(value))
    };
    let onclick = {
        let ongenerate = props.ongenerate.clone();
        let (records, workers) = (*records as u32, *workers as u32);
        Callback::from(move |_: MouseEvent| ongenerate.emit((records, workers)))
    };
    html! {
        <div class="generator" role="group" aria-label="Generate records">
            <NumberField label="Records to generate" value={*records} min={1} max={RECORDS_MAX} onchange={onrecords} />
            <NumberField label="Workers sharing them" value={*workers} min={1} max={u64::from(WORKERS_MAX)} onchange={onworkers} />
            <button type="button" {onclick}>{ "Generate records" }</button>
        </div>
    }
}

fn operation_fields(props: &ScenarioFormProps, first: usize, onfirst: Callback<usize>) -> Html {
    let operations = &props.scenario.operations;
    let listed = operations.iter().enumerate().skip(first).take(LISTED_MAX).map(|(index, operation)| {
        let old = operation.id.clone();
        let onid = edit(props, move |next, id: String| {
            next.operations[index].id = id.clone();
            for run in next.workers.iter_mut().flat_map(|worker| &mut worker.runs) {
                if run.op == old {
                    run.op = id.clone();
                }
            }
        });
        html! {
            <li key={index}>
                <TextField label={format!("Operation {} id", index + 1)} value={operation.id.clone()} onchange={onid} />
                <PayloadField label={format!("Operation {} payload", index + 1)}
                    value={payload_text::write_payload(&operation.payload)}
                    onchange={edit(props, move |next, payload| next.operations[index].payload = payload)} />
            </li>
        }
    });
    let ongenerate = edit(props, |next, (records, workers): (u32, u32)| {
        generate(next, records, workers)
    });
    html! {
        <fieldset class="form-section">
            <legend>{ "Operations" }</legend>
            <NumberField label="Number of operations" value={operations.len() as u64} min={1} max={RECORDS_MAX}
                onchange={edit(props, |next, count: u64| set_operation_count(next, count as usize))} />
            <Generator {ongenerate} />
            <Pager what="Operations" one="operation" total={operations.len()} {first} {onfirst} />
            <ol class="form-list" aria-label="Operations" start={(first + 1).to_string()}>{ for listed }</ol>
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
struct PayloadFieldProps {
    label: AttrValue,
    value: AttrValue,
    onchange: Callback<lab_engine::Payload>,
}

/// A payload as `amount = 5, user = "ann"`; text that is not one says why and changes nothing.
#[component]
fn PayloadField(props: &PayloadFieldProps) -> Html {
    let problem = use_state(|| None::<String>);
    let onchange = {
        let onchange = props.onchange.clone();
        let problem = problem.clone();
        Callback::from(
            move |text: String| match payload_text::parse_payload(&text) {
                Ok(payload) => {
                    problem.set(None);
                    onchange.emit(payload);
                }
                Err(error) => problem.set(Some(format!(
                    "Not a payload ({error}); write fields like amount = 5, user = \"ann\"."
                ))),
            },
        )
    };
    html! {
        <div class="payload-field">
            <TextField label={props.label.clone()} value={props.value.clone()} {onchange} />
            if let Some(problem) = &*problem {
                <span class="field-problem" role="alert">{ problem.clone() }</span>
            }
        </div>
    }
}

fn worker_fields(props: &ScenarioFormProps, first: usize, onfirst: Callback<usize>) -> Html {
    let workers = &props.scenario.workers;
    let listed = workers.iter().enumerate().skip(first).take(LISTED_MAX).map(|(index, worker)| {
        let runs = if worker.runs.len() <= RUNS_LISTED_MAX {
            let text: Vec<&str> = worker.runs.iter().map(|run| run.op.as_str()).collect();
            html! {
                <TextField label={format!("Worker {} runs (operation ids, in order)", index + 1)} value={text.join(", ")}
                    onchange={edit(props, move |next, text: String| {
                        next.workers[index].runs = text.split(',').map(str::trim).filter(|op| !op.is_empty()).map(Run::of).collect();
                    })} />
            }
        } else {
            html! { <p class="hint">{ format!("{} runs: edit them in the TOML text.", worker.runs.len()) }</p> }
        };
        html! {
            <li key={index}>
                <TextField label={format!("Worker {} name", index + 1)} value={worker.name.clone()}
                    onchange={edit(props, move |next, name: String| next.workers[index].name = name)} />
                { runs }
            </li>
        }
    });
    html! {
        <fieldset class="form-section">
            <legend>{ "Workers and their runs" }</legend>
            <NumberField label="Number of workers" value={workers.len() as u64} min={1} max={u64::from(WORKERS_MAX)}
                onchange={edit(props, |next, count: u64| set_worker_count(next, count as usize))} />
            <Pager what="Workers" one="worker" total={workers.len()} {first} {onfirst} />
            <ol class="form-list" aria-label="Workers" start={(first + 1).to_string()}>{ for listed }</ol>
            <p class="hint">{ "A run's own payload, start tick or reused key: edit it in the TOML text." }</p>
        </fieldset>
    }
}

/// The design's choices that are not on or off: where the key comes from, where workers read their
/// cancel flag (before every step, or only where the code checks it), and who owns the review
/// items the design raises.
fn design_fields(props: &ScenarioFormProps) -> Html {
    let design = &props.scenario.switches;
    let keys: Vec<KeySource> = KeySource::ALL
        .into_iter()
        .filter(|key| key.allowed_in(props.scenario.workflow))
        .collect();
    html! {
        <fieldset class="form-section">
            <legend>{ "Design" }</legend>
            <SelectField label="Idempotency key comes from" options={options(&keys)} value={name_of(&design.key)}
                onchange={edit(props, |next, name: String| if let Some(key) = from_name(&name) { next.switches.key = key })} />
            <SelectField label="Workers read their cancel flag" options={options(&CancelCheck::ALL)} value={name_of(&design.cancel_check)}
                onchange={edit(props, |next, name: String| if let Some(check) = from_name(&name) { next.switches.cancel_check = check })} />
            <TextField label="Review items are owned by (empty: nobody)" value={design.review_owner.clone().unwrap_or_default()}
                onchange={edit(props, |next, owner: String| {
                    let owner = owner.trim();
                    next.switches.review_owner = (!owner.is_empty()).then(|| owner.to_string());
                })} />
        </fieldset>
    }
}

fn provider_fields(props: &ScenarioFormProps) -> Html {
    let provider = &props.scenario.provider;
    html! {
        <fieldset class="form-section">
            <legend>{ "Provider" }</legend>
            <SelectField label="Status of a rejected reused key" options={options(&RejectStatus::ALL)} value={name_of(&provider.reject_status)}
                onchange={edit(props, |next, name: String| if let Some(status) = from_name(&name) { next.provider.reject_status = status })} />
            <NumberField label="Keys forgotten after (ticks; 0 keeps them)" value={u64::from(provider.retention_ticks)} min={0} max={u64::from(TICKS_MAX)}
                onchange={edit(props, |next, ticks: u64| next.provider.retention_ticks = ticks as u32)} />
            <NumberField label="Lookups stale for (ticks; 0 is authoritative)" value={u64::from(provider.lookup_stale_ticks)} min={0} max={u64::from(TICKS_MAX)}
                onchange={edit(props, |next, ticks: u64| next.provider.lookup_stale_ticks = ticks as u32)} />
            <CheckField label="Refuse a request without a key (400)" checked={provider.require_key}
                onchange={edit(props, |next, on: bool| next.provider.require_key = on)} />
        </fieldset>
    }
}

fn retry_fields(props: &ScenarioFormProps) -> Html {
    let retry = &props.scenario.switches.retry;
    let ticks = |label: &'static str, value: u32, set: fn(&mut Scenario, u32)| {
        html! {
            <NumberField {label} value={u64::from(value)} min={0} max={u64::from(TICKS_MAX)}
                onchange={edit(props, move |next, ticks: u64| set(next, ticks as u32))} />
        }
    };
    let eligible = FailureClass::ALL.iter().map(|&class| {
        html! {
            <CheckField label={format!("Retry {}", name_of(&class).replace('_', " "))} checked={retry.eligible.contains(&class)}
                onchange={edit(props, move |next, on: bool| {
                    let eligible = &mut next.switches.retry.eligible;
                    eligible.retain(|each| *each != class);
                    if on {
                        eligible.push(class);
                        eligible.sort();
                    }
                })} />
        }
    });
    html! {
        <fieldset class="form-section">
            <legend>{ "Retry policy" }</legend>
            <NumberField label="Attempts in all" value={u64::from(retry.attempts_max)} min={1} max={u64::from(ATTEMPTS_MAX)}
                onchange={edit(props, |next, attempts: u64| next.switches.retry.attempts_max = attempts as u32)} />
            <NumberField label="Nested retry layers" value={u64::from(retry.layers)} min={1} max={u64::from(LAYERS_MAX)}
                onchange={edit(props, |next, layers: u64| next.switches.retry.layers = layers as u32)} />
            { ticks("First delay (ticks)", retry.delay_base_ticks, |next, ticks| next.switches.retry.delay_base_ticks = ticks) }
            { ticks("Largest delay (ticks)", retry.delay_cap_ticks, |next, ticks| next.switches.retry.delay_cap_ticks = ticks) }
            { ticks("Deadline (ticks; 0 for none)", retry.deadline_ticks, |next, ticks| next.switches.retry.deadline_ticks = ticks) }
            <SelectField label="Backoff" options={options(&Backoff::ALL)} value={name_of(&retry.backoff)}
                onchange={edit(props, |next, name: String| if let Some(backoff) = from_name(&name) { next.switches.retry.backoff = backoff })} />
            <SelectField label="Jitter" options={options(&Jitter::ALL)} value={name_of(&retry.jitter)}
                onchange={edit(props, |next, name: String| if let Some(jitter) = from_name(&name) { next.switches.retry.jitter = jitter })} />
            { for eligible }
        </fieldset>
    }
}

fn fault_fields(props: &ScenarioFormProps) -> Html {
    let scenario = &props.scenario;
    let workflow = scenario.workflow;
    // Only the faults this workflow declares somewhere, and for each only where it declares it.
    let kinds: Vec<FaultKind> = FaultKind::ALL
        .into_iter()
        .filter(|&fault| workflow.actions_for(fault).next().is_some())
        .collect();
    let mut workers = vec![(String::new(), "any worker".to_string())];
    workers.extend(
        scenario
            .workers
            .iter()
            .map(|worker| (worker.name.clone(), worker.name.clone())),
    );
    let rules = scenario.faults.iter().enumerate().map(|(index, rule)| {
        let number = index + 1;
        let actions: Vec<Action> = workflow.actions_for(rule.fault).collect();
        let when = if rule.nth.is_some() { "nth" } else { "chance" };
        let onremove = {
            let remove = edit(props, move |next, ()| {
                next.faults.remove(index);
            });
            Callback::from(move |_: MouseEvent| remove.emit(()))
        };
        html! {
            <li>
                <SelectField label={format!("Fault {number}")} options={options(&kinds)} value={name_of(&rule.fault)}
                    onchange={edit(props, move |next, name: String| {
                        if let Some(fault) = from_name::<FaultKind>(&name) {
                            let rule = &mut next.faults[index];
                            rule.fault = fault;
                            if !next.workflow.faults_at(rule.at).contains(&fault) {
                                rule.at = next.workflow.actions_for(fault).next().unwrap_or(rule.at);
                            }
                        }
                    })} />
                <SelectField label={format!("Fault {number} strikes at")}
                    options={actions.iter().map(|action| (name_of(action), name_of(action))).collect::<Vec<_>>()}
                    value={name_of(&rule.at)}
                    onchange={edit(props, move |next, name: String| {
                        if let Some(at) = from_name::<Action>(&name) {
                            next.faults[index].at = at;
                        }
                    })} />
                <SelectField label={format!("Fault {number} counts occurrences of")} options={workers.clone()}
                    value={rule.worker.clone().unwrap_or_default()}
                    onchange={edit(props, move |next, name: String| next.faults[index].worker = (!name.is_empty()).then_some(name))} />
                <SelectField label={format!("Fault {number} strikes")}
                    options={vec![("nth".to_string(), "at one occurrence".to_string()), ("chance".to_string(), "by chance, at every occurrence".to_string())]}
                    value={when}
                    onchange={edit(props, move |next, when: String| {
                        let rule = &mut next.faults[index];
                        if when == "nth" {
                            rule.nth = Some(rule.nth.unwrap_or(1));
                            rule.chance_permille = None;
                        } else {
                            rule.nth = None;
                            rule.chance_permille = Some(rule.chance_permille.unwrap_or(100));
                        }
                    })} />
                if let Some(nth) = rule.nth {
                    <NumberField label={format!("Fault {number} occurrence")} value={u64::from(nth)} min={1} max={u64::from(u32::MAX)}
                        onchange={edit(props, move |next, nth: u64| next.faults[index].nth = Some(nth as u32))} />
                } else {
                    <NumberField label={format!("Fault {number} chance (per thousand)")} value={u64::from(rule.chance_permille.unwrap_or(0))} min={0} max={1000}
                        onchange={edit(props, move |next, permille: u64| next.faults[index].chance_permille = Some(permille as u16))} />
                }
                <button type="button" onclick={onremove}>{ format!("Remove fault {number}") }</button>
            </li>
        }
    });
    let onadd = {
        let add = edit(props, |next, ()| {
            if let Some(rule) = first_fault(next.workflow) {
                next.faults.push(rule);
            }
        });
        Callback::from(move |_: MouseEvent| add.emit(()))
    };
    html! {
        <fieldset class="form-section">
            <legend>{ "Faults" }</legend>
            if scenario.faults.is_empty() {
                <p class="hint">{ "No faults planned." }</p>
            }
            <ol class="form-list" aria-label="Faults">{ for rules }</ol>
            <button type="button" onclick={onadd} disabled={kinds.is_empty()}>{ "Add a fault" }</button>
        </fieldset>
    }
}

fn schedule_fields(props: &ScenarioFormProps) -> Html {
    let scenario = &props.scenario;
    let kinds = Schedule::ALL;
    let kind_name = |schedule: &Schedule| {
        serde_json::to_value(schedule)
            .ok()
            .and_then(|value| {
                value
                    .get("kind")
                    .and_then(|kind| kind.as_str().map(str::to_string))
            })
            .unwrap_or_default()
    };
    let options: Vec<(String, String)> = kinds
        .iter()
        .map(|kind| (kind_name(kind), kind_name(kind).replace('_', " ")))
        .collect();
    let onkind = edit(props, move |next, name: String| {
        if let Some(kind) = kinds.iter().find(|kind| kind_name(kind) == name) {
            next.schedule = kind.clone();
        }
    });
    html! {
        <fieldset class="form-section">
            <legend>{ "Schedule and seed" }</legend>
            <SelectField label="Schedule" {options} value={kind_name(&scenario.schedule)} onchange={onkind} />
            if let Schedule::Explicit { order } = &scenario.schedule {
                <TextField label="Order of workers (0-based indexes, comma separated)"
                    value={order.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")}
                    onchange={edit(props, |next, text: String| {
                        let order = text.split(',').filter_map(|each| each.trim().parse::<u8>().ok()).collect();
                        next.schedule = Schedule::Explicit { order };
                    })} />
            }
            <NumberField label="Seed" value={scenario.seed} min={0} max={u64::from(u32::MAX)}
                onchange={edit(props, |next, seed: u64| next.seed = seed)} />
            <NumberField label="Step cap (events)" value={u64::from(scenario.step_cap)} min={1} max={u64::from(STEP_CAP_MAX)}
                onchange={edit(props, |next, cap: u64| next.step_cap = cap as u32)} />
        </fieldset>
    }
}
