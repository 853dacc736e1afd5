//! The command line as a user meets it: every command has its own help (`lab COMMAND --help`
//! and `lab help COMMAND` alike), a bad option or value is a usage error (exit 2) that names it,
//! and an error in a file names its file, line and column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Each command and what its help must name.
const COMMANDS: [(&str, &[&str]); 8] = [
    ("run", &["--seed", "--json", "--design", "--switch"]),
    (
        "explore",
        &[
            "--design",
            "--faults",
            "--preemptions",
            "--kinds",
            "--seconds",
            "--json",
        ],
    ),
    ("check", &["[DIR|FILE]", "[default: lessons]"]),
    ("tasks", &["[DIR]", "[default: lessons]"]),
    ("coverage", &["[FILE]", "[default: lessons/coverage.toml]"]),
    ("challenge", &["<FILE>", "--part", "--title", "--brief"]),
    (
        "generate",
        &["--records", "--workers", "--workflow", "--seed"],
    ),
    (
        "retries",
        &[
            "--model",
            "--clients",
            "--capacity",
            "--policy",
            "--attempts",
            "--budget",
            "--seed",
            "--seeds",
            "--layers",
            "--json",
        ],
    ),
];

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("lab runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in a folder of its own under the target directory.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("a scratch file");
    path
}

#[test]
fn help_lists_every_command() {
    let out = lab(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for (command, _) in COMMANDS {
        assert!(
            help.contains(&format!("\n  {command} ")),
            "{command} in:\n{help}"
        );
    }
    assert_eq!(text(&lab(&["help"]).stdout), help);
}

#[test]
fn every_command_has_its_own_help() {
    for (command, options) in COMMANDS {
        let out = lab(&[command, "--help"]);
        assert!(out.status.success(), "lab {command} --help");
        let help = text(&out.stdout);
        assert!(help.contains(&format!("Usage: lab {command}")), "{help}");
        for option in options {
            assert!(
                help.contains(option),
                "lab {command} --help names {option}:\n{help}"
            );
        }
        let via_help = lab(&["help", command]);
        assert!(via_help.status.success());
        assert_eq!(text(&via_help.stdout), help, "lab help {command}");
    }
}

#[test]
fn no_command_prints_the_usage_and_fails() {
    let out = lab(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: lab <COMMAND>"));
}

#[test]
fn a_bad_option_is_a_usage_error_that_names_it() {
    let out = lab(&["run", "lessons/01-lost-reply.toml", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let error = text(&out.stderr);
    assert!(error.contains("'--bogus'"), "{error}");
    assert!(error.contains("Usage: lab run"), "{error}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_bad_value_is_a_usage_error_that_says_what_is_right() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["run", "f.toml", "--switch", "nothing=on"],
            "no switch is called \"nothing\"; known: reconcile, ",
        ),
        (
            &["run", "f.toml", "--switch", "reconcile=maybe"],
            "neither on nor off",
        ),
        (&["run", "f.toml", "--seed", "x"], "'--seed <N>'"),
        (&["explore", "f.toml", "--faults", "9"], "9 is not in 0..=3"),
        (
            &["explore", "f.toml", "--kinds", "crash,lose"],
            "no fault is called \"lose\"; known: ",
        ),
        (
            &["generate", "--workflow", "nothing"],
            "no workflow is called \"nothing\"; known: reserve",
        ),
        (
            &["retries", "--model", "queue"],
            "no model is called \"queue\"; known: overlap or capacity",
        ),
        (
            &["retries", "--capacity", "2"],
            "--capacity is read only by --model \"capacity\"",
        ),
    ];
    for (args, expected) in cases {
        let out = lab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = text(&out.stderr);
        assert!(error.contains(expected), "{args:?}: {error}");
    }
}

#[test]
fn options_that_do_not_go_together_are_a_usage_error() {
    let out = lab(&["retries", "--layers", "3", "--attempts", "40"]);
    assert_eq!(out.status.code(), Some(2));
    let error = text(&out.stderr);
    assert!(
        error.contains("with --layers it must be from 1 to 10"),
        "{error}"
    );
    assert!(error.contains("Usage: lab retries"), "{error}");
}

#[test]
fn an_error_in_a_file_names_its_line_and_column() {
    let path = scratch(
        "broken.toml",
        "seed = 1\nworkflow = \"reserve\"\nstep_cap = [\n",
    );
    let out = lab(&["run", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    let error = text(&out.stderr);
    assert!(
        error.contains(&format!("error: {}:3:", path.display())),
        "{error}"
    );
    assert!(error.ends_with("1 error(s)\n"), "{error}");
}

#[test]
fn a_generated_batch_runs() {
    let out = lab(&[
        "generate",
        "--records",
        "3",
        "--workers",
        "1",
        "--seed",
        "5",
    ]);
    assert!(out.status.success());
    let path = scratch("batch.toml", &text(&out.stdout));
    let out = lab(&["run", path.to_str().expect("a UTF-8 path"), "--seed", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let trace = text(&out.stdout);
    assert!(
        trace.starts_with(&format!("== {} (seed 5, ", path.display())),
        "{trace}"
    );
    assert!(trace.contains("-- invariants"), "{trace}");
}

#[test]
fn explore_reports_in_the_shared_words() {
    let out = lab(&["explore", "lessons/02-naive-retry.toml", "--faults", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("Every schedule within the budget was explored."),
        "{report}"
    );
    assert!(report.contains(": broken ("), "{report}");
    assert!(report.contains("-- Shortest counterexample: "), "{report}");
}

/// A course of one lesson (a crash after the submit; a blind design and a safe one) with a
/// coverage map: `MAP_HEAD`, the first idea's mappings ((lesson, step title), task), then `rest`;
/// in a folder of its own. Returns the map's path.
fn course_with_map(name: &str, mappings: &[((&str, &str), &str)], rest: &str) -> PathBuf {
    let lines: String = mappings
        .iter()
        .map(|((lesson, step), task)| {
            format!("  {{ lesson = \"{lesson}\", step = \"{step}\", task = \"{task}\" }},\n")
        })
        .collect();
    let map = format!("{MAP_HEAD}{lines}]\n{rest}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-coverage-{name}"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let files = [
        (
            "course.toml",
            "format = 1\ntitle = \"Scratch\"\n\n[[sections]]\ntitle = \"Crashes\"\nlessons = [\"crash\"]\n",
        ),
        ("01-crash.toml", CRASH_LESSON),
        ("coverage.toml", &map),
    ];
    for (file, contents) in files {
        std::fs::write(dir.join(file), contents).expect("a scratch file");
    }
    dir.join("coverage.toml")
}

const CRASH_LESSON: &str = r#"id = "crash"
title = "The worker died after the work"
summary = "A crash between the submit and the checkpoint."
minutes = 3

[scenario]
workflow = "reserve"
operations = [{ id = "OP-7", payload = { item = "lamp" } }]
workers = [{ name = "worker", runs = [{ op = "OP-7" }] }]
faults = [{ fault = "crash", at = "journal.update", nth = 1 }]

[[designs]]
id = "blind"
label = "Resubmit blindly"
kind = "unsafe"
scenario = { switches = { reconcile = false }, provider = { dedup = false } }

[[designs]]
id = "lookup"
label = "Look it up first"
kind = "safe"

[[steps]]
title = "The restart submits again"
at = { broke = "one_effect", before = true }
text = "The worker restarts and runs the same operation again."

[steps.try]
switch = "reconcile"
on = true
expect = "holds"

[[steps.questions]]
kind = "predict"
prompt = "What will the second submit do?"
options = [
  { text = "Create a second record.", correct = true, explain = "Nothing looked first." },
  { text = "Nothing: the first submit failed.", correct = false, explain = "It succeeded; the crash came after it." },
]
"#;

/// A coverage map's first lines: its format, and one idea whose mappings follow.
const MAP_HEAD: &str = r#"format = 1

[[items]]
source = "seed 002"
item = "reconcile before resubmitting"
map = [
"#;

#[test]
fn coverage_prints_the_map_when_every_idea_is_run() {
    let restart = ("crash", "The restart submits again");
    let map = course_with_map("complete", &[(restart, "switch"), (restart, "predict")], "");
    let out = lab(&["coverage", map.to_str().expect("a UTF-8 path")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(
        printed.starts_with(
            "seed 002: reconcile before resubmitting -> crash, \"The restart submits again\", switch\n\
             seed 002: reconcile before resubmitting -> crash, \"The restart submits again\", predict\n"
        ),
        "{printed}"
    );
    assert!(
        printed.contains("ok: 1 ideas, each run by the learner, at 2 steps"),
        "{printed}"
    );
}

#[test]
fn coverage_names_every_missing_lesson_step_and_task_and_every_idea_not_yet_mapped() {
    let restart = ("crash", "The restart submits again");
    let mappings = [
        (restart, "predict"),
        (("no-such-lesson", restart.1), "predict"),
        (("crash", "No such step"), "predict"),
        (restart, "build"),
        (restart, "quiz"),
    ];
    let map = course_with_map(
        "broken",
        &mappings,
        r#"
[[items]]
source = "issue 24"
item = "a content-hash key"
pending = "on another branch"
map = []
"#,
    );
    let path = map.to_str().expect("a UTF-8 path");
    let out = lab(&["coverage", path]);
    assert_eq!(out.status.code(), Some(1));
    let printed = text(&out.stdout);
    assert!(
        printed.contains("issue 24: a content-hash key -> not yet mapped\n"),
        "{printed}"
    );
    assert!(!printed.contains("ok:"), "{printed}");
    let errors = text(&out.stderr);
    for expected in [
        format!("error: {path}:8:3: \"reconcile before resubmitting\": lesson \"no-such-lesson\" does not exist"),
        format!("error: {path}:9:3: \"reconcile before resubmitting\": lesson \"crash\" has no step \"No such step\""),
        format!("error: {path}:10:3: \"reconcile before resubmitting\": step \"The restart submits again\" of lesson \"crash\" has no build task (it has: switch, predict)"),
        format!("error: {path}:11:3: \"reconcile before resubmitting\": task \"quiz\" is not a kind of task or question"),
        format!("error: {path}:16:8: \"a content-hash key\" is not yet mapped: no step runs it (on another branch)"),
    ] {
        assert!(errors.contains(&expected), "{expected}\nin:\n{errors}");
    }
    assert!(errors.ends_with("5 error(s)\n"), "{errors}");
}

#[test]
fn retries_over_many_seeds_reports_each_policy_s_mean_spread_and_wins_the_same_each_time() {
    let args = ["retries", "--clients", "20", "--seeds", "12", "--seed", "3"];
    let out = lab(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert_eq!(text(&lab(&args).stdout), report, "the same report twice");
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines[0].starts_with("overlap model (writes that overlap in time conflict): 20 clients")
            && lines[0].ends_with("seeds 3 to 14"),
        "{report}"
    );
    // Two measures, each a heading, a header row and one row per policy.
    for (at, title) in [(1, "calls (the work)"), (9, "completion tick (the time)")] {
        assert_eq!(lines[at].trim(), title, "{report}");
        let header: Vec<&str> = lines[at + 1].split_whitespace().collect();
        assert_eq!(
            header[..7],
            ["policy", "mean", "sd", "min", "p50", "p90", "max"]
        );
        for (row, policy) in lines[at + 2..at + 8].iter().zip([
            "none",
            "constant",
            "exponential",
            "full_jitter",
            "equal_jitter",
            "decorrelated_jitter",
        ]) {
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!((cells[0], cells.len()), (policy, 8), "{row}");
            let figures: Vec<f64> = cells[1..]
                .iter()
                .map(|cell| cell.parse().unwrap())
                .collect();
            let (min, p50, p90, max) = (figures[2], figures[3], figures[4], figures[5]);
            assert!(min <= p50 && p50 <= p90 && p90 <= max, "{row}");
            assert!(
                min <= figures[0] && figures[0] <= max,
                "the mean lies within: {row}"
            );
            assert!(figures[6] <= 12.0, "wins out of 12 seeds: {row}");
        }
    }
    assert!(lines[17].starts_with("  least mean work: "), "{report}");
    assert!(lines[17].contains(" of 12 seeds ("), "{report}");
    assert!(lines[18].starts_with("  least mean time: "), "{report}");

    // The JSON: one line whose means are the single-seed runs' means.
    let json = text(&lab(&[&args[..], &["--json"]].concat()).stdout);
    let summary: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON line");
    assert_eq!(summary["seeds"], 12);
    let full = &summary["policies"][3];
    assert_eq!(full["policy"], "full_jitter");
    let mut calls = 0.0;
    for seed in 3..15 {
        let seed = seed.to_string();
        let one = text(
            &lab(&[
                "retries",
                "--clients",
                "20",
                "--seeds",
                "1",
                "--seed",
                &seed,
                "--policy",
                "full_jitter",
                "--json",
            ])
            .stdout,
        );
        let run: serde_json::Value = serde_json::from_str(one.trim()).expect("one run");
        calls += run["calls"].as_f64().unwrap();
    }
    // serde_json reads a float back to within its last digit.
    let mean = full["calls"]["mean"].as_f64().unwrap();
    assert!(
        (mean - calls / 12.0).abs() < 1e-9,
        "{mean} against {}",
        calls / 12.0
    );
}

#[test]
fn retries_for_one_seed_prints_that_run() {
    let out = lab(&[
        "retries",
        "--model",
        "capacity",
        "--clients",
        "4",
        "--seeds",
        "1",
    ]);
    assert!(out.status.success());
    let report = text(&out.stdout);
    assert!(
        report.starts_with("capacity model (1 call(s) a tick): 4 clients, 1000 attempts, retry budget none, pauses 10..1000 ticks, seed 0\n"),
        "{report}"
    );
    // No pause: one winner a tick, 4 + 3 + 2 + 1 calls, the last at tick 3.
    let none: Vec<&str> = report.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(none[..5], ["none", "10", "3", "4", "0"], "{report}");
}
