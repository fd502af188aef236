/*
 * fuzz_decode.c -- libFuzzer target: arbitrary bytes as a protobuf ParseResult. The decoder must
 * accept or refuse without reading out of bounds (ASan), and what it accepts must encode and
 * decode again to an equal tree (a fixed point: encode(decode(x)) is canonical).
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
	pgbind_ParseResult *tree = pgbind_decode(data, size, NULL, arena, &status);
	if (tree) {
		const uint8_t *bytes;
		size_t len;
		if (!pgbind_encode(tree, NULL, arena, &bytes, &len, &status))
			abort();
		pgbind_ParseResult *again = pgbind_decode(bytes, len, NULL, arena, &status);
		if (!again || !pgbind_ParseResult_equal(tree, again))
			abort();
		const uint8_t *bytes2;
		size_t len2;
		if (!pgbind_encode(again, NULL, arena, &bytes2, &len2, &status) || len2 != len ||
			memcmp(bytes, bytes2, len) != 0)
			abort();
	} else if (status.code == PGBIND_ERROR_MALFORMED && status.offset > size) {
		abort();
	}
	pgbind_Arena_Free(arena);
	return 0;
}
