//! Mutations of a text for property tests (feature `mutations`, for tests only): lines dropped
//! or doubled, a token of the text's format put in or one put in place of a character, a run of
//! characters cut, a digit changed. The app's tests mutate saved and imported JSON with it, and
//! `lab`'s mutate lesson and scenario files, each with the tokens that matter to its format.

use proptest::prelude::*;

/// One change to a text, at a place chosen as a fraction of its length.
#[derive(Clone, Debug)]
pub enum Mutation {
    DropLine(prop::sample::Index),
    DoubleLine(prop::sample::Index),
    Insert(prop::sample::Index, String),
    Replace(prop::sample::Index, String),
    Cut(prop::sample::Index, u8),
    Digit(prop::sample::Index, char),
}

/// Any mutation; what is put in is one of `tokens` (those that matter to the format) as often
/// as any other character.
pub fn mutation(tokens: &'static [&'static str]) -> impl Strategy<Value = Mutation> {
    let token = || {
        prop_oneof![
            prop::sample::select(tokens).prop_map(str::to_string),
            any::<char>().prop_map(String::from),
        ]
    };
    let at = any::<prop::sample::Index>;
    prop_oneof![
        at().prop_map(Mutation::DropLine),
        at().prop_map(Mutation::DoubleLine),
        (at(), token()).prop_map(|(at, token)| Mutation::Insert(at, token)),
        (at(), token()).prop_map(|(at, token)| Mutation::Replace(at, token)),
        (at(), 1..40u8).prop_map(|(at, length)| Mutation::Cut(at, length)),
        (at(), prop::char::range('0', '9')).prop_map(|(at, digit)| Mutation::Digit(at, digit)),
    ]
}

/// `text` with the mutations applied in order, each at a character boundary.
pub fn mutated(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for mutation in mutations {
        let boundaries: Vec<usize> = text
            .char_indices()
            .map(|(at, _)| at)
            .chain([text.len()])
            .collect();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let splice = |start: usize, end: usize, put: &str| {
            format!(
                "{}{put}{}",
                &text[..boundaries[start]],
                &text[boundaries[end]..]
            )
        };
        text = match mutation {
            Mutation::DropLine(at) if !lines.is_empty() => {
                let drop = at.index(lines.len());
                lines
                    .iter()
                    .enumerate()
                    .filter(|(index, _)| *index != drop)
                    .map(|(_, line)| *line)
                    .collect()
            }
            Mutation::DoubleLine(at) if !lines.is_empty() => {
                let double = at.index(lines.len());
                lines
                    .iter()
                    .enumerate()
                    .flat_map(|(index, line)| {
                        std::iter::repeat_n(*line, if index == double { 2 } else { 1 })
                    })
                    .collect()
            }
            Mutation::Insert(at, token) => {
                let at = at.index(boundaries.len());
                splice(at, at, token)
            }
            Mutation::Replace(at, token) if boundaries.len() > 1 => {
                let at = at.index(boundaries.len() - 1);
                splice(at, at + 1, token)
            }
            Mutation::Cut(at, length) => {
                let start = at.index(boundaries.len());
                let end = (start + usize::from(*length)).min(boundaries.len() - 1);
                splice(start, end, "")
            }
            Mutation::Digit(at, digit) => {
                // The first digit at or after the place, replaced.
                let from = boundaries[at.index(boundaries.len())];
                match text[from..].find(|c: char| c.is_ascii_digit()) {
                    Some(offset) => {
                        let at = from + offset;
                        format!("{}{digit}{}", &text[..at], &text[at + 1..])
                    }
                    None => text.clone(),
                }
            }
            _ => text.clone(),
        };
    }
    text
}

#[cfg(test)]
mod tests {
    use proptest::strategy::ValueTree;

    use super::*;

    /// An index that picks `index` of `of` (an Index has no constructor: draw until one does).
    fn at(index: usize, of: usize) -> prop::sample::Index {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        (0..10_000)
            .map(|_| {
                any::<prop::sample::Index>()
                    .new_tree(&mut runner)
                    .expect("an index")
                    .current()
            })
            .find(|candidate| candidate.index(of) == index)
            .unwrap_or_else(|| panic!("no index picks {index} of {of}"))
    }

    #[test]
    fn each_mutation_changes_what_it_says() {
        let text = "a = 1\nb = 2\n";
        let first = at(0, 2);
        assert_eq!(mutated(text, &[Mutation::DropLine(first)]), "b = 2\n");
        assert_eq!(
            mutated(text, &[Mutation::DoubleLine(first)]),
            "a = 1\na = 1\nb = 2\n"
        );
        let start = at(0, 13);
        assert_eq!(
            mutated(text, &[Mutation::Insert(start, "[".into())]),
            "[a = 1\nb = 2\n"
        );
        let start = at(0, 12);
        assert_eq!(
            mutated(text, &[Mutation::Replace(start, "é".into())]),
            "é = 1\nb = 2\n"
        );
        let start = at(0, 13);
        assert_eq!(mutated(text, &[Mutation::Cut(start, 4)]), "1\nb = 2\n");
        assert_eq!(
            mutated(text, &[Mutation::Digit(start, '7')]),
            "a = 7\nb = 2\n"
        );
    }

    proptest! {
        #[test]
        fn mutations_keep_the_text_valid_utf8(text in ".*", mutations in prop::collection::vec(mutation(&["\"", "{"]), 0..6)) {
            // A String cannot hold invalid UTF-8: slicing off a boundary would have panicked.
            let _ = mutated(&text, &mutations);
        }
    }
}
