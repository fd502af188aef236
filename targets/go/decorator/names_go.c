/*
 * names_go.c -- protoc-gen-go's and cgo's spelling of names (see names_go.h).
 *
 * GoCamelCase (protobuf-go 1.28, internal/strs): a word starts at an uppercase letter or after
 * '_'; '_' before a lowercase letter is dropped and that letter is raised; any other '_' stays;
 * a leading '_' becomes 'X'; digits are copied. A message field's Go name must not be one of the
 * methods every message has (Reset, String, ...) nor collide with a getter: '_' is appended until
 * it does not, field by field in declaration order, a oneof's own name taken when its first
 * member is reached. A oneof member's wrapper type is <Message>_<field's Go name>.
 */
#include "names_go.h"

#include <ctype.h>
#include <string.h>

char *names_go_camel(const char *s)
{
	gen_Buf b = {0};
	gen_Buf_puts(&b, "");
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '.' && i + 1 < n && islower((unsigned char)s[i + 1]))
			continue;
		if (c == '.') {
			gen_Buf_puts(&b, "_");
		} else if (c == '_' && (i == 0 || s[i - 1] == '.')) {
			gen_Buf_puts(&b, "X");
		} else if (c == '_' && i + 1 < n && islower((unsigned char)s[i + 1])) {
			continue;
		} else if (isdigit(c)) {
			gen_Buf_printf(&b, "%c", c);
		} else {
			gen_Buf_printf(&b, "%c", toupper(c));
			for (; i + 1 < n && islower((unsigned char)s[i + 1]); i++)
				gen_Buf_printf(&b, "%c", s[i + 1]);
		}
	}
	return b.data;
}

/* The names taken in one message: protogen's usedNames (a name maps to whether it has a getter). */
typedef struct {
	json_t *used;
} Used;

static void used_init(Used *u)
{
	static const char *const methods[] = {
		"Reset", "String", "ProtoMessage", "Marshal", "Unmarshal", "ExtensionRangeArray", "ExtensionMap", "Descriptor"};
	u->used = json_object();
	for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
		json_object_set_new(u->used, methods[i], json_true());
}

/* protogen's makeNameUnique: a new string. */
static char *unique(Used *u, const char *proto_name, bool getter)
{
	gen_Buf b = {0};
	char *camel = names_go_camel(proto_name);
	gen_Buf_puts(&b, camel);
	free(camel);
	for (;;) {
		gen_Buf g = {0};
		gen_Buf_printf(&g, "Get%s", b.data);
		bool taken = json_object_get(u->used, b.data) || (getter && json_object_get(u->used, g.data));
		if (!taken) {
			json_object_set_new(u->used, b.data, json_true());
			json_object_set_new(u->used, g.data, json_boolean(getter));
			gen_Buf_free(&g);
			return b.data;
		}
		gen_Buf_free(&g);
		gen_Buf_puts(&b, "_");
	}
}

static void set_name(json_t *obj, const char *key, char *value)
{
	json_object_set_new(obj, key, json_string(value));
	free(value);
}

static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static char *printf_name(const char *a, const char *b)
{
	gen_Buf n = {0};
	gen_Buf_printf(&n, "%s%s", a, b);
	return n.data;
}

bool names_go_is_keyword(const char *name)
{
	static const char *const keywords[] = {"break",  "case",        "chan", "const",   "continue", "default", "defer",
										   "else",   "fallthrough", "for",  "func",    "go",       "goto",    "if",
										   "import", "interface",   "map",  "package", "range",    "return",  "select",
										   "struct", "switch",      "type", "var"};
	for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
		if (strcmp(name, keywords[i]) == 0)
			return true;
	return false;
}

/* cgo's name of a C struct member: a Go keyword gets a leading '_' (type -> _type). */
static char *cgo_member(const char *c_name)
{
	return names_go_is_keyword(c_name) ? printf_name("_", c_name) : gen_xstrdup(c_name);
}

/* The wire kinds: which go_kind_* flag each sets, a scalar's Go type, and the property test's
 * random value of a scalar (go_rand, a function of random.go). */
static const struct {
	const char *wire, *kind, *go_type, *go_rand, *c_type;
} wires[] = {
	{"INT32", "scalar", "int32", "randInt32", "int32_t"},
	{"UINT32", "scalar", "uint32", "randUint32", "uint32_t"},
	{"INT64", "scalar", "int64", "randInt64", "int64_t"},
	{"UINT64", "scalar", "uint64", "randUint64", "uint64_t"},
	{"BOOL", "scalar", "bool", "randBool", "bool"},
	{"DOUBLE", "scalar", "float64", "randFloat64", "double"},
	{"ENUM", "scalar", NULL, "randEnum", NULL},
	{"STRING", "string", "string", "", ""},
	{"NODE", "node", "Node", "", ""},
	{"MESSAGE", "message", NULL, "", ""},
	{"REPEATED_NODE", "rep_node", "Node", "", ""},
	{"REPEATED_MESSAGE", "rep_message", NULL, "", ""},
	{"PACKED_UINT64", "packed", "uint64", "", ""},
	{"ONEOF", "oneof", NULL, "", ""},
};
static const char *const kinds[] = {"scalar",   "string",      "node",   "message",
									"rep_node", "rep_message", "packed", "oneof"};

static json_t *find_oneof(json_t *view, const char *id)
{
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(view, "oneofs"), i, o) if (strcmp(str(o, "id"), id) == 0) return o;
	return NULL;
}

static bool add_field(json_t *view, json_t *m, json_t *f, Used *used, gen_Error *err)
{
	const char *wire = str(f, "wire"), *type = str(f, "type");
	size_t w = 0;
	while (w < sizeof wires / sizeof *wires && strcmp(wires[w].wire, wire) != 0)
		w++;
	if (w == sizeof wires / sizeof *wires)
		return gen_fail(err, "targets/go/decorator/names_go.c", 0, 0, "field %s.%s: wire kind %s has no Go conversion",
						str(m, "name"), str(f, "name"), wire);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		char *key = printf_name("go_kind_", kinds[k]);
		json_object_set_new(f, key, json_boolean(strcmp(kinds[k], wires[w].kind) == 0));
		free(key);
	}
	json_object_set_new(f, "go_rand", json_string(wires[w].go_rand));
	set_name(f, "go_type", wires[w].go_type ? gen_xstrdup(wires[w].go_type) : names_go_camel(type));
	/* the C type a scalar or enum is cast to (pgbind_ast.h's spelling, as cgo names it); "" for
	 * the other kinds */
	if (wires[w].c_type)
		set_name(f, "go_c_type", printf_name(*wires[w].c_type ? "C." : "", wires[w].c_type));
	else
		set_name(f, "go_c_type", printf_name("C.pgbind_", type));
	set_name(f, "go_c_name", cgo_member(str(f, "name")));
	json_object_set_new(f, "go_message", json_string(str(m, "go_name"))); /* the Go type the field is in */
	if (strcmp(wire, "ONEOF") != 0) {
		set_name(f, "go_name", unique(used, str(f, "proto_name"), true));
		return true;
	}
	/* a oneof: its first member, then its own name, then the other members */
	json_t *o = find_oneof(view, type);
	if (!o)
		return gen_fail(err, "targets/go/decorator/names_go.c", 0, 0, "field %s.%s: oneof %s is not in the view",
						str(m, "name"), str(f, "name"), type);
	char *msg = names_go_camel(str(m, "name"));
	size_t j;
	json_t *mem;
	json_array_foreach(json_object_get(o, "members"), j, mem)
	{
		set_name(mem, "go_field", unique(used, str(mem, "name"), true));
		gen_Buf wrapper = {0};
		gen_Buf_printf(&wrapper, "%s_%s", msg, str(mem, "go_field"));
		set_name(mem, "go_wrapper", wrapper.data);
		set_name(mem, "go_type", names_go_camel(str(mem, "message")));
		if (j == 0) {
			char *name = unique(used, str(o, "name"), false);
			/* isA_Const_Val: "is" + <Message>_<Oneof> */
			gen_Buf iface = {0};
			gen_Buf_printf(&iface, "is%s_%s", msg, name);
			set_name(o, "go_iface", iface.data);
			json_object_set_new(o, "go_field", json_string(name));
			json_object_set_new(f, "go_name", json_string(name));
			free(name);
		}
	}
	free(msg);
	return true;
}

bool names_add_go(json_t *view, gen_Error *err)
{
	size_t i, j;
	json_t *m, *f;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		set_name(m, "go_name", names_go_camel(str(m, "name")));
		Used used;
		used_init(&used);
		bool ok = true;
		json_array_foreach(json_object_get(m, "fields"), j, f) if (ok) ok = add_field(view, m, f, &used, err);
		json_decref(used.used);
		if (!ok)
			return false;
	}
	/* the Node message's oneof: one member per node kind, in declaration order */
	Used used;
	used_init(&used);
	char *node = names_go_camel(str(view, "node_message"));
	json_array_foreach(json_object_get(view, "nodes"), i, m)
	{
		set_name(m, "go_name", names_go_camel(str(m, "name")));
		set_name(m, "go_field", unique(&used, str(m, "field"), true));
		gen_Buf wrapper = {0};
		gen_Buf_printf(&wrapper, "%s_%s", node, str(m, "go_field"));
		set_name(m, "go_wrapper", wrapper.data);
		if (i == 0) /* the oneof's own name, taken after its first member: the field that holds the wrapper */
			set_name(view, "go_node_field", unique(&used, str(view, "node_oneof"), false));
	}
	free(node);
	json_decref(used.used);
	/* a oneof member's accessor on NodeView: its node kind's wrapper field */
	json_array_foreach(json_object_get(view, "oneofs"), i, m)
	{
		json_array_foreach(json_object_get(m, "members"), j, f)
		{
			size_t k;
			json_t *n;
			json_array_foreach(json_object_get(view, "nodes"), k, n) if (strcmp(str(n, "name"), str(f, "message")) == 0)
				json_object_set_new(f, "go_node_field", json_string(str(n, "go_field")));
			if (!json_object_get(f, "go_node_field"))
				return gen_fail(err, "targets/go/decorator/names_go.c", 0, 0, "oneof %s: member %s is no node kind",
								str(m, "id"), str(f, "name"));
		}
	}
	json_array_foreach(json_object_get(view, "enums"), i, m) set_name(m, "go_name", names_go_camel(str(m, "name")));
	return true;
}
