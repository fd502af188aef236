/*
 * test_input.c -- unit tests for the command's input handling (reader/reader.c): the positions a
 * moving cli_Lines cursor gives equal cli_line_col's scan from the start, in any seek order, and
 * cli_each_statement hands every statement of a script its line. Ends with "N passed, M failed".
 */
#include "../check.h"
#include "reader.h"
#include "pg_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "é" and "€" are 2 and 3 bytes: columns count characters */
static const char text[] = "SELECT 1;\n\n  SELECT 'é€', 2;\n-- note\nSELECT\n  3;\n\tSELECT 4";

static void test_cursor(void)
{
	size_t len = strlen(text);
	cli_Lines lines;
	cli_lines_init(&lines, text);
	int mismatches = 0;
	/* forward over every offset, then backward, then strided: each against the scan from the start */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t k = 0; k <= len + 2; k++) {
			size_t at = pass == 0 ? k : pass == 1 ? len + 2 - k : (k * 7) % (len + 3);
			int line, col, want_line, want_col;
			cli_lines_seek(&lines, at, &line, &col);
			cli_line_col(text, at, &want_line, &want_col);
			if (line != want_line || col != want_col) {
				if (mismatches++ < 5)
					printf("# offset %zu: cursor %d:%d, scan %d:%d\n", at, line, col, want_line, want_col);
			}
		}
	}
	CHECK(mismatches == 0, "the cursor agrees with cli_line_col at every offset, seeking forward and back (%d not)",
		  mismatches);
	int line, col;
	cli_line_col(text, (size_t)(strstr(text, "2;") - text), &line, &col);
	CHECK(line == 3 && col == 16, "line 3, column 16 after two multi-byte characters (got %d:%d)", line, col);
	cli_line_col(text, len + 10, &line, &col); /* past the end: the end's position */
	CHECK(line == 7 && col == 10, "an offset past the end is the end (got %d:%d)", line, col);
}

typedef struct Seen {
	int n;
	int lines[8];
	size_t at[8];
} Seen;

static bool collect(const char *whole, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	Seen *s = ctx;
	int want_line, col;
	cli_line_col(whole, at, &want_line, &col);
	CHECK(line == want_line, "statement at %zu: line %d is cli_line_col's %d", at, line, want_line);
	CHECK(strlen(stmt) == len, "the statement copy is NUL-terminated at its length");
	if (s->n < 8) {
		s->lines[s->n] = line;
		s->at[s->n] = at;
	}
	s->n++;
	free(stmt);
	return true;
}

static void test_each_statement(void)
{
	char path[] = "/tmp/pgbind-test-input-XXXXXX";
	int fd = mkstemp(path);
	const char script[] = "\\echo load me \\quit\nSELECT 1;\n\nCREATE FUNCTION @extschema@.f() RETURNS int\n"
						  "  AS $$ SELECT 1;\nSELECT 2 $$ LANGUAGE sql;\n  SELECT 'é';\nSELECT 3";
	CHECK(fd >= 0 && write(fd, script, sizeof script - 1) == (ssize_t)(sizeof script - 1), "write %s", path);
	if (fd >= 0)
		close(fd);
	Seen s = {0};
	CHECK(cli_each_statement(path, "test_input", collect, &s), "cli_each_statement reads %s", path);
	CHECK(s.n == 4, "four statements (got %d)", s.n);
	/* the splitter's offsets start where the previous statement ended (after its ';'); from
	 * PostgreSQL 18 on, a statement's location is its first token's (the white space and the
	 * comments before it are left out: 18's gram.y), so the lines are those of the statements */
	int want_15[] = {1, 2, 6, 7}, want_18[] = {2, 4, 7, 8};
	const int *want = PG_VERSION_NUM >= 180000 ? want_18 : want_15;
	for (int i = 0; i < 4 && i < s.n; i++)
		CHECK(s.lines[i] == want[i], "statement %d starts on line %d (got %d, offset %zu)", i + 1, want[i], s.lines[i],
			  s.at[i]);
	unlink(path);
}

int main(void)
{
	test_cursor();
	test_each_statement();
	pg_query_exit();
	printf("%d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
