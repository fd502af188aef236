//! truncate.rs -- pg_query.rs's `truncate(max_length)`: the query deparsed, with its longest
//! parts shortened to "..." until it fits, deepest parts first, then longest; a hard cut with
//! "..." when that does not suffice.
//!
//! Which parts may be shortened is data (PARTS, pg_query.rs's choice): target lists, WHERE
//! clauses, VALUES lists, INSERT's column list, a CTE's query. Shortening works on child slots:
//! the walk offers each element of the part's field, the first is replaced by a placeholder that
//! deparses to `"…"` (then written "..."), the others removed. Each attempt starts from the
//! original tree and shortens the first k parts in one mutable walk; nodes are named by their
//! place in the original tree's pre-order walk.
use crate::pg_query::{Node, NodeEnum};
use crate::protobuf as pb;
use crate::walk;
use crate::Result;

/// How a part is written when shortened, and how its length is measured.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Part {
    /// SELECT's target list: `...`
    SelectTargets,
    /// UPDATE's or ON CONFLICT's SET list: `... = ...`
    SetTargets,
    /// A WHERE clause: `...`
    Where,
    /// VALUES (...)
    Values,
    /// INSERT's column list: `(...)`
    InsertCols,
    /// A CTE's query: `(...)`
    CteQuery,
}

/// (node kind, field, part): the parts pg_query.rs shortens.
const PARTS: &[(&str, &str, Part)] = &[
    ("SelectStmt", "target_list", Part::SelectTargets),
    ("SelectStmt", "where_clause", Part::Where),
    ("SelectStmt", "values_lists", Part::Values),
    ("UpdateStmt", "target_list", Part::SetTargets),
    ("UpdateStmt", "where_clause", Part::Where),
    ("DeleteStmt", "where_clause", Part::Where),
    ("CopyStmt", "where_clause", Part::Where),
    ("InsertStmt", "cols", Part::InsertCols),
    ("IndexStmt", "where_clause", Part::Where),
    ("RuleStmt", "where_clause", Part::Where),
    ("CommonTableExpr", "ctequery", Part::CteQuery),
    ("InferClause", "where_clause", Part::Where),
    ("OnConflictClause", "target_list", Part::SetTargets),
    ("OnConflictClause", "where_clause", Part::Where),
];

const MARK: &str = "…";

fn node(n: NodeEnum) -> Node {
    Node { node: Some(n) }
}

fn mark_column() -> NodeEnum {
    NodeEnum::ColumnRef(pb::ColumnRef { fields: vec![node(NodeEnum::String(pb::String { sval: MARK.into() }))], location: 0 })
}

fn mark_target() -> NodeEnum {
    NodeEnum::ResTarget(Box::new(pb::ResTarget { name: MARK.into(), val: Some(Box::new(node(mark_column()))), ..Default::default() }))
}

fn select(target_list: Vec<Node>, where_clause: Option<Node>, values_lists: Vec<Node>) -> NodeEnum {
    NodeEnum::SelectStmt(Box::new(pb::SelectStmt {
        target_list,
        where_clause: where_clause.map(Box::new),
        values_lists,
        limit_option: pb::LimitOption::Default as i32,
        op: pb::SetOperation::SetopNone as i32,
        ..Default::default()
    }))
}

fn relation_x() -> Option<pb::RangeVar> {
    Some(pb::RangeVar { relname: "x".into(), inh: true, relpersistence: "p".into(), ..Default::default() })
}

/// What replaces the first element of a shortened part.
fn placeholder(part: Part) -> NodeEnum {
    match part {
        Part::SelectTargets | Part::SetTargets | Part::InsertCols => mark_target(),
        Part::Where => mark_column(),
        Part::Values => NodeEnum::List(pb::List { items: vec![node(mark_column())] }),
        Part::CteQuery => select(vec![], Some(node(mark_column())), vec![]),
    }
}

/// The length of the part as deparsed: a statement holding only it, less the statement's own text.
fn part_len(part: Part, nodes: Vec<Node>) -> Result<usize> {
    let (stmt, fixed) = match part {
        Part::SelectTargets => (select(nodes, None, vec![]), "SELECT ".len()),
        Part::Values => (select(vec![], None, nodes), "SELECT ".len()),
        Part::Where => (select(vec![], nodes.into_iter().next(), vec![]), "SELECT WHERE ".len()),
        Part::SetTargets => (
            NodeEnum::UpdateStmt(Box::new(pb::UpdateStmt { relation: relation_x(), target_list: nodes, ..Default::default() })),
            "UPDATE x SET ".len(),
        ),
        Part::InsertCols => (
            NodeEnum::InsertStmt(Box::new(pb::InsertStmt {
                relation: relation_x(),
                cols: nodes,
                r#override: pb::OverridingKind::OverridingNotSet as i32,
                ..Default::default()
            })),
            "INSERT INTO x () DEFAULT VALUES".len(),
        ),
        Part::CteQuery => match nodes.into_iter().next().and_then(|n| n.node) {
            Some(n) => (n, 0),
            None => return Ok(0),
        },
    };
    Ok(crate::deparse(&crate::pg_query::single_statement(Node { node: Some(stmt) }))?.len().saturating_sub(fixed))
}

/// A part that may be shortened: the field `field` of the node at `index` of the pre-order walk.
struct Candidate {
    index: usize,
    /// the index of the field's first element
    first: usize,
    field: &'static str,
    part: Part,
    depth: i32,
    len: usize,
}

fn tidy(sql: String) -> String {
    sql.replace("SELECT WHERE \"…\"", "...").replace("\"…\"", "...").replace("SELECT ... AS ...", "SELECT ...")
}

/// The first `max_chars` characters of s.
fn first_chars(s: &str, max_chars: usize) -> &str {
    match s.char_indices().nth(max_chars) {
        None => s,
        Some((i, _)) => &s[..i],
    }
}

pub(crate) fn truncate(tree: &pb::ParseResult, max_length: usize) -> Result<String> {
    let mut output = crate::deparse(tree)?;
    if output.len() <= max_length {
        return Ok(output);
    }
    // The pre-order walk: each node's depth and field, its parent, the size of its subtree.
    let mut visits = Vec::new();
    for raw in &tree.stmts {
        if let Some(s) = raw.stmt.as_ref().and_then(|s| s.node.as_ref()) {
            visits.extend(walk::walk(s.to_ref()));
        }
    }
    let n = visits.len();
    let mut parent = vec![usize::MAX; n];
    let mut size = vec![1usize; n];
    let mut open: Vec<usize> = Vec::new();
    let close = |open: &mut Vec<usize>, size: &mut Vec<usize>| {
        let top = open.pop().unwrap();
        if let Some(&p) = open.last() {
            size[p] += size[top];
        }
    };
    for i in 0..n {
        while open.last().map_or(false, |&top| visits[top].depth >= visits[i].depth) {
            close(&mut open, &mut size);
        }
        parent[i] = open.last().copied().unwrap_or(usize::MAX);
        open.push(i);
    }
    while !open.is_empty() {
        close(&mut open, &mut size);
    }
    let mut candidates = Vec::new();
    for (i, v) in visits.iter().enumerate() {
        for &(kind, field, part) in PARTS {
            if v.node.kind() != kind {
                continue;
            }
            let children: Vec<usize> = (i + 1..i + size[i]).filter(|&j| parent[j] == i && visits[j].field == field).collect();
            let first = match children.first() {
                Some(&j) => j,
                None => continue,
            };
            let nodes = children.iter().map(|&j| Node { node: Some(visits[j].node.to_enum()) }).collect();
            let depth = if part == Part::CteQuery { v.depth + 1 } else { v.depth };
            // a part the deparser cannot write alone (WHERE CURRENT OF outside UPDATE and DELETE,
            // which breaks the deparse contract in a SELECT) is not shortened
            let len = match part_len(part, nodes) {
                Ok(len) => len,
                Err(_) => continue,
            };
            candidates.push(Candidate { index: i, first, field, part, depth, len });
        }
    }
    candidates.sort_by(|a, b| b.depth.cmp(&a.depth).then(b.len.cmp(&a.len)));

    for k in 1..=candidates.len() {
        let chosen = &candidates[..k];
        let mut work = tree.clone();
        let mut at = 0usize; // the offered child's index in the original pre-order walk
        let mut stack: Vec<usize> = Vec::new(); // original indices of the nodes above, by depth
        walk::walk_mut(&mut work, &mut |child| {
            let i = at;
            stack.truncate(child.depth as usize - 1);
            let p = stack.last().copied();
            stack.push(i);
            at += 1;
            if let Some(c) = p.and_then(|p| chosen.iter().find(|c| c.index == p && c.field == child.field)) {
                if i == c.first {
                    child.replace(placeholder(c.part));
                } else {
                    child.remove();
                }
                child.skip_children();
                at += size[i] - 1;
            }
            false
        })?;
        output = tidy(crate::deparse(&work)?);
        if output.len() <= max_length {
            return Ok(output);
        }
    }
    Ok(format!("{}...", first_chars(&output, max_length.saturating_sub(3))))
}
