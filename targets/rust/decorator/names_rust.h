/*
 * names_rust.h -- the Rust target's decorator (its row in generator/targets.c): what prost-build
 * and bindgen call the proto's declarations and the AST's members, added to the Rust target's copy
 * of the view model for its templates (targets/rust/templates).
 *
 * The Rust target converts to and from the message types prost-build generates from the same
 * pg_query.proto, so its templates must spell every type, field, oneof and variant exactly as
 * prost-build does. The rules (prost-build 0.11's ident.rs over heck 0.4's word splitting) are
 * written once here; a rule that disagreed with prost-build would make the generated crate fail
 * to compile, which `make check` does.
 */
#ifndef PGBIND_TARGETS_RUST_NAMES_RUST_H
#define PGBIND_TARGETS_RUST_NAMES_RUST_H

#include <jansson.h>

/* prost's name of a message, enum or oneof (UpperCamelCase): "A_Const" -> "AConst". A new string. */
char *names_prost_type(const char *proto_name);

/* prost's name of a field or module (snake_case, a raw identifier for keywords): "whereClause" ->
 * "where_clause", "override" -> "r#override". A new string. */
char *names_prost_field(const char *proto_name);

/* Adds rust_* keys to the view: messages (rust_name, rust_mod), their fields (rust_name; rust_c_name:
 * bindgen's name of the C member; rust_type: the value's type), node
 * kinds (rust_variant: the Node oneof's variant), oneofs (rust_field, rust_enum, rust_mod; rust_name for its own
 * view type) and their
 * members (rust_variant). */
void names_add_prost(json_t *view);

#endif
