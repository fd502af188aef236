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

/* Whether tree holds "" in a char * field libpg_query's protocol turns into NULL; names the first
 * such field ("AlterEnumStmt.newVal") in where. */
bool pgbind_find_lossy_empty_string(const pgbind_ParseResult *tree, char *where, size_t size);

#endif
