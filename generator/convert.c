/*
 * convert.c -- pgbind-convert-gen: generates the transcoder between two PostgreSQL majors'
 * libpg_query protobuf encodings (older <-> newer) as tables, from both pg_query.proto files and
 * the declared mappings of schema/majors.txt (docs/convert.md says what each declaration means).
 * This file holds main(), the proto lookups and the check that every difference between the two
 * protos reachable from ParseResult is declared; generator/convert_emit.c writes the tables.
 * Depends on generator/proto_read.c, generator/overrides.c, generator/common.c and jansson.
 *
 *   pgbind-convert-gen OLDER:PROTO:PG_QUERY_H NEWER:PROTO:PG_QUERY_H MAJORS_TXT OUT.c
 *
 * An undeclared difference stops it with both protos' file:line and the lines to add.
 */
#include "convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto_read.h"

json_t *cg_msg(const cg_Proto *p, const char *name)
{
	return json_object_get(p->msgs, name);
}

json_t *cg_field(json_t *msg, const char *name)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(msg, "fields"), i, f) if (strcmp(cg_str(f, "name"), name) == 0) return f;
	return NULL;
}

const char *cg_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

int cg_int(json_t *obj, const char *key)
{
	return (int)json_integer_value(json_object_get(obj, key));
}

bool cg_same_type(json_t *fa, json_t *fb)
{
	return strcmp(cg_str(fa, "type_kind"), cg_str(fb, "type_kind")) == 0 &&
		   strcmp(cg_str(fa, "type"), cg_str(fb, "type")) == 0 &&
		   json_is_true(json_object_get(fa, "repeated")) == json_is_true(json_object_get(fb, "repeated"));
}

int cg_wire(json_t *f)
{
	const char *kind = cg_str(f, "type_kind"), *type = cg_str(f, "type");
	if (strcmp(kind, "message") == 0 || strcmp(type, "string") == 0 || strcmp(type, "bytes") == 0 ||
		json_is_true(json_object_get(f, "repeated")))
		return 2;
	if (strcmp(type, "double") == 0 || strcmp(type, "fixed64") == 0 || strcmp(type, "sfixed64") == 0)
		return 1;
	if (strcmp(type, "float") == 0 || strcmp(type, "fixed32") == 0 || strcmp(type, "sfixed32") == 0)
		return 5;
	return 0;
}

static const char *type_text(json_t *f, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", json_is_true(json_object_get(f, "repeated")) ? "repeated " : "", cg_str(f, "type"));
	return buf;
}

/* The field-level declarations an older field only the older major has (or retyped) may carry. */
static bool field_declared(cg_Pair *pair, const char *target)
{
	static const char *const keys[] = {"moved", "map", "dropped", "unset", "option"};
	int n = 0;
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (overrides_get(pair->ov, target, keys[i]))
			n++;
	return n > 0;
}

/* Whether an older field needs a declaration: not in the newer message under its name and type. */
static bool field_differs(json_t *newer_msg, json_t *f)
{
	json_t *g = newer_msg ? cg_field(newer_msg, cg_str(f, "name")) : NULL;
	return !g || !cg_same_type(f, g);
}

static bool fail_field(cg_Pair *pair, gen_Error *err, json_t *msg, json_t *newer_msg, json_t *f)
{
	const char *m = cg_str(msg, "name"), *name = cg_str(f, "name");
	json_t *g = newer_msg ? cg_field(newer_msg, name) : NULL;
	char ta[128], tb[128], where[700];
	if (g)
		snprintf(where, sizeof where, "is %s in %d but %s in %d (%s:%d)", type_text(f, ta, sizeof ta),
				 pair->older->major, type_text(g, tb, sizeof tb), pair->newer->major, pair->newer->path,
				 cg_int(g, "line"));
	else
		snprintf(where, sizeof where, "(%d) has no field of that name in %d (message %s at %s:%d)", pair->older->major,
				 pair->newer->major, m, pair->newer->path, newer_msg ? cg_int(newer_msg, "line") : 0);
	return gen_fail(
		err, pair->older->path, cg_int(f, "line"), 0,
		"%s.%s %s; declare in %s what it becomes, one of:\n"
		"    %s.%s moved:FIELD.FIELD until:%d    (its value moves into a sub-message of %d)\n"
		"    %s.%s map:OLD=NEW|OLD=NEW to:FIELD until:%d    (value to value)\n"
		"    %s.%s option:LIST=NAME arg:VALUE until:%d    (a bool: true is one DefElem NAME in LIST, a Boolean VALUE)\n"
		"    %s.%s dropped:true until:%d    (the value is lost converting up)\n"
		"    %s.%s unset:true until:%d    (the parser never sets it: a value is an error)",
		m, name, where, pair->ov_path, m, name, pair->older->major, pair->newer->major, m, name, pair->older->major, m,
		name, pair->older->major, m, name, pair->older->major, m, name, pair->older->major);
}

/* An older enum's values the newer enum lacks must be declared unset. */
static bool check_enum(cg_Pair *pair, const char *name, gen_Error *err)
{
	json_t *ea = json_object_get(pair->older->enums, name), *eb = json_object_get(pair->newer->enums, name);
	if (!eb)
		return gen_fail(err, pair->older->path, cg_int(ea, "line"), 0,
						"enum %s (%d) is not in %s (%d); declare the fields of its type (map: or unset:)", name,
						pair->older->major, pair->newer->path, pair->newer->major);
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(json_object_get(ea, "values"), i, v)
	{
		bool found = false;
		json_array_foreach(json_object_get(eb, "values"), j, w) if (strcmp(cg_str(v, "name"), cg_str(w, "name")) == 0)
			found = true;
		char target[256];
		snprintf(target, sizeof target, "%s.%s", name, cg_str(v, "name"));
		if (!found && !overrides_get(pair->ov, target, "unset"))
			return gen_fail(err, pair->older->path, cg_int(v, "line"), 0,
							"enum value %s (%d) is not in %d's enum %s (%s:%d); declare in %s:\n"
							"    %s unset:true until:%d    (the parser never makes it: meeting it is an error)",
							target, pair->older->major, pair->newer->major, name, pair->newer->path, cg_int(eb, "line"),
							pair->ov_path, target, pair->older->major);
	}
	return true;
}

/* A moved: path must lead through the newer message's fields (single sub-messages) to a field of
 * the older field's type. */
static bool check_moved(cg_Pair *pair, json_t *msg, json_t *f, const char *path, gen_Error *err)
{
	char target[256], buf[256];
	snprintf(target, sizeof target, "%s.%s", cg_str(msg, "name"), cg_str(f, "name"));
	json_t *cur = cg_msg(pair->newer, cg_str(msg, "name"));
	snprintf(buf, sizeof buf, "%s", path);
	char *save = NULL, *step = strtok_r(buf, ".", &save);
	if (!step)
		return overrides_fail(pair->ov, err, target, "moved", "moved: an empty path");
	if (cg_field(msg, step) && strcmp(step, cg_str(f, "name")) != 0)
		return overrides_fail(pair->ov, err, target, "moved", "moved:%s: %s is a field of %d too", path, step,
							  pair->older->major);
	while (step) {
		json_t *g = cur ? cg_field(cur, step) : NULL;
		if (!g)
			return overrides_fail(pair->ov, err, target, "moved", "moved:%s: %s has no field %s in %s", path,
								  cur ? cg_str(cur, "name") : "?", step, pair->newer->path);
		char *next = strtok_r(NULL, ".", &save);
		if (!next)
			return cg_same_type(f, g)
					   ? true
					   : overrides_fail(pair->ov, err, target, "moved", "moved:%s: its type is not %s's", path, target);
		if (strcmp(cg_str(g, "type_kind"), "message") != 0 || json_is_true(json_object_get(g, "repeated")))
			return overrides_fail(pair->ov, err, target, "moved", "moved:%s: %s is not a single message", path, step);
		cur = cg_msg(pair->newer, cg_str(g, "type"));
		step = next;
	}
	return true;
}

static bool check_message(cg_Pair *pair, json_t *msg, json_t *queue, json_t *seen, gen_Error *err)
{
	const char *m = cg_str(msg, "name");
	json_t *newer_msg = cg_msg(pair->newer, m);
	size_t i;
	json_t *f;
	/* A message with a difference no field declares may be declared unset as a whole. */
	bool needs = !newer_msg;
	json_array_foreach(json_object_get(msg, "fields"), i, f)
	{
		char target[256];
		snprintf(target, sizeof target, "%s.%s", m, cg_str(f, "name"));
		if (field_differs(newer_msg, f) && !field_declared(pair, target))
			needs = true;
	}
	if (needs && overrides_get(pair->ov, m, "unset")) {
		json_object_set_new(pair->unset_msgs, m, json_true());
		return true;
	}
	if (!newer_msg)
		return gen_fail(err, pair->older->path, cg_int(msg, "line"), 0,
						"message %s (%d) is not in %s (%d); declare in %s:\n"
						"    %s unset:true until:%d    (the parser never makes it: meeting it is an error)",
						m, pair->older->major, pair->newer->path, pair->newer->major, pair->ov_path, m,
						pair->older->major);
	json_array_foreach(json_object_get(msg, "fields"), i, f)
	{
		char target[256];
		const char *name = cg_str(f, "name");
		snprintf(target, sizeof target, "%s.%s", m, name);
		if (field_differs(newer_msg, f)) {
			static const char *const keys[] = {"moved", "map", "dropped", "unset", "option"};
			int n_keys = 0;
			for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
				n_keys += overrides_get(pair->ov, target, keys[k]) != NULL;
			if (n_keys > 1)
				return overrides_fail(pair->ov, err, target, "moved",
									  "%s: declare one of moved:, map:, dropped:, unset:, option:", target);
			/* field_declared() marked them used; read them again for their values */
			const char *moved = overrides_get(pair->ov, target, "moved");
			if (moved && !check_moved(pair, msg, f, moved, err))
				return false;
			const char *option = overrides_get(pair->ov, target, "option");
			if (!moved && !option && !overrides_get(pair->ov, target, "map") &&
				!overrides_get(pair->ov, target, "dropped") && !overrides_get(pair->ov, target, "unset"))
				return fail_field(pair, err, msg, newer_msg, f);
			/* option: is resolved against the newer proto where its tables are written (convert_emit.c) */
			if (option || overrides_get(pair->ov, target, "unset") || overrides_get(pair->ov, target, "dropped"))
				continue;
		}
		if (strcmp(cg_str(f, "type_kind"), "enum") == 0 && !field_differs(newer_msg, f) &&
			!check_enum(pair, cg_str(f, "type"), err))
			return false;
		if (strcmp(cg_str(f, "type_kind"), "message") == 0 && !json_object_get(seen, cg_str(f, "type"))) {
			json_object_set_new(seen, cg_str(f, "type"), json_true());
			json_array_append_new(queue, json_string(cg_str(f, "type")));
		}
	}
	return true;
}

bool cg_check(cg_Pair *pair, gen_Error *err)
{
	json_t *queue = json_pack("[s]", "ParseResult"), *seen = json_pack("{s:b}", "ParseResult", 1);
	bool ok = true;
	for (size_t i = 0; ok && i < json_array_size(queue); i++) {
		const char *name = json_string_value(json_array_get(queue, i));
		json_t *msg = cg_msg(pair->older, name);
		ok = check_message(pair, msg, queue, seen, err);
	}
	json_decref(queue);
	json_decref(seen);
	return ok;
}

static bool load_proto(const char *arg, cg_Proto *p, gen_Error *err)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", arg);
	char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c1 || !c2)
		return gen_fail(err, arg, 0, 0, "expected MAJOR:PROTO:PG_QUERY_H");
	*c1 = *c2 = '\0';
	p->major = atoi(buf);
	p->path = gen_xstrdup(c1 + 1);
	char *text;
	if (!gen_read_file(c2 + 1, &text, NULL, err))
		return false;
	const char *v = strstr(text, "#define PG_VERSION_NUM ");
	p->version_num = v ? atol(v + strlen("#define PG_VERSION_NUM ")) : 0;
	const char *mv = strstr(text, "#define PG_MAJORVERSION_NUM ");
	int major = mv ? atoi(mv + strlen("#define PG_MAJORVERSION_NUM ")) : 0;
	free(text);
	if (!p->version_num || p->version_num / 10000 != p->major || (mv && major != p->major))
		return gen_fail(err, c2 + 1, 0, 0, "its PG_VERSION_NUM (%ld) is not of major %d", p->version_num, p->major);
	p->model = proto_read_file(p->path, err);
	if (!p->model)
		return false;
	p->msgs = json_object();
	p->enums = json_object();
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(p->model, "messages"), i, d) json_object_set(p->msgs, cg_str(d, "name"), d);
	json_array_foreach(json_object_get(p->model, "enums"), i, d) json_object_set(p->enums, cg_str(d, "name"), d);
	return true;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s OLDER:PROTO:PG_QUERY_H NEWER:PROTO:PG_QUERY_H schema/majors.txt OUT.c\n", argv[0]);
		return 2;
	}
	gen_Error err = {0};
	cg_Proto older = {0}, newer = {0};
	cg_Pair pair = {&older, &newer, NULL, argv[3], json_object()};
	gen_Buf out = {0};
	bool ok = load_proto(argv[1], &older, &err) && load_proto(argv[2], &newer, &err);
	if (ok && older.major >= newer.major)
		ok = gen_fail(&err, argv[1], 0, 0, "the older major (%d) must come first", older.major);
	if (ok) {
		pair.ov = overrides_new(argv[3], older.major);
		ok = overrides_read_more(pair.ov, argv[3], &err);
	}
	ok = ok && cg_check(&pair, &err) && cg_emit(&pair, &out, &err) && overrides_check_all_used(pair.ov, &err) &&
		 gen_write_file_atomic(argv[4], out.data, out.len, &err);
	if (!ok) {
		gen_Error_print(&err);
		return 1;
	}
	return 0;
}
