/*
 * cli_reference.c -- what `pgbind fingerprint` and `pgbind parse --format=protobuf` must write for
 * a file, from one libpg_query major alone in its process: mk/majors.mk links it, as
 * tests/majors/reference.c, against that major's own libpg_query.a, its symbols not renamed.
 * tests/majors/cli_cases.sh compares the command's output, first error line and exit status with
 * it, per major and corpus file.
 *
 *   cli_reference fingerprint|parse FILE
 *
 * fingerprint: pg_query_fingerprint's fingerprint_str and a newline; parse: pg_query_parse_protobuf's
 * bytes. On the library's error: "FILE:LINE:COLUMN: error: MESSAGE" on standard error and exit 1,
 * as the command reports a syntax error (reader/reader.c): LINE and COLUMN count lines and
 * characters up to the error's cursor position (characters from 1; 0, none, is 1:1), and the
 * message is cut to its first 255 bytes, as pgbind_Status holds it (targets/c/runtime/pgbind.h).
 * Exit 2 on a wrong command line or an unreadable file.
 */
#include <stdio.h>
#include <string.h>

#include "pg_query.h"
#include "read_file.h"

static int error(const char *path, const char *sql, const PgQueryError *e)
{
	int line = 1, col = 1;
	for (int chars = 0; *sql && chars < e->cursorpos - 1; chars++) {
		if (*sql == '\n')
			line++, col = 1;
		else
			col++;
		sql++;
		while (((unsigned char)*sql & 0xc0) == 0x80) /* a character's continuation bytes */
			sql++;
	}
	fprintf(stderr, "%s:%d:%d: error: %.255s\n", path, line, col, e->message);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "fingerprint") != 0 && strcmp(argv[1], "parse") != 0)) {
		fputs("usage: cli_reference fingerprint|parse FILE\n", stderr);
		return 2;
	}
	char *sql = majors_read_file(argv[2]);
	if (!sql) {
		fprintf(stderr, "cli_reference: cannot read %s\n", argv[2]);
		return 2;
	}
	int rc = 0;
	if (strcmp(argv[1], "fingerprint") == 0) {
		PgQueryFingerprintResult r = pg_query_fingerprint(sql);
		rc = r.error ? error(argv[2], sql, r.error) : printf("%s\n", r.fingerprint_str) < 0;
		pg_query_free_fingerprint_result(r);
	} else {
		PgQueryProtobufParseResult r = pg_query_parse_protobuf(sql);
		rc = r.error ? error(argv[2], sql, r.error)
					 : fwrite(r.parse_tree.data, 1, r.parse_tree.len, stdout) != r.parse_tree.len;
		pg_query_free_protobuf_parse_result(r);
	}
	free(sql);
	return fflush(stdout) == 0 ? rc : 2;
}
