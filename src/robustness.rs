//! Property tests: the parsers that read what comes from outside (the URL, saved and imported
//! data) never panic, on 10,000 random and 10,000 mutated inputs each, and what they accept
//! reads back the same.

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

/// One edit of a text: delete, insert or replace one character, at a position given as a
/// fraction of the text's length.
#[derive(Clone, Debug)]
enum Edit {
    Delete(prop::sample::Index),
    Insert(prop::sample::Index, char),
    Replace(prop::sample::Index, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Characters that matter to JSON more often than chance would pick them.
    let character = prop_oneof![
        prop::sample::select(vec![
            '{', '}', '[', ']', '"', ':', ',', '\\', '-', '0', '9', 'e', 'n'
        ]),
        any::<char>(),
    ];
    prop_oneof![
        any::<prop::sample::Index>().prop_map(Edit::Delete),
        (any::<prop::sample::Index>(), character.clone()).prop_map(|(at, c)| Edit::Insert(at, c)),
        (any::<prop::sample::Index>(), character).prop_map(|(at, c)| Edit::Replace(at, c)),
    ]
}

/// `text` after the edits, applied in order.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        match edit {
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at.index(chars.len()));
            }
            Edit::Insert(at, c) => chars.insert(at.index(chars.len() + 1), *c),
            Edit::Replace(at, c) if !chars.is_empty() => {
                let index = at.index(chars.len());
                chars[index] = *c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
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
    progress.last_ms = Some(1_764_547_200_000);
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
        let text = mutate(&sample_progress(), &edits);
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
        reads_back::<Settings>(&mutate(&settings, &edits))?;
    }
}
