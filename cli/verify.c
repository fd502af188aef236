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
 * and then decode, to_nodes, deparse (cli/verify_deparse.c), fingerprint, normalize, scan, JSON
 * (cli/json_verify.c) and summary (cli/verify_summary.c); libpg_query, the oracle, runs in other
 * processes where it may crash (cli/verify_oracle.c). Each mismatch prints the file, line,
 * statement offset, the first differing byte offset and the field path there. --coverage=FILE
 * writes which node kinds and fields the statements exercised (cli/verify_coverage.c). The run
 * ends with "N passed, M failed" and exits 1 on any mismatch. Entry points cli_verify() and
 * verify_sql() (cli/cli.h); what the parts share is cli/verify.h.
 */
#include "verify.h"
#include "cli.h"
#include "pg_query.h"
#ifdef PGBIND_HAVE_PROTOBUF_C
#include "pg_query.pb-c.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pgbind_Status.message holds the first sizeof - 1 bytes of a longer message (a syntax error
 * quotes the offending token, which can be long). */
bool verify_same_message(const char *ours, const char *theirs)
{
	size_t cap = sizeof(((pgbind_Status *)0)->message) - 1;
	return strlen(theirs) > cap ? strlen(ours) == cap && strncmp(ours, theirs, cap) == 0 : strcmp(ours, theirs) == 0;
}

/* ---- one statement --------------------------------------------------------------------------- */

void verify_report(Verify *v, int check, bool ok)
{
	if (ok)
		v->checks[check].passed++;
	else
		v->checks[check].failed++;
}

void verify_mismatch(const char *file, int line, size_t stmt_at, const char *stmt, const char *what)
{
	printf("MISMATCH %s:%d (statement at offset %zu): %s\n", file, line, stmt_at, what);
	printf("    %.200s%s\n", stmt, strlen(stmt) > 200 ? "..." : "");
}

void verify_library_crashed(Verify *v, const char *file, int line, const char *what, const char *how)
{
	verify_report(v, CHECK_LIBRARY_CRASHED, true);
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
	verify_report(v, CHECK_DECODE, same);
	if (!same) {
		snprintf(what, sizeof what, "decode(libpg_query's bytes) %s",
				 decoded ? "differs from the converted tree" : status.message);
		verify_mismatch(file, line, stmt_at, stmt, what);
		return;
	}
	const uint8_t *data;
	size_t len;
	same = pgbind_encode(decoded, NULL, arena, &data, &len, &status) && len == want_len && memcmp(data, want, len) == 0;
	verify_report(v, CHECK_REENCODE, same);
	if (!same) {
		size_t at = 0;
		while (at < len && at < want_len && data[at] == want[at])
			at++;
		char path[512];
		pgbind_wire_path(want, want_len, at, path, sizeof path);
		snprintf(what, sizeof what, "encode(decode(bytes)) differs at byte %zu: %s", at, path);
		verify_mismatch(file, line, stmt_at, stmt, what);
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
		ok = !ours && verify_same_message(status.message, raw.error->message);
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

/* back to PostgreSQL: nodes, deparse, fingerprint; and the scanner */
static void verify_return_trip(Verify *v, const char *file, int line, size_t stmt_at, const char *stmt,
							   const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want,
							   size_t want_len)
{
	char why[768];
	int died = 0;
	bool ok = nests_deep(tree, arena) ? oracle_to_nodes_in_child(tree, want, want_len, why, sizeof why, &died)
									  : verify_to_nodes(tree, want, want_len, why, sizeof why);
	if (died) {
		snprintf(why, sizeof why, "died of signal %d (%s)", died, strsignal(died));
		verify_library_crashed(v, file, line, "pg_query_protobuf_to_nodes (its protobuf reader)", why);
	} else {
		verify_report(v, CHECK_TO_NODES, ok);
		if (!ok)
			verify_mismatch(file, line, stmt_at, stmt, why);
	}

	verify_deparse(v, file, line, stmt_at, stmt, tree, arena, want, want_len);

	pgbind_Status status = {0};
	uint64_t fp = 0;
	Oracle f;
	oracle_normalize(stmt, false, &f);
	bool ours = pgbind_fingerprint(tree, NULL, &fp, &status);
	if (f.fate == ORACLE_DIED) {
		verify_library_crashed(v, file, line, "pg_query_fingerprint", f.why);
	} else {
		ok = f.fate == ORACLE_OK && ours && fp == f.fingerprint;
		verify_report(v, CHECK_FINGERPRINT, ok);
		if (!ok) {
			snprintf(why, sizeof why, "fingerprint %016llx, pg_query_fingerprint %016llx", (unsigned long long)fp,
					 (unsigned long long)f.fingerprint);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
	}
	free(f.text);

	Oracle n;
	oracle_normalize(stmt, true, &n);
	memset(&status, 0, sizeof status);
	const char *normalized = pgbind_normalize(tree, stmt, NULL, arena, &status);
	if (n.fate == ORACLE_DIED) {
		verify_library_crashed(v, file, line, "pg_query_normalize", n.why);
	} else {
		ok = n.fate == ORACLE_OK && normalized && strcmp(normalized, n.text) == 0;
		verify_report(v, CHECK_NORMALIZE, ok);
		if (!ok) {
			snprintf(why, sizeof why, "normalize \"%.300s\", pg_query_normalize \"%.300s\"",
					 normalized ? normalized : status.message, n.text);
			verify_mismatch(file, line, stmt_at, stmt, why);
		}
	}
	free(n.text);

#if SCAN_CHECKED
	ok = same_scan(stmt, arena, why, sizeof why);
	verify_report(v, CHECK_SCAN, ok);
	if (!ok)
		verify_mismatch(file, line, stmt_at, stmt, why);
#endif
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
	oracle_parse(stmt, tree ? nests_deep(tree, arena) : status.code == PGBIND_ERROR_DEPTH, &oracle);

	if (oracle.died) {
		snprintf(what, sizeof what, "died of signal %d (%s)", oracle.died, strsignal(oracle.died));
		verify_library_crashed(v, file, line, "pg_query_parse_protobuf", what);
	} else if (oracle.message) {
		bool same = !tree && status.code == PGBIND_ERROR_SYNTAX &&
					verify_same_message(status.message, oracle.message) && status.cursorpos == oracle.cursorpos;
		verify_report(v, CHECK_SYNTAX_ERRORS, same);
		if (!same) {
			snprintf(what, sizeof what, "libpg_query: syntax error \"%s\" at %d; pgbind: %s \"%s\" at %d",
					 oracle.message, oracle.cursorpos, tree ? "parsed" : pgbind_StatusCode_name(status.code),
					 tree ? "" : status.message, status.cursorpos);
			verify_mismatch(file, line, stmt_at, stmt, what);
		}
	} else if (!tree) {
		verify_report(v, CHECK_PROTOBUF, false);
		snprintf(what, sizeof what, "pgbind failed (%s: %s) where libpg_query parsed",
				 pgbind_StatusCode_name(status.code), status.message);
		verify_mismatch(file, line, stmt_at, stmt, what);
	} else {
		const uint8_t *data = NULL;
		size_t len = 0;
		if (!pgbind_encode(tree, NULL, arena, &data, &len, &status)) {
			verify_report(v, CHECK_PROTOBUF, false);
			snprintf(what, sizeof what, "pgbind_encode failed: %s", status.message);
			verify_mismatch(file, line, stmt_at, stmt, what);
		} else {
			const uint8_t *want = oracle.data;
			size_t want_len = oracle.len;
			bool same = len == want_len && memcmp(data, want, len) == 0;
			verify_report(v, CHECK_PROTOBUF, same);
			if (!same) {
				size_t at = 0;
				while (at < len && at < want_len && data[at] == want[at])
					at++;
				char path[512];
				pgbind_wire_path(want, want_len, at, path, sizeof path);
				snprintf(what, sizeof what, "protobuf differs at byte %zu (pgbind %zu bytes, libpg_query %zu): %s", at,
						 len, want_len, path);
				verify_mismatch(file, line, stmt_at, stmt, what);
			}
			verify_decode(v, file, line, stmt_at, stmt, tree, arena, want, want_len);
			verify_return_trip(v, file, line, stmt_at, stmt, tree, arena, want, want_len);
			cli_JsonVerdict jv;
			verify_json(stmt, tree, want, want_len, &jv);
			verify_report(v, CHECK_JSON, jv.text_ok);
			if (!jv.text_ok)
				verify_mismatch(file, line, stmt_at, stmt, jv.text_why);
			verify_report(v, CHECK_JSON_READ, jv.read_ok);
			if (!jv.read_ok)
				verify_mismatch(file, line, stmt_at, stmt, jv.read_why);
			v->json_lost += jv.lost;
			v->json_lost_statements += jv.lost > 0;
			int summary = nests_deep(tree, arena) ? -1 : verify_summary(stmt, tree, what, sizeof what);
			if (summary >= 0)
				verify_report(v, CHECK_SUMMARY, summary);
			if (summary == 0)
				verify_mismatch(file, line, stmt_at, stmt, what);
		}
		if (v->coverage)
			verify_cover(v, tree);
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
	oracle_normalize(text, false, &f);
	uint64_t fp = 0;
	bool ours = tree && pgbind_fingerprint(tree, NULL, &fp, &status);
	if (f.fate == ORACLE_DIED) {
		verify_library_crashed(v, path, 0, "pg_query_fingerprint of the whole file", f.why);
	} else {
		bool ok = f.fate == ORACLE_ERROR ? !tree : ours && fp == f.fingerprint;
		verify_report(v, CHECK_FILE_FINGERPRINT, ok);
		if (!ok) {
			snprintf(why, sizeof why, "the whole file: fingerprint %016llx (%s), pg_query_fingerprint %016llx (%s)",
					 (unsigned long long)fp, tree ? "parsed" : status.message, (unsigned long long)f.fingerprint,
					 f.fate == ORACLE_ERROR ? f.text : "parsed");
			verify_mismatch(path, 1, 0, "", why);
		}
	}
	free(f.text);
	Oracle n;
	oracle_normalize(text, true, &n);
	const char *normalized = tree ? pgbind_normalize(tree, text, NULL, arena, &status) : NULL;
	if (n.fate == ORACLE_DIED) {
		verify_library_crashed(v, path, 0, "pg_query_normalize of the whole file", n.why);
	} else if (tree && !normalized && n.fate == ORACLE_OK && !pgbind_parse(n.text, NULL, arena, NULL)) {
		/* pgbind refused (its walk found the constants libpg_query would replace overlapping: its
		 * search for a conninfo string finds another statement's) where libpg_query, reading past
		 * them, wrote text that does not even parse: its bug, as its crash on other runs is */
		snprintf(why, sizeof why, "wrote text that does not parse (pgbind refused: %s)", status.message);
		verify_library_crashed(v, path, 0, "pg_query_normalize of the whole file", why);
	} else {
		bool ok = n.fate == ORACLE_ERROR ? !tree : normalized && strcmp(normalized, n.text) == 0;
		verify_report(v, CHECK_FILE_NORMALIZE, ok);
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
			verify_mismatch(path, 1, 0, "", why);
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
	v->checks[CHECK_DEPARSE_MEMORY].name = "libpg_query deparser bugs: SQL as memory decides";
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
			   "deparsed in the deparse server for nothing (-v lists them: CONTRACT RULE UNSOUND)\n",
			   v->unsound);
	if (v->json_lost)
		printf("  libpg_query's JSON lost %ld negative integers in %ld statements (pgbind's keeps them)\n",
			   v->json_lost, v->json_lost_statements);
	if (coverage_path && !verify_write_coverage(v, coverage_path))
		failed++;
	printf("%ld passed, %ld failed\n", passed, failed);
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++)
		free(v->field_seen[m]);
	free(v);
	oracle_stop();
	pg_query_exit();
	return failed ? 1 : 0;
}
