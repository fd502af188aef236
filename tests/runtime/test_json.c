/*
 * test_json.c -- pgbind_json() and pgbind_json_read() against libpg_query's own JSON.
 *
 * Cases: the libpg_query JSON bugs, each with what libpg_query prints (for trees no parse
 * produces, its writer is reached through pgbind_to_pg_parse_tree + pg_query_nodes_to_json) and
 * what pgbind prints instead; bytes that are not UTF-8; string escaping; NULL list cells; every
 * A_Const kind; empty input; several statements; malformed JSON with its line:column; values of
 * the wrong type with their path; nesting 100,000 levels deep (a depth error, never a crash);
 * every prefix and many byte flips of a document (an error or a tree, never a crash: run it under
 * valgrind or sanitizers); threads racing on first use. Then every statement of the SQL files
 * named on the command line, split as `pgbind verify` splits them:
 *
 *   text      pgbind_json(pgbind_parse(sql)) equals pg_query_parse(sql) byte for byte, after
 *             libpg_query's known bugs are applied to ours (so a statement that differs in any
 *             other way fails);
 *   read      pgbind_json_read(libpg_query's JSON) encodes to pg_query_parse_protobuf's bytes
 *             (where libpg_query's JSON lost a value: pgbind_json_read of ours instead), and
 *             writing what it read gives libpg_query's text back;
 *   own       pgbind_json_read(ours) equals the parsed tree and encodes to the same bytes.
 *
 * Usage: test_json [--bench] [FILE...]. --bench times pgbind_parse + pgbind_json against
 * pg_query_parse over the statements of the files, in this process. Ends with "N passed, M
 * failed"; exits 1 on any failure.
 */
#include "cli.h"
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_json.h"
#include "pgbind_reflect.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../check.h"

/* for printing a string that may be NULL */
#define S(s) ((s) ? (s) : "(null)")

/* ---- helpers --------------------------------------------------------------------------------- */

static pgbind_Arena *arena;

/* pg_query_parse's parse_tree, malloc'd; NULL on a syntax error */
static char *theirs(const char *sql)
{
	PgQueryParseResult r = pg_query_parse(sql);
	char *out = r.error ? NULL : strdup(r.parse_tree);
	pg_query_free_parse_result(r);
	return out;
}

/* libpg_query's JSON writer on any tree: pgbind_to_pg_parse_tree, then pg_query_nodes_to_json.
 * Both libpg_query functions are exported by the 15-4.0.0 library but declared only in its
 * internal headers (which need PostgreSQL's), hence the declarations here. malloc'd. */
void *pg_query_enter_memory_context(void);
void pg_query_exit_memory_context(void *ctx);
char *pg_query_nodes_to_json(const void *obj);

static char *theirs_of_tree(const pgbind_ParseResult *tree)
{
	void *ctx = pg_query_enter_memory_context();
	void *nodes = NULL;
	pgbind_Status st = {0};
	char *out = NULL;
	if (pgbind_to_pg_parse_tree(tree, ctx, NULL, &nodes, &st))
		out = strdup(pg_query_nodes_to_json(nodes));
	else
		printf("# pgbind_to_pg_parse_tree: %s\n", st.message);
	pg_query_exit_memory_context(ctx);
	return out;
}

/* pgbind_json(pgbind_parse(sql)), in the arena */
static const char *ours(const char *sql)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *t = pgbind_parse(sql, NULL, arena, &st);
	const char *j = t ? pgbind_json(t, NULL, arena, &st) : NULL;
	if (!j)
		printf("# %s: %s\n", sql, st.message);
	return j;
}

static pgbind_ParseResult *read_json(const char *json, pgbind_Status *st)
{
	return pgbind_json_read(json, strlen(json), NULL, arena, st);
}

/* encode(tree) equals pg_query_parse_protobuf(sql) */
static bool encodes_like_libpg_query(const pgbind_ParseResult *tree, const char *sql)
{
	const uint8_t *data;
	size_t len;
	pgbind_Status st = {0};
	if (!tree || !pgbind_encode(tree, NULL, arena, &data, &len, &st))
		return false;
	PgQueryProtobufParseResult pb = pg_query_parse_protobuf(sql);
	bool same = !pb.error && pb.parse_tree.len == len && memcmp(pb.parse_tree.data, data, len) == 0;
	pg_query_free_protobuf_parse_result(pb);
	return same;
}

/* The first target of the first statement, a SELECT */
static pgbind_Node *target0(const pgbind_ParseResult *t)
{
	if (!t || t->n_stmts < 1 || !t->stmts[0]->stmt || t->stmts[0]->stmt->tag != PGBIND_T_SelectStmt)
		return NULL;
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)t->stmts[0]->stmt;
	return s->n_targetList ? ((pgbind_ResTarget *)s->targetList[0])->val : NULL;
}

/* ---- libpg_query's JSON bugs ----------------------------------------------------------------- */

/* 1. A negative Integer: libpg_query 15 writes "ival" only when > 0, so -5 reads back as 0. */
static void test_negative_integers(void)
{
	static const char *const sqls[] = {"SELECT -5", "CREATE SEQUENCE s INCREMENT BY -1 MINVALUE -10 MAXVALUE 5",
									   "SELECT 0, 7, a[-1]"};
	if (!library_loses_negative_integers()) {
		/* a libpg_query without the bug (17): its text is ours */
		for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
			char *t = theirs(sqls[i]);
			const char *o = ours(sqls[i]);
			CHECK(t && o && strcmp(t, o) == 0 && strstr(o, "-"),
				  "this libpg_query keeps negative integers, as ours: %s", S(t));
			free(t);
		}
		return;
	}
	char *t = theirs("SELECT -5");
	const char *o = ours("SELECT -5");
	CHECK(t && strstr(t, "\"A_Const\":{\"ival\":{},\"location\":7}"), "libpg_query prints SELECT -5 as \"ival\":{}: %s",
		  S(t));
	CHECK(o && strstr(o, "\"A_Const\":{\"ival\":{\"ival\":-5},\"location\":7}"), "ours keeps -5: %s", S(o));
	pgbind_Status st = {0};
	pgbind_ParseResult *r = o ? read_json(o, &st) : NULL;
	pgbind_Node *v = target0(r);
	CHECK(v && v->tag == PGBIND_T_A_Const && ((pgbind_A_Const *)v)->val &&
			  ((pgbind_A_Const *)v)->val->tag == PGBIND_T_Integer &&
			  ((pgbind_Integer *)((pgbind_A_Const *)v)->val)->ival == -5,
		  "our JSON reads back as -5");
	CHECK(encodes_like_libpg_query(r, "SELECT -5"), "read(ours) encodes like pg_query_parse_protobuf");
	r = t ? read_json(t, &st) : NULL;
	CHECK(r && !encodes_like_libpg_query(r, "SELECT -5"), "read(theirs) has lost the -5 (it reads 0)");
	v = target0(r);
	CHECK(v && ((pgbind_A_Const *)v)->val && ((pgbind_Integer *)((pgbind_A_Const *)v)->val)->ival == 0,
		  "libpg_query's JSON says 0");
	int n;
	char *applied = o ? json_with_known_bugs(o, &n) : NULL;
	CHECK(applied && t && n == 1 && strcmp(applied, t) == 0, "the only difference is the bug: %s", S(applied));
	free(applied);
	free(t);

	/* ... the same in an Integer node outside A_Const: a DefElem argument */
	const char *sql = "CREATE SEQUENCE s INCREMENT BY -1 MINVALUE -10 MAXVALUE 5";
	t = theirs(sql);
	o = ours(sql);
	CHECK(t && strstr(t, "\"defname\":\"increment\",\"arg\":{\"Integer\":{}}"),
		  "libpg_query: INCREMENT BY -1 is {\"Integer\":{}}: %s", S(t));
	CHECK(o && strstr(o, "\"defname\":\"increment\",\"arg\":{\"Integer\":{\"ival\":-1}}"),
		  "ours: {\"Integer\":{\"ival\":-1}}: %s", S(o));
	CHECK(o && strstr(o, "{\"Integer\":{\"ival\":-10}}") && strstr(o, "{\"Integer\":{\"ival\":5}}"),
		  "MINVALUE -10, MAXVALUE 5: %s", S(o));
	CHECK(o && encodes_like_libpg_query(read_json(o, &st), sql), "read(ours) encodes like libpg_query");
	applied = o ? json_with_known_bugs(o, &n) : NULL;
	CHECK(applied && t && n == 2 && strcmp(applied, t) == 0, "only the bug differs");
	free(applied);
	free(t);

	/* zero is the default and both leave it out; positive values agree */
	t = theirs("SELECT 0, 7, a[-1]");
	o = ours("SELECT 0, 7, a[-1]");
	applied = o ? json_with_known_bugs(o, &n) : NULL;
	CHECK(applied && t && n == 1 && strcmp(applied, t) == 0, "0 and 7 agree, a[-1] is the bug: %s", S(o));
	CHECK(o && strstr(o, "\"ival\":{},\"location\":7") && strstr(o, "\"ival\":{\"ival\":7}"),
		  "0 is {}, 7 is {\"ival\":7}");
	free(applied);
	free(t);
}

static void test_bugs(void)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *r;
	const char *sql, *o;
	char *t;

	/* Not a bug, a limit of the format: bytes that are not UTF-8 (PostgreSQL's scanner passes them
	 * into identifiers and strings) are copied into the JSON as they are, by libpg_query and by
	 * pgbind alike, since JSON has no escape for a byte. Strict JSON parsers reject such text;
	 * pgbind_json_read accepts it, as pgbind_decode accepts such protobuf strings. */
	sql = "SELECT x\xff FROM t WHERE a = 'caf\xe9'";
	t = theirs(sql);
	o = ours(sql);
	CHECK(t && strstr(t, "\"sval\":\"x\xff\"") && strstr(t, "\"sval\":\"caf\xe9\""), "libpg_query copies the bytes: %s",
		  S(t));
	CHECK(o && t && strcmp(o, t) == 0, "ours is byte-identical");
	r = o ? read_json(o, &st) : NULL;
	CHECK(r && encodes_like_libpg_query(r, sql), "and reads back: %s", r ? "" : st.message);
	free(t);

	/* 3. Trees no parse produces (built by hand here). libpg_query's writer is reached through
	 *    pgbind_to_pg_parse_tree and pg_query_nodes_to_json, so its output is shown, not assumed. */
	pgbind_ParseResult *tree = pgbind_parse("SELECT 1", NULL, arena, &st);
	pgbind_ResTarget *rt = (pgbind_ResTarget *)((pgbind_SelectStmt *)tree->stmts[0]->stmt)->targetList[0];
	char *tt;

	/* 3a. doubles: libpg_query prints "%f", so 1e-07 becomes 0.000000 and infinity a bare
	 *     Infinity (not JSON); pgbind writes the shortest exact form, infinities as proto3 JSON
	 *     strings, and leaves 0 out */
	pgbind_SubPlan *sp = pgbind_Arena_Malloc(arena, sizeof *sp);
	memset(sp, 0, sizeof *sp);
	sp->tag = PGBIND_T_SubPlan;
	sp->subLinkType = PGBIND_EXISTS_SUBLINK;
	sp->startup_cost = 1e-7;
	sp->per_call_cost = 0.1;
	rt->val = (pgbind_Node *)sp;
	tt = theirs_of_tree(tree);
	CHECK(tt && strstr(tt, "{\"SubPlan\":{\"subLinkType\":\"EXISTS_SUBLINK\",\"startup_cost\":0.000000,\"per_call_"
						   "cost\":0.100000}}"),
		  "libpg_query: 1e-07 as 0.000000: %s", S(tt));
	free(tt);
	o = pgbind_json(tree, NULL, arena, &st);
	CHECK(o &&
			  strstr(o,
					 "{\"SubPlan\":{\"subLinkType\":\"EXISTS_SUBLINK\",\"startup_cost\":1e-07,\"per_call_cost\":0.1}}"),
		  "ours: %s", S(o));
	r = o ? read_json(o, &st) : NULL;
	CHECK(r && pgbind_ParseResult_equal(r, tree), "doubles read back exactly");
	sp->startup_cost = 1.0 / 0.0;
	sp->per_call_cost = -1.0 / 0.0;
	tt = theirs_of_tree(tree);
	CHECK(tt && strstr(tt, "\"startup_cost\":Infinity,\"per_call_cost\":-Infinity"),
		  "libpg_query: bare Infinity, not JSON: %s", S(tt));
	r = tt ? read_json(tt, &st) : NULL;
	CHECK(!r && st.code == PGBIND_ERROR_MALFORMED, "which does not read: %s", st.message);
	free(tt);
	o = pgbind_json(tree, NULL, arena, &st);
	CHECK(o && strstr(o, "\"startup_cost\":\"Infinity\",\"per_call_cost\":\"-Infinity\"}"), "ours: %s", S(o));
	r = o ? read_json(o, &st) : NULL;
	CHECK(r && pgbind_ParseResult_equal(r, tree), "infinities read back");

	/* 3b. an A_Const with neither a value nor isnull: libpg_query writes {,"location":3} */
	pgbind_A_Const *ac = pgbind_Arena_Malloc(arena, sizeof *ac);
	memset(ac, 0, sizeof *ac);
	ac->tag = PGBIND_T_A_Const;
	ac->location = 3;
	rt->val = (pgbind_Node *)ac;
	tt = theirs_of_tree(tree);
	CHECK(tt && strstr(tt, "\"val\":{\"A_Const\":{,\"location\":3}}"), "libpg_query: {,: %s", S(tt));
	r = tt ? read_json(tt, &st) : NULL;
	CHECK(!r && st.code == PGBIND_ERROR_MALFORMED && strstr(st.message, "unexpected ','"), "which is not JSON: %s",
		  st.message);
	free(tt);
	o = pgbind_json(tree, NULL, arena, &st);
	CHECK(o && strstr(o, "\"val\":{\"A_Const\":{\"location\":3}}"), "ours: %s", S(o));
	r = o ? read_json(o, &st) : NULL;
	CHECK(r && pgbind_ParseResult_equal(r, tree), "reads back");

	/* 3c. a char field holding '"': libpg_query writes it unescaped, "relpersistence":"""" */
	pgbind_RangeVar *rv = pgbind_Arena_Malloc(arena, sizeof *rv);
	memset(rv, 0, sizeof *rv);
	rv->tag = PGBIND_T_RangeVar;
	rv->relname = "x";
	rv->relpersistence = "\"";
	rt->val = (pgbind_Node *)rv;
	tt = theirs_of_tree(tree);
	CHECK(tt && strstr(tt, "{\"RangeVar\":{\"relname\":\"x\",\"relpersistence\":\"\"\"}}"), "libpg_query: \"\"\": %s",
		  S(tt));
	free(tt);
	o = pgbind_json(tree, NULL, arena, &st);
	CHECK(o && strstr(o, "{\"RangeVar\":{\"relname\":\"x\",\"relpersistence\":\"\\\"\"}}"), "ours: %s", S(o));
	r = o ? read_json(o, &st) : NULL;
	CHECK(r && pgbind_ParseResult_equal(r, tree), "reads back");
}

/* ---- format ---------------------------------------------------------------------------------- */

/* ours == theirs byte for byte, and both read back to the tree (and to libpg_query's bytes) */
static void same_as_libpg_query(const char *sql, int line)
{
	char *t = theirs(sql);
	const char *o = ours(sql);
	bool same = t && o && strcmp(t, o) == 0;
	if (!same)
		printf("# line %d: %s\n#   theirs %s\n#   ours   %s\n", line, sql, t, o);
	CHECK(same, "line %d: byte-identical", line);
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &st);
	pgbind_ParseResult *r = t ? read_json(t, &st) : NULL;
	CHECK(r && pgbind_ParseResult_equal(r, tree), "line %d: read(theirs) equals the tree (%s)", line,
		  r ? "" : st.message);
	CHECK(encodes_like_libpg_query(r, sql), "line %d: read(theirs) encodes like libpg_query", line);
	const char *again = r ? pgbind_json(r, NULL, arena, &st) : NULL;
	CHECK(again && t && strcmp(again, t) == 0, "line %d: json(read(theirs)) == theirs", line);
	free(t);
}

static void test_format(void)
{
	/* every A_Const kind, and Boolean nodes (always "boolval", false included) */
	same_as_libpg_query("SELECT 1, 0, 1.5, -1.5, 1e10, true, false, NULL, 'x', '', B'101', X'ff', 2147483648",
						__LINE__);
	const char *o = ours("SELECT 1.5, true, false, NULL, '', B'101', X'ff'");
	CHECK(o && strstr(o, "{\"A_Const\":{\"fval\":{\"fval\":\"1.5\"},\"location\":7}}"), "Float: %s", S(o));
	CHECK(o && strstr(o, "{\"A_Const\":{\"boolval\":{\"boolval\":true},\"location\":12}}"), "true");
	CHECK(o && strstr(o, "{\"A_Const\":{\"boolval\":{},\"location\":18}}"), "false is {}");
	CHECK(o && strstr(o, "{\"A_Const\":{\"isnull\":true,\"location\":25}}"), "NULL");
	CHECK(o && strstr(o, "{\"A_Const\":{\"sval\":{\"sval\":\"\"},\"location\":31}}"), "'' keeps its \"\"");
	CHECK(o && strstr(o, "{\"bsval\":{\"bsval\":\"b101\"}") && strstr(o, "{\"bsval\":{\"bsval\":\"xff\"}"),
		  "bit strings");
	same_as_libpg_query("CREATE ROLE r SUPERUSER NOLOGIN", __LINE__);
	o = ours("CREATE ROLE r SUPERUSER NOLOGIN");
	CHECK(o && strstr(o, "\"arg\":{\"Boolean\":{\"boolval\":false}}"), "a Boolean node writes false: %s", S(o));

	/* NULL list cells: DISTINCT without ON is a list of one NULL */
	same_as_libpg_query("SELECT DISTINCT a", __LINE__);
	same_as_libpg_query("SELECT DISTINCT a FROM t", __LINE__);
	o = ours("SELECT DISTINCT a FROM t");
	CHECK(o && strstr(o, "\"distinctClause\":[{}]"), "NULL cell is {}: %s", S(o));
	pgbind_Status st = {0};
	pgbind_ParseResult *r = o ? read_json(o, &st) : NULL;
	pgbind_SelectStmt *s = r ? (pgbind_SelectStmt *)r->stmts[0]->stmt : NULL;
	CHECK(s && s->n_distinctClause == 1 && s->distinctClause[0] == NULL, "reads back as one NULL cell");

	/* escaping: \" \\ \b \f \n \r \t; \u00XX for other control characters and for < and >
	 * (\u003c, \u003e: libpg_query 15-4.0.0 does so); 0x7f, & and UTF-8 as they are */
	const char *esc = "SELECT E'q\"b\\\\s\\b\\f\\n\\r\\t\\x01\\x1f\\x7f <&> "
					  "\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80', \"we\"\"ird\"";
	same_as_libpg_query(esc, __LINE__);
	o = ours(esc);
	CHECK(o && strstr(o, "\"sval\":\"q\\\"b\\\\s\\b\\f\\n\\r\\t\\u0001\\u001f\x7f \\u003c&\\u003e "
						 "\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80\""),
		  "escapes: %s", S(o));
	same_as_libpg_query("SELECT a <> b, a >= b, a <= b FROM t WHERE x << y", __LINE__);
	CHECK(o && strstr(o, "\"sval\":\"we\\\"ird\""), "quoted identifier: %s", S(o));
	/* what only the reader sees: \/, \u escapes (surrogate pairs), white space, proto names */
	r = read_json("{ \"version\" : 150001 ,\n \"stmts\" : [ { \"stmt\" : { \"SelectStmt\" : { \"target_list\" : [ "
				  "{\"ResTarget\":{\"val\":{\"A_Const\":{\"sval\":{\"sval\":\"\\/\\u00e9\\ud83d\\ude00\\u0041\"}}}}}"
				  " ], \"limitOption\" : \"LIMIT_OPTION_DEFAULT\", \"op\":\"SETOP_NONE\" } } } ] }\n",
				  &st);
	pgbind_Node *v = target0(r);
	CHECK(v && ((pgbind_A_Const *)v)->val &&
			  strcmp(((pgbind_String *)((pgbind_A_Const *)v)->val)->sval, "/\xc3\xa9\xf0\x9f\x98\x80"
																		  "A") == 0,
		  "unescaped: %s", r ? "" : st.message);

	/* empty input, comments only, several statements (stmt_location, stmt_len) */
	same_as_libpg_query("", __LINE__);
	same_as_libpg_query(" -- nothing\n", __LINE__);
	same_as_libpg_query(";", __LINE__);
	o = ours("");
	char empty[64];
	snprintf(empty, sizeof empty, "{\"version\":%d,\"stmts\":[]}", PG_VERSION_NUM); /* the library's version */
	CHECK(o && strcmp(o, empty) == 0, "empty: %s", S(o));
	same_as_libpg_query("SELECT 1; SELECT 2;\n\n/* c */ UPDATE t SET a = 1 WHERE b", __LINE__);
	o = ours("SELECT 1; SELECT 2"); /* 18 starts the second statement at its first token */
	CHECK(o && strstr(o, "\"stmt_len\":8}") &&
			  strstr(o, PGBIND_PG_MAJOR >= 18 ? "\"stmt_location\":10}" : "\"stmt_location\":9}"),
		  "locations: %s", S(o));

	/* enums always by name, including C value 0; char fields; int64; nested messages (alias) */
	same_as_libpg_query("SELECT * FROM a AS x(c) JOIN b USING (c) FOR UPDATE OF a NOWAIT", __LINE__);
	same_as_libpg_query("FETCH ALL c; FETCH BACKWARD 0 c; MOVE 5 c", __LINE__);
	same_as_libpg_query("CREATE FOREIGN TABLE ft (a int DEFAULT 1 NOT NULL) SERVER s", __LINE__);
	same_as_libpg_query("COMMENT ON TABLE t IS ''; COMMENT ON TABLE t IS NULL", __LINE__);
	same_as_libpg_query("INSERT INTO t VALUES (1, DEFAULT) ON CONFLICT (a) DO UPDATE SET b = excluded.b RETURNING *",
						__LINE__);

	/* a chain deeper than jansson's 2048 JSON levels: 3,000 additions */
	size_t n = 3000;
	char *deep = malloc(16 + 2 * n);
	strcpy(deep, "SELECT 1");
	for (size_t i = 0; i < n; i++)
		strcat(deep + 7 + 2 * i, "+1");
	same_as_libpg_query(deep, __LINE__);
	free(deep);
}

/* ---- malformed JSON, wrong types ------------------------------------------------------------- */

/* reading json fails with code, and the message starts with prefix */
static void fails(const char *json, pgbind_StatusCode code, const char *prefix, size_t offset, int line)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *r = read_json(json, &st);
	bool ok = !r && st.code == code && strncmp(st.message, prefix, strlen(prefix)) == 0 && st.offset == offset;
	CHECK(ok, "line %d: %s -> %s: \"%s\" (offset %zu), wanted %s \"%s\" (offset %zu)", line, json,
		  pgbind_StatusCode_name(st.code), st.message, st.offset, pgbind_StatusCode_name(code), prefix, offset);
}

static void test_malformed(void)
{
	const pgbind_StatusCode M = PGBIND_ERROR_MALFORMED, I = PGBIND_ERROR_INVALID;
	fails("", M, "line 1, column 1: no JSON value: the input is empty", 0, __LINE__);
	fails("  \n ", M, "line 2, column 2: no JSON value", 4, __LINE__);
	fails("{", M, "line 1, column 2: unexpected end of input: expected a key", 1, __LINE__);
	fails("{\"version\":150001,", M, "line 1, column 19: unexpected end of input", 18, __LINE__);
	fails("{\"version\":150001 \"stmts\":[]}", M, "line 1, column 19: unexpected '\"': expected ',' or '}'", 18,
		  __LINE__);
	fails("{\"version\":150001,}", M, "line 1, column 19: unexpected '}': expected a key", 18, __LINE__);
	fails("{\"version\":150001}x", M, "line 1, column 19: unexpected 'x': expected the end of the input", 18, __LINE__);
	fails("{\"version\":150001}{}", M, "line 1, column 19: unexpected '{'", 18, __LINE__);
	fails("{\"version\" 150001}", M, "line 1, column 12: unexpected '1': expected ':' after the key", 11, __LINE__);
	fails("{'version':1}", M, "line 1, column 2: unexpected ''': expected a key", 1, __LINE__);
	fails("{\"version\":01}", M, "line 1, column 13: unexpected '1': expected ',' or '}'", 12, __LINE__);
	fails("{\"version\":-}", M, "line 1, column 12: invalid number", 11, __LINE__);
	fails("{\"version\":1.}", M, "line 1, column 14: invalid number: a digit must follow '.'", 13, __LINE__);
	fails("{\"version\":1e}", M, "line 1, column 14: invalid number: a digit must follow the exponent", 13, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"all\":tru}}}]}", M, "line 1, column 40: invalid literal \"tru\"",
		  39, __LINE__);
	fails("{\"stmts\":[{\"stmt\":nul}]}", M, "line 1, column 19: invalid literal", 18, __LINE__);
	/* strings: unterminated, bad escapes, raw control characters, UTF-8, NUL, surrogates */
	fails("{\"stmts", M, "line 1, column 2: unterminated string", 1, __LINE__);
	fails("{\"a\\x\":1}", M, "line 1, column 4: invalid escape \\x in a string", 3, __LINE__);
	fails("{\"a\\u12\":1}", M, "line 1, column 4: \\u needs four hexadecimal digits", 3, __LINE__);
	fails("{\"a\tb\":1}", M, "line 1, column 4: control character 0x09 in a string", 3, __LINE__);
	/* bytes that are not UTF-8 are taken as they are (see test_bugs): here an unknown key */
	fails("{\"\xc3\xa9\xff\":1}", I, "line 1, column 2: unknown key \"\xc3\xa9\xff\" in ParseResult", 1, __LINE__);
	fails("{\"a\\u0000\":1}", M, "line 1, column 4: \\u0000: a string cannot hold a NUL character", 3, __LINE__);
	fails("{\"a\\ud83d\":1}", M, "line 1, column 4: \\ud83d: a high surrogate without a low one", 3, __LINE__);
	fails("{\"a\\ude00\":1}", M, "line 1, column 4: \\ude00: a low surrogate without a high one", 3, __LINE__);
	/* columns count characters, lines count \n */
	fails("{\n  \"version\": 150001,\n  \"stmts\": [\n    {\"stmt\": {\"SelectStmt\": {]}}}\n  ]\n}", M,
		  "line 4, column 30: unexpected ']': expected a key", 65, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetList\":[{\"ResTarget\":{\"name\":\"\xc3\xa9\xc3\xa9\" x", M,
		  "line 1, column 74: unexpected 'x': expected ',' or '}'", 75, __LINE__);
	/* a NUL byte inside the given length, and input without a terminating NUL */
	pgbind_Status st = {0};
	CHECK(!pgbind_json_read("{\"version\":1}\0", 14, NULL, arena, &st) && st.code == M && st.offset == 13 &&
			  strstr(st.message, "line 1, column 14: unexpected byte 0x00"),
		  "NUL byte: %s", st.message);
	char buf[13];
	memcpy(buf, "{\"version\":1}", 13);
	pgbind_ParseResult *r = pgbind_json_read(buf, sizeof buf, NULL, arena, &st);
	CHECK(r && r->version == 1 && r->n_stmts == 0, "input without a NUL: %s", r ? "" : st.message);
	CHECK(!pgbind_json_read(buf, 12, NULL, arena, &st) && st.code == M && st.offset == 12, "a prefix: %s", st.message);

	/* JSON, but not a parse tree: PGBIND_ERROR_INVALID with the path */
	fails("[]", I, "line 1, column 1: expected an object (a ParseResult", 0, __LINE__);
	fails("{\"version\":\"150001\"}", I,
		  "line 1, column 12: expected an integer (int32), found a string at ParseResult.version", 11, __LINE__);
	fails("{\"stmts\":{}}", I, "line 1, column 10: expected an array, found an object at ParseResult.stmts", 9,
		  __LINE__);
	fails("{\"stmts\":[1]}", I, "line 1, column 11: expected an object, found a number at ParseResult.stmts[0]", 10,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetLis\":[]}}}]}", I,
		  "line 1, column 34: unknown key \"targetLis\" in SelectStmt at ParseResult.stmts[0].stmt.SelectStmt", 33,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStatement\":{}}}]}", I,
		  "line 1, column 20: unknown node kind \"SelectStatement\" at ParseResult.stmts[0].stmt", 19, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"limitOption\":\"LIMIT_OPTION_NONE\"}}}]}", I,
		  "line 1, column 48: \"LIMIT_OPTION_NONE\" is not a value of enum LimitOption at "
		  "ParseResult.stmts[0].stmt.SelectStmt.limitOption",
		  47, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"limitOption\":2}}}]}", I,
		  "line 1, column 48: expected a string (an enum value name), found a number", 47, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"all\":1}}}]}", I,
		  "line 1, column 40: expected a boolean, found a number at ParseResult.stmts[0].stmt.SelectStmt.all", 39,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt_len\":2147483648}]}", I,
		  "line 1, column 23: 2147483648 is out of range for an integer (int32) at ParseResult.stmts[0].stmt_len", 22,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt_len\":-2147483649}]}", I, "line 1, column 23: -2147483649 is out of range", 22,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt_len\":1.5}]}", I, "line 1, column 23: expected an integer (int32), found 1.5", 22,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt_len\":1e2}]}", I, "line 1, column 23: expected an integer (int32), found 1e2", 22,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt_len\":99999999999999999999999}]}", I,
		  "line 1, column 23: 99999999999999999999999 is out of range", 22, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"A_Const\":{\"ival\":{\"ival\":\"5\"}}}}]}", I,
		  "line 1, column 46: expected an integer (int32), found a string at "
		  "ParseResult.stmts[0].stmt.A_Const.ival.ival",
		  45, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"FetchStmt\":{\"howMany\":9223372036854775808}}}]}", I,
		  "line 1, column 43: 9223372036854775808 is out of range for an integer (int64) at "
		  "ParseResult.stmts[0].stmt.FetchStmt.howMany",
		  42, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{},\"UpdateStmt\":{}}}]}", I,
		  "line 1, column 35: a node object has one key, its kind (SelectStmt); found a second at "
		  "ParseResult.stmts[0].stmt",
		  34, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":[]}}]}", I,
		  "line 1, column 33: expected an object, found an array at ParseResult.stmts[0].stmt.SelectStmt", 32,
		  __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetList\":[{\"ResTarget\":{\"val\":\"x\"}}]}}}]}", I,
		  "line 1, column 68: expected a node ({\"Kind\":{...}}), found a string at "
		  "ParseResult.stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val",
		  67, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetList\":[{},{},true]}}}]}", I,
		  "line 1, column 54: expected a node ({\"Kind\":{...}}), found a boolean at "
		  "ParseResult.stmts[0].stmt.SelectStmt.targetList[2]",
		  53, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"SelectStmt\":{\"targetList\":[{},]}}}]}", M, "line 1, column 51: unexpected ']'",
		  50, __LINE__);

	/* a key twice, or two members of one oneof: an error naming both places (the last no longer wins) */
	fails("{\"version\":7,\"version\":8}", I,
		  "line 1, column 14: key \"version\" twice in one ParseResult (first at line 1, column 2)", 13, __LINE__);
	fails("{\"stmts\":[{\"stmt\":{\"A_Const\":{\"ival\":{\"ival\":1},\"sval\":{\"sval\":\"x\"}}}}]}", I,
		  "line 1, column 49: key \"sval\" of A_Const: its oneof val is set already, by \"ival\" (line 1, column 31)",
		  48, __LINE__);

	/* what is accepted: null for any field, {} for a NULL node, keys in any order */
	r = read_json("{\"stmts\":[{\"stmt_len\":3,\"stmt\":null,\"stmt_location\":null},{\"stmt\":{}}],"
				  "\"version\":8}",
				  &st);
	CHECK(r && r->version == 8 && r->n_stmts == 2 && r->stmts[0]->stmt_len == 3 && !r->stmts[0]->stmt &&
			  !r->stmts[1]->stmt,
		  "lenient where it is safe: %s", r ? "" : st.message);
	r = read_json("{\"stmts\":[{\"stmt\":{\"String\":{\"sval\":null}}},{\"stmt\":{\"String\":{}}}]}", &st);
	CHECK(r && strcmp(((pgbind_String *)r->stmts[0]->stmt)->sval, "") == 0 &&
			  strcmp(((pgbind_String *)r->stmts[1]->stmt)->sval, "") == 0,
		  "a value node's string is never NULL (as pgbind_decode)");
	r = read_json("{\"stmts\":[{\"stmt\":{\"IntList\":{\"items\":[1,-2,{\"Integer\":{\"ival\":3}}]}}}]}", &st);
	pgbind_IntList *il = r ? (pgbind_IntList *)r->stmts[0]->stmt : NULL;
	CHECK(il && il->n_items == 3 && ((pgbind_Integer *)il->items[1])->ival == -2 &&
			  ((pgbind_Integer *)il->items[2])->ival == 3,
		  "IntList cells as numbers (libpg_query) or nodes: %s", r ? "" : st.message);
	const char *o = r ? pgbind_json(r, NULL, arena, &st) : NULL;
	CHECK(o && strstr(o, "{\"IntList\":{\"items\":[1,-2,3]}}"), "written as libpg_query writes them: %s", S(o));

	/* arguments */
	CHECK(!pgbind_json_read(NULL, 1, NULL, arena, &st) && st.code == PGBIND_ERROR_ARGUMENT, "json NULL");
	CHECK(!pgbind_json_read("{}", 2, NULL, NULL, &st) && st.code == PGBIND_ERROR_ARGUMENT, "arena NULL");
	CHECK(!pgbind_json(NULL, NULL, arena, &st) && st.code == PGBIND_ERROR_ARGUMENT, "tree NULL");
	r = pgbind_json_read(NULL, 0, NULL, arena, &st);
	CHECK(!r && st.code == M, "NULL, 0 is empty input");
	CHECK(pgbind_json_read("{}", 2, NULL, arena, NULL) != NULL, "status may be NULL");
	CHECK(!pgbind_json_read("{", 1, NULL, arena, NULL), "status may be NULL on failure");
}

/* ---- depth ----------------------------------------------------------------------------------- */

static void test_depth(void)
{
	const size_t levels = 100000;
	pgbind_Status st = {0};
	/* 100,000 nested List nodes: the depth limit, not the stack, stops the reader */
	const char *open = "{\"List\":{\"items\":[", *close = "]}}";
	size_t cap = 64 + levels * (strlen(open) + strlen(close));
	char *json = malloc(cap), *p = json;
	if (!json)
		return;
	p += sprintf(p, "{\"stmts\":[{\"stmt\":");
	for (size_t i = 0; i < levels; i++)
		p += sprintf(p, "%s", open);
	for (size_t i = 0; i < levels; i++)
		p += sprintf(p, "%s", close);
	p += sprintf(p, "}]}");
	pgbind_ParseResult *r = pgbind_json_read(json, (size_t)(p - json), NULL, arena, &st);
	CHECK(!r && st.code == PGBIND_ERROR_DEPTH && strstr(st.message, "nesting deeper than 10000 levels"),
		  "100,000 levels: %s", st.message);
	/* the limit counts messages as every path does: ParseResult is level 0, RawStmt 1, each List one more */
	pgbind_Options small = {.max_depth = 50};
	char *shallow = malloc(64 + 60 * (strlen(open) + strlen(close))), *q = shallow;
	if (!shallow)
		return;
	q += sprintf(q, "{\"stmts\":[{\"stmt\":");
	for (int i = 0; i < 60; i++)
		q += sprintf(q, "%s", open);
	for (int i = 0; i < 60; i++)
		q += sprintf(q, "%s", close);
	q += sprintf(q, "}]}");
	r = pgbind_json_read(shallow, (size_t)(q - shallow), &small, arena, &st);
	CHECK(!r && st.code == PGBIND_ERROR_DEPTH && strstr(st.message, "more than") == NULL &&
			  strstr(st.message, "nesting deeper than 50 levels"),
		  "max_depth 50: %s", st.message);
	pgbind_Options enough = {.max_depth = 61};
	r = pgbind_json_read(shallow, (size_t)(q - shallow), &enough, arena, &st);
	CHECK(r != NULL, "RawStmt and 60 Lists (levels 1 to 61) within max_depth 61: %s", r ? "" : st.message);
	enough.max_depth = 60;
	CHECK(!pgbind_json_read(shallow, (size_t)(q - shallow), &enough, arena, &st) && st.code == PGBIND_ERROR_DEPTH,
		  "but not within 60");
	/* the same tree written: the writer counts the same levels */
	enough.max_depth = 61;
	const char *o = r ? pgbind_json(r, &enough, arena, &st) : NULL;
	pgbind_ParseResult *again = o ? pgbind_json_read(o, strlen(o), &enough, arena, &st) : NULL;
	CHECK(again && pgbind_ParseResult_equal(again, r), "written back at max_depth 61, and read again");
	enough.max_depth = 60;
	CHECK(r && !pgbind_json(r, &enough, arena, &st) && st.code == PGBIND_ERROR_DEPTH, "not at 60: %s", st.message);
	free(shallow);

	/* 100,000 brackets or braces where a value is expected: an error at once */
	memset(json, '[', levels);
	json[levels] = '\0';
	CHECK(!pgbind_json_read(json, levels, NULL, arena, &st) && st.code == PGBIND_ERROR_INVALID && st.offset == 0,
		  "[[[[...: %s", st.message);
	p = json + sprintf(json, "{\"stmts\":[{\"stmt\":");
	memset(p, '{', levels);
	p[levels] = '\0';
	CHECK(!pgbind_json_read(json, strlen(json), NULL, arena, &st) && st.code == PGBIND_ERROR_MALFORMED &&
			  strstr(st.message, "line 1, column 20: unexpected '{': expected a node kind"),
		  "{{{{...: %s", st.message);
	free(json);

	/* a hand-built tree 100,000 deep: the writer stops at max_depth */
	pgbind_ParseResult *tree = pgbind_parse("SELECT 1", NULL, arena, &st);
	pgbind_Node *inner = NULL;
	for (size_t i = 0; i < levels; i++) {
		pgbind_List *l = pgbind_Arena_Malloc(arena, sizeof *l);
		pgbind_Node **items = pgbind_Arena_Malloc(arena, sizeof *items);
		l->tag = PGBIND_T_List;
		l->n_items = 1;
		l->items = items;
		items[0] = inner;
		inner = (pgbind_Node *)l;
	}
	tree->stmts[0]->stmt = inner;
	CHECK(!pgbind_json(tree, NULL, arena, &st) && st.code == PGBIND_ERROR_DEPTH &&
			  strstr(st.message, "nesting deeper than 10000 levels") && strstr(st.message, ".List.items[0].List"),
		  "writer: %s", st.message);
}

/* ---- robustness: truncations and byte flips -------------------------------------------------- */

static void test_mutations(void)
{
	const char *sql = "SELECT DISTINCT a, -1, 'x\\y' FROM t AS u(c) WHERE b IS NULL ORDER BY 1 LIMIT 5";
	const char *o = ours(sql);
	if (!o)
		return;
	size_t len = strlen(o);
	long ok = 0, errors = 0, bad = 0;
	char *buf = malloc(len + 1);
	pgbind_Status st;
	/* every prefix: an error with an offset inside the input (only the whole text parses) */
	for (size_t n = 0; n < len; n++) {
		memcpy(buf, o, n); /* no NUL terminator: the reader must stop at n */
		memset(&st, 0, sizeof st);
		pgbind_Arena *a = pgbind_Arena_New();
		pgbind_ParseResult *r = pgbind_json_read(buf, n, NULL, a, &st);
		if (r || st.offset > n || strncmp(st.message, "line ", 5) != 0)
			bad++;
		else
			errors++;
		pgbind_Arena_Free(a);
	}
	CHECK(bad == 0 && errors == (long)len, "%zu prefixes: %ld clean errors, %ld bad", len, errors, bad);
	/* every byte replaced by a few others: a tree or a clean error */
	static const char repl[] = {'"', '{', '}', '[', ']', ',', ':', '0', '-', 'x', '\\', '\0', '\x80', ' '};
	bad = errors = 0;
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < sizeof repl; k++) {
			memcpy(buf, o, len);
			buf[i] = repl[k];
			memset(&st, 0, sizeof st);
			pgbind_Arena *a = pgbind_Arena_New();
			pgbind_ParseResult *r = pgbind_json_read(buf, len, NULL, a, &st);
			if (r) {
				ok++;
				const char *again = pgbind_json(r, NULL, a, &st);
				if (!again && st.code != PGBIND_ERROR_INVALID)
					bad++;
			} else if (st.offset > len || strncmp(st.message, "line ", 5) != 0 || st.code == PGBIND_OK) {
				bad++;
			} else {
				errors++;
			}
			pgbind_Arena_Free(a);
		}
	CHECK(bad == 0, "%zu byte flips: %ld read, %ld clean errors, %ld bad", len * sizeof repl, ok, errors, bad);
	/* allocation failures at every block: NOMEM, never a crash */
	bad = 0;
	for (size_t n = 1; n < 8; n++) {
		pgbind_Arena *a = pgbind_Arena_New();
		pgbind_Arena_FailAfter(a, n);
		memset(&st, 0, sizeof st);
		pgbind_ParseResult *r = pgbind_json_read(o, len, NULL, a, &st);
		if (!r && st.code != PGBIND_ERROR_NOMEM)
			bad++;
		pgbind_Arena_Free(a);
	}
	CHECK(bad == 0, "allocation failures give PGBIND_ERROR_NOMEM");
	free(buf);
}

/* ---- threads: the first calls race to build the key tables ---------------------------------- */

static void *thread_main(void *arg)
{
	static const char *sqls[] = {"SELECT -5, 'a<b', DISTINCT_x FROM t", "CREATE SEQUENCE s INCREMENT BY -1",
								 "UPDATE t SET a = 1 WHERE b IN (1, 2.5, 'x')"};
	long bad = 0;
	for (int round = 0; round < 200; round++) {
		pgbind_Arena *a = pgbind_Arena_New();
		const char *sql = sqls[(round + (int)(intptr_t)arg) % 3];
		pgbind_Status st = {0};
		pgbind_ParseResult *t = pgbind_parse(sql, NULL, a, &st);
		const char *j = t ? pgbind_json(t, NULL, a, &st) : NULL;
		pgbind_ParseResult *r = j ? pgbind_json_read(j, strlen(j), NULL, a, &st) : NULL;
		if (!r || !pgbind_ParseResult_equal(r, t))
			bad++;
		pgbind_Arena_Free(a);
	}
	return (void *)(intptr_t)bad;
}

static void test_threads(void)
{
	pthread_t th[4];
	int started = 0;
	long bad = 0;
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)i) == 0)
			started++;
	for (int i = 0; i < started; i++) {
		void *ret;
		pthread_join(th[i], &ret);
		bad += (long)(intptr_t)ret;
	}
	CHECK(started == 4 && bad == 0, "4 threads, 800 round trips from a cold start: %d started, %ld bad", started, bad);
}

/* ---- the corpus ------------------------------------------------------------------------------ */

typedef struct {
	long statements, syntax_errors, bug_statements, bug_values;
	char **stmts; /* for --bench */
	size_t n_stmts, cap_stmts;
} Corpus;

static void mismatch(const char *file, int line, const char *stmt, const char *what, const char *a, const char *b)
{
	printf("MISMATCH %s:%d: %s\n    %.200s%s\n", file, line, what, stmt, strlen(stmt) > 200 ? "..." : "");
	if (a && b) {
		size_t at = 0;
		while (a[at] && a[at] == b[at])
			at++;
		size_t from = at > 60 ? at - 60 : 0;
		printf("    at byte %zu:\n    want ...%.120s\n    got  ...%.120s\n", at, a + from, b + from);
	}
}

static bool same_bytes(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len)
{
	const uint8_t *data;
	size_t len;
	pgbind_Status st = {0};
	return tree && pgbind_encode(tree, NULL, arena, &data, &len, &st) && len == want_len &&
		   memcmp(data, want, len) == 0;
}

static void corpus_statement(Corpus *c, const char *file, int line, const char *stmt)
{
	PgQueryParseResult their = pg_query_parse(stmt);
	if (their.error) {
		c->syntax_errors++; /* syntax errors are `pgbind verify`'s business */
		pg_query_free_parse_result(their);
		return;
	}
	c->statements++;
	PgQueryProtobufParseResult pb = pg_query_parse_protobuf(stmt);
	const uint8_t *want = (const uint8_t *)pb.parse_tree.data;
	size_t want_len = pb.parse_tree.len;
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse(stmt, NULL, arena, &st);
	const char *o = tree ? pgbind_json(tree, NULL, arena, &st) : NULL;
	char why[400];

	/* text: ours, with libpg_query's bugs applied, is theirs byte for byte */
	int n_bugs = 0;
	char *buggy = o ? json_with_known_bugs(o, &n_bugs) : NULL;
	bool ok = buggy && strcmp(buggy, their.parse_tree) == 0;
	CHECK(ok, "%s:%d: pgbind_json equals pg_query_parse's JSON", file, line);
	if (!ok) {
		snprintf(why, sizeof why, "pgbind_json differs from pg_query_parse%s%s", o ? "" : ": ", o ? "" : st.message);
		mismatch(file, line, stmt, why, their.parse_tree, buggy);
	}
	if (n_bugs) {
		c->bug_statements++;
		c->bug_values += n_bugs;
	}

	/* read: libpg_query's JSON (ours where theirs lost a value) encodes to libpg_query's bytes */
	const char *source = n_bugs ? o : their.parse_tree;
	pgbind_ParseResult *r = source ? read_json(source, &st) : NULL;
	ok = same_bytes(r, want, want_len);
	CHECK(ok, "%s:%d: encode(json_read(%s JSON)) equals pg_query_parse_protobuf", file, line,
		  n_bugs ? "our" : "libpg_query's");
	if (!ok) {
		snprintf(why, sizeof why, "encode(json_read(%s JSON)) differs from pg_query_parse_protobuf%s%s",
				 n_bugs ? "our" : "libpg_query's", r ? "" : ": ", r ? "" : st.message);
		mismatch(file, line, stmt, why, NULL, NULL);
	}
	if (!n_bugs) {
		const char *again = r ? pgbind_json(r, NULL, arena, &st) : NULL;
		ok = again && strcmp(again, their.parse_tree) == 0;
		CHECK(ok, "%s:%d: json(json_read(theirs)) == theirs", file, line);
		if (!ok)
			mismatch(file, line, stmt, "pgbind_json(pgbind_json_read(libpg_query's JSON)) differs from it",
					 their.parse_tree, again ? again : "");
	}

	/* own: our JSON reads back to the tree and to the same bytes */
	r = o ? read_json(o, &st) : NULL;
	ok = r && pgbind_ParseResult_equal(r, tree) && same_bytes(r, want, want_len);
	CHECK(ok, "%s:%d: json_read(pgbind_json(tree)) equals tree", file, line);
	if (!ok)
		mismatch(file, line, stmt, r ? "json_read(pgbind_json(tree)) differs from tree" : st.message, NULL, NULL);

	free(buggy);
	pg_query_free_protobuf_parse_result(pb);
	pg_query_free_parse_result(their);
}

typedef struct CorpusFile {
	Corpus *c;
	const char *path;
	bool keep; /* the statements are kept for --bench */
	long seen;
} CorpusFile;

static bool corpus_each(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	CorpusFile *f = ctx;
	Corpus *c = f->c;
	(void)text, (void)at, (void)len;
	pgbind_Arena_Free(arena);
	arena = pgbind_Arena_New();
	corpus_statement(c, f->path, line, stmt);
	f->seen++;
	if (f->keep) {
		if (c->n_stmts == c->cap_stmts) {
			c->cap_stmts = c->cap_stmts ? c->cap_stmts * 2 : 1024;
			c->stmts = realloc(c->stmts, c->cap_stmts * sizeof *c->stmts);
		}
		c->stmts[c->n_stmts++] = stmt;
	} else {
		free(stmt);
	}
	return true;
}

/* The statements of one SQL file, split as `pgbind verify` splits them. */
static void corpus_file(Corpus *c, const char *path, bool keep)
{
	CorpusFile f = {c, path, keep, 0};
	CHECK(cli_each_statement(path, "test_json", corpus_each, &f), "%s: read and split", path);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: other processes disturb it less */
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* pgbind_parse + pgbind_json against pg_query_parse, statement by statement, in this thread's
 * CPU time, best of 10 rounds */
static void bench(Corpus *c)
{
	double best_ours = 1e30, best_theirs = 1e30, best_parse = 1e30;
	size_t bytes = 0;
	for (int round = 0; round < 10; round++) {
		double t0 = now();
		for (size_t i = 0; i < c->n_stmts; i++) {
			PgQueryParseResult r = pg_query_parse(c->stmts[i]);
			pg_query_free_parse_result(r);
		}
		double t1 = now();
		bytes = 0;
		for (size_t i = 0; i < c->n_stmts; i++) {
			pgbind_Arena *a = pgbind_Arena_New();
			pgbind_ParseResult *t = pgbind_parse(c->stmts[i], NULL, a, NULL);
			const char *j = t ? pgbind_json(t, NULL, a, NULL) : NULL;
			bytes += j ? strlen(j) : 0;
			pgbind_Arena_Free(a);
		}
		double t2 = now();
		for (size_t i = 0; i < c->n_stmts; i++) {
			pgbind_Arena *a = pgbind_Arena_New();
			pgbind_parse(c->stmts[i], NULL, a, NULL);
			pgbind_Arena_Free(a);
		}
		double t3 = now();
		if (t1 - t0 < best_theirs)
			best_theirs = t1 - t0;
		if (t2 - t1 < best_ours)
			best_ours = t2 - t1;
		if (t3 - t2 < best_parse)
			best_parse = t3 - t2;
	}
	printf("# bench: %zu statements, %.1f MB of JSON; CPU time, best of 10 rounds\n", c->n_stmts, (double)bytes / 1e6);
	printf("#   pg_query_parse                 %8.1f ms\n", best_theirs * 1e3);
	printf("#   pgbind_parse + pgbind_json     %8.1f ms  (%.2fx faster)\n", best_ours * 1e3, best_theirs / best_ours);
	printf("#   pgbind_parse alone             %8.1f ms  (pgbind_json: %.1f ms, %.0f MB/s)\n", best_parse * 1e3,
		   (best_ours - best_parse) * 1e3, (double)bytes / 1e6 / (best_ours - best_parse));
	CHECK(best_ours < best_theirs, "pgbind_parse + pgbind_json is faster than pg_query_parse");
}

int main(int argc, char **argv)
{
	bool do_bench = false;
	test_threads(); /* first: the tables are built by whichever thread comes first */
	arena = pgbind_Arena_New();
	test_negative_integers();
	test_bugs();
	test_format();
	test_malformed();
	test_depth();
	test_mutations();
	int fixed_passed = n_passed, fixed_failed = n_failed;
	printf("# fixed cases: %d passed, %d failed\n", fixed_passed, fixed_failed);

	Corpus c = {0};
	int n_files = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--bench") == 0) {
			do_bench = true;
			continue;
		}
		n_files++;
		corpus_file(&c, argv[i], do_bench);
	}
	if (n_files) {
		printf("# corpus: %ld statements in %d files (%ld syntax errors skipped); libpg_query's JSON lost a "
			   "negative Integer in %ld statements (%ld values)\n",
			   c.statements, n_files, c.syntax_errors, c.bug_statements, c.bug_values);
		printf("# corpus checks: %d passed, %d failed\n", n_passed - fixed_passed, n_failed - fixed_failed);
	}
	if (do_bench && c.n_stmts)
		bench(&c);
	for (size_t i = 0; i < c.n_stmts; i++)
		free(c.stmts[i]);
	free(c.stmts);
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
