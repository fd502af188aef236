/*
 * pgbind_json.h -- the AST as JSON in libpg_query's format (what pg_query_parse() returns as
 * parse_tree), and that JSON back to the AST.
 *
 * pgbind_json() writes the text straight from the tree into one growing buffer (no JSON object
 * model in between), byte-identical to pg_query_parse() of libpg_query 15-4.0.0 for the same
 * statements, except where that output is wrong (runtime/json.c lists each case; the one that
 * shows in practice: a negative Integer, `SELECT -5`, which libpg_query prints as "ival":{}).
 * pgbind_json_read() reads that format, libpg_query's and pgbind's, into a tree that encodes to
 * the same protobuf bytes as pg_query_parse_protobuf().
 *
 * Memory, errors and threads follow pgbind.h: results live in the arena; on failure NULL is
 * returned and status (if not NULL) says why; different arenas may be used by different threads
 * at once.
 */
#ifndef PGBIND_JSON_H
#define PGBIND_JSON_H

#include <stddef.h>

#include "pgbind.h"

#ifndef PGBIND_API
#define PGBIND_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes tree as JSON text, NUL-terminated, in arena (valid as long as the arena). The layout is
 * libpg_query's: {"version":N,"stmts":[{"stmt":{"SelectStmt":{...}},"stmt_len":N},...]}, keys in
 * field order, unset fields left out, enums by name, NULL list cells as {}.
 *
 * options may be NULL; options->max_depth bounds the nesting of the tree (messages within
 * messages). Errors: PGBIND_ERROR_ARGUMENT (tree or arena NULL), PGBIND_ERROR_DEPTH,
 * PGBIND_ERROR_INVALID (a node tag or enum value the format has no name for, a string that is
 * not UTF-8, which JSON cannot carry; the message names the field path), PGBIND_ERROR_NOMEM.
 * Reads the tree only; the tree may be shared by threads that each write with their own arena.
 */
PGBIND_API const char *pgbind_json(const pgbind_ParseResult *tree, const pgbind_Options *options,
								   pgbind_Arena *arena, pgbind_Status *status);

/*
 * Reads JSON text (json[0 .. len), need not be NUL-terminated or outlive the call) in
 * libpg_query's format, which is also pgbind_json()'s, into a tree in arena. Keys may come in any
 * order, with proto field names (target_list) as well as PostgreSQL's (targetList); fields that
 * are absent take their defaults (NULL, 0, false, empty); `null` is accepted for any field and
 * means the default. A later duplicate key replaces the earlier value.
 *
 * Errors, all with status->offset = the byte offset and "line L, column C" (1-based, columns
 * count characters) at the start of status->message:
 *   PGBIND_ERROR_MALFORMED  the text is not JSON (or not UTF-8, or a string holds \u0000)
 *   PGBIND_ERROR_INVALID    JSON, but not a parse tree: an unknown key (the reader is strict, so a
 *                           typo is reported, not skipped), a value of the wrong type, an integer
 *                           out of range, an unknown node type or enum name; the message names
 *                           the path (ParseResult.stmts[0].stmt.SelectStmt.limitOption)
 *   PGBIND_ERROR_DEPTH      messages nested deeper than options->max_depth (the same count as
 *                           pgbind_decode's, so a tree that one accepts the other accepts)
 *   PGBIND_ERROR_NOMEM, PGBIND_ERROR_ARGUMENT (arena NULL, or json NULL with len > 0)
 * Never reads outside the input. On failure, what was allocated stays in the arena until it is
 * freed. Thread-safe with distinct arenas.
 */
PGBIND_API pgbind_ParseResult *pgbind_json_read(const char *json, size_t len, const pgbind_Options *options,
												pgbind_Arena *arena, pgbind_Status *status);

#ifdef __cplusplus
}
#endif

#endif /* PGBIND_JSON_H */
