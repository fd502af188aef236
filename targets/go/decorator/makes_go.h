/*
 * makes_go.h -- pg_query_go's Make* node helpers that build one message from some of its fields,
 * declared in targets/go/makefuncs.txt (the overrides format, generator/overrides.h) and added to the Go
 * target's view as messages[].go_makes (docs/view-model.md) for targets/go/templates to render:
 *
 *     Message   go_make_NAME:PARAMS   NAME(...) *Node: the message, wrapped as a Node
 *     Message   go_new_NAME:PARAMS    NAME(...) *Message: the message itself
 *
 * PARAMS is a comma-separated list, in the helper's parameter order, of the message's fields (the
 * proto's json_name, as docs/view-model.md's fields[].name), each a parameter of the field's Go
 * type named after it (lowerCamelCase), and of field=value, a value the helper fixes (a bool, a
 * number, an enum's proto value name, a string's characters); `-` alone: no parameter. Which
 * fields each helper takes is pg_query_go's choice, not a fact of the model, hence a declared file.
 * A line may end in since:N / until:N (generator/overrides.h): the values the major's grammar fills in, which
 * the helper fixes to build the parser's tree, differ from one major to the next.
 * A line naming a message, field, key or value the generator cannot map stops it with the line's
 * file:line:col and what to declare instead; every line must be used.
 */
#ifndef PGBIND_TARGETS_GO_MAKES_GO_H
#define PGBIND_TARGETS_GO_MAKES_GO_H

#include "common.h"
#include "overrides.h"

#include <jansson.h>
#include <stdbool.h>

/* The declared file, relative to the checkout (as generator/targets.c's default folders are): the
 * Go target's row hashes it into every banner, and its decorator reads it. */
#define MAKES_GO_FILE "targets/go/makefuncs.txt"

/* Reads path and sets go_makes (an array, empty for most) on every message of view, whose fields
 * must already have their go_* names (names_add_go). false with err at the offending line. */
bool makes_go_add(json_t *view, const char *path, gen_Error *err);
/* The same from the declared lines already read (the unit tests' overrides_parse). */
bool makes_go_apply(json_t *view, Overrides *ov, gen_Error *err);

#endif
