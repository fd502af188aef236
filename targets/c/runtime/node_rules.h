/*
 * node_rules.h -- the per-kind knowledge of libpg_query's summary (schema/summary.txt, generated
 * into targets/c/generated/pgNN/node_rules.inc.c), indexed by node tag once (raw_walk.c), for the raw
 * walker (raw_walk.c), the summary (summary.c) and its truncation (truncate.c). What each rule and
 * action means is written in schema/summary.txt's head.
 */
#ifndef PGBIND_NODE_RULES_H
#define PGBIND_NODE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbind.h"
#include "pgbind_reflect.h"

typedef enum {
	PGBIND_NR_walk,
	PGBIND_NR_walk_each,
	PGBIND_NR_walk_in_place,
	PGBIND_NR_statement,
	PGBIND_NR_statements,
	PGBIND_NR_from_item,
	PGBIND_NR_relation,
	PGBIND_NR_function,
	PGBIND_NR_ctes,
	PGBIND_NR_cte,
	PGBIND_NR_recursive,
	PGBIND_NR_filter,
	PGBIND_NR_summary,
	PGBIND_NR_truncate,
} pgbind_NodeRule;

typedef enum {
	PGBIND_NA_none,
	PGBIND_NA_unnamed,
	PGBIND_NA_stop,
	PGBIND_NA_schema,
	PGBIND_NA_name,
	PGBIND_NA_alias,
	PGBIND_NA_ctes,
	PGBIND_NA_tables_select,
	PGBIND_NA_tables_dml,
	PGBIND_NA_tables_ddl,
	PGBIND_NA_name_lists_ddl,
	PGBIND_NA_owner_name_lists_ddl,
	PGBIND_NA_renamed_ddl,
	PGBIND_NA_function_call,
	PGBIND_NA_function_ddl,
	PGBIND_NA_functions_ddl,
	PGBIND_NA_first_function_ddl,
	PGBIND_NA_renamed_function_ddl,
	PGBIND_NA_walk,
	PGBIND_NA_filter,
	PGBIND_NA_filter_column,
	PGBIND_NA_cte_scope,
	PGBIND_NA_select_targets,
	PGBIND_NA_set_targets,
	PGBIND_NA_where,
	PGBIND_NA_values,
	PGBIND_NA_insert_cols,
	PGBIND_NA_cte_query,
} pgbind_NodeAction;

/* How the summary reads the field in PostgreSQL's own node (the raw parse tree, which the summary
 * from SQL walks instead of pgbind's tree). */
typedef enum {
	PGBIND_CF_none,
	PGBIND_CF_node,   /* a Node * (or a pointer to one kind) */
	PGBIND_CF_list,   /* a List * of nodes, NIL when empty */
	PGBIND_CF_string, /* a char * */
	PGBIND_CF_bool,
	PGBIND_CF_enum, /* a C enum: the condition's cond_c_values */
} pgbind_NodeCField;

/* One line of schema/summary.txt for this major, on one field. */
typedef struct {
	uint16_t message; /* index in pgbind_message_descs */
	uint8_t rule;     /* pgbind_NodeRule */
	uint8_t action;   /* pgbind_NodeAction */
	uint8_t group;    /* the rule's place among the kind's labelled rules of that key */
	int16_t field;    /* index in the kind's fields, -1 for none */
	int16_t cond_field;
	bool cond_negate;
	int32_t cond_values[8];   /* 0-terminated */
	uint16_t c_offset;        /* the field in PostgreSQL's node: its offset */
	uint8_t c_how;            /* pgbind_NodeCField */
	uint16_t cond_c_offset;   /* the condition's field in PostgreSQL's node */
	int32_t cond_c_values[8]; /* cond_values' C values, one for each */
} pgbind_NodeRuleLine;

/* A node kind's PostgreSQL tag (T_...) and its index in pgbind_message_descs. */
typedef struct {
	int32_t tag;
	uint16_t message;
} pgbind_NodeRuleCKind;

/* What a built node's field is set to (schema/summary.txt's build_NAME:F=V). */
typedef enum {
	PGBIND_NV_end,         /* the end of a build's fields */
	PGBIND_NV_number,      /* an enum, bool or integer: number */
	PGBIND_NV_string,      /* string */
	PGBIND_NV_placeholder, /* the truncation's placeholder text */
	PGBIND_NV_part,        /* the part measured (number: 1 when the field is a list) */
	PGBIND_NV_build,       /* the node of build `number` (a list of it in a list field) */
} pgbind_NodeValue;

typedef enum {
	PGBIND_NB_none,    /* a node another build holds */
	PGBIND_NB_measure, /* the statement that measures its part */
	PGBIND_NB_mark,    /* what is written in its part's place */
} pgbind_NodeBuildRole;

typedef struct {
	int16_t field; /* index in the kind's fields; -1 ends the build */
	uint8_t how;   /* pgbind_NodeValue */
	int32_t number;
	const char *string;
} pgbind_NodeBuildSet;

/* A node the truncation builds, every field not set zero. */
typedef struct {
	uint16_t message; /* index in pgbind_message_descs */
	uint8_t role;     /* pgbind_NodeBuildRole */
	uint8_t part;     /* pgbind_NodeAction: the truncate: part of a measure or mark build */
	int32_t less;     /* a measure build: the characters of its own text */
	const pgbind_NodeBuildSet *sets;
} pgbind_NodeBuild;

/* The builds, generated into node_rules.inc.c. */
extern const pgbind_NodeBuild pgbind_node_builds[];
extern const size_t pgbind_node_build_count;

/* A kind's lines, in the file's order (NULL, 0 for a kind no line names). */
typedef struct {
	const pgbind_NodeRuleLine *const *lines;
	size_t n;
} pgbind_NodeRules;

struct pgbind_RawForm; /* raw_walk.h: the form of tree node is of */

/* The lines of node's kind. */
pgbind_NodeRules pgbind_node_rules(const struct pgbind_RawForm *form, const pgbind_Node *node);
/* Whether line l's condition holds on node. */
bool pgbind_rule_holds(const struct pgbind_RawForm *form, const pgbind_Node *node, const pgbind_NodeRuleLine *l);
/* node's kind's line (rule, action), or NULL. */
const pgbind_NodeRuleLine *pgbind_rule_line(const struct pgbind_RawForm *form, const pgbind_Node *node,
											pgbind_NodeRule rule, pgbind_NodeAction action);

/* The value of line l's field in node (l a line of node's kind; NULL l reads as absent): a string,
 * a bool (raw_walk.h: a node, a list). */
const char *pgbind_line_string(const struct pgbind_RawForm *form, const pgbind_Node *node,
							   const pgbind_NodeRuleLine *l);
bool pgbind_line_bool(const struct pgbind_RawForm *form, const pgbind_Node *node, const pgbind_NodeRuleLine *l);

/* pgbind's tree only (truncate.c writes it): line l's field descriptor, and a field's value. */
static inline const pgbind_FieldDesc *pgbind_rule_field(const pgbind_NodeRuleLine *l)
{
	return l->field < 0 ? NULL : &pgbind_message_descs[l->message].fields[l->field];
}

static inline const pgbind_Node *pgbind_field_node(const pgbind_Node *node, const pgbind_FieldDesc *f)
{
	bool one = f && (f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_MESSAGE || f->wire == PGBIND_WIRE_ONEOF);
	return one ? *(const pgbind_Node *const *)((const char *)node + f->offset) : NULL;
}

static inline pgbind_Node *const *pgbind_field_list(const pgbind_Node *node, const pgbind_FieldDesc *f, size_t *n)
{
	bool many = f && (f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE);
	*n = many ? *(const size_t *)((const char *)node + f->count_offset) : 0;
	return many ? *(pgbind_Node *const *const *)((const char *)node + f->offset) : NULL;
}

#endif
