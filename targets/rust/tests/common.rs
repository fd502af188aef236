//! What the verification suite and the benchmark share: reading SQL scripts into statements with
//! the splitter `pgbind verify` uses (targets/c/runtime/script.c, through the FFI), and libpg_query's own
//! routes, the references everything is compared with.
#![allow(dead_code)]

use pgbind::ffi;
use std::ffi::{CStr, CString};

/// The statements of a SQL script, split by the splitter `pgbind verify` uses (targets/c/runtime/script.c:
/// psql's backslash lines blanked, libpg_query's parser, else its scanner, else the whole text as
/// one statement). A statement that is not UTF-8 is no `&str`: not Rust's input, left out.
pub fn statements(path: &str) -> Vec<String> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) => panic!("{}: {}", path, e),
    };
    let len = text.len();
    let ctext = CString::new(text).expect("a SQL script with a NUL byte");
    let mut bytes = ctext.into_bytes_with_nul();
    let mut out = Vec::new();
    unsafe {
        ffi::pgbind_script_prepare(bytes.as_mut_ptr() as *mut _);
        let arena = ffi::pgbind_Arena_New();
        let mut n = 0usize;
        let mut status = ffi::pgbind_Status::default();
        let stmts = ffi::pgbind_script_split(bytes.as_ptr() as *const _, len, arena, &mut n, &mut status);
        assert!(!stmts.is_null(), "{}: pgbind_script_split failed: {:?}", path, CStr::from_ptr(status.message.as_ptr()));
        for s in std::slice::from_raw_parts(stmts, n) {
            if let Ok(sql) = std::str::from_utf8(&bytes[s.location..s.location + s.length]) {
                out.push(sql.to_string());
            }
        }
        ffi::pgbind_Arena_Free(arena);
    }
    out
}

/// libpg_query's error: message and cursor position.
#[derive(Debug)]
pub struct PgError {
    pub message: String,
    pub cursorpos: i32,
}

unsafe fn pg_error(e: *const ffi::PgQueryError) -> PgError {
    PgError { message: CStr::from_ptr((*e).message).to_string_lossy().into_owned(), cursorpos: (*e).cursorpos }
}

/// `pg_query_parse_protobuf`'s bytes, the route pg_query.rs's `parse` takes before prost decodes.
pub fn pg_parse_protobuf(sql: &CStr) -> Result<Vec<u8>, PgError> {
    unsafe {
        let r = ffi::pg_query_parse_protobuf(sql.as_ptr());
        let out = if r.error.is_null() {
            Ok(std::slice::from_raw_parts(r.parse_tree.data as *const u8, r.parse_tree.len as usize).to_vec())
        } else {
            Err(pg_error(r.error))
        };
        ffi::pg_query_free_protobuf_parse_result(r);
        out
    }
}

/// `pg_query_deparse_protobuf` of protobuf bytes: pg_query.rs's `deparse` after prost encodes.
pub fn pg_deparse_protobuf(bytes: &[u8]) -> Result<String, PgError> {
    unsafe {
        let pb = ffi::PgQueryProtobuf { len: bytes.len() as _, data: bytes.as_ptr() as *mut _ };
        let r = ffi::pg_query_deparse_protobuf(pb);
        let out = if r.error.is_null() {
            Ok(CStr::from_ptr(r.query).to_string_lossy().into_owned())
        } else {
            Err(pg_error(r.error))
        };
        ffi::pg_query_free_deparse_result(r);
        out
    }
}

/// `pg_query_fingerprint` of the SQL.
pub fn pg_fingerprint(sql: &CStr) -> Result<u64, PgError> {
    unsafe {
        let r = ffi::pg_query_fingerprint(sql.as_ptr());
        let out = if r.error.is_null() { Ok(r.fingerprint) } else { Err(pg_error(r.error)) };
        ffi::pg_query_free_fingerprint_result(r);
        out
    }
}

/// `pg_query_normalize` of the SQL.
pub fn pg_normalize(sql: &CStr) -> Result<String, String> {
    unsafe {
        let r = ffi::pg_query_normalize(sql.as_ptr());
        let out = if r.error.is_null() {
            Ok(CStr::from_ptr(r.normalized_query).to_string_lossy().into_owned())
        } else {
            Err(pg_error(r.error).message)
        };
        ffi::pg_query_free_normalize_result(r);
        out
    }
}

/// The suites' pass/fail counts; the first 30 failures are printed with the statement.
#[derive(Default)]
pub struct Checks {
    pub passed: u64,
    pub failed: u64,
}

impl Checks {
    pub fn check(&mut self, ok: bool, what: &str, file: &str, sql: &str, detail: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            if self.failed <= 30 {
                eprintln!("MISMATCH {} in {}: {}\n  statement: {}", what, file, detail(), sql.trim());
            }
        }
    }
}
