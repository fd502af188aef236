//! The isolated deparse (`deparse_isolated`: libpg_query's deparser in a child process), the
//! depth deparse takes (the thread's stack, as every path), and the C side's stack error read as
//! `Error::Stack`.
use pgbind::Error;

fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).unwrap().join().unwrap()
}

fn chain(head: &str, item: &str, sep: &str, n: usize) -> String {
    format!("{}{}", head, vec![item; n].join(sep))
}

#[test]
fn isolated_deparse_gives_the_plain_deparse() {
    for sql in [
        "SELECT a, b FROM t WHERE id = ANY($1::int[]) ORDER BY 1",
        "INSERT INTO t VALUES (1, 'x'); UPDATE t SET a = 2; DELETE FROM t",
        "COMMENT ON TABLE t IS ''",
    ] {
        // the owned tree (where "" and an unset string are one) and the parsed one
        let tree = pgbind::parse(sql).unwrap();
        assert_eq!(pgbind::deparse_isolated(&tree).unwrap(), pgbind::deparse(&tree).unwrap(), "{}", sql);
        let parsed = pgbind::Tree::parse(sql).unwrap();
        assert_eq!(parsed.deparse_isolated().unwrap(), parsed.deparse().unwrap(), "{}", sql);
    }
}

extern "C" {
    // pgbind_deparse without its checks (targets/c/runtime/internal.h): a tree the deparser of
    // libpg_query before 18 crashes on reaches it
    fn pgbind_deparse_unchecked(
        tree: *const pgbind::ffi::pgbind_ParseResult,
        options: *const pgbind::ffi::pgbind_Options,
        arena: *mut pgbind::ffi::pgbind_Arena,
        status: *mut pgbind::ffi::pgbind_Status,
    ) -> *const std::os::raw::c_char;
}

#[test]
fn a_crash_of_the_isolated_deparser_is_an_error() {
    if pgbind::ffi::PG_VERSION_NUM >= 180000 {
        return; // 18's deparser takes COPY t FROM STDIN (format)
    }
    let tree = pgbind::Tree::parse("SELECT 1; COPY t FROM STDIN (format)").unwrap();
    let options = pgbind::ffi::pgbind_Options { isolate_deparse: true, ..Default::default() };
    let mut status = pgbind::ffi::pgbind_Status::default();
    // SAFETY: the tree is alive; the arena is freed below.
    let sql = unsafe {
        let arena = pgbind::ffi::pgbind_Arena_New();
        let sql = pgbind_deparse_unchecked(tree.as_ptr(), &options, arena, &mut status);
        pgbind::ffi::pgbind_Arena_Free(arena);
        sql
    };
    let message = unsafe { std::ffi::CStr::from_ptr(status.message.as_ptr()) }.to_string_lossy().into_owned();
    assert!(sql.is_null());
    assert_eq!(status.code, pgbind::ffi::PGBIND_ERROR_DEPARSER_CRASHED, "{}", message);
    assert!(message.contains("died of signal") && message.contains("stmts[1] (CopyStmt)"), "{}", message);
    // and the checked deparse (a rule of the contract sends it to a child and parses its SQL back)
    // gives the child's crash, or its SQL read past a node, as an error
    let owned = tree.to_owned().unwrap();
    for result in [pgbind::deparse(&owned), pgbind::deparse_isolated(&owned)] {
        assert!(matches!(result, Err(Error::DeparserCrashed { .. } | Error::RoundTrip { .. })), "{:?}", result);
    }
}

#[test]
fn deep_unions_and_concatenations_deparse() {
    // on a thread with room for the owned tree's recursive conversions too (a test's has 2 MiB)
    on_stack(64 << 20, || {
        for sql in [chain("", "SELECT 1", " UNION ALL ", 2000), chain("SELECT ", "'a'", " || ", 1500)] {
            let tree = pgbind::parse(&sql).unwrap();
            let plain = pgbind::deparse(&tree).unwrap();
            // its SQL parses back to a tree that deparses to the same SQL (locations differ)
            assert_eq!(pgbind::deparse(&pgbind::parse(&plain).unwrap()).unwrap(), plain);
            assert_eq!(pgbind::deparse_isolated(&tree).unwrap(), plain);
        }
    });
}

#[test]
fn the_c_sides_stack_error_is_error_stack() {
    // issue 42: 9,000 terms on a 256 KiB thread; the C side stops on the stack, not at max_depth
    let sql = chain("SELECT ", "1", "+", 9000);
    let r = on_stack(256 << 10, move || pgbind::Tree::parse(&sql).map(|_| ()));
    assert!(matches!(r, Err(Error::Stack { .. })), "{:?}", r);
    // and deparse: the deparser's 2,000 levels need more than 256 KiB
    let tree = pgbind::Tree::parse(&chain("", "SELECT 1", " UNION ALL ", 2000)).unwrap();
    let r = on_stack(256 << 10, move || tree.deparse().map(|_| ()));
    match r {
        Err(e @ Error::Stack { .. }) => assert!(e.to_string().contains("stack"), "{}", e),
        other => panic!("expected Error::Stack, got {:?}", other),
    }
}

#[test]
fn deparse_checked_is_the_one_place_wrong_sql_is_an_error() {
    // one policy: deparse returns libpg_query's SQL, right or wrong, whether a rule of the deparse
    // contract sends the tree to the server or not (15-4.0.0 writes this cast without its
    // parentheses: SQL that does not parse); deparse_checked alone makes it an error
    if pgbind::ffi::PG_VERSION_NUM / 10000 == 15 {
        let tree = pgbind::parse(
            "CREATE TABLE circles (c1 circle, c2 text, EXCLUDE USING gist (c1 WITH &&, (c2::circle) WITH &&))",
        )
        .unwrap();
        let plain = pgbind::deparse(&tree).unwrap();
        assert!(plain.contains("(c1 WITH &&, c2::circle WITH &&)"), "{}", plain);
        assert!(matches!(pgbind::deparse_checked(&tree), Err(Error::RoundTrip { .. })));
    }
    // where the deparser reads past a node (declared before 18: XMLROOT's version), SQL only where
    // it parses back, else Error::RoundTrip naming libpg_query's bug, checked or not
    let tree = pgbind::parse("SELECT XMLROOT(x, VERSION a % 2 + -a * 3 / 4 ^ 2) FROM t").unwrap();
    let (plain, checked) = (pgbind::deparse(&tree), pgbind::deparse_checked(&tree));
    if pgbind::ffi::PG_VERSION_NUM < 180000 {
        match &plain {
            Err(Error::RoundTrip { message }) => assert!(message.contains("libpg_query's bug"), "{}", message),
            other => panic!("XMLROOT: {:?}", other),
        }
        assert!(matches!(checked, Err(Error::RoundTrip { .. })), "{:?}", checked);
    } else {
        assert_eq!(plain.unwrap(), checked.unwrap());
    }
}
