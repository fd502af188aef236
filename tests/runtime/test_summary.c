/*
 * test_summary.c -- pgbind_summary and pgbind_truncate against libpg_query 18's pg_query_summary,
 * on any major: tests/runtime/summary_cases.txt holds statements whose summary does not depend on
 * the major, each with the protobuf libpg_query 18 returned for it (written by
 * tests/runtime/summary_oracle.c, not by pgbind). Each must encode to those bytes (alias entries
 * compared as a set: libpg_query writes them in a random order), or fail where it failed. Then the
 * C view of one statement field by field, the argument errors, an incomplete last character
 * (PostgreSQL's encoding error), and that the tree is not written.
 *
 *   test_summary [CASES]   (default tests/runtime/summary_cases.txt)
 */
#include "../check.h"
#include "cli.h"
#include "pgbind.h"

#include <stdint.h>

static size_t unhex(const char *hex, uint8_t *out)
{
	size_t n = 0;
	for (; hex[0] && hex[1]; hex += 2) {
		unsigned v;
		sscanf(hex, "%2x", &v);
		out[n++] = (uint8_t)v;
	}
	return n;
}

/* One case, from pgbind's tree (pgbind_summary) or from the SQL (pgbind_summary_sql, on
 * PostgreSQL's tree): where names it in a failure; hex is libpg_query's bytes, or ERROR. */
static void check_route(const char *where, bool from_sql, int limit, const char *sql, const char *hex)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = from_sql ? NULL : pgbind_parse(sql, NULL, arena, &status);
	pgbind_Summary *s = from_sql ? pgbind_summary_sql(sql, limit, NULL, arena, &status)
						: tree   ? pgbind_summary(tree, limit, NULL, arena, &status)
								 : NULL;
	const uint8_t *data = NULL;
	size_t len = 0;
	bool ours = s && pgbind_summary_encode(s, arena, &data, &len, &status);
	bool theirs = strcmp(hex, "ERROR") != 0;
	uint8_t *want = xmalloc(strlen(hex) / 2 + 1);
	size_t want_len = theirs ? unhex(hex, want) : 0;
	bool same = ours == theirs && (!ours || cli_summary_bytes_equal(data, len, want, want_len));
	CHECK(same, "%s (%s, truncate %d) %s\n      pgbind:      %s\n      libpg_query: %s", where,
		  from_sql ? "pgbind_summary_sql" : "pgbind_summary", limit, sql,
		  ours ? "answered (bytes below)" : status.message, hex);
	if (!same && ours) {
		char a[2048];
		cli_summary_show(a, sizeof a, data, len);
		printf("      pgbind bytes: %s\n", a);
		cli_summary_show(a, sizeof a, want, want_len);
		printf("      their bytes:  %s\n", a);
	}
	free(want);
	pgbind_Arena_Free(arena);
}

static void check_case(const char *where, int limit, const char *sql, const char *hex)
{
	check_route(where, false, limit, sql, hex);
	check_route(where, true, limit, sql, hex);
}

static void check_cases(const char *path)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "cannot open %s", path);
	if (!f)
		return;
	static char line[65536];
	int line_no = 0, n = 0;
	while (fgets(line, sizeof line, f)) {
		line_no++;
		line[strcspn(line, "\n")] = '\0';
		char *sql = strchr(line, '\t'), *hex = sql ? strchr(sql + 1, '\t') : NULL;
		if (line[0] == '#' || !hex)
			continue;
		*sql++ = '\0';
		*hex++ = '\0';
		char where[64];
		snprintf(where, sizeof where, "summary_cases.txt:%d", line_no);
		check_case(where, atoi(line), sql, hex);
		n++;
	}
	fclose(f);
	printf("%d cases of %s\n", n, path);
	CHECK(n > 50, "too few cases in %s", path);
}

/* The C view of one statement, field by field (values from libpg_query 18's answer for it). */
static void check_view(void)
{
	const char *sql = "WITH c AS (SELECT 1) SELECT s.f(x.a) FROM \"S\".t x JOIN c ON true "
					  "WHERE x.b = 1 AND s.t.c = 2";
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	uint8_t *before = NULL;
	size_t before_len = 0;
	const uint8_t *bytes;
	if (pgbind_encode(tree, NULL, arena, &bytes, &before_len, &status)) {
		before = xmalloc(before_len);
		memcpy(before, bytes, before_len);
	}
	pgbind_Summary *s = pgbind_summary(tree, 20, NULL, arena, &status);
	CHECK(s != NULL, "pgbind_summary: %s", status.message);
	if (!s)
		return;
	CHECK_INT("tables", 1, s->n_tables);
	CHECK_STR("table name quoted", "\"S\".t", s->tables[0].name);
	CHECK_STR("schema", "S", s->tables[0].schema_name);
	CHECK_INT("context", PGBIND_SUMMARY_SELECT, s->tables[0].context);
	CHECK_INT("aliases", 1, s->n_aliases);
	CHECK_STR("alias", "x", s->aliases[0].key);
	CHECK_STR("alias value", "\"S\".t", s->aliases[0].value);
	CHECK_INT("cte names", 1, s->n_cte_names);
	CHECK_STR("cte name", "c", s->cte_names[0]);
	CHECK_INT("functions", 1, s->n_functions);
	CHECK_STR("function", "s.f", s->functions[0].name);
	CHECK_STR("function schema", "s", s->functions[0].schema_name);
	CHECK_INT("function context", PGBIND_SUMMARY_CALL, s->functions[0].context);
	CHECK_INT("filter columns", 2, s->n_filter_columns);
	CHECK(s->filter_columns[0].schema_name == NULL, "x.b has no schema");
	CHECK_STR("x.b's table", "x", s->filter_columns[0].table_name);
	CHECK_STR("s.t.c's schema", "s", s->filter_columns[1].schema_name);
	CHECK_STR("statement types", "SelectStmt", s->n_statement_types == 1 ? s->statement_types[0] : "");
	CHECK_STR("truncated", "WITH c AS (...) S...", s->truncated_query);
	const uint8_t *after;
	size_t after_len;
	CHECK(pgbind_encode(tree, NULL, arena, &after, &after_len, &status) && after_len == before_len &&
			  memcmp(after, before, before_len) == 0,
		  "the tree is as before (truncation works on a copy)");
	free(before);
	pgbind_Summary *none = pgbind_summary(tree, -1, NULL, arena, &status);
	CHECK(none && !none->truncated_query, "truncate -1: no truncated_query");
	CHECK(!pgbind_summary(tree, -2, NULL, arena, &status) && status.code == PGBIND_ERROR_ARGUMENT,
		  "truncate -2 is PGBIND_ERROR_ARGUMENT");
	CHECK(!pgbind_summary(NULL, -1, NULL, arena, &status) && status.code == PGBIND_ERROR_ARGUMENT,
		  "no tree is PGBIND_ERROR_ARGUMENT");
	CHECK(!pgbind_truncate(tree, -1, NULL, arena, &status) && status.code == PGBIND_ERROR_ARGUMENT,
		  "pgbind_truncate(-1) is PGBIND_ERROR_ARGUMENT");
	pgbind_Arena_Free(arena);
}

/* A text cut by characters whose last character is incomplete (its first byte claims more bytes
 * than are left): PostgreSQL's encoding error, as libpg_query 18.1's pg_query_summary gives it, and
 * its neighbours that are none. Not in summary_cases.txt: these statements are no UTF-8, which the
 * Rust and Go tests that read that file cannot hold. The bytes and ERRORs are summary_oracle.c's
 * against 18's library (the same LIMIT<TAB>SQL lines on its standard input). */
static const struct {
	int limit;
	const char *sql, *hex;
} incomplete[] = {
	{5, "TRUNCATE \xf4", "ERROR"},
	{12, "TRUNCATE \xf4", "0a0a0a0322f4221a01f42003320c5472756e6361746553746d743a0c5452554e434154452022f422"},
	{11, "TRUNCATE a\xf4", "ERROR"},
	{5, "TRUNCATE \xf4x", "ERROR"},
	{5, "TRUNCATE \xe2\x80", "0a0c0a0422e280221a02e2802003320c5472756e6361746553746d743a0554522e2e2e"},
	{10, "TRUNCATE \xf4xyzw",
	 "0a120a0722f478797a77221a05f478797a772003320c5472756e6361746553746d743a0a5452554e4341542e2e2e"},
	{5, "TRUNCATE \xf4, b", "0a0a0a0322f4221a01f420030a080a01621a01622003320c5472756e6361746553746d743a0554522e2e2e"},
	{12, "SELECT a, b, c FROM \xf4", "ERROR"},
	{12, "SELECT 1; TRUNCATE \xf4", "ERROR"},
	{5, "TRUNCATE \xf4; SELECT 1",
	 "0a0a0a0322f4221a01f42003320c5472756e6361746553746d74320a53656c65637453746d743a0554522e2e2e"},
};

static void check_incomplete_character(void)
{
	for (size_t i = 0; i < sizeof incomplete / sizeof *incomplete; i++) {
		char where[32];
		snprintf(where, sizeof where, "incomplete[%zu]", i);
		check_case(where, incomplete[i].limit, incomplete[i].sql, incomplete[i].hex);
	}
	/* the error's code, message (the character's bytes up to the end, the deparsed name's closing
	 * quote among them) and offset (where the character starts in the text cut) */
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = pgbind_parse("\nTRUNCATE \xf4", NULL, arena, &status);
	CHECK(tree != NULL, "parse: %s", status.message);
	if (!tree) {
		pgbind_Arena_Free(arena);
		return;
	}
	CHECK(!pgbind_summary(tree, 5, NULL, arena, &status) && status.code == PGBIND_ERROR_MALFORMED &&
			  strcmp(status.message, "invalid byte sequence for encoding \"UTF8\": 0xf4 0x22") == 0 &&
			  status.offset == 10,
		  "incomplete last character: %s: %s (offset %zu in TRUNCATE \"\\xf4\")", pgbind_StatusCode_name(status.code),
		  status.message, status.offset);
	CHECK(!pgbind_truncate(tree, 11, NULL, arena, &status) && status.code == PGBIND_ERROR_MALFORMED,
		  "pgbind_truncate too: %s", status.message);
	const char *whole = pgbind_truncate(tree, 12, NULL, arena, &status);
	CHECK_STR("no error when the text fits", "TRUNCATE \"\xf4\"", whole ? whole : status.message);
	pgbind_Arena_Free(arena);
}

/* Allocation failure at every arena block, in the walk, the truncation's copies and deparses and
 * the encoding: PGBIND_ERROR_NOMEM each time, until there is room, and then the summary. */
static void check_out_of_memory(void)
{
	/* big enough to take several of the arena's blocks */
	char sql[16384] = "WITH c AS (SELECT a, b FROM t WHERE x = 1) SELECT f(y)";
	for (int i = 0; i < 200; i++)
		snprintf(sql + strlen(sql), sizeof sql - strlen(sql), ", f%d(y%d)", i, i);
	strcat(sql, " FROM c");
	for (int i = 0; i < 200; i++)
		snprintf(sql + strlen(sql), sizeof sql - strlen(sql), ", t%d AS x%d", i, i);
	strcat(sql, " WHERE w = 2");
	bool done = false;
	int n_nomem = 0, wrong = 0;
	for (size_t n = 1; n < 2000 && !done; n++) {
		pgbind_Arena *parsed = pgbind_Arena_New(), *arena = pgbind_Arena_New();
		pgbind_Status status = {0};
		pgbind_ParseResult *tree = pgbind_parse(sql, NULL, parsed, &status);
		pgbind_Arena_FailAfter(arena, n);
		pgbind_Summary *s = tree ? pgbind_summary(tree, 30, NULL, arena, &status) : NULL;
		const uint8_t *data;
		size_t len;
		done = s && pgbind_summary_encode(s, arena, &data, &len, &status);
		if (!done && status.code == PGBIND_ERROR_NOMEM)
			n_nomem++;
		else if (!done && ++wrong)
			printf("# block %zu failing: %s: %s\n", n, pgbind_StatusCode_name(status.code), status.message);
		pgbind_Arena_Free(arena);
		pgbind_Arena_Free(parsed);
	}
	CHECK(done && wrong == 0 && n_nomem > 0, "allocation failure: %d NOMEM, %d other errors, then %s", n_nomem, wrong,
		  done ? "done" : "never done");
}

int main(int argc, char **argv)
{
	check_cases(argc > 1 ? argv[1] : "tests/runtime/summary_cases.txt");
	check_view();
	check_incomplete_character();
	check_out_of_memory();
	return check_summary();
}
