/*
 * json.c -- the AST as JSON in libpg_query's format, and back: pgbind_json() and
 * pgbind_json_read() (declared in pgbind_json.h). Both walk the descriptor tables of
 * pgbind_reflect.h, so a new field or node kind needs no change here.
 *
 * The format, as libpg_query 15-4.0.0's pg_query_parse() writes it (found by comparing its output
 * for the 5,361 statements of tests/sql and Debian's PostgreSQL scripts, and read against its
 * pg_query_outfuncs_json.c):
 *   - {"version":150001,"stmts":[...]}: both keys always, "stmts":[] for no statements; each
 *     statement is a RawStmt object {"stmt":...,"stmt_location":N,"stmt_len":N}.
 *   - A node is {"Kind":{fields}}; a message that is not a Node (RangeVar.alias) is {fields}; a
 *     NULL list cell is {}. No white space anywhere.
 *   - Keys are PostgreSQL's C field names (the AST's member names), in proto field order.
 *   - Left out when unset: integers equal to 0, false, NULL strings ("" is written: "" and NULL
 *     differ; libpg_query 18 leaves "" out as well, outside the value nodes, and pgbind follows
 *     the libpg_query it is built with), NULL nodes and messages, empty lists and bitmapsets.
 *   - Enums: always, by name, even PostgreSQL's value 0 (pgbind's 0, the proto's *_UNDEFINED,
 *     never occurs in a parsed tree and is left out).
 *   - Exceptions: List.items always ("items":[]); String.sval, Float.fval, BitString.bsval always
 *     (null when NULL); a Boolean node always has "boolval":true|false, but the Boolean inside
 *     A_Const is {} for false; A_Const.location always, even 0. A_Const's value is one key named
 *     after the oneof member: "ival":{"ival":5}, "ival":{} (0), "fval":{"fval":"1.5"},
 *     "boolval":{"boolval":true}, "boolval":{}, "sval":{"sval":"x"}, "bsval":{"bsval":"b101"};
 *     SQL NULL is "isnull":true and no value. IntList/OidList cells are bare numbers.
 *   - Strings: \" \\ \b \f \n \r \t; other bytes below 0x20, and '<' and '>', as \u00XX
 *     (lower-case hex: \u0001, \u003c, \u003e); every other byte as it is: 0x7f, '&', '/',
 *     UTF-8, and bytes that are not UTF-8 (PostgreSQL's scanner passes them into identifiers and
 *     strings, and JSON has no escape for a byte: such text is not strict JSON, from libpg_query
 *     or from pgbind, and pgbind_json_read accepts it as pgbind_decode accepts such protobuf).
 *
 * Where libpg_query's output is wrong, pgbind writes what the tree holds (tests/test_json.c shows
 * each case with libpg_query's actual output):
 *   1. An Integer below zero loses its value: libpg_query writes ival only when > 0, so
 *      `SELECT -5` gives "ival":{} (read back: 0) and `CREATE SEQUENCE s INCREMENT BY -1` gives
 *      "arg":{"Integer":{}}. pgbind writes "ival":{"ival":-5}. 148 of the 5,361 statements hit it.
 *   In trees no parse produces (hand-built, or analyzed):
 *   2. Doubles (SubPlan costs, RangeTblEntry.enrtuples) are printed with "%f": 1e-07 becomes
 *      0.000000, infinity a bare Infinity (not JSON). pgbind writes the shortest exact decimal,
 *      "Infinity"/"-Infinity"/"NaN" as strings (proto3 JSON), and leaves out 0.
 *   3. An A_Const with neither a value nor isnull is written {"A_Const":{,"location":N}} (not
 *      JSON). pgbind writes {"A_Const":{"location":N}}.
 *   4. A char field holding '"' or '\\' is not escaped ("relpersistence":"""). pgbind escapes it.
 *
 * A tree from pgbind_decode() writes the same JSON as the parsed tree except where a string was ""
 * outside the value nodes (COMMENT ... IS ''): protobuf cannot tell "" from NULL, JSON can.
 *
 * Writer: straight into one growing malloc'd buffer (no document model), copied into the arena at
 * the end. Keys come pre-rendered from tables built once per process.
 *
 * Reader: a hand-written recursive-descent parser that fills the AST as it reads, with no document
 * model in between. Not jansson: its fixed nesting limit (2048 JSON levels) is below what trees
 * within max_depth need (each message level is two or three JSON levels: 3,000 additions need
 * 6,000), and errors should name the field path. Strict: an unknown key is an error (a typo is
 * reported, not skipped), so no value is ever skipped unparsed. Depth is counted in messages, as
 * pgbind_decode counts it, so a tree that one accepts the other accepts. Array elements are
 * collected on one scratch stack and copied into the arena when the array ends.
 *
 * Watch the C stack: both sides recurse once per message level (128 + 64 bytes a level writing,
 * 96 + 32 reading, 96 more in a list; about three times that under AddressSanitizer), so the
 * recursive functions take no local's address and keep everything else out of line
 * (noinline helpers). The default max_depth, 10,000, needs about 2 MiB; a much larger max_depth
 * needs a larger stack.
 */
#include "internal.h"
#include "pg_query.h" /* PG_VERSION_NUM: which libpg_query's JSON to write */
#include "pgbind_json.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpg_query 18 leaves a char * field holding "" out of its JSON, as it does NULL (value nodes'
 * strings aside: "sval":"" stays); 15 and 17 write "". */
#define JSON_OMITS_EMPTY_STRINGS (PG_VERSION_NUM >= 180000)

/* ---- shared: field paths for error messages ------------------------------------------------- */

/*
 * A path such as "ParseResult.stmts[0].stmt.SelectStmt.whereClause", built while an error
 * unwinds the recursion: each level prepends its part, so success costs nothing. When the buffer
 * fills, the outer parts are dropped and the path is shown as "...".
 */
typedef struct {
	char buf[224];
	size_t start;
	bool truncated;
} Path;

static void path_init(Path *p)
{
	p->start = sizeof p->buf - 1;
	p->buf[p->start] = '\0';
	p->truncated = false;
}

static void path_prepend(Path *p, const char *s, size_t n)
{
	if (p->truncated || n > p->start) {
		p->truncated = true;
		return;
	}
	p->start -= n;
	memcpy(p->buf + p->start, s, n);
}

/* ".name" or ".name[index]" (index < 0: none). Errors only: out of line. */
static __attribute__((noinline)) void path_field(Path *p, const char *name, long index)
{
	if (index >= 0) {
		char tmp[24];
		int n = snprintf(tmp, sizeof tmp, "[%ld]", index);
		path_prepend(p, tmp, (size_t)n);
	}
	path_prepend(p, name, strlen(name));
	path_prepend(p, ".", 1);
}

/* "[k]" */
static __attribute__((noinline)) void path_index(Path *path, size_t k)
{
	char idx[24];
	int len = snprintf(idx, sizeof idx, "[%zu]", k);
	path_prepend(path, idx, (size_t)len);
}

static const char *path_text(Path *p)
{
	if (!p->truncated)
		path_prepend(p, "ParseResult", 11);
	if (p->truncated) {
		if (p->start >= 3) {
			p->start -= 3;
			memcpy(p->buf + p->start, "...", 3);
		}
	}
	return p->buf + p->start;
}

static inline bool is_value_string_kind(uint32_t tag)
{
	return tag == PGBIND_T_String || tag == PGBIND_T_Float || tag == PGBIND_T_BitString;
}

/* ---- tables, built once --------------------------------------------------------------------- */

/*
 * Derived from the descriptor tables once per process (under a lock) and only read afterwards:
 * each field's key as the writer writes it (,"name": -- the comma is skipped for a first key)
 * and the lengths of its names for the reader; each node kind's opening {"Kind": and a hash of
 * the kind names. They stay allocated until the process ends.
 */
typedef struct {
	uint32_t key;       /* offset in key_text of ,"name": */
	uint16_t key_len;   /* its length */
	uint16_t name_len;  /* strlen(name) */
	uint16_t proto_len; /* strlen(proto_name), UINT16_MAX when it is the same name */
} FieldInfo;

#define KIND_HASH_SIZE 1024 /* a power of two, over four times the number of node kinds */

static char *key_text;
static FieldInfo *field_info;
static uint32_t field_base[PGBIND_MESSAGE_COUNT]; /* a message's first FieldInfo */
static uint32_t kind_key[PGBIND_MESSAGE_COUNT];   /* offset in key_text of {"Kind": */
static uint16_t kind_name_len[PGBIND_MESSAGE_COUNT];
static int16_t kind_hash[KIND_HASH_SIZE]; /* message index + 1; 0: empty */
static const pgbind_MessageDesc *parse_result_desc;
static atomic_bool tables_ready;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Builds the tables, or leaves everything unset when out of memory (the next call tries again). */
static void build_tables(void)
{
	size_t n_fields = 0, text = 0;
	memset(kind_hash, 0, sizeof kind_hash);
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		field_base[m] = (uint32_t)n_fields;
		if (!d->name) /* the table may end in unused, zeroed entries */
			continue;
		n_fields += d->n_fields;
		text += strlen(d->name) + 4;
		for (uint32_t i = 0; i < d->n_fields; i++)
			text += strlen(d->fields[i].name) + 4;
	}
	key_text = malloc(text + 1); /* sprintf's last NUL */
	field_info = malloc((n_fields ? n_fields : 1) * sizeof *field_info);
	if (!key_text || !field_info || text > UINT32_MAX || PGBIND_NODE_KIND_COUNT > KIND_HASH_SIZE / 2) {
		free(key_text);
		free(field_info);
		key_text = NULL;
		field_info = NULL;
		return;
	}
	size_t at = 0;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (!d->name)
			continue;
		size_t n = strlen(d->name);
		kind_key[m] = (uint32_t)at;
		kind_name_len[m] = (uint16_t)n;
		at += (size_t)sprintf(key_text + at, "{\"%s\":", d->name);
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const pgbind_FieldDesc *f = &d->fields[i];
			FieldInfo *fi = &field_info[field_base[m] + i];
			fi->key = (uint32_t)at;
			fi->key_len = (uint16_t)sprintf(key_text + at, ",\"%s\":", f->name);
			at += fi->key_len;
			fi->name_len = (uint16_t)strlen(f->name);
			fi->proto_len = strcmp(f->name, f->proto_name) == 0 ? UINT16_MAX : (uint16_t)strlen(f->proto_name);
		}
		if (d->tag != 0 && pgbind_node_desc(d->tag) == d) {
			uint32_t h = name_hash(d->name, n);
			while (kind_hash[h & (KIND_HASH_SIZE - 1)] != 0)
				h++;
			kind_hash[h & (KIND_HASH_SIZE - 1)] = (int16_t)(m + 1);
		}
	}
	parse_result_desc = pgbind_message_desc_by_name("ParseResult");
	atomic_store_explicit(&tables_ready, parse_result_desc != NULL, memory_order_release);
}

/* The tables, built by the first call that needs them; a failed build is retried, so one failed
 * allocation does not disable JSON for the life of the process. */
static bool tables(pgbind_Status *status)
{
	if (atomic_load_explicit(&tables_ready, memory_order_acquire))
		return true;
	pthread_mutex_lock(&tables_lock);
	if (!atomic_load_explicit(&tables_ready, memory_order_relaxed))
		build_tables();
	pthread_mutex_unlock(&tables_lock);
	bool ready = atomic_load_explicit(&tables_ready, memory_order_acquire);
	if (!ready)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory (building the JSON key tables)");
	return ready;
}

/* ==== writer =================================================================================== */

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
	memcpy(w->p, key_text + fi->key + first, fi->key_len - first);
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
	size_t m = (size_t)(d - pgbind_message_descs), len = kind_name_len[m];
	if (!RESERVE(w, len + 32))
		return false;
	char *p = w->p;
	memcpy(p, key_text + kind_key[m], len + 4); /* {"Kind": */
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
		path_prepend(&w->path, d->name, len);
		path_prepend(&w->path, ".", 1);
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
		path_field(&w->path, f->name, -1);
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
		path_field(&w->path, m->name, -1);
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
	const FieldInfo *info = field_info + field_base[d - pgbind_message_descs];
	bool first = true;

	if (!RESERVE(w, 1))
		return false;
	*w->p++ = '{';
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const FieldInfo *fi = &info[i];
		const char *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_INT32: {
			int32_t v = *(const int32_t *)p;
			if (v == 0 && tag != PGBIND_T_A_Const) /* A_Const.location: always */
				continue;
			if (!w_key(w, first, fi))
				return false;
			w->p = fmt_i64(w->p, v);
			break;
		}
		case PGBIND_WIRE_UINT32: {
			uint32_t v = *(const uint32_t *)p;
			if (v == 0)
				continue;
			if (!w_key(w, first, fi))
				return false;
			w->p = fmt_u64(w->p, v);
			break;
		}
		case PGBIND_WIRE_INT64: {
			int64_t v = *(const int64_t *)p;
			if (v == 0)
				continue;
			if (!w_key(w, first, fi))
				return false;
			w->p = fmt_i64(w->p, v);
			break;
		}
		case PGBIND_WIRE_UINT64: {
			uint64_t v = *(const uint64_t *)p;
			if (v == 0)
				continue;
			if (!w_key(w, first, fi))
				return false;
			w->p = fmt_u64(w->p, v);
			break;
		}
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
					path_index(&w->path, k);
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
					path_index(&w->path, k);
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
		path_field(&w->path, f->name, -1);
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
	if (!tables(status))
		return NULL;
	Writer w = {.max_depth = pgbind_max_depth(options), .depth = 0}; /* ParseResult is level 0, as everywhere */
	path_init(&w.path);
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
			path_field(&w.path, "stmts", (long)i);
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
		const char *path = w.path.start < sizeof w.path.buf - 1 ? path_text(&w.path) : "";
		pgbind_fail(status, w.code ? w.code : PGBIND_ERROR_NOMEM, "%s%s%s", w.what, *path ? " at " : "", path);
	}
	free(w.buf);
	return out;
}

/* ==== reader =================================================================================== */

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
	uint32_t h = name_hash(s, n);
	for (;; h++) {
		int16_t m = kind_hash[h & (KIND_HASH_SIZE - 1)];
		if (m == 0)
			return NULL;
		if (kind_name_len[m - 1] == n && memcmp(pgbind_message_descs[m - 1].name, s, n) == 0)
			return &pgbind_message_descs[m - 1];
	}
}

/* The field of d named [s, s + n) (its C name or its proto name; for a oneof, a member's name),
 * searched from *hint on, since keys usually come in field order. */
static const pgbind_FieldDesc *field_by_name(const pgbind_MessageDesc *d, const char *s, size_t n, uint32_t hint,
											 const pgbind_OneofMemberDesc **member)
{
	const FieldInfo *info = field_info + field_base[d - pgbind_message_descs];
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

/* "Kind": and the '{' after it (not consumed): the kind's message, or NULL on an error */
static __attribute__((noinline)) const pgbind_MessageDesc *r_node_kind(Reader *r)
{
	if (r_peek(r) != '"') {
		r_unexpected(r, "a node kind (a string) or '}'");
		return NULL;
	}
	const char *key_at = r->p, *s, *e;
	bool esc;
	if (!r_string_span(r, &s, &e, &esc))
		return NULL;
	if (esc) {
		char *k = r_decode(r, s, e, esc);
		if (!k)
			return NULL;
		s = k;
		e = k + strlen(k);
	}
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
		path_field(&r->path, d->name, -1);
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
		path_field(&r->path, d->name, -1);
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
			path_index(&r->path, k);
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
	if (r_peek(r) != '"') {
		r_unexpected(r, "a key (a string)");
		return NULL;
	}
	const char *key_at = r->p, *s, *e;
	bool esc;
	if (!r_string_span(r, &s, &e, &esc))
		return NULL;
	if (esc) {
		char *k = r_decode(r, s, e, esc);
		if (!k)
			return NULL;
		s = k;
		e = k + strlen(k);
	}
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
	for (;;) {
		const pgbind_FieldDesc *f = r_key(r, d, hint);
		if (!f)
			return false;
		hint = (uint32_t)(f - d->fields) + 1; /* keys usually come in field order */
		const char *name = f->wire == PGBIND_WIRE_ONEOF ? r->member->name : f->name;
		if (!r_field(r, d, f, base)) {
			path_field(&r->path, name, -1);
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
	r->depth--;
	return true;
}

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

pgbind_ParseResult *pgbind_json_read(const char *json, size_t len, const pgbind_Options *options, pgbind_Arena *arena,
									 pgbind_Status *status)
{
	if ((!json && len) || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", arena ? "json" : "arena");
		return NULL;
	}
	if (!tables(status))
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
	path_init(&r.path);
	pgbind_ParseResult *result = NULL;
	int c = r_peek(&r);
	if (c < 0) {
		r_fail(&r, PGBIND_ERROR_MALFORMED, r.p, "no JSON value: the input is empty%s",
			   len ? " (only white space)" : "");
	} else if (c != '{') {
		r_wrong_type(&r, "an object (a ParseResult: {\"version\":...,\"stmts\":[...]})");
	} else {
		char *m = r_new(&r, parse_result_desc);
		if (m && r_message(&r, parse_result_desc, m)) {
			c = r_peek(&r);
			if (c < 0)
				result = (pgbind_ParseResult *)m;
			else
				r_unexpected(&r, "the end of the input after the JSON object");
		}
	}
	free(r.stack);
	if (!result) {
		int line, col;
		const char *at = r.err_at ? r.err_at : r.p;
		line_col(json, at, &line, &col);
		const char *path = r.path.start < sizeof r.path.buf - 1 ? path_text(&r.path) : "";
		pgbind_fail(status, r.code ? r.code : PGBIND_ERROR_NOMEM, "line %d, column %d: %s%s%s", line, col, r.what,
					*path ? " at " : "", path);
		if (status)
			status->offset = (size_t)(at - json);
	}
	return result;
}
