/*
 * node_rules.c -- reads schema/summary.txt (its format: that file's head; the line syntax:
 * overrides.h) and checks it against one major's view model (classify.c's messages[] and
 * enums[]): each kind-level key names fields of that kind, each action and part one this file
 * knows, each if:/unless: an enum field and its values. The result is the view's `node_rules`, one
 * flat line per (kind, rule, field, action), in the file's order within a kind, which a target's
 * template renders (targets/c/templates/node_rules.inc.c.tmpl). Target-neutral. Entry point:
 * node_rules_add.
 */
#include "node_rules.h"

#include "overrides.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kind-level key: its rule, whether its value is FIELD=ACTION pairs (else fields, or `none`),
 * the actions it allows (NULL: none), and whether it may be labelled (key_LABEL). */
typedef struct {
	const char *key;
	bool pairs, labelled;
	const char *const *actions;
} KeyDesc;

static const char *const summary_actions[] = {"ctes",
											  "tables_select",
											  "tables_dml",
											  "tables_ddl",
											  "name_lists_ddl",
											  "owner_name_lists_ddl",
											  "renamed_ddl",
											  "function_call",
											  "function_ddl",
											  "functions_ddl",
											  "first_function_ddl",
											  "renamed_function_ddl",
											  "walk",
											  "filter",
											  "filter_column",
											  "cte_scope",
											  NULL};
static const char *const truncate_parts[] = {"select_targets", "set_targets", "where", "values",
											 "insert_cols",    "cte_query",   NULL};
static const char *const relation_roles[] = {"schema", "name", "alias", NULL};

static const KeyDesc keys[] = {
	{"walk", false, false, NULL},
	{"walk_each", false, false, NULL},
	{"walk_in_place", false, false, NULL},
	{"statements", false, false, NULL},
	{"from_item", false, false, NULL},
	{"relation", true, false, relation_roles},
	{"function", false, false, NULL},
	{"ctes", false, false, NULL},
	{"cte", false, false, NULL},
	{"recursive", false, false, NULL},
	{"summary", true, true, summary_actions},
	{"truncate", true, false, truncate_parts},
};

typedef struct {
	json_t *view, *lines;
	Overrides *ov;
	gen_Error *err;
	const char *path;
} Ctx;

static json_t *field_named(json_t *msg, const char *name, size_t len, int *index)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(msg, "fields"), i, f)
	{
		const char *n = json_string_value(json_object_get(f, "name"));
		if (strlen(n) == len && !strncmp(n, name, len)) {
			*index = (int)i;
			return f;
		}
	}
	return NULL;
}

static bool holds_nodes(json_t *f)
{
	const char *w = json_string_value(json_object_get(f, "wire"));
	return !strcmp(w, "NODE") || !strcmp(w, "MESSAGE") || !strcmp(w, "ONEOF") || !strcmp(w, "REPEATED_NODE") ||
		   !strcmp(w, "REPEATED_MESSAGE");
}

static bool known(const char *const *list, const char *s, size_t len)
{
	for (; list && *list; list++)
		if (strlen(*list) == len && !strncmp(*list, s, len))
			return true;
	return false;
}

static json_t *enum_named(json_t *view, const char *name)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(view, "enums"), i, e)
	{
		if (!strcmp(json_string_value(json_object_get(e, "name")), name))
			return e;
	}
	return NULL;
}

/* if:/unless: F=V|V... on msg: the field's index and the values' numbers into line. */
static bool add_condition(Ctx *c, json_t *msg, const char *target, const char *key, const char *value, bool negate,
						  json_t *cond)
{
	const char *eq = strchr(value, '=');
	int index;
	json_t *f = eq ? field_named(msg, value, (size_t)(eq - value), &index) : NULL;
	if (!f || strcmp(json_string_value(json_object_get(f, "wire")), "ENUM"))
		return overrides_fail(c->ov, c->err, target, key,
							  "%s %s:%s: expected FIELD=VALUE|VALUE..., FIELD an enum field of %s", target, key, value,
							  target);
	json_t *e = enum_named(c->view, json_string_value(json_object_get(f, "type")));
	json_t *numbers = json_array(), *names = json_array();
	for (const char *v = eq + 1; *v;) {
		size_t len = strcspn(v, "|");
		size_t i;
		json_t *ev, *hit = NULL;
		json_array_foreach(json_object_get(e, "values"), i, ev)
		{
			const char *n = json_string_value(json_object_get(ev, "name"));
			if (strlen(n) == len && !strncmp(n, v, len))
				hit = ev;
		}
		if (!hit) {
			json_decref(numbers);
			json_decref(names);
			return overrides_fail(c->ov, c->err, target, key, "%s %s: %.*s is no value of %s in this major's model",
								  target, key, (int)len, v, json_string_value(json_object_get(f, "type")));
		}
		json_array_append(numbers, json_object_get(hit, "number"));
		json_array_append_new(names, json_stringn(v, len));
		v += len + (v[len] == '|');
	}
	json_object_set_new(cond, "cond_field", json_integer(index));
	json_object_set_new(cond, "cond_negate", json_boolean(negate));
	json_object_set_new(cond, "cond_values", numbers);
	json_object_set_new(cond, "cond_names", names);
	return true;
}

/* One line of the view for each item of value (F,F... or F=ACTION,...) of key on msg. */
static bool add_key(Ctx *c, json_t *msg, int msg_index, const KeyDesc *k, const char *key, const char *value, int group,
					json_t *cond)
{
	const char *target = json_string_value(json_object_get(msg, "name"));
	if (!k->pairs && !strcmp(value, "none")) {
		json_t *line = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i}", "message", target, "message_index", msg_index,
								 "rule", k->key, "action", "none", "field_index", -1, "field", "", "group", group);
		json_object_update(line, cond);
		json_array_append_new(c->lines, line);
		return true;
	}
	for (const char *v = value; *v;) {
		size_t len = strcspn(v, ",");
		const char *eq = memchr(v, '=', len);
		size_t flen = k->pairs ? (eq ? (size_t)(eq - v) : len) : len;
		const char *f0 = v, *a0 = k->pairs && eq ? eq + 1 : NULL;
		size_t alen = a0 ? len - flen - 1 : 0;
		if (a0 && k->actions == relation_roles) { /* relation: the role first (schema=schemaname) */
			const char *t = f0;
			f0 = a0, a0 = t;
			size_t tl = flen;
			flen = alen, alen = tl;
		}
		if (k->pairs && (!a0 || !known(k->actions, a0, alen)))
			return overrides_fail(c->ov, c->err, target, key,
								  "%s %s: '%.*s': expected %s, ACTION one of those %s lists", target, key, (int)len, v,
								  k->actions == relation_roles ? "ROLE=FIELD" : "FIELD=ACTION", c->path);
		int index;
		json_t *f = field_named(msg, f0, flen, &index);
		if (!f)
			return overrides_fail(c->ov, c->err, target, key,
								  "%s %s: %s has no field '%.*s' in this major's model (declare the line's majors with "
								  "since:/until:)",
								  target, key, target, (int)flen, f0);
		bool nodes = holds_nodes(f);
		const char *wire = json_string_value(json_object_get(f, "wire"));
		bool want_nodes = !strcmp(k->key, "walk") || !strcmp(k->key, "walk_each") || !strcmp(k->key, "walk_in_place") ||
						  !strcmp(k->key, "statements") || !strcmp(k->key, "from_item") || !strcmp(k->key, "ctes") ||
						  !strcmp(k->key, "function") || !strcmp(k->key, "truncate");
		bool want_string =
			!strcmp(k->key, "cte") || (k->actions == relation_roles && !(alen == 5 && !strncmp(a0, "alias", 5)));
		if ((want_nodes && !nodes) || (want_string && strcmp(wire, "STRING")) ||
			(!strcmp(k->key, "recursive") && strcmp(wire, "BOOL")))
			return overrides_fail(c->ov, c->err, target, key, "%s %s: %s.%.*s is a %s field, not one this key reads",
								  target, key, target, (int)flen, f0, wire);
		json_t *line = json_pack("{s:s, s:i, s:s, s:s%, s:i, s:s, s:i}", "message", target, "message_index", msg_index,
								 "rule", k->key, "action", a0 ? a0 : "none", a0 ? alen : (size_t)4, "field_index",
								 index, "field", json_string_value(json_object_get(f, "name")), "group", group);
		json_object_update(line, cond);
		json_array_append_new(c->lines, line);
		v += len + (v[len] == ',');
	}
	return true;
}

/* Every kind-level key of msg, in the file's order for the labelled ones. */
static bool read_kind(Ctx *c, json_t *msg, int msg_index)
{
	const char *target = json_string_value(json_object_get(msg, "name"));
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const KeyDesc *k = &keys[i];
		size_t from = 0;
		const char *key = k->key, *value;
		int group = 0;
		while ((value = k->labelled ? overrides_get_prefixed(c->ov, target, k->key, &from, &key)
									: (from++ ? NULL : overrides_get(c->ov, target, k->key)))) {
			json_t *cond = json_object();
			json_object_set_new(cond, "cond_field", json_integer(-1));
			json_object_set_new(cond, "cond_negate", json_false());
			json_object_set_new(cond, "cond_values", json_array());
			json_object_set_new(cond, "cond_names", json_array());
			const char *label = key + strlen(k->key); /* "" or "_LABEL" */
			for (int neg = 0; neg < 2; neg++) {
				char ck[128];
				snprintf(ck, sizeof ck, "%s%s", neg ? "unless" : "if", label);
				const char *cv = k->labelled ? overrides_get(c->ov, target, ck) : NULL;
				if (cv && !add_condition(c, msg, target, ck, cv, neg, cond)) {
					json_decref(cond);
					return false;
				}
			}
			bool ok = add_key(c, msg, msg_index, k, key, value, group++, cond);
			json_decref(cond);
			if (!ok)
				return false;
		}
	}
	const char *stmt = overrides_get(c->ov, target, "statement");
	if (stmt && strcmp(stmt, "unnamed"))
		return overrides_fail(c->ov, c->err, target, "statement", "%s statement:%s: the value is unnamed", target,
							  stmt);
	if (stmt)
		json_array_append_new(c->lines, json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:i, s:b, s:[], s:[]}",
												  "message", target, "message_index", msg_index, "rule", "statement",
												  "action", "unnamed", "field_index", -1, "field", "", "group", 0,
												  "cond_field", -1, "cond_negate", 0, "cond_values", "cond_names"));
	const char *filter = overrides_get(c->ov, target, "filter");
	if (filter && strcmp(filter, "stop"))
		return overrides_fail(c->ov, c->err, target, "filter", "%s filter:%s: the value is stop", target, filter);
	if (filter)
		json_array_append_new(c->lines, json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:i, s:b, s:[], s:[]}",
												  "message", target, "message_index", msg_index, "rule", "filter",
												  "action", "stop", "field_index", -1, "field", "", "group", 0,
												  "cond_field", -1, "cond_negate", 0, "cond_values", "cond_names"));
	return true;
}

/* Whether some summary line of msg names field (or `Kind.field summary:none` does). */
static bool covered(Ctx *c, const char *msg, const char *field)
{
	size_t i;
	json_t *l;
	json_array_foreach(c->lines, i, l)
	{
		const char *rule = json_string_value(json_object_get(l, "rule"));
		if (!strcmp(json_string_value(json_object_get(l, "message")), msg) &&
			!strcmp(json_string_value(json_object_get(l, "field")), field) &&
			(!strcmp(rule, "summary") || !strcmp(rule, "from_item")))
			return true;
	}
	char target[300];
	snprintf(target, sizeof target, "%s.%s", msg, field);
	const char *none = overrides_get(c->ov, target, "summary");
	if (none && strcmp(none, "none"))
		return overrides_fail(c->ov, c->err, target, "summary", "%s summary:%s: on a field the value is none", target,
							  none);
	return none != NULL;
}

/* Every field holding a table (a RangeVar, or a from_item kind) must be covered. */
static bool check_tables(Ctx *c)
{
	json_t *types = json_object();
	json_object_set_new(types, "RangeVar", json_true());
	size_t i;
	json_t *l, *m, *f;
	json_array_foreach(c->lines, i, l)
	{
		if (!strcmp(json_string_value(json_object_get(l, "rule")), "from_item"))
			json_object_set(types, json_string_value(json_object_get(l, "message")), json_true());
	}
	bool ok = true;
	json_array_foreach(json_object_get(c->view, "messages"), i, m)
	{
		size_t j;
		const char *mname = json_string_value(json_object_get(m, "name"));
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			const char *type = json_string_value(json_object_get(f, "type"));
			const char *fname = json_string_value(json_object_get(f, "name"));
			if (!ok || !json_object_get(types, type) || covered(c, mname, fname))
				continue;
			if (c->err->message[0])
				ok = false;
			else
				ok = gen_fail(c->err, c->path, 0, 0,
							  "%s.%s holds a table (%s) that no line covers: declare what libpg_query's summary does "
							  "with it (an action of a summary: line of %s, or `%s.%s summary:none`)",
							  mname, fname, type, mname, mname, fname);
		}
	}
	json_decref(types);
	return ok;
}

bool node_rules_add(json_t *view, const char *path, int major, gen_Error *err)
{
	Overrides *ov = overrides_new(path, major);
	if (!overrides_read_more(ov, path, err)) {
		overrides_free(ov);
		return false;
	}
	Ctx c = {view, json_array(), ov, err, path};
	bool ok = true;
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		if (ok)
			ok = read_kind(&c, m, (int)i);
	}
	ok = ok && check_tables(&c) && overrides_check_all_used(ov, err);
	overrides_free(ov);
	if (!ok) {
		json_decref(c.lines);
		return false;
	}
	json_object_set_new(view, "node_rules", c.lines);
	return true;
}
