//! A world's records in maps whose copies share what did not change: what a trace keeps as its
//! checkpoints. One is kept current by applying each event's changes, as `World::apply` does,
//! and copied at every checkpoint; a seek turns the nearest copy back into a `World`.

use std::rc::Rc;

use crate::chunks::Chunks;
use crate::lookup::Keyed;
use crate::text::Text;
use crate::world::{
    Change, Counts, Effect, InFlight, JobRow, ProviderRecord, Row, Table, WorkerView, World,
};

/// The state after some event, sharing unchanged chunks with the snapshots before it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshot {
    tick: u32,
    /// The rows the changes hold, shared: applying a change or copying a chunk copies pointers.
    /// By slot: the order in which rows first appeared, so new rows go to the end and a row is
    /// found by comparing numbers, not its id with others on cold memory.
    journal: Chunks<u32, Rc<JobRow>>,
    /// Each row's slot, by id: only for applying changes, so a checkpoint (`copy`) leaves it out.
    slots: Keyed<u32>,
    /// By position.
    provider: Chunks<u32, ProviderRecord>,
    /// Few at a time: copied whole.
    in_flight: Vec<InFlight>,
    /// By rowid.
    rows: Chunks<i64, Row>,
    dedup: Chunks<Text, ()>,
    /// The table's settings and rowid sequence, without its rows and dedup keys.
    table: Table,
    tracker: Chunks<Text, Text>,
    /// By position.
    effects: Chunks<u32, Effect>,
    counts: Counts,
    /// Each worker's view without its results, and its results by position.
    workers: Vec<(WorkerView, Chunks<u32, Text>)>,
}

impl Snapshot {
    /// The records of `world`.
    pub(crate) fn of(world: &World) -> Snapshot {
        let numbered = |count: usize| 0..count as u32;
        Snapshot {
            tick: world.tick,
            journal: Chunks::from_sorted(
                numbered(world.journal.len()).zip(world.journal.values().cloned().map(Rc::new)),
            ),
            slots: world
                .journal
                .keys()
                .cloned()
                .zip(numbered(world.journal.len()))
                .collect(),
            provider: Chunks::from_sorted(
                numbered(world.provider.len()).zip(world.provider.iter().cloned()),
            ),
            in_flight: world.in_flight.clone(),
            rows: Chunks::from_sorted(world.table.rows.iter().map(|row| (row.rowid, row.clone()))),
            dedup: Chunks::from_sorted(world.table.dedup.iter().map(|key| (key.clone(), ()))),
            table: world.table.settings(),
            tracker: Chunks::from_sorted(
                world
                    .tracker
                    .iter()
                    .map(|(key, operation)| (key.clone(), operation.clone())),
            ),
            effects: Chunks::from_sorted(
                numbered(world.effects.len()).zip(world.effects.iter().cloned()),
            ),
            counts: world.counts.clone(),
            workers: world
                .workers
                .iter()
                .map(|view| {
                    let results = numbered(view.results.len()).zip(view.results.iter().cloned());
                    let bare = WorkerView {
                        results: Vec::new(),
                        ..view.clone()
                    };
                    (bare, Chunks::from_sorted(results))
                })
                .collect(),
        }
    }

    /// A copy to keep as a checkpoint: it shares every chunk, and has no slots (a checkpoint only
    /// turns back into a world), so it costs about the number of chunks.
    pub(crate) fn copy(&self) -> Snapshot {
        Snapshot {
            tick: self.tick,
            journal: self.journal.clone(),
            slots: Keyed::default(),
            provider: self.provider.clone(),
            in_flight: self.in_flight.clone(),
            rows: self.rows.clone(),
            dedup: self.dedup.clone(),
            table: self.table.settings(),
            tracker: self.tracker.clone(),
            effects: self.effects.clone(),
            counts: self.counts.clone(),
            workers: self.workers.clone(),
        }
    }

    /// How many items the snapshot holds, counted as `World::size` counts them.
    pub(crate) fn size(&self) -> u32 {
        let results: usize = self.workers.iter().map(|(_, results)| results.len()).sum();
        (self.journal.len()
            + self.provider.len()
            + self.in_flight.len()
            + self.rows.len()
            + self.dedup.len()
            + self.tracker.len()
            + self.effects.len()
            + self.workers.len()
            + results) as u32
    }

    /// Applies one event's changes, and the tick after it, as `Trace` replays them on a world.
    pub(crate) fn apply(&mut self, changes: &[Change], tick: u32) {
        for change in changes {
            self.apply_one(change);
        }
        self.tick = tick;
    }

    fn apply_one(&mut self, change: &Change) {
        match change {
            Change::Job { row } => {
                let next = self.slots.len() as u32;
                let slot = *self.slots.insert_if_absent(row.id.clone(), next).0;
                self.journal.insert(slot, Rc::clone(row));
            }
            Change::Provider { record } => {
                self.provider
                    .insert(self.provider.len() as u32, record.clone());
            }
            Change::KeyExpired { records } => {
                for position in records {
                    if let Some(record) = self.provider.get_mut(position) {
                        record.key_expired = true;
                    }
                }
            }
            Change::InFlight { request } => self.in_flight.push(request.clone()),
            Change::Landed { position } => {
                self.in_flight.remove(*position as usize);
            }
            Change::Row { row } => {
                self.table.next_rowid = self.table.next_rowid.max(row.rowid + 1);
                self.rows.insert(row.rowid, row.clone());
            }
            Change::RowDeleted { rowid } => self.rows.remove(rowid),
            Change::RowValue { rowid, value } => {
                if let Some(row) = self.rows.get_mut(rowid) {
                    row.value.clone_from(value);
                }
            }
            Change::Dedup { key } => self.dedup.insert(key.clone(), ()),
            Change::Tracker { key, operation } => {
                self.tracker.insert(key.clone(), operation.clone())
            }
            Change::Effect { effect } => {
                self.effects
                    .insert(self.effects.len() as u32, effect.clone());
            }
            Change::ModelCalls { .. }
            | Change::Progress { .. }
            | Change::DeepestCalls { .. }
            | Change::Cancelled { .. }
            | Change::RetryLedger { .. } => self.counts.apply(change),
            Change::Worker { worker, .. } => self.workers[*worker as usize].0.apply(change),
            Change::Result { worker, result } => {
                let (_, results) = &mut self.workers[*worker as usize];
                let position = results.last_key().map_or(0, |last| last + 1);
                results.insert(position, result.clone());
            }
        }
    }

    /// The world this snapshot stands for (without its lookups, built when first read).
    pub(crate) fn world(&self) -> World {
        let mut table = self.table.settings();
        table.rows = values(&self.rows);
        table.dedup = self.dedup.iter().map(|(key, ())| key.clone()).collect();
        let mut world = World::default();
        world.tick = self.tick;
        let rows = self.journal.iter();
        world.journal =
            Keyed::from_distinct(rows.map(|(_, row)| (row.id.clone(), JobRow::clone(row))));
        world.provider = values(&self.provider);
        world.in_flight = self.in_flight.clone();
        world.table = table;
        world.tracker = self.tracker.iter().cloned().collect();
        world.effects = values(&self.effects);
        world.counts.clone_from(&self.counts);
        world.workers = self
            .workers
            .iter()
            .map(|(view, results)| WorkerView {
                results: values(results),
                ..view.clone()
            })
            .collect();
        world
    }
}

/// The values of a map, in key order.
fn values<K: Ord + Clone, V: Clone>(chunks: &Chunks<K, V>) -> Vec<V> {
    chunks.iter().map(|(_, value)| value.clone()).collect()
}
