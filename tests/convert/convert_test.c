/*
 * convert_test.c -- measures the generated converters between two PostgreSQL majors (issue 52,
 * docs/convert.md) against the majors' own libpg_query, all linked renamed into this program
 * (build/majors/pgNN/libpg_query.o of make majors; CONVERT_TEST_MAJORS lists them as M(15) M(17)
 * M(18)). Built and run by mk/convert.mk (make convert-test) and tests/run.sh's section convert.
 *
 *   convert_test OLDER NEWER DOC.md FRESH.md [--write] [--seeds DIR] [--bench ROUNDS]
 *                --corpus LABEL ROOT LIST [--corpus ...]
 *   convert_test OLDER NEWER --show SQL     (each major's parse converted to the other: the result)
 *
 * Every statement of the corpora (each LIST names files under ROOT, one a line; each file split
 * into statements by the newer major's scanner split) is parsed by both majors. Checked, each a
 * failure when it does not hold: the older major's protobuf converted up and back down is that
 * protobuf byte for byte; no input makes the interpreter crash (truncated and mutated encodings,
 * random bytes) and nesting past PGBIND_CONVERT_MAX_DEPTH is PGBIND_CONVERT_TOO_DEEP; the
 * measurement (up against the newer major's own parse, down against the older's, each
 * difference by Message.field with its count), written to FRESH.md, equals DOC.md (--write:
 * copied to DOC.md instead).
 * Prints the time of the parses and of the conversions.
 */
#include <pg_query.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../majors/read_file.h"
#include "convert_table.h"
#include "pgbind_convert.h"
#include "wire_diff.h"

extern const cv_Table *const pgbind_convert_tables[];

typedef PgQueryProtobufParseResult (*ParseFn)(const char *);
typedef void (*FreeFn)(PgQueryProtobufParseResult);
typedef PgQuerySplitResult (*SplitFn)(const char *);
typedef void (*FreeSplitFn)(PgQuerySplitResult);

typedef struct {
	int major;
	ParseFn parse;
	FreeFn free_result;
	SplitFn split;
	FreeSplitFn free_split;
} Major;

#define M(N)                                                                             \
	PgQueryProtobufParseResult pgbind_pg##N##_pg_query_parse_protobuf(const char *);     \
	void pgbind_pg##N##_pg_query_free_protobuf_parse_result(PgQueryProtobufParseResult); \
	PgQuerySplitResult pgbind_pg##N##_pg_query_split_with_scanner(const char *);         \
	void pgbind_pg##N##_pg_query_free_split_result(PgQuerySplitResult);
CONVERT_TEST_MAJORS
#undef M
#define M(N)                                                                                        \
	{N, pgbind_pg##N##_pg_query_parse_protobuf, pgbind_pg##N##_pg_query_free_protobuf_parse_result, \
	 pgbind_pg##N##_pg_query_split_with_scanner, pgbind_pg##N##_pg_query_free_split_result},
static const Major majors[] = {CONVERT_TEST_MAJORS{0, 0, 0, 0, 0}};
#undef M

/* ---- counted differences ------------------------------------------------------------------------ */

typedef struct {
	char key[160];
	int count;
	char example[200];
} Count;

typedef struct {
	Count *v;
	int n, cap;
} Counts;

static void count_add(Counts *c, const char *key, const char *example)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->v[i].key, key) == 0) {
			c->v[i].count++;
			return;
		}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v);
		if (!c->v)
			abort();
	}
	Count *e = &c->v[c->n++];
	snprintf(e->key, sizeof e->key, "%s", key);
	e->count = 1;
	snprintf(e->example, sizeof e->example, "%s", example);
}

static int by_count(const void *x, const void *y)
{
	const Count *a = x, *b = y;
	return a->count != b->count ? b->count - a->count : strcmp(a->key, b->key);
}

/* An error message's class: its path from the last node kind on ("A_Expr.rexpr_list_start"),
 * without list indices. */
static void error_key(const char *message, char *out, size_t n)
{
	char buf[256];
	size_t len = 0;
	for (const char *p = message; *p && len + 1 < sizeof buf; p++) {
		if (*p == '[') {
			while (*p && *p != ']')
				p++;
			if (!*p)
				break;
			continue;
		}
		buf[len++] = *p;
	}
	buf[len] = '\0';
	const char *start = buf;
	for (const char *p = buf; *p && *p != ' '; p++)
		if ((p == buf || p[-1] == '.') && *p >= 'A' && *p <= 'Z')
			start = p;
	snprintf(out, n, "%s", start);
}

static const cv_Table *table(int from, int to)
{
	for (size_t i = 0; pgbind_convert_tables[i]; i++)
		if (pgbind_convert_tables[i]->from_major == from && pgbind_convert_tables[i]->to_major == to)
			return pgbind_convert_tables[i];
	return NULL;
}

static const Major *major(int n)
{
	for (const Major *m = majors; m->major; m++)
		if (m->major == n)
			return m;
	return NULL;
}

/* ---- the measurement ------------------------------------------------------------------------------ */

typedef struct {
	const Major *older, *newer;
	const cv_Table *up_t, *down_t;
	long files, statements, parsed_older, parsed_newer, parsed_both;
	long up_ok, up_equal, up_differ, up_only_newer, identity_ok, identity_lossy, identity_fail, down_ok, down_equal,
		down_differ;
	Counts up_errors, up_diffs, down_errors, down_diffs, losses;
	double t_parse, t_up; /* seconds: the newer major's parses; the conversions up */
	long n_timed;
	/* --bench: the Debian corpora's statements both majors parse, with the older's encoding */
	bool bench;
	char **bench_sql;
	uint8_t **bench_pb;
	size_t *bench_len;
	long n_bench, cap_bench;
	/* a sample of the older major's encodings for the fuzz loop */
	uint8_t **sample;
	size_t *sample_len;
	int n_sample;
} Run;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void example_of(const char *label, const char *file, const char *stmt, char *out, size_t n)
{
	char text[120];
	size_t k = 0;
	for (const char *p = stmt; *p && k + 1 < sizeof text; p++) {
		char c = (*p == '\n' || *p == '\t' || *p == '\r') ? ' ' : *p;
		if (c == '|' || c == '`' || (unsigned char)c >= 0x80)
			c = '?'; /* the table's cell separator, code quotes; bytes that may not be UTF-8 */
		if (c == ' ' && k && text[k - 1] == ' ')
			continue;
		text[k++] = c;
	}
	text[k] = '\0';
	snprintf(out, n, "%s %s: `%s`", label, file, text);
}

/* The statement from its first token on: the split statement starts after the previous one's
 * semicolon, with the whitespace and comments between (where majors place stmt_location
 * differently; each file is also parsed whole, which measures that). */
static const char *first_token(const char *sql)
{
	for (;;) {
		while (*sql == ' ' || *sql == '\n' || *sql == '\t' || *sql == '\r' || *sql == '\f')
			sql++;
		if (sql[0] == '-' && sql[1] == '-') {
			while (*sql && *sql != '\n')
				sql++;
		} else if (sql[0] == '/' && sql[1] == '*') {
			const char *end = strstr(sql + 2, "*/");
			if (!end)
				return sql;
			sql = end + 2;
		} else
			return sql;
	}
}

/* Whether back differs from the older major's own parse only in fields declared dropped
 * (schema/majors.txt's dropped:, CV_IN_DROP in the up table): keys in *lost. */
static bool declared_losses(const cv_Table *up, const uint8_t *back, size_t back_len,
							const PgQueryProtobufParseResult *pa, wd_Keys *lost)
{
	wd_diff(up, up->root, back, back_len, (const uint8_t *)pa->parse_tree.data, pa->parse_tree.len, lost);
	if (!lost->n)
		return false;
	for (int i = 0; i < lost->n; i++) {
		bool dropped = false;
		for (uint32_t m = 0; m < up->n_messages; m++)
			for (int k = 0; k < up->messages[m].n_proto; k++) {
				char key[300];
				snprintf(key, sizeof key, "%s.%s", up->messages[m].name, up->messages[m].fields[k].name);
				if (strcmp(key, lost->keys[i]) == 0 && (up->messages[m].fields[k].flags & CV_IN_DROP) &&
					strcmp(key, "ParseResult.version") != 0)
					dropped = true;
			}
		if (!dropped)
			return false;
	}
	return true;
}

/* Whether key ("Message.field") names a field only the newer major has: not in the older's message
 * of that name (t describes the older major's messages). An option's location (wire_diff.h) is
 * counted with them by the caller: the older major does not record it either. */
static bool newer_only(const cv_Table *older, const char *key)
{
	const char *dot = strchr(key, '.');
	if (!dot || strchr(key, ' '))
		return false;
	for (uint32_t m = 0; m < older->n_messages; m++)
		if (strlen(older->messages[m].name) == (size_t)(dot - key) &&
			strncmp(older->messages[m].name, key, (size_t)(dot - key)) == 0) {
			for (int k = 0; k < older->messages[m].n_proto; k++)
				if (strcmp(older->messages[m].fields[k].name, dot + 1) == 0)
					return false;
			return true;
		}
	return false;
}

static void statement(Run *r, const char *label, const char *file, const char *sql)
{
	PgQueryProtobufParseResult pa = r->older->parse(sql);
	double t0 = now();
	PgQueryProtobufParseResult pb = r->newer->parse(sql);
	double t1 = now();
	r->statements++;
	bool a_ok = !pa.error, b_ok = !pb.error;
	r->parsed_older += a_ok;
	r->parsed_newer += b_ok;
	r->parsed_both += a_ok && b_ok;
	char example[200], key[256];
	example_of(label, file, sql, example, sizeof example);
	pgbind_ConvertError err;
	if (a_ok) {
		uint8_t *up = NULL, *back = NULL;
		size_t up_len, back_len;
		double t2 = now();
		pgbind_ConvertCode c =
			pgbind_convert_protobuf(r->older->major, r->newer->major, (const uint8_t *)pa.parse_tree.data,
									pa.parse_tree.len, &up, &up_len, &err);
		double t3 = now();
		if (b_ok) {
			r->t_parse += t1 - t0;
			r->t_up += t3 - t2;
			r->n_timed++;
		}
		if (c != PGBIND_CONVERT_OK) {
			error_key(err.message, key, sizeof key);
			count_add(&r->up_errors, key, example);
		} else {
			r->up_ok++;
			if (b_ok) {
				if (up_len == pb.parse_tree.len && memcmp(up, pb.parse_tree.data, up_len) == 0)
					r->up_equal++;
				else {
					r->up_differ++;
					wd_Keys keys = {0};
					wd_diff(r->down_t, r->down_t->root, up, up_len, (const uint8_t *)pb.parse_tree.data,
							pb.parse_tree.len, &keys);
					bool only_new = keys.n > 0;
					for (int i = 0; i < keys.n; i++) {
						count_add(&r->up_diffs, keys.keys[i], example);
						only_new =
							only_new && (newer_only(r->up_t, keys.keys[i]) || strstr(keys.keys[i], " of option "));
					}
					r->up_only_newer += only_new;
					if (!keys.n)
						count_add(&r->up_diffs, "(bytes differ, no field does: field order)", example);
					free(keys.keys);
				}
			}
			c = pgbind_convert_protobuf(r->newer->major, r->older->major, up, up_len, &back, &back_len, &err);
			wd_Keys lost = {0};
			if (c == PGBIND_CONVERT_OK && back_len == pa.parse_tree.len &&
				memcmp(back, pa.parse_tree.data, back_len) == 0)
				r->identity_ok++;
			else if (c == PGBIND_CONVERT_OK && declared_losses(r->up_t, back, back_len, &pa, &lost)) {
				r->identity_lossy++;
				for (int i = 0; i < lost.n; i++)
					count_add(&r->losses, lost.keys[i], example);
			} else {
				r->identity_fail++;
				fprintf(stderr, "FAIL: up then down is not the identity (%s) on %s\n",
						c == PGBIND_CONVERT_OK ? "bytes differ" : err.message, example);
			}
			free(lost.keys);
			free(back);
		}
		free(up);
		if (r->bench && b_ok && strncmp(label, "debian", 6) == 0) {
			if (r->n_bench == r->cap_bench) {
				r->cap_bench = r->cap_bench ? r->cap_bench * 2 : 1024;
				r->bench_sql = realloc(r->bench_sql, (size_t)r->cap_bench * sizeof *r->bench_sql);
				r->bench_pb = realloc(r->bench_pb, (size_t)r->cap_bench * sizeof *r->bench_pb);
				r->bench_len = realloc(r->bench_len, (size_t)r->cap_bench * sizeof *r->bench_len);
				if (!r->bench_sql || !r->bench_pb || !r->bench_len)
					abort();
			}
			r->bench_sql[r->n_bench] = strdup(sql);
			r->bench_pb[r->n_bench] = malloc(pa.parse_tree.len);
			memcpy(r->bench_pb[r->n_bench], pa.parse_tree.data, pa.parse_tree.len);
			r->bench_len[r->n_bench++] = pa.parse_tree.len;
		}
		if (r->n_sample < 400 && pa.parse_tree.len > 8) {
			r->sample[r->n_sample] = malloc(pa.parse_tree.len);
			memcpy(r->sample[r->n_sample], pa.parse_tree.data, pa.parse_tree.len);
			r->sample_len[r->n_sample++] = pa.parse_tree.len;
		}
	}
	if (b_ok) {
		uint8_t *down = NULL;
		size_t down_len;
		pgbind_ConvertCode c =
			pgbind_convert_protobuf(r->newer->major, r->older->major, (const uint8_t *)pb.parse_tree.data,
									pb.parse_tree.len, &down, &down_len, &err);
		if (c != PGBIND_CONVERT_OK) {
			error_key(err.message, key, sizeof key);
			count_add(&r->down_errors, key, example);
		} else {
			r->down_ok++;
			if (a_ok) {
				if (down_len == pa.parse_tree.len && memcmp(down, pa.parse_tree.data, down_len) == 0)
					r->down_equal++;
				else {
					r->down_differ++;
					wd_Keys keys = {0};
					wd_diff(r->up_t, r->up_t->root, down, down_len, (const uint8_t *)pa.parse_tree.data,
							pa.parse_tree.len, &keys);
					for (int i = 0; i < keys.n; i++)
						count_add(&r->down_diffs, keys.keys[i], example);
					free(keys.keys);
				}
			}
		}
		free(down);
	}
	r->older->free_result(pa);
	r->newer->free_result(pb);
}

static bool corpus(Run *r, const char *label, const char *root, const char *list)
{
	char *names = majors_read_file(list);
	if (!names) {
		fprintf(stderr, "FAIL: cannot read %s\n", list);
		return false;
	}
	for (char *line = strtok(names, "\n"); line; line = strtok(NULL, "\n")) {
		if (!*line || *line == '#')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", root, line);
		char *text = majors_read_file(path);
		if (!text) {
			fprintf(stderr, "FAIL: cannot read %s (listed in %s)\n", path, list);
			free(names);
			return false;
		}
		r->files++;
		PgQuerySplitResult s = r->newer->split(text);
		if (s.error)
			; /* the whole file only, below */
		else
			for (int i = 0; i < s.n_stmts; i++) {
				char *sql = strndup(text + s.stmts[i]->stmt_location, (size_t)s.stmts[i]->stmt_len);
				statement(r, label, line, first_token(sql));
				free(sql);
			}
		r->newer->free_split(s);
		statement(r, label, line, text);
		free(text);
	}
	free(names);
	return true;
}

static void write_counts(FILE *f, const char *title, Counts *c)
{
	if (c->n)
		qsort(c->v, (size_t)c->n, sizeof *c->v, by_count);
	fprintf(f, "\n%s\n\n", title);
	if (!c->n) {
		fprintf(f, "None.\n");
		return;
	}
	fprintf(f, "| difference | statements | first |\n|---|---:|---|\n");
	for (int i = 0; i < c->n; i++)
		fprintf(f, "| `%s` | %d | %s |\n", c->v[i].key, c->v[i].count, c->v[i].example);
}

static void write_doc(Run *r, FILE *f, char **labels, int n_labels)
{
	int a = r->older->major, b = r->newer->major;
	fprintf(f, "# PostgreSQL %d and %d: converted trees against each major's own parse\n\n", a, b);
	fprintf(f, "Generated by tests/convert/convert_test.c (`make convert-doc`; `make check PARTS=convert` fails when\n"
			   "it is stale): do not edit. docs/convert.md says what is converted and how.\n\n");
	fprintf(f, "Corpora:");
	for (int i = 0; i < n_labels; i++)
		fprintf(f, "%s %s", i ? "," : "", labels[i]);
	fprintf(f,
			" (%ld files: each whole and each of its statements as %d's scanner splits them, from its\n"
			"first token: %ld inputs).\n\n",
			r->files, b, r->statements);
	fprintf(f, "| | inputs |\n|---|---:|\n");
	fprintf(f, "| parsed by %d | %ld |\n| parsed by %d | %ld |\n| parsed by both | %ld |\n", a, r->parsed_older, b,
			r->parsed_newer, r->parsed_both);
	fprintf(f, "| %d's converted up to %d | %ld |\n| ... equal to %d's own parse, byte for byte | %ld |\n", a, b,
			r->up_ok, b, r->up_equal);
	fprintf(f, "| ... different (below) | %ld |\n", r->up_differ);
	fprintf(f,
			"| ... of them different only in fields %d has and %d has not (locations, flags), or in the location of "
			"an option %d does not record | %ld |\n",
			b, a, a, r->up_only_newer);
	fprintf(f, "| %d's up then down equal to %d's own, byte for byte | %ld of %ld |\n", a, a, r->identity_ok, r->up_ok);
	fprintf(f, "| ... equal but for fields declared dropped (below) | %ld |\n", r->identity_lossy);
	fprintf(f, "| %d's converted down to %d | %ld |\n| ... equal to %d's own parse, byte for byte | %ld |\n", b, a,
			r->down_ok, a, r->down_equal);
	fprintf(f, "| ... different (below) | %ld |\n", r->down_differ);
	fprintf(f, "\nA statement with several differences counts under each; `first` is the first statement that\n"
			   "shows it (corpus, file, text).\n");
	char title[200];
	snprintf(title, sizeof title, "## Up (%d to %d): where the converted tree differs from %d's parse", a, b, b);
	write_counts(f, title, &r->up_diffs);
	snprintf(title, sizeof title, "## Up then down (%d to %d to %d): values lost, as declared (dropped:)", a, b, a);
	write_counts(f, title, &r->losses);
	snprintf(title, sizeof title, "## Up (%d to %d): statements with no form in %d", a, b, b);
	write_counts(f, title, &r->up_errors);
	snprintf(title, sizeof title, "## Down (%d to %d): statements with no form in %d", b, a, a);
	write_counts(f, title, &r->down_errors);
	snprintf(title, sizeof title, "## Down (%d to %d): where the converted tree differs from %d's parse", b, a, a);
	write_counts(f, title, &r->down_diffs);
}

/* ---- malformed input ---------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static long tried[6];

static void try_convert(int from, int to, const uint8_t *p, size_t n)
{
	uint8_t *out = NULL;
	size_t out_len;
	pgbind_ConvertError err;
	pgbind_ConvertCode c = pgbind_convert_protobuf(from, to, p, n, &out, &out_len, &err);
	if (c > PGBIND_CONVERT_NO_PAIR || (c != PGBIND_CONVERT_OK && (out || !err.message[0]))) {
		fprintf(stderr, "FAIL: code %d without its error\n", c);
		exit(1);
	}
	tried[c]++;
	free(out);
}

static bool fuzz(Run *r)
{
	int a = r->older->major, b = r->newer->major;
	for (int i = 0; i < r->n_sample; i++) {
		const uint8_t *p = r->sample[i];
		size_t n = r->sample_len[i];
		for (size_t cut = 0; cut < n; cut += 1 + n / 24)
			try_convert(a, b, p, cut);
		uint8_t *m = malloc(n);
		for (int k = 0; k < 24; k++) {
			memcpy(m, p, n);
			for (int j = 0; j < 1 + k % 3; j++)
				m[rng() % n] ^= (uint8_t)(1u << (rng() % 8));
			try_convert(a, b, m, n);
			try_convert(b, a, m, n);
		}
		for (size_t j = 0; j < n; j++)
			m[j] = (uint8_t)rng();
		try_convert(a, b, m, n);
		free(m);
	}
	printf("fuzz %d<->%d: %ld ok, %ld malformed, %ld no form, %ld too deep\n", a, b, tried[0], tried[1], tried[2],
		   tried[3]);
	return tried[PGBIND_CONVERT_MALFORMED] > 0;
}

/* Malformed encodings of a ParseResult (version = 1, stmts = 2, RawStmt.stmt_location = 2): each
 * must be PGBIND_CONVERT_MALFORMED with exactly this message and offset. */
static bool malformed_messages(int from, int to)
{
	static const struct {
		uint8_t bytes[8];
		size_t len;
		const char *message;
		size_t offset;
	} cases[] = {
		{{0x08}, 1, "ParseResult.version: a truncated varint at offset 0", 0},
		{{0x08, 0x80, 0x80}, 3, "ParseResult.version: a truncated varint at offset 0", 0},
		{{0x08, 0x01, 0x12, 0x05, 0x10}, 5, "ParseResult.stmts: a length past the end of its message at offset 2", 2},
		{{0xf8, 0x07, 0x01}, 3, "ParseResult: no field 127 (wire type 0) at offset 0", 0},
		{{0x0a, 0x00}, 2, "ParseResult.version: wire type 2 where the proto says 0, at offset 0", 0},
		{{0x08, 0x01, 0x08, 0x02}, 4, "ParseResult.version: given twice, at offset 2", 2},
		{{0x12, 0x02, 0x10, 0x80}, 4, "RawStmt.stmt_location: a truncated varint at offset 2", 2},
		{{0x12, 0x01, 0x0b}, 3, "RawStmt.stmt: wire type 3 where the proto says 2, at offset 2", 2},
		{{0x12, 0x01, 0x7b}, 3, "RawStmt: no field 15 (wire type 3) at offset 2", 2},
		{{0x80}, 1, "ParseResult: a truncated field key at offset 0", 0},
	};
	bool ok = true;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint8_t *out = NULL;
		size_t n;
		pgbind_ConvertError err;
		pgbind_ConvertCode c = pgbind_convert_protobuf(from, to, cases[i].bytes, cases[i].len, &out, &n, &err);
		if (c != PGBIND_CONVERT_MALFORMED || strcmp(err.message, cases[i].message) != 0 ||
			err.offset != cases[i].offset || out) {
			fprintf(stderr, "FAIL: malformed case %zu: code %d, \"%s\" at %zu; expected \"%s\" at %zu\n", i, c,
					err.message, err.offset, cases[i].message, cases[i].offset);
			ok = false;
		}
		free(out);
	}
	return ok;
}

/* ParseResult{stmts: RawStmt{stmt: Node{a_expr: A_Expr{lexpr: Node{...}}}}}, `depth` A_Exprs deep. */
static int field_number(const cv_Table *t, const char *msg, const char *field)
{
	for (uint32_t i = 0; i < t->n_messages; i++)
		if (strcmp(t->messages[i].name, msg) == 0)
			for (int k = 0; k < t->messages[i].n_proto; k++)
				if (strcmp(t->messages[i].fields[k].name, field) == 0)
					return (int)t->messages[i].fields[k].number;
	return -1;
}

static size_t wrap(uint8_t *buf, size_t len, size_t cap, int number)
{
	uint8_t head[16];
	size_t h = 0;
	uint64_t values[2] = {(uint64_t)number << 3 | 2, len}; /* the tag, the length: varints */
	for (int k = 0; k < 2; k++)
		for (uint64_t v = values[k];; v >>= 7) {
			head[h++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
			if (v < 0x80)
				break;
		}
	if (len + h > cap)
		abort();
	memmove(buf + h, buf, len);
	memcpy(buf, head, h);
	return len + h;
}

static pgbind_ConvertCode nested(const cv_Table *t, int depth)
{
	int a_expr = field_number(t, "Node", "a_expr"), lexpr = field_number(t, "A_Expr", "lexpr");
	int stmt = field_number(t, "RawStmt", "stmt"), stmts = field_number(t, "ParseResult", "stmts");
	size_t cap = (size_t)depth * 12 + 64, len = 0;
	uint8_t *buf = calloc(1, cap);
	for (int i = 0; i < depth; i++) {
		if (i)
			len = wrap(buf, len, cap, lexpr);
		len = wrap(buf, len, cap, a_expr);
	}
	len = wrap(buf, len, cap, stmt);
	len = wrap(buf, len, cap, stmts);
	uint8_t *out = NULL;
	size_t out_len;
	pgbind_ConvertError err;
	pgbind_ConvertCode c = pgbind_convert_protobuf(t->from_major, t->to_major, buf, len, &out, &out_len, &err);
	free(out);
	free(buf);
	return c;
}

/* --bench ROUNDS: the Debian corpora's statements both majors parse, each round parsed by both
 * majors (pg_query_parse_protobuf) and converted both ways; the fastest round of each. */
static void bench(Run *r, int rounds)
{
	double best[4] = {1e30, 1e30, 1e30, 1e30}; /* parse A, parse B, up, down */
	uint8_t **up = calloc((size_t)r->n_bench, sizeof *up);
	size_t *up_len = calloc((size_t)r->n_bench, sizeof *up_len);
	for (int round = 0; round < rounds; round++) {
		double t[5];
		t[0] = now();
		for (long i = 0; i < r->n_bench; i++)
			r->older->free_result(r->older->parse(r->bench_sql[i]));
		t[1] = now();
		for (long i = 0; i < r->n_bench; i++)
			r->newer->free_result(r->newer->parse(r->bench_sql[i]));
		t[2] = now();
		for (long i = 0; i < r->n_bench; i++) {
			free(up[i]);
			up[i] = NULL;
			pgbind_convert_protobuf(r->older->major, r->newer->major, r->bench_pb[i], r->bench_len[i], &up[i],
									&up_len[i], NULL);
		}
		t[3] = now();
		for (long i = 0; i < r->n_bench; i++) {
			uint8_t *down = NULL;
			size_t n;
			if (up[i])
				pgbind_convert_protobuf(r->newer->major, r->older->major, up[i], up_len[i], &down, &n, NULL);
			free(down);
		}
		t[4] = now();
		for (int k = 0; k < 4; k++)
			if (t[k + 1] - t[k] < best[k])
				best[k] = t[k + 1] - t[k];
	}
	double n = (double)r->n_bench;
	printf("bench, the Debian corpora's %ld statements both parse, fastest of %d rounds, per statement:\n"
		   "  %d pg_query_parse_protobuf %.1f us, %d %.1f us; up %.2f us (%.1f%% of %d's parse), down %.2f us\n",
		   r->n_bench, rounds, r->older->major, best[0] / n * 1e6, r->newer->major, best[1] / n * 1e6,
		   best[2] / n * 1e6, 100 * best[2] / best[1], r->newer->major, best[3] / n * 1e6);
	for (long i = 0; i < r->n_bench; i++) {
		free(up[i]);
		free(r->bench_sql[i]);
		free(r->bench_pb[i]);
	}
	free(up);
	free(up_len);
}

/* --show: what converting each major's parse of sql to the other gives. */
static int show(const Run *r, const char *sql)
{
	const Major *from[2] = {r->older, r->newer}, *to[2] = {r->newer, r->older};
	for (int i = 0; i < 2; i++) {
		PgQueryProtobufParseResult p = from[i]->parse(sql);
		if (p.error)
			printf("%d: %s\n", from[i]->major, p.error->message);
		else {
			uint8_t *out = NULL;
			size_t n;
			pgbind_ConvertError err;
			pgbind_ConvertCode c = pgbind_convert_protobuf(
				from[i]->major, to[i]->major, (const uint8_t *)p.parse_tree.data, p.parse_tree.len, &out, &n, &err);
			PgQueryProtobufParseResult q = to[i]->parse(sql);
			if (c)
				printf("%d to %d: error %d: %s (at byte %zu)\n", from[i]->major, to[i]->major, c, err.message,
					   err.offset);
			else if (q.error)
				printf("%d to %d: %zu bytes (%d does not parse it)\n", from[i]->major, to[i]->major, n, to[i]->major);
			else if (n == q.parse_tree.len && memcmp(out, q.parse_tree.data, n) == 0)
				printf("%d to %d: %zu bytes, equal to %d's own parse\n", from[i]->major, to[i]->major, n, to[i]->major);
			else {
				/* the fields it differs in, by the output proto (the other direction's input) */
				wd_Keys keys = {0};
				const cv_Table *t = i == 0 ? r->down_t : r->up_t;
				wd_diff(t, t->root, out, n, (const uint8_t *)q.parse_tree.data, q.parse_tree.len, &keys);
				printf("%d to %d: %zu bytes, not %d's own parse: it differs in", from[i]->major, to[i]->major, n,
					   to[i]->major);
				for (int k = 0; k < keys.n; k++)
					printf("%s %s", k ? "," : "", keys.keys[k]);
				printf("\n");
				free(keys.keys);
			}
			to[i]->free_result(q);
			free(out);
		}
		from[i]->free_result(p);
	}
	return 0;
}

/* Statements whose conversion is checked exactly, for the pair whose older major is `older`
 * (schema/majors.txt's option: line on GrantRoleStmt.admin_opt, 15 against 18). Up: the older
 * major's parse converted, against the newer major's own: the fields it differs in ("" for byte for
 * byte equal; NULL: the older major does not parse it). Down: the newer major's parse converted,
 * equal to the older major's parse of down_as (NULL: the statement itself), or, down_error set, the
 * error PGBIND_CONVERT_NO_FORM with exactly that message. */
static const struct {
	int older;
	const char *sql, *up, *down_as, *down_error;
} exact_cases[] = {
	/* 15 records no location for the option (up: -1, as its arg_location: schema/majors.txt's default) */
	{15, "GRANT admin TO bob WITH ADMIN OPTION", "DefElem.location of option GrantRoleStmt.admin_opt (15 records none)",
	 NULL, NULL},
	{15, "GRANT admin, dev TO bob, alice WITH ADMIN OPTION GRANTED BY CURRENT_USER",
	 "DefElem.location of option GrantRoleStmt.admin_opt (15 records none)", NULL, NULL},
	{15, "REVOKE ADMIN OPTION FOR admin FROM bob CASCADE",
	 "DefElem.location of option GrantRoleStmt.admin_opt (15 records none)", NULL, NULL},
	{15, "GRANT admin TO bob", "", NULL, NULL},
	{15, "REVOKE admin FROM bob", "", NULL, NULL},
	/* 16's spellings: ADMIN TRUE is ADMIN OPTION's tree; the others have no form in 15 */
	{15, "GRANT admin TO bob WITH ADMIN TRUE", NULL, "GRANT admin TO bob WITH ADMIN OPTION", NULL},
	{15, "GRANT admin TO bob WITH ADMIN FALSE", NULL, NULL, "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15"},
	{15, "GRANT admin TO bob WITH INHERIT TRUE", NULL, NULL, "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15"},
	{15, "GRANT admin TO bob WITH SET FALSE", NULL, NULL, "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15"},
	{15, "GRANT admin TO bob WITH ADMIN OPTION, INHERIT FALSE", NULL, NULL,
	 "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15"},
	{15, "GRANT admin TO bob WITH INHERIT TRUE, ADMIN OPTION", NULL, NULL,
	 "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15"},
	/* 17 has opt itself: copied both ways (arg_location up: -1, as 18's makeDefElem writes it) */
	{17, "GRANT admin TO bob WITH ADMIN OPTION", "", NULL, NULL},
	{17, "GRANT admin TO bob WITH INHERIT TRUE, SET FALSE", "", NULL, NULL},
};

/* One direction of an exact case: what converting parse p from `from` to `to` gives, against
 * want (the `to` major's parse); the differing fields or the error into got. */
static pgbind_ConvertCode convert_against(const Run *r, const Major *from, const Major *to,
										  const PgQueryProtobufParseResult *p, const PgQueryProtobufParseResult *want,
										  char *got, size_t n)
{
	uint8_t *out = NULL;
	size_t len;
	pgbind_ConvertError err;
	pgbind_ConvertCode c = pgbind_convert_protobuf(from->major, to->major, (const uint8_t *)p->parse_tree.data,
												   p->parse_tree.len, &out, &len, &err);
	if (c != PGBIND_CONVERT_OK)
		snprintf(got, n, "%s", err.message);
	else if (want->error)
		snprintf(got, n, "(%d does not parse it)", to->major);
	else {
		wd_Keys keys = {0};
		const cv_Table *t = to == r->newer ? r->down_t : r->up_t; /* the output proto's description */
		wd_diff(t, t->root, out, len, (const uint8_t *)want->parse_tree.data, want->parse_tree.len, &keys);
		got[0] = '\0';
		for (int k = 0; k < keys.n; k++)
			snprintf(got + strlen(got), n - strlen(got), "%s%s", k ? ", " : "", keys.keys[k]);
		if (!keys.n && (len != want->parse_tree.len || memcmp(out, want->parse_tree.data, len) != 0))
			snprintf(got, n, "(bytes differ, no field does)");
		free(keys.keys);
	}
	free(out);
	return c;
}

/* A protobuf field appended to b (at most cap bytes): a varint, or bytes with their length. */
static void pb_put(uint8_t *b, size_t *len, size_t cap, int number, int wire, uint64_t v, const void *data)
{
	uint64_t parts[2] = {(uint64_t)number << 3 | (uint64_t)wire, v};
	for (int k = 0; k < 2; k++)
		for (uint64_t x = parts[k];; x >>= 7) {
			if (*len >= cap)
				abort();
			b[(*len)++] = (uint8_t)((x & 0x7f) | (x >= 0x80 ? 0x80 : 0));
			if (x < 0x80)
				break;
		}
	if (wire == 2) {
		if (*len + v > cap)
			abort();
		memcpy(b + *len, data, (size_t)v);
		*len += (size_t)v;
	}
}

/* 18's GRANT r TO u WITH ADMIN OPTION made by hand, its DefElem varied: down, only the option's
 * own DefElem (any location) is 15's admin_opt; a namespace, a field given twice, another
 * defaction have no form. The field numbers are the table's (18's proto). */
static int hand_made(const Run *r)
{
	const cv_Table *t = r->down_t;
	if (r->older->major > 15)
		return 0;
	static const struct {
		const char *what;
		bool namespace_, twice, no_location;
		int defaction;
		pgbind_ConvertCode want;
	} cases[] = {
		{"as 18 parses it", false, false, false, 1, PGBIND_CONVERT_OK},
		{"without its location", false, false, true, 1, PGBIND_CONVERT_OK},
		{"with a defnamespace", true, false, false, 1, PGBIND_CONVERT_NO_FORM},
		{"with its defname twice", false, true, false, 1, PGBIND_CONVERT_NO_FORM},
		{"with DEFELEM_SET", false, false, false, 2, PGBIND_CONVERT_NO_FORM},
	};
	int failed = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint8_t boolean[16], arg[32], def[96], node[128], grant[160], stmt[192], raw[224], top[256];
		size_t nb = 0, na = 0, nd = 0, nn = 0, ng = 0, ns = 0, nr = 0, nt = 0;
		pb_put(boolean, &nb, sizeof boolean, field_number(t, "Boolean", "boolval"), 0, 1, NULL);
		pb_put(arg, &na, sizeof arg, field_number(t, "Node", "boolean"), 2, nb, boolean);
		if (cases[i].namespace_)
			pb_put(def, &nd, sizeof def, field_number(t, "DefElem", "defnamespace"), 2, 3, "pg_");
		for (int k = 0; k < (cases[i].twice ? 2 : 1); k++)
			pb_put(def, &nd, sizeof def, field_number(t, "DefElem", "defname"), 2, 5, "admin");
		pb_put(def, &nd, sizeof def, field_number(t, "DefElem", "arg"), 2, na, arg);
		pb_put(def, &nd, sizeof def, field_number(t, "DefElem", "defaction"), 0, (uint64_t)cases[i].defaction, NULL);
		if (!cases[i].no_location)
			pb_put(def, &nd, sizeof def, field_number(t, "DefElem", "location"), 0, 24, NULL);
		pb_put(node, &nn, sizeof node, field_number(t, "Node", "def_elem"), 2, nd, def);
		pb_put(grant, &ng, sizeof grant, field_number(t, "GrantRoleStmt", "is_grant"), 0, 1, NULL);
		pb_put(grant, &ng, sizeof grant, field_number(t, "GrantRoleStmt", "opt"), 2, nn, node);
		pb_put(stmt, &ns, sizeof stmt, field_number(t, "Node", "grant_role_stmt"), 2, ng, grant);
		pb_put(raw, &nr, sizeof raw, field_number(t, "RawStmt", "stmt"), 2, ns, stmt);
		pb_put(top, &nt, sizeof top, field_number(t, "ParseResult", "stmts"), 2, nr, raw);
		uint8_t *out = NULL;
		size_t n;
		pgbind_ConvertError err;
		pgbind_ConvertCode c = pgbind_convert_protobuf(t->from_major, t->to_major, top, nt, &out, &n, &err);
		/* converted: 15's GrantRoleStmt{is_grant: true, admin_opt: true}, nothing else */
		int is_grant = field_number(r->up_t, "GrantRoleStmt", "is_grant");
		int admin_opt = field_number(r->up_t, "GrantRoleStmt", "admin_opt");
		uint8_t want[4] = {(uint8_t)(is_grant << 3), 1, (uint8_t)(admin_opt << 3), 1};
		bool ok = c == cases[i].want;
		if (ok && c == PGBIND_CONVERT_OK)
			ok = n >= 4 && memcmp(out + n - 4, want, 4) == 0;
		else if (ok)
			ok = strcmp(err.message, "stmts[0].stmt.GrantRoleStmt.opt (18) has no form in 15") == 0;
		if (!ok) {
			fprintf(stderr, "FAIL: a hand-made GrantRoleStmt %s: code %d (%s), expected %d\n", cases[i].what, c,
					c ? err.message : "converted", cases[i].want);
			failed++;
		}
		free(out);
	}
	printf("hand-made 18 trees of GRANT's admin option, down: %zu checked, %d failed\n", sizeof cases / sizeof *cases,
		   failed);
	return failed;
}

static bool exact(const Run *r)
{
	int n = 0, failed = 0;
	for (size_t i = 0; i < sizeof exact_cases / sizeof *exact_cases; i++) {
		if (exact_cases[i].older != r->older->major)
			continue;
		const char *sql = exact_cases[i].sql;
		PgQueryProtobufParseResult pa = r->older->parse(sql), pb = r->newer->parse(sql);
		PgQueryProtobufParseResult pd = r->older->parse(exact_cases[i].down_as ? exact_cases[i].down_as : sql);
		char got[512];
		n++;
		if (pb.error) {
			fprintf(stderr, "FAIL: exact case %s: %d does not parse it\n", sql, r->newer->major);
			failed++;
		} else if (!exact_cases[i].up != (pa.error != NULL)) {
			fprintf(stderr, "FAIL: exact case %s: %d %s it\n", sql, r->older->major,
					pa.error ? "does not parse" : "parses");
			failed++;
		} else if (exact_cases[i].up && (convert_against(r, r->older, r->newer, &pa, &pb, got, sizeof got) ||
										 strcmp(got, exact_cases[i].up) != 0)) {
			fprintf(stderr, "FAIL: exact case %s: up gives \"%s\", expected \"%s\"\n", sql, got, exact_cases[i].up);
			failed++;
		} else {
			const char *want = exact_cases[i].down_error ? exact_cases[i].down_error : "";
			pgbind_ConvertCode c = convert_against(r, r->newer, r->older, &pb, &pd, got, sizeof got);
			pgbind_ConvertCode want_c = exact_cases[i].down_error ? PGBIND_CONVERT_NO_FORM : PGBIND_CONVERT_OK;
			if (c != want_c || strcmp(got, want) != 0) {
				fprintf(stderr, "FAIL: exact case %s: down gives code %d \"%s\", expected %d \"%s\"\n", sql, c, got,
						want_c, want);
				failed++;
			}
		}
		r->older->free_result(pa);
		r->older->free_result(pd);
		r->newer->free_result(pb);
	}
	printf("exact cases %d<->%d: %d checked, %d failed\n", r->older->major, r->newer->major, n, failed);
	failed += hand_made(r);
	return failed == 0;
}

typedef struct {
	const cv_Table *t;
	int depth;
	pgbind_ConvertCode code;
} Deep;

static void *deep_thread(void *arg)
{
	Deep *d = arg;
	d->code = nested(d->t, d->depth);
	return NULL;
}

/* The deepest input the bound lets through, on a thread of 1 MiB of stack (pgbind_convert.h's
 * promise, for an optimized build; a sanitizer's frames are larger: the default stack there). */
static pgbind_ConvertCode deepest_on_small_stack(const Run *r, int depth)
{
	Deep d = {r->up_t, depth, PGBIND_CONVERT_NO_PAIR};
	pthread_attr_t attr;
	pthread_t th;
	pthread_attr_init(&attr);
#ifndef __SANITIZE_ADDRESS__
	pthread_attr_setstacksize(&attr, 1 << 20);
#endif
	if (pthread_create(&th, &attr, deep_thread, &d) != 0 || pthread_join(th, NULL) != 0)
		d.code = PGBIND_CONVERT_NO_PAIR;
	pthread_attr_destroy(&attr);
	return d.code;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s OLDER NEWER DOC.md FRESH.md [--write] --corpus LABEL ROOT LIST ...\n", argv[0]);
		return 2;
	}
	Run r = {0};
	r.older = major(atoi(argv[1]));
	r.newer = major(atoi(argv[2]));
	if (!r.older || !r.newer) {
		fprintf(stderr, "FAIL: major %s or %s not linked in\n", argv[1], argv[2]);
		return 2;
	}
	r.up_t = table(r.older->major, r.newer->major);
	r.down_t = table(r.newer->major, r.older->major);
	if (!r.up_t || !r.down_t) {
		fprintf(stderr, "FAIL: no tables for %d and %d\n", r.older->major, r.newer->major);
		return 2;
	}
	if (strcmp(argv[3], "--show") == 0)
		return show(&r, argv[4]);
	const char *doc = argv[3], *fresh = argv[4];
	bool write = false;
	int bench_rounds = 0;
	const char *seeds = NULL; /* --seeds DIR: the sample of the older major's encodings, a file each */
	char *labels[16];
	int n_labels = 0;
	r.sample = calloc(400, sizeof *r.sample);
	r.sample_len = calloc(400, sizeof *r.sample_len);
	bool ok = true;
	/* the options first (they may follow the corpora: the run scripts append theirs), then the corpora */
	for (int i = 5; i < argc; i++) {
		if (strcmp(argv[i], "--write") == 0)
			write = true;
		else if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc) {
			bench_rounds = atoi(argv[++i]);
			r.bench = bench_rounds > 0;
		} else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
			seeds = argv[++i];
		else if (strcmp(argv[i], "--corpus") == 0 && i + 3 < argc)
			i += 3;
		else {
			fprintf(stderr, "FAIL: unexpected argument %s\n", argv[i]);
			return 2;
		}
	}
	for (int i = 5; i < argc && ok; i++)
		if (strcmp(argv[i], "--corpus") == 0 && n_labels < 16) {
			labels[n_labels++] = argv[i + 1];
			ok = corpus(&r, argv[i + 1], argv[i + 2], argv[i + 3]);
			i += 3;
		} else if (strcmp(argv[i], "--bench") == 0 || strcmp(argv[i], "--seeds") == 0)
			i++;
	if (!ok)
		return 1;
	int a = r.older->major, b = r.newer->major;
	printf("%d<->%d: %ld statements, both parse %ld; up %ld equal, %ld differ; identity %ld of %ld; down %ld equal, "
		   "%ld differ, %ld no form\n",
		   a, b, r.statements, r.parsed_both, r.up_equal, r.up_differ, r.identity_ok, r.up_ok, r.down_equal,
		   r.down_differ, r.parsed_newer - r.down_ok);
	if (r.n_timed)
		printf("time per statement (%ld both parse): %d's parse_protobuf %.1f us, conversion up %.2f us (%.1f%%)\n",
			   r.n_timed, b, r.t_parse / (double)r.n_timed * 1e6, r.t_up / (double)r.n_timed * 1e6,
			   100.0 * r.t_up / r.t_parse);
	if (r.bench)
		bench(&r, bench_rounds);
	if (r.statements < 100 || r.parsed_both < 100) {
		fprintf(stderr, "FAIL: too few statements (%ld, %ld both parse): a corpus is missing\n", r.statements,
				r.parsed_both);
		ok = false;
	}
	if (r.identity_fail) {
		fprintf(stderr, "FAIL: up then down differs on %ld statements\n", r.identity_fail);
		ok = false;
	}
	if (!malformed_messages(a, b) || !malformed_messages(b, a) || !exact(&r))
		ok = false;
	if (!fuzz(&r)) {
		fprintf(stderr, "FAIL: no mutated input was found malformed\n");
		ok = false;
	}
	/* k A_Exprs put the deepest at depth 2k + 1 (ParseResult 0, RawStmt 1): the bound exactly */
	int k = (PGBIND_CONVERT_MAX_DEPTH - 1) / 2;
	pgbind_ConvertCode deep = nested(r.up_t, k + 1), deepest = deepest_on_small_stack(&r, k);
	if (deep != PGBIND_CONVERT_TOO_DEEP || deepest != PGBIND_CONVERT_OK) {
		fprintf(stderr, "FAIL: %d nested A_Exprs gave %d (expected TOO_DEEP), %d gave %d (expected OK)\n", k + 1, deep,
				k, deepest);
		ok = false;
	}
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	write_doc(&r, mem, labels, n_labels);
	fclose(mem);
	FILE *f = fopen(fresh, "w");
	if (!f || fwrite(text, 1, text_len, f) != text_len || fclose(f) != 0) {
		fprintf(stderr, "FAIL: cannot write %s\n", fresh);
		return 1;
	}
	if (write) {
		f = fopen(doc, "w");
		if (!f || fwrite(text, 1, text_len, f) != text_len || fclose(f) != 0) {
			fprintf(stderr, "FAIL: cannot write %s\n", doc);
			return 1;
		}
		printf("wrote %s\n", doc);
	} else {
		char *old = majors_read_file(doc);
		if (!old || strcmp(old, text) != 0) {
			fprintf(stderr, "FAIL: %s is stale: the measurement differs (now in %s; make convert-doc)\n", doc, fresh);
			ok = false;
		}
		free(old);
	}
	free(text);
	for (int i = 0; seeds && i < r.n_sample; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/pg%d-%03d.pb", seeds, a, i);
		FILE *sf = fopen(path, "wb");
		if (!sf || fwrite(r.sample[i], 1, r.sample_len[i], sf) != r.sample_len[i] || fclose(sf) != 0) {
			fprintf(stderr, "FAIL: cannot write %s\n", path);
			ok = false;
			break;
		}
	}
	for (int i = 0; i < r.n_sample; i++)
		free(r.sample[i]);
	free(r.sample);
	free(r.sample_len);
	Counts *all[] = {&r.up_errors, &r.up_diffs, &r.down_errors, &r.down_diffs, &r.losses};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		free(all[i]->v);
	if (ok)
		printf("convert %d<->%d: all checks passed\n", a, b);
	return ok ? 0 : 1;
}
