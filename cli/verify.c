/*
 * verify.c -- `pgbind verify`: every pgbind path against libpg_query's own, statement by statement.
 *
 * Each file is split with libpg_query's splitter; psql meta-command lines (`\...`) are blanked
 * and extension-script placeholders (@extschema@, @extowner@) replaced by identifiers of the same
 * length first, so every offset still points into the file as written. For each statement:
 *
 *   protobuf  encode(convert(raw parse)) is byte-identical to pg_query_parse_protobuf; where
 *             libpg_query reports a syntax error, pgbind must report the same message and cursor.
 *
 * Each mismatch prints the file, line, statement offset, the first differing byte offset and the
 * field path there. --coverage=FILE writes which node kinds and fields the statements exercised.
 * The run ends with "N passed, M failed" and exits 1 on any mismatch.
 */
#include "cli.h"
#include "pg_query.h"
#ifdef PGBIND_HAVE_PROTOBUF_C
#include "pg_query.pb-c.h"
#endif
#include "internal.h"
#include "pgbind.h"
#include "pgbind_reflect.h"
#include "pgbind_walk.h"

#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
	const char *name;
	long passed, failed;
} Check;

enum {
	CHECK_PROTOBUF,
	CHECK_DECODE,
	CHECK_REENCODE,
	CHECK_TO_NODES,
	CHECK_DEPARSE,
	CHECK_DEPARSE_REFUSED,
	CHECK_DEPARSE_KEEPS,
	CHECK_DEPARSE_THEIRS_WRONG,
	CHECK_DEPARSE_DEPTH,
	CHECK_DEPARSE_ISOLATED,
	CHECK_ROUND_TRIP,
	CHECK_ROUND_TRIP_BUGS,
	CHECK_DEPARSER_FAILS,
	CHECK_FINGERPRINT,
	CHECK_NORMALIZE,
	CHECK_FILE_FINGERPRINT,
	CHECK_FILE_NORMALIZE,
	CHECK_LIBRARY_CRASHED,
	CHECK_SCAN,
	CHECK_JSON,
	CHECK_JSON_READ,
	CHECK_SYNTAX_ERRORS,
	CHECK_SUMMARY,
	N_CHECKS
};

typedef struct {
	Check checks[N_CHECKS];
	long statements;
	long json_lost, json_lost_statements; /* values libpg_query's JSON loses (its negative-integer bug) */
	/* coverage: per message, seen; per message field, seen set */
	bool msg_seen[PGBIND_MESSAGE_COUNT];
	bool *field_seen[PGBIND_MESSAGE_COUNT];
	bool coverage;
	bool verbose; /* list the statements libpg_query's deparser gets wrong */
	long unsound; /* parsed trees that break a rule of the deparse contract, deparsed right in a child */
} Verify;

/* ---- coverage -------------------------------------------------------------------------------- */

static void cover_message(Verify *v, int mi, const void *msg, int depth);

static void cover_node(Verify *v, const pgbind_Node *n, int depth)
{
	if (!n)
		return;
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	if (d)
		cover_message(v, (int)(d - pgbind_message_descs), n, depth + 1);
}

static void cover_message(Verify *v, int mi, const void *msg, int depth)
{
	if (depth > 100000)
		return;
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	const char *base = msg;
	v->msg_seen[mi] = true;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		bool set = false;
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_ENUM:
			set = *(const int32_t *)p != 0;
			break;
		case PGBIND_WIRE_UINT32:
			set = *(const uint32_t *)p != 0;
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
			set = *(const uint64_t *)p != 0;
			break;
		case PGBIND_WIRE_BOOL:
			set = *(const bool *)p;
			break;
		case PGBIND_WIRE_DOUBLE:
			set = *(const double *)p != 0;
			break;
		case PGBIND_WIRE_STRING:
			set = *(const char *const *)p && (*(const char *const *)p)[0] != '\0';
			break;
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			set = *(const pgbind_Node *const *)p != NULL;
			cover_node(v, *(const pgbind_Node *const *)p, depth);
			break;
		case PGBIND_WIRE_MESSAGE:
			set = *(const void *const *)p != NULL;
			if (set)
				cover_message(v, f->type_index, *(const void *const *)p, depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			set = n > 0;
			for (size_t k = 0; k < n; k++)
				cover_node(v, (*(pgbind_Node *const *const *)p)[k], depth);
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			set = n > 0;
			for (size_t k = 0; k < n; k++)
				if ((*(const void *const *const *)p)[k])
					cover_message(v, f->type_index, (*(const void *const *const *)p)[k], depth + 1);
			break;
		case PGBIND_WIRE_PACKED_UINT64:
			set = n > 0;
			break;
		}
		if (set)
			v->field_seen[mi][i] = true;
	}
}

static bool write_coverage(Verify *v, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return false;
	}
	int kinds = 0, kinds_seen = 0, fields = 0, fields_seen = 0;
	fprintf(f, "# pgbind verify coverage: node kinds and fields the statements set\n");
	fprintf(f, "# kind <name> exercised|not-exercised\n# field <message>.<field> exercised|not-exercised\n");
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (d->tag == 0)
			continue;
		kinds++;
		kinds_seen += v->msg_seen[m];
		fprintf(f, "kind %s %s\n", d->name, v->msg_seen[m] ? "exercised" : "not-exercised");
	}
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (d->tag == 0 || !v->msg_seen[m])
			continue;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			fields++;
			fields_seen += v->field_seen[m][i];
			fprintf(f, "field %s.%s %s\n", d->name, d->fields[i].name,
					v->field_seen[m][i] ? "exercised" : "not-exercised");
		}
	}
	fprintf(f, "# %d of %d node kinds exercised; %d of %d fields of exercised kinds set\n", kinds_seen, kinds,
			fields_seen, fields);
	fclose(f);
	printf("coverage: %d of %d node kinds, %d of %d fields of those kinds -> %s\n", kinds_seen, kinds, fields_seen,
		   fields, path);
	return true;
}

/* pgbind_Status.message holds the first sizeof - 1 bytes of a longer message (a syntax error
 * quotes the offending token, which can be long). */
static bool same_message(const char *ours, const char *theirs)
{
	size_t cap = sizeof(((pgbind_Status *)0)->message) - 1;
	return strlen(theirs) > cap ? strlen(ours) == cap && strncmp(ours, theirs, cap) == 0 : strcmp(ours, theirs) == 0;
}

/* ---- one statement --------------------------------------------------------------------------- */

static void report(Verify *v, int check, bool ok)
{
	if (ok)
		v->checks[check].passed++;
	else
		v->checks[check].failed++;
}

static void mismatch(const char *file, int line, size_t stmt_at, const char *stmt, const char *what)
{
	printf("MISMATCH %s:%d (statement at offset %zu): %s\n", file, line, stmt_at, what);
	printf("    %.200s%s\n", stmt, strlen(stmt) > 200 ? "..." : "");
}

/* libpg_query, the oracle, crashed (in a child) or wrote what cannot be right where pgbind
 * answered: its bug, counted on its own row and named; pgbind's answer is not compared. */
static void library_crashed(Verify *v, const char *file, int line, const char *what, const char *how)
{
	report(v, CHECK_LIBRARY_CRASHED, true);
	if (line)
		printf("LIBPG_QUERY BUG %s:%d: %s %s (pgbind's answer not compared)\n", file, line, what, how);
	else
		printf("LIBPG_QUERY BUG %s: %s %s (pgbind's answer not compared)\n", file, what, how);
}

/* decode(libpg_query's bytes) deep-equals the tree converted directly, and encodes back to them */
static void verify_decode(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
						  const pgbind_ParseResult *direct, pgbind_Arena *arena, const uint8_t *want, size_t want_len)
{
	char what[1024];
	pgbind_Status status = {0};
	pgbind_ParseResult *decoded = pgbind_decode(want, want_len, NULL, arena, &status);
	bool same = decoded && pgbind_ParseResult_equal(decoded, direct);
	report(v, CHECK_DECODE, same);
	if (!same) {
		snprintf(what, sizeof what, "decode(libpg_query's bytes) %s",
				 decoded ? "differs from the converted tree" : status.message);
		mismatch(file, line, stmt_at, stmt, what);
		return;
	}
	const uint8_t *data;
	size_t len;
	same = pgbind_encode(decoded, NULL, arena, &data, &len, &status) && len == want_len && memcmp(data, want, len) == 0;
	report(v, CHECK_REENCODE, same);
	if (!same) {
		size_t at = 0;
		while (at < len && at < want_len && data[at] == want[at])
			at++;
		char path[512];
		pgbind_wire_path(want, want_len, at, path, sizeof path);
		snprintf(what, sizeof what, "encode(decode(bytes)) differs at byte %zu: %s", at, path);
		mismatch(file, line, stmt_at, stmt, what);
	}
}

/*
 * The scan check: pgbind_scan's tokens against an independent reading of the same scan. With
 * protobuf-c (libpg_query up to 17): its decoding of pg_query_scan's bytes. With upb (18), whose
 * C types libpg_query does not install, pgbind_scan goes through pg_query_scan_tokens, and the
 * other route, pg_query_scan's bytes, read by pgbind_decode_scan, is the comparison. A library
 * with neither leaves the check out (verify says so).
 */
#if defined(PGBIND_HAVE_PROTOBUF_C) || defined(PGBIND_HAVE_SCAN_TOKENS)
#define SCAN_CHECKED 1
#ifdef PGBIND_HAVE_PROTOBUF_C
#define SCAN_CHECK_NAME "scan equals protobuf-c's unpack of pg_query_scan"
typedef PgQuery__ScanResult TheirScan;
typedef PgQuery__ScanToken TheirToken;
static TheirScan *their_scan(const PgQueryScanResult *raw, pgbind_Arena *arena)
{
	(void)arena;
	return pg_query__scan_result__unpack(NULL, raw->pbuf.len, (const uint8_t *)raw->pbuf.data);
}
static void their_scan_free(TheirScan *t)
{
	pg_query__scan_result__free_unpacked(t, NULL);
}
#else
#define SCAN_CHECK_NAME "scan (scan_tokens) equals pg_query_scan's bytes"
typedef pgbind_ScanResult TheirScan;
typedef pgbind_ScanToken TheirToken;
static TheirScan *their_scan(const PgQueryScanResult *raw, pgbind_Arena *arena)
{
	return pgbind_decode_scan((const uint8_t *)raw->pbuf.data, raw->pbuf.len, NULL, arena, NULL);
}
static void their_scan_free(TheirScan *t)
{
	(void)t; /* in the arena */
}
#endif

static bool same_scan(const char *stmt, pgbind_Arena *arena, char *why, size_t size)
{
	pgbind_Status status = {0};
	pgbind_ScanResult *ours = pgbind_scan(stmt, NULL, arena, &status);
	PgQueryScanResult raw = pg_query_scan(stmt);
	bool ok = false;
	if (raw.error) {
		ok = !ours && same_message(status.message, raw.error->message);
		if (!ok)
			snprintf(why, size, "scan error differs: libpg_query \"%s\", pgbind \"%s\"", raw.error->message,
					 ours ? "(scanned)" : status.message);
	} else if (!ours) {
		snprintf(why, size, "pgbind_scan failed: %s", status.message);
	} else {
		TheirScan *theirs = their_scan(&raw, arena);
		ok = theirs && theirs->version == ours->version && theirs->n_tokens == ours->n_tokens;
		for (size_t i = 0; ok && i < ours->n_tokens; i++) {
			const TheirToken *t = theirs->tokens[i];
			const pgbind_ScanToken *o = ours->tokens[i];
			ok = t->start == o->start && t->end == o->end && (int)t->token == (int)o->token &&
				 (int)t->keyword_kind == (int)o->keyword_kind;
			if (!ok)
				snprintf(why, size, "scan token %zu differs", i);
		}
		if (!ok && theirs && theirs->n_tokens != ours->n_tokens)
			snprintf(why, size, "scan: %zu tokens, the other reading has %zu", ours->n_tokens,
					 (size_t)theirs->n_tokens);
		if (theirs)
			their_scan_free(theirs);
	}
	pg_query_free_scan_result(raw);
	return ok;
}
#else
#define SCAN_CHECKED    0
#define SCAN_CHECK_NAME "scan: not checked (no second reading here)"
#endif

/* the sanitizers' (weak: absent from a plain build) */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* In a child that runs libpg_query where it may crash: die by the signal itself, not through a
 * fuzzer's or sanitizer's handler (which would take the child for the process under test) nor its
 * death callback (which would save the input as a crash); quiet: libpg_query's stderr to /dev/null. */
static void mortal_child(bool quiet)
{
	static const int deadly[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE};
	for (size_t i = 0; i < sizeof deadly / sizeof *deadly; i++)
		signal(deadly[i], SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	int null_fd = quiet ? open("/dev/null", O_WRONLY) : -1;
	if (null_fd >= 0)
		dup2(null_fd, STDERR_FILENO);
}

/* ---- libpg_query's fingerprint and normalize, in a child ------------------------------------- */

/* libpg_query is the oracle, and where it crashes (15-4.0.0's pg_query_normalize segfaults on some
 * scripts whole: its conninfo search finds another statement's string) verify must survive and
 * call the crash libpg_query's, not pgbind's. The calls run in a worker process, forked on first
 * use and again after it died (a fork per call made verify 22 times slower): a request and its
 * answer go through two pipes; the worker's standard error goes nowhere (a sanitizer's report of
 * the library's crash is not the run's). */
typedef enum { ORACLE_OK, ORACLE_ERROR, ORACLE_DIED } OracleFate;

typedef struct {
	OracleFate fate;
	uint64_t fingerprint; /* ORACLE_OK of a fingerprint */
	char *text;           /* malloc'd: the normalized text (ORACLE_OK) or the error message; else NULL */
	char why[96];         /* ORACLE_DIED: how */
} Oracle;

static struct {
	pid_t pid; /* 0: none running */
	int to, from;
} worker;

static bool write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool read_all(int fd, void *data, size_t len)
{
	char *p = data;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The worker: a request is one byte (1 normalize, 0 fingerprint), a length and the text; the
 * answer one byte (the fate), the fingerprint, a length and the text. Ends at the end of its
 * requests (verify ended or closed the pipe). */
static void worker_main(int in, int out)
{
	for (;;) {
		char normalize;
		size_t len;
		if (!read_all(in, &normalize, 1) || !read_all(in, &len, sizeof len))
			_exit(0);
		char *sql = malloc(len + 1);
		if (!sql || !read_all(in, sql, len))
			_exit(3);
		sql[len] = '\0';
		char fate;
		uint64_t fingerprint = 0;
		const char *text;
		if (normalize) {
			PgQueryNormalizeResult r = pg_query_normalize(sql);
			fate = r.error ? ORACLE_ERROR : ORACLE_OK;
			text = r.error ? r.error->message : r.normalized_query;
		} else {
			PgQueryFingerprintResult r = pg_query_fingerprint(sql);
			fate = r.error ? ORACLE_ERROR : ORACLE_OK;
			text = r.error ? r.error->message : "";
			fingerprint = r.fingerprint;
		}
		size_t n = strlen(text);
		if (!write_all(out, &fate, 1) || !write_all(out, &fingerprint, sizeof fingerprint) ||
			!write_all(out, &n, sizeof n) || !write_all(out, text, n))
			_exit(3);
		free(sql); /* the results are left to libpg_query's memory of this process: it ends */
	}
}

static bool worker_start(void)
{
	int req[2], ans[2];
	if (pipe(req) != 0)
		return false;
	if (pipe(ans) != 0) {
		close(req[0]);
		close(req[1]);
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(req[0]), close(req[1]), close(ans[0]), close(ans[1]);
		return false;
	}
	if (pid == 0) {
		close(req[1]);
		close(ans[0]);
		mortal_child(true);
		worker_main(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	signal(SIGPIPE, SIG_IGN); /* a write to a worker that died fails instead */
	worker.pid = pid;
	worker.to = req[1];
	worker.from = ans[0];
	return true;
}

/* Ends the worker (after its death: collects how it died, in why). */
static void worker_stop(char *why, size_t size)
{
	if (!worker.pid)
		return;
	close(worker.to);
	close(worker.from);
	int ws = 0;
	waitpid(worker.pid, &ws, 0);
	worker.pid = 0;
	if (!why)
		return;
	if (WIFSIGNALED(ws))
		snprintf(why, size, "died of signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else
		snprintf(why, size, "ended with exit %d (a sanitizer's report, or out of memory)",
				 WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
}

/* libpg_query's normalize (or fingerprint) of sql, in the worker. */
static void oracle_in_child(const char *sql, bool normalize, Oracle *out)
{
	*out = (Oracle){.fate = ORACLE_DIED};
	if (!worker.pid && !worker_start()) {
		snprintf(out->why, sizeof out->why, "no worker process could be started");
		return;
	}
	char request = normalize;
	size_t len = strlen(sql), n = 0;
	char fate;
	bool ok = write_all(worker.to, &request, 1) && write_all(worker.to, &len, sizeof len) &&
			  write_all(worker.to, sql, len) && read_all(worker.from, &fate, 1) &&
			  read_all(worker.from, &out->fingerprint, sizeof out->fingerprint) &&
			  read_all(worker.from, &n, sizeof n) && (out->text = malloc(n + 1)) != NULL &&
			  read_all(worker.from, out->text, n);
	if (!ok) {
		free(out->text);
		out->text = NULL;
		worker_stop(out->why, sizeof out->why);
		return;
	}
	out->text[n] = '\0';
	out->fate = (OracleFate)fate;
}

/* Whether libpg_query's deparser may be handed these protobuf bytes: their tree meets the deparse
 * contract (schema/pgNN/deparse.txt). The verifier never hands it a tree known to crash it, not
 * even in a child (under a sanitizer the child's report is the run's). */
static bool bytes_meet_contract(const uint8_t *bytes, size_t len, pgbind_Arena *arena)
{
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_decode(bytes, len, NULL, arena, &status);
	return tree && pgbind_check_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &status);
}

/* Whether sql parses back to nodes PostgreSQL's equal() finds equal to tree's (locations aside). */
static bool parses_back_equal(const char *sql, const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	pgbind_ParseResult *back = pgbind_parse(sql, NULL, arena, NULL);
	return back && verify_same_nodes(tree, back);
}

/* What pg_query_deparse_protobuf does with these bytes, run in a child so that verify survives it:
 * SQL that parses back equal() to tree, its error, SQL of another tree (what it reads past a node
 * decides which), or death (a signal, or a sanitizer's report and a non-zero exit). quiet: the
 * child's standard error goes nowhere (a tree the contract says crashes the deparser: a
 * sanitizer's report of it there is expected, not the run's). */
enum { THEIRS_RIGHT = 0, THEIRS_ERROR = 4, THEIRS_WRONG = 3, THEIRS_DIED = -1 };
static int deparse_in_child(const uint8_t *bytes, size_t len, const pgbind_ParseResult *tree, bool quiet)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return THEIRS_DIED;
	if (pid == 0) {
		mortal_child(quiet);
		PgQueryProtobuf pb = {len, (char *)bytes};
		PgQueryDeparseResult r = pg_query_deparse_protobuf(pb);
		pgbind_Arena *arena = pgbind_Arena_New();
		_exit(r.error ? THEIRS_ERROR : arena && parses_back_equal(r.query, tree, arena) ? THEIRS_RIGHT : THEIRS_WRONG);
	}
	int ws = 0;
	if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws))
		return THEIRS_DIED;
	int code = WEXITSTATUS(ws);
	return code == THEIRS_RIGHT || code == THEIRS_ERROR || code == THEIRS_WRONG ? code : THEIRS_DIED;
}

/* Whether pg_query_deparse_protobuf dies on these bytes, or writes SQL that does not parse back
 * equal() to tree (its error counts as no crash). */
static bool deparse_crashes(const uint8_t *bytes, size_t len, const pgbind_ParseResult *tree)
{
	int theirs = deparse_in_child(bytes, len, tree, false);
	return theirs == THEIRS_WRONG || theirs == THEIRS_DIED;
}

/*
 * A tree a parse made that breaks a rule of the deparse contract (learnt from a corpus that lacked
 * this parse, or libpg_query's deparser crashes on it): pgbind_deparse runs the deparser in a child
 * process and its SQL checked by a round trip. Its answer must be libpg_query's for the same bytes,
 * tried in a child first: the same SQL (then asked here, where the child showed it safe), the same
 * error; where libpg_query crashes or writes SQL of another tree, an error (crashed, or the round
 * trip failed: what the deparser reads past a node decides which).
 * A tree the deparser handles right is counted (verify prints how many: a rule unsound there, which
 * costs a fork) and listed with -v.
 */
static void verify_isolated(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							const pgbind_ParseResult *tree, pgbind_Arena *arena, const char *ours,
							const pgbind_Status *status, const pgbind_Status *contract, const uint8_t *want,
							size_t want_len)
{
	int theirs = deparse_in_child(want, want_len, tree, true);
	bool ok;
	const char *what = theirs == THEIRS_DIED ? "crashes" : theirs == THEIRS_WRONG ? "writes SQL of another tree" : "";
	char why[768];
	if (theirs == THEIRS_RIGHT || theirs == THEIRS_ERROR) {
		PgQueryProtobuf pb = {want_len, (char *)want};
		PgQueryDeparseResult r = pg_query_deparse_protobuf(pb);
		ok = r.error ? !ours && status->code == PGBIND_ERROR_INVALID && same_message(status->message, r.error->message)
					 : ours && strcmp(ours, r.query) == 0;
		snprintf(why, sizeof why, "libpg_query \"%.300s\"", r.error ? r.error->message : r.query);
		pg_query_free_deparse_result(r);
	} else {
		/* the deparser read past a node: a crash or wrong SQL as memory decides, which the
		 * round trip pgbind_deparse runs on such a tree turns into an error; or, where pgbind's
		 * route (the nodes, on 17 and 18) lays memory out otherwise, SQL that parses back right */
		ok = ours ? parses_back_equal(ours, tree, arena)
				  : status->code == PGBIND_ERROR_DEPARSER_CRASHED || status->code == PGBIND_ERROR_ROUND_TRIP;
		snprintf(why, sizeof why, "libpg_query's deparser %s (in a child)", what);
	}
	report(v, CHECK_DEPARSE_ISOLATED, ok);
	if (!ok) {
		char line_why[1400];
		snprintf(line_why, sizeof line_why,
				 "the tree breaks the deparse contract (%s); deparsed in a child: pgbind %.300s, %s", contract->message,
				 ours ? ours : status->message, why);
		mismatch(file, line, stmt_at, stmt, line_why);
		return;
	}
	if (theirs == THEIRS_RIGHT) {
		v->unsound++;
		if (v->verbose)
			printf("CONTRACT RULE UNSOUND %s:%d (deparsed right in a child): %s\n", file, line, contract->message);
	}
}

/* deparse against libpg_query's deparse of the same bytes, or a refusal the protocol justifies */
static void verify_deparse(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
						   const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want, size_t want_len)
{
	char why[768];
	bool ok;
	pgbind_Status status = {0};
	pgbind_Status contract = {0};
	pgbind_ContractVerdict verdict = pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &contract);
	const char *ours = pgbind_deparse(tree, NULL, arena, &status);
	if (verdict == PGBIND_CONTRACT_REFUSED) {
		/* deeper than the thread's stack holds for the deparser (a parse makes no undeclared enum) */
		ok = !ours && status.code == contract.code;
		report(v, CHECK_DEPARSE_DEPTH, ok);
		if (!ok)
			mismatch(file, line, stmt_at, stmt, "the contract's walk refuses the tree, but deparse did not so");
		return;
	}
	if (verdict == PGBIND_CONTRACT_BROKEN) {
		verify_isolated(v, file, line, stmt_at, stmt, tree, arena, ours, &status, &contract, want, want_len);
		return;
	}
	if (!ours && status.code == PGBIND_ERROR_UNREPRESENTABLE) {
		/* refused: it holds if the tree nests deeper than the documented limit of the protobuf
		 * route, or if libpg_query's own deparse of these bytes crashes or writes SQL that does not
		 * parse back equal() (tried in a child process); not merely because the protocol loses an
		 * empty string of the tree: where libpg_query's SQL is right, so must pgbind's be */
		ok = !bytes_meet_contract(want, want_len, arena) || deparse_crashes(want, want_len, tree);
		report(v, CHECK_DEPARSE_REFUSED, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse refused (%s), but libpg_query deparses these bytes", status.message);
			mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	if (ours && verify_protocol_loses(tree, want, want_len)) {
		/* pgbind deparsed from the nodes what the protocol loses (COMMENT ... IS ''): libpg_query's
		 * protobuf route sees NULL there (and may crash on it), so it is no oracle; instead the SQL
		 * must parse back to nodes PostgreSQL's equal() finds equal to the tree's (locations aside) */
		ok = parses_back_equal(ours, tree, arena);
		report(v, CHECK_DEPARSE_KEEPS, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse \"%.300s\" does not parse back to the same nodes", ours);
			mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	if (!bytes_meet_contract(want, want_len, arena)) {
		/* libpg_query's reading of the bytes breaks its deparser's contract: no oracle */
		ok = ours && parses_back_equal(ours, tree, arena);
		report(v, CHECK_DEPARSE_KEEPS, ok);
		if (!ok)
			mismatch(file, line, stmt_at, stmt, "deparse does not parse back to the same nodes");
		return;
	}
	PgQueryProtobuf pb = {want_len, (char *)want};
	PgQueryDeparseResult theirs = pg_query_deparse_protobuf(pb);
	ok = theirs.error ? !ours && same_message(status.message, theirs.error->message)
					  : ours && strcmp(ours, theirs.query) == 0;
	if (!ok && ours && !theirs.error && parses_back_equal(ours, tree, arena) &&
		!parses_back_equal(theirs.query, tree, arena)) {
		/* libpg_query's protobuf route wrote SQL of another tree (its deparser reads a node as
		 * another kind in XMLROOT(x, VERSION expr)), pgbind's (from the nodes) parses back equal() */
		report(v, CHECK_DEPARSE_THEIRS_WRONG, true);
		pg_query_free_deparse_result(theirs);
		return;
	}
	report(v, CHECK_DEPARSE, ok);
	if (!ok) {
		snprintf(why, sizeof why, "deparse differs: pgbind \"%.300s\", libpg_query \"%.300s\"",
				 ours ? ours : status.message, theirs.error ? theirs.error->message : theirs.query);
		mismatch(file, line, stmt_at, stmt, why);
	}
	pg_query_free_deparse_result(theirs);
}

/* One line per statement libpg_query's deparser gets wrong (verify -v): where the statement's
 * text begins (comments before it skipped), the text on one line, then what happened. */
static void list_bug(const char *file, int line, const char *stmt, const char *kind, const char *what)
{
	size_t skip = 0;
	for (;;) {
		while (stmt[skip] == ' ' || stmt[skip] == '\t' || stmt[skip] == '\n' || stmt[skip] == '\r')
			skip++;
		if (strncmp(stmt + skip, "--", 2) != 0)
			break;
		while (stmt[skip] && stmt[skip] != '\n')
			skip++;
	}
	for (size_t i = 0; i < skip; i++) /* line is the statement's first: count the comment lines skipped */
		line += stmt[i] == '\n';
	printf("DEPARSER BUG (%s) %s:%d: ", kind, file, line);
	bool space = false;
	int n = 0;
	for (const char *p = stmt + skip; *p && n < 160; p++) {
		bool ws = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
		if (ws && !space)
			putchar(' '), n++;
		else if (!ws)
			putchar(*p), n++;
		space = ws;
	}
	printf("%s\n    %.400s\n", n >= 160 ? "..." : "", what);
}

/*
 * The round-trip check (pgbind_Options.check_deparse), against an independent reading: where
 * pgbind's unchecked SQL parses back equal() to the tree (by verify's own comparison), the checked
 * deparse must return that same SQL; where it does not, the checked deparse must refuse with
 * PGBIND_ERROR_ROUND_TRIP, and the statement is one libpg_query's deparser gets wrong (its own row,
 * listed with -v). Trees the unchecked deparse refuses are counted on the refusal rows above.
 */
static void verify_round_trip(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							  const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	char why[768];
	pgbind_Status status = {0};
	const char *plain = pgbind_deparse(tree, NULL, arena, &status);
	pgbind_Options check = {.check_deparse = true};
	if (!plain) {
		/* the deparser fails (its error), or pgbind refused what it crashes on or misreads (the
		 * refusal rows above judge those): no SQL to send, checked or not */
		pgbind_StatusCode code = status.code;
		char message[sizeof status.message];
		memcpy(message, status.message, sizeof message);
		bool ok = !pgbind_deparse(tree, &check, arena, &status) && status.code == code &&
				  strcmp(status.message, message) == 0;
		report(v, CHECK_DEPARSER_FAILS, ok);
		if (!ok)
			mismatch(file, line, stmt_at, stmt, "the checked deparse does not fail as the unchecked one does");
		else if (v->verbose)
			list_bug(file, line, stmt, "fails", message);
		return;
	}
	const char *checked = pgbind_deparse(tree, &check, arena, &status);
	bool holds = parses_back_equal(plain, tree, arena);
	if (holds) {
		bool ok = checked && strcmp(checked, plain) == 0;
		report(v, CHECK_ROUND_TRIP, ok);
		if (!ok) {
			snprintf(why, sizeof why, "deparse round trip holds, but the checked deparse %s", status.message);
			mismatch(file, line, stmt_at, stmt, why);
		}
		return;
	}
	bool ok = !checked && status.code == PGBIND_ERROR_ROUND_TRIP;
	report(v, CHECK_ROUND_TRIP_BUGS, ok);
	if (!ok) {
		snprintf(why, sizeof why, "\"%.300s\" does not parse back equal(), but the checked deparse returned it", plain);
		mismatch(file, line, stmt_at, stmt, why);
	} else if (v->verbose) {
		snprintf(why, sizeof why, "\"%.300s\": %s", plain, status.message);
		list_bug(file, line, stmt, "wrong SQL", why);
	}
}

/* The depth up to which verify calls libpg_query's recursive readers in its own process: deeper,
 * they may overflow the stack (protobuf-c's unpack from about 4,000 levels; SELECT ARRAY[[[...]]]
 * 8,192 deep did, in pg_query_protobuf_to_nodes), so they run in a child. */
#define LIBPG_QUERY_IN_PROCESS_DEPTH 1000

/* Whether the tree nests deeper than LIBPG_QUERY_IN_PROCESS_DEPTH. */
static bool nests_deep(const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	pgbind_Options limit = {.max_depth = LIBPG_QUERY_IN_PROCESS_DEPTH};
	const uint8_t *unused;
	size_t unused_len;
	pgbind_Status status = {0};
	return !pgbind_encode(tree, &limit, arena, &unused, &unused_len, &status) && status.code == PGBIND_ERROR_DEPTH;
}

/* verify_to_nodes in a child, for a deep tree: libpg_query's reader may crash on it. *died: the
 * signal that ended the child (0: it answered). */
static bool to_nodes_in_child(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why,
							  size_t size, int *died)
{
	*died = 0;
	int fds[2];
	if (pipe(fds) != 0)
		return verify_to_nodes(tree, want, want_len, why, size);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		mortal_child(true);
		char answer = verify_to_nodes(tree, want, want_len, why, size);
		bool written = write_all(fds[1], &answer, 1) && write_all(fds[1], why, size);
		_exit(written ? 0 : 3);
	}
	close(fds[1]);
	char answer = 0;
	bool read = pid > 0 && read_all(fds[0], &answer, 1) && read_all(fds[0], why, size);
	close(fds[0]);
	int ws = 0;
	if (pid > 0)
		waitpid(pid, &ws, 0);
	if (!read) {
		*died = pid > 0 && WIFSIGNALED(ws) ? WTERMSIG(ws) : SIGKILL;
		return false;
	}
	why[size - 1] = '\0';
	return answer;
}

/* back to PostgreSQL: nodes, deparse, fingerprint; and the scanner */
static void verify_return_trip(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							   const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want,
							   size_t want_len)
{
	char why[768];
	int died = 0;
	bool ok = nests_deep(tree, arena) ? to_nodes_in_child(tree, want, want_len, why, sizeof why, &died)
									  : verify_to_nodes(tree, want, want_len, why, sizeof why);
	if (died) {
		snprintf(why, sizeof why, "died of signal %d (%s)", died, strsignal(died));
		library_crashed(v, file, line, "pg_query_protobuf_to_nodes (its protobuf reader)", why);
	} else {
		report(v, CHECK_TO_NODES, ok);
		if (!ok)
			mismatch(file, line, stmt_at, stmt, why);
	}

	verify_deparse(v, file, line, stmt_at, stmt, tree, arena, want, want_len);
	verify_round_trip(v, file, line, stmt_at, stmt, tree, arena);

	pgbind_Status status = {0};
	uint64_t fp = 0;
	Oracle f;
	oracle_in_child(stmt, false, &f);
	bool ours = pgbind_fingerprint(tree, NULL, &fp, &status);
	if (f.fate == ORACLE_DIED) {
		library_crashed(v, file, line, "pg_query_fingerprint", f.why);
	} else {
		ok = f.fate == ORACLE_OK && ours && fp == f.fingerprint;
		report(v, CHECK_FINGERPRINT, ok);
		if (!ok) {
			snprintf(why, sizeof why, "fingerprint %016llx, pg_query_fingerprint %016llx", (unsigned long long)fp,
					 (unsigned long long)f.fingerprint);
			mismatch(file, line, stmt_at, stmt, why);
		}
	}
	free(f.text);

	Oracle n;
	oracle_in_child(stmt, true, &n);
	memset(&status, 0, sizeof status);
	const char *normalized = pgbind_normalize(tree, stmt, NULL, arena, &status);
	if (n.fate == ORACLE_DIED) {
		library_crashed(v, file, line, "pg_query_normalize", n.why);
	} else {
		ok = n.fate == ORACLE_OK && normalized && strcmp(normalized, n.text) == 0;
		report(v, CHECK_NORMALIZE, ok);
		if (!ok) {
			snprintf(why, sizeof why, "normalize \"%.300s\", pg_query_normalize \"%.300s\"",
					 normalized ? normalized : status.message, n.text);
			mismatch(file, line, stmt_at, stmt, why);
		}
	}
	free(n.text);

#if SCAN_CHECKED
	ok = same_scan(stmt, arena, why, sizeof why);
	report(v, CHECK_SCAN, ok);
	if (!ok)
		mismatch(file, line, stmt_at, stmt, why);
#endif
}

/* libpg_query's pg_query_parse_protobuf of a statement, as verify compares it: its error (message
 * and cursor) or its bytes, malloc'd; died: the signal that ended the child it ran in. */
typedef struct {
	int died;
	char *message; /* the error's; NULL when it parsed */
	int cursorpos;
	uint8_t *data;
	size_t len;
} TheirParse;

static void their_parse(const char *stmt, bool in_child, TheirParse *out)
{
	*out = (TheirParse){0};
	int fds[2] = {-1, -1};
	pid_t pid = in_child && pipe(fds) == 0 ? (fflush(stdout), fflush(stderr), fork()) : -1;
	if (pid < 0 && fds[0] >= 0)
		close(fds[0]), close(fds[1]);
	if (pid == 0)
		mortal_child(true);
	if (pid <= 0) { /* in this process, or the child */
		PgQueryProtobufParseResult r = pg_query_parse_protobuf(stmt);
		char failed = r.error != NULL;
		int cursorpos = r.error ? r.error->cursorpos : 0;
		const char *message = r.error ? r.error->message : "";
		size_t mlen = strlen(message), len = r.error ? 0 : r.parse_tree.len;
		if (pid == 0) {
			close(fds[0]);
			bool written = write_all(fds[1], &failed, 1) && write_all(fds[1], &cursorpos, sizeof cursorpos) &&
						   write_all(fds[1], &mlen, sizeof mlen) && write_all(fds[1], message, mlen) &&
						   write_all(fds[1], &len, sizeof len) && write_all(fds[1], r.parse_tree.data, len);
			_exit(written ? 0 : 3);
		}
		out->message = failed ? strdup(message) : NULL;
		out->cursorpos = cursorpos;
		out->data = malloc(len ? len : 1);
		if (out->data && len)
			memcpy(out->data, r.parse_tree.data, len);
		out->len = len;
		pg_query_free_protobuf_parse_result(r);
		return;
	}
	close(fds[1]);
	char failed;
	size_t mlen = 0;
	bool read = read_all(fds[0], &failed, 1) && read_all(fds[0], &out->cursorpos, sizeof out->cursorpos) &&
				read_all(fds[0], &mlen, sizeof mlen) && (out->message = malloc(mlen + 1)) != NULL &&
				read_all(fds[0], out->message, mlen) && read_all(fds[0], &out->len, sizeof out->len) &&
				(out->data = malloc(out->len + 1)) != NULL && read_all(fds[0], out->data, out->len);
	close(fds[0]);
	int ws = 0;
	waitpid(pid, &ws, 0);
	if (!read) {
		free(out->message);
		free(out->data);
		*out = (TheirParse){.died = WIFSIGNALED(ws) ? WTERMSIG(ws) : SIGKILL};
		return;
	}
	out->message[mlen] = '\0';
	if (!failed) {
		free(out->message);
		out->message = NULL;
	}
}

static void verify_statement(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt)
{
	char what[1024];
	v->statements++;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = arena ? pgbind_parse(stmt, NULL, arena, &status) : NULL;
	/* libpg_query's parse writes its protobuf recursively: of a deep statement, in a child */
	TheirParse oracle;
	their_parse(stmt, tree ? nests_deep(tree, arena) : status.code == PGBIND_ERROR_DEPTH, &oracle);

	if (oracle.died) {
		snprintf(what, sizeof what, "died of signal %d (%s)", oracle.died, strsignal(oracle.died));
		library_crashed(v, file, line, "pg_query_parse_protobuf", what);
	} else if (oracle.message) {
		bool same = !tree && status.code == PGBIND_ERROR_SYNTAX && same_message(status.message, oracle.message) &&
					status.cursorpos == oracle.cursorpos;
		report(v, CHECK_SYNTAX_ERRORS, same);
		if (!same) {
			snprintf(what, sizeof what, "libpg_query: syntax error \"%s\" at %d; pgbind: %s \"%s\" at %d",
					 oracle.message, oracle.cursorpos, tree ? "parsed" : pgbind_StatusCode_name(status.code),
					 tree ? "" : status.message, status.cursorpos);
			mismatch(file, line, stmt_at, stmt, what);
		}
	} else if (!tree) {
		report(v, CHECK_PROTOBUF, false);
		snprintf(what, sizeof what, "pgbind failed (%s: %s) where libpg_query parsed",
				 pgbind_StatusCode_name(status.code), status.message);
		mismatch(file, line, stmt_at, stmt, what);
	} else {
		const uint8_t *data = NULL;
		size_t len = 0;
		if (!pgbind_encode(tree, NULL, arena, &data, &len, &status)) {
			report(v, CHECK_PROTOBUF, false);
			snprintf(what, sizeof what, "pgbind_encode failed: %s", status.message);
			mismatch(file, line, stmt_at, stmt, what);
		} else {
			const uint8_t *want = oracle.data;
			size_t want_len = oracle.len;
			bool same = len == want_len && memcmp(data, want, len) == 0;
			report(v, CHECK_PROTOBUF, same);
			if (!same) {
				size_t at = 0;
				while (at < len && at < want_len && data[at] == want[at])
					at++;
				char path[512];
				pgbind_wire_path(want, want_len, at, path, sizeof path);
				snprintf(what, sizeof what, "protobuf differs at byte %zu (pgbind %zu bytes, libpg_query %zu): %s", at,
						 len, want_len, path);
				mismatch(file, line, stmt_at, stmt, what);
			}
			verify_decode(v, file, line, stmt_at, stmt, tree, arena, want, want_len);
			verify_return_trip(v, file, line, stmt_at, stmt, tree, arena, want, want_len);
			cli_JsonVerdict jv;
			verify_json(stmt, tree, want, want_len, &jv);
			report(v, CHECK_JSON, jv.text_ok);
			if (!jv.text_ok)
				mismatch(file, line, stmt_at, stmt, jv.text_why);
			report(v, CHECK_JSON_READ, jv.read_ok);
			if (!jv.read_ok)
				mismatch(file, line, stmt_at, stmt, jv.read_why);
			v->json_lost += jv.lost;
			v->json_lost_statements += jv.lost > 0;
			int summary = nests_deep(tree, arena) ? -1 : verify_summary(stmt, tree, what, sizeof what);
			if (summary >= 0)
				report(v, CHECK_SUMMARY, summary);
			if (summary == 0)
				mismatch(file, line, stmt_at, stmt, what);
		}
		if (v->coverage)
			cover_message(v, (int)(pgbind_message_desc_by_name("ParseResult") - pgbind_message_descs), tree, 0);
	}
	pgbind_Arena_Free(arena);
	free(oracle.message);
	free(oracle.data);
}

/* ---- one file -------------------------------------------------------------------------------- */

typedef struct {
	Verify *v;
	const char *path;
} FileCtx;

static bool verify_one_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	FileCtx *f = ctx;
	(void)text, (void)len;
	verify_statement(f->v, f->path, line, at, stmt);
	free(stmt);
	return true;
}

/* The whole (prepared) file at once, as a user's `pgbind normalize FILE` and `pgbind fingerprint
 * FILE` take it: one tree of all its statements, numbered across them. Where libpg_query cannot
 * parse the text whole (a statement with a syntax error), pgbind must refuse it too. */
static void verify_whole_file(Verify *v, const char *path, const char *text)
{
	char why[768];
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = arena ? pgbind_parse(text, NULL, arena, &status) : NULL;
	Oracle f;
	oracle_in_child(text, false, &f);
	uint64_t fp = 0;
	bool ours = tree && pgbind_fingerprint(tree, NULL, &fp, &status);
	if (f.fate == ORACLE_DIED) {
		library_crashed(v, path, 0, "pg_query_fingerprint of the whole file", f.why);
	} else {
		bool ok = f.fate == ORACLE_ERROR ? !tree : ours && fp == f.fingerprint;
		report(v, CHECK_FILE_FINGERPRINT, ok);
		if (!ok) {
			snprintf(why, sizeof why, "the whole file: fingerprint %016llx (%s), pg_query_fingerprint %016llx (%s)",
					 (unsigned long long)fp, tree ? "parsed" : status.message, (unsigned long long)f.fingerprint,
					 f.fate == ORACLE_ERROR ? f.text : "parsed");
			mismatch(path, 1, 0, "", why);
		}
	}
	free(f.text);
	Oracle n;
	oracle_in_child(text, true, &n);
	const char *normalized = tree ? pgbind_normalize(tree, text, NULL, arena, &status) : NULL;
	if (n.fate == ORACLE_DIED) {
		library_crashed(v, path, 0, "pg_query_normalize of the whole file", n.why);
	} else if (tree && !normalized && n.fate == ORACLE_OK && !pgbind_parse(n.text, NULL, arena, NULL)) {
		/* pgbind refused (its walk found the constants libpg_query would replace overlapping: its
		 * search for a conninfo string finds another statement's) where libpg_query, reading past
		 * them, wrote text that does not even parse: its bug, as its crash on other runs is */
		snprintf(why, sizeof why, "wrote text that does not parse (pgbind refused: %s)", status.message);
		library_crashed(v, path, 0, "pg_query_normalize of the whole file", why);
	} else {
		bool ok = n.fate == ORACLE_ERROR ? !tree : normalized && strcmp(normalized, n.text) == 0;
		report(v, CHECK_FILE_NORMALIZE, ok);
		if (!ok) {
			size_t at = 0; /* where the two texts first differ */
			const char *theirs = n.text;
			const char *mine = normalized ? normalized : status.message;
			while (mine[at] && mine[at] == theirs[at])
				at++;
			size_t from = at > 60 ? at - 60 : 0;
			snprintf(why, sizeof why,
					 "the whole file: normalize differs at byte %zu: \"...%.200s\", pg_query_normalize \"...%.200s\"",
					 at, mine + from, theirs + from);
			mismatch(path, 1, 0, "", why);
		}
	}
	free(n.text);
	pgbind_Arena_Free(arena);
}

static bool verify_file(Verify *v, const char *path)
{
	FileCtx f = {v, path};
	char *text;
	size_t len;
	if (!cli_read_input(path, &text, &len))
		return false;
	bool ok = cli_each_statement_in(text, len, "verify", verify_one_statement, &f);
	if (ok)
		verify_whole_file(v, path, text);
	free(text);
	return ok;
}

/* The fuzzer's entry: the text as the content of a file, through the same preparation, split
 * and per-statement checks as verify_file. (Verifying the text whole would differ: its last
 * statement's RawStmt.stmt_len counts up to a ';', a deparse has none, and equal() compares
 * stmt_len where it is a plain int, as in PostgreSQL 15 and 16, not a ParseLoc.) */
long verify_sql(const char *sql)
{
	Verify *v = calloc(1, sizeof *v);
	size_t len = strlen(sql);
	char *text = malloc(len + 1);
	if (!v || !text) {
		free(v);
		free(text);
		return 1;
	}
	memcpy(text, sql, len + 1);
	FileCtx f = {v, "<input>"};
	long failed = cli_each_statement_in(text, len, "verify", verify_one_statement, &f) ? 0 : 1;
	for (int c = 0; c < N_CHECKS; c++)
		failed += v->checks[c].failed;
	free(text);
	free(v);
	return failed;
}

int cli_verify(int argc, char **argv)
{
	Verify *v = calloc(1, sizeof *v);
	if (!v)
		return 2;
	v->checks[CHECK_PROTOBUF].name = "protobuf bytes equal pg_query_parse_protobuf";
	v->checks[CHECK_SYNTAX_ERRORS].name = "syntax errors equal libpg_query's";
	v->checks[CHECK_DECODE].name = "decode(bytes) equals the converted tree";
	v->checks[CHECK_REENCODE].name = "encode(decode(bytes)) equals the bytes";
	v->checks[CHECK_TO_NODES].name = "to_nodes(tree) equal() libpg_query's reader";
	v->checks[CHECK_DEPARSE].name = "deparse equals pg_query_deparse_protobuf";
	v->checks[CHECK_DEPARSE_REFUSED].name = "deparse refused: libpg_query's crashes or is wrong";
	v->checks[CHECK_DEPARSE_KEEPS].name = "deparse of what protobuf loses parses back equal";
	v->checks[CHECK_DEPARSE_THEIRS_WRONG].name = "deparse right where libpg_query's is not";
	v->checks[CHECK_DEPARSE_DEPTH].name = "deparse refused: deeper than the stack holds";
	v->checks[CHECK_DEPARSE_ISOLATED].name = "contract broken: in a child, libpg_query's";
	v->checks[CHECK_ROUND_TRIP].name = "deparse round trip holds (parses back equal)";
	v->checks[CHECK_ROUND_TRIP_BUGS].name = "libpg_query deparser bugs: wrong SQL (--check)";
	v->checks[CHECK_DEPARSER_FAILS].name = "libpg_query deparser bugs: error or crash";
	v->checks[CHECK_FINGERPRINT].name = "fingerprint equals pg_query_fingerprint";
	v->checks[CHECK_NORMALIZE].name = "normalize (from the tree) equals pg_query_normalize";
	v->checks[CHECK_FILE_FINGERPRINT].name = "whole file: fingerprint equals libpg_query's";
	v->checks[CHECK_FILE_NORMALIZE].name = "whole file: normalize equals libpg_query's";
	v->checks[CHECK_LIBRARY_CRASHED].name = "libpg_query crashed or wrote garbage (child)";
	v->checks[CHECK_SCAN].name = SCAN_CHECK_NAME;
	v->checks[CHECK_JSON].name = library_loses_negative_integers() ? "JSON equals pg_query_parse's (its bug aside)"
																   : "JSON equals pg_query_parse's";
	v->checks[CHECK_JSON_READ].name = "JSON -> AST -> protobuf equals the bytes";
	v->checks[CHECK_SUMMARY].name = "summary equals pg_query_summary (18 on)";
	const char *coverage_path = NULL;
	int n_files = 0, unreadable = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			puts("usage: pgbind verify [-v] [--coverage=FILE] FILE...\n"
				 "Splits each SQL file into statements (psql \\ lines ignored) and checks, per statement,\n"
				 "that pgbind's protobuf bytes equal libpg_query's pg_query_parse_protobuf, or that both\n"
				 "report the same syntax error. Prints per-check counts, each mismatch with file, line,\n"
				 "byte offset and field path, and a closing line 'N passed, M failed'; exits 1 on any mismatch.\n"
				 "--coverage=FILE  write which node kinds and fields the statements exercised\n"
				 "-v, --verbose    list the statements libpg_query's deparser writes wrong SQL for");
			free(v);
			return 0;
		}
		if (strncmp(argv[i], "--coverage=", 11) == 0)
			coverage_path = argv[i] + 11;
		if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
			v->verbose = true;
	}
	v->coverage = coverage_path != NULL;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++)
		v->field_seen[m] = calloc(pgbind_message_descs[m].n_fields + 1, sizeof(bool));
	for (int i = 1; i < argc; i++) {
		if ((strncmp(argv[i], "--", 2) == 0 && argv[i][2]) || strcmp(argv[i], "-v") == 0)
			continue;
		n_files++;
		if (!verify_file(v, argv[i]))
			unreadable++;
	}
	if (n_files == 0) {
		fprintf(stderr, "pgbind verify: no files given\n");
		return 2;
	}
	long passed = 0, failed = unreadable;
	printf("%ld statements in %d files\n", v->statements, n_files);
	for (int c = 0; c < N_CHECKS; c++) {
		printf("  %-48s %8ld passed, %ld failed\n", v->checks[c].name, v->checks[c].passed, v->checks[c].failed);
		passed += v->checks[c].passed;
		failed += v->checks[c].failed;
	}
	if (unreadable)
		printf("  %d file(s) could not be read or split\n", unreadable);
	if (v->unsound)
		printf("  %ld parsed trees broke a rule of the deparse contract that libpg_query's deparser handles: "
			   "deparsed in a child process, a fork each (-v lists them)\n",
			   v->unsound);
	if (v->json_lost)
		printf("  libpg_query's JSON lost %ld negative integers in %ld statements (pgbind's keeps them)\n",
			   v->json_lost, v->json_lost_statements);
	if (coverage_path && !write_coverage(v, coverage_path))
		failed++;
	printf("%ld passed, %ld failed\n", passed, failed);
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++)
		free(v->field_seen[m]);
	free(v);
	worker_stop(NULL, 0);
	pg_query_exit();
	return failed ? 1 : 0;
}
