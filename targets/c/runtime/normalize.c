/*
 * normalize.c -- pgbind_normalize(): the text pg_query_normalize returns (constants replaced by
 * $1, $2, ...), from pgbind's tree and the SQL it came from, without parsing again.
 *
 * What libpg_query does (each rule is pinned by a statement in tests/runtime/test_normalize.c, and
 * `pgbind verify` compares every corpus statement and every whole file byte for byte):
 *
 *   1. A walk of the raw tree records the location of every constant it meets, and numbers it
 *      in walk order. The walk descends only where libpg_query's walker does: the kinds and
 *      fields the version's rules declare (normalize:walk in schema/libpg_query.txt, by
 *      since:/until:, generated into libpg_query.inc.c); any other kind stops it.
 *   2. What is recorded, as declared: constant_location fields (A_Const's location); a
 *      string_arg's quote (the first ' or $ at or after the message's quote_from location); a
 *      text_search string's first occurrence in the text (the byte before it). Parameters
 *      (param_number) are not replaced; the highest one's number is added to every new one ($1
 *      ... then $2 for the first constant).
 *   3. A message's fields in their normalize_order; in a target list (targets) each target's
 *      numbers are kept; GROUP BY and ORDER BY items (group_by, order_by) that are integer
 *      constants stay (GROUP BY 1); a GROUP BY item whose fingerprint equals a target's
 *      target_value takes that target's numbers when it holds as many constants (SELECT a + 1
 *      ... GROUP BY a + 1 gives $1 twice).
 *   4. The text: locations sorted (as PostgreSQL's qsort orders them, sort_locs; a repeated
 *      location counts once, its number used up all the same), then the SQL is scanned from its start as libpg_query's scanner does,
 *      comments being tokens; each constant spans from its location to the end of the first
 *      token that starts at or after it, one token further when the location holds '-' (a
 *      negative number, with whatever lies between); past the last token the rest stay.
 *
 * The walk goes over the reflection tables (pgbind_reflect.h), with a plan per node kind built
 * once. Entry point: pgbind_normalize_ast, which pgbind_normalize (targets/c/runtime/pg_route.c) calls.
 */
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- where the walk goes ------------------------------------------------------------------------ */

/* Per node kind, from the declared rules: the fields walked, in order, and the ones recorded. */
typedef struct Plan {
	bool enters;      /* the walk does anything here */
	uint8_t n_fields; /* walked */
	uint16_t first;   /* index into plan_fields */
	const pgbind_FieldDesc *constant_location, *param_number, *string_arg, *quote_from, *text_search;
	const pgbind_FieldDesc *location_needs;                /* a string without which constant_location does not count */
	const pgbind_FieldDesc *targets, *group_by, *order_by; /* among the walked */
	const pgbind_FieldDesc *target_value, *sort_key;
} Plan;

#define MAX_PLAN_FIELDS 4096
static Plan plans[PGBIND_NODE_TAG_LIMIT];
static const pgbind_FieldDesc *plan_fields[MAX_PLAN_FIELDS];
static uint32_t plan_flags[MAX_PLAN_FIELDS]; /* the walked fields' PGBIND_LPQ_* flags */
static uint8_t plan_order[MAX_PLAN_FIELDS];  /* and normalize_order */
static bool plans_ok;
static pthread_once_t plans_once = PTHREAD_ONCE_INIT;

static bool is_child(const pgbind_FieldDesc *f)
{
	return f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_ONEOF || f->wire == PGBIND_WIRE_MESSAGE ||
		   f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

static void build_plans(void)
{
	size_t used = 0;
	bool ok = true;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT && ok; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		const pgbind_LpqMessage *lm = &pgbind_lpq_messages[m];
		if (!d->name || !d->tag || d->tag >= PGBIND_NODE_TAG_LIMIT)
			continue;
		Plan *p = &plans[d->tag];
		p->first = (uint16_t)used;
		/* the walked fields by normalize_order (stable: insertion), the recorded ones by role */
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const pgbind_FieldDesc *f = &d->fields[i];
			uint32_t fl = lm->fields[i].flags;
			const pgbind_FieldDesc **role[] = {&p->constant_location, &p->param_number, &p->string_arg,
											   &p->quote_from,        &p->text_search,  &p->location_needs,
											   &p->targets,           &p->group_by,     &p->order_by,
											   &p->target_value,      &p->sort_key};
			static const uint32_t role_flag[] = {
				PGBIND_LPQ_NORM_CONSTANT_LOCATION, PGBIND_LPQ_NORM_PARAM_NUMBER, PGBIND_LPQ_NORM_STRING_ARG,
				PGBIND_LPQ_NORM_QUOTE_FROM,        PGBIND_LPQ_NORM_TEXT_SEARCH,  PGBIND_LPQ_NORM_LOCATION_NEEDS_IT,
				PGBIND_LPQ_NORM_TARGETS,           PGBIND_LPQ_NORM_GROUP_BY,     PGBIND_LPQ_NORM_ORDER_BY,
				PGBIND_LPQ_NORM_TARGET_VALUE,      PGBIND_LPQ_NORM_SORT_KEY};
			for (size_t r = 0; r < sizeof role_flag / sizeof *role_flag; r++)
				if (fl & role_flag[r])
					*role[r] = f;
			if (fl & (PGBIND_LPQ_NORM_CONSTANT_LOCATION | PGBIND_LPQ_NORM_PARAM_NUMBER | PGBIND_LPQ_NORM_QUOTE_FROM |
					  PGBIND_LPQ_NORM_TEXT_SEARCH))
				p->enters = true;
			/* targets, group_by, order_by and string_arg are walked too */
			if (fl & (PGBIND_LPQ_NORM_TARGETS | PGBIND_LPQ_NORM_GROUP_BY | PGBIND_LPQ_NORM_ORDER_BY |
					  PGBIND_LPQ_NORM_STRING_ARG))
				fl |= PGBIND_LPQ_NORM_WALK;
			if (!((fl & PGBIND_LPQ_NORM_WALK) || ((lm->flags & PGBIND_LPQ_NORM_WALK) && is_child(f))))
				continue;
			if (used >= MAX_PLAN_FIELDS) {
				ok = false;
				break;
			}
			size_t k = used++;
			uint8_t order = lm->fields[i].normalize_order;
			for (; k > p->first && plan_order[k - 1] > order; k--) {
				plan_fields[k] = plan_fields[k - 1];
				plan_flags[k] = plan_flags[k - 1];
				plan_order[k] = plan_order[k - 1];
			}
			plan_fields[k] = f;
			plan_flags[k] = fl;
			plan_order[k] = order;
			p->enters = true;
		}
		p->n_fields = (uint8_t)(used - p->first);
	}
	plans[0].enters = false;
	plans_ok = ok;
}

/* ---- the walk ------------------------------------------------------------------------------------ */

typedef struct Loc {
	int location;
	int length;   /* -1: not (yet) found in the text, or a repeat */
	int param_id; /* < 0: -k, the k-th new parameter; > 0: a number of the text's own */
} Loc;

/* The parameters met while walking one SELECT target (for rule 3), as libpg_query keeps them:
 * one recording at a time, which a SELECT nested in the target ends. */
typedef struct Refs {
	int *ids;
	int n, cap;
} Refs;

typedef struct Norm {
	pgbind_Arena *arena;
	pgbind_Status *status;
	const char *sql;
	size_t sql_len;
	Loc *locs;
	size_t n_locs, cap_locs;
	int next_param;    /* the k of the next new parameter */
	int highest_param; /* the highest $n of the text's own */
	Refs *recording;   /* NULL: not recording */
	int depth, max_depth;
	int root; /* ParseResult's message index: the version's rules of the whole text */
	bool failed;
} Norm;

static void norm_fail(Norm *nm, pgbind_StatusCode code, const char *what)
{
	if (!nm->failed)
		pgbind_fail(nm->status, code, "%s", what);
	nm->failed = true;
}

static bool push_int(Norm *nm, int **a, int *n, int *cap, int v)
{
	if (*n == *cap) {
		int grown = *cap ? *cap * 2 : 8;
		int *b = pgbind_Arena_Malloc(nm->arena, (size_t)grown * sizeof *b);
		if (!b) {
			norm_fail(nm, PGBIND_ERROR_NOMEM, "out of memory");
			return false;
		}
		if (*n)
			memcpy(b, *a, (size_t)*n * sizeof *b);
		*a = b;
		*cap = grown;
	}
	(*a)[(*n)++] = v;
	return true;
}

static void record(Norm *nm, int location)
{
	if (location < 0)
		return; /* no place in the text */
	if (nm->n_locs == nm->cap_locs) {
		size_t grown = nm->cap_locs ? nm->cap_locs * 2 : 32;
		Loc *b = pgbind_Arena_Malloc(nm->arena, grown * sizeof *b);
		if (!b) {
			norm_fail(nm, PGBIND_ERROR_NOMEM, "out of memory");
			return;
		}
		if (nm->n_locs)
			memcpy(b, nm->locs, nm->n_locs * sizeof *b);
		nm->locs = b;
		nm->cap_locs = grown;
	}
	int id = -nm->next_param++;
	nm->locs[nm->n_locs++] = (Loc){location, -1, id};
	if (nm->recording)
		push_int(nm, &nm->recording->ids, &nm->recording->n, &nm->recording->cap, id);
}

static void walk(Norm *nm, const pgbind_Node *node);

static void walk_field(Norm *nm, const void *msg, const pgbind_FieldDesc *f)
{
	const char *base = msg;
	const void *p = base + f->offset;
	size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
	switch (f->wire) {
	case PGBIND_WIRE_NODE:
	case PGBIND_WIRE_ONEOF:
	case PGBIND_WIRE_MESSAGE: /* a message of a node kind: it starts with its tag */
		walk(nm, *(const pgbind_Node *const *)p);
		break;
	case PGBIND_WIRE_REPEATED_NODE:
	case PGBIND_WIRE_REPEATED_MESSAGE:
		for (size_t k = 0; k < n && !nm->failed; k++)
			walk(nm, (*(const pgbind_Node *const *const *)p)[k]);
		break;
	default:
		break;
	}
}

/* rule 2: the first ' or $ at or after a location */
static void record_quote_after(Norm *nm, int location)
{
	for (size_t i = location > 0 ? (size_t)location : 0; i < nm->sql_len; i++)
		if (nm->sql[i] == '\'' || nm->sql[i] == '$') {
			record(nm, (int)i);
			return;
		}
}

static bool is_integer_const(const pgbind_Node *n)
{
	return n && n->tag == PGBIND_T_A_Const && ((const pgbind_A_Const *)n)->val &&
		   ((const pgbind_A_Const *)n)->val->tag == PGBIND_T_Integer;
}

/* libpg_query's fingerprint of one node (rule 3 compares them), pg_query_fingerprint_node's */
static bool node_fingerprint(Norm *nm, const pgbind_Node *n, uint64_t *fp)
{
	pgbind_Options o = {.max_depth = nm->max_depth};
	if (!pgbind_fingerprint_ast(n, NULL, &o, fp, nm->status)) {
		nm->failed = true;
		return false;
	}
	return true;
}

static const pgbind_Node *node_at(const void *msg, const pgbind_FieldDesc *f)
{
	return f ? *(const pgbind_Node *const *)((const char *)msg + f->offset) : NULL;
}

static int int_at(const void *msg, const pgbind_FieldDesc *f)
{
	return *(const int32_t *)((const char *)msg + f->offset);
}

/* A repeated field's items (none when the field is not one). */
static size_t items_of(const void *msg, const pgbind_FieldDesc *f, const pgbind_Node *const **items)
{
	*items = f->count_offset ? *(const pgbind_Node *const *const *)((const char *)msg + f->offset) : NULL;
	return f->count_offset ? *(const size_t *)((const char *)msg + f->count_offset) : 0;
}

/* rule 3: a message's walked fields in order, the target list, GROUP BY and ORDER BY as declared */
static void walk_fields(Norm *nm, const void *msg, const Plan *plan)
{
	/* the targets' parameters and fingerprints, for GROUP BY: fingerprints only once needed */
	const pgbind_Node *const *targets = NULL;
	size_t n_targets = 0;
	Refs *refs = NULL;
	uint64_t *fps = NULL;
	bool *taken = NULL;
	for (uint8_t i = 0; i < plan->n_fields && !nm->failed; i++) {
		const pgbind_FieldDesc *f = plan_fields[plan->first + i];
		uint32_t fl = plan_flags[plan->first + i];
		const pgbind_Node *const *items;
		size_t n = items_of(msg, f, &items);
		if ((fl & PGBIND_LPQ_NORM_TARGETS) && f->count_offset) {
			targets = items;
			n_targets = n;
			refs = n ? pgbind_Arena_Malloc(nm->arena, n * sizeof *refs) : NULL;
			if (n && !refs) {
				norm_fail(nm, PGBIND_ERROR_NOMEM, "out of memory");
				return;
			}
			for (size_t k = 0; k < n && !nm->failed; k++) {
				refs[k] = (Refs){0};
				nm->recording = &refs[k];
				walk(nm, items[k]);
				/* what libpg_query keeps is its recording as it stands now: emptied by a SELECT
				 * nested in the target */
				if (nm->recording != &refs[k])
					refs[k] = (Refs){0};
				nm->recording = NULL;
			}
		} else if ((fl & PGBIND_LPQ_NORM_GROUP_BY) && f->count_offset) {
			for (size_t g = 0; g < n && !nm->failed; g++) {
				const pgbind_Node *item = items[g];
				if (is_integer_const(item))
					continue; /* GROUP BY 1 stays */
				const Refs *match = NULL;
				uint64_t fp;
				if (n_targets && !fps) {
					fps = pgbind_Arena_Malloc(nm->arena, n_targets * sizeof *fps);
					taken = pgbind_Arena_Malloc(nm->arena, n_targets * sizeof *taken);
					if (!fps || !taken) {
						norm_fail(nm, PGBIND_ERROR_NOMEM, "out of memory");
						return;
					}
					for (size_t k = 0; k < n_targets; k++) {
						const pgbind_Node *t = targets[k];
						const pgbind_FieldDesc *value =
							t && t->tag < PGBIND_NODE_TAG_LIMIT ? plans[t->tag].target_value : NULL;
						taken[k] = !value || !node_fingerprint(nm, node_at(t, value), &fps[k]);
						if (nm->failed)
							return; /* taken: not a target libpg_query could compare */
					}
				}
				if (n_targets && node_fingerprint(nm, item, &fp))
					for (size_t k = 0; k < n_targets && !match; k++)
						if (!taken[k] && fps[k] == fp) {
							taken[k] = true;
							match = &refs[k];
						}
				size_t before = nm->n_locs;
				walk(nm, item);
				if (match && (size_t)match->n == nm->n_locs - before) {
					for (size_t k = before; k < nm->n_locs; k++)
						nm->locs[k].param_id = match->ids[k - before];
					nm->next_param -= match->n;
				}
			}
		} else if ((fl & PGBIND_LPQ_NORM_ORDER_BY) && f->count_offset) {
			for (size_t k = 0; k < n && !nm->failed; k++) {
				const pgbind_Node *item = items[k];
				const pgbind_FieldDesc *key =
					item && item->tag < PGBIND_NODE_TAG_LIMIT ? plans[item->tag].sort_key : NULL;
				if (key && is_integer_const(node_at(item, key)))
					continue; /* ORDER BY 1 stays */
				walk(nm, item);
			}
		} else {
			walk_field(nm, msg, f);
		}
	}
}

static bool is_string(const pgbind_Node *n)
{
	return n && n->tag == PGBIND_T_String;
}

static void walk(Norm *nm, const pgbind_Node *node)
{
	if (!node || nm->failed)
		return;
	if (node->tag >= PGBIND_NODE_TAG_LIMIT) {
		norm_fail(nm, PGBIND_ERROR_INVALID, "a node tag the protocol does not have");
		return;
	}
	if (++nm->depth > nm->max_depth || pgbind_stack_low()) {
		norm_fail(nm, PGBIND_ERROR_DEPTH, "nesting too deep (pgbind_Options.max_depth)");
		return;
	}
	const Plan *plan = &plans[node->tag];
	if (plan->enters) {
		if (plan->constant_location &&
			(!plan->location_needs || *(const char *const *)((const char *)node + plan->location_needs->offset)))
			record(nm, int_at(node, plan->constant_location));
		if (plan->param_number) {
			int number = int_at(node, plan->param_number);
			if (number > nm->highest_param)
				nm->highest_param = number;
			if (nm->recording)
				push_int(nm, &nm->recording->ids, &nm->recording->n, &nm->recording->cap, number);
		}
		if (plan->string_arg && plan->quote_from) {
			/* rule 2: a string, or a list of one string */
			const pgbind_Node *arg = node_at(node, plan->string_arg);
			const pgbind_List *list = (const pgbind_List *)arg;
			if (is_string(arg) || (arg && arg->tag == PGBIND_T_List && list->n_items == 1 && is_string(list->items[0])))
				record_quote_after(nm, int_at(node, plan->quote_from));
		}
		if (plan->text_search) {
			/* the byte before the first occurrence of the string anywhere in the text */
			const char *text = *(const char *const *)((const char *)node + plan->text_search->offset);
			const char *at = text ? strstr(nm->sql, text) : NULL;
			if (at)
				record(nm, (int)(at - nm->sql) - 1);
		}
		walk_fields(nm, node, plan);
	}
	nm->depth--;
}

/* ---- the scanner's token boundaries ------------------------------------------------------------- */

/* PostgreSQL 15's scan.l, as far as where tokens start and end; the text parsed, so no error
 * cases. libpg_query's scanner returns comments as tokens. vt: the version's scanner takes a
 * vertical tab for white space (PGBIND_LPQ_NORM_VERTICAL_TAB_SPACE). */

static bool is_space(char c, bool vt)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || (vt && c == '\v');
}

static bool is_ident_start(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}

static bool is_ident_cont(unsigned char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_op_char(char c)
{
	return c && strchr("~!@#^&|`?+-*/%<>=", c) != NULL;
}

/* After a string's closing quote at s[i - 1]: where its continuation's opening quote is (white
 * space with a newline in it, then a quote), or 0. libpg_query's scanner, which returns
 * comments as tokens, takes no comment there (PostgreSQL's does). */
static size_t string_continues(const char *s, size_t i, size_t len, bool vt)
{
	bool newline = false;
	while (i < len && is_space(s[i], vt)) {
		newline |= s[i] == '\n' || s[i] == '\r';
		i++;
	}
	return newline && i < len && s[i] == '\'' ? i : 0;
}

/* The end of a quoted string whose opening quote is s[i]; backslash escapes in E'' strings. */
static size_t string_end(const char *s, size_t i, size_t len, bool backslashes, bool vt)
{
	for (;;) {
		i++;
		while (i < len) {
			if (backslashes && s[i] == '\\' && i + 1 < len)
				i += 2;
			else if (s[i] == '\'' && i + 1 < len && s[i + 1] == '\'')
				i += 2;
			else if (s[i] == '\'')
				break;
			else
				i++;
		}
		if (i >= len)
			return len;
		i++; /* past the closing quote */
		size_t more = string_continues(s, i, len, vt);
		if (!more)
			return i;
		i = more;
	}
}

/* The end of the token that starts at s[i] (s[i] is not white space). */
static size_t token_end(const char *s, size_t i, size_t len, bool vt)
{
	unsigned char c = (unsigned char)s[i];
	char next = i + 1 < len ? s[i + 1] : '\0';
	if (c == '-' && next == '-') {
		while (i < len && s[i] != '\n' && s[i] != '\r')
			i++;
		return i;
	}
	if (c == '/' && next == '*') {
		int level = 0;
		while (i < len) {
			if (s[i] == '/' && i + 1 < len && s[i + 1] == '*')
				level++, i += 2;
			else if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
				i += 2;
				if (--level == 0)
					return i;
			} else
				i++;
		}
		return len;
	}
	if (c == '\'')
		return string_end(s, i, len, false, vt);
	if ((c == 'e' || c == 'E') && next == '\'')
		return string_end(s, i + 1, len, true, vt);
	if ((c == 'b' || c == 'B' || c == 'x' || c == 'X') && next == '\'')
		return string_end(s, i + 1, len, false, vt);
	if ((c == 'n' || c == 'N') && next == '\'')
		return i + 1; /* N'...': the N is a token of its own */
	if ((c == 'u' || c == 'U') && next == '&' && i + 2 < len && (s[i + 2] == '\'' || s[i + 2] == '"')) {
		if (s[i + 2] == '\'')
			return string_end(s, i + 2, len, false, vt);
		i += 2;
		c = '"';
	}
	if (c == '"') {
		for (i++; i < len; i++) {
			if (s[i] == '"' && i + 1 < len && s[i + 1] == '"')
				i++;
			else if (s[i] == '"')
				return i + 1;
		}
		return len;
	}
	if (is_ident_start(c)) {
		while (i < len && is_ident_cont((unsigned char)s[i]))
			i++;
		return i;
	}
	if (c == '$') {
		if (is_digit(next)) {
			i++;
			while (i < len && is_digit(s[i]))
				i++;
			return i;
		}
		/* a dollar quote: $$ or $tag$ ... the same again */
		size_t t = i + 1;
		if (t < len && is_ident_start((unsigned char)s[t]))
			while (t < len && is_ident_cont((unsigned char)s[t]) && s[t] != '$')
				t++;
		if (t < len && s[t] == '$') {
			size_t tag_len = t + 1 - i;
			for (size_t k = t + 1; k + tag_len <= len; k++)
				if (s[k] == '$' && memcmp(s + k, s + i, tag_len) == 0)
					return k + tag_len;
			return len;
		}
		return i + 1;
	}
	if (is_digit((char)c) || (c == '.' && is_digit(next))) {
		while (i < len && is_digit(s[i]))
			i++;
		if (i < len && s[i] == '.' && !(i + 1 < len && s[i + 1] == '.')) {
			i++;
			while (i < len && is_digit(s[i]))
				i++;
		}
		if (i < len && (s[i] == 'e' || s[i] == 'E')) {
			size_t e = i + 1;
			if (e < len && (s[e] == '+' || s[e] == '-'))
				e++;
			if (e < len && is_digit(s[e])) {
				while (e < len && is_digit(s[e]))
					e++;
				i = e;
			}
		}
		return i;
	}
	if (c == ':' && (next == ':' || next == '='))
		return i + 2;
	if (c == '.' && next == '.')
		return i + 2;
	if (is_op_char((char)c)) {
		size_t start = i, n = 0;
		while (i < len && is_op_char(s[i]))
			i++;
		/* an operator ends before a comment that starts inside it */
		for (n = 0; start + n < i; n++)
			if (start + n + 1 < i &&
				((s[start + n] == '/' && s[start + n + 1] == '*') || (s[start + n] == '-' && s[start + n + 1] == '-')))
				break;
		if (n == 0)
			n = 1;
		/* trailing + and - belong to what follows, unless the operator has one of ~!@#^&|`?% */
		if (n > 1 && (s[start + n - 1] == '+' || s[start + n - 1] == '-')) {
			bool keeps = false;
			for (size_t k = 0; k + 1 < n; k++)
				if (strchr("~!@#^&|`?%", s[start + k]))
					keeps = true;
			while (!keeps && n > 1 && (s[start + n - 1] == '+' || s[start + n - 1] == '-'))
				n--;
		}
		return start + n;
	}
	return i + 1; /* a character of its own: , ( ) [ ] ; : and the rest */
}

typedef struct Scanner {
	const char *s;
	size_t len, pos;
	bool comments_skipped; /* the version's scanner returns no comments (PGBIND_LPQ_NORM_COMMENTS_SKIPPED) */
	bool vt;               /* ... takes \v for white space (PGBIND_LPQ_NORM_VERTICAL_TAB_SPACE) */
} Scanner;

/* The next token's start, or -1 at the end; its end in *end. */
static long next_token(Scanner *sc, size_t *end)
{
	for (;;) {
		while (sc->pos < sc->len && is_space(sc->s[sc->pos], sc->vt))
			sc->pos++;
		if (sc->pos >= sc->len)
			return -1;
		size_t start = sc->pos;
		sc->pos = *end = token_end(sc->s, start, sc->len, sc->vt);
		bool comment = start + 1 < sc->len && ((sc->s[start] == '-' && sc->s[start + 1] == '-') ||
											   (sc->s[start] == '/' && sc->s[start + 1] == '*'));
		if (!(comment && sc->comments_skipped))
			return (long)start;
	}
}

/* ---- the text ------------------------------------------------------------------------------------ */

/*
 * Sorts by location the way libpg_query's qsort does: PostgreSQL's port.h makes every qsort its
 * pg_qsort, an unstable quicksort (Bentley and McIlroy's: insertion sort below 7 items, a check
 * for an already sorted run, the median of three, or of three medians above 40, as the pivot, and
 * a three-way partition). Which of several constants at one location keeps the place (the first
 * after the sort; rule 4) depends on it: a DefElem's quote search finds a later statement's
 * string (CREATE FUNCTION ... LANGUAGE sql IMMUTABLE; SELECT 'x'), so a multi-statement text
 * holds such repeats.
 */
static int loc_cmp(const Loc *a, const Loc *b)
{
	return (a->location > b->location) - (a->location < b->location);
}

static void loc_swap(Loc *a, Loc *b)
{
	Loc t = *a;
	*a = *b;
	*b = t;
}

static void loc_vecswap(Loc *a, Loc *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		loc_swap(&a[i], &b[i]);
}

static Loc *loc_med3(Loc *a, Loc *b, Loc *c)
{
	return loc_cmp(a, b) < 0 ? (loc_cmp(b, c) < 0 ? b : (loc_cmp(a, c) < 0 ? c : a))
							 : (loc_cmp(b, c) > 0 ? b : (loc_cmp(a, c) < 0 ? a : c));
}

static void sort_locs(Loc *a, size_t n)
{
	for (;;) {
		if (n < 7) {
			for (size_t m = 1; m < n; m++)
				for (size_t l = m; l > 0 && loc_cmp(&a[l - 1], &a[l]) > 0; l--)
					loc_swap(&a[l], &a[l - 1]);
			return;
		}
		bool presorted = true;
		for (size_t m = 1; m < n && presorted; m++)
			presorted = loc_cmp(&a[m - 1], &a[m]) <= 0;
		if (presorted)
			return;
		Loc *pm = a + n / 2;
		if (n > 7) {
			Loc *pl = a, *pn = a + n - 1;
			if (n > 40) {
				size_t d = n / 8;
				pl = loc_med3(pl, pl + d, pl + 2 * d);
				pm = loc_med3(pm - d, pm, pm + d);
				pn = loc_med3(pn - 2 * d, pn - d, pn);
			}
			pm = loc_med3(pl, pm, pn);
		}
		loc_swap(a, pm);
		Loc *pa = a + 1, *pb = a + 1, *pc = a + n - 1, *pd = a + n - 1;
		for (;;) {
			int r;
			while (pb <= pc && (r = loc_cmp(pb, a)) <= 0) {
				if (r == 0)
					loc_swap(pa++, pb);
				pb++;
			}
			while (pb <= pc && (r = loc_cmp(pc, a)) >= 0) {
				if (r == 0)
					loc_swap(pc, pd--);
				pc--;
			}
			if (pb > pc)
				break;
			loc_swap(pb++, pc--);
		}
		Loc *pn = a + n;
		size_t d1 = (size_t)(pa - a) < (size_t)(pb - pa) ? (size_t)(pa - a) : (size_t)(pb - pa);
		loc_vecswap(a, pb - d1, d1);
		d1 = (size_t)(pd - pc) < (size_t)(pn - pd - 1) ? (size_t)(pd - pc) : (size_t)(pn - pd - 1);
		loc_vecswap(pb, pn - d1, d1);
		d1 = (size_t)(pb - pa);
		size_t d2 = (size_t)(pd - pc);
		/* the smaller part by recursion, the larger by the loop: the stack stays logarithmic */
		if (d1 <= d2) {
			if (d1 > 1)
				sort_locs(a, d1);
			a = pn - d2;
			n = d2;
		} else {
			if (d2 > 1)
				sort_locs(pn - d2, d2);
			n = d1;
		}
		if (n <= 1)
			return;
	}
}

/* rule 4: each constant's length in the text */
static void fill_lengths(Norm *nm)
{
	const pgbind_MessageDesc *scan = pgbind_message_desc_by_name("ScanResult"); /* the scanner's rules */
	Scanner sc = {nm->sql, nm->sql_len, 0, pgbind_lpq_messages[nm->root].flags & PGBIND_LPQ_NORM_COMMENTS_SKIPPED,
				  scan &&
					  (pgbind_lpq_messages[scan - pgbind_message_descs].flags & PGBIND_LPQ_NORM_VERTICAL_TAB_SPACE)};
	int last = -1;
	for (size_t i = 0; i < nm->n_locs; i++) {
		int loc = nm->locs[i].location;
		if (loc <= last)
			continue; /* a repeat */
		long start;
		size_t end = 0;
		while ((start = next_token(&sc, &end)) >= 0 && start < loc)
			;
		if (start >= 0 && (size_t)loc < nm->sql_len && nm->sql[loc] == '-')
			start = next_token(&sc, &end);
		if (start < 0)
			return; /* past the last token: the rest stay as they are */
		nm->locs[i].length = (int)(end - (size_t)loc);
		last = loc;
	}
}

const char *pgbind_normalize_ast(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
								 pgbind_Arena *arena, pgbind_Status *status)
{
	if (!tree || !sql || !arena) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "a required argument is NULL");
		return NULL;
	}
	pthread_once(&plans_once, build_plans);
	if (!plans_ok) {
		pgbind_fail(status, PGBIND_ERROR_INVALID, "normalize: the declared walk does not fit pgbind's tables");
		return NULL;
	}
	Norm nm = {.arena = arena,
			   .status = status,
			   .sql = sql,
			   .sql_len = strlen(sql),
			   .next_param = 1,
			   .root = (int)(pgbind_message_desc_by_name("ParseResult") - pgbind_message_descs),
			   .max_depth = pgbind_max_depth(options)};
	if (nm.sql_len > 0x7fffffff) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "the SQL is longer than PostgreSQL's 1 GB");
		return NULL;
	}
	for (size_t i = 0; i < tree->n_stmts && !nm.failed; i++)
		walk(&nm, (const pgbind_Node *)tree->stmts[i]);
	if (nm.failed)
		return NULL;
	sort_locs(nm.locs, nm.n_locs);
	for (size_t i = 0; i < nm.n_locs; i++)
		if ((size_t)nm.locs[i].location >= nm.sql_len) {
			pgbind_fail(status, PGBIND_ERROR_INVALID,
						"a constant at byte %d, past the end of the SQL (%zu bytes): the tree is not this SQL's",
						nm.locs[i].location, nm.sql_len);
			return NULL;
		}
	fill_lengths(&nm);
	/* each $n takes at most 11 bytes, each constant at least 1 */
	char *out = pgbind_Arena_Malloc(arena, nm.sql_len + nm.n_locs * 11 + 1);
	if (!out) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	size_t o = 0, from = 0;
	for (size_t i = 0; i < nm.n_locs; i++) {
		const Loc *l = &nm.locs[i];
		if (l->length < 0)
			continue;
		if ((size_t)l->location < from) {
			pgbind_fail(status, PGBIND_ERROR_INVALID,
						"constants overlap at byte %d of the SQL: the tree is not this SQL's", l->location);
			return NULL;
		}
		memcpy(out + o, sql + from, (size_t)l->location - from);
		o += (size_t)l->location - from;
		long id = l->param_id < 0 ? (long)nm.highest_param - l->param_id : l->param_id;
		o += (size_t)snprintf(out + o, 12, "$%ld", id);
		from = (size_t)l->location + (size_t)l->length;
	}
	memcpy(out + o, sql + from, nm.sql_len - from);
	out[o + nm.sql_len - from] = '\0';
	return out;
}
