/*
 * pgbind_go.h -- the C side of the Go module's calls: each function below does in one cgo call
 * what would otherwise take several (a cgo call costs tens of nanoseconds).
 */
#ifndef PGBIND_GO_H
#define PGBIND_GO_H
#include <stdlib.h>
#include <pg_query.h>
#include "pgbind.h"
#include "pgbind_json.h"

/* One call's arena and status (Go memory holding only C pointers: allowed by cgo's rules). */
typedef struct {
	pgbind_Arena *arena;
	pgbind_Status status;
	uint64_t fingerprint;
} go_Call;

static inline pgbind_Arena *go_arena(go_Call *c)
{
	c->arena = pgbind_Arena_New();
	if (!c->arena)
		c->status.code = PGBIND_ERROR_NOMEM;
	return c->arena;
}

static inline pgbind_ParseResult *go_parse(const char *sql, go_Call *c)
{
	return go_arena(c) ? pgbind_parse(sql, NULL, c->arena, &c->status) : NULL;
}

static inline const char *go_parse_json(const char *sql, go_Call *c)
{
	pgbind_ParseResult *t = go_parse(sql, c);
	return t ? pgbind_json(t, NULL, c->arena, &c->status) : NULL;
}

static inline int go_fingerprint(const char *sql, go_Call *c)
{
	pgbind_ParseResult *t = go_parse(sql, c);
	return t && pgbind_fingerprint(t, NULL, &c->fingerprint, &c->status);
}

static inline const char *go_normalize(const char *sql, go_Call *c)
{
	pgbind_ParseResult *t = go_parse(sql, c);
	return t ? pgbind_normalize(t, sql, NULL, c->arena, &c->status) : NULL;
}

static inline pgbind_ScanResult *go_scan(const char *sql, go_Call *c)
{
	return go_arena(c) ? pgbind_scan(sql, NULL, c->arena, &c->status) : NULL;
}

static inline const char *go_deparse_sql(const char *sql, go_Call *c)
{
	pgbind_ParseResult *t = go_parse(sql, c);
	return t ? pgbind_deparse(t, NULL, c->arena, &c->status) : NULL;
}

/* For the tests (hooks.go): whether sql's tree holds a "" where protobuf, and so a Go tree,
 * carries unset (runtime/internal.h); 1 or 0, -1 if it does not parse. */
bool pgbind_find_lossy_empty_string(const pgbind_ParseResult *tree, char *where, size_t size);

static inline int go_holds_lossy_empty(const char *sql, go_Call *c)
{
	char where[160];
	pgbind_ParseResult *t = go_parse(sql, c);
	return t ? pgbind_find_lossy_empty_string(t, where, sizeof where) : -1;
}

#endif
