//! The command line as a user meets it: every command has its own help (`lab COMMAND --help`
//! and `lab help COMMAND` alike), a bad option or value is a usage error (exit 2) that names it,
//! and an error in a file names its file, line and column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Each command and what its help must name.
const COMMANDS: [(&str, &[&str]); 7] = [
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
    ("challenge", &["<FILE>", "--part", "--title", "--brief"]),
    (
        "generate",
        &["--records", "--workers", "--workflow", "--seed"],
    ),
    (
        "retries",
        &[
            "--clients",
            "--capacity",
            "--policy",
            "--attempts",
            "--budget",
            "--seed",
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
    let cases: [(&[&str], &str); 6] = [
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
