/*
 * test_deparse.c -- pgbind_deparse where libpg_query's protobuf route cannot carry the tree (an
 * empty string it reads as NULL), and the round-trip check (pgbind_Options.check_deparse).
 * libpg_query's own answers are computed here (pg_query_parse_protobuf +
 * pg_query_deparse_protobuf), never written down.
 */
#include "pg_query.h"
#include "pgbind.h"

#include "check.h"

#include <string.h>

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
		CHECK(got && want && strcmp(got, want) == 0, "%s: pgbind \"%s\", libpg_query \"%s\"", sql, got ? got : st.message,
			  want ? want : "(error)");
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
	if (tree) {
		((pgbind_CreateTableSpaceStmt *)tree->stmts[0]->stmt)->tablespacename = "";
		memset(&st, 0, sizeof st);
		got = pgbind_deparse(tree, NULL, arena, &st);
		CHECK(!got && st.code == PGBIND_ERROR_UNREPRESENTABLE &&
				  strstr(st.message, "CreateTableSpaceStmt.tablespacename is an empty string"),
			  "an empty tablespace name is refused, named (%s)", got ? got : st.message);
		CHECK(strstr(st.message, "does not parse back"), "... saying why (%s)", st.message);
	}
}

int main(void)
{
	arena = pgbind_Arena_New();
	test_empty_strings();
	pgbind_Arena_Free(arena);
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
