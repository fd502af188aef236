//! What the verification suite and the benchmark share: reading SQL scripts into statements as
//! `pgbind verify` does (psql's backslash lines blanked, libpg_query's splitter), and libpg_query's
//! own routes, the references everything is compared with.
#![allow(dead_code)]

use pgbind::ffi;
use std::ffi::{CStr, CString};

/// The statements of a SQL script, split as `pgbind verify` splits them (cli/input.c).
pub fn statements(path: &str) -> Vec<String> {
    let mut text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) => panic!("{}: {}", path, e),
    };
    // psql's backslash commands are not SQL: blank those lines; extension scripts' placeholders
    let mut start = 0;
    while start < text.len() {
        let end = text[start..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| start + i);
        let first = text[start..end].iter().position(|&b| b != b' ' && b != b'\t');
        if let Some(i) = first {
            if text[start + i] == b'\\' {
                for b in &mut text[start..end] {
                    *b = b' ';
                }
            }
        }
        start = end + 1;
    }
    for (from, to) in [(&b"@extschema@"[..], &b"extschema__"[..]), (&b"@extowner@"[..], &b"extowner__"[..])] {
        let mut i = 0;
        while i + from.len() <= text.len() {
            if &text[i..i + from.len()] == from {
                text[i..i + from.len()].copy_from_slice(to);
                i += from.len();
            } else {
                i += 1;
            }
        }
    }
    let ctext = CString::new(text.clone()).expect("a SQL script with a NUL byte");
    let mut out = Vec::new();
    unsafe {
        let mut split = ffi::pg_query_split_with_parser(ctext.as_ptr());
        if !split.error.is_null() {
            ffi::pg_query_free_split_result(split);
            split = ffi::pg_query_split_with_scanner(ctext.as_ptr());
        }
        if split.error.is_null() {
            for i in 0..split.n_stmts as usize {
                let s = &**split.stmts.add(i);
                let (at, n) = (s.stmt_location as usize, s.stmt_len as usize);
                if at <= text.len() && n <= text.len() - at {
                    // statements of a script that is not UTF-8 are not &str: not Rust's input
                    if let Ok(sql) = std::str::from_utf8(&text[at..at + n]) {
                        out.push(sql.to_string());
                    }
                }
            }
        }
        ffi::pg_query_free_split_result(split);
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
