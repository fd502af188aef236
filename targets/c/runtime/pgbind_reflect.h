/*
 * pgbind_reflect.h -- descriptor tables of the AST (targets/c/generated/pgNN/reflect.inc.c): for each message
 * its fields with proto numbers, wire kinds and offsets; for each enum its value names; for each
 * node tag its message. For tools that walk any tree generically (printers, diff tools). The
 * converters and the encoder do not use them: they are generated straight-line code.
 *
 * All tables are constant data: safe to read from any thread.
 */
#ifndef PGBIND_REFLECT_H
#define PGBIND_REFLECT_H

#include <stddef.h>
#include <stdint.h>

#include "pgbind.h"

/* How a field is stored in the AST and written on the wire. */
typedef enum pgbind_WireKind {
	PGBIND_WIRE_INT32,            /* int32_t */
	PGBIND_WIRE_UINT32,           /* uint32_t */
	PGBIND_WIRE_INT64,            /* int64_t */
	PGBIND_WIRE_UINT64,           /* uint64_t */
	PGBIND_WIRE_BOOL,             /* bool */
	PGBIND_WIRE_DOUBLE,           /* double */
	PGBIND_WIRE_STRING,           /* const char *; NULL = unset (the value nodes' strings: never NULL) */
	PGBIND_WIRE_ENUM,             /* a generated enum (int); type_index: pgbind_enum_descs */
	PGBIND_WIRE_NODE,             /* pgbind_Node * */
	PGBIND_WIRE_MESSAGE,          /* pointer to a message struct; type_index: pgbind_message_descs */
	PGBIND_WIRE_REPEATED_NODE,    /* size_t n + pgbind_Node ** (NULL elements allowed) */
	PGBIND_WIRE_REPEATED_MESSAGE, /* size_t n + message ** ; type_index: pgbind_message_descs */
	PGBIND_WIRE_PACKED_UINT64,    /* size_t n + uint64_t * */
	PGBIND_WIRE_ONEOF,            /* pgbind_Node * whose tag picks the member; type_index: pgbind_oneof_descs */
} pgbind_WireKind;

/* pgbind_FieldDesc.flags */
#define PGBIND_FIELD_EMPTY_IS_NULL \
	0x1 /* a char * field: libpg_query's protocol cannot tell "" from NULL, and its reader makes both NULL */
#define PGBIND_FIELD_CHAR \
	0x2 /* a string field that is one C char in PostgreSQL's node: libpg_query's reader keeps its first byte */

typedef struct pgbind_FieldDesc {
	const char *name;       /* the AST member name (PostgreSQL's C field name) */
	const char *proto_name; /* the proto field name */
	uint32_t number;        /* proto field number (a oneof: its lowest member's) */
	pgbind_WireKind wire;
	uint32_t offset;       /* offsetof the member */
	uint32_t count_offset; /* offsetof n_<member> for repeated kinds, else 0 */
	int32_t type_index;    /* see pgbind_WireKind; -1 when unused */
	uint32_t flags;        /* PGBIND_FIELD_* */
} pgbind_FieldDesc;

typedef struct pgbind_MessageDesc {
	const char *name;
	uint32_t tag; /* its pgbind_NodeTag, 0 for messages that are not nodes */
	uint32_t size;
	uint32_t n_fields;
	const pgbind_FieldDesc *fields; /* in proto declaration order */
} pgbind_MessageDesc;

typedef struct pgbind_EnumValueDesc {
	const char *name;
	int32_t number;
} pgbind_EnumValueDesc;

typedef struct pgbind_EnumDesc {
	const char *name;
	uint32_t n_values;
	const pgbind_EnumValueDesc *values;
} pgbind_EnumDesc;

typedef struct pgbind_OneofMemberDesc {
	const char *name;
	uint32_t number;
	int32_t message_index;
} pgbind_OneofMemberDesc;

typedef struct pgbind_OneofDesc {
	const char *message;
	const char *name;
	uint32_t n_members;
	const pgbind_OneofMemberDesc *members;
} pgbind_OneofDesc;

extern PGBIND_API const pgbind_MessageDesc pgbind_message_descs[PGBIND_MESSAGE_COUNT];
extern PGBIND_API const pgbind_EnumDesc pgbind_enum_descs[PGBIND_ENUM_COUNT];
extern PGBIND_API const pgbind_OneofDesc pgbind_oneof_descs[];

/* The message descriptor of a node tag, or NULL when tag is not a node kind. */
PGBIND_API const pgbind_MessageDesc *pgbind_node_desc(uint32_t tag);

/* The message descriptor with this name, or NULL. */
PGBIND_API const pgbind_MessageDesc *pgbind_message_desc_by_name(const char *name);

/* The name of value `number` of enum `enum_index`, or NULL when it has none. */
PGBIND_API const char *pgbind_enum_value_name(int32_t enum_index, int32_t number);

/*
 * Names the field at byte `offset` of a protobuf ParseResult (data, len), e.g.
 * "ParseResult.stmts[0].stmt.SelectStmt.targetList[1].ResTarget.val", into out (NUL-terminated, truncated to
 * size). For reporting where two encodings first differ. Stops with "?" where the bytes are not
 * a valid encoding.
 */
PGBIND_API void pgbind_wire_path(const uint8_t *data, size_t len, size_t offset, char *out, size_t size);

#endif
