//! The lessons, read without the course crate (the engine may not depend on it): each design's
//! scenario (the lesson's, with the design's tables merged in, as the authoring side does), its
//! kind, its explore budget and the invariants it says break. Shared by the explorer's tests and
//! its bench (`#[path]`).

use std::path::PathBuf;

use lab_engine::{Budget, FaultKind, Invariant, Scenario};

pub struct LessonDesign {
    pub name: String,
    pub kind: String,
    pub scenario: Scenario,
    pub budget: Budget,
    /// Invariants the lesson says break (`expect.breaks` entries other than `false`).
    pub breaks: Vec<Invariant>,
}

pub fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(into)), toml::Value::Table(from)) => merge(into, from),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

fn budget(explore: &toml::Table) -> Budget {
    let number = |key: &str, default: u32| {
        explore
            .get(key)
            .and_then(toml::Value::as_integer)
            .map_or(default, |value| value as u32)
    };
    let kinds = explore.get("kinds").map(|kinds| {
        kinds
            .clone()
            .try_into::<Vec<FaultKind>>()
            .expect("kinds are fault names")
    });
    Budget {
        faults_max: number("faults", 2),
        preemptions_max: number("preemptions", 2),
        kinds: kinds.filter(|kinds| !kinds.is_empty()),
        ..Budget::default()
    }
}

/// Every design of every lesson in `lessons/`, in file order.
pub fn lessons() -> Vec<LessonDesign> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("lessons folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name != "course.toml" && name != "coverage.toml")
        })
        .collect();
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let lesson: toml::Table = std::fs::read_to_string(&file)
            .expect("readable")
            .parse()
            .expect("valid TOML");
        let base = lesson["scenario"].as_table().expect("[scenario]").clone();
        let lesson_explore = lesson
            .get("explore")
            .and_then(toml::Value::as_table)
            .cloned()
            .unwrap_or_default();
        let designs = lesson.get("designs").or_else(|| lesson.get("variants"));
        for design in designs
            .and_then(toml::Value::as_array)
            .expect("[[designs]]")
        {
            let design = design.as_table().expect("a design table");
            let mut scenario = base.clone();
            if let Some(over) = design.get("scenario").and_then(toml::Value::as_table) {
                merge(&mut scenario, over);
            }
            let mut explore = lesson_explore.clone();
            if let Some(over) = design.get("explore").and_then(toml::Value::as_table) {
                merge(&mut explore, over);
            }
            let breaks = design
                .get("expect")
                .and_then(|expect| expect.get("breaks"))
                .and_then(toml::Value::as_table)
                .map(|breaks| {
                    breaks
                        .iter()
                        .filter(|(_, at)| at.as_bool() != Some(false))
                        .map(|(id, _)| {
                            Invariant::ALL
                                .into_iter()
                                .find(|invariant| invariant.id() == id)
                                .expect("a known invariant")
                        })
                        .collect()
                })
                .unwrap_or_default();
            found.push(LessonDesign {
                name: format!(
                    "{} / {}",
                    lesson["id"].as_str().expect("id"),
                    design["id"].as_str().expect("design id")
                ),
                kind: design["kind"].as_str().expect("kind").to_string(),
                scenario: toml::Value::Table(scenario)
                    .try_into()
                    .expect("a valid scenario"),
                budget: budget(&explore),
                breaks,
            });
        }
    }
    found
}
