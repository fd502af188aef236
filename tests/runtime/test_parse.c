/*
 * test_parse.c -- the parse direction through the public API: the mistakes hand-written
 * converters made (dropped NULL list cells, recursion into xpr, lost node kinds, enum
 * arithmetic), every A_Const kind, syntax errors, nesting limits and the encoder's bytes against
 * libpg_query's. Every expectation is a property of PostgreSQL's grammar, stated where it is
 * checked; encoded bytes are compared with pg_query_parse_protobuf, never with a pasted copy.
 */
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "check_tree.h"

/* ---- helpers --------------------------------------------------------------------------------- */

/* The first target of a SELECT's target list. */
static pgbind_Node *target(pgbind_Node *stmt, size_t i)
{
	if (!stmt || stmt->tag != PGBIND_T_SelectStmt)
		return NULL;
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)stmt;
	if (i >= s->n_targetList)
		return NULL;
	return ((pgbind_ResTarget *)s->targetList[i])->val;
}

/* Finds the first node of kind `tag` anywhere below msg (descriptor-driven, depth-first). */
static const pgbind_Node *find_in(const pgbind_MessageDesc *d, const void *msg, uint32_t tag);

static const pgbind_Node *find_node(const pgbind_Node *n, uint32_t tag)
{
	if (!n)
		return NULL;
	if (n->tag == tag)
		return n;
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	return d ? find_in(d, n, tag) : NULL;
}

static const pgbind_Node *find_in(const pgbind_MessageDesc *d, const void *msg, uint32_t tag)
{
	const char *base = msg;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		const pgbind_Node *hit = NULL;
		if (f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_ONEOF) {
			hit = find_node(*(const pgbind_Node *const *)p, tag);
		} else if (f->wire == PGBIND_WIRE_MESSAGE && *(const void *const *)p) {
			const pgbind_MessageDesc *sd = &pgbind_message_descs[f->type_index];
			hit = sd->tag == tag ? *(const pgbind_Node *const *)p : find_in(sd, *(const void *const *)p, tag);
		} else if (f->wire == PGBIND_WIRE_REPEATED_NODE) {
			size_t n = *(const size_t *)(base + f->count_offset);
			for (size_t k = 0; k < n && !hit; k++)
				hit = find_node((*(pgbind_Node *const *const *)p)[k], tag);
		}
		if (hit)
			return hit;
	}
	return NULL;
}

static const pgbind_Node *find(const char *sql, uint32_t tag)
{
	pgbind_ParseResult *r = parse(sql);
	const pgbind_Node *hit = NULL;
	for (size_t i = 0; r && i < r->n_stmts && !hit; i++)
		hit = find_node((const pgbind_Node *)r->stmts[i], tag);
	return hit;
}

/* encode(parse(sql)) == pg_query_parse_protobuf(sql) */
static bool same_bytes(const char *sql)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *r = pgbind_parse(sql, NULL, arena, &st);
	const uint8_t *data;
	size_t len;
	if (!r || !pgbind_encode(r, NULL, arena, &data, &len, &st))
		return false;
	PgQueryProtobufParseResult want = pg_query_parse_protobuf(sql);
	bool same = !want.error && want.parse_tree.len == len && memcmp(want.parse_tree.data, data, len) == 0;
	pg_query_free_protobuf_parse_result(want);
	return same;
}

static char *repeat_join(const char *head, const char *unit, const char *tail, int n)
{
	size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(tail) + 1;
	char *s = malloc(len), *p = s;
	p += sprintf(p, "%s", head);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", unit);
	sprintf(p, "%s", tail);
	return s;
}

/* ---- the classic mistakes -------------------------------------------------------------------- */

static void test_distinct(void)
{
	/* gram.y: DISTINCT without ON is list_make1(NIL), a list holding one NULL cell */
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)first_stmt("SELECT DISTINCT a FROM t");
	CHECK(s && s->n_distinctClause == 1 && s->distinctClause[0] == NULL, "SELECT DISTINCT keeps its NULL cell");
	CHECK(same_bytes("SELECT DISTINCT a FROM t"), "SELECT DISTINCT bytes equal libpg_query's");
	s = (pgbind_SelectStmt *)first_stmt("SELECT DISTINCT ON (a, b) a, b, c FROM t");
	CHECK(s && s->n_distinctClause == 2 && s->distinctClause[0] && s->distinctClause[0]->tag == PGBIND_T_ColumnRef,
		  "DISTINCT ON (a, b) keeps its two expressions");
	s = (pgbind_SelectStmt *)first_stmt("SELECT a FROM t");
	CHECK(s && s->n_distinctClause == 0, "no DISTINCT, no list");
}

static void test_sql_value_function(void)
{
	/* SQLValueFunction embeds the Expr supertype: converting xpr as a node would recurse forever */
	pgbind_SQLValueFunction *f = (pgbind_SQLValueFunction *)target(first_stmt("SELECT CURRENT_TIMESTAMP"), 0);
	CHECK(f && f->tag == PGBIND_T_SQLValueFunction && f->op == PGBIND_SVFOP_CURRENT_TIMESTAMP && f->xpr == NULL,
		  "CURRENT_TIMESTAMP is an SQLValueFunction with no xpr");
	f = (pgbind_SQLValueFunction *)target(first_stmt("SELECT CURRENT_TIME(3)"), 0);
	CHECK(f && f->op == PGBIND_SVFOP_CURRENT_TIME_N && f->typmod == 3, "CURRENT_TIME(3) keeps its precision");
	CHECK(same_bytes("SELECT CURRENT_TIMESTAMP, LOCALTIME, CURRENT_USER, CURRENT_CATALOG"),
		  "SQLValueFunction bytes equal libpg_query's");
}

static void test_begin_atomic(void)
{
	/* ReturnStmt only appears in SQL-standard function bodies */
	const char *sql = "CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; RETURN a + 1; END";
	const pgbind_ReturnStmt *r = (const pgbind_ReturnStmt *)find(sql, PGBIND_T_ReturnStmt);
	CHECK(r && r->returnval && r->returnval->tag == PGBIND_T_A_Expr, "BEGIN ATOMIC ... RETURN a + 1 has a ReturnStmt");
	CHECK(same_bytes(sql), "BEGIN ATOMIC bytes equal libpg_query's");
}

static void test_partitions(void)
{
	const pgbind_PartitionSpec *spec =
		(const pgbind_PartitionSpec *)find("CREATE TABLE p (a int) PARTITION BY RANGE (a)", PGBIND_T_PartitionSpec);
#if PGBIND_PG_MAJOR >= 16 /* PartitionSpec.strategy became the enum PartitionStrategy */
	CHECK(spec && spec->strategy == PGBIND_PARTITION_STRATEGY_RANGE && spec->n_partParams == 1, "PARTITION BY RANGE");
	spec = (const pgbind_PartitionSpec *)find("CREATE TABLE p (a int) PARTITION BY HASH (a)", PGBIND_T_PartitionSpec);
	CHECK(spec && spec->strategy == PGBIND_PARTITION_STRATEGY_HASH, "PARTITION BY HASH");
#else /* a string: "range", "list", "hash" */
	CHECK(spec && strcmp(spec->strategy, "range") == 0 && spec->n_partParams == 1, "PARTITION BY RANGE");
	spec = (const pgbind_PartitionSpec *)find("CREATE TABLE p (a int) PARTITION BY HASH (a)", PGBIND_T_PartitionSpec);
	CHECK(spec && strcmp(spec->strategy, "hash") == 0, "PARTITION BY HASH");
#endif

	const char *range = "CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (MINVALUE, 1) TO (10, MAXVALUE)";
	const pgbind_PartitionBoundSpec *b = (const pgbind_PartitionBoundSpec *)find(range, PGBIND_T_PartitionBoundSpec);
	/* PARTITION_STRATEGY_RANGE is the char 'r'; MINVALUE is a ColumnRef until parse analysis */
	CHECK(b && strcmp(b->strategy, "r") == 0 && b->n_lowerdatums == 2 && b->n_upperdatums == 2 &&
			  b->lowerdatums[0]->tag == PGBIND_T_ColumnRef,
		  "FOR VALUES FROM (MINVALUE, 1) TO (10, MAXVALUE)");
	CHECK(same_bytes(range), "range bound bytes equal libpg_query's");
	const char *hash = "CREATE TABLE p2 PARTITION OF p FOR VALUES WITH (MODULUS 4, REMAINDER 3)";
	b = (const pgbind_PartitionBoundSpec *)find(hash, PGBIND_T_PartitionBoundSpec);
	CHECK(b && strcmp(b->strategy, "h") == 0 && b->modulus == 4 && b->remainder == 3, "WITH (MODULUS 4, REMAINDER 3)");
	b = (const pgbind_PartitionBoundSpec *)find("CREATE TABLE p3 PARTITION OF p DEFAULT", PGBIND_T_PartitionBoundSpec);
	CHECK(b && b->is_default, "DEFAULT partition");
	b = (const pgbind_PartitionBoundSpec *)find("CREATE TABLE p4 PARTITION OF p FOR VALUES IN (1, 2)",
												PGBIND_T_PartitionBoundSpec);
	CHECK(b && strcmp(b->strategy, "l") == 0 && b->n_listdatums == 2, "FOR VALUES IN (1, 2)");
}

static void test_char_enum(void)
{
	/* FunctionParameterMode's C values are characters ('i', 'o', 'b', 'v', 't', 'd'); the proto
	 * numbers them 1..6 in declaration order: mapped by name, never by arithmetic */
	const char *sql = "CREATE FUNCTION f(a int, IN b int, OUT c int, INOUT d int, VARIADIC e int[]) "
					  "LANGUAGE sql AS 'select 1'";
	pgbind_CreateFunctionStmt *f = (pgbind_CreateFunctionStmt *)first_stmt(sql);
	CHECK(f && f->n_parameters == 5, "five parameters");
	if (f && f->n_parameters == 5) {
		static const pgbind_FunctionParameterMode want[5] = {PGBIND_FUNC_PARAM_DEFAULT, PGBIND_FUNC_PARAM_IN,
															 PGBIND_FUNC_PARAM_OUT, PGBIND_FUNC_PARAM_INOUT,
															 PGBIND_FUNC_PARAM_VARIADIC};
		for (int i = 0; i < 5; i++)
			CHECK(((pgbind_FunctionParameter *)f->parameters[i])->mode == want[i], "parameter %d mode", i);
	}
	const char *table = "CREATE FUNCTION g(a int) RETURNS TABLE (x int) LANGUAGE sql AS 'select 1'";
	f = (pgbind_CreateFunctionStmt *)first_stmt(table);
	CHECK(f && f->n_parameters == 2 && ((pgbind_FunctionParameter *)f->parameters[1])->mode == PGBIND_FUNC_PARAM_TABLE,
		  "RETURNS TABLE columns are FUNC_PARAM_TABLE parameters");
	CHECK(same_bytes(table), "RETURNS TABLE bytes equal libpg_query's");
	CHECK(same_bytes(sql), "parameter modes' bytes equal libpg_query's");
	/* LimitOption: the library's C value 0 is LIMIT_OPTION_DEFAULT (see schema/overrides.txt, until:15) */
	pgbind_SelectStmt *s = (pgbind_SelectStmt *)first_stmt("SELECT 1");
	CHECK(s && s->limitOption == PGBIND_LIMIT_OPTION_DEFAULT, "no LIMIT is LIMIT_OPTION_DEFAULT");
	s = (pgbind_SelectStmt *)first_stmt("SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES");
	CHECK(s && s->limitOption == PGBIND_LIMIT_OPTION_WITH_TIES, "FETCH FIRST ... WITH TIES");
	s = (pgbind_SelectStmt *)first_stmt("SELECT 1 LIMIT 3");
	CHECK(s && s->limitOption == PGBIND_LIMIT_OPTION_COUNT, "LIMIT 3 is LIMIT_OPTION_COUNT");
}

static void test_a_const(void)
{
	const char *sql = "SELECT 1, 1.5, true, 'x', B'101', NULL, '', -5, 4294967296, X'1F', 0";
	pgbind_Node *s = first_stmt(sql);
	const pgbind_A_Const *c[11];
	for (size_t i = 0; i < 11; i++)
		c[i] = (const pgbind_A_Const *)target(s, i);
	for (size_t i = 0; i < 11; i++)
		CHECK(c[i] && c[i]->tag == PGBIND_T_A_Const, "target %zu is an A_Const", i);
	if (!c[10])
		return;
	CHECK(c[0]->val->tag == PGBIND_T_Integer && ((pgbind_Integer *)c[0]->val)->ival == 1, "integer");
	CHECK(c[1]->val->tag == PGBIND_T_Float && strcmp(((pgbind_Float *)c[1]->val)->fval, "1.5") == 0, "numeric");
	CHECK(c[2]->val->tag == PGBIND_T_Boolean && ((pgbind_Boolean *)c[2]->val)->boolval, "boolean");
	CHECK(c[3]->val->tag == PGBIND_T_String && strcmp(((pgbind_String *)c[3]->val)->sval, "x") == 0, "string");
	/* the scanner keeps the bit string's type letter: b for B'...', x for X'...' */
	CHECK(c[4]->val->tag == PGBIND_T_BitString && strcmp(((pgbind_BitString *)c[4]->val)->bsval, "b101") == 0,
		  "bit string");
	CHECK(c[5]->isnull && c[5]->val == NULL, "NULL is isnull with no value");
	CHECK(c[6]->val && c[6]->val->tag == PGBIND_T_String && ((pgbind_String *)c[6]->val)->sval[0] == '\0',
		  "the empty string is a present String with sval \"\"");
	/* the grammar folds a minus sign into a numeric constant */
	CHECK(c[7]->val->tag == PGBIND_T_Integer && ((pgbind_Integer *)c[7]->val)->ival == -5, "-5");
	/* beyond int32, the scanner makes a Float */
	CHECK(c[8]->val->tag == PGBIND_T_Float && strcmp(((pgbind_Float *)c[8]->val)->fval, "4294967296") == 0,
		  "4294967296 is a Float");
	CHECK(c[9]->val->tag == PGBIND_T_BitString && strcmp(((pgbind_BitString *)c[9]->val)->bsval, "x1F") == 0,
		  "hex bit string");
	CHECK(c[10]->val->tag == PGBIND_T_Integer && ((pgbind_Integer *)c[10]->val)->ival == 0,
		  "0 is a present Integer (an empty message on the wire)");
	CHECK(same_bytes(sql), "every A_Const kind: bytes equal libpg_query's");
	CHECK(same_bytes("SELECT ''"), "SELECT '' bytes equal libpg_query's");
}

/* ---- errors and limits ----------------------------------------------------------------------- */

static void test_errors(void)
{
	pgbind_Status st = {0};
	CHECK(pgbind_parse("SELECT 1 +", NULL, arena, &st) == NULL && st.code == PGBIND_ERROR_SYNTAX &&
			  strcmp(st.message, "syntax error at end of input") == 0 && st.cursorpos == 11,
		  "syntax error at end of input, cursor 11 (got %d \"%s\" at %d)", (int)st.code, st.message, st.cursorpos);
	PgQueryProtobufParseResult want = pg_query_parse_protobuf("SELECT FROM WHERE");
	CHECK(pgbind_parse("SELECT FROM WHERE", NULL, arena, &st) == NULL && want.error &&
			  strcmp(st.message, want.error->message) == 0 && st.cursorpos == want.error->cursorpos,
		  "syntax errors are libpg_query's");
	pg_query_free_protobuf_parse_result(want);
	CHECK(pgbind_parse(NULL, NULL, arena, &st) == NULL && st.code == PGBIND_ERROR_ARGUMENT, "NULL sql");
	CHECK(pgbind_parse("SELECT 1", NULL, NULL, &st) == NULL && st.code == PGBIND_ERROR_ARGUMENT, "NULL arena");
	pgbind_ParseResult *r = parse("");
	CHECK(r && r->n_stmts == 0 && r->version == PG_VERSION_NUM, "empty input: no statements, version %d",
		  PG_VERSION_NUM);
	CHECK(same_bytes(""), "empty input bytes equal libpg_query's");
	r = parse("-- only a comment\n");
	CHECK(r && r->n_stmts == 0, "a comment alone is no statement");
	r = parse("SELECT 1; SELECT 2;; UPDATE t SET a = 1");
	/* PostgreSQL 18 starts a statement at its first token (10), before at the end of the previous
	 * semicolon (9) */
	CHECK(r && r->n_stmts == 3 && r->stmts[1]->stmt_location == (PGBIND_PG_MAJOR >= 18 ? 10 : 9),
		  "three statements with their locations");
	CHECK(same_bytes("SELECT 1; SELECT 2;; UPDATE t SET a = 1"), "several statements: bytes equal libpg_query's");
}

static void test_depth(void)
{
	pgbind_Status st = {0};
	/* 1+1+...+1 is left-deep: n terms nest n-1 A_Exprs (bison parses it without recursion) */
	char *deep = repeat_join("SELECT 1", "+1", "", 100000);
	CHECK(pgbind_parse(deep, NULL, arena, &st) == NULL && st.code == PGBIND_ERROR_DEPTH &&
			  strstr(st.message, "nesting too deep"),
		  "100,000 terms: nesting too deep, not a crash (got %s)", st.message);
	free(deep);

	char *ok = repeat_join("SELECT 1", "+1", "", 2000);
	CHECK(same_bytes(ok), "2,000 terms convert and encode like libpg_query");
	pgbind_Options small = {.max_depth = 100};
	CHECK(pgbind_parse(ok, &small, arena, &st) == NULL && st.code == PGBIND_ERROR_DEPTH,
		  "max_depth = 100 rejects 2,000 terms");
	free(ok);

	char *sub = repeat_join("SELECT ", "(SELECT ", "1", 300);
	size_t len = strlen(sub);
	sub = realloc(sub, len + 301);
	memset(sub + len, ')', 300);
	sub[len + 300] = '\0';
	CHECK(same_bytes(sub), "300 nested subqueries convert and encode like libpg_query");
	free(sub);

	/* UNION chains nest through SelectStmt.larg, a message field, not a Node */
	char *unions = repeat_join("SELECT 1", " UNION SELECT 1", "", 20000);
	CHECK(pgbind_parse(unions, NULL, arena, &st) == NULL && st.code == PGBIND_ERROR_DEPTH,
		  "20,000 UNIONs: nesting too deep (got %s)", st.message);
	free(unions);
}

static void test_arena(void)
{
	/* a tree's nodes come from a few geometrically growing blocks, not one malloc each */
	pgbind_Arena *a = pgbind_Arena_New();
	char *wide = repeat_join("SELECT 1", ", a", "", 20000);
	pgbind_Status st = {0};
	CHECK(pgbind_parse(wide, NULL, a, &st) != NULL, "20,000 targets parse");
	CHECK(pgbind_Arena_BlockCount(a) < 16, "20,000 targets take %zu blocks", pgbind_Arena_BlockCount(a));
	pgbind_Arena_Free(a);
	for (size_t n = 1; n <= 3; n++) {
		a = pgbind_Arena_New();
		pgbind_Arena_FailAfter(a, n);
		pgbind_ParseResult *r = pgbind_parse(wide, NULL, a, &st);
		CHECK(r == NULL && st.code == PGBIND_ERROR_NOMEM, "block allocation %zu fails: out of memory", n);
		pgbind_Arena_Free(a);
	}
	free(wide);
}

int main(void)
{
	arena = pgbind_Arena_New();
	test_distinct();
	test_sql_value_function();
	test_begin_atomic();
	test_partitions();
	test_char_enum();
	test_a_const();
	test_errors();
	test_depth();
	test_arena();
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
