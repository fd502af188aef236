/*
 * pgbind.c -- the pgbind command: one table of subcommands, and the commands over one input.
 *
 *   pgbind parse [--format=protobuf|json|text] [FILE|-]
 *   pgbind deparse [--check] [--from=sql|protobuf|json] [FILE|-]
 *   pgbind fingerprint [FILE|-]
 *   pgbind normalize [FILE|-]
 *   pgbind scan [FILE|-]
 *   pgbind verify [-v] [--coverage=FILE] FILE...
 *   pgbind bench ...   (the developer's benchmark: runs pgbind-bench, tools/bench/)
 *
 * A command over one input is a row of `commands` and a function that gets the input read (and
 * parsed, decoded or read as JSON, as the row says) in a Run: run_command() parses the options,
 * answers --help, reads the input, reports a syntax error with file:line:col, and frees.
 */
#include "cli.h"
#include "pgbind.h"
#include "pgbind_json.h"
#include "pgbind_reflect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options a command may take. */
enum { OPT_FORMAT = 1, OPT_FROM = 2, OPT_CHECK = 4 };

/* What a command gets: its options, the input and, for commands over a tree, the tree. */
typedef struct {
	const char *name; /* the command's */
	const char *path; /* "-" = standard input */
	const char *format, *from;
	bool check;
	char *input; /* the whole input (NUL-terminated), len bytes */
	size_t len;
	pgbind_ParseResult *tree; /* parsed (SQL), decoded (--from=protobuf) or read (--from=json) */
	pgbind_Arena *arena;
	pgbind_Status status;
} Run;

typedef enum {
	INPUT_TREE, /* the input is read and parsed (or decoded, or read as JSON: --from) */
	INPUT_SQL,  /* the input is read as SQL text, the command parses it */
	OWN_ARGS    /* the command takes its arguments itself (main) */
} InputKind;

typedef struct {
	const char *name;
	const char *synopsis; /* the options and inputs, after "pgbind NAME" */
	const char *summary;  /* pgbind --help */
	const char *help;     /* pgbind NAME --help, after the usage line */
	unsigned options;
	InputKind input;
	int (*run)(Run *r);                 /* INPUT_TREE, INPUT_SQL: 0 done, 1 failed */
	int (*main)(int argc, char **argv); /* OWN_ARGS: argv[0] is the command's name */
} Command;

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

/* Reports a failed call on the input: a syntax error as file:line:col with the line and a caret,
 * anything else with the command's name. Returns 1. */
static int report(const Run *r)
{
	if (r->status.code == PGBIND_ERROR_SYNTAX && r->input)
		cli_print_syntax_error(strcmp(r->path, "-") == 0 ? "<stdin>" : r->path, r->input,
							   byte_offset_of_char(r->input, r->status.cursorpos), r->status.message);
	else
		fprintf(stderr, "pgbind %s: %s\n", r->name, r->status.message);
	return 1;
}

/* Writes text and a newline to standard output; 0, or 1 when the output fails. */
static int print_line(const char *text)
{
	printf("%s\n", text);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* ---- the commands over one input -------------------------------------------------------------- */

static int run_parse(Run *r)
{
	const char *format = r->format ? r->format : "protobuf";
	if (strcmp(format, "json") == 0) {
		const char *json = pgbind_json(r->tree, NULL, r->arena, &r->status);
		return json ? print_line(json) : report(r);
	}
	if (strcmp(format, "text") == 0) {
		const char *text = pgbind_text(r->tree, r->arena, &r->status);
		if (!text)
			return report(r);
		fputs(text, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	const uint8_t *data;
	size_t n;
	if (!pgbind_encode(r->tree, NULL, r->arena, &data, &n, &r->status))
		return report(r);
	fwrite(data, 1, n, stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int run_deparse(Run *r)
{
	pgbind_Options options = {.check_deparse = r->check};
	const char *out = pgbind_deparse(r->tree, &options, r->arena, &r->status);
	return out ? print_line(out) : report(r);
}

static int run_fingerprint(Run *r)
{
	uint64_t fp;
	if (!pgbind_fingerprint(r->tree, NULL, &fp, &r->status))
		return report(r);
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fp);
	return print_line(hex);
}

static int run_normalize(Run *r)
{
	const char *out = pgbind_normalize(r->tree, r->input, NULL, r->arena, &r->status);
	return out ? print_line(out) : report(r);
}

static int run_scan(Run *r)
{
	pgbind_ScanResult *scan = pgbind_scan(r->input, NULL, r->arena, &r->status);
	if (!scan)
		return report(r);
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
		if (start < 0 || end < start || (size_t)end > r->len)
			start = end = 0;
		printf("%d\t%d\t%s\t%s\t%.*s\n", t->start, t->end, token ? token : "?", kw ? kw : "?", end - start,
			   r->input + start);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

/* `pgbind bench`: the benchmark is a developer's program of its own (tools/bench/, not installed,
 * so that the command holds no benchmark code and no allocator wrapping); this runs the
 * pgbind-bench beside this program, telling it where this program is (it times the command). */
static int bench_main(int argc, char **argv)
{
	(void)argc; /* argv ends in NULL */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "pgbind bench: cannot find this program: %s\n", strerror(errno));
		return 2;
	}
	self[n] = '\0';
	char bench[PATH_MAX + 16];
	char *slash = strrchr(self, '/');
	snprintf(bench, sizeof bench, "%.*s/pgbind-bench", (int)(slash - self), self);
	setenv("PGBIND", self, 1);
	argv[0] = bench;
	execv(bench, argv);
	fprintf(stderr,
			"pgbind bench: cannot run %s (%s): the benchmark is a developer's tool, built in a pgbind checkout "
			"by `make` (build/pgbind-bench) and not installed\n",
			bench, strerror(errno));
	return 2;
}

static const Command commands[] = {
	{"parse", "[--format=protobuf|json|text] [FILE|-]",
	 "parse SQL (any number of statements) and write its tree: protobuf bytes\n"
	 "        identical to libpg_query's pg_query_parse_protobuf (default), JSON in\n"
	 "        pg_query_parse's format, or an indented readable tree (text)",
	 "Parses the SQL in FILE (or standard input) and writes its parse tree to standard output:\n"
	 "  protobuf  pg_query.ParseResult bytes, identical to libpg_query's pg_query_parse_protobuf\n"
	 "  json      JSON in pg_query_parse's format (one line; pipe it to jq)\n"
	 "  text      an indented tree of the fields that are set\n"
	 "Without --format, protobuf bytes are not written to a terminal (exit 2): redirect them, or\n"
	 "give --format (--format=protobuf writes them anyway).\n"
	 "A syntax error prints the message, the line and a caret under the position, and exits 1.",
	 OPT_FORMAT, INPUT_TREE, run_parse, NULL},
	{"deparse", "[--check] [--from=sql|protobuf|json] [FILE|-]",
	 "SQL text again, from SQL, protobuf bytes or JSON (libpg_query's deparser);\n"
	 "        --check: only SQL that parses back to the same tree",
	 "Writes SQL text for the input: SQL (default; parsed, then deparsed), pg_query.ParseResult\n"
	 "protobuf bytes or JSON in pg_query_parse's format (as `pgbind parse` writes them). Uses\n"
	 "libpg_query's deparser; statements are separated by '; '. Exits 1 on a syntax error or\n"
	 "malformed input (with its byte offset, or line and column for JSON).\n"
	 "--check  parse the SQL back and write it only when it gives the same tree (PostgreSQL's\n"
	 "         equal(), locations aside); else exit 1 naming the first differing field",
	 OPT_FROM | OPT_CHECK, INPUT_TREE, run_deparse, NULL},
	{"fingerprint", "[FILE|-]", "libpg_query's fingerprint of the SQL, from pgbind's tree",
	 "Prints libpg_query's fingerprint of the SQL (16 hex digits, as pg_query_fingerprint's\n"
	 "fingerprint_str), computed from pgbind's tree. Statements that differ only in constants\n"
	 "share a fingerprint.",
	 0, INPUT_TREE, run_fingerprint, NULL},
	{"normalize", "[FILE|-]", "the SQL with constants replaced by $1, $2, ... (pg_query_normalize's text)",
	 "Prints the SQL with its constants replaced by $1, $2, ... as libpg_query's\n"
	 "pg_query_normalize does, computed from pgbind's tree of the SQL (no second parse).",
	 0, INPUT_TREE, run_normalize, NULL},
	{"scan", "[FILE|-]", "the scanner's tokens, comments included",
	 "Lists the tokens of the SQL as libpg_query's scanner sees them (comments included), one\n"
	 "per line: start and end byte offsets, token, keyword kind, and the text.",
	 0, INPUT_SQL, run_scan, NULL},
	{"verify", "[-v] [--coverage=FILE] FILE...",
	 "split each file into statements and compare every pgbind path with\n"
	 "        libpg_query's own, statement by statement; ends with 'N passed, M failed'",
	 NULL, 0, OWN_ARGS, NULL, cli_verify},
	{"bench", "[--growth] [--quick] [--json] [FILE...]",
	 "(developers) time every path against libpg_query's own, side by side;\n"
	 "        runs build/pgbind-bench, which a checkout's `make` builds",
	 NULL, 0, OWN_ARGS, NULL, bench_main},
};
#define N_COMMANDS ((int)(sizeof commands / sizeof *commands))

static void usage(FILE *out)
{
	fputs("usage: pgbind COMMAND [OPTIONS] [FILE...]\n\nCommands:\n", out);
	for (int i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %s %s\n        %s\n", commands[i].name, commands[i].synopsis, commands[i].summary);
	fputs("\nFILE '-' or no FILE reads standard input. 'pgbind COMMAND --help' for details.\n", out);
}

/* Reads the options (each allowed by the row) and at most one input path; false after a message
 * (or after --help, with *help set). */
static bool parse_options(const Command *c, int argc, char **argv, Run *r, bool *help)
{
	int n_paths = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if ((c->options & OPT_FORMAT) && strncmp(arg, "--format=", 9) == 0)
			r->format = arg + 9;
		else if ((c->options & OPT_FROM) && strncmp(arg, "--from=", 7) == 0)
			r->from = arg + 7;
		else if ((c->options & OPT_CHECK) && strcmp(arg, "--check") == 0)
			r->check = true;
		else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			*help = true;
		else if (arg[0] == '-' && arg[1]) {
			fprintf(stderr, "pgbind %s: unknown option %s\n", c->name, arg);
			return false;
		} else {
			r->path = arg;
			n_paths++;
		}
	}
	if (n_paths > 1) {
		fprintf(stderr, "pgbind %s: one input at a time\n", c->name);
		return false;
	}
	if (r->format && strcmp(r->format, "protobuf") != 0 && strcmp(r->format, "json") != 0 &&
		strcmp(r->format, "text") != 0) {
		fprintf(stderr, "pgbind %s: unknown format '%s' (protobuf, json or text)\n", c->name, r->format);
		return false;
	}
	if (r->from && strcmp(r->from, "sql") != 0 && strcmp(r->from, "protobuf") != 0 && strcmp(r->from, "json") != 0) {
		fprintf(stderr, "pgbind %s: --from takes sql, protobuf or json\n", c->name);
		return false;
	}
	return true;
}

/* Reads the input as the row says: SQL text, parsed; or protobuf bytes or JSON (--from). */
static bool read_input(const Command *c, Run *r)
{
	bool sql = !r->from || strcmp(r->from, "sql") == 0;
	if (!(sql ? cli_read_input(r->path, &r->input, &r->len) : cli_read_bytes(r->path, &r->input, &r->len)))
		return false;
	if (c->input == INPUT_SQL)
		return true;
	if (sql)
		r->tree = pgbind_parse(r->input, NULL, r->arena, &r->status);
	else if (strcmp(r->from, "json") == 0)
		r->tree = pgbind_json_read(r->input, r->len, NULL, r->arena, &r->status);
	else
		r->tree = pgbind_decode((const uint8_t *)r->input, r->len, NULL, r->arena, &r->status);
	if (r->tree)
		return true;
	if (sql)
		report(r);
	else
		fprintf(stderr, "pgbind %s: %s: %s\n", c->name, r->path, r->status.message);
	return false;
}

static int run_command(const Command *c, int argc, char **argv)
{
	Run r = {.name = c->name, .path = "-"};
	bool help = false;
	if (!parse_options(c, argc, argv, &r, &help))
		return 2;
	if (help) {
		printf("usage: pgbind %s %s\n%s\n", c->name, c->synopsis, c->help);
		return 0;
	}
	/* pgbind parse: checked before reading, as standard input may be the terminal too */
	if ((c->options & OPT_FORMAT) && !r.format && isatty(STDOUT_FILENO)) {
		fputs("pgbind parse: not writing protobuf bytes to a terminal: use --format=text (or json), or redirect "
			  "the output\n",
			  stderr);
		return 2;
	}
	r.arena = pgbind_Arena_New();
	if (!r.arena) {
		fprintf(stderr, "pgbind %s: out of memory\n", c->name);
		return 1;
	}
	int rc = read_input(c, &r) ? c->run(&r) : 1;
	pgbind_Arena_Free(r.arena);
	free(r.input);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (int i = 0; i < N_COMMANDS; i++) {
		const Command *c = &commands[i];
		if (strcmp(argv[1], c->name) == 0)
			return c->input == OWN_ARGS ? c->main(argc - 1, argv + 1) : run_command(c, argc - 1, argv + 1);
	}
	fprintf(stderr, "pgbind: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
