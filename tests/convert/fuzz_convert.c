/*
 * fuzz_convert.c -- libFuzzer target of the converters between majors (targets/c/runtime/convert.c
 * and every generated table, targets/c/generated/convert/): the input is read as the encoding of
 * every major a table converts from, in every direction; what converts is converted back. Any
 * result is fine but a crash, a sanitizer's report, or an error without its message. Built and
 * run by mk/convert.mk (make convert-fuzz), seeded with real parses (convert_test --seeds).
 */
#include <stdio.h>
#include <stdlib.h>

#include "convert_table.h"
#include "pgbind_convert.h"

extern const cv_Table *const pgbind_convert_tables[];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t i = 0; pgbind_convert_tables[i]; i++) {
		const cv_Table *t = pgbind_convert_tables[i];
		uint8_t *out = NULL, *back = NULL;
		size_t n, m;
		pgbind_ConvertError err;
		pgbind_ConvertCode c = pgbind_convert_protobuf(t->from_major, t->to_major, data, size, &out, &n, &err);
		if (c != PGBIND_CONVERT_OK && (out || !err.message[0]))
			abort();
		if (c == PGBIND_CONVERT_OK) {
			c = pgbind_convert_protobuf(t->to_major, t->from_major, out, n, &back, &m, &err);
			if (c != PGBIND_CONVERT_OK && (back || !err.message[0]))
				abort();
			free(back);
		}
		free(out);
	}
	return 0;
}
