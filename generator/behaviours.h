/*
 * behaviours.h -- libpg_query's behaviours (schema/libpg_query.txt: what its fingerprint and
 * normalize do to each message and field, by major with since:/until:), read from the overrides
 * into the view's messages[].libpg_query and fields[].libpg_query, normalize_order and embedded,
 * which targets/c/templates/libpg_query.inc.c.tmpl renders for the runtime (what each rule does:
 * targets/c/runtime/internal.h, PGBIND_LPQ_*). Called by classify() (classify.c) on its messages.
 */
#ifndef PGBIND_GENERATOR_BEHAVIOURS_H
#define PGBIND_GENERATOR_BEHAVIOURS_H

#include "common.h"
#include "overrides.h"

#include <jansson.h>
#include <stdbool.h>

/* Sets each message's and field's "libpg_query" (the rules declared for it, "key:value"), each
 * field's "normalize_order" (where the walk takes it: normalize_order:N, else its place in the
 * proto) and "embedded" (a message field embedded in its C struct, from messages[].from_pg).
 * false with err at the entry's file:line:col on a value it does not know or a rule the field's
 * wire kind cannot have. */
bool behaviours_declare(Overrides *ov, json_t *messages, gen_Error *err);

#endif
