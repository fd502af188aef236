/*
 * convert.c -- the interpreter of the generated transcoders between two PostgreSQL majors'
 * libpg_query protobuf encodings (tables in targets/c/generated/convert/, their shape in
 * targets/c/runtime/convert_table.h, semantics in docs/convert.md). Entry point
 * pgbind_convert_protobuf() (targets/c/runtime/pgbind_convert.h); the generated index
 * (targets/c/generated/convert/index.c) lists the tables, linked with them. Depends on libc only.
 *
 * Each input message is read once into a stack of occurrences (field, value or bytes, offset),
 * then its output form is written by the message's plan: in the output proto's field order, each
 * field from the occurrences it reads. Every occurrence must be read by the plan or declared
 * dropped; one that is not has no form in the output major, an error naming its path. Nested
 * messages are written with a one-byte length slot, widened in place when longer (rare: most
 * nodes are under 128 bytes).
 */
#include "pgbind_convert.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_table.h"

/* Weak: a program that compiles every file of targets/c/runtime without the generated tables
 * (the vendored drop-in, make dist's packages) still links, and every pair is then
 * PGBIND_CONVERT_NO_PAIR. */
extern const cv_Table *const pgbind_convert_tables[] __attribute__((weak));

typedef struct {
	const uint8_t *data; /* LEN: the bytes; else the field's start (for the offset) */
	uint64_t value;      /* VARINT, I64, I32: the value; LEN: the length */
	const uint8_t *at;   /* the field's tag, for error offsets */
	uint16_t field;      /* index into the message's cv_InField */
	uint8_t wire;
	uint8_t used;
} Occ;

typedef struct {
	const char *name;
	int index; /* -1: not repeated */
} PathStep;

typedef struct {
	const cv_Table *t;
	const uint8_t *base;
	uint8_t *out;
	size_t len, cap;
	Occ *occ;
	size_t n_occ, cap_occ;
	int depth;
	const uint8_t *msg; /* the message being written: where an absent field's error points */
	pgbind_ConvertError *err;
	pgbind_ConvertCode code;
	bool failed;
	PathStep path[PGBIND_CONVERT_MAX_DEPTH + 1]; /* last: not cleared (64 KiB), written as entered */
} Cx;

static bool fail(Cx *cx, pgbind_ConvertCode code, const uint8_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The path to the current message, "stmts[0].stmt.MergeStmt", into buf. */
static void path_text(Cx *cx, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 1; i <= cx->depth && len + 1 < n; i++) {
		int w = cx->path[i].index >= 0
					? snprintf(buf + len, n - len, "%s%s[%d]", len ? "." : "", cx->path[i].name, cx->path[i].index)
					: snprintf(buf + len, n - len, "%s%s", len ? "." : "", cx->path[i].name);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (len >= n)
		buf[n - 1] = '\0';
}

static bool fail(Cx *cx, pgbind_ConvertCode code, const uint8_t *at, const char *fmt, ...)
{
	if (cx->failed)
		return false;
	cx->failed = true;
	cx->code = code;
	if (cx->err) {
		cx->err->code = code;
		cx->err->offset = at ? (size_t)(at - cx->base) : 0;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(cx->err->message, sizeof cx->err->message, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool grow(Cx *cx, size_t need)
{
	if (cx->len + need <= cx->cap)
		return true;
	size_t cap = cx->cap ? cx->cap : 256;
	while (cap < cx->len + need)
		cap *= 2;
	uint8_t *p = realloc(cx->out, cap);
	if (!p)
		return fail(cx, PGBIND_CONVERT_NO_MEMORY, NULL, "out of memory for %zu bytes of output", cap);
	cx->out = p;
	cx->cap = cap;
	return true;
}

static bool put_varint(Cx *cx, uint64_t v)
{
	if (!grow(cx, 10))
		return false;
	do {
		uint8_t b = v & 0x7f;
		v >>= 7;
		cx->out[cx->len++] = b | (v ? 0x80 : 0);
	} while (v);
	return true;
}

static bool put_bytes(Cx *cx, const uint8_t *p, size_t n)
{
	if (!grow(cx, n))
		return false;
	memcpy(cx->out + cx->len, p, n);
	cx->len += n;
	return true;
}

static bool put_tag(Cx *cx, uint32_t number, int wire)
{
	return put_varint(cx, ((uint64_t)number << 3) | (uint64_t)wire);
}

/* Opens a length-delimited value: returns where its one-byte length slot is. */
static size_t open_len(Cx *cx)
{
	if (!grow(cx, 1))
		return (size_t)-1;
	cx->out[cx->len++] = 0;
	return cx->len - 1;
}

/* Closes it: writes the length, widening the slot when the value is 128 bytes or more. */
static bool close_len(Cx *cx, size_t slot)
{
	size_t n = cx->len - slot - 1;
	int width = 1;
	for (size_t v = n; v >= 0x80; v >>= 7)
		width++;
	if (width > 1) {
		if (!grow(cx, (size_t)width - 1))
			return false;
		memmove(cx->out + slot + width, cx->out + slot + 1, n);
		cx->len += (size_t)width - 1;
	}
	size_t v = n;
	for (int i = 0; i < width; i++, v >>= 7)
		cx->out[slot + (size_t)i] = (uint8_t)((v & 0x7f) | (i + 1 < width ? 0x80 : 0));
	return true;
}

/* Reads a varint at *p (before end); false when truncated or longer than 10 bytes. */
static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	for (int shift = 0; shift < 70 && *p < end; shift += 7) {
		uint8_t b = *(*p)++;
		if (shift == 63 && b > 1)
			return false;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

/* Reads the value of a field of wire type `wire` (already checked: VARINT, I64, I32 or LEN) at *p:
 * a number into *v, or a LEN value's length into *v and its bytes' start into *data. */
static bool get_value(const uint8_t **p, const uint8_t *end, int wire, uint64_t *v, const uint8_t **data)
{
	*v = 0;
	if (wire == CV_WIRE_VARINT)
		return get_varint(p, end, v);
	if (wire == CV_WIRE_LEN) {
		if (!get_varint(p, end, v) || *v > (uint64_t)(end - *p))
			return false;
		*data = *p;
		*p += *v;
		return true;
	}
	size_t n = wire == CV_WIRE_I64 ? 8 : 4;
	if ((size_t)(end - *p) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		*v |= (uint64_t)(*p)[i] << (8 * i);
	*p += n;
	return true;
}

/* One field of an encoded message at *p (a varint key, then its value); false when malformed. */
typedef struct {
	uint64_t number, value;
	int wire;
	const uint8_t *data;
} Field;

static bool next_field(const uint8_t **p, const uint8_t *end, Field *f)
{
	uint64_t key;
	if (!get_varint(p, end, &key))
		return false;
	f->number = key >> 3;
	f->wire = (int)(key & 7);
	f->data = *p;
	return (f->wire == CV_WIRE_VARINT || f->wire == CV_WIRE_I64 || f->wire == CV_WIRE_I32 || f->wire == CV_WIRE_LEN) &&
		   get_value(p, end, f->wire, &f->value, &f->data);
}

static bool push_occ(Cx *cx, Occ o)
{
	if (cx->n_occ == cx->cap_occ) {
		size_t cap = cx->cap_occ ? cx->cap_occ * 2 : 256;
		Occ *p = realloc(cx->occ, cap * sizeof *p);
		if (!p)
			return fail(cx, PGBIND_CONVERT_NO_MEMORY, NULL, "out of memory for %zu fields", cap);
		cx->occ = p;
		cx->cap_occ = cap;
	}
	cx->occ[cx->n_occ++] = o;
	return true;
}

static const char *field_label(const cv_Table *t, const cv_InField *f)
{
	return (f->flags & CV_IN_NODE) && f->sub >= 0 ? t->messages[f->sub].name : f->name;
}

/* Reads the fields of one encoded message (of type lm, whose field k is m's field off + k) onto
 * the occurrence stack; an inlined field's own fields follow it as m's pseudo fields. */
static bool read_fields(Cx *cx, const cv_Message *m, const cv_Message *lm, int off, const uint8_t *p,
						const uint8_t *end, size_t first)
{
	while (p < end) {
		const uint8_t *at = p;
		uint64_t key, v = 0;
		if (!get_varint(&p, end, &key))
			return fail(cx, PGBIND_CONVERT_MALFORMED, at, "%s: a truncated field key at offset %zu", lm->name,
						(size_t)(at - cx->base));
		uint64_t number = key >> 3;
		int wire = (int)(key & 7);
		if (number == 0 || number > lm->max_number || lm->by_number[number] < 0)
			return fail(cx, PGBIND_CONVERT_MALFORMED, at, "%s: no field %llu (wire type %d) at offset %zu", lm->name,
						(unsigned long long)number, wire, (size_t)(at - cx->base));
		int idx = off + lm->by_number[number];
		const cv_InField *f = &m->fields[idx];
		bool ok_wire = wire == f->wire || ((f->flags & CV_IN_REPEATED) && f->wire == CV_WIRE_LEN && f->sub < 0 &&
										   (wire == CV_WIRE_VARINT || wire == CV_WIRE_I64 || wire == CV_WIRE_I32));
		if (!ok_wire)
			return fail(cx, PGBIND_CONVERT_MALFORMED, at, "%s.%s: wire type %d where the proto says %d, at offset %zu",
						lm->name, f->name, wire, f->wire, (size_t)(at - cx->base));
		const uint8_t *data = p;
		if (!get_value(&p, end, wire, &v, &data))
			return fail(cx, PGBIND_CONVERT_MALFORMED, at, "%s.%s: %s at offset %zu", lm->name, f->name,
						wire == CV_WIRE_VARINT ? "a truncated varint"
						: wire == CV_WIRE_LEN  ? "a length past the end of its message"
											   : "a truncated fixed value",
						(size_t)(at - cx->base));
		if (!(f->flags & CV_IN_REPEATED))
			for (size_t i = first; i < cx->n_occ; i++)
				if (cx->occ[i].field == idx)
					return fail(cx, PGBIND_CONVERT_MALFORMED, at, "%s.%s: given twice, at offset %zu", lm->name,
								f->name, (size_t)(at - cx->base));
		if (!push_occ(cx, (Occ){data, v, at, (uint16_t)idx, (uint8_t)wire, (f->flags & CV_IN_INLINE) != 0}))
			return false;
		if ((f->flags & CV_IN_INLINE) && !read_fields(cx, m, &cx->t->messages[f->sub], f->base, data, data + v, first))
			return false;
	}
	return true;
}

static bool transcode(Cx *cx, int msg, const uint8_t *p, size_t n);

static bool write_plan(Cx *cx, const cv_Message *m, const cv_Plan *plan, size_t first, size_t last);

static bool no_form(Cx *cx, const cv_Message *m, const cv_InField *f, const uint8_t *at, const char *what)
{
	if (!at)
		at = cx->msg;
	char path[400];
	path_text(cx, path, sizeof path);
	return fail(cx, PGBIND_CONVERT_NO_FORM, at, "%s%s%s%s (%d) has no form in %d", path, *path ? "." : "",
				f ? field_label(cx->t, f) : m->name, what, cx->t->from_major, cx->t->to_major);
}

/* An enum value the output enum lacks (out of line: its buffer stays out of the recursion's frames). */
__attribute__((noinline)) static bool no_enum_form(Cx *cx, const cv_Message *m, const cv_InField *f, const Occ *o,
												   const cv_EnumMap *map)
{
	char what[96];
	snprintf(what, sizeof what, " = %s value %llu", map->name, (unsigned long long)o->value);
	return no_form(cx, m, f, o->at, what);
}

/* Writes one occurrence o as output field e. */
/* A declared scalar value (a string, else a number) as field `number`, left out when it is proto3's
 * default (empty, 0), as libpg_query leaves it out. */
static bool put_scalar(Cx *cx, uint32_t number, const char *str, uint64_t num)
{
	if (str)
		return !*str || (put_tag(cx, number, CV_WIRE_LEN) && put_varint(cx, strlen(str)) &&
						 put_bytes(cx, (const uint8_t *)str, strlen(str)));
	return !num || (put_tag(cx, number, CV_WIRE_VARINT) && put_varint(cx, num));
}

/* " = 'TEXT'" (at most max bytes of it) or " = N": an input value for a no-form message. */
static void value_text(char *buf, size_t n, bool is_str, const Occ *o, int max)
{
	if (is_str)
		snprintf(buf, n, " = '%.*s'", o ? (int)(o->value > (uint64_t)max ? (uint64_t)max : o->value) : 0,
				 o ? (const char *)o->data : "");
	else
		snprintf(buf, n, " = %llu", o ? (unsigned long long)o->value : 0ULL);
}

static bool write_occ(Cx *cx, const cv_Message *m, const cv_OutField *e, Occ *o, int ordinal)
{
	const cv_InField *f = &m->fields[o->field];
	o->used = 1;
	switch (e->op) {
	case CV_OP_COPY:
		if (!put_tag(cx, e->number, o->wire))
			return false;
		if (o->wire == CV_WIRE_LEN)
			return put_varint(cx, o->value) && put_bytes(cx, o->data, (size_t)o->value);
		if (o->wire == CV_WIRE_VARINT)
			return put_varint(cx, o->value);
		return put_bytes(cx, o->data, o->wire == CV_WIRE_I64 ? 8 : 4);
	case CV_OP_ENUM: {
		const cv_EnumMap *map = &cx->t->enums[e->arg];
		if (o->wire != CV_WIRE_VARINT)
			return fail(cx, PGBIND_CONVERT_MALFORMED, o->at, "%s.%s: a packed enum at offset %zu", m->name, f->name,
						(size_t)(o->at - cx->base));
		if (o->value >= map->n || map->to[o->value] < 0)
			return no_enum_form(cx, m, f, o, map);
		return put_tag(cx, e->number, CV_WIRE_VARINT) && put_varint(cx, (uint64_t)map->to[o->value]);
	}
	default: { /* CV_OP_MSG */
		if (cx->depth >= PGBIND_CONVERT_MAX_DEPTH)
			return fail(cx, PGBIND_CONVERT_TOO_DEEP, o->at, "nested deeper than %d messages at offset %zu",
						PGBIND_CONVERT_MAX_DEPTH, (size_t)(o->at - cx->base));
		cx->depth++;
		cx->path[cx->depth] = (PathStep){field_label(cx->t, f), (f->flags & CV_IN_REPEATED) ? ordinal : -1};
		size_t slot;
		bool ok = put_tag(cx, e->number, CV_WIRE_LEN) && (slot = open_len(cx)) != (size_t)-1 &&
				  transcode(cx, e->arg, o->data, (size_t)o->value) && close_len(cx, slot);
		cx->depth--;
		return ok;
	}
	}
}

/* CV_OP_VALUE: the source's value (absent: the type's default) through the declared pairs. */
/* Out of line, as write_default: their message buffers stay out of the recursion's frames. */
__attribute__((noinline)) static bool write_value(Cx *cx, const cv_Message *m, const cv_OutField *e, size_t first,
												  size_t last)
{
	const cv_ValueMap *map = &cx->t->values[e->arg];
	Occ *o = NULL;
	for (size_t i = first; i < last; i++)
		if (cx->occ[i].field == e->src)
			o = &cx->occ[i];
	if (o)
		o->used = 1;
	for (uint32_t i = 0; i < map->n; i++) {
		const cv_ValuePair *v = &map->pairs[i];
		bool match = map->in_is_str ? (o ? o->value == strlen(v->in_str) && memcmp(o->data, v->in_str, o->value) == 0
										 : *v->in_str == '\0')
									: (o ? o->value : 0) == v->in_num;
		if (!match)
			continue;
		return put_scalar(cx, e->number, map->out_is_str ? v->out_str : NULL, v->out_num);
	}
	char what[160];
	value_text(what, sizeof what, map->in_is_str, o, 64);
	return no_form(cx, m, &m->fields[e->src], o ? o->at : NULL, what);
}

static Occ *find_occ(Cx *cx, int field, size_t first, size_t last)
{
	for (size_t i = first; i < last; i++)
		if (cx->occ[i].field == field)
			return &cx->occ[i];
	return NULL;
}

/* Whether a declared default applies: its condition field holds one of its values (absent: 0). */
static bool default_applies(Cx *cx, const cv_Default *def, size_t first, size_t last)
{
	if (def->cond < 0)
		return true;
	Occ *c = find_occ(cx, def->cond, first, last);
	uint64_t v = c ? c->value : 0;
	for (uint32_t i = 0; i < def->n_cond; i++)
		if (def->cond_values[i] == v)
			return true;
	return false;
}

/* CV_OP_DEFAULT (up): the value the newer parser gives where the older tree has no sign of it.
 * CV_OP_DEFAULT_CHECK (down): the newer field must hold exactly that (0 where the default does
 * not apply); then it says nothing the older tree lacks, and is left out. */
__attribute__((noinline)) static bool write_default(Cx *cx, const cv_Message *m, const cv_OutField *e, size_t first,
													size_t last)
{
	const cv_Default *def = &cx->t->defaults[e->arg];
	bool applies = default_applies(cx, def, first, last);
	if (e->op == CV_OP_DEFAULT) {
		if (!applies)
			return true;
		return put_scalar(cx, e->number, def->str, def->num);
	}
	Occ *o = find_occ(cx, e->src, first, last);
	bool same;
	if (def->str) {
		const char *want = applies ? def->str : "";
		same = o ? o->value == strlen(want) && memcmp(o->data, want, o->value) == 0 : !*want;
	} else
		same = (o ? o->value : 0) == (applies ? def->num : 0);
	if (!same) {
		char what[96];
		value_text(what, sizeof what, def->str != NULL, o, 32);
		return no_form(cx, m, &m->fields[e->src], o ? o->at : NULL, what);
	}
	if (o)
		o->used = 1;
	return true;
}

/* Whether the encoded Node p..p+n is option o's DefElem with Boolean b: one field, o->node_field,
 * whose fields other than the ignored ones are o->down[b]'s, each once (compared field by field). */
static bool is_option(const cv_Option *o, int b, const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	Field node, f, want;
	if (!next_field(&p, end, &node) || node.number != o->node_field || node.wire != CV_WIRE_LEN || p != end)
		return false;
	uint32_t seen = 0, n_want = 0; /* bit k: down[b]'s k-th field was matched */
	for (const uint8_t *w = o->down[b];
		 w < o->down[b] + o->down_len[b] && next_field(&w, o->down[b] + o->down_len[b], &want);)
		n_want++;
	const uint8_t *q = node.data, *q_end = node.data + node.value;
	while (q < q_end) {
		if (!next_field(&q, q_end, &f))
			return false;
		bool ignored = false;
		for (uint32_t i = 0; i < o->n_ignore; i++)
			ignored |= f.number == o->ignore[i];
		if (ignored)
			continue;
		const uint8_t *w = o->down[b], *w_end = w + o->down_len[b];
		uint32_t k = 0;
		while (w < w_end && next_field(&w, w_end, &want) && want.number != f.number)
			k++;
		if (k >= n_want || (seen & (1u << k)) || want.wire != f.wire || want.value != f.value ||
			(f.wire == CV_WIRE_LEN && memcmp(want.data, f.data, (size_t)f.value) != 0))
			return false;
		seen |= 1u << k;
	}
	return seen == (1u << n_want) - 1;
}

/* CV_OP_OPTION_UP: the older bool src true is the option's DefElem, the list e's one element.
 * CV_OP_OPTION_DOWN: the list src holding exactly that DefElem is the older bool true; absent,
 * false; else it stays unread, and transcode() says the list has no form. */
static bool write_option(Cx *cx, const cv_OutField *e, size_t first, size_t last)
{
	const cv_Option *o = &cx->t->options[e->arg];
	Occ *v = o->value >= 0 ? find_occ(cx, o->value, first, last) : NULL;
	int b = o->value >= 0 ? v && v->value != 0 : o->constant;
	Occ *src = find_occ(cx, e->src, first, last);
	if (e->op == CV_OP_OPTION_UP) {
		if (src)
			src->used = 1;
		return !src || !src->value ||
			   (put_tag(cx, e->number, CV_WIRE_LEN) && put_varint(cx, o->up_len[b]) &&
				put_bytes(cx, o->up[b], o->up_len[b]));
	}
	if (!src || find_occ(cx, e->src, (size_t)(src - cx->occ) + 1, last) ||
		!is_option(o, b, src->data, (size_t)src->value))
		return true;
	src->used = 1;
	return put_tag(cx, e->number, CV_WIRE_VARINT) && put_varint(cx, 1);
}

static bool write_entry(Cx *cx, const cv_Message *m, const cv_OutField *e, size_t first, size_t last)
{
	switch (e->op) {
	case CV_OP_OPTION_UP:
	case CV_OP_OPTION_DOWN:
		return write_option(cx, e, first, last);
	case CV_OP_DEFAULT:
	case CV_OP_DEFAULT_CHECK:
		return write_default(cx, m, e, first, last);
	case CV_OP_CONST:
		return put_tag(cx, e->number, CV_WIRE_VARINT) && put_varint(cx, (uint64_t)e->arg);
	case CV_OP_VALUE:
		return write_value(cx, m, e, first, last);
	case CV_OP_SYNTH: {
		size_t mark = cx->len, slot;
		if (!put_tag(cx, e->number, CV_WIRE_LEN) || (slot = open_len(cx)) == (size_t)-1 ||
			!write_plan(cx, m, &cx->t->plans[e->arg], first, last))
			return false;
		if (cx->len == slot + 1 && !(e->flags & CV_OUT_ALWAYS)) {
			cx->len = mark; /* an empty sub-message the older tree had no sign of */
			return true;
		}
		return close_len(cx, slot);
	}
	default:
		break;
	}
	if (e->flags & CV_OUT_NEEDS_PARENT) { /* the outermost absent one names what is missing */
		int absent = -1;
		for (int p = m->fields[e->src].parent; p >= 0; p = m->fields[p].parent) {
			bool present = false;
			for (size_t i = first; i < last; i++)
				present |= cx->occ[i].field == p;
			if (!present)
				absent = p;
		}
		if (absent >= 0)
			return no_form(cx, m, &m->fields[absent], NULL, " = absent");
	}
	int ordinal = 0;
	for (size_t i = first; i < last && !cx->failed; i++)
		if (cx->occ[i].field == e->src && !write_occ(cx, m, e, &cx->occ[i], ordinal++))
			return false;
	return !cx->failed;
}

static bool write_plan(Cx *cx, const cv_Message *m, const cv_Plan *plan, size_t first, size_t last)
{
	for (uint16_t i = 0; i < plan->n_fields; i++)
		if (!write_entry(cx, m, &plan->fields[i], first, last))
			return false;
	return true;
}

static bool transcode(Cx *cx, int msg, const uint8_t *p, size_t n)
{
	const cv_Message *m = &cx->t->messages[msg];
	if (m->flags & CV_MSG_NO_FORM)
		return no_form(cx, m, NULL, p, "");
	size_t first = cx->n_occ;
	const uint8_t *outer = cx->msg;
	cx->msg = p;
	if (!read_fields(cx, m, m, 0, p, p + n, first))
		return false;
	size_t last = cx->n_occ;
	bool ok = true;
	if (m->flags & CV_MSG_STREAM) {
		const cv_Plan *plan = &cx->t->plans[m->plan];
		int ordinal = 0, prev = -1;
		for (size_t i = first; ok && i < last; i++) {
			Occ *o = &cx->occ[i];
			int at = m->out_of[o->field];
			ordinal = o->field == prev ? ordinal + 1 : 0;
			prev = o->field;
			if (at >= 0)
				ok = write_occ(cx, m, &plan->fields[at], o, ordinal);
		}
	} else
		ok = write_plan(cx, m, &cx->t->plans[m->plan], first, last);
	for (size_t i = first; ok && i < last; i++) {
		Occ *o = &cx->occ[i];
		if (!o->used && !(m->fields[o->field].flags & CV_IN_DROP))
			ok = no_form(cx, m, &m->fields[o->field], o->at, "");
	}
	cx->n_occ = first;
	cx->msg = outer;
	return ok;
}

static const cv_Table *find_table(int from, int to)
{
	for (size_t i = 0; pgbind_convert_tables && pgbind_convert_tables[i]; i++)
		if (pgbind_convert_tables[i]->from_major == from && pgbind_convert_tables[i]->to_major == to)
			return pgbind_convert_tables[i];
	return NULL;
}

int pgbind_convert_has_pair(int from_major, int to_major)
{
	return find_table(from_major, to_major) != NULL;
}

pgbind_ConvertCode pgbind_convert_protobuf(int from_major, int to_major, const uint8_t *in, size_t in_len,
										   uint8_t **out, size_t *out_len, pgbind_ConvertError *err)
{
	*out = NULL;
	*out_len = 0;
	if (err)
		memset(err, 0, sizeof *err);
	if (!in && in_len) { /* a caller's mistake, said as bad input: no bytes where in_len says some */
		if (err) {
			err->code = PGBIND_CONVERT_MALFORMED;
			snprintf(err->message, sizeof err->message, "no input: NULL with a length of %zu bytes", in_len);
		}
		return PGBIND_CONVERT_MALFORMED;
	}
	const cv_Table *t = find_table(from_major, to_major);
	if (!t) {
		if (err) {
			err->code = PGBIND_CONVERT_NO_PAIR;
			snprintf(err->message, sizeof err->message, "no converter from %d to %d was built", from_major, to_major);
		}
		return PGBIND_CONVERT_NO_PAIR;
	}
	Cx *cx = malloc(sizeof *cx);
	if (!cx) {
		if (err) {
			err->code = PGBIND_CONVERT_NO_MEMORY;
			snprintf(err->message, sizeof err->message, "out of memory");
		}
		return PGBIND_CONVERT_NO_MEMORY;
	}
	memset(cx, 0, offsetof(Cx, path));
	cx->t = t;
	cx->base = in;
	cx->err = err;
	bool ok = transcode(cx, t->root, in ? in : (const uint8_t *)"", in ? in_len : 0);
	pgbind_ConvertCode code = PGBIND_CONVERT_OK;
	if (ok) {
		*out = cx->out ? cx->out : malloc(1);
		*out_len = cx->len;
		if (!*out) {
			code = PGBIND_CONVERT_NO_MEMORY;
			if (err) {
				err->code = code;
				snprintf(err->message, sizeof err->message, "out of memory");
			}
		}
	} else {
		free(cx->out);
		code = cx->code;
	}
	free(cx->occ);
	free(cx);
	return code;
}
