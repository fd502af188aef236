/*
 * deparse_target.h -- what the three deparse fuzz targets (fuzz_deparse_pb.c, _json.c, _tree.c)
 * do with each tree they make: the contract's two walks must agree, and the tree is deparsed
 * isolated (a tree from outside: the deparser's crash is an error in its child, never the
 * process's). Included by each target; static, as a target is one file.
 */
#ifndef PGBIND_TESTS_FUZZ_DEPARSE_TARGET_H
#define PGBIND_TESTS_FUZZ_DEPARSE_TARGET_H

#include "../contract_same.h"
#include "pgbind.h"

#include <stdio.h>
#include <stdlib.h>

/* the generated contract walk and the reference one agree, or the run stops with both verdicts */
static void walks_agree(const pgbind_ParseResult *tree)
{
	char why[1200];
	if (!contract_walks_agree(tree, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		abort();
	}
}

/* The isolated deparse of tree: SQL or an error with a status; the deparser's death in its child
 * is one, noted in the log (tests/fuzz/run.sh counts them). */
static void deparse_isolated(const pgbind_ParseResult *tree, pgbind_Arena *arena)
{
	static const pgbind_Options isolated = {.isolate_deparse = true};
	pgbind_Status status = {0};
	if (pgbind_deparse(tree, &isolated, arena, &status))
		return;
	if (status.code == PGBIND_OK)
		abort(); /* a failure says why */
	if (status.code == PGBIND_ERROR_DEPARSER_CRASHED)
		fprintf(stderr, "pgbind fuzz: the isolated deparser crashed: %s\n", status.message);
}

#endif
