/*
 * classify.h -- the classifier: pairs every proto field with its C field and gives the pair one
 * conversion kind; the result is the view model the templates are rendered with.
 *
 * Inputs: the node model (schema/pgNN/nodes.json, from pgbind-extract), the proto model (from
 * proto_read) and the overrides. Proto fields are matched to C fields by json_name, which
 * libpg_query sets to the C field name. A pair it cannot classify, a proto field without a C
 * field, a node message without a C struct or an enum value without a counterpart stops it with
 * the message, the field and both locations. C fields the proto leaves out are listed in the
 * view ("skipped") and end up in docs/generated/model-summary.md.
 *
 * Conversion kinds (C -> AST; each is one macro in targets/c/runtime/from_pg.c):
 *   SCALAR       int/Oid/bool/double/... field -> proto scalar of the same family
 *   CHAR         char -> one-char string ('\0' -> unset)
 *   CSTRING      char * -> string (NULL -> unset)
 *   VALUE_STRING char * of a value node (String.sval, ...: empty_string:keep) -> string, never NULL
 *   ENUM         C enum -> proto enum, by constant name
 *   NODE         pointer to any node -> Node
 *   MESSAGE      pointer to node struct X -> message X directly
 *   EMBEDDED     struct X held by value -> message X (CreateForeignTableStmt.base)
 *   XPR          embedded Expr supertype -> never written
 *   LIST         List * -> repeated Node (NULL cells kept)
 *   BITMAPSET    Bitmapset * -> repeated uint64
 *   VALUE_UNION  union of value nodes (A_Const.val) -> oneof of their messages
 *   VALUE_UNION_UNLESS  the same, absent when a bool field says so (absent_when:isnull)
 *   LIST_CELLS, INT_CELLS, OID_CELLS   the cells of a List node itself (overrides only)
 * Wire kinds (AST -> protobuf; each is one macro in targets/c/runtime/encode.c): INT32 UINT32 INT64 UINT64
 *   BOOL DOUBLE STRING ENUM NODE MESSAGE REPEATED_NODE REPEATED_MESSAGE PACKED_UINT64 ONEOF.
 */
#ifndef PGBIND_GENERATOR_CLASSIFY_H
#define PGBIND_GENERATOR_CLASSIFY_H

#include "common.h"
#include "overrides.h"

#include <jansson.h>

/* Returns the view model (a new reference) or NULL with err set. model_name names the node
 * model file in messages. */
json_t *classify(json_t *model, const char *model_name, json_t *proto, Overrides *ov, gen_Error *err);

#endif
