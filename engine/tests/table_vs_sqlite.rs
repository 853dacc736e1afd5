//! Differential test: `lab_engine::Table`, the model of the results table, against real SQLite
//! (bundled, so every machine tests against the same version), statement by statement.
//!
//! What is compared, and why:
//! - With UNIQUE on `key`, the model's three write modes run beside `INSERT`, `INSERT OR IGNORE`
//!   and `INSERT .. ON CONFLICT(key) DO UPDATE SET value = excluded.value`.
//! - Without UNIQUE, the model documents that "ON CONFLICT has nothing to detect a conflict
//!   against: every mode is a plain insert". SQLite does not accept the statement the model names
//!   for its upsert: `ON CONFLICT(key)` with no unique index on `key` fails when it is prepared,
//!   before any row is touched (`upsert_with_a_target_needs_a_unique_index` pins the message).
//!   The honest analogue of the model's degradation is the upsert with its conflict target left
//!   out (`ON CONFLICT DO UPDATE`, allowed on the last clause since SQLite 3.35), which fires on
//!   any uniqueness constraint and, with none, inserts. So without UNIQUE the model's upsert is
//!   compared against that statement, and `INSERT` and `INSERT OR IGNORE` against themselves.
//!   The targetless form also runs against the UNIQUE table, where it must act like the named one.
//!
//! After every statement the outcome (Inserted, Updated, Ignored, Conflict) is compared with what
//! SQLite did (rows changed, row count, constraint error), and so is the whole table in rowid
//! order; at the end of each sequence, `count` and `contains` for every key against SQL.

use lab_engine::{Table, WriteMode, WriteOutcome};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{TestCaseError, TestRunner};
use rusqlite::{params, Connection, ErrorCode};

/// Few keys, so that most sequences write one key twice. "op-1" differs from "OP-1" by case
/// only, which SQLite's default BINARY collation and the model's `==` both tell apart.
const KEYS: [&str; 3] = ["OP-1", "OP-2", "op-1"];

/// Two values, so that an upsert sometimes rewrites the value it finds.
const VALUES: [&str; 2] = ["receipt-1", "receipt-2"];

/// A key no statement writes, for `count` and `contains` on an absent key.
const KEY_NEVER_WRITTEN: &str = "OP-404";

const SCHEMA_UNIQUE: &str =
    "CREATE TABLE results (key TEXT NOT NULL UNIQUE, value TEXT NOT NULL, operation TEXT NOT NULL)";
const SCHEMA_PLAIN: &str =
    "CREATE TABLE results (key TEXT NOT NULL, value TEXT NOT NULL, operation TEXT NOT NULL)";

const INSERT: &str = "INSERT INTO results(key, value, operation) VALUES (?1, ?2, ?3)";
const INSERT_OR_IGNORE: &str =
    "INSERT OR IGNORE INTO results(key, value, operation) VALUES (?1, ?2, ?3)";
/// The statement the model names. `operation` is left as it was, as the model leaves it.
const UPSERT_ON_KEY: &str = "INSERT INTO results(key, value, operation) VALUES (?1, ?2, ?3) \
     ON CONFLICT(key) DO UPDATE SET value = excluded.value";
const UPSERT_ON_ANY: &str = "INSERT INTO results(key, value, operation) VALUES (?1, ?2, ?3) \
     ON CONFLICT DO UPDATE SET value = excluded.value";

/// One statement of a sequence.
#[derive(Clone, Copy, Debug)]
struct Statement {
    mode: WriteMode,
    key: &'static str,
    value: &'static str,
}

/// The SQL that stands for `mode` on a table with or without UNIQUE (see the module comment).
fn sql_for(mode: WriteMode, unique: bool, targetless: bool) -> &'static str {
    match mode {
        WriteMode::Insert => INSERT,
        WriteMode::InsertOrIgnore => INSERT_OR_IGNORE,
        WriteMode::Upsert if unique && !targetless => UPSERT_ON_KEY,
        WriteMode::Upsert => UPSERT_ON_ANY,
    }
}

fn open(unique: bool) -> Connection {
    let connection = Connection::open_in_memory().expect("an in-memory database opens");
    let schema = if unique { SCHEMA_UNIQUE } else { SCHEMA_PLAIN };
    connection
        .execute_batch(schema)
        .expect("the schema is valid");
    connection
}

/// What SQLite did with one statement, in the model's terms. `rows_before` tells an upsert that
/// inserted from one that updated: both change one row.
fn execute(
    connection: &Connection,
    sql: &str,
    statement: Statement,
    operation: &str,
    rows_before: usize,
) -> (WriteOutcome, Vec<SqlRow>) {
    let mut prepared = connection
        .prepare_cached(sql)
        .expect("the statement prepares");
    let result = prepared.execute(params![statement.key, statement.value, operation]);
    let rows = sqlite_rows(connection);
    let outcome = match result {
        Ok(0) => WriteOutcome::Ignored,
        Ok(1) if rows.len() == rows_before + 1 => WriteOutcome::Inserted,
        Ok(1) => WriteOutcome::Updated,
        Ok(changes) => panic!("one row of VALUES changed {changes} rows"),
        Err(rusqlite::Error::SqliteFailure(error, message))
            if error.code == ErrorCode::ConstraintViolation =>
        {
            assert_eq!(
                error.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE,
                "only UNIQUE can refuse a row here: {message:?}"
            );
            WriteOutcome::Conflict
        }
        Err(error) => panic!("{sql} failed: {error}"),
    };
    (outcome, rows)
}

/// (rowid, key, value, operation) of one row.
type SqlRow = (i64, String, String, String);

/// Every row, in rowid order.
fn sqlite_rows(connection: &Connection) -> Vec<SqlRow> {
    let mut query = connection
        .prepare_cached("SELECT rowid, key, value, operation FROM results ORDER BY rowid")
        .expect("the query prepares");
    query
        .query_map([], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .expect("the query runs")
        .collect::<Result<_, _>>()
        .expect("every row reads")
}

fn model_rows(table: &Table) -> Vec<SqlRow> {
    table
        .rows
        .iter()
        .map(|row| {
            (
                row.rowid,
                row.key.to_string(),
                row.value.to_string(),
                row.operation.to_string(),
            )
        })
        .collect()
}

fn sqlite_contains(connection: &Connection, key: &str) -> bool {
    connection
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM results WHERE key = ?1)",
            [key],
            |row| row.get(0),
        )
        .expect("looking one key up works")
}

fn sqlite_count(connection: &Connection, key: &str) -> u32 {
    connection
        .query_row(
            "SELECT COUNT(*) FROM results WHERE key = ?1",
            [key],
            |row| row.get(0),
        )
        .expect("counting one key works")
}

/// Runs one sequence on the model and on SQLite, comparing after every statement. The
/// connection is reused across sequences (opening one costs more than a whole sequence) and
/// emptied first; SQLite numbers the first row of an empty table 1, as `Table::new` does, and the
/// rowid comparison checks that.
fn compare(
    connection: &Connection,
    unique: bool,
    targetless: bool,
    statements: &[Statement],
) -> Result<(), TestCaseError> {
    connection
        .execute_batch("DELETE FROM results")
        .expect("the table empties");
    let mut table = Table::new(unique);
    for (index, &statement) in statements.iter().enumerate() {
        // The statement's position names the operation, so a row shows which write made it.
        let operation = format!("write-{}", index + 1);
        let sql = sql_for(statement.mode, unique, targetless);
        let rows_before = table.rows.len();
        let expected = table.write(statement.mode, statement.key, statement.value, &operation);
        let (actual, rows) = execute(connection, sql, statement, &operation, rows_before);
        prop_assert_eq!(
            &expected,
            &actual,
            "statement {} ({:?}): the model says {:?}, SQLite ran `{}`",
            index + 1,
            statement,
            expected,
            sql
        );
        prop_assert_eq!(
            model_rows(&table),
            rows,
            "rows after statement {}",
            index + 1
        );
    }
    for key in KEYS.into_iter().chain([KEY_NEVER_WRITTEN]) {
        let count = sqlite_count(connection, key);
        prop_assert_eq!(table.count(key), count, "count({})", key);
        prop_assert_eq!(
            table.contains(key),
            sqlite_contains(connection, key),
            "contains({})",
            key
        );
    }
    Ok(())
}

fn statement() -> impl Strategy<Value = Statement> {
    (
        select(vec![
            WriteMode::Insert,
            WriteMode::InsertOrIgnore,
            WriteMode::Upsert,
        ]),
        select(&KEYS[..]),
        select(&VALUES[..]),
    )
        .prop_map(|(mode, key, value)| Statement { mode, key, value })
}

/// Each sequence runs four ways: with and without UNIQUE, and with the upsert's conflict target
/// named (where SQLite allows it) and left out.
#[test]
fn the_model_table_does_what_sqlite_does() {
    let config = ProptestConfig {
        cases: 10_000,
        // A failure is turned into a plain #[test] by hand, so no regression file is written
        // next to the sources.
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let with_unique = open(true);
    let without_unique = open(false);
    let sequences = prop::collection::vec(statement(), 1..=12);
    let result = TestRunner::new(config).run(&sequences, |statements| {
        for (connection, unique) in [(&with_unique, true), (&without_unique, false)] {
            for targetless in [false, true] {
                compare(connection, unique, targetless, &statements)?;
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

#[test]
fn upsert_with_a_target_needs_a_unique_index() {
    let connection = open(false);
    let error = connection
        .prepare(UPSERT_ON_KEY)
        .expect_err("SQLite refuses ON CONFLICT(key) without a unique index on key");
    let rusqlite::Error::SqliteFailure(failure, message) = &error else {
        panic!("not an SQLite failure: {error:?}");
    };
    // Refused at prepare time: the generic SQL error, not a constraint raised by a row.
    assert_eq!(failure.code, ErrorCode::Unknown, "{error:?}");
    assert_eq!(
        message.as_deref(),
        Some("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint")
    );
    assert!(sqlite_rows(&connection).is_empty());
}

#[test]
fn upsert_without_a_target_inserts_when_nothing_is_unique() {
    let connection = open(false);
    let mut table = Table::new(false);
    for operation in ["write-1", "write-2"] {
        let statement = Statement {
            mode: WriteMode::Upsert,
            key: "OP-1",
            value: "receipt-1",
        };
        let rows_before = table.rows.len();
        let expected = table.write(WriteMode::Upsert, "OP-1", "receipt-1", operation);
        let (actual, _) = execute(
            &connection,
            UPSERT_ON_ANY,
            statement,
            operation,
            rows_before,
        );
        assert_eq!(
            (expected, actual),
            (WriteOutcome::Inserted, WriteOutcome::Inserted)
        );
    }
    assert_eq!(sqlite_count(&connection, "OP-1"), 2);
    assert_eq!(table.count("OP-1"), 2);
}

#[test]
fn the_bundled_sqlite_knows_targetless_upserts() {
    // Leaving the conflict target out of DO UPDATE needs SQLite 3.35 or later.
    assert!(
        rusqlite::version_number() >= 3_035_000,
        "{}",
        rusqlite::version()
    );
}
