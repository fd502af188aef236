/*
 * contract.c -- checks a tree against the deparse contract of the linked libpg_query before its
 * deparser sees it: one walk over the tree, generated per message with what the contract's rules
 * ask of each of its fields wherever it sits (no parent, sibling or other field's value decides a
 * rule: targets/c/generated/pgNN/deparse.inc.c, from schema/pgNN/deparse.txt, which
 * tools/deparse-probe writes by deparsing real statements with each field cleared or changed); a
 * message that does not meet that is read against the rules themselves (the tables of
 * deparse.inc.c), which say which rule it breaks. A second walk, over the descriptor tables
 * (reflect.inc.c) and the same rules, is the reference the tests hold the generated one to.
 * The deparser dereferences what PostgreSQL's grammar never leaves out; a tree that did not come
 * from the parser (decoded, read from JSON, built or edited by hand) may leave it out. A tree that
 * breaks a rule is PGBIND_CONTRACT_BROKEN, naming the message, the field, its path and the rule:
 * pgbind_deparse (pg_route.c) then runs the deparser in a child process, where a crash is an error,
 * so that a rule learnt from a corpus never refuses what a parse the corpus lacked makes. A
 * declared rule (schema/libpg_query.txt: memory) names a shape the deparser reads past, whose SQL
 * depends on memory: PGBIND_CONTRACT_READS_PAST, whose SQL pgbind_deparse returns only where it
 * parses back.
 * Nothing here names a node kind: every rule is data.
 */
#include "internal.h"
#include "pg_query.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint16_t message, field; /* pgbind_message_descs index, field index */
	bool nonnull, nonempty;
	uint16_t min_cells;      /* a list with cells has at least this many; 0: any */
	const uint8_t *kinds;    /* the node kinds allowed: tag t at bit t % 8 of byte t / 8; NULL: any */
	uint32_t n_kinds;        /* bytes */
	bool memory;             /* declared: the deparser reads past a node there (PGBIND_CONTRACT_READS_PAST) */
	int16_t where_field;     /* the rule holds only where this string field (index; -1: always) ... */
	const char *where_value; /* ... is this value */
	const char *location;    /* the rule's file:line:col in schema/ */
} ContractRule;

#define CONTRACT_KINDS(id) contract_kinds_##id, sizeof contract_kinds_##id

/* Stack that libpg_query's deparse route takes per message level of the tree, and besides
 * (measured with tests/runtime/test_stack.c: see docs/deparse-contract.md). */
#define CONTRACT_STACK_PER_LEVEL 2560
#define CONTRACT_STACK_RESERVE   (64 * 1024)

/* The reference walk's view of a message, built once from the descriptors: the fields it reads
 * (those that hold messages, and enums). */
typedef struct {
	uint32_t offset, count_offset;
	int32_t type;   /* a message field's type (message index), an enum field's enum index */
	uint16_t field; /* its index in the message */
	uint8_t wire;   /* PGBIND_WIRE_* */
} CField;

typedef struct {
	int limit, deepest;
	bool out_of_stack; /* the walk stopped where the thread's stack ran low */
	const ContractRule *broken;
	bool bad_enum; /* no rule broken: an enum field holds a value its enum does not declare */
	uint32_t bad_message, bad_field;
	int32_t bad_value;
	char what[96];
	char path[512]; /* filled from the end as the walk unwinds */
	size_t pos;
} Check;

/* The generated walk (deparse.inc.c): per message, cw_meets_<M> (what its rules ask of each
 * field) and cw_<M> (that, then its fields, by the CW_* macro of each one's wire kind). */
static bool check_rules(Check *c, uint32_t mi, const char *base);
static bool enum_declared(int32_t ei, int32_t v);
static inline bool cw_enter(Check *c, int depth);
static bool cw_up(Check *c, uint32_t mi, uint32_t fi, long k, const pgbind_Node *child);
static bool cw_bad_enum(Check *c, uint32_t mi, uint32_t fi, int32_t v);

/* Whether node n is of a kind the bitmap (tag t at bit t % 8 of byte t / 8; NULL: any) allows. */
static inline bool cw_kinds_ok(const uint8_t *kinds, size_t n_kinds, const pgbind_Node *n)
{
	return !kinds || (n->tag / 8 < n_kinds && (kinds[n->tag / 8] >> (n->tag % 8)) & 1);
}

static inline bool cw_list_meets(const pgbind_Node *const *cells, size_t n, bool nonnull, bool nonempty,
								 size_t min_cells, const uint8_t *kinds, size_t n_kinds)
{
	if (n == 0)
		return !nonempty;
	if (n < min_cells)
		return false;
	if (nonnull || kinds)
		for (size_t k = 0; k < n; k++)
			if (cells[k] ? !cw_kinds_ok(kinds, n_kinds, cells[k]) : nonnull)
				return false;
	return true;
}

#define CW_KINDS(bitmap) bitmap, sizeof bitmap
#define CW_NO_KINDS      NULL, 0
#define CW_MEETS_NODE(m, f, nonnull, nonempty, min_cells, kinds) \
	((m)->f ? cw_kinds_ok(kinds, (const pgbind_Node *)(m)->f) : !(nonnull))
#define CW_MEETS_ONEOF(m, f, nonnull, nonempty, min_cells, kinds) \
	((m)->f ? cw_kinds_ok(kinds, (const pgbind_Node *)(m)->f) : !(nonnull))
#define CW_MEETS_REPEATED_NODE(m, f, nonnull, nonempty, min_cells, kinds) \
	cw_list_meets((const pgbind_Node *const *)(m)->f, (m)->n_##f, nonnull, nonempty, min_cells, kinds)
#define CW_MEETS_REPEATED_MESSAGE(m, f, nonnull, nonempty, min_cells, kinds) \
	cw_list_meets((const pgbind_Node *const *)(m)->f, (m)->n_##f, nonnull, nonempty, min_cells, kinds)
#define CW_MEETS_STRING(m, f, nonnull, nonempty, min_cells, kinds)  (!(nonnull) || (m)->f != NULL)
#define CW_MEETS_MESSAGE(m, f, nonnull, nonempty, min_cells, kinds) (!(nonnull) || (m)->f != NULL)

/* A message's walk: its depth, its tests (the rules when it misses one), its fields. Each is a
 * function of its own (noinline): inlined into cw_node, the bodies made every visit pay the
 * prologue of the largest (9% more instructions on 17's corpus). */
#define CW_BEGIN(M, index)                                                                         \
	__attribute__((unused, noinline)) static bool cw_##M(Check *c, const pgbind_##M *m, int depth) \
	{                                                                                              \
		enum { mi_ = index };                                                                      \
		if (!cw_enter(c, depth))                                                                   \
			return false;                                                                          \
		const bool met_ = cw_meets_##M(m);                                                         \
		if (!met_ && !check_rules(c, mi_, (const char *)m))                                        \
			return false;
#define CW_END   \
	(void)met_;  \
	return true; \
	}
/* a node child: a leaf kind only counts a level (as check_child does), the others are walked */
#define CW_CHILD(n)                                                                                \
	((uint32_t)(n)->tag < PGBIND_NODE_TAG_LIMIT && cw_leaf_kind[(n)->tag] && depth + 1 <= c->limit \
		 ? (c->deepest = depth + 1 > c->deepest ? depth + 1 : c->deepest, true)                    \
		 : cw_node(c, (n), depth + 1))
#define CW_NODE(k, f, T, E)                           \
	if (m->f && !CW_CHILD((const pgbind_Node *)m->f)) \
		return cw_up(c, mi_, (k), -1, (const pgbind_Node *)m->f);
#define CW_ONEOF(k, f, T, E) CW_NODE(k, f, T, E)
#define CW_MESSAGE(k, f, T, E)               \
	if (m->f && !cw_##T(c, m->f, depth + 1)) \
		return cw_up(c, mi_, (k), -1, NULL);
#define CW_REPEATED_NODE(k, f, T, E)         \
	for (size_t i_ = 0; i_ < m->n_##f; i_++) \
		if (m->f[i_] && !CW_CHILD(m->f[i_])) \
			return cw_up(c, mi_, (k), (long)i_, m->f[i_]);
#define CW_REPEATED_MESSAGE(k, f, T, E)                  \
	for (size_t i_ = 0; i_ < m->n_##f; i_++)             \
		if (m->f[i_] && !cw_##T(c, m->f[i_], depth + 1)) \
			return cw_up(c, mi_, (k), (long)i_, NULL);
/* a list whose cells, where the message met its tests, are all set and of leaf kinds
 * (deparse_rules.c: contract_leaves): the level counted once, as the visit of each would */
#define CW_LEAVES(k, f, T, E)                   \
	if (met_ && depth + 1 <= c->limit) {        \
		if (m->n_##f && depth + 1 > c->deepest) \
			c->deepest = depth + 1;             \
	} else                                      \
		CW_REPEATED_NODE(k, f, T, E)
/* a value the enum does not declare (protobuf's enums are open: pgbind_decode keeps it):
 * libpg_query reads it as another value, or its deparser's switch takes a path that reads the
 * tree as something else (DROP with removeType 90 crashed 17's) */
#define CW_ENUM(k, f, T, E)                 \
	if (!enum_declared((E), (int32_t)m->f)) \
		return cw_bad_enum(c, mi_, (k), (int32_t)m->f);
/* fields that hold neither messages nor enums */
#define CW_INT32(k, f, T, E)
#define CW_UINT32(k, f, T, E)
#define CW_INT64(k, f, T, E)
#define CW_UINT64(k, f, T, E)
#define CW_BOOL(k, f, T, E)
#define CW_DOUBLE(k, f, T, E)
#define CW_STRING(k, f, T, E)
#define CW_PACKED_UINT64(k, f, T, E)

static bool cw_node(Check *c, const pgbind_Node *n, int depth);

#include "deparse.inc.c"

#define MAX_CFIELDS 8192
static CField cfields[MAX_CFIELDS];
static uint32_t cfield_range[PGBIND_MESSAGE_COUNT][2]; /* first, count */
static int16_t msg_by_tag[PGBIND_NODE_TAG_LIMIT];      /* a node tag's message index, -1: none */
static int32_t enum_range[PGBIND_ENUM_COUNT][2];       /* lowest and highest value; [0] > [1]: not contiguous */
static bool leaf[PGBIND_MESSAGE_COUNT];                /* no field to walk, no rule: a visit only counts a level */
static bool cfields_ok;
static pthread_once_t cfields_once = PTHREAD_ONCE_INIT;

static bool holds_messages(uint8_t wire)
{
	return wire == PGBIND_WIRE_NODE || wire == PGBIND_WIRE_ONEOF || wire == PGBIND_WIRE_MESSAGE ||
		   wire == PGBIND_WIRE_REPEATED_NODE || wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

static void build_cfields(void)
{
	bool ok = true;
	uint32_t used = 0;
	for (uint32_t mi = 0; mi < PGBIND_MESSAGE_COUNT && ok; mi++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
		cfield_range[mi][0] = used;
		for (uint32_t fi = 0; fi < d->n_fields && ok; fi++) {
			const pgbind_FieldDesc *f = &d->fields[fi];
			if (!holds_messages(f->wire) && f->wire != PGBIND_WIRE_ENUM)
				continue;
			if (used >= MAX_CFIELDS) {
				ok = false;
				break;
			}
			CField *c = &cfields[used++];
			c->offset = f->offset, c->count_offset = f->count_offset, c->type = f->type_index;
			c->field = (uint16_t)fi, c->wire = (uint8_t)f->wire;
		}
		cfield_range[mi][1] = used - cfield_range[mi][0];
	}
	for (uint32_t ei = 0; ei < PGBIND_ENUM_COUNT; ei++) {
		const pgbind_EnumDesc *e = &pgbind_enum_descs[ei];
		int32_t lo = INT32_MAX, hi = INT32_MIN;
		for (uint32_t v = 0; v < e->n_values; v++) {
			lo = e->values[v].number < lo ? e->values[v].number : lo;
			hi = e->values[v].number > hi ? e->values[v].number : hi;
		}
		bool contiguous = e->n_values && (int64_t)hi - lo + 1 == (int64_t)e->n_values;
		enum_range[ei][0] = contiguous ? lo : 1, enum_range[ei][1] = contiguous ? hi : 0;
	}
	for (uint32_t t = 0; t < PGBIND_NODE_TAG_LIMIT; t++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(t);
		msg_by_tag[t] = d ? (int16_t)(d - pgbind_message_descs) : -1;
	}
	for (uint32_t mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++)
		leaf[mi] = !cfield_range[mi][1] && !contract_rule_range[mi][1];
	cfields_ok = ok && PGBIND_MESSAGE_COUNT < INT16_MAX;
}

bool pgbind_enum_zero_is_undefined(int32_t ei)
{
	const char *name = pgbind_enum_value_name(ei, 0);
	size_t n = name ? strlen(name) : 0;
	return n > 10 && strcmp(name + n - 10, "_UNDEFINED") == 0;
}

/* Whether v is a value enum ei declares (pg_query.proto's values, UNDEFINED = 0 among them). */
static bool enum_declared(int32_t ei, int32_t v)
{
	if (enum_range[ei][0] <= enum_range[ei][1])
		return v >= enum_range[ei][0] && v <= enum_range[ei][1];
	return pgbind_enum_value_name(ei, v) != NULL;
}

static void prepend(Check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void prepend(Check *c, const char *fmt, ...)
{
	char seg[160];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(seg, sizeof seg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof seg)
		n = sizeof seg - 1;
	if ((size_t)n > c->pos) { /* too long a path: keep its end */
		c->path[0] = '.', c->path[1] = '.', c->path[2] = '.';
		c->pos = 0;
		return;
	}
	c->pos -= (size_t)n;
	memcpy(c->path + c->pos, seg, (size_t)n);
}

/* "holds a String node", "holds an Integer node" */
static void holds_kind(Check *c, const pgbind_Node *n)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	const char *name = d ? d->name : "?";
	snprintf(c->what, sizeof c->what, "holds %s %s node", strchr("AEIOU", name[0]) ? "an" : "a", name);
}

/* Why a rule does not hold, in c->what. */
static void say(Check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(Check *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof c->what, fmt, ap);
	va_end(ap);
}

/* Whether the field of r in the message at base holds; c->what (and the cell) says why not. */
static bool rule_holds(Check *c, const ContractRule *r, const char *base, long *cell)
{
	const pgbind_FieldDesc *f = &pgbind_message_descs[r->message].fields[r->field];
	const void *p = base + f->offset;
	*cell = -1;
	if (r->where_field >= 0) { /* where=: a rule about the message with that value only */
		const char *v = *(const char *const *)(base + pgbind_message_descs[r->message].fields[r->where_field].offset);
		if (!v || strcmp(v, r->where_value) != 0)
			return true;
	}
	switch (f->wire) {
	case PGBIND_WIRE_STRING:
	case PGBIND_WIRE_MESSAGE:
		if (r->nonnull && !*(const void *const *)p) {
			say(c, "is NULL");
			return false;
		}
		return true;
	case PGBIND_WIRE_NODE:
	case PGBIND_WIRE_ONEOF: {
		const pgbind_Node *n = *(const pgbind_Node *const *)p;
		if (!n && r->nonnull) {
			say(c, "is NULL");
			return false;
		}
		if (n && !cw_kinds_ok(r->kinds, r->n_kinds, n)) {
			holds_kind(c, n);
			return false;
		}
		return true;
	}
	case PGBIND_WIRE_REPEATED_NODE:
	case PGBIND_WIRE_REPEATED_MESSAGE: {
		size_t n = *(const size_t *)(base + f->count_offset);
		const pgbind_Node *const *cells = *(const pgbind_Node *const *const *)p;
		if (r->nonempty && n == 0) {
			say(c, "is empty");
			return false;
		}
		if (n > 0 && n < r->min_cells) {
			say(c, "has %zu cells, not %u or more", n, (unsigned)r->min_cells);
			return false;
		}
		for (size_t k = 0; k < n && (r->nonnull || r->kinds); k++) {
			*cell = (long)k;
			if (!cells[k] && r->nonnull) {
				say(c, "holds a NULL cell");
				return false;
			}
			if (cells[k] && f->wire == PGBIND_WIRE_REPEATED_NODE && !cw_kinds_ok(r->kinds, r->n_kinds, cells[k])) {
				holds_kind(c, cells[k]);
				return false;
			}
		}
		*cell = -1;
		return true;
	}
	default:
		return true;
	}
}

/* Whether the message breaks none of its rules; else the first one it breaks (in the order of
 * schema/pgNN/deparse.txt) is c->broken, its field (and cell) the path's end. */
static bool check_rules(Check *c, uint32_t mi, const char *base)
{
	for (uint32_t i = contract_rule_range[mi][0], e = i + contract_rule_range[mi][1]; i < e; i++) {
		const ContractRule *r = &contract_rules[i];
		long cell;
		if (!rule_holds(c, r, base, &cell)) {
			const char *name = pgbind_message_descs[mi].fields[r->field].name;
			c->broken = r;
			if (cell >= 0)
				prepend(c, "%s[%ld]", name, cell);
			else
				prepend(c, "%s", name);
			return false;
		}
	}
	return true;
}

/* The depth of a message: within the limit and the thread's stack, and the deepest so far. The
 * stack is read every 8 levels (a thread-local load and a compare per message were 8% of the
 * walk's instructions on 17's corpus): the frames of the 7 levels between two reads are a few
 * hundred bytes, well inside what the floor keeps (STACK_MARGIN, stack.c). */
static inline bool cw_enter(Check *c, int depth)
{
	if (depth > c->limit || ((depth & 7) == 0 && pgbind_stack_low() && (c->out_of_stack = true))) {
		c->broken = NULL;
		return false;
	}
	if (depth > c->deepest)
		c->deepest = depth;
	return true;
}

/* A violation below field fi (cell k, or -1) of message mi, in child (a node: its kind is named
 * too; NULL: a message field's): the path's step. */
static bool cw_up(Check *c, uint32_t mi, uint32_t fi, long k, const pgbind_Node *child)
{
	const pgbind_MessageDesc *d = child ? pgbind_node_desc(child->tag) : NULL;
	const char *name = pgbind_message_descs[mi].fields[fi].name;
	if (d)
		prepend(c, "%s.", d->name);
	if (k >= 0)
		prepend(c, "%s[%ld].", name, k);
	else
		prepend(c, "%s.", name);
	return false;
}

static bool cw_bad_enum(Check *c, uint32_t mi, uint32_t fi, int32_t v)
{
	c->broken = NULL, c->bad_enum = true;
	c->bad_message = mi, c->bad_field = fi, c->bad_value = v;
	prepend(c, "%s", pgbind_message_descs[mi].fields[fi].name);
	return false;
}

/* ---- The reference walk: the same checks over the descriptor tables, a field at a time ---- */

static bool check_message(Check *c, uint32_t mi, const char *base, int depth);

/* A child through field slot (cell k, or -1) of message mi, of message index ci. */
static bool check_child(Check *c, uint32_t mi, const CField *slot, long k, uint32_t ci, const void *child, bool is_node,
						int depth)
{
	if (leaf[ci] && depth + 1 <= c->limit) { /* what check_message would do */
		if (depth + 1 > c->deepest)
			c->deepest = depth + 1;
		return true;
	}
	if (check_message(c, ci, child, depth + 1))
		return true;
	return cw_up(c, mi, slot->field, k, is_node ? child : NULL);
}

/* The message index of a node (-1: no node kind, which the encoder and the converter refuse). */
static int node_message(const pgbind_Node *n)
{
	return n->tag < PGBIND_NODE_TAG_LIMIT ? msg_by_tag[n->tag] : -1;
}

static bool check_message(Check *c, uint32_t mi, const char *base, int depth)
{
	if (!cw_enter(c, depth) || !check_rules(c, mi, base))
		return false;
	for (uint32_t i = cfield_range[mi][0], e = i + cfield_range[mi][1]; i < e; i++) {
		const CField *f = &cfields[i];
		const void *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF: {
			const pgbind_Node *n = *(const pgbind_Node *const *)p;
			int ci = n ? node_message(n) : -1;
			if (ci >= 0 && !check_child(c, mi, f, -1, (uint32_t)ci, n, true, depth))
				return false;
			break;
		}
		case PGBIND_WIRE_MESSAGE: {
			const void *child = *(const void *const *)p;
			if (child && !check_child(c, mi, f, -1, (uint32_t)f->type, child, false, depth))
				return false;
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const pgbind_Node *const *cells = *(const pgbind_Node *const *const *)p;
			for (size_t k = 0; k < n; k++) {
				int ci = cells[k] ? node_message(cells[k]) : -1;
				if (ci >= 0 && !check_child(c, mi, f, (long)k, (uint32_t)ci, cells[k], true, depth))
					return false;
			}
			break;
		}
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const void *const *cells = *(const void *const *const *)p;
			for (size_t k = 0; k < n; k++)
				if (cells[k] && !check_child(c, mi, f, (long)k, (uint32_t)f->type, cells[k], false, depth))
					return false;
			break;
		}
		case PGBIND_WIRE_ENUM: {
			int32_t v = *(const int32_t *)p; /* CW_ENUM's check */
			if (!enum_declared(f->type, v))
				return cw_bad_enum(c, mi, f->field, v);
			break;
		}
		default:
			break;
		}
	}
	return true;
}

/* The verdict of a walk (met: it found nothing), its error in status. */
static pgbind_ContractVerdict verdict(Check *c, bool met, int max_depth, pgbind_Status *status);

static pgbind_ContractVerdict check(const pgbind_ParseResult *tree, int max_depth, bool reference,
									pgbind_Status *status)
{
	pthread_once(&cfields_once, build_cfields);
	if (!cfields_ok) {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "deparse contract: the descriptor tables do not fit");
		return PGBIND_CONTRACT_REFUSED;
	}
	Check c; /* not zeroed: what and path are written only on a violation */
	c.limit = max_depth, c.deepest = 0, c.out_of_stack = false, c.broken = NULL, c.bad_enum = false;
	c.what[0] = '\0', c.pos = sizeof c.path - 1, c.path[c.pos] = '\0';
	bool met;
	if (reference) { /* the root found by name, as in any walk over the tables */
		const pgbind_MessageDesc *d = pgbind_message_desc_by_name("ParseResult");
		met = !d || check_message(&c, (uint32_t)(d - pgbind_message_descs), (const char *)tree, 0);
	} else
		met = cw_ParseResult(&c, tree, 0);
	return verdict(&c, met, max_depth, status);
}

pgbind_ContractVerdict pgbind_deparse_contract(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status)
{
	return check(tree, max_depth, false, status);
}

bool pgbind_check_deparse_contract(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status)
{
	return check(tree, max_depth, false, status) == PGBIND_CONTRACT_MET;
}

bool pgbind_check_deparse_contract_reference(const pgbind_ParseResult *tree, int max_depth, pgbind_Status *status)
{
	return check(tree, max_depth, true, status) == PGBIND_CONTRACT_MET;
}

static pgbind_ContractVerdict verdict(Check *c, bool met, int max_depth, pgbind_Status *status)
{
	if (met) {
		/* libpg_query's deparse route recurses a few frames a message level (protobuf-c's unpack,
		 * its reader, the deparser): that much stack must be left, or it would overflow */
		size_t need = (size_t)c->deepest * CONTRACT_STACK_PER_LEVEL, left = pgbind_stack_left();
		if (need < left && left - need > CONTRACT_STACK_RESERVE)
			return PGBIND_CONTRACT_MET;
		pgbind_fail(status, PGBIND_ERROR_DEPTH,
					PGBIND_STACK_MESSAGE ": libpg_query's deparser would need about %zu KiB for %d levels, and this "
										 "thread has %zu KiB left",
					(need + CONTRACT_STACK_RESERVE) / 1024, c->deepest, left / 1024);
		return PGBIND_CONTRACT_REFUSED;
	}
	if (c->bad_enum) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[c->bad_message];
		const pgbind_FieldDesc *f = &d->fields[c->bad_field];
		pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE,
					"%s.%s holds %d, which enum %s does not declare, at %s: libpg_query (PostgreSQL %s) would "
					"misread it or crash on it, so it is not deparsed",
					d->name, f->name, (int)c->bad_value, pgbind_enum_descs[f->type_index].name, c->path + c->pos,
					PG_VERSION);
		return PGBIND_CONTRACT_REFUSED;
	}
	if (!c->broken && c->out_of_stack) {
		pgbind_fail(status, PGBIND_ERROR_DEPTH,
					PGBIND_STACK_MESSAGE ": the deparse contract's walk stopped at %d levels", c->deepest);
		return PGBIND_CONTRACT_REFUSED;
	}
	if (!c->broken) {
		pgbind_fail(status, PGBIND_ERROR_DEPTH, "nesting too deep: more than %d levels (pgbind_Options.max_depth)",
					max_depth);
		return PGBIND_CONTRACT_REFUSED;
	}
	const pgbind_MessageDesc *d = &pgbind_message_descs[c->broken->message];
	/* short: pgbind_deparse adds what its child saw, or why it refuses, to this */
	pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE, "%s.%s %s at %s (%s)", d->name, d->fields[c->broken->field].name,
				c->what, c->path + c->pos, c->broken->location);
	return c->broken->memory ? PGBIND_CONTRACT_READS_PAST : PGBIND_CONTRACT_BROKEN;
}
