/*
 * cli.h -- what the pgbind command's files share: reading input and the subcommands.
 */
#ifndef PGBIND_CLI_H
#define PGBIND_CLI_H

#include <stdbool.h>
#include <stddef.h>

/* The name messages give an input path: "<stdin>" for "-" (standard input), else the path. */
const char *cli_input_name(const char *path);

/* Reads path ("-" = stdin) whole into a malloc'd buffer, NUL-terminated past its len bytes (which
 * may hold NULs: protobuf). Fails, with a message on stderr, when the file cannot be read. */
bool cli_read_bytes(const char *path, char **data, size_t *len);
/* The same for SQL text: it also fails when the text holds a NUL byte (SQL cannot). */
bool cli_read_input(const char *path, char **text, size_t *len);

/* Called for each statement of a file: text is the whole (prepared) file, at the statement's byte
 * offset in it and line its 1-based line, stmt a malloc'd NUL-terminated copy of it that fn now
 * owns. false stops. */
typedef bool (*cli_StatementFn)(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx);

/* Prepares text in place and splits it (pgbind_script_prepare, pgbind_script_split: the one
 * splitter, which the Rust crate's suites use too), calling fn on each statement. text stays the caller's. Errors go to stderr, prefixed with "pgbind <command>";
 * false when memory ran out or fn stopped. */
bool cli_each_statement_in(char *text, size_t len, const char *command, cli_StatementFn fn, void *ctx);

/* Reads path and goes through its statements with cli_each_statement_in; false when the file
 * could not be read, or as that. */
bool cli_each_statement(const char *path, const char *command, cli_StatementFn fn, void *ctx);

/* 1-based line and column of byte offset in text (columns count characters, not bytes). It
 * scans from the start: for many offsets of one text use a cli_Lines cursor. */
void cli_line_col(const char *text, size_t offset, int *line, int *col);

/* A position in a text that moves forward: seeking offsets in increasing order costs one pass
 * over the text in all (a smaller offset than the last restarts from the start). */
typedef struct cli_Lines {
	const char *text;
	size_t at; /* the cursor's byte offset, at line:col */
	int line, col;
} cli_Lines;
void cli_lines_init(cli_Lines *lines, const char *text);
void cli_lines_seek(cli_Lines *lines, size_t offset, int *line, int *col);

/* Prints "file:line:col: error: message", the offending line and a caret under the column (any
 * error at a place in the input, a syntax error or a statement's). */
void cli_print_syntax_error(const char *file, const char *text, size_t offset, const char *message);

struct pgbind_ParseResult;
#include <stdint.h>

/* verify_pg.c: to_nodes(tree) is equal() to libpg_query's reading of want, and writes want back. */
bool verify_to_nodes(const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len, char *why,
					 size_t size);

/* verify.c: every comparison of `pgbind verify` on a text as on a file's content (prepared and
 * split into statements the same way, each statement verified alone); returns the failed checks.
 * The fuzzer's oracle: an input it keeps fails `pgbind verify` as a file. */
long verify_sql(const char *sql);

/* verify_pg.c: libpg_query's reading of want is not equal() to the tree's own nodes (empty strings
 * kept): the protocol lost something. */
bool verify_protocol_loses(const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len);
/* Whether the two trees, turned into PostgreSQL nodes with "" kept, hold equal() statements, one
 * by one (equal() ignores locations; RawStmt's stmt_len, the text's, is not compared). */
bool verify_same_nodes(const struct pgbind_ParseResult *a, const struct pgbind_ParseResult *b);

typedef struct cli_JsonVerdict {
	bool text_ok; /* pgbind_json == pg_query_parse's JSON, the known bug aside */
	bool read_ok; /* JSON -> AST -> protobuf == pg_query_parse_protobuf; read(ours) == tree */
	int lost;     /* values libpg_query's JSON lost (negative Integers) in this statement */
	char text_why[768];
	char read_why[768];
} cli_JsonVerdict;

/* json_verify.c: the JSON checks of one statement libpg_query parsed into want (its protobuf). */
void verify_json(const char *stmt, const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len,
				 cli_JsonVerdict *verdict);
/* Whether the linked libpg_query writes an Integer below zero as {} in its JSON (15-4.0.0). */
bool library_loses_negative_integers(void);
/* That bug applied to pgbind's JSON where the library has it ({"ival":-N} -> {}; a '{' followed
 * by "ival":- cannot occur inside a JSON string): a malloc'd copy, NULL when memory ran out;
 * *n_applied counts the values lost. */
char *json_with_known_bugs(const char *json, int *n_applied);

struct pgbind_Summary;
#include <stdio.h>
/* summary.c: summary as one line of JSON (no newline): the proto's field names, every field
 * written, an absent string null, contexts by their proto names, aliases an object. */
void cli_print_summary_json(const struct pgbind_Summary *summary, FILE *out);

/* verify_summary.c: pgbind_summary's protobuf against the linked libpg_query's pg_query_summary
 * (alias entries as a set: libpg_query writes them in a random order). 1 equal, 0 not (why says
 * how), -1 not compared: the library has no pg_query_summary (before 18). */
int verify_summary(const char *stmt, const struct pgbind_ParseResult *tree, char *why, size_t size);
/* Whether two SummaryResult protobufs are equal but for the order of their alias entries. */
bool cli_summary_bytes_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);
/* The bytes as text for a message (printable ASCII kept, the rest \xNN), cut to fit size. */
void cli_summary_show(char *out, size_t size, const uint8_t *data, size_t len);

/* verify.c: `pgbind verify` (argv[0] is "verify"); the exit code. */
int cli_verify(int argc, char **argv);

#endif
