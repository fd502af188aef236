/*
 * routes.c -- the measured paths of pgbind-bench: each pgbind route and libpg_query's own route
 * to the same result (the baseline), or its floor (the limit), as one function over one prepared
 * statement, in the table bench_ops (bench.h names them: OP_*); --only's selection
 * (op_available); and preparing a statement, which computes what the paths need and runs each
 * once (item_prepare). Depends on the runtime, libpg_query (and protobuf-c where it has it) and,
 * for pgbind_find_lossy_empty_string, the runtime's internal.h.
 */
#include "bench.h"
#include "internal.h" /* pgbind_find_lossy_empty_string */
#include "pgbind_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * libpg_query's entry points that pgbind_parse() uses and pg_query.h does not declare; they are
 * declared here rather than through targets/c/runtime/pg_headers.h because PostgreSQL's port.h, which that
 * pulls in, redefines printf and snprintf. The struct is PgQueryInternalParsetreeAndError with the
 * List pointer kept opaque (same layout: three pointers); a MemoryContext is a pointer.
 */
typedef struct {
	void *tree;
	char *stderr_buffer;
	PgQueryError *error;
} BenchRawParse;

#ifdef PG_QUERY_PARSE_MODE_BITS /* libpg_query 16 on: parser options */
BenchRawParse pg_query_raw_parse(const char *input, int parser_options);
#define BENCH_RAW_PARSE(sql) pg_query_raw_parse((sql), PG_QUERY_PARSE_DEFAULT)
#else
BenchRawParse pg_query_raw_parse(const char *input);
#define BENCH_RAW_PARSE(sql) pg_query_raw_parse(sql)
#endif
void *pg_query_enter_memory_context(void);
void pg_query_exit_memory_context(void *ctx);
void pg_query_free_error(PgQueryError *error);

static volatile uint64_t sink; /* results flow here so that nothing is optimised away */

static void arena_done(pgbind_Arena *a, ArenaUse *use)
{
	if (use) {
		use->blocks += pgbind_Arena_BlockCount(a);
		use->bytes += pgbind_Arena_SpaceAllocated(a);
	}
	pgbind_Arena_Free(a);
}

static bool op_parse(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_parse(it->sql, NULL, a, NULL) : NULL;
	sink += t ? t->n_stmts : 0;
	arena_done(a, use);
	return t != NULL;
}

/*
 * The baselines that need protobuf-c's message types: the libpg_query it comes with (up to 17).
 * 18 uses upb, whose C message types it does not install; those rows are then n/a.
 */
#ifdef PGBIND_HAVE_PROTOBUF_C
static bool op_parse_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(it->sql);
	bool ok = !r.error;
	if (ok) {
		PgQuery__ParseResult *m =
			pg_query__parse_result__unpack(NULL, r.parse_tree.len, (const uint8_t *)r.parse_tree.data);
		ok = m != NULL;
		if (m) {
			sink += m->n_stmts;
			pg_query__parse_result__free_unpacked(m, NULL);
		}
	}
	pg_query_free_protobuf_parse_result(r);
	return ok;
}
#define PROTOBUF_C_OP(fn) fn
#else
#define PROTOBUF_C_OP(fn) NULL
#endif

/* libpg_query's protobuf bytes alone, nothing decoded: the floor of every binding's route to a
 * tree (protobuf-c's or upb's, prost's, Go's decode comes on top). */
static bool op_parse_pb(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(it->sql);
	bool ok = !r.error;
	sink += r.parse_tree.len;
	pg_query_free_protobuf_parse_result(r);
	return ok;
}

/* What pgbind_parse does before converting: the floor for any parse to a tree. */
static bool op_raw(const Item *it, ArenaUse *use)
{
	(void)use;
	void *ctx = pg_query_enter_memory_context();
	BenchRawParse r = BENCH_RAW_PARSE(it->sql);
	bool ok = !r.error && r.tree;
	sink += (uintptr_t)r.tree & 0xff;
	if (r.error)
		pg_query_free_error(r.error);
	free(r.stderr_buffer);
	pg_query_exit_memory_context(ctx);
	return ok;
}

/* SQL -> AST -> JSON text, what pg_query_parse returns. */
static bool op_json(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_parse(it->sql, NULL, a, NULL) : NULL;
	const char *json = t ? pgbind_json(t, NULL, a, NULL) : NULL;
	sink += json ? (unsigned char)json[0] : 0;
	arena_done(a, use);
	return json != NULL;
}

/* AST -> JSON text alone (the AST precomputed). */
static bool op_json_ast(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	const char *json = a ? pgbind_json(it->tree, NULL, a, NULL) : NULL;
	sink += json ? (unsigned char)json[0] : 0;
	arena_done(a, use);
	return json != NULL;
}

static bool op_json_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryParseResult r = pg_query_parse(it->sql);
	bool ok = !r.error && r.parse_tree;
	sink += ok ? (unsigned char)r.parse_tree[0] : 0;
	pg_query_free_parse_result(r);
	return ok;
}

static bool op_encode(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	const uint8_t *data = NULL;
	size_t len = 0;
	bool ok = a && pgbind_encode(it->tree, NULL, a, &data, &len, NULL) && len == it->pb_len;
	sink += len;
	arena_done(a, use);
	return ok;
}

#ifdef PGBIND_HAVE_PROTOBUF_C
static bool op_encode_base(const Item *it, ArenaUse *use)
{
	(void)use;
	size_t len = pg_query__parse_result__pack(it->msg, it->packbuf);
	sink += len;
	return len == it->pb_len;
}
#endif

static bool op_decode(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_decode(it->pb, it->pb_len, NULL, a, NULL) : NULL;
	sink += t ? t->n_stmts : 0;
	arena_done(a, use);
	return t != NULL;
}

#ifdef PGBIND_HAVE_PROTOBUF_C
static bool op_decode_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQuery__ParseResult *m = pg_query__parse_result__unpack(NULL, it->pb_len, it->pb);
	if (!m)
		return false;
	sink += m->n_stmts;
	pg_query__parse_result__free_unpacked(m, NULL);
	return true;
}
#endif

static bool op_deparse(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	const char *sql = a ? pgbind_deparse(it->tree, NULL, a, NULL) : NULL;
	sink += sql ? (unsigned char)sql[0] : 0;
	arena_done(a, use);
	return sql != NULL;
}

/* The isolated deparse (pgbind_Options.isolate_deparse): the deparser in the deparse server, a
 * round trip a statement; its price beside the plain deparse row (the server is started before
 * the timing, by the preparation's run of every op). */
static bool op_deparse_isolated(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Options isolated = {.isolate_deparse = true};
	const char *sql = a ? pgbind_deparse(it->tree, &isolated, a, NULL) : NULL;
	sink += sql ? (unsigned char)sql[0] : 0;
	arena_done(a, use);
	return sql != NULL;
}

/* The deparse contract's check alone (targets/c/runtime/contract.c): its price beside the deparse row. */
static bool op_contract(const Item *it, ArenaUse *use)
{
	(void)use;
	bool ok = pgbind_check_deparse_contract(it->tree, PGBIND_DEFAULT_MAX_DEPTH, NULL);
	sink += ok;
	return ok;
}

/* With the round-trip check: a refusal (libpg_query's SQL is of another tree) did the whole work
 * too, so it counts as a run, and such statements stay in the corpus of every row. */
static bool op_deparse_checked(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Options check = {.check_deparse = true};
	pgbind_Status st = {0};
	const char *sql = a ? pgbind_deparse(it->tree, &check, a, &st) : NULL;
	sink += sql ? (unsigned char)sql[0] : 0;
	arena_done(a, use);
	return sql != NULL || st.code == PGBIND_ERROR_ROUND_TRIP;
}

static bool deparse_bytes(const uint8_t *data, size_t len)
{
	PgQueryProtobuf pb = {len, (char *)data};
	PgQueryDeparseResult r = pg_query_deparse_protobuf(pb);
	bool ok = !r.error && r.query;
	sink += ok ? (unsigned char)r.query[0] : 0;
	pg_query_free_deparse_result(r);
	return ok;
}

#ifdef PGBIND_HAVE_PROTOBUF_C
static bool op_deparse_base(const Item *it, ArenaUse *use)
{
	(void)use;
	size_t len = pg_query__parse_result__pack(it->msg, it->packbuf);
	return deparse_bytes(it->packbuf, len);
}
#endif

/* libpg_query's deparser from bytes: what every route to SQL text pays on this libpg_query
 * (its node-level deparser is static), so the floor for the deparse row. */
static bool op_deparse_floor(const Item *it, ArenaUse *use)
{
	(void)use;
	return deparse_bytes(it->pb, it->pb_len);
}

static bool op_fingerprint(const Item *it, ArenaUse *use)
{
	(void)use;
	uint64_t fp = 0;
	bool ok = pgbind_fingerprint(it->tree, NULL, &fp, NULL);
	sink += fp;
	return ok;
}

static bool op_fingerprint_sql(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_parse(it->sql, NULL, a, NULL) : NULL;
	uint64_t fp = 0;
	bool ok = t && pgbind_fingerprint(t, NULL, &fp, NULL);
	sink += fp;
	arena_done(a, use);
	return ok;
}

static bool op_fingerprint_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryFingerprintResult r = pg_query_fingerprint(it->sql);
	bool ok = !r.error;
	sink += r.fingerprint;
	pg_query_free_fingerprint_result(r);
	return ok;
}

static bool op_normalize(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	const char *n = a ? pgbind_normalize(it->tree, it->sql, NULL, a, NULL) : NULL;
	sink += n ? (unsigned char)n[0] : 0;
	arena_done(a, use);
	return n != NULL;
}

static bool op_normalize_sql(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_parse(it->sql, NULL, a, NULL) : NULL;
	const char *n = t ? pgbind_normalize(t, it->sql, NULL, a, NULL) : NULL;
	sink += n ? (unsigned char)n[0] : 0;
	arena_done(a, use);
	return n != NULL;
}

static bool op_normalize_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryNormalizeResult r = pg_query_normalize(it->sql);
	bool ok = !r.error && r.normalized_query;
	sink += ok ? (unsigned char)r.normalized_query[0] : 0;
	pg_query_free_normalize_result(r);
	return ok;
}

/* A summary (no truncation: the walk) as its protobuf bytes. */
static bool summary_bytes(pgbind_Summary *s, pgbind_Arena *a)
{
	const uint8_t *data = NULL;
	size_t len = 0;
	bool ok = s && pgbind_summary_encode(s, a, &data, &len, NULL);
	sink += len;
	return ok;
}

/* From SQL, as pg_query_summary takes it: summarized on PostgreSQL's raw parse tree. */
static bool op_summary(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	bool ok = a && summary_bytes(pgbind_summary_sql(it->sql, -1, NULL, a, NULL), a);
	arena_done(a, use);
	return ok;
}

static bool op_summary_ast(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	bool ok = a && summary_bytes(pgbind_summary(it->tree, -1, NULL, a, NULL), a);
	arena_done(a, use);
	return ok;
}

#if PG_VERSION_NUM >= 180000 /* libpg_query's summary: 18 on */
static bool op_summary_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQuerySummaryParseResult r = pg_query_summary(it->sql, 0, -1);
	bool ok = !r.error;
	sink += r.summary.len;
	pg_query_free_summary_parse_result(r);
	return ok;
}
#define SUMMARY_OP(fn) fn
#else
#define SUMMARY_OP(fn) NULL
#endif

/* What a proxy does per query: the tree, its fingerprint and normalized text, and the protobuf
 * bytes, from one parse. */
static bool op_proxy(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *t = a ? pgbind_parse(it->sql, NULL, a, NULL) : NULL;
	uint64_t fp = 0;
	const uint8_t *data = NULL;
	size_t len = 0;
	const char *n = NULL;
	bool ok = t && pgbind_fingerprint(t, NULL, &fp, NULL) && (n = pgbind_normalize(t, it->sql, NULL, a, NULL)) &&
			  pgbind_encode(t, NULL, a, &data, &len, NULL);
	sink += fp + len + (n ? (unsigned char)n[0] : 0);
	arena_done(a, use);
	return ok;
}

static bool op_proxy_base(const Item *it, ArenaUse *use)
{
	(void)use;
	PgQueryProtobufParseResult p = pg_query_parse_protobuf(it->sql);
	PgQueryFingerprintResult f = pg_query_fingerprint(it->sql);
	PgQueryNormalizeResult n = pg_query_normalize(it->sql);
	bool ok = !p.error && !f.error && !n.error;
	sink += p.parse_tree.len + f.fingerprint + (n.normalized_query ? (unsigned char)n.normalized_query[0] : 0);
	pg_query_free_protobuf_parse_result(p);
	pg_query_free_fingerprint_result(f);
	pg_query_free_normalize_result(n);
	return ok;
}

const OpDef bench_ops[N_OPS] = {
	[OP_PARSE] = {"parse", "pgbind", "arena new + pgbind_parse + arena free", op_parse},
	[OP_PARSE_BASE] = {"parse_protobuf_unpack", "baseline",
					   "pg_query_parse_protobuf + pg_query__parse_result__unpack + free_unpacked + free result",
					   PROTOBUF_C_OP(op_parse_base)},
	[OP_RAW] = {"raw_parse", "limit", "enter memory context + pg_query_raw_parse + exit context", op_raw},
	[OP_PARSE_PB] = {"parse_protobuf", "baseline", "pg_query_parse_protobuf + free result (nothing decoded)",
					 op_parse_pb},
	[OP_JSON] = {"json", "pgbind", "arena new + pgbind_parse + pgbind_json + arena free", op_json},
	[OP_JSON_AST] = {"json_from_ast", "pgbind", "arena new + pgbind_json (AST precomputed) + arena free", op_json_ast},
	[OP_JSON_BASE] = {"pg_query_parse", "baseline", "pg_query_parse + free result", op_json_base},
	[OP_ENCODE] = {"encode", "pgbind", "arena new + pgbind_encode (AST precomputed) + arena free", op_encode},
	[OP_ENCODE_BASE] = {"protobuf_c_pack", "baseline",
						"pg_query__parse_result__pack of the unpacked message into a preallocated "
						"buffer of get_packed_size (sizing not timed)",
						PROTOBUF_C_OP(op_encode_base)},
	[OP_DECODE] = {"decode", "pgbind", "arena new + pgbind_decode (bytes precomputed) + arena free", op_decode},
	[OP_DECODE_BASE] = {"protobuf_c_unpack", "baseline", "pg_query__parse_result__unpack + free_unpacked",
						PROTOBUF_C_OP(op_decode_base)},
	[OP_DEPARSE] = {"deparse", "pgbind",
					"arena new + pgbind_deparse (AST precomputed; encodes, then pg_query_deparse_protobuf) "
					"+ arena free",
					op_deparse},
	[OP_DEPARSE_BASE] = {"protobuf_c_pack_deparse", "baseline",
						 "pg_query__parse_result__pack into a preallocated buffer + pg_query_deparse_protobuf "
						 "+ free result",
						 PROTOBUF_C_OP(op_deparse_base)},
	[OP_DEPARSE_FLOOR] = {"deparse_protobuf", "limit",
						  "pg_query_deparse_protobuf alone on precomputed bytes + free result", op_deparse_floor},
	[OP_DEPARSE_CHECKED] = {"deparse_checked", "pgbind",
							"arena new + pgbind_deparse with check_deparse (parses the SQL back, compares with "
							"equal()) + arena free",
							op_deparse_checked},
	[OP_DEPARSE_ISOLATED] = {"deparse_isolated", "pgbind",
							 "arena new + pgbind_deparse with isolate_deparse (a round trip to the deparse server) "
							 "+ arena free",
							 op_deparse_isolated},
	[OP_CONTRACT] = {"deparse_contract", "pgbind", "the deparse contract's check alone (one walk of the AST)",
					 op_contract},
	[OP_FINGERPRINT] = {"fingerprint", "pgbind", "pgbind_fingerprint (AST precomputed)", op_fingerprint},
	[OP_FINGERPRINT_SQL] = {"fingerprint_from_sql", "pgbind",
							"arena new + pgbind_parse + pgbind_fingerprint + arena free", op_fingerprint_sql},
	[OP_FINGERPRINT_BASE] = {"pg_query_fingerprint", "baseline", "pg_query_fingerprint (of the SQL) + free result",
							 op_fingerprint_base},
	[OP_NORMALIZE] = {"normalize", "pgbind", "arena new + pgbind_normalize (AST precomputed) + arena free",
					  op_normalize},
	[OP_NORMALIZE_SQL] = {"normalize_from_sql", "pgbind", "arena new + pgbind_parse + pgbind_normalize + arena free",
						  op_normalize_sql},
	[OP_NORMALIZE_BASE] = {"pg_query_normalize", "baseline", "pg_query_normalize (of the SQL) + free result",
						   op_normalize_base},
	[OP_PROXY] = {"proxy", "pgbind",
				  "arena new + pgbind_parse + pgbind_fingerprint + pgbind_normalize + pgbind_encode + arena free",
				  op_proxy},
	[OP_PROXY_BASE] = {"proxy_libpg_query", "baseline",
					   "pg_query_parse_protobuf + pg_query_fingerprint + pg_query_normalize + free results",
					   op_proxy_base},
	[OP_SUMMARY] = {"summary", "pgbind",
					"arena new + pgbind_summary_sql (no truncation) + pgbind_summary_encode + arena free", op_summary},
	[OP_SUMMARY_AST] = {"summary_from_ast", "pgbind",
						"arena new + pgbind_summary (AST precomputed, no truncation) + pgbind_summary_encode + arena "
						"free",
						op_summary_ast},
	[OP_SUMMARY_BASE] = {"pg_query_summary", "baseline",
						 "pg_query_summary (of the SQL, no truncation; libpg_query 18 on) + free result",
						 SUMMARY_OP(op_summary_base)},
};

/* --only: a bit per selected path; 0 = all. raw_parse always runs: the x raw column needs it. */
static uint32_t only_ops;

bool op_available(int op)
{
	return bench_ops[op].fn && (only_ops == 0 || (only_ops & (1u << op)) || op == OP_RAW);
}

/* Parses --only=KEY[,KEY...] into only_ops. */
bool parse_only(const char *list)
{
	while (*list) {
		size_t len = strcspn(list, ",");
		int found = -1;
		for (int op = 0; op < N_OPS; op++)
			if (strlen(bench_ops[op].key) == len && strncmp(bench_ops[op].key, list, len) == 0)
				found = op;
		if (found < 0) {
			fprintf(stderr, "pgbind bench: --only: no path '%.*s'; paths:", (int)len, list);
			for (int op = 0; op < N_OPS; op++)
				fprintf(stderr, " %s", bench_ops[op].key);
			fprintf(stderr, "\n");
			return false;
		}
		only_ops |= 1u << found;
		list += len + (list[len] == ',');
	}
	return true;
}

void item_free(Item *it)
{
#ifdef PGBIND_HAVE_PROTOBUF_C
	if (it->msg)
		pg_query__parse_result__free_unpacked(it->msg, NULL);
	free(it->packbuf);
#endif
	free(it->pb);
	free(it->sql);
	memset(it, 0, sizeof *it);
}

int item_prepare(Bench *b, Item *it, uint32_t *failed)
{
	*failed = 0;
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(it->sql);
	if (r.error) {
		pg_query_free_protobuf_parse_result(r);
		return PREP_SYNTAX;
	}
	it->pb_len = r.parse_tree.len;
	it->pb = malloc(it->pb_len + 1);
	if (it->pb)
		memcpy(it->pb, r.parse_tree.data, it->pb_len);
	pg_query_free_protobuf_parse_result(r);
	if (!it->pb)
		return PREP_BROKEN;
	it->tree = pgbind_parse(it->sql, NULL, b->trees, NULL);
	if (!it->tree)
		return PREP_BROKEN;
	if (it->tree->n_stmts == 0)
		return PREP_EMPTY;
#ifdef PGBIND_HAVE_PROTOBUF_C
	it->msg = pg_query__parse_result__unpack(NULL, it->pb_len, it->pb);
	if (!it->msg)
		return PREP_BROKEN;
	it->packbuf = malloc(pg_query__parse_result__get_packed_size(it->msg) + 1);
	if (!it->packbuf)
		return PREP_BROKEN;
#endif
	for (int op = 0; op < N_OPS; op++) {
		if (!op_available(op))
			continue;
		/* libpg_query's deparser crashes on some empty strings that protobuf turns into NULL
		 * (ALTER TYPE t ADD VALUE ''), which pgbind deparses: its routes are not tried on trees
		 * holding one, nor where pgbind's refused (what it crashes on) */
		char where[160];
		if ((op == OP_DEPARSE_BASE || op == OP_DEPARSE_FLOOR) &&
			((*failed & (1u << OP_DEPARSE)) || pgbind_find_lossy_empty_string(it->tree, where, sizeof where)))
			*failed |= 1u << op;
		else if (!bench_ops[op].fn(it, NULL))
			*failed |= 1u << op;
	}
	return PREP_OK;
}
