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

    /// A lesson file of one step with these questions: each a list of option texts and the
    /// index of the correct one; and a `try.choose` of these labels, the first correct.
    fn lesson(questions: &[(&[&str], usize)], choose: &[&str]) -> LessonFile {
        let mut text = String::from(
            "id = \"l\"\ntitle = \"t\"\nsummary = \"s\"\nminutes = 1\nscenario = {}\ndesigns = []\n[[steps]]\ntitle = \"t\"\nat = \"start\"\ntext = \"t\"\n",
        );
        if !choose.is_empty() {
            let options: Vec<String> = choose
                .iter()
                .enumerate()
                .map(|(index, label)| {
                    format!("{{ label = \"{label}\", key = \"source_id\", correct = {}, explain = \"e\" }}", index == 0)
                })
                .collect();
            text += &format!(
                "try = {{ choose = \"q\", options = [{}] }}\n",
                options.join(", ")
            );
        }
        for (options, correct) in questions {
            let options: Vec<String> = options
                .iter()
                .enumerate()
                .map(|(index, option)| {
                    format!(
                        "{{ text = \"{option}\", correct = {}, explain = \"e\" }}",
                        index == *correct
                    )
                })
                .collect();
            text += &format!(
                "[[steps.questions]]\nkind = \"predict\"\nprompt = \"q\"\noptions = [{}]\n",
                options.join(", ")
            );
        }
        toml::from_str(&text).expect("a lesson file")
    }

    #[test]
    fn only_a_strictly_longest_correct_option_counts_and_a_choose_task_is_a_question() {
        // Longest, shortest, tied with a wrong option.
        let file = lesson(
            &[
                (&["a long answer", "no"], 0),
                (&["yes", "a long distractor"], 0),
                (&["same", "size"], 1),
            ],
            &[],
        );
        assert_eq!(longest_correct(&file), (1, 3));
        // A choose task whose correct label is the longest counts too.
        let chosen = lesson(
            &[(&["yes", "a long distractor"], 0)],
            &["the source's own id", "a hash"],
        );
        assert_eq!(longest_correct(&chosen), (1, 2));
        assert!(longest_warning(longest_correct(&chosen)).is_some());
        assert_eq!(longest_warning(longest_correct(&file)), None);
    }

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
