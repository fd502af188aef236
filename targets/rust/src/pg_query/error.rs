//! pg_query.rs's `Error`: its variants, their payloads, its `Display` texts and `source`, so that
//! code matching on them (`Error::Parse(message)`, `Err(Error::Split(..))` compared with `==`)
//! ports unchanged. Every function of `pgbind::pg_query` returns it; pgbind's own functions
//! return [`crate::Error`], which keeps what this shape has no room for (the cursor position of a
//! syntax error, the depth limit): `From` maps it here, the one way across.
use std::ffi::{CString, NulError};
use std::fmt;

/// The error of pg_query.rs 6.1 (`pg_query::Error`), variant for variant.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    /// The input holds a NUL byte (pg_query.rs: `CString::new` failed).
    Conversion(NulError),
    /// Protobuf bytes that do not decode (pg_query.rs's route decodes libpg_query's protobuf;
    /// pgbind's does not, so none of its functions returns this).
    Decode(prost::DecodeError),
    /// The SQL does not parse, or the tree does not deparse: PostgreSQL's (or pgbind's) message.
    Parse(String),
    /// `parse_plpgsql`: libpg_query's JSON does not read as JSON.
    InvalidJson(String),
    /// pg_query.rs: a `NodeMut` holding a null pointer (pgbind's `NodeMut` holds references:
    /// never returned).
    InvalidPointer,
    /// `scan`: the scanner's error.
    Scan(String),
    /// `split_with_parser`, `split_with_scanner`: the splitter's error.
    Split(String),
}

/// `std::result::Result` with pg_query.rs's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Conversion(e) => write!(f, "Invalid statement format: {}", e),
            Error::Decode(e) => write!(f, "Error decoding result: {}", e),
            Error::Parse(m) => write!(f, "Invalid statement: {}", m),
            Error::InvalidJson(m) => write!(f, "Error parsing JSON: {}", m),
            Error::InvalidPointer => write!(f, "Invalid pointer"),
            Error::Scan(m) => write!(f, "Error scanning: {}", m),
            Error::Split(m) => write!(f, "Error splitting: {}", m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Conversion(e) => Some(e),
            Error::Decode(e) => Some(e),
            _ => None,
        }
    }
}

impl From<NulError> for Error {
    fn from(e: NulError) -> Self {
        Error::Conversion(e)
    }
}

impl From<prost::DecodeError> for Error {
    fn from(e: prost::DecodeError) -> Self {
        Error::Decode(e)
    }
}

impl Error {
    /// pgbind's error `e` as the `variant` pg_query.rs reports on this path (`Parse` for parse,
    /// deparse, normalize, fingerprint, truncate; `Split`, `Scan`): a syntax error's message as
    /// PostgreSQL wrote it (its position dropped: `Parse(String)` has no room for it), any other
    /// error's `Display` text.
    pub(crate) fn from_pgbind(e: crate::Error, variant: fn(String) -> Error) -> Error {
        match e {
            crate::Error::Syntax { message, .. } => variant(message),
            other => variant(other.to_string()),
        }
    }
}

/// As `from_pgbind(e, Error::Parse)`: what `?` does in a function returning pg_query's `Result`.
impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Self {
        Error::from_pgbind(e, Error::Parse)
    }
}

/// `Err(Conversion)` when `s` holds a NUL byte, as pg_query.rs's `CString::new(s)?` (the check
/// comes first, so pgbind's own `Error::Argument` for it is never mapped).
pub(crate) fn no_nul(s: &str) -> Result<()> {
    match s.as_bytes().contains(&0) {
        true => Err(Error::Conversion(CString::new(s).unwrap_err())),
        false => Ok(()),
    }
}
