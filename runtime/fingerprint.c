/*
 * fingerprint.c -- libpg_query's fingerprint (pg_query_fingerprint's value) computed over
 * pgbind's AST itself, generically from the reflection tables: no PostgreSQL nodes are built.
 *
 * What libpg_query 15-4.0.0 hashes (facts of its fingerprint, the value compared on every corpus
 * statement by `pgbind verify`): one XXH3-64 stream seeded with 3 (its fingerprint version) over
 *   - for each node, its type name, then its fields in the order of their C names (byte order),
 *     each as its name then its value: integers != 0 in decimal, true booleans as "true", chars
 *     != 0 as themselves, strings that are set, enums always (by value name), bitmapsets always
 *     (name, then members); a node or list field as its name then the child, the name taken back
 *     when the child adds nothing (but for a list of one NULL cell);
 *   - value nodes as "Integer" "ival" n (n != 0), "Float" "str" s, "String" "str" s,
 *     "BitString" "str" s; Boolean as nothing (15-4.0.0's fingerprint has no case for it);
 *   - nothing for A_Const, Alias, ParamRef, SetToDefault (so constants, aliases and parameter
 *     numbers do not count), nor for locations and a list of names (skipped below), nor below
 *     100 levels of nodes and lists;
 *   - the items of lists held in fields named fromClause, targetList, cols, rexpr, valuesLists
 *     or args sorted by the hash of each alone, repeats once (so IN (1, 2) equals IN (2, 1, 1));
 *   - a pointer to a specific node kind (RangeVar *) as its fields without the type name;
 *   - special: a SELECT target's name does not count, A_Expr's kind ANY and IN count as OP.
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
	F_EMBEDDED,       /* CreateForeignTableStmt's CreateStmt, embedded in C */
	F_RESTARGET_NAME, /* skipped in a SELECT's target list */
	F_A_EXPR_KIND,    /* ANY and IN as OP */
	F_RELNAME,        /* RangeVar's, without runs of two or more digits; not of a temporary table */
};

/* Fields libpg_query's fingerprint leaves out besides locations: names that are the user's
 * choice, not the statement's shape. */
static const char *const skipped_fields[] = {
	"PrepareStmt.name",
	"ExecuteStmt.name",
	"DeallocateStmt.name",
	"TransactionStmt.options",
	"TransactionStmt.gid",
	"TransactionStmt.savepoint_name",
	"CreateFunctionStmt.options",
	"FunctionParameter.name",
	"DoStmt.args",
	"ListenStmt.conditionname",
	"UnlistenStmt.conditionname",
	"NotifyStmt.conditionname",
	"DeclareCursorStmt.portalname",
	"FetchStmt.portalname",
	"ClosePortalStmt.portalname",
	"RawStmt.stmt_len",
	"RawStmt.stmt_location",
};

/* Node kinds that count for nothing. */
static const char *const skipped_kinds[] = {"A_Const", "Alias", "ParamRef", "SetToDefault", "IntList", "OidList"};

typedef struct FpField {
	const pgbind_FieldDesc *f;
	uint8_t how;
	uint8_t name_len;
} FpField;

typedef struct FpMessage {
	const char *name;
	uint8_t name_len;
	bool skip;
	uint32_t first, n; /* into fp_fields */
} FpMessage;

#define MAX_FP_FIELDS 8192
static FpMessage fp_messages[PGBIND_MESSAGE_COUNT];
static FpField fp_fields[MAX_FP_FIELDS];
static bool fp_ok;
static pthread_once_t fp_once = PTHREAD_ONCE_INIT;
static int32_t msg_String, msg_CreateStmt;

static bool named(const char *msg, const char *field, const char *const *list, size_t n)
{
	char both[160];
	snprintf(both, sizeof both, "%s.%s", msg, field);
	for (size_t i = 0; i < n; i++)
		if (strcmp(both, list[i]) == 0)
			return true;
	return false;
}

static int cmp_field_name(const void *a, const void *b)
{
	return strcmp(((const FpField *)a)->f->name, ((const FpField *)b)->f->name);
}

static uint8_t field_how(const pgbind_MessageDesc *d, const pgbind_FieldDesc *f)
{
	if (strcmp(f->name, "location") == 0 || strcmp(f->name, "xpr") == 0 ||
		named(d->name, f->name, skipped_fields, sizeof skipped_fields / sizeof *skipped_fields))
		return F_SKIP;
	if (strcmp(d->name, "ResTarget") == 0 && strcmp(f->name, "name") == 0)
		return F_RESTARGET_NAME;
	if (strcmp(d->name, "A_Expr") == 0 && strcmp(f->name, "kind") == 0)
		return F_A_EXPR_KIND;
	if (strcmp(d->name, "RangeVar") == 0 && strcmp(f->name, "relname") == 0)
		return F_RELNAME;
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
		if (f->type_index == msg_String)
			return F_STRING_NODE;
		if (f->type_index == msg_CreateStmt && strcmp(d->name, "CreateForeignTableStmt") == 0)
			return F_EMBEDDED;
		return F_MESSAGE;
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
	const pgbind_MessageDesc *c = pgbind_message_desc_by_name("CreateStmt");
	msg_String = s ? (int32_t)(s - pgbind_message_descs) : -2;
	msg_CreateStmt = c ? (int32_t)(c - pgbind_message_descs) : -2;
	uint32_t used = 0;
	bool ok = s && c;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		FpMessage *fm = &fp_messages[m];
		fm->first = used;
		if (!d->name) { /* a slot of the table no message fills */
			fm->skip = true;
			continue;
		}
		fm->name = d->name;
		fm->name_len = (uint8_t)strlen(d->name);
		for (size_t k = 0; k < sizeof skipped_kinds / sizeof *skipped_kinds; k++)
			if (strcmp(d->name, skipped_kinds[k]) == 0)
				fm->skip = true;
		fm->first = used;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			uint8_t how = field_how(d, &d->fields[i]);
			if (how == F_SKIP)
				continue;
			if (used >= MAX_FP_FIELDS) {
				ok = false;
				break;
			}
			fp_fields[used++] = (FpField){&d->fields[i], how, (uint8_t)strlen(d->fields[i].name)};
		}
		fm->n = used - fm->first;
		qsort(&fp_fields[fm->first], fm->n, sizeof *fp_fields, cmp_field_name);
	}
	fp_ok = ok;
}

/* ---- the byte stream ----------------------------------------------------------------------------- */

typedef struct Fp {
	char *buf;
	size_t len, cap;
	bool oom;
	bool too_deep;        /* a chain of messages (SELECT ... UNION's larg) deeper than max_depth */
	int level, max_level; /* message levels, as max_depth counts them */
	char first[8192];
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

static inline void put_str(Fp *fp, const char *s)
{
	put(fp, s, strlen(s));
}

static void put_int(Fp *fp, long long v)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%lld", v);
	put(fp, digits, (size_t)n);
}

/* ---- the walk ------------------------------------------------------------------------------------ */

static void fp_node(Fp *fp, const pgbind_Node *n, const pgbind_Node *parent, const char *field, unsigned depth);
static void fp_node_body(Fp *fp, const pgbind_Node *n, const pgbind_Node *parent, const char *field, unsigned depth);
static void fp_message(Fp *fp, int32_t mi, const void *msg, const pgbind_Node *parent, const char *field,
					   unsigned depth);

static bool sorts_items(const char *field)
{
	if (!field)
		return false;
	switch (field[0]) {
	case 'f':
		return strcmp(field, "fromClause") == 0;
	case 't':
		return strcmp(field, "targetList") == 0;
	case 'c':
		return strcmp(field, "cols") == 0;
	case 'r':
		return strcmp(field, "rexpr") == 0;
	case 'v':
		return strcmp(field, "valuesLists") == 0;
	case 'a':
		return strcmp(field, "args") == 0;
	default:
		return false;
	}
}

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
static void fp_list(Fp *fp, const pgbind_Node *const *items, size_t n, const pgbind_Node *parent, const char *field,
					unsigned depth)
{
	if (depth >= FINGERPRINT_DEPTH)
		return;
	if (!sorts_items(field) || n < 2) {
		for (size_t i = 0; i < n; i++)
			fp_node(fp, items[i], parent, field, depth + 1);
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
		fp_node(fp, items[i], parent, field, depth + 1);
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

static void fp_node(Fp *fp, const pgbind_Node *n, const pgbind_Node *parent, const char *field, unsigned depth)
{
	if (depth >= FINGERPRINT_DEPTH || !n || fp->oom)
		return;
	if (fp->level >= fp->max_level || pgbind_stack_low()) {
		fp->too_deep = fp->oom = true;
		return;
	}
	fp->level++;
	fp_node_body(fp, n, parent, field, depth);
	fp->level--;
}

static void fp_node_body(Fp *fp, const pgbind_Node *n, const pgbind_Node *parent, const char *field, unsigned depth)
{
	switch (n->tag) {
	case PGBIND_T_List:
		fp_list(fp, (const pgbind_Node *const *)((const pgbind_List *)n)->items, ((const pgbind_List *)n)->n_items,
				parent, field, depth);
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
		return; /* 15-4.0.0's fingerprint does not know the kind: it adds nothing */
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
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	if (!d)
		return;
	int32_t mi = (int32_t)(d - pgbind_message_descs);
	if (fp_messages[mi].skip)
		return;
	if (n->tag == PGBIND_T_TypeCast) { /* a cast of a constant or a parameter is one too */
		const pgbind_Node *arg = ((const pgbind_TypeCast *)n)->arg;
		if (arg && (arg->tag == PGBIND_T_A_Const || arg->tag == PGBIND_T_ParamRef))
			return;
	}
	put(fp, fp_messages[mi].name, fp_messages[mi].name_len);
	fp_message(fp, mi, n, parent, field, depth);
}

/* _fingerprint<Type>: the fields of one message (its type name already written, or not wanted). */
static void fp_message(Fp *fp, int32_t mi, const void *msg, const pgbind_Node *parent, const char *field,
					   unsigned depth)
{
	const FpMessage *fm = &fp_messages[mi];
	const char *base = msg;
	if (fm->skip)
		return; /* Alias through its pointer, too */
	for (uint32_t i = 0; i < fm->n && !fp->oom; i++) {
		const FpField *ff = &fp_fields[fm->first + i];
		const pgbind_FieldDesc *f = ff->f;
		const void *p = base + f->offset;
		size_t before;
		switch (ff->how) {
		case F_INT:
			if (*(const int32_t *)p) {
				put(fp, f->name, ff->name_len);
				put_int(fp, *(const int32_t *)p);
			}
			break;
		case F_UINT:
			if (*(const uint32_t *)p) {
				put(fp, f->name, ff->name_len);
				put_int(fp, (int32_t) * (const uint32_t *)p); /* printed with %d */
			}
			break;
		case F_INT64:
			if (*(const int64_t *)p) {
				put(fp, f->name, ff->name_len);
				put_int(fp, *(const int64_t *)p);
			}
			break;
		case F_DOUBLE:
			if (*(const double *)p != 0) {
				char digits[64];
				int n = snprintf(digits, sizeof digits, "%f", *(const double *)p);
				put(fp, f->name, ff->name_len);
				put(fp, digits, (size_t)n);
			}
			break;
		case F_BOOL:
			if (*(const bool *)p) {
				put(fp, f->name, ff->name_len);
				put(fp, "true", 4);
			}
			break;
		case F_CHAR: {
			const char *s = *(const char *const *)p;
			if (s && s[0]) {
				put(fp, f->name, ff->name_len);
				put(fp, s, 1);
			}
			break;
		}
		case F_RESTARGET_NAME:
			if (parent && parent->tag == PGBIND_T_SelectStmt && field && strcmp(field, "targetList") == 0)
				break;
			/* fall through */
		case F_CSTRING: {
			const char *s = *(const char *const *)p;
			if (s) {
				put(fp, f->name, ff->name_len);
				put_str(fp, s);
			}
			break;
		}
		case F_RELNAME: {
			const char *s = *(const char *const *)p;
			const char *persistence = ((const pgbind_RangeVar *)msg)->relpersistence;
			if (!s || (persistence && persistence[0] == 't'))
				break;
			put(fp, f->name, ff->name_len);
			for (size_t k = 0; s[k]; k++) {
				bool digit = s[k] >= '0' && s[k] <= '9';
				bool next = s[k + 1] >= '0' && s[k + 1] <= '9';
				bool prev = k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9';
				if (!(digit && (next || prev)))
					put(fp, s + k, 1);
			}
			break;
		}
		case F_A_EXPR_KIND:
			if (*(const int32_t *)p == PGBIND_AEXPR_OP_ANY || *(const int32_t *)p == PGBIND_AEXPR_IN) {
				put(fp, "kindAEXPR_OP", 12);
				break;
			}
			/* fall through */
		case F_ENUM: {
			int32_t v = *(const int32_t *)p;
			const char *name = pgbind_enum_value_name(f->type_index, v ? v : 1);
			put(fp, f->name, ff->name_len);
			put_str(fp, name ? name : "");
			break;
		}
		case F_BITMAPSET: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const uint64_t *words = *(const uint64_t *const *)p;
			put(fp, f->name, ff->name_len);
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
			put(fp, f->name, ff->name_len);
			size_t named_at = fp->len;
			fp_node(fp, child, (const pgbind_Node *)msg, f->name, depth + 1);
			if (fp->len == named_at)
				fp->len = before;
			break;
		}
		case F_MESSAGE: {
			const void *child = *(const void *const *)p;
			if (!child)
				break;
			if (fp->level >= fp->max_level || pgbind_stack_low()) {
				fp->too_deep = fp->oom = true;
				break;
			}
			before = fp->len;
			put(fp, f->name, ff->name_len);
			size_t named_at = fp->len;
			fp->level++;
			fp_message(fp, f->type_index, child, (const pgbind_Node *)msg, f->name, depth + 1);
			fp->level--;
			if (fp->len == named_at)
				fp->len = before;
			break;
		}
		case F_STRING_NODE: {
			const pgbind_String *s = *(const pgbind_String *const *)p;
			if (s && s->sval && s->sval[0]) {
				put(fp, f->name, ff->name_len);
				put_str(fp, s->sval);
			}
			break;
		}
		case F_EMBEDDED: {
			static const char zero[1024];
			const void *child = *(const void *const *)p;
			put(fp, f->name, ff->name_len);
			fp_message(fp, f->type_index, child ? child : zero, (const pgbind_Node *)msg, f->name, depth);
			break;
		}
		case F_LIST: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const pgbind_Node *const *items = *(const pgbind_Node *const *const *)p;
			if (n == 0)
				break;
			before = fp->len;
			put(fp, f->name, ff->name_len);
			size_t named_at = fp->len;
			fp_list(fp, items, n, (const pgbind_Node *)msg, f->name, depth + 1);
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
	Fp *fp = malloc(sizeof *fp);
	if (!fp) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return false;
	}
	fp->buf = fp->first;
	fp->len = 0;
	fp->cap = sizeof fp->first;
	fp->oom = fp->too_deep = false;
	fp->level = 0;
	fp->max_level = pgbind_max_depth(options);
	if (tree) /* the List of RawStmt at depth 0 */
		fp_list(fp, (const pgbind_Node *const *)tree->stmts, tree->n_stmts, NULL, NULL, 0);
	else
		fp_node(fp, root, NULL, NULL, 0);
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
	free(fp);
	return ok;
}
