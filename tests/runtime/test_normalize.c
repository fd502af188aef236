/*
 * test_normalize.c -- pgbind_normalize against pg_query_normalize: one statement per rule of
 * targets/c/runtime/normalize.c, each with the text the rule gives (written here) and libpg_query's own
 * (computed here), then the scanner's corner cases, then bad input.
 */
#include "pg_query.h"
#include "pgbind.h"

#include "../check.h"

#include <string.h>

static pgbind_Arena *arena;

/* The texts written here are libpg_query 15-4.0.0's; with another version (other rules, as the lines
 * of schema/libpg_query.txt with since:/until: say) only the comparison with its pg_query_normalize is made. */
#define RULES_OF_15 (PG_VERSION_NUM / 10000 == 15)

static const char *ours(const char *sql, const pgbind_Options *options, pgbind_Status *st)
{
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, st);
	return tree ? pgbind_normalize(tree, sql, options, arena, st) : NULL;
}

/* sql normalizes to want, and so does libpg_query's pg_query_normalize (want = NULL: only the
 * latter) */
static void same(const char *sql, const char *want, int line)
{
	pgbind_Status st = {0};
	const char *got = ours(sql, NULL, &st);
	PgQueryNormalizeResult r = pg_query_normalize(sql);
	const char *theirs = r.error ? r.error->message : r.normalized_query;
	CHECK(got && !r.error && strcmp(got, theirs) == 0, "line %d: %s\n    pgbind:      %s\n    libpg_query: %s", line,
		  sql, got ? got : st.message, theirs);
	if (want && RULES_OF_15)
		CHECK(got && strcmp(got, want) == 0, "line %d: %s\n    pgbind: %s\n    expected: %s", line, sql,
			  got ? got : st.message, want);
	pg_query_free_normalize_result(r);
}

static void test_rules(void)
{
	/* 1. the walk: expressions and DML are entered; utility statements but a few are not; nor
	 * are type modifiers */
	same("SELECT a FROM t WHERE b = 1 AND c = 'x'", "SELECT a FROM t WHERE b = $1 AND c = $2", __LINE__);
	same("INSERT INTO t VALUES (1, 'x'), (2, NULL)", "INSERT INTO t VALUES ($1, $2), ($3, $4)", __LINE__);
	same("CREATE TABLE t (a int DEFAULT 1, b varchar(10))", "CREATE TABLE t (a int DEFAULT 1, b varchar(10))",
		 __LINE__);
	same("CREATE INDEX i ON t (a) WHERE b > 5", "CREATE INDEX i ON t (a) WHERE b > 5", __LINE__);
	same("SELECT a::numeric(5,2), varchar(5) 'x'", "SELECT a::numeric(5,2), varchar(5) $1", __LINE__);
	same("PREPARE p AS SELECT 1", "PREPARE p AS SELECT 1", __LINE__);
	same("EXPLAIN ANALYZE SELECT 'a'", "EXPLAIN ANALYZE SELECT $1", __LINE__);
	same("COPY (SELECT 1) TO STDOUT WITH (FORMAT 'csv')", "COPY (SELECT $1) TO STDOUT WITH (FORMAT 'csv')", __LINE__);
	same("DECLARE c CURSOR FOR SELECT 1", "DECLARE c CURSOR FOR SELECT $1", __LINE__);
	same("SET work_mem = '64MB'", "SET work_mem = $1", __LINE__);
	same("SET search_path TO a, 'b'", "SET search_path TO $1, $2", __LINE__);
	same("ALTER ROLE r SET work_mem = '1MB'", "ALTER ROLE r SET work_mem = '1MB'", __LINE__);
	/* ... a CTE's CYCLE clause is not walked, its query is (after the main target list) */
	same("WITH RECURSIVE c AS (SELECT 1) CYCLE a SET m TO 'Y' DEFAULT 'N' USING p SELECT 2",
		 "WITH RECURSIVE c AS (SELECT $2) CYCLE a SET m TO 'Y' DEFAULT 'N' USING p SELECT $1", __LINE__);
	/* 2. DefElem strings: the first ' or $ after the option */
	same("CREATE ROLE r PASSWORD 'secret' VALID UNTIL '2030-01-01'", "CREATE ROLE r PASSWORD $1 VALID UNTIL $2",
		 __LINE__);
	same("DO $$BEGIN END$$ LANGUAGE plpgsql", "DO $1 LANGUAGE plpgsql", __LINE__);
	same("CREATE FUNCTION f(int) RETURNS int LANGUAGE c AS 'lib', 'sym'",
		 "CREATE FUNCTION f(int) RETURNS int LANGUAGE c AS $1, 'sym'", __LINE__);
	/* ... which inside E'' lands on the quote, and the constant runs to the next token's end */
	same("CREATE ROLE r PASSWORD E'x' VALID UNTIL 'y'", "CREATE ROLE r PASSWORD E$1 UNTIL $2", __LINE__);
	same("CREATE USER MAPPING FOR u SERVER s OPTIONS (user E'x')",
		 "CREATE USER MAPPING FOR u SERVER s OPTIONS (user E$1", __LINE__);
	/* ... subscriptions: the conninfo's first occurrence in the text; '' none */
	same("CREATE SUBSCRIPTION s CONNECTION 'host=x' PUBLICATION p", "CREATE SUBSCRIPTION s CONNECTION $1 PUBLICATION p",
		 __LINE__);
	same("CREATE SUBSCRIPTION host CONNECTION 'host' PUBLICATION p",
		 "CREATE SUBSCRIPTION$1 CONNECTION 'host' PUBLICATION p", __LINE__); /* from the byte before */
	same("CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE)",
		 "CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE)",
		 __LINE__);
	/* ... parameters: numbered after the highest of the text's own */
	same("SELECT $1, 2, $3", "SELECT $1, $4, $3", __LINE__);
	same("SELECT $1::int + 1, $10", "SELECT $1::int + $11, $10", __LINE__);
	/* 3. SELECT: its order (limitOffset before limitCount, sortClause before havingClause) */
	same("SELECT a FROM t LIMIT 10 OFFSET 5", "SELECT a FROM t LIMIT $2 OFFSET $1", __LINE__);
	same("SELECT a FROM t GROUP BY a HAVING count(*) > 1 ORDER BY a + 2",
		 "SELECT a FROM t GROUP BY a HAVING count(*) > $2 ORDER BY a + $1", __LINE__);
	/* ... GROUP BY 1 and ORDER BY 1 stay */
	same("SELECT 1 FROM t GROUP BY 1 ORDER BY 1", "SELECT $1 FROM t GROUP BY 1 ORDER BY 1", __LINE__);
	same("SELECT a FROM t ORDER BY a USING <, -2 DESC", "SELECT a FROM t ORDER BY a USING <, -2 DESC", __LINE__);
	/* ... a GROUP BY item like a target takes the target's numbers */
	same("SELECT a + 1, b FROM t GROUP BY b, a + 1", "SELECT a + $1, b FROM t GROUP BY b, a + $1", __LINE__);
	same("SELECT 1::int, x FROM t GROUP BY 1, 1::int", "SELECT $1::int, x FROM t GROUP BY 1, $1::int", __LINE__);
	same("SELECT lower('X'), lower('Y') FROM t GROUP BY lower('Z'), lower('W')",
		 "SELECT lower($1), lower($2) FROM t GROUP BY lower($1), lower($2)", __LINE__);
	/* ... unless a SELECT nested in the target ended libpg_query's recording */
	same("SELECT (SELECT 1) + 2, 3 FROM t GROUP BY (SELECT 1) + 2", NULL, __LINE__);
	/* 4. the text: negative numbers from their '-', with what lies between */
	same("SELECT -1, - 2, -3.5e3", "SELECT $1, $2, $3", __LINE__);
	same("SELECT - /* c */ 1", "SELECT $1 1", __LINE__);
	same("SELECT 2*-1, 3+-2, x - -1", "SELECT $1*$2, $3+$4, x - $5", __LINE__);
	/* ... every kind of constant token */
	same("SELECT 3.5, .5, 1e5, 'a', E'b\\'c', $$d$$, $x$e$x$, B'101', X'ff', N'z', U&'d\\0061t', NULL, TRUE",
		 "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, N$10, $11, $12, $13", __LINE__);
	same("SELECT EXTRACT(year FROM d), interval '1' day, LIMIT_ALL FROM t LIMIT ALL",
		 "SELECT EXTRACT($1 FROM d), interval $2 day, LIMIT_ALL FROM t LIMIT $3", __LINE__);
	/* ... strings continued on the next line are one constant */
	same("SELECT 'a'\n'b', 'c'   \n  \n 'd', 'e'\t\r\n'f'", "SELECT $1, $2, $3", __LINE__);
	/* ... several statements share the numbering */
	same("SELECT 1; SELECT 'x';\n-- c\nSELECT $1", "SELECT $2; SELECT $3;\n-- c\nSELECT $1", __LINE__);
	/* ... and one sort of their locations, PostgreSQL's unstable qsort: here three constants at
	 * 'j' (the LANGUAGE and IMMUTABLE options' quote search finds it, then the A_Const), of which
	 * the sort puts the second first */
	same("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql IMMUTABLE;\nSELECT f(7, 3, 3);\n"
		 "SELECT f('j', 3, 3, 2, 2);",
		 "CREATE FUNCTION f() RETURNS int AS $1 LANGUAGE sql IMMUTABLE;\nSELECT f($4, $5, $6);\n"
		 "SELECT f($3, $8, $9, $10, $11);",
		 __LINE__);
}

static void test_bad_input(void)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse("SELECT a FROM t WHERE b = 12345", NULL, arena, &st);
	CHECK(!pgbind_normalize(NULL, "x", NULL, arena, &st) && st.code == PGBIND_ERROR_ARGUMENT, "NULL tree (%s)",
		  st.message);
	CHECK(!pgbind_normalize(tree, NULL, NULL, arena, &st) && st.code == PGBIND_ERROR_ARGUMENT, "NULL sql");
	CHECK(!pgbind_normalize(tree, "x", NULL, NULL, &st) && st.code == PGBIND_ERROR_ARGUMENT, "NULL arena");
	memset(&st, 0, sizeof st);
	CHECK(!pgbind_normalize(tree, "SELECT 1", NULL, arena, &st) && st.code == PGBIND_ERROR_INVALID &&
			  strstr(st.message, "past the end of the SQL"),
		  "a tree of another SQL: PGBIND_ERROR_INVALID (%s)", st.message);
	pgbind_Options shallow = {.max_depth = 3};
	memset(&st, 0, sizeof st);
	CHECK(!pgbind_normalize(tree, "SELECT a FROM t WHERE b = 12345", &shallow, arena, &st) &&
			  st.code == PGBIND_ERROR_DEPTH,
		  "deeper than max_depth: PGBIND_ERROR_DEPTH (%s)", st.message);
	/* two constants made to overlap */
	tree = pgbind_parse("SELECT 1, 2", NULL, arena, &st);
	if (tree) {
		pgbind_SelectStmt *s = (pgbind_SelectStmt *)tree->stmts[0]->stmt;
		pgbind_A_Const *second = (pgbind_A_Const *)((pgbind_ResTarget *)s->targetList[1])->val;
		second->location = 6; /* the space before the 1 */
		memset(&st, 0, sizeof st);
		const char *got = pgbind_normalize(tree, "SELECT 1, 2", NULL, arena, &st);
		CHECK(!got && st.code == PGBIND_ERROR_INVALID && strstr(st.message, "overlap"),
			  "overlapping constants: PGBIND_ERROR_INVALID (%s)", got ? got : st.message);
	}
	/* a decoded tree (locations from protobuf) gives the same text */
	const char *sql = "SELECT a + 1 FROM t WHERE b = 'x' GROUP BY a + 1";
	PgQueryProtobufParseResult p = pg_query_parse_protobuf(sql);
	pgbind_ParseResult *decoded =
		p.error ? NULL : pgbind_decode((const uint8_t *)p.parse_tree.data, p.parse_tree.len, NULL, arena, &st);
	const char *got = decoded ? pgbind_normalize(decoded, sql, NULL, arena, &st) : NULL;
	CHECK(got && strcmp(got, "SELECT a + $1 FROM t WHERE b = $2 GROUP BY a + $1") == 0, "from a decoded tree (%s)",
		  got ? got : st.message);
	pg_query_free_protobuf_parse_result(p);
}

/* The fingerprint over the AST (targets/c/runtime/fingerprint.c): libpg_query's value past its 100-level
 * cut-off, and a UNION chain (SelectStmt.larg, no cut-off) bounded by max_depth. */
static void test_fingerprint_depth(void)
{
	size_t n = 600, len = 0;
	char *sql = xmalloc(n * 20 + 16);
	len += (size_t)sprintf(sql, "SELECT 1");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(sql + len, " UNION SELECT %zu", i);
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	uint64_t fp = 0;
	PgQueryFingerprintResult f = pg_query_fingerprint(sql);
	CHECK(tree && pgbind_fingerprint(tree, NULL, &fp, &st) && !f.error && fp == f.fingerprint,
		  "%zu UNIONs: pg_query_fingerprint's value (%s)", n, st.message);
	pg_query_free_fingerprint_result(f);
	/* 15 and 17 follow the chain to its end (18 cuts it at 100 levels, as every other pointer:
	 * schema/libpg_query.txt's since:18 lines), so max_depth bounds it */
	pgbind_Options shallow = {.max_depth = 100};
	memset(&st, 0, sizeof st);
	CHECK(PG_VERSION_NUM >= 180000 ||
			  (tree && !pgbind_fingerprint(tree, &shallow, &fp, &st) && st.code == PGBIND_ERROR_DEPTH),
		  "%zu UNIONs with max_depth 100: PGBIND_ERROR_DEPTH (%s)", n, st.message);
	free(sql);
}

int main(void)
{
	arena = pgbind_Arena_New();
	test_rules();
	test_bad_input();
	test_fingerprint_depth();
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
