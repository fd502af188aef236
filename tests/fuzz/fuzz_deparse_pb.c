/*
 * fuzz_deparse_pb.c -- libFuzzer target: arbitrary bytes as a protobuf ParseResult, decoded, then
 * deparsed. Whatever pgbind_decode accepts, pgbind_deparse must return SQL or an error (the tree
 * checked against the deparser's contract first), never crash inside libpg_query's deparser; and
 * the contract's generated walk agrees with its reference walk.
 */
#include "../contract_same.h"
#include "pgbind.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the generated contract walk and the reference one agree, or the run stops with both verdicts */
static void walks_agree(const pgbind_ParseResult *tree)
{
	char why[1200];
	if (!contract_walks_agree(tree, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_decode(data, size, NULL, arena, &status);
	if (tree)
		walks_agree(tree);
	if (tree && !pgbind_deparse(tree, NULL, arena, &status) && status.code == PGBIND_OK)
		abort(); /* a failure says why */
	pgbind_Arena_Free(arena);
	return 0;
}
