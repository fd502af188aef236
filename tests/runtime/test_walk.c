/*
 * test_walk.c -- the walker and the mutator (targets/c/runtime/walk.c over targets/c/generated/pgNN/walk.inc.c) and the
 * two example programs.
 *
 * The expectations come from the descriptor tables (pgbind_reflect.h), which are generated from
 * the same view as the walker but read generically here: for every node kind, a node with every
 * child slot filled must have exactly the children the descriptors list, in field order, through
 * pgbind_walk_children, pgbind_mutate_children (with the slot's field, position and kind), and
 * must take replacements and removals where the descriptors say. The same comparison runs on
 * every node of every statement of the SQL files named on the command line. Then: stopping,
 * errors, the mutator's type checks, trees a million levels deep walked on a 256 KiB thread
 * stack, and the examples' output on known queries (rewritten SQL is compared with what
 * libpg_query deparses for the hand-written expected query, never with pasted text).
 *
 * Usage: test_walk [--examples DIR] [FILE.sql...]
 *   --examples DIR  run DIR/tables and DIR/rewrite (skipped, and said so, without it)
 * Ends with "N passed, M failed"; exits 1 when a check failed.
 */
#include "reader.h"
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_reflect.h"
#include "pgbind_walk.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"
#include "check_tree.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		printf("# out of memory\n");
		exit(2);
	}
	return p;
}

static void *arena_zalloc(size_t size)
{
	void *p = pgbind_Arena_Malloc(arena, size);
	if (!p) {
		printf("# arena out of memory\n");
		exit(2);
	}
	memset(p, 0, size);
	return p;
}

/* The tree as SQL, or the deparser's error message. */
static const char *deparse(pgbind_ParseResult *tree)
{
	static pgbind_Status st;
	const char *sql = pgbind_deparse(tree, NULL, arena, &st);
	return sql ? sql : st.message;
}

/* ---- slots: what the walker offers, and what the descriptors say it should ------------------- */

typedef struct Slot {
	const char *field;
	size_t index;
	bool repeated;
	uint32_t kind;
	int32_t oneof;
	pgbind_Node *node;
	pgbind_Node *parent;
} Slot;

typedef struct Slots {
	Slot *v;
	size_t n, cap;
} Slots;

static void slots_add(Slots *s, Slot slot)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = slot;
}

static void *get_ptr(const void *msg, uint32_t offset)
{
	void *p;
	memcpy(&p, (const char *)msg + offset, sizeof p);
	return p;
}

static size_t get_count(const void *msg, uint32_t offset)
{
	size_t n;
	memcpy(&n, (const char *)msg + offset, sizeof n);
	return n;
}

static void set_ptr(void *msg, uint32_t offset, void *p)
{
	memcpy((char *)msg + offset, &p, sizeof p);
}

static void set_count(void *msg, uint32_t offset, size_t n)
{
	memcpy((char *)msg + offset, &n, sizeof n);
}

static void *element(void *array, size_t i)
{
	void *p;
	memcpy(&p, (char *)array + i * sizeof(void *), sizeof p);
	return p;
}

/* The child slots of msg according to the descriptors, in field order; a message that is not a
 * node kind is walked through (its slots belong to `parent`). */
static void desc_slots(const pgbind_MessageDesc *d, void *msg, pgbind_Node *parent, Slots *out)
{
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF: {
			pgbind_Node *p = get_ptr(msg, f->offset);
			if (p)
				slots_add(out,
						  (Slot){f->name, 0, false, 0, f->wire == PGBIND_WIRE_ONEOF ? f->type_index : -1, p, parent});
			break;
		}
		case PGBIND_WIRE_MESSAGE: {
			void *p = get_ptr(msg, f->offset);
			const pgbind_MessageDesc *md = &pgbind_message_descs[f->type_index];
			if (p && md->tag)
				slots_add(out, (Slot){f->name, 0, false, md->tag, -1, p, parent});
			else if (p)
				desc_slots(md, p, parent, out);
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = get_count(msg, f->count_offset);
			void *array = get_ptr(msg, f->offset);
			const pgbind_MessageDesc *md =
				f->wire == PGBIND_WIRE_REPEATED_MESSAGE ? &pgbind_message_descs[f->type_index] : NULL;
			for (size_t k = 0; k < n; k++) {
				void *e = element(array, k);
				if (!e)
					continue;
				if (md && !md->tag)
					desc_slots(md, e, parent, out);
				else
					slots_add(out, (Slot){f->name, k, true, md ? md->tag : 0, -1, e, parent});
			}
			break;
		}
		default:
			break;
		}
	}
}

static void node_slots(pgbind_Node *node, Slots *out)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(node->tag);
	if (d)
		desc_slots(d, node, node, out);
}

/* Same nodes in the same order. */
static bool same_nodes(const Slots *a, const Slots *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].node != b->v[i].node)
			return false;
	return true;
}

/* Same slots: node, field, position, kind, oneof, parent. */
static bool same_slots(const Slots *a, const Slots *b)
{
	if (!same_nodes(a, b))
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const Slot *x = &a->v[i], *y = &b->v[i];
		if (strcmp(x->field, y->field) != 0 || x->index != y->index || x->repeated != y->repeated ||
			x->kind != y->kind || x->oneof != y->oneof || x->parent != y->parent)
			return false;
	}
	return true;
}

/* Walk callbacks that record what they are given. */
static bool record_node(pgbind_Node *node, void *ctx)
{
	slots_add(ctx, (Slot){.node = node});
	return false;
}

static bool record_slot(pgbind_Child *c, void *ctx)
{
	slots_add(ctx, (Slot){c->field, c->index, c->repeated, (uint32_t)c->kind, c->oneof, c->node, c->parent});
	return false;
}

/* ---- synthetic nodes: every kind, every slot filled ------------------------------------------ */

static void *new_message(const pgbind_MessageDesc *d)
{
	void *m = arena_zalloc(d->size);
	if (d->tag) {
		pgbind_NodeTag tag = (pgbind_NodeTag)d->tag;
		memcpy(m, &tag, sizeof tag);
	}
	return m;
}

static pgbind_Node *new_node(uint32_t tag)
{
	return new_message(pgbind_node_desc(tag));
}

/* A node a slot takes: its kind, its oneof's last member, or (any kind) an Integer. */
static pgbind_Node *fitting_node(uint32_t kind, int32_t oneof)
{
	if (kind)
		return new_node(kind);
	if (oneof >= 0) {
		const pgbind_OneofDesc *o = &pgbind_oneof_descs[oneof];
		return new_message(&pgbind_message_descs[o->members[o->n_members - 1].message_index]);
	}
	return new_node(PGBIND_T_Integer);
}

/* A node of kind tag whose every child slot holds a fresh node: Node fields a String, oneofs
 * their first member, message fields a message of their type, repeated Node fields
 * [String, NULL cell, Integer], repeated message fields two messages. */
static pgbind_Node *full_node(uint32_t tag)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(tag);
	pgbind_Node *n = new_message(d);
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
			set_ptr(n, f->offset, new_node(PGBIND_T_String));
			break;
		case PGBIND_WIRE_ONEOF: {
			const pgbind_OneofDesc *o = &pgbind_oneof_descs[f->type_index];
			set_ptr(n, f->offset, new_message(&pgbind_message_descs[o->members[0].message_index]));
			break;
		}
		case PGBIND_WIRE_MESSAGE:
			set_ptr(n, f->offset, new_message(&pgbind_message_descs[f->type_index]));
			break;
		case PGBIND_WIRE_REPEATED_NODE: {
			void **array = arena_zalloc(3 * sizeof *array);
			array[0] = new_node(PGBIND_T_String);
			array[2] = new_node(PGBIND_T_Integer);
			set_ptr(n, f->offset, array);
			set_count(n, f->count_offset, 3);
			break;
		}
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			void **array = arena_zalloc(2 * sizeof *array);
			array[0] = new_message(&pgbind_message_descs[f->type_index]);
			array[1] = new_message(&pgbind_message_descs[f->type_index]);
			set_ptr(n, f->offset, array);
			set_count(n, f->count_offset, 2);
			break;
		}
		default:
			break;
		}
	}
	return n;
}

/* Replaces every child by a fitting new node; records the replacements. */
static bool replace_all(pgbind_Child *c, void *ctx)
{
	c->node = fitting_node((uint32_t)c->kind, c->oneof);
	slots_add(ctx, (Slot){c->field, c->index, c->repeated, (uint32_t)c->kind, c->oneof, c->node, c->parent});
	return false;
}

static bool remove_all(pgbind_Child *c, void *ctx)
{
	(void)ctx;
	c->remove = true;
	return false;
}

/* After remove_all: single slots NULL, repeated Node fields down to their NULL cell, repeated
 * message fields empty. */
static bool all_removed(pgbind_Node *n)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
		case PGBIND_WIRE_MESSAGE:
			if (get_ptr(n, f->offset))
				return false;
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			if (get_count(n, f->count_offset) != 1 || element(get_ptr(n, f->offset), 0) != NULL)
				return false;
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			if (get_count(n, f->count_offset) != 0 || get_ptr(n, f->offset) != NULL)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* Puts a wrong node into the one slot named `field` (the first offered with that name). */
typedef struct WrongInto {
	const char *field;
	pgbind_Node *wrong;
	bool offered;
} WrongInto;

static bool put_wrong(pgbind_Child *c, void *ctx)
{
	WrongInto *wi = ctx;
	if (!wi->offered && strcmp(c->field, wi->field) == 0) {
		wi->offered = true;
		c->node = wi->wrong;
	}
	return false;
}

static void test_every_kind(void)
{
	int kinds = 0, message_slots = 0;
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(tag);
		if (!d)
			continue;
		kinds++;

		/* walk_children: the descriptors' children, in order */
		pgbind_Node *n = full_node(tag);
		Slots want = {0}, got = {0};
		node_slots(n, &want);
		bool stopped = pgbind_walk_children(n, record_node, &got);
		CHECK(!stopped && same_nodes(&want, &got),
			  "%s: pgbind_walk_children visits %zu children, the descriptors list %zu", d->name, got.n, want.n);

		/* mutate_children: the same slots, described (field, index, kind, oneof, parent) */
		got.n = 0;
		pgbind_Status st = {0};
		pgbind_WalkResult r = pgbind_mutate_children(n, record_slot, &got, &st);
		CHECK(r == PGBIND_WALK_DONE && same_slots(&want, &got),
			  "%s: pgbind_mutate_children offers the slots the descriptors list (%d, %zu of %zu)", d->name, (int)r,
			  got.n, want.n);

		/* every slot takes a fitting replacement, stored where it belongs */
		Slots replaced = {0};
		r = pgbind_mutate_children(n, replace_all, &replaced, &st);
		Slots after = {0};
		node_slots(n, &after);
		CHECK(r == PGBIND_WALK_DONE && same_slots(&replaced, &after) && replaced.n == want.n,
			  "%s: every child replaced in place (%d: %s)", d->name, (int)r, st.message);

		/* removing every child: single slots empty, lists closed up (the NULL cell stays) */
		r = pgbind_mutate_children(n, remove_all, NULL, &st);
		CHECK(r == PGBIND_WALK_DONE && all_removed(n), "%s: every child removed (%d: %s)", d->name, (int)r, st.message);

		/* a typed slot refuses another kind and keeps its node */
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const pgbind_FieldDesc *f = &d->fields[i];
			if (f->wire != PGBIND_WIRE_MESSAGE || !pgbind_message_descs[f->type_index].tag)
				continue;
			message_slots++;
			pgbind_Node *m = full_node(tag);
			void *before = get_ptr(m, f->offset);
			uint32_t slot_kind = pgbind_message_descs[f->type_index].tag;
			WrongInto wi = {f->name, new_node(slot_kind == PGBIND_T_String ? PGBIND_T_Integer : PGBIND_T_String),
							false};
			pgbind_Status wst = {0};
			r = pgbind_mutate_children(m, put_wrong, &wi, &wst);
			CHECK(r == PGBIND_WALK_FAILED && wst.code == PGBIND_ERROR_ARGUMENT && get_ptr(m, f->offset) == before &&
					  strstr(wst.message, f->name) != NULL,
				  "%s.%s refuses a node of another kind (%d: %s)", d->name, f->name, (int)r, wst.message);
		}
		free(want.v);
		free(got.v);
		free(replaced.v);
		free(after.v);
	}
	CHECK(kinds == PGBIND_NODE_KIND_COUNT, "%d node kinds tried, %d exist", kinds, PGBIND_NODE_KIND_COUNT);
	printf("# every kind: %d node kinds, %d typed message slots\n", kinds, message_slots);
}

/* ---- the corpus: every node of every statement ----------------------------------------------- */

typedef struct Corpus {
	long statements, nodes, skipped;
	bool seen[PGBIND_NODE_TAG_LIMIT];
} Corpus;

/* Descriptor pre-order of the tree below node (recursive: corpus trees are shallow). */
static void desc_preorder(pgbind_Node *node, Slots *out)
{
	slots_add(out, (Slot){.node = node});
	Slots kids = {0};
	node_slots(node, &kids);
	for (size_t i = 0; i < kids.n; i++)
		desc_preorder(kids.v[i].node, out);
	free(kids.v);
}

static bool copy_child(pgbind_Child *c, void *ctx)
{
	(void)ctx;
	const pgbind_MessageDesc *d = pgbind_node_desc(c->node->tag);
	void *copy = pgbind_Arena_Malloc(arena, d->size);
	if (!copy)
		return true;
	memcpy(copy, c->node, d->size);
	c->node = copy;
	return false;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const Slot *)a)->node, y = (uintptr_t)((const Slot *)b)->node;
	return (x > y) - (x < y);
}

/* Checks one statement; returns the number of problems (each printed). */
static int check_statement(const char *sql, Corpus *c)
{
	int problems = 0;
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	if (!tree) {
		c->skipped++;
		return 0;
	}
	c->statements++;

	/* the descriptors' pre-order, and every node's children */
	Slots pre = {0};
	for (size_t i = 0; i < tree->n_stmts; i++)
		desc_preorder((pgbind_Node *)tree->stmts[i], &pre);
	c->nodes += (long)pre.n;
	Slots want = {0}, got = {0};
	for (size_t i = 0; i < pre.n; i++) {
		pgbind_Node *n = pre.v[i].node;
		c->seen[n->tag] = true;
		want.n = got.n = 0;
		node_slots(n, &want);
		pgbind_walk_children(n, record_node, &got);
		if (!same_nodes(&want, &got)) {
			printf("# %s: walk_children of a %s: %zu children, descriptors %zu\n", sql, pgbind_node_desc(n->tag)->name,
				   got.n, want.n);
			problems++;
			break;
		}
		got.n = 0;
		pgbind_mutate_children(n, record_slot, &got, &st);
		if (!same_slots(&want, &got)) {
			printf("# %s: mutate_children of a %s offers other slots than the descriptors\n", sql,
				   pgbind_node_desc(n->tag)->name);
			problems++;
			break;
		}
	}

	/* pgbind_ParseResult_walk: the same pre-order */
	got.n = 0;
	pgbind_WalkResult r = pgbind_ParseResult_walk(tree, record_node, &got, &st);
	if (r != PGBIND_WALK_DONE || !same_nodes(&pre, &got)) {
		printf("# %s: pgbind_ParseResult_walk visits %zu nodes (result %d), pre-order has %zu\n", sql, got.n, (int)r,
			   pre.n);
		problems++;
	}

	/* replacing every node by a copy gives an equal tree that shares no node with the old one */
	r = pgbind_ParseResult_mutate(tree, copy_child, NULL, &st);
	got.n = 0;
	pgbind_ParseResult_walk(tree, record_node, &got, &st);
	pgbind_ParseResult *again = pgbind_parse(sql, NULL, arena, &st);
	qsort(pre.v, pre.n, sizeof *pre.v, cmp_ptr);
	size_t shared = 0;
	for (size_t i = 0; i < got.n; i++)
		if (bsearch(&got.v[i], pre.v, pre.n, sizeof *pre.v, cmp_ptr))
			shared++;
	if (r != PGBIND_WALK_DONE || !again || !pgbind_ParseResult_equal(tree, again) || shared != 0 || got.n != pre.n) {
		printf("# %s: copying every node: result %d, equal %d, %zu of %zu nodes not copied\n", sql, (int)r,
			   again && pgbind_ParseResult_equal(tree, again), shared, got.n);
		problems++;
	}
	free(pre.v);
	free(want.v);
	free(got.v);
	return problems;
}

typedef struct CorpusFile {
	Corpus *c;
	int problems;
	long k;
} CorpusFile;

static bool corpus_each(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	CorpusFile *f = ctx;
	(void)text, (void)at, (void)line, (void)len;
	f->problems += check_statement(stmt, f->c);
	free(stmt);
	if (++f->k % 64 == 0) { /* keep the arena small: trees are checked one at a time */
		pgbind_Arena_Free(arena);
		arena = pgbind_Arena_New();
	}
	return true;
}

static void test_corpus(int n_files, char **files)
{
	Corpus c = {0};
	for (int i = 0; i < n_files; i++) {
		CorpusFile f = {&c, 0, 0};
		long before = c.statements;
		CHECK(cli_each_statement(files[i], "test_walk", corpus_each, &f), "%s: read and split", files[i]);
		CHECK(f.problems == 0,
			  "%s: walk_children, mutate_children, ParseResult_walk and a copying ParseResult_mutate agree with the "
			  "descriptors on all %ld statements (%d problems)",
			  files[i], c.statements - before, f.problems);
	}
	int kinds = 0;
	for (int t = 0; t < PGBIND_NODE_TAG_LIMIT; t++)
		kinds += c.seen[t];
	if (n_files)
		printf("# corpus: %d files, %ld statements (%ld did not parse), %ld nodes, %d node kinds\n", n_files,
			   c.statements, c.skipped, c.nodes, kinds);
}

/* ---- order, stopping, errors ----------------------------------------------------------------- */

static bool find_sublink(pgbind_Node *node, void *ctx)
{
	(void)ctx;
	if (node->tag == PGBIND_T_SubLink)
		return true;
	return pgbind_walk_children(node, find_sublink, ctx);
}

typedef struct Counter {
	long calls, stop_at;
	pgbind_Node *last;
} Counter;

static bool count_until(pgbind_Node *node, void *ctx)
{
	Counter *c = ctx;
	c->last = node;
	return ++c->calls == c->stop_at;
}

static bool count_slots(pgbind_Child *child, void *ctx)
{
	Counter *c = ctx;
	c->last = child->node;
	return ++c->calls == c->stop_at;
}

static void test_order_and_stop(void)
{
	/* field order; the NULL cell of DISTINCT is not a child */
	pgbind_Node *s = first_stmt("SELECT DISTINCT a FROM t WHERE b");
	Slots got = {0};
	pgbind_walk_children(s, record_node, &got);
	CHECK(got.n == 3 && got.v[0].node->tag == PGBIND_T_ResTarget && got.v[1].node->tag == PGBIND_T_RangeVar &&
			  got.v[2].node->tag == PGBIND_T_ColumnRef,
		  "SELECT DISTINCT a FROM t WHERE b: target, FROM, WHERE (%zu children)", got.n);

	/* PostgreSQL-style recursion through the callback */
	CHECK(find_sublink(first_stmt("SELECT 1 WHERE x IN (SELECT y FROM u)"), NULL), "a SubLink is found below WHERE");
	CHECK(!find_sublink(first_stmt("SELECT a + 1 FROM t WHERE b"), NULL), "no SubLink where there is none");

	/* walk_children stops at the first true */
	Counter c = {.stop_at = 2};
	CHECK(pgbind_walk_children(s, count_until, &c) && c.calls == 2 && c.last == got.v[1].node,
		  "pgbind_walk_children returns true as soon as fn does (%ld calls)", c.calls);

	/* pgbind_walk: pre-order, stops at the nth node */
	pgbind_Status st = {0};
	Slots all = {0};
	CHECK(pgbind_walk(s, record_node, &all, &st) == PGBIND_WALK_DONE && all.n > 5 && all.v[0].node == s &&
			  all.v[1].node == got.v[0].node,
		  "pgbind_walk visits the root first, then its first child (%zu nodes)", all.n);
	c = (Counter){.stop_at = 5};
	CHECK(pgbind_walk(s, count_until, &c, &st) == PGBIND_WALK_STOPPED && c.calls == 5 && c.last == all.v[4].node,
		  "pgbind_walk stops when fn returns true (%ld calls)", c.calls);
	c = (Counter){.stop_at = 3};
	CHECK(pgbind_mutate(s, count_slots, &c, &st) == PGBIND_WALK_STOPPED && c.calls == 3 && c.last == all.v[3].node,
		  "pgbind_mutate stops when fn returns true, slots in pre-order (%ld calls)", c.calls);
	CHECK(st.code == PGBIND_OK, "status untouched by walks that did not fail (%s)", st.message);
	free(got.v);
	free(all.v);

	/* argument and tag errors */
	c = (Counter){0};
	CHECK(pgbind_walk(NULL, count_until, &c, &st) == PGBIND_WALK_DONE && c.calls == 0,
		  "pgbind_walk(NULL) visits nothing");
	CHECK(!pgbind_walk_children(NULL, count_until, &c) && c.calls == 0, "pgbind_walk_children(NULL) visits nothing");
	CHECK(pgbind_walk(s, NULL, NULL, &st) == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_ARGUMENT,
		  "pgbind_walk without fn: PGBIND_ERROR_ARGUMENT");
	st = (pgbind_Status){0};
	CHECK(pgbind_mutate_children(s, NULL, NULL, &st) == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_ARGUMENT,
		  "pgbind_mutate_children without fn: PGBIND_ERROR_ARGUMENT");
	pgbind_Node bogus = {.tag = (pgbind_NodeTag)9999};
	st = (pgbind_Status){0};
	c = (Counter){0};
	CHECK(!pgbind_walk_children(&bogus, count_until, &c) && c.calls == 0, "an unknown tag has no children");
	CHECK(pgbind_walk(&bogus, count_until, &c, &st) == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_INVALID,
		  "pgbind_walk of an unknown tag: PGBIND_ERROR_INVALID (%s)", st.message);
	pgbind_A_Expr *e = (pgbind_A_Expr *)new_node(PGBIND_T_A_Expr);
	e->lexpr = &bogus;
	st = (pgbind_Status){0};
	CHECK(pgbind_walk((pgbind_Node *)e, count_until, &c, &st) == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_INVALID,
		  "pgbind_walk meeting an unknown tag below: PGBIND_ERROR_INVALID (%s)", st.message);
}

/* ---- the mutator's rules --------------------------------------------------------------------- */

typedef struct Edit {
	const char *field; /* the slot to edit: first offered with this name */
	pgbind_Node *node; /* its replacement (when !remove) */
	bool remove, stop, no_descend;
	long offered;
} Edit;

static bool edit_one(pgbind_Child *c, void *ctx)
{
	Edit *e = ctx;
	e->offered++;
	if (e->field && strcmp(c->field, e->field) == 0) {
		e->field = NULL; /* once */
		if (e->remove)
			c->remove = true;
		else
			c->node = e->node;
		if (e->no_descend)
			c->descend = false;
		return e->stop;
	}
	return false;
}

/* Edits the parent's field directly instead of the pgbind_Child. */
typedef struct Direct {
	bool edit_child_too;
} Direct;

static bool edit_parent(pgbind_Child *c, void *ctx)
{
	Direct *d = ctx;
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)c->parent;
	if (strcmp(c->field, "whereClause") == 0)
		s->whereClause = NULL;
	if (strcmp(c->field, "targetList") == 0) {
		s->n_targetList = 0;
		c->remove = d->edit_child_too;
	}
	return false;
}

static void test_mutator_rules(void)
{
	pgbind_Status st = {0};

	/* typed slots */
	pgbind_InsertStmt *ins = (pgbind_InsertStmt *)first_stmt("INSERT INTO t AS x SELECT 1");
	pgbind_Alias *alias = ins->relation->alias;
	Edit e = {.field = "alias", .node = new_node(PGBIND_T_String)};
	pgbind_WalkResult r = pgbind_mutate((pgbind_Node *)ins, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_ARGUMENT && ins->relation->alias == alias &&
			  strstr(st.message, "RangeVar.alias takes only Alias nodes, not String"),
		  "RangeVar.alias refuses a String and keeps its Alias (%s)", st.message);
	pgbind_RangeVar *rel = ins->relation;
	e = (Edit){.field = "relation", .node = first_stmt("SELECT 2")};
	r = pgbind_mutate_children((pgbind_Node *)ins, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && ins->relation == rel, "InsertStmt.relation refuses a SelectStmt (%s)", st.message);
	pgbind_ParseResult *tree = parse("INSERT INTO t SELECT 1");
	pgbind_Alias *a2 = (pgbind_Alias *)new_node(PGBIND_T_Alias);
	a2->aliasname = "y";
	e = (Edit){.field = "alias", .node = (pgbind_Node *)a2};
	((pgbind_InsertStmt *)tree->stmts[0]->stmt)->relation->alias = alias; /* give it a slot to edit */
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_DONE && strcmp(deparse(tree), "INSERT INTO t AS y SELECT 1") == 0,
		  "RangeVar.alias takes an Alias: %s", deparse(tree));

	/* the oneof A_Const.val takes value nodes only */
	tree = parse("SELECT 'x'");
	pgbind_A_Const *k =
		(pgbind_A_Const *)((pgbind_ResTarget *)((pgbind_SelectStmt *)tree->stmts[0]->stmt)->targetList[0])->val;
	pgbind_Node *val = k->val;
	st = (pgbind_Status){0};
	e = (Edit){.field = "val", .node = new_node(PGBIND_T_ColumnRef)};
	r = pgbind_mutate_children((pgbind_Node *)k, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && k->val == val && strstr(st.message, "A_Const.val takes only the members"),
		  "A_Const.val refuses a ColumnRef (%s)", st.message);
	pgbind_Integer *i42 = (pgbind_Integer *)new_node(PGBIND_T_Integer);
	i42->ival = 42;
	e = (Edit){.field = "val", .node = (pgbind_Node *)i42};
	r = pgbind_mutate_children((pgbind_Node *)k, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_DONE && strcmp(deparse(tree), "SELECT 42") == 0, "A_Const.val takes an Integer: %s",
		  deparse(tree));

	/* a tag that is not a node kind goes nowhere */
	pgbind_Node *bogus = arena_zalloc(sizeof(pgbind_A_Expr));
	bogus->tag = (pgbind_NodeTag)9999;
	tree = parse("SELECT a FROM t WHERE b");
	pgbind_SelectStmt *sel = (pgbind_SelectStmt *)tree->stmts[0]->stmt;
	pgbind_Node *where = sel->whereClause;
	st = (pgbind_Status){0};
	e = (Edit){.field = "whereClause", .node = bogus};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_ARGUMENT && sel->whereClause == where,
		  "a Node slot refuses tag 9999 (%s)", st.message);
	CHECK(strcmp(deparse(tree), "SELECT a FROM t WHERE b") == 0, "... and the tree still deparses: %s", deparse(tree));

	/* remove on a single slot empties it; stopping applies the edit */
	e = (Edit){.field = "whereClause", .remove = true, .stop = true};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_STOPPED && sel->whereClause == NULL && strcmp(deparse(tree), "SELECT a FROM t") == 0,
		  "remove empties WHERE, and the stopping call's edit is applied: %s", deparse(tree));

	/* lists: NULL makes a NULL cell, remove closes up */
	tree = parse("SELECT a, b, c FROM t");
	sel = (pgbind_SelectStmt *)tree->stmts[0]->stmt;
	pgbind_Node *b = sel->targetList[1], *cc = sel->targetList[2];
	e = (Edit){.field = "targetList", .node = NULL};
	r = pgbind_mutate_children((pgbind_Node *)sel, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_DONE && sel->n_targetList == 3 && sel->targetList[0] == NULL && sel->targetList[1] == b,
		  "NULL in a list element leaves a NULL cell");
	e = (Edit){.field = "targetList", .remove = true};
	r = pgbind_mutate_children((pgbind_Node *)sel, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_DONE && sel->n_targetList == 2 && sel->targetList[0] == NULL && sel->targetList[1] == cc,
		  "remove takes the element out (the NULL cell is not offered: b went)");

	/* statements: removable, never NULL, only RawStmt */
	tree = parse("SELECT 1; SELECT 2; SELECT 3");
	st = (pgbind_Status){0};
	e = (Edit){.field = "stmts", .node = NULL};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && tree->n_stmts == 3 && tree->stmts[0] && st.code == PGBIND_ERROR_ARGUMENT,
		  "ParseResult.stmts refuses NULL (%s)", st.message);
	e = (Edit){.field = "stmts", .node = tree->stmts[0]->stmt};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_FAILED && tree->stmts[0]->tag == PGBIND_T_RawStmt, "ParseResult.stmts refuses a SelectStmt");
	e = (Edit){.field = "stmts", .remove = true};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	CHECK(r == PGBIND_WALK_DONE && tree->n_stmts == 2 && strcmp(deparse(tree), "SELECT 2; SELECT 3") == 0,
		  "a statement removed: %s", deparse(tree));

	/* a callback may assign the parent's fields itself; the walker does not undo that, and
	 * refuses to apply a slot edit to a list the callback changed under it */
	tree = parse("SELECT a FROM t WHERE b");
	sel = (pgbind_SelectStmt *)tree->stmts[0]->stmt;
	Direct direct = {false};
	st = (pgbind_Status){0};
	r = pgbind_mutate_children((pgbind_Node *)sel, edit_parent, &direct, &st);
	CHECK(r == PGBIND_WALK_DONE && sel->whereClause == NULL && sel->n_targetList == 0,
		  "direct edits of the parent's fields stand (%d: %s)", (int)r, st.message);
	tree = parse("SELECT a, b FROM t");
	sel = (pgbind_SelectStmt *)tree->stmts[0]->stmt;
	direct.edit_child_too = true;
	r = pgbind_mutate_children((pgbind_Node *)sel, edit_parent, &direct, &st);
	CHECK(r == PGBIND_WALK_FAILED && st.code == PGBIND_ERROR_ARGUMENT && sel->n_targetList == 0 &&
			  strstr(st.message, "SelectStmt.targetList: the callback changed the list itself"),
		  "an element edit on a list the callback emptied is refused (%s)", st.message);

	/* the walk goes into a replacement, unless told not to */
	tree = parse("SELECT a FROM t");
	pgbind_Node *b_plus_1 = ((pgbind_ResTarget *)((pgbind_SelectStmt *)first_stmt("SELECT b + 1"))->targetList[0])->val;
	e = (Edit){.field = "val", .node = b_plus_1};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	long with_descent = e.offered;
	CHECK(r == PGBIND_WALK_DONE && strcmp(deparse(tree), "SELECT b + 1 FROM t") == 0, "a ResTarget's val replaced: %s",
		  deparse(tree));
	tree = parse("SELECT a FROM t");
	e = (Edit){.field = "val", .node = b_plus_1, .no_descend = true};
	r = pgbind_ParseResult_mutate(tree, edit_one, &e, &st);
	/* below b + 1: name[0] "+", lexpr ColumnRef, its fields[0] "b", rexpr A_Const, its val 1 */
	CHECK(r == PGBIND_WALK_DONE && with_descent - e.offered == 5,
		  "the walk goes into the replacement (5 more slots), descend = false skips it (%ld vs %ld)", with_descent,
		  e.offered);
}

/* ---- depth: iterative walks on a small stack ------------------------------------------------- */

#define DEEP 1000000
#define WIDE 20000 /* each removal moves the rest of the list: O(n) */

typedef struct Deep {
	pgbind_Node *root, *leaf, *select_root;
	pgbind_BoolExpr *wide;
	long walk_nodes, walk_stopped_at, mutate_slots, select_nodes;
	pgbind_WalkResult walk, stopped, mutate, select_walk, replace;
	pgbind_Node *leaf_after;
	size_t wide_after;
	bool wide_ok;
} Deep;

static bool count_node(pgbind_Node *node, void *ctx)
{
	(void)node;
	(*(long *)ctx)++;
	return false;
}

static bool stop_at_leaf(pgbind_Node *node, void *ctx)
{
	Deep *d = ctx;
	d->walk_stopped_at++;
	return node == d->leaf;
}

static bool replace_leaf(pgbind_Child *c, void *ctx)
{
	Deep *d = ctx;
	d->mutate_slots++;
	if (c->node == d->leaf)
		c->node = new_node(PGBIND_T_A_Star);
	return false;
}

/* Removes every other element; checks each is offered at its current position. */
static bool remove_even(pgbind_Child *c, void *ctx)
{
	Deep *d = ctx;
	int32_t original = ((pgbind_A_Const *)c->node)->location;
	if (c->index != (size_t)original / 2)
		d->wide_ok = false;
	c->remove = original % 2 == 0;
	return false;
}

static void *deep_walks(void *arg)
{
	Deep *d = arg;
	pgbind_Status st = {0};
	d->walk = pgbind_walk(d->root, count_node, &d->walk_nodes, &st);
	d->stopped = pgbind_walk(d->root, stop_at_leaf, d, &st);
	d->replace = pgbind_mutate(d->root, replace_leaf, d, &st);
	pgbind_Node *n = d->root;
	while (n->tag == PGBIND_T_BoolExpr)
		n = ((pgbind_BoolExpr *)n)->args[0];
	d->leaf_after = n;
	d->select_walk = pgbind_walk(d->select_root, count_node, &d->select_nodes, &st);
	d->wide_ok = true;
	d->mutate = pgbind_mutate_children((pgbind_Node *)d->wide, remove_even, d, &st);
	d->wide_after = d->wide->n_args;
	for (size_t i = 0; i < d->wide->n_args; i++)
		if (((pgbind_A_Const *)d->wide->args[i])->location != (int32_t)(2 * i + 1))
			d->wide_ok = false;
	return NULL;
}

static void test_depth(void)
{
	Deep d = {0};
	/* NOT NOT ... NOT x, DEEP levels, through repeated Node fields */
	d.leaf = new_node(PGBIND_T_ColumnRef);
	pgbind_Node *n = d.leaf;
	for (int i = 0; i < DEEP; i++) {
		pgbind_BoolExpr *not = (pgbind_BoolExpr *)new_node(PGBIND_T_BoolExpr);
		not ->boolop = PGBIND_NOT_EXPR;
		not ->args = arena_zalloc(sizeof *not ->args);
		not ->args[0] = n;
		not ->n_args = 1;
		n = (pgbind_Node *)not ;
	}
	d.root = n;
	/* SELECT ... UNION SELECT ..., DEEP / 10 levels, through message fields (larg) */
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)new_node(PGBIND_T_SelectStmt);
	for (int i = 0; i < DEEP / 10; i++) {
		pgbind_SelectStmt *u = (pgbind_SelectStmt *)new_node(PGBIND_T_SelectStmt);
		u->larg = s;
		s = u;
	}
	d.select_root = (pgbind_Node *)s;
	/* a list of WIDE elements */
	d.wide = (pgbind_BoolExpr *)new_node(PGBIND_T_BoolExpr);
	d.wide->args = arena_zalloc(WIDE * sizeof *d.wide->args);
	for (int i = 0; i < WIDE; i++) {
		pgbind_A_Const *k = (pgbind_A_Const *)new_node(PGBIND_T_A_Const);
		k->location = i;
		d.wide->args[i] = (pgbind_Node *)k;
	}
	d.wide->n_args = WIDE;

	/* on a 256 KiB stack: a walker that recursed per level would need hundreds of MiB */
	pthread_attr_t attr;
	pthread_t thread;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	int rc = pthread_create(&thread, &attr, deep_walks, &d);
	CHECK(rc == 0, "a thread with a 256 KiB stack");
	if (rc == 0)
		pthread_join(thread, NULL);
	pthread_attr_destroy(&attr);
	CHECK(d.walk == PGBIND_WALK_DONE && d.walk_nodes == DEEP + 1, "pgbind_walk, %d levels: %ld nodes", DEEP,
		  d.walk_nodes);
	CHECK(d.stopped == PGBIND_WALK_STOPPED && d.walk_stopped_at == DEEP + 1, "... stops at the deepest node");
	CHECK(d.replace == PGBIND_WALK_DONE && d.mutate_slots == DEEP && d.leaf_after->tag == PGBIND_T_A_Star,
		  "pgbind_mutate, %d levels: %ld slots, the deepest replaced", DEEP, d.mutate_slots);
	CHECK(d.select_walk == PGBIND_WALK_DONE && d.select_nodes == DEEP / 10 + 1,
		  "pgbind_walk through %d larg levels: %ld nodes", DEEP / 10, d.select_nodes);
	CHECK(d.mutate == PGBIND_WALK_DONE && d.wide_after == WIDE / 2 && d.wide_ok,
		  "removing every other of %d elements: %zu left, in order, each offered at its current index", WIDE,
		  d.wide_after);
}

/* ---- the examples ---------------------------------------------------------------------------- */

static const char *examples_dir;

/* Runs `DIR/program ARGS FILE` with sql in FILE; returns its stdout (malloc'd) and exit status. */
static char *run_example(const char *program, const char *args, const char *sql, int *status)
{
	char path[] = "/tmp/test_walk.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	size_t len = strlen(sql);
	bool written = write(fd, sql, len) == (ssize_t)len;
	close(fd);
	char *out = NULL;
	if (written) {
		size_t cmd_len = strlen(examples_dir) + strlen(program) + strlen(args) + sizeof path + 32;
		char *cmd = xmalloc(cmd_len);
		snprintf(cmd, cmd_len, "'%s/%s' %s '%s' 2>&1", examples_dir, program, args, path);
		FILE *p = popen(cmd, "r");
		free(cmd);
		if (p) {
			size_t n = 0, cap = 4096;
			out = xmalloc(cap);
			size_t got;
			while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
				n += got;
				if (cap - n - 1 == 0)
					out = xrealloc(out, cap *= 2);
			}
			out[n] = '\0';
			int ws = pclose(p);
			*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
		}
	}
	unlink(path);
	return out;
}

/* libpg_query's own deparse of sql (parse to protobuf, deparse), plus a newline. */
static char *pg_deparse(const char *sql)
{
	PgQueryProtobufParseResult p = pg_query_parse_protobuf(sql);
	char *out = NULL;
	if (!p.error) {
		PgQueryDeparseResult d = pg_query_deparse_protobuf(p.parse_tree);
		if (!d.error) {
			out = xmalloc(strlen(d.query) + 2);
			sprintf(out, "%s\n", d.query);
		}
		pg_query_free_deparse_result(d);
	}
	pg_query_free_protobuf_parse_result(p);
	return out ? out : strdup("(libpg_query cannot deparse the expected SQL)");
}

static void expect_tables(const char *sql, const char *want)
{
	int status = -1;
	char *got = run_example("tables", "", sql, &status);
	CHECK(got && status == 0 && strcmp(got, want) == 0, "tables: %s\n--- want\n%s--- got (exit %d)\n%s", sql, want,
		  status, got ? got : "(did not run)\n");
	free(got);
}

static void expect_rewrite(const char *args, const char *sql, const char *expected_sql)
{
	int status = -1;
	char *got = run_example("rewrite", args, sql, &status);
	char *want = pg_deparse(expected_sql);
	CHECK(got && status == 0 && strcmp(got, want) == 0, "rewrite %s: %s\n--- want\n%s--- got (exit %d)\n%s", args, sql,
		  want, status, got ? got : "(did not run)\n");
	free(got);
	free(want);
}

static void test_examples(void)
{
	if (!examples_dir) {
		printf("# skipped: the example programs (no --examples DIR)\n");
		return;
	}
	expect_tables("SELECT * FROM public.users u JOIN orders o ON o.uid = u.id", "read  public.users\n"
																				"read  orders\n");
	expect_tables("INSERT INTO orders SELECT * FROM public.users u JOIN carts USING (id)", "write orders\n"
																						   "read  public.users\n"
																						   "read  carts\n");
	expect_tables("UPDATE accounts SET total = total + r.amount FROM rates r WHERE accounts.id = r.id",
				  "write accounts\n"
				  "read  rates\n");
	expect_tables("DELETE FROM sessions WHERE user_id IN (SELECT id FROM banned) RETURNING *", "write sessions\n"
																							   "read  banned\n");
	expect_tables("MERGE INTO stock s USING deliveries d ON s.id = d.id "
				  "WHEN MATCHED THEN UPDATE SET n = s.n + d.n WHEN NOT MATCHED THEN INSERT VALUES (d.id, d.n)",
				  "write stock\n"
				  "read  deliveries\n");
	/* CTE names are not tables, in their own statement only */
	expect_tables("WITH recent AS (SELECT * FROM orders) SELECT * FROM recent JOIN users USING (id)",
				  "read  users\n" /* a statement's WITH clause is its last field */
				  "read  orders\n");
	expect_tables("WITH t AS (SELECT 1) SELECT * FROM t, public.t", "read  public.t\n");
	expect_tables("SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) s, x", "read  x\n");
	expect_tables("WITH moved AS (DELETE FROM inbox RETURNING *) INSERT INTO archive SELECT * FROM moved",
				  "write archive\n"
				  "write inbox\n");
	/* the same table read and written, several statements, SELECT INTO, COPY both ways */
	expect_tables("INSERT INTO t SELECT * FROM t; SELECT * INTO backup FROM cat.s.users; COPY a FROM stdin; "
				  "COPY b TO stdout",
				  "write t\n"
				  "read  t\n"
				  "write backup\n"
				  "read  cat.s.users\n"
				  "write a\n"
				  "read  b\n");
	expect_tables("SELECT 1", "");
	int status = 0;
	char *out = run_example("tables", "", "SELECT FROM WHERE", &status);
	CHECK(out && status == 1 && strstr(out, "syntax error"),
		  "tables: a syntax error exits 1 with PostgreSQL's message (%s)", out ? out : "");
	free(out);

	expect_rewrite("--rename-table users=customers", "SELECT users.id, name FROM users WHERE users.active",
				   "SELECT customers.id, name FROM customers WHERE customers.active");
	expect_rewrite("--rename-table users=customers", "INSERT INTO public.users SELECT * FROM users_old",
				   "INSERT INTO public.customers SELECT * FROM users_old");
	expect_rewrite("--strip-where",
				   "DELETE FROM t WHERE a = 1; UPDATE t SET a = 2 WHERE b IN (SELECT b FROM u WHERE c)",
				   "DELETE FROM t; UPDATE t SET a = 2");
	expect_rewrite("--strip-where", "SELECT * FROM t WHERE x IN (SELECT y FROM u WHERE z) ORDER BY 1",
				   "SELECT * FROM t ORDER BY 1");
	expect_rewrite("--strip-where", "SELECT * FROM (SELECT * FROM t WHERE a) s", "SELECT * FROM (SELECT * FROM t) s");
	expect_rewrite("--drop-column secret", "SELECT DISTINCT id, secret, t.secret AS s2, name FROM t",
				   "SELECT DISTINCT id, name FROM t");
	expect_rewrite("--parameterize", "SELECT * FROM t WHERE a = 1 AND b = 'x' LIMIT 10",
				   "SELECT * FROM t WHERE a = $1 AND b = $2 LIMIT $3");
	expect_rewrite("--parameterize",
				   "WITH x AS (SELECT 1 FROM t) SELECT '4'::numeric(10, 2), b FROM x WHERE c > 2.5 LIMIT 5 OFFSET 6",
				   "WITH x AS (SELECT $1 FROM t) SELECT $2::numeric(10, 2), b FROM x WHERE c > $3 LIMIT $4 OFFSET $5");
	expect_rewrite("--rename-table users=customers --drop-column secret --parameterize",
				   "SELECT id, secret FROM users WHERE users.name = 'ann' LIMIT 5",
				   "SELECT id FROM customers WHERE customers.name = $1 LIMIT $2");
	out = run_example("rewrite", "--no-such-option", "SELECT 1", &status);
	CHECK(out && status == 2 && strstr(out, "usage"), "rewrite: an unknown option exits 2 with the usage");
	free(out);
}

int main(int argc, char **argv)
{
	int first_file = 1;
	if (argc > 2 && strcmp(argv[1], "--examples") == 0) {
		examples_dir = argv[2];
		first_file = 3;
	}
	arena = pgbind_Arena_New();
	test_every_kind();
	test_order_and_stop();
	test_mutator_rules();
	test_depth();
	test_examples();
	pgbind_Arena_Free(arena);
	arena = pgbind_Arena_New();
	test_corpus(argc - first_file, argv + first_file);
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
