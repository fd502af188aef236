//! Typed, borrowed views of a [`crate::Tree`]: what reading a tree costs nothing for.
//!
//! Every message of `pg_query.proto` has a `Copy` view type of the same name as its prost type
//! (`views::SelectStmt`), with one accessor per field, named as prost names the field
//! (`where_clause()`): scalars and enums (as `i32`, like prost) by value, strings as `&str` into
//! the arena ("" when unset, as prost has it), a node as `Option<Node>`, a message as
//! `Option<View>`, repeated fields as [`Nodes`] / [`Messages`] over the C arrays, `u64` lists as
//! slices. [`Node`] is an enum over every node kind, with prost's variant names. `to_owned()` on
//! any view gives the owned prost value.
//!
//! Strings: PostgreSQL's parser, which pgbind runs with the UTF-8 encoding, verifies every string
//! it makes, so a string of a tree parsed from a `&str` is UTF-8; one that is not (impossible from
//! SQL text) reads as "\u{FFFD}" here, and `to_owned()` reports it as `Error::Utf8`.
#![allow(non_snake_case, clippy::all)]

use std::marker::PhantomData;

use crate::convert::{self, slice};
use crate::ffi;
use crate::protobuf as pb;
use crate::Result;

/// A view type over the C struct `C`.
pub trait View<'a>: Copy {
    type C;
    fn from_c(c: &'a Self::C) -> Self;
}

/// A repeated node field: the C array of node pointers (a NULL element is a NULL list cell).
#[derive(Clone, Copy)]
pub struct Nodes<'a> {
    cells: &'a [*mut ffi::pgbind_Node],
}

impl<'a> Nodes<'a> {
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    /// Element i: None when out of range or a NULL cell.
    pub fn get(&self, i: usize) -> Option<Node<'a>> {
        self.cells.get(i).and_then(|&p| Node::from_ptr(p))
    }
    /// Every element, None for a NULL cell (`SELECT DISTINCT a`'s distinctClause is one).
    pub fn iter(&self) -> impl Iterator<Item = Option<Node<'a>>> + 'a {
        self.cells.iter().map(|&p| Node::from_ptr(p))
    }
    /// The C array.
    pub fn as_slice(&self) -> &'a [*mut ffi::pgbind_Node] {
        self.cells
    }
}

/// A repeated message field: the C array of message pointers.
#[derive(Clone, Copy)]
pub struct Messages<'a, V: View<'a>> {
    cells: &'a [*mut V::C],
    _v: PhantomData<V>,
}

impl<'a, V: View<'a> + 'a> Messages<'a, V> {
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<V> {
        // SAFETY: the elements of a repeated message field are never NULL in a pgbind tree.
        self.cells.get(i).and_then(|&p| unsafe { p.as_ref() }).map(V::from_c)
    }
    pub fn iter(&self) -> impl Iterator<Item = V> + 'a {
        self.cells.iter().filter_map(|&p| unsafe { p.as_ref() }).map(V::from_c)
    }
}

#[inline(always)]
fn view_str<'a>(p: *const std::os::raw::c_char) -> &'a str {
    match convert::c_bytes(p) {
        None => "",
        Some(b) => std::str::from_utf8(b).unwrap_or("\u{FFFD}"),
    }
}

/// One accessor: `view!(WIRE, accessor, C member, C count member, value type)`.
macro_rules! view {
    (INT32, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> i32 { self.0.$c } };
    (UINT32, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> u32 { self.0.$c } };
    (INT64, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> i64 { self.0.$c } };
    (UINT64, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> u64 { self.0.$c } };
    (BOOL, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> bool { self.0.$c } };
    (DOUBLE, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> f64 { self.0.$c } };
    (ENUM, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> i32 { self.0.$c as i32 } };
    (STRING, $name:ident, $c:ident, $n:ident, $t:ident) => { pub fn $name(&self) -> &'a str { view_str(self.0.$c) } };
    (NODE, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> Option<Node<'a>> { Node::from_ptr(self.0.$c) }
    };
    (MESSAGE, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> Option<$t<'a>> { unsafe { self.0.$c.as_ref() }.map($t) }
    };
    (REPEATED_NODE, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> Nodes<'a> { Nodes { cells: slice(self.0.$c, self.0.$n) } }
    };
    (REPEATED_MESSAGE, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> Messages<'a, $t<'a>> { Messages { cells: slice(self.0.$c, self.0.$n), _v: PhantomData } }
    };
    (PACKED_UINT64, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> &'a [u64] { slice(self.0.$c, self.0.$n) }
    };
    (ONEOF, $name:ident, $c:ident, $n:ident, $t:ident) => {
        pub fn $name(&self) -> Option<$t<'a>> { $t::from_ptr(self.0.$c) }
    };
}

/// One field of a view's to_owned(): `own_view!(WIRE, view, accessor, C member)`. Strings are read
/// from the C member so that bytes that are not UTF-8 are an error, not U+FFFD.
macro_rules! own_view {
    (STRING, $v:expr, $name:ident, $c:ident, $d:expr) => { convert::own_string($v.0.$c)? };
    (NODE, $v:expr, $name:ident, $c:ident, $d:expr) => {
        match $v.$name() {
            None => None,
            Some(n) => {
                let mut b = Box::<pb::Node>::default();
                n.owned_into($d, &mut b)?;
                Some(convert::FromBox::from_box(b))
            }
        }
    };
    (MESSAGE, $v:expr, $name:ident, $c:ident, $d:expr) => { $v.$name().map(|n| n.owned_at($d + 1)).transpose()?.map(Into::into) };
    (ONEOF, $v:expr, $name:ident, $c:ident, $d:expr) => { $v.$name().map(|n| n.owned_at($d)).transpose()? };
    (REPEATED_NODE, $v:expr, $name:ident, $c:ident, $d:expr) => {{
        let cells = $v.$name();
        let mut out = Vec::with_capacity(cells.len());
        for (i, n) in cells.iter().enumerate() {
            out.push(pb::Node::default());
            if let Some(n) = n {
                n.owned_into($d, &mut out[i])?;
            }
        }
        out
    }};
    (REPEATED_MESSAGE, $v:expr, $name:ident, $c:ident, $d:expr) => {
        $v.$name().iter().map(|n| n.owned_at($d + 1)).collect::<Result<Vec<_>>>()?
    };
    (PACKED_UINT64, $v:expr, $name:ident, $c:ident, $d:expr) => { $v.$name().to_vec() };
    ($scalar:ident, $v:expr, $name:ident, $c:ident, $d:expr) => { $v.$name() };
}

include!("../generated/views.rs");
