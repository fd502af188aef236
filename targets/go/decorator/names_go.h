/*
 * names_go.h -- what protoc-gen-go and cgo call the proto's declarations and the AST's members,
 * added to the view model for the Go target's templates (targets/go/templates).
 *
 * The Go target converts to and from the message types protoc-gen-go generates from the same
 * pg_query.proto, in the same package, so its templates must spell every type, field, oneof
 * wrapper and enum as protoc-gen-go 1.28 does (protogen's GoCamelCase and its name-conflict
 * rules), and every C member as cgo does (a Go keyword gets a leading '_'). A rule that disagreed
 * would make the generated package fail to compile, which `make check` does.
 */
#ifndef PGBIND_TARGETS_GO_NAMES_GO_H
#define PGBIND_TARGETS_GO_NAMES_GO_H

#include "common.h"

#include <jansson.h>
#include <stdbool.h>

/* protoc-gen-go's GoCamelCase: "A_Const" -> "A_Const", "where_clause" -> "WhereClause",
 * "a_expr" -> "AExpr". A new string. */
char *names_go_camel(const char *proto_name);

/* name is a Go keyword (cgo prefixes such a C member with '_'; it cannot name a parameter). */
bool names_go_is_keyword(const char *name);

/*
 * The Go target's names (its decorator in generator/targets.c calls this, then makes_go_add,
 * makes_go.h): adds go_* keys to its copy of the view: messages (go_name), their fields (go_name:
 * the Go struct field, the oneof's field for a oneof; go_message: the Go type the field is in;
 * go_c_name: cgo's name of the C member; go_type: the Go type of the value; go_c_type: the C type
 * a scalar or enum is cast to; go_rand: the property test's random-value function of a scalar;
 * one go_kind_* flag true per wire kind: scalar, string, node, message, rep_node, rep_message,
 * packed, oneof), node kinds (go_name, go_wrapper: Node's oneof wrapper type, go_field: its
 * field), go_node_field (the field of Node holding the wrapper), oneofs (go_field, go_iface: the
 * unexported interface protoc-gen-go declares) and their members (go_wrapper, go_field, go_type,
 * go_node_field: NodeView's accessor of the member's kind) and enums (go_name);
 * docs/view-model.md lists them. A wire kind it does not know stops the generator.
 */
bool names_add_go(json_t *view, gen_Error *err);

#endif
