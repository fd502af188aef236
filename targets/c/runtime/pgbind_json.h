/*
 * pgbind_json.h -- the AST as JSON in libpg_query's format (what pg_query_parse() returns as
 * parse_tree), and that JSON back to the AST.
 *
 * pgbind_json() writes the text straight from the tree into one growing buffer, with no JSON
 * object model in between, byte-identical to pg_query_parse() of libpg_query 15-4.0.0 for the
 * same statements except where that output is wrong; targets/c/runtime/json_internal.h lists the format's
 * rules and each such case. The one a parse produces: an Integer below zero, which libpg_query leaves out
 * (`SELECT -5` gives "ival":{}); pgbind writes "ival":{"ival":-5}.
 * pgbind_json_read() reads that format, libpg_query's and pgbind's, into a tree that encodes to the
 * same protobuf bytes as pg_query_parse_protobuf().
 *
 * Memory, errors and threads as in pgbind.h: results live in the arena; on failure NULL comes back
 * and status (if not NULL) says why; several threads may call these at once with their own
 * arenas (the key tables both use are built by the first call that needs them, under a lock; a build
 * that ran out of memory is tried again).
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
 * Writes tree as JSON text, NUL-terminated, in arena (valid as long as the arena):
 * {"version":N,"stmts":[{"stmt":{"SelectStmt":{...}},"stmt_len":N},...]}, keys in field order,
 * unset fields left out, enums by name, NULL list cells as {}. Strings are copied byte for byte
 * except for the escapes JSON needs (and \u003c, \u003e, as libpg_query writes '<' and '>'), so a
 * string that is not UTF-8 (PostgreSQL's scanner lets such bytes through) gives text that strict
 * JSON parsers reject, exactly as libpg_query's does.
 *
 * options may be NULL; options->max_depth bounds the nesting of messages (as for pgbind_decode).
 * Errors: PGBIND_ERROR_ARGUMENT (tree or arena NULL), PGBIND_ERROR_DEPTH, PGBIND_ERROR_INVALID (a
 * node tag or enum value the format has no name for; the message names the field path),
 * PGBIND_ERROR_NOMEM. Only reads the tree.
 */
PGBIND_API const char *pgbind_json(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								   pgbind_Status *status);

/*
 * Reads JSON text json[0 .. len) (need not be NUL-terminated, need not outlive the call) in
 * libpg_query's format, which is pgbind_json()'s, into a tree in arena. Keys may come in any order
 * and with proto field names (target_list) as well as PostgreSQL's (targetList); white space is
 * allowed; absent fields take their defaults (NULL, 0, false, empty) and `null` means the default
 * for any field; a key given twice in one object, or two members of one oneof, is
 * PGBIND_ERROR_INVALID naming both places; {} and null are a NULL node.
 * String bytes >= 0x80 are taken as they are, UTF-8 or not (as pgbind_decode takes them).
 *
 * Errors other than PGBIND_ERROR_ARGUMENT and running out of memory for the key tables come with
 * status->offset = the byte offset of the problem and status->message starting "line L, column
 * C: " (1-based; columns count characters, a UTF-8 sequence being one):
 *   PGBIND_ERROR_MALFORMED  not JSON: unexpected character or end, bad literal or number, bad
 *                           escape, raw control character in a string, \u0000, lone surrogate,
 *                           text after the value, empty input, no JSON value where one was
 *                           expected ("not json")
 *   PGBIND_ERROR_INVALID    JSON, but not a parse tree: an unknown key (strict: typos are not
 *                           skipped), a value of the wrong type, an integer out of range, an
 *                           unknown node kind or enum name, a node object with two keys, a key
 *                           twice; the message ends with the path, e.g.
 *                           "at ParseResult.stmts[0].stmt.SelectStmt.limitOption"
 *   PGBIND_ERROR_DEPTH      messages nested deeper than options->max_depth (counted as
 *                           pgbind_decode and pgbind_json count them)
 *   PGBIND_ERROR_NOMEM, PGBIND_ERROR_ARGUMENT (arena NULL, or json NULL with len > 0)
 * Never reads outside the input, never crashes on any input. On failure, what was allocated
 * stays in the arena until it is freed.
 */
PGBIND_API pgbind_ParseResult *pgbind_json_read(const char *json, size_t len, const pgbind_Options *options,
												pgbind_Arena *arena, pgbind_Status *status);

#ifdef __cplusplus
}
#endif

#endif /* PGBIND_JSON_H */
