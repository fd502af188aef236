/*
 * contract.c -- checks a tree against the deparse contract of the linked libpg_query before its
 * deparser sees it: one walk over the tree, generated per message with what the contract's rules
 * ask of each one where it sits (targets/c/generated/deparse.inc.c, from schema/pgNN/deparse.txt,
 * which tools/deparse-probe writes by deparsing real statements with each field cleared or
 * changed); a message that does not meet that is read against the rules themselves (the tables of
 * deparse.inc.c), which say which rule it breaks. A second walk, over the descriptor tables
 * (reflect.inc.c) and the same rules, is the reference the tests hold the generated one to.
 * The deparser dereferences what PostgreSQL's grammar never leaves out; a tree that did not come
 * from the parser (decoded, read from JSON, built or edited by hand) may leave it out. A tree that
 * breaks a rule is PGBIND_CONTRACT_BROKEN, naming the message, the field, its path and the rule:
 * pgbind_deparse (pg_route.c) then runs the deparser in a child process, where a crash is an error,
 * so that a rule learnt from a corpus never refuses what a parse the corpus lacked makes.
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

/* A condition of a rule: the rule holds only where the field has one of the values (or is set). */
typedef struct {
	int16_t field; /* the field tested, of the message (parent: of its parent, the message of parents[0][0]) */
	bool not ;     /* ... has none of the values (is not set), not one */
	bool set;      /* the test is whether the field (a node, message or list) is set, not its value */
	bool parent;
	const char *const *strings; /* a string field's values */
	uint32_t n_strings;
	const int32_t *enums; /* an enum's, an int's or a bool's (0, 1) */
	uint32_t n_enums;
} ContractCond;

typedef struct {
	uint16_t message, field; /* pgbind_message_descs index, field index */
	int32_t cell;            /* the rule is about this cell only (from: and the cells after it); -1: all */
	bool from;
	bool not_in;                  /* the rule holds outside the parents listed, not inside */
	const uint16_t (*parents)[2]; /* (message, field) the message is (a cell of); none: anywhere */
	uint32_t n_parents;
	const ContractCond *conditions; /* the rule holds where all of them do; none: always */
	uint32_t n_conditions;
	bool nonnull, nonempty;
	uint16_t min_cells;   /* a list with cells has at least this many; 0: any */
	const uint8_t *kinds; /* the node kinds allowed: tag t at bit t % 8 of byte t / 8; NULL: any */
	uint32_t n_kinds;     /* bytes */
	const char *location; /* the rule's file:line:col in schema/ */
} ContractRule;

#define CONTRACT_LIST(what, id, has) CONTRACT_LIST_##has(what, id)
#define CONTRACT_LIST_(what, id)     NULL, 0
#define CONTRACT_LIST_1(what, id)    contract_##what##_##id, sizeof contract_##what##_##id / sizeof *contract_##what##_##id

/* Stack that libpg_query's deparse route takes per message level of the tree, and besides
 * (measured with tests/runtime/test_stack.c: see docs/deparse-contract.md). */
#define CONTRACT_STACK_PER_LEVEL 2560
#define CONTRACT_STACK_RESERVE   (64 * 1024)

/* The walk's view of a message, built once from the descriptors: the fields it reads (those that
 * hold messages, and enums). */
typedef struct {
	uint32_t offset, count_offset;
	int32_t type;   /* a message field's type (message index), an enum field's enum index */
	uint16_t field; /* its index in the message */
	uint8_t wire;   /* PGBIND_WIRE_* */
} CField;

/* The rules are indexed by where a message sits. A rule limited to parents (in=, notin=) applies
 * in some (parent message, field) slots and not in others; each slot a message's rules name is a
 * class of its own, and every slot they do not name (the root among them) is its class 0. A class
 * holds the rules that apply there, in the order of schema/pgNN/deparse.txt (so the first one
 * broken is the one reported), and per field a summary of what they ask at least: a field whose
 * value meets it breaks none of them, whatever their conditions. So a visit reads rules only of
 * the fields that miss their summary (in the corpora's trees 6% of the visits on 17, most of them
 * DefElem's). Before the classes, every visit of TypeName, DefElem or List missed the summary of
 * all its rules (typmods is asked to be nonempty outside 25 parents, and is empty in them) and
 * scanned its 70-120 rules one by one. */
enum {
	CF_NONNULL = 1,
	CF_NONEMPTY = 2,
	CF_KINDS = 4,
	CF_MINCELLS = 8
}; /* every rule asks one (generator/deparse_rules.c) */
#define KIND_BYTES ((PGBIND_NODE_TAG_LIMIT + 7) / 8)

typedef struct {
	uint32_t offset, count_offset;
	uint8_t wire;             /* PGBIND_WIRE_* */
	uint8_t flags;            /* CF_*: the union of what the class's rules of the field ask */
	uint16_t min_cells;       /* CF_MINCELLS: the most any of them asks */
	uint8_t safe[KIND_BYTES]; /* CF_KINDS: the kinds every one of them allows */
} CSummary;

typedef struct {
	uint32_t first_summary, n_summaries; /* in summaries[] */
	uint32_t first_rule, n_rules;        /* in class_rules[] */
} CClass;

/* A rule of a class: its index in contract_rules[], and its field's summary in the class */
typedef struct {
	uint16_t rule;
	uint8_t bit; /* the summary's index in the class; 63: that or a later one */
} CRule;

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

/* Where a message sits: the base of the message whose field holds it (NULL at the root) and the
 * slot's key, parent message << 16 | field (UINT32_MAX at the root). Two words: passed in
 * registers down the walk. */
typedef struct {
	const char *base;
	uint32_t key;
} Parent;

static uint32_t slot_key(uint32_t message, uint32_t field)
{
	return message << 16 | field;
}

/* The generated walk (deparse.inc.c): per message, cw_meets_<M> (the tests of its class) and
 * cw_<M> (that, then its fields, by the CW_* macro of each one's wire kind). */
static bool check_rules(Check *c, uint32_t mi, const char *base, Parent parent);
static bool enum_declared(int32_t ei, int32_t v);
static inline bool cw_enter(Check *c, int depth);
static bool cw_up(Check *c, uint32_t mi, uint32_t fi, long k, const pgbind_Node *child);
static bool cw_bad_enum(Check *c, uint32_t mi, uint32_t fi, int32_t v);
static bool rule_applies(const ContractRule *r, const char *base, Parent parent);

/* A guard's conditions, as condition_holds reads them from the tables: of the message m or of its
 * parent (a message of type M), a string field one of the names (a C char: the first byte; no
 * value is none of them, whether negated or not), a number one of the values (an enum that reads
 * 0 as its first value: 0 is 1; MASK: values 0 to 63, as the bits of a mask), a node or list
 * set. */
#define CW_OF_SELF(M)                              m
#define CW_OF_PARENT(M)                            ((const pgbind_##M *)parent.base)
#define CW_NAMES(id)                               contract_if_strings_##id, sizeof contract_if_strings_##id / sizeof *contract_if_strings_##id
#define CW_VALUES(id)                              contract_if_enums_##id, sizeof contract_if_enums_##id / sizeof *contract_if_enums_##id
#define CW_IF_STRING(of, f, id, not, zero_first)   cw_if_name((of)->f, CW_NAMES(id), false, not )
#define CW_IF_C_CHAR(of, f, id, not, zero_first)   cw_if_name((of)->f, CW_NAMES(id), true, not )
#define CW_IF_NUMBER(of, f, id, not, zero_first)   cw_if_number((int)(of)->f, CW_VALUES(id), zero_first, not )
#define CW_IF_MASK(of, f, mask, not, zero_first)   cw_if_mask((int)(of)->f, mask, zero_first, not )
#define CW_IF_SET(of, f, id, not, zero_first)      (((of)->f != NULL) != (not ))
#define CW_IF_SET_LIST(of, f, id, not, zero_first) (((of)->n_##f != 0) != (not ))

static inline bool cw_if_name(const char *s, const char *const *names, size_t n, bool first_byte, bool not )
{
	if (!s || !*s)
		return false;
	bool has = false;
	for (size_t i = 0; i < n && !has; i++)
		has = s[0] == names[i][0] && (first_byte || strcmp(s, names[i]) == 0);
	return has != not ;
}

static inline bool cw_if_mask(int v, uint64_t mask, bool zero_first, bool not )
{
	if (v == 0 && zero_first)
		v = 1;
	return (v >= 0 && v < 64 && (mask >> v) & 1) != not ;
}

static inline bool cw_if_number(int v, const int32_t *values, size_t n, bool zero_first, bool not )
{
	if (v == 0 && zero_first)
		v = 1;
	bool has = false;
	for (size_t i = 0; i < n && !has; i++)
		has = v == values[i];
	return has != not ;
}

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

/* A message's walk: its depth, its class's tests (the rules when it misses one), its fields. Each
 * is a function of its own (noinline): inlined into cw_node, the bodies made every visit pay the
 * prologue of the largest (9% more instructions on 17's corpus). */
#define CW_BEGIN(M, index)                                                                                        \
	__attribute__((unused, noinline)) static bool cw_##M(Check *c, const pgbind_##M *m, Parent parent, int depth) \
	{                                                                                                             \
		enum { mi_ = index };                                                                                     \
		if (!cw_enter(c, depth))                                                                                  \
			return false;                                                                                         \
		const bool met_ = cw_meets_##M(m, parent);                                                                \
		if (!met_ && !check_rules(c, mi_, (const char *)m, parent))                                               \
			return false;
#define CW_END   \
	(void)met_;  \
	return true; \
	}
#define CW_HERE(k) ((Parent){(const char *)m, slot_key(mi_, (k))})
/* a node child: a leaf kind only counts a level (as check_child does), the others are walked */
#define CW_CHILD(n, k)                                                                             \
	((uint32_t)(n)->tag < PGBIND_NODE_TAG_LIMIT && cw_leaf_kind[(n)->tag] && depth + 1 <= c->limit \
		 ? (c->deepest = depth + 1 > c->deepest ? depth + 1 : c->deepest, true)                    \
		 : cw_node(c, (n), CW_HERE(k), depth + 1))
#define CW_NODE(k, f, T, E)                              \
	if (m->f && !CW_CHILD((const pgbind_Node *)m->f, k)) \
		return cw_up(c, mi_, (k), -1, (const pgbind_Node *)m->f);
#define CW_ONEOF(k, f, T, E) CW_NODE(k, f, T, E)
#define CW_MESSAGE(k, f, T, E)                           \
	if (m->f && !cw_##T(c, m->f, CW_HERE(k), depth + 1)) \
		return cw_up(c, mi_, (k), -1, NULL);
#define CW_REPEATED_NODE(k, f, T, E)            \
	for (size_t i_ = 0; i_ < m->n_##f; i_++)    \
		if (m->f[i_] && !CW_CHILD(m->f[i_], k)) \
			return cw_up(c, mi_, (k), (long)i_, m->f[i_]);
#define CW_REPEATED_MESSAGE(k, f, T, E)                              \
	for (size_t i_ = 0; i_ < m->n_##f; i_++)                         \
		if (m->f[i_] && !cw_##T(c, m->f[i_], CW_HERE(k), depth + 1)) \
			return cw_up(c, mi_, (k), (long)i_, NULL);
/* a list whose cells, where the message met its class's tests, are all set and of leaf kinds
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

static bool cw_node(Check *c, const pgbind_Node *n, Parent parent, int depth);

#include "deparse.inc.c"

#define MAX_CFIELDS 8192
static CField cfields[MAX_CFIELDS];
static uint32_t cfield_range[PGBIND_MESSAGE_COUNT][2]; /* first, count */
static int16_t msg_by_tag[PGBIND_NODE_TAG_LIMIT];      /* a node tag's message index, -1: none */
static int32_t enum_range[PGBIND_ENUM_COUNT][2];       /* lowest and highest value; [0] > [1]: not contiguous */
static bool leaf[PGBIND_MESSAGE_COUNT];                /* no field to walk, no rule: a visit only counts a level */

static CClass *classes;     /* a message's class 0, then one per slot its rules name */
static CSummary *summaries; /* per class, the fields some of its rules ask of */
static CRule *class_rules;
static uint32_t class_range[PGBIND_MESSAGE_COUNT][2]; /* first class (its class 0), named slots */
static uint32_t *slot_keys;                           /* per message, its named slots, sorted: parent << 16 | field */
static uint32_t slot_first[PGBIND_MESSAGE_COUNT];     /* its first key in slot_keys[] */
static bool cfields_ok;
static pthread_once_t cfields_once = PTHREAD_ONCE_INIT;

static bool holds_messages(uint8_t wire)
{
	return wire == PGBIND_WIRE_NODE || wire == PGBIND_WIRE_ONEOF || wire == PGBIND_WIRE_MESSAGE ||
		   wire == PGBIND_WIRE_REPEATED_NODE || wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

static int compare_keys(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether rule r applies in the slot key (UINT32_MAX: one its rules do not name) by its parents. */
static bool rule_in_slot(const ContractRule *r, uint32_t key)
{
	if (!r->n_parents)
		return true;
	bool in = false;
	for (uint32_t i = 0; i < r->n_parents && !in; i++)
		in = slot_key(r->parents[i][0], r->parents[i][1]) == key;
	return in != r->not_in;
}

/* The summary of what the rules of class k ask of field fi of message mi (flags 0: nothing). */
static CSummary summarize(uint32_t mi, uint32_t fi, const CClass *k)
{
	const pgbind_FieldDesc *f = &pgbind_message_descs[mi].fields[fi];
	CSummary s = {.offset = f->offset, .count_offset = f->count_offset, .wire = (uint8_t)f->wire};
	memset(s.safe, 0xff, sizeof s.safe);
	for (uint32_t i = k->first_rule, e = i + k->n_rules; i < e; i++) {
		const ContractRule *r = &contract_rules[class_rules[i].rule];
		if (r->field != fi)
			continue;
		s.flags |= (r->nonnull ? CF_NONNULL : 0) | (r->nonempty ? CF_NONEMPTY : 0) | (r->min_cells ? CF_MINCELLS : 0);
		if (r->min_cells > s.min_cells)
			s.min_cells = r->min_cells;
		if (r->kinds) {
			s.flags |= CF_KINDS;
			for (uint32_t b = 0; b < KIND_BYTES; b++)
				s.safe[b] &= b < r->n_kinds ? r->kinds[b] : 0;
		}
	}
	return s;
}

/* The classes of every message: first counted (slots, class rules, summaries), then filled. */
static bool build_classes(void)
{
	uint32_t n_keys = 0, n_rules = 0, n_summaries = 0, n_classes = 0;
	for (uint32_t i = 0; i < sizeof contract_rules / sizeof *contract_rules; i++)
		n_keys += contract_rules[i].n_parents;
	slot_keys = malloc((n_keys + 1) * sizeof *slot_keys);
	if (!slot_keys)
		return false;
	n_keys = 0;
	for (uint32_t mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++) { /* the distinct slots each message's rules name */
		slot_first[mi] = n_keys;
		for (uint32_t i = contract_rule_range[mi][0], e = i + contract_rule_range[mi][1]; i < e; i++)
			for (uint32_t p = 0; p < contract_rules[i].n_parents; p++)
				slot_keys[n_keys++] = slot_key(contract_rules[i].parents[p][0], contract_rules[i].parents[p][1]);
		qsort(slot_keys + slot_first[mi], n_keys - slot_first[mi], sizeof *slot_keys, compare_keys);
		uint32_t distinct = slot_first[mi];
		for (uint32_t i = slot_first[mi]; i < n_keys; i++)
			if (i == slot_first[mi] || slot_keys[i] != slot_keys[distinct - 1])
				slot_keys[distinct++] = slot_keys[i];
		n_keys = distinct;
		class_range[mi][0] = n_classes, class_range[mi][1] = n_keys - slot_first[mi];
		n_classes += 1 + class_range[mi][1];
		uint32_t fields = pgbind_message_descs[mi].n_fields;
		n_rules += (1 + class_range[mi][1]) * contract_rule_range[mi][1];
		n_summaries +=
			(1 + class_range[mi][1]) * (contract_rule_range[mi][1] < fields ? contract_rule_range[mi][1] : fields);
	}
	classes = calloc(n_classes, sizeof *classes);
	class_rules = malloc((n_rules + 1) * sizeof *class_rules);
	summaries = malloc((n_summaries + 1) * sizeof *summaries);
	if (!classes || !class_rules || !summaries || sizeof contract_rules / sizeof *contract_rules > UINT16_MAX)
		return false;
	n_rules = n_summaries = 0;
	for (uint32_t mi = 0; mi < PGBIND_MESSAGE_COUNT; mi++)
		for (uint32_t c = 0; c <= class_range[mi][1]; c++) {
			CClass *k = &classes[class_range[mi][0] + c];
			uint32_t key = c ? slot_keys[slot_first[mi] + c - 1] : UINT32_MAX;
			k->first_rule = n_rules;
			for (uint32_t i = contract_rule_range[mi][0], e = i + contract_rule_range[mi][1]; i < e; i++)
				if (rule_in_slot(&contract_rules[i], key))
					class_rules[n_rules++] = (CRule){(uint16_t)i, 0};
			k->n_rules = n_rules - k->first_rule;
			k->first_summary = n_summaries;
			for (uint32_t fi = 0; fi < pgbind_message_descs[mi].n_fields && k->n_rules; fi++) {
				CSummary s = summarize(mi, fi, k);
				if (!s.flags)
					continue;
				uint32_t bit = n_summaries - k->first_summary;
				for (uint32_t i = k->first_rule, e = i + k->n_rules; i < e; i++)
					if (contract_rules[class_rules[i].rule].field == fi)
						class_rules[i].bit = (uint8_t)(bit < 63 ? bit : 63);
				summaries[n_summaries++] = s;
			}
			k->n_summaries = n_summaries - k->first_summary;
		}
	return true;
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
	cfields_ok = ok && PGBIND_MESSAGE_COUNT < INT16_MAX && build_classes();
}

/* The class of message mi where it sits: the slot key (parent message << 16 | field; UINT32_MAX:
 * the root) among those its rules name, else its class 0. */
static const CClass *class_of(uint32_t mi, uint32_t key)
{
	const uint32_t *keys = slot_keys + slot_first[mi];
	uint32_t lo = 0, hi = class_range[mi][1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &classes[class_range[mi][0] + (lo < class_range[mi][1] && keys[lo] == key ? lo + 1 : 0)];
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

static bool kind_safe(const CSummary *c, const pgbind_Node *n)
{
	return !(c->flags & CF_KINDS) || (n->tag < PGBIND_NODE_TAG_LIMIT && (c->safe[n->tag / 8] >> (n->tag % 8)) & 1);
}

/* The summaries of its class the message's fields do not meet (bit j: the class's summary j, 63:
 * that or a later one): the rules of the other fields cannot be broken. */
static uint64_t summaries_missed(const CClass *cls, const char *base)
{
	uint64_t missed = 0;
	for (uint32_t i = cls->first_summary, e = i + cls->n_summaries; i < e; i++) {
		const CSummary *c = &summaries[i];
		uint64_t bit = (uint64_t)1 << (i - cls->first_summary < 63 ? i - cls->first_summary : 63);
		const void *p = base + c->offset;
		switch (c->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF: {
			const pgbind_Node *n = *(const pgbind_Node *const *)p;
			if (n ? !kind_safe(c, n) : (c->flags & CF_NONNULL) != 0)
				missed |= bit;
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + c->count_offset);
			const pgbind_Node *const *cells = *(const pgbind_Node *const *const *)p;
			if (n == 0 ? (c->flags & CF_NONEMPTY) != 0 : n < c->min_cells)
				missed |= bit;
			for (size_t k = 0; k < n && !(missed & bit); k++)
				if (cells[k] ? c->wire == PGBIND_WIRE_REPEATED_NODE && !kind_safe(c, cells[k])
							 : (c->flags & CF_NONNULL) != 0)
					missed |= bit;
			break;
		}
		case PGBIND_WIRE_STRING:
		case PGBIND_WIRE_MESSAGE: /* only nonnull is asked of them */
			if ((c->flags & CF_NONNULL) && !*(const void *const *)p)
				missed |= bit;
			break;
		default: /* rule_holds asks nothing of the others */
			break;
		}
	}
	return missed;
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

static bool kind_allowed(const ContractRule *r, const pgbind_Node *n)
{
	return n->tag / 8 < r->n_kinds && (r->kinds[n->tag / 8] >> (n->tag % 8)) & 1;
}

static bool condition_holds(const ContractCond *c, uint32_t message, const char *base, Parent parent)
{
	if (c->parent) { /* in one of the parents (generator/deparse_rules.c): all of one message */
		if (!parent.base)
			return false;
		base = parent.base;
		message = parent.key >> 16;
	}
	const pgbind_FieldDesc *f = &pgbind_message_descs[message].fields[c->field];
	bool has = false;
	if (c->set) {
		has = f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE
				  ? *(const size_t *)(base + f->count_offset) != 0
				  : *(const void *const *)(base + f->offset) != NULL;
	} else if (f->wire == PGBIND_WIRE_STRING) {
		const char *s = *(const char *const *)(base + f->offset);
		if (!s || !*s) /* no value: never one of those if= names, and one ifnot= has seen */
			return false;
		/* a C char: the deparser sees the first byte only ("X\x12" is 'X') */
		bool one = f->flags & PGBIND_FIELD_CHAR;
		for (uint32_t i = 0; i < c->n_strings && !has; i++)
			has = s[0] == c->strings[i][0] && (one || strcmp(s, c->strings[i]) == 0);
	} else { /* an enum or an int, or a bool as the enum of false (0) and true (1) */
		int v = f->wire == PGBIND_WIRE_BOOL ? *(const bool *)(base + f->offset) : *(const int *)(base + f->offset);
		if (v == 0 && f->wire == PGBIND_WIRE_ENUM && pgbind_enum_zero_is_undefined(f->type_index))
			v = 1; /* the deparser sees the enum's first value: DROP <0> is DROP ACCESS METHOD */
		for (uint32_t i = 0; i < c->n_enums && !has; i++)
			has = v == c->enums[i];
	}
	return has != c->not ;
}

/* Whether a rule of the message's class applies: its parents are the class's, so its conditions decide. */
static bool rule_applies(const ContractRule *r, const char *base, Parent parent)
{
	for (uint32_t i = 0; i < r->n_conditions; i++)
		if (!condition_holds(&r->conditions[i], r->message, base, parent))
			return false;
	return true;
}

/* "holds a String node", "holds an Integer node" */
static void holds_kind(Check *c, const pgbind_Node *n)
{
	if (!c)
		return;
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	const char *name = d ? d->name : "?";
	snprintf(c->what, sizeof c->what, "holds %s %s node", strchr("AEIOU", name[0]) ? "an" : "a", name);
}

/* Why a rule does not hold, in c->what (c NULL: the caller only asks whether it holds). */
static void say(Check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(Check *c, const char *fmt, ...)
{
	if (!c)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof c->what, fmt, ap);
	va_end(ap);
}

/* Whether the field of r in the message at base holds; what (and the cell) says why not, when c
 * is not NULL. */
static bool rule_holds(Check *c, const ContractRule *r, const char *base, long *cell)
{
	const pgbind_FieldDesc *f = &pgbind_message_descs[r->message].fields[r->field];
	const void *p = base + f->offset;
	*cell = -1;
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
		if (n && r->kinds && !kind_allowed(r, n)) {
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
		size_t from = 0, to = n;
		if (r->cell >= 0) {
			from = (size_t)r->cell;
			to = r->from ? n : from + 1 < n ? from + 1 : n;
		}
		for (size_t k = from; k < to; k++) {
			*cell = (long)k;
			if (!cells[k] && r->nonnull) {
				say(c, "holds a NULL cell");
				return false;
			}
			if (cells[k] && r->kinds && f->wire == PGBIND_WIRE_REPEATED_NODE && !kind_allowed(r, cells[k])) {
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

/* Whether the message breaks none of the rules of its class; else the first one it breaks is
 * c->broken, its field (and cell) the path's end. */
static bool check_rules(Check *c, uint32_t mi, const char *base, Parent parent)
{
	const CClass *cls = class_of(mi, parent.key);
	uint64_t missed = cls->n_rules ? summaries_missed(cls, base) : 0;
	if (missed)
		for (uint32_t i = cls->first_rule, e = i + cls->n_rules; i < e; i++) {
			if (!(missed >> class_rules[i].bit & 1))
				continue;
			const ContractRule *r = &contract_rules[class_rules[i].rule];
			long cell;
			/* the field's test first: most rules the message misses its class's tests by do not
			 * apply to it (DefElem "as" of CREATE FUNCTION holds a List, which the class's
			 * options like LANGUAGE may not), and their conditions compare strings */
			if (!rule_holds(NULL, r, base, &cell) && rule_applies(r, base, parent) && !rule_holds(c, r, base, &cell)) {
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

static bool check_message(Check *c, uint32_t mi, const char *base, Parent parent, int depth);

/* A child through field slot (cell k, or -1) of message mi at base, of message index ci. */
static bool check_child(Check *c, uint32_t mi, const char *base, const CField *slot, long k, uint32_t ci,
						const void *child, bool is_node, int depth)
{
	if (leaf[ci] && depth + 1 <= c->limit) { /* what check_message would do */
		if (depth + 1 > c->deepest)
			c->deepest = depth + 1;
		return true;
	}
	if (check_message(c, ci, child, (Parent){base, slot_key(mi, slot->field)}, depth + 1))
		return true;
	return cw_up(c, mi, slot->field, k, is_node ? child : NULL);
}

/* The message index of a node (-1: no node kind, which the encoder and the converter refuse). */
static int node_message(const pgbind_Node *n)
{
	return n->tag < PGBIND_NODE_TAG_LIMIT ? msg_by_tag[n->tag] : -1;
}

static bool check_message(Check *c, uint32_t mi, const char *base, Parent parent, int depth)
{
	if (!cw_enter(c, depth) || !check_rules(c, mi, base, parent))
		return false;
	for (uint32_t i = cfield_range[mi][0], e = i + cfield_range[mi][1]; i < e; i++) {
		const CField *f = &cfields[i];
		const void *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF: {
			const pgbind_Node *n = *(const pgbind_Node *const *)p;
			int ci = n ? node_message(n) : -1;
			if (ci >= 0 && !check_child(c, mi, base, f, -1, (uint32_t)ci, n, true, depth))
				return false;
			break;
		}
		case PGBIND_WIRE_MESSAGE: {
			const void *child = *(const void *const *)p;
			if (child && !check_child(c, mi, base, f, -1, (uint32_t)f->type, child, false, depth))
				return false;
			break;
		}
		case PGBIND_WIRE_REPEATED_NODE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const pgbind_Node *const *cells = *(const pgbind_Node *const *const *)p;
			for (size_t k = 0; k < n; k++) {
				int ci = cells[k] ? node_message(cells[k]) : -1;
				if (ci >= 0 && !check_child(c, mi, base, f, (long)k, (uint32_t)ci, cells[k], true, depth))
					return false;
			}
			break;
		}
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			const void *const *cells = *(const void *const *const *)p;
			for (size_t k = 0; k < n; k++)
				if (cells[k] && !check_child(c, mi, base, f, (long)k, (uint32_t)f->type, cells[k], false, depth))
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
	Parent root = {NULL, UINT32_MAX};
	bool met;
	if (reference) { /* the root found by name, as in any walk over the tables */
		const pgbind_MessageDesc *d = pgbind_message_desc_by_name("ParseResult");
		met = !d || check_message(&c, (uint32_t)(d - pgbind_message_descs), (const char *)tree, root, 0);
	} else
		met = cw_ParseResult(&c, tree, root, 0);
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
	pgbind_fail(status, PGBIND_ERROR_UNREPRESENTABLE,
				"%s.%s %s at %s: libpg_query's deparser (PostgreSQL %s) crashed on such trees in the probe (%s)",
				d->name, d->fields[c->broken->field].name, c->what, c->path + c->pos, PG_VERSION, c->broken->location);
	return PGBIND_CONTRACT_BROKEN;
}
