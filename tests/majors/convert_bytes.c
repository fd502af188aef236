/*
 * convert_bytes.c -- the library's converter between majors (pgbind_convert_protobuf, linked from
 * build/libpgbind.a as a user's program links it), standing alone: what `pgbind parse --pg=A --as=B
 * --format=protobuf` must write, reached by another route than the command's (tests/majors/cli_as.sh
 * gives it each major's own pg_query_parse_protobuf bytes, from tests/majors/cli_reference.c).
 *
 *   convert_bytes A [VIA] B <A's bytes >B's bytes
 *
 * Converts standard input from major A's encoding of a ParseResult to B's, through VIA when given
 * (A -> VIA, then VIA -> B: the command's route where no pair A-B was generated). On the
 * converter's error: its message on standard error (one line, as the converter wrote it) and exit
 * 1. Exit 2 on a wrong command line or unreadable input.
 */
#include "pgbind_convert.h"
#include "read_file.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fputs("usage: convert_bytes A [VIA] B <in >out\n", stderr);
		return 2;
	}
	size_t len = 0;
	uint8_t *data = (uint8_t *)majors_read_stream(stdin, &len);
	if (!data) {
		fputs("convert_bytes: cannot read standard input\n", stderr);
		return 2;
	}
	for (int i = 1; i + 1 < argc; i++) {
		uint8_t *out;
		size_t out_len;
		pgbind_ConvertError err;
		if (pgbind_convert_protobuf(atoi(argv[i]), atoi(argv[i + 1]), data, len, &out, &out_len, &err) !=
			PGBIND_CONVERT_OK) {
			fprintf(stderr, "%s\n", err.message);
			return 1;
		}
		free(data);
		data = out;
		len = out_len;
	}
	fwrite(data, 1, len, stdout);
	free(data);
	return fflush(stdout) == 0 ? 0 : 2;
}
