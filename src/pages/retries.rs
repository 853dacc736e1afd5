//! "Retry policies": the engine's contention models (N clients whose overlapping writes
//! conflict, as in Brooker's study, or a resource that admits C calls a tick; six policies) and
//! its stacked retry layers, with a model choice and sliders. Every plot is an SVG the app draws, beside a table
//! that says the same in text. Moving a slider waits for a pause in the input, then runs the
//! contention model in the lab's second module (a Web Worker), so the page answers keys and the
//! pointer while it recomputes.

use gloo::timers::callback::Timeout;
use lab_engine::{Contention, Model, Policy, PolicyRun, Seeds, Stack, StackRun};
use lab_worker::{Reply, Request};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::search::module_for;
use crate::worker_module::{Heard, Module};

/// A recompute starts this long after the last slider move.
const DEBOUNCE_MILLISECONDS: u32 = 120;
/// Seeds of the "over many seeds" run: 0 to 99, the seed slider's range.
const PAGE_SEEDS: u32 = 100;
/// Bins of the calls-per-tick plot.
const BINS: usize = 120;
/// Plot sizes, in SVG units.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
const MARGIN_LEFT: f64 = 56.0;
const MARGIN_BOTTOM: f64 = 28.0;

/// Everything the model choice and the sliders set.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Knobs {
    model: Model,
    clients: u32,
    capacity: u32,
    attempts_max: u32,
    seed: u32,
    layers: u32,
    layer_attempts: u32,
    retry_budget: u32,
}

impl Default for Knobs {
    fn default() -> Self {
        let contention = Contention::default();
        let stack = Stack::default();
        Knobs {
            model: contention.model,
            clients: contention.clients,
            capacity: contention.capacity(),
            attempts_max: contention.attempts_max,
            seed: 0,
            layers: stack.layers,
            layer_attempts: stack.attempts,
            retry_budget: stack.retry_budget,
        }
    }
}

impl Knobs {
    fn contention(&self) -> Contention {
        Contention {
            model: self.model,
            clients: self.clients,
            // The capacity is the capacity model's only; the other has no such knob.
            capacity_per_tick: (self.model == Model::Capacity).then_some(self.capacity),
            attempts_max: self.attempts_max,
            seed: u64::from(self.seed),
            ..Contention::default()
        }
    }

    fn stack(&self) -> Stack {
        Stack {
            layers: self.layers,
            attempts: self.layer_attempts,
            retry_budget: self.retry_budget,
        }
    }
}

/// The last finished contention experiment.
#[derive(Clone, Debug, Default, PartialEq)]
struct Computed {
    knobs: Option<Contention>,
    runs: Vec<PolicyRun>,
    /// Time spent in the engine for all six policies, in milliseconds.
    milliseconds: f64,
    /// Why the experiment could not run (the second module could not be loaded).
    failure: Option<String>,
}

/// Where the run over many seeds is.
#[derive(Clone, Debug, PartialEq)]
enum Seeded {
    /// Not asked for these settings.
    Idle,
    /// Running in the second module, for these settings.
    Running(Contention),
    Done {
        seeds: Box<Seeds>,
        milliseconds: f64,
    },
    /// The second module could not run it; the words say why.
    Failed(String),
}

/// One labelled slider with its value beside it.
#[derive(Properties, PartialEq)]
struct SliderProps {
    id: AttrValue,
    label: AttrValue,
    min: u32,
    max: u32,
    value: u32,
    onchange: Callback<u32>,
}

#[component]
fn Slider(props: &SliderProps) -> Html {
    let onchange = props.onchange.clone();
    let (min, max) = (props.min, props.max);
    let oninput = Callback::from(move |event: InputEvent| {
        let input: HtmlInputElement = event.target_unchecked_into();
        if let Ok(value) = input.value().parse::<u32>() {
            onchange.emit(value.clamp(min, max));
        }
    });
    html! {
        <div class="slider">
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <input type="range" id={props.id.clone()} min={min.to_string()} max={max.to_string()}
                step="1" value={props.value.to_string()} {oninput} />
            <output for={props.id.clone()}>{ props.value }</output>
        </div>
    }
}

/// The choice of contention model: a radio group, each choice with its one-sentence
/// description (arrow keys move between them, as in any radio group).
#[derive(Properties, PartialEq)]
struct ModelChoiceProps {
    chosen: Model,
    onchange: Callback<Model>,
}

#[component]
fn ModelChoice(props: &ModelChoiceProps) -> Html {
    let choices = Model::ALL.into_iter().map(|model| {
        let id = format!("model-{}", model.name());
        let described = format!("{id}-description");
        let onchange = {
            let onchange = props.onchange.clone();
            Callback::from(move |_: Event| onchange.emit(model))
        };
        html! {
            <div class="model-choice">
                <input type="radio" name="model" id={id.clone()} value={model.name()}
                    checked={props.chosen == model} aria-describedby={described.clone()} {onchange} />
                <label for={id}>{ model.label() }</label>
                <p id={described} class="meta">{ model.description() }</p>
            </div>
        }
    });
    html! {
        <fieldset class="model-choices">
            <legend>{ "Contention model" }</legend>
            { for choices }
        </fieldset>
    }
}

/// A distinct stroke and dash per policy, so the lines differ without colour too.
fn line_style(policy: Policy) -> (&'static str, &'static str) {
    match policy {
        Policy::None => ("#8a8d96", "2 3"),
        Policy::Constant => ("#b45309", "6 3"),
        Policy::Exponential => ("#a11d1d", ""),
        Policy::FullJitter => ("#1d4ed8", ""),
        Policy::EqualJitter => ("#7c3aed", "8 2 2 2"),
        Policy::DecorrelatedJitter => ("#0f766e", "4 2"),
    }
}

/// Mean calls per tick in `bins` equal spans of ticks 1..=last (tick 0, where every client
/// calls at once whatever the policy, is left out).
fn binned(calls_per_tick: &[u32], last: u32, bins: usize) -> Vec<f64> {
    let width = (f64::from(last) / bins as f64).max(1.0);
    (0..bins)
        .map(|bin| {
            let from = 1 + (bin as f64 * width) as usize;
            let to = (1 + ((bin + 1) as f64 * width) as usize).min(last as usize + 1);
            if from >= to {
                return 0.0;
            }
            let sum: u64 = calls_per_tick
                .iter()
                .skip(from)
                .take(to - from)
                .map(|&calls| u64::from(calls))
                .sum();
            sum as f64 / (to - from) as f64
        })
        .collect()
}

/// The ticks the overlay shows: up to the last completion among the jittered policies, which
/// finish in the same few thousand ticks; the unjittered ones may run far longer.
fn plotted_ticks(runs: &[PolicyRun]) -> u32 {
    runs.iter()
        .filter(|run| {
            matches!(
                run.policy,
                Policy::FullJitter | Policy::EqualJitter | Policy::DecorrelatedJitter
            )
        })
        .map(|run| run.completed_tick)
        .max()
        .unwrap_or(1)
        .max(1)
}

fn calls_per_tick_plot(runs: &[PolicyRun]) -> Html {
    let last = plotted_ticks(runs);
    let series: Vec<(Policy, Vec<f64>)> = runs
        .iter()
        .map(|run| (run.policy, binned(&run.calls_per_tick, last, BINS)))
        .collect();
    let peak = series
        .iter()
        .flat_map(|(_, bins)| bins.iter().copied())
        .fold(1.0, f64::max);
    let plot_width = WIDTH - MARGIN_LEFT - 8.0;
    let plot_height = HEIGHT - MARGIN_BOTTOM - 8.0;
    // A log scale: the waves of 1,000 calls and the jittered trickle of a few both show.
    let top = (1.0 + peak).log10();
    let y_of = |mean: f64| 8.0 + plot_height * (1.0 - (1.0 + mean).log10() / top);
    let grid = [1.0, 10.0, 100.0, 1000.0, 10000.0]
        .into_iter()
        .filter(|&calls| calls <= peak)
        .map(|calls| {
            let y = y_of(calls);
            html! {
                <g class="grid">
                    <line x1={format!("{MARGIN_LEFT}")} x2={format!("{}", WIDTH - 8.0)} y1={format!("{y:.1}")} y2={format!("{y:.1}")} />
                    <text x={format!("{}", MARGIN_LEFT - 6.0)} y={format!("{:.1}", y + 4.0)} text-anchor="end">{ format!("{calls}") }</text>
                </g>
            }
        });
    let lines = series.iter().map(|(policy, bins)| {
        let points: Vec<String> = bins
            .iter()
            .enumerate()
            .map(|(bin, &mean)| {
                let x = MARGIN_LEFT + plot_width * (bin as f64 + 0.5) / BINS as f64;
                let y = y_of(mean);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let (stroke, dash) = line_style(*policy);
        html! {
            <polyline points={points.join(" ")} fill="none" stroke={stroke}
                stroke-width="1.6" stroke-dasharray={dash} />
        }
    });
    // The legend is a list beside the plot, never over its lines; each swatch is a small SVG
    // styled by presentation attributes, which the CSP allows.
    let legend = runs.iter().map(|run| {
        let (stroke, dash) = line_style(run.policy);
        html! {
            <li>
                <svg class="swatch" viewBox="0 0 28 10" width="28" height="10" aria-hidden="true">
                    <line x1="0" x2="28" y1="5" y2="5" stroke={stroke} stroke-width="2" stroke-dasharray={dash} />
                </svg>
                { run.policy.label() }
            </li>
        }
    });
    let axis_y = HEIGHT - MARGIN_BOTTOM;
    html! {
        <div class="plot-with-legend">
        <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-labelledby="calls-plot-title calls-plot-desc">
            <title id="calls-plot-title">{ "Calls per tick, each policy overlaid" }</title>
            <desc id="calls-plot-desc">{ format!("Mean calls per tick, on a log scale, in {BINS} spans of ticks 1 to {last}; the table below gives the figures.") }</desc>
            { for grid }
            <line x1={format!("{MARGIN_LEFT}")} x2={format!("{}", WIDTH - 8.0)} y1={format!("{axis_y}")} y2={format!("{axis_y}")} stroke="currentColor" />
            <line x1={format!("{MARGIN_LEFT}")} x2={format!("{MARGIN_LEFT}")} y1="8" y2={format!("{axis_y}")} stroke="currentColor" />
            <text x={format!("{}", MARGIN_LEFT - 6.0)} y={format!("{axis_y}")} text-anchor="end">{ "0" }</text>
            <text x={format!("{MARGIN_LEFT}")} y={format!("{}", HEIGHT - 8.0)}>{ "tick 1" }</text>
            <text x={format!("{}", WIDTH - 8.0)} y={format!("{}", HEIGHT - 8.0)} text-anchor="end">{ format!("tick {last}") }</text>
            { for lines }
        </svg>
        <ul class="plot-legend" aria-label="Policies">{ for legend }</ul>
        </div>
    }
}

fn calls_per_tick_table(runs: &[PolicyRun]) -> Html {
    let rows = runs.iter().map(|run| {
        let busiest = run
            .calls_per_tick
            .iter()
            .skip(1)
            .copied()
            .max()
            .unwrap_or(0);
        let later: &[u32] = run.calls_per_tick.get(1..).unwrap_or_default();
        let busy_ticks = later.iter().filter(|&&calls| calls > 0).count().max(1);
        let mean = later.iter().map(|&calls| f64::from(calls)).sum::<f64>() / busy_ticks as f64;
        html! {
            <tr>
                <th scope="row">{ run.policy.label() }</th>
                <td>{ run.calls_per_tick.first().copied().unwrap_or(0) }</td>
                <td>{ busiest }</td>
                <td>{ format!("{mean:.1}") }</td>
                <td>{ format!("{:.1}%", f64::from(run.clustering_permille) / 10.0) }</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll">
            <table class="retries-table">
                <caption>{ "Calls per tick by policy" }</caption>
                <thead><tr>
                    <th scope="col">{ "Policy" }</th>
                    <th scope="col">{ "Calls at tick 0" }</th>
                    <th scope="col">{ "Busiest later tick" }</th>
                    <th scope="col">{ "Mean calls in a later tick with any" }</th>
                    <th scope="col">{ "Retries in the busiest tenth of the time" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// Horizontal bars on a log scale, so 500,000 and 500 both show.
fn log_bars(id: &str, title: &str, values: &[(&'static str, u64)]) -> Html {
    let row_height = 22.0;
    let height = row_height * values.len() as f64 + 8.0;
    let label_width = 150.0;
    let top = values
        .iter()
        .map(|(_, value)| *value)
        .max()
        .unwrap_or(1)
        .max(10) as f64;
    let scale = (WIDTH - label_width - 80.0) / top.log10();
    let bars = values.iter().enumerate().map(|(index, (label, value))| {
        let y = 4.0 + index as f64 * row_height;
        let length = ((*value).max(1) as f64).log10() * scale + 2.0;
        html! {
            <g>
                <text x={format!("{}", label_width - 6.0)} y={format!("{}", y + 14.0)} text-anchor="end">{ *label }</text>
                <rect x={format!("{label_width}")} y={format!("{y}")} width={format!("{length:.1}")} height="16" class="bar" />
                <text x={format!("{:.1}", label_width + length + 4.0)} y={format!("{}", y + 13.0)}>{ value.to_string() }</text>
            </g>
        }
    });
    html! {
        <svg viewBox={format!("0 0 {WIDTH} {height}")} role="img" aria-labelledby={id.to_string()}>
            <title id={id.to_string()}>{ format!("{title} (log scale)") }</title>
            { for bars }
        </svg>
    }
}

fn totals_table(runs: &[PolicyRun]) -> Html {
    let rows = runs.iter().map(|run| {
        html! {
            <tr>
                <th scope="row">{ run.policy.label() }</th>
                <td>{ run.calls }</td>
                <td>{ run.completed_tick }</td>
                <td>{ run.succeeded }</td>
                <td>{ run.gave_up }</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll">
            <table class="retries-table">
                <caption>{ "Total calls and completion by policy" }</caption>
                <thead><tr>
                    <th scope="col">{ "Policy" }</th>
                    <th scope="col">{ "Calls" }</th>
                    <th scope="col">{ "Completed at tick" }</th>
                    <th scope="col">{ "Succeeded" }</th>
                    <th scope="col">{ "Gave up" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// Each policy's mean and spread over many seeds, and how often it did best.
fn seeds_table(seeds: &Seeds) -> Html {
    let rows = seeds.policies.iter().map(|entry| {
        html! {
            <tr>
                <th scope="row">{ entry.policy.label() }</th>
                <td>{ format!("{:.0}", entry.calls.mean) }</td>
                <td>{ format!("{:.0}", entry.calls.deviation) }</td>
                <td>{ format!("{}–{}", entry.calls.min, entry.calls.max) }</td>
                <td>{ entry.fewest_calls_seeds }</td>
                <td>{ format!("{:.0}", entry.completed_ticks.mean) }</td>
                <td>{ format!("{:.0}", entry.completed_ticks.deviation) }</td>
                <td>{ format!("{}–{}", entry.completed_ticks.min, entry.completed_ticks.max) }</td>
                <td>{ entry.soonest_done_seeds }</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll">
            <table class="retries-table">
                <caption>{ format!("Mean and spread over {} seeds", seeds.seeds) }</caption>
                <thead><tr>
                    <th scope="col">{ "Policy" }</th>
                    <th scope="col">{ "Mean calls" }</th>
                    <th scope="col">{ "Calls, standard deviation" }</th>
                    <th scope="col">{ "Calls, least to most" }</th>
                    <th scope="col">{ "Seeds with the fewest calls" }</th>
                    <th scope="col">{ "Mean completion tick" }</th>
                    <th scope="col">{ "Completion, standard deviation" }</th>
                    <th scope="col">{ "Completion, soonest to latest" }</th>
                    <th scope="col">{ "Seeds done first" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The experiment in words: its clients and model.
fn described(spec: &Contention) -> String {
    format!(
        "{} clients, {}",
        spec.clients,
        match spec.model {
            Model::Overlap => "overlapping writes".to_string(),
            Model::Capacity => format!("{} per tick", spec.capacity()),
        }
    )
}

fn depth_name(depth: usize, layers: usize) -> String {
    match depth {
        0 => "Caller".to_string(),
        depth if depth == layers => "Backend".to_string(),
        depth => format!("Layer {depth}"),
    }
}

fn layers_plot(run: &StackRun) -> Html {
    let layers = run.layers as usize;
    let values: Vec<(&'static str, u64)> = [
        ("Every layer retries", run.bottom_calls),
        ("One layer retries", run.bottom_calls_single_layer),
        ("Shared retry budget", run.bottom_calls_with_budget),
    ]
    .into_iter()
    .map(|(label, calls)| (label, u64::from(calls)))
    .collect();
    let rows = (0..=layers).map(|depth| {
        html! {
            <tr>
                <th scope="row">{ depth_name(depth, layers) }</th>
                <td>{ run.calls_by_depth[depth] }</td>
                <td>{ run.calls_by_depth_single_layer[depth] }</td>
                <td>{ run.calls_by_depth_with_budget[depth] }</td>
            </tr>
        }
    });
    html! {
        <>
            <figure class="retries-figure">
                { log_bars("layers-plot-title", "Calls that reach the backend", &values) }
                <figcaption>{ "Calls that reach the backend for one call from the caller, on a log scale." }</figcaption>
            </figure>
            <div class="table-scroll">
                <table class="retries-table">
                    <caption>{ "Calls reaching each layer" }</caption>
                    <thead><tr>
                        <th scope="col">{ "Depth" }</th>
                        <th scope="col">{ "Every layer retries" }</th>
                        <th scope="col">{ "One layer retries" }</th>
                        <th scope="col">{ format!("Shared budget of {} retries", run.retry_budget) }</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </>
    }
}

#[component]
pub fn RetriesPage() -> Html {
    let knobs = use_state(Knobs::default);
    let computed = use_state(Computed::default);
    let pending = use_mut_ref(|| None::<Timeout>);
    // The experiment runs in the second module (a Web Worker), so a slider never waits on it.
    let module = use_mut_ref(|| None::<Module>);
    let asked = use_mut_ref(|| None::<Contention>);
    {
        let publish = computed.setter();
        let pending = pending.clone();
        use_effect_with(knobs.contention(), move |spec| {
            let spec = spec.clone();
            let timeout = Timeout::new(DEBOUNCE_MILLISECONDS, move || {
                let mut slot = module.borrow_mut();
                // An experiment for older settings still running: ended, this one replaces it.
                if asked.borrow_mut().take().is_some() {
                    slot.take();
                }
                let onheard = {
                    let asked = asked.clone();
                    Callback::from(move |heard| match heard {
                        Heard::Reply(Reply::Contended {
                            spec,
                            runs,
                            milliseconds,
                        }) => {
                            asked.borrow_mut().take();
                            publish.set(Computed {
                                knobs: Some(spec),
                                runs,
                                milliseconds,
                                failure: None,
                            });
                        }
                        Heard::Failed(words) | Heard::Reply(Reply::Refused(words)) => {
                            asked.borrow_mut().take();
                            publish.set(Computed {
                                failure: Some(words),
                                ..Computed::default()
                            });
                        }
                        _ => {}
                    })
                };
                let (module, _) = module_for(&mut slot, onheard.clone());
                module.send(&Request::Contend(spec.clone()));
                *asked.borrow_mut() = Some(spec);
                if let crate::worker_module::Readiness::Failed(words) = module.readiness() {
                    onheard.emit(Heard::Failed(words));
                }
            });
            *pending.borrow_mut() = Some(timeout);
            // A newer setting cancels whatever of this one is still to wait.
            move || drop(pending.borrow_mut().take())
        });
    }
    let stack = use_memo(knobs.stack(), |stack| stack.run());
    // The run over many seeds has a module of its own, so a slider never ends it.
    let seeded = use_state(|| Seeded::Idle);
    let seeds_module = use_mut_ref(|| None::<Module>);
    let many = Contention {
        seed: 0,
        ..knobs.contention()
    };
    let onseeds = {
        let seeded = seeded.clone();
        let spec = many.clone();
        Callback::from(move |_: MouseEvent| {
            let publish = seeded.setter();
            let onheard = Callback::from(move |heard| match heard {
                Heard::Reply(Reply::Seeded {
                    seeds,
                    milliseconds,
                }) => publish.set(Seeded::Done {
                    seeds: Box::new(seeds),
                    milliseconds,
                }),
                Heard::Failed(words) | Heard::Reply(Reply::Refused(words)) => {
                    publish.set(Seeded::Failed(words))
                }
                _ => {}
            });
            let mut slot = seeds_module.borrow_mut();
            // A run for older settings still going: ended, this one replaces it.
            if matches!(*seeded, Seeded::Running(_)) {
                slot.take();
            }
            let (module, _) = module_for(&mut slot, onheard.clone());
            module.send(&Request::ContendSeeds {
                spec: spec.clone(),
                seeds: PAGE_SEEDS,
            });
            seeded.set(Seeded::Running(spec.clone()));
            if let crate::worker_module::Readiness::Failed(words) = module.readiness() {
                onheard.emit(Heard::Failed(words));
            }
        })
    };
    let seeds_status = match &*seeded {
        Seeded::Idle => None,
        Seeded::Running(spec) => Some(format!(
            "Running {PAGE_SEEDS} seeds of {}…",
            described(spec)
        )),
        Seeded::Done {
            seeds,
            milliseconds,
        } => Some(format!(
            "{}, seeds 0 to {}: computed in {:.0} ms{}.",
            described(&seeds.spec),
            seeds.seeds - 1,
            milliseconds,
            if seeds.spec == many {
                ""
            } else {
                "; the settings have changed since"
            }
        )),
        Seeded::Failed(words) => Some(format!("The seeds could not run: {words}.")),
    };
    let onmodel = {
        let knobs = knobs.clone();
        Callback::from(move |model: Model| {
            knobs.set(Knobs { model, ..*knobs });
        })
    };
    let set = |apply: fn(&mut Knobs, u32)| {
        let knobs = knobs.clone();
        Callback::from(move |value: u32| {
            let mut changed = *knobs;
            apply(&mut changed, value);
            knobs.set(changed);
        })
    };
    let current = knobs.contention();
    let busy = computed.knobs.as_ref() != Some(&current);
    let status = match (&computed.knobs, busy) {
        _ if computed.failure.is_some() => format!(
            "The experiment could not run: {}. Reload the page to try again.",
            computed.failure.as_deref().unwrap_or_default()
        ),
        (None, _) => "Computing…".to_string(),
        (Some(_), true) => "Recomputing for the new settings…".to_string(),
        (Some(spec), false) => format!(
            "{}, seed {}: all six policies computed in {:.0} ms.",
            described(spec),
            spec.seed,
            computed.milliseconds
        ),
    };
    let runs = &computed.runs;
    let bars: Vec<(&'static str, u64)> = runs
        .iter()
        .map(|run| (run.policy.label(), u64::from(run.calls)))
        .collect();
    let ticks: Vec<(&'static str, u64)> = runs
        .iter()
        .map(|run| (run.policy.label(), u64::from(run.completed_tick)))
        .collect();
    html! {
        <main id="main" tabindex="-1" class="page retries">
            <h1>{ "Retry policies" }</h1>
            <p class="lead">
                { "Many clients each make one write to the same resource. Writes that conflict fail with a temporary error, and every loser retries under its policy. Which policy gets everyone through with the least work, and which the soonest? Two models say when writes conflict. Further down, retry loops stacked in layers multiply the calls that reach the bottom." }
            </p>
            <section aria-labelledby="contention-heading">
                <h2 id="contention-heading">{ "Clients contending for one resource" }</h2>
                <ModelChoice chosen={knobs.model} onchange={onmodel} />
                <div class="sliders">
                    <Slider id="clients" label="Clients" min={1} max={1000} value={knobs.clients}
                        onchange={set(|knobs, value| knobs.clients = value)} />
                    if knobs.model == Model::Capacity {
                        <Slider id="capacity" label="Capacity (calls a tick)" min={1} max={50} value={knobs.capacity}
                            onchange={set(|knobs, value| knobs.capacity = value)} />
                    }
                    <Slider id="attempts-max" label="Max attempts per client" min={1} max={1000} value={knobs.attempts_max}
                        onchange={set(|knobs, value| knobs.attempts_max = value)} />
                    <Slider id="seed" label="Seed" min={0} max={99} value={knobs.seed}
                        onchange={set(|knobs, value| knobs.seed = value)} />
                </div>
                <p class="meta" role="status">{ status }</p>
                <p class="meta">
                    { match knobs.model {
                        Model::Overlap => "A network hop takes 6 to 14 ticks, so a write reaches the row about 20 ticks after its read. Pauses start at 5 ticks and are capped at 2,000, as in the study. ",
                        Model::Capacity => "Pauses start at 10 ticks and are capped at 1,000; one tick is the window in which two writes conflict. ",
                    } }
                    { "Full jitter draws a pause from 0 to the doubled ceiling; equal jitter keeps half of it and draws the rest; decorrelated jitter draws from the base to three times the last pause." }
                </p>
                if !runs.is_empty() {
                    <figure class="retries-figure">
                        { calls_per_tick_plot(runs) }
                        <figcaption>{ "Without jitter, the losers come back together, wave after wave; jitter spreads them out. The table says the same in figures." }</figcaption>
                    </figure>
                    { calls_per_tick_table(runs) }
                    <figure class="retries-figure">
                        { log_bars("calls-bars-title", "Total calls by policy", &bars) }
                        <figcaption>{ "Total calls by policy, on a log scale: the work each policy made the resource do." }</figcaption>
                    </figure>
                    <figure class="retries-figure">
                        { log_bars("ticks-bars-title", "Tick at which the last client finished", &ticks) }
                        <figcaption>{ "The tick at which the last client finished, on a log scale." }</figcaption>
                    </figure>
                    { totals_table(runs) }
                }
                <h3>{ "Over many seeds" }</h3>
                <p>
                    { format!("One seed can flatter a policy. Run these settings from seeds 0 to {} and compare each policy's mean, its spread, and how often it did best.", PAGE_SEEDS - 1) }
                </p>
                <button type="button" onclick={onseeds}>{ format!("Run {PAGE_SEEDS} seeds") }</button>
                <p class="meta" role="status">{ seeds_status.unwrap_or_default() }</p>
                if let Seeded::Done { seeds, .. } = &*seeded {
                    { seeds_table(seeds) }
                }
            </section>
            <section aria-labelledby="layers-heading">
                <h2 id="layers-heading">{ "Retry loops stacked in layers" }</h2>
                <p>
                    { "A call passes down through layers to a backend that fails every time. When every layer retries, the attempts multiply: three layers of three make 27 calls at the bottom. Retrying at one layer only, or drawing every retry from one budget for the whole operation, keeps the count near what one layer promised." }
                </p>
                <div class="sliders">
                    <Slider id="layers" label="Layers" min={1} max={lab_engine::LAYERS_MAX} value={knobs.layers}
                        onchange={set(|knobs, value| knobs.layers = value)} />
                    <Slider id="layer-attempts" label="Attempts per layer" min={1} max={lab_engine::LAYER_ATTEMPTS_MAX} value={knobs.layer_attempts}
                        onchange={set(|knobs, value| knobs.layer_attempts = value)} />
                    <Slider id="retry-budget" label="Retry budget per operation" min={0} max={50} value={knobs.retry_budget}
                        onchange={set(|knobs, value| knobs.retry_budget = value)} />
                </div>
                { layers_plot(&stack) }
            </section>
        </main>
    }
}
