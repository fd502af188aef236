/*
 * pgbind.c -- the pgbind command: subcommand dispatch and `pgbind parse`.
 *
 *   pgbind parse [--format=protobuf|text] [FILE|-]
 *   pgbind verify FILE...
 */
#include "cli.h"
#include "pgbind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
	fputs("usage: pgbind COMMAND [OPTIONS] [FILE...]\n"
		  "\n"
		  "Commands:\n"
		  "  parse [--format=protobuf|text] [FILE|-]\n"
		  "        parse SQL (any number of statements) and write its tree: protobuf bytes\n"
		  "        identical to libpg_query's pg_query_parse_protobuf (default), or an\n"
		  "        indented readable tree (text)\n"
		  "  verify [--coverage=FILE] FILE...\n"
		  "        split each file into statements and compare every pgbind path with\n"
		  "        libpg_query's own, statement by statement; ends with 'N passed, M failed'\n"
		  "\n"
		  "FILE '-' or no FILE reads standard input. 'pgbind COMMAND --help' for details.\n",
		  out);
}

/* PostgreSQL's cursor positions count characters from 1; the text is UTF-8. */
static size_t byte_offset_of_char(const char *text, int cursorpos)
{
	size_t i = 0;
	int chars = 0;
	while (text[i] && chars < cursorpos - 1) {
		i++;
		while (((unsigned char)text[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

int cli_parse(int argc, char **argv)
{
	const char *format = "protobuf", *path = "-";
	int n_paths = 0;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--format=", 9) == 0) {
			format = argv[i] + 9;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			puts("usage: pgbind parse [--format=protobuf|text] [FILE|-]\n"
				 "Parses the SQL in FILE (or standard input) and writes its parse tree to standard output:\n"
				 "  protobuf  pg_query.ParseResult bytes, identical to libpg_query's pg_query_parse_protobuf\n"
				 "  text      an indented tree of the fields that are set\n"
				 "A syntax error prints the message, the line and a caret under the position, and exits 1.");
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "pgbind parse: unknown option %s\n", argv[i]);
			return 2;
		} else {
			path = argv[i];
			n_paths++;
		}
	}
	if (n_paths > 1) {
		fprintf(stderr, "pgbind parse: one input at a time\n");
		return 2;
	}
	bool text_format = strcmp(format, "text") == 0;
	if (!text_format && strcmp(format, "protobuf") != 0) {
		fprintf(stderr, "pgbind parse: unknown format '%s' (protobuf or text)\n", format);
		return 2;
	}
	char *sql;
	size_t len;
	if (!cli_read_input(path, &sql, &len))
		return 1;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	int rc = 0;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		if (status.code == PGBIND_ERROR_SYNTAX)
			cli_print_syntax_error(strcmp(path, "-") == 0 ? "<stdin>" : path, sql,
								   byte_offset_of_char(sql, status.cursorpos), status.message);
		else
			fprintf(stderr, "pgbind parse: %s: %s\n", pgbind_StatusCode_name(status.code), status.message);
		rc = 1;
	} else if (text_format) {
		const char *text = pgbind_text(tree, arena, &status);
		if (text)
			fputs(text, stdout);
		else
			fprintf(stderr, "pgbind parse: %s\n", status.message), rc = 1;
	} else {
		const uint8_t *data;
		size_t n;
		if (pgbind_encode(tree, NULL, arena, &data, &n, &status))
			fwrite(data, 1, n, stdout);
		else
			fprintf(stderr, "pgbind parse: %s\n", status.message), rc = 1;
	}
	if (fflush(stdout) != 0)
		rc = 1;
	pgbind_Arena_Free(arena);
	free(sql);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "parse") == 0)
		return cli_parse(argc - 1, argv + 1);
	if (strcmp(argv[1], "verify") == 0)
		return cli_verify(argc - 1, argv + 1);
	fprintf(stderr, "pgbind: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
