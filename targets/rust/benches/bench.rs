//! The Rust target's benchmark: a plain harness (criterion is not packaged for Debian 12), in one
//! process, paths alternated in rounds, ratios side by side. `cargo bench` (or `make bench`) runs
//! it on the Debian corpus and on a corpus of short statements it makes itself.
//!
//! Rows (per statement; time per statement; ratios against the protobuf route):
//!   protobuf route   pg_query_parse_protobuf + prost decode (pg_query.rs's `parse`)
//!   parse            pgbind::parse: pgbind_parse + the generated converters into prost's types
//!   floor            pgbind_parse + clone() of the same owned tree (what building it costs)
//!   views            pgbind::Tree::parse (the typed views cost nothing more)
//!   deparse          pgbind::deparse vs prost encode + pg_query_deparse_protobuf (pg_query.rs's)
//! The pg_query.rs user's rows (a second table): `tables()` and a full walk of every node, on the
//! owned tree (`pgbind::pg_query::parse`, `pgbind::parse` + walk) and on the views
//! (`Tree::parse` + `walk::walk_views`), against the protobuf route plus the same work on the
//! tree it decodes (what a pg_query.rs user pays for the same answer).
//! Growth: wide and deep statements of n, 2n, 4n, 8n items, time per doubling.
//! Allocations per statement counted by a wrapping global allocator (the Rust side's only).
#[path = "../tests/common.rs"]
mod common;

use prost::Message;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

struct Stmt {
    sql: String,
    csql: CString,
    owned: pgbind::protobuf::ParseResult,
}

/// Seconds and allocations per statement of one pass of f over the corpus.
fn pass(stmts: &[Stmt], f: &dyn Fn(&Stmt)) -> (f64, f64) {
    let a0 = ALLOCS.load(Ordering::Relaxed);
    let t0 = Instant::now();
    for s in stmts {
        f(s);
    }
    let secs = t0.elapsed().as_secs_f64();
    (secs / stmts.len() as f64, (ALLOCS.load(Ordering::Relaxed) - a0) as f64 / stmts.len() as f64)
}

/// Each path's best (seconds, allocations) per statement over `rounds` alternated rounds.
fn best_of<'a>(paths: &[(&str, Box<dyn Fn(&Stmt) + 'a>)], stmts: &[Stmt], rounds: usize) -> Vec<(f64, f64)> {
    let mut best = vec![(f64::MAX, 0.0); paths.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in paths.iter().enumerate() {
            let (t, a) = pass(stmts, f.as_ref());
            if t < best[i].0 {
                best[i] = (t, a);
            }
        }
    }
    best
}

fn run(title: &str, stmts: &[Stmt], rounds: usize) {
    let paths: Vec<(&str, Box<dyn Fn(&Stmt)>)> = vec![
        ("protobuf route (pg_query_parse_protobuf + prost decode)", Box::new(|s: &Stmt| {
            let b = common::pg_parse_protobuf(&s.csql).unwrap();
            keep(&pgbind::protobuf::ParseResult::decode(b.as_slice()).unwrap());
        })),
        ("parse (pgbind::parse -> owned prost tree)", Box::new(|s: &Stmt| {
            keep(&pgbind::parse(&s.sql).unwrap());
        })),
        ("floor (Tree::parse + clone of the owned tree)", Box::new(|s: &Stmt| {
            keep(&pgbind::Tree::parse(&s.sql).unwrap());
            keep(&s.owned.clone());
        })),
        ("views (Tree::parse)", Box::new(|s: &Stmt| {
            keep(&pgbind::Tree::parse(&s.sql).unwrap());
        })),
        ("deparse baseline (prost encode + pg_query_deparse_protobuf)", Box::new(|s: &Stmt| {
            let b = s.owned.encode_to_vec();
            keep(&common::pg_deparse_protobuf(&b).ok());
        })),
        ("deparse (pgbind::deparse)", Box::new(|s: &Stmt| {
            keep(&pgbind::deparse(&s.owned).ok());
        })),
    ];
    let best = best_of(&paths, stmts, rounds);
    println!("\n{} ({} statements, best of {} rounds)", title, stmts.len(), rounds);
    println!("{:<62} {:>12} {:>10} {:>12}", "path", "stmts/s", "vs route", "allocs/stmt");
    let route = best[0].0;
    for (i, (name, _)) in paths.iter().enumerate() {
        let base = if i >= 5 { best[4].0 } else { route };
        println!("{:<62} {:>12.0} {:>9.2}x {:>12.1}", name, 1.0 / best[i].0, base / best[i].0, best[i].1);
    }
    println!("parse / floor: {:.3} (goal <= 1.15)", best[1].0 / best[2].0);
}

/// The tables of a Tree, read through the views' walk: each RangeVar's name that is no CTE's
/// (what `tables()` answers, without building the owned tree).
fn view_tables(t: &pgbind::Tree) -> Vec<String> {
    use pgbind::views::Node;
    let mut ctes: Vec<&str> = Vec::new();
    let mut names: Vec<(&str, &str)> = Vec::new();
    for v in pgbind::walk::walk_views(t.root()) {
        match v.node {
            Node::CommonTableExpr(c) => ctes.push(c.ctename()),
            Node::RangeVar(r) => names.push((r.schemaname(), r.relname())),
            _ => {}
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (schema, rel) in names {
        let name = if schema.is_empty() { rel.to_string() } else { format!("{}.{}", schema, rel) };
        if !ctes.contains(&name.as_str()) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn run_pg_query(title: &str, stmts: &[Stmt], rounds: usize) {
    let decode = |s: &Stmt| pgbind::protobuf::ParseResult::decode(common::pg_parse_protobuf(&s.csql).unwrap().as_slice()).unwrap();
    let paths: Vec<(&str, Box<dyn Fn(&Stmt)>)> = vec![
        ("tables(): protobuf route + the same ParseResult::new", Box::new(move |s: &Stmt| {
            keep(&pgbind::pg_query::ParseResult::new(decode(s), String::new()).tables());
        })),
        ("tables(): pgbind::pg_query::parse (owned)", Box::new(|s: &Stmt| {
            keep(&pgbind::pg_query::parse(&s.sql).unwrap().tables());
        })),
        ("tables(): Tree::parse + the views' walk", Box::new(|s: &Stmt| {
            keep(&view_tables(&pgbind::Tree::parse(&s.sql).unwrap()));
        })),
        ("walk: protobuf route + walk of every node", Box::new(move |s: &Stmt| {
            keep(&pgbind::walk::walk_parse_result(&decode(s)).count());
        })),
        ("walk: pgbind::parse + walk of every node (owned)", Box::new(|s: &Stmt| {
            keep(&pgbind::walk::walk_parse_result(&pgbind::parse(&s.sql).unwrap()).count());
        })),
        ("walk: Tree::parse + walk of every node (views)", Box::new(|s: &Stmt| {
            keep(&pgbind::walk::walk_views(pgbind::Tree::parse(&s.sql).unwrap().root()).count());
        })),
        ("walk alone, owned tree (parsed before)", Box::new(|s: &Stmt| {
            keep(&pgbind::walk::walk_parse_result(&s.owned).count());
        })),
    ];
    let best = best_of(&paths, stmts, rounds);
    println!("\n{}: the pg_query.rs user's rows ({} statements, best of {} rounds)", title, stmts.len(), rounds);
    println!("{:<62} {:>12} {:>10} {:>12}", "path", "stmts/s", "vs route", "allocs/stmt");
    for (i, (name, _)) in paths.iter().enumerate() {
        let base = if i < 3 { best[0].0 } else { best[3].0 };
        println!("{:<62} {:>12.0} {:>9.2}x {:>12.1}", name, 1.0 / best[i].0, base / best[i].0, best[i].1);
    }
}

fn corpus(sqls: Vec<String>) -> Vec<Stmt> {
    sqls.into_iter()
        .filter_map(|sql| {
            let csql = CString::new(sql.as_str()).ok()?;
            let owned = pgbind::parse(&sql).ok()?;
            // every parse path must accept it (deparse may refuse: that is timed as it runs)
            common::pg_parse_protobuf(&csql).ok()?;
            Some(Stmt { sql, csql, owned })
        })
        .collect()
}

/// Short OLTP-like statements, about 70 bytes each, as a proxy sees them.
fn short_statements() -> Vec<String> {
    let mut v = Vec::new();
    for i in 0..500 {
        v.push(match i % 5 {
            0 => format!("SELECT id, name, email FROM users WHERE id = {} AND active = true", i),
            1 => format!("UPDATE accounts SET balance = balance - {} WHERE id = {}", i, i + 7),
            2 => format!("INSERT INTO events (user_id, kind, at) VALUES ({}, 'login', now())", i),
            3 => format!("SELECT count(*) FROM orders WHERE customer_id = {} AND status = 'open'", i),
            _ => format!("DELETE FROM sessions WHERE expires_at < now() - interval '{} minutes'", i),
        });
    }
    v
}

fn growth() {
    println!("\ngrowth: time per doubling from 250 to 8,000 items, best of 5 rounds (1.8-2.3 is linear)");
    let shapes: Vec<(&str, Box<dyn Fn(usize) -> String>)> = vec![
        ("wide (SELECT a1, ..., an)", Box::new(|n| format!("SELECT {}", (0..n).map(|i| format!("a{}", i)).collect::<Vec<_>>().join(", ")))),
        ("deep (1+1+...+1)", Box::new(|n| format!("SELECT {}1", "1+".repeat(n)))),
    ];
    for (name, make) in &shapes {
        let mut line = format!("{:<28}", name);
        for (label, f) in [("views", 2), ("parse", 0), ("deparse", 1)] {
            // the sizes alternated within each of 5 rounds, the best round of each kept: one
            // sample of each was at the mercy of the heap (its first growth to a new size) and of
            // the other core, and gave 17-19 at the last wide doubling of parse on 15, 17 and 18
            let sqls: Vec<String> = (0..6).map(|k| make(250 << k)).collect();
            let owned: Vec<_> = sqls.iter().map(|q| pgbind::parse(q).unwrap()).collect();
            let mut times = vec![f64::INFINITY; sqls.len()];
            for _round in 0..5 {
                for (k, sql) in sqls.iter().enumerate() {
                    let t0 = Instant::now();
                    for _ in 0..20 {
                        if f == 0 {
                            keep(&pgbind::parse(sql).unwrap());
                        } else if f == 2 {
                            keep(&pgbind::Tree::parse(sql).unwrap());
                        } else {
                            keep(&pgbind::deparse(&owned[k]).ok());
                        }
                    }
                    times[k] = times[k].min(t0.elapsed().as_secs_f64());
                }
            }
            let ratios: Vec<String> = times.windows(2).map(|w| format!("{:.2}", w[1] / w[0])).collect();
            line += &format!("  {} {}", label, ratios.join(" "));
        }
        println!("{}", line);
    }
}

/// libpg_query's entry points pgbind_parse uses and pg_query.h does not declare (as the C
/// benchmark declares them, tools/bench): the raw parse is the reference of the pieces' table. The
/// second argument is 16's parser options; before 16 the call takes one and ignores the register.
#[repr(C)]
struct RawParse {
    tree: *mut std::os::raw::c_void,
    stderr_buffer: *mut std::os::raw::c_char,
    error: *mut pgbind::ffi::PgQueryError,
}
extern "C" {
    fn pg_query_raw_parse(input: *const std::os::raw::c_char, parser_options: i32) -> RawParse;
    fn pg_query_enter_memory_context() -> *mut std::os::raw::c_void;
    fn pg_query_exit_memory_context(ctx: *mut std::os::raw::c_void);
    fn pg_query_free_error(error: *mut pgbind::ffi::PgQueryError);
    fn pgbind_check_deparse_contract(tree: *const pgbind::ffi::pgbind_ParseResult, max_depth: i32, status: *mut pgbind::ffi::pgbind_Status) -> bool;
    #[link_name = "free"]
    fn libc_free(p: *mut std::os::raw::c_char);
}

/// The depth pgbind_deparse gives the contract's check (targets/c/runtime/pg_route.c): max_depth, as every path.
const CONTRACT_DEPTH: i32 = pgbind::ffi::PGBIND_DEFAULT_MAX_DEPTH as i32;

/// The deparse row's pieces, each timed alone (PGBIND_BENCH_PIECES=1): where pgbind::deparse's
/// time goes, against the baseline's two pieces and a raw parse of the same SQL.
fn pieces(title: &str, stmts: &[Stmt], rounds: usize) {
    let trees: Vec<pgbind::Tree> = stmts.iter().map(|s| pgbind::Tree::from_owned(&s.owned).unwrap()).collect();
    let bytes: Vec<Vec<u8>> = stmts.iter().map(|s| s.owned.encode_to_vec()).collect();
    let parsed: Vec<pgbind::Tree> = stmts.iter().map(|s| pgbind::Tree::parse(&s.sql).unwrap()).collect();
    let (trees, bytes, parsed) = (&trees, &bytes, &parsed);
    let idx = move |s: &Stmt| (s as *const Stmt as usize - stmts.as_ptr() as usize) / std::mem::size_of::<Stmt>();
    let paths: Vec<(&str, Box<dyn Fn(&Stmt) + '_>)> = vec![
        ("raw parse (pg_query_raw_parse, as the C bench's raw_parse)", Box::new(|s: &Stmt| unsafe {
            let ctx = pg_query_enter_memory_context();
            let r = pg_query_raw_parse(s.csql.as_ptr(), 0);
            keep(&r.tree);
            if !r.error.is_null() {
                pg_query_free_error(r.error);
            }
            libc_free(r.stderr_buffer);
            pg_query_exit_memory_context(ctx);
        })),
        ("baseline: prost encode alone", Box::new(|s: &Stmt| keep(&s.owned.encode_to_vec()))),
        ("baseline: pg_query_deparse_protobuf on ready bytes", Box::new(move |s: &Stmt| keep(&common::pg_deparse_protobuf(&bytes[idx(s)]).ok()))),
        ("deparse baseline (both)", Box::new(|s: &Stmt| keep(&common::pg_deparse_protobuf(&s.owned.encode_to_vec()).ok()))),
        ("pgbind: Tree::from_owned alone", Box::new(|s: &Stmt| keep(&pgbind::Tree::from_owned(&s.owned).unwrap()))),
        ("pgbind: Tree::deparse on a ready tree", Box::new(move |s: &Stmt| keep(&trees[idx(s)].deparse().ok()))),
        ("pgbind: Tree::deparse on a ready tree from Tree::parse", Box::new(move |s: &Stmt| keep(&parsed[idx(s)].deparse().ok()))),
        ("pgbind: contract check alone, tree from the owned tree", Box::new(move |s: &Stmt| unsafe {
            keep(&pgbind_check_deparse_contract(trees[idx(s)].as_ptr(), CONTRACT_DEPTH, std::ptr::null_mut()))
        })),
        ("pgbind: contract check alone, tree from Tree::parse", Box::new(move |s: &Stmt| unsafe {
            keep(&pgbind_check_deparse_contract(parsed[idx(s)].as_ptr(), CONTRACT_DEPTH, std::ptr::null_mut()))
        })),
        ("pgbind::deparse (both)", Box::new(|s: &Stmt| keep(&pgbind::deparse(&s.owned).ok()))),
    ];
    let best = best_of(&paths, stmts, rounds);
    println!("\n{}: deparse pieces ({} statements, best of {} rounds)", title, stmts.len(), rounds);
    println!("{:<62} {:>12} {:>10}", "path", "us/stmt", "x raw");
    for (i, (name, _)) in paths.iter().enumerate() {
        println!("{:<62} {:>12.3} {:>9.2}x", name, best[i].0 * 1e6, best[i].0 / best[0].0);
    }
}

fn main() {
    let rounds = std::env::var("PGBIND_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    // The listed Debian corpus, as make check reads it (tests/run.sh): the files
    // tests/corpus/debian-pg15.txt names under /usr/share/postgresql/15, or PGBIND_BENCH_LIST's
    // under PGBIND_BENCH_SQL.
    let dir = std::env::var("PGBIND_BENCH_SQL").unwrap_or_else(|_| "/usr/share/postgresql/15".to_string());
    let list = std::env::var("PGBIND_BENCH_LIST").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/debian-pg15.txt").to_string());
    let text = std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{}: {}", list, e));
    let mut files: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let path = format!("{}/{}", dir, line);
        if !std::path::Path::new(&path).is_file() {
            panic!("{} names {}, which is missing", list, path);
        }
        files.push(path);
    }
    let debian = corpus(files.iter().flat_map(|f| common::statements(f)).collect());
    if std::env::var_os("PGBIND_BENCH_PIECES").is_some() {
        pieces("Debian corpus", &debian, rounds);
        pieces("short statements", &corpus(short_statements()), rounds * 4);
        return;
    }
    // PGBIND_BENCH_ONLY=deparse: only pgbind::deparse over the corpus, for perf record (ready:
    // Tree::deparse of trees converted beforehand)
    if let Ok(only) = std::env::var("PGBIND_BENCH_ONLY") {
        let trees: Vec<pgbind::Tree> =
            if only == "ready" { debian.iter().map(|s| pgbind::Tree::from_owned(&s.owned).unwrap()).collect() } else { Vec::new() };
        for _ in 0..rounds {
            if only == "ready" {
                trees.iter().for_each(|t| keep(&t.deparse().ok()));
                continue;
            }
            for s in &debian {
                match only.as_str() {
                    "deparse" => keep(&pgbind::deparse(&s.owned).ok()),
                    "from_owned" => keep(&pgbind::Tree::from_owned(&s.owned).ok()),
                    "parse" => keep(&pgbind::parse(&s.sql).ok()),
                    "views" => keep(&pgbind::Tree::parse(&s.sql).ok()),
                    _ => panic!("PGBIND_BENCH_ONLY: deparse, ready, from_owned, parse or views"),
                }
            }
        }
        return;
    }
    run(&format!("Debian corpus ({} files of {})", files.len(), list), &debian, rounds);
    let short = corpus(short_statements());
    run("short statements (about 70 bytes)", &short, rounds * 4);
    run_pg_query("Debian corpus", &debian, rounds);
    run_pg_query("short statements", &short, rounds * 4);
    growth();
}

/// Keeps the optimizer from dropping a result unread (std::hint::black_box is newer than Rust 1.63).
fn keep<T>(x: &T) {
    // SAFETY: reads one byte of a live value.
    unsafe { std::ptr::read_volatile(x as *const T as *const u8) };
}
