/*
 * fuzz_deparse_tree.c -- libFuzzer target: the input is a stream of choices that builds a tree over
 * the descriptor tables (pgbind_reflect.h), as a program building or rewriting a tree by hand
 * could: any node kind in any node field or list cell, NULL or not, strings NULL, empty or not,
 * lists of any length with NULL cells, enum values in range and out of it. pgbind_deparse must
 * return SQL or an error for it, never crash the calling process (the deparser runs isolated,
 * pgbind_Options.isolate_deparse, and its crash in the child is an error, counted); and the
 * contract's generated walk agrees with its reference walk.
 */
#include "deparse_target.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	const uint8_t *p, *end;
	pgbind_Arena *arena;
	int budget; /* nodes left */
} Gen;

static unsigned next(Gen *g)
{
	return g->p < g->end ? *g->p++ : 0;
}

static uint32_t node_tags[PGBIND_NODE_TAG_LIMIT];
static uint32_t n_node_tags;

static void *gen_message(Gen *g, const pgbind_MessageDesc *d, int depth);

static pgbind_Node *gen_node(Gen *g, int depth)
{
	unsigned c = next(g);
	if (c == 0 || depth > 6 || g->budget <= 0)
		return NULL;
	uint32_t tag = node_tags[(c * 256 + next(g)) % n_node_tags];
	return gen_message(g, pgbind_node_desc(tag), depth + 1);
}

static const char *gen_string(unsigned c)
{
	static const char *const strings[] = {"a", "", "t", "format", "null", "x1", "*", "-1", "1.5", "public", "int4"};
	return c == 0 ? NULL : strings[c % (sizeof strings / sizeof *strings)];
}

static void *gen_message(Gen *g, const pgbind_MessageDesc *d, int depth)
{
	char *m = pgbind_Arena_Malloc(g->arena, d->size);
	if (!m)
		return NULL;
	memset(m, 0, d->size);
	g->budget--;
	if (d->tag)
		((pgbind_Node *)m)->tag = d->tag;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		void *p = m + f->offset;
		unsigned c = next(g);
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_UINT32:
			*(int32_t *)p = (int32_t)(int8_t)c;
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
			*(int64_t *)p = (int64_t)(int8_t)c;
			break;
		case PGBIND_WIRE_BOOL:
			*(bool *)p = c & 1;
			break;
		case PGBIND_WIRE_DOUBLE:
			*(double *)p = (double)(int8_t)c;
			break;
		case PGBIND_WIRE_STRING:
			*(const char **)p = gen_string(c);
			break;
		case PGBIND_WIRE_ENUM: {
			const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
			*(int *)p = c < 240 && e->n_values ? e->values[c % e->n_values].number : (int)c - 250;
			break;
		}
		case PGBIND_WIRE_NODE:
			if (c & 1)
				*(pgbind_Node **)p = gen_node(g, depth);
			break;
		case PGBIND_WIRE_ONEOF: {
			const pgbind_OneofDesc *o = &pgbind_oneof_descs[f->type_index];
			if ((c & 1) && o->n_members && depth < 7) {
				const pgbind_OneofMemberDesc *mem = &o->members[next(g) % o->n_members];
				*(void **)p = gen_message(g, &pgbind_message_descs[mem->message_index], depth + 1);
			}
			break;
		}
		case PGBIND_WIRE_MESSAGE:
			if ((c & 1) && depth < 7 && g->budget > 0)
				*(void **)p = gen_message(g, &pgbind_message_descs[f->type_index], depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = depth < 7 && g->budget > 0 ? c % 4 : 0;
			void **cells = n ? pgbind_Arena_Malloc(g->arena, n * sizeof *cells) : NULL;
			if (n && !cells)
				n = 0;
			for (size_t k = 0; k < n; k++)
				cells[k] = f->wire == PGBIND_WIRE_REPEATED_NODE ? (void *)gen_node(g, depth)
						   : next(g) ? gen_message(g, &pgbind_message_descs[f->type_index], depth + 1)
									 : NULL;
			*(size_t *)(m + f->count_offset) = n;
			*(void ***)p = cells;
			break;
		}
		case PGBIND_WIRE_PACKED_UINT64:
			break;
		}
	}
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!n_node_tags)
		for (uint32_t t = 0; t < PGBIND_NODE_TAG_LIMIT; t++)
			if (pgbind_node_desc(t))
				node_tags[n_node_tags++] = t;
	pgbind_Arena *arena = pgbind_Arena_New();
	Gen g = {data, data + size, arena, 120};
	/* a ParseResult of one or two statements, each a random node in a RawStmt */
	pgbind_ParseResult *tree = pgbind_Arena_Malloc(arena, sizeof *tree);
	const pgbind_MessageDesc *raw = pgbind_message_desc_by_name("RawStmt");
	size_t n = 1 + (next(&g) & 1);
	pgbind_RawStmt **stmts = pgbind_Arena_Malloc(arena, n * sizeof *stmts);
	if (tree && stmts && raw) {
		memset(tree, 0, sizeof *tree);
		tree->version = 150001;
		tree->n_stmts = n;
		tree->stmts = stmts;
		for (size_t i = 0; i < n; i++) {
			stmts[i] = pgbind_Arena_Malloc(arena, raw->size);
			if (!stmts[i])
				break;
			memset(stmts[i], 0, raw->size);
			stmts[i]->tag = raw->tag;
			stmts[i]->stmt = gen_node(&g, 0);
		}
		walks_agree(tree);
		deparse_isolated(tree, arena);
	}
	pgbind_Arena_Free(arena);
	return 0;
}
