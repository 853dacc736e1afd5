//! Property tests: the parsers that read what comes from outside (the URL, saved and imported
//! data) never panic, on 10,000 random and 10,000 mutated inputs each (`lab_course::mutate`),
//! and what they accept reads back the same.

use lab_course::mutate::{mutated, Mutation};
use proptest::prelude::*;
use yew_router::Routable;

use crate::route::Route;
use crate::store::settings::Settings;
use crate::store::versioned::{parse, to_json, Versioned};
use crate::store::{LessonProgress, Progress};

const CASES: u32 = 10_000;

/// Text that looks like a route (slashes, ids, numbers, escapes, odd characters), then anything.
fn route_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "(/([a-z0-9-]{0,12}|%[0-9A-Fa-f]{0,2}|[0-9]{1,25}|\\.\\.|[?#&=]|\\PC)){0,5}/?",
        any::<String>(),
    ]
}

/// Characters that matter to JSON, put in more often than chance would pick them.
const TOKENS: [&str; 13] = [
    "{", "}", "[", "]", "\"", ":", ",", "\\", "-", "0", "9", "e", "n",
];

fn edit() -> impl Strategy<Value = Mutation> {
    lab_course::mutate::mutation(&TOKENS)
}

/// A progress file with a few lessons, as the app exports it.
fn sample_progress() -> String {
    let mut progress = Progress::default();
    for (id, step) in [("lost-reply", 9), ("naive-retry", 35), ("review", 1)] {
        progress.lessons.insert(
            id.to_string(),
            LessonProgress {
                furthest: step,
                total: 35,
                completed: step == 35,
            },
        );
    }
    progress.last = Some(("naive-retry".to_string(), 35));
    progress.last_milliseconds = Some(1_764_547_200_000);
    to_json(&progress).expect("progress serializes")
}

/// A parsed value, written and parsed again, is the same value: what the app accepts it keeps.
fn reads_back<T: Versioned + PartialEq + std::fmt::Debug>(text: &str) -> Result<(), TestCaseError> {
    if let Ok(value) = parse::<T>(text) {
        let again = parse::<T>(&to_json(&value).expect("an accepted value serializes"));
        prop_assert_eq!(again.as_ref(), Ok(&value));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn the_route_parser_takes_any_path(path in route_like()) {
        let _ = Route::recognize(&path);
    }

    #[test]
    fn any_hash_becomes_one_the_router_reads(hash in route_like()) {
        let fixed = crate::hash_route(&format!("#{hash}"));
        if let Some(route) = &fixed {
            prop_assert!(route.starts_with("#/"));
            let _ = Route::recognize(&route[1..]);
        }
        prop_assert_eq!(fixed.is_none(), hash.is_empty() || hash.starts_with('/'));
        let _ = crate::hash_route(&hash);
    }

    #[test]
    fn saved_progress_any_text(text in any::<String>()) {
        reads_back::<Progress>(&text)?;
    }

    #[test]
    fn saved_progress_mutated(edits in prop::collection::vec(edit(), 1..8)) {
        let text = mutated(&sample_progress(), &edits);
        reads_back::<Progress>(&text)?;
        if let Ok(progress) = parse::<Progress>(&text) {
            let merged = Progress::default().merged(&progress);
            prop_assert_eq!(merged.lesson_count(), progress.lesson_count());
        }
    }

    #[test]
    fn saved_settings_any_text(text in any::<String>()) {
        reads_back::<Settings>(&text)?;
    }

    #[test]
    fn saved_settings_mutated(edits in prop::collection::vec(edit(), 1..6)) {
        let settings = to_json(&Settings::default()).expect("settings serialize");
        reads_back::<Settings>(&mutated(&settings, &edits))?;
    }
}
