/*
 * classify.c -- see classify.h. Reads the node model and the proto model, decides one
 * conversion kind per (C field, proto field) pair and one wire kind per proto field, and builds
 * the view model for the templates. Every decision is made from the inputs; the few exceptions
 * come from the overrides file.
 */
#include "classify.h"
#include "behaviours.h"
#include "deparse_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shorthands for reading jansson objects. */
#define S(obj, key) json_string_value(json_object_get((obj), (key)))
#define I(obj, key) json_integer_value(json_object_get((obj), (key)))
#define B(obj, key) json_is_true(json_object_get((obj), (key)))

typedef struct {
	json_t *model;
	const char *model_name;
	json_t *proto;
	const char *proto_name;
	Overrides *ov;
	gen_Error *err;

	json_t *c_structs;  /* name -> struct record (aliases resolved to their target's fields) */
	json_t *c_enums;    /* name -> enum record */
	json_t *c_tags;     /* T_X -> value */
	json_t *p_messages; /* name -> proto message */
	json_t *p_enums;    /* name -> proto enum */
	json_t *node_kinds; /* message name -> {number, json_name} for members of the Node oneof */
	const char *node_message;

	json_t *unmapped; /* C enum constants the proto lacks (by override) */
	json_t *view;
} Cx;

/* ---- errors ------------------------------------------------------------------------------- */

static bool fail_at_proto(Cx *cx, json_t *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail_at_proto(Cx *cx, json_t *where, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gen_fail(cx->err, cx->proto_name, (int)I(where, "line"), (int)I(where, "col"), "%s", msg);
}

static const char *c_loc(json_t *rec)
{
	const char *loc = S(rec, "location");
	return loc ? loc : "?";
}

/* ---- messages outside pgbind ------------------------------------------------------------- */

/* The top-level message a declaration is nested in ("A" for A.B.C), or the name itself. */
static const char *outermost(const char *name, char *buf, size_t size)
{
	const char *dot = strchr(name, '.');
	if (!dot)
		return name;
	snprintf(buf, size, "%.*s", (int)(dot - name), name);
	return buf;
}

/* Whether a message or enum ("message", "enum") stays: 1, or 0 when it is (in) an ignored
 * message; -1 with the error when it is nested in one pgbind carries. */
static int kept(Cx *cx, json_t *ignored, json_t *decl, const char *what)
{
	char buf[256];
	const char *top = outermost(S(decl, "name"), buf, sizeof buf);
	if (json_object_get(ignored, top))
		return 0;
	if (!json_is_string(json_object_get(decl, "parent")))
		return 1;
	fail_at_proto(cx, decl,
				  "%s %s is nested in %s: pgbind carries top-level %ss only; if the parse tree does not use %s, "
				  "add '%s ignore:true' to the overrides",
				  what, S(decl, "name"), top, what, top, top);
	return -1;
}

/*
 * The proto without the messages the overrides mark `ignore:true` (18's SummaryResult, the
 * output of pg_query_summary: nothing of the parse tree) and what is nested in them; a new
 * object. pgbind carries top-level messages and enums with plain fields only, so a nested
 * declaration or a map field elsewhere stops the generator, naming the override to write.
 */
static json_t *without_ignored(Cx *cx, json_t *proto)
{
	json_t *out = json_deep_copy(proto);
	json_t *kept_msgs = json_array(), *kept_enums = json_array(), *ignored = json_object();
	size_t i, j;
	json_t *v, *f;
	bool ok = true;

	json_array_foreach(json_object_get(proto, "messages"), i, v)
	{
		const char *name = S(v, "name");
		const char *how = json_is_string(json_object_get(v, "parent")) ? NULL : overrides_get(cx->ov, name, "ignore");
		if (how && strcmp(how, "true") != 0) {
			ok = overrides_fail(cx->ov, cx->err, name, "ignore", "%s ignore:%s: the only value is true", name, how);
			break;
		}
		if (how)
			json_object_set_new(ignored, name, json_true());
	}
	json_array_foreach(ok ? json_object_get(out, "messages") : NULL, i, v)
	{
		int keep = kept(cx, ignored, v, "message");
		if (keep <= 0) {
			ok = keep == 0;
			if (ok)
				continue;
			break;
		}
		json_array_foreach(json_object_get(v, "fields"), j, f)
		{
			char fbuf[256];
			const char *ftop =
				json_is_string(json_object_get(f, "type")) ? outermost(S(f, "type"), fbuf, sizeof fbuf) : "";
			if (json_is_string(json_object_get(f, "map_key")))
				ok = fail_at_proto(cx, f,
								   "field %s.%s is a map: pgbind does not carry maps; if the parse tree does not use "
								   "%s, add '%s ignore:true' to the overrides",
								   S(v, "name"), S(f, "name"), S(v, "name"), S(v, "name"));
			else if (json_object_get(ignored, ftop))
				ok = fail_at_proto(cx, f, "field %s.%s has type %s, which the overrides ignore (%s ignore:true)",
								   S(v, "name"), S(f, "name"), S(f, "type"), ftop);
			if (!ok)
				break;
		}
		if (!ok)
			break;
		json_array_append(kept_msgs, v);
	}
	json_array_foreach(ok ? json_object_get(out, "enums") : NULL, i, v)
	{
		int keep = kept(cx, ignored, v, "enum");
		if (keep < 0) {
			ok = false;
			break;
		}
		if (keep)
			json_array_append(kept_enums, v);
	}
	json_object_set_new(out, "messages", kept_msgs);
	json_object_set_new(out, "enums", kept_enums);
	json_decref(ignored);
	if (!ok) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* ---- type facts --------------------------------------------------------------------------- */

static const char *const c_int32[] = {"int", "short", "signed char", NULL};
static const char *const c_uint32[] = {"unsigned int", "unsigned short", "unsigned char", NULL};
static const char *const c_int64[] = {"long", "long long", NULL};
static const char *const c_uint64[] = {"unsigned long", "unsigned long long", NULL};
static const char *const c_bool[] = {"_Bool", "bool", NULL};
static const char *const c_double[] = {"double", "float", NULL};

/* The AST's C type for a proto scalar, or NULL if pgbind does not carry that scalar. */
/* The wire kind of a proto scalar type pgbind's AST carries, or NULL. */
static const char *scalar_wire(const char *proto_type)
{
	static const struct {
		const char *proto, *wire;
	} map[] = {
		{"int32", "INT32"}, {"uint32", "UINT32"}, {"int64", "INT64"},   {"uint64", "UINT64"},
		{"bool", "BOOL"},   {"double", "DOUBLE"}, {"string", "STRING"},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strcmp(map[i].proto, proto_type) == 0)
			return map[i].wire;
	return NULL;
}

static const char *const c_keywords[] = {
	"auto",          "break",    "case",    "char",     "const",    "continue",   "default",   "do",
	"double",        "else",     "enum",    "extern",   "float",    "for",        "goto",      "if",
	"inline",        "int",      "long",    "register", "restrict", "return",     "short",     "signed",
	"sizeof",        "static",   "struct",  "switch",   "typedef",  "union",      "unsigned",  "void",
	"volatile",      "while",    "_Bool",   "bool",     "true",     "false",      "tag",       "NULL",
	"_Alignas",      "_Alignof", "_Atomic", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
	"_Thread_local", NULL,
};

static bool is_identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* ---- loading ------------------------------------------------------------------------------ */

static bool index_inputs(Cx *cx)
{
	size_t i;
	json_t *v;
	cx->c_structs = json_object();
	cx->c_enums = json_object();
	cx->c_tags = json_object();
	cx->p_messages = json_object();
	cx->p_enums = json_object();
	cx->node_kinds = json_object();

	if (json_integer_value(json_object_get(cx->model, "pg_major")) < 10)
		return gen_fail(cx->err, cx->model_name, 0, 0,
						"the node model has no pg_major (PostgreSQL 10 or later): extract it again (make regen)");
	json_array_foreach(json_object_get(cx->model, "nodetags"), i, v)
		json_object_set_new(cx->c_tags, S(v, "name"), json_integer(I(v, "value")));
	json_array_foreach(json_object_get(cx->model, "enums"), i, v) json_object_set(cx->c_enums, S(v, "name"), v);
	json_array_foreach(json_object_get(cx->model, "structs"), i, v) json_object_set(cx->c_structs, S(v, "name"), v);
	/* Aliases (DistinctExpr = OpExpr) carry their target's fields under their own name. */
	json_array_foreach(json_object_get(cx->model, "structs"), i, v)
	{
		const char *target = S(v, "alias_of");
		if (!target)
			continue;
		json_t *t = json_object_get(cx->c_structs, target);
		if (!t || !json_object_get(t, "fields"))
			return gen_fail(cx->err, cx->model_name, 0, 0, "struct %s is a typedef of %s, which the model lacks",
							S(v, "name"), target);
		json_t *copy = json_deep_copy(v);
		json_object_set(copy, "fields", json_object_get(t, "fields"));
		json_object_set_new(cx->c_structs, S(v, "name"), copy);
	}

	json_array_foreach(json_object_get(cx->proto, "messages"), i, v) json_object_set(cx->p_messages, S(v, "name"), v);
	json_array_foreach(json_object_get(cx->proto, "enums"), i, v) json_object_set(cx->p_enums, S(v, "name"), v);

	/* The Node message: a oneof whose members are the node kinds (override role:node_oneof). */
	json_array_foreach(json_object_get(cx->proto, "messages"), i, v)
	{
		const char *role = overrides_get(cx->ov, S(v, "name"), "role");
		if (!role)
			continue;
		if (strcmp(role, "node_oneof") != 0)
			return overrides_fail(cx->ov, cx->err, S(v, "name"), "role", "unknown role '%s' (known: node_oneof)", role);
		if (cx->node_message)
			return fail_at_proto(cx, v, "two messages have role:node_oneof (%s and %s)", cx->node_message,
								 S(v, "name"));
		cx->node_message = S(v, "name");
		json_t *fields = json_object_get(v, "fields");
		if (json_array_size(json_object_get(v, "oneofs")) != 1)
			return fail_at_proto(cx, v, "message %s (role:node_oneof) must hold exactly one oneof", cx->node_message);
		size_t j;
		json_t *f;
		json_array_foreach(fields, j, f)
		{
			if (json_is_null(json_object_get(f, "oneof")))
				return fail_at_proto(cx, f, "field %s.%s lies outside the node oneof", cx->node_message, S(f, "name"));
			if (strcmp(S(f, "type_kind"), "message") != 0)
				return fail_at_proto(cx, f, "node oneof member %s.%s is not a message", cx->node_message, S(f, "name"));
			if (strcmp(S(f, "json_name"), S(f, "type")) != 0)
				return fail_at_proto(cx, f,
									 "node oneof member %s.%s: json_name '%s' differs from its message '%s' "
									 "(libpg_query names both after the C struct)",
									 cx->node_message, S(f, "name"), S(f, "json_name"), S(f, "type"));
			if (json_object_get(cx->node_kinds, S(f, "type")))
				return fail_at_proto(cx, f, "message %s appears twice in the node oneof", S(f, "type"));
			json_object_set_new(cx->node_kinds, S(f, "type"), json_pack("{s:I}", "number", I(f, "number")));
		}
	}
	if (!cx->node_message)
		return gen_fail(cx->err, cx->proto_name, 0, 0,
						"no message is marked role:node_oneof in the overrides (libpg_query calls it Node)");
	return true;
}

/* ---- enums -------------------------------------------------------------------------------- */

/*
 * The C values the library was compiled with. libpg_query numbers proto values 1..n in the
 * declaration order of the headers it was built from, so when the installed headers list the
 * constants in another order, or lack one the proto has, they do not describe the library:
 * PostgreSQL 15.x reordered LimitOption after libpg_query 15-4.0.0 took 15.1, and from 16 on
 * PostgreSQL has no LIMIT_OPTION_DEFAULT, which libpg_query patches back in as the first value.
 * That stops the generator unless the overrides say `Enum c_values:proto_order`: the library's
 * values are then the proto's values in the proto's order (0, 1, ...), the ones the headers
 * lack included. `missing` holds those (proto values other than 0 without a C constant).
 */
static bool library_values(Cx *cx, json_t *pe, json_t *c_values, json_t *missing, bool *from_headers)
{
	const char *name = S(pe, "name");
	size_t j;
	json_t *cv;
	bool ordered = true;
	json_int_t prev = -1;
	json_array_foreach(c_values, j, cv)
	{
		ordered &= I(cv, "number") > prev;
		prev = I(cv, "number");
	}
	const char *how = overrides_get(cx->ov, name, "c_values");
	if (!how) {
		if (json_array_size(missing) > 0) {
			json_t *pv = json_array_get(missing, 0);
			return fail_at_proto(cx, pv,
								 "proto value %s.%s has no C constant in enum %s (%s); if libpg_query built its "
								 "library with headers that have it (it patches some), add '%s c_values:proto_order' "
								 "to the overrides",
								 name, S(pv, "name"), name, c_loc(json_object_get(cx->c_enums, name)), name);
		}
		if (ordered)
			return true;
		return fail_at_proto(cx, pe,
							 "enum %s: the headers declare its constants in another order than libpg_query's proto, "
							 "so they are not the headers the library was built from; if the library's values are "
							 "the proto's order, add '%s c_values:proto_order' to the overrides",
							 name, name);
	}
	if (strcmp(how, "proto_order") != 0)
		return overrides_fail(cx->ov, cx->err, name, "c_values", "%s c_values:%s: the only value is proto_order", name,
							  how);
	if (ordered && json_array_size(missing) == 0)
		return overrides_fail(cx->ov, cx->err, name, "c_values",
							  "%s c_values:proto_order: the headers already agree with the proto (a stale exception: "
							  "remove it)",
							  name);
	/* the values the headers lack join the mapped ones, named by the proto */
	json_array_foreach(missing, j, cv)
		json_array_append_new(c_values, json_pack("{s:s, s:I, s:I}", "c_name", S(cv, "name"), "c_value", (json_int_t)0,
												  "number", I(cv, "number")));
	/* value = rank of the proto number among the mapped constants */
	size_t n = json_array_size(c_values);
	for (j = 0; j < n; j++) {
		cv = json_array_get(c_values, j);
		json_int_t rank = 0;
		for (size_t k = 0; k < n; k++)
			rank += I(json_array_get(c_values, k), "number") < I(cv, "number");
		json_object_set_new(cv, "c_value", json_integer(rank));
	}
	*from_headers = false;
	return true;
}

static bool build_enums(Cx *cx, json_t *out)
{
	size_t i;
	json_t *pe;
	json_array_foreach(json_object_get(cx->proto, "enums"), i, pe)
	{
		const char *name = S(pe, "name");
		json_t *ce = json_object_get(cx->c_enums, name);
		json_t *values = json_array();
		json_t *c_values = json_array();
		json_t *missing = json_array(); /* proto values (not 0) without a C constant */
		size_t j;
		json_t *pv;
		json_array_foreach(json_object_get(pe, "values"), j, pv)
			json_array_append_new(values, json_pack("{s:s, s:I}", "name", S(pv, "name"), "number", I(pv, "number")));

		if (ce) {
			/* Every C constant needs a proto value of the same name; proto values without a C
			 * constant may only be the 0 placeholder (<ENUM>_UNDEFINED). */
			json_t *cv;
			json_array_foreach(json_object_get(ce, "values"), j, cv)
			{
				json_t *match = NULL;
				size_t k;
				json_array_foreach(json_object_get(pe, "values"), k, pv) if (strcmp(S(pv, "name"), S(cv, "name")) == 0)
				{
					match = pv;
					break;
				}
				if (!match) {
					gen_Buf target = {0};
					gen_Buf_printf(&target, "%s.%s", name, S(cv, "name"));
					const char *unmapped = overrides_get(cx->ov, target.data, "no_proto_value");
					gen_Buf_free(&target);
					if (unmapped && strcmp(unmapped, "true") == 0) {
						/* converting this value is a runtime error (from_pg_bad_enum) */
						json_array_append_new(cx->unmapped,
											  json_pack("{s:s, s:s, s:I, s:s}", "enum", name, "c_name", S(cv, "name"),
														"c_value", I(cv, "value"), "location", c_loc(ce)));
						continue;
					}
					json_decref(values);
					json_decref(c_values);
					json_decref(missing);
					return fail_at_proto(cx, pe,
										 "C constant %s of enum %s (%s) has no value in proto enum %s: if the "
										 "protocol really lacks it, add '%s.%s no_proto_value:true' to the overrides",
										 S(cv, "name"), name, c_loc(ce), name, name, S(cv, "name"));
				}
				json_array_append_new(c_values, json_pack("{s:s, s:I, s:I}", "c_name", S(cv, "name"), "c_value",
														  I(cv, "value"), "number", I(match, "number")));
			}
			json_array_foreach(json_object_get(pe, "values"), j, pv)
			{
				bool found = false;
				size_t k;
				json_array_foreach(json_object_get(ce, "values"), k, cv) found |=
					strcmp(S(pv, "name"), S(cv, "name")) == 0;
				if (!found && I(pv, "number") != 0)
					json_array_append(missing, pv);
			}
		}
		bool from_headers = true;
		bool ok = !ce || library_values(cx, pe, c_values, missing, &from_headers);
		json_decref(missing);
		if (!ok) {
			json_decref(values);
			json_decref(c_values);
			return false;
		}
		/* libpg_query's reader maps an unknown proto number (0 included) to the C value of the
		 * proto's first value */
		json_int_t c_default = 0, lowest = -1;
		json_t *cvv;
		json_array_foreach(c_values, j, cvv) if (lowest < 0 || I(cvv, "number") < lowest)
		{
			lowest = I(cvv, "number");
			c_default = I(cvv, "c_value");
		}
		json_array_append_new(out, json_pack("{s:I, s:s, s:o, s:b, s:b, s:o, s:s}", "c_default", c_default, "name",
											 name, "values", values, "has_c", ce != NULL, "c_from_headers",
											 ce != NULL && from_headers, "c_values", c_values, "c_location",
											 ce ? c_loc(ce) : ""));
	}
	return true;
}

/* ---- fields ------------------------------------------------------------------------------- */

/* The C struct a message converts from: an override, else the message's own name. */
static const char *c_struct_name(Cx *cx, const char *message)
{
	const char *o = overrides_get(cx->ov, message, "c_struct");
	return o ? o : message;
}

/* c_struct naming the message's own struct changes nothing: a stale exception. */
static bool check_c_struct_override(Cx *cx, const char *message)
{
	const char *o = overrides_get(cx->ov, message, "c_struct");
	if (o && strcmp(o, message) == 0)
		return overrides_fail(cx->ov, cx->err, message, "c_struct",
							  "%s c_struct:%s names the message's own struct (a stale exception: remove it)", message,
							  o);
	return true;
}

static json_t *find_c_field(json_t *c_struct, const char *name)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(c_struct, "fields"), i, f) if (strcmp(S(f, "name"), name) == 0) return f;
	return NULL;
}

/* Is `base` (a C struct name) the struct behind node kind `message`, or an alias of it? */
static bool c_struct_is(Cx *cx, const char *base, const char *message)
{
	const char *want = c_struct_name(cx, message);
	if (strcmp(base, want) == 0)
		return true;
	json_t *rec = json_object_get(cx->c_structs, want);
	const char *alias = rec ? S(rec, "alias_of") : NULL;
	return alias && strcmp(alias, base) == 0;
}

/*
 * A supertype: a struct with no NodeTag of its own whose only field is the NodeTag (Node; Expr,
 * embedded at the head of expression nodes; 17's JsonTablePlan, declared pg_node_attr(abstract)).
 */
static bool is_supertype(Cx *cx, const char *base)
{
	json_t *rec = json_object_get(cx->c_structs, base);
	if (!rec || !json_is_null(json_object_get(rec, "tag")))
		return false;
	json_t *fields = json_object_get(rec, "fields");
	return json_array_size(fields) == 1 && strcmp(S(json_array_get(fields, 0), "base"), "NodeTag") == 0;
}

static bool is_node_struct(Cx *cx, const char *base)
{
	return strcmp(base, "Node") == 0 || json_object_get(cx->c_structs, base) != NULL;
}

/* "Message.field", for override look-ups (a static buffer: use before the next call). */
static const char *target_name(const char *message, const char *field)
{
	static char buf[512];
	snprintf(buf, sizeof buf, "%s.%s", message, field);
	return buf;
}

/* Decides the conversion kind of one (proto field, C field) pair; NULL if none fits. */
static const char *pair_kind(Cx *cx, json_t *pf, json_t *cf)
{
	const char *pt = S(pf, "type"), *tk = S(pf, "type_kind");
	bool rep = B(pf, "repeated");
	int depth = (int)I(cf, "pointer_depth");
	const char *base = S(cf, "base"), *bk = S(cf, "base_kind");

	if (!json_is_null(json_object_get(cf, "array")))
		return NULL;
	if (rep) {
		if (strcmp(tk, "message") == 0 && strcmp(pt, cx->node_message) == 0 && depth == 1 &&
			strcmp(bk, "struct") == 0 && strcmp(base, "List") == 0)
			return "LIST";
		if (strcmp(pt, "uint64") == 0 && depth == 1 && strcmp(base, "Bitmapset") == 0)
			return "BITMAPSET";
		return NULL;
	}
	if (strcmp(tk, "scalar") == 0) {
		if (strcmp(bk, "builtin") != 0)
			return NULL;
		if (strcmp(pt, "string") == 0 && strcmp(base, "char") == 0)
			return depth == 0 ? "CHAR" : depth == 1 ? "CSTRING" : NULL;
		if (depth != 0)
			return NULL;
		if ((strcmp(pt, "int32") == 0 && gen_one_of(base, c_int32)) ||
			(strcmp(pt, "uint32") == 0 && gen_one_of(base, c_uint32)) ||
			(strcmp(pt, "int64") == 0 && gen_one_of(base, c_int64)) ||
			(strcmp(pt, "uint64") == 0 && gen_one_of(base, c_uint64)) ||
			(strcmp(pt, "bool") == 0 && gen_one_of(base, c_bool)) ||
			(strcmp(pt, "double") == 0 && gen_one_of(base, c_double)))
			return "SCALAR";
		return NULL;
	}
	if (strcmp(tk, "enum") == 0)
		return depth == 0 && strcmp(bk, "enum") == 0 && strcmp(base, pt) == 0 && json_object_get(cx->c_enums, pt)
				   ? "ENUM"
				   : NULL;
	/* message */
	if (strcmp(bk, "struct") != 0)
		return NULL;
	if (strcmp(pt, cx->node_message) == 0) {
		if (depth == 1 && is_node_struct(cx, base))
			return "NODE";
		/* A supertype embedded at the head of a node (Expr xpr, 17's JsonTablePlan plan): its tag
		 * is the enclosing node's own, so converting it as a node would recurse forever.
		 * libpg_query never writes it. */
		if (depth == 0 && is_supertype(cx, base))
			return "XPR";
		return NULL;
	}
	if (!json_object_get(cx->node_kinds, pt))
		return NULL;
	if (c_struct_is(cx, base, pt))
		return depth == 1 ? "MESSAGE" : depth == 0 ? "EMBEDDED" : NULL;
	return NULL;
}

/* The AST shape and wire kind of a proto field; false for a type pgbind does not carry. */
static bool ast_shape(Cx *cx, json_t *pf, json_t *field)
{
	const char *pt = S(pf, "type"), *tk = S(pf, "type_kind");
	bool rep = B(pf, "repeated");
	const char *wire;

	if (strcmp(tk, "scalar") == 0) {
		wire = scalar_wire(pt);
		if (!wire)
			return fail_at_proto(cx, pf, "field %s: proto type %s is not supported by pgbind's AST", S(pf, "name"), pt);
		if (rep) {
			if (strcmp(pt, "uint64") != 0)
				return fail_at_proto(cx, pf, "field %s: repeated %s is not supported (only repeated uint64, packed)",
									 S(pf, "name"), pt);
			wire = "PACKED_UINT64";
		}
	} else if (strcmp(tk, "enum") == 0) {
		if (rep)
			return fail_at_proto(cx, pf, "field %s: repeated enums are not supported", S(pf, "name"));
		wire = "ENUM";
	} else if (strcmp(pt, cx->node_message) == 0) {
		wire = rep ? "REPEATED_NODE" : "NODE";
	} else {
		wire = rep ? "REPEATED_MESSAGE" : "MESSAGE";
	}
	json_object_set_new(field, "repeated", json_boolean(rep));
	json_object_set_new(field, "wire", json_string(wire));
	json_object_set_new(field, "type",
						json_string(strcmp(tk, "scalar") == 0           ? "_"
									: strcmp(pt, cx->node_message) == 0 ? "Node"
																		: pt));
	return true;
}

static bool check_member_name(Cx *cx, json_t *pf, const char *message, const char *name, json_t *seen)
{
	if (!is_identifier(name))
		return fail_at_proto(cx, pf, "field %s.%s: its AST member name '%s' is not a C identifier", message,
							 S(pf, "name"), name);
	if (gen_one_of(name, c_keywords))
		return fail_at_proto(cx, pf, "field %s.%s: its AST member name '%s' is reserved in C or by pgbind", message,
							 S(pf, "name"), name);
	gen_Buf n = {0};
	gen_Buf_printf(&n, "n_%s", name);
	bool dup = json_object_get(seen, name) || json_object_get(seen, n.data);
	json_object_set_new(seen, name, json_true());
	json_object_set_new(seen, n.data, json_true());
	gen_Buf_free(&n);
	if (dup)
		return fail_at_proto(cx, pf, "field %s.%s: AST member name '%s' collides with another field", message,
							 S(pf, "name"), name);
	return true;
}

/* One oneof of a message: all members must be node kinds; they share one Node pointer. */
static bool build_oneof(Cx *cx, json_t *pm, const char *oneof, json_t *c_struct, json_t *field, json_t *oneofs,
						json_t *from_pg, json_t *c_used)
{
	const char *mname = S(pm, "name");
	json_t *members = json_array();
	size_t i;
	json_t *pf;
	json_t *first = NULL;
	json_int_t lo = 0, hi = 0;
	json_array_foreach(json_object_get(pm, "fields"), i, pf)
	{
		const char *o = json_string_value(json_object_get(pf, "oneof"));
		if (!o || strcmp(o, oneof) != 0)
			continue;
		if (strcmp(S(pf, "type_kind"), "message") != 0 || !json_object_get(cx->node_kinds, S(pf, "type"))) {
			json_decref(members);
			return fail_at_proto(cx, pf,
								 "oneof %s.%s: member %s is not a node message (pgbind stores a oneof as a "
								 "Node pointer)",
								 mname, oneof, S(pf, "name"));
		}
		if (!first) {
			first = pf;
			lo = hi = I(pf, "number");
		}
		lo = I(pf, "number") < lo ? I(pf, "number") : lo;
		hi = I(pf, "number") > hi ? I(pf, "number") : hi;
		json_array_append_new(members, json_pack("{s:s, s:I, s:s}", "name", S(pf, "name"), "number", I(pf, "number"),
												 "message", S(pf, "type")));
	}
	/* The oneof is written at the position of whichever member is set; another field numbered
	 * between its members would make that position depend on the value. */
	json_array_foreach(json_object_get(pm, "fields"), i, pf)
	{
		if (!json_is_null(json_object_get(pf, "oneof")))
			continue;
		if (I(pf, "number") > lo && I(pf, "number") < hi) {
			json_decref(members);
			return fail_at_proto(cx, pf, "field %s.%s is numbered between the members of oneof %s", mname,
								 S(pf, "name"), oneof);
		}
	}
	gen_Buf id = {0};
	gen_Buf_printf(&id, "%s_%s", mname, oneof);
	json_object_set_new(field, "name", json_string(oneof));
	json_object_set_new(field, "proto_name", json_string(oneof));
	json_object_set_new(field, "number", json_integer(lo));
	json_object_set_new(field, "repeated", json_false());
	json_object_set_new(field, "wire", json_string("ONEOF"));
	json_object_set_new(field, "type", json_string(id.data));
	json_object_set_new(field, "line", json_integer(I(first, "line")));
	json_array_append_new(oneofs, json_pack("{s:s, s:s, s:s, s:o}", "id", id.data, "message", mname, "name", oneof,
											"members", json_incref(members)));

	if (c_struct) {
		/* C side: a union of the member structs, held by value, named like the oneof. */
		json_t *cf = find_c_field(c_struct, oneof);
		if (!cf || strcmp(S(cf, "base_kind"), "union") != 0 || I(cf, "pointer_depth") != 0) {
			gen_Buf_free(&id);
			json_decref(members);
			return fail_at_proto(cx, first, "oneof %s.%s has no C union field '%s' in struct %s (%s)", mname, oneof,
								 oneof, S(c_struct, "name"), c_loc(c_struct));
		}
		json_t *m;
		json_array_foreach(members, i, m)
		{
			json_t *um = NULL;
			size_t k;
			json_t *u;
			json_array_foreach(json_object_get(cf, "members"), k, u) if (strcmp(S(u, "name"), S(m, "name")) == 0) um =
				u;
			if (!um || !c_struct_is(cx, S(um, "base"), S(m, "message")) || I(um, "pointer_depth") != 0) {
				gen_Buf_free(&id);
				json_decref(members);
				return fail_at_proto(cx, first, "oneof %s.%s member %s has no union member %s of type %s in %s (%s)",
									 mname, oneof, S(m, "name"), S(m, "name"), S(m, "message"), S(cf, "name"),
									 c_loc(cf));
			}
		}
		gen_Buf target = {0};
		gen_Buf_printf(&target, "%s.%s", mname, oneof);
		const char *absent_when = overrides_get(cx->ov, target.data, "absent_when");
		if (absent_when) {
			json_t *af = find_c_field(c_struct, absent_when);
			if (!af || !gen_one_of(S(af, "base"), c_bool) || I(af, "pointer_depth") != 0) {
				overrides_fail(cx->ov, cx->err, target.data, "absent_when",
							   "%s absent_when:%s: struct %s has no bool field %s", target.data, absent_when,
							   S(c_struct, "name"), absent_when);
				gen_Buf_free(&target);
				gen_Buf_free(&id);
				json_decref(members);
				return false;
			}
		}
		json_array_append_new(from_pg, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "conv",
												 absent_when ? "VALUE_UNION_UNLESS" : "VALUE_UNION", "c_field", oneof,
												 "ast_field", oneof, "type", id.data, "cond",
												 absent_when ? absent_when : "", "c_base", S(cf, "base")));
		json_object_set_new(c_used, oneof, json_true());
		gen_Buf_free(&target);
	}
	gen_Buf_free(&id);
	json_decref(members);
	return true;
}

static int cmp_number_desc(const void *a, const void *b)
{
	json_int_t x = I(*(json_t *const *)a, "number"), y = I(*(json_t *const *)b, "number");
	return x < y ? 1 : x > y ? -1 : 0;
}

static bool build_message(Cx *cx, json_t *pm, json_t *messages, json_t *oneofs, json_t *skipped)
{
	const char *name = S(pm, "name");
	json_t *kind = json_object_get(cx->node_kinds, name);
	const char *proto_only = overrides_get(cx->ov, name, "proto_only");
	json_t *c_struct = NULL;
	const char *c_name = NULL;

	if (proto_only && strcmp(proto_only, "true") != 0)
		return overrides_fail(cx->ov, cx->err, name, "proto_only", "proto_only takes 'true'");
	if (proto_only && kind)
		return fail_at_proto(cx, pm, "message %s is a node kind but the overrides say proto_only (%s)", name,
							 overrides_location(cx->ov, name, "proto_only"));
	if (!proto_only) {
		if (!kind)
			return fail_at_proto(cx, pm,
								 "message %s is not a member of %s and has no C struct: add '%s proto_only:true' to "
								 "the overrides if it exists only in the proto",
								 name, cx->node_message, name);
		if (!check_c_struct_override(cx, name))
			return false;
		c_name = c_struct_name(cx, name);
		c_struct = json_object_get(cx->c_structs, c_name);
		if (!c_struct)
			return fail_at_proto(cx, pm,
								 "node message %s has no C struct %s in the node model (%s): add '%s c_struct:NAME' "
								 "to the overrides if it is stored as another struct",
								 name, c_name, cx->model_name, name);
		gen_Buf tag = {0};
		gen_Buf_printf(&tag, "T_%s", name);
		bool has_tag = json_object_get(cx->c_tags, tag.data) != NULL;
		gen_Buf_free(&tag);
		if (!has_tag)
			return fail_at_proto(cx, pm,
								 "node message %s: struct %s (%s) has no NodeTag T_%s in the headers (%s); a "
								 "node kind needs its tag",
								 name, c_name, c_loc(c_struct), name, cx->model_name);
	}

	json_t *fields = json_array();
	json_t *from_pg = json_array();
	json_t *c_used = json_object();
	json_t *seen = json_object();
	json_t *done_oneofs = json_object();
	size_t i;
	json_t *pf;
	bool ok = true;

	json_array_foreach(json_object_get(pm, "fields"), i, pf)
	{
		json_t *field = json_object();
		const char *oneof = json_string_value(json_object_get(pf, "oneof"));
		if (oneof) {
			if (json_object_get(done_oneofs, oneof)) {
				json_decref(field);
				continue;
			}
			json_object_set_new(done_oneofs, oneof, json_true());
			ok = check_member_name(cx, pf, name, oneof, seen) &&
				 build_oneof(cx, pm, oneof, c_struct, field, oneofs, from_pg, c_used);
			if (!ok) {
				json_decref(field);
				break;
			}
			json_array_append_new(fields, field);
			continue;
		}

		const char *member = B(pf, "json_name_explicit") ? S(pf, "json_name") : S(pf, "name");
		json_object_set_new(field, "name", json_string(member));
		json_object_set_new(field, "proto_name", json_string(S(pf, "name")));
		json_object_set_new(field, "number", json_integer(I(pf, "number")));
		json_object_set_new(field, "line", json_integer(I(pf, "line")));
		if (!(ok = check_member_name(cx, pf, name, member, seen) && ast_shape(cx, pf, field))) {
			json_decref(field);
			break;
		}

		if (c_struct) {
			gen_Buf target = {0};
			gen_Buf_printf(&target, "%s.%s", name, S(pf, "name"));
			const char *kind_override = overrides_get(cx->ov, target.data, "kind");
			if (kind_override) {
				static const char *const cell_kinds[] = {"LIST_CELLS", "INT_CELLS", "OID_CELLS", NULL};
				if (!gen_one_of(kind_override, cell_kinds) || strcmp(S(field, "wire"), "REPEATED_NODE") != 0 ||
					strcmp(S(c_struct, "name"), "List") != 0) {
					ok = overrides_fail(
						cx->ov, cx->err, target.data, "kind",
						"%s kind:%s: only LIST_CELLS, INT_CELLS or OID_CELLS, on a repeated Node field of a "
						"message stored as struct List",
						target.data, kind_override);
				} else {
					json_array_append_new(from_pg,
										  json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "conv", kind_override, "c_field",
													"_", "ast_field", member, "type", "_", "cond", "", "c_base", "_"));
				}
				gen_Buf_free(&target);
				if (!ok) {
					json_decref(field);
					break;
				}
				json_array_append_new(fields, field);
				continue;
			}
			gen_Buf_free(&target);

			/* libpg_query sets json_name to the C field name. */
			const char *c_field_name = S(pf, "json_name");
			json_t *cf = find_c_field(c_struct, c_field_name);
			if (!cf) {
				ok = fail_at_proto(cx, pf, "proto field %s.%s (json_name \"%s\") has no C field %s in struct %s (%s)",
								   name, S(pf, "name"), c_field_name, c_field_name, c_name, c_loc(c_struct));
				json_decref(field);
				break;
			}
			const char *conv = pair_kind(cx, pf, cf);
			const char *empty = overrides_get(cx->ov, target_name(name, S(pf, "name")), "empty_string");
			if (empty) {
				if (strcmp(empty, "keep") != 0 || !conv || strcmp(conv, "CSTRING") != 0) {
					ok = overrides_fail(cx->ov, cx->err, target_name(name, S(pf, "name")), "empty_string",
										"%s.%s empty_string:%s: only 'keep', on a char * field", name, S(pf, "name"),
										empty);
					json_decref(field);
					break;
				}
				conv = "VALUE_STRING";
			}
			if (!conv) {
				ok = fail_at_proto(cx, pf,
								   "cannot classify %s.%s: proto %s%s%s, C field %s of type '%s' (canonical '%s', "
								   "%s)",
								   name, S(pf, "name"), B(pf, "repeated") ? "repeated " : "", S(pf, "type"),
								   strcmp(S(pf, "type_kind"), "scalar") == 0 ? "" : "", S(cf, "name"), S(cf, "type"),
								   S(cf, "canonical"), c_loc(cf));
				json_decref(field);
				break;
			}
			json_object_set_new(c_used, c_field_name, json_true());
			json_array_append_new(from_pg, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "conv", conv, "c_field",
													 c_field_name, "ast_field", member, "type",
													 strcmp(conv, "MESSAGE") == 0 || strcmp(conv, "EMBEDDED") == 0 ||
															 strcmp(conv, "ENUM") == 0
														 ? S(pf, "type")
														 : "_",
													 "cond", "", "c_base", S(cf, "base")));
		}
		json_array_append_new(fields, field);
	}

	if (ok && c_struct) {
		/* C fields with no proto field: listed, never silently dropped. The leading NodeTag is the
		 * node's own tag. */
		json_t *cf;
		json_array_foreach(json_object_get(c_struct, "fields"), i, cf)
		{
			if (json_object_get(c_used, S(cf, "name")))
				continue;
			if (i == 0 && strcmp(S(cf, "base"), "NodeTag") == 0)
				continue;
			json_array_append_new(skipped,
								  json_pack("{s:s, s:s, s:s, s:s, s:s}", "message", name, "struct", c_name, "field",
											S(cf, "name"), "type", S(cf, "type"), "location", c_loc(cf)));
		}
	}

	if (ok) {
		/* The encoder writes fields from the highest number down (see targets/c/runtime/encode.c). */
		size_t n = json_array_size(fields);
		json_t **sorted = gen_xcalloc(n, sizeof *sorted);
		for (size_t k = 0; k < n; k++)
			sorted[k] = json_array_get(fields, k);
		qsort(sorted, n, sizeof *sorted, cmp_number_desc);
		json_t *encode = json_array();
		for (size_t k = 0; k < n; k++)
			json_array_append(encode, sorted[k]);
		free(sorted);

		json_t *msg = json_object();
		json_object_set_new(msg, "name", json_string(name));
		json_object_set_new(msg, "is_node", json_boolean(kind != NULL));
		json_object_set_new(msg, "number", json_integer(kind ? I(kind, "number") : 0));
		json_object_set_new(msg, "has_c", json_boolean(c_struct != NULL));
		json_object_set_new(msg, "c_struct", json_string(c_struct ? c_name : ""));
		json_object_set_new(msg, "fields", json_incref(fields));
		json_object_set_new(msg, "encode", encode);
		json_object_set_new(msg, "from_pg", json_incref(from_pg));
		json_object_set_new(msg, "has_fields", json_boolean(n > 0));
		json_array_append_new(messages, msg);
	}
	json_decref(fields);
	json_decref(from_pg);
	json_decref(c_used);
	json_decref(seen);
	json_decref(done_oneofs);
	return ok;
}

/* Enum maps are emitted only for enums some C field converts (c_used). */
static void mark_converted_enums(json_t *messages, json_t *enums)
{
	json_t *used = json_object();
	size_t i, j;
	json_t *m, *f;
	json_array_foreach(messages, i, m)
	{
		json_array_foreach(json_object_get(m, "from_pg"), j, f) if (strcmp(S(f, "conv"), "ENUM") == 0)
			json_object_set_new(used, S(f, "type"), json_true());
	}
	json_array_foreach(enums, i, m) json_object_set_new(m, "c_used", json_boolean(json_object_get(used, S(m, "name"))));
	json_decref(used);
}

/* Reflection tables refer to messages, enums and oneofs by index: record each field's. */
static void link_indexes(json_t *messages, json_t *enums, json_t *oneofs, json_t *nodes)
{
	json_t *msg_index = json_object(), *enum_index = json_object(), *oneof_index = json_object();
	size_t i, j;
	json_t *v, *f;
	json_array_foreach(messages, i, v) json_object_set_new(msg_index, S(v, "name"), json_integer((json_int_t)i));
	json_array_foreach(enums, i, v) json_object_set_new(enum_index, S(v, "name"), json_integer((json_int_t)i));
	json_array_foreach(oneofs, i, v) json_object_set_new(oneof_index, S(v, "id"), json_integer((json_int_t)i));
	json_array_foreach(messages, i, v)
	{
		json_array_foreach(json_object_get(v, "fields"), j, f)
		{
			const char *wire = S(f, "wire"), *type = S(f, "type");
			json_t *idx = NULL;
			if (strcmp(wire, "MESSAGE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0)
				idx = json_object_get(msg_index, type);
			else if (strcmp(wire, "ENUM") == 0)
				idx = json_object_get(enum_index, type);
			else if (strcmp(wire, "ONEOF") == 0)
				idx = json_object_get(oneof_index, type);
			json_object_set_new(f, "type_index", json_integer(idx ? json_integer_value(idx) : -1));
			json_object_set_new(f, "message", json_string(S(v, "name")));
		}
	}
	json_array_foreach(nodes, i, v) json_object_set(v, "msg_index", json_object_get(msg_index, S(v, "name")));

	/* The decoder's case list: one entry per (field number, wire form) it accepts. Repeated
	 * uint64 comes packed or one varint at a time; each oneof member has its own number. */
	json_array_foreach(messages, i, v)
	{
		json_t *decode = json_array(), *strings = json_array();
		json_array_foreach(json_object_get(v, "fields"), j, f)
		{
			const char *wire = S(f, "wire"), *name = S(f, "name");
			if (strcmp(wire, "ONEOF") == 0) {
				json_t *o = json_array_get(oneofs, (size_t)I(f, "type_index"));
				size_t k;
				json_t *mem;
				json_array_foreach(json_object_get(o, "members"), k, mem)
					json_array_append_new(decode, json_pack("{s:I, s:s, s:s, s:s}", "number", I(mem, "number"), "wire",
															"ONEOF_MEMBER", "name", name, "type", S(mem, "message")));
				continue;
			}
			json_array_append_new(decode, json_pack("{s:I, s:s, s:s, s:s}", "number", I(f, "number"), "wire", wire,
													"name", name, "type", S(f, "type")));
			if (strcmp(wire, "PACKED_UINT64") == 0)
				json_array_append_new(decode, json_pack("{s:I, s:s, s:s, s:s}", "number", I(f, "number"), "wire",
														"UNPACKED_UINT64", "name", name, "type", S(f, "type")));
		}
		/* which string fields libpg_query's reader turns "" into NULL in (CSTRING), and which are
		 * one C char (CHAR: the reader keeps the string's first byte) */
		json_t *cstrings = json_object(), *chars = json_object();
		json_array_foreach(json_object_get(v, "from_pg"), j, f)
		{
			if (strcmp(S(f, "conv"), "CSTRING") == 0)
				json_object_set_new(cstrings, S(f, "ast_field"), json_true());
			else if (strcmp(S(f, "conv"), "CHAR") == 0)
				json_object_set_new(chars, S(f, "ast_field"), json_true());
		}
		json_array_foreach(json_object_get(v, "fields"), j, f)
		{
			json_object_set_new(f, "empty_is_null", json_boolean(json_object_get(cstrings, S(f, "name")) != NULL));
			json_object_set_new(f, "c_char", json_boolean(json_object_get(chars, S(f, "name")) != NULL));
		}
		json_decref(cstrings);
		json_decref(chars);
		/* value nodes' strings are never NULL (override empty_string:keep): absent is "" */
		json_array_foreach(json_object_get(v, "from_pg"), j, f)
		{
			if (strcmp(S(f, "conv"), "VALUE_STRING") == 0)
				json_array_append_new(strings, json_pack("{s:s}", "name", S(f, "ast_field")));
		}
		json_object_set_new(v, "decode", decode);
		json_object_set_new(v, "value_strings", strings);
	}
	json_array_foreach(oneofs, i, v)
	{
		json_array_foreach(json_object_get(v, "members"), j, f)
			json_object_set(f, "msg_index", json_object_get(msg_index, S(f, "message")));
	}
	json_decref(msg_index);
	json_decref(enum_index);
	json_decref(oneof_index);
}

json_t *classify(json_t *model, const char *model_name, json_t *full_proto, Overrides *ov, gen_Error *err)
{
	Cx cx = {
		.model = model,
		.model_name = model_name,
		.proto_name = S(full_proto, "file"),
		.ov = ov,
		.err = err,
	};
	json_t *proto = without_ignored(&cx, full_proto);
	if (!proto)
		return NULL;
	cx.proto = proto;
	cx.unmapped = json_array();
	json_t *view = NULL;
	json_t *messages = json_array(), *enums = json_array(), *oneofs = json_array(), *skipped = json_array();
	json_t *nodes = json_array(), *orphans = json_array(), *deparse_rules = NULL;
	bool ok = index_inputs(&cx) && build_enums(&cx, enums);

	size_t i;
	json_t *pm;
	if (ok) {
		json_array_foreach(json_object_get(proto, "messages"), i, pm)
		{
			if (strcmp(S(pm, "name"), cx.node_message) == 0)
				continue;
			if (!(ok = build_message(&cx, pm, messages, oneofs, skipped)))
				break;
		}
	}
	if (ok) {
		/* Node kinds in oneof order: the AST's tag values are these numbers. */
		json_t *f;
		json_array_foreach(json_object_get(json_object_get(cx.p_messages, cx.node_message), "fields"), i, f)
		{
			json_array_append_new(nodes,
								  json_pack("{s:s, s:I, s:s, s:s}", "name", S(f, "type"), "number", I(f, "number"),
											"c_struct", c_struct_name(&cx, S(f, "type")), "field", S(f, "name")));
		}
		/* C node structs the proto has no message for (Const in 15): listed, not converted. */
		json_t *cs;
		json_array_foreach(json_object_get(model, "structs"), i, cs)
		{
			/* untagged structs (Node, Expr, ...) are supertypes, not node kinds */
			if (json_is_string(json_object_get(cs, "tag")) && !json_object_get(cx.node_kinds, S(cs, "name")))
				json_array_append_new(orphans, json_pack("{s:s, s:s}", "name", S(cs, "name"), "location", c_loc(cs)));
		}
		ok = behaviours_declare(ov, messages, err) && deparse_rules_build(ov, messages, nodes, &deparse_rules, err) &&
			 overrides_check_all_used(ov, err);
	}
	if (ok) {
		link_indexes(messages, enums, oneofs, nodes);
		mark_converted_enums(messages, enums);
		deparse_rules_tests(messages, nodes, deparse_rules); /* reads c_char, set above */
	}
	if (ok) {
		json_t *tags = json_array();
		json_t *tv;
		json_array_foreach(json_object_get(model, "nodetags"), i, tv)
		{
			/* only the tags pgbind's converters name, for the generated static assertions */
			const char *t = S(tv, "name");
			if (strncmp(t, "T_", 2) == 0 && json_object_get(cx.node_kinds, t + 2))
				json_array_append_new(tags, json_pack("{s:s, s:I}", "name", t, "value", I(tv, "value")));
		}
		json_int_t tag_limit = 1;
		json_t *nv;
		json_array_foreach(nodes, i, nv) if (I(nv, "number") >= tag_limit) tag_limit = I(nv, "number") + 1;
		view = json_pack("{s:I, s:O, s:I, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:o, s:o, s:I, s:I, s:I}", "pg_major",
						 json_integer_value(json_object_get(model, "pg_major")), "unmapped_enum_values", cx.unmapped,
						 "tag_limit", tag_limit, "node_message", cx.node_message, "messages", messages, "enums", enums,
						 "oneofs", oneofs, "nodes", nodes, "skipped", skipped, "orphan_structs", orphans, "c_tags",
						 tags, "overrides", overrides_to_json(ov), "n_messages", (json_int_t)json_array_size(messages),
						 "n_enums", (json_int_t)json_array_size(enums), "n_nodes", (json_int_t)json_array_size(nodes));
		/* the name of the node message's oneof (a target may spell its field) */
		json_t *nf = json_array_get(json_object_get(json_object_get(cx.p_messages, cx.node_message), "fields"), 0);
		const char *node_oneof = nf ? json_string_value(json_object_get(nf, "oneof")) : NULL;
		json_object_set_new(view, "node_oneof", json_string(node_oneof ? node_oneof : ""));
		json_object_set(view, "deparse_rules", deparse_rules);
	}
	json_decref(messages);
	json_decref(enums);
	json_decref(oneofs);
	json_decref(skipped);
	json_decref(nodes);
	json_decref(orphans);
	json_decref(deparse_rules);
	json_decref(cx.c_structs);
	json_decref(cx.c_enums);
	json_decref(cx.c_tags);
	json_decref(cx.p_messages);
	json_decref(cx.p_enums);
	json_decref(cx.node_kinds);
	json_decref(cx.unmapped);
	json_decref(proto);
	return view;
}
