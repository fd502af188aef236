/*
 * truncate.c -- pgbind_truncate(): the deparsed tree shortened to a limit, as libpg_query 18's
 * summary shortens it (its pg_query_summary_truncate), so that pgbind_summary's truncated_query
 * equals pg_query_summary's.
 *
 * The parts that may be written "..." are found by PostgreSQL's raw walker (raw_walk.h): a
 * SELECT's target list, WHERE clause and VALUES lists, an UPDATE's SET list and WHERE clause, an
 * INSERT's column list, a CTE's query, the WHERE clause of DELETE, COPY, CREATE INDEX, CREATE
 * RULE and ON CONFLICT's inference, ON CONFLICT's SET list and WHERE clause. Each gets the depth at
 * which the walker met it (every node and list it descends into is a level) and the length of its
 * text, measured by deparsing a small statement holding only it, less that statement's own text.
 * Parts of 3 characters or fewer are left. The parts are taken deepest first, then longest (ties in
 * the order met), and replaced, one more each time, by a placeholder the deparser writes "\"…\""
 * and the text then "...", until the text fits. Otherwise it is cut to max_length - 3 characters
 * (counted as PostgreSQL counts them: an incomplete last character is its encoding error).
 * All of it works on a copy of the tree, so the caller's tree is never written. Entry point:
 * pgbind_truncate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "raw_walk.h"

typedef enum { CUT_TARGETS, CUT_WHERE, CUT_VALUES, CUT_COLS, CUT_CTE } Part;

typedef struct {
	Part part;
	pgbind_Node *node;
	int32_t depth, length;
	size_t order;
} Cut;

typedef struct {
	int32_t version;
	const pgbind_Options *options;
	pgbind_Arena *arena;
	pgbind_Status *status;
	Cut *cuts;
	size_t n, cap;
	int32_t depth;
	bool failed;
} Trunc;

static const char MARK[] = "\xe2\x80\xa6"; /* "…" */

static void *node_new(Trunc *t, pgbind_NodeTag tag, size_t size)
{
	pgbind_Node *n = t->failed ? NULL : pgbind_Arena_Malloc(t->arena, size);
	if (!n) {
		if (!t->failed)
			pgbind_fail(t->status, PGBIND_ERROR_NOMEM, "out of memory");
		t->failed = true;
		return NULL;
	}
	memset(n, 0, size);
	n->tag = tag;
	return n;
}

static pgbind_Node **list1(Trunc *t, void *node)
{
	pgbind_Node **items = node ? pgbind_Arena_Malloc(t->arena, sizeof *items) : NULL;
	if (!items) {
		if (!t->failed)
			pgbind_fail(t->status, PGBIND_ERROR_NOMEM, "out of memory");
		t->failed = true;
		return NULL;
	}
	items[0] = node;
	return items;
}

static pgbind_Node *mark_column(Trunc *t)
{
	pgbind_ColumnRef *c = node_new(t, PGBIND_T_ColumnRef, sizeof *c);
	pgbind_String *s = node_new(t, PGBIND_T_String, sizeof *s);
	if (!c || !s)
		return NULL;
	s->sval = MARK;
	c->fields = list1(t, s);
	c->n_fields = 1;
	return (pgbind_Node *)c;
}

static pgbind_Node *mark_target(Trunc *t)
{
	pgbind_ResTarget *r = node_new(t, PGBIND_T_ResTarget, sizeof *r);
	if (r) {
		r->name = MARK;
		r->val = mark_column(t);
	}
	return (pgbind_Node *)r;
}

static pgbind_SelectStmt *select_of(Trunc *t, pgbind_Node **targets, size_t n_targets, pgbind_Node *where,
									pgbind_Node **values, size_t n_values)
{
	pgbind_SelectStmt *s = node_new(t, PGBIND_T_SelectStmt, sizeof *s);
	if (s) {
		s->targetList = targets;
		s->n_targetList = n_targets;
		s->whereClause = where;
		s->valuesLists = values;
		s->n_valuesLists = n_values;
		s->limitOption = PGBIND_LIMIT_OPTION_DEFAULT;
		s->op = PGBIND_SETOP_NONE;
	}
	return s;
}

/* The relation x of the statements that measure SET and column lists. */
static pgbind_RangeVar *relation_x(Trunc *t)
{
	pgbind_RangeVar *v = node_new(t, PGBIND_T_RangeVar, sizeof *v);
	if (v) {
		v->relname = "x";
		v->inh = true;
		v->relpersistence = "p";
	}
	return v;
}

/* The length of stmt deparsed alone. When the deparser cannot write it, the truncation fails, as
 * libpg_query 18's does (its deparser refuses a SELECT whose WHERE is CURRENT OF: so UPDATE ...
 * WHERE CURRENT OF c has no truncated query there, nor here). */
static int32_t deparsed_length(Trunc *t, void *stmt)
{
	pgbind_RawStmt *raw = node_new(t, PGBIND_T_RawStmt, sizeof *raw);
	if (!raw || !stmt)
		return -1;
	raw->stmt = stmt;
	raw->stmt_location = -1;
	pgbind_ParseResult one = {t->version, 1, &raw};
	const char *sql = pgbind_deparse(&one, t->options, t->arena, t->status);
	t->failed = t->failed || !sql;
	return sql ? (int32_t)strlen(sql) : -1;
}

static void add_cut(Trunc *t, Part part, pgbind_Node *node, int32_t length)
{
	if (length <= 3 || t->failed)
		return; /* it would not get shorter */
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		Cut *cuts = realloc(t->cuts, cap * sizeof *cuts);
		if (!cuts) {
			pgbind_fail(t->status, PGBIND_ERROR_NOMEM, "out of memory");
			t->failed = true;
			return;
		}
		t->cuts = cuts;
		t->cap = cap;
	}
	t->cuts[t->n] = (Cut){part, node, t->depth, length, t->n};
	t->n++;
}

static void add_where(Trunc *t, pgbind_Node *node, pgbind_Node *where)
{
	if (where)
		add_cut(t, CUT_WHERE, node, deparsed_length(t, select_of(t, NULL, 0, where, NULL, 0)) - 13); /* SELECT WHERE */
}

static void add_set_list(Trunc *t, pgbind_Node *node, pgbind_Node **targets, size_t n)
{
	pgbind_UpdateStmt *u = n ? node_new(t, PGBIND_T_UpdateStmt, sizeof *u) : NULL;
	if (!u)
		return;
	u->relation = relation_x(t);
	u->targetList = targets;
	u->n_targetList = n;
	add_cut(t, CUT_TARGETS, node, deparsed_length(t, u) - 13); /* UPDATE x SET */
}

/* libpg_query's generate_possible_truncations: the parts of one node, then the walker's descent. */
static bool find_cuts(pgbind_RawItem item, void *ctx)
{
	Trunc *t = ctx;
	if (!t->failed && pgbind_stack_low()) {
		t->failed = true;
		pgbind_fail(t->status, PGBIND_ERROR_DEPTH, PGBIND_STACK_MESSAGE " (pgbind_truncate)");
	}
	if (t->failed)
		return true;
	pgbind_Node *n = (pgbind_Node *)item.node;
	switch (n ? n->tag : PGBIND_T_List) {
	case PGBIND_T_RawStmt:
		return pgbind_raw_offer(((pgbind_RawStmt *)n)->stmt, find_cuts, t);
	case PGBIND_T_SelectStmt: {
		pgbind_SelectStmt *s = (pgbind_SelectStmt *)n;
		if (s->n_targetList)
			add_cut(t, CUT_TARGETS, n,
					deparsed_length(t, select_of(t, s->targetList, s->n_targetList, NULL, NULL, 0)) - 7); /* SELECT */
		add_where(t, n, s->whereClause);
		if (s->n_valuesLists)
			add_cut(t, CUT_VALUES, n,
					deparsed_length(t, select_of(t, NULL, 0, NULL, s->valuesLists, s->n_valuesLists)) -
						9); /* VALUES () */
		break;
	}
	case PGBIND_T_InsertStmt: {
		pgbind_InsertStmt *s = (pgbind_InsertStmt *)n;
		pgbind_InsertStmt *x = s->n_cols ? node_new(t, PGBIND_T_InsertStmt, sizeof *x) : NULL;
		if (x) {
			x->relation = relation_x(t);
			x->cols = s->cols;
			x->n_cols = s->n_cols;
			x->override = PGBIND_OVERRIDING_USER_VALUE;          /* libpg_query's makeNode leaves 1 there */
			add_cut(t, CUT_COLS, n, deparsed_length(t, x) - 31); /* INSERT INTO x () DEFAULT VALUES */
		}
		break;
	}
	case PGBIND_T_UpdateStmt:
		add_set_list(t, n, ((pgbind_UpdateStmt *)n)->targetList, ((pgbind_UpdateStmt *)n)->n_targetList);
		add_where(t, n, ((pgbind_UpdateStmt *)n)->whereClause);
		break;
	case PGBIND_T_DeleteStmt:
		add_where(t, n, ((pgbind_DeleteStmt *)n)->whereClause);
		break;
	case PGBIND_T_CopyStmt:
		add_where(t, n, ((pgbind_CopyStmt *)n)->whereClause);
		break;
	case PGBIND_T_IndexStmt:
		add_where(t, n, ((pgbind_IndexStmt *)n)->whereClause);
		break;
	case PGBIND_T_RuleStmt:
		add_where(t, n, ((pgbind_RuleStmt *)n)->whereClause);
		break;
	case PGBIND_T_CommonTableExpr:
		if (((pgbind_CommonTableExpr *)n)->ctequery)
			add_cut(t, CUT_CTE, n, deparsed_length(t, ((pgbind_CommonTableExpr *)n)->ctequery));
		break;
	case PGBIND_T_InferClause:
		add_where(t, n, ((pgbind_InferClause *)n)->whereClause);
		break;
	case PGBIND_T_OnConflictClause:
		add_set_list(t, n, ((pgbind_OnConflictClause *)n)->targetList, ((pgbind_OnConflictClause *)n)->n_targetList);
		add_where(t, n, ((pgbind_OnConflictClause *)n)->whereClause);
		break;
	default:
		break;
	}
	if (!pgbind_raw_walked(item))
		return false;
	int32_t depth = t->depth++;
	bool stopped = pgbind_raw_children(item, find_cuts, t);
	t->depth = depth;
	return stopped;
}

static int cut_order(const void *pa, const void *pb)
{
	const Cut *a = pa, *b = pb;
	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	if (a->length != b->length)
		return a->length > b->length ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Writes the placeholder in place of the part. */
static void cut(Trunc *t, const Cut *c)
{
	pgbind_Node *n = c->node;
	pgbind_Node **one = c->part == CUT_TARGETS || c->part == CUT_COLS ? list1(t, mark_target(t)) : NULL;
	pgbind_Node *where = c->part == CUT_WHERE ? mark_column(t) : NULL;
	switch (c->part) {
	case CUT_TARGETS:
		if (n->tag == PGBIND_T_SelectStmt) {
			((pgbind_SelectStmt *)n)->targetList = one;
			((pgbind_SelectStmt *)n)->n_targetList = 1;
		} else if (n->tag == PGBIND_T_UpdateStmt) {
			((pgbind_UpdateStmt *)n)->targetList = one;
			((pgbind_UpdateStmt *)n)->n_targetList = 1;
		} else {
			((pgbind_OnConflictClause *)n)->targetList = one;
			((pgbind_OnConflictClause *)n)->n_targetList = 1;
		}
		break;
	case CUT_COLS:
		((pgbind_InsertStmt *)n)->cols = one;
		((pgbind_InsertStmt *)n)->n_cols = 1;
		break;
	case CUT_VALUES: {
		pgbind_List *l = node_new(t, PGBIND_T_List, sizeof *l);
		if (l) {
			l->items = list1(t, mark_column(t));
			l->n_items = 1;
			((pgbind_SelectStmt *)n)->valuesLists = list1(t, l);
			((pgbind_SelectStmt *)n)->n_valuesLists = 1;
		}
		break;
	}
	case CUT_CTE:
		((pgbind_CommonTableExpr *)n)->ctequery = (pgbind_Node *)select_of(t, NULL, 0, mark_column(t), NULL, 0);
		break;
	case CUT_WHERE:
		switch (n->tag) {
		case PGBIND_T_SelectStmt:
			((pgbind_SelectStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_UpdateStmt:
			((pgbind_UpdateStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_DeleteStmt:
			((pgbind_DeleteStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_CopyStmt:
			((pgbind_CopyStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_IndexStmt:
			((pgbind_IndexStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_RuleStmt:
			((pgbind_RuleStmt *)n)->whereClause = where;
			break;
		case PGBIND_T_InferClause:
			((pgbind_InferClause *)n)->whereClause = where;
			break;
		case PGBIND_T_OnConflictClause:
			((pgbind_OnConflictClause *)n)->whereClause = where;
			break;
		default:
			break;
		}
		break;
	}
}

/* Every pattern in s replaced by rep (no longer than it), left to right. */
static void replace_all(char *s, const char *pattern, const char *rep)
{
	size_t plen = strlen(pattern), rlen = strlen(rep);
	char *out = s;
	for (const char *in = s; *in;) {
		if (!strncmp(in, pattern, plen)) {
			memmove(out, rep, rlen);
			out += rlen;
			in += plen;
		} else
			*out++ = *in++;
	}
	*out = '\0';
}

/* The bytes of a UTF-8 character starting with c, as PostgreSQL's pg_mblen for UTF8. */
static size_t char_len(unsigned char c)
{
	return (c & 0x80) == 0 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
}

/* libpg_query's truncate_mbstr: s, if longer than max characters, cut to its first max - 3 (none
 * when max < 3) and "...". Its characters are counted as PostgreSQL's pg_mbstrlen counts them
 * (18.2 on, libpg_query 18.1's): a character whose first byte claims more bytes than are left
 * before the end is PostgreSQL's "invalid byte sequence" error, the bytes it has shown in hex
 * (PGBIND_ERROR_MALFORMED; offset: where the character starts in s). false then. */
static bool cut_characters(Trunc *t, char *s, int max)
{
	long n_chars = 0;
	for (size_t at = 0; s[at]; at += char_len((unsigned char)s[at]), n_chars++) {
		size_t len = char_len((unsigned char)s[at]), have = 1;
		while (have < len && s[at + have])
			have++;
		if (have < len) {
			char hex[3 * 5 + 1]; /* " 0x.." for each of at most 3 bytes */
			for (size_t i = 0; i < have; i++)
				snprintf(hex + 5 * i, sizeof hex - 5 * i, " 0x%02x", (unsigned char)s[at + i]);
			pgbind_fail(t->status, PGBIND_ERROR_MALFORMED, "invalid byte sequence for encoding \"UTF8\": %s", hex + 1);
			if (t->status)
				t->status->offset = at;
			return false;
		}
	}
	if (n_chars <= max)
		return true;
	size_t bytes = 0;
	for (long n = 0; n < (long)max - 3 && s[bytes]; n++)
		bytes += char_len((unsigned char)s[bytes]);
	memcpy(s + bytes, "...", 4);
	return true;
}

static char *deparse_copy(Trunc *t, const pgbind_ParseResult *copy)
{
	const char *sql = t->failed ? NULL : pgbind_deparse(copy, t->options, t->arena, t->status);
	size_t len = sql ? strlen(sql) : 0;
	char *out = sql ? pgbind_Arena_Malloc(t->arena, len + 4) : NULL; /* room for "..." */
	if (out)
		memcpy(out, sql, len + 1);
	else if (sql)
		pgbind_fail(t->status, PGBIND_ERROR_NOMEM, "out of memory");
	t->failed = !out;
	return out;
}

const char *pgbind_truncate(const pgbind_ParseResult *tree, int max_length, const pgbind_Options *options,
							pgbind_Arena *arena, pgbind_Status *status)
{
	if (!tree || !arena || max_length < 0) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_truncate: %s",
					max_length < 0 ? "max_length must not be negative" : "tree and arena are required");
		return NULL;
	}
	Trunc t = {tree->version, options, arena, status, NULL, 0, 0, 0, false};
	char *out = deparse_copy(&t, tree);
	if (!out || strlen(out) <= (size_t)max_length)
		return out;
	bool collides;
	pgbind_ParseResult *copy = pgbind_copy_replacing_lossy_empty(tree, "", arena, &collides, status);
	if (!copy)
		return NULL;
	find_cuts((pgbind_RawItem){NULL, (pgbind_Node *const *)copy->stmts, copy->n_stmts}, &t);
	if (t.n)
		qsort(t.cuts, t.n, sizeof *t.cuts, cut_order);
	bool fits = false;
	for (size_t i = 0; i < t.n && !t.failed && !fits; i++) {
		cut(&t, &t.cuts[i]);
		out = deparse_copy(&t, copy);
		if (!out)
			break;
		replace_all(out, "SELECT \"\xe2\x80\xa6\" AS \"\xe2\x80\xa6\"", "SELECT \"\xe2\x80\xa6\"");
		replace_all(out, "SELECT WHERE \"\xe2\x80\xa6\"", "\"\xe2\x80\xa6\"");
		replace_all(out, "\"\xe2\x80\xa6\"", "...");
		fits = strlen(out) <= (size_t)max_length;
	}
	free(t.cuts);
	if (t.failed)
		return NULL;
	return fits || cut_characters(&t, out, max_length) ? out : NULL;
}
