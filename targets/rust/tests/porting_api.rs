//! The porting proof: every public item of pg_query.rs 6.1's documented API, by its name and
//! signature, through `pgbind::pg_query` (type-annotated function pointers, exhaustive matches,
//! typed field reads), so that a missing or changed item fails to compile this suite, not a
//! user's program. Then the behaviour of what pgbind added for it, with expected values from
//! pg_query.rs's documentation and tests, PostgreSQL's headers and libpg_query.
//!
//! Not here, and why (docs/rust-porting.md): `summary`, `SummaryResult`, `Table`, `Function`
//! (pending); `nodes_mut` and `NodeMut`, which are safe in pgbind (a callback offered `&mut`
//! slots, not `unsafe fn nodes_mut() -> Vec<(NodeMut, i32, Context)>` of raw pointers).
use std::collections::HashMap;
use std::ffi::NulError;

use pgbind::pg_query::{self, protobuf, Context, Error, FilterColumn, Fingerprint, LockMode, Node, NodeEnum, NodeMut, NodeRef, ParseResult, Result, TriggerType};

type Nodes<'a> = Vec<(NodeRef<'a>, i32, Context, bool)>;

/// Every variant of pg_query.rs's `LockMode` and `TriggerType`.
const LOCK_MODES: [LockMode; 9] = [
    LockMode::NoLock,
    LockMode::AccessShareLock,
    LockMode::RowShareLock,
    LockMode::RowExclusiveLock,
    LockMode::ShareUpdateExclusiveLock,
    LockMode::ShareLock,
    LockMode::ShareRowExclusiveLock,
    LockMode::ExclusiveLock,
    LockMode::AccessExclusiveLock,
];
const TRIGGER_TYPES: [TriggerType; 7] =
    [TriggerType::Row, TriggerType::Before, TriggerType::Insert, TriggerType::Delete, TriggerType::Update, TriggerType::Truncate, TriggerType::Instead];

#[test]
fn every_item_by_name_and_signature() {
    // the free functions
    let _: fn(&str) -> Result<ParseResult> = pg_query::parse;
    let _: fn(&protobuf::ParseResult) -> Result<String> = pg_query::deparse;
    let _: fn(&str) -> Result<String> = pg_query::normalize;
    let _: fn(&str) -> Result<Fingerprint> = pg_query::fingerprint;
    let _: fn(&str) -> Result<serde_json::Value> = pg_query::parse_plpgsql;
    let _: for<'a> fn(&'a str) -> Result<Vec<&'a str>> = pg_query::split_with_parser;
    let _: for<'a> fn(&'a str) -> Result<Vec<&'a str>> = pg_query::split_with_scanner;
    let _: fn(&str) -> Result<protobuf::ScanResult> = pg_query::scan;
    let _: fn(&protobuf::ParseResult, usize) -> Result<String> = pg_query::truncate;

    // ParseResult: constructor, methods, fields
    let _: fn(protobuf::ParseResult, String) -> ParseResult = ParseResult::new;
    for f in [ParseResult::tables, ParseResult::select_tables, ParseResult::dml_tables, ParseResult::ddl_tables] {
        let _: fn(&ParseResult) -> Vec<String> = f;
    }
    for f in [ParseResult::functions, ParseResult::ddl_functions, ParseResult::call_functions] {
        let _: fn(&ParseResult) -> Vec<String> = f;
    }
    let _: for<'a> fn(&'a ParseResult) -> Vec<&'a str> = ParseResult::statement_types;
    let _: fn(&ParseResult) -> Result<String> = ParseResult::deparse;
    let _: fn(&ParseResult, usize) -> Result<String> = ParseResult::truncate;
    let r = pg_query::parse("SELECT 1").unwrap();
    let ParseResult { protobuf: tree, warnings, tables, aliases, cte_names, functions, filter_columns } = &r;
    let _: (&protobuf::ParseResult, &Vec<String>, &Vec<(String, Context)>) = (tree, warnings, tables);
    let _: (&HashMap<String, String>, &Vec<String>, &Vec<(String, Context)>) = (aliases, cte_names, functions);
    let _: &Vec<(Option<String>, String)> = filter_columns;
    let _ = format!("{:?}", r);

    // the tree: protobuf, Node, NodeEnum, NodeRef, NodeMut
    let _: fn(&protobuf::ParseResult) -> Result<String> = protobuf::ParseResult::deparse;
    let _: for<'a> fn(&'a protobuf::ParseResult) -> Nodes<'a> = protobuf::ParseResult::nodes;
    let _: fn(&Node) -> Result<String> = Node::deparse;
    let _: fn(&NodeEnum) -> Result<String> = NodeEnum::deparse;
    let _: for<'a> fn(&'a NodeEnum) -> Nodes<'a> = NodeEnum::nodes;
    let _: for<'a> fn(&'a NodeEnum) -> NodeRef<'a> = NodeEnum::to_ref;
    let _: for<'a> fn(&'a mut NodeEnum) -> NodeMut<'a> = NodeEnum::to_mut;
    let _: fn(&NodeRef<'static>) -> Result<String> = NodeRef::deparse;
    let _: fn(&NodeRef<'static>) -> NodeEnum = NodeRef::to_enum;
    let _: fn(&NodeMut<'static>) -> Result<String> = NodeMut::deparse;
    let _: fn(&NodeMut<'static>) -> Result<NodeEnum> = NodeMut::to_enum;
    let _: for<'a> fn(&'a protobuf::SelectStmt) -> NodeRef<'a> = protobuf::SelectStmt::to_ref;
    let _: for<'a> fn(&'a mut protobuf::RangeVar) -> NodeMut<'a> = protobuf::RangeVar::to_mut;
    let _: Node = Node { node: Some(NodeEnum::String(protobuf::String { sval: "x".into() })) };

    // Context, Fingerprint, FilterColumn, LockMode, TriggerType
    for c in [Context::None, Context::Select, Context::DML, Context::DDL, Context::Call] {
        let _: (Context, Context) = (c, c.clone());
    }
    let Fingerprint { value, hex } = pg_query::fingerprint("SELECT 1").unwrap();
    let _: (u64, String) = (value, hex);
    let FilterColumn { schema_name, table_name, column } = FilterColumn { schema_name: None, table_name: Some("t".into()), column: "c".into() };
    let _: (Option<String>, Option<String>, String) = (schema_name, table_name, column);
    let _: ([LockMode; 9], [TriggerType; 7]) = (LOCK_MODES, TRIGGER_TYPES);
    let _: fn(i32) -> Option<TriggerType> = TriggerType::from_i32;
    let _: fn(i32) -> Option<LockMode> = LockMode::from_i32;

    // Error: its variants exactly (a match with no `_` arm), its traits, its conversions
    fn variant(e: &Error) -> &'static str {
        match e {
            Error::Conversion(_) => "Conversion",
            Error::Decode(_) => "Decode",
            Error::Parse(_) => "Parse",
            Error::InvalidJson(_) => "InvalidJson",
            Error::InvalidPointer => "InvalidPointer",
            Error::Scan(_) => "Scan",
            Error::Split(_) => "Split",
        }
    }
    let _: fn(&Error) -> &'static str = variant;
    let _: fn(NulError) -> Error = Error::Conversion;
    let _: fn(prost::DecodeError) -> Error = Error::Decode;
    for v in [Error::Parse, Error::InvalidJson, Error::Scan, Error::Split] {
        let _: fn(String) -> Error = v;
    }
    fn traits<E: std::error::Error + Eq + From<NulError> + From<prost::DecodeError> + Send + Sync + 'static>() {}
    traits::<Error>();

    // serde::Serialize on every generated type, as pg_query.rs derives it
    fn serialize<T: serde::Serialize>() {}
    serialize::<protobuf::ParseResult>();
    serialize::<protobuf::ScanResult>();
    serialize::<Node>();
    serialize::<NodeEnum>();
    serialize::<protobuf::SelectStmt>();
    serialize::<protobuf::ObjectType>();
    serialize::<protobuf::Token>();
}

#[test]
fn errors_are_pg_query_rs_variants() {
    // pg_query.rs's known answers (its tests and documentation)
    let random = "CREATE RANDOM ix_test ON contacts.person;";
    let message = "syntax error at or near \"RANDOM\"".to_string();
    assert_eq!(pg_query::parse(random).err(), Some(Error::Parse(message.clone())));
    assert_eq!(pg_query::parse_plpgsql(random), Err(Error::Parse(message.clone())));
    assert_eq!(pg_query::normalize(random), Err(Error::Parse(message.clone())));
    assert_eq!(pg_query::fingerprint(random).err(), Some(Error::Parse(message)));
    let err = r#"syntax error at or near "this""#;
    assert_eq!(pg_query::split_with_parser("select 1; this statement is not sql; select 2;"), Err(Error::Split(err.to_string())));
    // an unterminated quoted identifier stops PostgreSQL's scanner: scan.l's message, which
    // scanner_yyerror ends with 'at or near "<the text from the quote on>"'
    assert_eq!(pg_query::scan("SELECT \"x"), Err(Error::Scan(r#"unterminated quoted identifier at or near ""x""#.to_string())));

    // a NUL byte: pg_query.rs's CString::new(..)? gives Conversion, with the byte's position
    for r in [pg_query::parse("SELECT 1\0").err(), pg_query::normalize("SELECT 1\0").err(), pg_query::split_with_scanner("SELECT 1\0").err()] {
        match r {
            Some(Error::Conversion(e)) => assert_eq!(e.nul_position(), 8),
            other => panic!("expected Error::Conversion, got {:?}", other),
        }
    }

    // Display: pg_query.rs's texts (its thiserror attributes)
    assert_eq!(Error::Parse("m".into()).to_string(), "Invalid statement: m");
    assert_eq!(Error::Split("m".into()).to_string(), "Error splitting: m");
    assert_eq!(Error::Scan("m".into()).to_string(), "Error scanning: m");
    assert_eq!(Error::InvalidJson("m".into()).to_string(), "Error parsing JSON: m");
    assert_eq!(Error::InvalidPointer.to_string(), "Invalid pointer");
    let nul = std::ffi::CString::new("a\0").unwrap_err();
    assert_eq!(Error::Conversion(nul.clone()).to_string(), format!("Invalid statement format: {}", nul));
    assert!(std::error::Error::source(&Error::Conversion(nul)).is_some());

    // the position stays reachable through pgbind's own error (PostgreSQL's 1-based cursor)
    let e = pgbind::parse("SELECT FROM WHERE 1").unwrap_err();
    assert_eq!(e.cursorpos(), Some(13));
    assert_eq!(e.to_string(), "syntax error at position 13: syntax error at or near \"WHERE\"");
    assert_eq!(Error::from(e), Error::Parse("syntax error at or near \"WHERE\"".to_string()));
    assert_eq!(pgbind::Error::NoMemory.cursorpos(), None);
}

/// `#define NAME value` of a PostgreSQL header the crate is built with (a number or `(1 << n)`).
fn header_values(relative: &str) -> HashMap<String, i32> {
    let major = pgbind::ffi::PG_VERSION_NUM / 10000;
    let dir = match std::env::var("PG_QUERY_DIR") {
        Ok(d) if !d.is_empty() => format!("{}/src/postgres/include", d),
        _ => format!("/usr/include/postgresql/{}/server", major),
    };
    let path = format!("{}/{}", dir, relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let mut out = HashMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if let (Some("#define"), Some(name)) = (words.next(), words.next()) {
            let value: String = words.take_while(|w| !w.starts_with("/*")).collect();
            let v = match value.strip_prefix("(1<<").and_then(|v| v.strip_suffix(')')) {
                Some(shift) => shift.parse::<u32>().ok().map(|s| 1i32 << s),
                None => value.parse::<i32>().ok(),
            };
            if let Some(v) = v {
                out.insert(name.to_string(), v);
            }
        }
    }
    out
}

#[test]
fn lock_mode_and_trigger_type_are_postgres_values() {
    // lockdefs.h names each mode as the variant; pg_trigger.h's TRIGGER_TYPE_ROW is Row
    let locks = header_values("storage/lockdefs.h");
    for mode in LOCK_MODES {
        let name = format!("{:?}", mode);
        assert_eq!(locks.get(&name), Some(&(mode as i32)), "{}", name);
        assert_eq!(LockMode::from_i32(mode as i32), Some(mode));
    }
    let triggers = header_values("catalog/pg_trigger.h");
    for t in TRIGGER_TYPES {
        let name = format!("TRIGGER_TYPE_{:?}", t).to_uppercase();
        assert_eq!(triggers.get(&name), Some(&(t as i32)), "{}", name);
        assert_eq!(TriggerType::from_i32(t as i32), Some(t));
    }

    // what they decode: LOCK's mode, CREATE TRIGGER's timing and events
    let r = pg_query::parse("LOCK TABLE t IN SHARE ROW EXCLUSIVE MODE").unwrap();
    match r.protobuf.nodes()[0].0 {
        NodeRef::LockStmt(l) => assert_eq!(LockMode::from_i32(l.mode), Some(LockMode::ShareRowExclusiveLock)),
        other => panic!("not a LockStmt: {:?}", other.kind()),
    }
    // pg_query.rs's it_parses_CREATE_TRIGGER: timing Before, events Update
    let r = pg_query::parse("CREATE TRIGGER check_update BEFORE UPDATE ON accounts FOR EACH ROW EXECUTE PROCEDURE check_account_update()").unwrap();
    match r.protobuf.nodes()[0].0 {
        NodeRef::CreateTrigStmt(c) => {
            assert_eq!(TriggerType::from_i32(c.timing), Some(TriggerType::Before));
            assert_eq!(TriggerType::from_i32(c.events), Some(TriggerType::Update));
        }
        other => panic!("not a CreateTrigStmt: {:?}", other.kind()),
    }
    let r = pg_query::parse("CREATE TRIGGER tr BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION f()").unwrap();
    match r.protobuf.nodes()[0].0 {
        NodeRef::CreateTrigStmt(c) => {
            assert!(c.row);
            assert_eq!(c.timing, TriggerType::Before as i32);
            assert_eq!(c.events, TriggerType::Insert as i32 | TriggerType::Update as i32);
        }
        other => panic!("not a CreateTrigStmt: {:?}", other.kind()),
    }
}

#[test]
fn parse_plpgsql_is_libpg_query_json() {
    // pg_query.rs's test function (tests/parse_plpgsql_tests.rs) and the shape of its expected
    // JSON (tests/data): one PLpgSQL_function whose block holds an IF (with a RETURN) and a RETURN
    let f = pg_query::parse_plpgsql(
        "CREATE OR REPLACE FUNCTION cs_fmt_browser_version(v_name varchar, v_version varchar) \
         RETURNS varchar AS $$ \
         BEGIN \
             IF v_version IS NULL THEN \
                 RETURN v_name; \
             END IF; \
             RETURN v_name || '/' || v_version; \
         END; \
         $$ LANGUAGE plpgsql;",
    )
    .unwrap();
    let functions = f.as_array().expect("an array of functions");
    assert_eq!(functions.len(), 1);
    let body = &functions[0]["PLpgSQL_function"]["action"]["PLpgSQL_stmt_block"]["body"];
    let stmt_if = &body[0]["PLpgSQL_stmt_if"];
    let stmt_return = &body[1]["PLpgSQL_stmt_return"];
    assert_eq!(body.as_array().map(|b| b.len()), Some(2));
    // PostgreSQL 14 and later keep a PL/pgSQL expression as written, without pg_query.rs's
    // older data's "SELECT " prefix
    let (cond, then_ret, ret) = if pgbind::ffi::PG_VERSION_NUM >= 140000 {
        ("v_version IS NULL", "v_name", "v_name || '/' || v_version")
    } else {
        ("SELECT v_version IS NULL", "SELECT v_name", "SELECT v_name || '/' || v_version")
    };
    assert_eq!(stmt_if["cond"]["PLpgSQL_expr"]["query"], cond);
    assert_eq!(stmt_if["then_body"][0]["PLpgSQL_stmt_return"]["expr"]["PLpgSQL_expr"]["query"], then_ret);
    assert_eq!(stmt_return["expr"]["PLpgSQL_expr"]["query"], ret);
    let found = functions[0]["PLpgSQL_function"]["datums"].as_array().unwrap().iter().any(|d| d["PLpgSQL_var"]["refname"] == "found");
    assert!(found, "no FOUND variable among the datums");
}

#[test]
fn serialize_writes_prost_field_names() {
    // serde's derive on prost's types (pg_query.rs's build): fields by their Rust names, the
    // node oneof as {"Variant": {...}}, enum-typed fields as their i32
    let r = pg_query::parse("SELECT a FROM t").unwrap();
    let v = serde_json::to_value(&r.protobuf).unwrap();
    assert_eq!(v["version"], r.protobuf.version);
    let select = &v["stmts"][0]["stmt"]["node"]["SelectStmt"];
    let from = &select["from_clause"][0]["node"]["RangeVar"];
    assert_eq!(from["relname"], "t");
    assert_eq!(from["inh"], true);
    assert_eq!(select["op"], protobuf::SetOperation::SetopNone as i32);
    assert_eq!(select["where_clause"], serde_json::Value::Null);
    let tokens = serde_json::to_value(&pg_query::scan("SELECT").unwrap()).unwrap();
    assert_eq!(tokens["tokens"][0]["token"], protobuf::Token::Select as i32);
}

#[test]
fn node_deparse_and_to_ref() {
    let mut r = pg_query::parse("SELECT a FROM t").unwrap();
    let stmt: &Node = r.protobuf.stmts[0].stmt.as_deref().unwrap();
    assert_eq!(stmt.deparse().unwrap(), "SELECT a FROM t");
    if let Some(NodeEnum::SelectStmt(s)) = r.protobuf.stmts[0].stmt.as_mut().and_then(|n| n.node.as_mut()) {
        assert!(matches!(s.to_ref(), NodeRef::SelectStmt(_)));
        if let Some(NodeEnum::RangeVar(rv)) = s.from_clause[0].node.as_mut() {
            let m = rv.to_mut();
            assert_eq!(m.to_enum().unwrap(), NodeEnum::RangeVar(protobuf::RangeVar { relname: "t".into(), inh: true, relpersistence: "p".into(), location: 14, ..Default::default() }));
        }
    }
    // an empty Node is no statement: the deparser's error, as Error::Parse
    let empty = Node { node: None }.deparse();
    assert!(matches!(empty, Err(Error::Parse(_))), "{:?}", empty);
}
