//! Blocks: the lines a workflow's program is made of, each declared once, as data.
//!
//! A block is one line of the Python-like code the code panel prints. Its declaration says what
//! shape of line it is (a statement, a header with a body, an exception handler), which action it
//! takes (the event it becomes, and so the faults that can strike it), which errors it may raise
//! or catch, and which names it sets and uses. Validation, the fault points, the code panel, the
//! explorer and the Parsons board all read this one declaration; what a block *does* lives in
//! the interpreter (`interpret.rs`), a `match` over these kinds.

use serde::{Deserialize, Serialize};

use crate::fault::{Action, FaultKind};

/// Every block any workflow offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    // ---- control: shared by every workflow ----
    /// `else:` after an `if` body (or after a retry loop: runs when the attempts are used up).
    Else,
    /// `try:`; its handlers follow its body at its own indentation.
    Try,
    /// `with db.transaction():`: the database statements in its body commit together, in one
    /// step: nothing can strike between them.
    Transaction,
    /// `for attempt in range(N):` under the design's retry policy. Only `sleep` starts the next
    /// attempt; a pass that ends without one ends the loop.
    RetryLoop,
    /// `sleep(backoff(attempt)); continue`: backs off and starts the next attempt, if the policy
    /// allows one; otherwise the loop's `else` runs.
    Sleep,

    // ---- handlers ----
    /// `except Timeout:`: no answer came; the effect may have happened (unknown completion).
    ExceptTimeout,
    /// `except Busy:`: refused before any effect (503, 429, a locked database): temporary.
    ExceptBusy,
    /// `except (Busy, Timeout):`.
    ExceptBusyOrTimeout,
    /// `except Rejected as error:`: a 4xx refusal of this request (a key reused with another
    /// payload, a missing key).
    ExceptRejected,
    /// `except (Forbidden, Invalid) as error:`: the input or the credential must change.
    ExceptInvalid,
    /// `except IntegrityError:`: the UNIQUE constraint refused the row.
    ExceptIntegrity,
    /// `except SendError:`: the message was refused or lost on the way: nothing was sent.
    ExceptSendError,
    /// `except Exception:` (the pipeline's `except StageFailure`): any error.
    ExceptAll,

    // ---- results ----
    ReturnVerified,
    ReturnAlreadyVerified,
    ReturnNeedsReview,
    ReturnFailed,
    ReturnUnknown,
    ReturnGaveUp,
    /// After the retry loop's attempts are used up: `gave_up` when the last failure was
    /// temporary, `unknown` when its effect may have happened.
    ReturnExhausted,
    ReturnExists,
    ReturnConflict,
    ReturnWritten,
    ReturnReplayed,
    ReturnInProgress,
    ReturnCharged,
    ReturnDone,
    ReturnSkipped,
    ReturnIngested,
    ReturnSucceeded,
    /// `raise ValueError("id reused with different content")`: the journal row's payload differs.
    RaiseJournalDiffers,
    /// `raise ValueError("provider record differs")`.
    RaiseProviderDiffers,
    /// `raise ValueError(error.status)`: the provider refused the request.
    RaiseRejected,

    // ---- the journal and the provider (seed 002) ----
    JournalGet,
    IfRowDiffers,
    IfRowVerified,
    IfNoRow,
    JournalInsert,
    Lookup,
    IfFoundDiffers,
    /// A "not found" after an earlier attempt that may have taken effect.
    IfNotFoundUncertain,
    IfFound,
    UseFoundReceipt,
    Submit,
    MarkVerified,
    MarkNeedsReview,
    MarkFailed,
    /// Records the refusal (a changed payload, a reused or missing key) as `failed`, with why.
    MarkRejected,

    // ---- the results table (seed 000) ----
    /// `if conn.execute("SELECT 1 ...").fetchone():` checked in application code.
    SelectExists,
    WriteInsert,
    WriteInsertOrIgnore,
    WriteUpsert,
    /// A row saved by a step whose caller counts a conflict as "already there".
    SaveInsert,
    SaveInsertOrIgnore,
    SaveUpsert,

    // ---- the payment service (seed 004) ----
    /// Claims the key with an atomic insert (`ON CONFLICT DO NOTHING`).
    Claim,
    IfNotClaimed,
    IfNoStored,
    SelectStored,
    IfStored,
    Charge,
    RecordResult,
    InsertResult,

    // ---- the idempotency tracker (seeds 000, 001) ----
    /// `if not tracker.already_done(key):`.
    IfNotDone,
    MarkDoneBefore,
    MarkDoneAfter,
    SendNotification,

    // ---- the pipeline's stages (seed 000) ----
    PriorGet,
    IfPriorSuccess,
    StagesToDo,
    IfTodoModel,
    CallModel,
    ReuseOutput,
    IfTodoWrite,
    IfTodoNotify,
    NotifyGuarded,
    NotifyUnguarded,
    MarkSuccess,

    // ---- ingestion (seed 001) ----
    CheckTracking,
    IfNotCommitted,
    IfCommitted,
    /// A plain INSERT whose duplicates readers are left to filter.
    InsertFilterOnRead,
    /// The dedup key into the tracking table: in the same transaction as the row, or alone.
    TrackingInsert,
    SendEmailLogged,
    SendEmail,
    SaveProgress,

    // ---- the payment webhook (the capstone: seed 002's recovery with a receipt) ----
    /// The receipt email, through a mail API that keeps the idempotency key it is given.
    EmailReceipt,

    // ---- the payment service's lease, and the gateway's own key (seed 004) ----
    /// Claims the key, or takes over a claim whose lease has run out with no result stored
    /// (`ON CONFLICT (key) DO UPDATE ... WHERE claimed_at < now - lease AND result IS NULL`).
    ClaimWithLease,
    /// The charge, sent with the idempotency key: the gateway keeps the key and answers a
    /// repeat with its first charge, charging nothing new.
    ChargeKeyed,

    // ---- where the key comes from (seeds 001, 004): a line of the program ----
    /// `key = operation_id` (or `event.source_id`): the source's own id.
    KeySourceId,
    /// `key = sha256(canonical_json(event))`: a hash of the content.
    KeyContentHash,
    /// `key = uuid4()`: a fresh random key each time the line runs.
    KeyUuid4,
    /// `key = sha256(canonical_json(event) + str(received_at))`: the content and when it arrived.
    KeyWithReceivedAt,
    /// `key = intention.key`: a `uuid4()` drawn once, when the intention was born, and saved.
    KeySaved,
    // ---- control, where the scenario reads the cancel flag in code (`cancel_check = "in_code"`) ----
    /// `if cancel_requested(): stop()`: the one place a run reads its cancel flag. Takes no
    /// time while the flag is down; with it up, the run stops here, recording what is done and
    /// what never began.
    CheckCancel,
}

/// What kind of line a block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// One statement; with an action it is one event, without one it takes no time (an
    /// assignment from what the run already knows).
    Statement,
    /// A statement that ends the run with a result.
    Return,
    /// `if ...:` with a body; its condition is read after its action, if it has one.
    If,
    /// `else:`.
    Else,
    /// `try:`.
    Try,
    /// `with db.transaction():`.
    Transaction,
    /// `for attempt in ...:`.
    Loop,
    /// `except ...:`, catching the errors its declaration names.
    Handler,
}

impl Shape {
    /// Whether the line ends with `:` and takes a body.
    pub fn opens_body(self) -> bool {
        matches!(
            self,
            Shape::If
                | Shape::Else
                | Shape::Try
                | Shape::Transaction
                | Shape::Loop
                | Shape::Handler
        )
    }
}

/// An error a statement raises, which an enclosing `try` may catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Raised {
    /// No answer in time: the request or its reply was lost, or the caller stopped waiting.
    Timeout,
    /// Refused before any effect: 503, 429, a locked database.
    Busy,
    /// A message to a sink was refused or lost on the way: nothing was sent.
    NotSent,
    /// The UNIQUE constraint refused the row.
    Conflict,
    /// The provider refused the request (4xx): a reused or missing key.
    Rejected,
    /// 400: the input is invalid.
    Invalid,
    /// 403: the credential lacks permission.
    Forbidden,
}

impl Raised {
    /// Every error, in a fixed order (its bit in a catch set).
    pub const ALL: [Raised; 7] = [
        Raised::Timeout,
        Raised::Busy,
        Raised::NotSent,
        Raised::Conflict,
        Raised::Rejected,
        Raised::Invalid,
        Raised::Forbidden,
    ];

    /// The exception's name, as the code panel writes it.
    pub fn name(self) -> &'static str {
        match self {
            Raised::Timeout => "Timeout",
            Raised::Busy => "Busy",
            Raised::NotSent => "SendError",
            Raised::Conflict => "IntegrityError",
            Raised::Rejected => "Rejected",
            Raised::Invalid => "Invalid",
            Raised::Forbidden => "Forbidden",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of errors, one bit each in `Raised::ALL` order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Catches(u8);

impl Catches {
    const NONE: Catches = Catches(0);
    const ALL: Catches = Catches(0x7f);

    const fn of(errors: &[Raised]) -> Catches {
        let mut bits = 0;
        let mut index = 0;
        while index < errors.len() {
            bits |= 1 << errors[index] as u8;
            index += 1;
        }
        Catches(bits)
    }

    /// Whether the set holds `error`.
    pub fn contains(self, error: Raised) -> bool {
        self.0 & error.bit() != 0
    }

    /// Both sets' errors.
    pub const fn union(self, other: Catches) -> Catches {
        Catches(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The errors in the set, in `Raised::ALL` order.
    pub fn iter(self) -> impl Iterator<Item = Raised> {
        Raised::ALL
            .into_iter()
            .filter(move |error| self.contains(*error))
    }
}

/// A name a line sets and later lines read, as Python would: a line that reads one no line
/// above it sets is refused, as a `NameError` would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Name {
    Row,
    Found,
    Receipt,
    Output,
    Todo,
    Prior,
    Claimed,
    Stored,
    Committed,
    /// The idempotency or dedup key: set by a key line, or, in a program without one, by the
    /// line above the program that the design's key source writes.
    Key,
}

impl Name {
    /// As the code writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Name::Row => "row",
            Name::Found => "found",
            Name::Receipt => "receipt",
            Name::Output => "output",
            Name::Todo => "todo",
            Name::Prior => "prior",
            Name::Claimed => "claimed",
            Name::Stored => "stored",
            Name::Committed => "committed",
            Name::Key => "key",
        }
    }
}

/// A block's declaration.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub shape: Shape,
    /// The action it takes: the event it becomes; `None` for a line that takes no time.
    pub action: Option<Action>,
    /// The faults that can strike it (for an action), in `FaultKind::ALL` order.
    pub faults: &'static [FaultKind],
    /// The errors it may raise.
    pub raises: Catches,
    /// For a handler, the errors it catches.
    pub catches: Catches,
    /// The names it sets and reads.
    pub sets: &'static [Name],
    pub uses: &'static [Name],
    /// The result a return block ends the run with (`ReturnExhausted`'s is decided by the error).
    pub result: Option<&'static str>,
}

/// The faults the engine carries out in place of a step, whatever the step: the worker dies
/// before it, or the cancel flag is up.
pub(crate) const INSTEAD_OF_STEP: &[FaultKind] = &[FaultKind::Crash, FaultKind::Cancel];

/// The faults the engine itself carries out when a message arrives, before any block.
pub(crate) const AT_RECEIVE: &[FaultKind] = &[FaultKind::DeliverTwice, FaultKind::ChangePayload];

/// A database write: refused while the database is locked, or committed with its
/// acknowledgment lost.
const AT_WRITE: &[FaultKind] = &[
    FaultKind::LoseReply,
    FaultKind::Busy,
    FaultKind::Crash,
    FaultKind::Cancel,
];

/// A message to a side-effect sink (a card charge, an email, a notification).
const AT_SEND: &[FaultKind] = &[
    FaultKind::LoseRequest,
    FaultKind::LoseReply,
    FaultKind::Busy,
    FaultKind::Crash,
    FaultKind::Cancel,
];

const AT_LOOKUP: &[FaultKind] = &[
    FaultKind::LoseRequest,
    FaultKind::Busy,
    FaultKind::Crash,
    FaultKind::StaleLookup,
    FaultKind::Cancel,
];

const AT_SUBMIT: &[FaultKind] = &[
    FaultKind::LoseRequest,
    FaultKind::LoseReply,
    FaultKind::Timeout,
    FaultKind::Busy,
    FaultKind::Crash,
    FaultKind::ExpireKey,
    FaultKind::InvalidInput,
    FaultKind::PermissionDenied,
    FaultKind::Cancel,
];

const AT_MODEL: &[FaultKind] = &[
    FaultKind::LoseRequest,
    FaultKind::Timeout,
    FaultKind::Busy,
    FaultKind::Crash,
    FaultKind::Cancel,
];

use Raised as R;

const RAISES_WRITE: Catches = Catches::of(&[R::Timeout, R::Busy, R::Conflict]);
const RAISES_SAVE: Catches = Catches::of(&[R::Timeout, R::Busy]);
const RAISES_SEND: Catches = Catches::of(&[R::Timeout, R::NotSent]);

/// The key, as a block sets or reads it.
const KEY: &[Name] = &[Name::Key];

const fn statement(action: Action, faults: &'static [FaultKind]) -> Spec {
    Spec {
        shape: Shape::Statement,
        action: Some(action),
        faults,
        raises: Catches::NONE,
        catches: Catches::NONE,
        sets: &[],
        uses: &[],
        result: None,
    }
}

const fn silent(shape: Shape) -> Spec {
    Spec {
        shape,
        action: None,
        faults: &[],
        raises: Catches::NONE,
        catches: Catches::NONE,
        sets: &[],
        uses: &[],
        result: None,
    }
}

const fn handler(catches: &[Raised]) -> Spec {
    Spec {
        catches: Catches::of(catches),
        ..silent(Shape::Handler)
    }
}

const fn returns(result: &'static str) -> Spec {
    Spec {
        shape: Shape::Return,
        result: Some(result),
        ..statement(Action::Return, INSTEAD_OF_STEP)
    }
}

const fn guard(uses: &'static [Name]) -> Spec {
    Spec {
        uses,
        ..silent(Shape::If)
    }
}

impl Spec {
    const fn raising(self, raises: Catches) -> Spec {
        Spec { raises, ..self }
    }

    const fn setting(self, sets: &'static [Name]) -> Spec {
        Spec { sets, ..self }
    }

    const fn using(self, uses: &'static [Name]) -> Spec {
        Spec { uses, ..self }
    }

    const fn shaped(self, shape: Shape) -> Spec {
        Spec { shape, ..self }
    }
}

impl Block {
    /// Every block, in declaration order (`Block as usize` indexes it).
    pub const ALL: [Block; BLOCKS] = [
        Block::Else,
        Block::Try,
        Block::Transaction,
        Block::RetryLoop,
        Block::Sleep,
        Block::ExceptTimeout,
        Block::ExceptBusy,
        Block::ExceptBusyOrTimeout,
        Block::ExceptRejected,
        Block::ExceptInvalid,
        Block::ExceptIntegrity,
        Block::ExceptSendError,
        Block::ExceptAll,
        Block::ReturnVerified,
        Block::ReturnAlreadyVerified,
        Block::ReturnNeedsReview,
        Block::ReturnFailed,
        Block::ReturnUnknown,
        Block::ReturnGaveUp,
        Block::ReturnExhausted,
        Block::ReturnExists,
        Block::ReturnConflict,
        Block::ReturnWritten,
        Block::ReturnReplayed,
        Block::ReturnInProgress,
        Block::ReturnCharged,
        Block::ReturnDone,
        Block::ReturnSkipped,
        Block::ReturnIngested,
        Block::ReturnSucceeded,
        Block::RaiseJournalDiffers,
        Block::RaiseProviderDiffers,
        Block::RaiseRejected,
        Block::JournalGet,
        Block::IfRowDiffers,
        Block::IfRowVerified,
        Block::IfNoRow,
        Block::JournalInsert,
        Block::Lookup,
        Block::IfFoundDiffers,
        Block::IfNotFoundUncertain,
        Block::IfFound,
        Block::UseFoundReceipt,
        Block::Submit,
        Block::MarkVerified,
        Block::MarkNeedsReview,
        Block::MarkFailed,
        Block::MarkRejected,
        Block::SelectExists,
        Block::WriteInsert,
        Block::WriteInsertOrIgnore,
        Block::WriteUpsert,
        Block::SaveInsert,
        Block::SaveInsertOrIgnore,
        Block::SaveUpsert,
        Block::Claim,
        Block::IfNotClaimed,
        Block::IfNoStored,
        Block::SelectStored,
        Block::IfStored,
        Block::Charge,
        Block::RecordResult,
        Block::InsertResult,
        Block::IfNotDone,
        Block::MarkDoneBefore,
        Block::MarkDoneAfter,
        Block::SendNotification,
        Block::PriorGet,
        Block::IfPriorSuccess,
        Block::StagesToDo,
        Block::IfTodoModel,
        Block::CallModel,
        Block::ReuseOutput,
        Block::IfTodoWrite,
        Block::IfTodoNotify,
        Block::NotifyGuarded,
        Block::NotifyUnguarded,
        Block::MarkSuccess,
        Block::CheckTracking,
        Block::IfNotCommitted,
        Block::IfCommitted,
        Block::InsertFilterOnRead,
        Block::TrackingInsert,
        Block::SendEmailLogged,
        Block::SendEmail,
        Block::SaveProgress,
        Block::EmailReceipt,
        Block::ClaimWithLease,
        Block::ChargeKeyed,
        Block::KeySourceId,
        Block::KeyContentHash,
        Block::KeyUuid4,
        Block::KeyWithReceivedAt,
        Block::KeySaved,
        Block::CheckCancel,
    ];

    /// The block's declaration.
    pub const fn spec(self) -> Spec {
        use Action as A;
        use Block as B;
        use Name as N;
        match self {
            B::Else => silent(Shape::Else),
            B::Try => silent(Shape::Try),
            B::Transaction => silent(Shape::Transaction),
            B::RetryLoop => silent(Shape::Loop),
            B::Sleep => statement(A::Sleep, &[]),
            B::ExceptTimeout => handler(&[R::Timeout]),
            B::ExceptBusy => handler(&[R::Busy]),
            B::ExceptBusyOrTimeout => handler(&[R::Busy, R::Timeout]),
            B::ExceptRejected => handler(&[R::Rejected]),
            B::ExceptInvalid => handler(&[R::Invalid, R::Forbidden]),
            B::ExceptIntegrity => handler(&[R::Conflict]),
            B::ExceptSendError => handler(&[R::NotSent]),
            B::ExceptAll => Spec {
                catches: Catches::ALL,
                ..silent(Shape::Handler)
            },
            B::ReturnVerified => returns("verified"),
            B::ReturnAlreadyVerified => returns("already_verified"),
            B::ReturnNeedsReview => returns("needs_review"),
            B::ReturnFailed => returns("failed"),
            B::ReturnUnknown => returns("unknown"),
            B::ReturnGaveUp => returns("gave_up"),
            B::ReturnExhausted => Spec {
                result: None,
                ..returns("gave_up")
            },
            B::ReturnExists => returns("exists"),
            B::ReturnConflict => returns("conflict"),
            B::ReturnWritten => returns("written"),
            B::ReturnReplayed => returns("replayed").using(KEY),
            B::ReturnInProgress => returns("in_progress"),
            B::ReturnCharged => returns("charged"),
            B::ReturnDone => returns("done"),
            B::ReturnSkipped => returns("skipped"),
            B::ReturnIngested => returns("ingested"),
            B::ReturnSucceeded => returns("succeeded"),
            B::RaiseJournalDiffers => returns("rejected").using(&[N::Row]),
            B::RaiseProviderDiffers => returns("rejected").using(&[N::Found]),
            B::RaiseRejected => returns("rejected"),
            B::JournalGet => statement(A::JournalGet, INSTEAD_OF_STEP).setting(&[N::Row]),
            B::IfRowDiffers => guard(&[N::Row]),
            B::IfRowVerified => guard(&[N::Row]),
            B::IfNoRow => guard(&[N::Row]),
            B::JournalInsert => statement(A::JournalInsert, INSTEAD_OF_STEP),
            B::Lookup => statement(A::ProviderLookup, AT_LOOKUP)
                .raising(Catches::of(&[R::Busy, R::Timeout]))
                .setting(&[N::Found])
                .using(KEY),
            B::IfFoundDiffers => guard(&[N::Found]),
            B::IfNotFoundUncertain => guard(&[N::Found, N::Row]),
            B::IfFound => guard(&[N::Found]),
            B::UseFoundReceipt => silent(Shape::Statement)
                .using(&[N::Found])
                .setting(&[N::Receipt]),
            B::Submit => statement(A::ProviderSubmit, AT_SUBMIT)
                .raising(Catches::of(&[
                    R::Timeout,
                    R::Busy,
                    R::Rejected,
                    R::Invalid,
                    R::Forbidden,
                ]))
                .setting(&[N::Receipt])
                .using(KEY),
            B::MarkVerified => statement(A::JournalUpdate, INSTEAD_OF_STEP).using(&[N::Receipt]),
            B::MarkNeedsReview | B::MarkFailed | B::MarkRejected => {
                statement(A::JournalUpdate, INSTEAD_OF_STEP)
            }
            B::SelectExists => statement(A::TableSelect, INSTEAD_OF_STEP)
                .shaped(Shape::If)
                .using(KEY),
            B::WriteInsert | B::WriteInsertOrIgnore | B::WriteUpsert => {
                statement(A::TableWrite, AT_WRITE)
                    .raising(RAISES_WRITE)
                    .using(KEY)
            }
            B::SaveInsert | B::SaveInsertOrIgnore | B::SaveUpsert | B::InsertFilterOnRead => {
                statement(A::TableWrite, AT_WRITE)
                    .raising(RAISES_SAVE)
                    .using(KEY)
            }
            B::Claim | B::ClaimWithLease => statement(A::TableWrite, INSTEAD_OF_STEP)
                .setting(&[N::Claimed, N::Stored])
                .using(KEY),
            B::IfNotClaimed => guard(&[N::Claimed]),
            B::IfNoStored => guard(&[N::Stored]),
            B::SelectStored => statement(A::TableSelect, INSTEAD_OF_STEP)
                .setting(&[N::Stored])
                .using(KEY),
            B::IfStored => guard(&[N::Stored]),
            B::Charge | B::ChargeKeyed => statement(A::SinkSend, AT_SEND)
                .raising(RAISES_SEND)
                .using(KEY),
            B::RecordResult | B::InsertResult => {
                statement(A::TableWrite, INSTEAD_OF_STEP).using(KEY)
            }
            B::IfNotDone => statement(A::TrackerCheck, INSTEAD_OF_STEP)
                .shaped(Shape::If)
                .using(KEY),
            B::MarkDoneBefore | B::MarkDoneAfter => {
                statement(A::TrackerMark, INSTEAD_OF_STEP).using(KEY)
            }
            B::SendNotification | B::SendEmailLogged | B::SendEmail => {
                statement(A::SinkSend, AT_SEND)
                    .raising(RAISES_SEND)
                    .using(KEY)
            }
            B::PriorGet => statement(A::JournalGet, INSTEAD_OF_STEP).setting(&[N::Prior]),
            B::IfPriorSuccess => guard(&[N::Prior]),
            B::StagesToDo => silent(Shape::Statement)
                .using(&[N::Prior])
                .setting(&[N::Todo]),
            B::IfTodoModel | B::IfTodoWrite | B::IfTodoNotify => guard(&[N::Todo]),
            B::CallModel => statement(A::ModelCall, AT_MODEL)
                .raising(Catches::of(&[R::Timeout, R::Busy]))
                .setting(&[N::Output]),
            B::ReuseOutput => silent(Shape::Statement)
                .using(&[N::Prior])
                .setting(&[N::Output]),
            B::NotifyGuarded | B::NotifyUnguarded => statement(A::SinkSend, AT_SEND)
                .raising(RAISES_SEND)
                .using(KEY),
            B::MarkSuccess => statement(A::JournalUpdate, INSTEAD_OF_STEP),
            B::CheckTracking => statement(A::TableSelect, INSTEAD_OF_STEP)
                .setting(&[N::Committed])
                .using(KEY),
            B::IfNotCommitted | B::IfCommitted => guard(&[N::Committed]),
            B::TrackingInsert => statement(A::TableWrite, AT_WRITE)
                .raising(RAISES_SAVE)
                .using(KEY),
            B::SaveProgress => statement(A::ProgressSave, INSTEAD_OF_STEP),
            B::EmailReceipt => statement(A::SinkSend, AT_SEND)
                .raising(RAISES_SEND)
                .using(&[N::Receipt, N::Key]),
            B::KeySourceId
            | B::KeyContentHash
            | B::KeyUuid4
            | B::KeyWithReceivedAt
            | B::KeySaved => silent(Shape::Statement).setting(KEY),
            B::CheckCancel => silent(Shape::Statement),
        }
    }

    /// The block's id in program files and links.
    pub fn name(self) -> &'static str {
        BLOCK_NAMES[self as usize]
    }

    /// The block called `name`.
    pub fn named(name: &str) -> Option<Block> {
        BLOCK_NAMES
            .iter()
            .position(|known| *known == name)
            .map(|index| Block::ALL[index])
    }
}

/// How many blocks there are.
const BLOCKS: usize = 95;

/// Each block's id, by `Block as usize`; a test holds it to serde's names.
const BLOCK_NAMES: [&str; BLOCKS] = [
    "else",
    "try",
    "transaction",
    "retry_loop",
    "sleep",
    "except_timeout",
    "except_busy",
    "except_busy_or_timeout",
    "except_rejected",
    "except_invalid",
    "except_integrity",
    "except_send_error",
    "except_all",
    "return_verified",
    "return_already_verified",
    "return_needs_review",
    "return_failed",
    "return_unknown",
    "return_gave_up",
    "return_exhausted",
    "return_exists",
    "return_conflict",
    "return_written",
    "return_replayed",
    "return_in_progress",
    "return_charged",
    "return_done",
    "return_skipped",
    "return_ingested",
    "return_succeeded",
    "raise_journal_differs",
    "raise_provider_differs",
    "raise_rejected",
    "journal_get",
    "if_row_differs",
    "if_row_verified",
    "if_no_row",
    "journal_insert",
    "lookup",
    "if_found_differs",
    "if_not_found_uncertain",
    "if_found",
    "use_found_receipt",
    "submit",
    "mark_verified",
    "mark_needs_review",
    "mark_failed",
    "mark_rejected",
    "select_exists",
    "write_insert",
    "write_insert_or_ignore",
    "write_upsert",
    "save_insert",
    "save_insert_or_ignore",
    "save_upsert",
    "claim",
    "if_not_claimed",
    "if_no_stored",
    "select_stored",
    "if_stored",
    "charge",
    "record_result",
    "insert_result",
    "if_not_done",
    "mark_done_before",
    "mark_done_after",
    "send_notification",
    "prior_get",
    "if_prior_success",
    "stages_to_do",
    "if_todo_model",
    "call_model",
    "reuse_output",
    "if_todo_write",
    "if_todo_notify",
    "notify_guarded",
    "notify_unguarded",
    "mark_success",
    "check_tracking",
    "if_not_committed",
    "if_committed",
    "insert_filter_on_read",
    "tracking_insert",
    "send_email_logged",
    "send_email",
    "save_progress",
    "email_receipt",
    "claim_with_lease",
    "charge_keyed",
    "key_source_id",
    "key_content_hash",
    "key_uuid4",
    "key_with_received_at",
    "key_saved",
    "check_cancel",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL`, the discriminants and the names agree with serde's names.
    #[test]
    fn every_block_is_listed_once_under_its_serde_name() {
        for (index, block) in Block::ALL.iter().enumerate() {
            assert_eq!(*block as usize, index, "{block:?} is out of order in ALL");
            let serde_name = serde_json::to_string(block).unwrap();
            assert_eq!(serde_name, format!("\"{}\"", block.name()), "{block:?}");
            assert_eq!(Block::named(block.name()), Some(*block));
        }
    }

    /// A handler catches something; only a handler does; a return has a result unless its
    /// result is decided by the error (`return_exhausted`).
    #[test]
    fn declarations_are_consistent() {
        for block in Block::ALL {
            let spec = block.spec();
            assert_eq!(
                spec.shape == Shape::Handler,
                !spec.catches.is_empty(),
                "{block:?}"
            );
            assert_eq!(
                spec.shape == Shape::Return,
                spec.action == Some(Action::Return),
                "{block:?}"
            );
            if spec.shape == Shape::Return && block != Block::ReturnExhausted {
                assert!(spec.result.is_some(), "{block:?}");
            }
            if spec.action.is_none() {
                assert!(
                    spec.faults.is_empty() && spec.raises.is_empty(),
                    "{block:?}"
                );
            }
        }
    }
}
