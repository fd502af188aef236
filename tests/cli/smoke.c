/*
 * smoke.c -- a program that uses only pgbind.h, built three ways by `make check`: against the
 * staged install through pkg-config (shared and static), and from a vendored copy of targets/c/runtime/ and
 * targets/c/generated/pgNN/ (as generated/). Parses its argument, prints the statement kind and the deparsed SQL.
 */
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	const char *sql = argc > 1 ? argv[1] : "select 1";
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		fprintf(stderr, "error: %s\n", status.message);
		pgbind_Arena_Free(arena);
		return 1;
	}
	const char *out = pgbind_deparse(tree, NULL, arena, &status);
	if (!out) {
		fprintf(stderr, "error: %s\n", status.message);
		pgbind_Arena_Free(arena);
		return 1;
	}
	printf("%s: %s\n", pgbind_node_desc(tree->stmts[0]->stmt->tag)->name, out);
	pgbind_Arena_Free(arena);
	return 0;
}
