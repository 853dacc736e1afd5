// Local profiling aid (not committed).
use lab_engine::{chance as rule, Action, BatchSpec, Engine, FaultKind, WorkflowKind};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let workflow = match args[1].as_str() { "reserve" => WorkflowKind::Reserve, "ingest" => WorkflowKind::Ingest, _ => WorkflowKind::Pipeline };
    let records: u32 = args[2].parse().unwrap();
    let traced = args[3] == "traced";
    let faults = match workflow {
        WorkflowKind::Reserve => vec![rule(FaultKind::LoseReply, Action::ProviderSubmit, 50), rule(FaultKind::Busy, Action::ProviderSubmit, 50)],
        WorkflowKind::Ingest => vec![rule(FaultKind::Crash, Action::SinkSend, 20), rule(FaultKind::DeliverTwice, Action::Receive, 30), rule(FaultKind::LoseReply, Action::TableWrite, 30)],
        _ => vec![rule(FaultKind::Busy, Action::TableWrite, 50)],
    };
    let scenario = BatchSpec { workflow, faults, ..BatchSpec::reference(records) }.scenario();
    let rounds = 3_000_000 / records.max(1) / 7;
    let start = std::time::Instant::now();
    let mut events = 0u64;
    for _ in 0..rounds {
        if traced { events += u64::from(Engine::run(scenario.clone()).unwrap().len()); }
        else { events += u64::from(Engine::run_quiet(scenario.clone()).unwrap().0); }
    }
    println!("{} ns/event", start.elapsed().as_nanos() as f64 / events as f64);
}
