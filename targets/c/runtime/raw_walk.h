/*
 * raw_walk.h -- PostgreSQL's raw_expression_tree_walker over either form of a parse tree (raw_walk.c):
 * pgbind's tree, or PostgreSQL's own raw parse tree as libpg_query's parser returns it, for the
 * summary (summary.c: from the tree, and from SQL without building pgbind's tree) and its
 * truncation (truncate.c, pgbind's tree), which libpg_query computes with that walker: it descends
 * only into the node kinds and fields DML statements hold, in an order of its own
 * (schema/summary.txt's walk: lines). Both forms are read through the same generated lines: a
 * field's place in pgbind's struct (the descriptor tables) and in PostgreSQL's (its offsetof).
 */
#ifndef PGBIND_RAW_WALK_H
#define PGBIND_RAW_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "pgbind.h"

#include "node_rules.h"

#define PGBIND_RAW_MAX_FIELDS 16

/* A field the walker descends into, where each form holds it (copied from its line, so that a walk
 * reads the kind's record and the node only). */
typedef struct {
	uint32_t offset, count_offset; /* pgbind's struct: the member, and its count for a list */
	uint16_t c_offset;             /* PostgreSQL's struct */
	uint8_t c_how;                 /* PGBIND_CF_node or PGBIND_CF_list */
	uint8_t list : 1;              /* a list in pgbind's struct */
	uint8_t node : 1;              /* a node in pgbind's struct */
	uint8_t through : 1;           /* its elements are walked in their place (walk_each:) */
} pgbind_RawField;

/* What the walker and the summary know of a node kind, from its lines (raw_walk.c builds them
 * once; one for each kind, shared by both forms), what a walk reads first. */
typedef struct pgbind_RawKind {
	bool walked;      /* a kind the walker knows (it descends into it) */
	bool through;     /* a kind walked in place of itself (CaseWhen) */
	bool statement;   /* named in statement_types */
	bool filter_stop; /* its filter:stop line */
	uint8_t n;        /* the walker's fields, in its order */
	uint8_t n_acts;
	const pgbind_NodeRuleLine **acts;      /* its summary: and recursive: lines, in the file's order */
	const pgbind_NodeRuleLine *statements; /* its statements: line, or NULL */
	const char *name;
	pgbind_RawField fields[PGBIND_RAW_MAX_FIELDS];
	const pgbind_NodeRuleLine **lines; /* every line of the kind, in the file's order */
	size_t n_lines;
} pgbind_RawKind;

/* A form of tree: its tags' kinds and the tags of the nodes every form reads alike. */
typedef struct pgbind_RawForm {
	bool pg;                            /* PostgreSQL's nodes, else pgbind's */
	const pgbind_RawKind *const *kinds; /* by tag; NULL: a kind no line names */
	uint32_t limit;
	uint32_t list_tag, string_tag, a_star_tag, raw_stmt_tag;
} pgbind_RawForm;

extern const pgbind_RawKind pgbind_raw_no_kind;

/* pgbind's tree (postgres false) or PostgreSQL's raw parse tree (true); thread-safe. A node of
 * PostgreSQL's tree is handed around as a pgbind_Node pointer too, and read only through its form
 * (both begin with their tag, an int). */
const pgbind_RawForm *pgbind_raw_form(bool postgres);

static inline uint32_t pgbind_raw_tag(const pgbind_RawForm *form, const pgbind_Node *n)
{
	(void)form;
	return *(const uint32_t *)n; /* pgbind_Node.tag, Node.type */
}

/* What the rules say of node's kind (pgbind_raw_no_kind for a kind no line names). */
static inline const pgbind_RawKind *pgbind_raw_kind(const pgbind_RawForm *form, const pgbind_Node *n)
{
	uint32_t tag = pgbind_raw_tag(form, n);
	const pgbind_RawKind *k = tag < form->limit ? form->kinds[tag] : NULL;
	return k ? k : &pgbind_raw_no_kind;
}

/* What the walker hands its callback: a node, or a List (a repeated field, or a List node). */
typedef struct pgbind_RawItem {
	const pgbind_Node *node; /* NULL: the list items[0..n) */
	pgbind_Node *const *items;
	size_t n;
} pgbind_RawItem;

/* The callback: true stops the walk (and the walker returns true), as PostgreSQL's. */
typedef bool (*pgbind_RawFn)(pgbind_RawItem item, void *ctx);

/* fn(n) for a node n, false for NULL (the walker's WALK()). */
static inline bool pgbind_raw_offer(const pgbind_Node *n, pgbind_RawFn fn, void *ctx)
{
	return n && fn((pgbind_RawItem){n, NULL, 0}, ctx);
}

/* A PostgreSQL List: its length and cells (pointer-sized unions whose first member is the node
 * pointer), as pg_list.h lays them out (raw_walk.c checks the offsets against it). */
typedef struct {
	int32_t type, length, max_length;
	pgbind_Node *const *elements;
} pgbind_RawPgList;

static inline pgbind_Node *const *pgbind_raw_pg_list(const void *l, size_t *n)
{
	*n = l ? (size_t)((const pgbind_RawPgList *)l)->length : 0;
	return l ? ((const pgbind_RawPgList *)l)->elements : NULL;
}

/* The value of line l's field in node (l a line of node's kind; NULL l reads as absent): a node
 * (NULL for other fields), a list (items, n). */
static inline const pgbind_Node *pgbind_line_node(const pgbind_RawForm *form, const pgbind_Node *node,
												  const pgbind_NodeRuleLine *l)
{
	if (!l)
		return NULL;
	if (!form->pg)
		return pgbind_field_node(node, pgbind_rule_field(l));
	return l->c_how == PGBIND_CF_node ? *(const pgbind_Node *const *)((const char *)node + l->c_offset) : NULL;
}

static inline pgbind_Node *const *pgbind_line_list(const pgbind_RawForm *form, const pgbind_Node *node,
												   const pgbind_NodeRuleLine *l, size_t *n)
{
	*n = 0;
	if (!l)
		return NULL;
	if (!form->pg)
		return pgbind_field_list(node, pgbind_rule_field(l), n);
	return l->c_how == PGBIND_CF_list ? pgbind_raw_pg_list(*(const void *const *)((const char *)node + l->c_offset), n)
									  : NULL;
}

/* A List node's items (else NULL and 0). */
static inline pgbind_Node *const *pgbind_raw_list(const pgbind_RawForm *form, const pgbind_Node *node, size_t *n)
{
	*n = 0;
	if (!node || pgbind_raw_tag(form, node) != form->list_tag)
		return NULL;
	if (form->pg)
		return pgbind_raw_pg_list(node, n);
	const pgbind_List *l = (const pgbind_List *)node;
	*n = l->n_items;
	return l->items;
}

static inline bool pgbind_raw_fields(const pgbind_RawForm *form, const pgbind_Node *node, const pgbind_RawKind *k,
									 pgbind_RawFn fn, void *ctx)
{
	const char *base = (const char *)node;
	for (uint8_t i = 0; i < k->n; i++) {
		const pgbind_RawField *f = &k->fields[i];
		const pgbind_Node *one = NULL;
		pgbind_Node *const *items = NULL;
		size_t n = 0;
		if (form->pg) {
			const void *p = *(const void *const *)(base + f->c_offset);
			if (f->c_how == PGBIND_CF_list)
				items = pgbind_raw_pg_list(p, &n);
			else
				one = p;
		} else if (f->list) {
			n = *(const size_t *)(base + f->count_offset);
			items = *(pgbind_Node *const *const *)(base + f->offset);
		} else if (f->node) {
			one = *(const pgbind_Node *const *)(base + f->offset);
		}
		if (!n) { /* a node field, or NIL: the walker offers NULL, which no callback looks at */
			if (pgbind_raw_offer(one, fn, ctx))
				return true;
			continue;
		}
		if (!f->through) {
			if (fn((pgbind_RawItem){NULL, items, n}, ctx))
				return true;
			continue;
		}
		for (size_t j = 0; j < n; j++) /* CaseWhen: walked in place (it holds no list walked so) */
			if (items[j] && pgbind_raw_fields(form, items[j], pgbind_raw_kind(form, items[j]), fn, ctx))
				return true;
	}
	return false;
}

/* Calls fn on each child of item the walker visits, in its order (a list: each non-NULL
 * element). Returns true as soon as fn does. */
static inline bool pgbind_raw_children(const pgbind_RawForm *form, pgbind_RawItem item, pgbind_RawFn fn, void *ctx)
{
	if (item.node && pgbind_raw_tag(form, item.node) == form->list_tag) {
		size_t n;
		pgbind_Node *const *items = pgbind_raw_list(form, item.node, &n);
		item = (pgbind_RawItem){NULL, items, n};
	}
	if (!item.node) {
		for (size_t i = 0; i < item.n; i++)
			if (pgbind_raw_offer(item.items[i], fn, ctx))
				return true;
		return false;
	}
	return pgbind_raw_fields(form, item.node, pgbind_raw_kind(form, item.node), fn, ctx);
}

/* The walker's descent into node, of kind k (pgbind_raw_kind's): a List node's items, or the
 * fields of a kind it knows; true when fn stopped it. */
static inline bool pgbind_raw_descend(const pgbind_RawForm *form, const pgbind_Node *node, const pgbind_RawKind *k,
									  pgbind_RawFn fn, void *ctx)
{
	if (pgbind_raw_tag(form, node) == form->list_tag)
		return pgbind_raw_children(form, (pgbind_RawItem){node, NULL, 0}, fn, ctx);
	return k->walked && pgbind_raw_fields(form, node, k, fn, ctx);
}

/* Whether the walker descends into item (a list always). */
static inline bool pgbind_raw_walked(const pgbind_RawForm *form, pgbind_RawItem item)
{
	return !item.node || pgbind_raw_tag(form, item.node) == form->list_tag || pgbind_raw_kind(form, item.node)->walked;
}

/* The value nodes and root the summary reads by kind: a String's text (else NULL), whether node
 * is A_Star, a RawStmt's statement (else NULL). */
const char *pgbind_raw_sval(const pgbind_RawForm *form, const pgbind_Node *node);
bool pgbind_raw_is_a_star(const pgbind_RawForm *form, const pgbind_Node *node);
const pgbind_Node *pgbind_raw_root_stmt(const pgbind_RawForm *form, const pgbind_Node *node);

#endif
