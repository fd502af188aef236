/*
 * reader.c -- the statement reader (reader.h says what each function does): reading a file or
 * standard input whole, splitting SQL text into statements with the runtime's splitter
 * (targets/c/runtime/script.c, through pgbind.h) and pointing at a position in it. Depends on
 * libc and libpgbind; no state outside its arguments.
 */
#include "reader.h"
#include "pgbind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

bool cli_read_bytes(const char *path, char **data, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	*data = NULL;
	if (!f) {
		fprintf(stderr, "pgbind: %s: %s\n", path, strerror(errno));
		return false;
	}
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	bool failed = !buf || ferror(f);
	if (!is_stdin)
		fclose(f);
	if (failed) {
		fprintf(stderr, "pgbind: %s: %s\n", cli_input_name(path), buf ? "read error" : "out of memory");
		free(buf);
		return false;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return true;
}

bool cli_read_input(const char *path, char **text, size_t *len)
{
	if (!cli_read_bytes(path, text, len))
		return false;
	const char *nul = memchr(*text, '\0', *len);
	if (nul) {
		fprintf(stderr, "pgbind: %s: a NUL byte at offset %zu: SQL text cannot contain one\n", cli_input_name(path),
				(size_t)(nul - *text));
		free(*text);
		*text = NULL; /* the caller's free of it after a failure is then harmless */
		return false;
	}
	return true;
}

void cli_lines_init(cli_Lines *lines, const char *text)
{
	*lines = (cli_Lines){text, 0, 1, 1};
}

void cli_lines_seek(cli_Lines *lines, size_t offset, int *line, int *col)
{
	if (offset < lines->at)
		cli_lines_init(lines, lines->text);
	const char *t = lines->text;
	size_t i = lines->at;
	int l = lines->line, c = lines->col;
	for (; i < offset && t[i]; i++) {
		if (t[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)t[i] & 0xc0) != 0x80) {
			c++; /* count characters, not UTF-8 continuation bytes */
		}
	}
	*lines = (cli_Lines){t, i, l, c};
	*line = l;
	*col = c;
}

void cli_line_col(const char *text, size_t offset, int *line, int *col)
{
	cli_Lines lines;
	cli_lines_init(&lines, text);
	cli_lines_seek(&lines, offset, line, col);
}

/* The start of the UTF-8 character at p (not before min). */
static const char *char_start(const char *p, const char *min)
{
	while (p > min && ((unsigned char)*p & 0xc0) == 0x80)
		p--;
	return p;
}

void cli_print_syntax_error(const char *file, const char *text, size_t offset, const char *message)
{
	int line, col;
	cli_line_col(text, offset, &line, &col);
	fprintf(stderr, "%s:%d:%d: error: %s\n", file, line, col, message);
	/* the line, or of a long line (a generated script's) the 60 bytes either side of the position */
	enum { SIDE = 60 };
	const char *at = text + offset, *start = at;
	while (start > text && start[-1] != '\n' && at - start < SIDE)
		start--;
	bool cut_start = start > text && start[-1] != '\n';
	start = cut_start ? char_start(start + 1, at) : start;
	const char *end = start;
	while (*end && *end != '\n' && (end < at || end - at < SIDE))
		end++;
	bool cut_end = *end && *end != '\n';
	end = cut_end ? char_start(end, at) : end;
	fprintf(stderr, "  %s%.*s%s\n  %s", cut_start ? "..." : "", (int)(end - start), start, cut_end ? "..." : "",
			cut_start ? "   " : "");
	for (const char *p = start; p < at && *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			fputc(*p == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

bool cli_each_statement_in(char *text, size_t len, const char *command, cli_StatementFn fn, void *ctx)
{
	pgbind_script_prepare(text);
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	size_t n_stmts = 0;
	pgbind_ScriptStatement *stmts = arena ? pgbind_script_split(text, len, arena, &n_stmts, &status) : NULL;
	if (!stmts) {
		fprintf(stderr, "pgbind %s: %s\n", command, arena ? status.message : "out of memory");
		pgbind_Arena_Free(arena);
		return false;
	}
	bool ok = true;
	cli_Lines lines; /* the splitter's statements come in order: one pass over the text */
	cli_lines_init(&lines, text);
	for (size_t i = 0; ok && i < n_stmts; i++) {
		size_t at = stmts[i].location, n = stmts[i].length;
		char *stmt = malloc(n + 1);
		if (!stmt) {
			fprintf(stderr, "pgbind %s: out of memory\n", command);
			ok = false;
			break;
		}
		memcpy(stmt, text + at, n);
		stmt[n] = '\0';
		int line, col;
		cli_lines_seek(&lines, at, &line, &col);
		ok = fn(text, at, line, stmt, n, ctx);
	}
	pgbind_Arena_Free(arena);
	return ok;
}

bool cli_each_statement(const char *path, const char *command, cli_StatementFn fn, void *ctx)
{
	char *text;
	size_t len;
	if (!cli_read_input(path, &text, &len))
		return false;
	bool ok = cli_each_statement_in(text, len, command, fn, ctx);
	free(text);
	return ok;
}
