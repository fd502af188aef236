/*
 * fuzz_json.c -- libFuzzer target: arbitrary bytes as JSON for pgbind_json_read. It must accept or
 * refuse without a crash or a read out of bounds; what it accepts must write back as JSON that
 * reads to an equal tree, and both trees must encode to the same protobuf bytes.
 */
#include "pgbind.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_json_read((const char *)data, size, NULL, arena, &status);
	if (tree) {
		const char *json = pgbind_json(tree, NULL, arena, &status);
		if (!json)
			abort();
		pgbind_ParseResult *again = pgbind_json_read(json, strlen(json), NULL, arena, &status);
		if (!again || !pgbind_ParseResult_equal(tree, again))
			abort();
		const uint8_t *b1, *b2;
		size_t n1, n2;
		if (!pgbind_encode(tree, NULL, arena, &b1, &n1, &status) ||
			!pgbind_encode(again, NULL, arena, &b2, &n2, &status) || n1 != n2 || memcmp(b1, b2, n1) != 0)
			abort();
	} else if (status.code == PGBIND_ERROR_MALFORMED && status.offset > size) {
		abort();
	}
	pgbind_Arena_Free(arena);
	return 0;
}
