/*
 * answers.h -- one libpg_query major seen through one small interface, for the tests of the link
 * layer (docs/majors.md): tests/majors/answers.c is compiled once per major, against that major's
 * pg_query.h and, for a renamed copy, with scripts/majors/link-major.sh's pg_query_names.h
 * included first, so that each object calls its own major's library; tests/majors/one_process.c
 * holds several of them in one process, tests/majors/reference.c one alone.
 */
#ifndef PGBIND_TESTS_MAJORS_ANSWERS_H
#define PGBIND_TESTS_MAJORS_ANSWERS_H

typedef struct MajorApi {
	const char *label; /* which copy: "pg17" (renamed), "user" (the program's own -lpg_query) */
	int version_num;   /* PG_VERSION_NUM of the pg_query.h it was compiled against */
	/* What the library says of SQL, as text (malloc'd; the caller frees it): its parse tree's
	 * JSON, its protobuf's size and hash, fingerprint and normalize, or each one's error with
	 * its position. Safe from several threads at once (libpg_query's state is thread-local). */
	char *(*answers)(const char *sql);
} MajorApi;

/* One major of the build, as mk/majors.mk's generated table (build/majors/table.c) lists it: the
 * major the build says it is, its renamed copy, and its own library alone (tests/majors/reference.c
 * linked with that major's unrenamed libpg_query.a). */
typedef struct MajorEntry {
	int major;
	const MajorApi *api;
	const char *reference;
} MajorEntry;

extern const MajorEntry majors_table[]; /* ends with an entry whose api is NULL */
/* The libpg_query the test program links as a user's program would (-lpg_query, its symbols not
 * renamed), with the major of the installed pg_query.h; reference: NULL (that major's entry's). */
extern const MajorEntry majors_user;

#endif
