/*
 * json_verify.c -- the JSON checks of `pgbind verify`, one call per statement that libpg_query
 * parsed (cli/verify.c's verify_statement calls verify_json next to its protobuf check):
 *
 *   json       pgbind_json(tree) equals pg_query_parse's parse_tree byte for byte once libpg_query
 *              15-4.0.0's known JSON bug is applied to ours, if the linked library has it (17-6.1.0
 *              has not): it writes an Integer below zero as {} (`SELECT -5` gives "ival":{}),
 *              pgbind writes {"ival":-5}. Any other difference fails, with the byte offset and
 *              both texts around it.
 *   json read  pgbind_json_read(libpg_query's JSON) encodes to pg_query_parse_protobuf's bytes
 *              (where libpg_query's JSON lost a value, pgbind's JSON is read instead), and
 *              pgbind_json_read(pgbind's JSON) equals the tree.
 *
 * The bug is applied by rewriting {"ival":-N} to {}: with its quotes unescaped, that text cannot
 * occur inside a JSON string. verify_json uses an arena of its own; it does not change the tree.
 */
#include "cli.h"
#include "pg_query.h"
#include "pgbind.h"
#include "pgbind_json.h"
#include "pgbind_reflect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the linked libpg_query has that bug (15-4.0.0 does, 17-6.1.0 does not): asked once,
 * by parsing SELECT -1. */
bool library_loses_negative_integers(void)
{
	static int known = -1;
	if (known < 0) {
		PgQueryParseResult r = pg_query_parse("SELECT -1");
		known = !r.error && r.parse_tree && strstr(r.parse_tree, "{\"A_Const\":{\"ival\":{},") != NULL;
		pg_query_free_parse_result(r);
	}
	return known;
}

char *json_with_known_bugs(const char *json, int *n_applied)
{
	char *out = malloc(strlen(json) + 1), *o = out;
	*n_applied = 0;
	if (!out)
		return NULL;
	if (!library_loses_negative_integers()) {
		strcpy(out, json);
		return out;
	}
	for (const char *p = json; *p;) {
		if (strncmp(p, "{\"ival\":-", 9) == 0) {
			const char *q = p + 9;
			while (*q >= '0' && *q <= '9')
				q++;
			if (*q == '}' && q > p + 9) {
				*o++ = '{';
				*o++ = '}';
				p = q + 1;
				(*n_applied)++;
				continue;
			}
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}

static bool same_bytes(const pgbind_ParseResult *tree, pgbind_Arena *arena, const uint8_t *want, size_t want_len,
					   size_t *differ_at)
{
	const uint8_t *data;
	size_t len;
	*differ_at = 0;
	if (!tree || !pgbind_encode(tree, NULL, arena, &data, &len, NULL))
		return false;
	while (*differ_at < len && *differ_at < want_len && data[*differ_at] == want[*differ_at])
		(*differ_at)++;
	return len == want_len && *differ_at == len;
}

void verify_json(const char *stmt, const struct pgbind_ParseResult *tree, const uint8_t *want, size_t want_len,
				 cli_JsonVerdict *v)
{
	memset(v, 0, sizeof *v);
	pgbind_Arena *arena = pgbind_Arena_New();
	PgQueryParseResult theirs = pg_query_parse(stmt);
	pgbind_Status st = {0};
	const char *ours = arena && tree ? pgbind_json(tree, NULL, arena, &st) : NULL;
	char *buggy = ours ? json_with_known_bugs(ours, &v->lost) : NULL;

	if (theirs.error) {
		snprintf(v->text_why, sizeof v->text_why, "pg_query_parse failed: %s", theirs.error->message);
		snprintf(v->read_why, sizeof v->read_why, "pg_query_parse failed: %s", theirs.error->message);
	} else if (!ours) {
		snprintf(v->text_why, sizeof v->text_why, "pgbind_json failed: %s", arena ? st.message : "out of memory");
		snprintf(v->read_why, sizeof v->read_why, "pgbind_json failed");
	} else {
		v->text_ok = buggy && strcmp(buggy, theirs.parse_tree) == 0;
		if (!v->text_ok && buggy) {
			size_t at = 0;
			while (buggy[at] && buggy[at] == theirs.parse_tree[at])
				at++;
			size_t from = at > 40 ? at - 40 : 0;
			snprintf(v->text_why, sizeof v->text_why,
					 "JSON differs from pg_query_parse at byte %zu: pgbind ...%.120s, libpg_query ...%.120s", at,
					 buggy + from, theirs.parse_tree + from);
		}

		/* JSON -> AST -> protobuf; libpg_query's text unless it lost a value */
		const char *source = v->lost ? ours : theirs.parse_tree;
		pgbind_ParseResult *read = pgbind_json_read(source, strlen(source), NULL, arena, &st);
		size_t at;
		v->read_ok = same_bytes(read, arena, want, want_len, &at);
		if (!v->read_ok) {
			char path[320];
			pgbind_wire_path(want, want_len, at, path, sizeof path);
			if (read)
				snprintf(v->read_why, sizeof v->read_why,
						 "encode(json_read(%s JSON)) differs from pg_query_parse_protobuf at byte %zu: %s",
						 v->lost ? "pgbind's" : "libpg_query's", at, path);
			else
				snprintf(v->read_why, sizeof v->read_why, "json_read(%s JSON) failed: %s",
						 v->lost ? "pgbind's" : "libpg_query's", st.message);
		} else {
			if (!v->lost) /* else read already is json_read(ours) */
				read = pgbind_json_read(ours, strlen(ours), NULL, arena, &st);
			v->read_ok = read && pgbind_ParseResult_equal(read, tree);
			if (!v->read_ok)
				snprintf(v->read_why, sizeof v->read_why, "json_read(pgbind_json(tree)) %s%s",
						 read ? "differs from the tree" : "failed: ", read ? "" : st.message);
		}
	}
	free(buggy);
	pg_query_free_parse_result(theirs);
	pgbind_Arena_Free(arena);
}
