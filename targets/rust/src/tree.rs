//! tree.rs -- [`Tree`]: a parse tree kept in pgbind's arena, read through typed views.
use crate::convert::{self, Arena};
use crate::protobuf as pb;
use crate::{call, c_string, ffi, views, Result};

/// A parse tree as pgbind's C library holds it: one arena, freed when the Tree is dropped. Reading
/// it costs nothing beyond the parse ([`Tree::root`] lends typed views); [`Tree::to_owned`]
/// builds the owned prost tree.
pub struct Tree {
    #[allow(dead_code)] // owns the tree's memory: read by Drop alone
    arena: Arena,
    root: *const ffi::pgbind_ParseResult,
}

// The tree is never written after it is built (what the methods below make goes into an arena of
// their own, copied out before they return), and the arena is freed only by Drop: the tree may
// be read from several threads at once.
unsafe impl Send for Tree {}
unsafe impl Sync for Tree {}

impl Tree {
    /// Parses `sql` with PostgreSQL's parser into pgbind's arena.
    pub fn parse(sql: &str) -> Result<Tree> {
        let csql = c_string(sql, "the SQL")?;
        let arena = Arena::new()?;
        let root = call(|st| crate::nonnull(unsafe { ffi::pgbind_parse(csql.as_ptr(), std::ptr::null(), arena.0, st) }))?;
        Ok(Tree { arena, root })
    }

    /// The owned tree converted into pgbind's arena (every "" of it becomes unset, as protobuf has it).
    pub fn from_owned(tree: &pb::ParseResult) -> Result<Tree> {
        let arena = Arena::new()?;
        let root = convert::make_ParseResult(&arena, tree, 0)? as *const ffi::pgbind_ParseResult;
        Ok(Tree { arena, root })
    }

    /// Reads protobuf bytes (message `pg_query.ParseResult`) into pgbind's arena, by its decoder.
    pub fn decode(bytes: &[u8]) -> Result<Tree> {
        let arena = Arena::new()?;
        let root = call(|st| crate::nonnull(unsafe { ffi::pgbind_decode(bytes.as_ptr(), bytes.len(), std::ptr::null(), arena.0, st) }))?;
        Ok(Tree { arena, root })
    }

    /// The typed, borrowed view of the whole tree.
    pub fn root(&self) -> views::ParseResult<'_> {
        // SAFETY: root points into the arena, which lives as long as self.
        <views::ParseResult as views::View>::from_c(unsafe { &*self.root })
    }

    /// The owned prost tree (what [`crate::parse`] returns).
    pub fn to_owned(&self) -> Result<pb::ParseResult> {
        // SAFETY: as above.
        convert::own_ParseResult(unsafe { &*self.root }, 0)
    }

    /// SQL for the tree, by libpg_query's deparser.
    pub fn deparse(&self) -> Result<String> {
        self.deparse_with(std::ptr::null())
    }

    /// SQL for the tree, only when it parses back to this tree (else `Error::RoundTrip`).
    pub fn deparse_checked(&self) -> Result<String> {
        let options = ffi::pgbind_Options { check_deparse: true, ..Default::default() };
        self.deparse_with(&options)
    }

    /// SQL for the tree with the deparser in the deparse server (see [`crate::deparse_isolated`]).
    pub fn deparse_isolated(&self) -> Result<String> {
        let options = ffi::pgbind_Options { isolate_deparse: true, ..Default::default() };
        self.deparse_with(&options)
    }

    fn deparse_with(&self, options: *const ffi::pgbind_Options) -> Result<String> {
        let scratch = Arena::new()?; // not the tree's arena: &self may be shared
        self.deparse_in(options, &scratch)
    }

    /// What [`crate::deparse`] does with the tree it converted: the SQL written into the tree's
    /// own arena (nobody else holds the tree), one arena per call instead of two.
    pub(crate) fn deparse_consumed(self, options: *const ffi::pgbind_Options) -> Result<String> {
        self.deparse_in(options, &self.arena)
    }

    fn deparse_in(&self, options: *const ffi::pgbind_Options, out: &Arena) -> Result<String> {
        let s = call(|st| crate::nonnull(unsafe { ffi::pgbind_deparse(self.root, options, out.0, st) }))?;
        crate::owned_c_str(s, "deparsed SQL")
    }

    /// `sql` with its constants replaced by `$1`, `$2`, ... as `pg_query_normalize` writes it,
    /// from this tree (which must be the one `sql` parsed to) without parsing again.
    pub fn normalize(&self, sql: &str) -> Result<String> {
        let csql = c_string(sql, "the SQL")?;
        let scratch = Arena::new()?; // not the tree's arena: &self may be shared
        let s = call(|st| crate::nonnull(unsafe { ffi::pgbind_normalize(self.root, csql.as_ptr(), std::ptr::null(), scratch.0, st) }))?;
        crate::owned_c_str(s, "normalized SQL")
    }

    /// The tree as libpg_query's JSON.
    pub fn to_json(&self) -> Result<String> {
        let scratch = Arena::new()?; // not the tree's arena: &self may be shared
        let s = call(|st| crate::nonnull(unsafe { ffi::pgbind_json(self.root, std::ptr::null(), scratch.0, st) }))?;
        crate::owned_c_str(s, "JSON")
    }

    /// libpg_query's fingerprint of the tree.
    pub fn fingerprint(&self) -> Result<u64> {
        let mut fp = 0u64;
        call(|st| unsafe { ffi::pgbind_fingerprint(self.root, std::ptr::null(), &mut fp, st) }.then(|| ()))?;
        Ok(fp)
    }

    /// The tree as libpg_query's protobuf bytes.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut data: *const u8 = std::ptr::null();
        let mut len = 0usize;
        let scratch = Arena::new()?; // not the tree's arena: &self may be shared
        call(|st| unsafe { ffi::pgbind_encode(self.root, std::ptr::null(), scratch.0, &mut data, &mut len, st) }.then(|| ()))?;
        Ok(convert::slice(data, len).to_vec())
    }

    /// The C AST itself, for code that calls pgbind's C API directly.
    pub fn as_ptr(&self) -> *const ffi::pgbind_ParseResult {
        self.root
    }
}
