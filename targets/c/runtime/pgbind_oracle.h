/*
 * pgbind_oracle.h -- the runtime's internal functions that `pgbind verify`'s oracles (cli/verify*.c,
 * cli/json_verify.c) use, and all they use of the runtime beyond the public headers: the one
 * documented way in, so that the verifier does not depend on everything the runtime's files share
 * (targets/c/runtime/internal.h, which includes this). Not installed; not for users.
 */
#ifndef PGBIND_ORACLE_H
#define PGBIND_ORACLE_H

#include <stdbool.h>

#include "pgbind.h"

/* pgbind_to_pg_parse_tree, optionally keeping "" strings as "" (libpg_query's reader makes them
 * NULL; the fingerprint of the parsed text sees ""). */
bool pgbind_to_pg_nodes(const pgbind_ParseResult *tree, void *memory_context, const pgbind_Options *options,
						bool keep_empty_strings, void **out, pgbind_Status *status);

/* What the deparse contract of the linked libpg_query (targets/c/runtime/contract.c: the rules of
 * schema/pgNN/deparse.txt) says of a tree: */
typedef enum {
	PGBIND_CONTRACT_MET,       /* no rule broken, and the thread has the stack the deparser needs */
	PGBIND_CONTRACT_BROKEN,    /* a rule: its shape crashed the deparser and no parse of the corpus makes it;
							 * status (PGBIND_ERROR_UNREPRESENTABLE) names the message, the field, its path
							 * and the rule. pgbind_deparse runs the deparser in its deparse server then. */
	PGBIND_CONTRACT_REFUSED,   /* status says why: nesting deeper than max_depth messages, or than the
							  * calling thread's stack holds for the deparser (PGBIND_ERROR_DEPTH,
							  * PGBIND_STACK_MESSAGE); an enum value no enum declares */
	PGBIND_CONTRACT_READS_PAST /* a declared rule (schema/libpg_query.txt, memory): the deparser reads
								* past a node there, what it writes depends on memory; status as for
								* BROKEN. pgbind_deparse runs it in the server too, and returns its
								* SQL only where it parses back to the tree. */
} pgbind_ContractVerdict;
pgbind_ContractVerdict pgbind_deparse_contract(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status);
/* Whether that verdict is PGBIND_CONTRACT_MET (status: why not). */
bool pgbind_check_deparse_contract(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status);

#endif
