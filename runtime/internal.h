/*
 * internal.h -- what the runtime's files share and users do not see.
 */
#ifndef PGBIND_INTERNAL_H
#define PGBIND_INTERNAL_H

#include <stdarg.h>

#include "pgbind.h"
#include "pgbind_reflect.h"

/* Fills status (if not NULL) with code and a formatted message; clears cursorpos and offset. */
void pgbind_fail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void pgbind_vfail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, va_list ap);

/* The effective nesting limit of options (which may be NULL). */
int pgbind_max_depth(const pgbind_Options *options);

/* pgbind_to_pg_parse_tree, optionally keeping "" strings as "" (libpg_query's reader makes them
 * NULL; the fingerprint of the parsed text sees ""). */
bool pgbind_to_pg_nodes(const pgbind_ParseResult *tree, void *memory_context, const pgbind_Options *options,
						bool keep_empty_strings, void **out, pgbind_Status *status);

/* libpg_query's fingerprint computed over the AST itself (runtime/fingerprint.c): of tree (its
 * statements, as pg_query_fingerprint of its SQL) when tree is not NULL, else of root (as
 * pg_query_fingerprint_node of its nodes). It reads 100 levels of nodes, as libpg_query's does;
 * only a chain of messages deeper than max_depth (SELECT ... UNION ... nests through larg) is
 * PGBIND_ERROR_DEPTH. */
bool pgbind_fingerprint_ast(const pgbind_Node *root, const pgbind_ParseResult *tree, const pgbind_Options *options,
							uint64_t *fingerprint, pgbind_Status *status);

/* pg_query_normalize's text computed from the tree, with libpg_query 15-4.0.0's rules
 * (runtime/normalize.c); pgbind_normalize's arguments, checked by it. */
const char *pgbind_normalize_ast(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
								 pgbind_Arena *arena, pgbind_Status *status);

/* Whether tree holds "" in a char * field libpg_query's protocol turns into NULL; names the first
 * such field ("AlterEnumStmt.newVal") in where. */
bool pgbind_find_lossy_empty_string(const pgbind_ParseResult *tree, char *where, size_t size);

/* A copy of tree in arena in which every such empty string is replacement (for deparsing through
 * the protocol with something it carries); the caller's tree is not written. *collides says
 * whether some string of the tree already holds replacement. */
pgbind_ParseResult *pgbind_copy_replacing_lossy_empty(const pgbind_ParseResult *tree, const char *replacement,
													  pgbind_Arena *arena, bool *collides, pgbind_Status *status);

/* Whether a and b differ, locations aside (the fields PostgreSQL's equal() skips, and RawStmt's
 * stmt_len); the first difference's field path goes to path ("ParseResult.stmts[0].stmt.
 * DeclareCursorStmt.options (272, then 256)"). lenient: NULL in a matches "" in b in the char *
 * fields the protocol cannot tell apart (a tree decoded from protobuf holds NULL there). */
bool pgbind_first_difference(const pgbind_ParseResult *a, const pgbind_ParseResult *b, bool lenient, char *path,
							 size_t size);

#endif
