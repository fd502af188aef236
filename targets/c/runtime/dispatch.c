/*
 * dispatch.c -- the route to another PostgreSQL major when pgbind_Options.pg_major names one
 * (targets/c/runtime/major.h says the whole; targets/c/runtime/major.c calls it). In libpgbind.a
 * only, with the generated table of the other majors' entries (build/majors/lib_table.c, written by
 * mk/lib-majors.mk): a tree goes to a major as the library's protobuf (pgbind_encode) converted to
 * that major's (pgbind_convert_protobuf, through the newest major where no pair is direct), and a
 * parse comes back the other way and is decoded into the library's types. The entries write their
 * answers into the caller's arena. Depends on the runtime and the converters (convert.c).
 */
#include "major.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pg_query.h"
#include "pgbind_convert.h"

/* build/majors/lib_table.c: every other major built into the library, ascending, then NULL. Weak:
 * a build that compiles every file of targets/c/runtime (the Rust crate's build.rs, the Go module,
 * make dist's C sources) has no other major, and this file then routes to none. */
extern const pgbind_MajorEntry *const pgbind_lib_majors[] __attribute__((weak));

enum { own_major = PG_VERSION_NUM / 10000 };

static void *arena_alloc(void *ctx, size_t size)
{
	return pgbind_Arena_Malloc(ctx, size);
}

/* The conversion's outcome as a status: what has no form in the other major is a tree that major's
 * libpg_query cannot be given (or the library's types cannot hold). */
static bool convert_failed(pgbind_ConvertCode code, const pgbind_ConvertError *err, int from, int to,
						   pgbind_Status *status)
{
	switch (code) {
	case PGBIND_CONVERT_OK:
		return false;
	case PGBIND_CONVERT_NO_MEMORY:
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		break;
	case PGBIND_CONVERT_TOO_DEEP:
		pgbind_fail(status, PGBIND_ERROR_DEPTH, "converting PostgreSQL %d's tree to %d's: %s", from, to, err->message);
		break;
	case PGBIND_CONVERT_MALFORMED:
		pgbind_fail(status, PGBIND_ERROR_INVALID, "converting PostgreSQL %d's tree to %d's: %s", from, to,
					err->message);
		break;
	default:
		pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE, "converting PostgreSQL %d's tree to %d's: %s", from, to,
					err->message);
		break;
	}
	return true;
}

/* (in, len) of major from as major to's encoding, malloc'd (free it); through a third major where
 * no pair is direct (15 and 17 each pair with 18 alone): the newest built that pairs with both. */
static uint8_t *convert(int from, int to, const uint8_t *in, size_t len, size_t *out_len, pgbind_Status *status)
{
	pgbind_ConvertError err = {0};
	uint8_t *out = NULL;
	int via = 0;
	if (!pgbind_convert_has_pair(from, to))
		for (const pgbind_MajorEntry *const *e = pgbind_lib_majors; e && *e; e++)
			if (pgbind_convert_has_pair(from, (*e)->info.major) && pgbind_convert_has_pair((*e)->info.major, to))
				via = (*e)->info.major; /* ascending: the last is the newest */
	if (!via) {
		if (convert_failed(pgbind_convert_protobuf(from, to, in, len, &out, out_len, &err), &err, from, to, status))
			return NULL;
		return out;
	}
	uint8_t *mid = NULL;
	size_t mid_len = 0;
	if (convert_failed(pgbind_convert_protobuf(from, via, in, len, &mid, &mid_len, &err), &err, from, to, status))
		return NULL;
	pgbind_ConvertCode code = pgbind_convert_protobuf(via, to, mid, mid_len, &out, out_len, &err);
	free(mid);
	return convert_failed(code, &err, from, to, status) ? NULL : out;
}

/* tree as major e's protobuf, malloc'd (free it). */
static uint8_t *tree_to(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const pgbind_Options *options,
						size_t *len, pgbind_Status *status)
{
	if (!tree) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	pgbind_Arena *arena = pgbind_Arena_New();
	if (!arena) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	const uint8_t *data = NULL;
	size_t n = 0;
	uint8_t *out = pgbind_encode(tree, options, arena, &data, &n, status)
					   ? convert(own_major, e->info.major, data, n, len, status)
					   : NULL;
	pgbind_Arena_Free(arena);
	return out;
}

static pgbind_ParseResult *other_parse(const pgbind_MajorEntry *e, const char *sql, const pgbind_Options *options,
									   pgbind_Arena *arena, pgbind_Status *status)
{
	if (!sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", sql ? "arena" : "sql");
		return NULL;
	}
	pgbind_MajorOut out = {arena_alloc, arena};
	const uint8_t *data = NULL;
	size_t len = 0, own_len = 0;
	if (!e->parse(sql, options, &out, &data, &len, status))
		return NULL;
	uint8_t *own = convert(e->info.major, own_major, data, len, &own_len, status);
	pgbind_ParseResult *tree = own ? pgbind_decode(own, own_len, options, arena, status) : NULL;
	free(own);
	return tree;
}

static const char *other_deparse(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree,
								 const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_MajorOut out = {arena_alloc, arena};
	size_t len = 0;
	uint8_t *data = arena ? tree_to(e, tree, options, &len, status) : NULL;
	if (!arena)
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
	const char *sql = data ? e->deparse(data, len, options, &out, status) : NULL;
	free(data);
	return sql;
}

static bool other_fingerprint(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const pgbind_Options *options,
							  uint64_t *fingerprint, pgbind_Status *status)
{
	size_t len = 0;
	uint8_t *data = fingerprint ? tree_to(e, tree, options, &len, status) : NULL;
	if (!fingerprint)
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
	bool ok = data && e->fingerprint(data, len, options, fingerprint, status);
	free(data);
	return ok;
}

static const char *other_normalize(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const char *sql,
								   const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_MajorOut out = {arena_alloc, arena};
	size_t len = 0;
	uint8_t *data = sql && arena ? tree_to(e, tree, options, &len, status) : NULL;
	if (!sql || !arena)
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
	const char *text = data ? e->normalize(data, len, sql, options, &out, status) : NULL;
	free(data);
	return text;
}

static const char *other_truncate(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, int max_length,
								  const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_MajorOut out = {arena_alloc, arena};
	size_t len = 0;
	uint8_t *data = arena && max_length >= 0 ? tree_to(e, tree, options, &len, status) : NULL;
	if (!arena || max_length < 0)
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_truncate: %s",
					max_length < 0 ? "max_length must not be negative" : "tree and arena are required");
	const char *text = data ? e->truncate(data, len, max_length, options, &out, status) : NULL;
	free(data);
	return text;
}

static pgbind_Summary *other_summary(const pgbind_MajorEntry *e, const pgbind_ParseResult *tree, const char *sql,
									 int truncate_limit, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	if (!arena || (!sql && !tree)) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s", sql || tree ? "arena is NULL" : "a required argument is NULL");
		return NULL;
	}
	pgbind_MajorOut out = {arena_alloc, arena};
	if (sql)
		return e->summary(NULL, 0, sql, truncate_limit, options, &out, status);
	size_t len = 0;
	uint8_t *data = tree_to(e, tree, options, &len, status);
	pgbind_Summary *s = data ? e->summary(data, len, NULL, truncate_limit, options, &out, status) : NULL;
	free(data);
	return s;
}

/* The value called name of the library's enum number which, or -1. */
static int32_t own_value(int32_t which, const char *name)
{
	const pgbind_EnumDesc *d = &pgbind_enum_descs[which];
	for (uint32_t i = 0; name && i < d->n_values; i++)
		if (!strcmp(d->values[i].name, name))
			return d->values[i].number;
	return -1;
}

static int32_t enum_index(const char *name)
{
	for (int32_t i = 0; i < PGBIND_ENUM_COUNT; i++)
		if (!strcmp(pgbind_enum_descs[i].name, name))
			return i;
	return -1;
}

/* Major e's tokens, each numbered by its name as the library's pg_query.proto numbers it. */
static pgbind_ScanResult *other_scan(const pgbind_MajorEntry *e, const char *sql, const pgbind_Options *options,
									 pgbind_Arena *arena, pgbind_Status *status)
{
	if (!sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", sql ? "arena" : "sql");
		return NULL;
	}
	pgbind_MajorOut out = {arena_alloc, arena};
	pgbind_MajorToken *tokens = NULL;
	size_t n = 0;
	if (!e->scan(sql, options, &out, &tokens, &n, status))
		return NULL;
	pgbind_ScanResult *r = pgbind_Arena_Malloc(arena, sizeof *r);
	pgbind_ScanToken *t = pgbind_Arena_Malloc(arena, n * sizeof *t + 1);
	pgbind_ScanToken **ptrs = pgbind_Arena_Malloc(arena, n * sizeof *ptrs + 1);
	if (!r || !t || !ptrs) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	int32_t token_enum = enum_index("Token"), kind_enum = enum_index("KeywordKind");
	for (size_t i = 0; i < n; i++) {
		int32_t token = own_value(token_enum, tokens[i].token), kind = own_value(kind_enum, tokens[i].keyword_kind);
		if (token < 0 || kind < 0) {
			pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE,
						"pgbind_scan: PostgreSQL %d's token %s (%s) at %d has no value in PostgreSQL %d's "
						"pg_query.proto, this library's",
						e->info.major, tokens[i].token ? tokens[i].token : "(unnamed)",
						tokens[i].keyword_kind ? tokens[i].keyword_kind : "(unnamed)", tokens[i].start, own_major);
			return NULL;
		}
		t[i] = (pgbind_ScanToken){tokens[i].start, tokens[i].end, (pgbind_Token)token, (pgbind_KeywordKind)kind};
		ptrs[i] = &t[i];
	}
	*r = (pgbind_ScanResult){0};
	r->version = PG_VERSION_NUM;
	r->n_tokens = n;
	r->tokens = ptrs;
	return r;
}

const pgbind_MajorDispatch pgbind_major_dispatch = {
	.own_major = own_major,
	.entries = pgbind_lib_majors,
	.parse = other_parse,
	.deparse = other_deparse,
	.fingerprint = other_fingerprint,
	.normalize = other_normalize,
	.truncate = other_truncate,
	.summary = other_summary,
	.scan = other_scan,
};
