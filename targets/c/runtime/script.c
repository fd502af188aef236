/*
 * script.c -- SQL scripts into statements, the one splitter of the pgbind command and the Rust
 * crate's suites: psql's backslash lines blanked and extension scripts' placeholders replaced
 * (pgbind_script_prepare), then libpg_query's splitter (pgbind_script_split). Depends on
 * libpg_query's pg_query_split_with_parser / _with_scanner.
 */
#include "internal.h"
#include "pg_query.h"

#include <string.h>

void pgbind_script_prepare(char *text)
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

pgbind_ScriptStatement *pgbind_script_split(const char *text, size_t len, pgbind_Arena *arena, size_t *n_stmts,
											pgbind_Status *status)
{
	if (!text || !arena || !n_stmts) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", !text ? "text" : !arena ? "arena" : "n_stmts");
		return NULL;
	}
	PgQuerySplitResult split = pg_query_split_with_parser(text);
	if (split.error) {
		/* a statement that does not parse: the scanner still finds the boundaries */
		pg_query_free_split_result(split);
		split = pg_query_split_with_scanner(text);
	}
	bool whole = split.error != NULL; /* not even the scanner: the text is one statement */
	size_t n = whole ? 1 : (size_t)(split.n_stmts > 0 ? split.n_stmts : 0);
	pgbind_ScriptStatement *out = pgbind_Arena_Malloc(arena, (n ? n : 1) * sizeof *out);
	if (!out) {
		pg_query_free_split_result(split);
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory splitting a script");
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t at = whole ? 0 : (size_t)split.stmts[i]->stmt_location;
		size_t m = whole ? len : (size_t)split.stmts[i]->stmt_len;
		if (at > len || m > len - at)
			continue;
		out[k].location = at;
		out[k].length = m;
		k++;
	}
	pg_query_free_split_result(split);
	*n_stmts = k;
	return out;
}
