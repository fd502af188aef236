/*
 * pg_headers.h -- PostgreSQL's node headers and libpg_query's internal entry points, for the
 * runtime files that touch PostgreSQL nodes (from_pg.c, to_pg.c, pg_route.c) and no others.
 *
 * pg_query.h describes the library (its PostgreSQL version, 15.1 in 15-4.0.0); the server headers
 * define the same version macros with their own minor release. The library's version is the one the protocol
 * reports, so it is kept as pgbind_libpg_query_version_num before the server headers come in.
 *
 * Never read or write libpg_query's globals (CurrentMemoryContext, PG_exception_stack) from
 * here: they are thread-local inside the library but plain externs in the server headers.
 */
#ifndef PGBIND_PG_HEADERS_H
#define PGBIND_PG_HEADERS_H

#include "pg_query.h"

enum { pgbind_libpg_query_version_num = PG_VERSION_NUM };
#undef PG_VERSION
#undef PG_VERSION_NUM
#undef PG_MAJORVERSION

#include "postgres.h"
#include "nodes/bitmapset.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"
#include "nodes/value.h"
#include "utils/palloc.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "pg_query_internal.h"
#pragma GCC diagnostic pop

/* libpg_query 16 gave the raw parser options (a parse mode and flags); 15 has none. */
#ifdef PG_QUERY_PARSE_MODE_BITS /* libpg_query 16 on */
#define PGBIND_RAW_PARSE(sql) pg_query_raw_parse((sql), PG_QUERY_PARSE_DEFAULT)
#else
#define PGBIND_RAW_PARSE(sql) pg_query_raw_parse(sql)
#endif

/* Exported by libpg_query but not declared in its public header. */
PgQueryProtobuf pg_query_nodes_to_protobuf(const void *obj);
List *pg_query_protobuf_to_nodes(PgQueryProtobuf protobuf);
uint64_t pg_query_fingerprint_node(const void *node);

#endif
