/*
 * json_read.c -- pgbind_json_read(): JSON in libpg_query's format (json_internal.h describes it)
 * into an AST, walking the descriptor tables.
 *
 * Reader: a hand-written recursive-descent parser that fills the AST as it reads, with no document
 * model in between. Not jansson: its fixed nesting limit (2048 JSON levels) is below what trees
 * within max_depth need (each message level is two or three JSON levels: 3,000 additions need
 * 6,000), and errors should name the field path. Strict: an unknown key is an error (a typo is
 * reported, not skipped), so no value is ever skipped unparsed, and so is a key given twice in one
 * object (JSON leaves that to the reader; taking the last silently would hide an edit). Depth is counted in messages, as
 * pgbind_decode counts it, so a tree that one accepts the other accepts. Array elements are
 * collected on one scratch stack and copied into the arena when the array ends.
 */
#include "json_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union {
	void *ptr;
	uint64_t u;
} Slot;

typedef struct {
	const char *start, *p, *end;
	pgbind_Arena *arena;
	int depth, max_depth;
	const pgbind_OneofMemberDesc *member; /* of the last oneof key read */
	Slot *stack;                          /* array elements being collected, innermost array on top */
	size_t sp, cap;
	/* per field of each open message, innermost on top: 1 + the byte offset of its key, 0 if unseen */
	uint32_t *seen;
	size_t seen_top, seen_cap;
	const char *key_at;     /* the last key read */
	pgbind_StatusCode code; /* the first error wins */
	const char *err_at;
	char what[176];
	Path path;
} Reader;

static bool r_fail(Reader *r, pgbind_StatusCode code, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool r_fail(Reader *r, pgbind_StatusCode code, const char *at, const char *fmt, ...)
{
	if (r->code)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->what, sizeof r->what, fmt, ap);
	va_end(ap);
	r->code = code;
	r->err_at = at;
	return false;
}

static inline int r_peek(Reader *r)
{
	const char *p = r->p, *end = r->end;
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	r->p = p;
	return p < end ? (unsigned char)*p : -1;
}

/* What the value starting with c is, for "expected X, found Y"; NULL when c cannot start one. */
static const char *r_kind(int c)
{
	if (c == '-' || (c >= '0' && c <= '9'))
		return "a number";
	switch (c) {
	case '"':
		return "a string";
	case '{':
		return "an object";
	case '[':
		return "an array";
	case 't':
	case 'f':
		return "a boolean";
	case 'n':
		return "null";
	default:
		return NULL;
	}
}

/* A syntax error at r->p: the character found there is not what the grammar allows. */
static bool r_unexpected(Reader *r, const char *expected)
{
	int c = r_peek(r);
	if (c < 0)
		return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "unexpected end of input: expected %s", expected);
	if (c >= 0x20 && c < 0x7f)
		return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "unexpected '%c': expected %s", c, expected);
	return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "unexpected byte 0x%02x: expected %s", (unsigned)c, expected);
}

/* The value at r->p has the wrong type (or is not a value at all: then it is a syntax error). */
static bool r_wrong_type(Reader *r, const char *expected)
{
	int c = r_peek(r);
	const char *kind = r_kind(c);
	if (!kind)
		return r_unexpected(r, expected);
	const char *word = c == 't' ? "true" : c == 'f' ? "false" : c == 'n' ? "null" : NULL;
	if (word && ((size_t)(r->end - r->p) < strlen(word) || memcmp(r->p, word, strlen(word)) != 0)) {
		/* no JSON value at all ("not json"): say what was there, not a type it is not */
		const char *p = r->p;
		while (p < r->end && p - r->p < 20 && *p != '\n' && *p != '\r')
			p++;
		return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "not JSON: \"%.*s\" where %s was expected", (int)(p - r->p),
					  r->p, expected);
	}
	return r_fail(r, PGBIND_ERROR_INVALID, r->p, "expected %s, found %s", expected, kind);
}

static bool r_literal(Reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) {
		const char *p = r->p;
		while (p < r->end && *p >= 'a' && *p <= 'z')
			p++;
		return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "invalid literal \"%.*s\" (true, false or null?)",
					  (int)(p - r->p > 20 ? 20 : p - r->p), r->p);
	}
	r->p += n;
	return true;
}

static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool r_hex4(Reader *r, const char *p, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		int h = p + i < r->end ? hexval(p[i]) : -1;
		if (h < 0)
			return r_fail(r, PGBIND_ERROR_MALFORMED, p - 2, "\\u needs four hexadecimal digits");
		v = (v << 4) | (uint32_t)h;
	}
	*out = v;
	return true;
}

/*
 * The string at r->p (a '"'): checks it (escapes, no raw control characters, no \u0000, no lone
 * surrogate; bytes >= 0x80 as they are) and moves past it. [*s, *e) is its raw content; *escaped
 * says whether it holds a backslash.
 */
static bool r_string_span(Reader *r, const char **s, const char **e, bool *escaped)
{
	const char *p = r->p + 1, *end = r->end;
	bool esc = false;
	for (;;) {
		if (p >= end)
			return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "unterminated string");
		unsigned char c = (unsigned char)*p;
		if (c == '"')
			break;
		if (c == '\\') {
			esc = true;
			if (p + 1 >= end)
				return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "unterminated string");
			switch (p[1]) {
			case '"':
			case '\\':
			case '/':
			case 'b':
			case 'f':
			case 'n':
			case 'r':
			case 't':
				p += 2;
				break;
			case 'u': {
				uint32_t u, lo;
				if (!r_hex4(r, p + 2, &u))
					return false;
				if (u == 0)
					return r_fail(r, PGBIND_ERROR_MALFORMED, p, "\\u0000: a string cannot hold a NUL character");
				if (u >= 0xdc00 && u <= 0xdfff)
					return r_fail(r, PGBIND_ERROR_MALFORMED, p, "\\u%04x: a low surrogate without a high one", u);
				p += 6;
				if (u >= 0xd800 && u <= 0xdbff) {
					if (p + 1 >= end || p[0] != '\\' || p[1] != 'u')
						return r_fail(r, PGBIND_ERROR_MALFORMED, p - 6, "\\u%04x: a high surrogate without a low one",
									  u);
					if (!r_hex4(r, p + 2, &lo))
						return false;
					if (lo < 0xdc00 || lo > 0xdfff)
						return r_fail(r, PGBIND_ERROR_MALFORMED, p - 6, "\\u%04x: a high surrogate without a low one",
									  u);
					p += 6;
				}
				break;
			}
			default:
				if ((unsigned char)p[1] >= 0x20 && (unsigned char)p[1] < 0x7f)
					return r_fail(r, PGBIND_ERROR_MALFORMED, p, "invalid escape \\%c in a string", p[1]);
				return r_fail(r, PGBIND_ERROR_MALFORMED, p, "invalid escape in a string");
			}
			continue;
		}
		if (c < 0x20)
			return r_fail(r, PGBIND_ERROR_MALFORMED, p, "control character 0x%02x in a string (it must be escaped)", c);
		p++; /* bytes >= 0x80 as they are, UTF-8 or not: see the top of the file */
	}
	*s = r->p + 1;
	*e = p;
	*escaped = esc;
	r->p = p + 1;
	return true;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* The content of a string r_string_span checked, unescaped, NUL-terminated, in the arena. The
 * result is never longer than the raw text (\uXXXX is 6 bytes for at most 3). */
static char *r_decode(Reader *r, const char *s, const char *e, bool escaped)
{
	char *out = pgbind_Arena_Malloc(r->arena, (size_t)(e - s) + 1);
	if (!out) {
		r_fail(r, PGBIND_ERROR_NOMEM, s, "out of memory");
		return NULL;
	}
	if (!escaped) {
		memcpy(out, s, (size_t)(e - s));
		out[e - s] = '\0';
		return out;
	}
	char *o = out;
	while (s < e) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		char c = s[1];
		s += 2;
		switch (c) {
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u': {
			uint32_t cp = 0;
			for (int i = 0; i < 4; i++)
				cp = (cp << 4) | (uint32_t)hexval(s[i]);
			s += 4;
			if (cp >= 0xd800 && cp <= 0xdbff) { /* checked: a low surrogate follows */
				uint32_t lo = 0;
				for (int i = 2; i < 6; i++)
					lo = (lo << 4) | (uint32_t)hexval(s[i]);
				s += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			o = put_utf8(o, cp);
			break;
		}
		default: /* '"', '\\', '/' */
			*o++ = c;
			break;
		}
	}
	*o = '\0';
	return out;
}

/* ---- numbers --------------------------------------------------------------------------------- */

typedef struct {
	const char *s, *e;
	bool neg, integral, overflow;
	uint64_t mag;
} Number;

/* A JSON number at r->p (RFC 8259 grammar), moved past. */
static bool r_number(Reader *r, Number *n)
{
	const char *p = r->p, *end = r->end;
	n->s = p;
	n->neg = false;
	n->integral = true;
	n->overflow = false;
	n->mag = 0;
	if (p < end && *p == '-') {
		n->neg = true;
		p++;
	}
	if (p >= end || *p < '0' || *p > '9')
		return r_fail(r, PGBIND_ERROR_MALFORMED, r->p, "invalid number: a digit must follow '-'");
	if (*p == '0') {
		p++;
	} else {
		while (p < end && *p >= '0' && *p <= '9') {
			unsigned d = (unsigned)(*p - '0');
			if (n->mag > (UINT64_MAX - d) / 10)
				n->overflow = true;
			else
				n->mag = n->mag * 10 + d;
			p++;
		}
	}
	if (p < end && *p == '.') {
		n->integral = false;
		p++;
		if (p >= end || *p < '0' || *p > '9')
			return r_fail(r, PGBIND_ERROR_MALFORMED, p, "invalid number: a digit must follow '.'");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		n->integral = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			return r_fail(r, PGBIND_ERROR_MALFORMED, p, "invalid number: a digit must follow the exponent");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	n->e = p;
	r->p = p;
	return true;
}

/* An integer in [lo, hi] (as signed) or [0, uhi] (unsigned when is_unsigned). */
static __attribute__((noinline)) bool r_integer(Reader *r, const char *type, bool is_unsigned, int64_t lo, uint64_t hi,
												uint64_t *out)
{
	int c = r_peek(r);
	if (c != '-' && (c < '0' || c > '9'))
		return r_wrong_type(r, type);
	const char *at = r->p;
	Number n;
	if (!r_number(r, &n))
		return false;
	if (!n.integral)
		return r_fail(r, PGBIND_ERROR_INVALID, at, "expected %s, found %.*s", type,
					  (int)(n.e - n.s > 40 ? 40 : n.e - n.s), n.s);
	bool ok;
	if (n.overflow)
		ok = false;
	else if (n.neg)
		ok = n.mag == 0 || (!is_unsigned && n.mag <= (uint64_t)0 - (uint64_t)lo);
	else
		ok = n.mag <= hi;
	if (!ok)
		return r_fail(r, PGBIND_ERROR_INVALID, at, "%.*s is out of range for %s",
					  (int)(n.e - n.s > 40 ? 40 : n.e - n.s), n.s, type);
	*out = n.neg ? (uint64_t)0 - n.mag : n.mag;
	return true;
}

static __attribute__((noinline)) bool r_double(Reader *r, double *out)
{
	int c = r_peek(r);
	if (c == '"') { /* proto3 JSON spells these as strings */
		const char *s, *e, *at = r->p;
		bool esc;
		if (!r_string_span(r, &s, &e, &esc))
			return false;
		size_t n = (size_t)(e - s);
		if (n == 3 && memcmp(s, "NaN", 3) == 0)
			*out = NAN;
		else if (n == 8 && memcmp(s, "Infinity", 8) == 0)
			*out = INFINITY;
		else if (n == 9 && memcmp(s, "-Infinity", 9) == 0)
			*out = -INFINITY;
		else
			return r_fail(r, PGBIND_ERROR_INVALID, at, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\")");
		return true;
	}
	if (c != '-' && (c < '0' || c > '9'))
		return r_wrong_type(r, "a number");
	const char *at = r->p;
	Number n;
	if (!r_number(r, &n))
		return false;
	char buf[512];
	size_t len = (size_t)(n.e - n.s);
	if (len >= sizeof buf)
		return r_fail(r, PGBIND_ERROR_INVALID, at, "a number of %zu characters is too long", len);
	memcpy(buf, n.s, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL); /* the C locale's '.': libpg_query and pgbind never call setlocale */
	return true;
}

/* ---- lookups --------------------------------------------------------------------------------- */

/* name equals [s, s + n) */
static inline bool name_is(const char *name, const char *s, size_t n)
{
	return strncmp(name, s, n) == 0 && name[n] == '\0';
}

static const pgbind_MessageDesc *node_kind_by_name(const char *s, size_t n)
{
	uint32_t h = pgbind_json_name_hash(s, n);
	for (;; h++) {
		int16_t m = pgbind_json_kind_hash[h & (JSON_KIND_HASH_SIZE - 1)];
		if (m == 0)
			return NULL;
		if (pgbind_json_kind_name_len[m - 1] == n && memcmp(pgbind_message_descs[m - 1].name, s, n) == 0)
			return &pgbind_message_descs[m - 1];
	}
}

/* The field of d named [s, s + n) (its C name or its proto name; for a oneof, a member's name),
 * searched from *hint on, since keys usually come in field order. */
static const pgbind_FieldDesc *field_by_name(const pgbind_MessageDesc *d, const char *s, size_t n, uint32_t hint,
											 const pgbind_OneofMemberDesc **member)
{
	const FieldInfo *info = pgbind_json_field_info + pgbind_json_field_base[d - pgbind_message_descs];
	uint32_t i = hint < d->n_fields ? hint : 0;
	*member = NULL;
	for (uint32_t k = 0; k < d->n_fields; k++, i = i + 1 < d->n_fields ? i + 1 : 0) {
		const pgbind_FieldDesc *f = &d->fields[i];
		if (f->wire == PGBIND_WIRE_ONEOF) {
			const pgbind_OneofDesc *o = &pgbind_oneof_descs[f->type_index];
			for (uint32_t m = 0; m < o->n_members; m++)
				if (name_is(o->members[m].name, s, n)) {
					*member = &o->members[m];
					return f;
				}
			continue;
		}
		if ((info[i].name_len == n && memcmp(f->name, s, n) == 0) ||
			(info[i].proto_len == n && memcmp(f->proto_name, s, n) == 0))
			return f;
	}
	return NULL;
}

static bool enum_by_name(int32_t enum_index, const char *s, size_t n, int32_t *out)
{
	const pgbind_EnumDesc *e = &pgbind_enum_descs[enum_index];
	for (uint32_t i = 0; i < e->n_values; i++)
		if (name_is(e->values[i].name, s, n)) {
			*out = e->values[i].number;
			return true;
		}
	return false;
}

/* ---- the tree -------------------------------------------------------------------------------- */

/* A zeroed message of d; a node gets its tag, a value node "" for its string. */
static char *r_new(Reader *r, const pgbind_MessageDesc *d)
{
	char *m = pgbind_Arena_Malloc(r->arena, d->size);
	if (!m) {
		r_fail(r, PGBIND_ERROR_NOMEM, r->p, "out of memory");
		return NULL;
	}
	memset(m, 0, d->size);
	if (d->tag) {
		pgbind_NodeTag tag = (pgbind_NodeTag)d->tag;
		memcpy(m, &tag, sizeof tag);
		if (is_value_string_kind(d->tag))
			*(const char **)(m + d->fields[0].offset) = "";
	}
	return m;
}

static bool r_push(Reader *r, Slot s)
{
	if (r->sp == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		Slot *grown = realloc(r->stack, cap * sizeof *grown);
		if (!grown)
			return r_fail(r, PGBIND_ERROR_NOMEM, r->p, "out of memory");
		r->stack = grown;
		r->cap = cap;
	}
	r->stack[r->sp++] = s;
	return true;
}

/* The elements pushed since `base`, as an array in the arena (NULL when none); pops them. */
static bool r_pop_array(Reader *r, size_t base, bool numbers, void **array, size_t *n)
{
	size_t count = r->sp - base;
	*n = count;
	*array = NULL;
	if (count) {
		void *a = pgbind_Arena_Malloc(r->arena, count * (numbers ? sizeof(uint64_t) : sizeof(void *)));
		if (!a)
			return r_fail(r, PGBIND_ERROR_NOMEM, r->p, "out of memory");
		for (size_t i = 0; i < count; i++) {
			if (numbers)
				((uint64_t *)a)[i] = r->stack[base + i].u;
			else
				((void **)a)[i] = r->stack[base + i].ptr;
		}
		*array = a;
	}
	r->sp = base;
	return true;
}

static bool r_message(Reader *r, const pgbind_MessageDesc *d, char *base);

/* 1-based line and column (in characters) of `at` */
static void line_col(const char *start, const char *at, int *line, int *col)
{
	int l = 1, c = 1;
	for (const char *p = start; p < at; p++) {
		if (*p == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)*p & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Opens the seen-keys record of a message of n fields on top of r->seen. */
static __attribute__((noinline)) bool r_seen_open(Reader *r, uint32_t n)
{
	if (r->seen_top + n > r->seen_cap) {
		size_t cap = r->seen_cap ? r->seen_cap : 256;
		while (cap < r->seen_top + n)
			cap *= 2;
		uint32_t *grown = realloc(r->seen, cap * sizeof *grown);
		if (!grown)
			return r_fail(r, PGBIND_ERROR_NOMEM, r->p, "out of memory");
		r->seen = grown;
		r->seen_cap = cap;
	}
	memset(r->seen + r->seen_top, 0, n * sizeof *r->seen);
	r->seen_top += n;
	return true;
}

/* Records field f of d's record at mark, read at r->key_at; an error when the object gave it
 * already (the key itself, or another member of its oneof). */
static __attribute__((noinline)) bool r_seen_first(Reader *r, size_t mark, const pgbind_MessageDesc *d,
												   const pgbind_FieldDesc *f)
{
	uint32_t *slot = &r->seen[mark + (size_t)(f - d->fields)];
	size_t at = (size_t)(r->key_at - r->start);
	if (!*slot) {
		*slot = at < UINT32_MAX - 1 ? (uint32_t)at + 1 : UINT32_MAX;
		return true;
	}
	/* both keys were read whole: a '"' ends each before r->end (a key past 4 GiB shows a part) */
	const char *first = r->start + *slot - 1, *name = r->key_at + 1, *first_name = first + 1;
	const char *name_end = memchr(name, '"', (size_t)(r->end - name));
	const char *first_end = memchr(first_name, '"', (size_t)(r->end - first_name));
	size_t n = name_end ? (size_t)(name_end - name) : 0, first_n = first_end ? (size_t)(first_end - first_name) : 0;
	int line, col;
	line_col(r->start, first, &line, &col);
	if (n == first_n && memcmp(name, first_name, n) == 0)
		return r_fail(r, PGBIND_ERROR_INVALID, r->key_at, "key \"%.*s\" twice in one %s (first at line %d, column %d)",
					  (int)(n > 60 ? 60 : n), name, d->name, line, col);
	return r_fail(r, PGBIND_ERROR_INVALID, r->key_at,
				  "key \"%.*s\" of %s: its oneof %s is set already, by \"%.*s\" (line %d, column %d)",
				  (int)(n > 60 ? 60 : n), name, d->name, f->name, (int)(first_n > 60 ? 60 : first_n), first_name, line,
				  col);
}

/* A string naming a node kind or a field: [*s, *e) (unescaped into the arena when it had escapes);
 * false after an error, which says what was `expected` when there was no string. */
static bool r_name(Reader *r, const char *expected, const char **s, const char **e)
{
	if (r_peek(r) != '"')
		return r_unexpected(r, expected);
	bool esc;
	if (!r_string_span(r, s, e, &esc))
		return false;
	if (esc) {
		char *k = r_decode(r, *s, *e, esc);
		if (!k)
			return false;
		*s = k;
		*e = k + strlen(k);
	}
	return true;
}

/* "Kind": and the '{' after it (not consumed): the kind's message, or NULL on an error */
static __attribute__((noinline)) const pgbind_MessageDesc *r_node_kind(Reader *r)
{
	const char *key_at = r->p, *s, *e;
	if (!r_name(r, "a node kind (a string) or '}'", &s, &e))
		return NULL;
	const pgbind_MessageDesc *d = node_kind_by_name(s, (size_t)(e - s));
	if (!d) {
		r_fail(r, PGBIND_ERROR_INVALID, key_at, "unknown node kind \"%.*s\"", (int)(e - s > 60 ? 60 : e - s), s);
		return NULL;
	}
	if (r_peek(r) != ':') {
		r_unexpected(r, "':' after the key");
		return NULL;
	}
	r->p++;
	if (r_peek(r) != '{') {
		r_wrong_type(r, "an object");
		pgbind_json_path_field(&r->path, d->name, -1);
		return NULL;
	}
	return d;
}

/* A node: {"Kind":{...}}; {} and null are NULL. Returns NULL on an error too: r->code says. */
static pgbind_Node *r_node(Reader *r)
{
	int c = r_peek(r);
	if (c == 'n') {
		r_literal(r, "null");
		return NULL;
	}
	if (c != '{') {
		r_wrong_type(r, "a node ({\"Kind\":{...}})");
		return NULL;
	}
	r->p++;
	if (r_peek(r) == '}') {
		r->p++;
		return NULL;
	}
	const pgbind_MessageDesc *d = r_node_kind(r);
	if (!d)
		return NULL;
	char *m = r_new(r, d);
	if (!m || !r_message(r, d, m)) {
		pgbind_json_path_field(&r->path, d->name, -1);
		return NULL;
	}
	c = r_peek(r);
	if (c != '}') {
		if (c == ',')
			r_fail(r, PGBIND_ERROR_INVALID, r->p, "a node object has one key, its kind (%s); found a second", d->name);
		else
			r_unexpected(r, "'}'");
		return NULL;
	}
	r->p++;
	return (pgbind_Node *)m;
}

/* A value that holds no message (a scalar, a string, an enum, or null for any field): kept out
 * of r_field so that its locals (a number's text) take no room in the recursion's frames. */
static __attribute__((noinline)) bool r_scalar(Reader *r, const pgbind_MessageDesc *d, const pgbind_FieldDesc *f,
											   char *base)
{
	char *p = base + f->offset;
	int c = r_peek(r);
	uint64_t v;

	if (c == 'n') { /* null: the default */
		if (!r_literal(r, "null"))
			return false;
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_UINT32:
		case PGBIND_WIRE_ENUM:
			memset(p, 0, 4);
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
		case PGBIND_WIRE_DOUBLE:
			memset(p, 0, 8);
			break;
		case PGBIND_WIRE_BOOL:
			*(bool *)p = false;
			break;
		case PGBIND_WIRE_STRING:
			*(const char **)p = is_value_string_kind(d->tag) ? "" : NULL;
			break;
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_MESSAGE:
		case PGBIND_WIRE_ONEOF:
			*(void **)p = NULL;
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE:
		case PGBIND_WIRE_PACKED_UINT64:
			*(void **)p = NULL;
			*(size_t *)(base + f->count_offset) = 0;
			break;
		}
		return true;
	}

	switch (f->wire) {
	case PGBIND_WIRE_INT32:
		if (!r_integer(r, "an integer (int32)", false, INT32_MIN, INT32_MAX, &v))
			return false;
		*(int32_t *)p = (int32_t)(int64_t)v;
		return true;
	case PGBIND_WIRE_UINT32:
		if (!r_integer(r, "an integer (uint32)", true, 0, UINT32_MAX, &v))
			return false;
		*(uint32_t *)p = (uint32_t)v;
		return true;
	case PGBIND_WIRE_INT64:
		if (!r_integer(r, "an integer (int64)", false, INT64_MIN, INT64_MAX, &v))
			return false;
		*(int64_t *)p = (int64_t)v;
		return true;
	case PGBIND_WIRE_UINT64:
		if (!r_integer(r, "an integer (uint64)", true, 0, UINT64_MAX, &v))
			return false;
		*(uint64_t *)p = v;
		return true;
	case PGBIND_WIRE_BOOL:
		if (c == 't') {
			*(bool *)p = true;
			return r_literal(r, "true");
		}
		if (c == 'f') {
			*(bool *)p = false;
			return r_literal(r, "false");
		}
		return r_wrong_type(r, "a boolean");
	case PGBIND_WIRE_DOUBLE:
		return r_double(r, (double *)p);
	case PGBIND_WIRE_STRING:
	case PGBIND_WIRE_ENUM: {
		if (c != '"')
			return r_wrong_type(r, f->wire == PGBIND_WIRE_ENUM ? "a string (an enum value name)" : "a string");
		const char *at = r->p, *s, *e;
		bool esc;
		if (!r_string_span(r, &s, &e, &esc))
			return false;
		if (f->wire == PGBIND_WIRE_STRING) {
			const char *str = r_decode(r, s, e, esc);
			if (!str)
				return false;
			*(const char **)p = str;
			return true;
		}
		if (esc) {
			char *k = r_decode(r, s, e, esc);
			if (!k)
				return false;
			s = k;
			e = k + strlen(k);
		}
		int32_t ev;
		if (!enum_by_name(f->type_index, s, (size_t)(e - s), &ev))
			return r_fail(r, PGBIND_ERROR_INVALID, at, "\"%.*s\" is not a value of enum %s",
						  (int)(e - s > 60 ? 60 : e - s), s, pgbind_enum_descs[f->type_index].name);
		*(int32_t *)p = ev;
		return true;
	}
	default:
		break;
	}
	return r_fail(r, PGBIND_ERROR_INVALID, r->p, "field %s.%s has an unknown kind", d->name, f->name);
}

/* An IntList/OidList cell as libpg_query writes them, a bare number: an Integer node, pushed */
static __attribute__((noinline)) bool r_int_cell(Reader *r)
{
	uint64_t v;
	if (!r_integer(r, "an integer (int32)", false, INT32_MIN, INT32_MAX, &v))
		return false;
	char *node = r_new(r, pgbind_node_desc(PGBIND_T_Integer));
	if (!node)
		return false;
	((pgbind_Integer *)node)->ival = (int32_t)(int64_t)v;
	return r_push(r, (Slot){.ptr = node});
}

/* A bitmapset member, pushed */
static __attribute__((noinline)) bool r_packed_elem(Reader *r)
{
	uint64_t v;
	return r_integer(r, "an integer (uint64)", true, 0, UINT64_MAX, &v) && r_push(r, (Slot){.u = v});
}

/* The elements pushed since base_sp, as the array of field f at base; pops them. */
static __attribute__((noinline)) bool r_store_array(Reader *r, const pgbind_FieldDesc *f, char *base, size_t base_sp)
{
	void *array;
	size_t n;
	if (!r_pop_array(r, base_sp, f->wire == PGBIND_WIRE_PACKED_UINT64, &array, &n))
		return false;
	*(void **)(base + f->offset) = array;
	*(size_t *)(base + f->count_offset) = n;
	return true;
}

/* [value,...] of a repeated field f of the message at base */
static __attribute__((noinline)) bool r_array(Reader *r, const pgbind_MessageDesc *d, const pgbind_FieldDesc *f,
											  char *base)
{
	if (r_peek(r) != '[')
		return r_wrong_type(r, "an array");
	r->p++;
	size_t base_sp = r->sp, k = 0;
	if (r_peek(r) == ']') {
		r->p++;
		return r_store_array(r, f, base, base_sp);
	}
	for (;; k++) {
		int c = r_peek(r);
		bool ok;
		if (f->wire == PGBIND_WIRE_PACKED_UINT64) {
			ok = r_packed_elem(r);
		} else if (f->wire == PGBIND_WIRE_REPEATED_NODE) {
			if ((c == '-' || (c >= '0' && c <= '9')) && (d->tag == PGBIND_T_IntList || d->tag == PGBIND_T_OidList)) {
				ok = r_int_cell(r);
			} else {
				pgbind_Node *node = r_node(r);
				ok = !r->code && r_push(r, (Slot){.ptr = node});
			}
		} else if (c != '{') {
			/* null too: a repeated message has no empty cells in protobuf (only Node lists do) */
			ok = r_wrong_type(r, "an object");
		} else {
			const pgbind_MessageDesc *sd = &pgbind_message_descs[f->type_index];
			char *sub = r_new(r, sd);
			ok = sub && r_message(r, sd, sub) && r_push(r, (Slot){.ptr = sub});
		}
		if (!ok) {
			pgbind_json_path_index(&r->path, k);
			return false;
		}
		c = r_peek(r);
		if (c == ',') {
			r->p++;
			continue;
		}
		if (c == ']') {
			r->p++;
			return r_store_array(r, f, base, base_sp);
		}
		return r_unexpected(r, "',' or ']'");
	}
}

/* The value of field f (for a oneof: member r->member) of the message at base. */
static bool r_field(Reader *r, const pgbind_MessageDesc *d, const pgbind_FieldDesc *f, char *base)
{
	char *p = base + f->offset;
	int c = r_peek(r);
	if (c == 'n')
		return r_scalar(r, d, f, base);
	switch (f->wire) {
	case PGBIND_WIRE_NODE:
		*(pgbind_Node **)p = r_node(r);
		return !r->code;
	case PGBIND_WIRE_MESSAGE:
	case PGBIND_WIRE_ONEOF: {
		const pgbind_MessageDesc *sd =
			&pgbind_message_descs[f->wire == PGBIND_WIRE_ONEOF ? r->member->message_index : f->type_index];
		if (c != '{')
			return r_wrong_type(r, "an object");
		char *sub = r_new(r, sd);
		if (!sub || !r_message(r, sd, sub))
			return false;
		*(char **)p = sub;
		return true;
	}
	case PGBIND_WIRE_REPEATED_NODE:
	case PGBIND_WIRE_REPEATED_MESSAGE:
	case PGBIND_WIRE_PACKED_UINT64:
		return r_array(r, d, f, base);
	default:
		return r_scalar(r, d, f, base);
	}
}

/* A key of message d and the ':' after it: its field (a oneof's member in r->member), or NULL on
 * an error; hint: where to start looking.
 * Out of line so that the key's locals take no room in the recursion's frames. */
static __attribute__((noinline)) const pgbind_FieldDesc *r_key(Reader *r, const pgbind_MessageDesc *d, uint32_t hint)
{
	const char *key_at = r->p, *s, *e;
	r->key_at = key_at;
	if (!r_name(r, "a key (a string)", &s, &e))
		return NULL;
	const pgbind_FieldDesc *f = field_by_name(d, s, (size_t)(e - s), hint, &r->member);
	if (!f) {
		r_fail(r, PGBIND_ERROR_INVALID, key_at, "unknown key \"%.*s\" in %s", (int)(e - s > 60 ? 60 : e - s), s,
			   d->name);
		return NULL;
	}
	if (r_peek(r) != ':') {
		r_unexpected(r, "':' after the key");
		return NULL;
	}
	r->p++;
	return f;
}

/* {"key":value,...} into the message at base */
static bool r_message(Reader *r, const pgbind_MessageDesc *d, char *base)
{
	if (++r->depth > r->max_depth || pgbind_stack_low())
		return r_fail(r, PGBIND_ERROR_DEPTH, r->p, "nesting deeper than %d levels (pgbind_Options.max_depth)",
					  r->max_depth);
	r->p++; /* the '{' the caller saw */
	uint32_t hint = 0;
	int c = r_peek(r);
	if (c == '}') {
		r->p++;
		r->depth--;
		return true;
	}
	size_t mark = r->seen_top;
	if (!r_seen_open(r, d->n_fields))
		return false;
	for (;;) {
		const pgbind_FieldDesc *f = r_key(r, d, hint);
		if (!f || !r_seen_first(r, mark, d, f))
			return false;
		hint = (uint32_t)(f - d->fields) + 1; /* keys usually come in field order */
		const char *name = f->wire == PGBIND_WIRE_ONEOF ? r->member->name : f->name;
		if (!r_field(r, d, f, base)) {
			pgbind_json_path_field(&r->path, name, -1);
			return false;
		}
		c = r_peek(r);
		if (c == ',') {
			r->p++;
			c = r_peek(r);
			continue;
		}
		if (c == '}') {
			r->p++;
			break;
		}
		return r_unexpected(r, "',' or '}'");
	}
	r->seen_top = mark;
	r->depth--;
	return true;
}

pgbind_ParseResult *pgbind_json_read(const char *json, size_t len, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	if ((!json && len) || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", arena ? "json" : "arena");
		return NULL;
	}
	if (!pgbind_json_tables(status))
		return NULL;
	static const char empty[1];
	if (!json)
		json = empty;
	/* ParseResult is level 0, as in every path: its statements are level 1 */
	Reader r = {.start = json,
				.p = json,
				.end = json + len,
				.arena = arena,
				.depth = -1,
				.max_depth = pgbind_max_depth(options)};
	pgbind_json_path_init(&r.path);
	pgbind_ParseResult *result = NULL;
	int c = r_peek(&r);
	if (c < 0) {
		r_fail(&r, PGBIND_ERROR_MALFORMED, r.p, "no JSON value: the input is empty%s",
			   len ? " (only white space)" : "");
	} else if (c != '{') {
		r_wrong_type(&r, "an object (a ParseResult: {\"version\":...,\"stmts\":[...]})");
	} else {
		char *m = r_new(&r, pgbind_json_parse_result_desc);
		if (m && r_message(&r, pgbind_json_parse_result_desc, m)) {
			c = r_peek(&r);
			if (c < 0)
				result = (pgbind_ParseResult *)m;
			else
				r_unexpected(&r, "the end of the input after the JSON object");
		}
	}
	free(r.stack);
	free(r.seen);
	if (!result) {
		int line, col;
		const char *at = r.err_at ? r.err_at : r.p;
		line_col(json, at, &line, &col);
		const char *path = r.path.start < sizeof r.path.buf - 1 ? pgbind_json_path_text(&r.path) : "";
		pgbind_fail(status, r.code ? r.code : PGBIND_ERROR_NOMEM, "line %d, column %d: %s%s%s", line, col, r.what,
					*path ? " at " : "", path);
		if (status)
			status->offset = (size_t)(at - json);
	}
	return result;
}
