/*
 * verify_pg.c -- the comparisons of `pgbind verify` that need PostgreSQL nodes: the AST turned
 * back into nodes against libpg_query's own reader, and trees compared as PostgreSQL nodes. Kept
 * apart so that only this file of the command includes PostgreSQL's headers.
 */
#include "pg_headers.h"

#include "cli.h"
#include "pgbind_oracle.h"

#include <stdio.h>
#include <string.h>

bool verify_to_nodes(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why, size_t size)
{
	MemoryContext ctx = pg_query_enter_memory_context();
	pgbind_Status status = {0};
	void *ours;
	bool ok = pgbind_to_pg_parse_tree(tree, ctx, NULL, &ours, &status);
	if (!ok) {
		snprintf(why, size, "pgbind_to_pg_parse_tree failed: %s", status.message);
	} else {
		PgQueryProtobuf pb = {want_len, (char *)want};
		List *theirs = pg_query_protobuf_to_nodes(pb);
		if (!equal(ours, theirs)) {
			snprintf(why, size, "to_nodes(tree) is not equal() to pg_query_protobuf_to_nodes(bytes)");
			ok = false;
		} else {
			PgQueryProtobuf back = pg_query_nodes_to_protobuf(ours);
			ok = back.len == want_len && memcmp(back.data, want, want_len) == 0;
			if (!ok)
				snprintf(why, size, "pg_query_nodes_to_protobuf(to_nodes(tree)) differs from the bytes (%zu vs %zu)",
						 back.len, want_len);
			free(back.data);
		}
	}
	pg_query_exit_memory_context(ctx);
	return ok;
}

bool verify_protocol_loses(const pgbind_ParseResult *tree, const uint8_t *want, size_t want_len)
{
	MemoryContext ctx = pg_query_enter_memory_context();
	void *faithful;
	bool loses = false;
	if (pgbind_to_pg_nodes(tree, ctx, NULL, true, &faithful, NULL)) {
		PgQueryProtobuf pb = {want_len, (char *)want};
		loses = !equal(faithful, pg_query_protobuf_to_nodes(pb));
	}
	pg_query_exit_memory_context(ctx);
	return loses;
}

/* Statement by statement: equal() of RawStmt would also compare stmt_len, which is the text's
 * (a statement ending in ';' has one, the same statement deparsed has none), not the tree's. */
bool verify_same_nodes(const pgbind_ParseResult *a, const pgbind_ParseResult *b)
{
	MemoryContext ctx = pg_query_enter_memory_context();
	void *na, *nb;
	bool same = pgbind_to_pg_nodes(a, ctx, NULL, true, &na, NULL) &&
				pgbind_to_pg_nodes(b, ctx, NULL, true, &nb, NULL) && list_length(na) == list_length(nb);
	ListCell *la, *lb;
	if (same)
		forboth(la, (List *)na, lb,
				(List *)nb) if (!equal(lfirst_node(RawStmt, la)->stmt, lfirst_node(RawStmt, lb)->stmt)) same = false;
	pg_query_exit_memory_context(ctx);
	return same;
}
