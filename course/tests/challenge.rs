//! Challenges: one made from a lesson's build task keeps every promise the lesson's does, travels
//! in a link and comes back whole, downloads as a lesson file `lab check` accepts, and gives
//! completion codes only it verifies; a challenge that contradicts itself is refused with a
//! reason, and no link at all (random, mutated, cut) makes the reader panic.

mod common;

use std::path::Path;
use std::sync::OnceLock;

use lab_course::challenge::{Challenge, CodeError, Completion, ARRANGEMENTS_MAX, OPERATIONS_MAX};
use lab_course::share::{decode, encode_within, Shared, WholeScenario};
use lab_course::Task;

use common::course;
use lab_engine::{BatchSpec, Block, Invariant, Program};
use proptest::prelude::*;

/// Every build task of the course as a challenge an instructor could have made: the lesson's
/// design (without its program), bank, start, answer, goal and budget.
fn from_lessons() -> Vec<(String, Challenge)> {
    let mut made = Vec::new();
    for lesson in &course().lessons {
        for part in 0..lesson.steps.len() {
            if let Some(mut challenge) = Challenge::of_lesson(lesson, part) {
                challenge.title = format!("Challenge from {}", lesson.title);
                challenge.brief = "Make it **hold**: see [the lesson](#/lesson/x).".into();
                challenge.hints = vec!["Ask what the row claims.".into()];
                made.push((format!("{} part {}", lesson.id, part + 1), challenge));
            }
        }
    }
    made
}

/// The notify lesson's tracker task: small, with a start to repair.
fn notify() -> Challenge {
    from_lessons()
        .into_iter()
        .find(|(name, _)| name == "side-effect-keys part 3")
        .expect("lesson 03 has its build task")
        .1
}

#[test]
fn every_lesson_build_task_opens_as_a_challenge_and_comes_back_from_its_link() {
    let made = from_lessons();
    assert!(made.len() >= 8, "{}", made.len());
    for (name, challenge) in made {
        let link = encode_within(&Shared::Challenge(Box::new(challenge.clone())))
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let Ok(Shared::Challenge(back)) = decode(&link) else {
            panic!("{name}: the link reads back as a challenge");
        };
        assert_eq!(*back, challenge, "{name}");
        assert_eq!(back.id(), challenge.id(), "{name}");
        if let Err(error) = challenge.open() {
            // A lesson's scenario may be larger than a challenge allows; nothing else fails.
            assert!(error.contains("at most"), "{name}: {error}");
        }
    }
}

#[test]
fn a_challenge_keeps_the_promises_of_the_lesson_it_came_from() {
    let challenge = notify();
    let opened = challenge.open().expect("opens");
    let judged = opened
        .task()
        .judge(
            ARRANGEMENTS_MAX,
            &challenge.wording(&challenge.budget_words()),
            |_, _| {},
        )
        .expect("the lesson's task keeps its promises as a challenge");
    assert!(judged.figures.hold >= 1 && judged.figures.hold < judged.figures.arrangements);
    assert!(
        judged.start_breaks.is_some(),
        "the start is a program to repair"
    );
    // The reference's job: one notification, one row.
    assert_eq!(opened.build.expect.effects.get("notification"), Some(&1));
    assert_eq!(opened.build.expect.table_rows, Some(1));
    // The bank is the challenge's, in an order drawn from its id.
    let mut bank = opened.build.blocks.clone();
    let mut written = challenge.blocks.clone();
    bank.sort();
    written.sort();
    assert_eq!(bank, written);
}

#[test]
fn a_goal_keeps_only_what_the_scenario_can_break() {
    // A challenge (a link made before the builder offered only these) whose goal names every
    // invariant opens with the ones its runs can break: those the learner is told to keep.
    let mut challenge = notify();
    let scenario = challenge.scenario().unwrap();
    challenge.goal = Invariant::ALL.to_vec();
    let opened = challenge.open().unwrap();
    assert!(opened.build.goal.len() < Invariant::ALL.len());
    assert!(opened
        .build
        .goal
        .iter()
        .all(|invariant| invariant.applies(&scenario)));
    let breakable = Invariant::ALL
        .into_iter()
        .filter(|invariant| invariant.applies(&scenario));
    assert_eq!(opened.build.goal, breakable.collect::<Vec<_>>());
}

#[test]
fn a_contradictory_challenge_is_refused_with_a_reason() {
    let good = notify();
    let refused = |change: &dyn Fn(&mut Challenge), expected: &str| {
        let mut challenge = good.clone();
        change(&mut challenge);
        let error = challenge.open().expect_err(expected);
        assert!(error.contains(expected), "{error} (wanted: {expected})");
    };
    refused(&|c| c.goal.clear(), "the goal names no invariant");
    refused(
        &|c| c.goal = vec![Invariant::StopsWhenCancelled],
        "the goal names no invariant this scenario's runs can break",
    );
    refused(&|c| c.title = "  ".into(), "no title");
    refused(
        &|c| c.title = "x".repeat(101),
        "the title is 101 characters",
    );
    refused(&|c| c.hints = vec![String::new()], "hint 1 is empty");
    refused(&|c| c.explore.faults = 4, "at most 3");
    refused(
        &|c| c.blocks.push(Block::Lookup),
        "`lookup` is not a block of the notify workflow",
    );
    refused(
        &|c| {
            c.reference.lines.push(lab_engine::Line {
                block: Block::ReturnUnknown,
                depth: 0,
            })
        },
        "the answer uses",
    );
    refused(&|c| c.reference.lines[0].depth = 1, "the answer, line 1");
    refused(
        &|c| {
            c.scenario =
                WholeScenario::of(&BatchSpec::reference(OPERATIONS_MAX as u32 + 1).scenario())
        },
        "a challenge's has at most",
    );
    // The explorer's part: an answer that breaks is refused by the judge, with its schedule.
    let mut breaking = good.clone();
    breaking.reference = Program::parse(
        "try\n  send_notification\n  save_upsert\nexcept_all\n  return_unknown\nreturn_done\n",
    )
    .expect("parses");
    breaking.blocks = breaking.needed();
    breaking
        .start
        .iter_mut()
        .for_each(|line| line.locked = false);
    let opened = breaking.open().expect("its shape is fine");
    let error = opened
        .task()
        .judge(1_000, &breaking.wording("the budget"), |_, _| {})
        .expect_err("an answer that breaks");
    assert!(
        error.starts_with("the answer does not hold within the budget: "),
        "{error}"
    );
}

#[test]
fn the_bank_is_what_the_answer_needs_and_the_distractors() {
    let challenge = notify();
    let distractors = challenge.distractors();
    let remade = challenge.clone().with_distractors(&distractors);
    let (mut before, mut after) = (challenge.blocks.clone(), remade.blocks.clone());
    before.sort();
    after.sort();
    assert_eq!(before, after);
    let more = challenge.clone().with_distractors(&[Block::SaveInsert]);
    assert_eq!(more.distractors(), [Block::SaveInsert]);
}

#[test]
fn a_challenge_downloads_as_a_lesson_lab_check_accepts() {
    let challenge = notify();
    let text = lab_course::challenge::lesson::text(&challenge, false).expect("writes");
    let dir = std::env::temp_dir().join(format!("challenge-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("challenge.toml");
    let checks = lab_course::authoring::Checks {
        explore: true,
        build: true,
    };
    let (lesson, warnings) = lab_course::authoring::check_lesson_text(&path, &text, checks)
        .unwrap_or_else(|errors| {
            panic!(
                "{text}\n{}",
                errors
                    .iter()
                    .map(|error| error.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
    assert!(warnings.is_empty(), "{warnings:?}\n{text}");
    assert_eq!(
        lesson.id,
        "challenge-from-guarding-a-side-effect-the-database"
    );
    let Some(Task::Build(build)) = &lesson.steps[0].try_it else {
        panic!("the step is the build task");
    };
    assert_eq!(build.reference, challenge.reference);
    assert!(build.figures.is_some());
    // The wrong kind for its design is what `lab check` would refuse.
    let wrong = lab_course::challenge::lesson::text(&challenge, true).expect("writes");
    assert!(lab_course::authoring::check_lesson_text(Path::new("c.toml"), &wrong, checks).is_err());
}

#[test]
fn completion_codes_verify_only_for_their_challenge_and_unaltered() {
    let challenge = notify();
    let done = Completion {
        checks: 3,
        hints: 1,
    };
    let code = done.code(&challenge);
    assert_eq!(code.len(), 19, "{code}");
    assert_eq!(Completion::read(&code, &challenge), Ok(done));
    // As people type it.
    let typed = code.to_lowercase().replace('-', " ").replace('0', "o");
    assert_eq!(Completion::read(&typed, &challenge), Ok(done));
    let mut other = challenge.clone();
    other.title.push('!');
    assert_eq!(
        Completion::read(&code, &other),
        Err(CodeError::OtherChallenge)
    );
    // Every one-character change to the fields is caught.
    let chars: Vec<char> = code.chars().collect();
    for at in 0..chars.len() {
        if chars[at] == '-' {
            continue;
        }
        for replacement in ['0', '7', 'Z', 'M'] {
            if replacement == chars[at] {
                continue;
            }
            let mut changed = chars.clone();
            changed[at] = replacement;
            let changed: String = changed.into_iter().collect();
            assert_ne!(
                Completion::read(&changed, &challenge),
                Ok(done),
                "{changed}"
            );
        }
    }
    for junk in ["", "hello", "AAAA-AAAA-AAAA-AAA", "ÄÄÄÄ-AAAA-AAAA-AAAA"] {
        assert_eq!(
            Completion::read(junk, &challenge),
            Err(CodeError::Malformed),
            "{junk}"
        );
    }
}

#[test]
fn a_draft_from_a_scenario_starts_from_its_design() {
    let scenario = course().lessons[0].designs[0].scenario.clone();
    let draft = Challenge::draft(&scenario);
    let program = scenario.workflow.design_program(&scenario);
    assert_eq!(draft.reference, program);
    assert_eq!(draft.start.len(), program.lines.len());
    assert!(draft.start.iter().all(|line| !line.locked));
    // The goal: every invariant its runs can break, and no other.
    let breakable: Vec<Invariant> = Invariant::ALL
        .into_iter()
        .filter(|invariant| invariant.applies(&scenario))
        .collect();
    assert!(!breakable.is_empty() && breakable.len() < Invariant::ALL.len());
    assert_eq!(draft.goal, breakable);
    // Until it has a title, it says so.
    assert!(draft.open().unwrap_err().contains("no title"));
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A link of these content bytes, framed as the lab frames its links.
fn link_of(bytes: &[u8]) -> String {
    let mut framed = vec![lab_course::share::SHARE_VERSION];
    framed.extend(miniz_oxide::deflate::compress_to_vec(bytes, 6));
    base64(&framed)
}

/// What the page does with a link it is given: read it, and open the challenge in it.
fn read_like_the_page(text: &str) {
    if let Ok(Shared::Challenge(challenge)) = decode(text) {
        if let Ok(opened) = challenge.open() {
            // An opened challenge's design runs, and so does its answer.
            assert!(opened.scenario.validate().is_ok());
            let _ = Completion::read("AAAA-AAAA-AAAA-AAAA", &challenge);
        }
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    /// A challenge link with its content's bytes changed, cut or grown, or with its text's:
    /// a refusal or a challenge that opens, never a panic.
    #[test]
    fn mutated_challenge_links_never_panic(
        which in any::<prop::sample::Index>(),
        position in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        how in 0u8..6,
    ) {
        static LINKS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
        let contents = LINKS.get_or_init(|| {
            from_lessons()
                .into_iter()
                .map(|(_, challenge)| {
                    postcard::to_allocvec(&Shared::Challenge(Box::new(challenge))).unwrap()
                })
                .collect()
        });
        let mut bytes = contents[which.index(contents.len())].clone();
        let inner = how < 3;
        if !inner {
            use base64::Engine as _;
            bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(link_of(&bytes))
                .unwrap();
        }
        match how % 3 {
            0 => { let at = position.index(bytes.len()); bytes[at] = byte; }
            1 => bytes.truncate(cut.index(bytes.len())),
            _ => bytes.insert(position.index(bytes.len()), byte),
        }
        let text = if inner { link_of(&bytes) } else { base64(&bytes) };
        read_like_the_page(&text);
    }

    /// Random text in the link alphabet: never a panic.
    #[test]
    fn random_challenge_links_never_panic(text in "[A-Za-z0-9_-]{0,400}") {
        read_like_the_page(&text);
    }
}
