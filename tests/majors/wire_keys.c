/*
 * wire_keys.c -- where two protobuf encodings of one major's ParseResult differ, field by field,
 * named "Message.field" as docs/generated/majors-pgA-pgB.md names them: tests/convert/wire_diff.c
 * with the generated converter tables as the proto's description (the table from MAJOR to OTHER,
 * linked from build/libpgbind.a: the pair names an option's DefElem location as tests/convert
 * does). tests/majors/cli_as.sh's grammar check runs it on `pgbind parse --pg=A --as=B` against
 * `pgbind parse --pg=B`, with MAJOR B and OTHER A.
 *
 *   wire_keys MAJOR OTHER A.pb B.pb
 *
 * Prints each difference's name, one a line (none: equal); exit 0. Exit 2 on a wrong command
 * line, an unreadable file or a pair no table converts.
 */
#include "convert_table.h"
#include "read_file.h"
#include "wire_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cv_Table *const pgbind_convert_tables[]; /* targets/c/generated/convert/index.c */

/* The file's bytes (a protobuf may hold NUL bytes), malloc'd; NULL when it cannot be read. */
static uint8_t *read_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = f ? majors_read_stream(f, len) : NULL;
	if (f)
		fclose(f);
	return (uint8_t *)data;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fputs("usage: wire_keys MAJOR OTHER A.pb B.pb\n", stderr);
		return 2;
	}
	const cv_Table *t = NULL;
	for (int i = 0; pgbind_convert_tables[i]; i++)
		if (pgbind_convert_tables[i]->from_major == atoi(argv[1]) &&
			pgbind_convert_tables[i]->to_major == atoi(argv[2]))
			t = pgbind_convert_tables[i];
	size_t an, bn;
	uint8_t *a = read_bytes(argv[3], &an), *b = read_bytes(argv[4], &bn);
	if (!t || !a || !b) {
		fprintf(stderr, "wire_keys: %s\n", !t ? "no table converts from MAJOR to OTHER" : "cannot read a file");
		return 2;
	}
	wd_Keys keys = {0};
	wd_diff(t, t->root, a, an, b, bn, &keys);
	for (int i = 0; i < keys.n; i++)
		printf("%s\n", keys.keys[i]);
	free(keys.keys);
	free(a);
	free(b);
	return fflush(stdout) == 0 ? 0 : 2;
}
