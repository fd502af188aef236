/*
 * json_write.c -- pgbind_json(): the AST as JSON in libpg_query's format (json_internal.h
 * describes it), walking the descriptor tables.
 *
 * Writer: straight into one growing malloc'd buffer (no document model), copied into the arena at
 * the end. Keys come pre-rendered from tables built once per process.
 */
#include "json_internal.h"
#include "pg_query.h" /* PG_VERSION_NUM: which libpg_query's JSON to write */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_OMITS_EMPTY_STRINGS (PG_VERSION_NUM >= 180000)

typedef struct {
	char *buf, *p, *end;
	int depth, max_depth;
	pgbind_StatusCode code;
	char what[160];
	Path path;
} Writer;

static bool w_fail(Writer *w, pgbind_StatusCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool w_fail(Writer *w, pgbind_StatusCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->what, sizeof w->what, fmt, ap);
	va_end(ap);
	w->code = code;
	return false;
}

static bool w_grow(Writer *w, size_t n)
{
	size_t len = (size_t)(w->p - w->buf), cap = (size_t)(w->end - w->buf);
	size_t want = cap ? cap * 2 : 4096;
	while (want - len < n) {
		if (want > SIZE_MAX / 4)
			return w_fail(w, PGBIND_ERROR_NOMEM, "out of memory");
		want *= 2;
	}
	char *b = realloc(w->buf, want);
	if (!b)
		return w_fail(w, PGBIND_ERROR_NOMEM, "out of memory");
	w->buf = b;
	w->p = b + len;
	w->end = b + want;
	return true;
}

/* Room for n more bytes. Every writer below reserves before it writes. */
#define RESERVE(w, n) ((size_t)((w)->end - (w)->p) >= (size_t)(n) || w_grow((w), (n)))

static inline char *fmt_u64(char *p, uint64_t v)
{
	int n = 1;
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	char *end = p + n;
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p + n;
}

static inline char *fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return fmt_u64(p, (uint64_t)v);
}

/* Room for a key, its comma and a number after it. */
#define KEY_SLACK 48

/* [,]"name": (no comma when first) -- reserves the key plus KEY_SLACK bytes, so a number may
 * follow unchecked. */
static inline bool w_key(Writer *w, bool first, const FieldInfo *fi)
{
	if (!RESERVE(w, fi->key_len + KEY_SLACK))
		return false;
	memcpy(w->p, pgbind_json_key_text + fi->key + first, fi->key_len - first);
	w->p += fi->key_len - first;
	return true;
}

/* Bytes that are not copied as they are: control characters, '"', '\\', and '<' and '>', which
 * libpg_query 15-4.0.0 writes as \u003c and \u003e. Everything else is copied, 0x7f and bytes
 * >= 0x80 included, UTF-8 or not. */
static inline bool needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>';
}

static __attribute__((noinline)) bool w_string(Writer *w, const char *s)
{
	size_t n = strlen(s);
	if (n > (SIZE_MAX - 8) / 6)
		return w_fail(w, PGBIND_ERROR_NOMEM, "out of memory");
	if (!RESERVE(w, 6 * n + 2))
		return false;
	const unsigned char *u = (const unsigned char *)s;
	char *p = w->p;
	*p++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		if (!needs_escape(c)) {
			*p++ = (char)c;
			continue;
		}
		*p++ = '\\';
		switch (c) {
		case '"':
			*p++ = '"';
			break;
		case '\\':
			*p++ = '\\';
			break;
		case '\b':
			*p++ = 'b';
			break;
		case '\f':
			*p++ = 'f';
			break;
		case '\n':
			*p++ = 'n';
			break;
		case '\r':
			*p++ = 'r';
			break;
		case '\t':
			*p++ = 't';
			break;
		default:
			*p++ = 'u';
			*p++ = '0';
			*p++ = '0';
			*p++ = "0123456789abcdef"[c >> 4];
			*p++ = "0123456789abcdef"[c & 15];
			break;
		}
	}
	*p++ = '"';
	w->p = p;
	return true;
}

/* +0.0, the unset double (-0.0 is set: its encoding differs) */
static __attribute__((noinline)) bool double_is_zero_bits(const void *p)
{
	uint64_t bits;
	memcpy(&bits, p, sizeof bits);
	return bits == 0;
}

/* The shortest decimal that reads back as v; NaN and the infinities as proto3 JSON has them. */
static __attribute__((noinline)) bool w_double(Writer *w, double v)
{
	char buf[40];
	if (isnan(v))
		strcpy(buf, "\"NaN\"");
	else if (isinf(v))
		strcpy(buf, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
	else
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, sizeof buf, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	size_t n = strlen(buf);
	if (!RESERVE(w, n))
		return false;
	memcpy(w->p, buf, n);
	w->p += n;
	return true;
}

static const char *enum_name(int32_t enum_index, int32_t v)
{
	const pgbind_EnumDesc *e = &pgbind_enum_descs[enum_index];
	if (v >= 0 && (uint32_t)v < e->n_values && e->values[v].number == v)
		return e->values[v].name; /* proto enums are numbered 0, 1, 2, ... */
	return pgbind_enum_value_name(enum_index, v);
}

static bool w_message(Writer *w, const pgbind_MessageDesc *d, const char *base);

/* {"Kind":{...}}, or {} for NULL (a NULL list cell) */
static bool w_node(Writer *w, const pgbind_Node *n)
{
	if (!n) {
		if (!RESERVE(w, 2))
			return false;
		*w->p++ = '{';
		*w->p++ = '}';
		return true;
	}
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	if (!d)
		return w_fail(w, PGBIND_ERROR_INVALID, "node tag %u is not a node kind", (unsigned)n->tag);
	size_t m = (size_t)(d - pgbind_message_descs), len = pgbind_json_kind_name_len[m];
	if (!RESERVE(w, len + 32))
		return false;
	char *p = w->p;
	memcpy(p, pgbind_json_key_text + pgbind_json_kind_key[m], len + 4); /* {"Kind": */
	p += len + 4;
	if (n->tag == PGBIND_T_Boolean) {
		/* a Boolean node writes false too (inside A_Const it does not: w_message) */
		const char *v = ((const pgbind_Boolean *)n)->boolval ? "{\"boolval\":true}}" : "{\"boolval\":false}}";
		size_t vl = strlen(v);
		memcpy(p, v, vl);
		w->p = p + vl;
		return true;
	}
	w->p = p;
	if (!w_message(w, d, (const char *)n)) {
		pgbind_json_path_prepend(&w->path, d->name, len);
		pgbind_json_path_prepend(&w->path, ".", 1);
		return false;
	}
	if (!RESERVE(w, 1))
		return false;
	*w->p++ = '}';
	return true;
}

/* An enum field's value by name; v != 0. */
static __attribute__((noinline)) bool w_enum(Writer *w, bool first, const FieldInfo *fi, const pgbind_FieldDesc *f,
											 int32_t v)
{
	const char *name = enum_name(f->type_index, v);
	if (!name)
		return w_fail(w, PGBIND_ERROR_INVALID, "%d is not a value of enum %s", v,
					  pgbind_enum_descs[f->type_index].name);
	size_t len = strlen(name);
	if (!w_key(w, first, fi) || !RESERVE(w, len + 2))
		return false;
	*w->p++ = '"';
	memcpy(w->p, name, len); /* enum names are identifiers: nothing to escape */
	w->p += len;
	*w->p++ = '"';
	return true;
}

/* A oneof (A_Const.val): one key named after the member, holding the member's fields. */
static __attribute__((noinline)) bool w_oneof(Writer *w, bool first, const pgbind_MessageDesc *d,
											  const pgbind_FieldDesc *f, const pgbind_Node *v)
{
	const pgbind_OneofDesc *o = &pgbind_oneof_descs[f->type_index];
	const pgbind_OneofMemberDesc *m = NULL;
	for (uint32_t k = 0; k < o->n_members && !m; k++)
		if (pgbind_message_descs[o->members[k].message_index].tag == v->tag)
			m = &o->members[k];
	if (!m) {
		const pgbind_MessageDesc *vd = pgbind_node_desc(v->tag);
		w_fail(w, PGBIND_ERROR_INVALID, "%s.%s cannot hold a %s node", d->name, f->name, vd ? vd->name : "(invalid)");
		pgbind_json_path_field(&w->path, f->name, -1);
		return false;
	}
	size_t n = strlen(m->name);
	if (!RESERVE(w, n + 4))
		return false;
	if (!first)
		*w->p++ = ',';
	*w->p++ = '"';
	memcpy(w->p, m->name, n);
	w->p += n;
	*w->p++ = '"';
	*w->p++ = ':';
	if (!w_message(w, &pgbind_message_descs[m->message_index], (const char *)v)) {
		pgbind_json_path_field(&w->path, m->name, -1);
		return false;
	}
	return true;
}

/* A bitmapset's members, [1,2,3] */
static __attribute__((noinline)) bool w_packed(Writer *w, bool first, const FieldInfo *fi, const uint64_t *v, size_t n)
{
	if (!w_key(w, first, fi))
		return false;
	*w->p++ = '[';
	for (size_t k = 0; k < n; k++) {
		if (!RESERVE(w, 24))
			return false;
		if (k)
			*w->p++ = ',';
		w->p = fmt_u64(w->p, v[k]);
	}
	if (!RESERVE(w, 1))
		return false;
	*w->p++ = ']';
	return true;
}

/* An integer field of w_message's loop: left out when 0 (unless `always`), else its key and its
 * decimal digits. */
#define W_INTEGER(type, format, always) \
	{                                   \
		type v_ = *(const type *)p;     \
		if (v_ == 0 && !(always))       \
			continue;                   \
		if (!w_key(w, first, fi))       \
			return false;               \
		w->p = format(w->p, v_);        \
		break;                          \
	}

/*
 * {fields}: the fields that are set, in descriptor (proto) order. Recursive (through w_node), so
 * it keeps its frame small: no local has its address taken, and what does not recurse is out of
 * line. A field whose writing fails adds its name to the path.
 */
static bool w_message(Writer *w, const pgbind_MessageDesc *d, const char *base)
{
	if (++w->depth > w->max_depth || pgbind_stack_low())
		return w_fail(w, PGBIND_ERROR_DEPTH, "nesting deeper than %d levels (pgbind_Options.max_depth)", w->max_depth);
	const uint32_t tag = d->tag;
	const FieldInfo *info = pgbind_json_field_info + pgbind_json_field_base[d - pgbind_message_descs];
	bool first = true;

	if (!RESERVE(w, 1))
		return false;
	*w->p++ = '{';
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const FieldInfo *fi = &info[i];
		const char *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_INT32: /* A_Const.location: always */
			W_INTEGER(int32_t, fmt_i64, tag == PGBIND_T_A_Const);
		case PGBIND_WIRE_UINT32:
			W_INTEGER(uint32_t, fmt_u64, false);
		case PGBIND_WIRE_INT64:
			W_INTEGER(int64_t, fmt_i64, false);
		case PGBIND_WIRE_UINT64:
			W_INTEGER(uint64_t, fmt_u64, false);
		case PGBIND_WIRE_BOOL:
			if (!*(const bool *)p)
				continue;
			if (!w_key(w, first, fi))
				return false;
			memcpy(w->p, "true", 4);
			w->p += 4;
			break;
		case PGBIND_WIRE_DOUBLE:
			if (double_is_zero_bits(p))
				continue;
			if (!w_key(w, first, fi) || !w_double(w, *(const double *)p))
				return false;
			break;
		case PGBIND_WIRE_STRING: {
			const char *v = *(const char *const *)p;
			if (JSON_OMITS_EMPTY_STRINGS && v && !v[0] && !is_value_string_kind(tag))
				continue;
			if (!v) {
				if (!is_value_string_kind(tag)) /* String.sval and the like: always */
					continue;
				if (!w_key(w, first, fi))
					return false;
				memcpy(w->p, "null", 4);
				w->p += 4;
			} else if (!w_key(w, first, fi) || !w_string(w, v)) {
				return false;
			}
			break;
		}
		case PGBIND_WIRE_ENUM: {
			int32_t v = *(const int32_t *)p;
			if (v == 0)
				continue;
			if (!w_enum(w, first, fi, f, v))
				goto fail_field;
			break;
		}
		case PGBIND_WIRE_NODE: {
			const pgbind_Node *v = *(const pgbind_Node *const *)p;
			if (!v)
				continue;
			if (!w_key(w, first, fi) || !w_node(w, v))
				goto fail_field;
			break;
		}
		case PGBIND_WIRE_MESSAGE: {
			const char *v = *(const char *const *)p;
			if (!v)
				continue;
			if (!w_key(w, first, fi) || !w_message(w, &pgbind_message_descs[f->type_index], v))
				goto fail_field;
			break;
		}
		case PGBIND_WIRE_ONEOF: {
			const pgbind_Node *v = *(const pgbind_Node *const *)p;
			if (!v)
				continue;
			if (!w_oneof(w, first, d, f, v))
				return false;
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const bool int_cells = tag == PGBIND_T_IntList || tag == PGBIND_T_OidList;
			if (n == 0 && tag != PGBIND_T_List && !int_cells) /* List.items: always, even [] */
				continue;
			pgbind_Node *const *v = *(pgbind_Node *const *const *)p;
			if (!w_key(w, first, fi))
				return false;
			*w->p++ = '[';
			for (size_t k = 0; k < n; k++) {
				if (!RESERVE(w, 24))
					return false;
				if (k)
					*w->p++ = ',';
				if (int_cells && v[k] && v[k]->tag == PGBIND_T_Integer) {
					/* libpg_query writes IntList/OidList cells as bare numbers */
					w->p = fmt_i64(w->p, ((const pgbind_Integer *)v[k])->ival);
				} else if (!w_node(w, v[k])) {
					pgbind_json_path_index(&w->path, k);
					goto fail_field;
				}
			}
			if (!RESERVE(w, 1))
				return false;
			*w->p++ = ']';
			break;
		}
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			if (n == 0)
				continue;
			const char *const *v = *(const char *const *const *)p;
			if (!w_key(w, first, fi))
				return false;
			*w->p++ = '[';
			for (size_t k = 0; k < n; k++) {
				if (!RESERVE(w, 3))
					return false;
				if (k)
					*w->p++ = ',';
				if (!v[k]) {
					*w->p++ = '{';
					*w->p++ = '}';
				} else if (!w_message(w, &pgbind_message_descs[f->type_index], v[k])) {
					pgbind_json_path_index(&w->path, k);
					goto fail_field;
				}
			}
			if (!RESERVE(w, 1))
				return false;
			*w->p++ = ']';
			break;
		}
		case PGBIND_WIRE_PACKED_UINT64: {
			size_t n = *(const size_t *)(base + f->count_offset);
			if (n == 0)
				continue;
			if (!w_packed(w, first, fi, *(const uint64_t *const *)p, n))
				return false;
			break;
		}
		default:
			continue;
		}
		first = false;
		continue;
	fail_field:
		pgbind_json_path_field(&w->path, f->name, -1);
		return false;
	}
	if (!RESERVE(w, 1))
		return false;
	*w->p++ = '}';
	w->depth--;
	return true;
}

const char *pgbind_json(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
						pgbind_Status *status)
{
	if (!tree || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", tree ? "arena" : "tree");
		return NULL;
	}
	if (!pgbind_json_tables(status))
		return NULL;
	Writer w = {.max_depth = pgbind_max_depth(options), .depth = 0}; /* ParseResult is level 0, as everywhere */
	pgbind_json_path_init(&w.path);
	const pgbind_MessageDesc *raw_stmt = pgbind_node_desc(PGBIND_T_RawStmt);
	bool ok = w_grow(&w, 64);
	if (ok) {
		memcpy(w.p, "{\"version\":", 11);
		w.p = fmt_i64(w.p + 11, tree->version);
		memcpy(w.p, ",\"stmts\":[", 10);
		w.p += 10;
	}
	for (size_t i = 0; ok && i < tree->n_stmts; i++) {
		if (!(ok = RESERVE(&w, 3)))
			break;
		if (i)
			*w.p++ = ',';
		if (!tree->stmts[i]) {
			*w.p++ = '{';
			*w.p++ = '}';
		} else if (!(ok = w_message(&w, raw_stmt, (const char *)tree->stmts[i]))) {
			pgbind_json_path_field(&w.path, "stmts", (long)i);
		}
	}
	ok = ok && RESERVE(&w, 3);
	char *out = NULL;
	if (ok) {
		*w.p++ = ']';
		*w.p++ = '}';
		size_t len = (size_t)(w.p - w.buf);
		out = pgbind_Arena_Malloc(arena, len + 1);
		if (out) {
			memcpy(out, w.buf, len);
			out[len] = '\0';
		} else {
			w_fail(&w, PGBIND_ERROR_NOMEM, "out of memory");
		}
	}
	if (!out) {
		const char *path = w.path.start < sizeof w.path.buf - 1 ? pgbind_json_path_text(&w.path) : "";
		pgbind_fail(status, w.code ? w.code : PGBIND_ERROR_NOMEM, "%s%s%s", w.what, *path ? " at " : "", path);
	}
	free(w.buf);
	return out;
}
