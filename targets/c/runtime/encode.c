/*
 * encode.c -- pgbind AST -> protobuf bytes, identical to libpg_query's (protobuf-c) output.
 *
 * The buffer is filled from its end towards its start: each message writes its fields from the
 * highest number down, and a nested message is written before its length and tag, which are
 * then known without a sizing pass and without moving bytes (protobuf-c instead sizes every
 * message and shifts each nested one after packing it). When the buffer is full, a block twice
 * the size is taken from the arena and the bytes written so far move to its end: O(n) in all.
 *
 * The buffer starts as the free space of the arena's current block (a fresh arena's first block
 * holds most statements' bytes); a large part the output leaves unused goes back at the end.
 *
 * The write position is passed from function to function and returned (NULL after a failure),
 * and so is the nesting depth, so that both live in registers: kept in the encoder struct, the
 * position would be reloaded after every byte stored (a byte store may alias it).
 *
 * Room is checked per length-delimited field, never per scalar: each such check asks for
 * ENC_SLACK bytes more than the field needs, and ENC_SLACK covers all the scalar fields of any
 * message (checked at compile time), so the scalars written after a check need none. Those a
 * message writes before its first check are covered by one check on entry.
 *
 * Presence follows proto3 as protobuf-c implements it, and lives only here: a scalar or enum is
 * written when non-zero, a string when non-empty, a message or node when its pointer is set, a
 * oneof when set (even if its message is empty), a NULL element of a repeated Node field as an
 * empty Node message, repeated uint64 packed.
 *
 * The per-message functions are generated (targets/c/generated/pgNN/encode.inc.c) as flat lists of
 * ENC_<WIRE>(number, field, type) lines; each wire kind is one macro below.
 */
#include "internal.h"

#include <string.h>

typedef struct pgbind_Encoder {
	uint8_t *start; /* first byte of the buffer */
	uint8_t *end;   /* one past the last byte of output */
	pgbind_Arena *arena;
	pgbind_Status *status;
	int max_depth;
} pgbind_Encoder;

/* The hot helpers are small and used at hundreds of sites; compilers stop inlining them in a file
 * this large, and a call costs more than their work. */
#define ENC_INLINE static inline __attribute__((always_inline))

enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2 };

#define MAX_VARINT     10
#define MAX_FIELD_HEAD (5 + MAX_VARINT) /* a tag and a varint */
#define SCALAR_TAG     2                /* the constant tag of a scalar field: its number is below 2048 (checked) */

/* The free bytes every room check leaves in front of the write position: enough for all the
 * scalar fields of one message (ENC_ROOM_<WIRE> below; ENC_SCALAR_ROOM checks each message). */
#define ENC_SLACK 256

/* ---- failure --------------------------------------------------------------------------------- */

static __attribute__((noinline, cold, format(printf, 3, 4))) uint8_t *
enc_fail(pgbind_Encoder *e, pgbind_StatusCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pgbind_vfail(e->status, code, fmt, ap);
	va_end(ap);
	return NULL;
}

static __attribute__((noinline, cold)) uint8_t *enc_too_deep(pgbind_Encoder *e)
{
	return enc_fail(e, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
					e->max_depth);
}

static __attribute__((noinline, cold)) uint8_t *enc_bad_tag(pgbind_Encoder *e, const pgbind_Node *n)
{
	return enc_fail(e, PGBIND_ERROR_INVALID, "node tag %u is not a node kind", (unsigned)n->tag);
}

/* ---- the buffer ------------------------------------------------------------------------------ */

/* Bytes written so far: the distance from the end, which a move to a larger buffer keeps. */
ENC_INLINE size_t enc_written(const pgbind_Encoder *e, const uint8_t *p)
{
	return (size_t)(e->end - p);
}

/* Takes a buffer of at least size bytes from the arena, and with it the rest of the arena block
 * it lands in (the arena's blocks grow geometrically, so that is often much more). */
static bool enc_take_buffer(pgbind_Encoder *e, size_t size)
{
	uint8_t *block = pgbind_Arena_Alloc(e->arena, size);
	if (!block)
		return false;
	pgbind_ArenaCursor *c = pgbind_Arena_Cursor(e->arena);
	e->start = block;
	e->end = (uint8_t *)c->end;
	c->ptr = c->end;
	return true;
}

/* Makes the buffer at least twice as large with need bytes free in front of what is written,
 * which moves to the end of the new buffer; the old one stays in the arena, unused. */
static __attribute__((noinline)) uint8_t *enc_grow(pgbind_Encoder *e, uint8_t *p, size_t need)
{
	size_t used = enc_written(e, p);
	size_t new_cap = (size_t)(e->end - e->start);
	do {
		if (new_cap > SIZE_MAX / 4)
			return enc_fail(e, PGBIND_ERROR_NOMEM, "out of memory");
		new_cap *= 2;
	} while (new_cap - used < need);
	const uint8_t *old = p;
	if (!enc_take_buffer(e, new_cap))
		return enc_fail(e, PGBIND_ERROR_NOMEM, "out of memory");
	memcpy(e->end - used, old, used);
	return e->end - used;
}

/* p, with at least n + ENC_SLACK bytes free in front of it. */
ENC_INLINE uint8_t *enc_reserve(pgbind_Encoder *e, uint8_t *p, size_t n)
{
	if (__builtin_expect((size_t)(p - e->start) >= n + ENC_SLACK, 1))
		return p;
	return enc_grow(e, p, n + ENC_SLACK);
}

/* p, with at least n bytes free in front of it (n a constant, often 0). */
ENC_INLINE uint8_t *enc_scalar_room(pgbind_Encoder *e, uint8_t *p, size_t n)
{
	if (n == 0 || __builtin_expect((size_t)(p - e->start) >= n, 1))
		return p;
	return enc_grow(e, p, n);
}

/* ---- varints and tags: written in front of p, room reserved -------------------------------- */

/* Values of three bytes and more: large numbers, and negative ones (10 bytes: -1 is the typmod
 * of every TypeName). Those have all 10 bytes: the first eight, 7 bits each, are spread into a
 * word by halving the groups three times, and stored at once. */
static __attribute__((noinline)) uint8_t *put_varint_long(uint8_t *p, uint64_t v)
{
	if (v >> 63) {
		uint64_t x = v & 0x00FFFFFFFFFFFFFF;
		x = ((x & 0x00FFFFFFF0000000) << 4) | (x & 0x000000000FFFFFFF); /* 28-bit groups */
		x = ((x & 0x0FFFC0000FFFC000) << 2) | (x & 0x00003FFF00003FFF); /* 14 */
		x = ((x & 0x3F803F803F803F80) << 1) | (x & 0x007F007F007F007F); /* 7 */
		x |= 0x8080808080808080;
		p -= MAX_VARINT;
		p[0] = (uint8_t)x; /* compilers merge these into one store */
		p[1] = (uint8_t)(x >> 8);
		p[2] = (uint8_t)(x >> 16);
		p[3] = (uint8_t)(x >> 24);
		p[4] = (uint8_t)(x >> 32);
		p[5] = (uint8_t)(x >> 40);
		p[6] = (uint8_t)(x >> 48);
		p[7] = (uint8_t)(x >> 56);
		p[8] = (uint8_t)((v >> 56) | 0x80);
		p[9] = 1;
		return p;
	}
	p -= ((size_t)(64 - __builtin_clzll(v)) + 6) / 7;
	uint8_t *q = p;
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q = (uint8_t)v;
	return p;
}

/* One and two bytes inline: tags, most lengths, and locations (offsets into the SQL). */
ENC_INLINE uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	if (v < 0x80) {
		p[-1] = (uint8_t)v;
		return p - 1;
	}
	if (v < 0x4000) {
		p[-2] = (uint8_t)(v | 0x80);
		p[-1] = (uint8_t)(v >> 7);
		return p - 2;
	}
	return put_varint_long(p, v);
}

/* With number and wire type constant, as the macros below pass them, this folds to one or two
 * byte stores. */
ENC_INLINE uint8_t *put_tag(uint8_t *p, uint32_t number, unsigned wire_type)
{
	return put_varint(p, ((uint64_t)number << 3) | wire_type);
}

/* The header of a length-delimited field whose body is what was written since mark. */
ENC_INLINE uint8_t *put_len_head(pgbind_Encoder *e, uint8_t *p, uint32_t number, size_t mark)
{
	return put_tag(put_varint(p, enc_written(e, p) - mark), number, WT_LEN);
}

/* ---- strings --------------------------------------------------------------------------------- */

/* Most strings are names, a few bytes long: they are moved eight bytes at a time (the first move
 * overlapping the next), as memcpy of a length known only at run time costs a call, slower than
 * the copy itself. Reads stay inside the string; writes, in front of p. */
ENC_INLINE void put_short_bytes(uint8_t *d, const char *s, size_t len)
{
	if (len >= 8) {
		uint64_t w;
		for (size_t i = len; i > 8; i -= 8) {
			memcpy(&w, s + i - 8, 8);
			memcpy(d + i - 8, &w, 8);
		}
		memcpy(&w, s, 8);
		memcpy(d, &w, 8);
	} else if (len >= 4) {
		uint32_t h, t;
		memcpy(&h, s, 4);
		memcpy(&t, s + len - 4, 4);
		memcpy(d, &h, 4);
		memcpy(d + len - 4, &t, 4);
	} else {
		d[0] = (uint8_t)s[0]; /* len is 1 to 3 */
		d[len / 2] = (uint8_t)s[len / 2];
		d[len - 1] = (uint8_t)s[len - 1];
	}
}

/* A non-empty string field; tag is its field number and wire type, as a varint's value. */
static uint8_t *enc_string_field(pgbind_Encoder *e, uint8_t *p, uint32_t tag, const char *s)
{
	size_t len = strlen(s);
	if (!(p = enc_reserve(e, p, len + MAX_FIELD_HEAD)))
		return NULL;
	p -= len;
	if (len <= 64)
		put_short_bytes(p, s, len);
	else
		memcpy(p, s, len);
	return put_varint(put_varint(p, len), tag);
}

/* ---- nodes ----------------------------------------------------------------------------------- */

/* Inlined into its two callers: the node's function is then called from the jump table, not
 * jumped to from a function of its own. */
ENC_INLINE uint8_t *enc_node_body(pgbind_Encoder *e, uint8_t *p, const pgbind_Node *n, int depth);
static uint8_t *enc_String(pgbind_Encoder *e, uint8_t *p, const pgbind_String *m, int depth);

/*
 * The trees pgbind builds (from the parser, the decoder, the JSON reader) lie in the arena in the
 * order they were built: a node, then the subtrees of its fields, first to last. The encoder
 * visits them last to first, so it walks down through memory, which hardware prefetchers follow
 * poorly: each node entered fetches the 512 bytes below it, where the nodes visited next most
 * likely are (one line in two: the adjacent-line prefetcher brings its pair). For a tree laid out
 * otherwise the fetches are wasted, never wrong. On trees out of cache (built long before, as in
 * `pgbind bench`) this saves a fifth of the encoder's time.
 */
ENC_INLINE void enc_prefetch_below(const void *node)
{
	uintptr_t a = (uintptr_t)node;
	__builtin_prefetch((const void *)(a - 128));
	__builtin_prefetch((const void *)(a - 256));
	__builtin_prefetch((const void *)(a - 384));
	__builtin_prefetch((const void *)(a - 512));
}

/* A Node wrapper message (field `number`) holding n as its oneof member n->tag; NULL is an empty
 * Node message, the NULL cell of a list. depth is n's. Half the nodes of a parse tree are String
 * (names and their parts): they skip the dispatcher, and its mispredicted jumps. */
static uint8_t *enc_node_field(pgbind_Encoder *e, uint8_t *p, uint32_t number, const pgbind_Node *n, int depth)
{
	size_t mark = enc_written(e, p);
	if (n) {
		enc_prefetch_below(n);
		p = n->tag == PGBIND_T_String ? enc_String(e, p, (const pgbind_String *)n, depth)
									  : enc_node_body(e, p, n, depth);
		if (!p || !(p = enc_reserve(e, p, 2 * MAX_FIELD_HEAD)))
			return NULL;
		p = put_len_head(e, p, (uint32_t)n->tag, mark);
	} else if (!(p = enc_reserve(e, p, MAX_FIELD_HEAD))) {
		return NULL;
	}
	return put_len_head(e, p, number, mark);
}

/* ---- the wire kinds -------------------------------------------------------------------------- */

/* Each message function takes the write position and its own nesting depth (the tree's root is
 * 0), and returns the new position. The depth check here is the only one: every nested message
 * passes through it. */
#define ENC_BEGIN(M)                                                                \
	static __attribute__((unused, noinline))                                        \
	uint8_t *enc_##M(pgbind_Encoder *e, uint8_t *p, const pgbind_##M *m, int depth) \
	{                                                                               \
		(void)m;                                                                    \
		if (__builtin_expect(depth > e->max_depth || pgbind_stack_low(), 0))        \
			return enc_too_deep(e);
#define ENC_END \
	return p;   \
	}

/* The most bytes each wire kind writes without a room check of its own. */
#define ENC_ROOM_INT32            (SCALAR_TAG + MAX_VARINT) /* negative: sign-extended to 10 bytes */
#define ENC_ROOM_INT64            (SCALAR_TAG + MAX_VARINT)
#define ENC_ROOM_UINT32           (SCALAR_TAG + 5)
#define ENC_ROOM_UINT64           (SCALAR_TAG + MAX_VARINT)
#define ENC_ROOM_ENUM             (SCALAR_TAG + MAX_VARINT)
#define ENC_ROOM_BOOL             (SCALAR_TAG + 1)
#define ENC_ROOM_DOUBLE           (SCALAR_TAG + 8)
#define ENC_ROOM_STRING           0
#define ENC_ROOM_NODE             0
#define ENC_ROOM_MESSAGE          0
#define ENC_ROOM_REPEATED_NODE    0
#define ENC_ROOM_REPEATED_MESSAGE 0
#define ENC_ROOM_PACKED_UINT64    0
#define ENC_ROOM_ONEOF            0
/* A message fetches its children on entry: each is visited only after the fields numbered above
 * it are written, so its load overlaps that work instead of stalling the walk (a tree being
 * encoded is seldom in cache, and waiting for its nodes is the encoder's main cost). */
#define ENC_PREFETCH(fields) fields
#define ENC_PREFETCH_INT32(f)
#define ENC_PREFETCH_INT64(f)
#define ENC_PREFETCH_UINT32(f)
#define ENC_PREFETCH_UINT64(f)
#define ENC_PREFETCH_ENUM(f)
#define ENC_PREFETCH_BOOL(f)
#define ENC_PREFETCH_DOUBLE(f)
#define ENC_PREFETCH_STRING(f)
#define ENC_PREFETCH_NODE(f)             __builtin_prefetch(m->f);
#define ENC_PREFETCH_MESSAGE(f)          __builtin_prefetch(m->f);
#define ENC_PREFETCH_REPEATED_NODE(f)    __builtin_prefetch(m->f);
#define ENC_PREFETCH_REPEATED_MESSAGE(f) __builtin_prefetch(m->f);
#define ENC_PREFETCH_PACKED_UINT64(f)
#define ENC_PREFETCH_ONEOF(f) __builtin_prefetch(m->f);

/* The room for the message's scalar fields, before the first: what the caller's last check left
 * may have gone to scalars of its own. Most messages have none (String, List) and skip it. */
#define ENC_SCALAR_ROOM(bytes)                                                                            \
	_Static_assert((bytes) <= ENC_SLACK, "a message's scalar fields can take more than ENC_SLACK bytes"); \
	if (!(p = enc_scalar_room(e, p, bytes)))                                                              \
		return NULL;

/* Unchecked: ENC_SLACK covers these. */
#define ENC_SCALAR_TAG(num) _Static_assert((num) < 2048, "field number needs a tag longer than SCALAR_TAG");
#define ENC_INT32(num, f, T) \
	ENC_SCALAR_TAG(num)      \
	if (m->f != 0)           \
		p = put_tag(put_varint(p, (uint64_t)(int64_t)m->f), num, WT_VARINT);
#define ENC_INT64(num, f, T) \
	ENC_SCALAR_TAG(num)      \
	if (m->f != 0)           \
		p = put_tag(put_varint(p, (uint64_t)m->f), num, WT_VARINT);
#define ENC_UINT32(num, f, T) ENC_INT64(num, f, T)
#define ENC_UINT64(num, f, T) ENC_INT64(num, f, T)
#define ENC_ENUM(num, f, T)   ENC_INT32(num, f, T)
#define ENC_BOOL(num, f, T)                 \
	ENC_SCALAR_TAG(num)                     \
	if (m->f) {                             \
		p[-1] = 1;                          \
		p = put_tag(p - 1, num, WT_VARINT); \
	}
#define ENC_DOUBLE(num, f, T)                     \
	ENC_SCALAR_TAG(num)                           \
	if (m->f != 0) {                              \
		uint64_t bits_;                           \
		memcpy(&bits_, &m->f, sizeof bits_);      \
		p -= 8;                                   \
		for (int i_ = 0; i_ < 8; i_++)            \
			p[i_] = (uint8_t)(bits_ >> (8 * i_)); \
		p = put_tag(p, num, WT_FIXED64);          \
	}

/* Checked: each length-delimited field reserves its header and ENC_SLACK. */
#define ENC_STRING(num, f, T)                                                        \
	if (m->f && m->f[0] && !(p = enc_string_field(e, p, (num << 3) | WT_LEN, m->f))) \
		return NULL;
#define ENC_NODE(num, f, T)                                        \
	if (m->f && !(p = enc_node_field(e, p, num, m->f, depth + 1))) \
		return NULL;
#define ENC_MESSAGE(num, f, T)                                                                 \
	if (m->f) {                                                                                \
		size_t mark_ = enc_written(e, p);                                                      \
		if (!(p = enc_##T(e, p, m->f, depth + 1)) || !(p = enc_reserve(e, p, MAX_FIELD_HEAD))) \
			return NULL;                                                                       \
		p = put_len_head(e, p, num, mark_);                                                    \
	}
#define ENC_REPEATED_NODE(num, f, T)                               \
	for (size_t i_ = m->n_##f; i_-- > 0;) {                        \
		if (!(p = enc_node_field(e, p, num, m->f[i_], depth + 1))) \
			return NULL;                                           \
	}
#define ENC_REPEATED_MESSAGE(num, f, T)                            \
	for (size_t i_ = m->n_##f; i_-- > 0;) {                        \
		size_t mark_ = enc_written(e, p);                          \
		if (m->f[i_] && !(p = enc_##T(e, p, m->f[i_], depth + 1))) \
			return NULL;                                           \
		if (!(p = enc_reserve(e, p, MAX_FIELD_HEAD)))              \
			return NULL;                                           \
		p = put_len_head(e, p, num, mark_);                        \
	}
#define ENC_PACKED_UINT64(num, f, T)                  \
	if (m->n_##f) {                                   \
		size_t mark_ = enc_written(e, p);             \
		for (size_t i_ = m->n_##f; i_-- > 0;) {       \
			if (!(p = enc_reserve(e, p, MAX_VARINT))) \
				return NULL;                          \
			p = put_varint(p, m->f[i_]);              \
		}                                             \
		if (!(p = enc_reserve(e, p, MAX_FIELD_HEAD))) \
			return NULL;                              \
		p = put_len_head(e, p, num, mark_);           \
	}
#define ENC_ONEOF(num, f, T)                                                                         \
	if (m->f) {                                                                                      \
		uint32_t member_ = oneof_number_##T(m->f->tag);                                              \
		size_t mark_ = enc_written(e, p);                                                            \
		if (!member_)                                                                                \
			return enc_fail(e, PGBIND_ERROR_INVALID, "oneof " #T ": node tag %u is not a member",    \
							(unsigned)m->f->tag);                                                    \
		if (!(p = enc_node_body(e, p, m->f, depth + 1)) || !(p = enc_reserve(e, p, MAX_FIELD_HEAD))) \
			return NULL;                                                                             \
		p = put_len_head(e, p, member_, mark_);                                                      \
	}

#include "encode.inc.c"

/* ---- entry point ----------------------------------------------------------------------------- */

/* The buffer starts as the free space of the arena's current block when that is worth having,
 * and is otherwise a new buffer of this size (with the rest of its block). */
#define ENC_MIN_BORROW 1024
/* Free space in front of the output that is not worth moving the output for: see below. */
#define ENC_KEEP_UNUSED 4096

bool pgbind_encode(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
				   const uint8_t **data, size_t *len, pgbind_Status *status)
{
	if (!tree || !arena || !data || !len) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return false;
	}
	pgbind_Encoder e = {.arena = arena, .status = status, .max_depth = pgbind_max_depth(options)};
	pgbind_ArenaCursor *c = pgbind_Arena_Cursor(arena);
	if ((size_t)(c->end - c->ptr) >= ENC_MIN_BORROW) {
		e.start = (uint8_t *)c->ptr;
		e.end = (uint8_t *)c->end;
		c->ptr = c->end;
	} else if (!enc_take_buffer(&e, ENC_MIN_BORROW)) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return false;
	}
	uint8_t *p = enc_ParseResult(&e, e.end, tree, 0);
	if (!p)
		return false;
	/* The free space in front of the output goes back to the arena when it is worth moving the
	 * output for: when it is larger than the output and than ENC_KEEP_UNUSED (the encode into a
	 * fresh arena, most likely freed next, moves nothing). Repeated encodes into one arena so lose
	 * at most that much each. The buffer is still the arena's last claim. */
	size_t n = enc_written(&e, p);
	size_t unused = (size_t)(p - e.start);
	if (unused > n && unused > ENC_KEEP_UNUSED && (char *)e.end == c->ptr) {
		memmove(e.start, p, n);
		p = e.start;
		c->ptr = (char *)e.start + ((n + PGBIND_ARENA_ALIGN - 1) & ~(size_t)(PGBIND_ARENA_ALIGN - 1));
	}
	*data = p;
	*len = n;
	return true;
}
