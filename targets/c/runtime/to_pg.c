/*
 * to_pg.c -- pgbind AST -> PostgreSQL raw parse nodes, with the semantics of libpg_query's own
 * protobuf reader (pg_query_protobuf_to_nodes): enums by name, an unknown number as the enum's
 * first value; "" as NULL for char * fields but not in value nodes; one-char strings back to
 * char; NULL list cells kept; an empty list as NIL; bitmapsets not read (libpg_query's reader
 * ignores them, so does this, to stay equal() to it).
 *
 * Nodes are allocated in the memory context the caller passes (the one
 * pg_query_enter_memory_context() returned), with MemoryContextAllocExtended(..., NO_OOM), so an
 * allocation failure is an error status, never a longjmp. Errors are sticky, as in from_pg.c.
 *
 * The per-node converters are generated (targets/c/generated/pgNN/to_pg.inc.c) as TO_PG_<KIND> lines.
 */
#include "pg_headers.h"

#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

typedef struct ToPg {
	MemoryContext mcx;
	bool keep_empty; /* "" stays "" (a tree from pgbind_parse, for the fingerprint); else NULL */
	pgbind_Status *status;
	int depth;
	int max_depth;
	bool failed;
} ToPg;

static void to_pg_fail(ToPg *cx, pgbind_StatusCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void to_pg_fail(ToPg *cx, pgbind_StatusCode code, const char *fmt, ...)
{
	if (cx->failed)
		return;
	cx->failed = true;
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(cx->status, code, fmt, ap);
	va_end(ap);
}

static Node *to_pg_bad_tag(ToPg *cx, const pgbind_Node *o, const char *where)
{
	to_pg_fail(cx, PGBIND_ERROR_INVALID, "%s: node tag %u has no PostgreSQL node", where, (unsigned)o->tag);
	return NULL;
}

static void *to_pg_alloc(ToPg *cx, size_t size)
{
	if (cx->failed)
		return NULL;
	void *p =
		MemoryContextAllocExtended(cx->mcx, size ? size : 1, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);
	if (!p)
		to_pg_fail(cx, PGBIND_ERROR_NOMEM, "out of memory");
	return p;
}

static inline bool to_pg_enter(ToPg *cx)
{
	if (cx->failed)
		return false;
	if (++cx->depth > cx->max_depth || pgbind_stack_low()) {
		to_pg_fail(cx, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
				   cx->max_depth);
		return false;
	}
	return true;
}

/* char * fields: NULL stays NULL; "" is NULL as in libpg_query's reader unless keep_empty. */
static char *to_pg_string(ToPg *cx, const char *s, bool keep_empty)
{
	if (!s)
		return NULL;
	if (!*s && !keep_empty)
		return NULL;
	size_t len = strlen(s) + 1;
	char *copy = to_pg_alloc(cx, len);
	if (copy)
		memcpy(copy, s, len);
	return copy;
}

static Node *to_pg_dispatch(ToPg *cx, const pgbind_Node *o);

static inline Node *to_pg_node(ToPg *cx, const pgbind_Node *o)
{
	return o ? to_pg_dispatch(cx, o) : NULL;
}

/* A List of n cells in one allocation, as PostgreSQL's new_list() lays it out. */
static List *to_pg_new_list(ToPg *cx, NodeTag tag, size_t n)
{
	if (n > (size_t)INT_MAX) {
		to_pg_fail(cx, PGBIND_ERROR_INVALID, "a list of %zu elements is longer than PostgreSQL's lists", n);
		return NULL;
	}
	List *l = to_pg_alloc(cx, offsetof(List, initial_elements) + n * sizeof(ListCell));
	if (!l)
		return NULL;
	l->type = tag;
	l->length = (int)n;
	l->max_length = (int)n;
	l->elements = l->initial_elements;
	return l;
}

static List *to_pg_list(ToPg *cx, pgbind_Node *const *items, size_t n)
{
	if (n == 0)
		return NIL;
	List *l = to_pg_new_list(cx, T_List, n);
	for (size_t i = 0; l && i < n; i++)
		l->elements[i].ptr_value = to_pg_node(cx, items[i]);
	return l;
}

/* IntList/OidList from Integer nodes (libpg_query's reader refuses these lists; pgbind reads
 * them back as it writes them). */
static List *to_pg_int_list(ToPg *cx, NodeTag tag, pgbind_Node *const *items, size_t n)
{
	if (n == 0)
		return NIL;
	List *l = to_pg_new_list(cx, tag, n);
	for (size_t i = 0; l && i < n; i++) {
		if (!items[i] || items[i]->tag != PGBIND_T_Integer) {
			to_pg_fail(cx, PGBIND_ERROR_INVALID, "an %s holds something other than Integer nodes",
					   tag == T_IntList ? "IntList" : "OidList");
			return NULL;
		}
		int32_t v = ((const pgbind_Integer *)items[i])->ival;
		if (tag == T_IntList)
			l->elements[i].int_value = v;
		else
			l->elements[i].oid_value = (Oid)v;
	}
	return l;
}

/* ---- the conversion kinds -------------------------------------------------------------------- */

#define TO_PG_BEGIN(M, C)                                          \
	static C *to_pg_##M(ToPg *cx, const pgbind_##M *o)             \
	{                                                              \
		C *n;                                                      \
		(void)o;                                                   \
		if (!to_pg_enter(cx) || !(n = to_pg_alloc(cx, sizeof(C)))) \
			return NULL;                                           \
		((Node *)n)->type = T_##M;
/* The tag again: an embedded struct copied at offset 0 (CreateForeignTableStmt.base) brings its
 * own. A List converter may have replaced n by NIL. */
#define TO_PG_END(M)               \
	if (n)                         \
		((Node *)n)->type = T_##M; \
	cx->depth--;                   \
	return n;                      \
	}

#define TO_PG_SCALAR(cf, af, T)       n->cf = o->af;
#define TO_PG_CHAR(cf, af, T)         n->cf = o->af ? o->af[0] : '\0';
#define TO_PG_CSTRING(cf, af, T)      n->cf = to_pg_string(cx, o->af, cx->keep_empty);
#define TO_PG_VALUE_STRING(cf, af, T) n->cf = to_pg_string(cx, o->af ? o->af : "", true);
#define TO_PG_ENUM(cf, af, T)         n->cf = to_pg_enum_##T((int32_t)o->af);
#define TO_PG_NODE(cf, af, T)         n->cf = (void *)to_pg_node(cx, o->af);
#define TO_PG_MESSAGE(cf, af, T)      n->cf = o->af ? (void *)to_pg_##T(cx, o->af) : NULL;
#define TO_PG_EMBEDDED(cf, af, T)               \
	if (o->af) {                                \
		void *sub_ = to_pg_##T(cx, o->af);      \
		if (sub_)                               \
			memcpy(&n->cf, sub_, sizeof n->cf); \
	}
#define TO_PG_XPR(cf, af, T)       /* a supertype (Expr xpr): its tag is the node's own */
#define TO_PG_LIST(cf, af, T)      n->cf = to_pg_list(cx, o->af, o->n_##af);
#define TO_PG_BITMAPSET(cf, af, T) /* libpg_query's reader ignores bitmapsets */
#define TO_PG_VALUE_UNION(cf, af, T) \
	if (o->af)                       \
		to_pg_oneof_##T(cx, o->af, &n->cf);
#define TO_PG_VALUE_UNION_UNLESS(cf, af, T, cond) \
	if (!o->cond && o->af)                        \
		to_pg_oneof_##T(cx, o->af, &n->cf);
#define TO_PG_LIST_CELLS(cf, af, T) n = to_pg_list(cx, o->af, o->n_##af);
#define TO_PG_INT_CELLS(cf, af, T)  n = to_pg_int_list(cx, T_IntList, o->af, o->n_##af);
#define TO_PG_OID_CELLS(cf, af, T)  n = to_pg_int_list(cx, T_OidList, o->af, o->n_##af);
#define TO_PG_UNION_MEMBER(M)                           \
	{                                                   \
		M *sub_ = to_pg_##M(cx, (const pgbind_##M *)o); \
		if (sub_)                                       \
			memcpy(out, sub_, sizeof(M));               \
	}

#include "to_pg.inc.c"

/* ---- entry points ---------------------------------------------------------------------------- */

bool pgbind_to_pg_nodes(const pgbind_ParseResult *tree, void *memory_context, const pgbind_Options *options,
						bool keep_empty_strings, void **out, pgbind_Status *status)
{
	if (!tree || !memory_context || !out) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return false;
	}
	ToPg cx = {.mcx = memory_context,
			   .keep_empty = keep_empty_strings,
			   .status = status,
			   .max_depth = pgbind_max_depth(options)};
	*out = NIL;
	if (tree->n_stmts == 0)
		return true;
	List *l = to_pg_new_list(&cx, T_List, tree->n_stmts);
	for (size_t i = 0; l && i < tree->n_stmts; i++) {
		if (!tree->stmts[i]) {
			to_pg_fail(&cx, PGBIND_ERROR_INVALID, "ParseResult.stmts[%zu] is NULL", i);
			break;
		}
		l->elements[i].ptr_value = to_pg_RawStmt(&cx, tree->stmts[i]);
	}
	if (cx.failed)
		return false;
	*out = l;
	return true;
}

bool pgbind_to_pg_parse_tree(const pgbind_ParseResult *tree, void *memory_context, const pgbind_Options *options,
							 void **out, pgbind_Status *status)
{
	return pgbind_to_pg_nodes(tree, memory_context, options, false, out, status);
}
