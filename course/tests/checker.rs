//! The checker catches a lesson that does not do what it says, and names the file and line.

use std::fs;
use std::path::PathBuf;

use lab_course::authoring;

fn lessons_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

/// A folder with a manifest listing lost-reply, and lost-reply edited by `edit`.
fn course_with(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    course_of(name, "01-lost-reply.toml", edit)
}

/// A folder with a manifest listing only the lesson of `file`, and that lesson edited by `edit`,
/// its prerequisites left out (the folder has no other lesson).
fn course_of(name: &str, file: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-checker-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let lesson = fs::read_to_string(lessons_dir().join(file)).unwrap();
    let id = lesson
        .lines()
        .find_map(|line| line.strip_prefix("id = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("the lesson has an id")
        .to_string();
    let manifest =
        format!("format = 1\ntitle = \"t\"\n[[sections]]\ntitle = \"s\"\nlessons = [\"{id}\"]\n");
    fs::write(dir.join("course.toml"), manifest).unwrap();
    let prerequisites = lesson
        .lines()
        .find(|line| line.starts_with("prerequisites = "))
        .unwrap_or_default()
        .to_string();
    let alone = if prerequisites.is_empty() {
        lesson
    } else {
        lesson.replacen(&prerequisites, "prerequisites = []", 1)
    };
    fs::write(dir.join(file), edit(alone)).unwrap();
    dir
}

fn errors(dir: &std::path::Path) -> Vec<String> {
    match authoring::load(dir) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_unedited_lesson_passes() {
    assert_eq!(
        errors(&course_with("ok", |text| text)),
        Vec::<String>::new()
    );
}

#[test]
fn a_try_it_that_does_not_fix_the_design_is_an_error_at_its_line() {
    let dir = course_with("try", |text| {
        let blind = "design = \"blind\"\nat = { fault = 2 }\n";
        assert!(
            text.contains(blind),
            "lesson 01 has a step on the blind design"
        );
        text.replacen(
            blind,
            &format!(
                "{blind}try = {{ switch = \"trust_not_found\", on = false, expect = \"holds\" }}\n"
            ),
            1,
        )
    });
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    let line = fs::read_to_string(dir.join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .position(|line| line.starts_with("try = "))
        .unwrap()
        + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{line}:")),
        "{found:?}"
    );
    assert!(found[0].contains("breaks an invariant"), "{found:?}");
}

#[test]
fn an_unsafe_design_that_does_not_break_is_an_error() {
    let dir = course_with("unsafe", |text| {
        text.replace(
            "scenario = { switches = { reconcile = false }, provider = { dedup = false } }",
            "scenario = { switches = { reconcile = false }, provider = { dedup = true } }",
        )
    });
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("is unsafe but breaks no invariant")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|error| error.contains("expected provider_records = 3, but the run gives 2")),
        "{found:?}"
    );
}

#[test]
fn a_typo_is_reported_with_line_and_column() {
    let dir = course_with("typo", |text| {
        text.replacen("\nminutes = ", "\nminuets = ", 1)
    });
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("01-lost-reply.toml:4:1: unknown field `minuets`")),
        "{found:?}"
    );
}

#[test]
fn a_fault_the_workflow_does_not_declare_is_an_error_at_each_variant_line() {
    let dir = course_with("fault", |text| {
        text.replacen(
            "fault = \"lose_reply\"\nat = \"provider.submit\"",
            "fault = \"lose_reply\"\nat = \"journal.get\"",
            1,
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    // Each design's id is the line after its [[designs]] header.
    let lines: Vec<&str> = text.lines().collect();
    let variant_lines: Vec<usize> = (1..lines.len())
        .filter(|&index| lines[index - 1] == "[[designs]]")
        .map(|index| index + 1)
        .collect();
    assert!(!variant_lines.is_empty());
    for line in variant_lines {
        assert!(
            found.iter().any(
                |error| error.contains(&format!("01-lost-reply.toml:{line}:"))
                    && error.contains(
                        "fault lose_reply cannot strike at journal.get in the reserve workflow; \
                     there it can strike at: provider.submit"
                    )
            ),
            "no error at line {line}: {found:?}"
        );
    }
}

#[test]
fn an_unsafe_link_or_image_is_an_error_at_its_line() {
    let dir = course_with("links", |text| {
        text.replacen(
            "(`OP-002`). Before calling out,",
            "(`OP-002`). Before [calling](&#106;ava&#x09;script:alert(1)) out,\n![a chart](https://example.org/chart.png)",
            1,
        )
    });
    let found = errors(&dir);
    assert_eq!(found.len(), 2, "{found:?}");
    let lines: Vec<String> = fs::read_to_string(dir.join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let line_of = |needle: &str| lines.iter().position(|line| line.contains(needle)).unwrap() + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{}:", line_of("[calling]")))
            && found[0].contains("not allowed"),
        "{found:?}"
    );
    assert!(
        found[1].contains(&format!("01-lost-reply.toml:{}:", line_of("![a chart]")))
            && found[1].contains("image"),
        "{found:?}"
    );
}

#[test]
fn a_lesson_file_that_no_section_lists_is_an_error() {
    let dir = course_with("unlisted", |text| text);
    let other = fs::read_to_string(lessons_dir().join("02-naive-retry.toml")).unwrap();
    fs::write(dir.join("02-naive-retry.toml"), other).unwrap();
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("course.toml")
                && error.contains("is not listed in any section")),
        "{found:?}"
    );
}

#[test]
fn a_duplicate_lesson_id_is_an_error_where_the_second_id_is_written() {
    let dir = course_with("duplicate-id", |text| text);
    let copy = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    // The id's value starts at column 6 of line 1 (`id = "lost-reply"`).
    fs::write(dir.join("99-copy.toml"), copy).unwrap();
    let found = errors(&dir);
    assert!(
        found.iter().any(|error| error.contains(
            "99-copy.toml:1:6: lesson id \"lost-reply\" is also used by 01-lost-reply.toml"
        )),
        "{found:?}"
    );
}

#[test]
fn a_late_prerequisite_is_an_error_where_it_is_written() {
    let dir = course_with("prerequisite", |text| {
        text.replacen(
            "prerequisites = []",
            "prerequisites = [\n  \"lost-reply\",\n  \"naive-retry\",\n]",
            1,
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    let line = |needle: &str| text.lines().position(|line| line.contains(needle)).unwrap() + 1;
    // Both are reported, each at its own line: a lesson cannot require itself, nor a later one.
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].contains(&format!(
            "01-lost-reply.toml:{}:3: prerequisite \"lost-reply\"",
            line("  \"lost-reply\",")
        )),
        "{found:?}"
    );
    assert!(
        found[1].contains(&format!(
            "01-lost-reply.toml:{}:3: prerequisite \"naive-retry\"",
            line("\"naive-retry\"")
        )),
        "{found:?}"
    );
}

#[test]
fn a_try_it_whose_changed_run_ends_before_its_step_is_an_error() {
    // Lesson 17's first design, with the key fixed at its last event: the fixed run is shorter,
    // so the lab could not stay at the step's event and the task would vanish.
    let dir = std::env::temp_dir().join(format!("lab-checker-short-try-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let manifest =
        "format = 1\ntitle = \"t\"\n[[sections]]\ntitle = \"s\"\nlessons = [\"review\"]\n";
    fs::write(dir.join("course.toml"), manifest).unwrap();
    let lesson = fs::read_to_string(lessons_dir().join("17-review.toml")).unwrap();
    let prerequisites = lesson
        .lines()
        .find(|line| line.starts_with("prerequisites = "))
        .unwrap();
    let edited = lesson
        .replacen(prerequisites, "prerequisites = []", 1)
        .replacen(
            "at = \"end\"\ntext = \"\"\"\nThree faults",
            "at = \"end\"\ntry = { switch = \"stable_key\", on = true, expect = \"holds\" }\ntext = \"\"\"\nThree faults",
            1,
        );
    assert_ne!(edited, lesson, "the edit applies");
    fs::write(dir.join("17-review.toml"), edited).unwrap();
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("the task would vanish when flipped"),
        "{found:?}"
    );
}

#[test]
fn a_file_that_breaks_off_after_an_equals_sign_says_what_is_missing() {
    let broken = |text: String| format!("{text}\n[extra]\nkind =");
    let lesson = fs::read_to_string(lessons_dir().join("01-lost-reply.toml")).unwrap();
    let last_line = broken(lesson).lines().count();
    let found = errors(&course_with("breaks-off", broken));
    let expected = format!(
        "01-lost-reply.toml:{last_line}:7: the TOML breaks off here: a value, a closing quote or a bracket is missing"
    );
    assert!(
        found.iter().any(|error| error.ends_with(&expected)),
        "{found:?}"
    );
}

/// The stale-lookup lesson with its "inject" task line replaced by `task`.
fn with_task(name: &str, task: &str) -> Vec<String> {
    let inject = "try = { inject = { fault = \"stale_lookup\", at = \"provider.lookup\", nth = 2 }, expect = \"holds\" }";
    let task = task.to_string();
    errors(&course_of(name, "14-stale-lookup.toml", move |text| {
        assert!(
            text.contains(inject),
            "the stale-lookup lesson has its inject task"
        );
        text.replace(inject, &task)
    }))
}

fn one_error_containing(found: &[String], words: &str) {
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(words), "{found:?}");
}

#[test]
fn an_injected_fault_must_give_the_promised_outcome() {
    let found = with_task(
        "inject-breaks",
        "try = { inject = { fault = \"stale_lookup\", at = \"provider.lookup\", nth = 2 }, expect = \"breaks\" }",
    );
    one_error_containing(&found, "every invariant holds in the changed run");
}

#[test]
fn an_injected_fault_must_be_declared_where_it_strikes() {
    let found = with_task(
        "inject-undeclared",
        "try = { inject = { fault = \"stale_lookup\", at = \"provider.submit\", nth = 1 }, expect = \"holds\" }",
    );
    one_error_containing(&found, "the fault cannot be injected here");
}

#[test]
fn an_inject_task_needs_a_predict_question() {
    let dir = course_of("inject-no-predict", "14-stale-lookup.toml", |text| {
        let start = text
            .find("title = \"If the provider offers a key, use it\"")
            .unwrap();
        let question = start + text[start..].find("[[steps.questions]]").unwrap();
        let next = question + text[question..].find("[[steps]]").unwrap();
        format!("{}{}", &text[..question], &text[next..])
    });
    one_error_containing(&errors(&dir), "asks the learner to predict first");
}

/// Lesson 01 with `task` on its part "A lost request" (the next part is at the second fault).
fn on_lost_request(name: &str, task: &str) -> Vec<String> {
    let task = format!("at = {{ fault = 1 }}\n{task}\n");
    errors(&course_with(name, move |text| {
        text.replacen("at = { fault = 1 }\n", &task, 1)
    }))
}

#[test]
fn a_run_until_must_be_reached_within_its_step() {
    let found = on_lost_request("until-late", "try = { until = { broke = \"one_effect\" } }");
    one_error_containing(&found, "past the next step");
    let found = on_lost_request(
        "until-early",
        "try = { until = { action = \"receive\", nth = 1 } }",
    );
    one_error_containing(&found, "name an event after it");
    assert_eq!(
        on_lost_request("until-ok", "try = { until = { fault = 2 } }"),
        Vec::<String>::new(),
        "the next part's own event is still this part's to reach"
    );
}

#[test]
fn a_wrong_line_must_be_a_line_of_the_code_panel() {
    let found = with_task(
        "find-line",
        "try = { find_line = \"no such line\", explain = \"x\" }",
    );
    one_error_containing(
        &found,
        "no line of this design's code panel contains \"no such line\"",
    );
}

#[test]
fn a_task_names_one_kind() {
    let found = with_task(
        "two-kinds",
        "try = { switch = \"reconcile\", on = true, expect = \"holds\", find_line = \"key\" }",
    );
    one_error_containing(&found, "names switch and find_line");
}

#[test]
fn the_correct_policy_must_do_the_least_work() {
    let choose = "try = { choose = \"Which policy?\", contention = { model = \"capacity\", clients = 50, capacity_per_tick = 1, seed = 3 }, options = [{ label = \"None\", policy = \"none\", correct = true, explain = \"x\" }, { label = \"Full jitter\", policy = \"full_jitter\", correct = false, explain = \"x\" }] }";
    let found = with_task("policy", choose);
    one_error_containing(&found, "the correct policy must do the least work");
}

#[test]
fn a_capacity_needs_the_capacity_model() {
    let choose = "try = { choose = \"Which policy?\", contention = { clients = 50, capacity_per_tick = 2, seed = 3 }, options = [{ label = \"None\", policy = \"none\", correct = true, explain = \"x\" }, { label = \"Full jitter\", policy = \"full_jitter\", correct = false, explain = \"x\" }] }";
    let found = with_task("policy-model", choose);
    one_error_containing(
        &found,
        "contention: capacity_per_tick is read only by model = \"capacity\"",
    );
}

#[test]
fn a_choose_option_changes_one_thing() {
    let choose = "try = { choose = \"Which write?\", options = [{ label = \"Ignore\", write = \"insert_or_ignore\", key = \"source_id\", correct = true, explain = \"x\" }, { label = \"Upsert\", write = \"upsert\", correct = false, explain = \"x\" }] }";
    let found = with_task("choose-two-changes", choose);
    one_error_containing(
        &found,
        "option \"Ignore\" changes one thing: a switch (switch and on), a key, a write or a policy",
    );
}

#[test]
fn only_the_correct_design_may_keep_the_promise() {
    // Both a lookup and the provider's dedup keep lesson 01's blind design from breaking.
    let choose = "try = { choose = \"Which fix?\", options = [{ label = \"Look it up\", switch = \"reconcile\", on = true, correct = true, explain = \"x\" }, { label = \"Deduplicate\", switch = \"provider_dedup\", on = true, correct = false, explain = \"x\" }] }";
    let dir = course_with("choose-two", |text| {
        let blind = "design = \"blind\"\nat = { fault = 2 }\n";
        assert!(
            text.contains(blind),
            "lesson 01 has a step on the blind design"
        );
        text.replacen(blind, &format!("{blind}{choose}\n"), 1)
    });
    one_error_containing(&errors(&dir), "is marked wrong, but its run also shows");
}

#[test]
fn a_hunt_must_have_something_to_find() {
    // The key-retention lesson's hunt, with only faults the provider's deduplication survives.
    let dir = course_of("hunt-nothing", "07-key-retention.toml", |text| {
        let kinds = "kinds = [\"lose_request\", \"lose_reply\", \"busy\", \"crash\", \"expire_key\", \"stale_lookup\"]";
        assert!(
            text.contains(kinds),
            "the key-retention lesson has its hunt"
        );
        text.replace(kinds, "kinds = [\"lose_request\", \"busy\"]")
    });
    one_error_containing(&errors(&dir), "there is nothing to find");
}

#[test]
fn a_hunt_starts_from_a_design_that_holds() {
    let dir = course_of("hunt-broken", "07-key-retention.toml", |text| {
        let hunt = "[steps.try]\nhunt = ";
        assert!(text.contains(hunt), "the key-retention lesson has its hunt");
        text.replacen(
            "design = \"in-window\"\nat = { action = \"provider.submit\", nth = 2 }",
            "design = \"late-retry\"\nat = \"end\"",
            1,
        )
    });
    one_error_containing(&errors(&dir), "a hunt starts from a design that holds");
}

#[test]
fn a_hunt_offers_only_faults_of_its_workflow() {
    let dir = course_of("hunt-stranger", "07-key-retention.toml", |text| {
        text.replace(
            "\"expire_key\", \"stale_lookup\"]",
            "\"expire_key\", \"claim_stale\"]",
        )
    });
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn a_hunt_never_offers_a_fault_the_design_already_has() {
    let loaded = authoring::load(&lessons_dir()).expect("the course loads");
    let mut hunts = 0;
    for lesson in &loaded.course.lessons {
        for step in &lesson.steps {
            let Some(lab_course::Task::Hunt(hunt)) = &step.try_it else {
                continue;
            };
            hunts += 1;
            let written = &lesson.designs[step.design as usize].scenario;
            for point in &hunt.points {
                for &fault in point.faults.iter() {
                    let rule = lab_course::Hunt::rule(point, fault);
                    assert!(
                        !written.faults.contains(&rule),
                        "{}: {rule:?} is already there",
                        lesson.id
                    );
                }
            }
        }
    }
    assert!(hunts >= 1, "the course has a hunt");
}

/// A lesson written in the old words (`[[variants]]`, a step's `variant = "ID"`, a scenario's
/// `design = {...}` for its switches) compiles to the same lesson as in the new ones.
#[test]
fn a_lesson_in_the_old_words_reads_as_in_the_new() {
    let path = lessons_dir().join("03-side-effect-keys.toml");
    let text = fs::read_to_string(&path).unwrap();
    let old = text
        .replace("[[designs]]", "[[variants]]")
        .replace("[designs.", "[variants.")
        .replace("\ndesign = \"", "\nvariant = \"")
        .replace("{ switches = {", "{ design = {")
        .replace("\nswitches = {", "\ndesign = {");
    assert_ne!(old, text, "the lesson uses the new words");
    let new = authoring::lesson_from_text(&lessons_dir(), &path, &text).expect("the lesson loads");
    let was = authoring::lesson_from_text(&lessons_dir(), &path, &old).expect("the old words load");
    assert_eq!(was, new);
}

/// A hunt whose struck run ends before the hunt's step is refused: the lab would leave the step,
/// and the hunt would vanish the moment the learner strikes there.
#[test]
fn a_hunt_whose_struck_run_ends_before_its_step_is_an_error() {
    let path = lessons_dir().join("04b-claim-lease.toml");
    let text = fs::read_to_string(&path).unwrap();
    let late = text.replacen(
        "at = { action = \"return\", nth = 2, before = true }",
        "at = \"end\"",
        1,
    );
    assert_ne!(late, text, "the edit applies");
    let errors = authoring::lesson_from_text(&lessons_dir(), &path, &late)
        .expect_err("the hunt at the end is refused");
    let found: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        found.iter().any(
            |error| error.contains("lose_reply at sink.send (occurrence 1)")
                && error.contains("would vanish when struck")
        ),
        "{found:?}"
    );
}

/// The lesson text without its options' `shows = { .. }, `.
fn without_shows(mut text: String) -> String {
    while let Some(start) = text.find("shows = {") {
        let end = start + text[start..].find("}, ").expect("an inline table") + 3;
        text.replace_range(start..end, "");
    }
    text
}

/// lost-reply with the first wrong option of its questions given `shows = PLACE`, and no other.
fn with_shows(name: &str, place: &str) -> PathBuf {
    course_with(name, |text| {
        let text = without_shows(text);
        let wrong = "correct = false, explain = ";
        assert!(text.contains(wrong), "lesson 01 has a wrong option");
        text.replacen(
            wrong,
            &format!("correct = false, shows = {place}, explain = "),
            1,
        )
    })
}

#[test]
fn an_options_shows_resolves_to_an_event_of_its_steps_design() {
    let dir = with_shows("shows", "{ fault = 1 }");
    let loaded = authoring::load(&dir).unwrap_or_else(|errors| panic!("{errors:?}"));
    let lesson = loaded.course.lesson("lost-reply").expect("the lesson");
    let (step, option) = lesson
        .steps
        .iter()
        .find_map(|step| {
            let mut options = step.questions.iter().flat_map(|question| &question.options);
            options
                .find(|option| !option.correct)
                .map(|option| (step, option))
        })
        .expect("a wrong option");
    let trace = &loaded.traces["lost-reply"][step.design as usize];
    let fault = trace
        .events
        .iter()
        .find(|event| event.fault.is_some())
        .expect("the design has a fault")
        .index;
    assert_eq!(option.shows, Some(fault));
    let others = lesson
        .steps
        .iter()
        .flat_map(|step| &step.questions)
        .flat_map(|question| &question.options);
    assert_eq!(
        others.filter(|option| option.shows.is_some()).count(),
        1,
        "only the option that names one shows an event"
    );
}

#[test]
fn an_options_shows_at_a_place_the_run_does_not_have_is_an_error_at_its_line() {
    let dir = with_shows("shows-unknown", "{ fault = 99 }");
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    let line = fs::read_to_string(dir.join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .position(|line| line.contains("shows = { fault = 99 }"))
        .unwrap()
        + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{line}:")),
        "{found:?}"
    );
    assert!(found[0].contains("shows"), "{found:?}");
    assert!(found[0].contains("fewer than 99 faults"), "{found:?}");
    let unknown = errors(&with_shows("shows-action", "{ action = \"no.such\" }"));
    assert_eq!(unknown.len(), 1, "{unknown:?}");
}

/// The checker's warnings for the lesson `edit` makes of lost-reply, as text.
fn warnings(name: &str, edit: impl Fn(String) -> String) -> Vec<String> {
    let dir = course_with(name, edit);
    let loaded = authoring::load(&dir).unwrap_or_else(|errors| panic!("{errors:?}"));
    loaded.warnings.iter().map(ToString::to_string).collect()
}

#[test]
fn a_lesson_whose_correct_options_are_mostly_the_longest_warns_at_its_first_question() {
    let longest = |found: &[String]| {
        found
            .iter()
            .filter(|warning| warning.contains("the correct option is the longest"))
            .cloned()
            .collect::<Vec<_>>()
    };
    // As written, under the share: no warning.
    assert_eq!(
        longest(&warnings("longest-under", |text| text)),
        Vec::<String>::new()
    );
    // Every correct option made the longest by far: over the share.
    let found = warnings("longest-over", |text| {
        text.lines()
            .map(|line| match line.contains("correct = true") {
                true => line.replacen(
                    "{ text = \"",
                    "{ text = \"At length, and with every qualification a careful reader could want: ",
                    1,
                ),
                false => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    });
    let found = longest(&found);
    assert_eq!(found.len(), 1, "{found:?}");
    let line = fs::read_to_string(lessons_dir().join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .position(|line| line.starts_with("prompt = "))
        .unwrap()
        + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{line}:")),
        "{found:?}"
    );
}

/// The stale-lookup lesson's goal task, with `goal` replaced.
fn with_goal(name: &str, goal: &str) -> Vec<String> {
    let task = "try = { switch = \"trust_not_found\", on = false, expect = \"holds\", goal = \"Make the keyed design hold even against this pair of faults.\" }";
    let changed = task.replace(
        "goal = \"Make the keyed design hold even against this pair of faults.\"",
        &format!("goal = \"{goal}\""),
    );
    errors(&course_of(name, "14-stale-lookup.toml", move |text| {
        assert!(
            text.contains(task),
            "the stale-lookup lesson has its goal task"
        );
        text.replace(task, &changed)
    }))
}

#[test]
fn a_goal_is_one_sentence_of_what_to_make_hold() {
    one_error_containing(&with_goal("goal-empty", "  "), "goal is empty");
    one_error_containing(
        &with_goal("goal-long", &"Make it hold. ".repeat(20)),
        "at most 160",
    );
}

#[test]
fn a_goal_on_a_design_that_already_holds_is_an_error() {
    // The keyed design holds before its stale lookup is injected: a goal there is reached
    // before the learner acts.
    let found = with_task(
        "goal-reached",
        "try = { switch = \"reconcile\", on = false, expect = \"holds\", goal = \"Keep it holding.\" }",
    );
    one_error_containing(&found, "already holds every invariant");
}

/// `stops_when_cancelled` cannot break where the engine reads the flag before every step: a
/// design that expects it to is told why, and a `check_cancel` line there is refused at its line.
#[test]
fn the_cancel_invariant_and_block_need_the_flag_read_in_code() {
    let dir = course_of("cancel-every-step", "15b-cancel-in-code.toml", |text| {
        text.replacen(
            "switches = { cancel_check = \"in_code\" }",
            "switches = { cancel_check = \"every_step\" }",
            1,
        )
    });
    let found = errors(&dir);
    assert!(
        found.iter().any(|error| error.contains(
            "design \"no-check\": stops_when_cancelled cannot break in this design's scenario: it is judged only where workers read their cancel flag in code"
        )),
        "{found:?}"
    );
    assert!(
        found.iter().any(|error| error.contains(
            "design \"checked\": scenario: program, line 6: `check_cancel` reads the cancel flag in code"
        )),
        "{found:?}"
    );
}

/// Line and column (1-based) of the first `needle` in `text`, and where in it `at` starts.
fn place_of(text: &str, needle: &str, at: &str) -> (usize, usize) {
    let (line, written) = text
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(needle))
        .expect("the needle is in the text");
    (
        line + 1,
        written.find(at).expect("`at` is in the needle's line") + 1,
    )
}

/// Where workers read their cancel flag is one of two values; another, in the base scenario that
/// every design keeps, is one error at the value naming both (not one per design, and none for
/// the steps that name those designs).
#[test]
fn a_bad_value_in_the_base_scenario_is_one_error_where_it_is_written() {
    let needle = "switches = { cancel_check = \"in_cod\" }";
    let dir = course_of("base-value", "15b-cancel-in-code.toml", |text| {
        text.replacen("switches = { cancel_check = \"in_code\" }", needle, 1)
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("15b-cancel-in-code.toml")).unwrap();
    let (line, column) = place_of(&text, needle, "\"in_cod\"");
    assert_eq!(
        found,
        [format!(
            "{}:{line}:{column}: scenario.switches.cancel_check: unknown variant `in_cod`, expected `every_step` or `in_code`",
            dir.join("15b-cancel-in-code.toml").display()
        )]
    );
}

#[test]
fn a_bad_value_in_a_design_is_an_error_at_that_value_naming_the_design() {
    let needle = "scenario = { switches = { write = \"upsrt\", unique = false } }";
    let dir = course_of("design-value", "02-naive-retry.toml", |text| {
        text.replacen(
            "scenario = { switches = { write = \"upsert\", unique = false } }",
            needle,
            1,
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("02-naive-retry.toml")).unwrap();
    let (line, column) = place_of(&text, needle, "\"upsrt\"");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains(&format!(
            "02-naive-retry.toml:{line}:{column}: design \"upsert-no-unique\": scenario.switches.write: unknown variant `upsrt`"
        )),
        "{found:?}"
    );
}

#[test]
fn a_bad_value_in_a_designs_array_is_an_error_at_that_value() {
    // The second design's workers (an array replaces the base's whole): the path names the index.
    let dir = course_of("design-array", "03-side-effect-keys.toml", |text| {
        let second = text.match_indices("[designs.scenario]").nth(1).unwrap().0;
        let (before, after) = text.split_at(second);
        format!(
            "{before}{}",
            after.replacen("runs = [{ op = \"order-17\" }]", "runs = [{ op = 17 }]", 1)
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("03-side-effect-keys.toml")).unwrap();
    let (line, column) = place_of(&text, "runs = [{ op = 17 }]", "17");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains(&format!(
            "03-side-effect-keys.toml:{line}:{column}: design \""
        )),
        "{found:?}"
    );
    assert!(
        found[0].contains(
            ": scenario.workers[0].runs[0].op: invalid type: integer `17`, expected a string"
        ),
        "{found:?}"
    );
}

#[test]
fn a_lesson_that_fails_is_not_also_a_missing_prerequisite() {
    // lost-reply breaks; naive-retry, which requires it, reports nothing of its own.
    let dir = std::env::temp_dir().join(format!(
        "lab-checker-failed-prerequisite-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let manifest = "format = 1\ntitle = \"t\"\n[[sections]]\ntitle = \"s\"\nlessons = [\"lost-reply\", \"naive-retry\"]\n";
    fs::write(dir.join("course.toml"), manifest).unwrap();
    let lost_reply = fs::read_to_string(lessons_dir().join("01-lost-reply.toml")).unwrap();
    let broken = lost_reply.replacen("workflow = \"reserve\"", "workflow = \"reserv\"", 1);
    assert_ne!(broken, lost_reply);
    fs::write(dir.join("01-lost-reply.toml"), broken).unwrap();
    fs::copy(
        lessons_dir().join("02-naive-retry.toml"),
        dir.join("02-naive-retry.toml"),
    )
    .unwrap();
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("01-lost-reply.toml:"), "{found:?}");
    assert!(
        found[0].contains("scenario.workflow: unknown variant `reserv`"),
        "{found:?}"
    );
}
