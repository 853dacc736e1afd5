//! Where the key comes from, as a line of the program: a key line sets the run's key each time
//! it runs (in a retry loop, on every pass), a line that reads the key must come after one, and
//! a program without a key line takes its key from the design's switch, as it always has.

use lab_engine::{Budget, Engine, Explorer, FaultKind, Invariant, Trace};

mod scenarios;

use scenarios::{all_hold, broken, run, scenario};

/// A checkout whose first submit loses its reply and whose loop retries it, with `key` placed
/// where `program` puts `{key}`.
fn checkout(program: &str) -> String {
    format!(
        r#"
workflow = "reserve"
program = """
{program}"""
faults = [{{ fault = "lose_reply", at = "provider.submit", nth = 1 }}]
[switches.retry]
attempts_max = 3
eligible = ["temporary", "unknown_completion"]
[[operations]]
id = "pay-77"
payload = {{ amount_eur = 12 }}
[[workers]]
name = "checkout"
runs = [{{ op = "pay-77" }}]
"#
    )
}

const LOOP: &str = "retry_loop
  try
    submit
  except_busy
    sleep
  except_timeout
    sleep
else
  return_exhausted
return_verified
";

fn before_the_loop(key: &str) -> String {
    checkout(&format!("{key}\n{LOOP}"))
}

fn inside_the_loop(key: &str) -> String {
    checkout(&LOOP.replace("retry_loop\n", &format!("retry_loop\n  {key}\n")))
}

/// The keys the provider's records were filed under, in order.
fn provider_keys(text: &str) -> Vec<String> {
    let trace = run(text);
    let world = trace.state_at(trace.len());
    world
        .provider
        .iter()
        .map(|record| record.key.to_string())
        .collect()
}

#[test]
fn a_key_line_inside_the_loop_draws_on_every_pass_and_before_it_once() {
    let inside = inside_the_loop("key_uuid4");
    let keys = provider_keys(&inside);
    assert_eq!(keys.len(), 2, "two passes, two keys, two records: {keys:?}");
    assert_ne!(keys[0], keys[1]);
    assert!(broken(&run(&inside), Invariant::OneEffect).is_some());

    let before = before_the_loop("key_uuid4");
    let keys = provider_keys(&before);
    assert_eq!(keys.len(), 1, "the retry carries the first key: {keys:?}");
    let trace = run(&before);
    assert!(all_hold(&trace));
    assert!(trace
        .events
        .iter()
        .any(|event| event.outcome_text().contains("no new effect")));
}

#[test]
fn the_saved_key_is_the_same_on_every_pass_wherever_it_is_read() {
    assert_eq!(provider_keys(&inside_the_loop("key_saved")).len(), 1);
    assert!(all_hold(&run(&inside_the_loop("key_saved"))));
    assert!(all_hold(&run(&before_the_loop("key_source_id"))));
}

#[test]
fn the_explorer_refutes_the_draw_in_the_loop_and_passes_the_draw_before_it() {
    let budget = Budget {
        kinds: Some(vec![
            FaultKind::LoseRequest,
            FaultKind::LoseReply,
            FaultKind::Busy,
            FaultKind::Timeout,
        ]),
        ..Budget::default()
    };
    let wrong =
        Explorer::run(scenario(&inside_the_loop("key_uuid4")), budget.clone()).expect("explores");
    assert!(wrong.extent.complete);
    let example = wrong.counterexample.expect("a refuting schedule");
    let replay = Engine::run(example.scenario.clone()).expect("the counterexample runs");
    assert!(broken(&replay, Invariant::OneEffect).is_some());

    let right = Explorer::run(scenario(&before_the_loop("key_uuid4")), budget).expect("explores");
    assert!(right.extent.complete);
    assert!(right.counterexample.is_none(), "{:?}", right.counterexample);
}

#[test]
fn a_line_that_reads_the_key_before_any_key_line_is_refused() {
    let text =
        checkout("try\n  submit\nexcept_timeout\n  return_unknown\nkey_uuid4\nreturn_verified\n");
    let error = Engine::run(scenario(&text)).expect_err("submit before the key line");
    let message = error.to_string();
    assert!(
        message.contains("`submit` reads `key`, but no line above it sets `key`"),
        "{message}"
    );
    // The same program without the key line takes its key from the switch, above the program.
    let text = checkout("try\n  submit\nexcept_timeout\n  return_unknown\nreturn_verified\n");
    assert!(Engine::run(scenario(&text)).is_ok());
}

#[test]
fn a_caller_chosen_key_and_a_key_line_do_not_mix() {
    let text = before_the_loop("key_uuid4").replace(
        r#"runs = [{ op = "pay-77" }]"#,
        r#"runs = [{ op = "pay-77", key = "chosen" }]"#,
    );
    let message = Engine::run(scenario(&text))
        .expect_err("two keys")
        .to_string();
    assert!(message.contains("the program cannot set one"), "{message}");
}

/// The code panel's lines that set the key.
fn key_lines(trace: &Trace) -> Vec<&str> {
    trace
        .code
        .iter()
        .map(String::as_str)
        .filter(|line| line.trim_start().starts_with("key = "))
        .collect()
}

#[test]
fn without_a_key_line_the_key_is_the_switchs_as_before_and_the_code_says_which() {
    // No key line: the switch's key, made when the run is received, printed above the program.
    let plain = checkout(LOOP).replace(
        "[switches.retry]",
        "[switches]\nkey = \"fresh_random\"\n[switches.retry]",
    );
    let trace = run(&plain);
    let first = trace.events.first().expect("events");
    assert!(
        first.outcome_text().contains("(key k-"),
        "{}",
        first.outcome_text()
    );
    assert_eq!(key_lines(&trace), ["    key = uuid4()  # a random UUID"]);
    // The same key drawn from the same seed: the switch and a key line before the loop agree.
    assert_eq!(
        provider_keys(&plain),
        provider_keys(&before_the_loop("key_uuid4"))
    );

    // A key line: the code shows that line only, where it stands, and the arrival says so.
    let trace = run(&inside_the_loop("key_uuid4"));
    assert_eq!(
        key_lines(&trace),
        ["        key = uuid4()  # a random UUID"]
    );
    let first = trace.events.first().expect("events");
    assert!(first
        .outcome_text()
        .ends_with("(its key is set by the program)"));
}

/// Two users upload the same bytes; the first upload is delivered twice.
fn uploads(key: &str) -> String {
    format!(
        r#"
workflow = "ingest"
switches = {{ key = "content_hash" }}
program = """
{key}
try
  check_tracking
  if_not_committed
    transaction
      save_upsert
      tracking_insert
  send_email_logged
  if_committed
    return_skipped
  return_ingested
except_timeout
  return_unknown
except_busy
  return_failed
"""
operations = [
  {{ id = "upload-501", payload = {{ file_sha256 = "9f2c41e0", bytes = 20480 }} }},
  {{ id = "upload-502", payload = {{ file_sha256 = "9f2c41e0", bytes = 20480 }} }},
]
workers = [{{ name = "upload-job", runs = [{{ op = "upload-501" }}, {{ op = "upload-502" }}] }}]
faults = [{{ fault = "deliver_twice", at = "receive", nth = 1 }}]
"#
    )
}

#[test]
fn each_upload_key_meets_the_redelivery_and_the_second_user_as_the_source_says() {
    let results = |key: &str| -> Vec<String> {
        run(&uploads(key))
            .results()
            .into_iter()
            .flat_map(|(_, results)| results)
            .collect()
    };
    // The upload's own id: the redelivery is skipped, the second user's file ingested.
    assert_eq!(
        results("key_source_id"),
        ["ingested", "skipped", "ingested"]
    );
    assert!(all_hold(&run(&uploads("key_source_id"))));
    // The content's hash: the second user's file is taken for a repeat.
    let trace = run(&uploads("key_content_hash"));
    assert!(broken(&trace, Invariant::NoSuccessWithoutEffect).is_some());
    // A per-delivery field, or a fresh key: the redelivery is not recognised.
    for key in ["key_with_received_at", "key_uuid4"] {
        let trace = run(&uploads(key));
        assert!(broken(&trace, Invariant::OneEffect).is_some(), "{key}");
    }
    // Without a key line, the switch's content hash, as the lesson's design has it.
    // (A blank line where the key line stood.)
    let plain = run(&uploads(""));
    assert!(broken(&plain, Invariant::NoSuccessWithoutEffect).is_some());
}
