/*
 * fuzz_deparse_json.c -- libFuzzer target: arbitrary bytes as JSON for pgbind_json_read, then
 * deparsed: what the reader accepts, pgbind_deparse turns into SQL or refuses, never crashing.
 */
#include "pgbind.h"
#include "pgbind_json.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_json_read((const char *)data, size, NULL, arena, &status);
	if (tree && !pgbind_deparse(tree, NULL, arena, &status) && status.code == PGBIND_OK)
		abort();
	pgbind_Arena_Free(arena);
	return 0;
}
