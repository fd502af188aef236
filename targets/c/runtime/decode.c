/*
 * decode.c -- protobuf bytes -> pgbind AST, bounds-checked, into the arena.
 *
 * Accepts what the protobuf wire format allows: fields in any order, unknown fields (of any wire
 * type, groups included) skipped, a field with an unexpected wire type skipped as unknown,
 * repeated uint64 packed or not, the last value of a repeated scalar winning, a repeated message
 * field merged into the first, a oneof switching to its last member. Rejects, with the byte
 * offset: a truncated varint or field, a length beyond its enclosing message, wire types 6 and 7,
 * field number 0, a string holding a NUL byte (the AST's strings are C strings), nesting deeper
 * than max_depth. Never reads outside [data, data + len).
 *
 * Strings are not checked for UTF-8: PostgreSQL's scanner passes bytes it does not understand
 * into identifiers (SELECT x\xff), libpg_query writes them as they are and protobuf-c reads them
 * back, so refusing them would refuse libpg_query's own output.
 *
 * The per-message functions are generated (targets/c/generated/pgNN/decode.inc.c); each DEC_<WIRE> macro below
 * is one `case` of a message's switch over its (field number, wire type) keys.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

typedef struct pgbind_Decoder {
	const uint8_t *start;
	pgbind_Arena *arena;
	pgbind_Status *status;
	int depth;
	int max_depth;
} pgbind_Decoder;

enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_FIXED32 = 5 };

#define KEY(num, wt) (((uint64_t)(num) << 3) | (wt))

static bool dec_fail(pgbind_Decoder *d, const uint8_t *at, pgbind_StatusCode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool dec_fail(pgbind_Decoder *d, const uint8_t *at, pgbind_StatusCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(d->status, code, fmt, ap);
	va_end(ap);
	if (d->status)
		d->status->offset = (size_t)(at - d->start);
	if (d->status && code == PGBIND_ERROR_MALFORMED) {
		size_t n = strlen(d->status->message);
		snprintf(d->status->message + n, sizeof d->status->message - n, " at byte %zu", (size_t)(at - d->start));
	}
	return false;
}

static inline bool read_varint(pgbind_Decoder *d, const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	*out = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (p >= end)
			return dec_fail(d, *pp, PGBIND_ERROR_MALFORMED, "truncated varint");
		uint8_t b = *p++;
		if (shift == 63 && b > 1)
			return dec_fail(d, *pp, PGBIND_ERROR_MALFORMED, "varint longer than 64 bits");
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pp = p;
			*out = v;
			return true;
		}
	}
	return dec_fail(d, *pp, PGBIND_ERROR_MALFORMED, "varint longer than 10 bytes");
}

/* A length-delimited body: [*body, *body_end) within [p, end). */
static inline bool read_len(pgbind_Decoder *d, const uint8_t **pp, const uint8_t *end, const uint8_t **body,
							const uint8_t **body_end)
{
	const uint8_t *at = *pp;
	uint64_t len;
	*body = *body_end = *pp;
	if (!read_varint(d, pp, end, &len))
		return false;
	if (len > (uint64_t)(end - *pp))
		return dec_fail(d, at, PGBIND_ERROR_MALFORMED, "length %llu runs past the end of its message",
						(unsigned long long)len);
	*body = *pp;
	*body_end = *pp + len;
	*pp = *body_end;
	return true;
}

static bool skip_field(pgbind_Decoder *d, const uint8_t **pp, const uint8_t *end, uint64_t key, const uint8_t *key_at)
{
	uint64_t v;
	const uint8_t *b, *e;
	if ((key >> 3) == 0)
		return dec_fail(d, key_at, PGBIND_ERROR_MALFORMED, "field number 0");
	switch (key & 7) {
	case WT_VARINT:
		return read_varint(d, pp, end, &v);
	case WT_FIXED64:
		if (end - *pp < 8)
			return dec_fail(d, *pp, PGBIND_ERROR_MALFORMED, "truncated fixed64");
		*pp += 8;
		return true;
	case WT_LEN:
		return read_len(d, pp, end, &b, &e);
	case WT_FIXED32:
		if (end - *pp < 4)
			return dec_fail(d, *pp, PGBIND_ERROR_MALFORMED, "truncated fixed32");
		*pp += 4;
		return true;
	case WT_SGROUP: {
		/* a deprecated group: skip to its matching end, counting nested groups */
		uint64_t open[64];
		int n_open = 0;
		open[n_open++] = key >> 3;
		while (n_open > 0) {
			const uint8_t *at = *pp;
			uint64_t k;
			if (!read_varint(d, pp, end, &k))
				return false;
			if ((k & 7) == WT_EGROUP) {
				if ((k >> 3) != open[n_open - 1])
					return dec_fail(d, at, PGBIND_ERROR_MALFORMED, "end of group %llu does not match its start",
									(unsigned long long)(k >> 3));
				n_open--;
			} else if ((k & 7) == WT_SGROUP) {
				if (n_open == 64)
					return dec_fail(d, at, PGBIND_ERROR_DEPTH, "groups nested more than 64 deep");
				open[n_open++] = k >> 3;
			} else if (!skip_field(d, pp, end, k, at)) {
				return false;
			}
		}
		return true;
	}
	case WT_EGROUP:
		return dec_fail(d, key_at, PGBIND_ERROR_MALFORMED, "end of a group that was not started");
	default:
		return dec_fail(d, key_at, PGBIND_ERROR_MALFORMED, "invalid wire type %u", (unsigned)(key & 7));
	}
}

static inline void *dec_alloc(pgbind_Decoder *d, const uint8_t *at, size_t size)
{
	void *p = pgbind_Arena_Malloc(d->arena, size);
	if (!p)
		dec_fail(d, at, PGBIND_ERROR_NOMEM, "out of memory");
	return p;
}

static bool dec_string(pgbind_Decoder *d, const uint8_t **pp, const uint8_t *end, const char **out)
{
	const uint8_t *b, *e, *bad;
	if (!read_len(d, pp, end, &b, &e))
		return false;
	if (b == e) {
		*out = "";
		return true;
	}
	if ((bad = memchr(b, '\0', (size_t)(e - b))) != NULL)
		return dec_fail(d, bad, PGBIND_ERROR_MALFORMED, "string holds a NUL byte");
	char *s = dec_alloc(d, b, (size_t)(e - b) + 1);
	if (!s)
		return false;
	memcpy(s, b, (size_t)(e - b));
	s[e - b] = '\0';
	*out = s;
	return true;
}

/* Appends to an arena array whose capacity is implicit: the next power of two >= n. */
static bool dec_append(pgbind_Decoder *d, const uint8_t *at, void **array, size_t *n, size_t elem_size)
{
	size_t count = *n;
	if (count == 0 || (count & (count - 1)) == 0) {
		size_t cap = count ? count * 2 : 1;
		void *grown = dec_alloc(d, at, cap * elem_size);
		if (!grown)
			return false;
		if (count)
			memcpy(grown, *array, count * elem_size);
		*array = grown;
	}
	(*n)++;
	return true;
}

static inline bool dec_enter(pgbind_Decoder *d, const uint8_t *at)
{
	if (++d->depth > d->max_depth || pgbind_stack_low())
		return dec_fail(d, at, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
						d->max_depth);
	return true;
}

static pgbind_Node *dec_unknown_node(pgbind_Decoder *d, uint32_t tag, const uint8_t *at)
{
	dec_fail(d, at, PGBIND_ERROR_MALFORMED, "Node member %u is not a node kind", (unsigned)tag);
	return NULL;
}

static pgbind_Node *dec_node_body(pgbind_Decoder *d, uint32_t tag, const uint8_t *p, const uint8_t *end,
								  pgbind_Node *into);

/* A Node wrapper message [p, end): its members' numbers are node tags. Empty -> NULL. */
static bool dec_node(pgbind_Decoder *d, const uint8_t *p, const uint8_t *end, pgbind_Node **out)
{
	pgbind_Node *node = *out;
	while (p < end) {
		const uint8_t *key_at = p;
		uint64_t key;
		if (!read_varint(d, &p, end, &key))
			return false;
		if ((key & 7) == WT_LEN && (key >> 3) > 0 && (key >> 3) < PGBIND_NODE_TAG_LIMIT &&
			pgbind_node_desc((uint32_t)(key >> 3))) {
			const uint8_t *b, *e;
			if (!read_len(d, &p, end, &b, &e))
				return false;
			node = dec_node_body(d, (uint32_t)(key >> 3), b, e, node);
			if (!node)
				return false;
		} else if (!skip_field(d, &p, end, key, key_at)) {
			return false;
		}
	}
	*out = node; /* the member's message counted the nesting level */
	return true;
}

/* ---- the wire kinds -------------------------------------------------------------------------- */

#define DEC_BEGIN(M)                                                                            \
	static bool dec_##M(pgbind_Decoder *d, const uint8_t *p, const uint8_t *end, pgbind_##M *m) \
	{                                                                                           \
		(void)m;                                                                                \
		if (!dec_enter(d, p))                                                                   \
			return false;                                                                       \
		while (p < end) {                                                                       \
			const uint8_t *key_at = p;                                                          \
			uint64_t key, v_;                                                                   \
			const uint8_t *b_, *e_;                                                             \
			(void)v_, (void)b_, (void)e_;                                                       \
			if (!read_varint(d, &p, end, &key))                                                 \
				return false;                                                                   \
			switch (key) {
#define DEC_END                                   \
	default:                                      \
		if (!skip_field(d, &p, end, key, key_at)) \
			return false;                         \
		}                                         \
		}                                         \
		d->depth--;                               \
		return true;                              \
		}

#define DEC_VARINT_AS(num, f, type)        \
	case KEY(num, WT_VARINT):              \
		if (!read_varint(d, &p, end, &v_)) \
			return false;                  \
		m->f = (type)v_;                   \
		break;
#define DEC_INT32(num, f, T)  DEC_VARINT_AS(num, f, int32_t)
#define DEC_UINT32(num, f, T) DEC_VARINT_AS(num, f, uint32_t)
#define DEC_INT64(num, f, T)  DEC_VARINT_AS(num, f, int64_t)
#define DEC_UINT64(num, f, T) DEC_VARINT_AS(num, f, uint64_t)
#define DEC_ENUM(num, f, T)   DEC_VARINT_AS(num, f, pgbind_##T)
#define DEC_BOOL(num, f, T)                \
	case KEY(num, WT_VARINT):              \
		if (!read_varint(d, &p, end, &v_)) \
			return false;                  \
		m->f = v_ != 0;                    \
		break;
#define DEC_DOUBLE(num, f, T)                                                  \
	case KEY(num, WT_FIXED64):                                                 \
		if (end - p < 8)                                                       \
			return dec_fail(d, p, PGBIND_ERROR_MALFORMED, "truncated double"); \
		v_ = 0;                                                                \
		for (int i_ = 7; i_ >= 0; i_--)                                        \
			v_ = (v_ << 8) | p[i_];                                            \
		memcpy(&m->f, &v_, sizeof v_);                                         \
		p += 8;                                                                \
		break;
#define DEC_STRING(num, f, T)               \
	case KEY(num, WT_LEN):                  \
		if (!dec_string(d, &p, end, &m->f)) \
			return false;                   \
		break;
#define DEC_NODE(num, f, T)                                                 \
	case KEY(num, WT_LEN):                                                  \
		if (!read_len(d, &p, end, &b_, &e_) || !dec_node(d, b_, e_, &m->f)) \
			return false;                                                   \
		break;
#define DEC_MESSAGE(num, f, T)                            \
	case KEY(num, WT_LEN):                                \
		if (!read_len(d, &p, end, &b_, &e_))              \
			return false;                                 \
		if (!m->f) {                                      \
			if (!(m->f = dec_alloc(d, b_, sizeof *m->f))) \
				return false;                             \
			init_##T(m->f);                               \
		}                                                 \
		if (!dec_##T(d, b_, e_, m->f))                    \
			return false;                                 \
		break;
#define DEC_REPEATED_NODE(num, f, T)                                                                        \
	case KEY(num, WT_LEN):                                                                                  \
		if (!read_len(d, &p, end, &b_, &e_) || !dec_append(d, b_, (void **)&m->f, &m->n_##f, sizeof *m->f)) \
			return false;                                                                                   \
		m->f[m->n_##f - 1] = NULL;                                                                          \
		if (!dec_node(d, b_, e_, &m->f[m->n_##f - 1]))                                                      \
			return false;                                                                                   \
		break;
#define DEC_REPEATED_MESSAGE(num, f, T)                                                                     \
	case KEY(num, WT_LEN):                                                                                  \
		if (!read_len(d, &p, end, &b_, &e_) || !dec_append(d, b_, (void **)&m->f, &m->n_##f, sizeof *m->f)) \
			return false;                                                                                   \
		if (!(m->f[m->n_##f - 1] = dec_alloc(d, b_, sizeof **m->f)))                                        \
			return false;                                                                                   \
		init_##T(m->f[m->n_##f - 1]);                                                                       \
		if (!dec_##T(d, b_, e_, m->f[m->n_##f - 1]))                                                        \
			return false;                                                                                   \
		break;
#define DEC_PACKED_UINT64(num, f, T)                                                                          \
	case KEY(num, WT_LEN):                                                                                    \
		if (!read_len(d, &p, end, &b_, &e_))                                                                  \
			return false;                                                                                     \
		while (b_ < e_) {                                                                                     \
			if (!read_varint(d, &b_, e_, &v_) || !dec_append(d, b_, (void **)&m->f, &m->n_##f, sizeof *m->f)) \
				return false;                                                                                 \
			m->f[m->n_##f - 1] = v_;                                                                          \
		}                                                                                                     \
		break;
#define DEC_UNPACKED_UINT64(num, f, T)                                                                   \
	case KEY(num, WT_VARINT):                                                                            \
		if (!read_varint(d, &p, end, &v_) || !dec_append(d, p, (void **)&m->f, &m->n_##f, sizeof *m->f)) \
			return false;                                                                                \
		m->f[m->n_##f - 1] = v_;                                                                         \
		break;
#define DEC_ONEOF_MEMBER(num, f, T)                                                                    \
	case KEY(num, WT_LEN):                                                                             \
		if (!read_len(d, &p, end, &b_, &e_) || !(m->f = dec_node_body(d, PGBIND_T_##T, b_, e_, m->f))) \
			return false;                                                                              \
		break;
/* A node of kind M: merged into `into` when it is one, else a new one (a oneof's last member
 * replaces the others). */
#define DEC_NODE_KIND(M)                                                                \
	{                                                                                   \
		pgbind_##M *n_ = into && into->tag == PGBIND_T_##M ? (pgbind_##M *)into : NULL; \
		if (!n_) {                                                                      \
			if (!(n_ = dec_alloc(d, p, sizeof *n_)))                                    \
				return NULL;                                                            \
			init_##M(n_);                                                               \
		}                                                                               \
		return dec_##M(d, p, end, n_) ? (pgbind_Node *)n_ : NULL;                       \
	}

#include "decode.inc.c"

/* ---- entry points ---------------------------------------------------------------------------- */

/* The checks and set-up both entry points share; false when the arguments are unusable. */
static bool decoder_start(pgbind_Decoder *d, const uint8_t **data, size_t len, const pgbind_Options *options,
						  pgbind_Arena *arena, pgbind_Status *status)
{
	static const uint8_t empty[1];
	if ((!*data && len) || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s is NULL", arena ? "data" : "arena");
		return false;
	}
	if (!*data)
		*data = empty;
	/* the top message is level 0 (its statements level 1), as in every path */
	*d = (pgbind_Decoder){
		.start = *data, .arena = arena, .status = status, .depth = -1, .max_depth = pgbind_max_depth(options)};
	return true;
}

pgbind_ParseResult *pgbind_decode(const uint8_t *data, size_t len, const pgbind_Options *options, pgbind_Arena *arena,
								  pgbind_Status *status)
{
	pgbind_Decoder d;
	pgbind_ParseResult *r;
	if (!decoder_start(&d, &data, len, options, arena, status) || !(r = dec_alloc(&d, data, sizeof *r)))
		return NULL;
	init_ParseResult(r);
	return dec_ParseResult(&d, data, data + len, r) ? r : NULL;
}

pgbind_ScanResult *pgbind_decode_scan(const uint8_t *data, size_t len, const pgbind_Options *options,
									  pgbind_Arena *arena, pgbind_Status *status)
{
	pgbind_Decoder d;
	pgbind_ScanResult *r;
	if (!decoder_start(&d, &data, len, options, arena, status) || !(r = dec_alloc(&d, data, sizeof *r)))
		return NULL;
	init_ScanResult(r);
	return dec_ScanResult(&d, data, data + len, r) ? r : NULL;
}
