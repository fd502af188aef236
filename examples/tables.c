/*
 * tables.c -- which tables does a query read, and which does it write?
 *
 *     $ echo 'INSERT INTO orders SELECT * FROM public.users u JOIN carts USING (id)' | tables
 *     write orders
 *     read  public.users
 *     read  carts
 *
 * A first tour of pgbind: parse SQL into the typed AST (pgbind_parse), then visit it with
 * pgbind_walk_children(), which follows PostgreSQL's raw_expression_tree_walker convention: it
 * calls our callback on each child of a node, and the callback goes deeper by calling
 * pgbind_walk_children() on the node it was given. Because the recursion is ours, we can keep
 * context on the way down -- here, which table the current statement writes and which CTE names
 * are in scope -- and restore it on the way back up.
 *
 * A table reference is a RangeVar node. It is written when it is the target of INSERT, UPDATE,
 * DELETE, MERGE, SELECT INTO / CREATE TABLE AS or COPY ... FROM, and read anywhere else (FROM,
 * JOIN, USING, subqueries, ...). An unqualified name that a WITH clause defines is not a table
 * inside the statement that owns that WITH clause (its CTE bodies included: a simplification for
 * non-recursive WITH, where a CTE cannot refer to itself or to later CTEs). Other statements
 * (DDL) are not special-cased: the tables they mention are listed as read. Each table is
 * printed once per mode, in the order the walk first meets it (field order: a statement's WITH
 * clause comes after its other clauses).
 *
 * Usage: tables [FILE|-]      SQL from FILE or stdin, any number of statements
 * Build: cc -std=c11 -Itargets/c/runtime -Itargets/c/generated/pg15 examples/tables.c build/libpgbind.a -lpg_query
 */
#include "pgbind.h"
#include "pgbind_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the walk found and where it is. */
typedef struct Tables {
	struct {
		char *name; /* "schema.table", malloc'd */
		bool write;
	} * found;
	size_t n_found, cap_found;

	const pgbind_RangeVar *target; /* the table the statement being walked writes, if any */
	const char **ctes;             /* CTE names in scope, innermost last */
	size_t n_ctes, cap_ctes;
} Tables;

/* Room for one more element in a growing array; exits when out of memory. */
static void *grow(void *array, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return array;
	*cap = *cap ? *cap * 2 : 16;
	array = realloc(array, *cap * size);
	if (!array) {
		fprintf(stderr, "tables: out of memory\n");
		exit(1);
	}
	return array;
}

/* Strings in the AST are NULL when unset. */
static bool is_set(const char *s)
{
	return s && *s;
}

/* Records rv (catalog.schema.name, as written), unless it was already recorded in this mode. */
static void note(Tables *t, const pgbind_RangeVar *rv, bool write)
{
	char name[3 * 64 + 3] = "";
	if (is_set(rv->catalogname))
		snprintf(name, sizeof name, "%s.", rv->catalogname);
	if (is_set(rv->schemaname))
		snprintf(name + strlen(name), sizeof name - strlen(name), "%s.", rv->schemaname);
	snprintf(name + strlen(name), sizeof name - strlen(name), "%s", rv->relname ? rv->relname : "");

	for (size_t i = 0; i < t->n_found; i++)
		if (t->found[i].write == write && strcmp(t->found[i].name, name) == 0)
			return;
	t->found = grow(t->found, &t->cap_found, t->n_found, sizeof *t->found);
	t->found[t->n_found].name = strdup(name);
	t->found[t->n_found].write = write;
	if (!t->found[t->n_found].name) {
		fprintf(stderr, "tables: out of memory\n");
		exit(1);
	}
	t->n_found++;
}

/* Is rv an unqualified name that a WITH clause in scope defines? */
static bool is_cte(const Tables *t, const pgbind_RangeVar *rv)
{
	if (is_set(rv->schemaname) || is_set(rv->catalogname))
		return false;
	for (size_t i = 0; i < t->n_ctes; i++)
		if (strcmp(t->ctes[i], rv->relname) == 0)
			return true;
	return false;
}

/*
 * The walk callback: called on every node (first by main on each statement, then by
 * pgbind_walk_children on each child). Returns false to let the walk go on; true would stop it.
 */
static bool visit(pgbind_Node *node, void *arg)
{
	Tables *t = arg;
	const pgbind_RangeVar *outer_target = t->target; /* restored on the way back up */
	size_t outer_ctes = t->n_ctes;
	pgbind_WithClause *with = NULL;

	/* Every node starts with its tag: switch on it, then cast to the struct it names. */
	switch (node->tag) {
	case PGBIND_T_RangeVar: {
		pgbind_RangeVar *rv = (pgbind_RangeVar *)node;
		if (rv == t->target)
			note(t, rv, true);
		else if (!is_cte(t, rv))
			note(t, rv, false);
		return false; /* a RangeVar's only child is its alias: no tables below */
	}
	case PGBIND_T_SelectStmt:
		with = ((pgbind_SelectStmt *)node)->withClause;
		break;
	case PGBIND_T_InsertStmt:
		with = ((pgbind_InsertStmt *)node)->withClause;
		t->target = ((pgbind_InsertStmt *)node)->relation;
		break;
	case PGBIND_T_UpdateStmt:
		with = ((pgbind_UpdateStmt *)node)->withClause;
		t->target = ((pgbind_UpdateStmt *)node)->relation;
		break;
	case PGBIND_T_DeleteStmt:
		with = ((pgbind_DeleteStmt *)node)->withClause;
		t->target = ((pgbind_DeleteStmt *)node)->relation;
		break;
	case PGBIND_T_MergeStmt:
		with = ((pgbind_MergeStmt *)node)->withClause;
		t->target = ((pgbind_MergeStmt *)node)->relation;
		break;
	case PGBIND_T_IntoClause: /* SELECT ... INTO t, CREATE TABLE t AS ... */
		t->target = ((pgbind_IntoClause *)node)->rel;
		break;
	case PGBIND_T_CopyStmt:
		if (((pgbind_CopyStmt *)node)->is_from)
			t->target = ((pgbind_CopyStmt *)node)->relation;
		break;
	default:
		break;
	}

	/* The names a WITH clause defines are in scope for the whole statement that owns it. */
	for (size_t i = 0; with && i < with->n_ctes; i++) {
		if (with->ctes[i]->tag != PGBIND_T_CommonTableExpr)
			continue;
		t->ctes = grow(t->ctes, &t->cap_ctes, t->n_ctes, sizeof *t->ctes);
		t->ctes[t->n_ctes++] = ((pgbind_CommonTableExpr *)with->ctes[i])->ctename;
	}

	/* Go on with node's children, in field order; each comes back to visit(). */
	bool stop = pgbind_walk_children(node, visit, t);

	t->target = outer_target;
	t->n_ctes = outer_ctes;
	return stop;
}

/* The whole of a file (or stdin for "-") as a NUL-terminated string, or NULL. */
static char *read_all(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t len = 0, cap = 0;
	char *text = NULL;
	for (;;) {
		text = grow(text, &cap, len + 1, 1); /* room for at least one byte and the NUL */
		size_t got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	bool failed = ferror(f);
	if (f != stdin)
		fclose(f);
	if (failed) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && argv[1][0] == '-' && argv[1][1] != '\0')) {
		fprintf(stderr, "usage: tables [FILE|-]\n");
		return 2;
	}
	const char *path = argc == 2 ? argv[1] : "-";
	char *sql = read_all(path);
	if (!sql) {
		perror(path);
		return 1;
	}

	/* 1. Parse. The whole tree lives in the arena and is freed with it. */
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		fprintf(stderr, "tables: %s: %s (at character %d)\n", path, status.message, status.cursorpos);
		pgbind_Arena_Free(arena);
		free(sql);
		return 1;
	}

	/* 2. Walk each statement (tree->stmts[i] is a RawStmt; ->stmt is the statement node). */
	Tables t = {0};
	for (size_t i = 0; i < tree->n_stmts; i++)
		if (tree->stmts[i]->stmt)
			visit(tree->stmts[i]->stmt, &t);

	/* 3. Report. */
	for (size_t i = 0; i < t.n_found; i++) {
		printf("%-5s %s\n", t.found[i].write ? "write" : "read", t.found[i].name);
		free(t.found[i].name);
	}
	free(t.found);
	free(t.ctes);
	pgbind_Arena_Free(arena);
	free(sql);
	return 0;
}
