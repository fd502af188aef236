/*
 * names_c.h -- the C target's decorator (its row in generator/targets.c): its spellings, added to
 * its copy of the view model: the C type of each AST member, the reflection flags of each field
 * and, for the test tables, where each converted member of a PostgreSQL struct lies. The
 * classifier states the neutral facts these are spelled from (a field's wire kind and type,
 * whether "" reads as NULL, the conversion kind).
 */
#ifndef PGBIND_TARGETS_C_NAMES_C_H
#define PGBIND_TARGETS_C_NAMES_C_H

#include "common.h"

#include <jansson.h>
#include <stdbool.h>

/* Adds to every field of messages[].fields and .encode: ast_type ("int32_t", "const char",
 * "pgbind_Alias", ...), pointer (the member is a pointer) and flags (PGBIND_FIELD_* or "0"); to
 * every messages[].from_pg entry: c_offset ("offsetof(RangeVar, relname)", or "0" where the
 * conversion reads no member of its own). false with err on a wire kind it has no C type for. */
bool names_add_c(json_t *view, gen_Error *err);

#endif
