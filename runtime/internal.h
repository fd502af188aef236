/*
 * internal.h -- what the runtime's files share and users do not see.
 */
#ifndef PGBIND_INTERNAL_H
#define PGBIND_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "pgbind.h"
#include "pgbind_reflect.h"

/* Fills status (if not NULL) with code and a formatted message; clears cursorpos and offset. */
void pgbind_fail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void pgbind_vfail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, va_list ap);

/* Whether the calling thread's stack is nearly used up (runtime/stack.c): every recursive path
 * stops with PGBIND_ERROR_DEPTH when this is true, as when max_depth is passed. One compare with a
 * thread-local bound found once per thread. */
extern __thread uintptr_t pgbind_stack_floor_tls __attribute__((tls_model("initial-exec")));
uintptr_t pgbind_stack_floor_init(void);
static inline bool pgbind_stack_low(void)
{
	uintptr_t floor = pgbind_stack_floor_tls;
	if (__builtin_expect(!floor, 0))
		floor = pgbind_stack_floor_init();
	return (uintptr_t)__builtin_frame_address(0) < floor;
}

/* Bytes of the calling thread's stack below the current frame (SIZE_MAX when unknown): for
 * calls into libpg_query, whose recursion pgbind cannot check level by level. */
size_t pgbind_stack_left(void);

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

/* Whether tree meets the deparse contract of the linked libpg_query (runtime/contract.c: the
 * rules of schema/pgNN/deparse.txt); else PGBIND_ERROR_UNREPRESENTABLE naming the message, the
 * field and its path. Nesting deeper than max_depth messages is refused too. */
bool pgbind_check_deparse_contract(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status);

/* pgbind_deparse without that check: for the tools that probe the deparser (tools/deparse-probe)
 * and the benchmark's price of the check. May crash on a tree outside the contract. */
const char *pgbind_deparse_unchecked(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status);

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
 * DeclareCursorStmt.options (16, then 0)"). lenient: NULL in a matches "" in b in the char *
 * fields the protocol cannot tell apart (a tree decoded from protobuf holds NULL there). */
bool pgbind_first_difference(const pgbind_ParseResult *a, const pgbind_ParseResult *b, bool lenient, char *path,
							 size_t size);

#endif
