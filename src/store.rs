//! The app's persistent state: how far the learner got and how they like the page, saved in the
//! browser's local storage and versioned so a value the app cannot read is set aside under a
//! backup key (never deleted) with a notice. Imports and other tabs merge into progress.
//!
//! Parsing and the reducer are pure and tested natively; only `storage` and `provider` touch the
//! browser.

pub mod drafts;
pub mod progress;
pub mod provider;
pub mod sandbox;
pub mod settings;
pub mod state;
mod storage;
pub mod versioned;

pub use progress::{LessonProgress, Predictions, Progress};
pub use provider::{use_app, use_app_dispatch, LoadNotice, RecordVisit, StoreProvider};
pub use sandbox::SavedSandbox;
pub use settings::{Speed, Theme};
pub use state::AppAction;
pub use storage::{load_drafts, load_sandbox, save_drafts, save_sandbox};
pub use versioned::{parse, to_json, ReadError, TEXT_BYTES_MAX};

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use yew::Reducible;

    use super::progress::{LESSONS_MAX, LESSON_ID_BYTES_MAX, PROGRESS_VERSION};
    use super::settings::{Settings, Speed, SETTINGS_VERSION};
    use super::state::{load_notice, save_failed_notice, AppState, Kept, Unreadable};
    use super::storage::{backup_key, key_prefix};
    use super::versioned::{restore, Versioned};
    use super::*;

    fn visit(lesson: &str, step: u32, total: u32) -> AppAction {
        visit_at(lesson, step, total, 0)
    }

    fn visit_at(lesson: &str, step: u32, total: u32, now_milliseconds: u64) -> AppAction {
        AppAction::Visit {
            lesson: lesson.to_string(),
            step,
            total,
            now_milliseconds,
        }
    }

    fn reduce(state: &Rc<AppState>, action: AppAction) -> Rc<AppState> {
        Rc::clone(state).reduce(action)
    }

    fn progress_of(lessons: &[(&str, u32, u32, bool)], last: Option<(&str, u32)>) -> Progress {
        Progress {
            version: PROGRESS_VERSION,
            lessons: lessons
                .iter()
                .map(|&(id, furthest, total, completed)| {
                    let lesson = LessonProgress {
                        furthest,
                        total,
                        completed,
                    };
                    (id.to_string(), lesson)
                })
                .collect(),
            last: last.map(|(id, step)| (id.to_string(), step)),
            last_milliseconds: None,
            predictions: BTreeMap::new(),
            boards: BTreeMap::new(),
            challenges: BTreeMap::new(),
        }
    }

    fn invalid(text: &str) -> String {
        match parse::<Progress>(text) {
            Err(ReadError::Invalid { detail }) => detail,
            other => panic!("expected an invalid value, got {other:?}"),
        }
    }

    // The saved format, pinned: changing it without bumping the version would misread every
    // learner's saved data.
    #[test]
    fn progress_format_is_pinned() {
        let progress = progress_of(&[("lost-reply", 3, 10, false)], Some(("lost-reply", 2)));
        let text = serde_json::to_string(&progress).unwrap();
        assert_eq!(
            text,
            r#"{"version":1,"lessons":{"lost-reply":{"furthest":3,"total":10,"completed":false}},"last":["lost-reply",2]}"#
        );
        assert_eq!(parse::<Progress>(&text), Ok(progress.clone()));
        let pretty = to_json(&progress).unwrap();
        assert_eq!(parse::<Progress>(&pretty), Ok(progress));
    }

    #[test]
    fn settings_format_is_pinned() {
        let settings = Settings {
            version: SETTINGS_VERSION,
            theme: Theme::Dark,
            presenter: true,
            speed: Speed::Fast,
        };
        let text = serde_json::to_string(&settings).unwrap();
        assert_eq!(
            text,
            r#"{"version":1,"theme":"dark","presenter":true,"speed":"fast"}"#
        );
        assert_eq!(parse::<Settings>(&text), Ok(settings));
        assert_eq!(
            parse::<Settings>(
                r#"{"version":1,"theme":"system","presenter":false,"speed":"normal"}"#
            ),
            Ok(Settings::default())
        );
    }

    #[test]
    fn missing_value_gives_defaults_without_an_error() {
        assert_eq!(restore::<Progress>(None), (Progress::default(), None));
        assert_eq!(restore::<Settings>(None), (Settings::default(), None));
    }

    #[test]
    fn unreadable_value_gives_defaults_with_the_reason() {
        let (progress, error) = restore::<Progress>(Some("{not json"));
        assert_eq!(progress, Progress::default());
        assert!(
            matches!(error, Some(ReadError::NotJson { .. })),
            "{error:?}"
        );
        let (settings, error) = restore::<Settings>(Some(
            r#"{"version":1,"theme":"purple","presenter":false,"speed":"normal"}"#,
        ));
        assert_eq!(settings, Settings::default());
        assert!(matches!(error, Some(ReadError::Shape { .. })), "{error:?}");
    }

    #[test]
    fn parse_names_what_is_wrong() {
        assert_eq!(parse::<Progress>(""), Err(ReadError::Empty));
        assert_eq!(parse::<Progress>(" \n\t"), Err(ReadError::Empty));
        assert!(matches!(
            parse::<Progress>("{"),
            Err(ReadError::NotJson { .. })
        ));
        for text in ["null", "[]", "\"progress\"", "42"] {
            assert_eq!(
                parse::<Progress>(text),
                Err(ReadError::NotAnObject),
                "{text}"
            );
        }
        assert_eq!(
            parse::<Progress>(r#"{"lessons":{},"last":null}"#),
            Err(ReadError::NoVersion)
        );
        // Shape errors name the field.
        let Err(ReadError::Shape { detail }) = parse::<Progress>(r#"{"version":1,"lessons":[]}"#)
        else {
            panic!("a list of lessons is the wrong shape");
        };
        assert!(detail.contains("map"), "{detail}");
        let Err(ReadError::Shape { detail }) = parse::<Progress>(r#"{"version":1,"last":null}"#)
        else {
            panic!("a value without `lessons` is the wrong shape");
        };
        assert!(detail.contains("lessons"), "{detail}");
        // A settings value is not progress.
        let settings = serde_json::to_string(&Settings::default()).unwrap();
        assert!(matches!(
            parse::<Progress>(&settings),
            Err(ReadError::Shape { .. })
        ));
    }

    #[test]
    fn other_versions_are_refused_before_their_fields_are_read() {
        for (version, found) in [
            ("0", "0"),
            ("2", "2"),
            ("\"1\"", "\"1\""),
            ("1.5", "1.5"),
            ("-1", "-1"),
        ] {
            // Fields an older format might have had: the version is what is reported.
            let text = format!(r#"{{"version":{version},"done":["lost-reply"]}}"#);
            assert_eq!(
                parse::<Progress>(&text),
                Err(ReadError::Version {
                    found: found.to_string(),
                    expected: PROGRESS_VERSION
                }),
                "{text}"
            );
        }
        let Err(error) = parse::<Settings>(r#"{"version":0,"dark":true}"#) else {
            panic!("version 0 settings are refused");
        };
        assert_eq!(
            error.to_string(),
            "it has format version 0, and this version of the lab reads only version 1"
        );
        let Err(error) = parse::<Settings>(r#"{"version":2}"#) else {
            panic!("version 2 settings are refused");
        };
        assert_eq!(
            error.to_string(),
            "it has format version 2, written by a newer version of the lab, and this version of the lab reads only version 1"
        );
    }

    #[test]
    fn impossible_values_are_refused() {
        let detail = invalid(
            r#"{"version":1,"lessons":{"a":{"furthest":11,"total":10,"completed":false}},"last":null}"#,
        );
        assert!(detail.contains("step 11 of 10"), "{detail}");
        invalid(
            r#"{"version":1,"lessons":{"a":{"furthest":0,"total":10,"completed":false}},"last":null}"#,
        );
        invalid(
            r#"{"version":1,"lessons":{"a":{"furthest":0,"total":0,"completed":true}},"last":null}"#,
        );
        invalid(
            r#"{"version":1,"lessons":{"":{"furthest":1,"total":1,"completed":true}},"last":null}"#,
        );
        let detail = invalid(r#"{"version":1,"lessons":{},"last":["gone",1]}"#);
        assert!(detail.contains("\"gone\""), "{detail}");
        let detail = invalid(
            r#"{"version":1,"lessons":{"a":{"furthest":2,"total":4,"completed":false}},"last":["a",5]}"#,
        );
        assert!(detail.contains("1 to 4"), "{detail}");
        let long = "x".repeat(LESSON_ID_BYTES_MAX as usize + 1);
        invalid(&format!(
            r#"{{"version":1,"lessons":{{"{long}":{{"furthest":1,"total":1,"completed":true}}}},"last":null}}"#
        ));
    }

    #[test]
    fn quoted_outside_text_is_cut_short() {
        let long = "y".repeat(500);
        let detail = invalid(&format!(
            r#"{{"version":1,"lessons":{{}},"last":["{long}",1]}}"#
        ));
        assert!(detail.len() < 200, "{detail}");
        assert!(detail.contains('…'), "{detail}");
    }

    #[test]
    fn too_many_lessons_are_refused() {
        let lessons: BTreeMap<String, LessonProgress> = (0..=LESSONS_MAX)
            .map(|index| {
                let lesson = LessonProgress {
                    furthest: 1,
                    total: 1,
                    completed: true,
                };
                (format!("lesson-{index}"), lesson)
            })
            .collect();
        let progress = Progress {
            version: PROGRESS_VERSION,
            lessons,
            last: None,
            last_milliseconds: None,
            predictions: BTreeMap::new(),
            boards: BTreeMap::new(),
            challenges: BTreeMap::new(),
        };
        let text = serde_json::to_string(&progress).unwrap();
        assert!(invalid(&text).contains("at most 1000"));
    }

    #[test]
    fn oversized_text_is_refused_unread() {
        let text = format!("{{\"pad\":\"{}\"}}", " ".repeat(TEXT_BYTES_MAX as usize));
        assert!(matches!(
            parse::<Progress>(&text),
            Err(ReadError::TooLarge { .. })
        ));
    }

    fn backed_up(error: ReadError, key: &str) -> Unreadable {
        Unreadable {
            error,
            kept: Kept::Backup(key.to_string()),
        }
    }

    #[test]
    fn load_notice_says_what_happened_and_where_the_data_is() {
        assert_eq!(load_notice(None, None, true), None);
        let broken = backed_up(
            ReadError::NotJson {
                detail: "expected value at line 1 column 1".to_string(),
            },
            "idempotency-lab/progress.backup-1",
        );
        let notice = load_notice(Some(&broken), None, true).unwrap();
        assert_eq!(
            notice,
            "Your saved progress could not be read (it is not valid JSON: expected value at line 1 column 1). It is kept, unchanged, under the key \"idempotency-lab/progress.backup-1\" in this browser's local storage, and your progress starts afresh. Lessons still work."
        );
        let held = Unreadable {
            error: ReadError::NoVersion,
            kept: Kept::InPlace("idempotency-lab/settings".to_string()),
        };
        let notice = load_notice(None, Some(&held), true).unwrap();
        assert!(notice.starts_with("Your saved settings could not be read (it has no format version). It was left as it is under the key \"idempotency-lab/settings\""), "{notice}");
        assert!(notice.contains("will not save over it"), "{notice}");
        let both = load_notice(Some(&broken), Some(&held), true).unwrap();
        assert!(both.starts_with("Your saved progress") && both.contains("Your saved settings"));
        let unavailable = load_notice(None, None, false).unwrap();
        assert!(unavailable.contains("forgotten"), "{unavailable}");
    }

    #[test]
    fn backups_and_namespaces() {
        assert_eq!(
            backup_key("idempotency-lab/progress", 2),
            "idempotency-lab/progress.backup-2"
        );
        // The root build keeps the keys it always had; a sub-path gets its own.
        for (base, prefix) in [
            ("http://127.0.0.1:8080/", ""),
            ("http://127.0.0.1:8080", ""),
            ("https://example.org/index.html?x=1#/lesson/a", ""),
            ("https://example.org/lab/", "/lab/"),
            ("https://example.org/lab/v2/index.html", "/lab/v2/"),
            ("https://example.org/lab?x=/y/", ""),
            ("https://example.org/lab/#/a/b", "/lab/"),
            ("/", ""),
        ] {
            assert_eq!(key_prefix(base), prefix, "{base}");
        }
    }

    #[test]
    fn a_save_failure_is_reported_once_until_dismissed() {
        let state = Rc::new(AppState::default());
        let notice = save_failed_notice("progress", "QuotaExceededError");
        assert!(notice.contains("could not be saved") && notice.contains("keeps working"));
        let failed = reduce(&state, AppAction::SaveFailed(notice.clone()));
        assert_eq!(failed.save_notice.as_deref(), Some(notice.as_str()));
        let again = reduce(&failed, AppAction::SaveFailed("another".to_string()));
        assert!(Rc::ptr_eq(&failed, &again));
        let dismissed = reduce(&failed, AppAction::DismissNotice);
        assert_eq!(dismissed.save_notice, None);
        assert!(Rc::ptr_eq(
            &dismissed,
            &reduce(&dismissed, AppAction::SaveFailed(notice))
        ));
    }

    #[test]
    fn visit_records_furthest_step_and_last() {
        let state = Rc::new(AppState::default());
        let state = reduce(&state, visit_at("lost-reply", 3, 10, 100));
        let state = reduce(&state, visit_at("lost-reply", 2, 10, 200));
        assert_eq!(
            *state.progress,
            timed(
                progress_of(&[("lost-reply", 3, 10, false)], Some(("lost-reply", 2))),
                200
            )
        );
        let state = reduce(&state, visit("naive-retry", 1, 4));
        assert_eq!(state.progress.lessons.len(), 2);
        assert_eq!(state.progress.last, Some(("naive-retry".to_string(), 1)));
    }

    #[test]
    fn reaching_the_last_step_completes_a_lesson_for_good() {
        let state = Rc::new(AppState::default());
        let state = reduce(&state, visit("lost-reply", 10, 10));
        assert!(state.progress.lessons["lost-reply"].completed);
        let state = reduce(&state, visit("lost-reply", 1, 10));
        assert!(state.progress.lessons["lost-reply"].completed);
        // The lesson grew in an update: still completed, with the new total.
        let state = reduce(&state, visit("lost-reply", 2, 12));
        assert_eq!(
            state.progress.lessons["lost-reply"],
            LessonProgress {
                furthest: 10,
                total: 12,
                completed: true
            }
        );
    }

    #[test]
    fn a_shorter_lesson_clamps_the_furthest_step() {
        let state = Rc::new(AppState::default());
        let state = reduce(&state, visit("lost-reply", 9, 10));
        let state = reduce(&state, visit("lost-reply", 1, 6));
        assert_eq!(
            state.progress.lessons["lost-reply"],
            LessonProgress {
                furthest: 6,
                total: 6,
                completed: true
            }
        );
    }

    #[test]
    fn visits_that_change_nothing_keep_the_same_state() {
        let state = reduce(&Rc::new(AppState::default()), visit("lost-reply", 2, 5));
        for action in [
            visit("lost-reply", 2, 5),
            visit("lost-reply", 0, 5),
            visit("lost-reply", 6, 5),
            visit("lost-reply", 1, 0),
            visit("", 1, 5),
            visit(&"z".repeat(LESSON_ID_BYTES_MAX as usize + 1), 1, 5),
        ] {
            assert!(
                Rc::ptr_eq(&state, &reduce(&state, action.clone())),
                "{action:?}"
            );
        }
    }

    #[test]
    fn every_reachable_progress_is_valid_and_round_trips() {
        // A fixed pseudo-random walk over lessons, steps and totals, including bad ones.
        let mut seed: u32 = 0x2545_f491;
        let mut state = Rc::new(AppState::default());
        for _ in 0..2_000 {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let lesson = ["a", "b", "c", ""][(seed >> 28) as usize % 4];
            let total = (seed >> 8) % 7;
            let step = (seed >> 16) % 9;
            state = reduce(&state, visit_at(lesson, step, total, u64::from(seed >> 4)));
            let text = to_json(&*state.progress).unwrap();
            assert_eq!(parse::<Progress>(&text).as_ref(), Ok(&*state.progress));
            for lesson in state.progress.lessons.values() {
                assert!(lesson.furthest >= 1 && lesson.furthest <= lesson.total);
            }
        }
    }

    #[test]
    fn settings_actions() {
        let state = Rc::new(AppState::default());
        let dark = reduce(&state, AppAction::SetTheme(Theme::Dark));
        assert_eq!(dark.settings.theme, Theme::Dark);
        assert!(Rc::ptr_eq(
            &dark,
            &reduce(&dark, AppAction::SetTheme(Theme::Dark))
        ));
        let presenting = reduce(&dark, AppAction::TogglePresenter);
        assert!(presenting.settings.presenter);
        assert!(
            !reduce(&presenting, AppAction::TogglePresenter)
                .settings
                .presenter
        );
        let slow = reduce(&presenting, AppAction::SetSpeed(Speed::Slow));
        assert_eq!(slow.settings.speed, Speed::Slow);
        assert_eq!(slow.settings.theme, Theme::Dark);
        // Settings never touch progress.
        assert!(Rc::ptr_eq(&slow.progress, &state.progress));
        let replaced = reduce(&slow, AppAction::ReplaceSettings(Settings::default()));
        assert_eq!(replaced.settings, Settings::default());
    }

    /// Progress saved before the names had no abbreviations (`last_ms`) reads the same.
    #[test]
    fn progress_with_the_old_time_field_reads() {
        let text = format!(
            r#"{{"version":{PROGRESS_VERSION},"lessons":{{"lost-reply":{{"furthest":3,"total":10,"completed":false}}}},"last":["lost-reply",3],"last_ms":1000}}"#
        );
        let read: Progress = parse(&text).expect("reads");
        assert_eq!(read.last_milliseconds, Some(1000));
        assert!(to_json(&read)
            .expect("writes")
            .contains("\"last_milliseconds\": 1000"));
    }

    fn timed(mut progress: Progress, last_milliseconds: u64) -> Progress {
        progress.last_milliseconds = Some(last_milliseconds);
        progress
    }

    #[test]
    fn import_merges_and_undo_restores_exactly() {
        let state = reduce(
            &Rc::new(AppState::default()),
            visit_at("lost-reply", 4, 5, 100),
        );
        let state = reduce(&state, visit_at("naive-retry", 1, 4, 200));
        let before = Rc::clone(&state.progress);
        let imported = timed(
            progress_of(
                &[
                    ("lost-reply", 2, 5, false),
                    ("naive-retry", 4, 4, true),
                    ("new", 1, 3, false),
                ],
                Some(("new", 1)),
            ),
            300,
        );
        let next = reduce(&state, AppAction::ImportProgress(imported));
        let mut expected = progress_of(
            &[
                ("lost-reply", 4, 5, false),
                ("naive-retry", 4, 4, true),
                ("new", 1, 3, false),
            ],
            Some(("new", 1)),
        );
        expected.last_milliseconds = Some(300);
        assert_eq!(*next.progress, expected);
        let undone = reduce(&next, AppAction::UndoImport);
        assert!(Rc::ptr_eq(&undone.progress, &before));
        assert!(Rc::ptr_eq(&undone, &reduce(&undone, AppAction::UndoImport)));
    }

    #[test]
    fn an_empty_or_older_import_wipes_nothing() {
        let state = reduce(
            &Rc::new(AppState::default()),
            visit_at("lost-reply", 3, 5, 100),
        );
        let empty = reduce(&state, AppAction::ImportProgress(Progress::default()));
        assert_eq!(empty.progress, state.progress);
        // An older export without times: the current position stays.
        let older = progress_of(&[("lost-reply", 1, 5, false)], Some(("lost-reply", 1)));
        let next = reduce(&state, AppAction::ImportProgress(older));
        assert_eq!(next.progress, state.progress);
        // Values the parser would refuse are refused here too.
        let impossible = progress_of(&[("naive-retry", 5, 4, false)], None);
        assert!(Rc::ptr_eq(
            &state,
            &reduce(&state, AppAction::ImportProgress(impossible))
        ));
        let wrong_version = Progress {
            version: 0,
            ..Progress::default()
        };
        assert!(Rc::ptr_eq(
            &state,
            &reduce(&state, AppAction::ImportProgress(wrong_version))
        ));
    }

    #[test]
    fn predictions_keep_answered_and_skipped_apart_and_merge() {
        let state = Rc::new(AppState::loaded(
            (Progress::default(), None),
            (Settings::default(), None),
            true,
        ));
        let predicted = |state: &Rc<AppState>, part: u32, skipped: bool| {
            reduce(
                state,
                AppAction::Predicted {
                    lesson: "lost-reply".into(),
                    part,
                    skipped,
                },
            )
        };
        let skipped = predicted(&state, 1, true);
        let parts = &skipped.progress.predictions["lost-reply"];
        assert_eq!(parts.skipped.iter().copied().collect::<Vec<_>>(), [1]);
        assert!(parts.answered.is_empty());
        // Skipping again changes nothing; answering moves the part to answered for good.
        assert!(Rc::ptr_eq(&skipped, &predicted(&skipped, 1, true)));
        let answered = predicted(&skipped, 1, false);
        let parts = &answered.progress.predictions["lost-reply"];
        assert_eq!(parts.answered.iter().copied().collect::<Vec<_>>(), [1]);
        assert!(parts.skipped.is_empty());
        assert!(Rc::ptr_eq(&answered, &predicted(&answered, 1, true)));
        // Part 0 does not exist.
        assert!(Rc::ptr_eq(&state, &predicted(&state, 0, false)));
        // The saved text reads back, and a merge keeps an answer over the other side's skip.
        let text = serde_json::to_string(&*answered.progress).unwrap();
        assert!(
            text.contains(r#""predictions":{"lost-reply":{"answered":[1],"skipped":[]}}"#),
            "{text}"
        );
        assert_eq!(parse::<Progress>(&text).as_ref(), Ok(&*answered.progress));
        let merged = skipped.progress.merged(&answered.progress);
        assert_eq!(merged.predictions, answered.progress.predictions);
    }

    #[test]
    fn merge_keeps_the_more_recent_position() {
        let ours = timed(progress_of(&[("a", 2, 5, false)], Some(("a", 2))), 500);
        let theirs = timed(progress_of(&[("b", 3, 3, true)], Some(("b", 3))), 400);
        assert_eq!(ours.merged(&theirs).last, Some(("a".to_string(), 2)));
        assert_eq!(theirs.merged(&ours).last, Some(("a".to_string(), 2)));
        assert_eq!(theirs.merged(&ours).last_milliseconds, Some(500));
        let untimed = progress_of(&[("b", 3, 3, true)], Some(("b", 3)));
        assert_eq!(ours.merged(&untimed).last, Some(("a".to_string(), 2)));
        assert_eq!(
            Progress::default().merged(&untimed).last,
            Some(("b".to_string(), 3))
        );
    }

    #[test]
    fn merging_is_lossless_valid_and_order_free() {
        // A fixed pseudo-random set of progress values, merged every way round.
        let mut seed: u32 = 0x9e37_79b9;
        let mut values = Vec::new();
        for _ in 0..40 {
            let mut progress = Progress::default();
            for _ in 0..6 {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let lesson = ["a", "b", "c", "d"][(seed >> 28) as usize % 4];
                let total = 1 + (seed >> 8) % 6;
                let step = 1 + (seed >> 16) % total;
                let now_milliseconds = u64::from(seed >> 4);
                if let Some(next) = progress.visited(lesson, step, total, now_milliseconds) {
                    progress = next;
                }
            }
            values.push(progress);
        }
        for ours in &values {
            for theirs in &values {
                let merged = ours.merged(theirs);
                assert_eq!(merged.check(), Ok(()));
                assert_eq!(
                    merged.merged(theirs),
                    merged,
                    "merging again changes nothing"
                );
                assert_eq!(merged.lessons, theirs.merged(ours).lessons);
                for (id, lesson) in ours.lessons.iter().chain(&theirs.lessons) {
                    let kept = merged.lessons[id];
                    assert!(kept.furthest >= lesson.furthest);
                    assert!(kept.completed || !lesson.completed);
                }
            }
        }
    }

    #[test]
    fn other_tabs_merge_progress_and_replace_settings() {
        let state = reduce(&Rc::new(AppState::default()), visit_at("a", 2, 5, 100));
        let theirs = timed(progress_of(&[("b", 1, 2, false)], Some(("b", 1))), 200);
        let next = reduce(&state, AppAction::MergeProgress(theirs.clone()));
        assert_eq!(next.progress.lessons.len(), 2);
        assert_eq!(
            next.before_import, None,
            "another tab's change is not an import"
        );
        assert!(Rc::ptr_eq(
            &next,
            &reduce(&next, AppAction::MergeProgress(theirs))
        ));
    }

    #[test]
    fn reset_forgets_progress_and_keeps_settings() {
        let state = reduce(
            &Rc::new(AppState::default()),
            AppAction::SetTheme(Theme::Light),
        );
        let state = reduce(&state, visit("lost-reply", 2, 5));
        let state = reduce(&state, AppAction::ImportProgress(Progress::default()));
        let reset = reduce(&state, AppAction::ResetProgress);
        assert_eq!(*reset.progress, Progress::default());
        assert_eq!(
            reset.before_import, None,
            "an import cannot be undone past a reset"
        );
        assert_eq!(reset.settings.theme, Theme::Light);
        assert!(Rc::ptr_eq(
            &reset,
            &reduce(&reset, AppAction::ResetProgress)
        ));
    }

    #[test]
    fn themes_and_speeds() {
        // A menu's option values are the saved names, and read back.
        use lab_course::names::{by_name, name_of};
        for theme in Theme::ALL {
            assert_eq!(by_name::<Theme>("theme", &name_of(&theme)), Ok(theme));
        }
        for speed in Speed::ALL {
            assert_eq!(by_name::<Speed>("speed", &name_of(&speed)), Ok(speed));
        }
        assert!(by_name::<Theme>("theme", "purple").is_err());
        assert_eq!(Theme::System.attribute(), None);
        assert_eq!(Theme::Dark.attribute(), Some("dark"));
        assert!(Speed::Slow.delay_milliseconds() > Speed::Normal.delay_milliseconds());
        assert!(Speed::Normal.delay_milliseconds() > Speed::Fast.delay_milliseconds());
    }
}
