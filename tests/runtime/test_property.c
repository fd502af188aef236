/*
 * test_property.c -- a property test of every conversion, on random trees of every node kind.
 *
 * Each round builds, for each of the 238 node kinds as root, a random tree with every field of
 * the root set (scalars within the range of the C type the field is stored as, enums cycling over
 * all their values, strings empty and not, lists with NULL cells, nested nodes of any kind down
 * to a bounded depth), wraps it in a RawStmt in a ParseResult and checks:
 *
 *   (A) decode(encode(t)) equals t;
 *   (B) pg_query_nodes_to_protobuf(to_pg(t)) equals encode(t), byte for byte, with "" strings
 *       dropped (libpg_query's reader) and kept (pgbind_parse);
 *   (C) to_pg(from_pg(to_pg(t))) is equal() to to_pg(t), and from_pg(to_pg(t)) equals t, once
 *       and twice round ("" strings kept);
 *   (D) for the kinds with bitmapsets, set on the C nodes by hand (libpg_query's reader, and so
 *       to_pg, never sets them): from_pg of those nodes equals t, and libpg_query's writer on
 *       them gives encode(t);
 *   (E) libpg_query's reader, pg_query_protobuf_to_nodes(encode(t)), is equal() to to_pg(t), and
 *       from_pg of what it read equals t (equal() ignores locations; this does not);
 *   (F) pgbind_deparse(t) returns SQL or an error saying why (deparsed isolated: the deparser's
 *       crash in its child is one), never a crash; and the contract's generated walk
 *       gives the verdict and the error of its reference walk (tests/contract_same.h).
 * Besides, one ParseResult of no statements and one of three per round, and the enum mappings:
 * proto 0 reads as the first value in every enum field, LimitOption's library order,
 * PartitionRangeDatumKind's negative C values, FunctionParameterMode's chars.
 *
 * What libpg_query or PostgreSQL cannot carry is named at the start as an exclusion ("ok -
 * excluded ..."): the field or kind is still built and goes through every check that can hold.
 * At the end a coverage report names any node kind or field that no checked tree set.
 *
 * Everything is derived from --seed: a tree depends only on the seed, its round and its root
 * kind, and a failure prints the command line that builds and checks that one tree again, e.g.
 *
 *     build/tests/test_property --seed 20240229 --round 7 --kind SelectStmt --print
 *
 * Options: --seed N (default DEFAULT_SEED), --rounds N (default DEFAULT_ROUNDS), --round R and
 * --kind NAME (only that round, only that root kind), --print (show each tree as pgbind_text
 * renders it before its checks). Output: "not ok" lines for failures, "ok - excluded" lines for
 * the exclusions, per-check counts, the coverage, and last "N passed, M failed"; exit 1 on a
 * failure.
 */
#include "pg_headers.h"

/* PostgreSQL's port.h routes these to its own implementations; this file uses the C library's. */
#undef printf
#undef fprintf
#undef snprintf
#undef vsnprintf
#undef vfprintf
#undef sprintf
#undef vprintf

#include "../contract_same.h"
#include "internal.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generated/c_fields.inc.c"

#define DEFAULT_SEED   UINT64_C(20240229)
#define DEFAULT_ROUNDS 72  /* >= the largest enum (AlterTableType, 71 values): every value at a root */
#define MAX_DEPTH      3   /* nodes at this depth get no children */
#define NODE_BUDGET    200 /* nodes below the root of one tree, before children stop */
#define MAX_BMS_MEMBER 1000

/* ---- counting -------------------------------------------------------------------------------- */

#include "../check.h"

/* The per-tree checks, counted apart. */
enum { CK_A, CK_B, CK_C, CK_D, CK_E, CK_F, CK_COUNT };
static const char *const check_names[CK_COUNT] = {
	"(A) decode(encode(t)) == t",
	"(B) pg_query_nodes_to_protobuf(to_pg(t)) == encode(t)",
	"(C) to_pg(from_pg(to_pg(t))) equal() to_pg(t), from_pg(to_pg(t)) == t",
	"(D) bitmapsets set on the C nodes: from_pg and libpg_query's writer",
	"(E) pg_query_protobuf_to_nodes(encode(t)) equal() to_pg(t)",
	"(F) pgbind_deparse(t): SQL or an error (the deparse contract, its generated walk agreeing with the reference "
	"walk), never a crash",
};
static int check_passed[CK_COUNT], check_failed[CK_COUNT];

static uint64_t opt_seed = DEFAULT_SEED;
static bool opt_print; /* --print: show each tree before it is checked */

/* The tree being checked, for failure messages. */
typedef struct TreeId {
	int round;
	uint32_t kind;
	const char *variant; /* what the tree is when it is not the one tree of (round, kind) */
} TreeId;

static const char *kind_name(uint32_t tag)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(tag);
	return d ? d->name : "?";
}

static void tree_result(int check, const TreeId *id, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void tree_result(int check, const TreeId *id, bool ok, const char *fmt, ...)
{
	if (ok) {
		n_passed++;
		check_passed[check]++;
		return;
	}
	n_failed++;
	check_failed[check]++;
	printf("not ok - %.3s %s: ", check_names[check], id->variant ? id->variant : kind_name(id->kind));
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n         seed %" PRIu64 " round %d; rerun: test_property --seed %" PRIu64 " --round %d", opt_seed,
		   id->round, opt_seed, id->round);
	if (!id->variant)
		printf(" --kind %s", kind_name(id->kind));
	printf("\n");
}

/* ---- the PRNG (splitmix64) ------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The state a tree starts from: a function of the seed, the round and the root kind only. */
static uint64_t tree_state(uint64_t seed, int round, uint32_t kind, uint32_t variant)
{
	uint64_t s = seed;
	splitmix64(&s);
	s ^= (uint64_t)(uint32_t)round * UINT64_C(0x100000001b3);
	splitmix64(&s);
	s ^= ((uint64_t)kind << 32) | variant;
	return splitmix64(&s);
}

/* ---- what each field is ---------------------------------------------------------------------- */

typedef enum Conv {
	CONV_SCALAR,
	CONV_CHAR,
	CONV_CSTRING,
	CONV_VALUE_STRING,
	CONV_ENUM,
	CONV_NODE,
	CONV_MESSAGE,
	CONV_EMBEDDED,
	CONV_XPR,
	CONV_LIST,
	CONV_BITMAPSET,
	CONV_VALUE_UNION,
	CONV_VALUE_UNION_UNLESS,
	CONV_LIST_CELLS,
	CONV_INT_CELLS,
	CONV_OID_CELLS,
	CONV_UNKNOWN,
} Conv;

static const char *const conv_names[] = {
	"SCALAR",
	"CHAR",
	"CSTRING",
	"VALUE_STRING",
	"ENUM",
	"NODE",
	"MESSAGE",
	"EMBEDDED",
	"XPR",
	"LIST",
	"BITMAPSET",
	"VALUE_UNION",
	"VALUE_UNION_UNLESS",
	"LIST_CELLS",
	"INT_CELLS",
	"OID_CELLS",
};

typedef struct FieldInfo {
	Conv conv;
	const char *c_base;
	int64_t lo, hi; /* SCALAR integers: the range both the wire type and the C type hold */
	int32_t n_enum; /* ENUM: values other than 0 (the _UNDEFINED placeholder) */
	const int32_t *enum_values;
	size_t bms_c_offset; /* BITMAPSET: offsetof the Bitmapset * in the C struct */
} FieldInfo;

static FieldInfo *field_info[PGBIND_MESSAGE_COUNT];
static bool *field_set[PGBIND_MESSAGE_COUNT]; /* coverage: non-default in some checked tree */
static bool kind_checked[PGBIND_NODE_TAG_LIMIT];
static bool *enum_hit[PGBIND_ENUM_COUNT];
static int32_t *enum_values[PGBIND_ENUM_COUNT];
static int32_t enum_n_values[PGBIND_ENUM_COUNT];

static int message_index(const pgbind_MessageDesc *d)
{
	return (int)(d - pgbind_message_descs);
}

/* The range of an integer field: what the wire type and the C type both hold. */
static bool scalar_range(pgbind_WireKind wire, const char *c_base, int64_t *lo, int64_t *hi)
{
	int64_t wlo, whi, clo, chi;
	switch (wire) {
	case PGBIND_WIRE_INT32:
		wlo = INT32_MIN;
		whi = INT32_MAX;
		break;
	case PGBIND_WIRE_UINT32:
		wlo = 0;
		whi = UINT32_MAX;
		break;
	case PGBIND_WIRE_INT64:
		wlo = INT64_MIN;
		whi = INT64_MAX;
		break;
	case PGBIND_WIRE_UINT64:
		wlo = 0;
		whi = INT64_MAX;
		break;
	case PGBIND_WIRE_BOOL:
		wlo = 0;
		whi = 1;
		break;
	case PGBIND_WIRE_DOUBLE:
		*lo = *hi = 0;
		return strcmp(c_base, "double") == 0;
	default:
		return false;
	}
	if (strcmp(c_base, "int") == 0) {
		clo = INT32_MIN;
		chi = INT32_MAX;
	} else if (strcmp(c_base, "unsigned int") == 0) {
		clo = 0;
		chi = UINT32_MAX;
	} else if (strcmp(c_base, "short") == 0) {
		clo = INT16_MIN;
		chi = INT16_MAX;
	} else if (strcmp(c_base, "long") == 0 && sizeof(long) == 8) {
		clo = INT64_MIN;
		chi = INT64_MAX;
	} else if (strcmp(c_base, "unsigned long") == 0 && sizeof(long) == 8) { /* uint64 (16's AclMode) */
		clo = 0;
		chi = INT64_MAX; /* the test's values are int64_t */
	} else if (strcmp(c_base, "_Bool") == 0) {
		clo = 0;
		chi = 1;
	} else {
		return false;
	}
	*lo = wlo > clo ? wlo : clo;
	*hi = whi < chi ? whi : chi;
	return *lo <= *hi;
}

/* Reads c_fields.inc.c and the descriptors into field_info; false (with a message) when the
 * tables disagree or hold a kind or type this test does not know. */
static bool setup(void)
{
	bool ok = true;
	for (uint32_t e = 0; e < PGBIND_ENUM_COUNT; e++) {
		const pgbind_EnumDesc *ed = &pgbind_enum_descs[e];
		enum_values[e] = calloc(ed->n_values ? ed->n_values : 1, sizeof(int32_t));
		enum_hit[e] = calloc(ed->n_values ? ed->n_values : 1, sizeof(bool));
		for (uint32_t v = 0; v < ed->n_values; v++)
			if (ed->values[v].number != 0)
				enum_values[e][enum_n_values[e]++] = ed->values[v].number;
	}
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		if (!d->tag)
			continue;
		const pgbind_CFieldInfo *cf = pgbind_c_fields(d->name);
		uint32_t n = 0;
		while (cf && cf[n].conv)
			n++;
		if (!cf || n != d->n_fields) {
			printf("not ok - setup: %s has %u fields, c_fields.inc.c lists %u\n", d->name, d->n_fields, n);
			ok = false;
			continue;
		}
		field_info[mi] = calloc(n ? n : 1, sizeof(FieldInfo));
		field_set[mi] = calloc(n ? n : 1, sizeof(bool));
		for (uint32_t i = 0; i < n; i++) {
			const pgbind_FieldDesc *f = &d->fields[i];
			FieldInfo *fi = &field_info[mi][i];
			fi->conv = CONV_UNKNOWN;
			for (int c = 0; c < CONV_UNKNOWN; c++)
				if (strcmp(cf[i].conv, conv_names[c]) == 0)
					fi->conv = (Conv)c;
			fi->c_base = cf[i].c_base;
			bool known = true;
			switch (fi->conv) {
			case CONV_SCALAR:
				known = scalar_range(f->wire, fi->c_base, &fi->lo, &fi->hi);
				break;
			case CONV_CHAR:
			case CONV_CSTRING:
			case CONV_VALUE_STRING:
				known = f->wire == PGBIND_WIRE_STRING;
				break;
			case CONV_ENUM:
				known = f->wire == PGBIND_WIRE_ENUM && f->type_index >= 0 && enum_n_values[f->type_index] > 0;
				if (known) {
					fi->n_enum = enum_n_values[f->type_index];
					fi->enum_values = enum_values[f->type_index];
				}
				break;
			case CONV_NODE:
			case CONV_XPR:
				known = f->wire == PGBIND_WIRE_NODE;
				break;
			case CONV_MESSAGE:
			case CONV_EMBEDDED:
				known = f->wire == PGBIND_WIRE_MESSAGE && pgbind_message_descs[f->type_index].tag != 0;
				break;
			case CONV_LIST:
			case CONV_LIST_CELLS:
			case CONV_INT_CELLS:
			case CONV_OID_CELLS:
				known = f->wire == PGBIND_WIRE_REPEATED_NODE;
				break;
			case CONV_BITMAPSET:
				fi->bms_c_offset = cf[i].c_offset; /* where check (D) reads it back */
				known = f->wire == PGBIND_WIRE_PACKED_UINT64 && cf[i].c_offset > 0;
				break;
			case CONV_VALUE_UNION:
			case CONV_VALUE_UNION_UNLESS:
				known = f->wire == PGBIND_WIRE_ONEOF && strcmp(d->name, "A_Const") == 0;
				break;
			case CONV_UNKNOWN:
				known = false;
				break;
			}
			if (!known) {
				printf("not ok - setup: %s.%s: conversion %s, C type %s, wire kind %d: not known to this test\n",
					   d->name, f->name, cf[i].conv, cf[i].c_base, (int)f->wire);
				ok = false;
			}
		}
	}
	return ok;
}

/* Kinds that libpg_query 15 cannot take through some direction (see print_exclusions): its
 * writer crashes on IntList and OidList; PostgreSQL's equal() has no case for InlineCodeBlock and
 * CallContext (elog(ERROR, "unrecognized node type"), which ends the process). They are roots of
 * their own trees and never nested, so that every other tree goes through every check. */
static bool writer_cannot(uint32_t tag)
{
	return tag == PGBIND_T_IntList || tag == PGBIND_T_OidList;
}

static bool equal_cannot(uint32_t tag)
{
	return tag == PGBIND_T_InlineCodeBlock || tag == PGBIND_T_CallContext;
}

/* ---- building random trees ------------------------------------------------------------------- */

typedef struct Gen {
	pgbind_Arena *arena;
	uint64_t state;
	int round;
	int budget; /* nodes still allowed below the root */
} Gen;

static uint64_t rnd(Gen *g)
{
	return splitmix64(&g->state);
}

static uint64_t below(Gen *g, uint64_t n)
{
	return n ? rnd(g) % n : 0;
}

static bool one_in(Gen *g, uint64_t n)
{
	return below(g, n) == 0;
}

static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "test_property: out of memory\n");
		exit(2);
	}
	return p;
}

/* size zeroed bytes in arena. */
static void *zalloc(pgbind_Arena *arena, size_t size)
{
	void *p = must(pgbind_Arena_Malloc(arena, size ? size : 1));
	memset(p, 0, size ? size : 1);
	return p;
}

static void *gen_alloc(Gen *g, size_t size)
{
	return zalloc(g->arena, size);
}

/* An integer in [lo, hi]: often an edge, otherwise uniform; never 0 when nonzero is asked. */
static int64_t gen_int(Gen *g, int64_t lo, int64_t hi, bool nonzero)
{
	for (;;) {
		int64_t v;
		switch (below(g, 8)) {
		case 0:
			v = lo;
			break;
		case 1:
			v = hi;
			break;
		case 2:
			v = 0;
			break;
		case 3:
			v = 1;
			break;
		case 4:
			v = -1;
			break;
		case 5:
			v = (int64_t)below(g, 100) - 50;
			break;
		default: {
			uint64_t span = (uint64_t)hi - (uint64_t)lo;
			uint64_t r = span == UINT64_MAX ? rnd(g) : rnd(g) % (span + 1);
			v = (int64_t)((uint64_t)lo + r);
		}
		}
		if (v >= lo && v <= hi && (v != 0 || !nonzero))
			return v;
	}
}

/* A finite double, never -0.0, 0.0 only when zero is allowed. */
static double gen_double(Gen *g, bool nonzero)
{
	static const double simple[] = {0.0, 1.0, -1.0, 0.5, 1e300, -2.5e-300, 3.141592653589793, 4e-320};
	for (;;) {
		double d;
		if (one_in(g, 3)) {
			d = simple[below(g, sizeof simple / sizeof *simple)];
		} else {
			uint64_t bits = rnd(g);
			memcpy(&d, &bits, sizeof d);
		}
		if (isfinite(d) && (d != 0.0 || (!nonzero && !signbit(d))))
			return d;
	}
}

/* Printable ASCII, 1 to 8 characters; "" and NULL sometimes where allowed. */
static const char *gen_string(Gen *g, bool root, bool nullable)
{
	if (!root && nullable && one_in(g, 6))
		return NULL;
	if (!root && one_in(g, 6))
		return "";
	size_t n = 1 + below(g, 8);
	char *s = gen_alloc(g, n + 1);
	for (size_t i = 0; i < n; i++)
		s[i] = (char)(0x20 + below(g, 0x7f - 0x20));
	s[n] = '\0';
	return s;
}

static const char *gen_char(Gen *g, bool root)
{
	if (!root && one_in(g, 4))
		return NULL;
	char *s = gen_alloc(g, 2);
	s[0] = (char)(0x20 + below(g, 0x7f - 0x20));
	return s;
}

static void *gen_message(Gen *g, int mi, int depth);

/* Node kinds a random NODE field may hold: all but those of writer_cannot and equal_cannot. */
static uint32_t nestable_tags[PGBIND_NODE_TAG_LIMIT];
static uint32_t n_nestable;

static pgbind_Node *gen_node(Gen *g, uint32_t tag, int depth)
{
	return gen_message(g, message_index(pgbind_node_desc(tag)), depth);
}

static pgbind_Node *gen_any_node(Gen *g, int depth)
{
	return gen_node(g, nestable_tags[below(g, n_nestable)], depth);
}

/* A Node array of n elements, NULL cells sometimes (never the first at the root). */
static pgbind_Node **gen_items(Gen *g, size_t n, int depth, bool root)
{
	pgbind_Node **items = gen_alloc(g, n * sizeof *items);
	bool leaf = depth >= MAX_DEPTH || g->budget <= 0;
	for (size_t i = 0; i < n; i++)
		items[i] = (root && i == 0) || (!leaf && !one_in(g, 5)) ? gen_any_node(g, depth + 1) : NULL;
	return items;
}

static void gen_field(Gen *g, int mi, uint32_t i, char *m, int depth)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	const pgbind_FieldDesc *f = &d->fields[i];
	const FieldInfo *fi = &field_info[mi][i];
	void *p = m + f->offset;
	size_t *np = (size_t *)(m + f->count_offset);
	bool root = depth == 0;
	bool leaf = depth >= MAX_DEPTH || g->budget <= 0; /* no children, except the required ones */

	switch (fi->conv) {
	case CONV_SCALAR:
		switch (f->wire) {
		case PGBIND_WIRE_BOOL:
			*(bool *)p = root || one_in(g, 2);
			break;
		case PGBIND_WIRE_DOUBLE:
			*(double *)p = gen_double(g, root);
			break;
		case PGBIND_WIRE_INT32:
			*(int32_t *)p = (int32_t)gen_int(g, fi->lo, fi->hi, root);
			break;
		case PGBIND_WIRE_UINT32:
			*(uint32_t *)p = (uint32_t)gen_int(g, fi->lo, fi->hi, root);
			break;
		case PGBIND_WIRE_INT64:
			*(int64_t *)p = gen_int(g, fi->lo, fi->hi, root);
			break;
		case PGBIND_WIRE_UINT64:
			*(uint64_t *)p = (uint64_t)gen_int(g, fi->lo, fi->hi, root);
			break;
		default:
			break;
		}
		break;
	case CONV_CHAR:
		*(const char **)p = gen_char(g, root);
		break;
	case CONV_CSTRING:
		*(const char **)p = gen_string(g, root, true);
		break;
	case CONV_VALUE_STRING:
		*(const char **)p = gen_string(g, root, false);
		break;
	case CONV_ENUM: {
		/* at the root the value cycles with the round, so every value is reached */
		uint32_t n = (uint32_t)fi->n_enum;
		int v = fi->enum_values[root ? ((uint32_t)g->round + i) % n : below(g, n)];
		memcpy(p, &v, sizeof v);
		break;
	}
	case CONV_NODE:
	case CONV_XPR:
		*(pgbind_Node **)p = root || (!leaf && !one_in(g, 4)) ? gen_any_node(g, depth + 1) : NULL;
		break;
	case CONV_MESSAGE:
		*(void **)p = root || (!leaf && !one_in(g, 4)) ? gen_message(g, f->type_index, depth + 1) : NULL;
		break;
	case CONV_EMBEDDED: /* a struct held by value in C: always there */
		*(void **)p = gen_message(g, f->type_index, depth + 1);
		break;
	case CONV_LIST: {
		size_t n = root ? 1 + below(g, 3) : leaf ? 0 : below(g, 4);
		*np = n;
		*(pgbind_Node ***)p = n ? gen_items(g, n, depth, root) : NULL;
		break;
	}
	case CONV_LIST_CELLS: {
		/* an empty List is NIL in PostgreSQL: at least one cell, so that it comes back a List */
		size_t n = 1 + below(g, 3);
		*np = n;
		*(pgbind_Node ***)p = gen_items(g, n, depth, root);
		break;
	}
	case CONV_INT_CELLS:
	case CONV_OID_CELLS: {
		size_t n = 1 + below(g, 3);
		pgbind_Node **items = gen_alloc(g, n * sizeof *items);
		for (size_t k = 0; k < n; k++) {
			pgbind_Integer *v = gen_alloc(g, sizeof *v);
			v->tag = PGBIND_T_Integer;
			v->ival = (int32_t)gen_int(g, INT32_MIN, INT32_MAX, false);
			items[k] = (pgbind_Node *)v;
		}
		*np = n;
		*(pgbind_Node ***)p = items;
		break;
	}
	case CONV_BITMAPSET: {
		size_t n = root ? 1 + below(g, 4) : below(g, 5);
		uint64_t *members = gen_alloc(g, (n ? n : 1) * sizeof *members);
		uint64_t next = below(g, 70);
		size_t k = 0;
		while (k < n && next < MAX_BMS_MEMBER) {
			members[k++] = next;
			next += 1 + below(g, 300);
		}
		*np = k;
		*(uint64_t **)p = k ? members : NULL;
		break;
	}
	case CONV_VALUE_UNION:
	case CONV_VALUE_UNION_UNLESS:
	case CONV_UNKNOWN:
		break; /* A_Const.val: see gen_message */
	}
}

static void *gen_message(Gen *g, int mi, int depth)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	char *m = gen_alloc(g, d->size);
	((pgbind_Node *)m)->tag = (pgbind_NodeTag)d->tag;
	if (depth > 0)
		g->budget--;
	for (uint32_t i = 0; i < d->n_fields; i++)
		gen_field(g, mi, i, m, depth);
	if (d->tag == PGBIND_T_A_Const) {
		/* "'val' is not valid if isnull is true": one or the other; at the root by round */
		pgbind_A_Const *c = (pgbind_A_Const *)m;
		c->isnull = depth == 0 ? g->round % 2 == 1 : one_in(g, 4);
		c->val = NULL;
		for (uint32_t i = 0; !c->isnull && i < d->n_fields; i++) {
			if (d->fields[i].wire != PGBIND_WIRE_ONEOF)
				continue;
			const pgbind_OneofDesc *od = &pgbind_oneof_descs[d->fields[i].type_index];
			c->val = gen_message(g, od->members[below(g, od->n_members)].message_index, depth + 1);
		}
	}
	return m;
}

static pgbind_ParseResult *wrap(Gen *g, pgbind_Node **stmts, size_t n)
{
	pgbind_ParseResult *r = gen_alloc(g, sizeof *r);
	r->version = pgbind_libpg_query_version_num;
	r->n_stmts = n;
	r->stmts = n ? gen_alloc(g, n * sizeof *r->stmts) : NULL;
	for (size_t i = 0; i < n; i++) {
		pgbind_RawStmt *rs = gen_alloc(g, sizeof *rs);
		rs->tag = PGBIND_T_RawStmt;
		rs->stmt = stmts[i];
		rs->stmt_location = (int32_t)gen_int(g, INT32_MIN, INT32_MAX, false);
		rs->stmt_len = (int32_t)gen_int(g, INT32_MIN, INT32_MAX, false);
		r->stmts[i] = rs;
	}
	return r;
}

/* ---- walking trees --------------------------------------------------------------------------- */

static bool field_is_set(const pgbind_FieldDesc *f, const char *m)
{
	const void *p = m + f->offset;
	switch (f->wire) {
	case PGBIND_WIRE_INT32:
		return *(const int32_t *)p != 0;
	case PGBIND_WIRE_UINT32:
		return *(const uint32_t *)p != 0;
	case PGBIND_WIRE_INT64:
		return *(const int64_t *)p != 0;
	case PGBIND_WIRE_UINT64:
		return *(const uint64_t *)p != 0;
	case PGBIND_WIRE_BOOL:
		return *(const bool *)p;
	case PGBIND_WIRE_DOUBLE:
		return *(const double *)p != 0.0;
	case PGBIND_WIRE_STRING:
		return *(const char *const *)p && **(const char *const *)p;
	case PGBIND_WIRE_ENUM: {
		int v;
		memcpy(&v, p, sizeof v);
		return v != 0;
	}
	case PGBIND_WIRE_NODE:
	case PGBIND_WIRE_MESSAGE:
	case PGBIND_WIRE_ONEOF:
		return *(const void *const *)p != NULL;
	case PGBIND_WIRE_REPEATED_NODE:
	case PGBIND_WIRE_REPEATED_MESSAGE:
	case PGBIND_WIRE_PACKED_UINT64:
		return *(const size_t *)(m + f->count_offset) != 0;
	}
	return false;
}

typedef struct Walk {
	bool mark;                 /* record coverage (fields set, enum values) */
	bool strip;                /* empty xpr and bitmapset fields (except where keep_root_bms says) */
	bool no_writer;            /* out: the tree holds a kind of writer_cannot */
	bool no_equal;             /* out: the tree holds a kind of equal_cannot */
	const void *keep_root_bms; /* the root: its bitmapsets are left alone */
} Walk;

static void walk_message(Walk *w, int mi, char *m);

static void walk_node(Walk *w, pgbind_Node *n)
{
	if (!n)
		return;
	w->no_writer |= writer_cannot(n->tag);
	w->no_equal |= equal_cannot(n->tag);
	walk_message(w, message_index(pgbind_node_desc(n->tag)), (char *)n);
}

static void walk_message(Walk *w, int mi, char *m)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const FieldInfo *fi = &field_info[mi][i];
		void *p = m + f->offset;
		if (w->mark && field_is_set(f, m)) {
			field_set[mi][i] = true;
			if (f->wire == PGBIND_WIRE_ENUM) {
				int v;
				memcpy(&v, p, sizeof v);
				const pgbind_EnumDesc *ed = &pgbind_enum_descs[f->type_index];
				for (uint32_t k = 0; k < ed->n_values; k++)
					if (ed->values[k].number == v)
						enum_hit[f->type_index][k] = true;
			}
		}
		if (w->strip && fi->conv == CONV_XPR)
			*(pgbind_Node **)p = NULL;
		if (w->strip && fi->conv == CONV_BITMAPSET && m != w->keep_root_bms) {
			*(size_t *)(m + f->count_offset) = 0;
			*(uint64_t **)p = NULL;
		}
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			walk_node(w, *(pgbind_Node **)p);
			break;
		case PGBIND_WIRE_MESSAGE:
			if (*(char **)p)
				walk_message(w, f->type_index, *(char **)p);
			break;
		case PGBIND_WIRE_REPEATED_NODE: {
			size_t n = *(size_t *)(m + f->count_offset);
			for (size_t k = 0; k < n; k++)
				walk_node(w, (*(pgbind_Node ***)p)[k]);
			break;
		}
		default:
			break;
		}
	}
}

static void walk_tree(Walk *w, pgbind_ParseResult *t)
{
	for (size_t i = 0; i < t->n_stmts; i++)
		walk_node(w, (pgbind_Node *)t->stmts[i]);
}

/* ---- where two ASTs differ ------------------------------------------------------------------- */

typedef struct Diff {
	char path[1024];
	char what[512];
} Diff;

static size_t path_push(char *path, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static size_t path_push(char *path, size_t len, const char *fmt, ...)
{
	size_t size = sizeof((Diff *)0)->path;
	if (len >= size - 1)
		return len;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(path + len, size - len, fmt, ap);
	va_end(ap);
	len += k > 0 ? (size_t)k : 0;
	return len < size - 1 ? len : size - 1;
}

static bool diff_message(const pgbind_MessageDesc *d, const char *a, const char *b, Diff *out, size_t len);

static bool diff_node(const pgbind_Node *a, const pgbind_Node *b, Diff *out, size_t len)
{
	if (!a || !b) {
		if (a == b)
			return true;
		snprintf(out->what, sizeof out->what, "expected %s, got %s", a ? kind_name(a->tag) : "NULL",
				 b ? kind_name(b->tag) : "NULL");
		return false;
	}
	if (a->tag != b->tag) {
		snprintf(out->what, sizeof out->what, "expected node %s, got %s", kind_name(a->tag), kind_name(b->tag));
		return false;
	}
	len = path_push(out->path, len, ".%s", kind_name(a->tag));
	return diff_message(pgbind_node_desc(a->tag), (const char *)a, (const char *)b, out, len);
}

/* Compares a (expected) with b field by field like pgbind_equal; at the first difference fills
 * out->path from len on and out->what, and returns false. */
static bool diff_message(const pgbind_MessageDesc *d, const char *a, const char *b, Diff *out, size_t len)
{
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *pa = a + f->offset, *pb = b + f->offset;
		size_t l = path_push(out->path, len, ".%s", f->name);
		out->path[l] = '\0';
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_ENUM: {
			int32_t x, y;
			memcpy(&x, pa, sizeof x);
			memcpy(&y, pb, sizeof y);
			if (x != y) {
				snprintf(out->what, sizeof out->what, "expected %" PRId32 ", got %" PRId32, x, y);
				return false;
			}
			break;
		}
		case PGBIND_WIRE_UINT32:
			if (*(const uint32_t *)pa != *(const uint32_t *)pb) {
				snprintf(out->what, sizeof out->what, "expected %" PRIu32 ", got %" PRIu32, *(const uint32_t *)pa,
						 *(const uint32_t *)pb);
				return false;
			}
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
			if (*(const int64_t *)pa != *(const int64_t *)pb) {
				snprintf(out->what, sizeof out->what, "expected %" PRId64 ", got %" PRId64, *(const int64_t *)pa,
						 *(const int64_t *)pb);
				return false;
			}
			break;
		case PGBIND_WIRE_BOOL:
			if (*(const bool *)pa != *(const bool *)pb) {
				snprintf(out->what, sizeof out->what, "expected %d, got %d", *(const bool *)pa, *(const bool *)pb);
				return false;
			}
			break;
		case PGBIND_WIRE_DOUBLE:
			if (memcmp(pa, pb, sizeof(double)) != 0) {
				snprintf(out->what, sizeof out->what, "expected %.17g, got %.17g", *(const double *)pa,
						 *(const double *)pb);
				return false;
			}
			break;
		case PGBIND_WIRE_STRING: {
			const char *x = *(const char *const *)pa, *y = *(const char *const *)pb;
			if (strcmp(x ? x : "", y ? y : "") != 0) {
				snprintf(out->what, sizeof out->what, "expected \"%s\", got \"%s\"", x ? x : "(null)",
						 y ? y : "(null)");
				return false;
			}
			break;
		}
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			if (!diff_node(*(const pgbind_Node *const *)pa, *(const pgbind_Node *const *)pb, out, l))
				return false;
			break;
		case PGBIND_WIRE_MESSAGE: {
			const char *x = *(const char *const *)pa, *y = *(const char *const *)pb;
			if (!x || !y) {
				if (x != y) {
					snprintf(out->what, sizeof out->what, "expected %s, got %s", x ? "a message" : "NULL",
							 y ? "a message" : "NULL");
					return false;
				}
			} else if (!diff_message(&pgbind_message_descs[f->type_index], x, y, out, l)) {
				return false;
			}
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE:
		case PGBIND_WIRE_PACKED_UINT64: {
			size_t na = *(const size_t *)(a + f->count_offset), nb = *(const size_t *)(b + f->count_offset);
			if (na != nb) {
				snprintf(out->what, sizeof out->what, "expected %zu elements, got %zu", na, nb);
				return false;
			}
			for (size_t k = 0; k < na; k++) {
				size_t lk = path_push(out->path, l, "[%zu]", k);
				if (f->wire == PGBIND_WIRE_PACKED_UINT64) {
					uint64_t x = (*(uint64_t *const *)pa)[k], y = (*(uint64_t *const *)pb)[k];
					if (x != y) {
						snprintf(out->what, sizeof out->what, "expected %" PRIu64 ", got %" PRIu64, x, y);
						return false;
					}
				} else if (f->wire == PGBIND_WIRE_REPEATED_NODE) {
					pgbind_Node *const *xa = *(pgbind_Node *const *const *)pa;
					pgbind_Node *const *xb = *(pgbind_Node *const *const *)pb;
					if (!diff_node(xa[k], xb[k], out, lk))
						return false;
				} else {
					const char *x = (*(const char *const *const *)pa)[k], *y = (*(const char *const *const *)pb)[k];
					if (!x || !y) {
						if (x != y) {
							snprintf(out->what, sizeof out->what, "a NULL element against a message");
							return false;
						}
					} else if (!diff_message(&pgbind_message_descs[f->type_index], x, y, out, lk)) {
						return false;
					}
				}
			}
			break;
		}
		}
	}
	out->path[len] = '\0';
	return true;
}

/* "" when equal, else where and how (a is expected). */
static const char *tree_diff(const pgbind_ParseResult *a, const pgbind_ParseResult *b, Diff *out)
{
	out->path[0] = out->what[0] = '\0';
	size_t len = path_push(out->path, 0, "ParseResult");
	if (!diff_message(pgbind_message_desc_by_name("ParseResult"), (const char *)a, (const char *)b, out, len)) {
		size_t l = strlen(out->path);
		snprintf(out->path + l, sizeof out->path - l, ": %s", out->what);
		return out->path;
	}
	return "";
}

/* Where two encodings first differ, as a field path in `ours`. */
static void bytes_diff(const uint8_t *ours, size_t our_len, const uint8_t *theirs, size_t their_len, char *out,
					   size_t size)
{
	size_t off = 0;
	while (off < our_len && off < their_len && ours[off] == theirs[off])
		off++;
	char path[512];
	pgbind_wire_path(ours, our_len, off, path, sizeof path);
	snprintf(out, size, "%zu vs %zu bytes, first difference at byte %zu: %s", our_len, their_len, off, path);
}

/* ---- PostgreSQL-side helpers ----------------------------------------------------------------- */

/* The statement node of the first RawStmt of a node tree. */
static Node *first_c_stmt(void *nodes)
{
	List *l = nodes;
	if (!l || l->type != T_List || list_length(l) < 1)
		return NULL;
	RawStmt *rs = linitial(l);
	return rs && IsA(rs, RawStmt) ? rs->stmt : NULL;
}

/* A Bitmapset of the given members, in mcx (never via CurrentMemoryContext: see pg_headers.h). */
static Bitmapset *make_bms(MemoryContext mcx, const uint64_t *members, size_t n)
{
	if (n == 0)
		return NULL;
	uint64_t max = members[n - 1];
	int nwords = (int)(max / BITS_PER_BITMAPWORD) + 1;
	Bitmapset *b = MemoryContextAllocZero(mcx, offsetof(Bitmapset, words) + (size_t)nwords * sizeof(bitmapword));
	b->nwords = nwords;
	for (size_t i = 0; i < n; i++)
		b->words[members[i] / BITS_PER_BITMAPWORD] |= (bitmapword)1 << (members[i] % BITS_PER_BITMAPWORD);
	return b;
}

/* ---- the checks on one tree ------------------------------------------------------------------ */

/* Counts "got == want" for check; on a difference names the first differing field. */
static void same_tree(int check, const TreeId *id, const char *what, const pgbind_ParseResult *want,
					  const pgbind_ParseResult *got)
{
	bool same = pgbind_ParseResult_equal(want, got);
	Diff diff;
	tree_result(check, id, same, "%s differs from t: %s", what, same ? "" : tree_diff(want, got, &diff));
}

/* Counts "libpg_query's bytes == ours" for check; on a difference names the byte and, reading
 * libpg_query's bytes back, the first field where they differ from t. */
static void same_bytes(int check, const TreeId *id, const char *what, PgQueryProtobuf theirs,
					   const pgbind_ParseResult *t, const uint8_t *ours, size_t len, pgbind_Arena *arena)
{
	bool same = theirs.len == len && memcmp(theirs.data, ours, len) == 0;
	char why[768] = "";
	char as_tree[sizeof((Diff *)0)->path + 64] = "";
	if (!same) {
		bytes_diff(ours, len, (const uint8_t *)theirs.data, theirs.len, why, sizeof why);
		pgbind_Status st = {0};
		pgbind_ParseResult *read = pgbind_decode((const uint8_t *)theirs.data, theirs.len, NULL, arena, &st);
		Diff diff;
		if (!read)
			snprintf(as_tree, sizeof as_tree, "; libpg_query's bytes do not decode: %s", st.message);
		else if (pgbind_ParseResult_equal(t, read))
			snprintf(as_tree, sizeof as_tree, "; libpg_query's bytes decode to t itself");
		else
			snprintf(as_tree, sizeof as_tree, "; libpg_query's bytes decoded: %s", tree_diff(t, read, &diff));
	}
	tree_result(check, id, same, "%s differs from encode(t): %s%s", what, why, as_tree);
}

static void check_tree(Gen *g, pgbind_ParseResult *t, const TreeId *id)
{
	pgbind_Status st = {0};
	const uint8_t *bytes;
	size_t len;

	Walk mark = {.mark = true};
	walk_tree(&mark, t);
	if (opt_print) {
		const char *shown = pgbind_text(t, g->arena, &st);
		printf("# tree: round %d, %s%s\n%s\n", id->round, id->variant ? "" : "root kind ",
			   id->variant ? id->variant : kind_name(id->kind), shown ? shown : st.message);
	}

	/* (F) deparse: whatever the tree, SQL or a status saying why not (a crash ends the test). A
	 * random tree comes from outside: the deparser runs isolated, as for any such tree */
	memset(&st, 0, sizeof st);
	static const pgbind_Options isolated = {.isolate_deparse = true};
	const char *sql = pgbind_deparse(t, &isolated, g->arena, &st);
	tree_result(CK_F, id, sql || (st.code != PGBIND_OK && st.message[0]),
				"pgbind_deparse returned NULL without a status");
	char why[1200];
	tree_result(CK_F, id, contract_walks_agree(t, why, sizeof why), "%s", why);

	/* (A) decode(encode(t)) == t, with every field set (xpr and bitmapsets too) */
	if (!pgbind_encode(t, NULL, g->arena, &bytes, &len, &st)) {
		tree_result(CK_A, id, false, "encode failed: %s", st.message);
		return;
	}
	pgbind_ParseResult *back = pgbind_decode(bytes, len, NULL, g->arena, &st);
	if (!back)
		tree_result(CK_A, id, false, "decode(encode(t)) failed: %s", st.message);
	else
		same_tree(CK_A, id, "decode(encode(t))", t, back);

	/* The rest sees the tree as libpg_query can: no xpr, no bitmapsets; the root's are kept apart
	 * for (D). */
	const pgbind_Node *root = t->n_stmts == 1 ? t->stmts[0]->stmt : NULL;
	Walk strip = {.strip = true, .keep_root_bms = root};
	walk_tree(&strip, t);
	bool root_bms = false;
	uint64_t *saved[8] = {0};
	size_t saved_n[8] = {0};
	if (root) {
		int mi = message_index(pgbind_node_desc(root->tag));
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		for (uint32_t i = 0, k = 0; i < d->n_fields && k < 8; i++) {
			if (field_info[mi][i].conv != CONV_BITMAPSET)
				continue;
			char *m = (char *)root;
			saved[k] = *(uint64_t **)(m + d->fields[i].offset);
			saved_n[k] = *(size_t *)(m + d->fields[i].count_offset);
			*(uint64_t **)(m + d->fields[i].offset) = NULL;
			*(size_t *)(m + d->fields[i].count_offset) = 0;
			root_bms = true;
			k++;
		}
	}
	if (!pgbind_encode(t, NULL, g->arena, &bytes, &len, &st)) {
		tree_result(CK_A, id, false, "encode of the stripped tree failed: %s", st.message);
		return;
	}

	MemoryContext mcx = pg_query_enter_memory_context();

	/* (B) libpg_query's writer on pgbind's nodes gives pgbind's bytes; (E) libpg_query's reader
	 * on those bytes gives pgbind's nodes: equal() to them, and the same AST through from_pg */
	if (!strip.no_writer) {
		void *nodes = NULL;
		if (!pgbind_to_pg_parse_tree(t, mcx, NULL, &nodes, &st)) {
			tree_result(CK_B, id, false, "pgbind_to_pg_parse_tree failed: %s", st.message);
		} else {
			List *theirs = pg_query_protobuf_to_nodes((PgQueryProtobuf){len, (char *)bytes});
			if (!strip.no_equal)
				tree_result(CK_E, id, equal(nodes, theirs),
							"pg_query_protobuf_to_nodes(encode(t)) is not equal() to to_pg(t)");
			pgbind_ParseResult *read = pgbind_from_pg_parse_tree(theirs, NULL, g->arena, &st);
			if (!read)
				tree_result(CK_E, id, false, "from_pg(pg_query_protobuf_to_nodes(encode(t))) failed: %s", st.message);
			else
				same_tree(CK_E, id, "from_pg(pg_query_protobuf_to_nodes(encode(t)))", t, read);
			PgQueryProtobuf pb = pg_query_nodes_to_protobuf(nodes);
			same_bytes(CK_B, id, "pg_query_nodes_to_protobuf(to_pg(t))", pb, t, bytes, len, g->arena);
			free(pb.data);
		}
		/* the same with "" kept, as in the nodes of a tree from pgbind_parse */
		if (!pgbind_to_pg_nodes(t, mcx, NULL, true, &nodes, &st)) {
			tree_result(CK_B, id, false, "pgbind_to_pg_nodes failed: %s", st.message);
		} else {
			PgQueryProtobuf pb = pg_query_nodes_to_protobuf(nodes);
			same_bytes(CK_B, id, "pg_query_nodes_to_protobuf(to_pg(t), \"\" kept)", pb, t, bytes, len, g->arena);
			free(pb.data);
		}
	}

	/* (C) nodes -> AST -> nodes, "" kept */
	void *nodes = NULL, *again = NULL;
	pgbind_ParseResult *twice;
	if (!pgbind_to_pg_nodes(t, mcx, NULL, true, &nodes, &st)) {
		tree_result(CK_C, id, false, "pgbind_to_pg_nodes failed: %s", st.message);
	} else if (!(back = pgbind_from_pg_parse_tree(nodes, NULL, g->arena, &st))) {
		tree_result(CK_C, id, false, "pgbind_from_pg_parse_tree failed: %s", st.message);
	} else if (!pgbind_to_pg_nodes(back, mcx, NULL, true, &again, &st)) {
		tree_result(CK_C, id, false, "pgbind_to_pg_nodes of from_pg's tree failed: %s", st.message);
	} else if (!(twice = pgbind_from_pg_parse_tree(again, NULL, g->arena, &st))) {
		tree_result(CK_C, id, false, "pgbind_from_pg_parse_tree, second time, failed: %s", st.message);
	} else {
		if (!strip.no_equal)
			tree_result(CK_C, id, equal(nodes, again), "to_pg(from_pg(to_pg(t))) is not equal() to to_pg(t)");
		same_tree(CK_C, id, "from_pg(to_pg(t))", t, back);
		same_tree(CK_C, id, "from_pg(to_pg(from_pg(to_pg(t))))", t, twice);
	}

	/* (D) the root's bitmapsets, set on the C node by hand */
	if (root_bms && !strip.no_writer) {
		char *m = (char *)root;
		int mi = message_index(pgbind_node_desc(root->tag));
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		for (uint32_t i = 0, k = 0; i < d->n_fields; i++) {
			if (field_info[mi][i].conv != CONV_BITMAPSET)
				continue;
			*(uint64_t **)(m + d->fields[i].offset) = saved[k];
			*(size_t *)(m + d->fields[i].count_offset) = saved_n[k];
			k++;
		}
		Node *c_root;
		if (!pgbind_encode(t, NULL, g->arena, &bytes, &len, &st)) {
			tree_result(CK_D, id, false, "encode failed: %s", st.message);
		} else if (!pgbind_to_pg_parse_tree(t, mcx, NULL, &nodes, &st) || !(c_root = first_c_stmt(nodes))) {
			tree_result(CK_D, id, false, "pgbind_to_pg_parse_tree failed: %s", st.message);
		} else {
			for (uint32_t i = 0; i < d->n_fields; i++) {
				const FieldInfo *fi = &field_info[mi][i];
				const pgbind_FieldDesc *f = &d->fields[i];
				if (fi->conv == CONV_BITMAPSET)
					*(Bitmapset **)((char *)c_root + fi->bms_c_offset) =
						make_bms(mcx, *(uint64_t **)(m + f->offset), *(size_t *)(m + f->count_offset));
			}
			/* from_pg first: libpg_query's writer empties the sets (bms_first_member) */
			pgbind_ParseResult *read = pgbind_from_pg_parse_tree(nodes, NULL, g->arena, &st);
			if (!read)
				tree_result(CK_D, id, false, "pgbind_from_pg_parse_tree failed: %s", st.message);
			else
				same_tree(CK_D, id, "from_pg(C nodes with bitmapsets)", t, read);
			PgQueryProtobuf pb = pg_query_nodes_to_protobuf(nodes);
			same_bytes(CK_D, id, "pg_query_nodes_to_protobuf(C nodes with bitmapsets)", pb, t, bytes, len, g->arena);
			free(pb.data);
		}
	}

	pg_query_exit_memory_context(mcx);
}

/* One tree with root kind `tag` in round `round`, built and checked. */
static void run_tree(int round, uint32_t tag)
{
	Gen g = {.arena = pgbind_Arena_New(),
			 .state = tree_state(opt_seed, round, tag, 0),
			 .round = round,
			 .budget = NODE_BUDGET};
	if (!g.arena) {
		fprintf(stderr, "test_property: out of memory\n");
		exit(2);
	}
	TreeId id = {round, tag, NULL};
	pgbind_Node *root = gen_node(&g, tag, 0);
	check_tree(&g, wrap(&g, &root, 1), &id);
	kind_checked[tag] = true;
	pgbind_Arena_Free(g.arena);
}

/* Per round, besides one tree per kind: a ParseResult of no statements and one of three. */
static void run_statement_lists(int round)
{
	Gen g = {
		.arena = pgbind_Arena_New(), .state = tree_state(opt_seed, round, 0, 1), .round = round, .budget = NODE_BUDGET};
	TreeId id = {round, 0, "ParseResult of 0 statements"};
	check_tree(&g, wrap(&g, NULL, 0), &id);
	pgbind_Node *stmts[3];
	for (int i = 0; i < 3; i++)
		stmts[i] = gen_any_node(&g, 1);
	id.variant = "ParseResult of 3 statements";
	check_tree(&g, wrap(&g, stmts, 3), &id);
	pgbind_Arena_Free(g.arena);
}

/* ---- exclusions, named ----------------------------------------------------------------------- */

static void print_exclusions(void)
{
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		if (!d->tag || !field_info[mi])
			continue;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const char *f = d->fields[i].name;
			switch (field_info[mi][i].conv) {
			case CONV_XPR:
				printf("ok - excluded %s.%s from (B)-(E): the Expr header is the node's own tag in C, with no "
					   "node to hold; libpg_query's writer never writes it and pgbind's to_pg/from_pg skip it "
					   "(set in (A) only)\n",
					   d->name, f);
				break;
			case CONV_BITMAPSET:
				printf("ok - excluded %s.%s from (B), (C), (E): libpg_query's reader ignores bitmapsets, so "
					   "to_pg leaves them empty; (A) sets it in every tree, (D) at the root on the C node\n",
					   d->name, f);
				break;
			default:
				break;
			}
		}
	}
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		if (writer_cannot(tag))
			printf("ok - excluded kind %s from (B), (D), (E), and from nesting: libpg_query 15's writer reads "
				   "its int cells as pointers (SIGSEGV) and its reader stops with an error; (A) and (C) run "
				   "on %s roots\n",
				   kind_name(tag), kind_name(tag));
		if (equal_cannot(tag))
			printf("ok - excluded kind %s from the equal() comparisons of (C), (E), and from nesting: "
				   "PostgreSQL 15's equal() has no case for it (\"unrecognized node type\", which ends the "
				   "process); the AST comparisons of (C), (E) and all of (A), (B) run on %s roots\n",
				   kind_name(tag), kind_name(tag));
	}
}

/* ---- enum mapping checks --------------------------------------------------------------------- */

/* A node of kind tag with nothing set but what C holds by value (CreateForeignTableStmt.base). */
static pgbind_Node *minimal_node(pgbind_Arena *arena, uint32_t tag);

static void *minimal_message(pgbind_Arena *arena, int mi)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	char *m = zalloc(arena, d->size);
	((pgbind_Node *)m)->tag = (pgbind_NodeTag)d->tag;
	for (uint32_t i = 0; i < d->n_fields; i++)
		if (field_info[mi][i].conv == CONV_EMBEDDED)
			*(void **)(m + d->fields[i].offset) = minimal_message(arena, d->fields[i].type_index);
	return m;
}

static pgbind_Node *minimal_node(pgbind_Arena *arena, uint32_t tag)
{
	return minimal_message(arena, message_index(pgbind_node_desc(tag)));
}

static pgbind_ParseResult *one_stmt(pgbind_Arena *arena, pgbind_Node *stmt)
{
	pgbind_ParseResult *r = zalloc(arena, sizeof *r);
	pgbind_RawStmt *rs = zalloc(arena, sizeof *rs);
	pgbind_RawStmt **stmts = zalloc(arena, sizeof *stmts);
	*rs = (pgbind_RawStmt){.tag = PGBIND_T_RawStmt, .stmt = stmt};
	stmts[0] = rs;
	*r = (pgbind_ParseResult){.version = pgbind_libpg_query_version_num, .n_stmts = 1, .stmts = stmts};
	return r;
}

/* An enum field through both directions: sets the proto value at ast_offset of a minimal node of
 * kind tag, converts it to C, reads the int-sized C enum at c_offset, and converts back. False
 * when a conversion fails. */
static bool enum_trip(uint32_t tag, size_t ast_offset, int32_t proto, size_t c_offset, MemoryContext mcx, int *c_value,
					  int32_t *proto_back)
{
	pgbind_Arena *arena = must(pgbind_Arena_New());
	pgbind_Node *n = minimal_node(arena, tag);
	memcpy((char *)n + ast_offset, &proto, sizeof proto);
	void *nodes = NULL;
	pgbind_Status st = {0};
	Node *c = NULL;
	pgbind_ParseResult *back = NULL;
	bool ok = pgbind_to_pg_parse_tree(one_stmt(arena, n), mcx, NULL, &nodes, &st) && (c = first_c_stmt(nodes)) &&
			  (back = pgbind_from_pg_parse_tree(nodes, NULL, arena, &st));
	if (ok) {
		memcpy(c_value, (char *)c + c_offset, sizeof *c_value);
		memcpy(proto_back, (char *)back->stmts[0]->stmt + ast_offset, sizeof *proto_back);
	}
	pgbind_Arena_Free(arena);
	return ok;
}

static void test_enum_mapping(void)
{
	pgbind_Arena *arena = must(pgbind_Arena_New());
	MemoryContext mcx = pg_query_enter_memory_context();
	int c_value;
	int32_t proto_back;

	/* LimitOption: the library was built with 15.1's order, LIMIT_OPTION_DEFAULT = 0 (overrides.txt;
	 * the installed 15.x headers put it last) */
	static const struct {
		int32_t proto, c, back;
	} limit[] = {{PGBIND_LIMIT_OPTION_UNDEFINED, 0, PGBIND_LIMIT_OPTION_DEFAULT},
				 {PGBIND_LIMIT_OPTION_DEFAULT, 0, PGBIND_LIMIT_OPTION_DEFAULT},
				 {PGBIND_LIMIT_OPTION_COUNT, 1, PGBIND_LIMIT_OPTION_COUNT},
				 {PGBIND_LIMIT_OPTION_WITH_TIES, 2, PGBIND_LIMIT_OPTION_WITH_TIES}};
	for (size_t i = 0; i < sizeof limit / sizeof *limit; i++) {
		bool ok = enum_trip(PGBIND_T_SelectStmt, offsetof(pgbind_SelectStmt, limitOption), limit[i].proto,
							offsetof(SelectStmt, limitOption), mcx, &c_value, &proto_back);
		CHECK(ok && c_value == limit[i].c && proto_back == limit[i].back,
			  "LimitOption proto %d -> C %d -> proto %d (got %d, %d)", limit[i].proto, limit[i].c, limit[i].back,
			  c_value, proto_back);
	}

	/* PartitionRangeDatumKind: C values -1, 0, 1; proto 0 is the first, MINVALUE */
	static const struct {
		int32_t proto, c, back;
	} prd[] = {{PGBIND_PARTITION_RANGE_DATUM_KIND_UNDEFINED, -1, PGBIND_PARTITION_RANGE_DATUM_MINVALUE},
			   {PGBIND_PARTITION_RANGE_DATUM_MINVALUE, -1, PGBIND_PARTITION_RANGE_DATUM_MINVALUE},
			   {PGBIND_PARTITION_RANGE_DATUM_VALUE, 0, PGBIND_PARTITION_RANGE_DATUM_VALUE},
			   {PGBIND_PARTITION_RANGE_DATUM_MAXVALUE, 1, PGBIND_PARTITION_RANGE_DATUM_MAXVALUE}};
	CHECK(PARTITION_RANGE_DATUM_MINVALUE == -1 && PARTITION_RANGE_DATUM_VALUE == 0 &&
			  PARTITION_RANGE_DATUM_MAXVALUE == 1,
		  "the installed headers' PartitionRangeDatumKind values");
	for (size_t i = 0; i < sizeof prd / sizeof *prd; i++) {
		bool ok = enum_trip(PGBIND_T_PartitionRangeDatum, offsetof(pgbind_PartitionRangeDatum, kind), prd[i].proto,
							offsetof(PartitionRangeDatum, kind), mcx, &c_value, &proto_back);
		CHECK(ok && c_value == prd[i].c && proto_back == prd[i].back,
			  "PartitionRangeDatumKind proto %d -> C %d -> proto %d (got %d, %d)", prd[i].proto, prd[i].c, prd[i].back,
			  c_value, proto_back);
	}

	/* FunctionParameterMode: C values are chars; proto 0 is the first, FUNC_PARAM_IN ('i') */
	static const struct {
		int32_t proto, c, back;
	} fpm[] = {{PGBIND_FUNCTION_PARAMETER_MODE_UNDEFINED, 'i', PGBIND_FUNC_PARAM_IN},
			   {PGBIND_FUNC_PARAM_IN, 'i', PGBIND_FUNC_PARAM_IN},
			   {PGBIND_FUNC_PARAM_OUT, 'o', PGBIND_FUNC_PARAM_OUT},
			   {PGBIND_FUNC_PARAM_INOUT, 'b', PGBIND_FUNC_PARAM_INOUT},
			   {PGBIND_FUNC_PARAM_VARIADIC, 'v', PGBIND_FUNC_PARAM_VARIADIC},
			   {PGBIND_FUNC_PARAM_TABLE, 't', PGBIND_FUNC_PARAM_TABLE},
			   {PGBIND_FUNC_PARAM_DEFAULT, 'd', PGBIND_FUNC_PARAM_DEFAULT}};
	CHECK(FUNC_PARAM_IN == 'i' && FUNC_PARAM_OUT == 'o' && FUNC_PARAM_INOUT == 'b' && FUNC_PARAM_VARIADIC == 'v' &&
			  FUNC_PARAM_TABLE == 't' && FUNC_PARAM_DEFAULT == 'd',
		  "the installed headers' FunctionParameterMode chars");
	for (size_t i = 0; i < sizeof fpm / sizeof *fpm; i++) {
		bool ok = enum_trip(PGBIND_T_FunctionParameter, offsetof(pgbind_FunctionParameter, mode), fpm[i].proto,
							offsetof(FunctionParameter, mode), mcx, &c_value, &proto_back);
		CHECK(ok && c_value == fpm[i].c && proto_back == fpm[i].back,
			  "FunctionParameterMode proto %d -> C '%c' -> proto %d (got %d, %d)", fpm[i].proto, fpm[i].c, fpm[i].back,
			  c_value, proto_back);
	}

	/* Every enum field of every node kind: proto 0 reads as the first value, in pgbind's to_pg
	 * and in libpg_query's reader alike, and comes back from C as that value. */
	int n_fields = 0, n_ok = 0;
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		if (!d->tag || !field_info[mi])
			continue;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const FieldInfo *fi = &field_info[mi][i];
			if (fi->conv != CONV_ENUM)
				continue;
			n_fields++;
			pgbind_Node *n = minimal_node(arena, d->tag);
			pgbind_ParseResult *t = one_stmt(arena, n);
			void *nodes = NULL;
			pgbind_Status st = {0};
			const uint8_t *bytes;
			size_t len;
			pgbind_ParseResult *back = NULL;
			bool good = pgbind_to_pg_parse_tree(t, mcx, NULL, &nodes, &st) &&
						(back = pgbind_from_pg_parse_tree(nodes, NULL, arena, &st)) &&
						pgbind_encode(t, NULL, arena, &bytes, &len, &st);
			int got = -1;
			if (good) {
				const char *m = (const char *)back->stmts[0]->stmt;
				memcpy(&got, m + d->fields[i].offset, sizeof got);
				List *theirs = pg_query_protobuf_to_nodes((PgQueryProtobuf){len, (char *)bytes});
				good = got == fi->enum_values[0] && equal(nodes, theirs);
			}
			if (good)
				n_ok++;
			CHECK(good, "%s.%s: proto 0 reads as %s (%d), as libpg_query's reader reads it (got %d)", d->name,
				  d->fields[i].name, pgbind_enum_value_name(d->fields[i].type_index, fi->enum_values[0]),
				  fi->enum_values[0], got);
		}
	}
	int n_wire_enums = 0;
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++)
		for (uint32_t i = 0; pgbind_message_descs[mi].tag && i < pgbind_message_descs[mi].n_fields; i++)
			n_wire_enums += pgbind_message_descs[mi].fields[i].wire == PGBIND_WIRE_ENUM;
	CHECK(n_fields > 0 && n_ok == n_fields && n_fields == n_wire_enums,
		  "proto 0 reads as the first value in %d of %d enum fields of node kinds (%d in the descriptors)", n_ok,
		  n_fields, n_wire_enums);

	/* WCOKind: C value 6 (WCO_VIEW_CONFLICT_CHECK, after 15.1) has no proto value: an error */
	{
		pgbind_ParseResult *t = one_stmt(arena, minimal_node(arena, PGBIND_T_WithCheckOption));
		((pgbind_WithCheckOption *)t->stmts[0]->stmt)->kind = PGBIND_WCO_VIEW_CHECK;
		void *nodes = NULL;
		pgbind_Status st = {0};
		Node *c = NULL;
		bool built = pgbind_to_pg_parse_tree(t, mcx, NULL, &nodes, &st) && (c = first_c_stmt(nodes));
		CHECK(built && ((WithCheckOption *)c)->kind == 0, "WCO_VIEW_CHECK is C value 0");
		if (built) {
			((WithCheckOption *)c)->kind = 6;
			pgbind_ParseResult *back = pgbind_from_pg_parse_tree(nodes, NULL, arena, &st);
			CHECK(!back && st.code == PGBIND_ERROR_INVALID, "C WCOKind 6 has no proto value: an error (%s)",
				  st.message);
		}
	}

	pg_query_exit_memory_context(mcx);
	pgbind_Arena_Free(arena);
}

/* ---- coverage -------------------------------------------------------------------------------- */

static void report_coverage(int rounds, bool whole_run)
{
	int kinds = 0, kinds_done = 0, fields = 0, fields_done = 0, values = 0, values_done = 0;
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		if (!d->tag || !field_info[mi])
			continue;
		kinds++;
		if (kind_checked[d->tag])
			kinds_done++;
		else if (whole_run)
			CHECK(false, "coverage: node kind %s was never built as a root and checked", d->name);
		for (uint32_t i = 0; i < d->n_fields; i++) {
			fields++;
			if (field_set[mi][i])
				fields_done++;
			else if (whole_run)
				CHECK(false, "coverage: %s.%s was never set in a checked tree", d->name, d->fields[i].name);
		}
	}
	int32_t longest = 0;
	for (int e = 0; e < PGBIND_ENUM_COUNT; e++) {
		if (enum_n_values[e] > longest)
			longest = enum_n_values[e];
	}
	bool used[PGBIND_ENUM_COUNT] = {0}; /* by a field of a node kind (ScanToken's enums are not) */
	for (int mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++)
		for (uint32_t i = 0; field_info[mi] && i < pgbind_message_descs[mi].n_fields; i++)
			if (field_info[mi][i].conv == CONV_ENUM)
				used[pgbind_message_descs[mi].fields[i].type_index] = true;
	for (int e = 0; e < PGBIND_ENUM_COUNT; e++) {
		const pgbind_EnumDesc *ed = &pgbind_enum_descs[e];
		for (uint32_t v = 0; used[e] && v < ed->n_values; v++) {
			if (ed->values[v].number == 0)
				continue;
			values++;
			if (enum_hit[e][v])
				values_done++;
			else if (whole_run && rounds >= longest)
				CHECK(false, "coverage: enum value %s.%s never occurred", ed->name, ed->values[v].name);
		}
	}
	if (whole_run) {
		CHECK(kinds == PGBIND_NODE_KIND_COUNT, "coverage: %d node kinds described, expected %d", kinds,
			  PGBIND_NODE_KIND_COUNT);
		CHECK(kinds_done == kinds && fields_done == fields, "coverage complete");
	}
	printf("coverage: %d of %d node kinds, %d of %d fields set; %d of %d values of the enums in use\n", kinds_done,
		   kinds, fields_done, fields, values_done, values);
}

/* ---- main ------------------------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr, "usage: test_property [--seed N] [--rounds N] [--round R] [--kind NODE_KIND] [--print]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int rounds = DEFAULT_ROUNDS, only_round = -1;
	uint32_t only_kind = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		if (strcmp(a, "--print") == 0) {
			opt_print = true;
			continue;
		}
		if (!v)
			usage();
		if (strcmp(a, "--seed") == 0) {
			opt_seed = strtoull(v, &end, 0);
		} else if (strcmp(a, "--rounds") == 0) {
			rounds = (int)strtol(v, &end, 10);
		} else if (strcmp(a, "--round") == 0) {
			only_round = (int)strtol(v, &end, 10);
		} else if (strcmp(a, "--kind") == 0) {
			const pgbind_MessageDesc *d = pgbind_message_desc_by_name(v);
			if (!d || !d->tag) {
				fprintf(stderr, "test_property: %s is not a node kind\n", v);
				return 2;
			}
			only_kind = d->tag;
			end = (char *)v + strlen(v);
		} else {
			usage();
		}
		if (!end || *end || end == v)
			usage();
		i++;
	}
	if (rounds < 1)
		usage();
	if (only_round >= 0)
		rounds = only_round + 1;
	bool whole_run = only_round < 0 && only_kind == 0;
	int n_rounds = only_round >= 0 ? 1 : rounds;
	printf("# seed %" PRIu64 ", %d round%s%s%s\n", opt_seed, n_rounds, n_rounds == 1 ? "" : "s",
		   only_kind ? ", root kind " : "", only_kind ? kind_name(only_kind) : "");

	if (!setup()) {
		printf("0 passed, 1 failed\n");
		return 1;
	}
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++)
		if (pgbind_node_desc(tag) && !writer_cannot(tag) && !equal_cannot(tag))
			nestable_tags[n_nestable++] = tag;
	print_exclusions();

	if (whole_run)
		test_enum_mapping();
	for (int r = only_round < 0 ? 0 : only_round; r < rounds; r++) {
		for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++)
			if (pgbind_node_desc(tag) && (!only_kind || tag == only_kind))
				run_tree(r, tag);
		if (!only_kind)
			run_statement_lists(r);
	}

	for (int c = 0; c < CK_COUNT; c++)
		printf("# %-72s %6d passed, %d failed\n", check_names[c], check_passed[c], check_failed[c]);
	report_coverage(rounds, whole_run);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
