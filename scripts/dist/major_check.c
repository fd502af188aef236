/*
 * major_check.c -- refuses, when the vendored sources are compiled, a libpg_query of another
 * PostgreSQL major than the one the generated code is for (make dist adds this file): use
 * pgbind's sources for that major (pgbind-c-0.MAJOR.N).
 */
#include <pg_query.h>

#include "pgbind_ast.h"

#if PG_VERSION_NUM / 10000 != PGBIND_PG_MAJOR
#error "pgbind: pg_query.h is libpg_query for another PostgreSQL major than generated/pgbind_ast.h"
#endif

typedef int pgbind_major_check; /* a translation unit is not empty */
