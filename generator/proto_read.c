/*
 * proto_read.c -- the proto3 subset reader behind proto_read_file() and proto_read_text() (see
 * proto_read.h for the model it builds). A small on-demand tokenizer (one token of lookahead,
 * each token carrying its line/col) feeds a recursive-descent parser that builds the jansson
 * model as it goes. Type names may be used before they are declared, so references are
 * collected while parsing and resolved once the whole file has been read. The first problem
 * found stops the reader with its location; there is no error recovery, because the generator
 * must never run on a model it only partly understood.
 */
#include "proto_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Protobuf caps field numbers at 2^29 - 1 and keeps 19000..19999 for its own use. */
#define FIELD_NUMBER_MAX 536870911
#define RESERVED_FIRST   19000
#define RESERVED_LAST    19999

#define SUBSET_NOTE "(pgbind reads a subset of proto3)"

typedef enum { TK_EOF, TK_IDENT, TK_NUMBER, TK_STRING, TK_SYMBOL } TokKind;

typedef struct {
	TokKind kind;
	const char *start; /* raw text in the source; for strings, including the quotes */
	size_t len;
	int line;
	int col;
} Token;

/* A field whose type is not a scalar, to be checked once every declaration is known. */
typedef struct {
	json_t *msg;   /* borrowed from the model; its full name is the scope the type is looked up in */
	json_t *field; /* borrowed from the model */
	int line;      /* of the type token: that is where an unknown type gets reported */
	int col;
} TypeRef;

typedef struct {
	const char *name;
	const char *text;
	size_t pos;
	int line;
	int col;
	Token tok;
	gen_Buf str; /* decoded value of tok when it is a TK_STRING */
	gen_Error *err;

	json_t *root;
	json_t *messages;    /* borrowed from root */
	json_t *enums;       /* borrowed from root */
	json_t *types;       /* full message/enum name -> {"kind", "line"}: one namespace for both */
	json_t *enum_values; /* scope + value name -> its enum's name: proto3 scopes enum values like
						  * their enum, file-wide for a top-level enum, in the message for a
						  * nested one */

	TypeRef *refs;
	size_t nrefs;
	size_t caprefs;
} Parser;

/* What the message being parsed has used up; oneof members draw from the same pools. */
typedef struct {
	json_t *msg; /* borrowed from the model */
	const char *name;
	json_t *names;      /* field or oneof name -> true */
	json_t *numbers;    /* "N" -> field name */
	json_t *json_names; /* json_name -> field name */
} MsgScope;

static const char *const scalar_types[] = {
	"double",  "float",   "int32",    "int64",    "uint32", "uint64", "sint32", "sint64",
	"fixed32", "fixed64", "sfixed32", "sfixed64", "bool",   "string", "bytes",
};

/* jansson signals allocation failure with NULL or -1; like gen_xmalloc, give up at once. */
static void oom(void)
{
	fprintf(stderr, "pgbind-gen: out of memory\n");
	exit(2);
}

static json_t *must(json_t *value)
{
	if (!value)
		oom();
	return value;
}

static void obj_set(json_t *obj, const char *key, json_t *value)
{
	if (json_object_set_new(obj, key, must(value)) != 0)
		oom();
}

static void arr_add(json_t *arr, json_t *value)
{
	if (json_array_append_new(arr, must(value)) != 0)
		oom();
}

static bool failf(Parser *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool failf(Parser *p, int line, int col, const char *fmt, ...)
{
	char msg[sizeof p->err->message];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gen_fail(p->err, p->name, line, col, "%s", msg);
}

/* How a token is quoted in "found ..." messages; long ones are cut so messages stay one line. */
static void describe(const Token *t, char *out, size_t size)
{
	int len = t->len > 40 ? 40 : (int)t->len;
	const char *more = t->len > 40 ? "..." : "";

	if (t->kind == TK_EOF)
		snprintf(out, size, "end of file");
	else if (t->kind == TK_STRING)
		snprintf(out, size, "string %.*s%s", len, t->start, more);
	else
		snprintf(out, size, "'%.*s%s'", len, t->start, more);
}

/* "expected X, found Y" at the current token; at the end of the input the end itself is the news. */
static bool unexpected(Parser *p, const char *expected)
{
	char found[64];

	if (p->tok.kind == TK_EOF)
		return failf(p, p->tok.line, p->tok.col, "unexpected end of file, expected %s", expected);
	describe(&p->tok, found, sizeof found);
	return failf(p, p->tok.line, p->tok.col, "expected %s, found %s", expected, found);
}

static bool unsupported(Parser *p, const char *construct)
{
	return failf(p, p->tok.line, p->tok.col, "unsupported construct '%s' " SUBSET_NOTE, construct);
}

/* ---------------------------------------------------------------- tokenizer */

/* ASCII only, whatever the locale: the output must not depend on the environment. */
static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Skips whitespace and both comment forms, keeping line/col in step. */
static bool skip_space(Parser *p)
{
	const char *s = p->text;

	for (;;) {
		char c = s[p->pos];

		if (c == '\n') {
			p->pos++;
			p->line++;
			p->col = 1;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p->pos++;
			p->col++;
		} else if (c == '/' && s[p->pos + 1] == '/') {
			while (s[p->pos] != '\0' && s[p->pos] != '\n') {
				p->pos++;
				p->col++;
			}
		} else if (c == '/' && s[p->pos + 1] == '*') {
			int line = p->line;
			int col = p->col;

			p->pos += 2;
			p->col += 2;
			while (!(s[p->pos] == '*' && s[p->pos + 1] == '/')) {
				if (s[p->pos] == '\0')
					return failf(p, line, col, "unterminated comment");
				if (s[p->pos] == '\n') {
					p->line++;
					p->col = 1;
				} else {
					p->col++;
				}
				p->pos++;
			}
			p->pos += 2;
			p->col += 2;
		} else {
			return true;
		}
	}
}

/*
 * Decodes the string literal at p->pos (p->col is its opening quote) into p->str and sets its raw
 * length. Protobuf strings cannot span lines, so reaching a newline means the quote never closed.
 */
static bool lex_string(Parser *p, size_t *raw_len)
{
	const char *s = p->text + p->pos;
	char quote = s[0];
	size_t i = 1;

	p->str.len = 0;
	gen_Buf_append(&p->str, "", 0);
	while (s[i] != quote) {
		size_t bs = i; /* where an escape starts, for its error location */
		int value;
		char byte;

		if (s[i] == '\0' || s[i] == '\n')
			return failf(p, p->line, p->col, "unterminated string");
		if (s[i] != '\\') {
			gen_Buf_append(&p->str, &s[i++], 1);
			continue;
		}
		i += 2;
		switch (s[bs + 1]) {
		case 'a':
			value = '\a';
			break;
		case 'b':
			value = '\b';
			break;
		case 'f':
			value = '\f';
			break;
		case 'n':
			value = '\n';
			break;
		case 'r':
			value = '\r';
			break;
		case 't':
			value = '\t';
			break;
		case 'v':
			value = '\v';
			break;
		case '\\':
			value = '\\';
			break;
		case '\'':
			value = '\'';
			break;
		case '"':
			value = '"';
			break;
		case '?':
			value = '?';
			break;
		case 'x':
		case 'X':
			if (hex_value(s[i]) < 0)
				return failf(p, p->line, p->col + (int)bs, "\\x escape without hex digits");
			value = hex_value(s[i++]);
			if (hex_value(s[i]) >= 0)
				value = value * 16 + hex_value(s[i++]);
			break;
		case '\0':
		case '\n':
			return failf(p, p->line, p->col, "unterminated string");
		default:
			if (s[bs + 1] < '0' || s[bs + 1] > '7')
				return failf(p, p->line, p->col + (int)bs, "invalid escape '\\%c' in string", s[bs + 1]);
			value = s[bs + 1] - '0';
			for (int n = 1; n < 3 && s[i] >= '0' && s[i] <= '7'; n++)
				value = value * 8 + (s[i++] - '0');
			if (value > 255)
				return failf(p, p->line, p->col + (int)bs, "octal escape out of range");
			break;
		}
		/* The strings read here become JSON keys and C strings, where a NUL cannot live. */
		if (value == 0)
			return failf(p, p->line, p->col + (int)bs, "NUL character in string");
		byte = (char)value;
		gen_Buf_append(&p->str, &byte, 1);
	}
	*raw_len = i + 1;
	return true;
}

/* Reads the next token into p->tok. */
static bool next(Parser *p)
{
	const char *s;
	unsigned char c;
	size_t len = 1;

	if (!skip_space(p))
		return false;
	s = p->text + p->pos;
	c = (unsigned char)s[0];
	p->tok.start = s;
	p->tok.line = p->line;
	p->tok.col = p->col;

	if (c == '\0') {
		p->tok.kind = TK_EOF;
		len = 0;
	} else if (is_alpha(c)) {
		p->tok.kind = TK_IDENT;
		while (is_alpha(s[len]) || is_digit(s[len]))
			len++;
	} else if (is_digit(c)) {
		/* Take everything that could belong to a number; the parser says what it wanted. */
		p->tok.kind = TK_NUMBER;
		while (is_alpha(s[len]) || is_digit(s[len]) || s[len] == '.')
			len++;
	} else if (c == '"' || c == '\'') {
		p->tok.kind = TK_STRING;
		if (!lex_string(p, &len))
			return false;
	} else if (c > ' ' && c < 0x7f) {
		p->tok.kind = TK_SYMBOL;
	} else {
		return failf(p, p->line, p->col, "unexpected byte 0x%02X", c);
	}
	p->tok.len = len;
	p->pos += len;
	p->col += (int)len;
	return true;
}

static bool is_sym(const Parser *p, char c)
{
	return p->tok.kind == TK_SYMBOL && p->tok.start[0] == c;
}

static bool is_kw(const Parser *p, const char *kw)
{
	return p->tok.kind == TK_IDENT && p->tok.len == strlen(kw) && memcmp(p->tok.start, kw, p->tok.len) == 0;
}

static bool expect_sym(Parser *p, char c, const char *context)
{
	char what[128];

	if (is_sym(p, c))
		return next(p);
	snprintf(what, sizeof what, "'%c' %s", c, context);
	return unexpected(p, what);
}

/* A plain (undotted) identifier, as a new JSON string; `what` names it in errors. */
static bool take_ident(Parser *p, const char *what, json_t **out)
{
	if (p->tok.kind != TK_IDENT)
		return unexpected(p, what);
	*out = must(json_stringn(p->tok.start, p->tok.len));
	if (!next(p)) {
		json_decref(*out);
		*out = NULL;
		return false;
	}
	return true;
}

/* A dotted name (package, qualified type); protobuf allows whitespace around the dots. */
static bool take_full_ident(Parser *p, bool leading_dot, const char *what, gen_Buf *out)
{
	out->len = 0;
	gen_Buf_append(out, "", 0);
	if (leading_dot && is_sym(p, '.')) {
		gen_Buf_puts(out, ".");
		if (!next(p))
			return false;
	}
	for (;;) {
		if (p->tok.kind != TK_IDENT)
			return unexpected(p, out->len ? "an identifier after '.'" : what);
		gen_Buf_append(out, p->tok.start, p->tok.len);
		if (!next(p))
			return false;
		if (!is_sym(p, '.'))
			return true;
		gen_Buf_puts(out, ".");
		if (!next(p))
			return false;
	}
}

/*
 * An integer with an optional minus sign: decimal, 0x hex or 0-prefixed octal, as protobuf
 * allows. Returns where it started so that range errors can point at the sign too.
 */
static bool take_int(Parser *p, const char *what, long long *out, int *line, int *col)
{
	bool negative = false;
	char buf[32];
	char *end;
	unsigned long long value;

	*line = p->tok.line;
	*col = p->tok.col;
	if (is_sym(p, '-')) {
		negative = true;
		if (!next(p))
			return false;
	}
	if (p->tok.kind != TK_NUMBER)
		return unexpected(p, what);
	if (p->tok.len >= sizeof buf)
		return failf(p, p->tok.line, p->tok.col, "integer '%.20s...' is out of range", p->tok.start);
	memcpy(buf, p->tok.start, p->tok.len);
	buf[p->tok.len] = '\0';
	errno = 0;
	value = strtoull(buf, &end, 0);
	if (*end != '\0')
		return failf(p, p->tok.line, p->tok.col, "expected an integer for %s, found '%s'", what, buf);
	/* Anything this large is out of every range checked later; the cap keeps negation safe. */
	if (errno == ERANGE || value > (1ULL << 62))
		return failf(p, p->tok.line, p->tok.col, "integer '%s' is out of range", buf);
	*out = negative ? -(long long)value : (long long)value;
	return next(p);
}

/* ---------------------------------------------------------------- parser */

/* protobuf's default JSON name: each '_' dropped and the character after it upper-cased. */
static json_t *default_json_name(const char *name)
{
	gen_Buf buf = {0};
	bool upper = false;
	json_t *result;

	gen_Buf_append(&buf, "", 0);
	for (const char *s = name; *s; s++) {
		char c = *s;

		if (c == '_') {
			upper = true;
			continue;
		}
		if (upper && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		upper = false;
		gen_Buf_append(&buf, &c, 1);
	}
	result = must(json_string(buf.data));
	gen_Buf_free(&buf);
	return result;
}

static bool is_scalar(const char *type)
{
	for (size_t i = 0; i < sizeof scalar_types / sizeof scalar_types[0]; i++)
		if (strcmp(type, scalar_types[i]) == 0)
			return true;
	return false;
}

static bool declare_type(Parser *p, const Token *name_tok, const char *name, const char *kind)
{
	json_t *prev = json_object_get(p->types, name);

	if (prev)
		return failf(p, name_tok->line, name_tok->col, "duplicate type name '%s' (already declared as %s at line %d)",
					 name, json_string_value(json_object_get(prev, "kind")),
					 (int)json_integer_value(json_object_get(prev, "line")));
	obj_set(p->types, name, json_pack("{s:s,s:i}", "kind", kind, "line", name_tok->line));
	return true;
}

/* `[json_name = "..."]` after the '['; every other option is outside the subset. */
static bool parse_field_options(Parser *p, json_t **json_name, Token *jn_tok)
{
	if (!next(p))
		return false;
	for (;;) {
		Token opt = p->tok;
		char found[64];

		if (p->tok.kind == TK_EOF)
			return unexpected(p, "a field option");
		if (!is_kw(p, "json_name")) {
			describe(&p->tok, found, sizeof found);
			return failf(p, opt.line, opt.col,
						 "unsupported field option %s "
						 "(pgbind reads a subset of proto3: only json_name is accepted)",
						 found);
		}
		if (*json_name)
			return failf(p, opt.line, opt.col, "json_name given twice");
		if (!next(p) || !expect_sym(p, '=', "after json_name"))
			return false;
		if (p->tok.kind != TK_STRING)
			return unexpected(p, "a string for json_name");
		*jn_tok = p->tok;
		*json_name = json_stringn(p->str.data, p->str.len);
		if (!*json_name)
			return failf(p, jn_tok->line, jn_tok->col, "json_name is not valid UTF-8");
		if (!next(p))
			return false;
		if (!is_sym(p, ','))
			return expect_sym(p, ']', "after field options");
		if (!next(p))
			return false;
	}
}

static void add_type_ref(Parser *p, json_t *msg, json_t *field, const Token *type_tok)
{
	if (p->nrefs == p->caprefs) {
		TypeRef *grown;

		p->caprefs = p->caprefs ? p->caprefs * 2 : 64;
		grown = realloc(p->refs, p->caprefs * sizeof *p->refs);
		if (!grown)
			oom();
		p->refs = grown;
	}
	p->refs[p->nrefs++] = (TypeRef){msg, field, type_tok->line, type_tok->col};
}

/* One field, from the optional `repeated` to the ';'. oneof names the enclosing oneof, or is NULL. */
static bool parse_field(Parser *p, MsgScope *scope, const char *oneof)
{
	Token first = p->tok;
	Token type_tok, name_tok, jn_tok = {0};
	bool repeated = false;
	gen_Buf type = {0}, map_key = {0};
	json_t *name = NULL;
	json_t *json_name = NULL;
	bool explicit;
	json_t *field;
	json_t *prev;
	const char *fname;
	long long number;
	int num_line, num_col;
	char key[32];
	bool ok = false;

	if (is_kw(p, "repeated")) {
		repeated = true;
		if (!next(p))
			goto done;
	}
	type_tok = p->tok;
	if (is_kw(p, "map") && !repeated) {
		/* map<K, V>: on the wire a repeated entry message {K key = 1; V value = 2;} */
		if (oneof) {
			failf(p, type_tok.line, type_tok.col, "a map field cannot be a oneof member (oneof '%s' in message %s)",
				  oneof, scope->name);
			goto done;
		}
		if (!next(p) || !expect_sym(p, '<', "after 'map'"))
			goto done;
		Token key_tok = p->tok;
		if (!take_full_ident(p, false, "a map key type", &map_key))
			goto done;
		static const char *const key_types[] = {"int32",   "int64",   "uint32",   "uint64",   "sint32", "sint64",
												"fixed32", "fixed64", "sfixed32", "sfixed64", "bool",   "string"};
		bool key_ok = false;
		for (size_t i = 0; i < sizeof key_types / sizeof *key_types; i++)
			key_ok |= strcmp(map_key.data, key_types[i]) == 0;
		if (!key_ok) {
			failf(p, key_tok.line, key_tok.col, "map key type '%s' is not an integer, bool or string type",
				  map_key.data);
			goto done;
		}
		if (!expect_sym(p, ',', "after the map key type"))
			goto done;
		type_tok = p->tok;
		if (!take_full_ident(p, true, "a map value type", &type) || !expect_sym(p, '>', "after the map value type"))
			goto done;
		repeated = true;
	} else if (!take_full_ident(p, true, "a field type", &type)) {
		goto done;
	}

	name_tok = p->tok;
	if (!take_ident(p, "a field name", &name))
		goto done;
	fname = json_string_value(name);
	if (json_object_get(scope->names, fname)) {
		failf(p, name_tok.line, name_tok.col, "duplicate field name '%s' in message %s", fname, scope->name);
		goto done;
	}

	if (!expect_sym(p, '=', "after field name") || !take_int(p, "field number", &number, &num_line, &num_col))
		goto done;
	if (number <= 0 || number > FIELD_NUMBER_MAX) {
		failf(p, num_line, num_col, "field number %lld of %s.%s is out of range (1 to %d)", number, scope->name, fname,
			  FIELD_NUMBER_MAX);
		goto done;
	}
	if (number >= RESERVED_FIRST && number <= RESERVED_LAST) {
		failf(p, num_line, num_col,
			  "field number %lld of %s.%s is in %d..%d, which protobuf "
			  "reserves for itself",
			  number, scope->name, fname, RESERVED_FIRST, RESERVED_LAST);
		goto done;
	}
	snprintf(key, sizeof key, "%lld", number);
	if ((prev = json_object_get(scope->numbers, key)) != NULL) {
		failf(p, num_line, num_col, "field number %lld of %s.%s is already used by field '%s'", number, scope->name,
			  fname, json_string_value(prev));
		goto done;
	}

	if (is_sym(p, '[') && !parse_field_options(p, &json_name, &jn_tok))
		goto done;
	if (!expect_sym(p, ';', "after field"))
		goto done;

	explicit = json_name != NULL;
	if (!explicit) {
		json_name = default_json_name(fname);
		jn_tok = name_tok;
	}
	/* Two fields answering to one JSON key would make pg_query's JSON output ambiguous. */
	if ((prev = json_object_get(scope->json_names, json_string_value(json_name))) != NULL) {
		failf(p, jn_tok.line, jn_tok.col, "json_name '%s' of %s.%s is already used by field '%s'",
			  json_string_value(json_name), scope->name, fname, json_string_value(prev));
		goto done;
	}

	field = must(json_object());
	obj_set(field, "name", json_incref(name));
	obj_set(field, "number", json_integer(number));
	obj_set(field, "type", json_string(type.data));
	/* Non-scalar kinds are known only once the whole file is read; see resolve_types(). */
	obj_set(field, "type_kind", is_scalar(type.data) ? json_string("scalar") : json_null());
	obj_set(field, "repeated", json_boolean(repeated));
	obj_set(field, "map_key", map_key.len ? json_string(map_key.data) : json_null());
	obj_set(field, "json_name", json_incref(json_name));
	obj_set(field, "json_name_explicit", json_boolean(explicit));
	obj_set(field, "oneof", oneof ? json_string(oneof) : json_null());
	obj_set(field, "line", json_integer(first.line));
	obj_set(field, "col", json_integer(first.col));
	arr_add(json_object_get(scope->msg, "fields"), field);

	obj_set(scope->names, fname, json_true());
	obj_set(scope->numbers, key, json_incref(name));
	obj_set(scope->json_names, json_string_value(json_name), json_incref(name));
	if (!is_scalar(type.data))
		add_type_ref(p, scope->msg, field, &type_tok);
	ok = true;

done:
	gen_Buf_free(&type);
	gen_Buf_free(&map_key);
	json_decref(name);
	json_decref(json_name);
	return ok;
}

/* The statements a message body may hold in full proto3 but not here, as errors name them. */
static const char *unsupported_in_message(const Parser *p)
{
	static const char *const words[] = {
		"option", "reserved", "extensions", "extend", "optional", "required", "group",
	};

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (is_kw(p, words[i]))
			return words[i];
	return NULL;
}

/*
 * The statements of a message or oneof body up to and including its '}'. oneof is the oneof's
 * name, or NULL for the message body itself.
 */
static bool parse_body(Parser *p, MsgScope *scope, const char *oneof);
static bool parse_message(Parser *p, const char *parent);
static bool parse_enum(Parser *p, const char *parent);

static bool parse_oneof(Parser *p, MsgScope *scope)
{
	Token name_tok;
	json_t *name = NULL;
	bool ok = false;

	if (!next(p))
		return false;
	name_tok = p->tok;
	if (!take_ident(p, "a oneof name", &name))
		return false;
	if (json_object_get(scope->names, json_string_value(name))) {
		failf(p, name_tok.line, name_tok.col, "oneof name '%s' is already used in message %s", json_string_value(name),
			  scope->name);
		goto done;
	}
	obj_set(scope->names, json_string_value(name), json_true());
	arr_add(json_object_get(scope->msg, "oneofs"), json_incref(name));
	ok = expect_sym(p, '{', "after oneof name") && parse_body(p, scope, json_string_value(name));

done:
	json_decref(name);
	return ok;
}

static bool parse_body(Parser *p, MsgScope *scope, const char *oneof)
{
	size_t fields_before = json_array_size(json_object_get(scope->msg, "fields"));
	const char *construct;

	for (;;) {
		if (is_sym(p, '}')) {
			if (oneof && json_array_size(json_object_get(scope->msg, "fields")) == fields_before)
				return failf(p, p->tok.line, p->tok.col, "oneof '%s' in message %s has no fields", oneof, scope->name);
			return next(p);
		}
		if (is_sym(p, ';')) {
			if (!next(p))
				return false;
		} else if (p->tok.kind == TK_EOF) {
			return unexpected(p, oneof ? "'}' to close the oneof" : "'}' to close the message");
		} else if (is_kw(p, "oneof") && !oneof) {
			if (!parse_oneof(p, scope))
				return false;
		} else if ((is_kw(p, "message") || is_kw(p, "enum")) && !oneof) {
			/* a nested declaration, named Outer.Inner */
			if (!(is_kw(p, "message") ? parse_message(p, scope->name) : parse_enum(p, scope->name)))
				return false;
		} else if (is_kw(p, "repeated") && oneof) {
			return failf(p, p->tok.line, p->tok.col, "oneof members cannot be repeated (oneof '%s' in message %s)",
						 oneof, scope->name);
		} else if ((construct = unsupported_in_message(p)) != NULL) {
			return unsupported(p, construct);
		} else if (is_kw(p, "oneof")) {
			return unsupported(p, "nested oneof");
		} else if (!parse_field(p, scope, oneof)) {
			return false;
		}
	}
}

/* `Outer.name` for a declaration nested in message Outer, else name; a new reference. */
static json_t *full_name(const char *parent, json_t *name)
{
	if (!parent)
		return json_incref(name);
	gen_Buf b = {0};
	gen_Buf_printf(&b, "%s.%s", parent, json_string_value(name));
	json_t *out = must(json_string(b.data));
	gen_Buf_free(&b);
	return out;
}

/* parent: the full name of the enclosing message, or NULL at the top level. */
static bool parse_message(Parser *p, const char *parent)
{
	Token kw = p->tok;
	Token name_tok;
	json_t *short_name = NULL, *name = NULL;
	MsgScope scope = {0};
	bool ok = false;

	if (!next(p))
		return false;
	name_tok = p->tok;
	if (!take_ident(p, "a message name", &short_name))
		return false;
	name = full_name(parent, short_name);
	json_decref(short_name);
	if (!declare_type(p, &name_tok, json_string_value(name), "message"))
		goto done;

	scope.msg = must(json_pack("{s:O,s:i,s:i,s:[],s:[],s:s?}", "name", name, "line", kw.line, "col", kw.col, "fields",
							   "oneofs", "parent", parent));
	arr_add(p->messages, scope.msg); /* owned by the model from here on */
	scope.name = json_string_value(name);
	scope.names = must(json_object());
	scope.numbers = must(json_object());
	scope.json_names = must(json_object());
	ok = expect_sym(p, '{', "after message name") && parse_body(p, &scope, NULL);

done:
	json_decref(scope.names);
	json_decref(scope.numbers);
	json_decref(scope.json_names);
	json_decref(name);
	return ok;
}

/* One `NAME = [-]N;` line of enum `en`; numbers maps "N" -> value name within that enum. */
static bool parse_enum_value(Parser *p, json_t *en, json_t *numbers, const char *parent)
{
	const char *enum_name = json_string_value(json_object_get(en, "name"));
	json_t *values = json_object_get(en, "values");
	Token name_tok = p->tok;
	json_t *name = NULL, *scoped = NULL;
	json_t *prev;
	long long number;
	int num_line, num_col;
	char key[32];
	bool ok = false;

	if (!take_ident(p, "an enum value name or '}'", &name))
		return false;
	scoped = full_name(parent, name);
	if ((prev = json_object_get(p->enum_values, json_string_value(scoped))) != NULL) {
		failf(p, name_tok.line, name_tok.col,
			  "duplicate enum value name '%s' (already in enum %s; "
			  "proto3 enum values share the scope of their enum)",
			  json_string_value(name), json_string_value(prev));
		goto done;
	}
	if (!expect_sym(p, '=', "after enum value name") || !take_int(p, "enum value number", &number, &num_line, &num_col))
		goto done;
	if (number < -2147483648LL || number > 2147483647LL) {
		failf(p, num_line, num_col, "enum value %s = %lld is outside the int32 range", json_string_value(name), number);
		goto done;
	}
	if (json_array_size(values) == 0 && number != 0) {
		failf(p, num_line, num_col, "the first value of enum %s must be 0 in proto3, not %lld", enum_name, number);
		goto done;
	}
	/* Aliases would need `option allow_alias = true;`, which is outside the subset. */
	snprintf(key, sizeof key, "%lld", number);
	if ((prev = json_object_get(numbers, key)) != NULL) {
		failf(p, num_line, num_col, "enum value number %lld of %s is already used by %s in enum %s", number,
			  json_string_value(name), json_string_value(prev), enum_name);
		goto done;
	}
	if (is_sym(p, '[')) {
		unsupported(p, "enum value option");
		goto done;
	}
	if (!expect_sym(p, ';', "after enum value"))
		goto done;

	obj_set(p->enum_values, json_string_value(scoped), json_string(enum_name));
	obj_set(numbers, key, json_incref(name));
	arr_add(values, json_pack("{s:O,s:I,s:i,s:i}", "name", name, "number", (json_int_t)number, "line", name_tok.line,
							  "col", name_tok.col));
	ok = true;

done:
	json_decref(scoped);
	json_decref(name);
	return ok;
}

static bool parse_enum(Parser *p, const char *parent)
{
	Token kw = p->tok;
	Token name_tok;
	json_t *short_name = NULL, *name = NULL;
	json_t *en;
	json_t *numbers = NULL;
	bool ok = false;

	if (!next(p))
		return false;
	name_tok = p->tok;
	if (!take_ident(p, "an enum name", &short_name))
		return false;
	name = full_name(parent, short_name);
	json_decref(short_name);
	if (!declare_type(p, &name_tok, json_string_value(name), "enum"))
		goto done;
	en = must(
		json_pack("{s:O,s:i,s:i,s:[],s:s?}", "name", name, "line", kw.line, "col", kw.col, "values", "parent", parent));
	arr_add(p->enums, en);
	numbers = must(json_object());
	if (!expect_sym(p, '{', "after enum name"))
		goto done;

	for (;;) {
		if (is_sym(p, '}')) {
			if (json_array_size(json_object_get(en, "values")) == 0) {
				failf(p, p->tok.line, p->tok.col, "enum %s has no values", json_string_value(name));
				goto done;
			}
			ok = next(p);
			goto done;
		}
		if (is_sym(p, ';')) {
			if (!next(p))
				goto done;
		} else if (is_kw(p, "option") || is_kw(p, "reserved")) {
			unsupported(p, is_kw(p, "option") ? "option" : "reserved");
			goto done;
		} else if (!parse_enum_value(p, en, numbers, parent)) {
			goto done;
		}
	}

done:
	json_decref(numbers);
	json_decref(name);
	return ok;
}

/* `syntax = "proto3";`, which protobuf requires as the first statement. */
static bool parse_syntax(Parser *p)
{
	if (is_kw(p, "edition"))
		return unsupported(p, "edition");
	if (!is_kw(p, "syntax"))
		return unexpected(p, "'syntax = \"proto3\";' as the first statement");
	if (!next(p) || !expect_sym(p, '=', "after 'syntax'"))
		return false;
	if (p->tok.kind != TK_STRING)
		return unexpected(p, "a string after 'syntax ='");
	if (strcmp(p->str.data, "proto3") != 0)
		return failf(p, p->tok.line, p->tok.col, "unsupported syntax \"%.100s\" (pgbind reads proto3 only)",
					 p->str.data);
	obj_set(p->root, "syntax", json_string("proto3"));
	return next(p) && expect_sym(p, ';', "after syntax statement");
}

static bool parse_package(Parser *p)
{
	gen_Buf pkg = {0};
	bool ok;

	if (!json_is_null(json_object_get(p->root, "package")))
		return failf(p, p->tok.line, p->tok.col, "duplicate 'package' statement");
	ok = next(p) && take_full_ident(p, false, "a package name", &pkg) && expect_sym(p, ';', "after package name");
	if (ok)
		obj_set(p->root, "package", json_string(pkg.data));
	gen_Buf_free(&pkg);
	return ok;
}

/*
 * Runs after the whole file is read, since a field may name a type declared further down. A name
 * is looked up as protobuf does: in the message the field is in, then in each enclosing one, then
 * at the top level; the field's type becomes the full name found.
 */
static bool resolve_types(Parser *p)
{
	for (size_t i = 0; i < p->nrefs; i++) {
		const TypeRef *ref = &p->refs[i];
		const char *type = json_string_value(json_object_get(ref->field, "type"));
		const char *scope = json_string_value(json_object_get(ref->msg, "name"));
		json_t *decl = NULL;
		gen_Buf cand = {0};
		size_t scope_len = strlen(scope);
		for (;;) {
			cand.len = 0;
			gen_Buf_printf(&cand, "%.*s%s%s", (int)scope_len, scope, scope_len ? "." : "", type);
			if ((decl = json_object_get(p->types, cand.data)) != NULL || scope_len == 0)
				break;
			while (scope_len > 0 && scope[scope_len - 1] != '.')
				scope_len--;
			if (scope_len > 0)
				scope_len--; /* the dot */
		}
		if (!decl) {
			gen_Buf_free(&cand);
			return failf(p, ref->line, ref->col, "unknown type '%s' in field %s.%s%s", type,
						 json_string_value(json_object_get(ref->msg, "name")),
						 json_string_value(json_object_get(ref->field, "name")),
						 type[0] == '.' ? " (fully qualified names are not resolved)" : "");
		}
		obj_set(ref->field, "type", json_string(cand.data));
		gen_Buf_free(&cand);
		obj_set(ref->field, "type_kind", json_incref(json_object_get(decl, "kind")));
	}
	return true;
}

static bool parse_top_level(Parser *p)
{
	static const char *const unsupported_words[] = {"import", "option", "service", "extend", "edition"};

	if (is_sym(p, ';'))
		return next(p);
	if (is_kw(p, "package"))
		return parse_package(p);
	if (is_kw(p, "message"))
		return parse_message(p, NULL);
	if (is_kw(p, "enum"))
		return parse_enum(p, NULL);
	if (is_kw(p, "syntax"))
		return failf(p, p->tok.line, p->tok.col, "'syntax' may appear only once, as the first statement");
	for (size_t i = 0; i < sizeof unsupported_words / sizeof unsupported_words[0]; i++)
		if (is_kw(p, unsupported_words[i]))
			return unsupported(p, unsupported_words[i]);
	return unexpected(p, "'message' or 'enum'");
}

json_t *proto_read_text(const char *name, const char *text, gen_Error *err)
{
	Parser p = {0};
	bool ok;

	p.name = name;
	p.text = text;
	p.line = 1;
	p.col = 1;
	p.err = err;
	p.root = must(json_pack("{s:s,s:n,s:n,s:[],s:[]}", "file", name, "syntax", "package", "messages", "enums"));
	p.messages = json_object_get(p.root, "messages");
	p.enums = json_object_get(p.root, "enums");
	p.types = must(json_object());
	p.enum_values = must(json_object());

	ok = next(&p) && parse_syntax(&p);
	while (ok && p.tok.kind != TK_EOF)
		ok = parse_top_level(&p);
	ok = ok && resolve_types(&p);

	json_decref(p.types);
	json_decref(p.enum_values);
	gen_Buf_free(&p.str);
	free(p.refs);
	if (!ok) {
		json_decref(p.root);
		return NULL;
	}
	return p.root;
}

json_t *proto_read_file(const char *path, gen_Error *err)
{
	char *text;
	size_t len;
	size_t nul;
	json_t *result;

	if (!gen_read_file(path, &text, &len, err))
		return NULL;
	/* The tokenizer stops at the first NUL, so a stray one would silently cut the file short. */
	nul = strlen(text);
	if (nul != len) {
		int line = 1, col = 1;

		for (size_t i = 0; i < nul; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		free(text);
		gen_fail(err, path, line, col, "unexpected byte 0x00");
		return NULL;
	}
	result = proto_read_text(path, text, err);
	free(text);
	return result;
}
