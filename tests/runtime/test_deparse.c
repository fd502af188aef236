/*
 * test_deparse.c -- pgbind_deparse where libpg_query's protobuf route cannot carry the tree (an
 * empty string it reads as NULL), the round-trip check (pgbind_Options.check_deparse), the
 * contract, the isolated deparse (pgbind_Options.isolate_deparse) and the depth deparse takes
 * (the thread's stack, as every path).
 * libpg_query's own answers are computed here (pg_query_parse_protobuf +
 * pg_query_deparse_protobuf), never written down.
 */
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_oracle.h"

#include "../check.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

/* pgbind_deparse without its checks (targets/c/runtime/internal.h): a tree the deparser crashes on */
const char *pgbind_deparse_unchecked(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status);

static pgbind_Arena *arena;

/* libpg_query's deparse of sql through its protobuf route (malloc'd), or NULL. Only for
 * statements it does not crash on. */
static char *theirs(const char *sql)
{
	PgQueryProtobufParseResult p = pg_query_parse_protobuf(sql);
	char *out = NULL;
	if (!p.error) {
		PgQueryDeparseResult d = pg_query_deparse_protobuf(p.parse_tree);
		if (!d.error)
			out = strdup(d.query);
		pg_query_free_deparse_result(d);
	}
	pg_query_free_protobuf_parse_result(p);
	return out;
}

static const char *ours(const char *sql, const pgbind_Options *options, pgbind_Status *st)
{
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, st);
	return tree ? pgbind_deparse(tree, options, arena, st) : NULL;
}

/* 1. Empty strings the protocol carries as NULL: deparsed, never refused where the SQL is right. */
static void test_empty_strings(void)
{
	/* libpg_query prints the right SQL for these from NULL: pgbind's must be the same */
	static const char *const same_as_libpg_query[] = {
		"CREATE TABLESPACE regress_tblspace LOCATION ''",
		"CREATE SUBSCRIPTION regress_addr_sub CONNECTION '' PUBLICATION bar WITH (connect = false, slot_name = NONE)",
	};
	for (size_t i = 0; i < sizeof same_as_libpg_query / sizeof *same_as_libpg_query; i++) {
		const char *sql = same_as_libpg_query[i];
		pgbind_Status st = {0};
		const char *got = ours(sql, NULL, &st);
		char *want = theirs(sql);
		CHECK(got && want && strcmp(got, want) == 0, "%s: pgbind \"%s\", libpg_query \"%s\"", sql,
			  got ? got : st.message, want ? want : "(error)");
		free(want);
	}
	/* libpg_query prints IS NULL for this (another statement): pgbind keeps the '' */
	pgbind_Status st = {0};
	const char *got = ours("COMMENT ON TABLE t IS ''", NULL, &st);
	char *want = theirs("COMMENT ON TABLE t IS ''");
	CHECK(want && strstr(want, "IS NULL"), "libpg_query's route writes IS NULL for IS '' (%s)", want ? want : "");
	CHECK(got && strcmp(got, "COMMENT ON TABLE t IS ''") == 0, "COMMENT ... IS '' keeps its '' (%s)",
		  got ? got : st.message);
	free(want);
	/* libpg_query's route crashes on this one (tried by pgbind verify in a child): pgbind deparses it */
	got = ours("ALTER TYPE mood ADD VALUE ''", NULL, &st);
	CHECK(got && strcmp(got, "ALTER TYPE mood ADD VALUE ''") == 0, "ALTER TYPE ... ADD VALUE '' (%s)",
		  got ? got : st.message);
	/* a string of the tree holding the marker pgbind substitutes: another marker is taken */
	got = ours("COMMENT ON TABLE pgbind_empty_string_0 IS ''", NULL, &st);
	CHECK(got && strcmp(got, "COMMENT ON TABLE pgbind_empty_string_0 IS ''") == 0,
		  "a name that is pgbind's first marker survives (%s)", got ? got : st.message);
	got = ours("COMMENT ON TABLE t IS 'pgbind_empty_string_0 and pgbind_empty_string_1'; COMMENT ON COLUMN t.a IS ''",
			   NULL, &st);
	CHECK(got && strcmp(got, "COMMENT ON TABLE t IS 'pgbind_empty_string_0 and pgbind_empty_string_1'; COMMENT ON "
							 "COLUMN t.a IS ''") == 0,
		  "markers in a constant survive (%s)", got ? got : st.message);

	/* where the SQL would be wrong: an empty name (no parse gives one; a rewrite can) is refused,
	 * naming the node and the field */
	pgbind_ParseResult *tree = pgbind_parse("CREATE TABLESPACE x LOCATION 'a'", NULL, arena, &st);
	CHECK(tree && tree->stmts[0]->stmt->tag == PGBIND_T_CreateTableSpaceStmt, "CREATE TABLESPACE parses");
	if (tree && PG_VERSION_NUM / 10000 == 15) { /* the protobuf route (Debian 12's 15-4.0.0) */
		((pgbind_CreateTableSpaceStmt *)tree->stmts[0]->stmt)->tablespacename = "";
		memset(&st, 0, sizeof st);
		got = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(!got && st.code == PGBIND_ERROR_UNREPRESENTABLE &&
				  strstr(st.message, "CreateTableSpaceStmt.tablespacename is an empty string"),
			  "an empty tablespace name is refused, named (%s)", got ? got : st.message);
		CHECK(strstr(st.message, "\"CREATE TABLESPACE  LOCATION 'a'\" does not parse"), "... saying why (%s)",
			  st.message);
	}
}

/* 2. The round-trip check: SQL only when it parses back equal(), else the first differing field. */
static void test_check(void)
{
	pgbind_Options check = {.check_deparse = true};
	/* libpg_query's deparser writes SQL of another tree (or none that parses) for these; without
	 * the check pgbind passes that SQL on, as libpg_query does */
	static const struct {
		const char *sql, *why;
	} wrong[] = {
		{"DECLARE c ASENSITIVE CURSOR FOR SELECT 1", "first at ParseResult.stmts[0].stmt.DeclareCursorStmt.options"},
		{"ALTER TABLE t ENABLE TRIGGER ALL", "\"ALTER TABLE t ENABLE TRIGGER\" does not parse"},
		{"SHOW ALL", "\"SHOW SESSION ALL\" does not parse"},
		{"CLUSTER VERBOSE", "\"CLUSTER (VERBOSE)\" does not parse"},
		{"GRANT SET ON PARAMETER work_mem TO bob", "does not parse"},
		{"DROP SUBSCRIPTION IF EXISTS sub2 CASCADE",
		 "first at ParseResult.stmts[0].stmt.DropSubscriptionStmt.behavior (DROP_CASCADE, then DROP_RESTRICT)"},
		{"IMPORT FOREIGN SCHEMA \"Remote\" FROM SERVER srv INTO s",
		 "ImportForeignSchemaStmt.remote_schema (\"Remote\", then \"remote\")"},
		{"SELECT 1; SHOW ALL", "\"SELECT 1; SHOW SESSION ALL\" does not parse"},
		/* (XMLROOT's version read past its node: test_policy, declared, an error unchecked too) */
	};
	/* those are libpg_query 15-4.0.0's bugs; other versions fixed some */
	for (size_t i = 0; PG_VERSION_NUM / 10000 == 15 && i < sizeof wrong / sizeof *wrong; i++) {
		pgbind_Status st = {0};
		const char *plain = ours(wrong[i].sql, NULL, &st);
		char *want = theirs(wrong[i].sql);
		CHECK(plain && want && strcmp(plain, want) == 0, "%s: unchecked, libpg_query's SQL (%s)", wrong[i].sql,
			  plain ? plain : st.message);
		free(want);
		memset(&st, 0, sizeof st);
		const char *got = ours(wrong[i].sql, &check, &st);
		CHECK(!got && st.code == PGBIND_ERROR_ROUND_TRIP && strstr(st.message, wrong[i].why),
			  "%s: checked, PGBIND_ERROR_ROUND_TRIP naming \"%s\" (%s)", wrong[i].sql, wrong[i].why,
			  got ? got : st.message);
	}
	/* what round-trips comes out the same, checked or not: statement lengths and locations differ
	 * from the text's, and do not count */
	static const char *const right[] = {
		"SELECT 1",
		"SELECT   a ,b FROM t WHERE x = 1 ;\n\n  UPDATE t SET a = 2",
		"SELECT DISTINCT a FROM t",
		"CREATE TABLESPACE x LOCATION ''",
		"COMMENT ON TABLE t IS ''",
		"INSERT INTO t VALUES (1, 'x', NULL, -2.5e3, B'101')",
	};
	for (size_t i = 0; i < sizeof right / sizeof *right; i++) {
		pgbind_Status st = {0};
		const char *plain = ours(right[i], NULL, &st);
		const char *got = ours(right[i], &check, &st);
		CHECK(plain && got && strcmp(plain, got) == 0, "%s: checked \"%s\", unchecked \"%s\"", right[i],
			  got ? got : st.message, plain ? plain : "");
	}
	/* a tree decoded from protobuf holds NULL where the SQL had "": it still checks */
	PgQueryProtobufParseResult p = pg_query_parse_protobuf("CREATE TABLESPACE x LOCATION ''");
	pgbind_Status st = {0};
	pgbind_ParseResult *decoded =
		p.error ? NULL : pgbind_decode((const uint8_t *)p.parse_tree.data, p.parse_tree.len, NULL, arena, &st);
	const char *got = decoded ? pgbind_deparse(decoded, &check, arena, &st) : NULL;
	CHECK(got && strcmp(got, "CREATE TABLESPACE x LOCATION ''") == 0, "a decoded tree's NULL location checks (%s)",
		  got ? got : st.message);
	pg_query_free_protobuf_parse_result(p);
	/* a rewrite the deparser drops: CASCADE set on a DROP SUBSCRIPTION */
	pgbind_ParseResult *tree = pgbind_parse("DROP SUBSCRIPTION s", NULL, arena, &st);
	if (tree && PG_VERSION_NUM / 10000 == 15) { /* 15-4.0.0's deparser drops it */
		((pgbind_DropSubscriptionStmt *)tree->stmts[0]->stmt)->behavior = PGBIND_DROP_CASCADE;
		memset(&st, 0, sizeof st);
		got = pgbind_deparse(tree, &check, arena, &st);
		CHECK(!got && st.code == PGBIND_ERROR_ROUND_TRIP &&
				  strstr(st.message, "ParseResult.stmts[0].stmt.DropSubscriptionStmt.behavior"),
			  "CASCADE set by a rewrite: refused, the path named (%s)", got ? got : st.message);
	}
}

/*
 * 2b. One policy (docs/guarantees.md): libpg_query's SQL as it writes it, right or wrong, whether a
 * rule of the contract sends the tree to the deparse server or not; check_deparse alone turns
 * wrong SQL into an error. Except where the deparser reads past a node (declared in
 * schema/libpg_query.txt): SQL only where it parses back, the same answer on every call.
 */
static void test_policy(void)
{
	pgbind_Options check = {.check_deparse = true}, isolated = {.isolate_deparse = true};
	/* 15-4.0.0: a cast in an exclusion constraint loses its parentheses (no parse; the tree breaks
	 * IndexElem.expr's rule, so it is deparsed in the server), (freeze) becomes FREEZE (another
	 * tree) */
	static const char *const wrong[] = {
		"CREATE TABLE circles (c1 circle, c2 text, EXCLUDE USING gist (c1 WITH &&, (c2::circle) WITH &&))",
		"ALTER TABLE circles ADD EXCLUDE USING gist (c1 WITH &&, (c2::circle) WITH &&)",
		"COPY parted_copytest FROM 'filename' (freeze)",
	};
	for (size_t i = 0; PG_VERSION_NUM / 10000 == 15 && i < sizeof wrong / sizeof *wrong; i++) {
		char *want = theirs(wrong[i]);
		for (int how = 0; how < 2; how++) {
			pgbind_Status st = {0};
			const char *got = ours(wrong[i], how ? &isolated : NULL, &st);
			CHECK(got && want && strcmp(got, want) == 0, "%s%s: libpg_query's SQL \"%s\" (%s)", wrong[i],
				  how ? ", isolated" : "", want ? want : "?", got ? got : st.message);
		}
		pgbind_Status st = {0};
		const char *got = ours(wrong[i], &check, &st);
		CHECK(!got && st.code == PGBIND_ERROR_ROUND_TRIP, "%s, checked: PGBIND_ERROR_ROUND_TRIP (%s)", wrong[i],
			  got ? got : st.message);
		free(want);
	}
	/* COPY FROM and TO with the options the parser makes meet the contract: no round trip to the
	 * server for them (the rules on the COPY statements 15's and 17's deparsers crash on name the
	 * option's argument, not CopyStmt.query) */
	static const char *const copies[] = {
		"COPY t FROM STDIN",
		"COPY t (a, b) FROM '/tmp/x' WITH (FORMAT csv, HEADER, DELIMITER ';')",
		"COPY t TO STDOUT (FORMAT binary)",
		"COPY t FROM STDIN (FORCE_NULL (a, b), FORCE_NOT_NULL (c))",
		"COPY (SELECT 1) TO STDOUT WITH (FORMAT csv)",
	};
	for (size_t i = 0; i < sizeof copies / sizeof *copies; i++) {
		pgbind_Status st = {0};
		pgbind_ParseResult *tree = pgbind_parse(copies[i], NULL, arena, &st);
		CHECK(tree && pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &st) == PGBIND_CONTRACT_MET,
			  "%s: meets the deparse contract (not sent to the server) (%s)", copies[i],
			  tree ? st.message : "no parse");
	}
	/* before 18, XMLROOT's version is read as an A_Const whatever node it is: an error naming the
	 * bug, every time; with a constant there, the SQL (it parses back) */
	const char *xml = "SELECT XMLROOT(x, VERSION a % 2 + -a * 3 / 4 ^ 2) FROM t";
	pgbind_Status first = {0};
	const char *sql = ours(xml, NULL, &first);
	if (PG_VERSION_NUM < 180000) {
		CHECK(!sql && first.code == PGBIND_ERROR_ROUND_TRIP &&
				  strstr(first.message, "libpg_query's bug: its deparser reads past a node, XmlExpr.args") &&
				  strstr(first.message, "schema/libpg_query.txt:"),
			  "%s: an error naming libpg_query's bug and the declared line (%s)", xml, sql ? sql : first.message);
		for (int i = 0; i < 5; i++) {
			pgbind_Status st = {0};
			const char *again = ours(xml, i % 2 ? &isolated : &check, &st);
			CHECK(!again && st.code == first.code && strcmp(st.message, first.message) == 0,
				  "%s: the same answer again (%s)", xml, again ? again : st.message);
		}
		pgbind_ParseResult *tree = pgbind_parse(xml, NULL, arena, &first);
		CHECK(tree && pgbind_deparse_contract(tree, PGBIND_DEFAULT_MAX_DEPTH, &first) == PGBIND_CONTRACT_READS_PAST,
			  "%s: the contract's verdict is PGBIND_CONTRACT_READS_PAST", xml);
	} else {
		CHECK(sql && strcmp(sql, "SELECT xmlroot(x, version a % 2 + -a * 3 / 4 ^ 2) FROM t") == 0,
			  "%s: 18's deparser writes the expression (%s)", xml, sql ? sql : first.message);
	}
	const char *constant = "SELECT XMLROOT(x, VERSION '1.0', STANDALONE YES) FROM t";
	char *want = theirs(constant);
	pgbind_Status st = {0};
	sql = ours(constant, NULL, &st);
	CHECK(sql && want && strcmp(sql, want) == 0, "%s: libpg_query's SQL (%s)", constant, sql ? sql : st.message);
	free(want);
}

/* libpg_query's protobuf of sql, decoded by pgbind: the tree a proxy receives */
static pgbind_ParseResult *decoded(const char *sql)
{
	PgQueryProtobufParseResult p = pg_query_parse_protobuf(sql);
	pgbind_Status st;
	pgbind_ParseResult *t =
		p.error ? NULL : pgbind_decode((const uint8_t *)p.parse_tree.data, p.parse_tree.len, NULL, arena, &st);
	pg_query_free_protobuf_parse_result(p);
	return t;
}

/* A tree that breaks a rule of the contract (a shape that crashed the deparser in the probe and
 * that no parse of its corpus makes) and crashes the deparser: deparsed in a child process, where
 * it dies, PGBIND_ERROR_DEPARSER_CRASHED naming the rule, the caller unharmed; with no_fork it is
 * refused (PGBIND_ERROR_UNREPRESENTABLE) naming the rule, the deparser never called. */
static void breaks_rule(pgbind_ParseResult *tree, const char *what, const char *path, const char *label)
{
	pgbind_Status st = {0};
	const char *got = tree ? pgbind_deparse(tree, NULL, arena, &st) : NULL;
	CHECK(tree && !got && st.code == PGBIND_ERROR_DEPARSER_CRASHED && strstr(st.message, what) &&
			  strstr(st.message, path) && strstr(st.message, "deparse.txt:"),
		  "%s: deparsed in a child, where it crashes: an error naming \"%s\" at \"%s\" and the rule (%s)", label, what,
		  path, got ? got : st.message);
	static const pgbind_Options no_fork = {.no_fork = true};
	memset(&st, 0, sizeof st);
	got = tree ? pgbind_deparse(tree, &no_fork, arena, &st) : NULL;
	CHECK(tree && !got && st.code == PGBIND_ERROR_UNREPRESENTABLE && strstr(st.message, what) &&
			  strstr(st.message, path) && strstr(st.message, "deparse.txt:"),
		  "%s, no_fork: refused, naming \"%s\" at \"%s\" and the rule (%s)", label, what, path, got ? got : st.message);
}

/* A tree whose shape some parse makes elsewhere (so no context-free rule refuses it) but which
 * crashes the linked deparser here: the plain deparse would kill the caller; the isolated one
 * reports the crash, naming the statement. These trees come from outside (fuzzing), never from a
 * parse. */
static void crashes_isolated(pgbind_ParseResult *tree, const char *label)
{
	pgbind_Status st = {0};
	pgbind_Options isolated = {.isolate_deparse = true};
	const char *got = tree ? pgbind_deparse(tree, &isolated, arena, &st) : NULL;
	CHECK(tree && !got && st.code == PGBIND_ERROR_DEPARSER_CRASHED && strstr(st.message, "signal") &&
			  strstr(st.message, "stmts[0]"),
		  "%s: no rule refuses it; the isolated deparse reports the deparser's crash (%s)", label,
		  got ? got : st.message);
}

/* 3. The deparse contract (schema/pgNN/deparse.txt): trees that break it go to a child process;
 * an error names the message, the field, the path and the rule. */
static void test_contract(void)
{
	/* decoded: protobuf cannot carry the '' (README's former open exception); 15's deparser
	 * dereferences the NULL it reads */
	breaks_rule(decoded("ALTER TYPE mood ADD VALUE ''"), "AlterEnumStmt.newVal is NULL",
				"stmts[0].stmt.AlterEnumStmt.newVal", "decoded ALTER TYPE ... ADD VALUE ''");
	/* built by hand: a RangeVar without a name */
	pgbind_Status st = {0};
	pgbind_ParseResult *tree = pgbind_parse("SELECT a FROM t", NULL, arena, &st);
	if (tree) {
		((pgbind_RangeVar *)((pgbind_SelectStmt *)tree->stmts[0]->stmt)->fromClause[0])->relname = NULL;
		breaks_rule(tree, "RangeVar.relname is NULL", "stmts[0].stmt.SelectStmt.fromClause[0].RangeVar.relname",
					"a RangeVar without relname");
	}
	/* an enum value the enum does not declare (protobuf's enums are open, so pgbind_decode keeps
	 * one): refused on every major, whatever the rules (17's deparser crashed on this DROP) */
	tree = pgbind_parse("DROP TABLE t", NULL, arena, &st);
	if (tree) {
		((pgbind_DropStmt *)tree->stmts[0]->stmt)->removeType = (pgbind_ObjectType)90;
		memset(&st, 0, sizeof st);
		const char *sql = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(!sql && st.code == PGBIND_ERROR_UNREPRESENTABLE &&
				  strstr(st.message, "DropStmt.removeType holds 90, which enum ObjectType does not declare") &&
				  strstr(st.message, "at stmts[0].stmt.DropStmt.removeType:"),
			  "DROP with removeType 90: refused, naming the field and the value (%s)", sql ? sql : st.message);
		((pgbind_DropStmt *)tree->stmts[0]->stmt)->removeType = PGBIND_OBJECT_TABLE;
		sql = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(sql && strcmp(sql, "DROP TABLE t") == 0, "... and with OBJECT_TABLE again it deparses (%s)",
			  sql ? sql : st.message);
	}
	/* UNDEFINED (0) is read as the enum's first value by both routes to the deparser, so the
	 * contract reads it so too: DROP <0> of a cast's List is DROP ACCESS METHOD of a List, which
	 * 15's deparser reads as a name and crashes on (fuzz_deparse_pb) */
	tree = pgbind_parse("DROP CAST (int AS text)", NULL, arena, &st);
	if (tree) {
		((pgbind_DropStmt *)tree->stmts[0]->stmt)->removeType = (pgbind_ObjectType)0;
		if (PG_VERSION_NUM < 180000) {
			crashes_isolated(tree, "DROP <UNDEFINED> of a cast's List");
		} else { /* 18's deparser checks the node's tag there: an error, no rule needed */
			memset(&st, 0, sizeof st);
			const char *sql = pgbind_deparse(tree, NULL, arena, &st);
			CHECK(!sql && st.code != PGBIND_OK && strstr(st.message, "unexpected node type"),
				  "DROP <UNDEFINED> of a cast's List: 18's deparser's own error (%s)", sql ? sql : st.message);
		}
	}
	/* a NULL the parser makes, under another value of its parent: an operator's NONE is a NULL
	 * cell, which COMMENT ON PROCEDURE's deparser reads as a type (fuzz_deparse_pb) */
	tree = pgbind_parse("COMMENT ON OPERATOR - (NONE, int) IS 'c'", NULL, arena, &st);
	if (tree) {
		pgbind_CommentStmt *c = (pgbind_CommentStmt *)tree->stmts[0]->stmt;
		memset(&st, 0, sizeof st);
		const char *sql = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(sql && strstr(sql, "NONE"), "COMMENT ON OPERATOR - (NONE, int) deparses (%s)", sql ? sql : st.message);
		c->objtype = PGBIND_OBJECT_PROCEDURE;
		crashes_isolated(tree, "COMMENT ON PROCEDURE with an operator's NONE");
	}
	/* an XMLTABLE column without a type crashes the deparser unless it is FOR ORDINALITY (whose
	 * parse leaves it NULL, so no context-free rule refuses it; fuzz_deparse_pb found one) */
	tree = pgbind_parse("SELECT * FROM XMLTABLE('/a' PASSING x COLUMNS n FOR ORDINALITY, c text PATH 'c') AS q", NULL,
						arena, &st);
	if (tree) {
		pgbind_RangeTableFunc *f = (pgbind_RangeTableFunc *)((pgbind_SelectStmt *)tree->stmts[0]->stmt)->fromClause[0];
		pgbind_RangeTableFuncCol *c = (pgbind_RangeTableFuncCol *)f->columns[1];
		c->typeName = NULL;
		if (PG_VERSION_NUM < 180000)
			crashes_isolated(tree, "an XMLTABLE column without a type");
		c->for_ordinality = true;
		memset(&st, 0, sizeof st);
		const char *sql = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(sql && strstr(sql, "c FOR ORDINALITY"), "... and as FOR ORDINALITY it deparses (%s)",
			  sql ? sql : st.message);
	}
	/* the deparser reads the isolation level as a String; an Integer is everyday elsewhere */
	tree = pgbind_parse("BEGIN ISOLATION LEVEL SERIALIZABLE", NULL, arena, &st);
	if (tree && PG_VERSION_NUM < 180000) {
		pgbind_DefElem *d = (pgbind_DefElem *)((pgbind_TransactionStmt *)tree->stmts[0]->stmt)->options[0];
		pgbind_Integer *i = pgbind_Arena_Malloc(arena, sizeof *i);
		i->tag = PGBIND_T_Integer, i->ival = 5;
		((pgbind_A_Const *)d->arg)->val = (pgbind_Node *)i;
		crashes_isolated(tree, "BEGIN ISOLATION LEVEL <an Integer>");
	}
	/* a message without values of its own is taken once per context: a NULL type name in an
	 * operator's arguments crashes ALTER OPERATOR's deparser (a DROP FUNCTION's reads objfuncargs) */
	tree = pgbind_parse("ALTER OPERATOR @@ (NONE, int4) SET (RESTRICT = NONE)", NULL, arena, &st);
	if (tree && PG_VERSION_NUM < 180000) {
		pgbind_ObjectWithArgs *o = ((pgbind_AlterOperatorStmt *)tree->stmts[0]->stmt)->opername;
		((pgbind_TypeName *)o->objargs[1])->names[0] = NULL;
		breaks_rule(tree, "TypeName.names holds a NULL cell", "opername.objargs[1].TypeName.names[0]",
					"ALTER OPERATOR with a NULL type name");
	}
	/* a STORAGE item without its type crashes the deparser, with a name or not; other items have
	 * none (fuzz_deparse_json found one with a name) */
	tree = pgbind_parse("CREATE OPERATOR CLASS c FOR TYPE int4 USING gist AS FUNCTION 1 f(int4), STORAGE int4", NULL,
						arena, &st);
	if (tree && PG_VERSION_NUM < 180000) {
		pgbind_CreateOpClassStmt *c = (pgbind_CreateOpClassStmt *)tree->stmts[0]->stmt;
		pgbind_CreateOpClassItem *fn = (pgbind_CreateOpClassItem *)c->items[0];
		pgbind_CreateOpClassItem *storage = (pgbind_CreateOpClassItem *)c->items[1];
		storage->storedtype = NULL;
		storage->name = fn->name;
		crashes_isolated(tree, "a STORAGE item with a name and no type");
	}
	/* a new-style CREATE AGGREGATE without args crashes 15's and 17's deparsers; an old-style one
	 * holds none */
	tree = pgbind_parse("CREATE AGGREGATE a (int4) (SFUNC = int4pl, STYPE = int4)", NULL, arena, &st);
	if (tree && PG_VERSION_NUM < 180000) {
		pgbind_DefineStmt *d = (pgbind_DefineStmt *)tree->stmts[0]->stmt;
		d->n_args = 0;
		crashes_isolated(tree, "a new-style CREATE AGGREGATE without args");
		d->oldstyle = true;
		memset(&st, 0, sizeof st);
		const char *sql = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(sql && strstr(sql, "CREATE AGGREGATE a (sfunc = int4pl, stype = int4)"),
			  "... and as an old-style one it deparses (%s)", sql ? sql : st.message);
	}
	/* what the grammar accepts and libpg_query's deparser before 18 crashes on or reads past a node
	 * in: a rule of the contract on the option's argument sends it to a child, whose crash is an
	 * error naming the rule; where the deparser reads past the node (a declared rule,
	 * schema/libpg_query.txt), its SQL is returned only where it parses back, else an error naming
	 * libpg_query's bug; with no_fork, refused */
	static const char *const copies[] = {"COPY t FROM STDIN (null (b, c))", "COPY t FROM STDIN (format)",
										 "COPY t FROM STDIN (force_null 5)", "COPY t FROM STDIN (format *)",
										 "COPY t FROM STDIN (force_null *)"};
	pgbind_Options no_fork = {.no_fork = true};
	for (size_t i = 0; PG_VERSION_NUM < 180000 && i < sizeof copies / sizeof *copies; i++) {
		memset(&st, 0, sizeof st);
		const char *sql = ours(copies[i], NULL, &st);
		/* 17's deparser writes a column list's `*` (15's reads it as a List) */
		if (sql && PG_VERSION_NUM >= 170000 && strcmp(copies[i], "COPY t FROM STDIN (force_null *)") == 0) {
			CHECK(strcmp(sql, "COPY t FROM STDIN WITH (FORCE_NULL *)") == 0, "%s: deparsed in a child (%s)", copies[i],
				  sql);
			continue;
		}
		CHECK(!sql && ((st.code == PGBIND_ERROR_DEPARSER_CRASHED && strstr(st.message, "; by rule DefElem.arg")) ||
					   (st.code == PGBIND_ERROR_ROUND_TRIP &&
						strstr(st.message, "libpg_query's bug: its deparser reads past a node, DefElem.arg"))),
			  "%s: an error of its child naming the rule (%s)", copies[i], sql ? sql : st.message);
		memset(&st, 0, sizeof st);
		sql = ours(copies[i], &no_fork, &st);
		CHECK(!sql && st.code == PGBIND_ERROR_UNREPRESENTABLE && strstr(st.message, "no_fork"),
			  "%s, no_fork: refused (%s)", copies[i], sql ? sql : st.message);
	}
	/* and what it deparses stays deparsed: an option without a value where that is fine */
	const char *got = ours("COPY t FROM STDIN (header)", NULL, &st);
	CHECK(got && strcmp(got, "COPY t FROM STDIN WITH (HEADER)") == 0, "COPY (header) deparses (%s)",
		  got ? got : st.message);
}

typedef struct {
	const pgbind_ParseResult *tree;
	const char *want;
	int same;
} IsolatedJob;

static void *deparse_isolated_often(void *arg)
{
	IsolatedJob *job = arg;
	pgbind_Options isolated = {.isolate_deparse = true};
	for (int i = 0; i < 10; i++) {
		pgbind_Arena *a = pgbind_Arena_New();
		const char *got = pgbind_deparse(job->tree, &isolated, a, NULL);
		job->same += got && strcmp(got, job->want) == 0;
		pgbind_Arena_Free(a);
	}
	return NULL;
}

/* 4. The isolated deparse: the plain one's SQL and errors, and a crash of the deparser reported. */
static void test_isolated(void)
{
	static const char *const sqls[] = {
		"SELECT a, b FROM t WHERE id = ANY($1::int[]) ORDER BY 1",
		"INSERT INTO t VALUES (1, 'x'); UPDATE t SET a = 2; DELETE FROM t",
		"COMMENT ON TABLE t IS ''", /* an empty string the protobuf route carries with a marker */
		"CREATE TABLE t (a int PRIMARY KEY, b text DEFAULT 'x')",
	};
	pgbind_Options plain = {0}, isolated = {.isolate_deparse = true};
	pgbind_Options checked = {.check_deparse = true}, both = {.check_deparse = true, .isolate_deparse = true};
	for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
		pgbind_Status sa = {0}, sb = {0};
		const char *a = ours(sqls[i], &plain, &sa), *b = ours(sqls[i], &isolated, &sb);
		CHECK(a && b && strcmp(a, b) == 0, "%s: isolated deparse gives the plain one's SQL (%s | %s)", sqls[i],
			  a ? a : sa.message, b ? b : sb.message);
		a = ours(sqls[i], &checked, &sa), b = ours(sqls[i], &both, &sb);
		CHECK(a && b && strcmp(a, b) == 0, "%s: the same with check_deparse (%s | %s)", sqls[i], a ? a : sa.message,
			  b ? b : sb.message);
	}
	/* from several threads at once: each call its own child and pipe */
	{
		pgbind_ParseResult *t = pgbind_parse(sqls[1], NULL, arena, NULL);
		const char *want = t ? pgbind_deparse(t, NULL, arena, NULL) : NULL;
		IsolatedJob jobs[4];
		pthread_t threads[4];
		int started = 0, same = 0;
		for (int i = 0; want && i < 4; i++) {
			jobs[i] = (IsolatedJob){t, want, 0};
			started += pthread_create(&threads[i], NULL, deparse_isolated_often, &jobs[i]) == 0;
		}
		for (int i = 0; i < started; i++) {
			pthread_join(threads[i], NULL);
			same += jobs[i].same;
		}
		CHECK(started == 4 && same == 40, "4 threads x 10 isolated deparses at once: %d of 40 give the SQL", same);
	}
	/* isolation and no_fork at once: an argument error, before anything runs */
	{
		pgbind_Options both_ways = {.isolate_deparse = true, .no_fork = true};
		pgbind_Status st = {0};
		const char *got = ours(sqls[0], &both_ways, &st);
		CHECK(!got && st.code == PGBIND_ERROR_ARGUMENT && strstr(st.message, "no_fork"),
			  "isolate_deparse with no_fork: PGBIND_ERROR_ARGUMENT (%s)", got ? got : st.message);
	}
	/* a tree outside the contract: the plain deparse isolates it too, with the same error */
	pgbind_ParseResult *tree = decoded("ALTER TYPE mood ADD VALUE ''");
	pgbind_Status sa = {0}, sb = {0};
	const char *a = tree ? pgbind_deparse(tree, &plain, arena, &sa) : NULL;
	const char *b = tree ? pgbind_deparse(tree, &isolated, arena, &sb) : NULL;
	CHECK(tree && !a && !b && sa.code == sb.code && strcmp(sa.message, sb.message) == 0,
		  "a tree breaking the contract: the same error plain and isolated (%s | %s)", sa.message, sb.message);
	/* a tree the deparser before 18 crashes on, given to it unchecked: the child dies, the caller
	 * hears which statement */
	if (PG_VERSION_NUM < 180000) {
		tree = pgbind_parse("SELECT 1; SELECT 2; COPY t FROM STDIN (format); SELECT 3", NULL, arena, &sa);
		memset(&sb, 0, sizeof sb);
		b = tree ? pgbind_deparse_unchecked(tree, &isolated, arena, &sb) : NULL;
		CHECK(tree && !b && sb.code == PGBIND_ERROR_DEPARSER_CRASHED && strstr(sb.message, "died of signal") &&
				  strstr(sb.message, "stmts[2] (CopyStmt)"),
			  "COPY t FROM STDIN (format), unchecked and isolated: PGBIND_ERROR_DEPARSER_CRASHED naming stmts[2] (%s)",
			  b ? b : sb.message);
		CHECK(strcmp(pgbind_StatusCode_name(PGBIND_ERROR_DEPARSER_CRASHED), "deparser crashed") == 0,
			  "the status has a name");
	}
}

/* n copies of item joined by sep after head: a chain that nests n deep */
static char *chain(const char *head, const char *item, const char *sep, int n)
{
	size_t len = strlen(head) + (size_t)n * (strlen(item) + strlen(sep)) + 1;
	char *s = xmalloc(len), *p = s;
	p += sprintf(p, "%s", head);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? sep : "", item);
	return s;
}

typedef struct {
	const pgbind_ParseResult *tree; /* parsed on the main thread */
	pgbind_Status st;
	bool deparsed;
} SmallStack;

static void *deparse_on_small_stack(void *arg)
{
	SmallStack *job = arg;
	pgbind_Arena *a = pgbind_Arena_New();
	job->deparsed = pgbind_deparse(job->tree, NULL, a, &job->st) != NULL;
	pgbind_Arena_Free(a);
	return NULL;
}

/* 5. Depth: what the parser built and the thread's stack holds is deparsed (issue 42): a
 * 2,000-way UNION ALL, a 1,500-term || chain; deeper than max_depth or than the stack is
 * PGBIND_ERROR_DEPTH. */
static void test_depth(void)
{
	char *unions = chain("", "SELECT 1", " UNION ALL ", 2000);
	char *concat = chain("SELECT ", "'a'", " || ", 1500);
	const char *const sqls[] = {unions, concat};
	const char *const labels[] = {"a 2,000-way UNION ALL", "a 1,500-term || chain"};
	pgbind_Options isolated = {.isolate_deparse = true};
	for (int i = 0; i < 2; i++) {
		char *want = theirs(sqls[i]);
		pgbind_Status st = {0};
		const char *got = ours(sqls[i], NULL, &st);
		CHECK(want && got && strcmp(want, got) == 0, "%s deparses as libpg_query's does (%s)", labels[i],
			  got ? "differs" : st.message);
		got = ours(sqls[i], &isolated, &st);
		CHECK(want && got && strcmp(want, got) == 0, "%s deparses isolated too (%s)", labels[i],
			  got ? "differs" : st.message);
		free(want);
	}
	/* max_depth bounds deparse as every path */
	pgbind_Options shallow = {.max_depth = 500};
	pgbind_ParseResult *tree = pgbind_parse(unions, NULL, arena, NULL);
	pgbind_Status st = {0};
	CHECK(tree && !pgbind_deparse(tree, &shallow, arena, &st) && st.code == PGBIND_ERROR_DEPTH &&
			  strstr(st.message, "pgbind_Options.max_depth"),
		  "2,000 UNIONs with max_depth 500: PGBIND_ERROR_DEPTH (%s)", st.message);
	/* and a thread's stack: 256 KiB does not hold the deparser's 2,000 levels */
	SmallStack job = {.tree = tree};
	pthread_attr_t attr;
	pthread_t t;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	bool started = tree && pthread_create(&t, &attr, deparse_on_small_stack, &job) == 0;
	if (started)
		pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	CHECK(started && !job.deparsed && job.st.code == PGBIND_ERROR_DEPTH &&
			  strncmp(job.st.message, PGBIND_STACK_MESSAGE, strlen(PGBIND_STACK_MESSAGE)) == 0,
		  "2,000 UNIONs on a 256 KiB thread: PGBIND_ERROR_DEPTH, the stack named (%s)", job.st.message);
	free(unions);
	free(concat);
}

int main(void)
{
	arena = pgbind_Arena_New();
	test_empty_strings();
	test_check();
	test_policy();
	test_contract();
	test_isolated();
	test_depth();
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
