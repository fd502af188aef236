/*
 * raw_walk.c -- PostgreSQL's raw_expression_tree_walker over pgbind trees (raw_walk.h), and the
 * per-kind rules of libpg_query's summary (node_rules.h) it and summary.c and truncate.c read.
 * What it walks is PostgreSQL's knowledge, not pgbind's model: it is data, schema/summary.txt's
 * walk: lines (from nodeFuncs.c and libpg_query's pg_query_raw_tree_walker_supports()), checked
 * against the major's model by pgbind-gen and generated into node_rules.inc.c as indices into the
 * descriptor tables (pgbind_reflect.h), indexed by node tag once here.
 */
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "node_rules.h"
#include "raw_walk.h"

#include "node_rules.inc.c"

#define MAX_RAW_FIELDS 16

typedef struct {
	bool walked;  /* a kind the walker knows (it descends into it) */
	bool through; /* a kind walked in place of itself (CaseWhen) */
	bool statement;
	uint8_t n;
	const pgbind_FieldDesc *fields[MAX_RAW_FIELDS];
	bool field_through[MAX_RAW_FIELDS];
	const pgbind_NodeRuleLine **lines; /* every line of the kind, in the file's order */
	size_t n_lines;
} KindRule;

static KindRule kind_rules[PGBIND_NODE_TAG_LIMIT];
static const pgbind_NodeRuleLine *line_slots[sizeof pgbind_node_rule_lines / sizeof pgbind_node_rule_lines[0]];
static pthread_once_t kind_rules_once = PTHREAD_ONCE_INIT;

static KindRule *kind_of(const pgbind_NodeRuleLine *l)
{
	uint32_t tag = pgbind_message_descs[l->message].tag;
	return tag && tag < PGBIND_NODE_TAG_LIMIT ? &kind_rules[tag] : NULL;
}

const pgbind_FieldDesc *pgbind_rule_field(const pgbind_NodeRuleLine *l)
{
	return l->field < 0 ? NULL : &pgbind_message_descs[l->message].fields[l->field];
}

/* The walker's fields of each kind, and each kind's lines, from the generated lines. */
static void resolve_all(void)
{
	size_t used = 0;
	for (size_t i = 0; i < pgbind_node_rule_count; i++) {
		const pgbind_NodeRuleLine *l = &pgbind_node_rule_lines[i];
		KindRule *k = kind_of(l);
		if (!k)
			continue;
		k->n_lines++;
		switch (l->rule) {
		case PGBIND_NR_walk:
		case PGBIND_NR_walk_in_place:
			k->walked = l->rule == PGBIND_NR_walk;
			k->through = l->rule == PGBIND_NR_walk_in_place;
			if (l->field >= 0 && k->n < MAX_RAW_FIELDS)
				k->fields[k->n++] = pgbind_rule_field(l);
			break;
		case PGBIND_NR_walk_each:
			for (uint8_t f = 0; f < k->n; f++)
				k->field_through[f] = k->field_through[f] || k->fields[f] == pgbind_rule_field(l);
			break;
		default:
			break;
		}
	}
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		kind_rules[tag].lines = line_slots + used;
		used += kind_rules[tag].n_lines;
		kind_rules[tag].n_lines = 0;
	}
	for (size_t i = 0; i < pgbind_node_rule_count; i++) {
		KindRule *k = kind_of(&pgbind_node_rule_lines[i]);
		if (k)
			k->lines[k->n_lines++] = &pgbind_node_rule_lines[i];
	}
	kind_rules[PGBIND_T_List].walked = true;
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(tag);
		size_t len = d ? strlen(d->name) : 0;
		bool stmt = len > 4 && !strcmp(d->name + len - 4, "Stmt");
		for (size_t i = 0; stmt && i < kind_rules[tag].n_lines; i++)
			stmt = kind_rules[tag].lines[i]->rule != PGBIND_NR_statement;
		kind_rules[tag].statement = stmt;
	}
}

static const KindRule *rule_of(const pgbind_Node *n)
{
	static const KindRule none;
	return n->tag > 0 && n->tag < PGBIND_NODE_TAG_LIMIT ? &kind_rules[n->tag] : &none;
}

bool pgbind_raw_offer(const pgbind_Node *n, pgbind_RawFn fn, void *ctx)
{
	return n && fn((pgbind_RawItem){n, NULL, 0}, ctx);
}

static bool raw_fields(const pgbind_Node *node, const KindRule *k, pgbind_RawFn fn, void *ctx);

/* raw_expression_tree_walker: fn on each child of item the walker visits; true when fn stopped it. */
bool pgbind_raw_children(pgbind_RawItem item, pgbind_RawFn fn, void *ctx)
{
	pthread_once(&kind_rules_once, resolve_all);
	if (item.node && item.node->tag == PGBIND_T_List) {
		const pgbind_List *l = (const pgbind_List *)item.node;
		item = (pgbind_RawItem){NULL, l->items, l->n_items};
	}
	if (!item.node) {
		for (size_t i = 0; i < item.n; i++)
			if (pgbind_raw_offer(item.items[i], fn, ctx))
				return true;
		return false;
	}
	return raw_fields(item.node, rule_of(item.node), fn, ctx);
}

static bool raw_fields(const pgbind_Node *node, const KindRule *k, pgbind_RawFn fn, void *ctx)
{
	const char *base = (const char *)node;
	for (uint8_t i = 0; i < k->n; i++) {
		const pgbind_FieldDesc *f = k->fields[i];
		const void *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_MESSAGE:
		case PGBIND_WIRE_ONEOF:
			if (pgbind_raw_offer(*(const pgbind_Node *const *)p, fn, ctx))
				return true;
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			pgbind_Node *const *items = *(pgbind_Node *const *const *)p;
			if (!n)
				break; /* NIL: the walker offers NULL, which no callback looks at */
			if (!k->field_through[i]) {
				if (fn((pgbind_RawItem){NULL, items, n}, ctx))
					return true;
				break;
			}
			for (size_t j = 0; j < n; j++)
				if (items[j] && raw_fields(items[j], rule_of(items[j]), fn, ctx))
					return true;
			break;
		}
		default:
			break;
		}
	}
	return false;
}

bool pgbind_raw_walked(pgbind_RawItem item)
{
	pthread_once(&kind_rules_once, resolve_all);
	return !item.node || rule_of(item.node)->walked;
}

bool pgbind_raw_is_statement(const pgbind_Node *node)
{
	pthread_once(&kind_rules_once, resolve_all);
	return rule_of(node)->statement;
}

pgbind_NodeRules pgbind_node_rules(const pgbind_Node *node)
{
	pthread_once(&kind_rules_once, resolve_all);
	const KindRule *k = node ? rule_of(node) : NULL;
	return k ? (pgbind_NodeRules){k->lines, k->n_lines} : (pgbind_NodeRules){NULL, 0};
}

const pgbind_Node *pgbind_field_node(const pgbind_Node *node, const pgbind_FieldDesc *f)
{
	bool one = f && (f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_MESSAGE || f->wire == PGBIND_WIRE_ONEOF);
	return one ? *(const pgbind_Node *const *)((const char *)node + f->offset) : NULL;
}

pgbind_Node *const *pgbind_field_list(const pgbind_Node *node, const pgbind_FieldDesc *f, size_t *n)
{
	bool many = f && (f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE);
	*n = many ? *(const size_t *)((const char *)node + f->count_offset) : 0;
	return many ? *(pgbind_Node *const *const *)((const char *)node + f->offset) : NULL;
}

const char *pgbind_field_string(const pgbind_Node *node, const pgbind_FieldDesc *f)
{
	return f && f->wire == PGBIND_WIRE_STRING ? *(const char *const *)((const char *)node + f->offset) : NULL;
}

bool pgbind_field_bool(const pgbind_Node *node, const pgbind_FieldDesc *f)
{
	return f && f->wire == PGBIND_WIRE_BOOL && *(const bool *)((const char *)node + f->offset);
}

bool pgbind_rule_holds(const pgbind_Node *node, const pgbind_NodeRuleLine *l)
{
	if (l->cond_field < 0)
		return true;
	const pgbind_FieldDesc *f = &pgbind_message_descs[l->message].fields[l->cond_field];
	int value = *(const int *)((const char *)node + f->offset); /* a generated enum */
	bool hit = false;
	for (size_t i = 0; l->cond_values[i] && !hit; i++)
		hit = l->cond_values[i] == value;
	return hit != l->cond_negate;
}

static const pgbind_NodeRuleLine *rule_line(const pgbind_Node *node, pgbind_NodeRule rule, pgbind_NodeAction action)
{
	pgbind_NodeRules r = pgbind_node_rules(node);
	for (size_t i = 0; i < r.n; i++)
		if (r.lines[i]->rule == rule && r.lines[i]->action == action)
			return r.lines[i];
	return NULL;
}

bool pgbind_rule_has(const pgbind_Node *node, pgbind_NodeRule rule, pgbind_NodeAction action)
{
	return rule_line(node, rule, action) != NULL;
}

const pgbind_FieldDesc *pgbind_rule_find(const pgbind_Node *node, pgbind_NodeRule rule, pgbind_NodeAction action)
{
	const pgbind_NodeRuleLine *l = rule_line(node, rule, action);
	return l ? pgbind_rule_field(l) : NULL;
}
