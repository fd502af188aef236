//! The crate's API: errors, depth, rewriting through the owned tree, the views.
use pgbind::protobuf as pb;
use pgbind::{views, Error};

#[test]
fn syntax_error_has_postgres_message_and_cursor() {
    match pgbind::parse("SELECT FROM WHERE 1") {
        Err(Error::Syntax { message, cursorpos }) => {
            assert_eq!(message, "syntax error at or near \"WHERE\"");
            assert_eq!(cursorpos, 13);
        }
        other => panic!("expected a syntax error, got {:?}", other),
    }
}

#[test]
fn nul_byte_is_an_argument_error() {
    assert!(matches!(pgbind::parse("SELECT 1\0"), Err(Error::Argument { .. })));
}

#[test]
fn rewrite_and_deparse() {
    let mut tree = pgbind::parse("SELECT a FROM t WHERE b > 1").unwrap();
    if let Some(pb::node::Node::SelectStmt(s)) = tree.stmts[0].stmt.as_mut().and_then(|n| n.node.as_mut()) {
        if let Some(pb::node::Node::RangeVar(rv)) = s.from_clause[0].node.as_mut() {
            rv.relname = "t_archive".to_string();
        }
        s.where_clause = None;
    }
    assert_eq!(pgbind::deparse(&tree).unwrap(), "SELECT a FROM t_archive");
}

#[test]
fn distinct_is_one_null_cell() {
    let tree = pgbind::parse("SELECT DISTINCT a FROM t").unwrap();
    match tree.stmts[0].stmt.as_ref().unwrap().node.as_ref().unwrap() {
        pb::node::Node::SelectStmt(s) => assert_eq!(s.distinct_clause, vec![pb::Node { node: None }]),
        _ => panic!("not a SelectStmt"),
    }
    let t = pgbind::Tree::parse("SELECT DISTINCT a FROM t").unwrap();
    let stmt = t.root().stmts().get(0).unwrap().stmt().unwrap();
    match stmt {
        views::Node::SelectStmt(s) => {
            assert_eq!(s.distinct_clause().len(), 1);
            assert!(s.distinct_clause().get(0).is_none());
        }
        _ => panic!("not a SelectStmt"),
    }
}

#[test]
fn views_read_without_copying() {
    let t = pgbind::Tree::parse("SELECT x FROM s.t AS u").unwrap();
    let mut names = Vec::new();
    if let Some(views::Node::SelectStmt(s)) = t.root().stmts().get(0).and_then(|r| r.stmt()) {
        for from in s.from_clause().iter().flatten() {
            if let views::Node::RangeVar(rv) = from {
                names.push((rv.schemaname(), rv.relname(), rv.alias().map(|a| a.aliasname())));
            }
        }
    }
    assert_eq!(names, vec![("s", "t", Some("u"))]);
}

#[test]
fn every_a_const_kind() {
    let tree = pgbind::parse("SELECT 1, 1.5, true, 'x', B'101', NULL").unwrap();
    let bytes = pgbind::encode(&tree).unwrap();
    assert_eq!(pgbind::decode(&bytes).unwrap(), tree);
    assert_eq!(pgbind::from_json(&pgbind::to_json(&tree).unwrap()).unwrap(), tree);
}

fn deep_a_expr(terms: usize) -> String {
    format!("SELECT {}1", "1+".repeat(terms))
}

/// Runs f on a thread with the given stack.
fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
}

#[test]
fn deep_statements_parse_or_fail_cleanly() {
    // 7,000 nested additions: within the C side's limit of 10,000 levels, and an 8 MiB stack
    // (the main thread's) holds the conversion, owned and through the views (about 0.85 and 1 KiB
    // a level: 8 MiB holds some 9,400 and 8,100 levels)
    let sql = deep_a_expr(7000);
    let s2 = sql.clone();
    assert_eq!(on_stack(8 << 20, move || pgbind::parse(&s2).map(std::mem::forget)), Ok(())); // prost's Drop recurses once a level
    let s2 = sql.clone();
    assert_eq!(on_stack(8 << 20, move || pgbind::Tree::parse(&s2).and_then(|t| t.root().to_owned()).map(std::mem::forget)), Ok(()));
    // on a 1 MiB stack the same tree is an error, not a stack overflow, in both
    let s2 = sql.clone();
    assert!(matches!(on_stack(1 << 20, move || pgbind::parse(&s2).map(std::mem::forget)), Err(Error::Stack { .. })));
    let s2 = sql.clone();
    assert!(matches!(on_stack(1 << 20, move || pgbind::Tree::parse(&s2).and_then(|t| t.root().to_owned()).map(std::mem::forget)), Err(Error::Stack { .. })));
    // beyond the C side's limit: an error
    assert!(matches!(pgbind::parse(&deep_a_expr(20000)), Err(Error::Depth { .. })));
}

#[test]
fn too_deep_owned_tree_is_an_error() {
    let mut node = pb::Node { node: Some(pb::node::Node::Integer(pb::Integer { ival: 1 })) };
    for _ in 0..12000 {
        node = pb::Node {
            node: Some(pb::node::Node::List(pb::List { items: vec![node] })),
        };
    }
    let tree = pb::ParseResult {
        version: 150001,
        stmts: vec![pb::RawStmt { stmt: Some(Box::new(node)), stmt_location: 0, stmt_len: 0 }],
    };
    let r = std::thread::Builder::new().stack_size(64 << 20).spawn(move || {
        let r = pgbind::deparse(&tree);
        std::mem::forget(tree); // prost's Drop recurses once a level
        r
    });
    assert!(matches!(r.unwrap().join().unwrap(), Err(Error::Depth { .. })));
}

#[test]
fn scan_has_comments() {
    let r = pgbind::scan("SELECT 1 -- hi").unwrap();
    assert!(r.tokens.len() >= 3);
}

