//! Cursor resolution: a step's `at` (an index, "start"/"end", or an action, fault or broken
//! invariant) to a position in its design's trace.

use lab_engine::{Invariant, Trace};

use super::files::{At, Point};
use crate::names::by_name;

/// A step's `at` to a cursor in the trace.
pub(crate) fn resolve(at: &At, trace: &Trace) -> Result<u32, String> {
    let len = trace.len();
    let cursor = match at {
        At::Index(index) if *index <= len => *index,
        At::Index(index) => {
            return Err(format!(
                "at = {index} is past the end; the trace has {len} events"
            ))
        }
        At::Named(name) if name == "start" => 0,
        At::Named(name) if name == "end" => len,
        At::Named(name) => {
            return Err(format!(
                "at = \"{name}\" is unknown; use a number, \"start\", \"end\" or a table"
            ))
        }
        At::Point(point) => {
            let event = point_event(point, trace)?;
            if point.before {
                event - 1
            } else {
                event
            }
        }
    };
    Ok(cursor)
}

pub(crate) fn point_event(point: &Point, trace: &Trace) -> Result<u32, String> {
    let given = [
        point.broke.is_some(),
        point.fault.is_some(),
        point.action.is_some(),
    ];
    if given.iter().filter(|&&present| present).count() > 1 {
        return Err("at = { .. } takes exactly one of action, fault or broke".into());
    }
    if point.nth == 0 || point.fault == Some(0) {
        return Err("nth and fault count from 1".into());
    }
    if let Some(id) = &point.broke {
        let invariant: Invariant = by_name("invariant", id)?;
        return trace
            .verdicts
            .iter()
            .find(|verdict| verdict.invariant == invariant)
            .and_then(|verdict| verdict.broken_at)
            .ok_or_else(|| format!("{id} never breaks in this design"));
    }
    if let Some(nth) = point.fault {
        return trace
            .events
            .iter()
            .filter(|event| event.fault.is_some())
            .nth(nth.saturating_sub(1) as usize)
            .map(|event| event.index)
            .ok_or_else(|| format!("this design has fewer than {nth} faults"));
    }
    if let Some(action) = point.action {
        return trace
            .events
            .iter()
            .filter(|event| event.action == action)
            .nth(point.nth.saturating_sub(1) as usize)
            .map(|event| event.index)
            .ok_or_else(|| {
                format!(
                    "{} happens fewer than {} times in this design",
                    action.name(),
                    point.nth
                )
            });
    }
    Err("at = { .. } needs one of action, fault or broke".into())
}
