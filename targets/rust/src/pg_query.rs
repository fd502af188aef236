//! `pgbind::pg_query`: the pg_query crate's (pg_query.rs's) API over pgbind, so that code written
//! for it ports by changing `use pg_query;` to `use pgbind::pg_query;`.
//!
//! The names, signatures and meaning are pg_query.rs's (its docs and tests are the reference):
//! [`parse`] returns a [`ParseResult`] with `protobuf` (prost's types of the very
//! `pg_query.proto`), the table, alias, CTE-name, function and filter-column lists and their
//! methods ([`ParseResult::tables`], [`ParseResult::select_tables`], ...); [`NodeRef`],
//! [`NodeMut`], [`NodeEnum`] and [`Context`] are its types; `nodes()` works on
//! `protobuf::ParseResult` and on `NodeEnum` as it does. What differs:
//!
//! - the walk under `nodes()` is generated: it visits every node of every kind, where
//!   pg_query.rs's hand-written one visits a chosen set of fields (`_ => ()` for the rest): the
//!   lists built on it find the tables, functions and filter columns that sit where pg_query.rs
//!   does not look (a sub-select in an aggregate's FILTER, in a window's ORDER BY, in a
//!   foreign key's REFERENCES ...);
//! - nodes come in pre-order (a node, then its children in field order), not breadth-first;
//! - `nodes_mut` is safe: it takes a callback that is offered each child slot (a [`Child`]: edit
//!   the node, replace it, remove it) instead of returning raw pointers;
//! - [`Error`] is pg_query.rs's, variant for variant (a syntax error is `Error::Parse(message)`);
//!   the cursor position is in pgbind's own [`crate::Error::Syntax`] (`pgbind::parse`,
//!   [`crate::Error::cursorpos`]), which `Error::Parse(String)` has no room for;
//! - `warnings` is always empty: pgbind's parse does not keep the parser's stderr;
//! - `NodeMut` holds `&mut`, not raw pointers, and `nodes_mut` takes a callback (safe).
#![allow(clippy::all)]

use std::collections::{HashMap, HashSet};
use std::ffi::{CStr, CString};

pub use crate::protobuf;
pub use crate::protobuf::node::Node as NodeEnum;
pub use crate::protobuf::Node;
pub use crate::walk::{Child, Context, NodeMut, NodeRef};
pub use error::{Error, Result};
pub use summary::{summary, Function, SummaryResult, Table};
pub use types::{FilterColumn, LockMode, TriggerType};

mod error;
mod summary;
mod types;

use crate::walk::{self, Walk};
use crate::ffi;

fn collect_nodes<'a>(w: Walk<'a, NodeRef<'a>>, out: &mut Vec<(NodeRef<'a>, i32, Context, bool)>) {
    out.extend(w.map(|v| (v.node, v.depth, v.context, v.filter)));
}

impl protobuf::ParseResult {
    /// Every node of every statement, each statement's walk from its statement node (depth 1,
    /// `Context::None`): (node, depth, context, in a WHERE clause).
    pub fn nodes(&self) -> Vec<(NodeRef<'_>, i32, Context, bool)> {
        let mut out = Vec::new();
        for raw in &self.stmts {
            if let Some(n) = raw.stmt.as_ref().and_then(|s| s.node.as_ref()) {
                collect_nodes(walk::walk(n.to_ref()), &mut out);
            }
        }
        out
    }

    /// Offers every child slot to `f`, statements first, in pre-order (see [`walk::walk_mut`]);
    /// `f` returns true to stop. Safe: `f` gets one `&mut` at a time.
    pub fn nodes_mut(&mut self, mut f: impl FnMut(&mut Child<'_>) -> bool) -> crate::Result<()> {
        walk::walk_mut(self, &mut f).map(|_| ())
    }

    /// SQL for the tree, by libpg_query's deparser.
    pub fn deparse(&self) -> Result<String> {
        Ok(crate::deparse(self)?)
    }
}

/// One statement holding `node`, for deparsing a node alone.
pub(crate) fn single_statement(node: Node) -> protobuf::ParseResult {
    protobuf::ParseResult {
        version: ffi::PG_VERSION_NUM as i32,
        stmts: vec![protobuf::RawStmt { stmt: Some(Box::new(node)), stmt_location: 0, stmt_len: 0 }],
    }
}

impl NodeEnum {
    /// Every node below and including this one (this one at depth 1, `Context::None`).
    pub fn nodes(&self) -> Vec<(NodeRef<'_>, i32, Context, bool)> {
        let mut out = Vec::new();
        collect_nodes(walk::walk(self.to_ref()), &mut out);
        out
    }

    /// SQL for this node as a statement of its own.
    pub fn deparse(&self) -> Result<String> {
        Node { node: Some(self.clone()) }.deparse()
    }
}

impl Node {
    /// SQL for this node as a statement of its own (an empty Node: pgbind's refusal, as `Parse`).
    pub fn deparse(&self) -> Result<String> {
        Ok(crate::deparse(&single_statement(self.clone()))?)
    }
}

impl<'a> NodeRef<'a> {
    /// SQL for this node as a statement of its own.
    pub fn deparse(&self) -> Result<String> {
        self.to_enum().deparse()
    }
}

impl<'a> NodeMut<'a> {
    /// A copy of the node (pg_query.rs's; never `Err`: pgbind's `NodeMut` holds a reference,
    /// not a pointer that could be null).
    pub fn to_enum(&self) -> Result<NodeEnum> {
        Ok(self.as_ref().to_enum())
    }

    /// SQL for this node as a statement of its own.
    pub fn deparse(&self) -> Result<String> {
        self.to_enum()?.deparse()
    }
}

/// pg_query.rs's result of [`parse`]: the tree and what its walk found.
#[derive(Debug)]
pub struct ParseResult {
    pub protobuf: protobuf::ParseResult,
    /// Always empty (pgbind's parse does not keep the parser's stderr).
    pub warnings: Vec<String>,
    /// Each table (RangeVar, `schema.name` when qualified; DROP TABLE's, TRUNCATE's ...) with the
    /// context it was met in; CTE names are not tables.
    pub tables: Vec<(String, Context)>,
    /// Alias -> table.
    pub aliases: HashMap<String, String>,
    pub cte_names: Vec<String>,
    /// Called functions (`Context::Call`) and those a DDL statement creates, drops or renames.
    pub functions: Vec<(String, Context)>,
    /// The columns a WHERE clause reads: (table or alias, if the column is qualified; column).
    pub filter_columns: Vec<(Option<String>, String)>,
}

/// Vec with first-seen order and no repeats.
fn push_unique<T: Clone + Eq + std::hash::Hash>(v: &mut Vec<T>, seen: &mut HashSet<T>, x: T) {
    if seen.insert(x.clone()) {
        v.push(x);
    }
}

/// The String nodes of a list joined by "." (a qualified name).
fn dotted(items: &[Node]) -> String {
    let mut s = String::new();
    for n in items {
        if let Some(NodeEnum::String(v)) = &n.node {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(&v.sval);
        }
    }
    s
}

fn object_type(v: i32) -> Option<protobuf::ObjectType> {
    protobuf::ObjectType::from_i32(v)
}

/// The names of `list` met in `context` (any, for None), once each, in first-seen order.
fn names_in(list: &[(String, Context)], context: Option<Context>) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (name, c) in list {
        if context.map_or(true, |want| want == *c) {
            push_unique(&mut out, &mut seen, name.clone());
        }
    }
    out
}

impl ParseResult {
    /// Builds the lists from one walk of the tree (pg_query.rs's constructor; `stderr`'s WARNING
    /// lines become `warnings`).
    pub fn new(protobuf: protobuf::ParseResult, stderr: String) -> Self {
        let warnings = stderr.lines().filter(|l| l.starts_with("WARNING")).map(|l| l.trim().to_string()).collect();
        let nodes = protobuf.nodes();
        let mut cte_names = Vec::new();
        let mut seen_cte = HashSet::new();
        for (n, _, _, _) in &nodes {
            if let NodeRef::CommonTableExpr(c) = n {
                push_unique(&mut cte_names, &mut seen_cte, c.ctename.clone());
            }
        }
        let (mut tables, mut seen_t) = (Vec::new(), HashSet::new());
        let (mut functions, mut seen_f) = (Vec::new(), HashSet::new());
        let (mut filter_columns, mut seen_c) = (Vec::new(), HashSet::new());
        let mut aliases = HashMap::new();
        for (n, _, context, filter) in &nodes {
            match n {
                NodeRef::RangeVar(v) => {
                    let table = if v.schemaname.is_empty() { v.relname.clone() } else { format!("{}.{}", v.schemaname, v.relname) };
                    if seen_cte.contains(&table) {
                        continue;
                    }
                    if let Some(a) = &v.alias {
                        aliases.insert(a.aliasname.clone(), table.clone());
                    }
                    push_unique(&mut tables, &mut seen_t, (table, *context));
                }
                NodeRef::FuncCall(f) => push_unique(&mut functions, &mut seen_f, (dotted(&f.funcname), Context::Call)),
                NodeRef::DropStmt(d) => match object_type(d.remove_type) {
                    Some(protobuf::ObjectType::ObjectTable) => {
                        for o in &d.objects {
                            if let Some(NodeEnum::List(l)) = &o.node {
                                push_unique(&mut tables, &mut seen_t, (dotted(&l.items), Context::DDL));
                            }
                        }
                    }
                    Some(protobuf::ObjectType::ObjectRule) | Some(protobuf::ObjectType::ObjectTrigger) => {
                        for o in &d.objects {
                            if let Some(NodeEnum::List(l)) = &o.node {
                                let on = &l.items[..l.items.len().saturating_sub(1)]; // the last name is the rule's or trigger's
                                push_unique(&mut tables, &mut seen_t, (dotted(on), Context::DDL));
                            }
                        }
                    }
                    Some(protobuf::ObjectType::ObjectFunction) => {
                        for o in &d.objects {
                            if let Some(NodeEnum::ObjectWithArgs(f)) = &o.node {
                                push_unique(&mut functions, &mut seen_f, (dotted(&f.objname), Context::DDL));
                            }
                        }
                    }
                    _ => {}
                },
                NodeRef::CreateFunctionStmt(f) => push_unique(&mut functions, &mut seen_f, (dotted(&f.funcname), Context::DDL)),
                NodeRef::RenameStmt(r) if object_type(r.rename_type) == Some(protobuf::ObjectType::ObjectFunction) => {
                    if let Some(NodeEnum::ObjectWithArgs(f)) = r.object.as_ref().and_then(|o| o.node.as_ref()) {
                        push_unique(&mut functions, &mut seen_f, (dotted(&f.objname), Context::DDL));
                        push_unique(&mut functions, &mut seen_f, (r.newname.clone(), Context::DDL));
                    }
                }
                NodeRef::ColumnRef(c) if *filter => {
                    let names: Vec<&str> = c
                        .fields
                        .iter()
                        .filter_map(|f| match &f.node {
                            Some(NodeEnum::String(s)) => Some(s.sval.as_str()),
                            _ => None,
                        })
                        .collect();
                    if let Some((column, qualifier)) = names.split_last() {
                        let table = qualifier.last().map(|t| t.to_string());
                        push_unique(&mut filter_columns, &mut seen_c, (table, column.to_string()));
                    }
                }
                _ => {}
            }
        }
        ParseResult { protobuf, warnings, tables, aliases, cte_names, functions, filter_columns }
    }

    /// Every table the query names (once each).
    pub fn tables(&self) -> Vec<String> {
        names_in(&self.tables, None)
    }

    /// The tables read by a SELECT (or a DML statement's FROM/USING).
    pub fn select_tables(&self) -> Vec<String> {
        names_in(&self.tables, Some(Context::Select))
    }

    /// The tables written by INSERT, UPDATE, DELETE, MERGE, COPY.
    pub fn dml_tables(&self) -> Vec<String> {
        names_in(&self.tables, Some(Context::DML))
    }

    /// The tables a DDL statement changes.
    pub fn ddl_tables(&self) -> Vec<String> {
        names_in(&self.tables, Some(Context::DDL))
    }

    /// Every function the query names.
    pub fn functions(&self) -> Vec<String> {
        names_in(&self.functions, None)
    }

    /// Functions created, dropped or renamed.
    pub fn ddl_functions(&self) -> Vec<String> {
        names_in(&self.functions, Some(Context::DDL))
    }

    /// Functions called.
    pub fn call_functions(&self) -> Vec<String> {
        names_in(&self.functions, Some(Context::Call))
    }

    /// The columns WHERE clauses read (see the field).
    pub fn filter_columns(&self) -> Vec<(Option<String>, String)> {
        self.filter_columns.clone()
    }

    /// The kind of each statement ("SelectStmt", "InsertStmt", ...).
    pub fn statement_types(&self) -> Vec<&str> {
        self.protobuf.stmts.iter().filter_map(|s| s.stmt.as_ref().and_then(|n| n.node.as_ref())).map(|n| n.to_ref().kind()).collect()
    }

    /// SQL for the tree, by libpg_query's deparser.
    pub fn deparse(&self) -> Result<String> {
        self.protobuf.deparse()
    }

    /// The query deparsed and shortened to at most `max_length` bytes: its deepest, then
    /// longest, target lists, WHERE clauses, VALUES lists, INSERT column lists and CTE queries
    /// written "...", one at a time, until it fits; else cut, ending in "...".
    pub fn truncate(&self, max_length: usize) -> Result<String> {
        truncate(&self.protobuf, max_length)
    }

    /// Every node of every statement (as `protobuf.nodes()`).
    pub fn nodes(&self) -> Vec<(NodeRef<'_>, i32, Context, bool)> {
        self.protobuf.nodes()
    }

    /// As `protobuf.nodes_mut(f)`. The lists above are not rebuilt: parse the deparsed SQL again.
    pub fn nodes_mut(&mut self, f: impl FnMut(&mut Child<'_>) -> bool) -> crate::Result<()> {
        self.protobuf.nodes_mut(f)
    }
}

/// `protobuf` deparsed and shortened to `max_length` (see [`ParseResult::truncate`]).
pub fn truncate(protobuf: &protobuf::ParseResult, max_length: usize) -> Result<String> {
    Ok(crate::truncate::truncate(protobuf, max_length)?)
}

/// Parses `statement` (any number of statements).
pub fn parse(statement: &str) -> Result<ParseResult> {
    error::no_nul(statement)?;
    Ok(ParseResult::new(crate::parse(statement)?, String::new()))
}

/// SQL for `protobuf`, by libpg_query's deparser.
pub fn deparse(protobuf: &protobuf::ParseResult) -> Result<String> {
    protobuf.deparse()
}

/// `statement` with its constants replaced by `$1`, `$2`, ... (`pg_query_normalize`'s text).
pub fn normalize(statement: &str) -> Result<String> {
    error::no_nul(statement)?;
    Ok(crate::normalize(statement)?)
}

/// libpg_query's fingerprint: the value and its 16 hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub value: u64,
    pub hex: String,
}

/// The fingerprint of `statement` (`pg_query_fingerprint`'s value), from pgbind's tree.
pub fn fingerprint(statement: &str) -> Result<Fingerprint> {
    error::no_nul(statement)?;
    let value = crate::Tree::parse(statement).and_then(|t| t.fingerprint())?;
    Ok(Fingerprint { value, hex: format!("{:016x}", value) })
}

/// The tokens of `sql` (`pg_query_scan`'s).
pub fn scan(sql: &str) -> Result<protobuf::ScanResult> {
    error::no_nul(sql)?;
    crate::scan(sql).map_err(|e| Error::from_pgbind(e, Error::Scan))
}

/// The PL/pgSQL functions `stmt` creates (`CREATE FUNCTION ... LANGUAGE plpgsql`), parsed by
/// libpg_query's `pg_query_parse_plpgsql`: its JSON, as a [`serde_json::Value`] (an array, one
/// `{"PLpgSQL_function": ...}` a function). Not through pgbind's tree: libpg_query's own.
pub fn parse_plpgsql(stmt: &str) -> Result<serde_json::Value> {
    let input = CString::new(stmt)?;
    // SAFETY: the result is freed below, after its strings are copied.
    unsafe {
        let r = ffi::pg_query_parse_plpgsql(input.as_ptr());
        let out = if !r.error.is_null() {
            Err(Error::Parse(CStr::from_ptr((*r.error).message).to_string_lossy().into_owned()))
        } else {
            serde_json::from_str(&CStr::from_ptr(r.plpgsql_funcs).to_string_lossy()).map_err(|e| Error::InvalidJson(e.to_string()))
        };
        ffi::pg_query_free_plpgsql_parse_result(r);
        out
    }
}

/// The statements of `query` as libpg_query's splitter finds them: slices of `query`, each
/// without its `;` (a statement after the first starts after the previous `;`, so it may start
/// with white space, as pg_query.rs's do).
fn split_with(query: &str, f: unsafe extern "C" fn(*const std::os::raw::c_char) -> ffi::PgQuerySplitResult) -> Result<Vec<&str>> {
    let input = CString::new(query)?;
    // SAFETY: libpg_query's splitters return a result freed below; its statements' locations are
    // byte offsets into the input.
    unsafe {
        let r = f(input.as_ptr());
        let out = if !r.error.is_null() {
            Err(Error::Split(CStr::from_ptr((*r.error).message).to_string_lossy().into_owned()))
        } else {
            let mut v = Vec::with_capacity(r.n_stmts.max(0) as usize);
            let mut bad = None;
            for i in 0..r.n_stmts.max(0) as usize {
                let s = &**r.stmts.add(i);
                let (at, n) = (s.stmt_location as usize, s.stmt_len as usize);
                match query.get(at..at.saturating_add(n)) {
                    Some(stmt) => v.push(stmt),
                    None => bad = Some(at),
                }
            }
            match bad {
                None => Ok(v),
                Some(at) => Err(Error::Split(format!("libpg_query's splitter gave a statement at byte {} that is no slice of the input", at))),
            }
        };
        ffi::pg_query_free_split_result(r);
        out
    }
}

/// Splits well-formed SQL into statements with PostgreSQL's parser (a statement that does not
/// parse: `Error::Split` with PostgreSQL's message).
pub fn split_with_parser(query: &str) -> Result<Vec<&str>> {
    split_with(query, ffi::pg_query_split_with_parser)
}

/// Splits SQL into statements with PostgreSQL's scanner alone: statements that do not parse are
/// kept (where the scanner can tell where they end).
pub fn split_with_scanner(query: &str) -> Result<Vec<&str>> {
    split_with(query, ffi::pg_query_split_with_scanner)
}
