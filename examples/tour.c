/* tour.c -- the README's tour of the C API: parse, fingerprint, normalize, encode, walk, rewrite, deparse. */
#include "pgbind.h"

#include <stdio.h>
#include <string.h>

static bool count_tables(pgbind_Node *node, void *ctx)
{
	if (node->tag == PGBIND_T_RangeVar)
		(*(int *)ctx)++;
	return pgbind_walk_children(node, count_tables, ctx); /* the callback recurses itself; true stops */
}

static bool strip_where(pgbind_Child *child, void *ctx) /* offered every child slot */
{
	(void)ctx;
	if (strcmp(child->field, "whereClause") == 0)
		child->remove = true; /* or child->node = a new node */
	return false;
}

int main(void)
{
	const char *sql = "SELECT DISTINCT a FROM t JOIN u USING (id) WHERE b > 1";
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		fprintf(stderr, "%s at %d\n", status.message, status.cursorpos); /* PostgreSQL's own message */
		return 1;
	}
	/* the statement as parsed: before any rewrite */
	uint64_t fp;
	pgbind_fingerprint(tree, NULL, &fp, &status); /* pg_query_fingerprint's value */
	printf("fingerprint: %016llx\n", (unsigned long long)fp);
	printf("normalized:  %s\n", pgbind_normalize(tree, sql, NULL, arena, &status)); /* no second parse */
	const uint8_t *bytes;
	size_t len;
	pgbind_encode(tree, NULL, arena, &bytes, &len, &status);    /* libpg_query's protobuf, byte for byte */
	const char *json = pgbind_json(tree, NULL, arena, &status); /* pg_query_parse's JSON */
	printf("protobuf:    %zu bytes; JSON: %zu bytes\n", len, strlen(json));

	int tables = 0;
	count_tables(tree->stmts[0]->stmt, &tables);
	printf("tables:      %d\n", tables);

	pgbind_Node *stmt = tree->stmts[0]->stmt;
	if (stmt->tag == PGBIND_T_SelectStmt) { /* every node starts with its tag */
		pgbind_SelectStmt *s = (pgbind_SelectStmt *)stmt;
		/* DISTINCT without ON is one NULL cell: s->n_distinctClause == 1 && s->distinctClause[0] == NULL */
		pgbind_JoinExpr *join = (pgbind_JoinExpr *)s->fromClause[0];
		((pgbind_RangeVar *)join->larg)->relname = "t_archive"; /* rewrite in place */
	}
	pgbind_ParseResult_mutate(tree, strip_where, NULL, &status); /* strip the predicate */
	const char *out = pgbind_deparse(tree, NULL, arena, &status);
	if (!out) {
		fprintf(stderr, "deparse: %s\n", status.message);
		return 1;
	}
	printf("rewritten:   %s\n", out);
	pgbind_Arena_Free(arena); /* frees the whole tree */
	return 0;
}
