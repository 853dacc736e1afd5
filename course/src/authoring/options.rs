//! The answer hidden in plain sight: a lesson whose correct options are mostly the longest lets
//! a learner pass by length. The checker warns above a share of the lesson's questions.

use super::files::{LessonFile, TryFile};

/// Above this share of a lesson's questions (in percent) with the correct option the longest,
/// the checker warns.
pub const LONGEST_CORRECT_PERCENT: u32 = 40;

/// How often the correct option is strictly the longest (a tie gives a learner who picks the
/// longest no answer) among a lesson's questions with one correct option: its predict and check
/// questions, and its `try.choose` tasks (a choice with a right answer too, read the same way):
/// `(longest, questions)`.
pub(crate) fn longest_correct(file: &LessonFile) -> (u32, u32) {
    let questions = file.steps.iter().flat_map(|step| {
        let asked = step.questions.iter().map(|question| {
            question
                .options
                .iter()
                .map(|option| (option.text.as_str(), option.correct))
                .collect::<Vec<_>>()
        });
        let chosen = step.try_it.iter().filter_map(|task| match task.get_ref() {
            TryFile::Choose(choose) => Some(
                choose
                    .options
                    .iter()
                    .map(|option| (option.label.as_str(), option.correct))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        });
        asked.chain(chosen)
    });
    let mut counted = (0, 0);
    for options in questions {
        let mut correct = options.iter().filter(|(_, correct)| *correct);
        let (Some((answer, _)), None) = (correct.next(), correct.next()) else {
            continue;
        };
        let length = |text: &str| text.chars().count();
        let answer = length(answer);
        counted.1 += 1;
        let others = options.iter().filter(|(_, correct)| !correct);
        if others
            .map(|(text, _)| length(text))
            .all(|other| other < answer)
        {
            counted.0 += 1;
        }
    }
    counted
}

/// The warning for a lesson whose correct options are the longest too often, if it is one.
pub(crate) fn longest_warning((longest, questions): (u32, u32)) -> Option<String> {
    (longest * 100 > questions * LONGEST_CORRECT_PERCENT).then(|| {
        format!(
            "the correct option is the longest in {longest} of {questions} questions (more than {LONGEST_CORRECT_PERCENT}%): a learner can answer by length; shorten the answer, or make a wrong option a fuller misconception"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_forty_percent_warns() {
        assert_eq!(longest_warning((0, 2)), None);
        assert_eq!(longest_warning((2, 5)), None);
        assert!(longest_warning((1, 2)).is_some());
        assert!(longest_warning((3, 5))
            .expect("a warning")
            .contains("longest in 3 of 5 questions"));
        assert_eq!(longest_warning((0, 0)), None);
    }
}
