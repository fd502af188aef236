/*
 * pgbind_walk.h -- walking and rewriting pgbind ASTs (targets/c/runtime/walk.c, targets/c/generated/pgNN/walk.inc.c).
 *
 * Two ways to walk, as in PostgreSQL:
 *
 *   - pgbind_walk_children() calls a callback on each direct child of one node, in field order.
 *     The callback decides whether and how to go deeper, usually by calling
 *     pgbind_walk_children() on the node it was given; returning true stops everything. This is
 *     PostgreSQL's raw_expression_tree_walker convention, and the way to keep context (the
 *     statement you are in, the CTE names in scope) on the C stack.
 *   - pgbind_walk() calls a callback on a node and on every node below it, in pre-order. It
 *     keeps its own stack (on the heap beyond 64 levels), so no tree is too deep for it.
 *
 * And two ways to rewrite: pgbind_mutate_children() offers each child slot of one node to a
 * callback, which may replace the child, clear the slot or remove a list element; pgbind_mutate()
 * does that for every slot of a whole tree. Replacements are type-checked: a slot declared as a
 * RangeVar (InsertStmt.relation) only takes a RangeVar, A_Const.val only a value node; anything
 * else is refused with PGBIND_ERROR_ARGUMENT and the slot is left as it was.
 *
 * "Child" means a node held by a Node field, a node-typed message field (RangeVar.alias), the
 * oneof A_Const.val, or an element of a repeated Node or message field. Empty slots (NULL
 * fields, NULL cells such as the one of SELECT DISTINCT) are not children and are never offered.
 * Message fields of types that are not node kinds (none in PostgreSQL 15's nodes) are walked
 * through: their node children count as children of the enclosing node.
 *
 * Trees must be acyclic, as every pgbind tree is; a node may be shared by several parents (it
 * is then visited once per parent). Walking allocates nothing from the tree's arena. pgbind_walk,
 * pgbind_mutate and the ParseResult variants keep their stack in a small buffer on the C stack
 * and, beyond 64 levels, in heap memory that they free before returning.
 *
 * Threads: the walker itself writes nothing to a tree in pgbind_walk* (several threads may walk
 * one tree at once if their callbacks do not write to it either); a mutation needs the tree to
 * itself. New nodes put into a tree should live in the tree's arena (pgbind_Arena_Malloc) or
 * outlive it.
 *
 * pgbind.h includes this header (at its end); including it on its own works too.
 */
#ifndef PGBIND_WALK_H
#define PGBIND_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbind_ast.h"
#include "pgbind.h" /* pgbind_Status, PGBIND_API; include guards make the cycle harmless */

#ifdef __cplusplus
extern "C" {
#endif

/* How a whole-tree walk or a mutation ended. */
typedef enum pgbind_WalkResult {
	PGBIND_WALK_DONE = 0,    /* every child was visited */
	PGBIND_WALK_STOPPED = 1, /* a callback returned true */
	PGBIND_WALK_FAILED = 2,  /* an error, described in status; the tree is as the callbacks left it,
							  * except that a refused replacement was not made */
} pgbind_WalkResult;

/* ---- Walking --------------------------------------------------------------------------------- */

/* A walk callback: return true to stop the walk, false to go on. */
typedef bool (*pgbind_WalkFn)(pgbind_Node *node, void *ctx);

/*
 * Calls fn(child, ctx) on each child of node in field order (the order of pg_query.proto, which
 * is PostgreSQL's field order): for a SelectStmt, the DISTINCT list, INTO, the target list,
 * FROM, WHERE, ..., WITH, then larg and rarg. Returns true as soon as fn returns true, false
 * when every child was visited. It does not go below the children: fn does that by calling
 * pgbind_walk_children() itself:
 *
 *     static bool find_sublink(pgbind_Node *node, void *ctx)
 *     {
 *         if (node->tag == PGBIND_T_SubLink)
 *             return true;
 *         return pgbind_walk_children(node, find_sublink, ctx);
 *     }
 *
 * node NULL, or a node of an unknown tag, has no children (returns false). Recursion through
 * fn is the caller's: trees from pgbind_parse are at most max_depth (default 10,000) deep; for
 * trees of any depth use pgbind_walk().
 */
PGBIND_API bool pgbind_walk_children(pgbind_Node *node, pgbind_WalkFn fn, void *ctx);

/*
 * Calls fn on root and then on every node below it, in pre-order (a node, then its children's
 * subtrees in field order). Stops when fn returns true: PGBIND_WALK_STOPPED. Iterative: any
 * depth works. Fails with PGBIND_ERROR_ARGUMENT when fn is NULL, PGBIND_ERROR_INVALID when it
 * meets a node whose tag is not a node kind (after calling fn on it), PGBIND_ERROR_NOMEM when
 * its stack cannot grow. root NULL: PGBIND_WALK_DONE without calling fn.
 */
PGBIND_API pgbind_WalkResult pgbind_walk(pgbind_Node *root, pgbind_WalkFn fn, void *ctx, pgbind_Status *status);

/* pgbind_walk over every statement of tree: fn is called on each RawStmt and everything below
 * it, statement by statement. Results and errors as for pgbind_walk; tree NULL: PGBIND_WALK_DONE. */
PGBIND_API pgbind_WalkResult pgbind_ParseResult_walk(pgbind_ParseResult *tree, pgbind_WalkFn fn, void *ctx,
													 pgbind_Status *status);

/* ---- Rewriting ------------------------------------------------------------------------------- */

/*
 * One child slot, offered to a mutate callback. The callback reads it and may change the first
 * three members; the walker applies the change when the callback returns:
 *
 *   node     assign another node to replace the child; it must be a node kind the slot accepts
 *            (see kind and oneof). NULL empties the slot: a single field becomes NULL; in a
 *            repeated Node field the element becomes a NULL cell (the list keeps its length; a
 *            NULL cell means something in some lists, e.g. SELECT DISTINCT's). A repeated message
 *            field (ParseResult.stmts) cannot hold NULL: use remove.
 *   remove   set to true to take the element out of its repeated field: the elements after it
 *            move down one place (O(n) per removal) and the count drops by one (an emptied
 *            field becomes n = 0, NULL). For a single field, remove is the same as node = NULL.
 *            Takes precedence over node.
 *   descend  pgbind_mutate() only: after the callback, the walk goes into child->node as the
 *            callback left it (the replacement, if any). Set to false to skip it, e.g. when the
 *            replacement contains the original node and would be rewritten again.
 *
 * The other members describe the slot and are read-only (changes are ignored). The walker
 * writes the slot only when the callback changed node or set remove, so a callback may also
 * edit its parent's fields directly (child->parent is a plain struct); but if it changes the very
 * list whose element it is being offered and edits that element too, the edit is refused.
 */
typedef struct pgbind_Child {
	pgbind_Node *node;   /* the child, never NULL on entry */
	bool remove;         /* false on entry */
	bool descend;        /* true on entry */
	pgbind_Node *parent; /* the node whose field holds the child; NULL for ParseResult.stmts */
	const char *field;   /* that field's AST member name, e.g. "whereClause", "targetList" */
	size_t index;        /* repeated fields: the element's current position; else 0 */
	bool repeated;       /* the slot is an element of a repeated field */
	pgbind_NodeTag kind; /* the one node kind the slot takes (RangeVar for InsertStmt.relation);
						  * PGBIND_T_Invalid when it takes any kind (a pgbind_Node * field) or,
						  * for a oneof, any of its members */
	int32_t oneof;       /* a oneof slot (A_Const.val): its index in pgbind_oneof_descs
						  * (pgbind_reflect.h); -1 otherwise */
} pgbind_Child;

/* A mutate callback: edit *child (see pgbind_Child); return true to stop after this slot (its
 * edit is still applied), false to go on. */
typedef bool (*pgbind_MutateFn)(pgbind_Child *child, void *ctx);

/*
 * Offers each child slot of node to fn, in field order, and applies fn's edits (see
 * pgbind_Child). Does not go below the children; a callback may, by calling
 * pgbind_mutate_children() on child->node (if that call fails, return true: the outer call then
 * returns PGBIND_WALK_STOPPED and status still describes the failure).
 *
 * Returns PGBIND_WALK_DONE, PGBIND_WALK_STOPPED when fn returned true, or PGBIND_WALK_FAILED
 * with PGBIND_ERROR_ARGUMENT in status when fn put a node in a slot that does not take it (a
 * String into RangeVar.alias, a tag that is not a node kind, NULL into a repeated message field)
 * -- that slot is left as it was and the walk ends there -- or when fn is NULL. node NULL, or a
 * node of an unknown tag, has no children: PGBIND_WALK_DONE.
 */
PGBIND_API pgbind_WalkResult pgbind_mutate_children(pgbind_Node *node, pgbind_MutateFn fn, void *ctx,
													pgbind_Status *status);

/*
 * Offers every child slot below root to fn: root's slots in field order, each one followed by
 * the walk below what it holds after fn's edit (unless fn cleared descend). Slots are thus seen
 * in pre-order, which mostly follows the SQL text (not always: a statement's WITH clause is its
 * last field). root itself is not offered (it has no slot: to replace a statement, start from
 * its RawStmt or use pgbind_ParseResult_mutate).
 * Iterative: any depth works. Results and errors as for pgbind_mutate_children, plus
 * PGBIND_ERROR_INVALID for a node whose tag is not a node kind (root included) and
 * PGBIND_ERROR_NOMEM when the walk's stack cannot grow. root NULL: PGBIND_WALK_DONE.
 */
PGBIND_API pgbind_WalkResult pgbind_mutate(pgbind_Node *root, pgbind_MutateFn fn, void *ctx, pgbind_Status *status);

/* pgbind_mutate over every statement of tree: fn is offered each element of tree->stmts (parent
 * NULL, field "stmts", kind RawStmt; remove drops a statement), each followed by every slot below
 * it. Results and errors as for pgbind_mutate; tree NULL: PGBIND_WALK_DONE. */
PGBIND_API pgbind_WalkResult pgbind_ParseResult_mutate(pgbind_ParseResult *tree, pgbind_MutateFn fn, void *ctx,
													   pgbind_Status *status);

#ifdef __cplusplus
}
#endif

#endif /* PGBIND_WALK_H */
