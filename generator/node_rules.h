/*
 * node_rules.h -- schema/summary.txt: what libpg_query's summary knows of each node kind (the raw
 * walker's fields, what the summary records, what its truncation shortens), read and checked
 * against the view model of one major (node_rules.c), and added to the view as `node_rules`.
 */
#ifndef PGBIND_GENERATOR_NODE_RULES_H
#define PGBIND_GENERATOR_NODE_RULES_H

#include "common.h"

#include <jansson.h>

/* Reads path (the overrides format, since:/until: for `major`), checks every line against the
 * messages, fields and enums of view, and sets view's `node_rules`: one flat line per (kind, rule,
 * field). false with err (file:line:col) on a kind, field, enum value or action the model or the
 * format lacks, on a line nothing reads, and on a field holding a table no line covers. */
bool node_rules_add(json_t *view, const char *path, int major, gen_Error *err);

#endif
