/*
 * lib_majors.c -- libpgbind with pgbind_Options.pg_major (docs/majors.md section 2), against each
 * major's own libpg_query: mk/lib-majors.mk links it with build/libpgbind.a (and cli/summary.c, to
 * print a summary as the command does); tests/run.sh's section majors runs it.
 *
 *   lib_majors compare MAJOR REFERENCE PROTO PGBIND FILE...
 *       REFERENCE: tests/majors/lib_reference.c built with major MAJOR's libpg_query.a; PROTO: that
 *       major's pg_query.proto (its Token names); PGBIND: the command (build/pgbind). For each FILE
 *       whole, with pg_major = MAJOR:
 *       - pgbind_parse then pgbind_encode = the reference's pg_query_parse_protobuf bytes converted
 *         to the library's major (pgbind_convert_protobuf, through 18 where no pair is direct); where
 *         the conversion finds no form, PGBIND_ERROR_UNREPRESENTABLE with its message; where the
 *         reference fails, PGBIND_ERROR_SYNTAX with its message (cut to 255 bytes) and cursor;
 *       - on that tree: pgbind_fingerprint = pg_query_fingerprint's, pgbind_normalize =
 *         pg_query_normalize's, pgbind_deparse = pg_query_deparse_protobuf of the reference's own
 *         parse (or both fail);
 *       - pgbind_scan: the same tokens, positions and keyword kinds, each token named in MAJOR's
 *         pg_query.proto as the library's token is in its own;
 *       - pgbind_summary_sql = `PGBIND --pg=MAJOR summary FILE` (major MAJOR's own pgbind, its
 *         JSON), where both succeed; else both fail.
 *   lib_majors facts       what is known, not output: pgbind_majors() (15, 17, 18), JSON_OBJECT on
 *       15 (a syntax error at 23) and on 17 and 18 (a tree with no form in 15, and a summary), an
 *       unbuilt major's message.
 *   lib_majors bench FILE...   what a call costs through each route (not a test: docs/majors.md).
 *   lib_majors threads N FILE...   N threads parse every FILE with 15, 17 and 18 at once (each
 *       thread starting at another major), 2 rounds; every answer (encoding or error) equal to the
 *       one computed before on one thread.
 *
 * Prints each difference and "N passed, M failed"; exit 1 on any failure, 2 on a wrong command line.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pgbind.h"
#include "pgbind_convert.h"
#include "pgbind_reflect.h"
#include "read_file.h"

static int passed, failed, deparse_like_libpg_query, lossy_files, lossy_differences;

static void check(bool ok, const char *what, const char *file, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed <= 40)
		printf("MISMATCH %s %s: %s\n", what, file, detail ? detail : "");
}

/* ---- the reference's answers ----------------------------------------------------------------- */

typedef struct Answer {
	int ok, cursorpos;
	size_t len;
	char *data; /* NUL-terminated */
} Answer;

static bool read_answer(FILE *in, Answer *a)
{
	if (fscanf(in, "%d %d %zu", &a->ok, &a->cursorpos, &a->len) != 3 || fgetc(in) != '\n')
		return false;
	a->data = malloc(a->len + 1);
	if (!a->data || fread(a->data, 1, a->len, in) != a->len)
		return false;
	a->data[a->len] = '\0';
	return true;
}

/* ---- conversion, as the library's dispatch does it ---------------------------------------------- */

static int own_major(void)
{
	size_t n;
	const pgbind_Major *m = pgbind_majors(&n);
	for (size_t i = 0; i < n; i++)
		if (m[i].own)
			return m[i].major;
	return 0;
}

/* (data, len) of major from in major to's form, malloc'd; NULL with err's message. */
static uint8_t *convert(int from, int to, const uint8_t *data, size_t len, size_t *out_len, char *err, size_t size)
{
	uint8_t *out = NULL;
	pgbind_ConvertError e = {0};
	if (from == to) {
		out = malloc(len + 1);
		memcpy(out, data, len);
		*out_len = len;
		return out;
	}
	int via = pgbind_convert_has_pair(from, to) ? 0 : 18;
	uint8_t *mid = NULL;
	size_t mid_len = 0;
	if (via && pgbind_convert_protobuf(from, via, data, len, &mid, &mid_len, &e) != PGBIND_CONVERT_OK) {
		snprintf(err, size, "%s", e.message);
		return NULL;
	}
	if (pgbind_convert_protobuf(via ? via : from, to, via ? mid : data, via ? mid_len : len, &out, out_len, &e) !=
		PGBIND_CONVERT_OK)
		snprintf(err, size, "%s", e.message);
	free(mid);
	return out;
}

/* ---- the Token names of a major's pg_query.proto ------------------------------------------------ */

static char *token_names[4096];

static bool read_token_names(const char *proto)
{
	FILE *f = fopen(proto, "r");
	char line[512], name[256];
	int in_enum = 0, number;
	while (f && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "enum Token", 10))
			in_enum = 1;
		else if (in_enum && line[0] == '}')
			break;
		else if (in_enum && sscanf(line, " %255[A-Za-z0-9_] = %d", name, &number) == 2 && number >= 0 && number < 4096)
			token_names[number] = strdup(name);
	}
	if (f)
		fclose(f);
	return in_enum;
}

static const char *own_token_name(int value)
{
	for (int i = 0; i < PGBIND_ENUM_COUNT; i++)
		if (!strcmp(pgbind_enum_descs[i].name, "Token"))
			return pgbind_enum_value_name(i, value);
	return NULL;
}

/* The library's value of the Token named name, or -1. */
static int own_token_value(const char *name)
{
	for (int i = 0; name && i < PGBIND_ENUM_COUNT; i++)
		if (!strcmp(pgbind_enum_descs[i].name, "Token"))
			for (uint32_t k = 0; k < pgbind_enum_descs[i].n_values; k++)
				if (!strcmp(pgbind_enum_descs[i].values[k].name, name))
					return pgbind_enum_descs[i].values[k].number;
	return -1;
}

/* The reference's tokens (lines "START END TOKEN KIND", MAJOR's numbers) against the library's scan:
 * equal positions and kinds, and each token the library's value of the name MAJOR's proto gives
 * its number (on the library's own major, a number the proto leaves unnamed, an ASCII character,
 * stays that number); where a token's name has no value in the library's Token, the scan must be
 * refused naming it. */
static void compare_scan(int major, const char *file, const char *lines, const pgbind_ScanResult *s,
						 const pgbind_Status *st)
{
	char detail[1024] = "";
	bool same = true;
	size_t i = 0;
	long long start, end, token, kind;
	for (const char *line = lines; *line && sscanf(line, "%lld %lld %lld %lld", &start, &end, &token, &kind) == 4;
		 line = strchr(line, '\n') + 1, i++) {
		const char *name = token >= 0 && token < 4096 ? token_names[token] : NULL;
		int want = name ? own_token_value(name) : major == own_major() ? (int)token : -1;
		if (want < 0) {
			char named[128];
			snprintf(named, sizeof named, "token %s (", name ? name : "(unnamed)");
			snprintf(detail, sizeof detail, "libpg_query's token %lld (%s) at %lld has no value here; pgbind: %s",
					 token, name ? name : "unnamed", start, s ? "tokens" : st->message);
			check(!s && st->code == PGBIND_ERROR_UNREPRESENTABLE && strstr(st->message, named), "scan (no value)", file,
				  detail);
			return;
		}
		const pgbind_ScanToken *t = s && i < s->n_tokens ? s->tokens[i] : NULL;
		if (same &&
			!(t && t->start == start && t->end == end && (int)t->keyword_kind == kind && (int)t->token == want)) {
			snprintf(detail, sizeof detail, "token %zu: libpg_query %lld-%lld %s (%d here) kind %lld; pgbind %s", i,
					 start, end, name ? name : "?", want, kind,
					 t   ? own_token_name((int)t->token)
					 : s ? "none"
						 : st->message);
			same = false;
		}
	}
	if (same && (!s || i != s->n_tokens))
		snprintf(detail, sizeof detail, "%zu tokens, libpg_query %zu", s ? s->n_tokens : 0, i), same = false;
	check(same, "scan", file, detail);
}

/* ---- compare --------------------------------------------------------------------------------- */

/* `PGBIND --pg=MAJOR SUBCOMMAND FILE`'s standard output, and its exit status in *status. */
static char *run_command(const char *pgbind, int major, const char *subcommand, const char *file, int *status)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' --pg=%d %s '%s' 2>/dev/null", pgbind, major, subcommand, file);
	FILE *p = popen(cmd, "r");
	size_t len = 0;
	char *text = p ? majors_read_stream(p, &len) : NULL;
	*status = p ? pclose(p) : -1;
	if (!text)
		text = calloc(1, 1);
	if (text && len && text[len - 1] == '\n') /* the command ends its line */
		text[len - 1] = '\0';
	return text;
}

/* `PGBIND --pg=MAJOR deparse --from=protobuf` of the reference's parse. */
static char *deparse_command(const char *pgbind, int major, const Answer *parse, int *status)
{
	char path[] = "/tmp/lib_majors.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f || fwrite(parse->data, 1, parse->len, f) != parse->len || fclose(f) != 0) {
		*status = -1;
		return NULL;
	}
	char *sql = run_command(pgbind, major, "deparse --from=protobuf", path, status);
	unlink(path);
	return sql;
}

/* Whether major's parse (the reference's bytes) comes back byte for byte from the library's form:
 * converted to the library's major and back. Where not (18's locations the older tree has no place
 * for come back absent), answers computed by that major on the library's tree may differ from its
 * answers on its own parse: the test reports them as LOSSY, not as failures. */
static bool round_trips(int major, const Answer *parse)
{
	char err[600];
	size_t own_len = 0, back_len = 0;
	uint8_t *own = convert(major, own_major(), (const uint8_t *)parse->data, parse->len, &own_len, err, sizeof err);
	uint8_t *back = own ? convert(own_major(), major, own, own_len, &back_len, err, sizeof err) : NULL;
	bool same = back && back_len == parse->len && !memcmp(back, parse->data, back_len);
	free(own);
	free(back);
	lossy_files += own && !same;
	return !own || same;
}

static void compare_parse(int major, const char *file, const char *sql, const Answer *ref,
						  const pgbind_ParseResult *tree, const pgbind_Status *st, pgbind_Arena *arena)
{
	char detail[1024];
	if (!ref->ok) {
		snprintf(detail, sizeof detail, "libpg_query: %.255s at %d; pgbind: %s (%s) at %d", ref->data, ref->cursorpos,
				 tree ? "a tree" : st->message, pgbind_StatusCode_name(st->code), st->cursorpos);
		check(!tree && st->code == PGBIND_ERROR_SYNTAX && st->cursorpos == ref->cursorpos &&
				  !strncmp(st->message, ref->data, 255) && strlen(st->message) == (ref->len < 255 ? ref->len : 255),
			  "parse (error)", file, detail);
		return;
	}
	char err[600] = "";
	size_t want_len = 0;
	uint8_t *want = convert(major, own_major(), (const uint8_t *)ref->data, ref->len, &want_len, err, sizeof err);
	if (!want) {
		snprintf(detail, sizeof detail, "the conversion: %s; pgbind: %s", err, tree ? "a tree" : st->message);
		check(!tree && st->code == PGBIND_ERROR_UNREPRESENTABLE && strstr(st->message, err), "parse (no form)", file,
			  detail);
		return;
	}
	const uint8_t *got = NULL;
	size_t got_len = 0;
	pgbind_Status est = {0};
	bool ok = tree && pgbind_encode(tree, NULL, arena, &got, &got_len, &est);
	snprintf(detail, sizeof detail, "%s; %zu bytes, converted reference %zu", tree ? "differs" : st->message, got_len,
			 want_len);
	check(ok && got_len == want_len && !memcmp(got, want, want_len), "parse", file, detail);
	free(want);
	(void)sql;
}

static void compare_file(int major, const char *file, FILE *ref_in, const char *pgbind)
{
	char *sql = majors_read_file(file);
	Answer parse, fp, norm, dep, scan;
	if (!sql || !read_answer(ref_in, &parse) || !read_answer(ref_in, &fp) || !read_answer(ref_in, &norm) ||
		!read_answer(ref_in, &dep) || !read_answer(ref_in, &scan)) {
		check(false, "reading", file, "the file or the reference's answers");
		exit(1);
	}
	pgbind_Options o = {0};
	o.pg_major = major;
	bool lossy = parse.ok && !round_trips(major, &parse);
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status st = {0};
	char detail[1024];
	const pgbind_ParseResult *tree = pgbind_parse(sql, &o, arena, &st);
	compare_parse(major, file, sql, &parse, tree, &st, arena);
	if (tree) {
		uint64_t value = 0;
		char hex[17] = "";
		bool ok = pgbind_fingerprint(tree, &o, &value, &st);
		snprintf(hex, sizeof hex, "%016llx", (unsigned long long)value);
		snprintf(detail, sizeof detail, "pgbind %s, libpg_query %s", ok ? hex : st.message, fp.data);
		if (fp.ok && ok && strcmp(hex, fp.data) && (lossy || strstr(sql, "''"))) {
			/* expected: the tree in the library's form lost what the fingerprint reads */
			printf("LOSSY fingerprint %s: %s\n", file, lossy ? "round trip" : "an empty string");
			lossy_differences++;
		} else {
			check(fp.ok ? ok && !strcmp(hex, fp.data) : !ok, "fingerprint", file, detail);
		}
		const char *n = pgbind_normalize(tree, sql, &o, arena, &st);
		snprintf(detail, sizeof detail, "pgbind %.300s, libpg_query %.300s", n ? n : st.message, norm.data);
		if (norm.ok && n && strcmp(n, norm.data) && lossy) {
			printf("LOSSY normalize %s: round trip\n", file);
			lossy_differences++;
		} else {
			check(norm.ok ? n && !strcmp(n, norm.data) : !n, "normalize", file, detail);
		}
		/* major MAJOR's own deparse route (its pgbind: the command, --from=protobuf) on its own
		 * parse's protobuf, the reference's bytes: the same SQL, or both refuse */
		const char *d = pgbind_deparse(tree, &o, arena, &st);
		int status = 0;
		char *want = !parse.ok              ? NULL
					 : major == own_major() ? run_command(pgbind, major, "deparse", file, &status)
											: deparse_command(pgbind, major, &parse, &status);
		snprintf(detail, sizeof detail, "pgbind %.300s; pgbind --pg=%d deparse --from=protobuf (exit %d) %.300s",
				 d ? d : st.message, major, status, want ? want : "");
		if (d && want && strcmp(d, want) && lossy) {
			printf("LOSSY deparse %s: round trip\n", file);
			lossy_differences++;
		} else {
			check(status == 0 ? d && want && !strcmp(d, want) : !d && status == 256, "deparse", file, detail);
		}
		deparse_like_libpg_query += d && dep.ok && !strcmp(d, dep.data);
		free(want);
	}
	/* scan: the reference's numbers named by MAJOR's proto, the library's by its own */
	const pgbind_ScanResult *s = pgbind_scan(sql, &o, arena, &st);
	if (!scan.ok) {
		snprintf(detail, sizeof detail, "libpg_query: %.255s; pgbind: %s", scan.data, s ? "tokens" : st.message);
		check(!s && st.code == PGBIND_ERROR_SYNTAX && st.cursorpos == scan.cursorpos, "scan (error)", file, detail);
	} else {
		compare_scan(major, file, scan.data, s, &st);
	}
	/* the summary: major MAJOR's own pgbind (the command) */
	int status = 0;
	char *want = run_command(pgbind, major, "summary", file, &status);
	pgbind_Summary *sum = pgbind_summary_sql(sql, -1, &o, arena, &st);
	char *got = NULL;
	size_t got_len = 0;
	if (sum) {
		FILE *buf = open_memstream(&got, &got_len);
		cli_print_summary_json(sum, buf);
		fclose(buf);
	}
	snprintf(detail, sizeof detail, "pgbind_summary_sql %.300s; pgbind --pg=%d summary (exit %d) %.300s",
			 got ? got : st.message, major, status, want ? want : "");
	check(status == 0 ? got && want && !strcmp(got, want) : !sum, "summary", file, detail);
	free(got);
	free(want);
	pgbind_Arena_Free(arena);
	free(parse.data), free(fp.data), free(norm.data), free(dep.data), free(scan.data);
	free(sql);
}

static int compare(int argc, char **argv)
{
	int major = atoi(argv[2]);
	if (!read_token_names(argv[4])) {
		fprintf(stderr, "lib_majors: no enum Token in %s\n", argv[4]);
		return 2;
	}
	char cmd[8192];
	size_t used = (size_t)snprintf(cmd, sizeof cmd, "'%s'", argv[3]);
	int first = 6, i = first;
	while (i < argc) {
		/* the reference once per batch of files that fits the command line */
		int from = i;
		size_t at = used;
		for (; i < argc && at + strlen(argv[i]) + 4 < sizeof cmd; i++)
			at += (size_t)snprintf(cmd + at, sizeof cmd - at, " '%s'", argv[i]);
		FILE *ref = popen(cmd, "r");
		for (int f = from; f < i; f++)
			compare_file(major, argv[f], ref, argv[5]);
		check(ref && pclose(ref) == 0, "the reference's exit", argv[3], NULL);
		cmd[used] = '\0';
	}
	printf("pg_major=%d, %d files: %d deparsed as libpg_query %d deparses its own parse; %d do not come back from "
		   "the library's form, %d answers LOSSY\n%d passed, %d failed\n",
		   major, argc - first, deparse_like_libpg_query, major, lossy_files, lossy_differences, passed, failed);
	return failed ? 1 : 0;
}

/* ---- facts ----------------------------------------------------------------------------------- */

static int facts(void)
{
	size_t n;
	const pgbind_Major *m = pgbind_majors(&n);
	char list[256] = "";
	for (size_t i = 0, at = 0; i < n; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%d:%d:%s:%s", i ? " " : "", m[i].major,
							   m[i].version_num / 10000, m[i].own ? "own" : "other", m[i].release);
	printf("pgbind_majors(): %s\n", list);
	check(n == 3 && m[0].major == 15 && m[1].major == 17 && m[2].major == 18 && m[0].own && !m[1].own && !m[2].own &&
			  m[0].version_num / 10000 == 15 && m[1].version_num / 10000 == 17 && m[2].version_num / 10000 == 18 &&
			  !strncmp(m[0].release, "release ", 8) && !strncmp(m[1].release, "release 17", 10) &&
			  !strncmp(m[2].release, "release 18", 10),
		  "pgbind_majors", "15, 17, 18", list);
	const char *json = "SELECT JSON_OBJECT('a': 1)";
	pgbind_Arena *arena = pgbind_Arena_New();
	for (int major = 15; major <= 18; major++) {
		pgbind_Options o = {0};
		o.pg_major = major;
		pgbind_Status st = {0};
		char label[64], want[512];
		snprintf(label, sizeof label, "JSON_OBJECT, pg_major=%d", major);
		const pgbind_ParseResult *t = pgbind_parse(json, &o, arena, &st);
		pgbind_Summary *s = pgbind_summary_sql(json, -1, &o, arena, &st);
		if (major == 15) {
			check(!t && st.code == PGBIND_ERROR_SYNTAX && st.cursorpos == 23 &&
					  !strcmp(st.message, "syntax error at or near \":\""),
				  label, "a syntax error at 23", st.message);
		} else if (major == 16) {
			check(!t && !s && st.code == PGBIND_ERROR_ARGUMENT &&
					  !strcmp(st.message, "pgbind_Options.pg_major 16: PostgreSQL 16 is not built into this library "
										  "(built: 15, 17, 18; pgbind_majors() lists them)"),
				  label, "not built", st.message);
		} else {
			pgbind_Status pst = {0};
			pgbind_parse(json, &o, arena, &pst);
			snprintf(want, sizeof want,
					 "converting PostgreSQL %d's tree to 15's: stmts[0].stmt.SelectStmt.target_list[0].ResTarget.val."
					 "JsonObjectConstructor (18) has no form in 15",
					 major);
			check(!t && pst.code == PGBIND_ERROR_UNREPRESENTABLE && !strcmp(pst.message, want), label,
				  "a tree with no form in 15", pst.message);
			check(s && s->n_statement_types == 1 && !strcmp(s->statement_types[0], "SelectStmt"), label,
				  "its summary: one SelectStmt", s ? NULL : st.message);
		}
	}
	/* deparse of 15's tree by 18 (RETURNING moved into ReturningClause in 18) */
	pgbind_Options o18 = {0};
	o18.pg_major = 18;
	pgbind_Status st = {0};
	const pgbind_ParseResult *t = pgbind_parse("INSERT INTO t VALUES (1) RETURNING a", NULL, arena, &st);
	const char *d = t ? pgbind_deparse(t, &o18, arena, &st) : NULL;
	check(d && !strcmp(d, "INSERT INTO t VALUES (1) RETURNING a"), "deparse of 15's tree with pg_major=18", "RETURNING",
		  d ? d : st.message);
	pgbind_Arena_Free(arena);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* ---- threads --------------------------------------------------------------------------------- */

static const int thread_majors[] = {15, 17, 18};
enum { n_thread_majors = 3 };

typedef struct Input {
	char *sql;
	char *answer[n_thread_majors]; /* the encoding as hex, or the error: malloc'd */
} Input;

static Input *inputs;
static int n_inputs;

static char *answer_of(const char *sql, int major)
{
	pgbind_Options o = {0};
	o.pg_major = major;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status st = {0};
	const pgbind_ParseResult *t = pgbind_parse(sql, &o, arena, &st);
	const uint8_t *data = NULL;
	size_t len = 0;
	char *text = NULL;
	size_t text_len = 0;
	FILE *out = open_memstream(&text, &text_len);
	if (t && pgbind_encode(t, NULL, arena, &data, &len, &st))
		for (size_t i = 0; i < len; i++)
			fprintf(out, "%02x", data[i]);
	else
		fprintf(out, "error %d at %d: %s", (int)st.code, st.cursorpos, st.message);
	fclose(out);
	pgbind_Arena_Free(arena);
	return text;
}

static void *thread_main(void *arg)
{
	int id = (int)(intptr_t)arg, *wrong = calloc(1, sizeof *wrong);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < n_inputs; i++)
			for (int k = 0; k < n_thread_majors; k++) {
				int which = (k + id) % n_thread_majors;
				char *a = answer_of(inputs[i].sql, thread_majors[which]);
				*wrong += strcmp(a, inputs[i].answer[which]) != 0;
				free(a);
			}
	return wrong;
}

static int threads(int n_threads, int argc, char **argv, int first)
{
	n_inputs = argc - first;
	inputs = calloc((size_t)n_inputs, sizeof *inputs);
	for (int i = 0; i < n_inputs; i++) {
		if (!(inputs[i].sql = majors_read_file(argv[first + i]))) {
			fprintf(stderr, "lib_majors: cannot read %s\n", argv[first + i]);
			return 2;
		}
		for (int k = 0; k < n_thread_majors; k++)
			inputs[i].answer[k] = answer_of(inputs[i].sql, thread_majors[k]);
	}
	pthread_t t[64];
	for (int i = 0; i < n_threads; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i);
	for (int i = 0; i < n_threads; i++) {
		void *wrong = NULL;
		pthread_join(t[i], &wrong);
		char detail[128];
		snprintf(detail, sizeof detail, "%d of %d answers differ from the one-thread answers", *(int *)wrong,
				 2 * n_inputs * n_thread_majors);
		check(*(int *)wrong == 0, "thread", "", detail);
		passed += 2 * n_inputs * n_thread_majors - 1 - *(int *)wrong; /* each answer a check */
		failed += *(int *)wrong ? *(int *)wrong - 1 : 0;
		free(wrong);
	}
	printf("%d threads x %d inputs x 15, 17, 18 x 2 rounds\n%d passed, %d failed\n", n_threads, n_inputs, passed,
		   failed);
	return failed ? 1 : 0;
}

/* ---- bench ----------------------------------------------------------------------------------- */

#include <time.h>

#include "major.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *bench_alloc(void *ctx, size_t size)
{
	return pgbind_Arena_Malloc(ctx, size);
}

/* The fastest of 20 rounds over the inputs, per input, in microseconds: pgbind_parse with pg_major
 * 0 (the direct route), then each major (the own major through the hook; the others through the
 * dispatch: the major's parse and encode, the conversion, the decode), and for the others the
 * major's own parse and encode alone (its entry, called as the dispatch calls it), so that the
 * difference is the route's cost; and pgbind_fingerprint of the library's tree likewise. */
static int bench(int argc, char **argv, int first)
{
	int n = argc - first;
	char **sql = calloc((size_t)n, sizeof *sql);
	for (int i = 0; i < n; i++)
		if (!(sql[i] = majors_read_file(argv[first + i])))
			return 2;
	size_t n_majors;
	const pgbind_Major *majors = pgbind_majors(&n_majors);
	printf("%-34s %10s %10s\n", "us per input (fastest of 20)", "parse", "fingerprint");
	for (size_t k = 0; k <= n_majors; k++) {
		int major = k ? majors[k - 1].major : 0;
		for (int entry_only = 0; entry_only <= (k && !majors[k - 1].own); entry_only++) {
			const pgbind_MajorEntry *e = NULL;
			for (size_t j = 0; entry_only && pgbind_lib_majors[j]; j++)
				if (pgbind_lib_majors[j]->info.major == major)
					e = pgbind_lib_majors[j];
			double best_parse = 1e9, best_fp = 1e9;
			for (int round = 0; round < 20; round++) {
				double parse_time = 0, fp_time = 0;
				for (int i = 0; i < n; i++) {
					pgbind_Options o = {0};
					o.pg_major = major;
					pgbind_Arena *arena = pgbind_Arena_New();
					pgbind_Status st = {0};
					pgbind_MajorOut out = {bench_alloc, arena};
					const uint8_t *data;
					size_t len;
					double t0 = now();
					const pgbind_ParseResult *tree = NULL;
					if (e)
						e->parse(sql[i], &o, &out, &data, &len, &st);
					else
						tree = pgbind_parse(sql[i], &o, arena, &st);
					double t1 = now();
					uint64_t fp;
					if (e && e->parse(sql[i], &o, &out, &data, &len, &st)) {
						t1 = now();
						e->fingerprint(data, len, &o, &fp, &st);
					} else if (tree) {
						t1 = now();
						pgbind_fingerprint(tree, &o, &fp, &st);
					}
					fp_time += now() - t1;
					parse_time += t1 - t0;
					pgbind_Arena_Free(arena);
				}
				best_parse = parse_time < best_parse ? parse_time : best_parse;
				best_fp = fp_time < best_fp ? fp_time : best_fp;
			}
			char label[64];
			snprintf(label, sizeof label, "%s%d%s", major ? "pg_major=" : "pg_major=0 (", major ? major : own_major(),
					 !major       ? ", direct)"
					 : entry_only ? " (its entry alone)"
								  : "");
			printf("%-34s %10.1f %10.1f\n", label, best_parse * 1e6 / n, best_fp * 1e6 / n);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 7 && !strcmp(argv[1], "compare"))
		return compare(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "facts"))
		return facts();
	if (argc >= 3 && !strcmp(argv[1], "bench"))
		return bench(argc, argv, 2);
	if (argc >= 4 && !strcmp(argv[1], "threads") && atoi(argv[2]) > 0 && atoi(argv[2]) <= 64)
		return threads(atoi(argv[2]), argc, argv, 3);
	fputs(
		"usage: lib_majors compare MAJOR REFERENCE PROTO PGBIND FILE... | facts | threads N FILE... | bench FILE...\n",
		stderr);
	return 2;
}
