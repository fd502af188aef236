/*
 * reader.h -- the statement reader: reads a file or standard input whole, splits SQL text into
 * statements with the runtime's one splitter (pgbind_script_prepare, pgbind_script_split) and
 * points at a position in it (line:column, and an error with its line and a caret). The pgbind
 * command (cli/), the tools (tools/bench, tools/deparse-probe) and the tests that read corpus
 * files share it, built once as build/libpgbind-reader.a (link it before libpgbind.a, which it
 * depends on; reader/reader.c is the one source). Its names keep the cli_ prefix of the command
 * it was written for, which still calls them by those names.
 *
 * Errors: the functions that can fail return false and have already written one line to stderr,
 * "pgbind: <input>: why" (or "pgbind <command>: why" for the splitting), so a caller only exits.
 * Threads: no function keeps state between calls (a cli_Lines is the caller's); any may run on
 * several threads at once, except that reading "-" twice at once shares stdin.
 */
#ifndef PGBIND_READER_H
#define PGBIND_READER_H

#include <stdbool.h>
#include <stddef.h>

/* The name messages give an input path: "<stdin>" for "-" (standard input), else path itself
 * (borrowed: the result lives as long as path, or is a static string). */
const char *cli_input_name(const char *path);

/* Reads path ("-" = stdin, read to its end and not closed) whole. On success *data is a malloc'd
 * buffer the caller frees, NUL-terminated past its *len bytes (which may hold NULs: protobuf). On
 * failure (the file cannot be opened or read, memory ran out) it prints why and returns false
 * with *data NULL. */
bool cli_read_bytes(const char *path, char **data, size_t *len);

/* The same for SQL text: it also fails when the text holds a NUL byte (SQL cannot), printing the
 * byte's offset; *text is NULL after any failure, so freeing it then is harmless. */
bool cli_read_input(const char *path, char **text, size_t *len);

/* Called for each statement of a text, in order: text is the whole (prepared) text, at the
 * statement's byte offset in it and line its 1-based line, stmt a malloc'd NUL-terminated copy of
 * its len bytes that fn now owns (frees), whatever it returns. text stays valid during the call
 * only. false stops the split. */
typedef bool (*cli_StatementFn)(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx);

/* Prepares text in place (pgbind_script_prepare: psql backslash lines blanked, @extschema@ and
 * @extowner@ replaced by same-length identifiers: offsets keep their meaning) and splits its len
 * bytes (pgbind_script_split: the one splitter, which the Rust crate's suites use too), calling fn
 * on each statement with ctx. text stays the caller's. A syntax error does not stop the split (a
 * statement that does not parse is still one statement). Returns false when the splitter failed
 * (its status's message: memory ran out) or memory ran out here, both printed prefixed with
 * "pgbind <command>", or when fn returned false (fn says why, if anything). */
bool cli_each_statement_in(char *text, size_t len, const char *command, cli_StatementFn fn, void *ctx);

/* Reads path with cli_read_input and goes through its statements with cli_each_statement_in;
 * false when the file could not be read, or as that. */
bool cli_each_statement(const char *path, const char *command, cli_StatementFn fn, void *ctx);

/* 1-based line and column of byte offset in the NUL-terminated text (columns count UTF-8
 * characters, not bytes; an offset past the end gives the end's). It scans from the start: for
 * many offsets of one text use a cli_Lines cursor. */
void cli_line_col(const char *text, size_t offset, int *line, int *col);

/* A position in a text that moves forward: seeking offsets in increasing order costs one pass
 * over the text in all (a smaller offset than the last restarts from the start). It borrows text,
 * which must outlive it; one cursor is for one thread at a time. */
typedef struct cli_Lines {
	const char *text;
	size_t at; /* the cursor's byte offset, at line:col */
	int line, col;
} cli_Lines;
/* Puts the cursor at the start of text (1:1). */
void cli_lines_init(cli_Lines *lines, const char *text);
/* Moves the cursor to offset and gives its line and column, as cli_line_col would. */
void cli_lines_seek(cli_Lines *lines, size_t offset, int *line, int *col);

/* Prints to stderr "file:line:col: error: message", the offending line (of a long line, the 60
 * bytes either side of the position, cut at characters) and a caret under the column: any error at
 * a place in the input, a syntax error or a statement's. text is NUL-terminated, offset within it. */
void cli_print_syntax_error(const char *file, const char *text, size_t offset, const char *message);

#endif
