/*
 * truncate.c -- pgbind_truncate(): the deparsed tree shortened to a limit, as libpg_query 18's
 * summary shortens it (its pg_query_summary_truncate), so that pgbind_summary's truncated_query
 * equals pg_query_summary's.
 *
 * The parts that may be written "..." are found by PostgreSQL's raw walker (raw_walk.h), each
 * kind's parts declared by schema/summary.txt's truncate: lines (node_rules.h): a
 * SELECT's target list, WHERE clause and VALUES lists, an UPDATE's SET list and WHERE clause, an
 * INSERT's column list, a CTE's query, the WHERE clause of DELETE, COPY, CREATE INDEX, CREATE
 * RULE and ON CONFLICT's inference, ON CONFLICT's SET list and WHERE clause. Each gets the depth at
 * which the walker met it (every node and list it descends into is a level) and the length of its
 * text, measured by deparsing a small statement holding only it, less that statement's own text
 * (the statements and the placeholders are schema/summary.txt's build_ lines, built here through
 * the descriptor tables, pgbind_reflect.h, so that this file names no node kind but the root).
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
#include "node_rules.h"
#include "raw_walk.h"

typedef struct {
	pgbind_NodeAction part; /* schema/summary.txt's truncate: PART */
	pgbind_Node *node;
	const pgbind_FieldDesc *field;
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
	const pgbind_RawForm *form; /* pgbind's tree */
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

static bool is_list(const pgbind_FieldDesc *f)
{
	return f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

/* Sets node's field f to value (a list of it when f is a list). false without value. */
static bool put(Trunc *t, pgbind_Node *node, const pgbind_FieldDesc *f, pgbind_Node *value)
{
	char *at = (char *)node + f->offset;
	if (!value)
		return false;
	if (!is_list(f)) {
		*(pgbind_Node **)at = value;
		return true;
	}
	pgbind_Node **one = list1(t, value);
	if (one) {
		*(pgbind_Node ***)at = one;
		*(size_t *)((char *)node + f->count_offset) = 1;
	}
	return one != NULL;
}

/* The build of this role for part (schema/summary.txt's build_measure_PART, build_mark_PART), or
 * NULL. */
static const pgbind_NodeBuild *build_for(pgbind_NodeBuildRole role, pgbind_NodeAction part)
{
	for (size_t i = 0; i < pgbind_node_build_count; i++)
		if (pgbind_node_builds[i].role == role && pgbind_node_builds[i].part == part)
			return &pgbind_node_builds[i];
	return NULL;
}

/* A new node as build b declares it, every field it does not set zero (as makeNode); a measure
 * build's part field gets the part (items, n in a list field, else one). NULL when out of memory. */
static pgbind_Node *build(Trunc *t, const pgbind_NodeBuild *b, pgbind_Node **items, size_t n, pgbind_Node *one)
{
	const pgbind_MessageDesc *m = &pgbind_message_descs[b->message];
	pgbind_Node *node = node_new(t, (pgbind_NodeTag)m->tag, m->size);
	for (const pgbind_NodeBuildSet *s = b->sets; node && s->field >= 0; s++) {
		const pgbind_FieldDesc *f = &m->fields[s->field];
		char *at = (char *)node + f->offset;
		switch (s->how) {
		case PGBIND_NV_number: /* the generator allows an enum, a bool, an int32 */
			if (f->wire == PGBIND_WIRE_BOOL)
				*(bool *)at = s->number != 0;
			else if (f->wire == PGBIND_WIRE_ENUM)
				*(int *)at = s->number;
			else
				*(int32_t *)at = s->number;
			break;
		case PGBIND_NV_string:
			*(const char **)at = s->string;
			break;
		case PGBIND_NV_placeholder:
			*(const char **)at = MARK;
			break;
		case PGBIND_NV_part:
			if (is_list(f)) {
				*(pgbind_Node ***)at = items;
				*(size_t *)((char *)node + f->count_offset) = n;
			} else
				*(pgbind_Node **)at = one;
			break;
		case PGBIND_NV_build:
			if (!put(t, node, f, build(t, &pgbind_node_builds[s->number], NULL, 0, NULL)))
				return NULL;
			break;
		default:
			break;
		}
	}
	return node;
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

static void add_cut(Trunc *t, pgbind_NodeAction part, pgbind_Node *node, const pgbind_FieldDesc *field, int32_t length)
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
	t->cuts[t->n] = (Cut){part, node, field, t->depth, length, t->n};
	t->n++;
}

/* The length of a part's text: its measure_ build holding only it, deparsed, less that statement's
 * own text (libpg_query's measure: SELECT, SELECT WHERE, VALUES (), UPDATE x SET, INSERT INTO x ()
 * DEFAULT VALUES); a part without one (a CTE's query) by itself. -1 when the part is empty. */
static int32_t part_length(Trunc *t, pgbind_NodeAction part, pgbind_Node *node, const pgbind_FieldDesc *f)
{
	size_t n = 0;
	pgbind_Node **items = (pgbind_Node **)pgbind_field_list(node, f, &n);
	pgbind_Node *one = (pgbind_Node *)pgbind_field_node(node, f);
	if (is_list(f) ? !n : !one)
		return -1;
	const pgbind_NodeBuild *b = build_for(PGBIND_NB_measure, part);
	if (!b)
		return deparsed_length(t, one);
	return deparsed_length(t, build(t, b, items, n, one)) - b->less;
}

/* libpg_query's generate_possible_truncations: the parts of one node (its truncate: lines), then
 * the walker's descent. */
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
	if (n && n->tag == PGBIND_T_RawStmt)
		return pgbind_raw_offer(((pgbind_RawStmt *)n)->stmt, find_cuts, t);
	pgbind_NodeRules r = pgbind_node_rules(t->form, n);
	for (size_t i = 0; i < r.n; i++)
		if (r.lines[i]->rule == PGBIND_NR_truncate) {
			const pgbind_FieldDesc *f = pgbind_rule_field(r.lines[i]);
			add_cut(t, r.lines[i]->action, n, f, part_length(t, r.lines[i]->action, n, f));
		}
	if (!pgbind_raw_walked(t->form, item))
		return false;
	int32_t depth = t->depth++;
	bool stopped = pgbind_raw_children(t->form, item, find_cuts, t);
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

/* Writes the placeholder in place of the part: its mark_ build (a list of it in a list): a
 * placeholder target, a list of one placeholder column for VALUES, a placeholder column, a CTE
 * query SELECT WHERE placeholder. */
static void cut(Trunc *t, const Cut *c)
{
	const pgbind_NodeBuild *b = build_for(PGBIND_NB_mark, c->part);
	if (b)
		put(t, c->node, c->field, build(t, b, NULL, 0, NULL));
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
	PGBIND_OTHER_MAJOR(options, pgbind_major_truncate(tree, max_length, options, arena, status));
	if (!tree || !arena || max_length < 0) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_truncate: %s",
					max_length < 0 ? "max_length must not be negative" : "tree and arena are required");
		return NULL;
	}
	Trunc t = {tree->version, options, arena, status, NULL, 0, 0, 0, false, pgbind_raw_form(false)};
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
