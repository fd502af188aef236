/*
 * fuzz_deparse_pb.c -- libFuzzer target: arbitrary bytes as a protobuf ParseResult, decoded, then
 * deparsed. Whatever pgbind_decode accepts, pgbind_deparse must return SQL or an error (the tree
 * checked against the deparser's contract first), never crash inside libpg_query's deparser.
 */
#include "pgbind.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_decode(data, size, NULL, arena, &status);
	if (tree && !pgbind_deparse(tree, NULL, arena, &status) && status.code == PGBIND_OK)
		abort(); /* a failure says why */
	pgbind_Arena_Free(arena);
	return 0;
}
