/*
 * contract_same.h -- the generated walk of the deparse contract (deparse.inc.c's cw_*) held to
 * the reference walk over the descriptor tables (targets/c/runtime/contract.c): for any tree, the
 * same verdict, and when it refuses, the same error. For the tests and the fuzz targets that
 * deparse trees nobody checked (decoded, read, built from random choices).
 */
#ifndef PGBIND_TESTS_CONTRACT_SAME_H
#define PGBIND_TESTS_CONTRACT_SAME_H

#include "internal.h"
#include "pgbind.h"

#include <stdio.h>
#include <string.h>

/* Whether the two walks agree on tree t at pgbind_deparse's depth; else why, in why. */
static inline bool contract_walks_agree(const pgbind_ParseResult *t, char *why, size_t n_why)
{
	int depth = PGBIND_DEFAULT_MAX_DEPTH;
	pgbind_Status gen = {0}, ref = {0};
	bool g = pgbind_check_deparse_contract(t, depth, &gen);
	bool r = pgbind_check_deparse_contract_reference(t, depth, &ref);
	if (g == r && (g || (gen.code == ref.code && strcmp(gen.message, ref.message) == 0)))
		return true;
	snprintf(why, n_why, "the generated contract walk says %s (%s), the reference walk %s (%s)", g ? "met" : "refused",
			 g ? "" : gen.message, r ? "met" : "refused", r ? "" : ref.message);
	return false;
}

#endif
