/*
 * makes_go.c -- targets/go/makefuncs.txt into messages[].go_makes (see makes_go.h).
 */
#include "makes_go.h"

#include "names_go.h"
#include "overrides.h"

#include <ctype.h>
#include <string.h>

static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static bool flag(json_t *obj, const char *key)
{
	return json_is_true(json_object_get(obj, key));
}

static json_t *find_named(json_t *array, const char *name)
{
	size_t i;
	json_t *e;
	json_array_foreach(array, i, e) if (strcmp(str(e, "name"), name) == 0) return e;
	return NULL;
}

/* One declared line being read: where errors point and what they name. */
typedef struct {
	Overrides *ov;
	const char *target, *key;
	gen_Error *err;
} Line;

/* A parameter: the field's Go type as a value (*Node, []*Node, *Alias, string, an enum type). */
static bool add_param(Line *l, json_t *f, json_t *params)
{
	const char *prefix = NULL;
	if (flag(f, "go_kind_scalar") || flag(f, "go_kind_string"))
		prefix = "";
	else if (flag(f, "go_kind_node") || flag(f, "go_kind_message"))
		prefix = "*";
	else if (flag(f, "go_kind_rep_node") || flag(f, "go_kind_rep_message"))
		prefix = "[]*";
	if (!prefix)
		return overrides_fail(l->ov, l->err, l->target, l->key,
							  "%s %s: field %s (wire %s) cannot be a parameter; write the helper in "
							  "targets/go/makefuncs.go with a line saying why",
							  l->target, l->key, str(f, "name"), str(f, "wire"));
	const char *go_name = str(f, "go_name");
	gen_Buf name = {0};
	gen_Buf_printf(&name, "%c%s", tolower((unsigned char)go_name[0]), go_name + 1);
	if (names_go_is_keyword(name.data)) {
		overrides_fail(l->ov, l->err, l->target, l->key, "%s %s: field %s would be a parameter named %s, a Go keyword",
					   l->target, l->key, str(f, "name"), name.data);
		gen_Buf_free(&name);
		return false;
	}
	gen_Buf type = {0};
	gen_Buf_printf(&type, "%s%s", prefix, str(f, "go_type"));
	json_array_append_new(params,
						  json_pack("{s:s, s:s, s:s}", "name", name.data, "go_type", type.data, "go_field", go_name));
	gen_Buf_free(&name);
	gen_Buf_free(&type);
	return true;
}

static bool all_of(const char *s, const char *chars)
{
	return *s && strspn(s, chars) == strlen(s);
}

/* A fixed value: the Go literal of value for field f. */
static bool add_fixed(Line *l, json_t *view, json_t *f, const char *value, json_t *fixed)
{
	const char *wire = str(f, "wire");
	gen_Buf lit = {0};
	if (strcmp(wire, "BOOL") == 0 && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0))
		gen_Buf_puts(&lit, value);
	else if ((strcmp(wire, "INT32") == 0 || strcmp(wire, "INT64") == 0) &&
			 all_of(value + (*value == '-'), "0123456789"))
		gen_Buf_puts(&lit, value);
	else if ((strcmp(wire, "UINT32") == 0 || strcmp(wire, "UINT64") == 0) && all_of(value, "0123456789"))
		gen_Buf_puts(&lit, value);
	else if (strcmp(wire, "STRING") == 0) /* the declared file's value characters need no escape */
		gen_Buf_printf(&lit, "\"%s\"", value);
	else if (strcmp(wire, "ENUM") == 0) {
		json_t *e = find_named(json_object_get(view, "enums"), str(f, "type"));
		if (e && find_named(json_object_get(e, "values"), value))
			gen_Buf_printf(&lit, "%s_%s", str(e, "go_name"), value);
	}
	if (!lit.data)
		return overrides_fail(l->ov, l->err, l->target, l->key,
							  "%s %s: %s=%s: not a value of field %s (wire %s%s%s): give true/false, a number, "
							  "a string's characters or a value of the enum",
							  l->target, l->key, str(f, "name"), value, str(f, "name"), wire,
							  strcmp(wire, "ENUM") == 0 ? ", enum " : "",
							  strcmp(wire, "ENUM") == 0 ? str(f, "type") : "");
	json_array_append_new(fixed, json_pack("{s:s, s:s}", "go_field", str(f, "go_name"), "value", lit.data));
	gen_Buf_free(&lit);
	return true;
}

/* One declared helper: value is its PARAMS. */
static bool add_make(Line *l, json_t *view, json_t *m, const char *value, bool node, json_t *names, json_t *makes)
{
	const char *name = strchr(l->key + strlen("go_"), '_');
	if (!name || !isupper((unsigned char)name[1]))
		return overrides_fail(l->ov, l->err, l->target, l->key,
							  "%s %s: the key names no helper: write go_make_NAME or go_new_NAME, NAME exported "
							  "(MakeColumnRefNode)",
							  l->target, l->key);
	name++;
	if (json_object_get(names, name))
		return overrides_fail(l->ov, l->err, l->target, l->key, "%s %s: helper %s declared twice (first on %s)",
							  l->target, l->key, name, str(json_object_get(names, name), "message"));
	json_t *params = json_array(), *fixed = json_array(), *seen = json_object();
	json_t *make = json_pack("{s:s, s:b, s:s, s:o, s:o}", "name", name, "node", node, "message", str(m, "go_name"),
							 "params", params, "fixed", fixed);
	json_array_append_new(makes, make);
	json_object_set(names, name, make);
	bool ok = true;
	char *list = gen_xstrdup(value);
	for (char *save = NULL, *item = strcmp(list, "-") == 0 ? NULL : strtok_r(list, ",", &save); ok && item;
		 item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (eq)
			*eq = '\0';
		json_t *f = find_named(json_object_get(m, "fields"), item);
		if (!f)
			ok = overrides_fail(l->ov, l->err, l->target, l->key, "%s %s: %s has no field %s (the proto's json_name)",
								l->target, l->key, l->target, item);
		else if (json_object_get(seen, item))
			ok = overrides_fail(l->ov, l->err, l->target, l->key, "%s %s: field %s named twice", l->target, l->key,
								item);
		else {
			json_object_set_new(seen, item, json_true());
			ok = eq ? add_fixed(l, view, f, eq + 1, fixed) : add_param(l, f, params);
		}
	}
	free(list);
	json_decref(seen);
	return ok;
}

bool makes_go_add(json_t *view, const char *path, gen_Error *err)
{
	/* the lines of the major generated for (since:/until:): what the grammar fills in differs */
	Overrides *ov = overrides_new(path, (int)json_integer_value(json_object_get(view, "pg_major")));
	bool ok = overrides_read_more(ov, path, err) && makes_go_apply(view, ov, err);
	overrides_free(ov);
	return ok;
}

bool makes_go_apply(json_t *view, Overrides *ov, gen_Error *err)
{
	json_t *names = json_object(); /* every helper's name, to its entry */
	bool ok = true;
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		json_t *makes = json_array();
		json_object_set_new(m, "go_makes", makes);
		static const char *const prefixes[] = {"go_make", "go_new"};
		for (size_t p = 0; ok && p < 2; p++) {
			size_t from = 0;
			const char *key, *value;
			while (ok && (value = overrides_get_prefixed(ov, str(m, "name"), prefixes[p], &from, &key))) {
				Line l = {ov, str(m, "name"), key, err};
				ok = add_make(&l, view, m, value, p == 0, names, makes);
			}
		}
	}
	ok = ok && overrides_check_all_used(ov, err);
	json_decref(names);
	return ok;
}
