/*
 * pgbind.c -- the pgbind command: subcommand dispatch and the commands over one input.
 *
 *   pgbind parse [--format=protobuf|json|text] [FILE|-]
 *   pgbind deparse [--check] [--from=sql|protobuf|json] [FILE|-]
 *   pgbind fingerprint [FILE|-]
 *   pgbind normalize [FILE|-]
 *   pgbind scan [FILE|-]
 *   pgbind verify [--coverage=FILE] FILE...
 */
#include "bench.h"
#include "cli.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
	fputs("usage: pgbind COMMAND [OPTIONS] [FILE...]\n"
		  "\n"
		  "Commands:\n"
		  "  parse [--format=protobuf|json|text] [FILE|-]\n"
		  "        parse SQL (any number of statements) and write its tree: protobuf bytes\n"
		  "        identical to libpg_query's pg_query_parse_protobuf (default), JSON in\n"
		  "        pg_query_parse's format, or an indented readable tree (text)\n"
		  "  deparse [--check] [--from=sql|protobuf|json] [FILE|-]\n"
		  "        SQL text again, from SQL, protobuf bytes or JSON (libpg_query's deparser);\n"
		  "        --check: only SQL that parses back to the same tree\n"
		  "  fingerprint [FILE|-]\n"
		  "        libpg_query's fingerprint of the SQL, from pgbind's tree\n"
		  "  normalize [FILE|-]\n"
		  "        the SQL with constants replaced by $1, $2, ... (pg_query_normalize's text)\n"
		  "  scan [FILE|-]\n"
		  "        the scanner's tokens, comments included\n"
		  "  bench [--growth] [--quick] [--json] [FILE...]\n"
		  "        time every path against libpg_query's own, side by side\n"
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

/* Reads one input and parses it; on a syntax error prints file:line:col, the line and a caret.
 * Returns NULL after printing any error. */
static pgbind_ParseResult *read_and_parse(const char *path, pgbind_Arena *arena, char **sql_out)
{
	char *sql;
	size_t len;
	*sql_out = NULL;
	if (!cli_read_input(path, &sql, &len))
		return NULL;
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		if (status.code == PGBIND_ERROR_SYNTAX)
			cli_print_syntax_error(strcmp(path, "-") == 0 ? "<stdin>" : path, sql,
								   byte_offset_of_char(sql, status.cursorpos), status.message);
		else
			fprintf(stderr, "pgbind: %s: %s\n", pgbind_StatusCode_name(status.code), status.message);
		free(sql);
		return NULL;
	}
	*sql_out = sql;
	return tree;
}

/* Options shared by the subcommands: --name=value pairs and at most one input path. */
typedef struct {
	const char *path;
	const char *format;
	const char *from;
	bool check;
	bool help;
	bool bad;
} Args;

static Args parse_args(int argc, char **argv, const char *command)
{
	Args a = {.path = "-"};
	int n_paths = 0;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--format=", 9) == 0)
			a.format = argv[i] + 9;
		else if (strncmp(argv[i], "--from=", 7) == 0)
			a.from = argv[i] + 7;
		else if (strcmp(argv[i], "--check") == 0 && strcmp(command, "deparse") == 0)
			a.check = true;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			a.help = true;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "pgbind %s: unknown option %s\n", command, argv[i]);
			a.bad = true;
		} else {
			a.path = argv[i];
			n_paths++;
		}
	}
	if (n_paths > 1) {
		fprintf(stderr, "pgbind %s: one input at a time\n", command);
		a.bad = true;
	}
	return a;
}

int cli_parse(int argc, char **argv)
{
	Args a = parse_args(argc, argv, "parse");
	if (a.help) {
		puts("usage: pgbind parse [--format=protobuf|json|text] [FILE|-]\n"
			 "Parses the SQL in FILE (or standard input) and writes its parse tree to standard output:\n"
			 "  protobuf  pg_query.ParseResult bytes, identical to libpg_query's pg_query_parse_protobuf\n"
			 "  json      JSON in pg_query_parse's format (one line; pipe it to jq)\n"
			 "  text      an indented tree of the fields that are set\n"
			 "Without --format, protobuf bytes are not written to a terminal (exit 2): redirect them, or\n"
			 "give --format (--format=protobuf writes them anyway).\n"
			 "A syntax error prints the message, the line and a caret under the position, and exits 1.");
		return 0;
	}
	const char *format = a.format ? a.format : "protobuf";
	bool text_format = strcmp(format, "text") == 0, json_format = strcmp(format, "json") == 0;
	if (!text_format && !json_format && strcmp(format, "protobuf") != 0) {
		fprintf(stderr, "pgbind parse: unknown format '%s' (protobuf, json or text)\n", format);
		return 2;
	}
	if (a.bad || a.from)
		return 2;
	if (!a.format && isatty(STDOUT_FILENO)) { /* checked before reading: stdin may be the terminal too */
		fputs("pgbind parse: not writing protobuf bytes to a terminal: use --format=text (or json), or redirect "
			  "the output\n",
			  stderr);
		return 2;
	}
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	char *sql;
	int rc = 0;
	pgbind_ParseResult *tree = read_and_parse(a.path, arena, &sql);
	if (!tree) {
		rc = 1;
	} else if (json_format) {
		const char *json = pgbind_json(tree, NULL, arena, &status);
		if (json)
			printf("%s\n", json);
		else
			fprintf(stderr, "pgbind parse: %s\n", status.message), rc = 1;
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

/* Reads protobuf bytes (a whole file, binary) into a malloc'd buffer. */
static bool read_bytes(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		perror(path);
		return false;
	}
	size_t cap = 65536, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (f != stdin)
		fclose(f);
	if (!buf) {
		fprintf(stderr, "pgbind: %s: out of memory\n", path);
		return false;
	}
	*data = buf;
	*len = n;
	return true;
}

int cli_deparse(int argc, char **argv)
{
	Args a = parse_args(argc, argv, "deparse");
	if (a.help) {
		puts("usage: pgbind deparse [--check] [--from=sql|protobuf|json] [FILE|-]\n"
			 "Writes SQL text for the input: SQL (default; parsed, then deparsed), pg_query.ParseResult\n"
			 "protobuf bytes or JSON in pg_query_parse's format (as `pgbind parse` writes them). Uses\n"
			 "libpg_query's deparser; statements are separated by '; '. Exits 1 on a syntax error or\n"
			 "malformed input (with its byte offset, or line and column for JSON).\n"
			 "--check  parse the SQL back and write it only when it gives the same tree (PostgreSQL's\n"
			 "         equal(), locations aside); else exit 1 naming the first differing field");
		return 0;
	}
	const char *from = a.from ? a.from : "sql";
	if (a.bad || a.format || (strcmp(from, "sql") != 0 && strcmp(from, "protobuf") != 0 && strcmp(from, "json") != 0)) {
		if (!a.bad)
			fprintf(stderr, "pgbind deparse: --from takes sql, protobuf or json\n");
		return 2;
	}
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	pgbind_ParseResult *tree = NULL;
	char *sql = NULL;
	uint8_t *bytes = NULL;
	int rc = 1;
	if (strcmp(from, "sql") == 0) {
		tree = read_and_parse(a.path, arena, &sql);
	} else {
		size_t len;
		if (read_bytes(a.path, &bytes, &len)) {
			tree = strcmp(from, "json") == 0 ? pgbind_json_read((const char *)bytes, len, NULL, arena, &status)
											 : pgbind_decode(bytes, len, NULL, arena, &status);
			if (!tree)
				fprintf(stderr, "pgbind deparse: %s: %s\n", a.path, status.message);
		}
	}
	if (tree) {
		pgbind_Options options = {.check_deparse = a.check};
		const char *out = pgbind_deparse(tree, &options, arena, &status);
		if (out) {
			printf("%s\n", out);
			rc = fflush(stdout) == 0 ? 0 : 1;
		} else {
			fprintf(stderr, "pgbind deparse: %s\n", status.message);
		}
	}
	pgbind_Arena_Free(arena);
	free(sql);
	free(bytes);
	return rc;
}

int cli_fingerprint(int argc, char **argv)
{
	Args a = parse_args(argc, argv, "fingerprint");
	if (a.help) {
		puts("usage: pgbind fingerprint [FILE|-]\n"
			 "Prints libpg_query's fingerprint of the SQL (16 hex digits, as pg_query_fingerprint's\n"
			 "fingerprint_str), computed from pgbind's tree. Statements that differ only in constants\n"
			 "share a fingerprint.");
		return 0;
	}
	if (a.bad || a.format || a.from)
		return 2;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	char *sql;
	int rc = 1;
	pgbind_ParseResult *tree = read_and_parse(a.path, arena, &sql);
	uint64_t fp;
	if (tree && pgbind_fingerprint(tree, NULL, &fp, &status)) {
		printf("%016llx\n", (unsigned long long)fp);
		rc = 0;
	} else if (tree) {
		fprintf(stderr, "pgbind fingerprint: %s\n", status.message);
	}
	pgbind_Arena_Free(arena);
	free(sql);
	return rc;
}

int cli_normalize(int argc, char **argv)
{
	Args a = parse_args(argc, argv, "normalize");
	if (a.help) {
		puts("usage: pgbind normalize [FILE|-]\n"
			 "Prints the SQL with its constants replaced by $1, $2, ... as libpg_query's\n"
			 "pg_query_normalize does, computed from pgbind's tree of the SQL (no second parse).");
		return 0;
	}
	if (a.bad || a.format || a.from)
		return 2;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	char *sql;
	int rc = 1;
	pgbind_ParseResult *tree = read_and_parse(a.path, arena, &sql);
	const char *out = tree ? pgbind_normalize(tree, sql, NULL, arena, &status) : NULL;
	if (out) {
		printf("%s\n", out);
		rc = fflush(stdout) == 0 ? 0 : 1;
	} else if (tree) {
		fprintf(stderr, "pgbind normalize: %s\n", status.message);
	}
	pgbind_Arena_Free(arena);
	free(sql);
	return rc;
}

int cli_scan(int argc, char **argv)
{
	Args a = parse_args(argc, argv, "scan");
	if (a.help) {
		puts("usage: pgbind scan [FILE|-]\n"
			 "Lists the tokens of the SQL as libpg_query's scanner sees them (comments included), one\n"
			 "per line: start and end byte offsets, token, keyword kind, and the text.");
		return 0;
	}
	if (a.bad || a.format || a.from)
		return 2;
	char *sql;
	size_t len;
	if (!cli_read_input(a.path, &sql, &len))
		return 1;
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {0};
	int rc = 0;
	pgbind_ScanResult *scan = pgbind_scan(sql, NULL, arena, &status);
	if (!scan) {
		if (status.code == PGBIND_ERROR_SYNTAX)
			cli_print_syntax_error(strcmp(a.path, "-") == 0 ? "<stdin>" : a.path, sql,
								   byte_offset_of_char(sql, status.cursorpos), status.message);
		else
			fprintf(stderr, "pgbind scan: %s\n", status.message);
		rc = 1;
	} else {
		int32_t token_enum = -1, keyword_enum = -1;
		for (int i = 0; i < PGBIND_ENUM_COUNT; i++) {
			if (strcmp(pgbind_enum_descs[i].name, "Token") == 0)
				token_enum = i;
			if (strcmp(pgbind_enum_descs[i].name, "KeywordKind") == 0)
				keyword_enum = i;
		}
		for (size_t i = 0; i < scan->n_tokens; i++) {
			const pgbind_ScanToken *t = scan->tokens[i];
			const char *token = pgbind_enum_value_name(token_enum, (int32_t)t->token);
			const char *kw = pgbind_enum_value_name(keyword_enum, (int32_t)t->keyword_kind);
			int start = t->start, end = t->end;
			if (start < 0 || end < start || (size_t)end > len)
				start = end = 0;
			printf("%d\t%d\t%s\t%s\t%.*s\n", t->start, t->end, token ? token : "?", kw ? kw : "?", end - start,
				   sql + start);
		}
	}
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
	if (strcmp(argv[1], "deparse") == 0)
		return cli_deparse(argc - 1, argv + 1);
	if (strcmp(argv[1], "fingerprint") == 0)
		return cli_fingerprint(argc - 1, argv + 1);
	if (strcmp(argv[1], "scan") == 0)
		return cli_scan(argc - 1, argv + 1);
	if (strcmp(argv[1], "normalize") == 0)
		return cli_normalize(argc - 1, argv + 1);
	if (strcmp(argv[1], "bench") == 0)
		return cli_bench(argc - 1, argv + 1);
	fprintf(stderr, "pgbind: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
