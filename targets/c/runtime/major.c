/*
 * major.c -- pgbind_Options.pg_major's first step, in every copy of the runtime (targets/c/runtime/major.h
 * says the whole): the hooks at the top of the public functions and pgbind_majors(). The library's
 * own major (the major of the pg_query.h this file is compiled against) goes back to the public
 * function with pg_major 0, the direct route; another major built into the program goes to the
 * dispatch (targets/c/runtime/dispatch.c), found through a weak reference, so that a program
 * without it (the shared library, the command's per-major copies) links and holds its own major
 * alone; any other value is PGBIND_ERROR_ARGUMENT naming the majors built. Depends on pg_query.h and
 * pthread; the release string comes from mk/majors.mk's version.h (-include, where given).
 */
#include "major.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pg_query.h"

#ifndef PGBIND_PG_QUERY_RELEASE
#define PGBIND_PG_QUERY_RELEASE ""
#endif

enum { own_major = PG_VERSION_NUM / 10000, majors_max = 16 };

/* hidden: the shared library resolves it (to nothing) when it is linked, never from the program */
extern const pgbind_MajorDispatch pgbind_major_dispatch __attribute__((weak, visibility("hidden")));

/* The dispatch, when the program has one made for this copy's major (a per-major copy of the
 * runtime linked into libpgbind.a sees the library's, for another major, and must not use it). */
static const pgbind_MajorDispatch *dispatch(void)
{
	const pgbind_MajorDispatch *d = &pgbind_major_dispatch;
	return d && d->own_major == own_major ? d : NULL;
}

static pgbind_Major majors[majors_max];
static size_t n_majors;

static void list_majors(void)
{
	const pgbind_MajorDispatch *d = dispatch();
	const pgbind_MajorEntry *const *e = d ? d->entries : NULL;
	pgbind_Major self = {own_major, PG_VERSION_NUM, PG_VERSION, PGBIND_PG_QUERY_RELEASE, true};
	bool self_listed = false;
	for (; e && *e && n_majors < majors_max - 1; e++) {
		if (!self_listed && (*e)->info.major > own_major) {
			majors[n_majors++] = self;
			self_listed = true;
		}
		majors[n_majors++] = (*e)->info;
	}
	if (!self_listed)
		majors[n_majors++] = self;
}

const pgbind_Major *pgbind_majors(size_t *n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, list_majors);
	if (n)
		*n = n_majors;
	return majors;
}

typedef enum { ROUTE_FAILED, ROUTE_OWN, ROUTE_OTHER } Route;

/* Which way options->pg_major goes: ROUTE_OWN with *own the options and pg_major 0, ROUTE_OTHER
 * with *entry, or ROUTE_FAILED with status filled. */
static Route route(const pgbind_Options *options, pgbind_Options *own, const pgbind_MajorEntry **entry,
				   pgbind_Status *status)
{
	if (options->pg_major == own_major) {
		*own = *options;
		own->pg_major = 0;
		return ROUTE_OWN;
	}
	const pgbind_MajorDispatch *d = dispatch();
	for (const pgbind_MajorEntry *const *e = d ? d->entries : NULL; e && *e; e++)
		if ((*e)->info.major == options->pg_major) {
			if ((*e)->abi != PGBIND_MAJOR_ABI || (*e)->options_size != sizeof(pgbind_Options) ||
				(*e)->status_size != sizeof(pgbind_Status) || (*e)->summary_size != sizeof(pgbind_Summary)) {
				pgbind_fail(status, PGBIND_ERROR_ARGUMENT,
							"PostgreSQL %d's copy of pgbind was built from another pgbind.h (entry ABI %d, "
							"this library's %d): rebuild the library",
							options->pg_major, (*e)->abi, PGBIND_MAJOR_ABI);
				return ROUTE_FAILED;
			}
			*entry = *e;
			return ROUTE_OTHER;
		}
	size_t n;
	const pgbind_Major *m = pgbind_majors(&n);
	char built[128] = "";
	for (size_t i = 0, used = 0; i < n && used < sizeof built; i++)
		used += (size_t)snprintf(built + used, sizeof built - used, "%s%d", i ? ", " : "", m[i].major);
	pgbind_fail(status, PGBIND_ERROR_ARGUMENT,
				"pgbind_Options.pg_major %d: PostgreSQL %d is not built into this library (built: %s; "
				"pgbind_majors() lists them)",
				options->pg_major, options->pg_major, built);
	return ROUTE_FAILED;
}

pgbind_ParseResult *pgbind_major_parse(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
									   pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_parse(sql, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->parse(e, sql, options, arena, status);
	default:
		return NULL;
	}
}

const char *pgbind_major_deparse(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
								 pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_deparse(tree, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->deparse(e, tree, options, arena, status);
	default:
		return NULL;
	}
}

bool pgbind_major_fingerprint(const pgbind_ParseResult *tree, const pgbind_Options *options, uint64_t *fingerprint,
							  pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_fingerprint(tree, &own, fingerprint, status);
	case ROUTE_OTHER:
		return dispatch()->fingerprint(e, tree, options, fingerprint, status);
	default:
		return false;
	}
}

const char *pgbind_major_normalize(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
								   pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_normalize(tree, sql, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->normalize(e, tree, sql, options, arena, status);
	default:
		return NULL;
	}
}

const char *pgbind_major_truncate(const pgbind_ParseResult *tree, int max_length, const pgbind_Options *options,
								  pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_truncate(tree, max_length, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->truncate(e, tree, max_length, options, arena, status);
	default:
		return NULL;
	}
}

pgbind_Summary *pgbind_major_summary(const pgbind_ParseResult *tree, int truncate_limit, const pgbind_Options *options,
									 pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_summary(tree, truncate_limit, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->summary(e, tree, NULL, truncate_limit, options, arena, status);
	default:
		return NULL;
	}
}

pgbind_Summary *pgbind_major_summary_sql(const char *sql, int truncate_limit, const pgbind_Options *options,
										 pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_summary_sql(sql, truncate_limit, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->summary(e, NULL, sql, truncate_limit, options, arena, status);
	default:
		return NULL;
	}
}

pgbind_ScanResult *pgbind_major_scan(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	pgbind_Options own;
	const pgbind_MajorEntry *e = NULL;
	switch (route(options, &own, &e, status)) {
	case ROUTE_OWN:
		return pgbind_scan(sql, &own, arena, status);
	case ROUTE_OTHER:
		return dispatch()->scan(e, sql, options, arena, status);
	default:
		return NULL;
	}
}
