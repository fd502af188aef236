//! The Rust target's property test: random trees of every message with every field set, through
//! both directions of the generated converters and the views, compared byte for byte with prost:
//!   make   prost tree -> C AST (targets/rust/generated/make.rs) -> pgbind's C encoder == prost's encoding
//!   own    prost's encoding -> pgbind's C decoder -> prost tree (targets/rust/generated/own.rs) == the tree
//!   views  the same C tree read through the views' accessors (to_owned) == the tree
//!   deparse  the tree and the decoded Tree deparsed: SQL or an error, never a crash
//! and deep nesting (SELECT NOT NOT ... true) on threads of 128 KiB, 256 KiB and 2 MiB stacks.
//! and ScanResult (which has no C encoder) through make and own. Reports which messages, node
//! kinds and fields were covered, by name; anything short of all of them is a failure.
//! Usage: property [--rounds N] (default 4). Ends with "N passed, M failed".
use pgbind::protobuf as pb;
mod random;
use random::Gen;
use prost::Message;

/// The errors a deparse of a made tree may give: refused by the contract or the protocol, too deep,
/// an argument the C side rejects (a string holding NUL), or, the trees being made (from outside:
/// deparsed isolated), libpg_query's deparser crashing in its child, or its SQL failing the round
/// trip a tree that breaks the deparse contract is checked with (the deparser read past a node).
// Utf8: libpg_query's SQL comes back as its deparser wrote it (docs/guarantees.md, one policy),
// and a made tree's char field holding a byte outside ASCII (CreateAmStmt.amtype, ...) comes out
// as that raw byte, which a Rust String cannot hold: an error saying so, not SQL.
fn refusal(e: &pgbind::Error) -> bool {
    matches!(
        e,
        pgbind::Error::Unrepresentable { .. }
            | pgbind::Error::DeparserCrashed { .. }
            | pgbind::Error::RoundTrip { .. }
            | pgbind::Error::Invalid { .. }
            | pgbind::Error::Depth { .. }
            | pgbind::Error::Stack { .. }
            | pgbind::Error::Argument { .. }
            | pgbind::Error::Utf8 { .. }
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = args.iter().position(|a| a == "--rounds").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(4usize);
    let mut g = Gen::new(0x5eed);
    let (mut passed, mut failed) = (0u64, 0u64);
    let mut check = |ok: bool, what: &str, kind: &str| {
        if ok {
            passed += 1;
        } else {
            failed += 1;
            if failed <= 20 {
                eprintln!("MISMATCH {} for a tree whose statement is {}", what, kind);
            }
        }
    };
    let mut kinds_checked = std::collections::HashSet::new();
    let (mut deparsed, mut refused) = (0usize, 0usize);
    for _ in 0..rounds {
        for (k, kind) in random::NODE_KINDS.iter().enumerate() {
            let mut tree = random::rand_ParseResult(&mut g, 0);
            let stmt = random::rand_node_kind(&mut g, k, 1);
            if tree.stmts.is_empty() {
                tree.stmts.push(pb::RawStmt::default());
            }
            tree.stmts[0].stmt = Some(Box::new(stmt));
            let bytes = tree.encode_to_vec();
            let made = pgbind::encode(&tree);
            check(made.as_ref().ok() == Some(&bytes), "make (prost -> C -> pgbind_encode)", kind);
            let owned = pgbind::decode(&bytes);
            check(owned.as_ref().ok() == Some(&tree), "own (pgbind_decode -> prost)", kind);
            let viewed = pgbind::Tree::decode(&bytes).and_then(|t| t.root().to_owned());
            check(viewed.as_ref().ok() == Some(&tree), "views (to_owned through the accessors)", kind);
            // deparse, of the owned tree and of the decoded Tree: a made tree is a tree from outside,
            // which no rule of the contract may stop from crashing libpg_query's deparser, so it is
            // deparsed isolated: SQL or an error that says why, never a crash of this process, of the
            // kinds a tree can be refused with (never a syntax error or malformed bytes: the tree
            // was made, not read)
            for d in [pgbind::deparse_isolated(&tree), pgbind::Tree::decode(&bytes).and_then(|t| t.deparse_isolated())] {
                match &d {
                    Ok(_) => deparsed += 1,
                    Err(e) => refused += usize::from(!e.to_string().is_empty()),
                }
                let ok = d.as_ref().map_or_else(|e| refusal(e) && !e.to_string().is_empty(), |_| true);
                let what = match &d {
                    Err(e) if !ok => format!("deparse: SQL or a refusal, not {:?}", e),
                    _ => "deparse: SQL or a refusal".to_string(),
                };
                check(ok, &what, kind);
            }
            if made.is_ok() && owned.is_ok() && viewed.is_ok() {
                kinds_checked.insert(*kind);
            }
        }
        let scan = random::rand_ScanResult(&mut g, 0);
        let back = pgbind::scan_round_trip(&scan);
        check(back.as_ref().ok() == Some(&scan), "ScanResult (make -> own)", "ScanResult");
    }
    // deep nesting on threads of 128 KiB (musl's default), 256 KiB and 2 MiB: parse, the views,
    // encode, decode and deparse return a result or an error, never overflow the stack (the C
    // side's recursion checks the thread's real stack, targets/c/runtime/stack.c)
    for stack in [128usize << 10, 256 << 10, 2 << 20] {
        for depth in [100usize, 1000, 3000, 10000] {
            let sql = format!("SELECT {}true", "NOT ".repeat(depth));
            let outcome = std::thread::Builder::new()
                .stack_size(stack)
                .spawn(move || {
                    let _ = pgbind::parse(&sql).map(std::mem::forget); // prost's Drop recurses once a level
                    // too deep is Depth or Stack (the deparser's own limit: Unrepresentable), or PostgreSQL's
                    // parser stack full (bison's 10,000 levels: "memory exhausted"), nothing else
                    let too_deep = |e: &pgbind::Error| {
                        (matches!(e, pgbind::Error::Depth { .. } | pgbind::Error::Stack { .. } | pgbind::Error::Unrepresentable { .. })
                            || matches!(e, pgbind::Error::Syntax { message, .. } if message.starts_with("memory exhausted")))
                            && !e.to_string().is_empty()
                    };
                    match pgbind::Tree::parse(&sql) {
                        Ok(t) => {
                            let d = t.deparse();
                            if let Ok(b) = t.encode() {
                                let _ = pgbind::Tree::decode(&b);
                            }
                            d.err().map_or(true, |e| too_deep(&e))
                        }
                        Err(e) => too_deep(&e),
                    }
                })
                .map(|h| h.join());
            check(matches!(outcome, Ok(Ok(true))), &format!("deep nesting ({} NOTs) on a {} KiB thread", depth, stack >> 10), "BoolExpr");
        }
    }
    let total_fields: usize = random::MESSAGES.iter().map(|(_, f)| f.len()).sum();
    let missing_msgs: Vec<&str> = random::MESSAGES.iter().map(|(m, _)| *m).filter(|m| !g.messages.contains(m)).collect();
    let mut missing_fields = Vec::new();
    for (m, fields) in random::MESSAGES {
        for f in *fields {
            if !g.fields.contains(&(*m, *f)) {
                missing_fields.push(format!("{}.{}", m, f));
            }
        }
    }
    println!(
        "property: {} rounds; messages {}/{} built, node kinds {}/{} as statements through every direction, fields {}/{} set",
        rounds,
        random::MESSAGES.len() - missing_msgs.len(),
        random::MESSAGES.len(),
        kinds_checked.len(),
        random::NODE_KINDS.len(),
        total_fields - missing_fields.len(),
        total_fields
    );
    println!("property: deparse of the random trees: {} SQL, {} refused with a reason", deparsed, refused);
    check(missing_msgs.is_empty(), &format!("coverage: messages never built: {:?}", missing_msgs), "-");
    check(missing_fields.is_empty(), &format!("coverage: fields never set: {:?}", missing_fields), "-");
    check(kinds_checked.len() == random::NODE_KINDS.len(), "coverage: node kinds not checked", "-");
    println!("{} passed, {} failed", passed, failed);
    std::process::exit(if failed == 0 { 0 } else { 1 });
}
