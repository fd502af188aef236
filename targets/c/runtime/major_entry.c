/*
 * major_entry.c -- one PostgreSQL major's pgbind as the library reaches it when pgbind_Options.pg_major
 * names that major (targets/c/runtime/major.h). mk/lib-majors.mk compiles it once per other major,
 * against that major's generated code and libpg_query tree (mk/majors.mk's per-major compile), and
 * scripts/majors/link-command.sh links it with that major's runtime and libpg_query into
 * build/majors/pgNN/lib/pgbind.o, whose one global symbol is the constant below, renamed
 * pgbind_pgNN_lib_major. Each function decodes the tree it is given (that major's protobuf), runs
 * this major's own pgbind function on it in an arena of its own, with the caller's options but
 * pg_major 0, and writes the answer into the caller's memory (pgbind_MajorOut): nothing of this
 * copy's arena or types leaves it. Depends on the runtime and pg_query.h (PG_VERSION). Compiled to
 * nothing without PGBIND_MAJOR_ENTRY (mk/lib-majors.mk defines it), so that the builds that compile
 * every file of targets/c/runtime (the Rust crate, the Go module, make dist's C sources) gain no
 * symbol from it.
 */
#include "major.h"

#ifdef PGBIND_MAJOR_ENTRY

#include <string.h>

#include "internal.h"
#include "pg_query.h"

#ifndef PGBIND_PG_QUERY_RELEASE
#define PGBIND_PG_QUERY_RELEASE ""
#endif

/* The caller's options for this copy: its own major. */
static pgbind_Options mine(const pgbind_Options *options)
{
	pgbind_Options o = options ? *options : (pgbind_Options){0};
	o.pg_major = 0;
	return o;
}

static void *out_copy(const pgbind_MajorOut *out, const void *data, size_t len, pgbind_Status *status)
{
	void *p = out->alloc(out->ctx, len ? len : 1);
	if (!p)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	else if (len)
		memcpy(p, data, len);
	return p;
}

static const char *out_string(const pgbind_MajorOut *out, const char *s, pgbind_Status *status)
{
	return s ? out_copy(out, s, strlen(s) + 1, status) : NULL;
}

/* This major's tree of (data, len) in a new arena; NULL with status filled. */
static pgbind_ParseResult *tree_of(const uint8_t *data, size_t len, const pgbind_Options *o, pgbind_Arena **arena,
								   pgbind_Status *status)
{
	if (!(*arena = pgbind_Arena_New())) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	return pgbind_decode(data, len, o, *arena, status);
}

static bool entry_parse(const char *sql, const pgbind_Options *options, const pgbind_MajorOut *out,
						const uint8_t **data, size_t *len, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = pgbind_Arena_New();
	if (!arena) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return false;
	}
	const pgbind_ParseResult *tree = pgbind_parse(sql, &o, arena, status);
	const uint8_t *bytes = NULL;
	bool ok = tree && pgbind_encode(tree, &o, arena, &bytes, len, status) &&
			  (*data = out_copy(out, bytes, *len, status)) != NULL;
	pgbind_Arena_Free(arena);
	return ok;
}

static const char *entry_deparse(const uint8_t *data, size_t len, const pgbind_Options *options,
								 const pgbind_MajorOut *out, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = NULL;
	const pgbind_ParseResult *tree = tree_of(data, len, &o, &arena, status);
	const char *sql = tree ? pgbind_deparse(tree, &o, arena, status) : NULL;
	const char *copy = sql ? out_string(out, sql, status) : NULL;
	pgbind_Arena_Free(arena);
	return copy;
}

static bool entry_fingerprint(const uint8_t *data, size_t len, const pgbind_Options *options, uint64_t *fingerprint,
							  pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = NULL;
	const pgbind_ParseResult *tree = tree_of(data, len, &o, &arena, status);
	bool ok = tree && pgbind_fingerprint(tree, &o, fingerprint, status);
	pgbind_Arena_Free(arena);
	return ok;
}

static const char *entry_normalize(const uint8_t *data, size_t len, const char *sql, const pgbind_Options *options,
								   const pgbind_MajorOut *out, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = NULL;
	const pgbind_ParseResult *tree = tree_of(data, len, &o, &arena, status);
	const char *text = tree ? pgbind_normalize(tree, sql, &o, arena, status) : NULL;
	const char *copy = text ? out_string(out, text, status) : NULL;
	pgbind_Arena_Free(arena);
	return copy;
}

static const char *entry_truncate(const uint8_t *data, size_t len, int max_length, const pgbind_Options *options,
								  const pgbind_MajorOut *out, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = NULL;
	const pgbind_ParseResult *tree = tree_of(data, len, &o, &arena, status);
	const char *text = tree ? pgbind_truncate(tree, max_length, &o, arena, status) : NULL;
	const char *copy = text ? out_string(out, text, status) : NULL;
	pgbind_Arena_Free(arena);
	return copy;
}

/* *dst = a copy of src in the caller's memory (NULL stays NULL). */
static bool out_dup(const pgbind_MajorOut *out, const char **dst, const char *src, pgbind_Status *status)
{
	return !src || (*dst = out_string(out, src, status)) != NULL;
}

/* s, every string and array of it, copied into the caller's memory. */
static pgbind_Summary *summary_out(const pgbind_Summary *s, const pgbind_MajorOut *out, pgbind_Status *status)
{
	pgbind_Summary *c = out_copy(out, s, sizeof *s, status);
	if (!c)
		return NULL;
#define SUMMARY_ARRAY(field, n) (!s->n || (c->field = out_copy(out, s->field, s->n * sizeof *s->field, status)) != NULL)
	bool ok = SUMMARY_ARRAY(tables, n_tables) && SUMMARY_ARRAY(aliases, n_aliases) &&
			  SUMMARY_ARRAY(cte_names, n_cte_names) && SUMMARY_ARRAY(functions, n_functions) &&
			  SUMMARY_ARRAY(filter_columns, n_filter_columns) && SUMMARY_ARRAY(statement_types, n_statement_types);
#undef SUMMARY_ARRAY
	for (size_t i = 0; ok && i < s->n_tables; i++)
		ok = out_dup(out, &c->tables[i].name, s->tables[i].name, status) &&
			 out_dup(out, &c->tables[i].schema_name, s->tables[i].schema_name, status) &&
			 out_dup(out, &c->tables[i].table_name, s->tables[i].table_name, status);
	for (size_t i = 0; ok && i < s->n_aliases; i++)
		ok = out_dup(out, &c->aliases[i].key, s->aliases[i].key, status) &&
			 out_dup(out, &c->aliases[i].value, s->aliases[i].value, status);
	for (size_t i = 0; ok && i < s->n_functions; i++)
		ok = out_dup(out, &c->functions[i].name, s->functions[i].name, status) &&
			 out_dup(out, &c->functions[i].function_name, s->functions[i].function_name, status) &&
			 out_dup(out, &c->functions[i].schema_name, s->functions[i].schema_name, status);
	for (size_t i = 0; ok && i < s->n_filter_columns; i++)
		ok = out_dup(out, &c->filter_columns[i].schema_name, s->filter_columns[i].schema_name, status) &&
			 out_dup(out, &c->filter_columns[i].table_name, s->filter_columns[i].table_name, status) &&
			 out_dup(out, &c->filter_columns[i].column, s->filter_columns[i].column, status);
	for (size_t i = 0; ok && i < s->n_cte_names; i++)
		ok = out_dup(out, &c->cte_names[i], s->cte_names[i], status);
	for (size_t i = 0; ok && i < s->n_statement_types; i++)
		ok = out_dup(out, &c->statement_types[i], s->statement_types[i], status);
	return ok && out_dup(out, &c->truncated_query, s->truncated_query, status) ? c : NULL;
}

static pgbind_Summary *entry_summary(const uint8_t *data, size_t len, const char *sql, int truncate_limit,
									 const pgbind_Options *options, const pgbind_MajorOut *out, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = NULL;
	const pgbind_Summary *s = NULL;
	if (sql) {
		if ((arena = pgbind_Arena_New()) != NULL)
			s = pgbind_summary_sql(sql, truncate_limit, &o, arena, status);
		else
			pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	} else {
		const pgbind_ParseResult *tree = tree_of(data, len, &o, &arena, status);
		s = tree ? pgbind_summary(tree, truncate_limit, &o, arena, status) : NULL;
	}
	pgbind_Summary *copy = s ? summary_out(s, out, status) : NULL;
	pgbind_Arena_Free(arena);
	return copy;
}

/* The enum of pg_query.proto named name (pgbind_reflect.h), or -1. */
static int32_t enum_index(const char *name)
{
	for (int32_t i = 0; i < PGBIND_ENUM_COUNT; i++)
		if (!strcmp(pgbind_enum_descs[i].name, name))
			return i;
	return -1;
}

static bool entry_scan(const char *sql, const pgbind_Options *options, const pgbind_MajorOut *out,
					   pgbind_MajorToken **tokens, size_t *n_tokens, pgbind_Status *status)
{
	pgbind_Options o = mine(options);
	pgbind_Arena *arena = pgbind_Arena_New();
	if (!arena) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return false;
	}
	const pgbind_ScanResult *r = pgbind_scan(sql, &o, arena, status);
	int32_t token_enum = enum_index("Token"), kind_enum = enum_index("KeywordKind");
	bool ok = r && (*tokens = out->alloc(out->ctx, (r->n_tokens ? r->n_tokens : 1) * sizeof **tokens)) != NULL;
	if (r && !ok)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	for (size_t i = 0; ok && i < r->n_tokens; i++) {
		const pgbind_ScanToken *t = r->tokens[i];
		(*tokens)[i] = (pgbind_MajorToken){t->start, t->end, pgbind_enum_value_name(token_enum, (int32_t)t->token),
										   pgbind_enum_value_name(kind_enum, (int32_t)t->keyword_kind)};
	}
	if (ok)
		*n_tokens = r->n_tokens;
	pgbind_Arena_Free(arena);
	return ok;
}

const pgbind_MajorEntry lib_major = {
	.abi = PGBIND_MAJOR_ABI,
	.options_size = sizeof(pgbind_Options),
	.status_size = sizeof(pgbind_Status),
	.summary_size = sizeof(pgbind_Summary),
	.info = {PG_VERSION_NUM / 10000, PG_VERSION_NUM, PG_VERSION, PGBIND_PG_QUERY_RELEASE, false},
	.parse = entry_parse,
	.deparse = entry_deparse,
	.fingerprint = entry_fingerprint,
	.normalize = entry_normalize,
	.truncate = entry_truncate,
	.summary = entry_summary,
	.scan = entry_scan,
};

#endif /* PGBIND_MAJOR_ENTRY */
