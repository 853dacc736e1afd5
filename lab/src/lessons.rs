//! `lab check` and `lab tasks`: every lesson of a folder (or one lesson file) checked, the explorer
//! included, or every lesson's checked tasks, one JSON line each (what the browser tests walk).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use lab_course::authoring;

use crate::target::report;

/// Checks every lesson of a folder, or one lesson file on its own (a challenge downloaded from
/// the page), exploring every design and build task.
pub fn check(path: &Path) -> ExitCode {
    let checks = authoring::Checks {
        explore: true,
        build: true,
    };
    if path.is_file() {
        return check_file(path, checks);
    }
    let dir = path;
    match authoring::load_with(dir, checks) {
        Ok(loaded) => {
            for warning in &loaded.warnings {
                eprintln!("warning: {warning}");
            }
            let designs: usize = loaded
                .course
                .lessons
                .iter()
                .map(|lesson| lesson.designs.len())
                .sum();
            for lesson in &loaded.course.lessons {
                print_figures(lesson);
            }
            println!(
                "ok: {} lessons, {} designs, every expectation met, every design explored ({})",
                loaded.course.lessons.len(),
                designs,
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(errors) => report(&errors),
    }
}

fn check_file(path: &Path, checks: authoring::Checks) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            return report(&[authoring::LessonError {
                file: path.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("cannot read the file: {error}"),
            }])
        }
    };
    match authoring::check_lesson_text(path, &text, checks) {
        Ok((lesson, warnings)) => {
            for warning in &warnings {
                eprintln!("warning: {warning}");
            }
            print_figures(&lesson);
            println!(
                "ok: lesson \"{}\", {} designs, every expectation met, every design explored ({}; a course also checks ids and prerequisites across lessons)",
                lesson.id,
                lesson.designs.len(),
                path.display()
            );
            ExitCode::SUCCESS
        }
        Err(errors) => report(&errors),
    }
}

/// What the checker explored of a lesson's hunts and build tasks.
fn print_figures(lesson: &lab_course::Lesson) {
    for (index, step) in lesson.steps.iter().enumerate() {
        if let Some(lab_course::Task::Hunt(hunt)) = &step.try_it {
            println!(
                "hunt: {} part {}: {} of {} placements of one fault break {}",
                lesson.id,
                index + 1,
                hunt.breaking,
                hunt.placements,
                hunt.breaks
                    .map_or("an invariant".to_string(), |wanted| format!(
                        "\"{}\"",
                        wanted.statement()
                    ))
            );
        }
        if let Some(lab_course::Task::Build(build)) = &step.try_it {
            if let Some(figures) = &build.figures {
                println!(
                    "build: {} part {}: {} of {} arrangements hold ({} blocks in the bank, {} lines locked)",
                    lesson.id,
                    index + 1,
                    figures.hold,
                    figures.arrangements,
                    build.blocks.len(),
                    build.start.iter().filter(|line| line.locked).count()
                );
            }
        }
    }
}

/// Every task of every lesson, as the checker compiled it: the lesson, the 1-based part (the
/// step of the narrative), where it starts (design index and cursor), whether the part asks a
/// prediction, and the task.
pub fn tasks(dir: &Path) -> ExitCode {
    let checks = authoring::Checks {
        explore: false,
        build: true,
    };
    let loaded = match authoring::load_with(dir, checks) {
        Ok(loaded) => loaded,
        Err(errors) => return report(&errors),
    };
    let mut out = std::io::stdout().lock();
    for lesson in &loaded.course.lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            let Some(task) = &step.try_it else {
                continue;
            };
            let predicts = step
                .questions
                .iter()
                .any(|question| question.kind == lab_course::QuestionKind::Predict);
            // A build task's blocks as the board words them (the code's last line), so a
            // browser test finds each block by the name a person reads.
            let texts: serde_json::Map<String, serde_json::Value> = match task {
                lab_course::Task::Build(build) => {
                    let scenario = &lesson.designs[step.design as usize].scenario;
                    let lines = build.reference.lines.iter().map(|line| line.block);
                    let wrong = build.wrong.iter().flat_map(|wrong| &wrong.program.lines);
                    build
                        .blocks
                        .iter()
                        .copied()
                        .chain(build.start.iter().map(|placed| placed.block))
                        .chain(lines)
                        .chain(wrong.map(|line| line.block))
                        .map(|block| {
                            let (_, code) = lab_engine::block_words(block, scenario);
                            (block.name().to_string(), code.into())
                        })
                        .collect()
                }
                _ => serde_json::Map::new(),
            };
            let line = serde_json::json!({
                "texts": texts,
                "lesson": lesson.id,
                "part": index + 1,
                "title": step.title,
                "design": step.design,
                "at": step.at,
                "predicts": predicts,
                "task": task,
            });
            if writeln!(out, "{line}").is_err() {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Prints the coverage map, idea by idea (`SOURCE: IDEA -> LESSON, "STEP", TASK`, or `-> not
/// yet mapped`), checked against the course of the map's folder; then every mapping the course
/// does not have and every idea not yet mapped, as errors, and exits 1 if there is one.
pub fn coverage(file: &Path) -> ExitCode {
    let dir = file.parent().unwrap_or(Path::new("."));
    let checks = authoring::Checks {
        explore: false,
        build: false,
    };
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) => {
            return report(&[authoring::LessonError {
                file: file.to_path_buf(),
                line: 1,
                column: 1,
                message: format!("cannot read the file: {error}"),
            }])
        }
    };
    let loaded = match authoring::load_with(dir, checks) {
        Ok(loaded) => loaded,
        Err(errors) => return report(&errors),
    };
    let coverage = match authoring::check_coverage(file, &text, &loaded.course) {
        Ok(coverage) => coverage,
        Err(error) => return report(&[error]),
    };
    let mut lines = Vec::new();
    for idea in &coverage.ideas {
        if idea.steps.is_empty() {
            lines.push(format!("{}: {} -> not yet mapped", idea.source, idea.item));
        }
        for (lesson, step, task) in &idea.steps {
            lines.push(format!(
                "{}: {} -> {lesson}, \"{step}\", {task}",
                idea.source, idea.item
            ));
        }
    }
    let mut out = std::io::stdout().lock();
    if lines.iter().any(|line| writeln!(out, "{line}").is_err()) {
        return ExitCode::FAILURE;
    }
    if !coverage.errors.is_empty() {
        return report(&coverage.errors);
    }
    let steps: usize = coverage.ideas.iter().map(|idea| idea.steps.len()).sum();
    let _ = writeln!(
        out,
        "ok: {} ideas, each run by the learner, at {steps} steps ({})",
        coverage.ideas.len(),
        file.display()
    );
    ExitCode::SUCCESS
}

/// Prints a lesson's build task as a challenge link (`#/challenge/STATE`), checked as the page
/// checks one it opens (the explorer's part aside: `lab check` did it for the lesson).
pub fn challenge(args: crate::cli::ChallengeArgs) -> ExitCode {
    let dir = args.file.parent().unwrap_or(Path::new("."));
    let lesson = match authoring::load_lesson(dir, &args.file) {
        Ok(lesson) => lesson,
        Err(errors) => return report(&errors),
    };
    let parts: Vec<usize> = match args.part {
        Some(part) => vec![part.saturating_sub(1)],
        None => (0..lesson.steps.len()).collect(),
    };
    let Some(mut challenge) = parts
        .into_iter()
        .find_map(|part| lab_course::challenge::Challenge::of_lesson(&lesson, part))
    else {
        eprintln!(
            "error: {} has no build task{}",
            args.file.display(),
            args.part
                .map_or(String::new(), |part| format!(" at part {part}"))
        );
        return ExitCode::FAILURE;
    };
    if let Some(title) = args.title {
        challenge.title = title;
    }
    if let Some(brief) = args.brief {
        challenge.brief = brief;
    }
    if let Err(problem) = challenge.open() {
        eprintln!("error: the challenge cannot be used: {problem}");
        return ExitCode::FAILURE;
    }
    let shared = lab_course::share::Shared::Challenge(Box::new(challenge));
    match lab_course::share::encode_within(&shared) {
        Ok(state) => {
            println!("#/challenge/{state}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
