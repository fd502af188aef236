/*
 * convert.h -- the shared state of pgbind-convert-gen, the generator of the transcoders between
 * two PostgreSQL majors' pg_query.proto (docs/convert.md). generator/convert.c reads both protos
 * and schema/majors.txt and checks every difference is declared; generator/convert_emit.c writes
 * the tables (targets/c/runtime/convert_table.h's shape) for each direction. Depends on
 * generator/proto_read.c (the proto model), generator/overrides.c (the declared file) and jansson.
 */
#ifndef PGBIND_GENERATOR_CONVERT_H
#define PGBIND_GENERATOR_CONVERT_H

#include <jansson.h>

#include "common.h"
#include "overrides.h"

/* One major's proto. */
typedef struct {
	const char *path;
	int major;
	long version_num; /* PG_VERSION_NUM of its pg_query.h */
	json_t *model;    /* proto_read's */
	json_t *msgs;     /* name -> message */
	json_t *enums;    /* name -> enum */
} cg_Proto;

typedef struct {
	cg_Proto *older, *newer;
	Overrides *ov; /* schema/majors.txt for the older major */
	const char *ov_path;
	json_t *unset_msgs; /* name -> true: declared unset (no form in either direction) */
} cg_Pair;

json_t *cg_msg(const cg_Proto *p, const char *name);
json_t *cg_field(json_t *msg, const char *name);
const char *cg_str(json_t *obj, const char *key);
int cg_int(json_t *obj, const char *key);
/* Whether two fields have the same type: kind, repeatedness and type name. */
bool cg_same_type(json_t *fa, json_t *fb);
/* The wire type of a field's values (2 for a repeated scalar: packed, as protobuf-c writes). */
int cg_wire(json_t *field);

/* Checks every difference between the two protos is declared (up: older -> newer); fills
 * pair->unset_msgs. */
bool cg_check(cg_Pair *pair, gen_Error *err);

/* Writes the C file holding both directions' tables. */
bool cg_emit(cg_Pair *pair, gen_Buf *out, gen_Error *err);

#endif
