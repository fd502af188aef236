//! Walkers that visit every node of a tree: the owned tree read-only ([`Walk`] over [`NodeRef`]s),
//! the owned tree mutably ([`walk_mut`], offering each child slot as a [`Child`] to replace,
//! remove or edit), and [`crate::Tree`]'s views ([`Walk`] over [`views::Node`]s, no allocation per
//! node).
//!
//! The per-kind lists of child slots are generated (targets/rust/generated/walk.rs, one line a proto
//! field of every node kind, from pg_query.proto), so no field of any kind is left out: a child
//! is a node held by a Node field, by a node-typed message field (`InsertStmt.relation`), by the
//! oneof `A_Const.val`, or an element of a repeated Node or message field; an unset field or a
//! NULL list cell (a `Node` with nothing set) is no child. This file says once what each wire
//! kind's slot is, and the walkers.
//!
//! Order and depth: pre-order (a node, then its children's subtrees in field order, the order of
//! pg_query.proto), the root at depth 1, as pg_query.rs counts. The read-only walks keep their
//! stack on the heap: any depth. The mutable walk recurses once a level and stops, like the
//! converters, with `Error::Depth` beyond the C side's limit and `Error::Stack` where the
//! thread's stack would not hold the next level.
//!
//! [`Context`] is pg_query.rs's: whether a node sits in a SELECT, a DML or a DDL statement. What
//! each statement kind makes of the context of the nodes below it is data, stated once below
//! (STATEMENT_CONTEXTS); `filter` says whether a node sits in a WHERE clause (pg_query.rs's
//! fourth member of `nodes()`'s tuples).
#![allow(non_snake_case, clippy::all)]

use std::borrow::{Borrow, BorrowMut};

use crate::protobuf as pb;
use crate::{convert, views, Error, Result};

/// Where a node sits, as pg_query.rs says it: in a SELECT, in a statement that writes rows (DML)
/// or in one that changes the schema (DDL); `Call` is what pg_query.rs gives function calls.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Context {
    None,
    Select,
    DML,
    DDL,
    Call,
}

/// How a child is held by its parent.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Slot {
    /// A Node field or an element of a repeated Node field: the node is written with its kind
    /// as a wrapper in libpg_query's JSON (`{"SelectStmt": {...}}`).
    Node,
    /// A node-typed message field or an element of a repeated message field
    /// (`InsertStmt.relation`, `ParseResult.stmts`): no wrapper in the JSON.
    Message,
    /// A oneof member (`A_Const.val`): no wrapper in the JSON.
    Oneof,
}

// ---- What statements make of the context below them: pg_query.rs's classification, as data ----

/// Statement kinds whose children are in `Context::Select`, `Context::DML`, or that pass their
/// own context on (EXPLAIN's query is in the context of the statement it explains). Every other
/// kind whose name ends in "Stmt" (PostgreSQL's naming of its statement nodes) is DDL; every
/// other node passes its context on.
const STATEMENT_CONTEXTS: &[(&str, Option<Context>)] = &[
    ("SelectStmt", Some(Context::Select)),
    ("InsertStmt", Some(Context::DML)),
    ("UpdateStmt", Some(Context::DML)),
    ("DeleteStmt", Some(Context::DML)),
    ("MergeStmt", Some(Context::DML)),
    ("CopyStmt", Some(Context::DML)),
    ("RawStmt", None),
    ("ExplainStmt", None),
    ("PrepareStmt", None),
    ("ExecuteStmt", None),
    ("DeclareCursorStmt", None),
    ("CallStmt", None),
];

/// Fields of DML statements whose nodes are read, not written (UPDATE ... FROM, DELETE ... USING,
/// MERGE ... USING): `Context::Select`.
const SELECT_FIELDS: &[(&str, &str)] = &[("UpdateStmt", "from_clause"), ("DeleteStmt", "using_clause"), ("MergeStmt", "source_relation")];

/// The field whose nodes are filters (`filter` true below it, until the next statement).
const FILTER_FIELD: &str = "where_clause";

/// The context a node of kind `kind` gives its children; None: its own.
#[inline]
fn statement_context(kind: &str) -> Option<Context> {
    if !kind.ends_with("Stmt") {
        return None;
    }
    match STATEMENT_CONTEXTS.iter().find(|(k, _)| *k == kind) {
        Some((_, c)) => *c,
        None => Some(Context::DDL),
    }
}

/// Context and filter of a child in `field` of a node of kind `parent` (whose statement context is
/// `role`) that sits in `ctx` / `filter`.
#[inline]
fn child_state(parent: &str, role: Option<Context>, ctx: Context, filter: bool, field: &str) -> (Context, bool) {
    match role {
        None => (ctx, filter || field == FILTER_FIELD),
        Some(c) => {
            let c = if c == Context::DML && SELECT_FIELDS.iter().any(|&(k, f)| k == parent && f == field) { Context::Select } else { c };
            (c, field == FILTER_FIELD)
        }
    }
}

// ---- Read-only walks: the owned tree and the views share one walker ----

/// A node type the read-only walker can walk: NodeRef (owned tree) or views::Node.
pub trait Walkable<'a>: Copy {
    /// The message's name in pg_query.proto ("SelectStmt").
    fn kind(&self) -> &'static str;
    #[doc(hidden)]
    fn children(self, out: &mut impl FnMut(Self, &'static str, Slot));
}

impl<'a> Walkable<'a> for NodeRef<'a> {
    fn kind(&self) -> &'static str {
        NodeRef::kind(self)
    }
    fn children(self, out: &mut impl FnMut(Self, &'static str, Slot)) {
        ref_children(self, out)
    }
}

impl<'a> Walkable<'a> for views::Node<'a> {
    fn kind(&self) -> &'static str {
        views::Node::kind(self)
    }
    fn children(self, out: &mut impl FnMut(Self, &'static str, Slot)) {
        view_children(self, out)
    }
}

/// One node the walk reached.
#[derive(Clone, Copy, Debug)]
pub struct Visit<N> {
    pub node: N,
    /// 1 for the node the walk started from.
    pub depth: i32,
    pub context: Context,
    /// The node sits in a WHERE clause.
    pub filter: bool,
    /// The parent's field that holds it, as prost names it ("" for the start).
    pub field: &'static str,
    pub slot: Slot,
}

/// A pre-order walk of every node below (and including) a start node: an iterator of [`Visit`]s.
/// Its stack is one Vec, grown as needed: nothing is allocated per node.
pub struct Walk<'a, N: Walkable<'a>> {
    stack: Vec<Visit<N>>,
    _a: std::marker::PhantomData<&'a ()>,
}

impl<'a, N: Walkable<'a>> Walk<'a, N> {
    /// A walk from `root` at depth 1 in `Context::None`.
    pub fn new(root: N) -> Self {
        Self::at(root, 1, Context::None, false, Slot::Node)
    }

    pub(crate) fn at(root: N, depth: i32, context: Context, filter: bool, slot: Slot) -> Self {
        let mut stack = Vec::with_capacity(64);
        stack.push(Visit { node: root, depth, context, filter, field: "", slot });
        Walk { stack, _a: std::marker::PhantomData }
    }

    /// A walk of nothing.
    pub fn empty() -> Self {
        Walk { stack: Vec::new(), _a: std::marker::PhantomData }
    }
}

impl<'a, N: Walkable<'a>> Iterator for Walk<'a, N> {
    type Item = Visit<N>;

    fn next(&mut self) -> Option<Visit<N>> {
        let v = self.stack.pop()?;
        let kind = v.node.kind();
        let role = statement_context(kind);
        let mark = self.stack.len();
        let stack = &mut self.stack;
        v.node.children(&mut |node, field, slot| {
            let (context, filter) = child_state(kind, role, v.context, v.filter, field);
            stack.push(Visit { node, depth: v.depth + 1, context, filter, field, slot });
        });
        self.stack[mark..].reverse(); // the first field's child on top
        Some(v)
    }
}

/// Every node of the owned tree `root` is the start of, with its depth, context and filter flag.
pub fn walk(root: NodeRef<'_>) -> Walk<'_, NodeRef<'_>> {
    Walk::new(root)
}

/// Every node of a parse result, statement by statement: each `RawStmt` (depth 1, a message slot)
/// and everything below it. The walk the verification suite compares with the C walker's.
pub fn walk_parse_result(tree: &pb::ParseResult) -> Walk<'_, NodeRef<'_>> {
    let mut w = Walk::empty();
    for raw in tree.stmts.iter().rev() {
        w.stack.push(Visit { node: NodeRef::RawStmt(raw), depth: 1, context: Context::None, filter: false, field: "stmts", slot: Slot::Message });
    }
    w
}

/// The same walk over a Tree's views.
pub fn walk_views<'a>(tree: views::ParseResult<'a>) -> Walk<'a, views::Node<'a>> {
    let mut w = Walk::empty();
    let stmts = tree.stmts();
    for i in (0..stmts.len()).rev() {
        if let Some(raw) = stmts.get(i) {
            w.stack.push(Visit { node: views::Node::RawStmt(raw), depth: 1, context: Context::None, filter: false, field: "stmts", slot: Slot::Message });
        }
    }
    w
}

/// A child slot of the owned tree: one wire kind's line of targets/rust/generated/walk.rs.
macro_rules! ref_slot {
    (NODE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(n) = &$v {
            if let Some(e) = &n.node {
                $out(e.to_ref(), $field, Slot::Node);
            }
        }
    };
    (REPEATED_NODE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        for n in &$v {
            if let Some(e) = &n.node {
                $out(e.to_ref(), $field, Slot::Node);
            }
        }
    };
    (MESSAGE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(m) = &$v {
            $out(NodeRef::$t(m.borrow()), $field, Slot::Message);
        }
    };
    (REPEATED_MESSAGE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        for m in &$v {
            $out(NodeRef::$t(m), $field, Slot::Message);
        }
    };
    (ONEOF, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(n) = $f(&$v) {
            $out(n, $field, Slot::Oneof);
        }
    };
    ($scalar:ident, $($rest:tt)*) => {};
}

/// A child slot of a view: one wire kind's line of targets/rust/generated/walk.rs.
macro_rules! view_slot {
    (NODE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(n) = $v {
            $out(n, $field, Slot::Node);
        }
    };
    (REPEATED_NODE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        for n in $v.iter().flatten() {
            $out(n, $field, Slot::Node);
        }
    };
    (MESSAGE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(m) = $v {
            $out(views::Node::$t(m), $field, Slot::Message);
        }
    };
    (REPEATED_MESSAGE, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        for m in $v.iter() {
            $out(views::Node::$t(m), $field, Slot::Message);
        }
    };
    (ONEOF, $v:expr, $field:literal, $t:ident, $f:ident, $out:expr) => {
        if let Some(n) = $f($v) {
            $out(n, $field, Slot::Oneof);
        }
    };
    ($scalar:ident, $($rest:tt)*) => {};
}

// ---- The mutable walk ----

/// One child slot, offered to [`walk_mut`]'s callback: the node it holds (edit it in place through
/// [`Child::node`]), where it sits, and what to do with the slot: [`Child::replace`],
/// [`Child::remove`], [`Child::skip_children`]. The walker applies the decision when the callback
/// returns, then walks below what the slot holds then.
pub struct Child<'c> {
    node: NodeMut<'c>,
    /// 1 for a statement (the node a RawStmt holds).
    pub depth: i32,
    pub context: Context,
    pub filter: bool,
    /// The parent's field ("where_clause"); "stmt" for a statement.
    pub field: &'static str,
    /// The parent's kind ("SelectStmt"); "RawStmt" for a statement.
    pub parent: &'static str,
    pub slot: Slot,
    replace: Option<Box<pb::node::Node>>, // boxed: a Child is on the stack once a level
    remove: bool,
    descend: bool,
}

impl<'c> Child<'c> {
    /// The node, to read or edit in place.
    pub fn node(&mut self) -> &mut NodeMut<'c> {
        &mut self.node
    }

    /// The node's kind ("RangeVar").
    pub fn kind(&self) -> &'static str {
        self.node.kind()
    }

    /// Puts `node` in the slot instead. A Node slot takes any kind, a message slot
    /// (`InsertStmt.relation`) only its own kind, a oneof its members' kinds: anything else ends
    /// the walk with `Error::Argument`, the slot left as it was. The walk goes below the new node
    /// (unless [`Child::skip_children`]).
    pub fn replace(&mut self, node: pb::node::Node) {
        self.replace = Some(Box::new(node));
    }

    /// Takes the node out: a single field becomes unset, an element of a repeated field is
    /// removed (the elements after it move down). Takes precedence over replace.
    pub fn remove(&mut self) {
        self.remove = true;
    }

    /// Does not walk below this node.
    pub fn skip_children(&mut self) {
        self.descend = false;
    }
}

/// The callback of a mutable walk, as the generated lines pass it on.
pub(crate) struct MutWalk<'f> {
    f: &'f mut dyn FnMut(&mut Child<'_>) -> bool,
}

/// Offers every child slot of the owned tree to `f`, in pre-order, each one followed by the walk
/// below what it holds after `f`'s decision; the statements themselves first (a statement slot
/// is `RawStmt.stmt`: replace it, or remove it to leave the RawStmt empty). `f` returns true to
/// stop (its decision on that slot is still applied). Ok(true) when stopped.
pub fn walk_mut(tree: &mut pb::ParseResult, f: &mut dyn FnMut(&mut Child<'_>) -> bool) -> Result<bool> {
    let mut w = MutWalk { f };
    for raw in tree.stmts.iter_mut() {
        if let Some(n) = MsgField::<pb::Node>::get(&mut raw.stmt) {
            let (remove, stop) = visit_slot(&mut w, n, "RawStmt", "stmt", Slot::Node, 0, Context::None, false)?;
            if remove {
                raw.stmt = None;
            }
            if stop {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// What a slot can be asked: the node it holds, and to hold another.
pub(crate) trait SlotTarget {
    fn target(&mut self) -> Option<NodeMut<'_>>;
    fn replace(&mut self, n: pb::node::Node) -> std::result::Result<(), pb::node::Node>;
}

impl SlotTarget for pb::Node {
    fn target(&mut self) -> Option<NodeMut<'_>> {
        self.node.as_mut().map(|e| e.to_mut())
    }
    fn replace(&mut self, n: pb::node::Node) -> std::result::Result<(), pb::node::Node> {
        self.node = Some(n);
        Ok(())
    }
}

impl<T: NodeKind> SlotTarget for T {
    fn target(&mut self) -> Option<NodeMut<'_>> {
        Some(self.as_node_mut())
    }
    fn replace(&mut self, n: pb::node::Node) -> std::result::Result<(), pb::node::Node> {
        *self = T::from_enum(n)?;
        Ok(())
    }
}

/// A single message or Node field, boxed by prost or not.
pub(crate) trait MsgField<T> {
    fn get(&mut self) -> Option<&mut T>;
}
impl<T> MsgField<T> for Option<T> {
    fn get(&mut self) -> Option<&mut T> {
        self.as_mut()
    }
}
impl<T> MsgField<T> for Option<Box<T>> {
    fn get(&mut self) -> Option<&mut T> {
        self.as_deref_mut()
    }
}

/// A value moved between prost's boxed and unboxed places (a oneof variant, a field).
pub(crate) trait Rebox<U> {
    fn rebox(self) -> U;
}
impl<T> Rebox<T> for T {
    fn rebox(self) -> T {
        self
    }
}
impl<T> Rebox<T> for Box<T> {
    fn rebox(self) -> T {
        *self
    }
}
impl<T> Rebox<Box<T>> for T {
    fn rebox(self) -> Box<T> {
        Box::new(self)
    }
}

/// Offers one slot (of field `field` of a `parent` at `depth`) to the callback, applies its
/// decision, walks below. Returns (remove the slot, stop). Never inlined: the one frame a level
/// that holds a Child.
#[inline(never)]
fn visit_slot<S: SlotTarget + ?Sized>(
    w: &mut MutWalk<'_>,
    s: &mut S,
    parent: &'static str,
    field: &'static str,
    slot: Slot,
    depth: u32,
    ctx: Context,
    filter: bool,
) -> Result<(bool, bool)> {
    let node = match s.target() {
        Some(n) => n,
        None => return Ok((false, false)), // a NULL cell: no child
    };
    let (context, filter) = child_state(parent, statement_context(parent), ctx, filter, field);
    let mut child = Child { node, depth: depth as i32 + 1, context, filter, field, parent, slot, replace: None, remove: false, descend: true };
    let stop = (w.f)(&mut child);
    let Child { replace, remove, descend, .. } = child;
    if remove {
        return Ok((true, stop));
    }
    if let Some(r) = replace {
        if let Err(other) = s.replace(*r) {
            return Err(Error::Argument { message: format!("{}.{} does not take a {} node", parent, field, other.to_ref().kind()) });
        }
    }
    if stop {
        return Ok((false, true));
    }
    if descend {
        if let Some(n) = s.target() {
            convert::enter(depth + 1)?;
            if mut_children(n, w, depth + 1, context, filter)? {
                return Ok((false, true));
            }
        }
    }
    Ok((false, false))
}

/// A child slot of the mutable walk: one wire kind's line of targets/rust/generated/walk.rs.
macro_rules! mut_slot {
    (NODE, $v:expr, $field:literal, $t:ident, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        mut_slot!(@single $v, pb::Node, $field, Slot::Node, $w, $kind, $d, $ctx, $fl)
    };
    (MESSAGE, $v:expr, $field:literal, $t:ident, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        mut_slot!(@single $v, pb::$t, $field, Slot::Message, $w, $kind, $d, $ctx, $fl)
    };
    (@single $v:expr, $ty:ty, $field:literal, $slot:expr, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        if let Some(m) = MsgField::<$ty>::get(&mut $v) {
            let (remove, stop) = visit_slot($w, m, $kind, $field, $slot, $d, $ctx, $fl)?;
            if remove {
                $v = None;
            }
            if stop {
                return Ok(true);
            }
        }
    };
    (ONEOF, $v:expr, $field:literal, $t:ident, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        let (remove, stop) = visit_slot($w, &mut $v, $kind, $field, Slot::Oneof, $d, $ctx, $fl)?;
        if remove {
            $v = None;
        }
        if stop {
            return Ok(true);
        }
    };
    (REPEATED_NODE, $v:expr, $field:literal, $t:ident, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        mut_slot!(@list $v, $field, Slot::Node, $w, $kind, $d, $ctx, $fl)
    };
    (REPEATED_MESSAGE, $v:expr, $field:literal, $t:ident, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {
        mut_slot!(@list $v, $field, Slot::Message, $w, $kind, $d, $ctx, $fl)
    };
    (@list $v:expr, $field:literal, $slot:expr, $w:expr, $kind:expr, $d:expr, $ctx:expr, $fl:expr) => {{
        let mut i = 0;
        while i < $v.len() {
            let (remove, stop) = visit_slot($w, &mut $v[i], $kind, $field, $slot, $d, $ctx, $fl)?;
            if remove {
                $v.remove(i);
            } else {
                i += 1;
            }
            if stop {
                return Ok(true);
            }
        }
    }};
    ($scalar:ident, $($rest:tt)*) => {};
}

include!("../generated/walk.rs");
