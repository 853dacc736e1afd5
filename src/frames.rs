//! A lesson plays its designs one after another: the unsafe design, then the fix. A frame is one
//! position in that sequence: (design, cursor), where cursor 0 is before the design's first
//! event and cursor n is after event n. Frames are what the URL's step number counts.

use lab_course::Lesson;

/// The frames of one lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Frames {
    /// The first frame of each design.
    starts: Vec<u32>,
    total: u32,
}

impl Frames {
    /// Frames for designs whose traces have these numbers of events.
    pub fn new(lengths: impl IntoIterator<Item = u32>) -> Self {
        let mut starts = Vec::new();
        let mut total = 0;
        for length in lengths {
            starts.push(total);
            total += length + 1;
        }
        Frames { starts, total }
    }

    /// How many frames there are.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The last frame.
    pub fn last(&self) -> u32 {
        self.total.saturating_sub(1)
    }

    /// The (design, cursor) of a frame; frames past the end clamp to the last.
    pub fn locate(&self, frame: u32) -> (usize, u32) {
        let frame = frame.min(self.last());
        let design = self
            .starts
            .iter()
            .rposition(|&start| start <= frame)
            .unwrap_or(0);
        (design, frame - self.starts[design])
    }

    /// The frame of (design, cursor).
    pub fn frame(&self, design: usize, cursor: u32) -> u32 {
        self.starts.get(design).copied().unwrap_or(0) + cursor
    }

    /// The first frame of a design.
    pub fn start_of(&self, design: usize) -> u32 {
        self.frame(design, 0)
    }

    /// The number of events of a design (its last cursor).
    pub fn events_of(&self, design: usize) -> u32 {
        let end = self.starts.get(design + 1).copied().unwrap_or(self.total);
        end.saturating_sub(self.start_of(design) + 1)
    }
}

/// The narrative step that applies at a frame: the last one bound at or before it.
pub fn narrative_at(lesson: &Lesson, frames: &Frames, frame: u32) -> Option<usize> {
    lesson
        .steps
        .iter()
        .rposition(|step| frames.frame(step.design as usize, step.at) <= frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_engine::{Engine, Trace};

    fn traces() -> (lab_course::Lesson, Vec<Trace>) {
        let course = crate::course::course();
        let lesson = course
            .lesson("lost-reply")
            .expect("the lost-reply lesson exists")
            .clone();
        let traces = lesson
            .designs
            .iter()
            .map(|design| Engine::run(lab_engine::Scenario::clone(&design.scenario)).expect("runs"))
            .collect();
        (lesson, traces)
    }

    #[test]
    fn frames_cover_every_cursor_of_every_variant_once() {
        let (_, traces) = traces();
        let frames = Frames::new(traces.iter().map(Trace::len));
        let expected: u32 = traces.iter().map(|trace| trace.len() + 1).sum();
        assert_eq!(frames.total(), expected);
        let mut seen = Vec::new();
        for frame in 0..frames.total() {
            let (design, cursor) = frames.locate(frame);
            assert!(cursor <= traces[design].len());
            assert_eq!(frames.frame(design, cursor), frame);
            seen.push((design, cursor));
        }
        // The designs play in order, each from its start to its end: frames walk the
        // (design, cursor) pairs in strictly increasing order.
        assert!(seen.windows(2).all(|pair| pair[0] < pair[1]), "{seen:?}");
        assert_eq!(
            frames.locate(frames.total() + 10),
            frames.locate(frames.last())
        );
    }

    #[test]
    fn the_first_frame_shows_the_first_step() {
        let (lesson, traces) = traces();
        let frames = Frames::new(traces.iter().map(Trace::len));
        assert_eq!(narrative_at(&lesson, &frames, 0), Some(0));
        assert_eq!(
            narrative_at(&lesson, &frames, frames.last()),
            Some(lesson.steps.len() - 1)
        );
    }
}
