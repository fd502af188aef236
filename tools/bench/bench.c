/*
 * bench.c -- pgbind-bench, the developer's benchmark (`pgbind bench` runs it; not installed): every
 * pgbind path timed against libpg_query's own route to the same result, on the same statements,
 * in one process. It links the runtime, the statement reader (reader/reader.h) and libpg_query
 * (statically where it can, with the allocator wrapped: below); the growth rows run the pgbind
 * command ($PGBIND, else the pgbind beside this program).
 *
 *   pgbind bench [--rounds=N] [--quick] [--json] [--only=PATH,...] [--dir=DIR] [FILE...]
 *   pgbind bench --growth [--rounds=N] [--quick] [--json] [--only=PATH,...]
 *
 * Corpus mode splits each file into statements as `pgbind verify` does (libpg_query's splitter;
 * psql `\` lines blanked, @extschema@/@extowner@ replaced by same-length identifiers); with no
 * FILE it reads the .sql files of DIR and DIR/extension, DIR defaulting to Debian's PostgreSQL 15
 * share directory. A statement is kept when libpg_query parses it to at least one statement and
 * every path below succeeds on it once (that pass is also the warm-up). Inputs a path needs but
 * does not produce are computed before any timing: the AST (encode, deparse, fingerprint), the
 * protobuf bytes (decode), protobuf-c's unpacked message and a buffer of its packed size (pack).
 * A timed pass runs one path over all statements; a round runs every path once, the order
 * rotated (and reversed on odd rounds) from round to round so that drift on a shared machine hits
 * all paths alike. Time is read with CLOCK_MONOTONIC around each chunk of 32 statements of a
 * pass, and a path's time is the sum over the chunks of each chunk's best round: other processes
 * only ever add time, and a chunk is short enough to have clean rounds on a busy machine (median
 * and best whole-pass times are in --json). Growth samples are batches of runs of about 2 ms,
 * each after one untimed run (warm caches whatever ran before); a size's time is its best sample.
 * pgbind paths create and free an arena per statement, as a user would, and that cost is timed.
 * MB/s are 10^6 bytes of the statements' SQL text per second for every path, so rows compare.
 *
 * Allocations are counted in a separate, untimed pass, by wrapping the allocator at link time
 * (-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup): every call from
 * an object in the link is counted, so linking libpg_query statically (libpg_query.a) counts its
 * internal allocations too (memory-context blocks, protobuf-c, result strings); calls made inside
 * libc itself (asprintf) are not. Peak is the highest live heap, by malloc_usable_size(), above
 * the level when the path started. Without the flags the wrappers are never called, __real_* stay
 * unresolved weak symbols, and the columns read n/a; with libpg_query linked dynamically only
 * pgbind's own calls are seen, and the baseline columns read n/a.
 *
 * Growth mode generates statements of n, 2n, 4n and 8n items in seven shapes (wide: select list,
 * IN list, VALUES rows, joins; deep: nested parenthesised arithmetic, nested scalar subqueries,
 * nested CASE) and prints, per path, the time at n and the ratio of each doubling: 2.0 is linear.
 * The largest statements stay at about half of the first limit any path hits on an 8 MiB stack,
 * measured on libpg_query 15-4.0.0: nested subqueries crash protobuf-c's recursive unpack
 * (SIGSEGV) from about 1,500 levels, so 8n = 800; the grammar rejects nested CASE from about
 * 2,000 levels and nested parentheses from about 3,500 (bison's stack), so 8n = 1,000 and 2,000;
 * joins nest 2,000 deep. All of it is inside pgbind's default max_depth (10,000). libpg_query's
 * fingerprint stops descending at 100 levels, so its deep shapes grow less than linearly.
 * Then the command's own input paths: `pgbind verify FILE` and `pgbind parse FILE` (protobuf, JSON,
 * text) on generated scripts of n, 2n, 4n and 8n statements (run_growth_cli).
 *
 * No number is judged: the exit code is 0 whenever the benchmark ran.
 */
#include "reader.h"
#include "pg_query.h"
#if defined(PGBIND_BENCH_PROTOBUF_C) && !defined(PGBIND_HAVE_PROTOBUF_C)
/* upb's libpg_query (18): protoc-c's code for its pg_query.proto, built by the Makefile, is the
 * protobuf-c baseline (the message types and names are those libpg_query up to 17 installs) */
#define PGBIND_HAVE_PROTOBUF_C
#endif
#ifdef PGBIND_HAVE_PROTOBUF_C
#include "pg_query.pb-c.h"
#endif
#include "internal.h" /* pgbind_find_lossy_empty_string */
#include "pgbind.h"
#include "pgbind_json.h"

#include <fcntl.h>
#include <glob.h>
#include <malloc.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

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

/* ---- allocation counting ----------------------------------------------------------------------- */

void *__real_malloc(size_t size) __attribute__((weak));
void *__real_calloc(size_t n, size_t size) __attribute__((weak));
void *__real_realloc(void *p, size_t size) __attribute__((weak));
void __real_free(void *p) __attribute__((weak));
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);

static struct {
	bool on;
	unsigned long long calls;
	long long live;
	long long peak;
} mem;

static inline void mem_added(void *p)
{
	if (!p)
		return;
	mem.live += (long long)malloc_usable_size(p);
	if (mem.live > mem.peak)
		mem.peak = mem.live;
}

void *__wrap_malloc(size_t size)
{
	void *p = __real_malloc(size);
	if (mem.on) {
		mem.calls++;
		mem_added(p);
	}
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);
	if (mem.on) {
		mem.calls++;
		mem_added(p);
	}
	return p;
}

void *__wrap_realloc(void *p, size_t size)
{
	if (!mem.on)
		return __real_realloc(p, size);
	long long old = p ? (long long)malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, size);
	mem.calls++;
	if (q || size == 0) {
		mem.live -= old;
		mem_added(q);
	}
	return q;
}

void __wrap_free(void *p)
{
	if (mem.on && p)
		mem.live -= (long long)malloc_usable_size(p);
	__real_free(p);
}

/* libpg_query returns strdup'd strings (pg_query_parse's JSON) that the caller frees. */
char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = __wrap_malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

static void mem_begin(void)
{
	mem.calls = 0;
	mem.live = 0;
	mem.peak = 0;
	mem.on = true;
}

static void mem_end(void)
{
	mem.on = false;
}

enum { SCOPE_NONE, SCOPE_PGBIND, SCOPE_ALL };

/* What the link lets us count: nothing, this program's own calls, or libpg_query's as well. */
static int mem_scope(void)
{
	/* --wrap=malloc resolves __real_malloc to malloc; without it the weak reference stays NULL.
	 * (Counting a malloc call made here would not tell: the compiler assumes malloc leaves mem
	 * alone and folds the test.) */
	if (!__real_malloc || !__real_calloc || !__real_realloc || !__real_free)
		return SCOPE_NONE;
	mem_begin();
	PgQueryProtobufParseResult r = pg_query_parse_protobuf("SELECT 1");
	unsigned long long inside = mem.calls;
	pg_query_free_protobuf_parse_result(r);
	mem_end();
	return inside ? SCOPE_ALL : SCOPE_PGBIND;
}

static const char *scope_text(int scope)
{
	switch (scope) {
	case SCOPE_ALL:
		return "malloc/calloc/realloc/strdup calls from pgbind, libpg_query and protobuf-c (link-time --wrap, "
			   "libpg_query.a); libc-internal ones not";
	case SCOPE_PGBIND:
		return "only this program's and pgbind's own calls: libpg_query is linked dynamically, its allocations "
			   "are not seen, so baseline columns read n/a";
	default:
		return "not counted: link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup "
			   "and libpg_query.a";
	}
}

/* ---- time ------------------------------------------------------------------------------------ */

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[n > 0 ? n : 1];
	memcpy(s, v, (size_t)n * sizeof *v);
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	return n == 0 ? 0 : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double best(const double *v, int n)
{
	double m = n ? v[0] : 0;
	for (int i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* ---- statements and the paths over them -------------------------------------------------------- */

typedef struct Item {
	char *sql;
	size_t sql_len;
	uint8_t *pb; /* libpg_query's protobuf bytes (pgbind_encode writes the same) */
	size_t pb_len;
#ifdef PGBIND_HAVE_PROTOBUF_C
	PgQuery__ParseResult *msg; /* protobuf-c's unpacking of pb */
	uint8_t *packbuf;          /* get_packed_size(msg) bytes, for the pack baselines */
#endif
	pgbind_ParseResult *tree; /* pgbind_parse(sql), in Bench.trees */
} Item;

/* Arena use of one pgbind run, reported by the ops when asked (the untimed pass). */
typedef struct ArenaUse {
	size_t blocks;
	size_t bytes;
} ArenaUse;

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

/* The summary of tree (no truncation: the walk) and its protobuf bytes. */
static bool summary_bytes(const pgbind_ParseResult *tree, pgbind_Arena *a)
{
	pgbind_Summary *s = tree ? pgbind_summary(tree, -1, NULL, a, NULL) : NULL;
	const uint8_t *data = NULL;
	size_t len = 0;
	bool ok = s && pgbind_summary_encode(s, a, &data, &len, NULL);
	sink += len;
	return ok;
}

/* From SQL, as pg_query_summary takes it. */
static bool op_summary(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	bool ok = a && summary_bytes(pgbind_parse(it->sql, NULL, a, NULL), a);
	arena_done(a, use);
	return ok;
}

static bool op_summary_ast(const Item *it, ArenaUse *use)
{
	pgbind_Arena *a = pgbind_Arena_New();
	bool ok = a && summary_bytes(it->tree, a);
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

typedef struct OpDef {
	const char *key;  /* name in --json */
	const char *side; /* pgbind, baseline or limit */
	const char *what; /* what one run does */
	bool (*fn)(const Item *it, ArenaUse *use);
} OpDef;

enum {
	OP_PARSE,
	OP_PARSE_BASE,
	OP_RAW,
	OP_PARSE_PB,
	OP_JSON,
	OP_JSON_AST,
	OP_JSON_BASE,
	OP_ENCODE,
	OP_ENCODE_BASE,
	OP_DECODE,
	OP_DECODE_BASE,
	OP_DEPARSE,
	OP_DEPARSE_BASE,
	OP_DEPARSE_FLOOR,
	OP_DEPARSE_CHECKED,
	OP_CONTRACT,
	OP_FINGERPRINT,
	OP_FINGERPRINT_SQL,
	OP_FINGERPRINT_BASE,
	OP_NORMALIZE,
	OP_NORMALIZE_SQL,
	OP_NORMALIZE_BASE,
	OP_PROXY,
	OP_PROXY_BASE,
	OP_SUMMARY,
	OP_SUMMARY_AST,
	OP_SUMMARY_BASE,
	N_OPS
};

static const OpDef ops[N_OPS] = {
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
					"arena new + pgbind_parse + pgbind_summary (no truncation) + pgbind_summary_encode + arena free",
					op_summary},
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

static bool op_available(int op)
{
	return ops[op].fn && (only_ops == 0 || (only_ops & (1u << op)) || op == OP_RAW);
}

/* Parses --only=KEY[,KEY...] into only_ops. */
static bool parse_only(const char *list)
{
	while (*list) {
		size_t len = strcspn(list, ",");
		int found = -1;
		for (int op = 0; op < N_OPS; op++)
			if (strlen(ops[op].key) == len && strncmp(ops[op].key, list, len) == 0)
				found = op;
		if (found < 0) {
			fprintf(stderr, "pgbind bench: --only: no path '%.*s'; paths:", (int)len, list);
			for (int op = 0; op < N_OPS; op++)
				fprintf(stderr, " %s", ops[op].key);
			fprintf(stderr, "\n");
			return false;
		}
		only_ops |= 1u << found;
		list += len + (list[len] == ',');
	}
	return true;
}

/* The table: a path, pgbind's op and the baseline's (or the limit alone). */
typedef struct RowDef {
	const char *name;
	int ours; /* -1 = none */
	int base; /* baseline, or the limit when ours is -1 */
	const char *goal;
} RowDef;

static const RowDef rows[] = {
	{"parse to typed tree", OP_PARSE, OP_PARSE_BASE, ">=8x, <=1.15 raw"},
	{"raw parse (the limit)", -1, OP_RAW, ""},
	{"parse vs parse_protobuf alone", OP_PARSE, OP_PARSE_PB, ">=3.5x"},
	{"JSON text from SQL", OP_JSON, OP_JSON_BASE, ">1x"},
	{"JSON text from AST", OP_JSON_AST, OP_JSON_BASE, ""},
	{"encode", OP_ENCODE, OP_ENCODE_BASE, ">=15x"},
	{"decode", OP_DECODE, OP_DECODE_BASE, ">=8x"},
	{"deparse", OP_DEPARSE, OP_DEPARSE_BASE, ">=2x"},
	{"deparse floor (libpg_query)", -1, OP_DEPARSE_FLOOR, ""},
	{"deparse, round trip checked", OP_DEPARSE_CHECKED, OP_DEPARSE_BASE, ""},
	{"check cost (vs unchecked)", OP_DEPARSE_CHECKED, OP_DEPARSE, ""},
	{"contract check alone (vs deparse)", OP_CONTRACT, OP_DEPARSE, ""},
	{"fingerprint from AST", OP_FINGERPRINT, OP_FINGERPRINT_BASE, ">=2x"},
	{"fingerprint from SQL", OP_FINGERPRINT_SQL, OP_FINGERPRINT_BASE, ">1.2x"},
	{"normalize from AST", OP_NORMALIZE, OP_NORMALIZE_BASE, ""},
	{"normalize from SQL", OP_NORMALIZE_SQL, OP_NORMALIZE_BASE, ""},
	{"proxy: parse+fp+normalize+pb", OP_PROXY, OP_PROXY_BASE, ">=3x"},
	{"summary from SQL (protobuf)", OP_SUMMARY, OP_SUMMARY_BASE, ""},
	{"summary from AST (protobuf)", OP_SUMMARY_AST, OP_SUMMARY_BASE, ""},
};
#define N_ROWS ((int)(sizeof rows / sizeof *rows))

/* ---- preparing a statement --------------------------------------------------------------------- */

typedef struct Bench {
	int rounds;
	bool rounds_given;
	bool quick;
	bool json;
	bool growth;
	const char *dir;
	int scope;
	pgbind_Arena *trees; /* the precomputed ASTs, outside any timing */
} Bench;

enum { PREP_OK, PREP_SYNTAX, PREP_EMPTY, PREP_BROKEN };

static void item_free(Item *it)
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

/* Computes what the paths need from it->sql, then runs every path once; *failed gets a bit per
 * path that failed. */
static int item_prepare(Bench *b, Item *it, uint32_t *failed)
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
		else if (!ops[op].fn(it, NULL))
			*failed |= 1u << op;
	}
	return PREP_OK;
}

/* ---- corpus ------------------------------------------------------------------------------------ */

typedef struct Corpus {
	Item *items;
	size_t n, cap;
	size_t sql_bytes;
	int files;
	long candidates, syntax_errors, empty, broken;
	size_t keep_every;
	long failed_on[N_OPS];
} Corpus;

static bool corpus_add(Corpus *c, char *sql, size_t len)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		Item *grown = realloc(c->items, cap * sizeof *grown);
		if (!grown)
			return false;
		c->items = grown;
		c->cap = cap;
	}
	c->items[c->n++] = (Item){.sql = sql, .sql_len = len};
	return true;
}

static bool corpus_add_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	(void)text;
	(void)at;
	(void)line;
	if (corpus_add(ctx, stmt, len))
		return true;
	free(stmt);
	return false;
}

static bool corpus_read_file(Corpus *c, const char *path)
{
	bool ok = cli_each_statement(path, "bench", corpus_add_statement, c);
	c->files += ok;
	return ok;
}

static bool corpus_glob(Corpus *c, const char *pattern)
{
	glob_t g;
	int rc = glob(pattern, 0, NULL, &g);
	if (rc == GLOB_NOMATCH)
		return true;
	if (rc != 0)
		return false;
	bool ok = true;
	for (size_t i = 0; ok && i < g.gl_pathc; i++)
		ok = corpus_read_file(c, g.gl_pathv[i]);
	globfree(&g);
	return ok;
}

/* Keeps every k-th statement (--quick), then prepares each, dropping the ones a path fails on. */
static void corpus_prepare(Bench *b, Corpus *c)
{
	size_t keep_every = 1;
	if (b->quick && c->n > 200)
		keep_every = (c->n + 199) / 200;
	c->keep_every = keep_every;
	size_t out = 0;
	c->candidates = (long)c->n;
	for (size_t i = 0; i < c->n; i++) {
		Item *it = &c->items[i];
		if (i % keep_every != 0) {
			item_free(it);
			continue;
		}
		uint32_t failed;
		int prep = item_prepare(b, it, &failed);
		if (prep == PREP_OK && failed) {
			for (int op = 0; op < N_OPS; op++)
				if (failed & (1u << op))
					c->failed_on[op]++;
			prep = PREP_BROKEN;
		} else if (prep == PREP_BROKEN) {
			c->broken++;
		}
		if (prep == PREP_SYNTAX)
			c->syntax_errors++;
		else if (prep == PREP_EMPTY)
			c->empty++;
		if (prep != PREP_OK) {
			item_free(it);
			continue;
		}
		c->sql_bytes += it->sql_len;
		c->items[out++] = *it;
	}
	c->n = out;
}

/* ---- measuring --------------------------------------------------------------------------------- */

/* Statements per timed chunk: each pass is timed in chunks, and a path's time is the sum over the
 * chunks of each chunk's best time over the rounds. Interference from other processes only ever
 * adds time, and a chunk (0.05 to 1 ms on the Debian corpus) is much shorter than a scheduler
 * time slice, so every chunk has clean rounds even on a busy machine; a 70 ms pass rarely does. */
#define CHUNK 32

typedef struct OpResult {
	double *ns;                       /* per round: time of the whole pass */
	double *chunk;                    /* per chunk: best time over the rounds */
	double t;                         /* the path's time: sum of the chunks' best */
	double med;                       /* median pass time over the rounds (for --json) */
	double min;                       /* best pass time (for --json) */
	double allocs, allocs_max;        /* malloc-family calls: mean per statement, most in one */
	double peak, peak_max;            /* peak live bytes above the start: mean per statement, most */
	double arena_blocks, arena_bytes; /* pgbind arena use per statement (pgbind paths) */
	long fails;
} OpResult;

/* The order of the paths in round r: rotated by r, reversed on odd rounds. */
static int round_op(int r, int k)
{
	int kk = (r & 1) ? N_OPS - 1 - k : k;
	return (kk + r) % N_OPS;
}

/* One untimed pass with the allocator counting, per statement. */
static void count_allocs(int op, const Item *items, size_t n, OpResult *res)
{
	double calls = 0, peak = 0, blocks = 0, bytes = 0;
	res->allocs_max = res->peak_max = 0;
	for (size_t i = 0; i < n; i++) {
		ArenaUse use = {0, 0};
		mem_begin();
		ops[op].fn(&items[i], &use);
		mem_end();
		calls += (double)mem.calls;
		peak += (double)mem.peak;
		blocks += (double)use.blocks;
		bytes += (double)use.bytes;
		if ((double)mem.calls > res->allocs_max)
			res->allocs_max = (double)mem.calls;
		if ((double)mem.peak > res->peak_max)
			res->peak_max = (double)mem.peak;
	}
	res->allocs = n ? calls / (double)n : 0;
	res->peak = n ? peak / (double)n : 0;
	res->arena_blocks = n ? blocks / (double)n : 0;
	res->arena_bytes = n ? bytes / (double)n : 0;
}

static bool measure_corpus(const Bench *b, const Corpus *c, OpResult *res)
{
	size_t n_chunks = (c->n + CHUNK - 1) / CHUNK;
	for (int op = 0; op < N_OPS; op++) {
		res[op].ns = calloc((size_t)b->rounds, sizeof(double));
		res[op].chunk = malloc(n_chunks * sizeof(double));
		if (!res[op].ns || !res[op].chunk)
			return false;
		for (size_t ch = 0; ch < n_chunks; ch++)
			res[op].chunk[ch] = 1e300;
		if (op_available(op))
			count_allocs(op, c->items, c->n, &res[op]);
	}
	for (int r = 0; r < b->rounds; r++) {
		for (int k = 0; k < N_OPS; k++) {
			int op = round_op(r, k);
			if (!op_available(op))
				continue;
			bool (*fn)(const Item *, ArenaUse *) = ops[op].fn;
			double *chunk = res[op].chunk;
			long fails = 0;
			double pass = 0;
			for (size_t ch = 0; ch < n_chunks; ch++) {
				size_t end = ch * CHUNK + CHUNK < c->n ? ch * CHUNK + CHUNK : c->n;
				uint64_t t0 = now_ns();
				for (size_t i = ch * CHUNK; i < end; i++)
					fails += !fn(&c->items[i], NULL);
				double dt = (double)(now_ns() - t0);
				pass += dt;
				if (dt < chunk[ch])
					chunk[ch] = dt;
			}
			res[op].ns[r] = pass;
			res[op].fails += fails;
		}
	}
	for (int op = 0; op < N_OPS; op++) {
		res[op].t = 0;
		for (size_t ch = 0; ch < n_chunks; ch++)
			res[op].t += res[op].chunk[ch];
		res[op].med = median(res[op].ns, b->rounds);
		res[op].min = best(res[op].ns, b->rounds);
	}
	return true;
}

/* ---- corpus output ----------------------------------------------------------------------------- */

static void fmt_allocs(char *buf, size_t size, const Bench *b, int op, const OpResult *r)
{
	bool seen = b->scope == SCOPE_ALL || (b->scope == SCOPE_PGBIND && strcmp(ops[op].side, "pgbind") == 0);
	if (!seen)
		snprintf(buf, size, "%8s %10s", "n/a", "n/a");
	else
		snprintf(buf, size, "%8.1f %10.0f", r->allocs, r->peak);
}

static void print_op_line(const Bench *b, const Corpus *c, const char *name, int op, int base, const OpResult *res,
						  const char *goal)
{
	const OpResult *r = &res[op];
	char speed[16] = "", allocs[40];
	if (!op_available(op)) {
		printf("%-28s %-8s %10s %8s %9s %7s %8s %10s  %s\n", name, ops[op].side, "n/a", "n/a", "", "", "n/a", "n/a",
			   ops[op].fn              ? "(not in --only)"
			   : op == OP_SUMMARY_BASE ? "(libpg_query 18 on; this one has no pg_query_summary)"
									   : "(needs protobuf-c; this libpg_query has upb)");
		return;
	}
	if (base >= 0 && op_available(base))
		snprintf(speed, sizeof speed, "%.2fx", res[base].t / r->t);
	fmt_allocs(allocs, sizeof allocs, b, op, r);
	printf("%-28s %-8s %10.0f %8.2f %9s %7.2f %s  %s\n", name, ops[op].side, (double)c->n * 1e9 / r->t,
		   (double)c->sql_bytes * 1e3 / r->t, speed, r->t / res[OP_RAW].t, allocs, goal);
}

static void print_corpus_table(const Bench *b, const Corpus *c, const OpResult *res)
{
	printf("pgbind bench: %zu statements, %.2f MB of SQL, from %d files", c->n, (double)c->sql_bytes / 1e6, c->files);
	if (c->keep_every > 1)
		printf(" (--quick: every %zuth of %ld)", c->keep_every, c->candidates);
	printf("\n");
	long dropped = 0;
	for (int op = 0; op < N_OPS; op++)
		dropped += c->failed_on[op];
	if (c->syntax_errors || c->empty || c->broken || dropped) {
		printf("left out: %ld syntax errors, %ld empty", c->syntax_errors, c->empty);
		if (c->broken)
			printf(", %ld unpreparable", c->broken);
		for (int op = 0; op < N_OPS; op++)
			if (c->failed_on[op])
				printf(", %ld failing %s", c->failed_on[op], ops[op].key);
		printf("\n");
	}
	printf("%d rounds, paths alternated (order rotated each round), per-statement arenas; a path's time: each chunk "
		   "of %d statements\ntimed on its own, the sum over the chunks of each one's best round\n",
		   b->rounds, CHUNK);
	printf("MB/s: 10^6 bytes of the statements' SQL text per second (every row)\n");
	printf("speedup: baseline time / pgbind time; x raw: time / pg_query_raw_parse time\n");
	printf("allocs/stmt, peak B/stmt (means): %s\n\n", scope_text(b->scope));
	printf("%-28s %-8s %10s %8s %9s %7s %8s %10s  %s\n", "path", "side", "stmts/s", "MB/s", "speedup", "x raw",
		   "allocs", "peak B", "goal");
	for (int i = 0; i < N_ROWS; i++) {
		const RowDef *row = &rows[i];
		if (row->ours >= 0) {
			print_op_line(b, c, row->name, row->ours, row->base, res, row->goal);
			print_op_line(b, c, "", row->base, -1, res, "");
		} else {
			print_op_line(b, c, row->name, row->base, -1, res, row->goal);
		}
	}
	printf("\nwhat each timed run does, per statement:\n");
	for (int op = 0; op < N_OPS; op++)
		printf("  %-8s %-24s %s\n", ops[op].side, ops[op].key, ops[op].what);
	long fails = 0;
	for (int op = 0; op < N_OPS; op++)
		fails += res[op].fails;
	if (fails)
		printf("warning: %ld timed runs failed (they had succeeded in the preparation pass)\n", fails);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static const char *scope_key(int scope)
{
	return scope == SCOPE_ALL ? "all" : scope == SCOPE_PGBIND ? "pgbind-only" : "none";
}

static void print_corpus_json(const Bench *b, const Corpus *c, const OpResult *res)
{
	printf("{\"mode\":\"corpus\",\"statements\":%zu,\"sql_bytes\":%zu,\"files\":%d,\"candidates\":%ld,"
		   "\"syntax_errors\":%ld,\"empty\":%ld,\"rounds\":%d,\"statistic\":\"sum of per-chunk best\",\"chunk\":%d,"
		   "\"quick\":%s,"
		   "\"alloc_scope\":\"%s\",\n \"ops\":[",
		   c->n, c->sql_bytes, c->files, c->candidates, c->syntax_errors, c->empty, b->rounds, CHUNK,
		   b->quick ? "true" : "false", scope_key(b->scope));
	bool first = true;
	for (int op = 0; op < N_OPS; op++) {
		if (!op_available(op))
			continue;
		const OpResult *r = &res[op];
		printf("%s\n  {\"key\":", first ? "" : ",");
		json_str(ops[op].key);
		printf(",\"side\":\"%s\",\"what\":", ops[op].side);
		json_str(ops[op].what);
		printf(",\"ns\":%.0f,\"median_pass_ns\":%.0f,\"best_pass_ns\":%.0f,\"stmts_per_s\":%.1f,\"mb_per_s\":%.3f,"
			   "\"vs_raw\":%.4f",
			   r->t, r->med, r->min, (double)c->n * 1e9 / r->t, (double)c->sql_bytes * 1e3 / r->t,
			   r->t / res[OP_RAW].t);
		if (b->scope != SCOPE_NONE)
			printf(",\"allocs_per_stmt\":%.2f,\"allocs_max\":%.0f,\"peak_bytes_per_stmt\":%.0f,\"peak_bytes_max\":%.0f",
				   r->allocs, r->allocs_max, r->peak, r->peak_max);
		if (strcmp(ops[op].side, "pgbind") == 0)
			printf(",\"arena_blocks_per_stmt\":%.2f,\"arena_bytes_per_stmt\":%.0f", r->arena_blocks, r->arena_bytes);
		printf(",\"rounds_ns\":[");
		for (int i = 0; i < b->rounds; i++)
			printf("%s%.0f", i ? "," : "", r->ns[i]);
		printf("]}");
		first = false;
	}
	printf("],\n \"rows\":[");
	first = true;
	for (int i = 0; i < N_ROWS; i++) {
		const RowDef *row = &rows[i];
		if (row->ours < 0 || !op_available(row->ours) || !op_available(row->base))
			continue;
		printf("%s\n  {\"path\":", first ? "" : ",");
		json_str(row->name);
		printf(",\"pgbind\":\"%s\",\"baseline\":\"%s\",\"speedup\":%.4f,\"pgbind_vs_raw\":%.4f,"
			   "\"baseline_vs_raw\":%.4f}",
			   ops[row->ours].key, ops[row->base].key, res[row->base].t / res[row->ours].t,
			   res[row->ours].t / res[OP_RAW].t, res[row->base].t / res[OP_RAW].t);
		first = false;
	}
	printf("]}\n");
}

/* ---- growth ------------------------------------------------------------------------------------ */

typedef struct Buf {
	char *s;
	size_t len, cap;
	bool oom;
} Buf;

static void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buf_printf(Buf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap : 4096;
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *grown = realloc(b->s, cap);
		if (!grown) {
			b->oom = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
}

static void gen_targets(Buf *b, int n)
{
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++) {
		const char *sep = i ? ", " : "";
		switch (i % 4) {
		case 0:
			buf_printf(b, "%sc%d", sep, i);
			break;
		case 1:
			buf_printf(b, "%sc%d + %d AS x%d", sep, i, i, i);
			break;
		case 2:
			buf_printf(b, "%s'v%d'", sep, i);
			break;
		default:
			buf_printf(b, "%slower(c%d)", sep, i);
			break;
		}
	}
	buf_printf(b, " FROM t");
}

static void gen_in_list(Buf *b, int n)
{
	buf_printf(b, "SELECT a FROM t WHERE a IN (");
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s%d", i ? ", " : "", i);
	buf_printf(b, ")");
}

static void gen_values(Buf *b, int n)
{
	buf_printf(b, "INSERT INTO t (a, b, c) VALUES ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s(%d, 'x%d', %d.5)", i ? ", " : "", i, i, i);
}

static void gen_joins(Buf *b, int n)
{
	buf_printf(b, "SELECT t0.a FROM t0");
	for (int i = 1; i <= n; i++)
		buf_printf(b, " JOIN t%d ON t%d.a = t%d.a", i, i - 1, i);
}

static void gen_expr(Buf *b, int n)
{
	static const char opchars[] = "+*-";
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "(c%d %c ", i, opchars[i % 3]);
	buf_printf(b, "1");
	for (int i = 0; i < n; i++)
		buf_printf(b, ")");
	buf_printf(b, " FROM t");
}

static void gen_subquery(Buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "SELECT (");
	buf_printf(b, "SELECT 1");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(b, ") FROM t%d", i);
}

static void gen_case(Buf *b, int n)
{
	buf_printf(b, "SELECT ");
	for (int i = 0; i < n; i++)
		buf_printf(b, "CASE WHEN c%d > %d THEN ", i, i);
	buf_printf(b, "0");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(b, " ELSE %d END", i);
	buf_printf(b, " FROM t");
}

typedef struct Shape {
	const char *name;
	const char *unit; /* what n counts */
	int n, quick_n;
	void (*gen)(Buf *b, int n);
} Shape;

static const Shape shapes[] = {
	{"wide/select-list", "select-list items", 1000, 100, gen_targets},
	{"wide/in-list", "IN-list items", 1000, 100, gen_in_list},
	{"wide/values", "VALUES rows of 3", 500, 50, gen_values},
	{"wide/joins", "joins (left-deep JoinExpr chain)", 250, 25, gen_joins},
	{"deep/expr", "nested parenthesised operators", 250, 25, gen_expr},
	{"deep/subquery", "nested scalar subqueries", 100, 10, gen_subquery},
	{"deep/case", "nested CASE", 125, 12, gen_case},
};
#define N_SHAPES ((int)(sizeof shapes / sizeof *shapes))
#define N_SIZES  4

typedef struct ShapeResult {
	int n;
	Item items[N_SIZES];
	uint32_t failed[N_SIZES]; /* per size, a bit per op that failed */
	long reps[N_OPS][N_SIZES];
	double *ns[N_OPS][N_SIZES]; /* per round: time of one run */
	double t[N_OPS][N_SIZES];   /* best over the rounds */
	double allocs[N_OPS][N_SIZES];
	double peak[N_OPS][N_SIZES];
} ShapeResult;

static bool op_ok_all_sizes(const ShapeResult *s, int op)
{
	if (!op_available(op))
		return false;
	for (int k = 0; k < N_SIZES; k++)
		if (s->failed[k] & (1u << op))
			return false;
	return true;
}

static bool growth_prepare(Bench *b, const Shape *shape, ShapeResult *s)
{
	s->n = b->quick ? shape->quick_n : shape->n;
	for (int k = 0; k < N_SIZES; k++) {
		Buf buf = {0};
		shape->gen(&buf, s->n << k);
		if (buf.oom) {
			free(buf.s);
			return false;
		}
		s->items[k].sql = buf.s;
		s->items[k].sql_len = buf.len;
		int prep = item_prepare(b, &s->items[k], &s->failed[k]);
		if (prep != PREP_OK) {
			fprintf(stderr, "pgbind bench: %s at %d: libpg_query %s\n", shape->name, s->n << k,
					prep == PREP_SYNTAX ? "reports a syntax error" : "gives no statement");
			return false;
		}
	}
	return true;
}

static void measure_growth(const Bench *b, ShapeResult *s, double budget_ns)
{
	for (int op = 0; op < N_OPS; op++) {
		for (int k = 0; k < N_SIZES; k++) {
			s->ns[op][k] = calloc((size_t)b->rounds, sizeof(double));
			if (!op_ok_all_sizes(s, op))
				continue;
			/* calibrate: enough runs per sample to fill the budget */
			uint64_t t0 = now_ns();
			ops[op].fn(&s->items[k], NULL);
			double once = (double)(now_ns() - t0);
			long reps = once > 0 ? (long)(budget_ns / once) : 1000;
			s->reps[op][k] = reps < 1 ? 1 : reps > 100000 ? 100000 : reps;
			OpResult r = {0};
			count_allocs(op, &s->items[k], 1, &r);
			s->allocs[op][k] = r.allocs;
			s->peak[op][k] = r.peak;
		}
	}
	for (int r = 0; r < b->rounds; r++) {
		for (int j = 0; j < N_OPS; j++) {
			int op = round_op(r, j);
			if (!op_ok_all_sizes(s, op))
				continue;
			bool (*fn)(const Item *, ArenaUse *) = ops[op].fn;
			for (int kk = 0; kk < N_SIZES; kk++) {
				int k = (r & 1) ? N_SIZES - 1 - kk : kk;
				long reps = s->reps[op][k];
				fn(&s->items[k], NULL); /* untimed: every sample starts with warm caches */
				uint64_t t0 = now_ns();
				for (long i = 0; i < reps; i++)
					fn(&s->items[k], NULL);
				s->ns[op][k][r] = (double)(now_ns() - t0) / (double)reps;
			}
		}
	}
	for (int op = 0; op < N_OPS; op++)
		for (int k = 0; k < N_SIZES; k++)
			s->t[op][k] = best(s->ns[op][k], b->rounds);
}

/* The order of the growth rows: each pgbind path, then its baseline. */
static const int growth_order[] = {OP_PARSE,           OP_PARSE_BASE,      OP_RAW,         OP_JSON,
								   OP_JSON_AST,        OP_JSON_BASE,       OP_ENCODE,      OP_ENCODE_BASE,
								   OP_DECODE,          OP_DECODE_BASE,     OP_DEPARSE,     OP_DEPARSE_BASE,
								   OP_DEPARSE_FLOOR,   OP_DEPARSE_CHECKED, OP_FINGERPRINT, OP_FINGERPRINT_SQL,
								   OP_FINGERPRINT_BASE};

static void print_growth_table(const Bench *b, const ShapeResult *res, double budget_ns)
{
	printf("pgbind bench --growth: statements of n, 2n, 4n, 8n items; %d rounds, paths alternated; each sample a "
		   "batch of runs\nfilling ~%.1f ms after one untimed run, per-run arenas; time per run: the best sample over "
		   "the rounds. Doubling "
		   "ratios t(2n)/t(n),\nt(4n)/t(2n), t(8n)/t(4n): 2.0 is linear, 4.0 quadratic.\nallocs: %s\n",
		   b->rounds, budget_ns / 1e6, scope_text(b->scope));
	double lo[N_OPS], hi[N_OPS];
	for (int op = 0; op < N_OPS; op++)
		lo[op] = 1e300, hi[op] = 0;
	for (int si = 0; si < N_SHAPES; si++) {
		const ShapeResult *s = &res[si];
		printf("\n%s: n = %d %s; SQL %zu, %zu, %zu, %zu bytes\n", shapes[si].name, s->n, shapes[si].unit,
			   s->items[0].sql_len, s->items[1].sql_len, s->items[2].sql_len, s->items[3].sql_len);
		printf("  %-24s %-8s %12s %7s %7s %7s   %s\n", "path", "side", "t(n) us", "x2n", "x4n", "x8n",
			   "allocs n -> 8n");
		for (size_t j = 0; j < sizeof growth_order / sizeof *growth_order; j++) {
			int op = growth_order[j];
			if (!op_available(op))
				continue;
			if (!op_ok_all_sizes(s, op)) {
				printf("  %-24s %-8s %12s  (failed at some size)\n", ops[op].key, ops[op].side, "-");
				continue;
			}
			printf("  %-24s %-8s %12.1f", ops[op].key, ops[op].side, s->t[op][0] / 1e3);
			for (int k = 1; k < N_SIZES; k++) {
				double ratio = s->t[op][k] / s->t[op][k - 1];
				printf(" %7.2f", ratio);
				if (ratio < lo[op])
					lo[op] = ratio;
				if (ratio > hi[op])
					hi[op] = ratio;
			}
			bool seen = b->scope == SCOPE_ALL || (b->scope == SCOPE_PGBIND && strcmp(ops[op].side, "pgbind") == 0);
			if (seen)
				printf("   %.0f -> %.0f\n", s->allocs[op][0], s->allocs[op][N_SIZES - 1]);
			else
				printf("   n/a\n");
		}
	}
	printf("\nper path, over all shapes: the smallest and the largest doubling ratio\n");
	for (size_t j = 0; j < sizeof growth_order / sizeof *growth_order; j++) {
		int op = growth_order[j];
		if (!op_available(op) || hi[op] == 0)
			continue;
		printf("  %-24s %-8s %5.2f .. %5.2f\n", ops[op].key, ops[op].side, lo[op], hi[op]);
	}
}

static void print_growth_json(const Bench *b, const ShapeResult *res)
{
	printf("{\"mode\":\"growth\",\"rounds\":%d,\"statistic\":\"best\",\"quick\":%s,\"alloc_scope\":\"%s\","
		   "\n \"shapes\":[",
		   b->rounds, b->quick ? "true" : "false", scope_key(b->scope));
	for (int si = 0; si < N_SHAPES; si++) {
		const ShapeResult *s = &res[si];
		printf("%s\n  {\"name\":\"%s\",\"n\":%d,\"sql_bytes\":[%zu,%zu,%zu,%zu],\"ops\":[", si ? "," : "",
			   shapes[si].name, s->n, s->items[0].sql_len, s->items[1].sql_len, s->items[2].sql_len,
			   s->items[3].sql_len);
		bool first = true;
		for (int op = 0; op < N_OPS; op++) {
			if (!op_available(op))
				continue;
			printf("%s\n   {\"key\":\"%s\",\"side\":\"%s\",\"ok\":%s", first ? "" : ",", ops[op].key, ops[op].side,
				   op_ok_all_sizes(s, op) ? "true" : "false");
			first = false;
			if (!op_ok_all_sizes(s, op)) {
				printf("}");
				continue;
			}
			printf(",\"ns\":[%.1f,%.1f,%.1f,%.1f],\"doubling\":[%.4f,%.4f,%.4f]", s->t[op][0], s->t[op][1], s->t[op][2],
				   s->t[op][3], s->t[op][1] / s->t[op][0], s->t[op][2] / s->t[op][1], s->t[op][3] / s->t[op][2]);
			if (b->scope != SCOPE_NONE)
				printf(",\"allocs\":[%.0f,%.0f,%.0f,%.0f],\"peak_bytes\":[%.0f,%.0f,%.0f,%.0f]", s->allocs[op][0],
					   s->allocs[op][1], s->allocs[op][2], s->allocs[op][3], s->peak[op][0], s->peak[op][1],
					   s->peak[op][2], s->peak[op][3]);
			printf("}");
		}
		printf("]}");
	}
	printf("]"); /* run_growth_cli adds "cli" and closes the document */
}

static int run_growth(Bench *b)
{
	ShapeResult *res = calloc(N_SHAPES, sizeof *res);
	if (!res)
		return 2;
	double budget_ns = b->quick ? 0.5e6 : 2e6;
	int rc = 0;
	for (int si = 0; si < N_SHAPES && rc == 0; si++) {
		if (!growth_prepare(b, &shapes[si], &res[si]))
			rc = 2;
		else
			measure_growth(b, &res[si], budget_ns);
	}
	if (rc == 0) {
		if (b->json)
			print_growth_json(b, res);
		else
			print_growth_table(b, res, budget_ns);
	}
	for (int si = 0; si < N_SHAPES; si++) {
		for (int k = 0; k < N_SIZES; k++)
			item_free(&res[si].items[k]);
		for (int op = 0; op < N_OPS; op++)
			for (int k = 0; k < N_SIZES; k++)
				free(res[si].ns[op][k]);
	}
	free(res);
	return rc;
}

/* ---- growth of the command's input paths ------------------------------------------------------ */

/*
 * `pgbind verify FILE` and `pgbind parse FILE` as a user runs them, on generated scripts of n, 2n,
 * 4n and 8n statements shaped like an extension's install script (a psql \echo line, @extschema@,
 * functions with dollar-quoted bodies, comments, tables, grants): reading, preparing, splitting,
 * the per-statement work and the positions of what is reported all scale with the file. Each run
 * is the command started anew (pgbind_command()) on a file under $TMPDIR, output to /dev/null,
 * timed by its CPU time; a size's time is its best run over the rounds, the commands and sizes
 * alternated.
 */
static const char *const cli_commands[][3] = {
	{"verify", NULL, "verify FILE"},
	{"parse", NULL, "parse FILE"},
	{"parse", "--format=json", "parse --format=json FILE"},
	{"parse", "--format=text", "parse --format=text FILE"},
};
#define CLI_VERIFY     0 /* verify reads scripts; parse reads SQL (no psql lines, no placeholders) */
#define N_CLI_COMMANDS ((int)(sizeof cli_commands / sizeof *cli_commands))

/* n statements (a multiple of 4) of an extension-like script, or the same statements as plain SQL
 * of the same length (a comment for the \echo line, a schema name for @extschema@) */
static void gen_script(Buf *b, int n, bool script)
{
	buf_printf(b, "-- generated by pgbind bench --growth\n%s Use \"CREATE EXTENSION growth\" to load this file. %s\n\n",
			   script ? "\\echo" : "-- ech", script ? "\\quit" : "-- q.");
	const char *schema = script ? "@extschema@" : "extschema__";
	for (int i = 0; i < n / 4; i++) {
		buf_printf(b,
				   "CREATE FUNCTION %s.f%d(a integer, b text DEFAULT '') RETURNS TABLE (x integer, y text)\n"
				   "    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE\n    AS $$\nBEGIN\n",
				   schema, i);
		for (int k = 0; k < 3; k++)
			buf_printf(b,
					   "  -- step %d\n  RETURN QUERY SELECT a + %d, b || 'x' FROM generate_series(1, 10) g WHERE g > "
					   "a ORDER BY 1 LIMIT 5;\n",
					   k, i);
		buf_printf(b, "END\n$$;\n\nCOMMENT ON FUNCTION %s.f%d(integer, text) IS 'function %d';\n\n", schema, i, i);
		buf_printf(b,
				   "CREATE TABLE %s.t%d (id bigint PRIMARY KEY, v text NOT NULL DEFAULT 'x', "
				   "CHECK (id > 0));\nGRANT SELECT ON %s.t%d TO PUBLIC;\n\n",
				   schema, i, schema, i);
	}
}

/* The pgbind command the growth rows time: $PGBIND (`pgbind bench` sets it), else the pgbind in
 * this program's directory. */
static const char *pgbind_command(void)
{
	static char path[4096];
	if (getenv("PGBIND"))
		return getenv("PGBIND");
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 16);
	if (n > 0)
		path[n] = '\0';
	char *slash = n > 0 ? strrchr(path, '/') : NULL;
	if (!slash)
		return "pgbind";
	strcpy(slash + 1, "pgbind");
	return path;
}

/* Runs the pgbind command with args on path, output discarded: the child's CPU time (user + system,
 * which other processes on a shared machine disturb less than the wall clock) in ns, or -1 when
 * it failed. */
static double run_command(const char *const *args, const char *path)
{
	char *argv[5];
	int argc = 0;
	argv[argc++] = "pgbind";
	for (int i = 0; i < 2; i++)
		if (args[i])
			argv[argc++] = (char *)args[i];
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, pgbind_command(), &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int status;
	struct rusage ru;
	if (rc != 0 || wait4(pid, &status, 0, &ru) != pid)
		return -1;
	double ns = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
				((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ns : -1;
}

static int run_growth_cli(const Bench *b)
{
	int n = b->quick ? 40 : 2000;
	int rounds = b->rounds < 3 ? b->rounds : 3; /* a run is long: its best of 3 is clean enough */
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char paths[2][N_SIZES][4096]; /* [1]: the script, [0]: plain SQL */
	size_t bytes[N_SIZES];
	double t[N_CLI_COMMANDS][N_SIZES];
	int rc = 0;
	for (int k = 0; k < N_SIZES; k++) {
		paths[0][k][0] = paths[1][k][0] = '\0';
		for (int c = 0; c < N_CLI_COMMANDS; c++)
			t[c][k] = 1e300;
	}
	for (int k = 0; k < N_SIZES * 2 && rc == 0; k++) {
		Buf buf = {0};
		char *path = paths[k & 1][k / 2];
		gen_script(&buf, n << (k / 2), k & 1);
		snprintf(path, sizeof paths[0][0], "%s/pgbind-bench-XXXXXX", tmpdir);
		int fd = buf.oom ? -1 : mkstemp(path);
		if (fd < 0) {
			fprintf(stderr, "pgbind bench: cannot write a script under %s\n", tmpdir);
			path[0] = '\0';
			rc = 2;
		} else {
			FILE *f = fdopen(fd, "w");
			if (!f || fwrite(buf.s, 1, buf.len, f) != buf.len || fclose(f) != 0) {
				fprintf(stderr, "pgbind bench: cannot write %s\n", path);
				rc = 2;
			}
		}
		bytes[k / 2] = buf.len;
		free(buf.s);
	}
	for (int r = 0; r < rounds && rc == 0; r++) {
		for (int j = 0; j < N_CLI_COMMANDS && rc == 0; j++) {
			int c = (j + r) % N_CLI_COMMANDS;
			for (int kk = 0; kk < N_SIZES && rc == 0; kk++) {
				int k = (r & 1) ? N_SIZES - 1 - kk : kk;
				const char *path = paths[c == CLI_VERIFY][k];
				double ns = run_command(cli_commands[c], path);
				if (ns < 0) {
					fprintf(stderr, "pgbind bench: pgbind %s failed on %d statements (%s)\n", cli_commands[c][2],
							n << k, path);
					rc = 2;
				} else if (ns < t[c][k]) {
					t[c][k] = ns;
				}
			}
		}
	}
	for (int k = 0; k < N_SIZES * 2; k++)
		if (paths[k & 1][k / 2][0])
			unlink(paths[k & 1][k / 2]);
	if (rc != 0)
		return rc;
	if (b->json) {
		printf(",\n \"cli\":{\"rounds\":%d,\"statistic\":\"best\",\"statements\":[%d,%d,%d,%d],"
			   "\"file_bytes\":[%zu,%zu,%zu,%zu],\"commands\":[",
			   rounds, n, n << 1, n << 2, n << 3, bytes[0], bytes[1], bytes[2], bytes[3]);
		for (int c = 0; c < N_CLI_COMMANDS; c++)
			printf("%s\n {\"command\":\"pgbind %s\",\"ns\":[%.0f,%.0f,%.0f,%.0f],\"doubling\":[%.4f,%.4f,%.4f]}",
				   c ? "," : "", cli_commands[c][2], t[c][0], t[c][1], t[c][2], t[c][3], t[c][1] / t[c][0],
				   t[c][2] / t[c][1], t[c][3] / t[c][2]);
		printf("]}}\n");
		return 0;
	}
	printf("\nthe command on a script file (pgbind started anew each run, output to /dev/null; its CPU time, best of "
		   "%d rounds):\n"
		   "cli/script: n = %d statements (extension-like: \\echo, @extschema@, functions, comments, tables, "
		   "grants); file %zu, %zu, %zu, %zu bytes\n",
		   rounds, n, bytes[0], bytes[1], bytes[2], bytes[3]);
	printf("  %-31s %12s %7s %7s %7s\n", "command", "t(n) ms", "x2n", "x4n", "x8n");
	for (int c = 0; c < N_CLI_COMMANDS; c++)
		printf("  pgbind %-24s %12.1f %7.2f %7.2f %7.2f\n", cli_commands[c][2], t[c][0] / 1e6, t[c][1] / t[c][0],
			   t[c][2] / t[c][1], t[c][3] / t[c][2]);
	return 0;
}

/* ---- the command ------------------------------------------------------------------------------- */

static void bench_usage(void)
{
	puts("usage: pgbind bench [--rounds=N] [--quick] [--json] [--only=PATH,...] [--dir=DIR] [FILE...]\n"
		 "       pgbind bench --growth [--rounds=N] [--quick] [--json] [--only=PATH,...]\n"
		 "Times each pgbind path against libpg_query's own route to the same result, on the same\n"
		 "statements, in one process, the paths alternated in rounds; prints statements/s, MB/s of SQL\n"
		 "text, the ratio to the baseline and to pg_query_raw_parse, and malloc calls and peak heap\n"
		 "bytes per statement. With no FILE: DIR/*.sql and DIR/extension/*.sql (DIR defaults to\n"
		 "/usr/share/postgresql/15). Files are split into statements as `pgbind verify` splits them.\n"
		 "  --rounds=N  rounds (default 15; --quick 3, with --growth 2)\n"
		 "  --quick     every k-th statement (about 200) and few rounds: proves the bench runs\n"
		 "  --growth    generated statements of n, 2n, 4n, 8n items, wide and deep, then `pgbind verify`\n"
		 "              and `pgbind parse` on scripts of n, 2n, 4n, 8n statements; time per doubling\n"
		 "  --json      one JSON document on standard output instead of the table\n"
		 "  --only=P,.. run only these paths (and raw_parse, the reference), e.g. under perf;\n"
		 "              the keys are listed at the end of the table\n"
		 "Exits 0 when the benchmark ran; no number is judged.");
}

int main(int argc, char **argv)
{
	Bench b = {.rounds = 11, .dir = "/usr/share/postgresql/15"};
	int n_files = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			bench_usage();
			return 0;
		} else if (strcmp(a, "--quick") == 0) {
			b.quick = true;
		} else if (strcmp(a, "--growth") == 0) {
			b.growth = true;
		} else if (strcmp(a, "--json") == 0) {
			b.json = true;
		} else if (strncmp(a, "--rounds=", 9) == 0) {
			char *end;
			long r = strtol(a + 9, &end, 10);
			if (*end || r < 1 || r > 1000) {
				fprintf(stderr, "pgbind bench: --rounds takes 1..1000\n");
				return 2;
			}
			b.rounds = (int)r;
			b.rounds_given = true;
		} else if (strncmp(a, "--only=", 7) == 0) {
			if (!parse_only(a + 7))
				return 2;
		} else if (strncmp(a, "--dir=", 6) == 0) {
			b.dir = a + 6;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "pgbind bench: unknown option %s\n", a);
			return 2;
		} else {
			n_files++;
		}
	}
	if (!b.rounds_given)
		b.rounds = b.quick ? (b.growth ? 2 : 3) : 15;
	if (b.growth && n_files) {
		fprintf(stderr, "pgbind bench: --growth generates its statements; no FILE\n");
		return 2;
	}
	b.scope = mem_scope();
	b.trees = pgbind_Arena_New();
	if (!b.trees)
		return 2;
	int rc = 0;
	if (b.growth) {
		rc = run_growth(&b);
		if (rc == 0) {
			fflush(stdout); /* the children share it */
			rc = run_growth_cli(&b);
		}
	} else {
		Corpus c = {0};
		bool ok = true;
		for (int i = 1; ok && i < argc; i++)
			if (argv[i][0] != '-' || !argv[i][1])
				ok = corpus_read_file(&c, argv[i]);
		if (ok && n_files == 0) {
			char pattern[4096];
			snprintf(pattern, sizeof pattern, "%s/*.sql", b.dir);
			ok = corpus_glob(&c, pattern);
			snprintf(pattern, sizeof pattern, "%s/extension/*.sql", b.dir);
			ok = ok && corpus_glob(&c, pattern);
		}
		if (ok)
			corpus_prepare(&b, &c);
		if (!ok || c.n == 0) {
			fprintf(stderr, "pgbind bench: %s\n", ok ? "no statement to measure" : "cannot read the input");
			rc = 2;
		} else {
			OpResult res[N_OPS] = {{0}};
			if (!measure_corpus(&b, &c, res)) {
				fprintf(stderr, "pgbind bench: out of memory\n");
				rc = 2;
			} else if (b.json) {
				print_corpus_json(&b, &c, res);
			} else {
				print_corpus_table(&b, &c, res);
			}
			for (int op = 0; op < N_OPS; op++) {
				free(res[op].ns);
				free(res[op].chunk);
			}
		}
		for (size_t i = 0; i < c.n; i++)
			item_free(&c.items[i]);
		free(c.items);
	}
	pgbind_Arena_Free(b.trees);
	pg_query_exit();
	if (fflush(stdout) != 0)
		rc = 2;
	return rc;
}
