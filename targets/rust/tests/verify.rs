//! The Rust target's verification suite: every statement of the SQL scripts named on the command
//! line through every Rust path, compared with libpg_query's own routes and with pgbind's C API.
//!
//! Per statement:
//!   protobuf    prost's encoding of `parse(sql)` is exactly `pg_query_parse_protobuf`'s bytes
//!               (or both fail, with the same message and cursor position)
//!   decode      prost's decoding of those bytes equals `parse(sql)`
//!   views       the views' `to_owned()` (built through the accessors) equals `parse(sql)`
//!   deparse     `deparse(&parse(sql))` equals the C path's deparse of the same SQL
//!               (`pgbind_deparse` of `pgbind_parse`'s tree), refusals included
//!   fingerprint `fingerprint(&parse(sql))` equals `pg_query_fingerprint(sql)`
//!   normalize   `Tree::normalize` equals `pg_query_normalize(sql)`
//! Ends with "N passed, M failed"; exits 1 on any failure. `-v` lists what was set aside.
mod common;

use prost::Message;
use std::ffi::CString;

extern "C" {
    // runtime/internal.h (in libpgbind.a, which the crate links): whether the tree holds a ""
    // where protobuf carries unset
    fn pgbind_find_lossy_empty_string(
        tree: *const pgbind::ffi::pgbind_ParseResult,
        where_: *mut std::os::raw::c_char,
        size: usize,
    ) -> bool;
}

/// What was set aside or counted besides the checks.
#[derive(Default)]
struct Tally {
    // the C path refused a tree holding "" where the protocol carries NULL: the owned tree no
    // longer holds the "" and libpg_query's deparser may crash on the NULL (see issue notes)
    deparse_refused_empty_string: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let verbose = std::env::args().any(|a| a == "-v");
    let mut c = common::Checks::default();
    let mut tally = Tally::default();
    let mut n_stmts = 0u64;
    for file in &args {
        for sql in common::statements(file) {
            n_stmts += 1;
            let csql = CString::new(sql.as_str()).unwrap();
            let ours = pgbind::parse(&sql);
            let theirs = common::pg_parse_protobuf(&csql);
            let tree = match (&ours, &theirs) {
                (Ok(tree), Ok(bytes)) => {
                    let mine = tree.encode_to_vec();
                    c.check(&mine == bytes, "protobuf", file, &sql, || {
                        format!("{} bytes from prost, {} from pg_query_parse_protobuf", mine.len(), bytes.len())
                    });
                    let decoded = pgbind::protobuf::ParseResult::decode(bytes.as_slice());
                    c.check(decoded.as_ref().ok() == Some(tree), "decode", file, &sql, || format!("{:?}", decoded.err()));
                    tree
                }
                (Err(pgbind::Error::Syntax { message, cursorpos }), Err(e)) => {
                    c.check(message == &e.message && *cursorpos == e.cursorpos, "syntax error", file, &sql, || {
                        format!("ours {:?} at {}, libpg_query's {:?} at {}", message, cursorpos, e.message, e.cursorpos)
                    });
                    continue;
                }
                (Err(e), Ok(_)) => {
                    c.check(false, "parse", file, &sql, || format!("parse failed where libpg_query's did not: {}", e));
                    continue;
                }
                (Ok(_), Err(e)) => {
                    c.check(false, "parse", file, &sql, || format!("parsed where libpg_query failed: {}", e.message));
                    continue;
                }
                (Err(e), Err(_)) => {
                    c.check(false, "parse", file, &sql, || format!("not a syntax error: {}", e));
                    continue;
                }
            };

            let t = pgbind::Tree::parse(&sql).expect("parsed once already");
            let viewed = t.root().to_owned();
            c.check(viewed.as_ref().ok() == Some(tree), "views", file, &sql, || format!("{:?}", viewed.err()));

            let norm = t.normalize(&sql);
            let pg_norm = common::pg_normalize(&csql);
            c.check(norm.as_ref().ok() == pg_norm.as_ref().ok(), "normalize", file, &sql, || format!("{:?} vs {:?}", norm, pg_norm));

            let pg_fp = common::pg_fingerprint(&csql);
            let tree_fp = t.fingerprint();
            c.check(tree_fp.as_ref().ok() == pg_fp.as_ref().ok(), "fingerprint (Tree)", file, &sql, || format!("{:?}", tree_fp));

            // An owned (prost) tree cannot hold PostgreSQL's "" apart from unset, as protobuf
            // cannot: where the parser's tree holds one, the owned tree's deparse and fingerprint
            // are those of NULL, and libpg_query's deparser crashes on some such NULLs. Counted,
            // not compared. Found in the C tree itself (18's JSON writes "" as unset too, so the
            // JSON cannot tell); elsewhere the owned tree's JSON is the parser's.
            let mut where_ = [0 as std::os::raw::c_char; 160];
            // SAFETY: t's tree lives as long as t; where_ is as large as said.
            let loses_empty = unsafe { pgbind_find_lossy_empty_string(t.as_ptr(), where_.as_mut_ptr(), where_.len()) };
            if !loses_empty {
                c.check(t.to_json().ok() == pgbind::to_json(tree).ok(), "JSON of the owned tree", file, &sql, || String::new());
            }
            if loses_empty {
                tally.deparse_refused_empty_string += 1;
                if verbose {
                    println!("set aside (the owned tree loses \"\"): {}", sql.trim());
                }
            } else {
                let c_path = t.deparse();
                let rust_path = pgbind::deparse(tree);
                c.check(rust_path == c_path, "deparse", file, &sql, || format!("{:?} vs the C path's {:?}", rust_path, c_path));
                let fp = pgbind::fingerprint(tree);
                c.check(fp.as_ref().ok() == pg_fp.as_ref().ok(), "fingerprint", file, &sql, || format!("{:?}", fp));
            }
        }
    }
    println!("rust verify: {} statements from {} files", n_stmts, args.len());
    println!(
        "rust verify: {} statements hold \"\" where the protocol carries NULL: the owned tree cannot hold it, so their owned deparse and fingerprint are not compared (Tree's fingerprint is)",
        tally.deparse_refused_empty_string
    );
    println!("{} passed, {} failed", c.passed, c.failed);
    std::process::exit(if c.failed == 0 && n_stmts > 0 { 0 } else { 1 });
}
