//! The answer hidden in plain sight: a lesson whose correct options are mostly the longest lets
//! a learner pass by length. The checker warns above a share of the lesson's questions.

use super::files::LessonFile;

/// Above this share of a lesson's questions (in percent) with the correct option the longest,
/// the checker warns.
pub const LONGEST_CORRECT_PERCENT: u32 = 40;

/// How often the correct option is the longest (ties count: a learner cannot tell them apart)
/// among a lesson's questions with one correct option: `(longest, questions)`.
pub(crate) fn longest_correct(file: &LessonFile) -> (u32, u32) {
    let mut counted = (0, 0);
    for question in file.steps.iter().flat_map(|step| &step.questions) {
        let mut correct = question.options.iter().filter(|option| option.correct);
        let (Some(answer), None) = (correct.next(), correct.next()) else {
            continue;
        };
        let length = |text: &str| text.chars().count();
        let longest = question
            .options
            .iter()
            .map(|option| length(&option.text))
            .max()
            .unwrap_or(0);
        counted.1 += 1;
        if length(&answer.text) == longest {
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
