/*
 * fuzz_deparse_pb.c -- libFuzzer target: arbitrary bytes as a protobuf ParseResult, decoded, then
 * deparsed. Whatever pgbind_decode accepts, pgbind_deparse must return SQL or an error (the tree
 * checked against the deparser's contract first), never crash the calling process (a tree from
 * outside: the deparser runs isolated, pgbind_Options.isolate_deparse, and its crash in the child
 * is an error, counted); and the contract's generated walk agrees with its reference walk.
 */
#include "deparse_target.h"
#include "pgbind.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_decode(data, size, NULL, arena, &status);
	if (tree)
		walks_agree(tree);
	if (tree)
		deparse_isolated(tree, arena);
	pgbind_Arena_Free(arena);
	return 0;
}
