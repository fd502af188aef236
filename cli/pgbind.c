/*
 * pgbind.c -- the pgbind command: one table of subcommands, and the commands over one input.
 *
 *   pgbind parse [--as=M] [--format=protobuf|json|text] [FILE|-]
 *   pgbind deparse [--check] [--from=sql|protobuf|json] [FILE|-]   (a tree of another major converted)
 *   pgbind fingerprint [--each] [FILE|-]
 *   pgbind normalize [--each] [FILE|-]
 *   pgbind scan [FILE|-]
 *   pgbind summary [--truncate N] [FILE|-]
 *   pgbind verify [-v] [--coverage=FILE] FILE...
 *   pgbind bench ...   (the developer's benchmark: runs pgbind-bench, tools/bench/)
 *   pgbind help [COMMAND], pgbind --version
 *   (each with --pg=N: cli/main.c chooses the major and calls this file's cli_main through the
 *   constant cli_major, the one symbol each major's copy of the command exports: cli/major.h;
 *   conversions between majors, parse --as and deparse of another major's tree: cli/as.c)
 *
 * A command over one input is a row of `commands` and a function that gets the input read (and
 * parsed, decoded or read as JSON, as the row says) in a Run: run_command() parses the options,
 * answers --help, reads the input, reports a syntax error with file:line:col, and frees. An error
 * of one statement names the statement's file:line:col (report_statement). Exit codes: EXIT_OK,
 * EXIT_INPUT (the input is refused or wrong), EXIT_USAGE; never a signal.
 */
#include "as.h"
#include "cli.h"
#include "major.h"
#include "pgbind.h"
#include "pgbind_json.h"
#include "pgbind_reflect.h"
#include "pg_query.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit codes, a contract (pgbind --help lists them; tests/run.sh asserts them exactly). */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1, /* the input is refused or wrong, cannot be read, or the output cannot be written */
	EXIT_USAGE = 2, /* the command line is wrong */
};

/* pgbind's version: mk/majors.mk passes 0.MAJOR.N for each major, as the packages' (scripts/dist.sh) */
#ifndef PGBIND_VERSION
#define PGBIND_VERSION "(unknown: built without the Makefile)"
#endif

/* The options a command may take. */
enum { OPT_FORMAT = 1, OPT_FROM = 2, OPT_CHECK = 4, OPT_EACH = 8, OPT_TRUNCATE = 16, OPT_AS = 32 };

/* What cli/main.c passed this major's command: the other majors and the converters (cli/major.h). */
static const cli_Host *host;

/* What a command gets: its options, the input and, for commands over a tree, the tree. */
typedef struct {
	const char *name; /* the command's */
	const char *path; /* "-" = standard input */
	const char *format, *from;
	bool check, each;
	int truncate; /* summary --truncate: the limit; -1 none */
	int as;       /* parse --as: the major whose form the tree is written in; 0 this one's */
	char *input;  /* the whole input (NUL-terminated), len bytes */
	size_t len;
	pgbind_ParseResult *tree; /* parsed (SQL), decoded (--from=protobuf) or read (--from=json) */
	cli_AsTree as_tree;       /* a tree of another major, converted: its statements with no form here */
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
	int (*run)(Run *r);                 /* INPUT_TREE, INPUT_SQL: EXIT_OK or EXIT_INPUT */
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
 * anything else with the command's name. Returns EXIT_INPUT. */
static int report(const Run *r)
{
	if (r->status.code == PGBIND_ERROR_SYNTAX && r->input)
		cli_print_syntax_error(cli_input_name(r->path), r->input, byte_offset_of_char(r->input, r->status.cursorpos),
							   r->status.message);
	else
		fprintf(stderr, "pgbind %s: %s: %s\n", r->name, cli_input_name(r->path), r->status.message);
	return EXIT_INPUT;
}

static bool is_sql_input(const Run *r)
{
	return !r->from || strcmp(r->from, "sql") == 0;
}

/* The offset of the first token at or after at in t: blanks and comments skipped. */
static size_t skip_blanks(const char *t, size_t at)
{
	for (;;) {
		while (t[at] == ' ' || t[at] == '\t' || t[at] == '\n' || t[at] == '\r' || t[at] == '\f' || t[at] == '\v')
			at++;
		if (t[at] == '-' && t[at + 1] == '-') {
			while (t[at] && t[at] != '\n')
				at++;
		} else if (t[at] == '/' && t[at + 1] == '*') { /* PostgreSQL's block comments nest */
			int depth = 0;
			do {
				if (t[at] == '/' && t[at + 1] == '*')
					depth++, at += 2;
				else if (t[at] == '*' && t[at + 1] == '/')
					depth--, at += 2;
				else
					at++;
			} while (depth > 0 && t[at]);
		} else {
			return at;
		}
	}
}

/* The byte offset of statement i's first token in the SQL input: RawStmt.stmt_location is just
 * past the previous ';', before the blanks and comments between. */
static size_t statement_start(const Run *r, size_t i)
{
	int32_t loc = r->tree->stmts[i] ? r->tree->stmts[i]->stmt_location : 0;
	return skip_blanks(r->input, loc > 0 && (size_t)loc <= r->len ? (size_t)loc : 0);
}

/* The length of statement i's text from its first token (RawStmt.stmt_len 0: to the end). */
static size_t statement_length(const Run *r, size_t i, size_t start)
{
	const pgbind_RawStmt *s = r->tree->stmts[i];
	size_t loc = s && s->stmt_location > 0 ? (size_t)s->stmt_location : 0;
	size_t end = s && s->stmt_len > 0 && loc + (size_t)s->stmt_len <= r->len ? loc + (size_t)s->stmt_len : r->len;
	return end > start ? end - start : 0;
}

/* Reports the failure of statement i: at its file:line:col, its line and a caret under its first
 * token, for SQL input; as "FILE: statement N (stmts[i])" for a tree read from protobuf or JSON.
 * A message about the one-statement tree the statement was tried in (stmts[0]) names stmts[i]. */
static void report_statement(const Run *r, size_t i, const char *message)
{
	char text[512];
	const char *zero = strstr(message, "stmts[0]");
	if (zero && i > 0)
		snprintf(text, sizeof text, "statement %zu: %.*sstmts[%zu]%s", i + 1, (int)(zero - message), message, i,
				 zero + 8);
	else
		snprintf(text, sizeof text, "statement %zu: %s", i + 1, message);
	if (is_sql_input(r))
		cli_print_syntax_error(cli_input_name(r->path), r->input, statement_start(r, i), text);
	else
		fprintf(stderr, "%s: %s (stmts[%zu])\n", cli_input_name(r->path), text, i);
}

/* The one-statement tree of statement i. */
static pgbind_ParseResult statement_tree(const Run *r, size_t i)
{
	return (pgbind_ParseResult){.version = r->tree->version, .n_stmts = 1, .stmts = &r->tree->stmts[i]};
}

/* Writes text and a newline to standard output; 0, or 1 when the output fails. */
static int print_line(const char *text)
{
	printf("%s\n", text);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

/* Writes "LINE\tTEXT" with TEXT on one line: a newline, carriage return, tab and backslash in it
 * written as \n, \r, \t and \\ (PostgreSQL's COPY text format), so that each statement of
 * --each is one line. */
static void print_each(int line, const char *text, size_t len)
{
	printf("%d\t", line);
	for (size_t k = 0; k < len; k++) {
		char c = text[k];
		if (c == '\n' || c == '\r' || c == '\t' || c == '\\')
			printf("\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : '\\');
		else
			putchar(c);
	}
	putchar('\n');
}

/* ---- the commands over one input -------------------------------------------------------------- */

/* parse --as=M: this major's tree, encoded, converted to M's encoding (cli/as.c) and written as
 * it is (protobuf) or by M's own writer (JSON, text: cli/major.h's write_tree). A value with no
 * form in M is reported at its statement. */
static int run_parse_as(Run *r, const char *format)
{
	const uint8_t *data;
	size_t n;
	if (!pgbind_encode(r->tree, NULL, r->arena, &data, &n, &r->status))
		return report(r);
	uint8_t *out;
	size_t out_len;
	pgbind_ConvertError err;
	if (cli_as_convert(host, cli_major.major, r->as, data, n, &out, &out_len, &err) != PGBIND_CONVERT_OK) {
		long k = cli_path_statement(err.message);
		if (k >= 0 && (size_t)k < r->tree->n_stmts)
			report_statement(r, (size_t)k, err.message);
		else
			fprintf(stderr, "pgbind parse: %s: converting PostgreSQL %d's tree to %d's: %s\n", cli_input_name(r->path),
					cli_major.major, r->as, err.message);
		return EXIT_INPUT;
	}
	int rc;
	if (strcmp(format, "protobuf") == 0) {
		fwrite(out, 1, out_len, stdout);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
	} else {
		char why[256];
		char *text = cli_host_major(host, r->as)->write_tree(out, out_len, format, why, sizeof why);
		if (!text) {
			fprintf(stderr, "pgbind parse: %s: PostgreSQL %d's %s of the converted tree: %s\n", cli_input_name(r->path),
					r->as, format, why);
			rc = EXIT_INPUT;
		} else {
			rc = strcmp(format, "json") == 0 ? print_line(text)
											 : (fputs(text, stdout), fflush(stdout) ? EXIT_INPUT : EXIT_OK);
			free(text);
		}
	}
	free(out);
	return rc;
}

static int run_parse(Run *r)
{
	const char *format = r->format ? r->format : "protobuf";
	if (r->as && r->as != cli_major.major)
		return run_parse_as(r, format);
	if (strcmp(format, "json") == 0) {
		const char *json = pgbind_json(r->tree, NULL, r->arena, &r->status);
		return json ? print_line(json) : report(r);
	}
	if (strcmp(format, "text") == 0) {
		const char *text = pgbind_text(r->tree, r->arena, &r->status);
		if (!text)
			return report(r);
		fputs(text, stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
	}
	const uint8_t *data;
	size_t n;
	if (!pgbind_encode(r->tree, NULL, r->arena, &data, &n, &r->status))
		return report(r);
	fwrite(data, 1, n, stdout);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

/* With --check, a statement whose deparsed SQL does not even parse: the syntax error is in the
 * SQL the deparser wrote, so it is shown there (the SQL around its position), reported at the
 * input statement. Any other failure as its message says. */
static void report_deparse_failure(Run *r, size_t i, const pgbind_ParseResult *one)
{
	pgbind_Status again;
	pgbind_Options isolated = {.isolate_deparse = true};
	const char *sql =
		r->status.code == PGBIND_ERROR_ROUND_TRIP ? pgbind_deparse(one, &isolated, r->arena, &again) : NULL;
	if (!sql || pgbind_parse(sql, NULL, r->arena, &again) || again.code != PGBIND_ERROR_SYNTAX) {
		report_statement(r, i, r->status.message);
		return;
	}
	size_t at = byte_offset_of_char(sql, again.cursorpos);
	size_t from = at > 40 ? at - 40 : 0;
	while (from > 0 && ((unsigned char)sql[from] & 0xc0) == 0x80)
		from--;
	char message[768];
	snprintf(
		message, sizeof message,
		"libpg_query's deparser wrote SQL that does not parse: %s, at character %d of it: \"%s%.*s\" here: \"%.40s%s\"",
		again.message, again.cursorpos, from ? "..." : "", (int)(at - from), sql + from, sql + at,
		strlen(sql + at) > 40 ? "..." : "");
	report_statement(r, i, message);
}

/* Each statement deparsed alone: those that deparse are written, joined by '; ' as libpg_query
 * joins them; each that fails is reported at its place (file:line:col), and the exit is then
 * EXIT_INPUT. */
static int run_deparse(Run *r)
{
	/* libpg_query's deparser never runs in this process, whatever the input: a tree from outside
	 * (--from=protobuf|json) may crash it, and so may a parsed one no rule of the deparse contract
	 * covers (SET TIME ZONE INTERVAL '1 hour' on 17); in the deparse server its crash is an error */
	pgbind_Options options = {.check_deparse = r->check, .isolate_deparse = true};
	int rc = EXIT_OK;
	bool first = true;
	for (size_t i = 0; i < r->tree->n_stmts; i++) {
		if (i < r->as_tree.n && r->as_tree.no_form[i]) { /* a tree of another major: no form in this one */
			report_statement(r, i, r->as_tree.no_form[i]);
			rc = EXIT_INPUT;
			continue;
		}
		pgbind_ParseResult one = statement_tree(r, i);
		const char *out = pgbind_deparse(&one, &options, r->arena, &r->status);
		if (!out) {
			report_deparse_failure(r, i, &one);
			rc = EXIT_INPUT;
			continue;
		}
		printf("%s%s", first ? "" : "; ", out);
		first = false;
	}
	return print_line("") == EXIT_OK ? rc : EXIT_INPUT;
}

/* After a failure of the whole tree's fingerprint, normalize or summary: the first statement that
 * fails alone is reported at its place, else (only the whole fails) the failure as it is, at the
 * last statement where at_last says the failure lies in it. */
static int report_whole_failure(Run *r, bool (*fails_alone)(Run *r, size_t i), bool at_last)
{
	pgbind_Status whole = r->status;
	for (size_t i = 0; i < r->tree->n_stmts; i++) {
		if (fails_alone(r, i)) {
			report_statement(r, i, r->status.message);
			return EXIT_INPUT;
		}
	}
	r->status = whole;
	if (at_last && r->tree->n_stmts > 0) {
		report_statement(r, r->tree->n_stmts - 1, whole.message);
		return EXIT_INPUT;
	}
	return report(r);
}

static bool fingerprint_fails(Run *r, size_t i)
{
	pgbind_ParseResult one = statement_tree(r, i);
	uint64_t fp;
	return !pgbind_fingerprint(&one, NULL, &fp, &r->status);
}

static int run_fingerprint(Run *r)
{
	uint64_t fp;
	if (!pgbind_fingerprint(r->tree, NULL, &fp, &r->status))
		return report_whole_failure(r, fingerprint_fails, false);
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fp);
	return print_line(hex);
}

/* Statement i's text (from its first token) parsed alone and normalized: pg_query_normalize of
 * that text. NULL with r->status on failure. */
static const char *normalize_alone(Run *r, size_t i)
{
	size_t start = statement_start(r, i), n = statement_length(r, i, start);
	char *text = pgbind_Arena_Malloc(r->arena, n + 1);
	if (!text) {
		snprintf(r->status.message, sizeof r->status.message, "out of memory");
		return NULL;
	}
	memcpy(text, r->input + start, n);
	text[n] = '\0';
	pgbind_ParseResult *tree = pgbind_parse(text, NULL, r->arena, &r->status);
	return tree ? pgbind_normalize(tree, text, NULL, r->arena, &r->status) : NULL;
}

static bool normalize_fails(Run *r, size_t i)
{
	return normalize_alone(r, i) == NULL;
}

static int run_normalize(Run *r)
{
	const char *out = pgbind_normalize(r->tree, r->input, NULL, r->arena, &r->status);
	return out ? print_line(out) : report_whole_failure(r, normalize_fails, false);
}

/* --each: the input split into statements (pgbind_script_split, as verify splits), each parsed
 * alone and written as "LINE\tVALUE" (print_each); a statement that fails is reported at its
 * file:line:col and the others still written (then EXIT_INPUT), as a tool over a query log
 * wants. */
typedef struct {
	Run *r;
	bool normalize; /* else the fingerprint */
	size_t n;       /* statements so far */
	cli_Lines lines;
	int rc;
} Each;

static bool each_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	Each *e = ctx;
	(void)line, (void)len;
	e->n++;
	size_t skip = skip_blanks(stmt, 0);
	char *sql = stmt + skip;
	for (size_t n = strlen(sql); n > 0 && strchr(" \t\n\r\f\v", sql[n - 1]); n--)
		sql[n - 1] = '\0'; /* the last statement's: up to the end of the text */
	int first_line, col;
	cli_lines_seek(&e->lines, at + skip, &first_line, &col);
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status = {.message = "out of memory"};
	pgbind_ParseResult *tree = arena ? pgbind_parse(sql, NULL, arena, &status) : NULL;
	const char *out = NULL;
	char hex[17];
	uint64_t fp;
	if (tree && e->normalize) {
		out = pgbind_normalize(tree, sql, NULL, arena, &status);
	} else if (tree && pgbind_fingerprint(tree, NULL, &fp, &status)) {
		snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fp);
		out = hex;
	}
	if (out) {
		print_each(first_line, out, strlen(out));
	} else if (!tree && status.code == PGBIND_ERROR_SYNTAX) {
		cli_print_syntax_error(cli_input_name(e->r->path), text, at + skip + byte_offset_of_char(sql, status.cursorpos),
							   status.message);
		e->rc = EXIT_INPUT;
	} else {
		char message[512];
		snprintf(message, sizeof message, "statement %zu: %s", e->n, status.message);
		cli_print_syntax_error(cli_input_name(e->r->path), text, at + skip, message);
		e->rc = EXIT_INPUT;
	}
	pgbind_Arena_Free(arena);
	free(stmt);
	return true;
}

static int run_each(Run *r)
{
	Each e = {.r = r, .normalize = strcmp(r->name, "normalize") == 0, .rc = EXIT_OK};
	cli_lines_init(&e.lines, r->input);
	if (!cli_each_statement_in(r->input, r->len, r->name, each_statement, &e))
		return EXIT_INPUT;
	return fflush(stdout) == 0 ? e.rc : EXIT_INPUT;
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
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

static bool summary_fails(Run *r, size_t i)
{
	pgbind_ParseResult one = statement_tree(r, i);
	return !pgbind_summary(&one, r->truncate, NULL, r->arena, &r->status);
}

static int run_summary(Run *r)
{
	pgbind_Summary *s = pgbind_summary(r->tree, r->truncate, NULL, r->arena, &r->status);
	/* the text cut (truncated_query) ending in an incomplete character, PostgreSQL's encoding error:
	 * that text is the statements deparsed in order, so its last character is the last statement's */
	if (!s)
		return report_whole_failure(r, summary_fails, r->status.code == PGBIND_ERROR_MALFORMED);
	cli_print_summary_json(s, stdout);
	return print_line("");
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
		return EXIT_USAGE;
	}
	self[n] = '\0';
	char bench[PATH_MAX + 16];
	char *slash = strrchr(self, '/');
	snprintf(bench, sizeof bench, "%.*s/pgbind-bench", (int)(slash - self), self);
	setenv("PGBIND", self, 1);
	/* the benchmark is built for one major: it refuses to run for another (`pgbind --pg=N bench`) */
	char major[16];
	snprintf(major, sizeof major, "%d", PG_VERSION_NUM / 10000);
	setenv("PGBIND_BENCH_MAJOR", major, 1);
	argv[0] = bench;
	execv(bench, argv);
	fprintf(stderr,
			"pgbind bench: cannot run %s (%s): the benchmark is a developer's tool, built in a pgbind checkout "
			"by `make` (build/pgbind-bench) and not installed\n",
			bench, strerror(errno));
	return EXIT_USAGE;
}

static const Command commands[] = {
	{"parse", "[--as=M] [--format=protobuf|json|text] [FILE|-]",
	 "parse SQL (any number of statements) and write its tree: protobuf bytes\n"
	 "        identical to libpg_query's pg_query_parse_protobuf (default), JSON in\n"
	 "        pg_query_parse's format, or an indented readable tree (text)",
	 "Parses the SQL in FILE (or standard input) and writes its parse tree to standard output:\n"
	 "  protobuf  pg_query.ParseResult bytes, identical to libpg_query's pg_query_parse_protobuf\n"
	 "  json      JSON in pg_query_parse's format (one line; pipe it to jq)\n"
	 "  text      an indented tree of the fields that are set\n"
	 "Without --format, protobuf bytes are not written to a terminal (exit 2): redirect them, or\n"
	 "give --format (--format=protobuf writes them anyway).\n"
	 "A syntax error prints FILE:LINE:COLUMN, the message, the line and a caret under the\n"
	 "position, and exits 1.\n"
	 "--as=M  write the tree in PostgreSQL M's form (M: a major this pgbind is built with): this\n"
	 "        major's parse converted by pgbind's converters between majors (through the newest\n"
	 "        major where no converter of the two was generated, 15 -> 18 -> 17), written as M's\n"
	 "        libpg_query writes such a tree (protobuf: M's pg_query.proto; json and text: M's\n"
	 "        writers). A value M has no form for (SQL/JSON, MERGE ... RETURNING for 15) is\n"
	 "        reported at its statement's FILE:LINE:COLUMN with its path in the tree, exit 1.\n"
	 "        --as of this major is the same as without it.",
	 OPT_FORMAT | OPT_AS, INPUT_TREE, run_parse, NULL},
	{"deparse", "[--check] [--from=sql|protobuf|json] [FILE|-]",
	 "SQL text again, from SQL, protobuf bytes or JSON (libpg_query's deparser);\n"
	 "        --check: only SQL that parses back to the same tree",
	 "Writes SQL text for the input: SQL (default; parsed, then deparsed), pg_query.ParseResult\n"
	 "protobuf bytes or JSON in pg_query_parse's format (as `pgbind parse` writes them). Uses\n"
	 "libpg_query's deparser; statements are separated by '; '. Exits 1 on a syntax error or\n"
	 "malformed input (with its byte offset, or line and column for JSON).\n"
	 "A tree in another major's form (its version field says which, as `pgbind parse --pg=18`\n"
	 "writes it) is converted to this major's first (pgbind's converters between majors), then\n"
	 "deparsed by this major's deparser; a version of a major not built exits 1, and a statement\n"
	 "with a value this major has no form for is reported as one that cannot be deparsed (below).\n"
	 "A tree without a version is taken as this major's.\n"
	 "Each statement is deparsed alone: one that cannot be (refused, or --check fails) is\n"
	 "reported at FILE:LINE:COLUMN (SQL input) or as FILE: statement N (stmts[N-1]), the others\n"
	 "are still written, and the exit is 1.\n"
	 "--check  parse the SQL back and write it only when it gives the same tree (PostgreSQL's\n"
	 "         equal(), locations aside); else report the first differing field, or where the\n"
	 "         deparsed SQL does not parse, at the input statement",
	 OPT_FROM | OPT_CHECK, INPUT_TREE, run_deparse, NULL},
	{"fingerprint", "[--each] [FILE|-]", "libpg_query's fingerprint of the SQL, from pgbind's tree",
	 "Prints libpg_query's fingerprint of the SQL (16 hex digits, as pg_query_fingerprint's\n"
	 "fingerprint_str), computed from pgbind's tree. Statements that differ only in constants\n"
	 "share a fingerprint.\n"
	 "--each  one line per statement, LINE<tab>FINGERPRINT (LINE: of its first token); a\n"
	 "        statement that fails is reported at FILE:LINE:COLUMN, the others still written,\n"
	 "        and the exit is then 1",
	 OPT_EACH, INPUT_TREE, run_fingerprint, NULL},
	{"normalize", "[--each] [FILE|-]", "the SQL with constants replaced by $1, $2, ... (pg_query_normalize's text)",
	 "Prints the SQL with its constants replaced by $1, $2, ... as libpg_query's\n"
	 "pg_query_normalize does, computed from pgbind's tree of the SQL (no second parse).\n"
	 "--each  one line per statement, LINE<tab>TEXT, each statement normalized alone ($1 again);\n"
	 "        newline, carriage return, tab and backslash in TEXT written as \\n, \\r, \\t, \\\\\n"
	 "        (COPY's text format); a statement that fails is reported at FILE:LINE:COLUMN,\n"
	 "        the others still written, and the exit is then 1",
	 OPT_EACH, INPUT_TREE, run_normalize, NULL},
	{"scan", "[FILE|-]", "the scanner's tokens, comments included",
	 "Lists the tokens of the SQL as libpg_query's scanner sees them (comments included), one\n"
	 "per line: start and end byte offsets, token, keyword kind, and the text.",
	 0, INPUT_SQL, run_scan, NULL},
	{"summary", "[--truncate N] [FILE|-]",
	 "what the SQL touches (tables, aliases, CTEs, functions, filter columns, statement\n"
	 "        kinds), as libpg_query 18's pg_query_summary says, from pgbind's tree",
	 "Prints, as one line of JSON, what the SQL touches, as libpg_query 18's pg_query_summary\n"
	 "computes it (its message pg_query.SummaryResult, field names as in its proto), from\n"
	 "pgbind's tree, whatever the linked libpg_query: tables (name, schema_name, table_name,\n"
	 "context: Select, DML or DDL), aliases (alias to table), cte_names, functions (name,\n"
	 "function_name, schema_name, context: Call or DDL), filter_columns (schema_name,\n"
	 "table_name, column: what SELECTs' WHERE clauses read), statement_types and\n"
	 "truncated_query. Tables and functions are listed each time they are met, as libpg_query\n"
	 "lists them. Absent names are null.\n"
	 "--truncate N  truncated_query: the SQL deparsed and shortened to at most N bytes (its\n"
	 "              deepest and longest parts written '...'); without it, null",
	 OPT_TRUNCATE, INPUT_TREE, run_summary, NULL},
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
	fputs("  help [COMMAND]\n        this text, or a command's (pgbind COMMAND --help)\n"
		  "\nFILE '-' or no FILE reads standard input (<stdin> in messages). An option's value\n"
		  "follows '=' or comes as the next argument (--format json); '--' ends the options.\n"
		  "--pg=N (before COMMAND or among its options) parses, deparses, fingerprints and\n"
		  "verifies as PostgreSQL N's libpg_query, one of the majors this pgbind is built with;\n"
		  "without it, the newest of them. --version prints pgbind's version and lists those\n"
		  "majors, each with its libpg_query release. parse --as=M writes the tree in major M's\n"
		  "form; deparse converts a tree of another major (its version says which) first.\n"
		  "\nExit status: 0 done; 1 the input is refused or wrong (a syntax error, malformed\n"
		  "protobuf or JSON, a statement that cannot be deparsed, an unreadable file; the message\n"
		  "names the file and, where it can, line and column), or the output cannot be written;\n"
		  "2 the command line is wrong (unknown command or option, a missing value). No command\n"
		  "ends by a signal.\n",
		  out);
}

/* The value of option name (no "--") at argv[*i]: "--name=value" or "--name value" (then *i moves
 * on). NULL when argv[*i] is not that option; *missing when it is, without a value. */
static const char *option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);
	if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0)
		return NULL;
	if (arg[2 + n] == '=')
		return arg + 3 + n;
	if (arg[2 + n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

/* Reads the options (each allowed by the row) and at most one input path; false after a message
 * (or after --help, with *help set). */
static bool parse_options(const Command *c, int argc, char **argv, Run *r, bool *help)
{
	int n_paths = 0;
	bool options_end = false, missing = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value;
		if (options_end || arg[0] != '-' || !arg[1]) {
			r->path = arg;
			n_paths++;
		} else if (strcmp(arg, "--") == 0) {
			options_end = true;
		} else if ((c->options & OPT_FORMAT) && (value = option_value("format", argc, argv, &i, &missing))) {
			r->format = value;
		} else if ((c->options & OPT_FROM) && (value = option_value("from", argc, argv, &i, &missing))) {
			r->from = value;
		} else if ((c->options & OPT_AS) && (value = option_value("as", argc, argv, &i, &missing))) {
			if (!(r->as = cli_as_major(host, c->name, value)))
				return false;
		} else if ((c->options & OPT_TRUNCATE) && (value = option_value("truncate", argc, argv, &i, &missing))) {
			char *end;
			errno = 0;
			long n = strtol(value, &end, 10);
			if (!*value || *end || errno || n < 0 || n > INT_MAX) {
				fprintf(stderr, "pgbind %s: --truncate takes a number of bytes (0 or more), not '%s'\n", c->name,
						value);
				return false;
			}
			r->truncate = (int)n;
		} else if (missing) {
			fprintf(stderr, "pgbind %s: option %s needs a value\n", c->name, arg);
			return false;
		} else if ((c->options & OPT_CHECK) && strcmp(arg, "--check") == 0) {
			r->check = true;
		} else if ((c->options & OPT_EACH) && strcmp(arg, "--each") == 0) {
			r->each = true;
		} else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			*help = true;
		} else {
			fprintf(stderr, "pgbind %s: unknown option %s ('pgbind %s --help' lists them)\n", c->name, arg, c->name);
			return false;
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
		fprintf(stderr, "pgbind %s: --from takes sql, protobuf or json, not '%s'\n", c->name, r->from);
		return false;
	}
	return true;
}

/* Reads the input as the row says: SQL text, parsed (not with --each: each statement is parsed
 * alone); or protobuf bytes or JSON (--from). */
static bool read_input(const Command *c, Run *r)
{
	bool sql = is_sql_input(r);
	if (!(sql ? cli_read_input(r->path, &r->input, &r->len) : cli_read_bytes(r->path, &r->input, &r->len)))
		return false;
	if (c->input == INPUT_SQL || r->each)
		return true;
	/* a tree of another major (its version says which), converted to this major's (cli/as.c) */
	char why[768];
	int other = sql ? 0
					: cli_as_own(host, cli_major.major, r->input, r->len, strcmp(r->from, "json") == 0, &r->as_tree,
								 why, sizeof why);
	if (other < 0) {
		fprintf(stderr, "pgbind %s: %s: %s\n", c->name, cli_input_name(r->path), why);
		return false;
	}
	if (sql)
		r->tree = pgbind_parse(r->input, NULL, r->arena, &r->status);
	else if (other)
		r->tree = pgbind_decode(r->as_tree.data, r->as_tree.len, NULL, r->arena, &r->status);
	else if (strcmp(r->from, "json") == 0)
		r->tree = pgbind_json_read(r->input, r->len, NULL, r->arena, &r->status);
	else
		r->tree = pgbind_decode((const uint8_t *)r->input, r->len, NULL, r->arena, &r->status);
	if (r->tree)
		return true;
	if (sql)
		report(r);
	else
		fprintf(stderr, "pgbind %s: %s: %s\n", c->name, cli_input_name(r->path), r->status.message);
	return false;
}

static int run_command(const Command *c, int argc, char **argv)
{
	Run r = {.name = c->name, .path = "-", .truncate = -1};
	bool help = false;
	if (!parse_options(c, argc, argv, &r, &help))
		return EXIT_USAGE;
	if (help) {
		printf("usage: pgbind %s %s\n%s\n", c->name, c->synopsis, c->help);
		return EXIT_OK;
	}
	/* pgbind parse: checked before reading, as standard input may be the terminal too */
	if ((c->options & OPT_FORMAT) && !r.format && isatty(STDOUT_FILENO)) {
		fputs("pgbind parse: not writing protobuf bytes to a terminal: use --format=text (or json), or redirect "
			  "the output\n",
			  stderr);
		return EXIT_USAGE;
	}
	r.arena = pgbind_Arena_New();
	if (!r.arena) {
		fprintf(stderr, "pgbind %s: out of memory\n", c->name);
		return EXIT_INPUT;
	}
	int rc = !read_input(c, &r) ? EXIT_INPUT : r.each ? run_each(&r) : c->run(&r);
	pgbind_Arena_Free(r.arena);
	free(r.input);
	cli_as_free(&r.as_tree);
	return rc;
}

static const Command *command_named(const char *name)
{
	for (int i = 0; i < N_COMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

static int run(const Command *c, int argc, char **argv)
{
	return c->input == OWN_ARGS ? c->main(argc, argv) : run_command(c, argc, argv);
}

/* The command of this major, after cli/main.c took --pg out of argv and answered --version. */
static int cli_main(int argc, char **argv, const cli_Host *the_host)
{
	host = the_host;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	bool help = strcmp(name, "help") == 0;
	if ((help && argc == 2) || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	const Command *c = command_named(help ? argv[2] : name);
	if (c && help) { /* pgbind help COMMAND: pgbind COMMAND --help */
		char *help_argv[] = {argv[2], "--help", NULL};
		return run(c, 2, help_argv);
	}
	if (c)
		return run(c, argc - 1, argv + 1);
	fprintf(stderr, "pgbind: unknown command '%s'\n", help ? argv[2] : name);
	usage(stderr);
	return EXIT_USAGE;
}

/* What `pgbind --version` says of this major (cli/main.c prints one line per major): its
 * libpg_query, from the pg_query.h it is compiled against, and the release mk/majors.mk found. */
#define CLI_STRING_(x) #x
#define CLI_STRING(x)  CLI_STRING_(x)
#ifdef PGBIND_PG_QUERY_RELEASE
#define CLI_RELEASE ", " PGBIND_PG_QUERY_RELEASE
#else
#define CLI_RELEASE ""
#endif

const cli_Major cli_major = {
	.major = PG_VERSION_NUM / 10000,
	.pgbind_version = PGBIND_VERSION,
	.libpg_query =
		"libpg_query for PostgreSQL " PG_VERSION " (PG_VERSION_NUM " CLI_STRING(PG_VERSION_NUM) ")" CLI_RELEASE,
	.main = cli_main,
	.write_tree = cli_write_tree,
	.read_json = cli_read_json,
};
