/*
 * deparse_rules.h -- the deparse contract's rules (schema/pgNN/deparse.txt) as the view's
 * "deparse_rules"; see deparse_rules.c for the clauses.
 */
#ifndef PGBIND_GENERATOR_DEPARSE_RULES_H
#define PGBIND_GENERATOR_DEPARSE_RULES_H

#include "common.h"
#include "overrides.h"

#include <jansson.h>

/* Reads every deparse[_LABEL] entry of the overrides on the fields of messages (the view's, in
 * their final order) into *out (a new array); sets deparse_first and deparse_count on each
 * message. false with err at the entry's file:line:col on anything it does not understand, a
 * removed clause among it (saying what to write instead). enums is unused. */
bool deparse_rules_build(Overrides *ov, json_t *messages, json_t *nodes, json_t **out, gen_Error *err);

/* For the generated walk: each node's contract_leaf, each message's contract_tests (what its
 * rules ask of each field) and its fields' contract_leaves, from the rules. enums is unused. */
void deparse_rules_tests(json_t *messages, json_t *nodes, json_t *rules);

#endif
