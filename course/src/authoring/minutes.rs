//! The honest length of a lesson: what a learner reads at 200 words a minute, plus an allowance
//! for each step, each question, and each build task and hunt. `lessons/README.md` ("How long a lesson takes") states the
//! rule; the checker warns when a lesson's declared `minutes` is off by more than 30 %.

use super::files::{LessonFile, TryFile};

/// Words a learner reads in a minute.
pub const WORDS_PER_MINUTE: u32 = 200;
/// Per step: stepping through the events up to it and reading the panels.
pub const STEP_SECONDS: u32 = 30;
/// Per question: choosing an answer and reading its explanation.
pub const QUESTION_SECONDS: u32 = 60;
/// Per build task: placing the blocks, checking the design, reading a counterexample, trying again.
pub const BUILD_SECONDS: u32 = 180;
/// Per hunt: choosing where a fault strikes, a few times, and stepping through the one that breaks.
pub const HUNT_SECONDS: u32 = 90;
/// How far the declared minutes may be from the estimate before the checker warns, in percent.
pub const TOLERANCE_PERCENT: u32 = 30;
/// The most words a lesson may ask a learner to read: a longer one is refused (split it).
pub const WORDS_MAX: u32 = 900;

/// What a lesson asks of a learner, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Words of narrative, question prompts and option texts (explanations are read only for the
    /// options chosen: the per-question allowance covers them).
    pub words: u32,
    pub steps: u32,
    pub questions: u32,
    pub builds: u32,
    pub hunts: u32,
}

impl Estimate {
    /// The estimate in seconds.
    pub fn seconds(&self) -> u32 {
        self.words * 60 / WORDS_PER_MINUTE
            + self.steps * STEP_SECONDS
            + self.questions * QUESTION_SECONDS
            + self.builds * BUILD_SECONDS
            + self.hunts * HUNT_SECONDS
    }

    /// The estimate in whole minutes, rounded to the nearest.
    pub fn minutes(&self) -> u32 {
        (self.seconds() + 30) / 60
    }

    /// Why the lesson is too long to be one lesson, or `None` when its words are within
    /// `WORDS_MAX`.
    pub fn too_long(&self) -> Option<String> {
        (self.words > WORDS_MAX).then(|| {
            format!(
                "the lesson has {} words to read (its steps' text, its questions' prompts and options, its choices), more than {WORDS_MAX}; split it into two lessons, or cut what another lesson teaches",
                self.words
            )
        })
    }

    /// Why `declared` minutes are not honest, or `None` when they are within the tolerance.
    pub fn off(&self, declared: u32) -> Option<String> {
        let estimate = self.seconds();
        let declared_seconds = declared * 60;
        let gap = estimate.abs_diff(declared_seconds);
        if gap * 100 <= estimate * TOLERANCE_PERCENT {
            return None;
        }
        let counted = |count: u32, what: &str, seconds: u32| match count {
            0 => String::new(),
            1 => format!(", 1 {what} at {seconds} s"),
            _ => format!(", {count} {what}s at {seconds} s"),
        };
        let tasks = counted(self.builds, "build task", BUILD_SECONDS)
            + &counted(self.hunts, "hunt", HUNT_SECONDS);
        Some(format!(
            "minutes = {declared}, but the lesson takes about {} ({} words at {WORDS_PER_MINUTE} a minute, {} steps at {STEP_SECONDS} s, {} questions at {QUESTION_SECONDS} s{tasks}); declare {}",
            self.minutes(),
            self.words,
            self.steps,
            self.questions,
            self.minutes()
        ))
    }
}

/// Counts what a lesson file asks a learner to read and do.
pub(crate) fn estimate(file: &LessonFile) -> Estimate {
    let words = |markdown: &str| words(markdown);
    let mut counted = Estimate::default();
    for step in &file.steps {
        counted.steps += 1;
        counted.words += words(&step.text);
        for question in &step.questions {
            counted.questions += 1;
            counted.words += words(question.prompt.get_ref());
            counted.words += question
                .options
                .iter()
                .map(|option| words(&option.text))
                .sum::<u32>();
        }
        match step.try_it.as_ref().map(|task| task.get_ref()) {
            // A choice is read and answered like a question.
            Some(TryFile::Choose(choose)) => {
                counted.questions += 1;
                counted.words += words(&choose.choose);
                counted.words += choose
                    .options
                    .iter()
                    .map(|option| words(&option.label))
                    .sum::<u32>();
            }
            Some(TryFile::Build(_)) => counted.builds += 1,
            Some(TryFile::Hunt(_)) => counted.hunts += 1,
            _ => {}
        }
    }
    counted
}

/// Words in a Markdown text: whitespace-separated tokens with a letter or digit in them, so markup
/// alone (`-`, `|---|`, a code fence) does not count.
fn words(markdown: &str) -> u32 {
    markdown
        .split_whitespace()
        .filter(|token| token.chars().any(char::is_alphanumeric))
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_alone_is_not_a_word() {
        assert_eq!(
            words("- **one** `two`\n\n| a | b |\n|---|---|\n```\nx = 1\n```"),
            6
        );
    }

    #[test]
    fn words_steps_and_questions_add_up() {
        // 400 words (2 min), 6 steps (3 min), 3 questions (3 min): 8 minutes.
        let estimate = Estimate {
            words: 400,
            steps: 6,
            questions: 3,
            ..Estimate::default()
        };
        assert_eq!(estimate.seconds(), 480);
        assert_eq!(estimate.minutes(), 8);
        // A build task and a hunt: 4.5 minutes more.
        let tasks = Estimate {
            builds: 1,
            hunts: 1,
            ..estimate
        };
        assert_eq!(tasks.seconds(), 750);
        assert!(tasks
            .off(8)
            .expect("a warning")
            .contains(", 1 build task at 180 s, 1 hunt at 90 s); declare 13"));
    }

    #[test]
    fn a_lesson_of_more_than_nine_hundred_words_is_too_long() {
        let at_most = Estimate {
            words: WORDS_MAX,
            ..Estimate::default()
        };
        assert_eq!(at_most.too_long(), None);
        let over = Estimate {
            words: WORDS_MAX + 1,
            ..at_most
        };
        let message = over.too_long().expect("an error");
        assert!(message.contains("901 words"), "{message}");
        assert!(message.contains("more than 900"), "{message}");
    }

    #[test]
    fn the_declared_minutes_may_be_off_by_thirty_percent() {
        let estimate = Estimate {
            words: 400,
            steps: 6,
            questions: 3,
            ..Estimate::default()
        };
        // 8 minutes: 30 % is 2.4 minutes either way.
        for honest in [6, 8, 10] {
            assert_eq!(estimate.off(honest), None, "{honest}");
        }
        for dishonest in [5, 11, 0] {
            let message = estimate.off(dishonest).expect("a warning");
            assert!(message.contains("declare 8"), "{message}");
        }
    }
}
