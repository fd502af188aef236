/*
 * test_hardening.c -- pgbind under hostile conditions: allocation failure, threads, bad input.
 *
 * 1. Allocation failure. For about twenty statements (big ones included) and every function that
 *    allocates in an arena (parse, encode, decode, decode_scan, scan, json, json_read, deparse,
 *    text), the call is first run as is, counting the arena blocks it takes; then, for every N up
 *    to that count, run again with pgbind_Arena_FailAfter(arena, N): it must fail with
 *    PGBIND_ERROR_NOMEM and a message, and with N one larger it must succeed with the result of
 *    the undisturbed run. Where a function reads a tree that lives in the same arena, the tree
 *    is built first and the failure armed afterwards. libpg_query's own allocations (the raw
 *    parser's memory context, pg_query_scan, pg_query_deparse_protobuf, the palloc of
 *    pgbind_to_pg_parse_tree and pgbind_fingerprint) cannot be failed from here, and neither
 *    can pgbind's malloc'd scratch memory (the JSON writer's buffer, the JSON reader's stack,
 *    pgbind_text's buffer, the JSON key tables, the walker's stack) -- unless this program is
 *    linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: then the same loop also fails
 *    the Nth malloc, calloc or realloc call that pgbind's own code makes (libpg_query is a
 *    shared library, so its calls are not wrapped), which covers both. Leaks are for valgrind.
 * 2. Threads. About 200 statements of the corpus (tests/sql, or the files named) and a few
 *    syntax errors: the expected results are computed on one thread, then several threads run
 *    every statement, each in its own order, several times, through parse, encode, decode,
 *    json, json_read, deparse, fingerprint and scan, and compare. The threads do not call
 *    pg_query_exit(): libpg_query 15-4.0.0 frees a thread's memory context when the thread
 *    ends, and calling pg_query_exit() first makes that a double free (see worker_main).
 *    Built with -fsanitize=thread this is the race check.
 * 3. Bad input. Empty input everywhere; syntax and scan errors with libpg_query's message and
 *    cursor; malformed protobuf with its byte offset; malformed JSON with line, column and
 *    offset; NUL bytes; SQL that is not UTF-8 (passed through as libpg_query passes it); a
 *    10 MB string literal and a 500,000-target SELECT through every function, against
 *    libpg_query where it can do the same; NULL arguments everywhere; deep nesting for every
 *    function that recurses, and a smaller max_depth honoured by each. A call that might crash
 *    runs in a child process, so that a crash is a failed check, not the end of the run.
 *
 * Usage: test_hardening [--only=alloc|threads|input]... [--nthreads=N] [--rounds=N] [--skip-big]
 *                       [FILE.sql...]
 *   --only       run these sections only (default: all three)
 *   --nthreads   threads in section 2 (default 6); --rounds: times each runs the corpus (default 5)
 *   --skip-big   leave out the 10 MB statements (for valgrind, which takes minutes over them)
 *   FILE.sql     section 2's corpus (default: every .sql file in tests/sql, run from the repository's root)
 * Prints a summary per section and ends with "N passed, M failed"; exits 1 when a check failed.
 */
#include "pg_query.h"
#include "pgbind.h"

#include <glob.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* "1 MiB of stack" for the stack tests; sanitized code needs about three times the stack
 * (pgbind.h), so a sanitized build of this test gives its threads four times as much. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ONE_MIB_STACK (4u << 20)
#else
#define ONE_MIB_STACK (1u << 20)
#endif

/* libpg_query's per-thread memory context (pg_query_internal.h needs PostgreSQL's headers). */
void *pg_query_enter_memory_context(void);
void pg_query_exit_memory_context(void *ctx);

#include "../check.h"

#include "rev_writer.h"

/* ---- helpers --------------------------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* head, n times open, middle, n times close, tail: nested or repeated SQL. malloc'd. */
static char *nest(const char *head, const char *open, int n, const char *middle, const char *close, const char *tail)
{
	size_t lh = strlen(head), lo = strlen(open), lm = strlen(middle), lc = strlen(close), lt = strlen(tail);
	char *s = xmalloc(lh + (lo + lc) * (size_t)n + lm + lt + 1), *p = s;
	memcpy(p, head, lh);
	p += lh;
	for (int i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, middle, lm);
	p += lm;
	for (int i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	memcpy(p, tail, lt + 1);
	return s;
}

static bool has_oom_message(const pgbind_Status *st)
{
	return strstr(st->message, "out of memory") != NULL;
}

/* 1-based line and column (in characters, UTF-8 continuation bytes not counted) of offset. */
static void line_col(const char *text, size_t offset, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static bool count_node(pgbind_Node *node, void *ctx)
{
	(void)node;
	(*(size_t *)ctx)++;
	return false;
}

/* pgbind_ParseResult_walk's node count; (size_t)-1 when the walk fails. */
static size_t count_nodes(pgbind_ParseResult *tree, pgbind_Status *st)
{
	size_t n = 0;
	return pgbind_ParseResult_walk(tree, count_node, &n, st) == PGBIND_WALK_DONE ? n : (size_t)-1;
}

/*
 * Runs fn(arg) in a child process, on a thread with a stack of stack_size bytes (0: on the
 * child's main thread), so that a crash is a result rather than the end of the test. Returns
 * fn's result as 0 (true) or 1 (false), or -signal when the child died of a signal.
 */
typedef bool (*IsolatedFn)(void *arg);

typedef struct {
	IsolatedFn fn;
	void *arg;
	bool ok;
} Isolated;

static void *isolated_thread(void *p)
{
	Isolated *iso = p;
	iso->ok = iso->fn(iso->arg);
	return NULL;
}

static int run_isolated(IsolatedFn fn, void *arg, size_t stack_size)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return fn(arg) ? 0 : 1;
	if (pid == 0) {
		Isolated iso = {fn, arg, false};
		if (stack_size) {
			pthread_attr_t attr;
			pthread_t th;
			pthread_attr_init(&attr);
			pthread_attr_setstacksize(&attr, stack_size);
			if (pthread_create(&th, &attr, isolated_thread, &iso) != 0)
				_exit(3);
			pthread_join(th, NULL);
		} else {
			isolated_thread(&iso);
		}
		fflush(stdout);
		_exit(iso.ok ? 0 : 1);
	}
	int ws = 0;
	if (waitpid(pid, &ws, 0) < 0)
		return 1;
	if (WIFSIGNALED(ws))
		return -WTERMSIG(ws);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
}

static const char *isolated_result(int rc)
{
	static char buf[64];
	if (rc == 0)
		return "ok";
	if (rc > 0)
		return "failed";
	snprintf(buf, sizeof buf, "crashed (signal %d)", -rc);
	return buf;
}

/* ---- failing pgbind's own malloc calls (when linked with --wrap) ------------------------------ */

/*
 * Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, every malloc call in pgbind's
 * objects (and in this file) comes here; libpg_query, a shared library, is not affected.
 * Without those flags nothing calls these and __real_malloc stays NULL (a weak reference).
 * Counting and failing are per thread and only while armed, around one pgbind call.
 */
void *__real_malloc(size_t size) __attribute__((weak));
void *__real_calloc(size_t n, size_t size) __attribute__((weak));
void *__real_realloc(void *p, size_t size) __attribute__((weak));
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static _Thread_local bool inject_armed;
static _Thread_local size_t inject_calls, inject_fail_at;

static bool inject_fails(void)
{
	return inject_armed && ++inject_calls == inject_fail_at;
}

void *__wrap_malloc(size_t size)
{
	return inject_fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return inject_fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return inject_fails() ? NULL : __real_realloc(p, size);
}

static bool malloc_wrapped(void)
{
	return __real_malloc != NULL && __real_calloc != NULL && __real_realloc != NULL;
}

static void inject_arm(size_t fail_at)
{
	inject_calls = 0;
	inject_fail_at = fail_at;
	inject_armed = true;
}

static void inject_disarm(void)
{
	inject_armed = false;
}

/* ==== 1. allocation failure ===================================================================== */

typedef enum {
	API_PARSE,
	API_ENCODE,
	API_DECODE,
	API_DECODE_SCAN,
	API_SCAN,
	API_JSON,
	API_JSON_READ,
	API_DEPARSE,
	API_TEXT,
	API_WALK, /* allocates no arena memory; its stack is malloc'd beyond 64 levels */
	N_APIS
} Api;

static const char *const api_names[N_APIS] = {
	"pgbind_parse", "pgbind_encode",    "pgbind_decode",  "pgbind_decode_scan", "pgbind_scan",
	"pgbind_json",  "pgbind_json_read", "pgbind_deparse", "pgbind_text",        "pgbind_ParseResult_walk"};

/* What each function gives for one statement when nothing fails. */
typedef struct {
	const char *label;
	const char *sql;
	pgbind_ParseResult *tree;
	const uint8_t *pb;
	size_t pb_len;
	uint8_t *scan_pb; /* pg_query_scan's bytes, malloc'd */
	size_t scan_len;
	pgbind_ScanResult *scan;
	const char *json;
	const char *deparsed;
	const char *text;
	size_t n_nodes;
} Expected;

static bool reads_tree(Api api)
{
	return api == API_ENCODE || api == API_JSON || api == API_DEPARSE || api == API_TEXT || api == API_WALK;
}

/* Runs api once on e's input; *same: the result equals the expected one. */
static bool invoke(Api api, const Expected *e, pgbind_ParseResult *input, pgbind_Arena *a, pgbind_Status *st,
				   bool *same)
{
	*same = false;
	switch (api) {
	case API_PARSE: {
		pgbind_ParseResult *r = pgbind_parse(e->sql, NULL, a, st);
		*same = r && pgbind_ParseResult_equal(r, e->tree);
		return r != NULL;
	}
	case API_ENCODE: {
		const uint8_t *data = NULL;
		size_t len = 0;
		if (!pgbind_encode(input, NULL, a, &data, &len, st))
			return false;
		*same = len == e->pb_len && memcmp(data, e->pb, len) == 0;
		return true;
	}
	case API_DECODE: {
		pgbind_ParseResult *r = pgbind_decode(e->pb, e->pb_len, NULL, a, st);
		*same = r && pgbind_ParseResult_equal(r, e->tree);
		return r != NULL;
	}
	case API_DECODE_SCAN: {
		pgbind_ScanResult *r = pgbind_decode_scan(e->scan_pb, e->scan_len, NULL, a, st);
		*same = r && pgbind_ScanResult_equal(r, e->scan);
		return r != NULL;
	}
	case API_SCAN: {
		pgbind_ScanResult *r = pgbind_scan(e->sql, NULL, a, st);
		*same = r && pgbind_ScanResult_equal(r, e->scan);
		return r != NULL;
	}
	case API_JSON: {
		const char *j = pgbind_json(input, NULL, a, st);
		*same = j && strcmp(j, e->json) == 0;
		return j != NULL;
	}
	case API_JSON_READ: {
		pgbind_ParseResult *r = pgbind_json_read(e->json, strlen(e->json), NULL, a, st);
		*same = r && pgbind_ParseResult_equal(r, e->tree);
		return r != NULL;
	}
	case API_DEPARSE: {
		const char *s = pgbind_deparse(input, NULL, a, st);
		*same = s && strcmp(s, e->deparsed) == 0;
		return s != NULL;
	}
	case API_TEXT: {
		const char *s = pgbind_text(input, a, st);
		*same = s && strcmp(s, e->text) == 0;
		return s != NULL;
	}
	case API_WALK: {
		size_t n = count_nodes(input, st);
		*same = n == e->n_nodes;
		return n != (size_t)-1;
	}
	case N_APIS:
		break;
	}
	return false;
}

typedef enum { FAIL_ARENA_BLOCK, FAIL_MALLOC_CALL } FailMode;

typedef struct {
	long injections; /* calls made to fail */
	long clean;      /* of those, failing with PGBIND_ERROR_NOMEM and a message */
	long max_points; /* the most failure points one call had */
	long calls;      /* (statement, function) pairs tried */
} AllocStats;

/* One trial: a fresh arena (with the input tree built in it when api reads one), then api with
 * the fail_at-th block allocation (or malloc call) failing; 0 = nothing fails. Returns whether the
 * call succeeded; *points = how many block allocations (malloc calls) the call made. */
static bool trial(Api api, const Expected *e, FailMode mode, size_t fail_at, size_t *points, pgbind_Status *st,
				  bool *same)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Status setup = {0};
	pgbind_ParseResult *input = reads_tree(api) ? pgbind_parse(e->sql, NULL, a, &setup) : NULL;
	if (reads_tree(api) && !input) {
		printf("# %s: setup parse failed: %s\n", e->label, setup.message);
		pgbind_Arena_Free(a);
		*same = false;
		return false;
	}
	memset(st, 0, sizeof *st);
	size_t before = pgbind_Arena_BlockCount(a);
	bool ok;
	if (mode == FAIL_ARENA_BLOCK) {
		pgbind_Arena_FailAfter(a, fail_at);
		ok = invoke(api, e, input, a, st, same);
		pgbind_Arena_FailAfter(a, 0);
		*points = pgbind_Arena_BlockCount(a) - before;
	} else {
		inject_arm(fail_at);
		ok = invoke(api, e, input, a, st, same);
		inject_disarm();
		*points = inject_calls;
	}
	pgbind_Arena_Free(a);
	return ok;
}

static void fail_each_allocation(Api api, const Expected *e, FailMode mode, AllocStats *stats)
{
	const char *what = mode == FAIL_ARENA_BLOCK ? "arena block" : "malloc call";
	pgbind_Status st;
	bool same;
	size_t points = 0, ignored;
	bool ok = trial(api, e, mode, 0, &points, &st, &same);
	CHECK(ok && same, "%s(%s) without failures: %s", api_names[api], e->label, ok ? "a different result" : st.message);
	if (!ok)
		return;
	stats->calls++;
	if ((long)points > stats->max_points)
		stats->max_points = (long)points;
	for (size_t n = 1; n <= points; n++) {
		ok = trial(api, e, mode, n, &ignored, &st, &same);
		stats->injections++;
		bool clean = !ok && st.code == PGBIND_ERROR_NOMEM && has_oom_message(&st);
		stats->clean += clean;
		CHECK(clean, "%s(%s), %s %zu of %zu fails: %s (%s)", api_names[api], e->label, what, n, points,
			  ok ? "succeeded anyway" : pgbind_StatusCode_name(st.code),
			  ok ? (same ? "same result" : "wrong result") : st.message);
	}
	ok = trial(api, e, mode, points + 1, &ignored, &st, &same);
	CHECK(ok && same, "%s(%s), %s %zu armed but never reached: %s", api_names[api], e->label, what, points + 1,
		  ok ? "a different result" : st.message);
}

/* Fills e for sql, in arena ref. */
static bool expect(Expected *e, const char *label, const char *sql, pgbind_Arena *ref)
{
	pgbind_Status st = {0};
	memset(e, 0, sizeof *e);
	e->label = label;
	e->sql = sql;
	e->tree = pgbind_parse(sql, NULL, ref, &st);
	if (!e->tree || !pgbind_encode(e->tree, NULL, ref, &e->pb, &e->pb_len, &st) ||
		!(e->json = pgbind_json(e->tree, NULL, ref, &st)) || !(e->deparsed = pgbind_deparse(e->tree, NULL, ref, &st)) ||
		!(e->text = pgbind_text(e->tree, ref, &st)) || !(e->scan = pgbind_scan(sql, NULL, ref, &st)) ||
		(e->n_nodes = count_nodes(e->tree, &st)) == (size_t)-1) {
		CHECK(false, "%s: reference run failed: %s", label, st.message);
		return false;
	}
	PgQueryScanResult sr = pg_query_scan(sql);
	bool ok = !sr.error;
	if (ok) {
		e->scan_len = sr.pbuf.len;
		e->scan_pb = xmalloc(sr.pbuf.len);
		memcpy(e->scan_pb, sr.pbuf.data, sr.pbuf.len);
	}
	pg_query_free_scan_result(sr);
	PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
	ok = ok && !want.error && want.parse_tree.len == e->pb_len && memcmp(want.parse_tree.data, e->pb, e->pb_len) == 0;
	pg_query_free_protobuf_parse_result(want);
	CHECK(ok, "%s: the reference bytes are libpg_query's", label);
	return ok;
}

/* The JSON key tables are built once per process, at the first JSON call. When that first build
 * meets an allocation failure, a later call (with memory available again) must still work. Run
 * in a child before anything else calls a JSON function (section 1 comes first). */
static bool json_tables_recover(void *arg)
{
	const char *sql = arg;
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, a, &st);
	inject_arm(1);
	const char *first = pgbind_json(tree, NULL, a, &st);
	inject_disarm();
	bool first_ok = !first && st.code == PGBIND_ERROR_NOMEM;
	const char *second = pgbind_json(tree, NULL, a, &st);
	if (!first_ok)
		printf("# first JSON call with its first malloc failing: %s\n", first ? "succeeded" : st.message);
	if (!second)
		printf("# the next JSON call, with memory back: %s\n", st.message);
	pgbind_Arena_Free(a);
	return first_ok && second != NULL;
}

static void section_alloc(void)
{
	double t0 = now();
	bool wrapped = malloc_wrapped();
	printf("== 1. allocation failure\n");
	printf("# note: libpg_query's own allocations (raw parser, pg_query_scan, pg_query_deparse_protobuf, the\n"
		   "#       palloc of pgbind_to_pg_parse_tree and pgbind_fingerprint) cannot be failed from here.\n");
	if (!wrapped)
		printf("# note: not linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: only arena blocks are\n"
			   "#       failed; pgbind's malloc'd scratch memory (JSON writer buffer, JSON reader stack,\n"
			   "#       pgbind_text buffer, JSON key tables, walk stack) is not.\n");
	else
		CHECK(run_isolated(json_tables_recover, "SELECT 1", 0) == 0,
			  "a failed first build of the JSON key tables is retried by the next JSON call");

	char *wide = nest("SELECT 1", ", a", 20000, "", "", "");
	char *plus = nest("SELECT 1", "+1", 900, "", "", ""); /* within what the deparser's stack takes */
	size_t literal_len = 1 << 20;
	char *literal = xmalloc(literal_len + 16);
	memcpy(literal, "SELECT '", 8);
	memset(literal + 8, 'x', literal_len);
	memcpy(literal + 8 + literal_len, "'", 2);
	char *subq = nest("SELECT ", "(SELECT ", 300, "1", ")", "");
	char *values = nest("INSERT INTO t VALUES (0, 'x')", ", (1, 'y')", 5000, "", "", "");
	const struct {
		const char *label, *sql;
	} stmts[] = {
		{"empty input", ""},
		{"SELECT 1", "SELECT 1"},
		{"a SELECT with every clause",
		 "SELECT DISTINCT a, b AS c, count(*) FILTER (WHERE x > 0) OVER w FROM t JOIN u USING (id) "
		 "WHERE a IN (1, 2, 3) AND b LIKE 'x%' GROUP BY ROLLUP (a, b) HAVING count(*) > 1 "
		 "WINDOW w AS (PARTITION BY a ORDER BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) "
		 "ORDER BY 1 DESC NULLS LAST LIMIT 10 OFFSET 5"},
		{"WITH RECURSIVE",
		 "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r"},
		{"INSERT ON CONFLICT", "INSERT INTO t (a, b) VALUES (1, 'x'), (2, DEFAULT) ON CONFLICT (a) DO UPDATE "
							   "SET b = excluded.b RETURNING *"},
		{"UPDATE FROM", "UPDATE t SET (a, b) = (SELECT 1, 2) FROM u WHERE t.id = u.id RETURNING a"},
		{"DELETE USING", "DELETE FROM t USING u WHERE t.id = u.id AND u.flag IS NOT TRUE"},
		{"MERGE", "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.del THEN DELETE WHEN MATCHED THEN "
				  "UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)"},
		{"CREATE TABLE", "CREATE TABLE p (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL "
						 "DEFAULT 'x' CHECK (name <> 'y'), created timestamptz DEFAULT now(), UNIQUE (name)) "
						 "PARTITION BY RANGE (id)"},
		{"CREATE FUNCTION plpgsql", "CREATE FUNCTION f(a int, OUT b text) RETURNS SETOF record LANGUAGE plpgsql "
									"STABLE AS $$ BEGIN RETURN QUERY SELECT a, 'x'; END $$"},
		{"CREATE TRIGGER", "CREATE TRIGGER tr BEFORE INSERT OR UPDATE OF a ON t FOR EACH ROW WHEN (NEW.a > 0) "
						   "EXECUTE FUNCTION f(1, 'x')"},
		{"ALTER TABLE", "ALTER TABLE t ADD COLUMN c int, ALTER COLUMN d TYPE bigint USING d::bigint, "
						"DROP CONSTRAINT k CASCADE"},
		{"GRANT", "GRANT SELECT, UPDATE (a) ON t TO alice WITH GRANT OPTION"},
		{"COPY", "COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true)"},
		{"CREATE INDEX", "CREATE INDEX CONCURRENTLY i ON t USING gin (to_tsvector('english', body)) "
						 "WHERE deleted IS NULL"},
		{"EXPLAIN", "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM t WHERE a = $1"},
		{"four statements", "SELECT 1; SELECT 2; BEGIN; COMMIT"},
		{"expressions", "SELECT '{\"a\":1}'::jsonb -> 'a', (ARRAY[1, 2, 3])[1:2], ROW(1, 'x'), "
						"CASE WHEN a THEN 1 ELSE 2 END, x BETWEEN 1 AND 2, xmlelement(name foo), -5, 1.5e10"},
		{"CREATE VIEW", "CREATE VIEW v WITH (security_barrier) AS SELECT * FROM t WITH CHECK OPTION"},
		{"20,000 targets", wide},
		{"900 terms 1+1+...", plus},
		{"a 1 MB string literal", literal},
		{"300 nested subqueries", subq},
		{"5,000 VALUES rows", values},
	};
	const size_t n_stmts = sizeof stmts / sizeof *stmts;
	pgbind_Arena *ref = pgbind_Arena_New();
	Expected *want = xmalloc(n_stmts * sizeof *want);
	bool *usable = xmalloc(n_stmts * sizeof *usable);
	for (size_t i = 0; i < n_stmts; i++)
		usable[i] = expect(&want[i], stmts[i].label, stmts[i].sql, ref);

	AllocStats by_mode[2] = {{0}};
	for (int mode = FAIL_ARENA_BLOCK; mode <= FAIL_MALLOC_CALL; mode++) {
		if (mode == FAIL_MALLOC_CALL && !wrapped)
			break;
		for (size_t i = 0; i < n_stmts; i++) {
			if (!usable[i])
				continue;
			for (int api = 0; api < N_APIS; api++)
				fail_each_allocation((Api)api, &want[i], (FailMode)mode, &by_mode[mode]);
		}
	}
	for (size_t i = 0; i < n_stmts; i++)
		free(want[i].scan_pb);
	free(want);
	free(usable);
	pgbind_Arena_Free(ref);
	free(wide);
	free(plus);
	free(literal);
	free(subq);
	free(values);
	printf("# %zu statements x %d functions: %ld arena block failures injected (up to %ld in one call), "
		   "%ld returned out of memory\n",
		   n_stmts, N_APIS, by_mode[0].injections, by_mode[0].max_points, by_mode[0].clean);
	if (wrapped)
		printf("# malloc/calloc/realloc calls of pgbind's code: %ld failures injected (up to %ld in one call), "
			   "%ld returned out of memory\n",
			   by_mode[1].injections, by_mode[1].max_points, by_mode[1].clean);
	printf("# allocation failure: %.1f s\n", now() - t0);
}

/* ==== 2. threads ================================================================================ */

typedef struct {
	char *sql;
	bool parses;
	/* a syntax error */
	char message[256];
	int cursorpos;
	/* a statement */
	pgbind_ParseResult *tree;
	const uint8_t *pb;
	size_t pb_len;
	const char *json;
	const char *deparsed; /* NULL: refused, with deparse_code and message */
	pgbind_StatusCode deparse_code;
	char deparse_message[256];
	uint64_t fingerprint;
	pgbind_ScanResult *scan; /* NULL: a scan error, scan_message */
	char scan_message[256];
} CorpusStmt;

typedef struct {
	CorpusStmt *stmts;
	size_t n;
	pgbind_Arena *arena;
} Corpus;

static void corpus_add(Corpus *c, size_t *cap, const char *sql, size_t len)
{
	if (c->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		CorpusStmt *grown = realloc(c->stmts, *cap * sizeof *grown);
		if (!grown) {
			printf("# out of memory\n");
			exit(2);
		}
		c->stmts = grown;
	}
	CorpusStmt *s = &c->stmts[c->n++];
	memset(s, 0, sizeof *s);
	s->sql = xmalloc(len + 1);
	memcpy(s->sql, sql, len);
	s->sql[len] = '\0';
}

static bool read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t cap = 65536, n = 0, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *grown = realloc(buf, cap *= 2);
			if (!grown) {
				free(buf);
				fclose(f);
				return false;
			}
			buf = grown;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	return true;
}

/* Every statement of the files, split as `pgbind verify` splits them. */
static void corpus_read(Corpus *all, char **files, int n_files)
{
	size_t cap = 0;
	for (int f = 0; f < n_files; f++) {
		char *text;
		if (!read_file(files[f], &text)) {
			CHECK(false, "%s: cannot read", files[f]);
			continue;
		}
		PgQuerySplitResult split = pg_query_split_with_parser(text);
		if (split.error) {
			pg_query_free_split_result(split);
			split = pg_query_split_with_scanner(text);
		}
		CHECK(!split.error, "%s: split into statements", files[f]);
		size_t len = strlen(text);
		for (int i = 0; !split.error && i < split.n_stmts; i++) {
			size_t at = (size_t)split.stmts[i]->stmt_location, n = (size_t)split.stmts[i]->stmt_len;
			if (at <= len && n <= len - at && n > 0)
				corpus_add(all, &cap, text + at, n);
		}
		pg_query_free_split_result(split);
		free(text);
	}
}

/* The expected results of s, computed on this thread, in c->arena. */
static void corpus_expect(Corpus *c, CorpusStmt *s)
{
	pgbind_Status st = {0};
	s->tree = pgbind_parse(s->sql, NULL, c->arena, &st);
	s->parses = s->tree != NULL;
	if (!s->parses) {
		memcpy(s->message, st.message, sizeof s->message);
		s->cursorpos = st.cursorpos;
	} else {
		bool ok = pgbind_encode(s->tree, NULL, c->arena, &s->pb, &s->pb_len, &st) &&
				  (s->json = pgbind_json(s->tree, NULL, c->arena, &st)) != NULL &&
				  pgbind_fingerprint(s->tree, NULL, &s->fingerprint, &st);
		CHECK(ok, "corpus: %.60s: %s", s->sql, st.message);
		memset(&st, 0, sizeof st);
		s->deparsed = pgbind_deparse(s->tree, NULL, c->arena, &st);
		s->deparse_code = st.code;
		memcpy(s->deparse_message, st.message, sizeof s->deparse_message);
	}
	memset(&st, 0, sizeof st);
	s->scan = pgbind_scan(s->sql, NULL, c->arena, &st);
	memcpy(s->scan_message, st.message, sizeof s->scan_message);
}

typedef struct {
	int id;
	int rounds;
	const Corpus *corpus;
	long ops;
	long mismatches;
	char first[512];
} Worker;

static void worker_mismatch(Worker *w, const CorpusStmt *s, const char *what, const char *detail)
{
	if (w->mismatches++ == 0)
		snprintf(w->first, sizeof w->first, "%s differs for \"%.80s\": %s", what, s->sql, detail);
}

static void worker_statement(Worker *w, const CorpusStmt *s, bool shared_tree)
{
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(s->sql, NULL, a, &st);
	w->ops++;
	if (!s->parses) {
		if (tree || strcmp(st.message, s->message) != 0 || st.cursorpos != s->cursorpos)
			worker_mismatch(w, s, "parse error", tree ? "parsed" : st.message);
	} else if (!tree || !pgbind_ParseResult_equal(tree, s->tree)) {
		worker_mismatch(w, s, "parse", tree ? "another tree" : st.message);
	} else {
		/* the thread's own tree, or (shared_tree) the expected one, read by all threads at once */
		const pgbind_ParseResult *in = shared_tree ? s->tree : tree;
		const uint8_t *data = NULL;
		size_t len = 0;
		w->ops++;
		if (!pgbind_encode(in, NULL, a, &data, &len, &st) || len != s->pb_len || memcmp(data, s->pb, len) != 0)
			worker_mismatch(w, s, "encode", st.message);
		w->ops++;
		pgbind_ParseResult *decoded = pgbind_decode(s->pb, s->pb_len, NULL, a, &st);
		if (!decoded || !pgbind_ParseResult_equal(decoded, s->tree))
			worker_mismatch(w, s, "decode", decoded ? "another tree" : st.message);
		w->ops++;
		const char *json = pgbind_json(in, NULL, a, &st);
		if (!json || strcmp(json, s->json) != 0)
			worker_mismatch(w, s, "json", json ? "other text" : st.message);
		w->ops++;
		pgbind_ParseResult *read = pgbind_json_read(s->json, strlen(s->json), NULL, a, &st);
		if (!read || !pgbind_ParseResult_equal(read, s->tree))
			worker_mismatch(w, s, "json_read", read ? "another tree" : st.message);
		w->ops++;
		memset(&st, 0, sizeof st);
		const char *sql = pgbind_deparse(in, NULL, a, &st);
		if (s->deparsed ? !sql || strcmp(sql, s->deparsed) != 0
						: sql || st.code != s->deparse_code || strcmp(st.message, s->deparse_message) != 0)
			worker_mismatch(w, s, "deparse", sql ? sql : st.message);
		w->ops++;
		uint64_t fp = 0;
		if (!pgbind_fingerprint(in, NULL, &fp, &st) || fp != s->fingerprint)
			worker_mismatch(w, s, "fingerprint", st.message);
	}
	w->ops++;
	memset(&st, 0, sizeof st);
	pgbind_ScanResult *scan = pgbind_scan(s->sql, NULL, a, &st);
	if (s->scan ? !scan || !pgbind_ScanResult_equal(scan, s->scan) : scan || strcmp(st.message, s->scan_message) != 0)
		worker_mismatch(w, s, "scan", scan ? "other tokens" : st.message);
	pgbind_Arena_Free(a);
}

static void *worker_main(void *arg)
{
	Worker *w = arg;
	size_t n = w->corpus->n;
	size_t *order = xmalloc(n * sizeof *order);
	uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)(w->id + 1);
	for (int round = 0; round < w->rounds; round++) {
		/* a different order per thread and round: a Fisher-Yates shuffle with a xorshift */
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		for (size_t i = n; i > 1; i--) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			size_t j = (size_t)(rng % i), t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < n; i++)
			worker_statement(w, &w->corpus->stmts[order[i]], (round + w->id) % 2 == 1);
	}
	free(order);
	/* No pg_query_exit() here: libpg_query 15-4.0.0 frees this thread's memory context itself when
	 * the thread ends (a pthread key destructor, set up at the thread's first call), and its
	 * pg_query_exit() frees the context without clearing that key, so calling it on a thread
	 * that then ends frees the context twice and aborts ("double free or corruption"). */
	return NULL;
}

static void section_threads(char **files, int n_files, int n_threads, int rounds)
{
	double t0 = now();
	printf("== 2. threads\n");
	glob_t g = {0};
	if (n_files == 0) {
		if (glob("tests/sql/*.sql", 0, NULL, &g) == 0) {
			files = g.gl_pathv;
			n_files = (int)g.gl_pathc;
		}
		CHECK(n_files > 0, "tests/sql/*.sql found (run from the repository's root, or name the files)");
	}
	Corpus all = {0};
	corpus_read(&all, files, n_files);
	if (n_files > 0 && files == g.gl_pathv)
		globfree(&g);

	/* about 200 statements spread over the corpus, and a few syntax and scan errors */
	static const char *const errors[] = {
		"SELECT 1 +",      "SELECT FROM WHERE",   "SELECT 'unterminated", "SELECT \"",      "SELECT $$",
		"/* open comment", "SELECT é FROM WHERE", "SELECT U&'\\00'",      "CREATE TABLE (", "SELECT E'\\xff'"};
	const size_t n_errors = sizeof errors / sizeof *errors, want = 200;
	Corpus c = {0};
	size_t cap = 0;
	c.arena = pgbind_Arena_New();
	size_t step = all.n > want ? all.n / want : 1;
	for (size_t i = 0; i < all.n && c.n < want; i += step)
		corpus_add(&c, &cap, all.stmts[i].sql, strlen(all.stmts[i].sql));
	for (size_t i = 0; i < n_errors; i++)
		corpus_add(&c, &cap, errors[i], strlen(errors[i]));
	for (size_t i = 0; i < all.n; i++)
		free(all.stmts[i].sql);
	free(all.stmts);
	size_t parsed = 0, deparsed = 0, scan_errors = 0;
	for (size_t i = 0; i < c.n; i++) {
		corpus_expect(&c, &c.stmts[i]);
		parsed += c.stmts[i].parses;
		deparsed += c.stmts[i].deparsed != NULL;
		scan_errors += c.stmts[i].scan == NULL;
	}
	CHECK(parsed >= 150, "at least 150 corpus statements parse (%zu)", parsed);

	Worker *w = xmalloc((size_t)n_threads * sizeof *w);
	pthread_t *th = xmalloc((size_t)n_threads * sizeof *th);
	double t1 = now();
	int started = 0;
	for (int i = 0; i < n_threads; i++) {
		w[i] = (Worker){.id = i, .rounds = rounds, .corpus = &c};
		if (pthread_create(&th[i], NULL, worker_main, &w[i]) != 0)
			break;
		started++;
	}
	CHECK(started == n_threads, "%d threads started (%d)", n_threads, started);
	long ops = 0, mismatches = 0;
	for (int i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		ops += w[i].ops;
		mismatches += w[i].mismatches;
		CHECK(w[i].mismatches == 0, "thread %d: %ld results differ from the single-threaded ones; first: %s", i,
			  w[i].mismatches, w[i].first);
		CHECK(w[i].ops == w[0].ops, "thread %d did as many operations as thread 0 (%ld, %ld)", i, w[i].ops, w[0].ops);
	}
	double t2 = now();
	printf("# %zu statements (%zu parse, %zu deparse, %zu scan errors) x %d threads x %d rounds: %ld operations, "
		   "%ld differ (%.1f s threaded, %.1f s in all)\n",
		   c.n, parsed, deparsed, scan_errors, started, rounds, ops, mismatches, t2 - t1, t2 - t0);
	for (size_t i = 0; i < c.n; i++)
		free(c.stmts[i].sql);
	free(c.stmts);
	pgbind_Arena_Free(c.arena);
	free(w);
	free(th);
}

/* ==== 3. bad input ============================================================================== */

static pgbind_Arena *arena; /* section 3's scratch arena, renewed now and then */

static void renew_arena(void)
{
	pgbind_Arena_Free(arena);
	arena = pgbind_Arena_New();
}

/* ---- empty input ---- */

static void test_empty(void)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse("", NULL, arena, &st);
	CHECK(tree && tree->n_stmts == 0, "parse(\"\"): no statements");
	if (!tree)
		return;
	const uint8_t *data;
	size_t len;
	PgQueryProtobufParseResult want = pg_query_parse_protobuf("");
	CHECK(pgbind_encode(tree, NULL, arena, &data, &len, &st) && !want.error && len == want.parse_tree.len &&
			  memcmp(data, want.parse_tree.data, len) == 0,
		  "encode(parse(\"\")) is pg_query_parse_protobuf(\"\")");
	pg_query_free_protobuf_parse_result(want);
	pgbind_ParseResult *d = pgbind_decode((const uint8_t *)"", 0, NULL, arena, &st);
	CHECK(d && d->n_stmts == 0 && d->version == 0, "decode of 0 bytes: an empty ParseResult (version 0)");
	d = pgbind_decode(NULL, 0, NULL, arena, &st);
	CHECK(d && d->n_stmts == 0, "decode(NULL, 0): an empty ParseResult");
	pgbind_ScanResult *sd = pgbind_decode_scan(NULL, 0, NULL, arena, &st);
	CHECK(sd && sd->n_tokens == 0, "decode_scan(NULL, 0): no tokens");
	pgbind_ScanResult *sc = pgbind_scan("", NULL, arena, &st);
	CHECK(sc && sc->n_tokens == 0, "scan(\"\"): no tokens");
	const char *json = pgbind_json(tree, NULL, arena, &st);
	PgQueryParseResult pj = pg_query_parse("");
	CHECK(json && pj.parse_tree && strcmp(json, pj.parse_tree) == 0, "json(parse(\"\")) is pg_query_parse's: %s",
		  json ? json : st.message);
	pg_query_free_parse_result(pj);
	memset(&st, 0, sizeof st);
	CHECK(!pgbind_json_read("", 0, NULL, arena, &st) && st.code == PGBIND_ERROR_MALFORMED && st.offset == 0 &&
			  strncmp(st.message, "line 1, column 1: ", 18) == 0,
		  "json_read of no bytes: malformed at line 1, column 1 (%s)", st.message);
	CHECK(!pgbind_json_read(NULL, 0, NULL, arena, &st) && st.code == PGBIND_ERROR_MALFORMED,
		  "json_read(NULL, 0): malformed (%s)", st.message);
	const char *sql = pgbind_deparse(tree, NULL, arena, &st);
	CHECK(sql && sql[0] == '\0', "deparse of no statements: \"\" (%s)", sql ? sql : st.message);
	uint64_t fp = 0;
	PgQueryFingerprintResult f = pg_query_fingerprint("");
	CHECK(pgbind_fingerprint(tree, NULL, &fp, &st) && !f.error && fp == f.fingerprint,
		  "fingerprint of no statements is pg_query_fingerprint(\"\")");
	pg_query_free_fingerprint_result(f);
	const char *text = pgbind_text(tree, arena, &st);
	CHECK(text && strncmp(text, "ParseResult\n", 12) == 0, "text of no statements");
	void *ctx = pg_query_enter_memory_context();
	void *nodes = (void *)1;
	CHECK(pgbind_to_pg_parse_tree(tree, ctx, NULL, &nodes, &st) && nodes == NULL, "to_pg of no statements: NIL");
	pg_query_exit_memory_context(ctx);
	size_t n = count_nodes(tree, &st);
	CHECK(n == 0, "walk of no statements visits nothing (%zu)", n);
}

/* ---- syntax and scan errors ---- */

static void test_syntax_errors(void)
{
	static const char *const bad[] = {
		"SELECT 1 +",
		"SELECT FROM WHERE",
		"SELECT 'abc",
		"SELECT \"",
		"SELECT $$",
		"/* unterminated",
		"SELECT é FROM WHERE",
		"SELECT 'ü' FROM FROM",
		"SELECT U&'\\00'",
		"SELECT 1::",
		"CREATE TABLE (",
		"SELECT E'\\xff'",
		"SELECT 1;\nSELECT 2 +",
		"INSERT INTO t VALUES (1",
		"SELECT 99999999999999999999999e99999999999 FROM",
	};
	int n = 0, scan_errors = 0;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		pgbind_Status st = {0};
		pgbind_ParseResult *tree = pgbind_parse(bad[i], NULL, arena, &st);
		PgQueryProtobufParseResult want = pg_query_parse_protobuf(bad[i]);
		CHECK(!tree && want.error && st.code == PGBIND_ERROR_SYNTAX && strcmp(st.message, want.error->message) == 0 &&
				  st.cursorpos == want.error->cursorpos,
			  "%s: \"%s\" at %d, libpg_query \"%s\" at %d", bad[i], st.message, st.cursorpos,
			  want.error ? want.error->message : "(parsed)", want.error ? want.error->cursorpos : 0);
		pg_query_free_protobuf_parse_result(want);
		n++;
		memset(&st, 0, sizeof st);
		pgbind_ScanResult *scan = pgbind_scan(bad[i], NULL, arena, &st);
		PgQueryScanResult sw = pg_query_scan(bad[i]);
		if (sw.error) {
			scan_errors++;
			CHECK(!scan && st.code == PGBIND_ERROR_SYNTAX && strcmp(st.message, sw.error->message) == 0 &&
					  st.cursorpos == sw.error->cursorpos,
				  "scan %s: \"%s\" at %d, libpg_query \"%s\" at %d", bad[i], st.message, st.cursorpos,
				  sw.error->message, sw.error->cursorpos);
		} else {
			CHECK(scan != NULL, "scan %s: tokens, as libpg_query's (%s)", bad[i], st.message);
		}
		pg_query_free_scan_result(sw);
	}
	printf("# %d syntax errors (%d of them scan errors): libpg_query's message and cursor position\n", n, scan_errors);
}

/* ---- malformed protobuf ---- */

static void test_malformed_protobuf(void)
{
	static const struct {
		const char *bytes;
		size_t len;
		pgbind_StatusCode code;
		size_t offset;
		const char *message;
	} cases[] = {
		{"\x0a\x05"
		 "ab",
		 4, PGBIND_ERROR_MALFORMED, 1, "length 5 runs past the end of its message at byte 1"},
		{"\x08", 1, PGBIND_ERROR_MALFORMED, 1, "truncated varint at byte 1"},
		{"\x0f", 1, PGBIND_ERROR_MALFORMED, 0, "invalid wire type 7 at byte 0"},
		{"\x00", 1, PGBIND_ERROR_MALFORMED, 0, "field number 0 at byte 0"},
		{"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11, PGBIND_ERROR_MALFORMED, 1, "varint longer than 64 bits"},
		{"\x08\x01\x0c", 3, PGBIND_ERROR_MALFORMED, 2, "end of a group that was not started at byte 2"},
		{"\x08\x01\x0b\x08", 4, PGBIND_ERROR_MALFORMED, 4, "truncated varint at byte 4"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		pgbind_Status st = {0};
		pgbind_ParseResult *r = pgbind_decode((const uint8_t *)cases[i].bytes, cases[i].len, NULL, arena, &st);
		CHECK(!r && st.code == cases[i].code && st.offset == cases[i].offset && strstr(st.message, cases[i].message),
			  "malformed protobuf %zu: %s, offset %zu (want offset %zu, \"%s\")", i, st.message, st.offset,
			  cases[i].offset, cases[i].message);
	}
	/* stmts[0] = RawStmt{stmt = Node{String{sval = "a\0b"}}}: refused at the NUL byte */
	{
		Rev r = {.cap = 64};
		r.data = xmalloc(r.cap);
		r.start = r.cap;
		r.start -= 3;
		memcpy(r.data + r.start, "a\0b", 3);
		size_t nul_from_end = r.cap - (r.start + 1);
		rev_wrap(&r, 1); /* String.sval */
		rev_wrap(&r, PGBIND_T_String);
		rev_wrap(&r, 1); /* RawStmt.stmt */
		rev_wrap(&r, 2); /* ParseResult.stmts */
		size_t len = r.cap - r.start, nul_at = len - nul_from_end;
		pgbind_Status st = {0};
		CHECK(!pgbind_decode(r.data + r.start, len, NULL, arena, &st) && st.code == PGBIND_ERROR_MALFORMED &&
				  st.offset == nul_at && strstr(st.message, "NUL"),
			  "a string with a NUL byte: malformed at byte %zu (%s)", nul_at, st.message);
		free(r.data);
	}
	/* every prefix of a real encoding: decodes, or fails with an offset inside the prefix */
	const char *sql = "SELECT a, 'x', -1.5 FROM t AS u(c) WHERE b IS NULL ORDER BY 1 LIMIT 5";
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	const uint8_t *data = NULL;
	size_t len = 0, errors = 0, bad = 0;
	if (tree && pgbind_encode(tree, NULL, arena, &data, &len, &st)) {
		for (size_t n = 0; n < len; n++) {
			pgbind_Arena *a = pgbind_Arena_New();
			uint8_t *copy = xmalloc(n); /* exactly n bytes: valgrind sees any read beyond */
			memcpy(copy, data, n);
			memset(&st, 0, sizeof st);
			pgbind_ParseResult *r = pgbind_decode(copy, n, NULL, a, &st);
			if (!r) {
				errors++;
				char where[32];
				snprintf(where, sizeof where, "at byte %zu", st.offset);
				if (st.code != PGBIND_ERROR_MALFORMED || st.offset > n || !strstr(st.message, where))
					bad++;
			}
			free(copy);
			pgbind_Arena_Free(a);
		}
	}
	CHECK(len > 0 && errors > 0 && bad == 0,
		  "%zu prefixes of a %zu-byte encoding: %zu malformed, %zu without a "
		  "valid offset",
		  len, len, errors, bad);
	/* the scan decoder too */
	PgQueryScanResult sr = pg_query_scan(sql);
	size_t scan_bad = 0;
	for (size_t n = 0; !sr.error && n < sr.pbuf.len; n++) {
		memset(&st, 0, sizeof st);
		pgbind_ScanResult *r = pgbind_decode_scan((const uint8_t *)sr.pbuf.data, n, NULL, arena, &st);
		if (!r && (st.code != PGBIND_ERROR_MALFORMED || st.offset > n))
			scan_bad++;
	}
	CHECK(!sr.error && scan_bad == 0, "prefixes of pg_query_scan's bytes: malformed with an offset inside");
	pg_query_free_scan_result(sr);
	printf("# malformed protobuf: %zu fixed cases and %zu prefixes, each with its byte offset\n",
		   sizeof cases / sizeof *cases, len);
}

/* ---- malformed JSON ---- */

static void test_malformed_json(void)
{
	/* at: the error is at the first occurrence of this text; NULL: at the first NUL byte of the
	 * input, or at its end when there is none */
#define TEXT(s) s, sizeof(s) - 1
	static const struct {
		const char *json;
		size_t len;
		const char *at;
		pgbind_StatusCode code;
		const char *message;
	} cases[] = {
		{TEXT("  \n "), NULL, PGBIND_ERROR_MALFORMED, "no JSON value"},
		{TEXT("{\n  \"version\": 150001,\n  \"stmts\": [\n    {\"stmt\": nul}\n  ]\n}"), "nul}", PGBIND_ERROR_MALFORMED,
		 "invalid literal"},
		{TEXT("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"h\xc3\xa9llo\"}}}], x}"), "x}", PGBIND_ERROR_MALFORMED,
		 "expected a key"},
		{TEXT("{} x"), "x", PGBIND_ERROR_MALFORMED, "the end of the input"},
		{TEXT("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"abc"), "\"abc", PGBIND_ERROR_MALFORMED,
		 "unterminated string"},
		{TEXT("{\"stmtz\":[]}"), "\"stmtz", PGBIND_ERROR_INVALID, "unknown key \"stmtz\""},
		{TEXT("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"limitOption\":\"BOGUS\"}}}]}"), "\"BOGUS", PGBIND_ERROR_INVALID,
		 "at ParseResult.stmts[0].stmt.SelectStmt.limitOption"},
		{TEXT("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"a\\u0000b\"}}}]}"), "\\u0000", PGBIND_ERROR_MALFORMED,
		 "\\u0000"},
		{TEXT("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"a\0b\"}}}]}"), NULL, PGBIND_ERROR_MALFORMED,
		 "control character 0x00"},
		{TEXT("{\"stmts\":[]}\0"), NULL, PGBIND_ERROR_MALFORMED, "unexpected byte 0x00"},
		{TEXT("{\n\t\"stmts\": [\n\t\t{\"stmt\": {\"A_Const\": {\"ival\": {\"ival\": 1e}}}}\n\t]\n}"), "}}}}",
		 PGBIND_ERROR_MALFORMED, "number"},
		{TEXT("{\"version\": 99999999999999999999}"), "9999", PGBIND_ERROR_INVALID, "range"},
		{TEXT("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"\\ud800\"}}}]}"), "\\ud800", PGBIND_ERROR_MALFORMED,
		 "surrogate"},
	};
#undef TEXT
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *json = cases[i].json;
		size_t len = cases[i].len, want_at = len;
		if (cases[i].at) {
			const char *hit = strstr(json, cases[i].at);
			want_at = hit ? (size_t)(hit - json) : len;
		} else if (memchr(json, '\0', len)) {
			want_at = (size_t)((const char *)memchr(json, '\0', len) - json);
		}
		pgbind_Status st = {0};
		pgbind_ParseResult *r = pgbind_json_read(json, len, NULL, arena, &st);
		int line, col;
		line_col(json, want_at, &line, &col);
		char prefix[64];
		snprintf(prefix, sizeof prefix, "line %d, column %d: ", line, col);
		CHECK(!r && st.code == cases[i].code && st.offset == want_at &&
				  strncmp(st.message, prefix, strlen(prefix)) == 0 && strstr(st.message, cases[i].message),
			  "malformed JSON %zu: %s \"%s\" at offset %zu (want %s\"%s...%s...\" at offset %zu)", i,
			  pgbind_StatusCode_name(st.code), st.message, st.offset, pgbind_StatusCode_name(cases[i].code), prefix,
			  cases[i].message, want_at);
	}
	printf("# malformed JSON: %zu cases, each with line, column and offset\n", sizeof cases / sizeof *cases);
}

/* ---- NUL bytes ---- */

static void test_nul_bytes(void)
{
	/* SQL is a C string: what follows a NUL is not seen, by pgbind as by libpg_query */
	static const char with_nul[] = "SELECT 1\0; DROP TABLE t";
	pgbind_Status st = {0};
	pgbind_ParseResult *a = pgbind_parse(with_nul, NULL, arena, &st);
	pgbind_ParseResult *b = pgbind_parse("SELECT 1", NULL, arena, &st);
	CHECK(a && b && a->n_stmts == 1 && pgbind_ParseResult_equal(a, b), "SQL stops at its NUL byte");
	pgbind_ScanResult *s = pgbind_scan(with_nul, NULL, arena, &st);
	CHECK(s && s->n_tokens == 2, "scan stops at the NUL byte too");
	/* a string with a NUL cannot be a C string: the decoder refuses it (see the protobuf cases),
	 * and so does the JSON reader (see the JSON cases); an encoded tree cannot hold one */
}

/* ---- SQL that is not UTF-8 ---- */

static void test_invalid_utf8(void)
{
	static const char *const sqls[] = {
		"SELECT '\xff\xfe'",       "SELECT \xff\xfe FROM t", "SELECT 'a\xc3'",
		"SELECT \"\xc3(\" FROM t", "SELECT 1 -- \xff\n",     "SELECT '\xed\xa0\x80' AS \"\xc0\xaf\"",
		"SELECT E'\\xff'",         "SELECT '\x80\x80\x80'",
	};
	int passed_through = 0, refused = 0;
	for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
		const char *sql = sqls[i];
		pgbind_Status st = {0};
		pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
		PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
		if (want.error) {
			refused++;
			CHECK(!tree && strcmp(st.message, want.error->message) == 0 && st.cursorpos == want.error->cursorpos,
				  "invalid UTF-8 %zu: libpg_query's error \"%s\" (pgbind: %s)", i, want.error->message,
				  tree ? "parsed" : st.message);
			pg_query_free_protobuf_parse_result(want);
			continue;
		}
		passed_through++;
		const uint8_t *data = NULL;
		size_t len = 0;
		CHECK(tree && pgbind_encode(tree, NULL, arena, &data, &len, &st) && len == want.parse_tree.len &&
				  memcmp(data, want.parse_tree.data, len) == 0,
			  "invalid UTF-8 %zu: the bytes are pg_query_parse_protobuf's", i);
		if (!tree || !data) {
			pg_query_free_protobuf_parse_result(want);
			continue;
		}
		pgbind_ParseResult *decoded = pgbind_decode(data, len, NULL, arena, &st);
		CHECK(decoded && pgbind_ParseResult_equal(decoded, tree), "invalid UTF-8 %zu: decodes back", i);
		const char *json = pgbind_json(tree, NULL, arena, &st);
		PgQueryParseResult pj = pg_query_parse(sql);
		CHECK(json && pj.parse_tree && strcmp(json, pj.parse_tree) == 0, "invalid UTF-8 %zu: JSON is pg_query_parse's",
			  i);
		pg_query_free_parse_result(pj);
		pgbind_ParseResult *read = json ? pgbind_json_read(json, strlen(json), NULL, arena, &st) : NULL;
		CHECK(read && pgbind_ParseResult_equal(read, tree), "invalid UTF-8 %zu: JSON reads back (%s)", i,
			  read ? "" : st.message);
		memset(&st, 0, sizeof st);
		const char *ours = pgbind_deparse(tree, NULL, arena, &st);
		PgQueryProtobuf pb = {want.parse_tree.len, want.parse_tree.data};
		PgQueryDeparseResult theirs = pg_query_deparse_protobuf(pb);
		CHECK(theirs.error ? !ours : ours && strcmp(ours, theirs.query) == 0,
			  "invalid UTF-8 %zu: deparse is pg_query_deparse_protobuf's", i);
		pg_query_free_deparse_result(theirs);
		uint64_t fp = 0;
		PgQueryFingerprintResult f = pg_query_fingerprint(sql);
		CHECK(pgbind_fingerprint(tree, NULL, &fp, &st) && !f.error && fp == f.fingerprint,
			  "invalid UTF-8 %zu: fingerprint is pg_query_fingerprint's", i);
		pg_query_free_fingerprint_result(f);
		pgbind_ScanResult *scan = pgbind_scan(sql, NULL, arena, &st);
		PgQueryScanResult sr = pg_query_scan(sql);
		pgbind_ScanResult *theirs_scan =
			sr.error ? NULL : pgbind_decode_scan((const uint8_t *)sr.pbuf.data, sr.pbuf.len, NULL, arena, &st);
		CHECK(scan && theirs_scan && pgbind_ScanResult_equal(scan, theirs_scan), "invalid UTF-8 %zu: scan", i);
		pg_query_free_scan_result(sr);
		pg_query_free_protobuf_parse_result(want);
	}
	/* JSON text that is not UTF-8: string bytes are taken as they are */
	const char *json = "{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":\"\xff\xfe\"}}}]}";
	pgbind_Status st = {0};
	pgbind_ParseResult *r = pgbind_json_read(json, strlen(json), NULL, arena, &st);
	const char *back = r ? pgbind_json(r, NULL, arena, &st) : NULL;
	CHECK(back && strstr(back, "\"sval\":\"\xff\xfe\""), "JSON strings that are not UTF-8 are read and written as "
														 "they are");
	printf("# not UTF-8: %d statements passed through as libpg_query passes them, %d refused as it refuses them\n",
		   passed_through, refused);
}

/* ---- 10 MB statements ---- */

static void big_statement(const char *label, const char *sql)
{
	double t0 = now();
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, a, &st);
	CHECK(tree != NULL, "%s: parse (%s)", label, tree ? "" : st.message);
	if (!tree) {
		pgbind_Arena_Free(a);
		return;
	}
	const uint8_t *data = NULL;
	size_t len = 0;
	PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
	CHECK(pgbind_encode(tree, NULL, a, &data, &len, &st) && !want.error && len == want.parse_tree.len &&
			  memcmp(data, want.parse_tree.data, len) == 0,
		  "%s: encode is pg_query_parse_protobuf's (%zu bytes)", label, len);
	pgbind_ParseResult *decoded = data ? pgbind_decode(data, len, NULL, a, &st) : NULL;
	CHECK(decoded && pgbind_ParseResult_equal(decoded, tree), "%s: decode", label);
	const char *json = pgbind_json(tree, NULL, a, &st);
	PgQueryParseResult pj = pg_query_parse(sql);
	CHECK(json && pj.parse_tree && strcmp(json, pj.parse_tree) == 0, "%s: json is pg_query_parse's", label);
	pg_query_free_parse_result(pj);
	pgbind_ParseResult *read = json ? pgbind_json_read(json, strlen(json), NULL, a, &st) : NULL;
	CHECK(read && pgbind_ParseResult_equal(read, tree), "%s: json_read", label);
	memset(&st, 0, sizeof st);
	const char *ours = pgbind_deparse(tree, NULL, a, &st);
	if (!want.error) {
		PgQueryProtobuf pb = {want.parse_tree.len, want.parse_tree.data};
		PgQueryDeparseResult theirs = pg_query_deparse_protobuf(pb);
		CHECK(!theirs.error && ours && strcmp(ours, theirs.query) == 0,
			  "%s: deparse is pg_query_deparse_protobuf's (%s)", label, ours ? "" : st.message);
		pg_query_free_deparse_result(theirs);
	}
	pg_query_free_protobuf_parse_result(want);
	uint64_t fp = 0;
	PgQueryFingerprintResult f = pg_query_fingerprint(sql);
	CHECK(pgbind_fingerprint(tree, NULL, &fp, &st) && !f.error && fp == f.fingerprint,
		  "%s: fingerprint is pg_query_fingerprint's", label);
	pg_query_free_fingerprint_result(f);
	pgbind_ScanResult *scan = pgbind_scan(sql, NULL, a, &st);
	CHECK(scan && scan->n_tokens > 1, "%s: scan (%zu tokens)", label, scan ? scan->n_tokens : 0);
	const char *text = pgbind_text(tree, a, &st);
	CHECK(text != NULL, "%s: text", label);
	printf("# %s (%zu bytes of SQL): every function agrees with libpg_query (%.1f s)\n", label, strlen(sql),
		   now() - t0);
	pgbind_Arena_Free(a);
}

static bool skip_big; /* --skip-big: for slow runs (valgrind takes minutes over the 500,000 targets) */

static void test_big(void)
{
	if (skip_big) {
		printf("# the 10 MB statements: skipped (--skip-big)\n");
		return;
	}
	size_t n = 10u << 20;
	char *sql = xmalloc(n + 16);
	memcpy(sql, "SELECT '", 8);
	memset(sql + 8, 'x', n);
	memcpy(sql + 8 + n, "'", 2);
	big_statement("a 10 MB string literal", sql);
	free(sql);
	sql = nest("SELECT a", ", a", 500000, "", "", "");
	big_statement("500,000 targets", sql);
	free(sql);
}

/* ---- NULL arguments ---- */

static bool noop_walk(pgbind_Node *node, void *ctx)
{
	(void)node;
	(void)ctx;
	return false;
}

static void test_null_arguments(void)
{
	pgbind_Status st0 = {0};
	pgbind_ParseResult *tree = pgbind_parse("SELECT 1", NULL, arena, &st0);
	const uint8_t *data = NULL;
	size_t len = 0;
	uint64_t fp;
	void *nodes;
	void *ctx = pg_query_enter_memory_context();
	if (!tree || !pgbind_encode(tree, NULL, arena, &data, &len, &st0)) {
		CHECK(false, "setup: %s", st0.message);
		pg_query_exit_memory_context(ctx);
		return;
	}
	int n = 0;
	/* each call twice: with a status (PGBIND_ERROR_ARGUMENT expected), and with status NULL */
#define NULL_ARG(expr, fails)                                                                    \
	do {                                                                                         \
		pgbind_Status st = {0};                                                                  \
		pgbind_Status *status = &st;                                                             \
		bool failed_ = (expr)fails;                                                              \
		CHECK(failed_ &&st.code == PGBIND_ERROR_ARGUMENT && st.message[0], "%s: %s (%s)", #expr, \
			  pgbind_StatusCode_name(st.code), st.message);                                      \
		status = NULL;                                                                           \
		(void)(expr);                                                                            \
		n++;                                                                                     \
	} while (0)
	NULL_ARG(pgbind_parse(NULL, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_parse("SELECT 1", NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_from_pg_parse_tree(NULL, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_encode(NULL, NULL, arena, &data, &len, status), == false);
	NULL_ARG(pgbind_encode(tree, NULL, NULL, &data, &len, status), == false);
	NULL_ARG(pgbind_encode(tree, NULL, arena, NULL, &len, status), == false);
	NULL_ARG(pgbind_encode(tree, NULL, arena, &data, NULL, status), == false);
	NULL_ARG(pgbind_decode(NULL, 5, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_decode(data, len, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_decode_scan(NULL, 5, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_decode_scan(data, len, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_to_pg_parse_tree(NULL, ctx, NULL, &nodes, status), == false);
	NULL_ARG(pgbind_to_pg_parse_tree(tree, NULL, NULL, &nodes, status), == false);
	NULL_ARG(pgbind_to_pg_parse_tree(tree, ctx, NULL, NULL, status), == false);
	NULL_ARG(pgbind_deparse(NULL, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_deparse(tree, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_fingerprint(NULL, NULL, &fp, status), == false);
	NULL_ARG(pgbind_fingerprint(tree, NULL, NULL, status), == false);
	NULL_ARG(pgbind_scan(NULL, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_scan("SELECT 1", NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_text(NULL, arena, status), == NULL);
	NULL_ARG(pgbind_text(tree, NULL, status), == NULL);
	NULL_ARG(pgbind_json(NULL, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_json(tree, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_json_read(NULL, 3, NULL, arena, status), == NULL);
	NULL_ARG(pgbind_json_read("{}", 2, NULL, NULL, status), == NULL);
	NULL_ARG(pgbind_walk(tree->stmts[0]->stmt, NULL, NULL, status), == PGBIND_WALK_FAILED);
	NULL_ARG(pgbind_ParseResult_walk(tree, NULL, NULL, status), == PGBIND_WALK_FAILED);
	NULL_ARG(pgbind_mutate(tree->stmts[0]->stmt, NULL, NULL, status), == PGBIND_WALK_FAILED);
	NULL_ARG(pgbind_mutate_children(tree->stmts[0]->stmt, NULL, NULL, status), == PGBIND_WALK_FAILED);
	NULL_ARG(pgbind_ParseResult_mutate(tree, NULL, NULL, status), == PGBIND_WALK_FAILED);
#undef NULL_ARG
	pg_query_exit_memory_context(ctx);
	/* and the ones that take NULL as a value */
	pgbind_Status st = {0};
	CHECK(pgbind_walk(NULL, noop_walk, NULL, &st) == PGBIND_WALK_DONE, "pgbind_walk(NULL root): done");
	CHECK(!pgbind_walk_children(NULL, noop_walk, NULL), "pgbind_walk_children(NULL): no children");
	CHECK(pgbind_ParseResult_equal(NULL, NULL) && !pgbind_ParseResult_equal(tree, NULL), "equal(NULL, NULL)");
	CHECK(pgbind_Arena_Malloc(NULL, 8) == NULL, "pgbind_Arena_Malloc(NULL): NULL");
	pgbind_Arena_Free(NULL);
	printf("# NULL arguments: %d calls, each PGBIND_ERROR_ARGUMENT with a status and no crash without one\n", n);
}

/* ---- deep nesting ---- */

/* ParseResult{stmts: RawStmt{stmt: n nested A_Expr (lexpr)}} */
static Rev deep_protobuf(int n)
{
	Rev r = {.cap = (size_t)n * 12 + 64};
	r.data = xmalloc(r.cap);
	r.start = r.cap;
	for (int i = 0; i < n; i++) {
		rev_wrap(&r, PGBIND_T_A_Expr);
		rev_wrap(&r, 3);
	}
	rev_wrap(&r, PGBIND_T_A_Expr);
	rev_wrap(&r, 1);
	rev_wrap(&r, 2);
	return r;
}

/* {"stmts":[{"stmt": n nested {"List":{"items":[ ... ]}} }]} */
static char *deep_json(int n, size_t *len)
{
	char *s = nest("{\"stmts\":[{\"stmt\":", "{\"List\":{\"items\":[", n, "", "]}}", "}]}");
	*len = strlen(s);
	return s;
}

/* A tree n Lists deep, by hand, in arena. */
static pgbind_ParseResult *deep_tree(int n)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse("SELECT 1", NULL, arena, &st);
	pgbind_Node *inner = NULL;
	for (int i = 0; tree && i < n; i++) {
		pgbind_List *l = pgbind_Arena_Malloc(arena, sizeof *l);
		pgbind_Node **items = pgbind_Arena_Malloc(arena, sizeof *items);
		memset(l, 0, sizeof *l);
		l->tag = PGBIND_T_List;
		l->n_items = 1;
		l->items = items;
		items[0] = inner;
		inner = (pgbind_Node *)l;
	}
	if (tree)
		tree->stmts[0]->stmt = inner;
	return tree;
}

typedef enum {
	F_PARSE,
	F_ENCODE,
	F_DECODE,
	F_JSON,
	F_JSON_READ,
	F_TEXT,
	F_EQUAL,
	F_TO_PG,
	F_FINGERPRINT,
	F_DEPARSE,
	F_WALK,
	N_FUNCS
} Func;

static const char *const func_names[N_FUNCS] = {"parse", "encode", "decode",      "json",    "json_read", "text",
												"equal", "to_pg",  "fingerprint", "deparse", "walk"};

/* One function on one input, for deep inputs (and run in a child where it might crash). */
typedef struct {
	Func func;
	const char *sql;
	pgbind_ParseResult *tree;
	const uint8_t *pb;
	size_t pb_len;
	const char *json;
	size_t json_len;
	const pgbind_Options *options;
	pgbind_Status st;
	bool expect_depth;             /* the call must fail with PGBIND_ERROR_DEPTH; else succeed */
	pgbind_StatusCode expect_code; /* when set: the call must fail with this code (expect_depth: DEPTH) */
} DeepCall;

static bool deep_call(void *arg)
{
	DeepCall *c = arg;
	pgbind_Arena *a = pgbind_Arena_New();
	const pgbind_Options *o = c->options;
	pgbind_Status *st = &c->st;
	memset(st, 0, sizeof *st);
	bool ok = false;
	switch (c->func) {
	case F_PARSE:
		ok = pgbind_parse(c->sql, o, a, st) != NULL;
		break;
	case F_ENCODE: {
		const uint8_t *d;
		size_t n;
		ok = pgbind_encode(c->tree, o, a, &d, &n, st);
		break;
	}
	case F_DECODE:
		ok = pgbind_decode(c->pb, c->pb_len, o, a, st) != NULL;
		break;
	case F_JSON:
		ok = pgbind_json(c->tree, o, a, st) != NULL;
		break;
	case F_JSON_READ:
		ok = pgbind_json_read(c->json, c->json_len, o, a, st) != NULL;
		break;
	case F_TEXT:
		ok = pgbind_text(c->tree, a, st) != NULL;
		break;
	case F_EQUAL:
		ok = pgbind_ParseResult_equal(c->tree, c->tree);
		break;
	case F_TO_PG: {
		void *ctx = pg_query_enter_memory_context(), *nodes;
		ok = pgbind_to_pg_parse_tree(c->tree, ctx, o, &nodes, st);
		pg_query_exit_memory_context(ctx);
		break;
	}
	case F_FINGERPRINT: {
		uint64_t fp;
		ok = pgbind_fingerprint(c->tree, o, &fp, st);
		break;
	}
	case F_DEPARSE:
		ok = pgbind_deparse(c->tree, o, a, st) != NULL;
		break;
	case F_WALK:
		ok = count_nodes(c->tree, st) != (size_t)-1;
		break;
	case N_FUNCS:
		break;
	}
	pgbind_Arena_Free(a);
	if (c->expect_code)
		return !ok && st->code == c->expect_code;
	return c->expect_depth ? !ok && st->code == PGBIND_ERROR_DEPTH : ok;
}

static int n_deep;

/* Runs c in a child process (stack_size as for run_isolated) and checks its outcome. */
static void deep_check(DeepCall *c, const char *input, size_t stack_size)
{
	int rc = run_isolated(deep_call, c, stack_size);
	char stack[48] = "";
	if (stack_size)
		snprintf(stack, sizeof stack, " on a %zu KiB stack", stack_size >> 10);
	CHECK(rc == 0, "%s of %s%s: want %s, got %s", func_names[c->func], input, stack,
		  c->expect_code    ? pgbind_StatusCode_name(c->expect_code)
		  : c->expect_depth ? "PGBIND_ERROR_DEPTH"
							: "success",
		  isolated_result(rc));
	n_deep++;
}

/* SQL that nests n levels: pgbind and libpg_query must agree (libpg_query's own protobuf output
 * recurses and overflows the stack from about 24,000 levels, so it is only asked below that). */
static void deep_sql(const char *label, char *sql, int n, bool left_deep)
{
	pgbind_Status st = {0};
	pgbind_Arena *a = pgbind_Arena_New();
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, a, &st);
	char input[96];
	snprintf(input, sizeof input, "%d %s", n, label);
	if (n <= 1000) {
		/* a thousand levels: fine for everyone */
		PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
		const uint8_t *data = NULL;
		size_t len = 0;
		CHECK(tree && !want.error && pgbind_encode(tree, NULL, a, &data, &len, &st) && len == want.parse_tree.len &&
				  memcmp(data, want.parse_tree.data, len) == 0,
			  "%s: parses, bytes equal libpg_query's (%s)", input, tree ? "" : st.message);
		pg_query_free_protobuf_parse_result(want);
	} else if (left_deep) {
		/* bison takes left recursion in constant stack: the tree is n deep, beyond max_depth */
		CHECK(!tree && st.code == PGBIND_ERROR_DEPTH, "%s: PGBIND_ERROR_DEPTH (%s)", input,
			  tree ? "parsed" : st.message);
	} else {
		/* right recursion fills bison's stack (YYMAXDEPTH 10000): libpg_query's syntax error */
		PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
		CHECK(!tree && want.error && st.code == PGBIND_ERROR_SYNTAX && strcmp(st.message, want.error->message) == 0 &&
				  st.cursorpos == want.error->cursorpos,
			  "%s: libpg_query's error (%s; pgbind: %s)", input, want.error ? want.error->message : "parsed",
			  tree ? "parsed" : st.message);
		pg_query_free_protobuf_parse_result(want);
	}
	pgbind_Arena_Free(a);
	free(sql);
}

/* The smallest max_depth with which c succeeds (searching 1..limit); 0 when none does, and
 * *depth_error says whether every smaller one failed with PGBIND_ERROR_DEPTH. */
static int min_depth(DeepCall *c, int limit, bool *depth_error)
{
	pgbind_Options o = {0};
	c->options = &o;
	c->expect_depth = false;
	*depth_error = true;
	for (int d = 1; d <= limit; d++) {
		o.max_depth = d;
		if (deep_call(c)) {
			c->options = NULL;
			return d;
		}
		if (c->st.code != PGBIND_ERROR_DEPTH)
			*depth_error = false;
	}
	c->options = NULL;
	return 0;
}

static void test_deep(void)
{
	double t0 = now();
	static const int sizes[] = {1000, 10000, 100000, 1000000};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		int n = sizes[i];
		deep_sql("terms of 1+1+...", nest("SELECT 1", "+1", n, "", "", ""), n, true);
		if (n <= 100000)
			deep_sql("UNIONs", nest("SELECT 1", " UNION SELECT 1", n, "", "", ""), n, true);
		deep_sql("nested parentheses", nest("SELECT ", "(", n, "1", ")", ""), n, false);
		deep_sql("nested subqueries", nest("SELECT ", "(SELECT ", n, "1", ")", ""), n, false);
		deep_sql("nested FROM subqueries", nest("SELECT * FROM ", "(SELECT * FROM ", n, "t", ") s", ""), n, false);
		deep_sql("unary minus", nest("SELECT ", "- ", n, "1", "", ""), n, false);
		deep_sql("NOTs", nest("SELECT ", "NOT ", n, "true", "", ""), n, false);
		deep_sql("nested ARRAY[]", nest("SELECT ", "ARRAY[", n, "1", "]", ""), n, false);
	}

	/* deep protobuf and JSON input: decoded within max_depth, refused beyond */
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		int n = sizes[i];
		char input[64];
		Rev r = deep_protobuf(n);
		DeepCall c = {.func = F_DECODE, .pb = r.data + r.start, .pb_len = r.cap - r.start, .expect_depth = n > 9000};
		snprintf(input, sizeof input, "protobuf %d A_Exprs deep", n);
		deep_check(&c, input, 0);
		free(r.data);
		size_t len;
		char *json = deep_json(n, &len);
		c = (DeepCall){.func = F_JSON_READ, .json = json, .json_len = len, .expect_depth = n > 9000};
		snprintf(input, sizeof input, "JSON %d Lists deep", n);
		deep_check(&c, input, 0);
		free(json);
	}
	/* groups (wire type 3) nested in an unknown field: skipped without recursion, to 64 levels */
	{
		size_t n = 1000000;
		uint8_t *g = xmalloc(n + 1);
		memset(g, 0x1b, n); /* field 3, start group */
		pgbind_Status st = {0};
		CHECK(!pgbind_decode(g, n, NULL, arena, &st) && st.code == PGBIND_ERROR_DEPTH,
			  "a million nested groups: PGBIND_ERROR_DEPTH (%s)", st.message);
		CHECK(!pgbind_decode_scan(g, n, NULL, arena, &st) && st.code == PGBIND_ERROR_DEPTH,
			  "... in a ScanResult too (%s)", st.message);
		free(g);
	}

	/* a tree as deep as the default max_depth lets through, through every function (in a child
	 * each: libpg_query's deparse route recurses on its own) */
	int deepest = PGBIND_DEFAULT_MAX_DEPTH - 10;
	char *sql = nest("SELECT 1", "+1", deepest, "", "", "");
	pgbind_Status st = {0};
	renew_arena();
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	CHECK(tree != NULL, "%d terms parse within the default max_depth (%s)", deepest, tree ? "" : st.message);
	const uint8_t *pb = NULL;
	size_t pb_len = 0;
	const char *json = NULL;
	if (tree && pgbind_encode(tree, NULL, arena, &pb, &pb_len, &st))
		json = pgbind_json(tree, NULL, arena, &st);
	CHECK(json != NULL, "%d terms: encode and json (%s)", deepest, json ? "" : st.message);
	if (json) {
		char input[64];
		snprintf(input, sizeof input, "%d terms of 1+1+...", deepest);
		/* the default stack: every function takes it, except deparse: libpg_query's deparser would
		 * need more of the thread's stack than 8 MiB (PGBIND_ERROR_DEPTH, PGBIND_STACK_MESSAGE) */
		for (int f = 0; f < N_FUNCS; f++) {
			DeepCall c = {.func = (Func)f,
						  .sql = sql,
						  .tree = tree,
						  .pb = pb,
						  .pb_len = pb_len,
						  .json = json,
						  .json_len = strlen(json)};
			if (f == F_DEPARSE)
				c.expect_depth = true;
			if (f != F_TEXT)
				deep_check(&c, input, 0);
		}
		/* a 1 MiB stack, with the max_depth pgbind.h says fits it (about 3,500 levels a MiB):
		 * the recursive paths refuse this tree cleanly instead of overflowing */
		pgbind_Options fits = {.max_depth = 3000};
		for (int f = 0; f < N_FUNCS; f++) {
			DeepCall c = {.func = (Func)f,
						  .sql = sql,
						  .tree = tree,
						  .pb = pb,
						  .pb_len = pb_len,
						  .json = json,
						  .json_len = strlen(json),
						  .options = &fits};
			if (f == F_TEXT || f == F_EQUAL)
				continue; /* no options: text has its own limit below; equal is for trees pgbind built */
			if (f != F_WALK && f != F_FINGERPRINT)
				c.expect_depth = true; /* the fingerprint over the AST reads 100 levels, as libpg_query's, on
										* every major (runtime/fingerprint.c): no depth error */
			deep_check(&c, input, ONE_MIB_STACK);
		}
	}
	free(sql);
	/* ... and 2,990 terms, within that max_depth, go through on the 1 MiB stack */
	sql = nest("SELECT 1", "+1", 2990, "", "", "");
	{
		pgbind_Options fits = {.max_depth = 3000};
		tree = pgbind_parse(sql, &fits, arena, &st);
		pb = NULL;
		json = NULL;
		if (tree && pgbind_encode(tree, &fits, arena, &pb, &pb_len, &st))
			json = pgbind_json(tree, &fits, arena, &st);
		CHECK(json != NULL, "2990 terms within max_depth 3000: parse, encode, json (%s)", json ? "" : st.message);
		for (int f = 0; json && f < N_FUNCS; f++) {
			DeepCall c = {.func = (Func)f,
						  .sql = sql,
						  .tree = tree,
						  .pb = pb,
						  .pb_len = pb_len,
						  .json = json,
						  .json_len = strlen(json),
						  .options = &fits};
			if (f == F_TEXT)
				continue;
			if (f == F_DEPARSE)
				c.expect_depth = true; /* the deparser's 2,990 levels need more than 1 MiB of stack */
			deep_check(&c, "2990 terms of 1+1+... with max_depth 3000", ONE_MIB_STACK);
		}
	}
	free(sql);
	sql = nest("SELECT 1", "+1", 4000, "", "", "");
	tree = pgbind_parse(sql, NULL, arena, &st);
	CHECK(tree != NULL, "4000 terms parse");
	if (tree) {
		DeepCall c = {.func = F_TEXT, .tree = tree};
		deep_check(&c, "4000 terms of 1+1+...", 0);
		/* pgbind_text takes no options: on 1 MiB it is tried within the ~3,500 levels a MiB holds */
	}
	free(sql);

	/* a tree built by hand, far deeper than any parse gives: refused, never a crash (equal has
	 * no status and recurses; it is for the trees pgbind builds) */
	renew_arena();
	tree = deep_tree(100000);
	for (int f = F_ENCODE; f < N_FUNCS; f++) {
		if (f == F_DECODE || f == F_JSON_READ || f == F_EQUAL)
			continue;
		/* the fingerprint reads 100 levels of nodes (libpg_query's cut-off): it succeeds */
		DeepCall c = {.func = (Func)f, .tree = tree, .expect_depth = f != F_WALK && f != F_FINGERPRINT};
		deep_check(&c, "a hand-built tree 100,000 Lists deep", 0);
	}

	/* a smaller max_depth is honoured by each function: the smallest that works, and below it
	 * PGBIND_ERROR_DEPTH. decode, encode, json and json_read count alike (pgbind_json.h). */
	renew_arena();
	sql = nest("SELECT 1", "+1", 60, "", "", "");
	tree = pgbind_parse(sql, NULL, arena, &st);
	pb = NULL;
	json = NULL;
	if (tree && pgbind_encode(tree, NULL, arena, &pb, &pb_len, &st))
		json = pgbind_json(tree, NULL, arena, &st);
	CHECK(json != NULL, "60 terms: parse, encode, json");
	int depth[N_FUNCS] = {0};
	if (json) {
		for (int f = 0; f < N_FUNCS; f++) {
			if (f == F_TEXT || f == F_EQUAL || f == F_WALK)
				continue; /* no max_depth */
			DeepCall c = {.func = (Func)f,
						  .sql = sql,
						  .tree = tree,
						  .pb = pb,
						  .pb_len = pb_len,
						  .json = json,
						  .json_len = strlen(json)};
			bool depth_error;
			depth[f] = min_depth(&c, 200, &depth_error);
			CHECK(depth[f] > 1 && depth_error, "%s: works from max_depth %d, PGBIND_ERROR_DEPTH below", func_names[f],
				  depth[f]);
			if (depth[f] > 1) {
				/* and with the limit exceeded nothing leaks (valgrind): run once more below it */
				pgbind_Options o = {.max_depth = depth[f] - 1};
				c.options = &o;
				c.expect_depth = true;
				CHECK(deep_call(&c), "%s with max_depth %d: PGBIND_ERROR_DEPTH (%s)", func_names[f], depth[f] - 1,
					  c.st.message);
			}
		}
		CHECK(depth[F_JSON] == depth[F_DECODE] && depth[F_JSON_READ] == depth[F_DECODE],
			  "decode, json and json_read count nesting alike, as pgbind_json.h says (%d, %d, %d)", depth[F_DECODE],
			  depth[F_JSON], depth[F_JSON_READ]);
		/* a round trip under one max_depth: what parse and encode produce within a limit, decode
		 * and json_read read back within the same limit */
		CHECK(depth[F_DECODE] <= depth[F_PARSE] && depth[F_DECODE] <= depth[F_ENCODE] &&
				  depth[F_JSON_READ] <= depth[F_PARSE],
			  "parse(max_depth %d) and encode(max_depth %d) succeed, but decode of those bytes needs max_depth %d "
			  "and json_read of their JSON %d",
			  depth[F_PARSE], depth[F_ENCODE], depth[F_DECODE], depth[F_JSON_READ]);
	}
	free(sql);
	/* a ScanResult is level 0 and its tokens level 1, as statements are in a ParseResult */
	pgbind_Options one = {.max_depth = 1};
	PgQueryScanResult sr = pg_query_scan("SELECT 1");
	CHECK(pgbind_scan("SELECT 1", &one, arena, &st) != NULL, "scan with max_depth 1: %s", st.message);
	CHECK(!sr.error && pgbind_decode_scan((const uint8_t *)sr.pbuf.data, sr.pbuf.len, &one, arena, &st) != NULL,
		  "decode_scan with max_depth 1: %s", st.message);
	pg_query_free_scan_result(sr);
	printf("# deep nesting: %d calls in child processes; smallest max_depth for 60 terms: parse %d, encode %d, "
		   "decode %d, json %d, json_read %d, to_pg %d, fingerprint %d, deparse %d (%.1f s)\n",
		   n_deep, depth[F_PARSE], depth[F_ENCODE], depth[F_DECODE], depth[F_JSON], depth[F_JSON_READ], depth[F_TO_PG],
		   depth[F_FINGERPRINT], depth[F_DEPARSE], now() - t0);
}

static void section_input(void)
{
	double t0 = now();
	printf("== 3. bad input\n");
	arena = pgbind_Arena_New();
	test_empty();
	test_syntax_errors();
	test_malformed_protobuf();
	test_malformed_json();
	test_nul_bytes();
	test_invalid_utf8();
	renew_arena();
	test_null_arguments();
	renew_arena();
	test_big();
	test_deep();
	pgbind_Arena_Free(arena);
	arena = NULL;
	printf("# bad input: %.1f s\n", now() - t0);
}

/* ==== main ====================================================================================== */

int main(int argc, char **argv)
{
	bool only = false, alloc = false, threads = false, input = false;
	int n_threads = 6, rounds = 5, n_files = 0;
	char **files = xmalloc((size_t)argc * sizeof *files);
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--only=", 7) == 0) {
			only = true;
			alloc |= strcmp(argv[i] + 7, "alloc") == 0;
			threads |= strcmp(argv[i] + 7, "threads") == 0;
			input |= strcmp(argv[i] + 7, "input") == 0;
		} else if (strncmp(argv[i], "--nthreads=", 11) == 0) {
			n_threads = atoi(argv[i] + 11);
		} else if (strncmp(argv[i], "--rounds=", 9) == 0) {
			rounds = atoi(argv[i] + 9);
		} else if (strcmp(argv[i], "--skip-big") == 0) {
			skip_big = true;
		} else if (strcmp(argv[i], "--help") == 0) {
			printf("usage: test_hardening [--only=alloc|threads|input]... [--nthreads=N] [--rounds=N] [--skip-big] "
				   "[FILE.sql...]\n");
			free(files);
			return 0;
		} else {
			files[n_files++] = argv[i];
		}
	}
	if (n_threads < 1)
		n_threads = 1;
	if (rounds < 1)
		rounds = 1;
	if (!only)
		alloc = threads = input = true;
	if (alloc)
		section_alloc();
	if (threads)
		section_threads(files, n_files, n_threads, rounds);
	if (input)
		section_input();
	free(files);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
