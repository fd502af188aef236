//! pg_query.rs's `summary`: what a query touches (tables, aliases, CTE names, functions, filter
//! columns, statement kinds, the query shortened), as libpg_query 18's `pg_query_summary` computes
//! it. pgbind computes it on every major (docs/summary.md): from the SQL as pg_query_summary does
//! (`pgbind_summary_sql`, on PostgreSQL's raw parse tree), or from a pgbind tree
//! ([`Tree::summary`]: `pgbind_summary`), and hands it over as the same protobuf bytes
//! (`pgbind_summary_encode`), which prost decodes into
//! [`protobuf::SummaryResult`]: pg_query.rs's route, with pgbind's C in place of libpg_query's.
//!
//! What differs from pg_query.rs: the lists keep first-met order without repeats (pg_query.rs's
//! come from a HashSet, in no particular order); `warnings` is empty (pgbind's parse does not keep
//! the parser's stderr); `parser_options` other than 0 (`PG_QUERY_PARSE_DEFAULT`) is
//! `Error::Parse` (pgbind's parse has no other mode); a `truncate_limit` below -1 is
//! `Error::Parse` (pgbind's argument error).
use std::collections::{HashMap, HashSet};

use prost::Message;

use super::{error, push_unique, protobuf, Error, FilterColumn, Result};
use crate::convert::{self, Arena};
use crate::{call, ffi, Tree};

use protobuf::summary_result::Context;

/// The result of [`summary`] (pg_query.rs's): the decoded protobuf and its lists.
#[derive(Debug, PartialEq)]
pub struct SummaryResult {
    pub protobuf: protobuf::SummaryResult,
    /// Always empty (pgbind's parse does not keep the parser's stderr).
    pub warnings: Vec<String>,
    /// Each (table, context) once, in the order first met.
    pub tables: Vec<Table>,
    pub aliases: HashMap<String, String>,
    pub cte_names: Vec<String>,
    /// Each (function, context) once, in the order first met.
    pub functions: Vec<Function>,
    pub filter_columns: Vec<FilterColumn>,
    /// The query shortened to the limit; None when the limit was -1 (pg_query.rs's newer type).
    pub truncated_query: Option<String>,
    pub statement_types: Vec<String>,
}

/// A table the query names, and where (pg_query.rs's).
#[derive(Debug, Eq, Hash, PartialEq)]
pub struct Table {
    /// schema.table, each part quoted as PostgreSQL's quote_identifier quotes it.
    pub name: String,
    /// "" when not qualified.
    pub schema_name: String,
    pub table_name: String,
    pub context: Context,
}

/// A function the query calls (`Context::Call`) or creates, drops, renames, grants (`Context::Ddl`).
#[derive(Debug, Eq, Hash, PartialEq)]
pub struct Function {
    /// The name as written, parts joined by ".".
    pub name: String,
    pub function_name: String,
    pub schema_name: Option<String>,
    pub context: Context,
}

fn nonempty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// The proto's enum value (pgbind's encoder writes only the proto's values; anything else reads
/// as `None`, where pg_query.rs panics).
fn context(v: i32) -> Context {
    Context::from_i32(v).unwrap_or(Context::None)
}

impl From<&protobuf::summary_result::Table> for Table {
    fn from(v: &protobuf::summary_result::Table) -> Self {
        Table { name: v.name.clone(), schema_name: v.schema_name.clone(), table_name: v.table_name.clone(), context: context(v.context) }
    }
}

impl From<&protobuf::summary_result::Function> for Function {
    fn from(v: &protobuf::summary_result::Function) -> Self {
        Function {
            name: v.name.clone(),
            function_name: v.function_name.clone(),
            schema_name: nonempty(&v.schema_name),
            context: context(v.context),
        }
    }
}

impl From<&protobuf::summary_result::FilterColumn> for FilterColumn {
    fn from(v: &protobuf::summary_result::FilterColumn) -> Self {
        FilterColumn { schema_name: nonempty(&v.schema_name), table_name: nonempty(&v.table_name), column: v.column.clone() }
    }
}

/// `items` converted, each once, in first-met order (pg_query.rs's types derive no Clone).
fn unique<'a, P, T: Eq + std::hash::Hash + From<&'a P>>(items: &'a [P]) -> Vec<T> {
    let all: Vec<T> = items.iter().map(T::from).collect();
    let mut seen = HashSet::new();
    let first: Vec<bool> = all.iter().map(|t| seen.insert(t)).collect();
    all.into_iter().zip(first).filter_map(|(t, first)| first.then(|| t)).collect()
}

/// The names of `items` whose context is `want` (any, for None), once each, in first-met order.
fn names<T>(items: &[T], want: Option<Context>, part: impl Fn(&T) -> (&String, Context)) -> Vec<String> {
    let (mut out, mut seen) = (Vec::new(), HashSet::new());
    for item in items {
        let (name, c) = part(item);
        if want.map_or(true, |w| w == c) {
            push_unique(&mut out, &mut seen, name.clone());
        }
    }
    out
}

fn table_part(t: &Table) -> (&String, Context) {
    (&t.name, t.context)
}

fn function_part(f: &Function) -> (&String, Context) {
    (&f.name, f.context)
}

impl SummaryResult {
    /// The lists of `protobuf` (pg_query.rs's constructor; `stderr`'s WARNING lines become `warnings`).
    pub fn new(protobuf: protobuf::SummaryResult, stderr: String) -> Self {
        let warnings = stderr.lines().filter(|l| l.starts_with("WARNING")).map(|l| l.trim().to_string()).collect();
        let (mut cte_names, mut seen) = (Vec::new(), HashSet::new());
        for name in &protobuf.cte_names {
            push_unique(&mut cte_names, &mut seen, name.clone());
        }
        SummaryResult {
            warnings,
            tables: unique(&protobuf.tables),
            aliases: protobuf.aliases.clone(),
            cte_names,
            functions: unique(&protobuf.functions),
            filter_columns: unique(&protobuf.filter_columns),
            truncated_query: (!protobuf.truncated_query.is_empty()).then(|| protobuf.truncated_query.clone()),
            statement_types: protobuf.statement_types.clone(),
            protobuf,
        }
    }

    /// Every table the query names, once each.
    pub fn tables(&self) -> Vec<String> {
        names(&self.tables, None, table_part)
    }

    /// The tables read (`Context::Select`).
    pub fn select_tables(&self) -> Vec<String> {
        names(&self.tables, Some(Context::Select), table_part)
    }

    /// The tables written by INSERT, UPDATE, DELETE, MERGE (`Context::Dml`).
    pub fn dml_tables(&self) -> Vec<String> {
        names(&self.tables, Some(Context::Dml), table_part)
    }

    /// The tables created, altered, dropped, locked, granted, vacuumed (`Context::Ddl`).
    pub fn ddl_tables(&self) -> Vec<String> {
        names(&self.tables, Some(Context::Ddl), table_part)
    }

    /// Every function the query names, once each.
    pub fn functions(&self) -> Vec<String> {
        names(&self.functions, None, function_part)
    }

    /// Functions created, dropped, renamed, granted (`Context::Ddl`).
    pub fn ddl_functions(&self) -> Vec<String> {
        names(&self.functions, Some(Context::Ddl), function_part)
    }

    /// Functions called (`Context::Call`).
    pub fn call_functions(&self) -> Vec<String> {
        names(&self.functions, Some(Context::Call), function_part)
    }

    /// The kinds of the statements and of those nested in them ("SelectStmt"), each once.
    pub fn statement_types(&self) -> Vec<&str> {
        self.statement_types.iter().map(String::as_str).collect()
    }
}

impl Tree {
    /// The summary of this tree (`pgbind_summary`, then its protobuf decoded): `truncate_limit`
    /// -1 for no truncated query, else its limit in bytes. The tree is not changed.
    pub fn summary(&self, truncate_limit: i32) -> crate::Result<protobuf::SummaryResult> {
        let scratch = Arena::new()?; // not the tree's arena: &self may be shared
        let s = call(|st| crate::nonnull(unsafe { ffi::pgbind_summary(self.as_ptr(), truncate_limit, std::ptr::null(), scratch.0, st) }))?;
        decode(s, &scratch)
    }
}

/// What `statement` touches, as libpg_query 18's `pg_query_summary(statement, parser_options,
/// truncate_limit)` says it, on every major (`pgbind_summary_sql`). `parser_options`: 0
/// (`PG_QUERY_PARSE_DEFAULT`) only. `truncate_limit`: -1 for no truncated query.
pub fn summary(statement: &str, parser_options: i32, truncate_limit: i32) -> Result<SummaryResult> {
    error::no_nul(statement)?;
    if parser_options != 0 {
        return Err(Error::Parse(format!(
            "parser_options {}: pgbind parses in PostgreSQL's default mode only (0, PG_QUERY_PARSE_DEFAULT)",
            parser_options
        )));
    }
    Ok(SummaryResult::new(summary_sql(statement, truncate_limit)?, String::new()))
}

/// The summary of `sql` by `pgbind_summary_sql` (pg_query_summary's route: from PostgreSQL's raw
/// parse tree, pgbind's tree built only for a truncated query), its protobuf decoded: the bytes
/// [`Tree::summary`] of the parsed tree gives, without building that tree.
fn summary_sql(sql: &str, truncate_limit: i32) -> crate::Result<protobuf::SummaryResult> {
    let csql = crate::c_string(sql, "the SQL")?;
    let arena = Arena::new()?;
    let s = call(|st| crate::nonnull(unsafe { ffi::pgbind_summary_sql(csql.as_ptr(), truncate_limit, std::ptr::null(), arena.0, st) }))?;
    decode(s, &arena)
}

/// `summary`'s protobuf (`pgbind_summary_encode`, in `arena`), decoded.
fn decode(s: *const ffi::pgbind_Summary, arena: &Arena) -> crate::Result<protobuf::SummaryResult> {
    let (mut data, mut len): (*const u8, usize) = (std::ptr::null(), 0);
    call(|st| unsafe { ffi::pgbind_summary_encode(s, arena.0, &mut data, &mut len, st) }.then(|| ()))?;
    protobuf::SummaryResult::decode(convert::slice(data, len))
        .map_err(|e| crate::Error::invalid(format!("pgbind_summary_encode's bytes do not decode as pg_query.SummaryResult: {}", e)))
}
