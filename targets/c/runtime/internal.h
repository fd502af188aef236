/*
 * internal.h -- what the runtime's files share and users do not see. The part of it `pgbind verify`
 * uses is declared in targets/c/runtime/pgbind_oracle.h, which this includes.
 */
#ifndef PGBIND_INTERNAL_H
#define PGBIND_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "major.h" /* pgbind_Options.pg_major's hooks */
#include "pgbind.h"
#include "pgbind_oracle.h"
#include "pgbind_reflect.h"

/* Fills status (if not NULL) with code and a formatted message; clears cursorpos and offset. */
void pgbind_fail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void pgbind_vfail(pgbind_Status *status, pgbind_StatusCode code, const char *fmt, va_list ap);

/* Whether the calling thread's stack is nearly used up (targets/c/runtime/stack.c): every recursive path
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

/* sql's raw parse (libpg_query's parser), handed to fn inside libpg_query's memory context, where
 * the tree lives until fn returns (from_pg.c: pgbind_parse, and the summary from SQL). A syntax
 * error goes to status (PGBIND_ERROR_SYNTAX, cursorpos) and returns false; else fn's result. */
bool pgbind_with_raw_parse(const char *sql, const pgbind_Options *options, pgbind_Status *status,
						   bool (*fn)(const void *raw_stmt_list, void *ctx), void *ctx);

/* libpg_query's fingerprint computed over the AST itself (targets/c/runtime/fingerprint.c): of tree (its
 * statements, as pg_query_fingerprint of its SQL) when tree is not NULL, else of root (as
 * pg_query_fingerprint_node of its nodes). It reads 100 levels of nodes, as libpg_query's does;
 * only a chain of messages deeper than max_depth (SELECT ... UNION ... nests through larg) is
 * PGBIND_ERROR_DEPTH. */
bool pgbind_fingerprint_ast(const pgbind_Node *root, const pgbind_ParseResult *tree, const pgbind_Options *options,
							uint64_t *fingerprint, pgbind_Status *status);

/* pg_query_normalize's text computed from the tree, with the linked libpg_query's rules
 * (targets/c/runtime/normalize.c); pgbind_normalize's arguments, checked by it. */
const char *pgbind_normalize_ast(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
								 pgbind_Arena *arena, pgbind_Status *status);

/* The same verdict and error by the reference walk (over the descriptor tables and the rules, a
 * field at a time), which the tests and the fuzz targets hold the generated walk to. */
bool pgbind_check_deparse_contract_reference(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status);

/* Whether enum ei's value 0 is pg_query.proto's <ENUM>_UNDEFINED, which has no C value: both routes
 * to the deparser read it as the proto's first value, 1 (libpg_query's reader on 15, to_pg_enum_*'s
 * default on 17 and 18), so the probe tries no such value of its own (tools/deparse-probe). */
bool pgbind_enum_zero_is_undefined(int32_t ei);

/* pgbind_deparse without the contract's check: for the tools that probe the deparser (tools/deparse-probe)
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
/* The way back: a copy of tree in arena in which those fields holding replacement hold "" again
 * (the deparse server's, for a tree that came through the protocol with a marker there). */
pgbind_ParseResult *pgbind_copy_restoring_lossy_empty(const pgbind_ParseResult *tree, const char *replacement,
													  pgbind_Arena *arena, pgbind_Status *status);

/* Whether a and b differ, locations aside (the fields PostgreSQL's equal() skips, and RawStmt's
 * stmt_len); the first difference's field path goes to path ("ParseResult.stmts[0].stmt.
 * DeclareCursorStmt.options (272, then 256)"). lenient: NULL in a matches "" in b in the char *
 * fields the protocol cannot tell apart (a tree decoded from protobuf holds NULL there). */
bool pgbind_first_difference(const pgbind_ParseResult *a, const pgbind_ParseResult *b, bool lenient, char *path,
							 size_t size);

/*
 * libpg_query's behaviours, declared per version in schema/libpg_query.txt (each
 * line for the majors its since:/until: say; checked by pgbind-gen against the model: an unknown kind or field
 * stops it) and generated into targets/c/generated/pgNN/libpg_query.inc.c, indexed like pgbind_message_descs
 * and each message's fields. What each flag means, once (the schema files' keys in brackets):
 */
enum {
	/* fingerprint (targets/c/runtime/fingerprint.c) */
	PGBIND_LPQ_FP_SKIP = 1u << 0,                  /* [fingerprint:skip] the kind or field counts for nothing */
	PGBIND_LPQ_FP_CONSTANT = 1u << 1,              /* [fingerprint:constant] a kind that counts for nothing, nor does
										 * a cast of it (below) */
	PGBIND_LPQ_FP_SORTED = 1u << 2,                /* [sorted] a list field whose items count in the order of their
										 * hashes, repeats once; so do the lists nested in them */
	PGBIND_LPQ_FP_UNNAMED_TARGETS = 1u << 3,       /* [unnamed_targets] the items of this list field do not
											  * count their target_name field */
	PGBIND_LPQ_FP_TARGET_NAME = 1u << 4,           /* [target_name] see unnamed_targets */
	PGBIND_LPQ_FP_IN_ANY_AS_OP = 1u << 5,          /* [in_any_as_op] an A_Expr_Kind field: ANY and IN count as OP */
	PGBIND_LPQ_FP_DIGIT_RUNS_DROPPED = 1u << 6,    /* [digit_runs_dropped] a name counted without its runs of
												 * two or more digits */
	PGBIND_LPQ_FP_TEMP_HIDES_RELNAME = 1u << 7,    /* [temp_hides_relname] a char field: 't' (temporary) hides
												 * the message's digit_runs_dropped name */
	PGBIND_LPQ_FP_CONSTANT_HIDES_PARENT = 1u << 8, /* [constant_hides_parent] a node field: holding a
													* constant kind, its message counts for nothing */
	PGBIND_LPQ_EMBEDDED = 1u << 9,                 /* (from the model) a message field embedded in its C struct: counted
									* at the same depth, its name always, its fields even when absent */
	PGBIND_LPQ_FP_RELATION_CONTEXT = 1u << 10,     /* [relation_context] (a kind: each of its fields) a relation
												* below this field is one a query reads or writes */
	PGBIND_LPQ_FP_ALIAS_NAME = 1u << 11,           /* [alias_name] a message field counted as its child's
												* alias_name string (name and value), when set; in a
												* relation context the message's digit_runs_dropped
												* name then does not count */
	PGBIND_LPQ_FP_OUTSIDE_RELATION_CONTEXT = 1u << 24, /* [outside_relation_context] a string counted
														* only outside a relation context */
	/* normalize (targets/c/runtime/normalize.c) */
	PGBIND_LPQ_NORM_WALK = 1u << 12,              /* [normalize:walk] the constant walk enters the kind (every
											  * child field) or the field, in normalize_order */
	PGBIND_LPQ_NORM_TARGETS = 1u << 13,           /* [targets] a SELECT's target list: each target's numbers
											  * are kept for GROUP BY */
	PGBIND_LPQ_NORM_GROUP_BY = 1u << 14,          /* [group_by] integer constants stay; an item like a target
											  * takes the target's numbers */
	PGBIND_LPQ_NORM_ORDER_BY = 1u << 15,          /* [order_by] items whose sort_key is an integer constant stay */
	PGBIND_LPQ_NORM_TARGET_VALUE = 1u << 16,      /* [target_value] the field of a target that group_by compares */
	PGBIND_LPQ_NORM_SORT_KEY = 1u << 17,          /* [sort_key] see order_by */
	PGBIND_LPQ_NORM_STRING_ARG = 1u << 18,        /* [string_arg] a String (or a List of one) here makes the first
											  * ' or $ at or after the message's quote_from location a
											  * constant */
	PGBIND_LPQ_NORM_QUOTE_FROM = 1u << 19,        /* [quote_from] see string_arg */
	PGBIND_LPQ_NORM_TEXT_SEARCH = 1u << 20,       /* [text_search] a string: a constant starts at the byte before its
											  * first occurrence anywhere in the text */
	PGBIND_LPQ_NORM_CONSTANT_LOCATION = 1u << 21, /* [constant_location] a location (>= 0) where a constant starts */
	PGBIND_LPQ_NORM_PARAM_NUMBER = 1u << 22,      /* [param_number] a parameter's number ($n): the walk
												   * numbers its constants after the highest */
	PGBIND_LPQ_NORM_LOCATION_NEEDS_IT = 1u << 25, /* [location_needs_it] a string: the message's constant_location
												* counts only when it is set */
	/* the version's (declared on ParseResult, the root) */
	PGBIND_LPQ_FP_DEPTH_CUTS_MESSAGES = 1u << 26,  /* [fingerprint:depth_cuts_messages] the 100-level cut also
												   * applies to a message pointer (SELECT ... UNION's larg) */
	PGBIND_LPQ_NORM_COMMENTS_SKIPPED = 1u << 27,   /* [normalize:comments_skipped] its scanner returns no
												   * comments: a minus, a comment and 1 are one constant */
	PGBIND_LPQ_NORM_VERTICAL_TAB_SPACE = 1u << 28, /* [normalize:vertical_tab_space] (declared on ScanResult) its
													* scanner takes \v for white space: - \v 1 is one constant */
};

typedef struct pgbind_LpqField {
	uint32_t flags;
	uint8_t normalize_order; /* where the constant walk takes the field (its proto place by default) */
} pgbind_LpqField;

typedef struct pgbind_LpqMessage {
	uint32_t flags;
	const pgbind_LpqField *fields; /* parallel to pgbind_message_descs[m].fields */
} pgbind_LpqMessage;

extern const pgbind_LpqMessage pgbind_lpq_messages[PGBIND_MESSAGE_COUNT];

#endif
