/*
 * convert_emit.c -- writes the tables of the transcoders between two majors' pg_query.proto, both
 * directions (older -> newer: "up", newer -> older: "down"), as one C file in the shape of
 * targets/c/runtime/convert_table.h. Entry point cg_emit(), called by generator/convert.c after
 * cg_check() has found every difference declared. The declarations (schema/majors.txt) it reads:
 * moved:/when:, map:/to:, dropped:, unset:, option:, down:drop, default:/if: and set:PG_VERSION_NUM
 * (docs/convert.md).
 */
#include "convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C enums of targets/c/runtime/convert_table.h, by value. */
enum { IN_REPEATED = 1, IN_DROP = 2, IN_INLINE = 4, IN_NODE = 8 };
enum {
	OP_COPY,
	OP_MSG,
	OP_ENUM,
	OP_VALUE,
	OP_SYNTH,
	OP_CONST,
	OP_DEFAULT,
	OP_DEFAULT_CHECK,
	OP_OPTION_UP,
	OP_OPTION_DOWN
};
enum { OUT_ALWAYS = 1, OUT_NEEDS_PARENT = 2 };
enum { MSG_NO_FORM = 1, MSG_STREAM = 2 };

typedef struct {
	cg_Pair *pair;
	bool up;
	cg_Proto *S, *D; /* the input proto, the output proto */
	const char *pre;
	json_t *index; /* S message name -> index */
	json_t *names; /* S message names by index */
	gen_Buf body;  /* the per-message and per-plan arrays */
	int n_plans;
	gen_Buf plans; /* the cv_Plan rows */
	json_t *enums; /* S enum name -> index */
	gen_Buf enum_rows;
	int n_values;
	gen_Buf value_rows;
	int n_defaults;
	gen_Buf default_rows;
	int n_options;
	gen_Buf option_rows;
} Dir;

typedef struct {
	char name[256];
	json_t *field; /* in S */
	int flags, sub, base, parent;
} InF;

typedef struct {
	InF *v;
	int n, cap;
} InList;

static void in_add(InList *l, InF f)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
		if (!l->v)
			abort();
	}
	l->v[l->n++] = f;
}

static int in_find(const InList *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return i;
	return -1;
}

static const char *decl(Dir *d, const char *msg, const char *field, const char *key)
{
	char target[256];
	snprintf(target, sizeof target, "%s.%s", msg, field);
	return overrides_get(d->pair->ov, target, key);
}

static int msg_index(Dir *d, const char *name)
{
	json_t *i = json_object_get(d->index, name);
	return i ? (int)json_integer_value(i) : -1;
}

/* The S enum's map to D's enum of the same name, by value name. */
static int enum_map(Dir *d, const char *name)
{
	json_t *i = json_object_get(d->enums, name);
	if (i)
		return (int)json_integer_value(i);
	int idx = (int)json_object_size(d->enums);
	json_object_set_new(d->enums, name, json_integer(idx));
	json_t *es = json_object_get(d->S->enums, name), *ed = json_object_get(d->D->enums, name);
	int max = 0;
	size_t k, j;
	json_t *v, *w;
	json_array_foreach(json_object_get(es, "values"), k, v) if (cg_int(v, "number") > max) max = cg_int(v, "number");
	gen_Buf_printf(&d->body, "static const int32_t %s_enum_%d[%d] = {", d->pre, idx, max + 1);
	for (int n = 0; n <= max; n++) {
		int to = -1;
		json_array_foreach(json_object_get(es, "values"), k, v) if (cg_int(v, "number") == n)
		{
			json_array_foreach(json_object_get(ed, "values"), j,
							   w) if (strcmp(cg_str(v, "name"), cg_str(w, "name")) == 0) to = cg_int(w, "number");
		}
		gen_Buf_printf(&d->body, "%s%d", n ? ", " : "", to);
	}
	gen_Buf_puts(&d->body, "};\n");
	gen_Buf_printf(&d->enum_rows, "\t{\"%s\", %s_enum_%d, %d},\n", name, d->pre, idx, max + 1);
	return idx;
}

/* One side of a map: pair: a value as the field's type reads it. */
static bool value_of(Dir *d, json_t *f, cg_Proto *p, const char *text, const char *target, bool *is_str,
					 unsigned long long *num, gen_Error *err)
{
	const char *kind = cg_str(f, "type_kind"), *type = cg_str(f, "type");
	*is_str = strcmp(type, "string") == 0;
	*num = 0;
	if (*is_str)
		return true;
	if (strcmp(kind, "enum") == 0) {
		size_t i;
		json_t *v;
		json_array_foreach(json_object_get(json_object_get(p->enums, type), "values"), i,
						   v) if (strcmp(cg_str(v, "name"), text) == 0)
		{
			*num = (unsigned long long)cg_int(v, "number");
			return true;
		}
		return overrides_fail(d->pair->ov, err, target, "map", "map: %s is not a value of %d's enum %s", text, p->major,
							  type);
	}
	if (strcmp(type, "bool") == 0 && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0)) {
		*num = strcmp(text, "true") == 0;
		return true;
	}
	char *end;
	long long n = strtoll(text, &end, 10);
	if (*text && !*end && strcmp(type, "bool") != 0) {
		*num = (unsigned long long)n;
		return true;
	}
	return overrides_fail(d->pair->ov, err, target, "map", "map: %s is not a %s", text, type);
}

/* A map: declaration (OLD=NEW|...) on the older field fo, whose newer field is fn, as a value map. */
static int value_map(Dir *d, const char *msg, json_t *fo, json_t *fn, gen_Error *err)
{
	char target[256], buf[512];
	snprintf(target, sizeof target, "%s.%s", msg, cg_str(fo, "name"));
	snprintf(buf, sizeof buf, "%s", overrides_get(d->pair->ov, target, "map"));
	int idx = d->n_values++;
	gen_Buf_printf(&d->body, "static const cv_ValuePair %s_value_%d[] = {\n", d->pre, idx);
	int n = 0;
	bool in_str = false, out_str = false;
	char *save = NULL;
	for (char *item = strtok_r(buf, "|,", &save); item; item = strtok_r(NULL, "|,", &save), n++) {
		char *eq = strchr(item, '=');
		if (!eq) {
			overrides_fail(d->pair->ov, err, target, "map", "map: %s is not OLD=NEW", item);
			return -1;
		}
		*eq = '\0';
		bool s_old, s_new;
		unsigned long long n_old, n_new;
		if (!value_of(d, fo, d->pair->older, item, target, &s_old, &n_old, err) ||
			!value_of(d, fn, d->pair->newer, eq + 1, target, &s_new, &n_new, err))
			return -1;
		const char *in = d->up ? item : eq + 1, *out = d->up ? eq + 1 : item;
		in_str = d->up ? s_old : s_new;
		out_str = d->up ? s_new : s_old;
		gen_Buf_printf(&d->body, "\t{%s%s%s, %lluu, %s%s%s, %lluu},\n", in_str ? "\"" : "", in_str ? in : "NULL",
					   in_str ? "\"" : "", d->up ? n_old : n_new, out_str ? "\"" : "", out_str ? out : "NULL",
					   out_str ? "\"" : "", d->up ? n_new : n_old);
	}
	gen_Buf_puts(&d->body, "};\n");
	gen_Buf_printf(&d->value_rows, "\t{\"%s\", %s_value_%d, %d, %d, %d},\n", target, d->pre, idx, n, in_str, out_str);
	return idx;
}

/* A default: declaration (with its if:FIELD=VALUE|...) on g, a field of message mn only the newer
 * major has: its index in the defaults table, -1 when there is none, -2 on an error. */
static int default_entry(Dir *d, const InList *in, const char *mn, json_t *g, gen_Error *err)
{
	const char *gn = cg_str(g, "name"), *def = decl(d, mn, gn, "default");
	if (!def)
		return -1;
	char target[256], buf[256];
	snprintf(target, sizeof target, "%s.%s", mn, gn);
	bool is_str;
	unsigned long long num;
	if (!value_of(d, g, d->pair->newer, def, target, &is_str, &num, err))
		return -2;
	int idx = d->n_defaults++, cond = -1, n = 0;
	const char *when = decl(d, mn, gn, "if");
	if (when) {
		snprintf(buf, sizeof buf, "%s", when);
		char *eq = strchr(buf, '=');
		if (eq)
			*eq = '\0';
		cond = eq ? in_find(in, buf) : -1;
		json_t *cf = cond >= 0 ? in->v[cond].field : NULL, *other = cg_field(cg_msg(d->D, mn), buf);
		if (!cf || in->v[cond].parent >= 0 || !other || !cg_same_type(cf, other) ||
			strcmp(cg_str(cf, "type_kind"), "message") == 0 || json_is_true(json_object_get(cf, "repeated")))
			return overrides_fail(d->pair->ov, err, target, "if",
								  "if:%s: expected FIELD=VALUE|..., FIELD a scalar or enum both majors have", when),
				   -2;
		bool is_string = strcmp(cg_str(cf, "type"), "string") == 0;
		if (is_string && eq[1]) /* if:FIELD= : the string is absent (its length, the value read, 0) */
			return overrides_fail(d->pair->ov, err, target, "if",
								  "if:%s: a string field's condition is its absence (FIELD=, nothing after)", when),
				   -2;
		gen_Buf_printf(&d->body, "static const uint64_t %s_cond_%d[] = {%s", d->pre, idx, is_string ? "0u" : "");
		n = is_string;
		char *save = NULL;
		for (char *v = is_string ? NULL : strtok_r(eq + 1, "|,", &save); v; v = strtok_r(NULL, "|,", &save), n++) {
			bool s_str;
			unsigned long long cnum;
			if (!value_of(d, cf, d->S, v, target, &s_str, &cnum, err))
				return -2;
			gen_Buf_printf(&d->body, "%s%lluu", n ? ", " : "", cnum);
		}
		gen_Buf_puts(&d->body, "};\n");
	}
	char cond_arr[64] = "NULL", str[160] = "NULL";
	if (when)
		snprintf(cond_arr, sizeof cond_arr, "%s_cond_%d", d->pre, idx);
	if (is_str)
		snprintf(str, sizeof str, "\"%s\"", def);
	gen_Buf_printf(&d->default_rows, "\t{\"%s\", %d, %s, %d, %s, %lluu},\n", target, cond, cond_arr, n, str,
				   is_str ? 0ULL : num);
	return idx;
}

/* ---- option: an older bool the newer major says as one DefElem of a list ------------------------ */

static void pb_varint(gen_Buf *b, unsigned long long v)
{
	do {
		char c = (char)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		gen_Buf_append(b, &c, 1);
		v >>= 7;
	} while (v);
}

/* A length-delimited field: its tag, length and bytes. */
static void pb_len(gen_Buf *b, int number, const char *data, size_t len)
{
	pb_varint(b, (unsigned long long)number << 3 | 2);
	pb_varint(b, len);
	gen_Buf_append(b, data, len);
}

/* The newer proto's field of message `msg` named `name` (or, name NULL, the one of type `type`),
 * of type `type`: its number; 0 after filling err (at the declaration) when there is none. */
static int option_field(Dir *d, const char *target, const char *value, const char *msg, const char *name,
						const char *type, gen_Error *err)
{
	json_t *m = cg_msg(d->pair->newer, msg);
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "fields"), i,
					   f) if ((name ? strcmp(cg_str(f, "name"), name) == 0 : strcmp(cg_str(f, "type"), type) == 0) &&
							  strcmp(cg_str(f, "type"), type) == 0 &&
							  !json_is_true(json_object_get(f, "repeated"))) return cg_int(f, "number");
	return overrides_fail(d->pair->ov, err, target, "option",
						  "option:%s: %s (%d) has no field %s%s%s of type %s (message %s%s); the declaration needs it",
						  value, d->pair->newer->path, d->pair->newer->major, msg, name ? "." : "", name ? name : "",
						  type, msg, m ? "" : ", which it lacks"),
		   0;
}

/* Writes a byte string as a C array named NAME, for the cv_Option row. */
static void put_bytes_array(Dir *d, const char *name, const gen_Buf *b)
{
	gen_Buf_printf(&d->body, "static const uint8_t %s[] = {", name);
	for (size_t i = 0; i < b->len; i++)
		gen_Buf_printf(&d->body, "%s0x%02x", i ? ", " : "", (unsigned char)b->data[i]);
	gen_Buf_puts(&d->body, b->len ? "};\n" : "0};\n");
}

/* An option:LIST=NAME arg:VALUE declaration on the older bool fo of message mn: its row in the options
 * table (-1 on an error). LIST is a repeated Node field only the newer major has; VALUE is true,
 * false or a bool field both majors have (read from this direction's input). Every field number
 * comes from the newer proto; what it lacks stops the generator at the declaration's line. */
static int option_entry(Dir *d, const InList *in, const char *mn, json_t *fo, gen_Error *err)
{
	char target[256], buf[256];
	snprintf(target, sizeof target, "%s.%s", mn, cg_str(fo, "name"));
	const char *value = overrides_get(d->pair->ov, target, "option"), *val = overrides_get(d->pair->ov, target, "arg");
	snprintf(buf, sizeof buf, "%s", value);
	char *eq = strchr(buf, '=');
	if (!eq || eq == buf || !eq[1] || strchr(eq + 1, '=') || !val)
		return overrides_fail(d->pair->ov, err, target, "option",
							  "option:%s: expected option:LIST=NAME arg:VALUE (VALUE true, false or a bool field)",
							  value),
			   -1;
	*eq = '\0';
	const char *list = buf, *name = eq + 1;
	json_t *om = cg_msg(d->pair->older, mn), *nm = cg_msg(d->pair->newer, mn), *lf = cg_field(nm, list);
	if (strcmp(cg_str(fo, "type"), "bool") != 0 || json_is_true(json_object_get(fo, "repeated")))
		return overrides_fail(d->pair->ov, err, target, "option", "option:%s: %s is not a bool", value, target), -1;
	if (!lf || strcmp(cg_str(lf, "type"), "Node") != 0 || !json_is_true(json_object_get(lf, "repeated")) ||
		cg_field(om, list))
		return overrides_fail(d->pair->ov, err, target, "option",
							  "option:%s: %s is not a repeated Node field of %d's %s that %d's lacks (%s)", value, list,
							  d->pair->newer->major, mn, d->pair->older->major, d->pair->newer->path),
			   -1;
	int src = -1, constant = 0;
	if (strcmp(val, "true") == 0 || strcmp(val, "false") == 0)
		constant = strcmp(val, "true") == 0;
	else {
		json_t *vo = cg_field(om, val), *vn = cg_field(nm, val);
		src = in_find(in, val);
		if (!vo || !vn || !cg_same_type(vo, vn) || strcmp(cg_str(vo, "type"), "bool") != 0 || src < 0 ||
			in->v[src].parent >= 0)
			return overrides_fail(d->pair->ov, err, target, "arg",
								  "arg:%s: not true, false or a bool field both majors' %s have", val, mn),
				   -1;
	}
	/* The newer proto's numbers: Node's DefElem and Boolean kinds, DefElem's fields, DEFELEM_UNSPEC. */
	int node_def_elem = option_field(d, target, value, "Node", NULL, "DefElem", err);
	int node_boolean = node_def_elem ? option_field(d, target, value, "Node", NULL, "Boolean", err) : 0;
	int boolval = node_boolean ? option_field(d, target, value, "Boolean", "boolval", "bool", err) : 0;
	static const char *const de_names[] = {"defname", "arg", "defaction", "location"};
	static const char *const de_types[] = {"string", "Node", "DefElemAction", "int32"};
	int de[4] = {0};
	for (int k = 0; boolval && k < 4 && (k == 0 || de[k - 1]); k++)
		de[k] = option_field(d, target, value, "DefElem", de_names[k], de_types[k], err);
	if (!de[3])
		return -1;
	long unspec = -1;
	json_t *ea = json_object_get(d->pair->newer->enums, "DefElemAction"), *v;
	size_t i;
	json_array_foreach(json_object_get(ea, "values"), i, v) if (strcmp(cg_str(v, "name"), "DEFELEM_UNSPEC") == 0)
		unspec = cg_int(v, "number");
	if (unspec < 0)
		return overrides_fail(d->pair->ov, err, target, "option",
							  "option:%s: %s (%d) has no enum value DefElemAction.DEFELEM_UNSPEC", value,
							  d->pair->newer->path, d->pair->newer->major),
			   -1;
	/* Ignored down: DefElem's location and the fields declared down:drop (18's arg_location). */
	int idx = d->n_options++;
	gen_Buf_printf(&d->body, "static const uint32_t %s_option_%d_ignore[] = {", d->pre, idx);
	int n_ignore = 0;
	json_array_foreach(json_object_get(cg_msg(d->pair->newer, "DefElem"), "fields"), i, v)
	{
		if (cg_int(v, "number") == de[3] || decl(d, "DefElem", cg_str(v, "name"), "down"))
			gen_Buf_printf(&d->body, "%s%d", n_ignore++ ? ", " : "", cg_int(v, "number"));
	}
	gen_Buf_puts(&d->body, "};\n");
	size_t up_len[2], down_len[2];
	for (int b = 0; b < 2; b++) {
		gen_Buf boolean = {0}, arg = {0}, def = {0}, up_def = {0}, up = {0};
		if (b) {
			pb_varint(&boolean, (unsigned long long)boolval << 3);
			pb_varint(&boolean, 1);
		}
		pb_len(&arg, node_boolean, boolean.data, boolean.len);
		/* in DefElem's declaration order, as protobuf-c writes */
		json_array_foreach(json_object_get(cg_msg(d->pair->newer, "DefElem"), "fields"), i, v)
		{
			int n = cg_int(v, "number");
			gen_Buf one = {0};
			if (n == de[0])
				pb_len(&one, n, name, strlen(name));
			else if (n == de[1])
				pb_len(&one, n, arg.data, arg.len);
			else if (n == de[2]) {
				pb_varint(&one, (unsigned long long)n << 3);
				pb_varint(&one, (unsigned long long)unspec);
			}
			gen_Buf_append(&def, one.data, one.len);
			gen_Buf_append(&up_def, one.data, one.len);
			const char *dv = decl(d, "DefElem", cg_str(v, "name"), "default");
			if (dv && n != de[3] && !decl(d, "DefElem", cg_str(v, "name"), "if")) {
				/* up: a field only the newer major has takes its declared default (arg_location -1) */
				bool is_str;
				unsigned long long num;
				if (!value_of(d, v, d->pair->newer, dv, target, &is_str, &num, err))
					return -1;
				if (is_str && *dv)
					pb_len(&up_def, n, dv, strlen(dv));
				else if (!is_str && num) {
					pb_varint(&up_def, (unsigned long long)n << 3);
					pb_varint(&up_def, num);
				}
			}
			if (n == de[3]) { /* up: -1, PostgreSQL's unknown location (the older tree records none) */
				pb_varint(&up_def, (unsigned long long)n << 3);
				pb_varint(&up_def, ~0ULL);
			}
			gen_Buf_free(&one);
		}
		pb_len(&up, node_def_elem, up_def.data, up_def.len);
		char an[64];
		snprintf(an, sizeof an, "%s_option_%d_up%d", d->pre, idx, b);
		put_bytes_array(d, an, &up);
		snprintf(an, sizeof an, "%s_option_%d_down%d", d->pre, idx, b);
		put_bytes_array(d, an, &def);
		up_len[b] = up.len;
		down_len[b] = def.len;
		gen_Buf_free(&boolean);
		gen_Buf_free(&arg);
		gen_Buf_free(&def);
		gen_Buf_free(&up_def);
		gen_Buf_free(&up);
	}
	const char *p = d->pre;
	gen_Buf_printf(
		&d->option_rows,
		"\t{\"%s\", %d, %d, {%s_option_%d_up0, %s_option_%d_up1}, {%zuu, %zuu}, %d, %d, {%s_option_%d_down0, "
		"%s_option_%d_down1}, {%zuu, %zuu}, %s_option_%d_ignore, %d},\n",
		target, src, constant, p, idx, p, idx, up_len[0], up_len[1], node_def_elem, de[3], p, idx, p, idx, down_len[0],
		down_len[1], p, idx, n_ignore);
	return idx;
}

typedef struct {
	char name[256];
	int op, wire, flags, src;
	long arg;
	unsigned number;
} OutF;

/* The direct operation on a D field g read from S field s (same type). */
static OutF direct(Dir *d, json_t *g, json_t *s, int src)
{
	OutF o = {{0}, OP_COPY, cg_wire(g), 0, src, 0, (unsigned)cg_int(g, "number")};
	snprintf(o.name, sizeof o.name, "%s", cg_str(g, "name"));
	if (strcmp(cg_str(g, "type_kind"), "message") == 0) {
		o.op = OP_MSG;
		o.arg = msg_index(d, cg_str(s, "type"));
	} else if (strcmp(cg_str(g, "type_kind"), "enum") == 0) {
		o.op = OP_ENUM;
		o.arg = enum_map(d, cg_str(s, "type"));
	}
	return o;
}

static int write_plan(Dir *d, const OutF *v, int n)
{
	int idx = d->n_plans++;
	if (n) {
		gen_Buf_printf(&d->body, "static const cv_OutField %s_plan_%d[] = {\n", d->pre, idx);
		for (int i = 0; i < n; i++)
			gen_Buf_printf(&d->body, "\t{\"%s\", %u, %d, %d, %d, %d, %ld},\n", v[i].name, v[i].number, v[i].op,
						   v[i].wire, v[i].flags, v[i].src, v[i].arg);
		gen_Buf_puts(&d->body, "};\n");
		gen_Buf_printf(&d->plans, "\t{%s_plan_%d, %d},\n", d->pre, idx, n);
	} else
		gen_Buf_puts(&d->plans, "\t{NULL, 0},\n");
	return idx;
}

/* Up: the plan of a sub-message of D type `type` built from the older message's fields whose
 * moved: paths go through it; paths[i] is what remains of field srcs[i]'s path. */
static int synth_plan(Dir *d, const InList *in, const char *type, char **paths, int *srcs, bool *always, int n)
{
	json_t *tm = cg_msg(d->D, type);
	OutF *out = gen_xcalloc(json_array_size(json_object_get(tm, "fields")) + 1, sizeof *out);
	int n_out = 0;
	size_t i;
	json_t *h;
	json_array_foreach(json_object_get(tm, "fields"), i, h)
	{
		const char *hn = cg_str(h, "name");
		char *rest[16];
		int rsrc[16], k = 0;
		bool ralways[16], any_always = false;
		for (int j = 0; j < n && k < 16; j++) {
			size_t len = strlen(hn);
			if (strncmp(paths[j], hn, len) == 0 && (paths[j][len] == '\0' || paths[j][len] == '.')) {
				rest[k] = paths[j][len] ? paths[j] + len + 1 : paths[j] + len;
				rsrc[k] = srcs[j];
				ralways[k] = always[j];
				any_always |= always[j];
				k++;
			}
		}
		if (!k)
			continue;
		if (k == 1 && !*rest[0]) {
			out[n_out++] = direct(d, h, in->v[rsrc[0]].field, rsrc[0]);
			continue;
		}
		int plan = synth_plan(d, in, cg_str(h, "type"), rest, rsrc, ralways, k);
		OutF o = {{0}, OP_SYNTH, 2, any_always ? OUT_ALWAYS : 0, -1, plan, (unsigned)cg_int(h, "number")};
		snprintf(o.name, sizeof o.name, "%s", hn);
		out[n_out++] = o;
	}
	int idx = write_plan(d, out, n_out);
	free(out);
	return idx;
}

/* The input fields of S message m: its own, then the pseudo fields of each inlined one (down: the
 * newer fields a moved: path of the older message goes through). */
static void build_inputs(Dir *d, json_t *m, InList *in)
{
	const char *mn = cg_str(m, "name");
	json_t *inline_paths = json_object();
	if (!d->up) {
		json_t *om = cg_msg(d->D, mn);
		size_t i;
		json_t *f;
		json_array_foreach(json_object_get(om, "fields"), i, f)
		{
			const char *moved = decl(d, mn, cg_str(f, "name"), "moved");
			if (!moved)
				continue;
			char buf[256];
			snprintf(buf, sizeof buf, "%s", moved);
			for (char *dot = strchr(buf, '.'); dot; dot = strchr(dot + 1, '.')) {
				*dot = '\0';
				json_object_set_new(inline_paths, buf, json_true());
				*dot = '.';
			}
		}
	}
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "fields"), i, f)
	{
		InF e = {{0}, f, 0, -1, -1, -1};
		snprintf(e.name, sizeof e.name, "%s", cg_str(f, "name"));
		in_add(in, e);
	}
	for (int k = 0; k < in->n; k++) {
		InF *e = &in->v[k];
		json_t *ef = e->field;
		bool is_msg = strcmp(cg_str(ef, "type_kind"), "message") == 0;
		if (json_is_true(json_object_get(ef, "repeated")))
			e->flags |= IN_REPEATED;
		if (is_msg)
			e->sub = msg_index(d, cg_str(ef, "type"));
		const char *owner = e->parent < 0 ? mn : cg_str(in->v[e->parent].field, "type");
		if (strcmp(owner, "Node") == 0 && e->parent < 0) /* a pseudo field keeps its path as its name */
			e->flags |= IN_NODE;
		json_t *other = e->parent < 0 ? cg_field(cg_msg(d->D, mn), cg_str(ef, "name")) : NULL;
		if (e->parent < 0 && decl(d, mn, cg_str(ef, "name"), "set"))
			e->flags |= IN_DROP;
		if (e->parent < 0 && !(other && cg_same_type(ef, other))) {
			const char *fname = cg_str(ef, "name");
			if ((d->up && decl(d, mn, fname, "dropped")) || (!d->up && decl(d, mn, fname, "down")))
				e->flags |= IN_DROP;
		}
		if (is_msg && json_object_get(inline_paths, e->name)) {
			e->flags |= IN_INLINE;
			e->base = in->n;
			json_t *sm = cg_msg(d->S, cg_str(ef, "type"));
			size_t j;
			json_t *h;
			json_array_foreach(json_object_get(sm, "fields"), j, h)
			{
				InF p = {{0}, h, 0, -1, -1, k};
				snprintf(p.name, sizeof p.name, "%.120s.%.120s", in->v[k].name, cg_str(h, "name"));
				in_add(in, p);
				e = &in->v[k]; /* in_add may have moved it */
			}
		}
	}
	json_decref(inline_paths);
}

/* The plan writing D's form of S message m, or -1 when D has none. */
static int build_plan(Dir *d, json_t *m, const InList *in, bool *stream, gen_Error *err)
{
	const char *mn = cg_str(m, "name");
	json_t *dm = cg_msg(d->D, mn);
	*stream = false;
	if (!dm || json_object_get(d->pair->unset_msgs, mn))
		return -1;
	size_t nd = json_array_size(json_object_get(dm, "fields")) + json_array_size(json_object_get(m, "fields"));
	OutF *out = gen_xcalloc(nd + 1, sizeof *out);
	int n_out = 0;
	bool simple = true;
	size_t i;
	json_t *g;
	json_array_foreach(json_object_get(dm, "fields"), i, g)
	{
		const char *gn = cg_str(g, "name");
		const char *set = decl(d, mn, gn, "set");
		if (set) {
			if (strcmp(set, "PG_VERSION_NUM") != 0) {
				char target[256];
				snprintf(target, sizeof target, "%s.%s", mn, gn);
				free(out);
				return overrides_fail(d->pair->ov, err, target, "set", "set: only PG_VERSION_NUM is known"), -2;
			}
			OutF o = {{0}, OP_CONST, 0, 0, -1, d->D->version_num, (unsigned)cg_int(g, "number")};
			snprintf(o.name, sizeof o.name, "%s", gn);
			out[n_out++] = o;
			simple = false;
			continue;
		}
		json_t *older = d->up ? m : dm; /* the older major's message */
		int src = in_find(in, gn);
		json_t *s = src >= 0 ? in->v[src].field : NULL;
		if (d->up) {
			if (s && cg_same_type(s, g)) {
				out[n_out++] = direct(d, g, s, src);
				continue;
			}
			/* an older field mapped onto g, or moved into it */
			size_t j;
			json_t *fo;
			char *paths[16];
			int srcs[16], k = 0;
			bool always[16], taken = false;
			json_array_foreach(json_object_get(older, "fields"), j, fo)
			{
				const char *fon = cg_str(fo, "name");
				const char *map = decl(d, mn, fon, "map"), *to = decl(d, mn, fon, "to");
				if (map && strcmp(to ? to : fon, gn) == 0) {
					int vm = value_map(d, mn, fo, g, err);
					if (vm < 0) {
						free(out);
						return -2;
					}
					OutF o = {{0}, OP_VALUE, cg_wire(g), 0, in_find(in, fon), vm, (unsigned)cg_int(g, "number")};
					snprintf(o.name, sizeof o.name, "%s", gn);
					out[n_out++] = o;
					simple = false;
					taken = true;
				}
				const char *option = decl(d, mn, fon, "option");
				size_t olen = strlen(gn);
				if (option && strncmp(option, gn, olen) == 0 && option[olen] == '=') {
					int oi = option_entry(d, in, mn, fo, err);
					if (oi < 0) {
						free(out);
						return -2;
					}
					OutF o = {{0}, OP_OPTION_UP, 2, 0, in_find(in, fon), oi, (unsigned)cg_int(g, "number")};
					snprintf(o.name, sizeof o.name, "%s", gn);
					out[n_out++] = o;
					simple = false;
					taken = true;
				}
				const char *moved = decl(d, mn, fon, "moved");
				size_t len = strlen(gn);
				if (moved && strncmp(moved, gn, len) == 0 && moved[len] == '.' && k < 16) {
					const char *when = decl(d, mn, fon, "when");
					paths[k] = (char *)moved + len + 1;
					srcs[k] = in_find(in, fon);
					always[k] = when && strcmp(when, "always") == 0;
					k++;
				}
			}
			if (!k && !taken) {
				int di = default_entry(d, in, mn, g, err);
				if (di == -2) {
					free(out);
					return -2;
				}
				if (di >= 0) {
					OutF o = {{0}, OP_DEFAULT, cg_wire(g), 0, -1, di, (unsigned)cg_int(g, "number")};
					snprintf(o.name, sizeof o.name, "%s", gn);
					out[n_out++] = o;
					simple = false;
				}
			}
			if (k) {
				bool any = false;
				for (int x = 0; x < k; x++)
					any |= always[x];
				int plan = synth_plan(d, in, cg_str(g, "type"), paths, srcs, always, k);
				OutF o = {{0}, OP_SYNTH, 2, any ? OUT_ALWAYS : 0, -1, plan, (unsigned)cg_int(g, "number")};
				snprintf(o.name, sizeof o.name, "%s", gn);
				out[n_out++] = o;
				simple = false;
			}
			continue;
		}
		/* down: g is the older major's field; declarations are read only where it differs */
		if (s && cg_same_type(s, g)) {
			out[n_out++] = direct(d, g, s, src);
			continue;
		}
		const char *moved = decl(d, mn, gn, "moved"), *map = decl(d, mn, gn, "map");
		const char *option = decl(d, mn, gn, "option");
		if (option) {
			int oi = option_entry(d, in, mn, g, err);
			if (oi < 0) {
				free(out);
				return -2;
			}
			char list[256];
			snprintf(list, sizeof list, "%.*s", (int)strcspn(option, "="), option);
			OutF o = {{0}, OP_OPTION_DOWN, 0, 0, in_find(in, list), oi, (unsigned)cg_int(g, "number")};
			snprintf(o.name, sizeof o.name, "%s", gn);
			out[n_out++] = o;
			simple = false;
		} else if (moved) {
			int p = in_find(in, moved);
			const char *when = decl(d, mn, gn, "when");
			OutF o = direct(d, g, in->v[p].field, p);
			o.flags = when && strcmp(when, "always") == 0 ? OUT_NEEDS_PARENT : 0;
			out[n_out++] = o;
			simple = false;
		} else if (map) {
			const char *to = decl(d, mn, gn, "to");
			int p = in_find(in, to ? to : gn);
			int vm = value_map(d, mn, g, in->v[p].field, err);
			if (vm < 0) {
				free(out);
				return -2;
			}
			OutF o = {{0}, OP_VALUE, cg_wire(g), 0, p, vm, (unsigned)cg_int(g, "number")};
			snprintf(o.name, sizeof o.name, "%s", gn);
			out[n_out++] = o;
			simple = false;
		}
	}
	/* down: a newer-only field with a declared default must hold it (nothing is written), unless it
	 * is declared down:drop */
	for (int k = 0; !d->up && k < (int)json_array_size(json_object_get(m, "fields")); k++) {
		json_t *g2 = in->v[k].field, *older_f = cg_field(dm, cg_str(g2, "name"));
		if ((older_f && cg_same_type(g2, older_f)) || decl(d, mn, cg_str(g2, "name"), "down"))
			continue; /* down:drop: any value is left out, the default is up's alone */
		int di = default_entry(d, in, mn, g2, err);
		if (di == -2) {
			free(out);
			return -2;
		}
		if (di >= 0) {
			OutF o = {{0}, OP_DEFAULT_CHECK, 0, 0, k, di, 0};
			snprintf(o.name, sizeof o.name, "%s", cg_str(g2, "name"));
			out[n_out++] = o;
			simple = false;
		}
	}
	/* Written as read when each entry reads its own field, in the input's order (or the message is
	 * one oneof: one field at most), and nothing is inlined. */
	bool one_oneof = json_array_size(json_object_get(m, "oneofs")) == 1;
	json_array_foreach(json_object_get(m, "fields"), i, g) if (json_is_null(json_object_get(g, "oneof"))) one_oneof =
		false;
	for (int k = 0; simple && k < n_out; k++)
		if (out[k].src >= in->n || (k && !one_oneof && out[k].src <= out[k - 1].src))
			simple = false;
	for (int k = 0; simple && k < in->n; k++)
		if (in->v[k].flags & IN_INLINE)
			simple = false;
	*stream = simple;
	int idx = write_plan(d, out, n_out);
	if (simple) {
		gen_Buf_printf(&d->body, "static const int16_t %s_out_%d[] = {", d->pre, msg_index(d, mn));
		for (int k = 0; k < in->n; k++) {
			int at = -1;
			for (int x = 0; x < n_out; x++)
				if (out[x].src == k)
					at = x;
			gen_Buf_printf(&d->body, "%s%d", k ? ", " : "", at);
		}
		gen_Buf_puts(&d->body, "};\n");
	}
	free(out);
	return idx;
}

static bool emit_dir(cg_Pair *pair, bool up, gen_Buf *out, gen_Error *err)
{
	Dir d = {0};
	d.pair = pair;
	d.up = up;
	d.S = up ? pair->older : pair->newer;
	d.D = up ? pair->newer : pair->older;
	d.pre = up ? "up" : "down";
	d.index = json_object();
	d.names = json_pack("[s]", "ParseResult");
	d.enums = json_object();
	json_object_set_new(d.index, "ParseResult", json_integer(0));
	for (size_t i = 0; i < json_array_size(d.names); i++) {
		json_t *m = cg_msg(d.S, json_string_value(json_array_get(d.names, i)));
		size_t j;
		json_t *f;
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			const char *t = cg_str(f, "type");
			if (strcmp(cg_str(f, "type_kind"), "message") == 0 && !json_object_get(d.index, t)) {
				json_object_set_new(d.index, t, json_integer((json_int_t)json_array_size(d.names)));
				json_array_append_new(d.names, json_string(t));
			}
		}
	}
	gen_Buf rows = {0};
	bool ok = true;
	for (size_t i = 0; ok && i < json_array_size(d.names); i++) {
		json_t *m = cg_msg(d.S, json_string_value(json_array_get(d.names, i)));
		InList in = {0};
		build_inputs(&d, m, &in);
		bool stream;
		int plan = build_plan(&d, m, &in, &stream, err);
		if (plan == -2) {
			ok = false;
			break;
		}
		unsigned max = 0;
		for (int k = 0; k < in.n; k++)
			if (in.v[k].parent < 0 && (unsigned)cg_int(in.v[k].field, "number") > max)
				max = (unsigned)cg_int(in.v[k].field, "number");
		int n_proto = (int)json_array_size(json_object_get(m, "fields"));
		gen_Buf_printf(&d.body, "static const cv_InField %s_in_%zu[] = {\n", d.pre, i);
		for (int k = 0; k < in.n; k++)
			gen_Buf_printf(&d.body, "\t{\"%s\", %d, %d, %d, %d, %d, %d},\n", in.v[k].name,
						   cg_int(in.v[k].field, "number"), cg_wire(in.v[k].field), in.v[k].flags, in.v[k].sub,
						   in.v[k].base, in.v[k].parent);
		gen_Buf_puts(&d.body, "};\n");
		gen_Buf_printf(&d.body, "static const int16_t %s_num_%zu[] = {", d.pre, i);
		for (unsigned n = 0; n <= max; n++) {
			int at = -1;
			for (int k = 0; k < n_proto; k++)
				if ((unsigned)cg_int(in.v[k].field, "number") == n)
					at = k;
			gen_Buf_printf(&d.body, "%s%d", n ? ", " : "", at);
		}
		gen_Buf_puts(&d.body, "};\n");
		char out_of[64] = "NULL";
		if (stream)
			snprintf(out_of, sizeof out_of, "%s_out_%zu", d.pre, i);
		gen_Buf_printf(&rows, "\t{\"%s\", %s_in_%zu, %d, %d, %s_num_%zu, %u, %d, %s, %d},\n",
					   json_string_value(json_array_get(d.names, i)), d.pre, i, in.n, n_proto, d.pre, i, max, plan,
					   out_of, (plan < 0 ? MSG_NO_FORM : 0) | (stream ? MSG_STREAM : 0));
		free(in.v);
	}
	if (ok) {
		gen_Buf_puts(out, d.body.data ? d.body.data : "");
		gen_Buf_printf(out, "static const cv_Message %s_messages[] = {\n%s};\n", d.pre, rows.data);
		gen_Buf_printf(out, "static const cv_Plan %s_plans[] = {\n%s};\n", d.pre, d.plans.data ? d.plans.data : "");
		if (d.enum_rows.len)
			gen_Buf_printf(out, "static const cv_EnumMap %s_enums[] = {\n%s};\n", d.pre, d.enum_rows.data);
		if (d.value_rows.len)
			gen_Buf_printf(out, "static const cv_ValueMap %s_values[] = {\n%s};\n", d.pre, d.value_rows.data);
		if (d.default_rows.len)
			gen_Buf_printf(out, "static const cv_Default %s_defaults[] = {\n%s};\n", d.pre, d.default_rows.data);
		if (d.option_rows.len)
			gen_Buf_printf(out, "static const cv_Option %s_options[] = {\n%s};\n", d.pre, d.option_rows.data);
		gen_Buf_printf(out,
					   "const cv_Table pgbind_convert_pg%d_pg%d = {%d, %d, %ld, %s_messages, %zu, 0, %s_plans, %s%s, "
					   "%s%s, %s%s, %s%s};\n\n",
					   d.S->major, d.D->major, d.S->major, d.D->major, d.D->version_num, d.pre,
					   json_array_size(d.names), d.pre, d.enum_rows.len ? d.pre : "NULL",
					   d.enum_rows.len ? "_enums" : "", d.value_rows.len ? d.pre : "NULL",
					   d.value_rows.len ? "_values" : "", d.default_rows.len ? d.pre : "NULL",
					   d.default_rows.len ? "_defaults" : "", d.option_rows.len ? d.pre : "NULL",
					   d.option_rows.len ? "_options" : "");
	}
	gen_Buf_free(&d.body);
	gen_Buf_free(&d.plans);
	gen_Buf_free(&d.enum_rows);
	gen_Buf_free(&d.value_rows);
	gen_Buf_free(&d.default_rows);
	gen_Buf_free(&d.option_rows);
	gen_Buf_free(&rows);
	json_decref(d.index);
	json_decref(d.names);
	json_decref(d.enums);
	return ok;
}

bool cg_emit(cg_Pair *pair, gen_Buf *out, gen_Error *err)
{
	gen_Buf_printf(out,
				   "/*\n * Generated by pgbind-convert-gen (generator/convert.c) from the pg_query.proto of %d and\n"
				   " * of %d and %s:\n"
				   " * do not edit. The transcoders between the two majors' libpg_query protobuf encodings, as\n"
				   " * tables for targets/c/runtime/convert.c (docs/convert.md).\n */\n"
				   "/* clang-format off */\n#include \"convert_table.h\"\n\n#include <stddef.h>\n\n",
				   pair->older->major, pair->newer->major, pair->ov_path);
	return emit_dir(pair, true, out, err) && emit_dir(pair, false, out, err);
}
