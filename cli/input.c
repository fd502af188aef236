/*
 * input.c -- reading SQL input and pointing at a position in it, for the pgbind command.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cli_read_input(const char *path, char **text, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
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
		fprintf(stderr, "pgbind: %s: %s\n", path, buf ? "read error" : "out of memory");
		free(buf);
		return false;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		size_t at = (size_t)((char *)memchr(buf, '\0', n) - buf);
		fprintf(stderr, "pgbind: %s: a NUL byte at offset %zu: SQL text cannot contain one\n", path, at);
		free(buf);
		return false;
	}
	*text = buf;
	*len = n;
	return true;
}

void cli_line_col(const char *text, size_t offset, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < offset && text[i]; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			c++; /* count characters, not UTF-8 continuation bytes */
		}
	}
	*line = l;
	*col = c;
}

void cli_print_syntax_error(const char *file, const char *text, size_t offset, const char *message)
{
	int line, col;
	cli_line_col(text, offset, &line, &col);
	fprintf(stderr, "%s:%d:%d: error: %s\n", file, line, col, message);
	const char *start = text + offset;
	while (start > text && start[-1] != '\n')
		start--;
	const char *end = strchr(start, '\n');
	int width = end ? (int)(end - start) : (int)strlen(start);
	fprintf(stderr, "  %.*s\n  ", width, start);
	for (const char *p = start; p < text + offset && *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			fputc(*p == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

void cli_prepare_script(char *text)
{
	for (char *line = text; *line;) {
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (*p == '\\')
			memset(line, ' ', (size_t)(eol - line));
		line = *eol ? eol + 1 : eol;
	}
	static const struct {
		const char *from, *to;
	} placeholders[] = {{"@extschema@", "extschema__"}, {"@extowner@", "extowner__"}};
	for (size_t i = 0; i < sizeof placeholders / sizeof *placeholders; i++) {
		size_t n = strlen(placeholders[i].from);
		for (char *p = strstr(text, placeholders[i].from); p; p = strstr(p + n, placeholders[i].from))
			memcpy(p, placeholders[i].to, n);
	}
}
