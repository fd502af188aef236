/*
 * convert_table.h -- the shape of the tables generator/convert.c writes into
 * targets/c/generated/convert/pg15_pg18.c and pg17_pg18.c (a transcoder per direction between two PostgreSQL
 * majors' pg_query.proto), which targets/c/runtime/convert.c interprets. Internal: the public
 * entry points are in pgbind_convert.h. docs/convert.md describes the semantics.
 *
 * A direction has one input-message descriptor per message of its input proto reachable from
 * ParseResult. Each lists its input fields (the proto's, then "pseudo" fields: the fields of an
 * inlined sub-message, see CV_IN_INLINE) and the plan that writes the output message: one entry
 * per output field that can be written, in the output proto's declaration order (the order
 * libpg_query's protobuf-c writes fields in).
 */
#ifndef PGBIND_CONVERT_TABLE_H
#define PGBIND_CONVERT_TABLE_H

#include <stdint.h>

/* Protobuf wire types. */
enum { CV_WIRE_VARINT = 0, CV_WIRE_I64 = 1, CV_WIRE_LEN = 2, CV_WIRE_I32 = 5 };

/* Input field flags. */
enum {
	CV_IN_REPEATED = 1, /* may occur more than once (packed or not, for scalars) */
	CV_IN_DROP = 2,     /* declared: its value is dropped (no error when set) */
	CV_IN_INLINE = 4,   /* a sub-message whose fields are read as this message's pseudo fields base.. */
	CV_IN_NODE = 8,     /* a field of the Node oneof: the error path names its type, not the field */
};

typedef struct {
	const char *name; /* the field's name (a pseudo field: its path, "returning_clause.exprs") */
	uint32_t number;  /* its number in its own message (a pseudo field: in the inlined message) */
	uint8_t wire;     /* the wire type the proto gives it */
	uint8_t flags;    /* CV_IN_* */
	int16_t sub;      /* a message-typed field: the input-message index of its type; else -1 */
	int16_t base;     /* CV_IN_INLINE: the index of the first of its pseudo fields in this message */
	int16_t parent;   /* a pseudo field: the index of the inlined field it is read from; else -1 */
} cv_InField;

/* Plan operations. */
enum {
	CV_OP_COPY,          /* the source's occurrences as they are, renumbered */
	CV_OP_MSG,           /* each occurrence transcoded as the input message arg */
	CV_OP_ENUM,          /* each occurrence's value through enum map arg */
	CV_OP_VALUE,         /* the source's value (absent: its default) through value map arg */
	CV_OP_SYNTH,         /* a sub-message written by plan arg from this same input message */
	CV_OP_CONST,         /* the constant arg (ParseResult.version) */
	CV_OP_DEFAULT,       /* up: default arg's value, written when its condition holds */
	CV_OP_DEFAULT_CHECK, /* down: src must hold default arg's value for its condition (or 0 when it does
							not hold); nothing is written */
	CV_OP_OPTION_UP,     /* up: src, an older bool, true: option arg's DefElem as this list's one element */
	CV_OP_OPTION_DOWN,   /* down: this older bool is true when the list src holds option arg's DefElem alone */
};

/* Plan entry flags. */
enum {
	CV_OUT_ALWAYS = 1,       /* CV_OP_SYNTH: written even when empty (else left out when empty) */
	CV_OUT_NEEDS_PARENT = 2, /* the source is a pseudo field whose inlined field must be present */
};

typedef struct {
	const char *name; /* the output field's name */
	uint32_t number;  /* its number in the output proto */
	uint8_t op;       /* CV_OP_* */
	uint8_t wire;     /* the output wire type */
	uint8_t flags;    /* CV_OUT_* */
	int16_t src;      /* the input field it reads (an index into the message's cv_InField), or -1 */
	int32_t arg;      /* the input message, enum map, value map, plan or constant, by op */
} cv_OutField;

typedef struct {
	const cv_OutField *fields;
	uint16_t n_fields;
} cv_Plan;

/* Input message flags. */
enum {
	CV_MSG_NO_FORM = 1, /* the output proto has no form of it (only this major has it, or declared unset) */
	CV_MSG_STREAM = 2,  /* every plan entry reads one input field of its own, in input order: written as read */
};

typedef struct {
	const char *name;
	const cv_InField *fields; /* the proto's fields in declaration order, then the pseudo fields */
	uint16_t n_fields;        /* all of them */
	uint16_t n_proto;         /* the proto's own (the first n_proto) */
	const int16_t *by_number; /* field number -> index into fields (-1: none), for 0..max_number */
	uint32_t max_number;
	int32_t plan;          /* the plan writing its output form, or -1 (CV_MSG_NO_FORM) */
	const int16_t *out_of; /* CV_MSG_STREAM: input field -> its plan entry, or -1 */
	uint8_t flags;         /* CV_MSG_* */
} cv_Message;

/* An enum's values, input number -> output number (-1: no form in the output). */
typedef struct {
	const char *name;
	const int32_t *to;
	uint32_t n;
} cv_EnumMap;

/* A declared value-to-value map (schema/majors.txt map:): the input's value, the output's. A
 * string is compared as bytes; a varint (bool, integer, enum) by number. */
typedef struct {
	const char *in_str; /* NULL: the input is a varint */
	uint64_t in_num;
	const char *out_str; /* NULL: the output is a varint */
	uint64_t out_num;
} cv_ValuePair;

typedef struct {
	const char *name; /* "PartitionSpec.strategy" */
	const cv_ValuePair *pairs;
	uint32_t n;
	uint8_t in_is_str, out_is_str;
} cv_ValueMap;

/* A declared default of a field only the newer major has (schema/majors.txt default:, if:): the
 * value the newer parser gives where the older tree has no sign of it, when the condition field
 * (an input field of the same message) holds one of cond_values (in the input's numbering; a
 * string's value is its length, so {0} is "absent"). */
typedef struct {
	const char *name; /* "Constraint.is_enforced" */
	int16_t cond;     /* the condition's input field, or -1: always */
	const uint64_t *cond_values;
	uint32_t n_cond;
	const char *str; /* a string default, or NULL */
	uint64_t num;    /* a varint default (bool, integer, enum in the newer major's numbering) */
} cv_Default;

/* A declared option (schema/majors.txt option:LIST=NAME arg:VALUE on an older bool): the newer major
 * says it as one DefElem NAME (a Boolean argument, DEFELEM_UNSPEC) in its list LIST. The bytes are
 * the generator's, from the newer proto's field numbers; [0] with the Boolean false, [1] true.
 * Up: the older bool true writes up[VALUE] (a Node: its DefElem's location -1, the older tree has
 * none), false nothing. Down: a list holding exactly one Node, field node_field, a DefElem whose
 * fields other than the ignored ones (its locations) are down[VALUE]'s, each once, is true; an
 * absent list false; anything else in the list has no form. */
typedef struct {
	const char *name; /* "GrantRoleStmt.admin_opt" */
	int16_t value;    /* the input field holding the Boolean's value (a bool both majors have), or -1 */
	uint8_t constant; /* the Boolean's value when value is -1 */
	const uint8_t *up[2];
	uint32_t up_len[2];
	uint32_t node_field;    /* the Node field holding a DefElem */
	uint32_t location;      /* the DefElem's location (up: -1; down: among the ignored) */
	const uint8_t *down[2]; /* the DefElem's fields, the ignored ones left out */
	uint32_t down_len[2];
	const uint32_t *ignore; /* DefElem field numbers read as anything: its location, its down:drop fields */
	uint32_t n_ignore;
} cv_Option;

typedef struct cv_Table {
	int from_major, to_major;
	int32_t to_version_num; /* the output's PG_VERSION_NUM (ParseResult.version) */
	const cv_Message *messages;
	uint32_t n_messages;
	int32_t root; /* ParseResult */
	const cv_Plan *plans;
	const cv_EnumMap *enums;
	const cv_ValueMap *values;
	const cv_Default *defaults;
	const cv_Option *options;
} cv_Table;

#endif
