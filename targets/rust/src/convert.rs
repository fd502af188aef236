//! convert.rs -- what each wire kind means when converting between pgbind's C AST and the owned
//! prost types, written once: the `own!` (C -> prost) and `make!` (prost -> C) macros that the
//! generated per-message functions (targets/rust/generated/own.rs, targets/rust/generated/make.rs) call one line
//! per proto field, in the manner of PostgreSQL's copyfuncs.
//!
//! Both directions count message levels as the C side does and stop at the same limit
//! (`PGBIND_DEFAULT_MAX_DEPTH`) with `Error::Depth`, never a stack overflow: a tree from
//! `pgbind_parse` is already within it.
#![allow(non_snake_case, clippy::all)]

use std::borrow::Borrow;
use std::os::raw::c_char;

use crate::ffi;
use crate::protobuf as pb;
use crate::{Error, Result};

/// The nesting limit of both directions, in message levels: the C side's.
pub(crate) const MAX_DEPTH: u32 = ffi::PGBIND_DEFAULT_MAX_DEPTH;

/// Called on entering every message level: the depth limit, and the stack this thread has left.
/// The converters recurse once a level, and Rust frames holding prost messages are large (about
/// 0.5-1 KiB a level in release builds), so a deep tree on a small stack (a 2 MiB spawned
/// thread) would overflow before the limit: the conversion stops with `Error::Stack` instead.
#[inline(always)]
pub(crate) fn enter(depth: u32) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::Depth { max_depth: MAX_DEPTH });
    }
    let here = &depth as *const u32 as usize;
    if here < stack_floor() {
        return Err(Error::Stack { depth });
    }
    Ok(())
}

/// What must stay free below the deepest frame: room for the C calls made from there.
const STACK_RESERVE: usize = 64 << 10;

thread_local! {
    static STACK_FLOOR: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

#[repr(C, align(8))]
struct PthreadAttr([u8; 64]); // pthread_attr_t: 56 bytes on 64-bit glibc

extern "C" {
    fn pthread_self() -> usize;
    fn pthread_getattr_np(thread: usize, attr: *mut PthreadAttr) -> i32;
    fn pthread_attr_getstack(attr: *const PthreadAttr, addr: *mut *mut u8, size: *mut usize) -> i32;
    fn pthread_attr_destroy(attr: *mut PthreadAttr) -> i32;
}

/// The lowest address this thread's frames may reach (its stack's end plus the reserve), found
/// once per thread; 0 (no check) where the system does not say.
#[inline(always)]
fn stack_floor() -> usize {
    STACK_FLOOR.with(|f| {
        let v = f.get();
        if v != usize::MAX {
            return v;
        }
        let mut attr = PthreadAttr([0; 64]);
        let mut addr: *mut u8 = std::ptr::null_mut();
        let mut size = 0usize;
        // SAFETY: glibc's documented calls on the calling thread; attr is large enough.
        let floor = unsafe {
            if pthread_getattr_np(pthread_self(), &mut attr) == 0 {
                let ok = pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
                pthread_attr_destroy(&mut attr);
                if ok && size > STACK_RESERVE {
                    addr as usize + STACK_RESERVE
                } else {
                    0
                }
            } else {
                0
            }
        };
        f.set(floor);
        floor
    })
}

/// A pgbind arena: owns every C node made in it, frees them all at once when dropped. The second
/// field is the creating thread's stack floor (see `enter`), read once here for the converters
/// that fill the fresh arena on that thread (`Tree::from_owned`); nothing reads it later.
pub(crate) struct Arena(pub(crate) *mut ffi::pgbind_Arena, usize);

impl Arena {
    pub(crate) fn new() -> Result<Arena> {
        // SAFETY: plain constructor; NULL means out of memory.
        let a = unsafe { ffi::pgbind_Arena_New() };
        if a.is_null() {
            Err(Error::NoMemory)
        } else {
            Ok(Arena(a, stack_floor()))
        }
    }

    /// `enter` for the converters into this arena, with the stack floor it holds: the
    /// thread-local is reached through two calls rustc does not inline here (`LocalKey::with`,
    /// `__getit`), which on every message level were 5% of converting a tree.
    #[inline(always)]
    pub(crate) fn enter(&self, depth: u32) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::Depth { max_depth: MAX_DEPTH });
        }
        if (&depth as *const u32 as usize) < self.1 {
            return Err(Error::Stack { depth });
        }
        Ok(())
    }

    /// `size` bytes of the arena, not zeroed, aligned for any AST type: pgbind_Arena_Alloc's
    /// pointer bump (pgbind.h), inlined here as C callers inline it (the arena's first field is
    /// its cursor), with the C call only when the block is full. One FFI call per node was a
    /// tenth of converting a tree.
    #[inline(always)]
    fn claim(&self, size: usize) -> Result<*mut u8> {
        const ALIGN: usize = ffi::PGBIND_ARENA_ALIGN as usize;
        let c = self.0 as *mut ffi::pgbind_ArenaCursor;
        // SAFETY: self.0 is a live arena, whose first field is its cursor (pgbind_Arena_Cursor);
        // ptr and end are in one block, both aligned, so room is a multiple of ALIGN and a size
        // that fits still fits rounded up.
        unsafe {
            let room = (*c).end as usize - (*c).ptr as usize;
            if size <= room {
                let p = (*c).ptr;
                (*c).ptr = p.add((size + ALIGN - 1) & !(ALIGN - 1));
                return Ok(p as *mut u8);
            }
            let p = ffi::pgbind_Arena_AllocSlow(self.0, size) as *mut u8;
            if p.is_null() {
                Err(Error::NoMemory)
            } else {
                Ok(p)
            }
        }
    }

    /// A zeroed T in the arena (every AST struct is valid zeroed: NULL pointers, zero counts).
    #[inline(always)]
    pub(crate) fn alloc<T>(&self) -> Result<*mut T> {
        let p = self.claim(std::mem::size_of::<T>().max(1))?;
        // SAFETY: p has room for one T (the size is a constant: the zeroing is inlined).
        unsafe { std::ptr::write_bytes(p, 0, std::mem::size_of::<T>()) };
        Ok(p as *mut T)
    }

    /// Room for n T's, not zeroed: for arrays the caller fills completely before the tree is read
    /// (on an error the arena is dropped unread).
    #[inline(always)]
    pub(crate) fn alloc_array_unset<T>(&self, n: usize) -> Result<*mut T> {
        let size = std::mem::size_of::<T>().checked_mul(n).ok_or(Error::NoMemory)?;
        Ok(self.claim(size.max(1))? as *mut T)
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: the arena was made by pgbind_Arena_New and is freed once.
        unsafe { ffi::pgbind_Arena_Free(self.0) }
    }
}

pub(crate) const EMPTY: *const c_char = b"\0".as_ptr() as *const c_char;

/// The C array behind a repeated field (NULL with a zero count is an empty array).
#[inline(always)]
pub(crate) fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if n == 0 || p.is_null() {
        &[]
    } else {
        // SAFETY: the AST keeps n elements at p for the arena's lifetime.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

/// The bytes of a C string (None for NULL).
#[inline(always)]
pub(crate) fn c_bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    if p.is_null() {
        None
    } else {
        // SAFETY: AST strings are NUL-terminated and live as long as the arena.
        Some(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes())
    }
}

/// A C string as an owned String: NULL is "" (protobuf cannot tell them apart), bytes that are not
/// UTF-8 are an error (prost's strings are Rust strings).
#[inline(always)]
pub(crate) fn own_string(p: *const c_char) -> Result<String> {
    match c_bytes(p) {
        None => Ok(String::new()),
        Some(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(Error::Utf8 { message: format!("a string of the tree is not UTF-8 ({})", e) }),
        },
    }
}

pub(crate) fn own_nodes(p: *const *mut ffi::pgbind_Node, n: usize, depth: u32) -> Result<Vec<pb::Node>> {
    let cells = slice(p, n);
    let mut v = Vec::with_capacity(cells.len());
    for (i, &cell) in cells.iter().enumerate() {
        // a NULL cell (SELECT DISTINCT's) is a Node with nothing set, as on the wire
        v.push(pb::Node::default());
        own_Node(cell, depth, &mut v[i])?;
    }
    Ok(v)
}

/// A node field's value from the heap-allocated Node it was built in: the Box itself where prost
/// boxes the field, its content where it does not.
pub(crate) trait FromBox<T> {
    fn from_box(b: Box<T>) -> Self;
}
impl<T> FromBox<T> for Box<T> {
    fn from_box(b: Box<T>) -> Self {
        b
    }
}
impl<T> FromBox<T> for T {
    fn from_box(b: Box<T>) -> Self {
        *b
    }
}

/// A node field: built in place on the heap, so no level's frame holds a Node.
#[inline(always)]
pub(crate) fn own_node_field<F: FromBox<pb::Node>>(p: *const ffi::pgbind_Node, depth: u32) -> Result<Option<F>> {
    if p.is_null() {
        return Ok(None);
    }
    let mut b = Box::<pb::Node>::default();
    own_Node(p, depth, &mut b)?;
    Ok(Some(F::from_box(b)))
}

/// Converts one C field into its prost field: `own!(WIRE, prost field, C field, C count, own_<Type>, depth)`.
macro_rules! own {
    (INT32, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (UINT32, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (INT64, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (UINT64, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (BOOL, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (DOUBLE, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c };
    (ENUM, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $c as i32 };
    (STRING, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = own_string($c)? };
    (NODE, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = own_node_field($c, $d)? };
    (MESSAGE, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => {
        // SAFETY: a non-NULL message pointer of a tree points to that message's struct.
        $m = if $c.is_null() { None } else { Some($f(unsafe { &*$c }, $d + 1)?.into()) }
    };
    (REPEATED_NODE, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = own_nodes($c, $n, $d)? };
    (REPEATED_MESSAGE, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => {{
        let cells = slice($c, $n);
        $m.reserve_exact(cells.len());
        for &cell in cells {
            if cell.is_null() {
                return Err(Error::invalid("a repeated message field holds a NULL element".to_string()));
            }
            // SAFETY: as for MESSAGE.
            $m.push($f(unsafe { &*cell }, $d + 1)?);
        }
    }};
    (PACKED_UINT64, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = slice($c, $n).to_vec() };
    (ONEOF, $m:expr, $c:expr, $n:expr, $f:ident, $d:expr) => { $m = $f($c, $d)? };
}

/// A string into the arena, NUL-terminated; "" is NULL, as when pgbind decodes protobuf.
#[inline(always)]
pub(crate) fn make_string(a: &Arena, s: &str) -> Result<*const c_char> {
    if s.is_empty() {
        return Ok(std::ptr::null()); // most string fields: no call
    }
    make_nonempty_string(a, s)
}

fn make_nonempty_string(a: &Arena, s: &str) -> Result<*const c_char> {
    if s.as_bytes().contains(&0) {
        return Err(Error::invalid(format!("a string holds a NUL byte: {:?}", s)));
    }
    let p = a.claim(s.len() + 1)?;
    // SAFETY: p has room for s.len() + 1 bytes: the string, then its NUL.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        *p.add(s.len()) = 0;
    }
    Ok(p as *const c_char)
}

pub(crate) fn make_nodes(a: &Arena, v: &[pb::Node], depth: u32) -> Result<(*mut *mut ffi::pgbind_Node, usize)> {
    if v.is_empty() {
        return Ok((std::ptr::null_mut(), 0));
    }
    let p = a.alloc_array_unset::<*mut ffi::pgbind_Node>(v.len())?;
    for (i, n) in v.iter().enumerate() {
        // SAFETY: i < v.len(), the array's length.
        unsafe { *p.add(i) = make_Node(a, Some(n), depth)? };
    }
    Ok((p, v.len()))
}

pub(crate) fn make_u64s(a: &Arena, v: &[u64]) -> Result<(*mut u64, usize)> {
    if v.is_empty() {
        return Ok((std::ptr::null_mut(), 0));
    }
    let p = a.alloc_array_unset::<u64>(v.len())?;
    // SAFETY: p has room for v.len() values.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, v.len()) };
    Ok((p, v.len()))
}

/// Converts one prost field into its C field: `make!(WIRE, C field, prost field, C count, make_<Type>, arena, depth)`.
macro_rules! make {
    (INT32, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (UINT32, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (INT64, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (UINT64, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (BOOL, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (DOUBLE, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m };
    (ENUM, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $m as _ };
    (STRING, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = make_string($a, &$m)? };
    (NODE, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => {
        $c = make_Node($a, $m.as_ref().map(|b| b.borrow()), $d)?
    };
    (MESSAGE, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => {
        $c = match $m.as_ref() {
            None => std::ptr::null_mut(),
            Some(b) => $f($a, b.borrow(), $d + 1)?,
        }
    };
    (REPEATED_NODE, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => {{
        let (p, n) = make_nodes($a, &$m, $d)?;
        $c = p;
        $n = n;
    }};
    (REPEATED_MESSAGE, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => {{
        if !$m.is_empty() {
            let p = $a.alloc_array_unset(($m).len())?;
            $c = p;
            for (i, x) in $m.iter().enumerate() {
                // SAFETY: i is below the array's length.
                unsafe { *$c.add(i) = $f($a, x, $d + 1)? };
            }
            $n = $m.len();
        }
    }};
    (PACKED_UINT64, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => {{
        let (p, n) = make_u64s($a, &$m)?;
        $c = p;
        $n = n;
    }};
    (ONEOF, $c:expr, $m:expr, $n:expr, $f:ident, $a:expr, $d:expr) => { $c = $f($a, $m.as_ref(), $d)? };
}

include!("../generated/own.rs");
include!("../generated/make.rs");
