//! The porting proof: every public item of pg_query.rs 6.1's documented API, by its name and
//! signature, through `pgbind::pg_query` (type-annotated function pointers, exhaustive matches,
//! typed field reads), so that a missing or changed item fails to compile this suite, not a
//! user's program. Then the behaviour of what pgbind added for it, with expected values from
//! pg_query.rs's documentation and tests, PostgreSQL's headers and libpg_query.
//!
//! Not here, and why (docs/rust-porting.md): `nodes_mut` and `NodeMut`, which are safe in pgbind (a callback offered `&mut`
//! slots, not `unsafe fn nodes_mut() -> Vec<(NodeMut, i32, Context)>` of raw pointers).
use std::collections::HashMap;
use std::ffi::NulError;

use pgbind::pg_query::{
    self, protobuf, Context, Error, FilterColumn, Fingerprint, Function, LockMode, Node, NodeEnum, NodeMut, NodeRef, ParseResult, Result, SummaryResult,
    Table, TriggerType,
};
use prost::Message;

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

    // summary, SummaryResult (constructor, methods, fields), Table, Function, the summary's Context
    let _: fn(&str, i32, i32) -> Result<SummaryResult> = pg_query::summary;
    let _: fn(protobuf::SummaryResult, String) -> SummaryResult = SummaryResult::new;
    for f in [SummaryResult::tables, SummaryResult::select_tables, SummaryResult::dml_tables, SummaryResult::ddl_tables] {
        let _: fn(&SummaryResult) -> Vec<String> = f;
    }
    for f in [SummaryResult::functions, SummaryResult::ddl_functions, SummaryResult::call_functions] {
        let _: fn(&SummaryResult) -> Vec<String> = f;
    }
    let _: for<'a> fn(&'a SummaryResult) -> Vec<&'a str> = SummaryResult::statement_types;
    let s = pg_query::summary("SELECT f(a) FROM s.t x WHERE x.b = 1", 0, -1).unwrap();
    let SummaryResult { protobuf: pb, warnings, tables, aliases, cte_names, functions, filter_columns, truncated_query, statement_types } = &s;
    let _: (&protobuf::SummaryResult, &Vec<String>, &Vec<Table>, &HashMap<String, String>) = (pb, warnings, tables, aliases);
    let _: (&Vec<String>, &Vec<Function>, &Vec<FilterColumn>, &Option<String>, &Vec<String>) = (cte_names, functions, filter_columns, truncated_query, statement_types);
    let Table { name, schema_name, table_name, context } = &tables[0];
    let _: (&String, &String, &String, &protobuf::summary_result::Context) = (name, schema_name, table_name, context);
    let Function { name, function_name, schema_name, context } = &functions[0];
    let _: (&String, &String, &Option<String>, &protobuf::summary_result::Context) = (name, function_name, schema_name, context);
    fn summary_context(c: protobuf::summary_result::Context) -> &'static str {
        use protobuf::summary_result::Context as C;
        match c {
            C::None => "None",
            C::Select => "Select",
            C::Dml => "Dml",
            C::Ddl => "Ddl",
            C::Call => "Call",
        }
    }
    let _: fn(protobuf::summary_result::Context) -> &'static str = summary_context;
    fn summary_traits<T: std::fmt::Debug + PartialEq>() {}
    summary_traits::<SummaryResult>();
    fn item_traits<T: std::fmt::Debug + Eq + std::hash::Hash>() {}
    item_traits::<Table>();
    item_traits::<Function>();

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
    serialize::<protobuf::SummaryResult>();
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
    let then_return = &stmt_if["then_body"][0]["PLpgSQL_stmt_return"];
    if pgbind::ffi::PG_VERSION_NUM >= 180000 {
        // 18's PL/pgSQL keeps RETURN of a plain variable as the variable's number, which libpg_query
        // 18.1.0's JSON does not write: the statement has its line and no expression
        assert!(then_return["expr"].is_null() && then_return["lineno"].is_number(), "{}", then_return);
    } else {
        assert_eq!(then_return["expr"]["PLpgSQL_expr"]["query"], then_ret);
    }
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

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
}

/// `summary` against libpg_query 18's `pg_query_summary`: every line of
/// tests/runtime/summary_cases.txt holds a limit, a statement and the protobuf bytes 18 returned
/// for it (tests/runtime/summary_oracle.c, the oracle; "ERROR" when it failed). prost decodes
/// those bytes; the decoded messages compare equal (the aliases are a map: their order is not
/// compared, as libpg_query's is random).
#[test]
fn summary_equals_pg_query_summary() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/runtime/summary_cases.txt");
    let text = std::fs::read_to_string(path).expect(path);
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{}: not LIMIT<TAB>SQL<TAB>HEX: {}", path, line);
        let (limit, sql, hex) = (fields[0].parse::<i32>().expect("limit"), fields[1], fields[2]);
        let got = pg_query::summary(sql, 0, limit);
        if hex == "ERROR" {
            assert!(matches!(got, Err(Error::Parse(_))), "{} (limit {}): libpg_query 18 fails, pgbind gives {:?}", sql, limit, got);
        } else {
            let want = protobuf::SummaryResult::decode(&unhex(hex)[..]).expect("the oracle's bytes decode");
            let got = got.unwrap_or_else(|e| panic!("{} (limit {}): {}", sql, limit, e));
            assert_eq!(got.protobuf, want, "{} (limit {})", sql, limit);
            assert_eq!(got, SummaryResult::new(want, String::new()), "{} (limit {})", sql, limit);
        }
        compared += 1;
    }
    assert!(compared >= 80, "{}: only {} cases", path, compared);
    println!("summary: {} statements equal to libpg_query 18's pg_query_summary", compared);
}

/// The lists and methods of SummaryResult, on statements of tests/runtime/summary_cases.txt whose
/// bytes from libpg_query 18 hold these values, and pg_query.rs's own summary tests' values.
#[test]
fn summary_lists_and_methods() {
    use protobuf::summary_result::Context as C;
    // the oracle's bytes list t twice ("0a08...0a08..."); tables() names it once
    let s = pg_query::summary("SELECT * FROM t JOIN t ON true", 0, -1).unwrap();
    assert_eq!(s.protobuf.tables.len(), 2);
    assert_eq!(s.tables, [Table { name: "t".into(), schema_name: "".into(), table_name: "t".into(), context: C::Select }]);
    assert_eq!((s.tables(), s.select_tables(), s.dml_tables()), (vec!["t".to_string()], vec!["t".to_string()], vec![]));
    assert_eq!(s.statement_types(), ["SelectStmt"]);
    assert_eq!((s.truncated_query.is_none(), s.warnings.len()), (true, 0));

    // a function called twice in a WHERE clause: listed once (docs/summary.md)
    let s = pg_query::summary("SELECT now() WHERE now() > x", 0, -1).unwrap();
    assert_eq!(s.protobuf.functions.len(), 3);
    assert_eq!(s.functions, [Function { name: "now".into(), function_name: "now".into(), schema_name: None, context: C::Call }]);
    assert_eq!((s.call_functions(), s.ddl_functions()), (vec!["now".to_string()], vec![]));
    assert_eq!(s.filter_columns, [FilterColumn { schema_name: None, table_name: None, column: "x".into() }]);

    // aliases, quoting (the oracle's "\"Foo\".\"Bar\"" and "\"select\"")
    let s = pg_query::summary(r#"SELECT * FROM "Foo"."Bar" b, "select" s, u AS a, t AS a"#, 0, -1).unwrap();
    assert_eq!(s.tables(), [r#""Foo"."Bar""#, r#""select""#, "u", "t"]);
    assert_eq!(s.tables[0].schema_name, r#"Foo"#);
    assert_eq!(s.aliases.get("a").map(String::as_str), Some("t"));
    assert_eq!(s.aliases.get("b").map(String::as_str), Some(r#""Foo"."Bar""#));

    // pg_query.rs's summary tests (it_parses_CREATE_TABLE_AS, it_finds_renamed_functions,
    // it_parses_EXPLAIN, summary_truncate_tests' it_omits_target_list), sorted as they sort
    let s = pg_query::summary("CREATE TABLE foo AS SELECT * FROM bar;", 0, -1).unwrap();
    assert_eq!((s.ddl_tables(), s.select_tables()), (vec!["foo".to_string()], vec!["bar".to_string()]));
    assert_eq!(s.statement_types(), ["CreateTableAsStmt", "SelectStmt"]);
    let s = pg_query::summary("ALTER FUNCTION testfunc(integer) RENAME TO testfunc2;", 0, -1).unwrap();
    let mut f = s.ddl_functions();
    f.sort();
    assert_eq!(f, ["testfunc", "testfunc2"]);
    assert_eq!(pg_query::summary("EXPLAIN DELETE FROM test", 0, -1).unwrap().statement_types(), ["ExplainStmt", "DeleteStmt"]);
    let s = pg_query::summary("SELECT a, b, c, d, e, f FROM xyz WHERE a = b", 0, 40).unwrap();
    assert_eq!(s.truncated_query.as_deref(), Some("SELECT ... FROM xyz WHERE a = b"));
}

#[test]
fn summary_errors() {
    // pg_query.rs's it_handles_errors
    assert_eq!(pg_query::summary("CREATE RANDOM ix_test ON contacts.person;", 0, -1).unwrap_err(), Error::Parse("syntax error at or near \"RANDOM\"".into()));
    assert!(matches!(pg_query::summary("SELECT 1\0", 0, -1), Err(Error::Conversion(_))));
    // pgbind's: a parser mode it does not have, a limit below -1, a name of 4 parts for DROP TABLE
    // (PostgreSQL's "improper relation name", as pg_query_summary)
    match pg_query::summary("SELECT 1", 1, -1) {
        Err(Error::Parse(m)) => assert!(m.starts_with("parser_options 1: "), "{}", m),
        other => panic!("parser_options 1: {:?}", other),
    }
    assert!(matches!(pg_query::summary("SELECT 1", 0, -2), Err(Error::Parse(_))));
    match pg_query::summary("DROP TABLE a.b.c.d", 0, -1) {
        Err(Error::Parse(m)) => assert!(m.contains("improper relation name"), "{}", m),
        other => panic!("DROP TABLE a.b.c.d: {:?}", other),
    }
}
