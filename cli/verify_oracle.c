/*
 * verify_oracle.c -- libpg_query, `pgbind verify`'s oracle, run in other processes through the
 * runtime's process helper (targets/c/runtime/proc.h), so that its crashes are its own and not the
 * run's: 15-4.0.0's pg_query_normalize segfaults on some scripts whole (its conninfo search finds
 * another statement's string), 17's deparser on SET TIME ZONE INTERVAL '1 hour'. Entry points in
 * cli/verify.h.
 *
 * Fingerprint, normalize and deparse go to one long-lived server (started at the first call and
 * again after it died: a fork per call made verify 22 times slower), its standard error to
 * /dev/null (a sanitizer's report of the library's crash is not the run's). A request is a kind
 * byte and the text or bytes; an answer the fate byte, the fingerprint and the text. The parse and
 * the reader of a deep statement, which need this process's tree and are rare, run in a child of
 * their own each (pgbind_proc_once).
 */
#include "verify.h"
#include "cli.h"
#include "pg_query.h"
#include "proc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ASK_FINGERPRINT = 'f', ASK_NORMALIZE = 'n', ASK_DEPARSE = 'd' };

static void put_answer(pgbind_ProcBuf *answer, OracleFate fate, uint64_t fingerprint, const char *text)
{
	uint8_t f = (uint8_t)fate;
	pgbind_proc_put(answer, &f, 1);
	pgbind_proc_put(answer, &fingerprint, sizeof fingerprint);
	pgbind_proc_put_str(answer, text);
}

/* In the server: one request. The results are left to libpg_query's memory of this process, which
 * ends when verify does. */
static void serve(void *ctx, const uint8_t *request, size_t len, pgbind_ProcBuf *answer)
{
	(void)ctx;
	if (len < 1) {
		put_answer(answer, ORACLE_ERROR, 0, "an empty request");
		return;
	}
	const char *sql = (const char *)request + 1; /* the request's end is NUL-terminated (proc.c) */
	if (request[0] == ASK_NORMALIZE) {
		PgQueryNormalizeResult r = pg_query_normalize(sql);
		put_answer(answer, r.error ? ORACLE_ERROR : ORACLE_OK, 0, r.error ? r.error->message : r.normalized_query);
		pg_query_free_normalize_result(r);
	} else if (request[0] == ASK_FINGERPRINT) {
		PgQueryFingerprintResult r = pg_query_fingerprint(sql);
		put_answer(answer, r.error ? ORACLE_ERROR : ORACLE_OK, r.fingerprint, r.error ? r.error->message : "");
		pg_query_free_fingerprint_result(r);
	} else {
		PgQueryProtobuf pb = {len - 1, (char *)request + 1};
		PgQueryDeparseResult r = pg_query_deparse_protobuf(pb);
		put_answer(answer, r.error ? ORACLE_ERROR : ORACLE_OK, 0, r.error ? r.error->message : r.query);
		pg_query_free_deparse_result(r);
	}
}

static pgbind_Proc server = PGBIND_PROC_INIT(serve, NULL, PGBIND_PROC_QUIET);

static void ask(char kind, const void *data, size_t len, Oracle *out)
{
	*out = (Oracle){.fate = ORACLE_DIED};
	pgbind_ProcBuf request = {0};
	if (!pgbind_proc_put(&request, &kind, 1) || !pgbind_proc_put(&request, data, len)) {
		pgbind_proc_buf_free(&request);
		snprintf(out->why, sizeof out->why, "out of memory");
		return;
	}
	fflush(stdout); /* a child must not inherit output not yet written (it never flushes it, but a
					 * sanitizer's report in it would come before) */
	pgbind_ProcResult r;
	pgbind_proc_call(&server, request.data, request.len, -1, &r);
	pgbind_proc_buf_free(&request);
	pgbind_ProcReader in = {r.data, r.len};
	uint8_t fate;
	const char *text;
	size_t n;
	if (r.outcome != PGBIND_PROC_ANSWERED) {
		pgbind_proc_describe(&r, 0, out->why, sizeof out->why);
	} else if (!pgbind_proc_get(&in, &fate, 1) || !pgbind_proc_get(&in, &out->fingerprint, sizeof out->fingerprint) ||
			   !pgbind_proc_get_str(&in, &text, &n) || !(out->text = strndup(text, n))) {
		snprintf(out->why, sizeof out->why, "answered out of form");
	} else {
		out->fate = (OracleFate)fate;
	}
	free(r.data);
}

void oracle_normalize(const char *sql, bool normalize, Oracle *out)
{
	ask(normalize ? ASK_NORMALIZE : ASK_FINGERPRINT, sql, strlen(sql), out);
}

void oracle_deparse(const uint8_t *bytes, size_t len, Oracle *out)
{
	ask(ASK_DEPARSE, bytes, len, out);
}

void oracle_stop(void)
{
	pgbind_proc_stop(&server);
}

/* ---- in a child of their own ---------------------------------------------------------------------- */

/* the signal that ended a child that did not answer (SIGKILL when it left otherwise) */
static int died_of(const pgbind_ProcResult *r)
{
	return r->outcome == PGBIND_PROC_SIGNALLED ? r->signal : SIGKILL;
}

static void parse_here(const char *stmt, pgbind_ProcBuf *answer)
{
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(stmt);
	uint8_t failed = r.error != NULL;
	int32_t cursorpos = r.error ? r.error->cursorpos : 0;
	pgbind_proc_put(answer, &failed, 1);
	pgbind_proc_put(answer, &cursorpos, sizeof cursorpos);
	pgbind_proc_put_str(answer, r.error ? r.error->message : "");
	pgbind_proc_put(answer, r.error ? "" : r.parse_tree.data, r.error ? 0 : r.parse_tree.len);
	pg_query_free_protobuf_parse_result(r);
}

static void parse_in_child(void *ctx, pgbind_ProcBuf *answer)
{
	parse_here(ctx, answer);
}

void oracle_parse(const char *stmt, bool in_child, TheirParse *out)
{
	*out = (TheirParse){0};
	pgbind_ProcResult r = {0};
	pgbind_ProcBuf here = {0};
	if (in_child) {
		fflush(stdout);
		pgbind_proc_once(parse_in_child, (void *)stmt, PGBIND_PROC_QUIET, -1, &r);
	} else {
		parse_here(stmt, &here);
		r = (pgbind_ProcResult){
			.outcome = here.failed ? PGBIND_PROC_NO_MEMORY : PGBIND_PROC_ANSWERED, .data = here.data, .len = here.len};
	}
	pgbind_ProcReader in = {r.data, r.len};
	uint8_t failed;
	int32_t cursorpos;
	const char *message;
	size_t mlen;
	if (r.outcome != PGBIND_PROC_ANSWERED || !pgbind_proc_get(&in, &failed, 1) ||
		!pgbind_proc_get(&in, &cursorpos, sizeof cursorpos) || !pgbind_proc_get_str(&in, &message, &mlen)) {
		out->died = died_of(&r);
	} else {
		out->cursorpos = cursorpos;
		out->message = failed ? strndup(message, mlen) : NULL;
		out->len = in.left;
		out->data = malloc(in.left ? in.left : 1);
		if (out->data)
			memcpy(out->data, in.p, in.left);
	}
	free(r.data);
}

typedef struct {
	const pgbind_ParseResult *tree;
	const uint8_t *want;
	size_t want_len;
} ToNodes;

static void to_nodes_in_child(void *ctx, pgbind_ProcBuf *answer)
{
	ToNodes *t = ctx;
	char why[768] = "";
	uint8_t ok = verify_to_nodes(t->tree, t->want, t->want_len, why, sizeof why);
	pgbind_proc_put(answer, &ok, 1);
	pgbind_proc_put_str(answer, why);
}

bool oracle_to_nodes_in_child(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why,
							  size_t size, int *died)
{
	*died = 0;
	ToNodes t = {tree, want, want_len};
	pgbind_ProcResult r;
	fflush(stdout);
	pgbind_proc_once(to_nodes_in_child, &t, PGBIND_PROC_QUIET, -1, &r);
	pgbind_ProcReader in = {r.data, r.len};
	uint8_t ok = 0;
	const char *said;
	size_t n;
	if (r.outcome != PGBIND_PROC_ANSWERED || !pgbind_proc_get(&in, &ok, 1) || !pgbind_proc_get_str(&in, &said, &n))
		*died = died_of(&r);
	else
		snprintf(why, size, "%.*s", (int)n, said);
	free(r.data);
	return !*died && ok;
}
