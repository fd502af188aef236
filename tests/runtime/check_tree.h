/*
 * check_tree.h -- for the C tests that parse SQL into one arena: `arena` (the test sets it up)
 * and parse()/first_stmt(), which print "# parse failed: ..." and return NULL, failing the
 * check that uses them rather than the program.
 */
#ifndef PGBIND_TESTS_CHECK_TREE_H
#define PGBIND_TESTS_CHECK_TREE_H

#include "pgbind.h"

#include <stdio.h>

static pgbind_Arena *arena;

static inline pgbind_ParseResult *parse(const char *sql)
{
	pgbind_Status st = {0};
	pgbind_ParseResult *r = pgbind_parse(sql, NULL, arena, &st);
	if (!r)
		printf("# parse failed: %s: %s\n", sql, st.message);
	return r;
}

static inline pgbind_Node *first_stmt(const char *sql)
{
	pgbind_ParseResult *r = parse(sql);
	return r && r->n_stmts > 0 ? r->stmts[0]->stmt : NULL;
}

#endif
