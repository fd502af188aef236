//! The walkers' completeness check, over every statement of the SQL scripts named on the command
//! line (make check runs it on the project and Debian corpora). Per statement that parses:
//!
//!   kinds     the multiset of node kinds the owned walk (`walk::walk_parse_result`), the views'
//!             walk (`walk::walk_views`) and pgbind's C walker (`pgbind_ParseResult_walk`, through
//!             the FFI) visit are equal;
//!   json      the kinds the walks reach through Node slots (`Slot::Node`) are exactly the
//!             `{"Kind": ...}` wrappers of libpg_query's own JSON of the statement
//!             (`pg_query_parse`): the JSON wraps a node in its kind where a Node field holds it,
//!             and writes the node-typed message fields (`InsertStmt.relation`) and the oneof
//!             `A_Const.val` without a wrapper, so those slots are compared by the first check;
//!   mut same  a mutable walk (`walk::walk_mut`) that changes nothing offers every node but the
//!             RawStmts and leaves the tree equal to what it was;
//! (truncate and rename: where the owned tree holds every "" of the parser's; see verify.rs)
//!   truncate  pg_query's truncate to half the deparsed length gives at most that many bytes;
//!   rename    a mutable walk that renames every RangeVar (relname -> "rn_" + relname), then
//!             deparse, parse back: the same number of RangeVars, every one renamed (where the
//!             unchanged tree comes back from deparse + parse with its RangeVars: the others are
//!             counted, not compared).
//!
//! Ends with "N passed, M failed"; exits 1 on any failure.
mod common;

use pgbind::pg_query::{NodeMut, NodeRef};
use pgbind::walk::{self, Slot};
use std::collections::BTreeMap;
use std::ffi::{CStr, CString};

type Kinds = BTreeMap<&'static str, u32>;

fn add(k: &mut Kinds, kind: &'static str) {
    *k.entry(kind).or_insert(0) += 1;
}

/// The kind of the node the C walker is at, by its tag.
fn c_kind(p: *const pgbind::ffi::pgbind_Node) -> &'static str {
    match pgbind::views::Node::from_ptr(p) {
        Some(n) => n.kind(),
        None => "(unknown tag)",
    }
}

unsafe extern "C" fn count_c(node: *mut pgbind::ffi::pgbind_Node, ctx: *mut std::os::raw::c_void) -> bool {
    add(&mut *(ctx as *mut Kinds), c_kind(node));
    false
}

/// The `{"Kind": {...}}` wrappers of a JSON text: every key that names a node kind and holds an
/// object.
fn json_kinds(json: &str) -> Kinds {
    let b = json.as_bytes();
    let mut k = Kinds::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i + 1;
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let key = &json[start..i.min(b.len())];
        i += 1;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b':' {
            j += 1;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b'{' {
                if let Some(kind) = walk::NODE_KINDS.iter().find(|n| **n == key) {
                    add(&mut k, kind);
                }
            }
        }
    }
    k
}

/// libpg_query's JSON of the statement.
fn pg_json(sql: &CStr) -> Option<String> {
    unsafe {
        let r = pgbind::ffi::pg_query_parse(sql.as_ptr());
        let out = if r.error.is_null() { Some(CStr::from_ptr(r.parse_tree).to_string_lossy().into_owned()) } else { None };
        pgbind::ffi::pg_query_free_parse_result(r);
        out
    }
}

fn range_vars(tree: &pgbind::protobuf::ParseResult) -> Vec<String> {
    walk::walk_parse_result(tree)
        .filter_map(|v| match v.node {
            NodeRef::RangeVar(r) => Some(r.relname.clone()),
            _ => None,
        })
        .collect()
}

/// What was set aside or counted besides the checks.
#[derive(Default)]
struct Tally {
    nodes: u64,
    rename_refused: u64,
    rename_no_round_trip: u64,
    loses_empty: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let mut c = common::Checks::default();
    let mut tally = Tally::default();
    let mut n_stmts = 0u64;
    for file in &args {
        for sql in common::statements(file) {
            let tree = match pgbind::parse(&sql) {
                Ok(t) => t,
                Err(pgbind::Error::Syntax { .. }) => continue, // the verify suite compares them
                Err(e) => {
                    c.check(false, "parse", file, &sql, || format!("not a syntax error: {}", e));
                    continue;
                }
            };
            n_stmts += 1;
            let csql = CString::new(sql.as_str()).unwrap();

            let (mut owned, mut owned_node) = (Kinds::new(), Kinds::new());
            for v in walk::walk_parse_result(&tree) {
                add(&mut owned, v.node.kind());
                if v.slot == Slot::Node {
                    add(&mut owned_node, v.node.kind());
                }
            }
            tally.nodes += owned.values().map(|&n| n as u64).sum::<u64>();

            let t = pgbind::Tree::parse(&sql).expect("parsed once already");
            let (mut viewed, mut viewed_node) = (Kinds::new(), Kinds::new());
            for v in walk::walk_views(t.root()) {
                add(&mut viewed, v.node.kind());
                if v.slot == Slot::Node {
                    add(&mut viewed_node, v.node.kind());
                }
            }
            let mut in_c = Kinds::new();
            let mut status = pgbind::ffi::pgbind_Status::default();
            let rc = unsafe {
                pgbind::ffi::pgbind_ParseResult_walk(t.as_ptr() as *mut _, Some(count_c), &mut in_c as *mut Kinds as *mut _, &mut status)
            };
            c.check(rc == pgbind::ffi::PGBIND_WALK_DONE, "C walk", file, &sql, || format!("pgbind_ParseResult_walk returned {}", rc));
            c.check(owned == viewed && owned_node == viewed_node, "kinds: owned vs views", file, &sql, || format!("{:?}\n  vs {:?}", owned, viewed));
            c.check(owned == in_c, "kinds: owned vs C walker", file, &sql, || format!("{:?}\n  vs {:?}", owned, in_c));
            match pg_json(&csql) {
                Some(json) => {
                    let wrapped = json_kinds(&json);
                    c.check(owned_node == wrapped, "kinds: Node slots vs libpg_query's JSON", file, &sql, || {
                        format!("{:?}\n  vs {:?}", owned_node, wrapped)
                    });
                }
                None => c.check(false, "pg_query_parse", file, &sql, || "failed where pgbind parsed".to_string()),
            }

            // nodes_mut, changing nothing
            let mut same = tree.clone();
            let mut offered = 0u64;
            let r = walk::walk_mut(&mut same, &mut |_child| {
                offered += 1;
                false
            });
            let expected = owned.values().map(|&n| n as u64).sum::<u64>() - owned.get("RawStmt").copied().unwrap_or(0) as u64;
            c.check(r == Ok(false) && same == tree && offered == expected, "walk_mut, no change", file, &sql, || {
                format!("{:?}, {} offered of {}, tree {}", r, offered, expected, if same == tree { "unchanged" } else { "changed" })
            });

            // An owned tree cannot hold PostgreSQL's "" apart from unset (as protobuf cannot), and
            // libpg_query's deparser crashes on some of the NULLs that leaves (the verify suite
            // says more): where the owned tree lost a "", nothing of it is deparsed. Counted.
            if t.to_json().ok() != pgbind::to_json(&tree).ok() {
                tally.loses_empty += 1;
                continue;
            }

            // truncate to half the deparsed length: never longer, never an error the deparse
            // of the whole tree does not give
            if let Ok(full) = pgbind::deparse(&tree) {
                let n = full.len() / 2;
                let r = pgbind::pg_query::truncate(&tree, n);
                c.check(r.as_ref().map_or(false, |t| t.len() <= n.max(3)), "truncate", file, &sql, || format!("to {}: {:?}", n, r));
            }

            // nodes_mut, renaming every table
            let before = range_vars(&tree);
            if before.is_empty() {
                continue;
            }
            // libpg_query 15's deparser does not give every tree back (ALTER TABLE t ENABLE
            // TRIGGER ALL loses its ALL): where the unchanged tree's RangeVars do not come back
            // from deparse + parse, the renamed one's cannot either. Counted, not compared.
            let unchanged = pgbind::deparse(&tree).and_then(|sql| pgbind::parse(&sql)).map(|t| range_vars(&t));
            if unchanged.as_ref().ok() != Some(&before) {
                tally.rename_no_round_trip += 1;
                continue;
            }
            let mut renamed = tree.clone();
            let r = walk::walk_mut(&mut renamed, &mut |child| {
                if let NodeMut::RangeVar(rv) = child.node() {
                    rv.relname = format!("rn_{}", rv.relname);
                }
                false
            });
            let back = pgbind::deparse(&renamed).and_then(|sql| pgbind::parse(&sql));
            match back {
                Ok(back) => {
                    let after = range_vars(&back);
                    let all = after.len() == before.len() && after.iter().zip(&before).all(|(a, b)| *a == format!("rn_{}", b));
                    c.check(r == Ok(false) && all, "walk_mut, rename every RangeVar", file, &sql, || format!("{:?} -> {:?}", before, after));
                }
                Err(pgbind::Error::Unrepresentable { .. } | pgbind::Error::DeparserCrashed { .. }) => tally.rename_refused += 1,
                Err(e) => c.check(false, "walk_mut, rename every RangeVar", file, &sql, || format!("deparse/parse back: {}", e)),
            }
        }
    }
    println!("rust walk: {} statements from {} files, {} nodes walked", n_stmts, args.len(), tally.nodes);
    println!("rust walk: {} statements hold \"\" where the protocol carries NULL: not deparsed (truncate and rename not checked)", tally.loses_empty);
    println!(
        "rust walk: rename check: {} statements whose unchanged tree does not deparse and parse back to its RangeVars (set aside), {} renamed trees the deparser refused",
        tally.rename_no_round_trip, tally.rename_refused
    );
    println!("{} passed, {} failed", c.passed, c.failed);
    std::process::exit(if c.failed == 0 && n_stmts > 0 { 0 } else { 1 });
}
