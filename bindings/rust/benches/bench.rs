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
    let mut best = vec![(f64::MAX, 0.0); paths.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in paths.iter().enumerate() {
            let (t, a) = pass(stmts, f.as_ref());
            if t < best[i].0 {
                best[i] = (t, a);
            }
        }
    }
    println!("\n{} ({} statements, best of {} rounds)", title, stmts.len(), rounds);
    println!("{:<62} {:>12} {:>10} {:>12}", "path", "stmts/s", "vs route", "allocs/stmt");
    let route = best[0].0;
    for (i, (name, _)) in paths.iter().enumerate() {
        let base = if i >= 5 { best[4].0 } else { route };
        println!("{:<62} {:>12.0} {:>9.2}x {:>12.1}", name, 1.0 / best[i].0, base / best[i].0, best[i].1);
    }
    println!("parse / floor: {:.3} (goal <= 1.15)", best[1].0 / best[2].0);
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
    println!("\ngrowth: time per doubling from 250 to 8,000 items (1.8-2.3 is linear)");
    let shapes: Vec<(&str, Box<dyn Fn(usize) -> String>)> = vec![
        ("wide (SELECT a1, ..., an)", Box::new(|n| format!("SELECT {}", (0..n).map(|i| format!("a{}", i)).collect::<Vec<_>>().join(", ")))),
        ("deep (1+1+...+1)", Box::new(|n| format!("SELECT {}1", "1+".repeat(n)))),
    ];
    for (name, make) in &shapes {
        let mut line = format!("{:<28}", name);
        for (label, f) in [("views", 2), ("parse", 0), ("deparse", 1)] {
            let mut times = Vec::new();
            for k in 0..6 {
                let sql = make(250 << k);
                let owned = pgbind::parse(&sql).unwrap();
                let reps = 20;
                let t0 = Instant::now();
                for _ in 0..reps {
                    if f == 0 {
                        keep(&pgbind::parse(&sql).unwrap());
                    } else if f == 2 {
                        keep(&pgbind::Tree::parse(&sql).unwrap());
                    } else {
                        keep(&pgbind::deparse(&owned).ok());
                    }
                }
                times.push(t0.elapsed().as_secs_f64());
            }
            let ratios: Vec<String> = times.windows(2).map(|w| format!("{:.2}", w[1] / w[0])).collect();
            line += &format!("  {} {}", label, ratios.join(" "));
        }
        println!("{}", line);
    }
}

fn main() {
    let rounds = std::env::var("PGBIND_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let dir = std::env::var("PGBIND_BENCH_SQL").unwrap_or_else(|_| "/usr/share/postgresql/15".to_string());
    let mut files: Vec<String> = Vec::new();
    for sub in ["", "/extension"] {
        if let Ok(rd) = std::fs::read_dir(format!("{}{}", dir, sub)) {
            let mut fs: Vec<String> = rd.filter_map(|e| e.ok()).map(|e| e.path().to_string_lossy().into_owned()).filter(|p| p.ends_with(".sql")).collect();
            fs.sort();
            files.extend(fs);
        }
    }
    let debian = corpus(files.iter().flat_map(|f| common::statements(f)).collect());
    run(&format!("Debian corpus ({})", dir), &debian, rounds);
    run("short statements (about 70 bytes)", &corpus(short_statements()), rounds * 4);
    growth();
}

/// Keeps the optimizer from dropping a result unread (std::hint::black_box is newer than Rust 1.63).
fn keep<T>(x: &T) {
    // SAFETY: reads one byte of a live value.
    unsafe { std::ptr::read_volatile(x as *const T as *const u8) };
}
