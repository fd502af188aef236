//! pg_query.rs's plain types beside the parse tree: `LockMode` and `TriggerType` (PostgreSQL's
//! constants, with pg_query.rs's names and derives) and `FilterColumn`. `tests/porting_api.rs`
//! checks every value against the PostgreSQL headers the crate is built with.

/// PostgreSQL's lock modes (`storage/lockdefs.h`), as `LockStmt.mode` holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::prost::Enumeration)]
#[repr(i32)]
pub enum LockMode {
    /// Not a lock mode: "don't get a lock".
    NoLock = 0,
    AccessShareLock = 1,
    RowShareLock = 2,
    RowExclusiveLock = 3,
    ShareUpdateExclusiveLock = 4,
    ShareLock = 5,
    ShareRowExclusiveLock = 6,
    ExclusiveLock = 7,
    AccessExclusiveLock = 8,
}

/// The bits of `CreateTrigStmt`'s `timing` and `events` (`catalog/pg_trigger.h`'s
/// `TRIGGER_TYPE_*`): `timing` is `Before`, `Instead` or 0 (AFTER); `events` ORs `Insert`,
/// `Delete`, `Update`, `Truncate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::prost::Enumeration)]
#[repr(i32)]
pub enum TriggerType {
    Row = 1,
    Before = 2,
    Insert = 4,
    Delete = 8,
    Update = 16,
    Truncate = 32,
    Instead = 64,
}

/// A column a query filters by, with its table and schema where the query names them
/// (pg_query.rs's type of `SummaryResult::filter_columns`).
#[derive(Debug, Eq, Hash, PartialEq, PartialOrd, Ord)]
pub struct FilterColumn {
    pub schema_name: Option<String>,
    pub table_name: Option<String>,
    pub column: String,
}
