/*
 * proto_read.h -- reads the subset of proto3 that libpg_query's pg_query.proto uses (messages and
 * enums, nested ones included, oneofs, repeated and map fields, json_name options) into a jansson
 * model; the entry
 * points are proto_read_file() and proto_read_text(). Anything outside that subset is rejected
 * with a located error rather than half-understood, because every later stage of the generator
 * trusts this model to describe the file completely.
 */
#ifndef PGBIND_GENERATOR_PROTO_READ_H
#define PGBIND_GENERATOR_PROTO_READ_H

#include <jansson.h>

#include "common.h"

/*
 * The model (arrays keep file order; line/col are 1-based and count bytes; a message or enum is
 * located at its keyword, a field at its first token):
 *
 *   { "file", "syntax": "proto3", "package": string | null,
 *     "messages": [ { "name", "line", "col", ["parent"],
 *                     "fields": [ { "name", "number", "type",
 *                                   "type_kind": "scalar" | "message" | "enum",
 *                                   "repeated", "map_key": string | null, "json_name",
 *                                   "json_name_explicit", "oneof": string | null, "line", "col" } ],
 *                     "oneofs": [ string ] } ],
 *     "enums": [ { "name", "line", "col", ["parent"],
 *                  "values": [ { "name", "number", "line", "col" } ] } ] }
 *
 * A nested declaration is named Outer.Inner and has "parent": "Outer" (absent at the top level);
 * a field's type is the full name it resolved to. A map<K, V> field is repeated, with type V
 * and map_key K.
 *
 * Reads the .proto at path. Returns a new reference, or NULL with err filled (file:line:col).
 */
json_t *proto_read_file(const char *path, gen_Error *err);

/* Same, from text already in memory; `name` is used as the file name in the model and errors. */
json_t *proto_read_text(const char *name, const char *text, gen_Error *err);

#endif
