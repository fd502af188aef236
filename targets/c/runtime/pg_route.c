/*
 * pg_route.c -- the paths that go through libpg_query: deparse, fingerprint and scan.
 *
 * Each takes the fastest route the linked libpg_query offers, chosen when pgbind is built:
 *   deparse      the tree checked against the deparser's contract (targets/c/runtime/contract.c: a
 *                tree breaking it is deparsed in the deparse server, below; one holding a shape
 *                the deparser reads past is returned only where its SQL parses back), then
 *                AST -> nodes -> libpg_query's node-level deparser, where the library exports one:
 *                deparseRawStmt (17 and 18; used when the PostgreSQL headers are the library's
 *                own, so that PG_TRY here and ereport there share its thread-local handler
 *                stack), or pg_query_deparse_nodes (some forks); else AST -> protobuf ->
 *                pg_query_deparse_protobuf (Debian's 15-4.0.0: its deparser is static).
 *   fingerprint  computed over the AST itself (targets/c/runtime/fingerprint.c), with the version's declared
 *                rules (schema/libpg_query.txt, each line for the majors its since:/until: say).
 *   normalize    computed from the AST and the text (targets/c/runtime/normalize.c), likewise.
 *   scan         pg_query_scan_tokens where the library has it (18.1); else pg_query_scan's
 *                protobuf through pgbind's decoder.
 */
#include "pg_headers.h"

#include "internal.h"
#include "pgbind_reflect.h"
#include "pgbind_walk.h"

#include "proc.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PGBIND_HAVE_DEPARSE_NODES
PgQueryDeparseResult pg_query_deparse_nodes(void *stmts);
#elif defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
#include "lib/stringinfo.h"
void deparseRawStmt(StringInfo str, RawStmt *raw_stmt); /* exported; 17 installs no header for it */
#endif

/* Copies a malloc'd C string into the arena. */
static const char *arena_strdup(pgbind_Arena *arena, const char *s, pgbind_Status *status)
{
	size_t len = strlen(s) + 1;
	char *copy = pgbind_Arena_Malloc(arena, len);
	if (!copy) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	return memcpy(copy, s, len);
}

static void fail_with_pg_error(pgbind_Status *status, pgbind_StatusCode code, const PgQueryError *error)
{
	pgbind_fail(status, code, "%s", error->message ? error->message : "libpg_query error");
	if (status)
		status->cursorpos = error->cursorpos;
}

/* ---- the round trip ---------------------------------------------------------------------------- */

/* Whether two Lists of RawStmt hold equal() statements, one by one (equal() skips locations;
 * stmt_len is the text's, not the tree's, so it is not compared). */
static bool same_statements(List *a, List *b)
{
	if (list_length(a) != list_length(b))
		return false;
	ListCell *la, *lb;
	forboth(la, a, lb, b) if (!equal(lfirst_node(RawStmt, la)->stmt, lfirst_node(RawStmt, lb)->stmt)) return false;
	return true;
}

/*
 * Whether sql parses back to tree's statements, by PostgreSQL's equal() (locations aside), with
 * tree's strings as it holds them. A tree decoded from protobuf holds NULL where the SQL had ""
 * (the protocol cannot tell them apart): so when tree has no such "" itself, a second comparison
 * reads both as libpg_query's reader does ("" as NULL in those fields). On a difference, why names
 * the first differing field path; an error of the check itself (out of memory) goes to status and
 * returns false with why empty.
 */
static bool round_trip_holds(const pgbind_ParseResult *tree, bool tree_has_lossy_empty, const char *sql,
							 const pgbind_Options *options, pgbind_Arena *arena, char *why, size_t size,
							 pgbind_Status *status)
{
	why[0] = '\0';
	MemoryContext ctx = pg_query_enter_memory_context();
	void *nodes;
	bool converted = pgbind_to_pg_nodes(tree, ctx, options, true, &nodes, status);
	bool same = false, parses = false;
	if (converted) {
		PgQueryInternalParsetreeAndError raw = PGBIND_RAW_PARSE(sql);
		if (raw.error) {
			snprintf(why, size, "\"%.60s%s\" does not parse (%s at %d)", sql, strlen(sql) > 60 ? "..." : "",
					 raw.error->message ? raw.error->message : "syntax error", raw.error->cursorpos);
			pg_query_free_error(raw.error);
		} else {
			parses = true;
			same = same_statements(nodes, raw.tree);
		}
		free(raw.stderr_buffer);
	}
	pg_query_exit_memory_context(ctx);
	if (same || !parses)
		return same;
	/* the slow path, on a difference only: parse again into an AST to name where */
	pgbind_ParseResult *back = pgbind_parse(sql, options, arena, status);
	if (!back)
		return false;
	if (!tree_has_lossy_empty) {
		ctx = pg_query_enter_memory_context();
		void *a, *b;
		same = pgbind_to_pg_nodes(tree, ctx, options, false, &a, status) &&
			   pgbind_to_pg_nodes(back, ctx, options, false, &b, status) && same_statements(a, b);
		pg_query_exit_memory_context(ctx);
		if (same)
			return true;
	}
	char path[200];
	if (!pgbind_first_difference(tree, back, !tree_has_lossy_empty, path, sizeof path))
		snprintf(path, sizeof path, "ParseResult (equal() differs where the AST does not)");
	snprintf(why, size, "it parses back to another tree, first at %s", path);
	return false;
}

/* ---- the deparser call, here or in the deparse server ------------------------------------------ */

/* What the linked libpg_query's deparser is handed, and what it answers (the SQL or an error,
 * both in memory the call owns until deparser_done()). */
typedef struct {
#if defined(PGBIND_HAVE_DEPARSE_NODES) || defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	List *nodes; /* of RawStmt, in ctx */
	MemoryContext ctx;
#else
	PgQueryProtobuf pb;
#endif
	const char *sql, *error;
	int cursorpos;
#if !defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	PgQueryDeparseResult r;
#endif
} DeparserCall;

static void deparser_run(DeparserCall *call)
{
	call->sql = call->error = NULL;
	call->cursorpos = 0;
#if defined(PGBIND_HAVE_DEPARSE_NODES)
	call->r = pg_query_deparse_nodes(call->nodes);
#elif defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	/* statements joined with "; ", as pg_query_deparse_protobuf joins them */
	const char *volatile done = NULL;
	const char *volatile error = NULL;
	PG_TRY();
	{
		StringInfoData str;
		ListCell *lc;
		initStringInfo(&str);
		foreach (lc, call->nodes) {
			deparseRawStmt(&str, lfirst_node(RawStmt, lc));
			if (lnext(call->nodes, lc))
				appendStringInfoString(&str, "; ");
		}
		done = str.data;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(call->ctx);
		ErrorData *e = CopyErrorData();
		error = e->message ? e->message : "libpg_query's deparser failed";
		FlushErrorState();
	}
	PG_END_TRY();
	call->sql = done;
	call->error = error;
#else
	call->r = pg_query_deparse_protobuf(call->pb);
#endif
#if !defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	if (call->r.error) {
		call->error = call->r.error->message ? call->r.error->message : "libpg_query error";
		call->cursorpos = call->r.error->cursorpos;
	} else {
		call->sql = call->r.query;
	}
#endif
}

static void deparser_done(DeparserCall *call)
{
#if !defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	pg_query_free_deparse_result(call->r);
#else
	(void)call;   /* in the memory context, which the caller leaves */
#endif
}

/* The deparser's SQL for call, copied into arena, or NULL with status set (its error). */
static const char *deparser_sql(DeparserCall *call, pgbind_Arena *arena, pgbind_Status *status)
{
	deparser_run(call);
	const char *sql = NULL;
	if (call->sql)
		sql = arena_strdup(arena, call->sql, status);
	else {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "%s", call->error);
		if (status)
			status->cursorpos = call->cursorpos;
	}
	deparser_done(call);
	return sql;
}

/*
 * Through protobuf an empty string arrives as NULL, which the deparser may print as something
 * else (COMMENT ... IS '' becomes IS NULL) or crash on (ALTER TYPE t ADD VALUE ''). So a tree
 * holding such a string is encoded from a copy holding a marker there instead (a string no string
 * of the tree holds), which the protocol carries; strip_marker then removes it from the SQL, and
 * the caller checks that the result parses back to the tree (*lossy, where: the field).
 */
static bool encode_for_protocol(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								const uint8_t **data, size_t *len, bool *lossy, char *where, size_t where_size,
								char marker[32], pgbind_Status *status)
{
	/* Encoding first bounds the depth, so the walks below cannot run deep. */
	if (!pgbind_encode(tree, options, arena, data, len, status))
		return false;
	if (!pgbind_find_lossy_empty_string(tree, where, where_size))
		return true;
	*lossy = true;
	const pgbind_ParseResult *copy = NULL;
	for (int attempt = 0; !copy && attempt < 1000; attempt++) {
		bool collides;
		snprintf(marker, 32, "pgbind_empty_string_%d", attempt);
		copy = pgbind_copy_replacing_lossy_empty(tree, marker, arena, &collides, status);
		if (!copy)
			return false;
		if (collides)
			copy = NULL;
	}
	return copy && pgbind_encode(copy, options, arena, data, len, status);
}

/* The SQL without the markers, in place: never longer. */
static void strip_marker(const char *sql, const char *marker)
{
	size_t m = strlen(marker);
	char *o = (char *)sql;
	for (const char *q = sql; *q;) {
		if (strncmp(q, marker, m) == 0)
			q += m;
		else
			*o++ = *q++;
	}
	*o = '\0';
}

/* ---- the deparse server: the deparser in a long-lived child process -------------------------- */

/*
 * One child per process (proc.c's server), started at the first isolated deparse, again after it
 * died or did not answer in time, and anew in a process that forked since (proc.c looks at
 * getpid()). A request is the tree's max_depth (int32) and its protobuf bytes (pgbind_encode, with
 * encode_for_protocol's markers); the answer ok (uint8), a status code and a cursor position
 * (int32 each) and the SQL or the error's message. Calls are serialized by a mutex, which a fork
 * handler makes usable again in a child forked while another thread held it.
 */
static void serve_deparse(void *unused, const uint8_t *request, size_t len, pgbind_ProcBuf *answer);
static pgbind_Proc deparse_server = PGBIND_PROC_INIT(serve_deparse, NULL, 0);
static pthread_mutex_t deparse_server_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t deparse_server_once = PTHREAD_ONCE_INIT;

static void deparse_server_after_fork(void)
{
	pthread_mutex_init(&deparse_server_lock, NULL);
}

static void deparse_server_register(void)
{
	pthread_atfork(NULL, NULL, deparse_server_after_fork);
}

static void answer_with(pgbind_ProcBuf *answer, bool ok, int32_t code, int32_t cursorpos, const char *message)
{
	uint8_t o = ok;
	pgbind_proc_put(answer, &o, 1);
	pgbind_proc_put(answer, &code, sizeof code);
	pgbind_proc_put(answer, &cursorpos, sizeof cursorpos);
	pgbind_proc_put_str(answer, message);
}

/* In the server: one request's deparse, as deparse_tree does it in the caller (with the lossy
 * empty strings put back into the nodes, which carry them). A stack overflow here (the child runs
 * on the stack of the thread that started it) is a crash the caller reports. */
static void serve_deparse(void *unused, const uint8_t *request, size_t len, pgbind_ProcBuf *answer)
{
	(void)unused;
	pgbind_ProcReader in = {request, len};
	int32_t max_depth;
	const char *marker;
	size_t marker_len;
	if (!pgbind_proc_get(&in, &max_depth, sizeof max_depth) || !pgbind_proc_get_str(&in, &marker, &marker_len)) {
		answer_with(answer, false, PGBIND_ERROR_ARGUMENT, 0, "a request out of form");
		return;
	}
	pgbind_Status status = {0};
	DeparserCall call = {0};
#if defined(PGBIND_HAVE_DEPARSE_NODES) || defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	char restore[32] = "";
	memcpy(restore, marker, marker_len < sizeof restore ? marker_len : 0);
	pgbind_Options options = {.max_depth = max_depth};
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_ParseResult *tree = arena ? pgbind_decode(in.p, in.left, &options, arena, &status) : NULL;
	if (tree && restore[0])
		tree = pgbind_copy_restoring_lossy_empty(tree, restore, arena, &status);
	MemoryContext ctx = pg_query_enter_memory_context();
	void *nodes;
	if (!arena)
		pgbind_fail(&status, PGBIND_ERROR_NOMEM, "out of memory");
	if (tree && pgbind_to_pg_nodes(tree, ctx, &options, true, &nodes, &status)) {
		call.nodes = nodes;
		call.ctx = ctx;
		deparser_run(&call);
	}
#else
	(void)marker; /* the protocol's route: the caller takes the markers out of the SQL */
	call.pb = (PgQueryProtobuf){in.left, (char *)in.p};
	deparser_run(&call);
#endif
	if (call.sql)
		answer_with(answer, true, PGBIND_OK, 0, call.sql);
	else if (call.error)
		answer_with(answer, false, PGBIND_ERROR_INVALID, call.cursorpos, call.error);
	else
		answer_with(answer, false, status.code, status.cursorpos, status.message);
	deparser_done(&call);
#if defined(PGBIND_HAVE_DEPARSE_NODES) || defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	pg_query_exit_memory_context(ctx);
	pgbind_Arena_Free(arena);
#endif
}

/* The deparser's SQL for tree from the server, copied into arena, or NULL with status set; its
 * death there (or no answer in time) is PGBIND_ERROR_DEPARSER_CRASHED and not the caller's. */
static const char *deparse_isolated(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									bool *lossy, char *where, size_t where_size, pgbind_Status *status)
{
	const uint8_t *data;
	size_t len;
	char marker[32] = "";
	if (!encode_for_protocol(tree, options, arena, &data, &len, lossy, where, where_size, marker, status))
		return NULL;
#if defined(PGBIND_HAVE_DEPARSE_NODES) || defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	*lossy = false; /* the server puts "" back into the nodes, as the plain route hands them over */
#endif
	pgbind_ProcBuf request = {0};
	int32_t max_depth = pgbind_max_depth(options);
	if (!pgbind_proc_put(&request, &max_depth, sizeof max_depth) || !pgbind_proc_put_str(&request, marker) ||
		!pgbind_proc_put(&request, data, len)) {
		pgbind_proc_buf_free(&request);
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	pthread_once(&deparse_server_once, deparse_server_register);
	pgbind_ProcResult r;
	pthread_mutex_lock(&deparse_server_lock);
	pgbind_proc_call(&deparse_server, request.data, request.len, PGBIND_DEPARSE_TIMEOUT_MS, &r);
	pthread_mutex_unlock(&deparse_server_lock);
	pgbind_proc_buf_free(&request);
	const char *sql = NULL;
	pgbind_ProcReader in = {r.data, r.len};
	uint8_t ok;
	int32_t code, cursorpos;
	const char *said;
	size_t said_len;
	switch (r.outcome) {
	case PGBIND_PROC_ANSWERED:
		if (!pgbind_proc_get(&in, &ok, 1) || !pgbind_proc_get(&in, &code, sizeof code) ||
			!pgbind_proc_get(&in, &cursorpos, sizeof cursorpos) || !pgbind_proc_get_str(&in, &said, &said_len)) {
			pgbind_fail(status, PGBIND_ERROR_DEPARSER_CRASHED, "the deparser's process answered out of form");
		} else if (ok) {
			sql = arena_strdup(arena, said, status); /* the answer's last field: NUL-terminated */
			if (sql && *lossy)
				strip_marker(sql, marker);
		} else {
			pgbind_fail(status, (pgbind_StatusCode)code, "%s", said);
			if (status)
				status->cursorpos = cursorpos;
		}
		break;
	case PGBIND_PROC_NO_MEMORY:
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		break;
	default: {
		char how[120];
		pgbind_proc_describe(&r, PGBIND_DEPARSE_TIMEOUT_MS, how, sizeof how);
		if (r.outcome == PGBIND_PROC_NOT_STARTED)
			pgbind_fail(status, r.error == ENOMEM || r.error == EAGAIN ? PGBIND_ERROR_NOMEM : PGBIND_ERROR_ARGUMENT,
						"the isolated deparser's process %s", how);
		else
			pgbind_fail(status, PGBIND_ERROR_DEPARSER_CRASHED, "libpg_query's deparser %s", how);
	}
	}
	free(r.data);
	return sql;
}

/* The deparse route proper: SQL for tree, or NULL with status set. The depth is options'
 * max_depth, as on every path (the contract's walk has checked the stack the deparser needs). */
static const char *deparse_tree(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								bool *lossy, char *where, size_t where_size, pgbind_Status *status)
{
	*lossy = false;
	if (options && options->isolate_deparse)
		return deparse_isolated(tree, options, arena, lossy, where, where_size, status);
	const char *sql = NULL;
#if defined(PGBIND_HAVE_DEPARSE_NODES) || defined(PGBIND_HAVE_DEPARSE_RAW_STMT)
	(void)where;
	(void)where_size;
	/* The nodes carry "" as "" (nothing to refuse). */
	MemoryContext ctx = pg_query_enter_memory_context();
	void *nodes;
	if (pgbind_to_pg_nodes(tree, ctx, options, true, &nodes, status)) {
		DeparserCall call = {.nodes = nodes, .ctx = ctx};
		sql = deparser_sql(&call, arena, status);
	}
	pg_query_exit_memory_context(ctx);
#else
	const uint8_t *data;
	size_t len;
	char marker[32];
	if (!encode_for_protocol(tree, options, arena, &data, &len, lossy, where, where_size, marker, status))
		return NULL;
	DeparserCall call = {.pb = {len, (char *)data}};
	sql = deparser_sql(&call, arena, status);
	if (sql && *lossy)
		strip_marker(sql, marker);
#endif
	return sql;
}

static const char *deparse_and_check(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status);

/*
 * A tree of several statements one of which holds a shape the deparser reads past: each statement
 * deparsed alone (pgbind_deparse: the parse-back of the memory rule is then that statement's, not
 * the whole tree's, whose other statements' SQL need not give their tree again) and the SQL joined
 * as libpg_query joins statements, "; ". The first error is the call's, its statement named.
 */
static const char *deparse_each(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								pgbind_Status *status)
{
	const char **parts = pgbind_Arena_Malloc(arena, tree->n_stmts * sizeof *parts);
	size_t total = 1;
	for (size_t i = 0; parts && i < tree->n_stmts; i++) {
		pgbind_ParseResult one = *tree;
		one.stmts = tree->stmts + i;
		one.n_stmts = 1;
		pgbind_Status st = {0};
		parts[i] = pgbind_deparse(&one, options, arena, &st);
		if (!parts[i]) {
			if (status) {
				*status = st;
				snprintf(status->message, sizeof status->message, "statement %zu of %zu: %s", i + 1, tree->n_stmts,
						 st.message);
			}
			return NULL;
		}
		total += strlen(parts[i]) + 2;
	}
	char *sql = parts ? pgbind_Arena_Malloc(arena, total) : NULL;
	if (!sql) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	size_t len = 0;
	for (size_t i = 0; i < tree->n_stmts; i++) {
		size_t n = strlen(parts[i]);
		if (i) {
			memcpy(sql + len, "; ", 2);
			len += 2;
		}
		memcpy(sql + len, parts[i], n);
		len += n;
	}
	sql[len] = '\0';
	return sql;
}

const char *pgbind_deparse(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
						   pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_deparse(tree, options, arena, status));
	if (!tree || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	if (options && options->no_fork && options->isolate_deparse) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_Options asks for isolate_deparse and no_fork at once");
		return NULL;
	}
	/* The deparse contract (schema/pgNN/deparse.txt, derived by tools/deparse-probe): its walk is
	 * bounded by max_depth, and finds whether the thread has the stack the deparser needs. A tree
	 * that breaks one of its rules holds a shape the deparser crashed on in the probe's trials and
	 * no parse of the probe's corpus made (or the soundest shape of a parsed statement that
	 * crashed it): a parse the corpus lacked may still make it, so it is not refused but deparsed
	 * in the deparse server, where a crash is an error naming the rule. The policy is the same as
	 * for every tree: libpg_query's SQL as it writes it, which only check_deparse parses back. */
	pgbind_Status contract = {0};
	pgbind_ContractVerdict verdict = pgbind_deparse_contract(tree, pgbind_max_depth(options), &contract);
	if (verdict == PGBIND_CONTRACT_MET)
		return deparse_and_check(tree, options, arena, status);
	if (verdict == PGBIND_CONTRACT_REFUSED || (options && options->no_fork)) {
		if (status)
			*status = contract;
		if (verdict != PGBIND_CONTRACT_REFUSED)
			pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE,
						"not deparsed (pgbind_Options.no_fork): libpg_query's deparser (PostgreSQL %d) %s such "
						"trees: %s",
						PG_VERSION_NUM / 10000,
						verdict == PGBIND_CONTRACT_READS_PAST ? "reads past a node in" : "crashed in the probe on",
						contract.message);
		return NULL;
	}
	/* In the server. Where a declared rule says the deparser reads past a node (READS_PAST), what
	 * it writes is what memory held: its SQL is returned only where it parses back to the tree, so
	 * that the answer is the same on every run and machine; a crash there is that same bug. */
	bool reads_past = verdict == PGBIND_CONTRACT_READS_PAST;
	if (reads_past && tree->n_stmts > 1)
		return deparse_each(tree, options, arena, status);
	pgbind_Options isolated = options ? *options : (pgbind_Options){0};
	isolated.isolate_deparse = true;
	isolated.check_deparse = isolated.check_deparse || reads_past;
	const char *sql = deparse_and_check(tree, &isolated, arena, status);
	if (!sql && status && (status->code == PGBIND_ERROR_DEPARSER_CRASHED || status->code == PGBIND_ERROR_ROUND_TRIP)) {
		/* what the server saw first (the first differing field, the signal), then the rule that
		 * sent the tree there (what, where, which line of schema/): a message holds 255 bytes */
		char crash[sizeof status->message];
		memcpy(crash, status->message, sizeof crash);
		if (reads_past) /* what it did there (crash, which SQL) is memory's: not said, the same every time */
			pgbind_fail(status, PGBIND_ERROR_ROUND_TRIP,
						"libpg_query's bug: its deparser reads past a node, %s: what it writes depends on memory, and "
						"did not parse back to the tree",
						contract.message);
		else
			pgbind_fail(status, status->code, "%s; by rule %s", crash, contract.message);
	}
	return sql;
}

const char *pgbind_deparse_unchecked(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	if (!tree || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	return deparse_and_check(tree, options, arena, status);
}

/*
 * After the isolated deparser died on tree: which statement it dies on, found by deparsing halves
 * of the statements in the server (a crash comes from one statement: log2(n) more calls), added to
 * status's message. Only a statement that crashes it alone is named.
 */
static void name_crashing_statement(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									pgbind_Status *status)
{
	size_t lo = 0, n = tree->n_stmts;
	bool known = true; /* stmts [lo, lo + n) are known to crash it (else only inferred) */
	while (n > 1 || (n == 1 && !known)) {
		size_t half = n > 1 ? n / 2 : 1;
		pgbind_ParseResult part = *tree;
		part.stmts = tree->stmts + lo;
		part.n_stmts = half;
		pgbind_Status st = {0};
		bool lossy;
		char where[160];
		bool crashed = !deparse_tree(&part, options, arena, &lossy, where, sizeof where, &st) &&
					   st.code == PGBIND_ERROR_DEPARSER_CRASHED;
		if (n == 1) {
			known = crashed;
			break;
		}
		if (crashed) {
			n = half;
			known = true;
		} else {
			lo += half, n -= half;
			known = false;
		}
	}
	bool alone = n == 1 && known;
	if (!alone) {
		size_t len = strlen(status->message);
		snprintf(status->message + len, sizeof status->message - len,
				 " on this tree of %zu statements (no one of them alone), in its server", tree->n_stmts);
		return;
	}
	const pgbind_Node *stmt = tree->stmts[lo] ? tree->stmts[lo]->stmt : NULL;
	const pgbind_MessageDesc *d = stmt ? pgbind_node_desc(stmt->tag) : NULL;
	char what[sizeof status->message];
	snprintf(what, sizeof what, "%s on stmts[%zu] (%s), in its server", status->message, lo,
			 d ? d->name : "no statement");
	memcpy(status->message, what, sizeof what);
}

/* The deparse route, then the round trip where options or a lossy "" ask for it. */
static const char *deparse_and_check(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	bool lossy;
	char where[160];
	const char *sql = deparse_tree(tree, options, arena, &lossy, where, sizeof where, status);
	if (!sql && status && status->code == PGBIND_ERROR_DEPARSER_CRASHED)
		name_crashing_statement(tree, options, arena, status);
	if (!sql || !(lossy || (options && options->check_deparse)))
		return sql;
	char why[220];
	if (round_trip_holds(tree, lossy, sql, options, arena, why, sizeof why, status))
		return sql;
	if (!why[0])
		return NULL; /* the check itself failed (out of memory): status says so */
	if (lossy)
		pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE,
					"%s is an empty string, which libpg_query's protobuf deparse route cannot carry; deparsed "
					"with one there, %s: not deparsed",
					where, why);
	else
		pgbind_fail(status, PGBIND_ERROR_ROUND_TRIP, "libpg_query's deparser wrote wrong SQL for this tree: %s", why);
	return NULL;
}

bool pgbind_fingerprint(const pgbind_ParseResult *tree, const pgbind_Options *options, uint64_t *fingerprint,
						pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_fingerprint(tree, options, fingerprint, status));
	if (!tree || !fingerprint) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return false;
	}
	return pgbind_fingerprint_ast(NULL, tree, options, fingerprint, status);
}

const char *pgbind_normalize(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
							 pgbind_Arena *arena, pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_normalize(tree, sql, options, arena, status));
	if (!tree || !sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	return pgbind_normalize_ast(tree, sql, options, arena, status);
}

pgbind_ScanResult *pgbind_scan(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
							   pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_scan(sql, options, arena, status));
	if (!sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", sql ? "arena" : "sql");
		return NULL;
	}
	pgbind_ScanResult *result = NULL;
#ifdef PGBIND_HAVE_SCAN_TOKENS
	(void)options; /* nothing nests: no depth to limit */
	PgQueryScanTokensResult r = pg_query_scan_tokens(sql);
	if (r.error) {
		fail_with_pg_error(status, PGBIND_ERROR_SYNTAX, r.error);
	} else {
		result = pgbind_Arena_Malloc(arena, sizeof *result);
		pgbind_ScanToken *tokens = pgbind_Arena_Malloc(arena, (size_t)r.n_tokens * sizeof *tokens + 1);
		pgbind_ScanToken **ptrs = pgbind_Arena_Malloc(arena, (size_t)r.n_tokens * sizeof *ptrs + 1);
		if (!result || !tokens || !ptrs) {
			pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
			result = NULL;
		} else {
			memset(tokens, 0, (size_t)r.n_tokens * sizeof *tokens);
			result->version = pgbind_libpg_query_version_num;
			result->n_tokens = (size_t)r.n_tokens;
			result->tokens = ptrs;
			for (int i = 0; i < r.n_tokens; i++) {
				tokens[i].start = r.tokens[i].start;
				tokens[i].end = r.tokens[i].end;
				tokens[i].token = (pgbind_Token)r.tokens[i].token;
				tokens[i].keyword_kind = (pgbind_KeywordKind)r.tokens[i].keyword_kind;
				ptrs[i] = &tokens[i];
			}
		}
	}
	pg_query_free_scan_tokens_result(r);
#else
	PgQueryScanResult r = pg_query_scan(sql);
	if (r.error)
		fail_with_pg_error(status, PGBIND_ERROR_SYNTAX, r.error);
	else
		result = pgbind_decode_scan((const uint8_t *)r.pbuf.data, r.pbuf.len, options, arena, status);
	pg_query_free_scan_result(r);
#endif
	return result;
}
