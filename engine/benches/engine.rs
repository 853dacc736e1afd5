//! `make bench`: what the engine costs as the work grows, natively. Prints figures at several
//! sizes and how they grow; asserts nothing about speed.
//!
//! - events per second without recording (`run_quiet`) and building the whole trace (`run`);
//! - the time per event at each size, and its ratio to the smallest size (flat = linear cost),
//!   also measured with the smallest and largest sizes taking turns (fastest sample of each), so
//!   the machine's drift between sizes does not read as growth;
//! - peak heap while building a trace, and the heap the trace keeps (a counting allocator);
//! - allocations per event without recording: a quiet run should build no text;
//! - minor page faults per event (Linux): memory the OS hands the process fresh, zeroed page by
//!   page. A large run's trace is tens of megabytes that the allocator takes from the OS and
//!   gives back between runs, so its faults are the allocator's and the OS's cost, not the
//!   engine's: read beside the time per event, they tell the two apart (and, last, an extra
//!   figure with glibc's allocator told to keep freed memory: the growth without that cost);
//! - `Trace::state_at` at many cursors of a long trace.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use lab_engine::{
    chance as rule, Action, BatchSpec, Engine, FaultKind, FaultRule, Scenario, WorkflowKind,
};

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SIZES: [u32; 3] = [100, 1_000, 10_000];

/// Minor page faults of this process so far, from `/proc/self/stat` (Linux); `None` elsewhere.
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name, in parentheses, may hold spaces: count fields after its end. `minflt`
    // is the 10th field; the 3rd (the state) is the first after the name.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(7)?.parse().ok()
}

/// Faults per event over `runs` runs of `events` events, from two `minor_faults` readings.
fn faults_per_event(
    before: Option<u64>,
    after: Option<u64>,
    events: u32,
    runs: u32,
) -> Option<f64> {
    let faults = after?.checked_sub(before?)?;
    Some(faults as f64 / (f64::from(events.max(1)) * f64::from(runs.max(1))))
}

/// A batch of `records` operations over two workers in round robin, faults drawn from the seed.
fn batch(workflow: WorkflowKind, records: u32, faults: Vec<FaultRule>) -> Scenario {
    BatchSpec {
        workflow,
        faults,
        ..BatchSpec::reference(records)
    }
    .scenario()
}

struct Figures {
    events: u32,
    quiet_per_second: f64,
    traced_per_second: f64,
    peak_bytes: usize,
    kept_bytes: usize,
    /// Allocations per event in a quiet run, and building the trace.
    quiet_allocations: f64,
    traced_allocations: f64,
    /// Minor page faults per event over the timed rounds, quiet and building the trace
    /// (dropping each trace included, as it is timed).
    quiet_faults: Option<f64>,
    traced_faults: Option<f64>,
}

/// Runs `scenario` quietly and traced, enough times to last at least a quarter second each.
fn measure(scenario: &Scenario) -> Figures {
    let mut events = 0;
    let mut rounds = 0u32;
    let mut quiet = Duration::ZERO;
    let faults_before = minor_faults();
    // A run takes its scenario by value: the copy is the benchmark's, made before the clock
    // starts. Dropping the run's final world is timed, as a caller pays for it.
    while quiet < Duration::from_millis(250) {
        let copy = scenario.clone();
        let start = Instant::now();
        let (count, _, _) = Engine::run_quiet(copy).expect("the benchmark scenario is valid");
        quiet += start.elapsed();
        events = count;
        rounds += 1;
    }
    let quiet_faults = faults_per_event(faults_before, minor_faults(), events, rounds);
    let quiet_per_second = f64::from(events) * f64::from(rounds) / quiet.as_secs_f64();
    // The scenario's copy is made before counting: only the run's own allocations count.
    let copy = scenario.clone();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let quiet_run = Engine::run_quiet(copy).expect("the benchmark scenario is valid");
    let quiet_allocations =
        (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / f64::from(events.max(1));
    drop(quiet_run);

    let mut rounds = 0u32;
    let mut traced = Duration::ZERO;
    let (mut peak_bytes, mut kept_bytes, mut traced_allocations) = (0, 0, 0);
    let faults_before = minor_faults();
    while traced < Duration::from_millis(250) {
        let copy = scenario.clone();
        let before = LIVE.load(Ordering::Relaxed);
        let allocations = ALLOCATIONS.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let start = Instant::now();
        let trace = Engine::run(copy).expect("the benchmark scenario is valid");
        traced += start.elapsed();
        traced_allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations;
        peak_bytes = PEAK.load(Ordering::Relaxed) - before;
        kept_bytes = LIVE.load(Ordering::Relaxed) - before;
        assert_eq!(trace.len(), events, "both modes run the same events");
        drop(trace);
        rounds += 1;
    }
    let traced_faults = faults_per_event(faults_before, minor_faults(), events, rounds);
    let traced_per_second = f64::from(events) * f64::from(rounds) / traced.as_secs_f64();
    Figures {
        events,
        quiet_per_second,
        traced_per_second,
        peak_bytes,
        kept_bytes,
        quiet_allocations,
        traced_allocations: traced_allocations as f64 / f64::from(events.max(1)),
        quiet_faults,
        traced_faults,
    }
}

fn megabytes(bytes: usize) -> f64 {
    bytes as f64 / 1_000_000.0
}

fn growth(name: &str, scenario_at: impl Fn(u32) -> Scenario) {
    println!("\n{name}");
    println!(
        "{:>8} {:>8} {:>14} {:>10} {:>10} {:>10} {:>14} {:>10} {:>10} {:>10} {:>9} {:>9} {:>8}",
        "records",
        "events",
        "quiet ev/s",
        "ns/event",
        "allocs/ev",
        "faults/ev",
        "traced ev/s",
        "ns/event",
        "allocs/ev",
        "faults/ev",
        "peak MB",
        "trace MB",
        "B/event"
    );
    let mut first: Option<(f64, f64)> = None;
    let mut last = (0.0, 0.0);
    // Page faults: `-` where the OS does not say (not Linux).
    let faults = |per_event: Option<f64>| per_event.map_or("-".to_string(), |f| format!("{f:.3}"));
    for records in SIZES {
        let figures = measure(&scenario_at(records));
        let quiet_ns = 1e9 / figures.quiet_per_second;
        let traced_ns = 1e9 / figures.traced_per_second;
        first.get_or_insert((quiet_ns, traced_ns));
        last = (quiet_ns, traced_ns);
        println!(
            "{records:>8} {:>8} {:>14.0} {:>10.0} {:>10.1} {:>10} {:>14.0} {:>10.0} {:>10.1} {:>10} {:>9.2} {:>9.2} {:>8.0}",
            figures.events,
            figures.quiet_per_second,
            quiet_ns,
            figures.quiet_allocations,
            faults(figures.quiet_faults),
            figures.traced_per_second,
            traced_ns,
            figures.traced_allocations,
            faults(figures.traced_faults),
            megabytes(figures.peak_bytes),
            megabytes(figures.kept_bytes),
            figures.kept_bytes as f64 / f64::from(figures.events.max(1)),
        );
    }
    let (quiet_first, traced_first) = first.expect("at least one size");
    println!(
        "  time per event at {} records / at {} records: {:.2}x without recording, {:.2}x building the trace (1.00x = linear cost)",
        SIZES[SIZES.len() - 1],
        SIZES[0],
        last.0 / quiet_first,
        last.1 / traced_first
    );
    interleaved_growth(&scenario_at);
}

/// Rounds of `interleaved_growth`: each runs both sizes, quietly and traced.
const INTERLEAVED_ROUNDS: u32 = 7;

/// The same growth, measured so that the machine's drift cannot make it: the rows above measure
/// one size after the other, each for a quarter second, so a shared machine slowing down between
/// them reads as growth. Here the smallest and the largest size take turns, round after round,
/// and each keeps its fastest sample (a sample lasts 20 ms or one run): interference only ever
/// slows a sample, so the fastest is the nearest to what the engine itself costs.
fn interleaved_growth(scenario_at: &impl Fn(u32) -> Scenario) {
    let ends = [SIZES[0], SIZES[SIZES.len() - 1]];
    let scenarios = ends.map(scenario_at);
    // Nanoseconds per event, fastest sample: [size][quiet, traced].
    let mut fastest = [[f64::INFINITY; 2]; 2];
    for _ in 0..INTERLEAVED_ROUNDS {
        for (size, scenario) in scenarios.iter().enumerate() {
            for traced in [false, true] {
                let (mut spent, mut events) = (Duration::ZERO, 0u64);
                while spent < Duration::from_millis(20) {
                    let copy = scenario.clone();
                    let start = Instant::now();
                    let count = match traced {
                        true => Engine::run(copy).map(|trace| trace.len()),
                        false => Engine::run_quiet(copy).map(|(count, _, _)| count),
                    }
                    .expect("the benchmark scenario is valid");
                    spent += start.elapsed();
                    events += u64::from(count);
                }
                let per_event = spent.as_nanos() as f64 / events as f64;
                let best = &mut fastest[size][usize::from(traced)];
                *best = best.min(per_event);
            }
        }
    }
    let [[quiet_small, traced_small], [quiet_large, traced_large]] = fastest;
    println!(
        "  the same, sizes in turn ({INTERLEAVED_ROUNDS} rounds, fastest sample of each): {quiet_small:.0} -> {quiet_large:.0} ns/event = {:.2}x without recording, {traced_small:.0} -> {traced_large:.0} ns/event = {:.2}x building the trace",
        quiet_large / quiet_small,
        traced_large / traced_small,
    );
}

/// `state_at` at cursors spread over a long trace: the slowest and the mean.
fn seeking() {
    println!("\nTrace::state_at on long traces (reserve, lost replies and busy submits retried up to 4 times, crashes)");
    for records in [1_000, 10_000] {
        let mut scenario = batch(
            WorkflowKind::Reserve,
            records,
            vec![
                rule(FaultKind::LoseReply, Action::ProviderSubmit, 150),
                rule(FaultKind::Busy, Action::ProviderSubmit, 400),
                rule(FaultKind::Crash, Action::JournalUpdate, 50),
            ],
        );
        // Retries make about ten events a record: the 10,000-event, 1,000-record trace.
        scenario.switches.retry.attempts_max = 4;
        let trace = Engine::run(scenario).expect("valid");
        let samples = 2_000u32;
        let mut slowest = Duration::ZERO;
        let mut total = Duration::ZERO;
        let mut times = Vec::new();
        // A fixed spread of cursors (a Weyl sequence), from the start to the end.
        for sample in 0..samples {
            let cursor =
                ((u64::from(sample) * 2_654_435_761) % (u64::from(trace.len()) + 1)) as u32;
            let start = Instant::now();
            let world = trace.state_at(cursor);
            let took = start.elapsed();
            std::hint::black_box(world);
            if took > slowest && std::env::var_os("SEEK_DEBUG").is_some() {
                eprintln!(
                    "slowest so far: cursor {cursor} of {}, {took:?}",
                    trace.len()
                );
            }
            slowest = slowest.max(took);
            total += took;
            times.push(took);
        }
        times.sort();
        let start = Instant::now();
        let end = trace.state_at(trace.len());
        let replay = start.elapsed();
        let start = Instant::now();
        let copy = end.clone();
        let cloned = start.elapsed();
        std::hint::black_box(copy);
        println!(
            "  {records:>6} records, {:>6} events: mean {:>7.1} µs, median {:>7.1} µs, 99th percentile {:>7.1} µs, slowest {:>7.1} µs over {samples} cursors (copying the last state alone: {:.1} µs; seeking it {:.1} µs)",
            trace.len(),
            total.as_secs_f64() * 1e6 / f64::from(samples),
            times[times.len() / 2].as_secs_f64() * 1e6,
            times[times.len() * 99 / 100].as_secs_f64() * 1e6,
            slowest.as_secs_f64() * 1e6,
            cloned.as_secs_f64() * 1e6,
            replay.as_secs_f64() * 1e6,
        );
    }
}

/// A named load, and its scenario at a number of records.
type Section = (&'static str, fn(u32) -> Scenario);

fn main() {
    // `cargo bench -p lab-engine --bench engine -- ingest` runs the sections whose name has
    // "ingest" in it; `-- --seek` only the seeks. (Cargo passes `--bench` itself.)
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let seek_only = arguments.iter().any(|argument| argument == "--seek");
    let filters: Vec<&String> = arguments
        .iter()
        .filter(|argument| !argument.starts_with('-'))
        .collect();
    let chosen = |name: &str| filters.iter().all(|filter| name.contains(filter.as_str()));
    if seek_only {
        seeking();
        return;
    }
    println!(
        "lab-engine benchmark: batches of N records over 2 workers, round robin, seeded faults"
    );
    let sections: [Section; 3] = [
        (
            "reserve + lost replies/busy (5% each at provider.submit)",
            |records| {
                batch(
                    WorkflowKind::Reserve,
                    records,
                    vec![
                        rule(FaultKind::LoseReply, Action::ProviderSubmit, 50),
                        rule(FaultKind::Busy, Action::ProviderSubmit, 50),
                    ],
                )
            },
        ),
        ("ingest + crash/redelivery/lost ack", |records| {
            batch(
                WorkflowKind::Ingest,
                records,
                vec![
                    rule(FaultKind::Crash, Action::SinkSend, 20),
                    rule(FaultKind::DeliverTwice, Action::Receive, 30),
                    rule(FaultKind::LoseReply, Action::TableWrite, 30),
                ],
            )
        }),
        ("pipeline + busy writes", |records| {
            batch(
                WorkflowKind::Pipeline,
                records,
                vec![rule(FaultKind::Busy, Action::TableWrite, 50)],
            )
        }),
    ];
    for (name, scenario_at) in sections {
        if chosen(name) {
            growth(name, scenario_at);
        }
    }
    if chosen("seek") {
        seeking();
    }
    // Last: it changes the allocator for the rest of the process.
    if sections.iter().any(|(name, _)| chosen(name)) && keep_memory_warm() {
        println!("\nAn extra figure, not the growth above: building the trace with the allocator kept warm (glibc mallopt: freed memory stays in the process and large blocks come from its heap, so a run reuses pages rather than faulting fresh ones in)");
        for (name, scenario_at) in sections {
            if chosen(name) {
                warm_growth(name, scenario_at);
            }
        }
    }
}

/// The traced time per event at the smallest and largest size, and its growth, as `growth`
/// measures it, after `keep_memory_warm`.
fn warm_growth(name: &str, scenario_at: fn(u32) -> Scenario) {
    let ends = [SIZES[0], SIZES[SIZES.len() - 1]];
    let [small, large] = ends.map(|records| measure(&scenario_at(records)));
    let faults = |per_event: Option<f64>| per_event.map_or("-".to_string(), |f| format!("{f:.3}"));
    println!(
        "  {name}: {:.0} ns/event ({} faults/ev) at {} records, {:.0} ns/event ({} faults/ev) at {}: {:.2}x",
        1e9 / small.traced_per_second,
        faults(small.traced_faults),
        ends[0],
        1e9 / large.traced_per_second,
        faults(large.traced_faults),
        ends[1],
        small.traced_per_second / large.traced_per_second,
    );
}

/// Keeps freed memory in the process from now on: no trimming of the heap, and blocks up to
/// glibc's largest threshold (32 MiB) from the heap rather than their own mapping, so a freed
/// trace's pages are reused, not returned to the OS and faulted in again. True if glibc took
/// both settings.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_memory_warm() -> bool {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: glibc's mallopt takes any values and says with 0 that it refused them; both
    // settings are documented in mallopt(3).
    unsafe { mallopt(M_TRIM_THRESHOLD, i32::MAX) == 1 && mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 }
}

/// Another allocator: no such setting, and no extra figure.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_memory_warm() -> bool {
    false
}
