/*
 * from_pg.c -- PostgreSQL raw parse nodes -> pgbind AST, and pgbind_parse().
 *
 * The per-node converters are generated (targets/c/generated/pgNN/from_pg.inc.c): each is a flat list of
 * FROM_PG_<KIND>(c_field, ast_field, type) lines, one per proto field. What each conversion kind
 * means is defined here, once, by the macros below (the shape of PostgreSQL's copyfuncs.c).
 *
 * Errors are sticky: the first one is recorded in the context and every converter entered after
 * it returns NULL at once, so there is one check, at the end. Every converter checks its nesting
 * depth on entry, so no input can recurse deeper than max_depth; a failure lowers the limit below
 * any depth, so that entering costs one test. The depth is a parameter (RawStmt's is 1), not a
 * counter in the context: counting up and down around every node chained each node's entry to
 * the previous one's exit through memory.
 *
 * PostgreSQL's headers come through pg_headers.h.
 */
#include "pg_headers.h"

#include "internal.h"

#include <stdarg.h>
#include <string.h>

/* The helpers run once per node or field: a call to any of them costs as much as its work. */
#define FROM_PG_INLINE static inline __attribute__((always_inline))

typedef struct FromPg {
	pgbind_Arena *arena;
	pgbind_Status *status;
	int limit; /* the deepest converter allowed: max_depth, or 0 once failed */
	int max_depth;
	bool failed;
} FromPg;

/* ---- failure --------------------------------------------------------------------------------- */

static void from_pg_fail(FromPg *cx, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void from_pg_fail(FromPg *cx, pgbind_StatusCode code, const char *fmt, ...)
{
	if (cx->failed)
		return;
	cx->failed = true;
	cx->limit = 0;
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(cx->status, code, fmt, ap);
	va_end(ap);
}

static pgbind_Node *from_pg_bad_tag(FromPg *cx, const Node *n, const char *where)
{
	from_pg_fail(cx, PGBIND_ERROR_INVALID, "%s: node tag %ld has no converter", where, (long)nodeTag(n));
	return NULL;
}

static int32_t from_pg_bad_enum(FromPg *cx, const char *enum_name, int value)
{
	from_pg_fail(cx, PGBIND_ERROR_INVALID, "enum %s: C value %ld has no protocol value", enum_name, (long)value);
	return 0;
}

/* A converter at depth > cx->limit: too deep, or after a failure. */
static __attribute__((noinline, cold)) void *from_pg_refuse(FromPg *cx)
{
	if (!cx->failed)
		from_pg_fail(cx, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
					 cx->max_depth);
	return NULL;
}

static __attribute__((noinline, cold)) void from_pg_nomem(FromPg *cx)
{
	from_pg_fail(cx, PGBIND_ERROR_NOMEM, "out of memory");
}

FROM_PG_INLINE void *from_pg_alloc(FromPg *cx, size_t size)
{
	void *p = pgbind_Arena_Alloc(cx->arena, size);
	if (__builtin_expect(!p, 0))
		from_pg_nomem(cx);
	return p;
}

/* ---- scalars and strings ---------------------------------------------------------------------- */

/* One-char strings for `char` fields: no allocation. '\0' is NULL (unset), as in libpg_query. */
#define C1(x)        \
	{                \
		(char)(x), 0 \
	}
#define C4(x)  C1(x), C1((x) + 1), C1((x) + 2), C1((x) + 3)
#define C16(x) C4(x), C4((x) + 4), C4((x) + 8), C4((x) + 12)
#define C64(x) C16(x), C16((x) + 16), C16((x) + 32), C16((x) + 48)
static const char one_char_strings[256][2] = {C64(0), C64(64), C64(128), C64(192)};

FROM_PG_INLINE const char *from_pg_char(char c)
{
	return c ? one_char_strings[(unsigned char)c] : NULL;
}

/* A copy of s. Most strings are names, a few bytes long: they are moved eight bytes at a time
 * (the last move overlapping the one before), as memcpy of a length known only at run time costs
 * a call or a `rep movsb`, each slower than the copy itself. Reads stay inside the string. */
FROM_PG_INLINE char *from_pg_copy(FromPg *cx, const char *s)
{
	size_t len = strlen(s) + 1; /* s is not empty: len >= 2 */
	char *d = from_pg_alloc(cx, len);
	if (!d)
		return NULL;
	if (len >= 8 && len <= 64) {
		uint64_t w;
		for (size_t i = 0; i + 8 < len; i += 8) {
			memcpy(&w, s + i, 8);
			memcpy(d + i, &w, 8);
		}
		memcpy(&w, s + len - 8, 8);
		memcpy(d + len - 8, &w, 8);
	} else if (len >= 4 && len < 8) {
		uint32_t h, t;
		memcpy(&h, s, 4);
		memcpy(&t, s + len - 4, 4);
		memcpy(d, &h, 4);
		memcpy(d + len - 4, &t, 4);
	} else if (len < 4) {
		d[0] = s[0];
		d[1] = s[1];
		d[len - 1] = '\0';
	} else {
		memcpy(d, s, len);
	}
	return d;
}

/* The same out of line, for the many char * fields. */
static char *from_pg_copy_call(FromPg *cx, const char *s)
{
	return from_pg_copy(cx, s);
}

/* NULL stays NULL and "" stays "": the protocol cannot tell them apart, but PostgreSQL can
 * (COMMENT ... IS '' is not IS NULL), and the fingerprint does. */
FROM_PG_INLINE const char *from_pg_string(FromPg *cx, const char *s)
{
	return !s ? NULL : !*s ? "" : from_pg_copy_call(cx, s);
}

/* The string of a String node (and of the other value nodes): the copy is inlined into these
 * few converters, as String nodes are half the nodes of a tree. */
FROM_PG_INLINE const char *from_pg_value_string(FromPg *cx, const char *s)
{
	return !s ? NULL : !*s ? "" : from_pg_copy(cx, s);
}

/* ---- nodes, lists, bitmapsets ----------------------------------------------------------------- */

static pgbind_Node *from_pg_dispatch(FromPg *cx, const Node *n, int depth);
static pgbind_String *from_pg_String(FromPg *cx, const String *n, int depth);

/* Half the nodes of a parse tree are String (names and their parts): they skip the dispatcher's
 * jump table, where their share of the mispredicted jumps would go. */
FROM_PG_INLINE pgbind_Node *from_pg_node(FromPg *cx, const Node *n, int depth)
{
	if (!n)
		return NULL;
	if (nodeTag(n) == T_String)
		return (pgbind_Node *)from_pg_String(cx, (const String *)n, depth);
	return from_pg_dispatch(cx, n, depth);
}

/* The cells of a non-empty List of node pointers; NULL cells stay NULL (SELECT DISTINCT a is
 * distinctClause = (NULL)). */
static pgbind_Node **from_pg_cells(FromPg *cx, const List *l, size_t *n_out, int depth)
{
	*n_out = 0;
	if (l->type != T_List) {
		/* libpg_query 15 reads the cells of an IntList/OidList in a List field as pointers */
		from_pg_fail(cx, PGBIND_ERROR_INVALID, "a List field holds a list of tag %d, not a List of nodes",
					 (int)l->type);
		return NULL;
	}
	size_t n = (size_t)l->length;
	const ListCell *cells = l->elements;
	pgbind_Node **items = from_pg_alloc(cx, n * sizeof *items);
	if (!items)
		return NULL;
	for (size_t i = 0; i < n; i++)
		items[i] = from_pg_node(cx, (const Node *)lfirst(&cells[i]), depth);
	*n_out = n;
	return items;
}

/* Most List fields are empty (NIL): they cost a test, not a call. depth is the cells'. */
FROM_PG_INLINE pgbind_Node **from_pg_list(FromPg *cx, const List *l, size_t *n_out, int depth)
{
	if (!l) {
		*n_out = 0;
		return NULL;
	}
	return from_pg_cells(cx, l, n_out, depth);
}

/* IntList/OidList cells become Integer nodes. libpg_query 15 itself cannot encode these lists
 * (it reads the cells as pointers and crashes), and the raw grammar never builds them. */
static pgbind_Node **from_pg_int_cells(FromPg *cx, const List *l, size_t *n_out, bool oids)
{
	*n_out = 0;
	int n = list_length(l);
	pgbind_Node **items = from_pg_alloc(cx, (size_t)n * sizeof *items);
	pgbind_Integer *ints = from_pg_alloc(cx, (size_t)n * sizeof *ints);
	if (!items || !ints)
		return NULL;
	for (int i = 0; i < n; i++) {
		const ListCell *c = list_nth_cell(l, i);
		ints[i].tag = PGBIND_T_Integer;
		ints[i].ival = oids ? (int32_t)lfirst_oid(c) : (int32_t)lfirst_int(c);
		items[i] = (pgbind_Node *)&ints[i];
	}
	*n_out = (size_t)n;
	return items;
}

/* Members in increasing order, as libpg_query's bms_first_member loop writes them. */
static uint64_t *from_pg_bitmapset(FromPg *cx, const Bitmapset *bms, size_t *n_out)
{
	*n_out = 0;
	if (!bms)
		return NULL;
	size_t n = 0;
	for (int w = 0; w < bms->nwords; w++)
		n += (size_t)__builtin_popcountll((unsigned long long)bms->words[w]);
	if (n == 0)
		return NULL;
	uint64_t *out = from_pg_alloc(cx, n * sizeof *out);
	if (!out)
		return NULL;
	size_t k = 0;
	for (int w = 0; w < bms->nwords; w++) {
		bitmapword word = bms->words[w];
		while (word) {
			int bit = __builtin_ctzll((unsigned long long)word);
			out[k++] = (uint64_t)w * BITS_PER_BITMAPWORD + (uint64_t)bit;
			word &= word - 1;
		}
	}
	*n_out = n;
	return out;
}

/* A union of value nodes held by value (A_Const.val): its leading NodeTag picks the member; a
 * zero tag means nothing was stored. */
static inline pgbind_Node *from_pg_value_union(FromPg *cx, const Node *n,
											   pgbind_Node *(*convert)(FromPg *, const Node *, int), int depth)
{
	return nodeTag(n) == T_Invalid ? NULL : convert(cx, n, depth);
}

/* A pointer declared as a specific node type must hold that type: libpg_query would read it as
 * one regardless. */
static pgbind_Node *from_pg_wrong_tag(FromPg *cx, const Node *n, const char *expected)
{
	from_pg_fail(cx, PGBIND_ERROR_INVALID, "expected a %s node, found node tag %ld", expected, (long)nodeTag(n));
	return NULL;
}

/* ---- the conversion kinds (see generator/classify.h) ------------------------------------------ */

/* Converters stay out of line: inlined into the dispatcher's cases, they would make every node
 * pay for the registers of the largest. depth is the converter's own; its children are one
 * deeper. */
#define FROM_PG_BEGIN(M, C)                                                                     \
	static __attribute__((noinline)) pgbind_##M *from_pg_##M(FromPg *cx, const C *n, int depth) \
	{                                                                                           \
		pgbind_##M *o;                                                                          \
		(void)n;                                                                                \
		if (__builtin_expect(depth > cx->limit || pgbind_stack_low(), 0))                       \
			return from_pg_refuse(cx);                                                          \
		if (!(o = from_pg_alloc(cx, sizeof *o)))                                                \
			return NULL;                                                                        \
		o->tag = PGBIND_T_##M;
#define FROM_PG_END \
	return o;       \
	}

#define FROM_PG_SCALAR(cf, af, T)       o->af = n->cf;
#define FROM_PG_CHAR(cf, af, T)         o->af = from_pg_char(n->cf);
#define FROM_PG_CSTRING(cf, af, T)      o->af = from_pg_string(cx, n->cf);
#define FROM_PG_VALUE_STRING(cf, af, T) o->af = from_pg_value_string(cx, n->cf);
#define FROM_PG_ENUM(cf, af, T)         o->af = (pgbind_##T)from_pg_enum_##T(cx, (int)n->cf);
#define FROM_PG_NODE(cf, af, T)         o->af = from_pg_node(cx, (const Node *)n->cf, depth + 1);
#define FROM_PG_MESSAGE(cf, af, T)                                        \
	o->af = !n->cf                    ? NULL                              \
			: nodeTag(n->cf) == T_##T ? from_pg_##T(cx, n->cf, depth + 1) \
									  : (pgbind_##T *)from_pg_wrong_tag(cx, (const Node *)n->cf, #T);
#define FROM_PG_EMBEDDED(cf, af, T)  o->af = from_pg_##T(cx, &n->cf, depth + 1);
#define FROM_PG_XPR(cf, af, T)       o->af = NULL; /* a supertype (Expr xpr): never written */
#define FROM_PG_LIST(cf, af, T)      o->af = from_pg_list(cx, n->cf, &o->n_##af, depth + 1);
#define FROM_PG_BITMAPSET(cf, af, T) o->af = from_pg_bitmapset(cx, n->cf, &o->n_##af);
#define FROM_PG_VALUE_UNION(cf, af, T) \
	o->af = from_pg_value_union(cx, (const Node *)&n->cf, from_pg_oneof_##T, depth + 1);
#define FROM_PG_VALUE_UNION_UNLESS(cf, af, T, cond) \
	o->af = n->cond ? NULL : from_pg_value_union(cx, (const Node *)&n->cf, from_pg_oneof_##T, depth + 1);
#define FROM_PG_LIST_CELLS(cf, af, T) o->af = from_pg_list(cx, n, &o->n_##af, depth + 1);
#define FROM_PG_INT_CELLS(cf, af, T)  o->af = from_pg_int_cells(cx, n, &o->n_##af, false);
#define FROM_PG_OID_CELLS(cf, af, T)  o->af = from_pg_int_cells(cx, n, &o->n_##af, true);

#include "from_pg.inc.c"

/* ---- entry points ---------------------------------------------------------------------------- */

pgbind_ParseResult *pgbind_from_pg_parse_tree(const void *raw_stmt_list, const pgbind_Options *options,
											  pgbind_Arena *arena, pgbind_Status *status)
{
	if (!arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "arena is NULL");
		return NULL;
	}
	FromPg cx = {.arena = arena, .status = status, .max_depth = pgbind_max_depth(options)};
	cx.limit = cx.max_depth;
	const List *stmts = raw_stmt_list;
	pgbind_ParseResult *r = from_pg_alloc(&cx, sizeof *r);
	if (!r)
		return NULL;
	r->version = pgbind_libpg_query_version_num;
	r->n_stmts = 0;
	r->stmts = NULL;
	if (stmts) {
		if (stmts->type != T_List) {
			from_pg_fail(&cx, PGBIND_ERROR_INVALID, "a parse tree is a List of RawStmt, found node tag %d",
						 (int)stmts->type);
			return NULL;
		}
		int n = list_length(stmts);
		r->stmts = from_pg_alloc(&cx, (size_t)n * sizeof *r->stmts);
		for (int i = 0; r->stmts && i < n; i++) {
			const Node *s = lfirst(list_nth_cell(stmts, i));
			if (!s || nodeTag(s) != T_RawStmt)
				r->stmts[i] = (pgbind_RawStmt *)from_pg_wrong_tag(&cx, s ? s : (const Node *)stmts, "RawStmt");
			else
				r->stmts[i] = from_pg_RawStmt(&cx, (const RawStmt *)s, 1);
		}
		r->n_stmts = (size_t)n;
	}
	return cx.failed ? NULL : r;
}

bool pgbind_with_raw_parse(const char *sql, const pgbind_Options *options, pgbind_Status *status,
						   bool (*fn)(const void *raw_stmt_list, void *ctx), void *ctx)
{
	(void)options; /* the parser takes none yet */
	MemoryContext mc = pg_query_enter_memory_context();
	PgQueryInternalParsetreeAndError raw = PGBIND_RAW_PARSE(sql);
	bool ok = false;
	if (raw.error) {
		pgbind_fail(status, PGBIND_ERROR_SYNTAX, "%s", raw.error->message ? raw.error->message : "syntax error");
		if (status)
			status->cursorpos = raw.error->cursorpos;
		pg_query_free_error(raw.error);
	} else {
		ok = fn(raw.tree, ctx);
	}
	free(raw.stderr_buffer);
	pg_query_exit_memory_context(mc);
	return ok;
}

typedef struct {
	const pgbind_Options *options;
	pgbind_Arena *arena;
	pgbind_Status *status;
	pgbind_ParseResult *result;
} ParseCall;

static bool convert(const void *raw_stmt_list, void *ctx)
{
	ParseCall *c = ctx;
	c->result = pgbind_from_pg_parse_tree(raw_stmt_list, c->options, c->arena, c->status);
	return c->result != NULL;
}

pgbind_ParseResult *pgbind_parse(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
								 pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_parse(sql, options, arena, status));
	if (!sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", sql ? "arena" : "sql");
		return NULL;
	}
	ParseCall c = {options, arena, status, NULL};
	pgbind_with_raw_parse(sql, options, status, convert, &c);
	return c.result;
}
