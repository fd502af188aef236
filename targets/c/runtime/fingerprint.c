/*
 * fingerprint.c -- libpg_query's fingerprint (pg_query_fingerprint's value) computed over
 * pgbind's AST itself, generically from the reflection tables: no PostgreSQL nodes are built.
 *
 * What libpg_query hashes: one XXH3-64 stream seeded with 3 (its fingerprint version) over
 *   - for each node, its type name, then its fields in the order of their C names (byte order),
 *     each as its name then its value: integers != 0 in decimal, true booleans as "true", chars
 *     != 0 as themselves, strings that are set, enums always (by value name), bitmapsets always
 *     (name, then members); a node or list field as its name then the child, the name taken back
 *     when the child adds nothing (but for a list of one NULL cell);
 *   - value nodes as "Integer" "ival" n (n != 0), "Float" "str" s, "String" "str" s,
 *     "BitString" "str" s, "Boolean" "boolval" "true" or "false";
 *   - a pointer to a specific node kind (RangeVar *) as its fields without the type name;
 *   - nothing below 100 levels of nodes and lists.
 * Which kinds and fields count, which lists are sorted and the few special fields are the
 * version's declared rules (schema/libpg_query.txt, by since:/until:; the flags
 * PGBIND_LPQ_FP_* of targets/c/runtime/internal.h), generated into libpg_query.inc.c.
 * Streams are append-only, so the bytes are gathered in a buffer first (taking a name back is
 * truncating it; a sorted list is its items' byte ranges reordered) and hashed once at the end.
 * libpg_query's xxhash (it exports XXH3_64bits_withSeed) does the hashing.
 */
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t XXH3_64bits_withSeed(const void *data, size_t len, uint64_t seed); /* libpg_query's xxhash */

#define FINGERPRINT_VERSION 3 /* libpg_query's PG_QUERY_FINGERPRINT_VERSION: the seed */
#define FINGERPRINT_DEPTH   100

#include "libpg_query.inc.c"

/* ---- per message: fields in name order, and how each counts ------------------------------------ */

enum {
	F_SKIP,
	F_INT,
	F_UINT,
	F_INT64,
	F_DOUBLE,
	F_BOOL,
	F_CHAR,
	F_CSTRING,
	F_ENUM,
	F_NODE,
	F_MESSAGE,
	F_STRING_NODE, /* String * in C: its string, when not empty */
	F_LIST,
	F_BITMAPSET,
	F_EMBEDDED,           /* PGBIND_LPQ_EMBEDDED */
	F_TARGET_NAME,        /* PGBIND_LPQ_FP_TARGET_NAME */
	F_IN_ANY_AS_OP,       /* PGBIND_LPQ_FP_IN_ANY_AS_OP */
	F_DIGIT_RUNS_DROPPED, /* PGBIND_LPQ_FP_DIGIT_RUNS_DROPPED */
	F_ALIAS_NAME,         /* PGBIND_LPQ_FP_ALIAS_NAME */
	F_OUTSIDE_CONTEXT,    /* PGBIND_LPQ_FP_OUTSIDE_RELATION_CONTEXT */
};

/* A field as the walk reads it, 16 bytes (four to a cache line, the walk reads every one of a
 * message): what it needs of the descriptor copied in, no pointer to chase per field. Its name
 * is in fp_names at the same index, padded to NAME_PAD bytes so that writing it is one
 * fixed-size copy; fp_descs has the descriptor itself. */
#define NAME_PAD 32

typedef struct FpField {
	uint16_t offset, count_offset;
	int16_t type_index;
	uint8_t how;
	uint8_t name_len;
	uint32_t lpq;         /* its PGBIND_LPQ_* flags: what a list or node below it inherits */
	uint16_t zero_offset; /* where a value of zero_width bytes, all zero, means the field writes */
	uint8_t zero_width;   /* nothing (1, 4, 8; 0: it always writes): skipped before the dispatch */
	uint8_t unused;
} FpField;

/* How many bytes at which offset tell that a field of kind how writes nothing when all are zero
 * (the cases of fp_message that write nothing for 0, NULL, false or an empty list). */
static uint8_t zero_width(uint8_t how, const pgbind_FieldDesc *f, uint16_t *at)
{
	*at = (uint16_t)f->offset;
	switch (how) {
	case F_INT:
	case F_UINT:
		return 4;
	case F_BOOL:
		return sizeof(bool);
	case F_INT64:
	case F_DOUBLE: /* +0.0 (-0.0 goes through the dispatch, which skips it) */
		return 8;
	case F_CHAR:
	case F_CSTRING:
	case F_TARGET_NAME:
	case F_ALIAS_NAME:
	case F_OUTSIDE_CONTEXT:
	case F_DIGIT_RUNS_DROPPED:
	case F_NODE:
	case F_MESSAGE:
	case F_STRING_NODE:
		return sizeof(void *);
	case F_LIST:
		*at = (uint16_t)f->count_offset;
		return sizeof(size_t);
	default: /* enums, bitmapsets, embedded messages: always written */
		return 0;
	}
}

typedef struct FpMessage {
	char name[NAME_PAD]; /* as FpField's */
	const char *long_name;
	uint8_t name_len;
	bool skip;
	bool constant;                      /* PGBIND_LPQ_FP_CONSTANT */
	int32_t temp_offset;                /* the PGBIND_LPQ_FP_TEMP_HIDES_RELNAME field, or -1 */
	int32_t hidden_by_offset;           /* the PGBIND_LPQ_FP_CONSTANT_HIDES_PARENT field, or -1 */
	const pgbind_FieldDesc *alias_name; /* the PGBIND_LPQ_FP_ALIAS_NAME field, or NULL */
	uint32_t first, n;                  /* into fp_fields */
} FpMessage;

#define MAX_FP_FIELDS 8192
static FpMessage fp_messages[PGBIND_MESSAGE_COUNT];
static FpField fp_fields[MAX_FP_FIELDS];
static char fp_names[MAX_FP_FIELDS][NAME_PAD]; /* zero-padded where name_len <= NAME_PAD */
static const pgbind_FieldDesc *fp_descs[MAX_FP_FIELDS];
static bool fp_ok;
static pthread_once_t fp_once = PTHREAD_ONCE_INIT;
static int16_t fp_by_tag[PGBIND_NODE_TAG_LIMIT]; /* a node tag's message index, -1: none */
static int32_t msg_String, msg_Boolean;
static bool messages_cut; /* PGBIND_LPQ_FP_DEPTH_CUTS_MESSAGES */

static int cmp_field_name(const void *a, const void *b)
{
	return strcmp((*(const pgbind_FieldDesc *const *)a)->name, (*(const pgbind_FieldDesc *const *)b)->name);
}

static uint8_t field_how(const pgbind_FieldDesc *f, uint32_t lpq)
{
	if (lpq & PGBIND_LPQ_FP_SKIP)
		return F_SKIP;
	if (lpq & PGBIND_LPQ_FP_TARGET_NAME)
		return F_TARGET_NAME;
	if (lpq & PGBIND_LPQ_FP_IN_ANY_AS_OP)
		return F_IN_ANY_AS_OP;
	if (lpq & PGBIND_LPQ_FP_DIGIT_RUNS_DROPPED)
		return F_DIGIT_RUNS_DROPPED;
	if (lpq & PGBIND_LPQ_FP_ALIAS_NAME)
		return f->wire == PGBIND_WIRE_MESSAGE ? F_ALIAS_NAME : F_SKIP; /* the string: through its message */
	if (lpq & PGBIND_LPQ_FP_OUTSIDE_RELATION_CONTEXT)
		return F_OUTSIDE_CONTEXT;
	if (lpq & PGBIND_LPQ_EMBEDDED)
		return F_EMBEDDED;
	switch (f->wire) {
	case PGBIND_WIRE_INT32:
		return F_INT;
	case PGBIND_WIRE_UINT32:
		return F_UINT;
	case PGBIND_WIRE_INT64:
	case PGBIND_WIRE_UINT64:
		return F_INT64;
	case PGBIND_WIRE_DOUBLE:
		return F_DOUBLE;
	case PGBIND_WIRE_BOOL:
		return F_BOOL;
	case PGBIND_WIRE_STRING:
		return (f->flags & PGBIND_FIELD_EMPTY_IS_NULL) ? F_CSTRING : F_CHAR;
	case PGBIND_WIRE_ENUM:
		return F_ENUM;
	case PGBIND_WIRE_NODE:
		return F_NODE;
	case PGBIND_WIRE_MESSAGE:
		return f->type_index == msg_String ? F_STRING_NODE : F_MESSAGE;
	case PGBIND_WIRE_REPEATED_NODE:
	case PGBIND_WIRE_REPEATED_MESSAGE:
		return F_LIST;
	case PGBIND_WIRE_PACKED_UINT64:
		return F_BITMAPSET;
	case PGBIND_WIRE_ONEOF:
		return F_SKIP; /* A_Const's value: A_Const counts for nothing */
	}
	return F_SKIP;
}

static void build_fp_tables(void)
{
	const pgbind_MessageDesc *s = pgbind_message_desc_by_name("String");
	const pgbind_MessageDesc *b = pgbind_message_desc_by_name("Boolean");
	msg_String = s ? (int32_t)(s - pgbind_message_descs) : -2;
	msg_Boolean = b ? (int32_t)(b - pgbind_message_descs) : -2;
	const pgbind_MessageDesc *root = pgbind_message_desc_by_name("ParseResult");
	messages_cut = root && (pgbind_lpq_messages[root - pgbind_message_descs].flags & PGBIND_LPQ_FP_DEPTH_CUTS_MESSAGES);
	uint32_t used = 0;
	bool ok = s && b;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		const pgbind_LpqMessage *lm = &pgbind_lpq_messages[m];
		FpMessage *fm = &fp_messages[m];
		fm->first = used;
		fm->temp_offset = fm->hidden_by_offset = -1;
		if (!d->name) { /* a slot of the table no message fills */
			fm->skip = true;
			continue;
		}
		size_t name_len = strlen(d->name);
		fm->long_name = d->name;
		fm->name_len = (uint8_t)(name_len < 255 ? name_len : 255);
		if (name_len <= NAME_PAD)
			memcpy(fm->name, d->name, name_len);
		fm->skip = lm->flags & (PGBIND_LPQ_FP_SKIP | PGBIND_LPQ_FP_CONSTANT); /* a constant counts for nothing */
		fm->constant = lm->flags & PGBIND_LPQ_FP_CONSTANT;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			uint32_t lpq = lm->fields[i].flags;
			if (lpq & PGBIND_LPQ_FP_TEMP_HIDES_RELNAME)
				fm->temp_offset = (int32_t)d->fields[i].offset;
			if (lpq & PGBIND_LPQ_FP_CONSTANT_HIDES_PARENT)
				fm->hidden_by_offset = (int32_t)d->fields[i].offset;
			if (lpq & PGBIND_LPQ_FP_ALIAS_NAME)
				fm->alias_name = &d->fields[i];
			lpq |= lm->flags & PGBIND_LPQ_FP_RELATION_CONTEXT; /* a kind's: each field's */
			uint8_t how = field_how(&d->fields[i], lpq);
			if (how == F_SKIP)
				continue;
			if (used >= MAX_FP_FIELDS) {
				ok = false;
				break;
			}
			fp_descs[used++] = &d->fields[i];
		}
		fm->n = used - fm->first;
		/* in name order, as libpg_query writes them */
		qsort(&fp_descs[fm->first], fm->n, sizeof *fp_descs, cmp_field_name);
		for (uint32_t k = fm->first; k < used; k++) {
			const pgbind_FieldDesc *f = fp_descs[k];
			uint32_t lpq = lm->fields[f - d->fields].flags | (lm->flags & PGBIND_LPQ_FP_RELATION_CONTEXT);
			size_t len = strlen(f->name);
			if (f->offset > UINT16_MAX || f->count_offset > UINT16_MAX || f->type_index > INT16_MAX)
				ok = false;
			uint8_t how = field_how(f, lpq);
			uint16_t zero_at;
			uint8_t width = zero_width(how, f, &zero_at);
			fp_fields[k] = (FpField){.offset = (uint16_t)f->offset,
									 .count_offset = (uint16_t)f->count_offset,
									 .type_index = (int16_t)f->type_index,
									 .how = how,
									 .name_len = (uint8_t)(len < 255 ? len : 255),
									 .lpq = lpq,
									 .zero_offset = zero_at,
									 .zero_width = width};
			if (len <= NAME_PAD)
				memcpy(fp_names[k], f->name, len);
		}
	}
	for (uint32_t t = 0; t < PGBIND_NODE_TAG_LIMIT; t++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(t);
		fp_by_tag[t] = d ? (int16_t)(d - pgbind_message_descs) : -1;
	}
	fp_ok = ok && PGBIND_MESSAGE_COUNT < INT16_MAX;
}

/* ---- the byte stream ----------------------------------------------------------------------------- */

typedef struct Fp {
	char *buf;
	size_t len, cap;
	bool oom;
	bool too_deep;        /* a chain of messages (SELECT ... UNION's larg) deeper than max_depth */
	int level, max_level; /* message levels, as max_depth counts them */
	char first[2048];     /* on the caller's stack: most statements fit, longer streams grow on the heap */
} Fp;

static bool grow(Fp *fp, size_t need)
{
	size_t cap = fp->cap * 2;
	while (cap < need)
		cap *= 2;
	char *b = fp->buf == fp->first ? malloc(cap) : realloc(fp->buf, cap);
	if (!b) {
		fp->oom = true;
		return false;
	}
	if (fp->buf == fp->first)
		memcpy(b, fp->first, fp->len);
	fp->buf = b;
	fp->cap = cap;
	return true;
}

static inline void put(Fp *fp, const char *s, size_t n)
{
	if (fp->len + n > fp->cap && !grow(fp, fp->len + n))
		return;
	memcpy(fp->buf + fp->len, s, n);
	fp->len += n;
}

/* A name of n bytes from a NAME_PAD-byte zero-padded copy (one fixed-size copy when there is
 * room), or from long_name when it does not fit one. */
static inline void put_name(Fp *fp, const char *padded, const char *long_name, size_t n)
{
	if (n <= NAME_PAD && fp->cap - fp->len >= NAME_PAD) {
		memcpy(fp->buf + fp->len, padded, NAME_PAD);
		fp->len += n;
	} else {
		put(fp, n <= NAME_PAD ? padded : long_name, n);
	}
}

#define PUT_FIELD_NAME(fp, ff) put_name(fp, fp_names[(ff)-fp_fields], fp_descs[(ff)-fp_fields]->name, (ff)->name_len)

static inline void put_str(Fp *fp, const char *s)
{
	put(fp, s, strlen(s));
}

/* v in decimal, as %lld writes it (snprintf itself costs more than the rest of a field) */
static void put_int(Fp *fp, long long v)
{
	char digits[24], *d = digits + sizeof digits;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	put(fp, d, (size_t)(digits + sizeof digits - d));
}

/* An enum value's name: the proto's numbers are mostly their own index, else a search. */
static const char *enum_name(int32_t enum_index, int32_t v)
{
	if (enum_index >= 0 && enum_index < PGBIND_ENUM_COUNT && v >= 0 &&
		(uint32_t)v < pgbind_enum_descs[enum_index].n_values && pgbind_enum_descs[enum_index].values[v].number == v)
		return pgbind_enum_descs[enum_index].values[v].name;
	return pgbind_enum_value_name(enum_index, v);
}

/* ---- the walk ------------------------------------------------------------------------------------ */

/* via: the PGBIND_LPQ_* flags of the field the node or list hangs from (0 at the root); a list
 * passes its field's on to its items, as libpg_query passes the field name. */
static void fp_node(Fp *fp, const pgbind_Node *n, uint32_t via, unsigned depth);
static void fp_node_body(Fp *fp, const pgbind_Node *n, uint32_t via, unsigned depth);
static void fp_message(Fp *fp, int32_t mi, const void *msg, uint32_t via, unsigned depth);

typedef struct Segment {
	uint64_t hash;
	size_t start, len;
} Segment;

static int cmp_segment(const void *a, const void *b)
{
	uint64_t x = ((const Segment *)a)->hash, y = ((const Segment *)b)->hash;
	return x < y ? -1 : x > y;
}

/* A list (a List node, or a repeated field) at depth: its items at depth + 1. */
static void fp_list(Fp *fp, const pgbind_Node *const *items, size_t n, uint32_t via, unsigned depth)
{
	if (depth >= FINGERPRINT_DEPTH)
		return;
	if (!(via & PGBIND_LPQ_FP_SORTED) || n < 2) {
		for (size_t i = 0; i < n; i++)
			fp_node(fp, items[i], via, depth + 1);
		return;
	}
	Segment small[16];
	Segment *seg = n <= 16 ? small : malloc(n * sizeof *seg);
	if (!seg) {
		fp->oom = true;
		return;
	}
	size_t start = fp->len;
	for (size_t i = 0; i < n; i++) {
		seg[i].start = fp->len;
		fp_node(fp, items[i], via, depth + 1);
		seg[i].len = fp->len - seg[i].start;
		seg[i].hash = fp->oom ? 0 : XXH3_64bits_withSeed(fp->buf + seg[i].start, seg[i].len, FINGERPRINT_VERSION);
	}
	size_t total = fp->len - start;
	char tmp_small[512];
	char *tmp = total <= sizeof tmp_small ? tmp_small : malloc(total);
	if (!tmp || fp->oom) {
		fp->oom = true;
	} else {
		memcpy(tmp, fp->buf + start, total);
		qsort(seg, n, sizeof *seg, cmp_segment);
		fp->len = start;
		for (size_t i = 0; i < n; i++)
			if (i == 0 || seg[i].hash != seg[i - 1].hash)
				put(fp, tmp + (seg[i].start - start), seg[i].len);
	}
	if (tmp != tmp_small)
		free(tmp);
	if (seg != small)
		free(seg);
}

static void fp_node(Fp *fp, const pgbind_Node *n, uint32_t via, unsigned depth)
{
	if (depth >= FINGERPRINT_DEPTH || !n || fp->oom)
		return;
	if (fp->level >= fp->max_level || pgbind_stack_low()) {
		fp->too_deep = fp->oom = true;
		return;
	}
	fp->level++;
	fp_node_body(fp, n, via, depth);
	fp->level--;
}

static void fp_node_body(Fp *fp, const pgbind_Node *n, uint32_t via, unsigned depth)
{
	switch (n->tag) {
	case PGBIND_T_List:
		fp_list(fp, (const pgbind_Node *const *)((const pgbind_List *)n)->items, ((const pgbind_List *)n)->n_items, via,
				depth);
		return;
	case PGBIND_T_Integer:
		if (((const pgbind_Integer *)n)->ival != 0) {
			put(fp, "Integerival", 11);
			put_int(fp, ((const pgbind_Integer *)n)->ival);
		}
		return;
	case PGBIND_T_Float:
		if (((const pgbind_Float *)n)->fval) {
			put(fp, "Floatstr", 8);
			put_str(fp, ((const pgbind_Float *)n)->fval);
		}
		return;
	case PGBIND_T_Boolean:
		if (fp_messages[msg_Boolean].skip)
			return;
		put(fp, "Booleanboolval", 14);
		put_str(fp, ((const pgbind_Boolean *)n)->boolval ? "true" : "false");
		return;
	case PGBIND_T_String:
		put(fp, "Stringstr", 9);
		put_str(fp, ((const pgbind_String *)n)->sval ? ((const pgbind_String *)n)->sval : "");
		return;
	case PGBIND_T_BitString:
		if (((const pgbind_BitString *)n)->bsval) {
			put(fp, "BitStringstr", 12);
			put_str(fp, ((const pgbind_BitString *)n)->bsval);
		}
		return;
	default:
		break;
	}
	int32_t mi = n->tag < PGBIND_NODE_TAG_LIMIT ? fp_by_tag[n->tag] : -1;
	if (mi < 0)
		return;
	const FpMessage *fm = &fp_messages[mi];
	if (fm->skip)
		return;
	if (fm->hidden_by_offset >= 0) { /* a cast of a constant is one too */
		const pgbind_Node *child = *(const pgbind_Node *const *)((const char *)n + fm->hidden_by_offset);
		int32_t ci = child && child->tag < PGBIND_NODE_TAG_LIMIT ? fp_by_tag[child->tag] : -1;
		if (ci >= 0 && fp_messages[ci].constant)
			return;
	}
	put_name(fp, fm->name, fm->long_name, fm->name_len);
	fp_message(fp, mi, n, via, depth);
}

/* Whether the width bytes at p are all zero (width 0: never). */
static inline bool field_is_zero(const char *p, uint8_t width)
{
	switch (width) {
	case 1:
		return *(const uint8_t *)p == 0;
	case 4:
		return *(const uint32_t *)p == 0;
	case 8:
		return *(const uint64_t *)p == 0;
	default:
		return false;
	}
}

/* _fingerprint<Type>: the fields of one message (its type name already written, or not wanted). */
static void fp_message(Fp *fp, int32_t mi, const void *msg, uint32_t via, unsigned depth)
{
	const FpMessage *fm = &fp_messages[mi];
	const char *base = msg;
	if (fm->skip)
		return; /* Alias through its pointer, too */
	for (uint32_t i = 0; i < fm->n && !fp->oom; i++) {
		const FpField *ff = &fp_fields[fm->first + i];
		const void *p = base + ff->offset;
		size_t before;
		if (field_is_zero(base + ff->zero_offset, ff->zero_width))
			continue;
		switch (ff->how) {
		case F_INT:
			if (*(const int32_t *)p) {
				PUT_FIELD_NAME(fp, ff);
				put_int(fp, *(const int32_t *)p);
			}
			break;
		case F_UINT:
			if (*(const uint32_t *)p) {
				PUT_FIELD_NAME(fp, ff);
				put_int(fp, (int32_t) * (const uint32_t *)p); /* printed with %d */
			}
			break;
		case F_INT64:
			if (*(const int64_t *)p) {
				PUT_FIELD_NAME(fp, ff);
				put_int(fp, *(const int64_t *)p);
			}
			break;
		case F_DOUBLE:
			if (*(const double *)p != 0) {
				char digits[64];
				int n = snprintf(digits, sizeof digits, "%f", *(const double *)p);
				PUT_FIELD_NAME(fp, ff);
				put(fp, digits, (size_t)n);
			}
			break;
		case F_BOOL:
			if (*(const bool *)p) {
				PUT_FIELD_NAME(fp, ff);
				put(fp, "true", 4);
			}
			break;
		case F_CHAR: {
			const char *s = *(const char *const *)p;
			if (s && s[0]) {
				PUT_FIELD_NAME(fp, ff);
				put(fp, s, 1);
			}
			break;
		}
		case F_TARGET_NAME:
			if (via & PGBIND_LPQ_FP_UNNAMED_TARGETS)
				break;
			/* fall through */
		case F_CSTRING: {
			const char *s = *(const char *const *)p;
			if (s) {
				PUT_FIELD_NAME(fp, ff);
				put_str(fp, s);
			}
			break;
		}
		case F_ALIAS_NAME: {
			const void *child = *(const void *const *)p;
			const pgbind_FieldDesc *an = child ? fp_messages[ff->type_index].alias_name : NULL;
			const char *s =
				an && an->wire == PGBIND_WIRE_STRING ? *(const char *const *)((const char *)child + an->offset) : NULL;
			if (s) {
				put_str(fp, an->name);
				put_str(fp, s);
			}
			break;
		}
		case F_OUTSIDE_CONTEXT:
			if (via & PGBIND_LPQ_FP_RELATION_CONTEXT)
				break;
			if (*(const char *const *)p) {
				PUT_FIELD_NAME(fp, ff);
				put_str(fp, *(const char *const *)p);
			}
			break;
		case F_DIGIT_RUNS_DROPPED: {
			const char *s = *(const char *const *)p;
			const char *persistence = fm->temp_offset >= 0 ? *(const char *const *)(base + fm->temp_offset) : NULL;
			bool aliased = fm->alias_name && *(const void *const *)(base + fm->alias_name->offset);
			if (!s || (persistence && persistence[0] == 't') || ((via & PGBIND_LPQ_FP_RELATION_CONTEXT) && aliased))
				break;
			PUT_FIELD_NAME(fp, ff);
			for (size_t k = 0; s[k]; k++) {
				bool digit = s[k] >= '0' && s[k] <= '9';
				bool next = s[k + 1] >= '0' && s[k + 1] <= '9';
				bool prev = k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9';
				if (!(digit && (next || prev)))
					put(fp, s + k, 1);
			}
			break;
		}
		case F_IN_ANY_AS_OP:
			if (*(const int32_t *)p == PGBIND_AEXPR_OP_ANY || *(const int32_t *)p == PGBIND_AEXPR_IN) {
				put(fp, "kindAEXPR_OP", 12);
				break;
			}
			/* fall through */
		case F_ENUM: {
			int32_t v = *(const int32_t *)p;
			const char *name = enum_name(ff->type_index, v ? v : 1);
			PUT_FIELD_NAME(fp, ff);
			put_str(fp, name ? name : "");
			break;
		}
		case F_BITMAPSET: {
			size_t n = *(const size_t *)(base + ff->count_offset);
			const uint64_t *words = *(const uint64_t *const *)p;
			PUT_FIELD_NAME(fp, ff);
			for (size_t w = 0; w < n; w++)
				for (int b = 0; b < 64; b++)
					if (words[w] >> b & 1)
						put_int(fp, (long long)(w * 64 + (size_t)b));
			break;
		}
		case F_NODE: {
			const pgbind_Node *child = *(const pgbind_Node *const *)p;
			if (!child)
				break;
			before = fp->len;
			PUT_FIELD_NAME(fp, ff);
			size_t named_at = fp->len;
			fp_node(fp, child, ff->lpq, depth + 1);
			if (fp->len == named_at)
				fp->len = before;
			break;
		}
		case F_MESSAGE: {
			const void *child = *(const void *const *)p;
			if (!child || (messages_cut && depth + 1 >= FINGERPRINT_DEPTH))
				break;
			if (fp->level >= fp->max_level || pgbind_stack_low()) {
				fp->too_deep = fp->oom = true;
				break;
			}
			before = fp->len;
			PUT_FIELD_NAME(fp, ff);
			size_t named_at = fp->len;
			fp->level++;
			fp_message(fp, ff->type_index, child, ff->lpq, depth + 1);
			fp->level--;
			if (fp->len == named_at)
				fp->len = before;
			break;
		}
		case F_STRING_NODE: {
			const pgbind_String *s = *(const pgbind_String *const *)p;
			if (s && s->sval && s->sval[0]) {
				PUT_FIELD_NAME(fp, ff);
				put_str(fp, s->sval);
			}
			break;
		}
		case F_EMBEDDED: {
			static const char zero[1024];
			const void *child = *(const void *const *)p;
			PUT_FIELD_NAME(fp, ff);
			fp_message(fp, ff->type_index, child ? child : zero, ff->lpq, depth);
			break;
		}
		case F_LIST: {
			size_t n = *(const size_t *)(base + ff->count_offset);
			const pgbind_Node *const *items = *(const pgbind_Node *const *const *)p;
			if (n == 0)
				break;
			before = fp->len;
			PUT_FIELD_NAME(fp, ff);
			size_t named_at = fp->len;
			fp_list(fp, items, n, ff->lpq, depth + 1);
			if (fp->len == named_at && !(n == 1 && !items[0]))
				fp->len = before;
			break;
		}
		default:
			break;
		}
	}
}

bool pgbind_fingerprint_ast(const pgbind_Node *root, const pgbind_ParseResult *tree, const pgbind_Options *options,
							uint64_t *fingerprint, pgbind_Status *status)
{
	pthread_once(&fp_once, build_fp_tables);
	if (!fp_ok) {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "fingerprint: the descriptor tables do not fit");
		return false;
	}
	Fp stream, *fp = &stream;
	fp->buf = fp->first;
	fp->len = 0;
	fp->cap = sizeof fp->first;
	fp->oom = fp->too_deep = false;
	fp->level = 0;
	fp->max_level = pgbind_max_depth(options);
	if (tree) /* the List of RawStmt at depth 0 */
		fp_list(fp, (const pgbind_Node *const *)tree->stmts, tree->n_stmts, 0, 0);
	else
		fp_node(fp, root, 0, 0);
	bool ok = !fp->oom;
	if (ok)
		*fingerprint = XXH3_64bits_withSeed(fp->buf, fp->len, FINGERPRINT_VERSION);
	else if (fp->too_deep)
		pgbind_fail(status, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
					fp->max_level);
	else
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
	if (fp->buf != fp->first)
		free(fp->buf);
	return ok;
}
