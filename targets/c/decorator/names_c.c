/*
 * names_c.c -- the C target's spellings (names_c.h).
 */
#include "names_c.h"

#include <ctype.h>
#include <string.h>

static const char *str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

/* The AST member's C type (without its '*'s) for a wire kind, and whether the member is a pointer. */
static bool c_type(const char *wire, const char *type, gen_Buf *out, bool *pointer)
{
	static const struct {
		const char *wire, *c;
		bool pointer;
	} scalars[] = {
		{"INT32", "int32_t", false},    {"UINT32", "uint32_t", false},
		{"INT64", "int64_t", false},    {"UINT64", "uint64_t", false},
		{"BOOL", "bool", false},        {"DOUBLE", "double", false},
		{"STRING", "const char", true}, {"PACKED_UINT64", "uint64_t", false},
	};
	for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
		if (strcmp(wire, scalars[i].wire) == 0) {
			gen_Buf_puts(out, scalars[i].c);
			*pointer = scalars[i].pointer;
			return true;
		}
	if (strcmp(wire, "NODE") == 0 || strcmp(wire, "REPEATED_NODE") == 0 || strcmp(wire, "ONEOF") == 0) {
		gen_Buf_puts(out, "pgbind_Node");
		*pointer = true;
	} else if (strcmp(wire, "ENUM") == 0 || strcmp(wire, "MESSAGE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0) {
		gen_Buf_printf(out, "pgbind_%s", type);
		*pointer = strcmp(wire, "ENUM") != 0;
	} else {
		return false;
	}
	return true;
}

/* libpg_query's declared rules ("fingerprint:skip", ...) as the runtime's flags
 * (PGBIND_LPQ_FP_SKIP | ...; targets/c/runtime/internal.h), "0" for none. */
static void add_lpq_flags(json_t *obj)
{
	gen_Buf flags = {0};
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(obj, "libpg_query"), i, r)
	{
		const char *rule = json_string_value(r), *colon = strchr(rule, ':');
		gen_Buf_printf(&flags, "%sPGBIND_LPQ_%s_", flags.len ? " | " : "",
					   strncmp(rule, "fingerprint:", 12) == 0 ? "FP" : "NORM");
		for (const char *c = colon + 1; *c; c++)
			gen_Buf_printf(&flags, "%c", toupper((unsigned char)*c));
	}
	if (json_is_true(json_object_get(obj, "embedded")))
		gen_Buf_printf(&flags, "%sPGBIND_LPQ_EMBEDDED", flags.len ? " | " : "");
	json_object_set_new(obj, "lpq_flags", json_string(flags.len ? flags.data : "0"));
	gen_Buf_free(&flags);
}

static bool add_field(json_t *f, gen_Error *err)
{
	gen_Buf type = {0};
	bool pointer = false;
	if (!c_type(str(f, "wire"), str(f, "type"), &type, &pointer)) {
		gen_fail(err, "targets/c/decorator/names_c.c", 0, 0,
				 "field %s.%s: the C target has no member type for wire kind %s", str(f, "message"), str(f, "name"),
				 str(f, "wire"));
		gen_Buf_free(&type);
		return false;
	}
	json_object_set_new(f, "ast_type", json_string(type.data));
	json_object_set_new(f, "pointer", json_boolean(pointer));
	add_lpq_flags(f);
	bool empty_is_null = json_is_true(json_object_get(f, "empty_is_null")),
		 c_char = json_is_true(json_object_get(f, "c_char"));
	json_object_set_new(f, "flags",
						json_string(empty_is_null && c_char ? "PGBIND_FIELD_EMPTY_IS_NULL | PGBIND_FIELD_CHAR"
									: empty_is_null         ? "PGBIND_FIELD_EMPTY_IS_NULL"
									: c_char                ? "PGBIND_FIELD_CHAR"
															: "0"));
	gen_Buf_free(&type);
	return true;
}

bool names_add_c(json_t *view, gen_Error *err)
{
	/* the conversions that read a member of the struct itself */
	static const char *const members[] = {"SCALAR",  "CHAR",     "CSTRING", "ENUM",     "NODE",
										  "MESSAGE", "EMBEDDED", "LIST",    "BITMAPSET"};
	size_t i, j;
	json_t *m, *f;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		add_lpq_flags(m);
		json_array_foreach(json_object_get(m, "fields"), j, f) if (!add_field(f, err)) return false;
		json_array_foreach(json_object_get(m, "encode"), j, f) if (!add_field(f, err)) return false;
		json_array_foreach(json_object_get(m, "from_pg"), j, f)
		{
			bool member = false;
			for (size_t k = 0; k < sizeof members / sizeof *members; k++)
				member |= strcmp(str(f, "conv"), members[k]) == 0;
			gen_Buf off = {0};
			if (member)
				gen_Buf_printf(&off, "offsetof(%s, %s)", str(m, "c_struct"), str(f, "c_field"));
			else
				gen_Buf_puts(&off, "0");
			json_object_set_new(f, "c_offset", json_string(off.data));
			gen_Buf_free(&off);
		}
	}
	return true;
}
