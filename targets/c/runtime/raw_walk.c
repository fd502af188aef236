/*
 * raw_walk.c -- PostgreSQL's raw_expression_tree_walker over either form of a parse tree (raw_walk.h),
 * pgbind's or PostgreSQL's own, and the per-kind rules of libpg_query's summary (node_rules.h) it
 * and summary.c and truncate.c read. What it walks is PostgreSQL's knowledge, not pgbind's model:
 * it is data, schema/summary.txt's walk: lines (from nodeFuncs.c and libpg_query's
 * pg_query_raw_tree_walker_supports()), checked against the major's model by pgbind-gen and
 * generated into node_rules.inc.c, each line with its field's place in both forms (an index into
 * the descriptor tables, pgbind_reflect.h, and PostgreSQL's offsetof), indexed by node tag once
 * here, for each form: a form is a table from its tags to the kinds' rules, shared by both. The
 * nodes named here are the value nodes, List and RawStmt, the ones every form reads alike.
 * Depends on PostgreSQL's node headers (pg_headers.h) for the generated offsets and tags.
 */
#include "pg_headers.h"

#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "raw_walk.h"

#include "node_rules.inc.c"

/* PostgreSQL's node tags are below this (18 has about 470); a larger one stops the form. */
#define C_TAG_LIMIT 1024

/* raw_walk.h reads PostgreSQL's Lists through a struct of its own */
_Static_assert(offsetof(pgbind_RawPgList, length) == offsetof(List, length), "List.length moved");
_Static_assert(offsetof(pgbind_RawPgList, elements) == offsetof(List, elements), "List.elements moved");
_Static_assert(sizeof(ListCell) == sizeof(void *) && offsetof(ListCell, ptr_value) == 0, "ListCell changed");
/* ... and every node's tag as the int it begins with */
_Static_assert(offsetof(Node, type) == 0 && sizeof(NodeTag) == sizeof(uint32_t), "Node.type changed");
_Static_assert(offsetof(pgbind_Node, tag) == 0 && sizeof(((pgbind_Node *)0)->tag) == sizeof(uint32_t),
			   "pgbind_Node.tag changed");

const pgbind_RawKind pgbind_raw_no_kind;
static pgbind_RawKind kind_rules[PGBIND_NODE_TAG_LIMIT];
static const pgbind_RawKind *ast_kinds[PGBIND_NODE_TAG_LIMIT], *pg_kinds[C_TAG_LIMIT];
#define N_LINES (sizeof pgbind_node_rule_lines / sizeof pgbind_node_rule_lines[0])
static const pgbind_NodeRuleLine *line_slots[N_LINES], *act_slots[N_LINES];
static pthread_once_t kind_rules_once = PTHREAD_ONCE_INIT;
static bool pg_form_ok;

static const pgbind_RawForm forms[2] = {
	{false, ast_kinds, PGBIND_NODE_TAG_LIMIT, PGBIND_T_List, PGBIND_T_String, PGBIND_T_A_Star, PGBIND_T_RawStmt},
	{true, pg_kinds, C_TAG_LIMIT, T_List, T_String, T_A_Star, T_RawStmt},
};

static pgbind_RawKind *kind_of(const pgbind_NodeRuleLine *l)
{
	uint32_t tag = pgbind_message_descs[l->message].tag;
	return tag && tag < PGBIND_NODE_TAG_LIMIT ? &kind_rules[tag] : NULL;
}

/* Line l's field, as the walker reads it in each form. */
static pgbind_RawField walked_field(const pgbind_NodeRuleLine *l)
{
	const pgbind_FieldDesc *f = pgbind_rule_field(l);
	bool list = f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE;
	bool node = f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_MESSAGE || f->wire == PGBIND_WIRE_ONEOF;
	return (pgbind_RawField){f->offset, f->count_offset, l->c_offset, l->c_how, list, node, false};
}

static bool is_act(const pgbind_NodeRuleLine *l)
{
	return l->rule == PGBIND_NR_summary || l->rule == PGBIND_NR_recursive;
}

/* The walker's fields of each kind, and each kind's lines, from the generated lines; then each
 * form's table of tags. */
static void resolve_all(void)
{
	size_t used = 0, used_acts = 0;
	for (size_t i = 0; i < pgbind_node_rule_count; i++) {
		const pgbind_NodeRuleLine *l = &pgbind_node_rule_lines[i];
		pgbind_RawKind *k = kind_of(l);
		if (!k)
			continue;
		k->n_lines++;
		k->n_acts += is_act(l);
		switch (l->rule) {
		case PGBIND_NR_walk:
		case PGBIND_NR_walk_in_place:
			k->walked = l->rule == PGBIND_NR_walk;
			k->through = l->rule == PGBIND_NR_walk_in_place;
			if (l->field >= 0 && k->n < PGBIND_RAW_MAX_FIELDS)
				k->fields[k->n++] = walked_field(l);
			break;
		case PGBIND_NR_walk_each:
			for (uint8_t f = 0; f < k->n; f++)
				k->fields[f].through |= k->fields[f].offset == pgbind_rule_field(l)->offset;
			break;
		case PGBIND_NR_statements:
			k->statements = l;
			break;
		case PGBIND_NR_filter:
			k->filter_stop = true;
			break;
		default:
			break;
		}
	}
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		kind_rules[tag].lines = line_slots + used;
		used += kind_rules[tag].n_lines;
		kind_rules[tag].n_lines = 0;
		kind_rules[tag].acts = act_slots + used_acts;
		used_acts += kind_rules[tag].n_acts;
		kind_rules[tag].n_acts = 0;
	}
	for (size_t i = 0; i < pgbind_node_rule_count; i++) {
		const pgbind_NodeRuleLine *l = &pgbind_node_rule_lines[i];
		pgbind_RawKind *k = kind_of(l);
		if (k)
			k->lines[k->n_lines++] = l;
		if (k && is_act(l))
			k->acts[k->n_acts++] = l;
	}
	kind_rules[PGBIND_T_List].walked = true;
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(tag);
		size_t len = d ? strlen(d->name) : 0;
		bool stmt = len > 4 && !strcmp(d->name + len - 4, "Stmt");
		for (size_t i = 0; stmt && i < kind_rules[tag].n_lines; i++)
			stmt = kind_rules[tag].lines[i]->rule != PGBIND_NR_statement;
		kind_rules[tag].statement = stmt;
		kind_rules[tag].name = d ? d->name : NULL;
		ast_kinds[tag] = d ? &kind_rules[tag] : NULL;
	}
	pg_form_ok = true;
	for (size_t i = 0; i < pgbind_node_rule_c_kind_count; i++) {
		const pgbind_NodeRuleCKind *c = &pgbind_node_rule_c_kinds[i];
		uint32_t tag = pgbind_message_descs[c->message].tag;
		if (c->tag <= 0 || c->tag >= C_TAG_LIMIT || !tag || tag >= PGBIND_NODE_TAG_LIMIT)
			pg_form_ok = false;
		else
			pg_kinds[c->tag] = &kind_rules[tag];
	}
}

const pgbind_RawForm *pgbind_raw_form(bool postgres)
{
	pthread_once(&kind_rules_once, resolve_all);
	return postgres && !pg_form_ok ? NULL : &forms[postgres];
}

/* ---- Fields, by line ------------------------------------------------------------------------------ */

const char *pgbind_line_string(const pgbind_RawForm *form, const pgbind_Node *node, const pgbind_NodeRuleLine *l)
{
	if (!l)
		return NULL;
	if (form->pg)
		return l->c_how == PGBIND_CF_string ? *(const char *const *)((const char *)node + l->c_offset) : NULL;
	const pgbind_FieldDesc *f = pgbind_rule_field(l);
	return f && f->wire == PGBIND_WIRE_STRING ? *(const char *const *)((const char *)node + f->offset) : NULL;
}

bool pgbind_line_bool(const pgbind_RawForm *form, const pgbind_Node *node, const pgbind_NodeRuleLine *l)
{
	if (!l)
		return false;
	if (form->pg)
		return l->c_how == PGBIND_CF_bool && *(const bool *)((const char *)node + l->c_offset);
	const pgbind_FieldDesc *f = pgbind_rule_field(l);
	return f && f->wire == PGBIND_WIRE_BOOL && *(const bool *)((const char *)node + f->offset);
}

bool pgbind_rule_holds(const pgbind_RawForm *form, const pgbind_Node *node, const pgbind_NodeRuleLine *l)
{
	if (l->cond_field < 0)
		return true;
	const pgbind_FieldDesc *f = &pgbind_message_descs[l->message].fields[l->cond_field];
	/* a generated enum in pgbind's node, a C enum in PostgreSQL's */
	int value = *(const int *)((const char *)node + (form->pg ? l->cond_c_offset : f->offset));
	const int32_t *values = form->pg ? l->cond_c_values : l->cond_values;
	bool hit = false;
	for (size_t i = 0; l->cond_values[i] && !hit; i++) /* cond_values: the count of both */
		hit = values[i] == value;
	return hit != l->cond_negate;
}

pgbind_NodeRules pgbind_node_rules(const pgbind_RawForm *form, const pgbind_Node *node)
{
	const pgbind_RawKind *k = node ? pgbind_raw_kind(form, node) : &pgbind_raw_no_kind;
	return (pgbind_NodeRules){k->lines, k->n_lines};
}

const pgbind_NodeRuleLine *pgbind_rule_line(const pgbind_RawForm *form, const pgbind_Node *node, pgbind_NodeRule rule,
											pgbind_NodeAction action)
{
	const pgbind_RawKind *k = node ? pgbind_raw_kind(form, node) : &pgbind_raw_no_kind;
	for (size_t i = 0; i < k->n_lines; i++)
		if (k->lines[i]->rule == rule && k->lines[i]->action == action)
			return k->lines[i];
	return NULL;
}

/* ---- The nodes every form reads alike -------------------------------------------------------------- */

const char *pgbind_raw_sval(const pgbind_RawForm *form, const pgbind_Node *node)
{
	if (!node || pgbind_raw_tag(form, node) != form->string_tag)
		return NULL;
	return form->pg ? ((const String *)node)->sval : ((const pgbind_String *)node)->sval;
}

bool pgbind_raw_is_a_star(const pgbind_RawForm *form, const pgbind_Node *node)
{
	return node && pgbind_raw_tag(form, node) == form->a_star_tag;
}

const pgbind_Node *pgbind_raw_root_stmt(const pgbind_RawForm *form, const pgbind_Node *node)
{
	if (!node || pgbind_raw_tag(form, node) != form->raw_stmt_tag)
		return NULL;
	return form->pg ? (const pgbind_Node *)((const RawStmt *)node)->stmt : ((const pgbind_RawStmt *)node)->stmt;
}
