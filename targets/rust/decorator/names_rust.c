/*
 * names_rust.c -- prost-build's and bindgen's spelling of names (see names_rust.h).
 *
 * heck splits an identifier into words at every character that is not an ASCII letter or digit
 * ('_' included), and inside a run of letters before an uppercase letter that follows a
 * lowercase one ("rangeVar" -> range|Var) and before the last uppercase letter of an uppercase
 * run followed by a lowercase one ("CTECycle" -> CTE|Cycle). Digits belong to the word they are
 * in and do not change the case mode. UpperCamelCase capitalises each word (first letter up, the
 * rest down); snake_case lowercases them and joins them with '_'.
 */
#include "names_rust.h"

#include "common.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

typedef enum { MODE_BOUNDARY, MODE_LOWER, MODE_UPPER } Mode;

/* Calls emit(word, len, ctx) for each word of s, in order. */
static void split_words(const char *s, void (*emit)(const char *, size_t, void *), void *ctx)
{
	const char *p = s;
	while (*p) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *seg = p;
		while (*p && isalnum((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - seg), init = 0;
		Mode mode = MODE_BOUNDARY;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)seg[i];
			if (i + 1 == n) {
				emit(seg + init, n - init, ctx);
				break;
			}
			unsigned char next = (unsigned char)seg[i + 1];
			Mode next_mode = islower(c) ? MODE_LOWER : isupper(c) ? MODE_UPPER : mode;
			if (next_mode == MODE_LOWER && isupper(next)) {
				emit(seg + init, i + 1 - init, ctx);
				init = i + 1;
				mode = MODE_BOUNDARY;
			} else if (mode == MODE_UPPER && isupper(c) && islower(next)) {
				emit(seg + init, i - init, ctx);
				init = i;
				mode = MODE_BOUNDARY;
			} else {
				mode = next_mode;
			}
		}
	}
}

static void emit_camel(const char *w, size_t n, void *ctx)
{
	gen_Buf *b = ctx;
	for (size_t i = 0; i < n; i++) {
		char c = (char)(i == 0 ? toupper((unsigned char)w[i]) : tolower((unsigned char)w[i]));
		gen_Buf_printf(b, "%c", c);
	}
}

static void emit_snake(const char *w, size_t n, void *ctx)
{
	gen_Buf *b = ctx;
	if (b->len)
		gen_Buf_puts(b, "_");
	for (size_t i = 0; i < n; i++)
		gen_Buf_printf(b, "%c", (char)tolower((unsigned char)w[i]));
}

char *names_prost_type(const char *proto_name)
{
	gen_Buf b = {0};
	gen_Buf_puts(&b, "");
	split_words(proto_name, emit_camel, &b);
	if (strcmp(b.data, "Self") == 0)
		gen_Buf_puts(&b, "_");
	return b.data;
}

/* Rust's keywords: prost-build makes these raw identifiers ... */
static const char *const raw_keywords[] = {
	"as",      "break",    "const",  "continue", "else",  "enum",  "false",  "fn",       "for",   "if",
	"impl",    "in",       "let",    "loop",     "match", "mod",   "move",   "mut",      "pub",   "ref",
	"return",  "static",   "struct", "trait",    "true",  "type",  "unsafe", "use",      "where", "while",
	"dyn",     "abstract", "become", "box",      "do",    "final", "macro",  "override", "priv",  "typeof",
	"unsized", "virtual",  "yield",  "async",    "await", "try",
};
/* ... and appends '_' to these, which cannot be raw. */
static const char *const suffixed_keywords[] = {"self", "super", "extern", "crate"};

#define IN_LIST(name, list) in_list(name, list, sizeof list / sizeof *list)

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

char *names_prost_field(const char *proto_name)
{
	gen_Buf b = {0};
	gen_Buf_puts(&b, "");
	split_words(proto_name, emit_snake, &b);
	if (IN_LIST(b.data, raw_keywords)) {
		gen_Buf r = {0};
		gen_Buf_printf(&r, "r#%s", b.data);
		gen_Buf_free(&b);
		return r.data;
	}
	if (IN_LIST(b.data, suffixed_keywords))
		gen_Buf_puts(&b, "_");
	return b.data;
}

/* bindgen's name of a C member: a Rust keyword gets '_' appended (override -> override_). */
static char *bindgen_member(const char *c_name)
{
	gen_Buf b = {0};
	gen_Buf_puts(&b, c_name);
	if (IN_LIST(c_name, raw_keywords) || IN_LIST(c_name, suffixed_keywords))
		gen_Buf_puts(&b, "_");
	return b.data;
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

void names_add_prost(json_t *view)
{
	size_t i, j;
	json_t *m, *f;
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		set_name(m, "rust_name", names_prost_type(str(m, "name")));
		set_name(m, "rust_mod", names_prost_field(str(m, "name")));
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			set_name(f, "rust_name", names_prost_field(str(f, "proto_name")));
			set_name(f, "rust_c_name", bindgen_member(str(f, "name")));
			/* the Rust type a message, node or oneof field's value has ("Scalar" for the others) */
			const char *type = str(f, "type");
			set_name(f, "rust_type", names_prost_type(strcmp(type, "_") == 0 ? "Scalar" : type));
		}
	}
	json_array_foreach(json_object_get(view, "nodes"), i, m)
	{
		set_name(m, "rust_name", names_prost_type(str(m, "name")));
		set_name(m, "rust_variant", names_prost_type(str(m, "field")));
	}
	json_array_foreach(json_object_get(view, "oneofs"), i, m)
	{
		set_name(m, "rust_mod", names_prost_field(str(m, "message")));
		set_name(m, "rust_enum", names_prost_type(str(m, "name")));
		set_name(m, "rust_field", names_prost_field(str(m, "name")));
		set_name(m, "rust_name", names_prost_type(str(m, "id")));
		json_array_foreach(json_object_get(m, "members"), j, f)
		{
			set_name(f, "rust_variant", names_prost_type(str(f, "name")));
			set_name(f, "rust_type", names_prost_type(str(f, "message")));
		}
	}
	json_array_foreach(json_object_get(view, "enums"), i, m) set_name(m, "rust_name", names_prost_type(str(m, "name")));

	/* The node oneof's variant of each node message (prost names it after the oneof member,
	 * SqlvalueFunction, not the message, SqlValueFunction): rust_variant on a node message, and
	 * rust_type_variant on a field, the variant of its type (its rust_type where that is no
	 * node kind: naming a variant that does not exist fails to compile). */
	json_t *variants = json_object();
	json_array_foreach(json_object_get(view, "nodes"), i, m)
		json_object_set(variants, str(m, "name"), json_object_get(m, "rust_variant"));
	json_array_foreach(json_object_get(view, "messages"), i, m)
	{
		json_t *v = json_object_get(variants, str(m, "name"));
		if (v)
			json_object_set(m, "rust_variant", v);
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			v = json_object_get(variants, str(f, "type"));
			json_object_set(f, "rust_type_variant", v ? v : json_object_get(f, "rust_type"));
		}
	}
	json_array_foreach(json_object_get(view, "oneofs"), i, m)
	{
		json_array_foreach(json_object_get(m, "members"), j, f)
		{
			json_t *v = json_object_get(variants, str(f, "message"));
			json_object_set(f, "rust_type_variant", v ? v : json_object_get(f, "rust_type"));
		}
	}
	json_decref(variants);
}
