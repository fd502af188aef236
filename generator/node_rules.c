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
	json_t *view, *lines, *builds;
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

/* How the summary reads field f of msg in PostgreSQL's own node (the raw tree it may walk instead
 * of pgbind's): its C member (a target spells its offset) and its access (node, list, string,
 * bool, enum), from the classifier's from_pg entry of the field. NULL when the field has no C
 * member of a kind the summary can read. */
static const char *c_access(json_t *msg, json_t *f, const char **how)
{
	size_t i;
	json_t *e;
	const char *name = json_string_value(json_object_get(f, "name"));
	json_array_foreach(json_object_get(msg, "from_pg"), i, e)
	{
		if (strcmp(json_string_value(json_object_get(e, "ast_field")), name))
			continue;
		const char *conv = json_string_value(json_object_get(e, "conv"));
		const char *base = json_string_value(json_object_get(e, "c_base"));
		*how = !strcmp(conv, "NODE") || !strcmp(conv, "MESSAGE")           ? "node"
			   : !strcmp(conv, "LIST")                                     ? "list"
			   : !strcmp(conv, "CSTRING")                                  ? "string"
			   : !strcmp(conv, "ENUM")                                     ? "enum"
			   : !strcmp(conv, "SCALAR") && base && !strcmp(base, "_Bool") ? "bool"
																		   : NULL;
		return *how ? json_string_value(json_object_get(e, "c_field")) : NULL;
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
	json_t *numbers = json_array(), *names = json_array(), *c_numbers = json_array();
	const char *c_field = "";
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
			json_decref(c_numbers);
			return overrides_fail(c->ov, c->err, target, key, "%s %s: %.*s is no value of %s in this major's model",
								  target, key, (int)len, v, json_string_value(json_object_get(f, "type")));
		}
		json_t *cv, *c_hit = NULL;
		size_t j;
		json_array_foreach(json_object_get(e, "c_values"), j, cv)
		{
			if (json_equal(json_object_get(cv, "number"), json_object_get(hit, "number")))
				c_hit = cv;
		}
		const char *how = NULL;
		c_field = c_access(msg, f, &how);
		if (!c_hit || !c_field || strcmp(how, "enum")) {
			json_decref(numbers);
			json_decref(names);
			json_decref(c_numbers);
			return overrides_fail(c->ov, c->err, target, key,
								  "%s %s: %.*s has no C value in PostgreSQL's %s.%s (an enum field of the node)",
								  target, key, (int)len, v, target, json_string_value(json_object_get(f, "name")));
		}
		json_array_append(numbers, json_object_get(hit, "number"));
		json_array_append(c_numbers, json_object_get(c_hit, "c_value"));
		json_array_append_new(names, json_stringn(v, len));
		v += len + (v[len] == '|');
	}
	json_object_set_new(cond, "cond_field", json_integer(index));
	json_object_set_new(cond, "cond_negate", json_boolean(negate));
	json_object_set_new(cond, "cond_values", numbers);
	json_object_set_new(cond, "cond_c_values", c_numbers);
	json_object_set_new(cond, "cond_c_field", json_string(c_field));
	json_object_set_new(cond, "cond_names", names);
	return true;
}

/* One line of the view for each item of value (F,F... or F=ACTION,...) of key on msg. */
static bool add_key(Ctx *c, json_t *msg, int msg_index, const KeyDesc *k, const char *key, const char *value, int group,
					json_t *cond)
{
	const char *target = json_string_value(json_object_get(msg, "name"));
	if (!k->pairs && !strcmp(value, "none")) {
		json_t *line = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:s, s:s}", "message", target, "message_index",
								 msg_index, "rule", k->key, "action", "none", "field_index", -1, "field", "", "group",
								 group, "c_field", "", "c_how", "none");
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
		const char *how = NULL, *c_field = c_access(msg, f, &how);
		if (!c_field)
			return overrides_fail(c->ov, c->err, target, key,
								  "%s %s: %s.%.*s has no field in PostgreSQL's node the summary can read (a node, a "
								  "List, a string, a bool or an enum)",
								  target, key, target, (int)flen, f0);
		json_t *line =
			json_pack("{s:s, s:i, s:s, s:s%, s:i, s:s, s:i, s:s, s:s}", "message", target, "message_index", msg_index,
					  "rule", k->key, "action", a0 ? a0 : "none", a0 ? alen : (size_t)4, "field_index", index, "field",
					  json_string_value(json_object_get(f, "name")), "group", group, "c_field", c_field, "c_how", how);
		json_object_update(line, cond);
		json_array_append_new(c->lines, line);
		v += len + (v[len] == ',');
	}
	return true;
}

/* A kind's flag line (`statement:unnamed`, `filter:stop`: KEY with its one VALUE), if it has one, as
 * a rendered line with no field. */
static bool kind_flag(Ctx *c, const char *target, int msg_index, const char *key, const char *value)
{
	const char *v = overrides_get(c->ov, target, key);
	if (!v)
		return true;
	if (strcmp(v, value))
		return overrides_fail(c->ov, c->err, target, key, "%s %s:%s: the value is %s", target, key, v, value);
	json_array_append_new(
		c->lines, json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:i, s:b, s:[], s:[], s:[], s:s, s:s, s:s}", "message",
							target, "message_index", msg_index, "rule", key, "action", value, "field_index", -1,
							"field", "", "group", 0, "cond_field", -1, "cond_negate", 0, "cond_values", "cond_names",
							"cond_c_values", "c_field", "", "c_how", "none", "cond_c_field", ""));
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
			json_object_set_new(cond, "cond_c_values", json_array());
			json_object_set_new(cond, "cond_c_field", json_string(""));
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
	return kind_flag(c, target, msg_index, "statement", "unnamed") && kind_flag(c, target, msg_index, "filter", "stop");
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

/* ---- The truncation's small statements (build_NAME: lines) ---------------------------------- */

/* The role and part of a build's NAME: measure_PART, mark_PART, or any other name (a node the
 * others hold). false when it starts so but PART is none the truncate: lines know. */
static bool build_role(const char *name, const char **role, const char **part)
{
	*role = "none", *part = "none";
	const char *roles[] = {"measure_", "mark_"};
	for (size_t i = 0; i < 2; i++)
		if (!strncmp(name, roles[i], strlen(roles[i]))) {
			*part = name + strlen(roles[i]);
			*role = i ? "mark" : "measure";
			return known(truncate_parts, *part, strlen(*part));
		}
	return true;
}

static json_t *build_named(json_t *builds, const char *name, size_t len, int *index)
{
	size_t i;
	json_t *b;
	json_array_foreach(builds, i, b)
	{
		const char *n = json_string_value(json_object_get(b, "name"));
		if (strlen(n) == len && !strncmp(n, name, len)) {
			*index = (int)i;
			return b;
		}
	}
	return NULL;
}

/* Whether a truncate: line puts PART in a list (else a node field); -1 when none names it. */
static int part_is_list(Ctx *c, const char *part)
{
	size_t i;
	json_t *l;
	json_array_foreach(c->lines, i, l)
	{
		if (strcmp(json_string_value(json_object_get(l, "rule")), "truncate") ||
			strcmp(json_string_value(json_object_get(l, "action")), part))
			continue;
		json_t *msg = json_array_get(json_object_get(c->view, "messages"),
									 (size_t)json_integer_value(json_object_get(l, "message_index")));
		json_t *f = json_array_get(json_object_get(msg, "fields"),
								   (size_t)json_integer_value(json_object_get(l, "field_index")));
		return !strncmp(json_string_value(json_object_get(f, "wire")), "REPEATED_", 9);
	}
	return -1;
}

/* One F=V of a build: how V sets F (by F's wire kind), into set. */
static bool build_set(Ctx *c, json_t *b, json_t *msg, const char *item, size_t len, json_t *set)
{
	const char *target = json_string_value(json_object_get(b, "message")),
			   *key = json_string_value(json_object_get(b, "key"));
	const char *eq = memchr(item, '=', len);
	int index;
	json_t *f = eq ? field_named(msg, item, (size_t)(eq - item), &index) : NULL;
	if (!f)
		return overrides_fail(c->ov, c->err, target, key,
							  "%s %s: '%.*s': expected FIELD=VALUE, FIELD a field of %s in this major's model", target,
							  key, (int)len, item, target);
	const char *v = eq + 1, *wire = json_string_value(json_object_get(f, "wire"));
	size_t vlen = len - (size_t)(v - item);
	const char *how = NULL, *string = "";
	long long number = 0;
	char text[64];
	snprintf(text, sizeof text, "%.*s", (int)(vlen < 63 ? vlen : 63), v);
	if (!strcmp(wire, "ENUM")) {
		json_t *e = enum_named(c->view, json_string_value(json_object_get(f, "type"))), *ev;
		size_t i;
		json_array_foreach(json_object_get(e, "values"), i, ev)
		{
			if (!strcmp(json_string_value(json_object_get(ev, "name")), text))
				how = "number", number = json_integer_value(json_object_get(ev, "number"));
		}
	} else if (!strcmp(wire, "BOOL")) {
		if (!strcmp(text, "true") || !strcmp(text, "false"))
			how = "number", number = !strcmp(text, "true");
	} else if (!strcmp(wire, "INT32")) {
		char *end;
		number = strtoll(text, &end, 10);
		if (*text && !*end && vlen < 63)
			how = "number";
	} else if (!strcmp(wire, "STRING")) {
		how = !strcmp(text, "placeholder") ? "placeholder" : "string";
		string = strcmp(how, "string") ? "" : text;
		if (vlen >= sizeof text)
			how = NULL;
	} else if (holds_nodes(f) && strcmp(wire, "ONEOF")) {
		int to;
		if (!strcmp(text, "part"))
			how = "part", number = !strncmp(wire, "REPEATED_", 9);
		else if (build_named(c->builds, v, vlen, &to))
			how = "build", number = to;
	}
	if (!how)
		return overrides_fail(c->ov, c->err, target, key,
							  "%s %s: %s.%s (%s) cannot be set to '%s': expected an enum value of its type, true or "
							  "false, a number, a string, placeholder, part, or a build_NAME's NAME (%s's head)",
							  target, key, target, json_string_value(json_object_get(f, "name")), wire, text, c->path);
	json_object_set_new(set, "field", json_string(json_string_value(json_object_get(f, "name"))));
	json_object_set_new(set, "field_index", json_integer(index));
	json_object_set_new(set, "how", json_string(how));
	json_object_set_new(set, "number", json_integer(number));
	json_object_set_new(set, "string", json_string(string));
	return true;
}

/* Whether build i reaches itself through the builds its fields name. */
static bool cyclic(json_t *builds, size_t i, size_t depth)
{
	size_t j;
	json_t *set;
	if (depth > json_array_size(builds))
		return true;
	json_array_foreach(json_object_get(json_array_get(builds, i), "sets"), j, set)
	{
		if (!strcmp(json_string_value(json_object_get(set, "how")), "build") &&
			cyclic(builds, (size_t)json_integer_value(json_object_get(set, "number")), depth + 1))
			return true;
	}
	return false;
}

/* Every build_NAME: line, in the model's order of kinds and the file's within a kind: its fields,
 * checked against the model, and less_NAME:. Each part of a truncate: line must have its mark_
 * build; a measure_ build takes the part in a field of its shape (a list or a node), and a part
 * without one is measured alone, so must be one node. */
static bool read_builds(Ctx *c)
{
	size_t i;
	json_t *m, *b;
	json_array_foreach(json_object_get(c->view, "messages"), i, m)
	{
		const char *target = json_string_value(json_object_get(m, "name")), *key, *value;
		size_t from = 0;
		while ((value = overrides_get_prefixed(c->ov, target, "build", &from, &key))) {
			const char *name = key + strlen("build_"), *role, *part;
			int dup;
			if (!key[strlen("build")] || !build_role(name, &role, &part))
				return overrides_fail(c->ov, c->err, target, key,
									  "%s %s: expected build_NAME, NAME measure_PART, mark_PART (PART one of the "
									  "truncate: parts) or another name",
									  target, key);
			if (build_named(c->builds, name, strlen(name), &dup))
				return overrides_fail(c->ov, c->err, target, key, "%s %s: a second build named %s", target, key, name);
			char less_key[200];
			snprintf(less_key, sizeof less_key, "less_%s", name);
			const char *less = overrides_get(c->ov, target, less_key);
			char *end = NULL;
			long n = less ? strtol(less, &end, 10) : 0;
			if ((less && (*end || n < 0)) || !less != !!strcmp(role, "measure"))
				return overrides_fail(c->ov, c->err, target, less ? less_key : key,
									  "%s: a measure_ build, and it only, says less_NAME:N (N >= 0 characters of its "
									  "own text)",
									  target);
			json_array_append_new(c->builds, json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:s, s:[]}", "name", name,
													   "key", key, "message", target, "message_index", (int)i, "role",
													   role, "part", part, "less", (int)n, "value", value, "sets"));
		}
	}
	if (!overrides_check_all_used(c->ov, c->err)) /* every line is read now: one on a kind the model lacks */
		return false;
	json_array_foreach(c->builds, i, b)
	{
		json_t *msg = json_array_get(json_object_get(c->view, "messages"),
									 (size_t)json_integer_value(json_object_get(b, "message_index")));
		const char *v = json_string_value(json_object_get(b, "value"));
		int parts = 0;
		while (*v) {
			size_t len = strcspn(v, ",");
			json_t *set = json_object();
			json_array_append_new(json_object_get(b, "sets"), set);
			if (!build_set(c, b, msg, v, len, set))
				return false;
			if (!strcmp(json_string_value(json_object_get(set, "how")), "part")) {
				const char *part = json_string_value(json_object_get(b, "part"));
				int list = part_is_list(c, part);
				if (strcmp(json_string_value(json_object_get(b, "role")), "measure") || parts++ ||
					list != json_integer_value(json_object_get(set, "number")))
					return overrides_fail(c->ov, c->err, json_string_value(json_object_get(b, "message")),
										  json_string_value(json_object_get(b, "key")),
										  "%s: part goes once into a measure_ build, in a field of the part's shape "
										  "(a list or a node, as the truncate: lines' fields)",
										  json_string_value(json_object_get(b, "key")));
			}
			v += len + (v[len] == ',');
		}
		if (!strcmp(json_string_value(json_object_get(b, "role")), "measure") && !parts)
			return overrides_fail(c->ov, c->err, json_string_value(json_object_get(b, "message")),
								  json_string_value(json_object_get(b, "key")), "%s: no field takes the part",
								  json_string_value(json_object_get(b, "key")));
		json_object_del(b, "value");
	}
	json_array_foreach(c->builds, i, b)
	{
		if (cyclic(c->builds, i, 0))
			return overrides_fail(c->ov, c->err, json_string_value(json_object_get(b, "message")),
								  json_string_value(json_object_get(b, "key")),
								  "%s: it holds itself, or a build that does",
								  json_string_value(json_object_get(b, "key")));
	}
	/* every part a truncate: line names: a mark_ build, and a measure_ one or a node to measure alone */
	json_t *l;
	json_array_foreach(c->lines, i, l)
	{
		if (strcmp(json_string_value(json_object_get(l, "rule")), "truncate"))
			continue;
		const char *part = json_string_value(json_object_get(l, "action"));
		char mark[64], measure[64];
		int at;
		snprintf(mark, sizeof mark, "mark_%s", part);
		snprintf(measure, sizeof measure, "measure_%s", part);
		if (!build_named(c->builds, mark, strlen(mark), &at) ||
			(!build_named(c->builds, measure, strlen(measure), &at) && part_is_list(c, part)))
			return overrides_fail(c->ov, c->err, json_string_value(json_object_get(l, "message")), "truncate",
								  "%s truncate: %s: declare build_%s (what is written in its place)%s",
								  json_string_value(json_object_get(l, "message")), part, mark,
								  part_is_list(c, part) ? " and build_measure_PART with less_measure_PART (a list is "
														  "measured in a statement)"
														: "");
	}
	return true;
}

bool node_rules_add(json_t *view, const char *path, int major, gen_Error *err)
{
	Overrides *ov = overrides_new(path, major);
	if (!overrides_read_more(ov, path, err)) {
		overrides_free(ov);
		return false;
	}
	Ctx c = {view, json_array(), json_array(), ov, err, path};
	bool ok = true;
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		if (ok)
			ok = read_kind(&c, m, (int)i);
	}
	ok = ok && check_tables(&c) && read_builds(&c); /* which checks that every line was read */
	overrides_free(ov);
	if (!ok) {
		json_decref(c.lines);
		json_decref(c.builds);
		return false;
	}
	json_t *l, *msgs = json_object_get(view, "messages");
	json_array_foreach(c.lines, i, l) /* the kind's C struct, whose members c_field and cond_c_field are */
	{
		json_t *msg = json_array_get(msgs, (size_t)json_integer_value(json_object_get(l, "message_index")));
		json_object_set(l, "c_struct", json_object_get(msg, "c_struct"));
	}
	json_object_set_new(view, "node_rules", c.lines);
	json_object_set_new(view, "node_builds", c.builds);
	return true;
}
