//! How far the learner got in each lesson. Steps are the 1-based step numbers of the lesson URL.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::versioned::{quote, Versioned};

/// The progress format this build reads and writes. Bump it when the shape changes: a value in
/// the old format is then reset with a notice instead of being misread.
pub const PROGRESS_VERSION: u32 = 1;

/// At most this many lessons are kept: the course has a handful, so more means a broken file.
pub const LESSONS_MAX: u32 = 1_000;
/// The longest lesson id kept, in bytes.
pub const LESSON_ID_BYTES_MAX: u32 = 200;
/// The most steps a lesson may have.
pub const STEPS_MAX: u32 = 1_000_000;

/// The learner's progress through the course.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The format version, [`PROGRESS_VERSION`].
    pub version: u32,
    /// Each visited lesson, by id.
    pub lessons: BTreeMap<String, LessonProgress>,
    /// The lesson and 1-based step visited last.
    pub last: Option<(String, u32)>,
    /// When `last` was visited, in milliseconds since 1970, so a merge keeps the more recent
    /// position. Absent in files from before it was added, which then count as oldest; older
    /// builds ignore it, so the format version is unchanged.
    /// Written `last_ms` before the names had no abbreviations; still read.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "last_ms")]
    pub last_milliseconds: Option<u64>,
    /// Which parts' predictions the learner answered and which they skipped, by lesson. Absent
    /// when none was asked yet; older builds ignore it, so the format version is unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub predictions: BTreeMap<String, Predictions>,
    /// Each build task's board as the learner left it, by lesson and 1-based part. Absent when
    /// none was touched; older builds ignore it, so the format version is unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boards: BTreeMap<String, BTreeMap<u32, BoardProgress>>,
    /// Each challenge the learner opened, by its id: one never overwrites another's. Absent when
    /// none was opened; older builds ignore it, so the format version is unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub challenges: BTreeMap<String, ChallengeProgress>,
}

/// A challenge as the learner left it: its title and link (the course map lists it, to open it
/// again), the board, the hints shown, the checks run, and whether a check found it holding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeProgress {
    pub title: String,
    /// The challenge's link state (what `#/challenge/` is followed by).
    pub link: String,
    pub board: lab_engine::Program,
    #[serde(default)]
    pub hints: u32,
    /// "Check my design" presses.
    #[serde(default)]
    pub checks: u32,
    #[serde(default)]
    pub solved: bool,
    /// When it was saved, in milliseconds since 1970: a merge keeps the newer board. (Written
    /// `saved_ms` before; still read.)
    #[serde(default, alias = "saved_ms")]
    pub saved_milliseconds: u64,
}

/// At most this many challenges are kept: each holds its link, up to 16 KB.
pub const CHALLENGES_MAX: u32 = 100;

/// A build task's board: the lines placed, the hints shown, and whether a check found the
/// program holding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardProgress {
    pub board: lab_engine::Program,
    #[serde(default)]
    pub hints: u32,
    #[serde(default)]
    pub solved: bool,
    /// When it was saved, in milliseconds since 1970: a merge keeps the newer board. (Written
    /// `saved_ms` before; still read.)
    #[serde(default, alias = "saved_ms")]
    pub saved_milliseconds: u64,
}

/// The parts of one lesson (1-based) whose prediction the learner answered, and those they
/// skipped to move on. A part is in one set at most: an answer after a skip counts as answered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Predictions {
    #[serde(default)]
    pub answered: BTreeSet<u32>,
    #[serde(default)]
    pub skipped: BTreeSet<u32>,
}

/// How far the learner got in one lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// The furthest 1-based step reached.
    pub furthest: u32,
    /// How many steps the lesson had at the last visit.
    pub total: u32,
    /// Whether the learner reached the last step. It stays true if an edited lesson later grows,
    /// so finishing a lesson is never taken back.
    pub completed: bool,
}

impl Default for Progress {
    /// No lesson visited.
    fn default() -> Self {
        Progress {
            version: PROGRESS_VERSION,
            lessons: BTreeMap::new(),
            last: None,
            last_milliseconds: None,
            predictions: BTreeMap::new(),
            boards: BTreeMap::new(),
            challenges: BTreeMap::new(),
        }
    }
}

impl Progress {
    /// The progress after visiting `step` of `total` in `lesson`, or `None` when the visit changes
    /// nothing or cannot be counted (step 0 or past the total, an empty lesson, a bad id, or a
    /// new lesson past the cap). `now_milliseconds` is when the visit happened.
    pub fn visited(
        &self,
        lesson: &str,
        step: u32,
        total: u32,
        now_milliseconds: u64,
    ) -> Option<Progress> {
        let before = self.lessons.get(lesson).copied();
        let countable = (1..=total).contains(&step)
            && total <= STEPS_MAX
            && id_fits(lesson)
            && (before.is_some() || self.lessons.len() < LESSONS_MAX as usize);
        if !countable {
            return None;
        }
        // The total comes from the current lesson, which an update may have shortened.
        let furthest = before.map_or(step, |before| before.furthest.min(total).max(step));
        let entry = LessonProgress {
            furthest,
            total,
            completed: before.is_some_and(|before| before.completed) || furthest == total,
        };
        let last = Some((lesson.to_string(), step));
        if before == Some(entry) && self.last == last {
            return None;
        }
        let mut next = self.clone();
        next.lessons.insert(lesson.to_string(), entry);
        next.last = last;
        next.last_milliseconds = Some(now_milliseconds);
        Some(next)
    }

    /// This progress merged with `other` (an imported file, or what another tab saved): the union
    /// of the lessons, each at the furthest step and the larger total either side reached,
    /// completed if either completed it, and the more recent `last` position (ours on a tie or
    /// when theirs has no time). Nothing is ever lost from `self`; lessons of `other` past the
    /// cap are left out, so the result is always valid if both sides are.
    pub fn merged(&self, other: &Progress) -> Progress {
        let mut next = self.clone();
        for (id, theirs) in &other.lessons {
            if let Some(ours) = next.lessons.get_mut(id) {
                *ours = LessonProgress {
                    furthest: ours.furthest.max(theirs.furthest),
                    total: ours.total.max(theirs.total),
                    completed: ours.completed || theirs.completed,
                };
            } else if next.lessons.len() < LESSONS_MAX as usize {
                next.lessons.insert(id.clone(), *theirs);
            }
        }
        let theirs_newer = match (&self.last, &other.last) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(_), Some(_)) => {
                other.last_milliseconds.unwrap_or(0) > self.last_milliseconds.unwrap_or(0)
            }
        };
        let theirs_kept = other
            .last
            .as_ref()
            .is_some_and(|(id, _)| next.lessons.contains_key(id));
        if theirs_newer && theirs_kept {
            next.last.clone_from(&other.last);
            next.last_milliseconds = other.last_milliseconds;
        }
        for (id, theirs) in &other.predictions {
            if !next.predictions.contains_key(id) && next.predictions.len() >= LESSONS_MAX as usize
            {
                continue;
            }
            let ours = next.predictions.entry(id.clone()).or_default();
            ours.answered.extend(theirs.answered.iter().copied());
            ours.skipped.extend(theirs.skipped.iter().copied());
            let answered = ours.answered.clone();
            ours.skipped.retain(|part| !answered.contains(part));
        }
        for (id, theirs) in &other.boards {
            if !next.boards.contains_key(id) && next.boards.len() >= LESSONS_MAX as usize {
                continue;
            }
            let ours = next.boards.entry(id.clone()).or_default();
            for (&part, board) in theirs {
                match ours.get_mut(&part) {
                    None => {
                        ours.insert(part, board.clone());
                    }
                    Some(mine) => {
                        // The newer board, solved if either side solved it, with every hint
                        // either side saw.
                        let (solved, hints) =
                            (mine.solved || board.solved, mine.hints.max(board.hints));
                        if board.saved_milliseconds > mine.saved_milliseconds {
                            *mine = board.clone();
                        }
                        mine.solved = solved;
                        mine.hints = hints;
                    }
                }
            }
        }
        for (id, theirs) in &other.challenges {
            let room = next.challenges.len() < CHALLENGES_MAX as usize;
            match next.challenges.get_mut(id) {
                Some(mine) => *mine = mine.joined(theirs),
                None if room => {
                    next.challenges.insert(id.clone(), theirs.clone());
                }
                None => {}
            }
        }
        next
    }

    /// The progress after the learner left a challenge (by id) as `attempt` says, or `None` when
    /// that changes nothing or cannot be kept (a bad id or link, a new challenge past the cap).
    pub fn attempted(&self, id: &str, attempt: ChallengeProgress) -> Option<Progress> {
        let before = self.challenges.get(id);
        let countable = challenge_fits(id, &attempt)
            && (before.is_some() || self.challenges.len() < CHALLENGES_MAX as usize);
        let next_attempt = match before {
            Some(known) => known.joined(&attempt),
            None => attempt,
        };
        let same = before.is_some_and(|known| {
            ChallengeProgress {
                saved_milliseconds: known.saved_milliseconds,
                ..next_attempt.clone()
            } == *known
        });
        if !countable || same {
            return None;
        }
        let mut next = self.clone();
        next.challenges.insert(id.to_string(), next_attempt);
        Some(next)
    }

    /// The progress after the learner left the board of `part` (1-based) of `lesson` as
    /// `board` says, or `None` when that changes nothing or cannot be kept.
    pub fn boarded(&self, lesson: &str, part: u32, board: BoardProgress) -> Option<Progress> {
        let before = self.boards.get(lesson);
        let countable = (1..=STEPS_MAX).contains(&part)
            && id_fits(lesson)
            && (before.is_some() || self.boards.len() < LESSONS_MAX as usize);
        let same = before
            .and_then(|parts| parts.get(&part))
            .is_some_and(|known| {
                known.board == board.board
                    && known.hints == board.hints
                    && known.solved == board.solved
            });
        if !countable || same {
            return None;
        }
        let mut next = self.clone();
        let entry = next.boards.entry(lesson.to_string()).or_default();
        let solved = entry.get(&part).is_some_and(|known| known.solved) || board.solved;
        let hints = entry
            .get(&part)
            .map_or(0, |known| known.hints)
            .max(board.hints);
        entry.insert(
            part,
            BoardProgress {
                solved,
                hints,
                ..board
            },
        );
        Some(next)
    }

    /// The progress after the learner answered (or skipped) the prediction of `part` (1-based) in
    /// `lesson`, or `None` when that changes nothing or cannot be kept (a bad id, a part past
    /// the cap, a new lesson past the cap).
    pub fn predicted(&self, lesson: &str, part: u32, skipped: bool) -> Option<Progress> {
        let before = self.predictions.get(lesson);
        let countable = (1..=STEPS_MAX).contains(&part)
            && id_fits(lesson)
            && (before.is_some() || self.predictions.len() < LESSONS_MAX as usize);
        let known = before.is_some_and(|before| {
            before.answered.contains(&part) || (skipped && before.skipped.contains(&part))
        });
        if !countable || known {
            return None;
        }
        let mut next = self.clone();
        let entry = next.predictions.entry(lesson.to_string()).or_default();
        if skipped {
            entry.skipped.insert(part);
        } else {
            entry.skipped.remove(&part);
            entry.answered.insert(part);
        }
        Some(next)
    }

    /// How many lessons have been visited.
    pub fn lesson_count(&self) -> u32 {
        self.lessons.len() as u32
    }
}

impl Versioned for Progress {
    const VERSION: u32 = PROGRESS_VERSION;

    fn check(&self) -> Result<(), String> {
        let count = self.lessons.len();
        if count > LESSONS_MAX as usize {
            return Err(format!(
                "it lists {count} lessons, and the lab keeps at most {LESSONS_MAX}"
            ));
        }
        if self.predictions.len() > LESSONS_MAX as usize {
            return Err(format!(
                "it records predictions for {} lessons, and the lab keeps at most {LESSONS_MAX}",
                self.predictions.len()
            ));
        }
        for (id, parts) in &self.predictions {
            let outside = parts
                .answered
                .iter()
                .chain(&parts.skipped)
                .any(|part| !(1..=STEPS_MAX).contains(part));
            if !id_fits(id) || outside {
                return Err(format!(
                    "the predictions of lesson \"{}\" name an empty or too long id, or a part outside 1 to {STEPS_MAX}",
                    quote(id)
                ));
            }
        }
        if self.boards.len() > LESSONS_MAX as usize {
            return Err(format!(
                "it keeps boards for {} lessons, and the lab keeps at most {LESSONS_MAX}",
                self.boards.len()
            ));
        }
        for (id, parts) in &self.boards {
            if !id_fits(id) || parts.keys().any(|part| !(1..=STEPS_MAX).contains(part)) {
                return Err(format!(
                    "the boards of lesson \"{}\" name an empty or too long id, or a part outside 1 to {STEPS_MAX}",
                    quote(id)
                ));
            }
        }
        if self.challenges.len() > CHALLENGES_MAX as usize {
            return Err(format!(
                "it keeps {} challenges, and the lab keeps at most {CHALLENGES_MAX}",
                self.challenges.len()
            ));
        }
        for (id, attempt) in &self.challenges {
            if !challenge_fits(id, attempt) {
                return Err(format!(
                    "the challenge \"{}\" has an id that is not 8 hexadecimal digits, or a link or title too long",
                    quote(id)
                ));
            }
        }
        for (id, lesson) in &self.lessons {
            if !id_fits(id) {
                return Err(format!(
                    "the lesson id \"{}\" is empty or longer than {LESSON_ID_BYTES_MAX} bytes",
                    quote(id)
                ));
            }
            if !(1..=STEPS_MAX).contains(&lesson.total)
                || !(1..=lesson.total).contains(&lesson.furthest)
            {
                return Err(format!(
                    "lesson \"{}\" is at step {} of {}, which cannot be (steps count from 1 up to the total)",
                    quote(id),
                    lesson.furthest,
                    lesson.total
                ));
            }
        }
        if let Some((id, step)) = &self.last {
            let Some(lesson) = self.lessons.get(id) else {
                return Err(format!(
                    "the last lesson visited, \"{}\", is not among its lessons",
                    quote(id)
                ));
            };
            if !(1..=lesson.total).contains(step) {
                return Err(format!(
                    "the last step visited, {step}, is not a step of lesson \"{}\" (1 to {})",
                    quote(id),
                    lesson.total
                ));
            }
        }
        Ok(())
    }
}

fn id_fits(id: &str) -> bool {
    !id.is_empty() && id.len() <= LESSON_ID_BYTES_MAX as usize
}

/// A challenge's id is its 8 hexadecimal digits; its link fits in an address the lab reads.
fn challenge_fits(id: &str, attempt: &ChallengeProgress) -> bool {
    id.len() == 8
        && id.bytes().all(|byte| byte.is_ascii_hexdigit())
        && attempt.link.len() <= lab_course::share::LINK_CHARS_MAX
        && attempt.title.len() <= 4 * lab_course::challenge::TITLE_CHARS_MAX
}

impl ChallengeProgress {
    /// Two saves of one challenge as one: the newer board, solved if either solved it, every
    /// hint and check either side counted.
    fn joined(&self, other: &ChallengeProgress) -> ChallengeProgress {
        let newer = match other.saved_milliseconds > self.saved_milliseconds {
            true => other,
            false => self,
        };
        ChallengeProgress {
            solved: self.solved || other.solved,
            hints: self.hints.max(other.hints),
            checks: self.checks.max(other.checks),
            ..newer.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(
        board: &str,
        solved: bool,
        hints: u32,
        checks: u32,
        saved_milliseconds: u64,
    ) -> ChallengeProgress {
        ChallengeProgress {
            title: "Guard the notification".into(),
            link: "AbC-_9".into(),
            board: lab_engine::Program::parse(board).expect("a program"),
            hints,
            checks,
            solved,
            saved_milliseconds,
        }
    }

    #[test]
    fn each_challenge_keeps_its_own_attempt_and_a_solve_is_never_taken_back() {
        let none = Progress::default();
        let first = none
            .attempted("0a1b2c3d", attempt("try\n", false, 0, 0, 1))
            .expect("a new challenge is kept");
        let other = first
            .attempted("ffffffff", attempt("else\n", false, 0, 0, 2))
            .expect("another challenge is kept beside it");
        assert_eq!(other.challenges.len(), 2);
        assert_eq!(other.challenges["0a1b2c3d"].board.text(), "try\n");
        let solved = other
            .attempted("0a1b2c3d", attempt("try\n", true, 1, 3, 3))
            .expect("solving changes it");
        // A later change of the board keeps the solve, the hints and the checks.
        let changed = solved
            .attempted("0a1b2c3d", attempt("else\n", false, 0, 0, 4))
            .expect("a new board changes it");
        let kept = &changed.challenges["0a1b2c3d"];
        assert!(kept.solved && kept.hints == 1 && kept.checks == 3);
        assert_eq!(kept.board.text(), "else\n");
        assert_eq!(changed.challenges["ffffffff"].board.text(), "else\n");
        // The same save again changes nothing.
        assert_eq!(
            changed.attempted("0a1b2c3d", attempt("else\n", false, 0, 0, 5)),
            None
        );
        // An id that is not one, or a link too long, is not kept.
        assert_eq!(
            none.attempted("not-hex!", attempt("try\n", false, 0, 0, 1)),
            None
        );
        let mut long = attempt("try\n", false, 0, 0, 1);
        long.link = "A".repeat(lab_course::share::LINK_CHARS_MAX + 1);
        assert_eq!(none.attempted("0a1b2c3d", long), None);
    }

    #[test]
    fn a_merge_joins_the_attempts_of_both_sides() {
        let ours = Progress::default()
            .attempted("0a1b2c3d", attempt("try\n", true, 2, 4, 10))
            .unwrap();
        let theirs = Progress::default()
            .attempted("0a1b2c3d", attempt("else\n", false, 3, 1, 20))
            .unwrap()
            .attempted("ffffffff", attempt("try\n", false, 0, 0, 5))
            .unwrap();
        let merged = ours.merged(&theirs);
        let joined = &merged.challenges["0a1b2c3d"];
        assert_eq!(joined.board.text(), "else\n", "the newer board");
        assert!(joined.solved && joined.hints == 3 && joined.checks == 4);
        assert!(merged.challenges.contains_key("ffffffff"));
        assert!(merged.check().is_ok());
    }
}
