/*
 * raw_walk.h -- PostgreSQL's raw_expression_tree_walker over pgbind trees (raw_walk.c), for the
 * summary (summary.c) and its truncation (truncate.c), which libpg_query computes with that walker:
 * it descends only into the node kinds and fields DML statements hold, in an order of its own
 * (schema/summary.txt's walk: lines).
 */
#ifndef PGBIND_RAW_WALK_H
#define PGBIND_RAW_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "pgbind.h"

/* What the walker hands its callback: a node, or a List (a repeated field, or a List node). */
typedef struct pgbind_RawItem {
	const pgbind_Node *node; /* NULL: the list items[0..n) */
	pgbind_Node *const *items;
	size_t n;
} pgbind_RawItem;

/* The callback: true stops the walk (and the walker returns true), as PostgreSQL's. */
typedef bool (*pgbind_RawFn)(pgbind_RawItem item, void *ctx);

/* Calls fn on each child of item the walker visits, in its order (a list: each non-NULL
 * element). Returns true as soon as fn does. Thread-safe. */
bool pgbind_raw_children(pgbind_RawItem item, pgbind_RawFn fn, void *ctx);

/* fn(n) for a node n, false for NULL (the walker's WALK()). */
bool pgbind_raw_offer(const pgbind_Node *n, pgbind_RawFn fn, void *ctx);

/* Whether the walker descends into item (a list always). */
bool pgbind_raw_walked(pgbind_RawItem item);

/* Whether pg_query_summary names node's kind in statement_types: the model's kinds named
 * "...Stmt", but those libpg_query leaves out (raw_walk.c). */
bool pgbind_raw_is_statement(const pgbind_Node *node);

#endif
