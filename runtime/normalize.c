/*
 * normalize.c -- pgbind_normalize(): the text pg_query_normalize returns (constants replaced by
 * $1, $2, ...), from pgbind's tree and the SQL it came from, without parsing again.
 *
 * What libpg_query 15-4.0.0 does, learnt from its behaviour (each rule is pinned by a statement
 * in tests/test_normalize.c, and `pgbind verify` compares every corpus statement byte for byte):
 *
 *   1. A walk of the raw tree records the location of every constant it meets, and numbers it
 *      in walk order. The walk descends only where libpg_query's walker does: into the one
 *      field of a few utility statements, and into the expression and DML node kinds that
 *      PostgreSQL's raw_expression_tree_walker knows (walk_rules below, data, not code); any
 *      other node kind stops it (so CREATE TABLE t (a int DEFAULT 1) keeps its 1), and so does
 *      TypeName (varchar(10) keeps its 10).
 *   2. What is recorded: A_Const's location; for a DefElem whose argument is a string (or a list
 *      of one string), the first ' or $ at or after the DefElem's location (CREATE ROLE r
 *      PASSWORD 'x'); for CREATE/ALTER SUBSCRIPTION, the byte before the first occurrence of
 *      its conninfo anywhere in the text. ParamRefs are not replaced; the highest one's number
 *      is added to every new one ($1 ... then $2 for the first constant).
 *   3. SELECT: its fields in a fixed order (sortClause before havingClause, withClause late);
 *      GROUP BY and ORDER BY items that are integer constants stay (GROUP BY 1); a GROUP BY
 *      item whose fingerprint equals a target's takes that target's numbers when it holds as
 *      many constants (SELECT a + 1 ... GROUP BY a + 1 gives $1 twice).
 *   4. The text: locations sorted (stably; a repeated location counts once, its number used up
 *      all the same), then the SQL is scanned from its start as libpg_query's scanner does,
 *      comments being tokens; each constant spans from its location to the end of the first
 *      token that starts at or after it, one token further when the location holds '-' (a
 *      negative number, with whatever lies between); past the last token the rest stay.
 *
 * The walk goes over the reflection tables (pgbind_reflect.h), with a plan per node kind built
 * once. Entry point: pgbind_normalize_ast, which pgbind_normalize (runtime/pg_route.c) calls
 * when the linked libpg_query is a 15 (other versions have other rules).
 */
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- where the walk goes ------------------------------------------------------------------------ */

typedef struct WalkRule {
	const char *kind;
	const char *fields; /* the fields walked, in order, space-separated; NULL: every child field */
} WalkRule;

static const WalkRule walk_rules[] = {
	/* libpg_query's walker: these statements, one field each */
	{"RawStmt", "stmt"},
	{"VariableSetStmt", "args"},
	{"CopyStmt", "query"},
	{"ExplainStmt", "query"},
	{"CreateRoleStmt", "options"},
	{"AlterRoleStmt", "options"},
	{"DeclareCursorStmt", "query"},
	{"CreateFunctionStmt", "options"},
	{"DoStmt", "args"},
	{"CreateUserMappingStmt", "options"},
	{"AlterUserMappingStmt", "options"},
	/* ... and SELECT in its own order (the GROUP BY and ORDER BY rules are in walk_select) */
	{"SelectStmt", "distinctClause intoClause targetList fromClause whereClause groupClause sortClause havingClause "
				   "windowClause valuesLists limitOffset limitCount lockingClause withClause larg rarg"},
	/* PostgreSQL's raw_expression_tree_walker: the kinds it descends into, and where it does
	 * not go into every child field, the ones it does */
	{"List", NULL},
	{"Alias", NULL},
	{"RangeVar", NULL},
	{"GroupingFunc", NULL},
	{"SubLink", NULL},
	{"CaseExpr", NULL},
	{"CaseWhen", NULL},
	{"RowExpr", NULL},
	{"CoalesceExpr", NULL},
	{"MinMaxExpr", NULL},
	{"XmlExpr", NULL},
	{"NullTest", NULL},
	{"BooleanTest", NULL},
	{"JoinExpr", NULL},
	{"IntoClause", "rel viewQuery"},
	{"InsertStmt", NULL},
	{"DeleteStmt", NULL},
	{"UpdateStmt", NULL},
	{"MergeStmt", NULL},
	{"MergeWhenClause", NULL},
	{"PLAssignStmt", NULL},
	{"A_Expr", NULL},
	{"BoolExpr", NULL},
	{"ColumnRef", NULL},
	{"FuncCall", NULL},
	{"NamedArgExpr", NULL},
	{"A_Indices", NULL},
	{"A_Indirection", NULL},
	{"A_ArrayExpr", NULL},
	{"ResTarget", NULL},
	{"MultiAssignRef", NULL},
	{"TypeCast", NULL},
	{"CollateClause", NULL},
	{"SortBy", NULL},
	{"WindowDef", NULL},
	{"RangeSubselect", NULL},
	{"RangeFunction", NULL},
	{"RangeTableSample", NULL},
	{"RangeTableFunc", NULL},
	{"RangeTableFuncCol", NULL},
	{"ColumnDef", "typeName raw_default collClause"},
	{"IndexElem", "expr"},
	{"GroupingSet", NULL},
	{"LockingClause", NULL},
	{"XmlSerialize", NULL},
	{"WithClause", NULL},
	{"InferClause", NULL},
	{"OnConflictClause", NULL},
	{"CommonTableExpr", "ctequery"},
};

enum { MODE_STOP, MODE_FIELDS, MODE_A_CONST, MODE_PARAM_REF, MODE_DEF_ELEM, MODE_SELECT, MODE_CONNINFO };

typedef struct Plan {
	uint8_t mode;
	uint8_t n_fields;
	uint16_t first; /* index into plan_fields */
} Plan;

#define MAX_PLAN_FIELDS 4096
static Plan plans[PGBIND_NODE_TAG_LIMIT];
static const pgbind_FieldDesc *plan_fields[MAX_PLAN_FIELDS];
static bool plans_ok;
static pthread_once_t plans_once = PTHREAD_ONCE_INIT;

static bool is_child(const pgbind_FieldDesc *f)
{
	return f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_ONEOF || f->wire == PGBIND_WIRE_MESSAGE ||
		   f->wire == PGBIND_WIRE_REPEATED_NODE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

static uint32_t tag_of(const char *kind)
{
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name(kind);
	return d ? d->tag : 0;
}

static void build_plans(void)
{
	size_t used = 0;
	bool ok = true;
	for (size_t r = 0; r < sizeof walk_rules / sizeof *walk_rules; r++) {
		const pgbind_MessageDesc *d = pgbind_message_desc_by_name(walk_rules[r].kind);
		if (!d || !d->tag) {
			ok = false; /* a kind this PostgreSQL does not have: the rules need review */
			continue;
		}
		Plan *p = &plans[d->tag];
		p->mode = strcmp(d->name, "SelectStmt") == 0 ? MODE_SELECT : MODE_FIELDS;
		p->first = (uint16_t)used;
		const char *names = walk_rules[r].fields;
		for (uint32_t i = 0; !names && i < d->n_fields; i++)
			if (is_child(&d->fields[i]) && used < MAX_PLAN_FIELDS)
				plan_fields[used++] = &d->fields[i];
		while (names && *names) {
			size_t len = strcspn(names, " ");
			const pgbind_FieldDesc *f = NULL;
			for (uint32_t i = 0; i < d->n_fields; i++)
				if (strlen(d->fields[i].name) == len && strncmp(d->fields[i].name, names, len) == 0)
					f = &d->fields[i];
			if (f && is_child(f) && used < MAX_PLAN_FIELDS)
				plan_fields[used++] = f;
			else
				ok = false;
			names += len + (names[len] == ' ');
		}
		p->n_fields = (uint8_t)(used - p->first);
	}
	plans[tag_of("A_Const")].mode = MODE_A_CONST;
	plans[tag_of("ParamRef")].mode = MODE_PARAM_REF;
	plans[tag_of("DefElem")].mode = MODE_DEF_ELEM;
	plans[tag_of("CreateSubscriptionStmt")].mode = MODE_CONNINFO;
	plans[tag_of("AlterSubscriptionStmt")].mode = MODE_CONNINFO;
	plans[0].mode = MODE_STOP;
	plans_ok = ok && used < MAX_PLAN_FIELDS;
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

/* rule 2: the first ' or $ at or after a DefElem's location */
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

static void walk_select(Norm *nm, const pgbind_SelectStmt *s, const Plan *plan)
{
	/* the targets' parameters and fingerprints, for GROUP BY: fingerprints only once needed */
	size_t n_targets = s->n_targetList;
	Refs *refs = n_targets ? pgbind_Arena_Malloc(nm->arena, n_targets * sizeof *refs) : NULL;
	uint64_t *fps = NULL;
	bool *taken = NULL;
	if (n_targets && !refs) {
		norm_fail(nm, PGBIND_ERROR_NOMEM, "out of memory");
		return;
	}
	for (uint8_t i = 0; i < plan->n_fields && !nm->failed; i++) {
		const pgbind_FieldDesc *f = plan_fields[plan->first + i];
		if (f->offset == offsetof(pgbind_SelectStmt, targetList)) {
			for (size_t k = 0; k < n_targets && !nm->failed; k++) {
				refs[k] = (Refs){0};
				nm->recording = &refs[k];
				walk(nm, s->targetList[k]);
				/* what libpg_query keeps is its recording as it stands now: emptied by a SELECT
				 * nested in the target */
				if (nm->recording != &refs[k])
					refs[k] = (Refs){0};
				nm->recording = NULL;
			}
		} else if (f->offset == offsetof(pgbind_SelectStmt, groupClause)) {
			for (size_t g = 0; g < s->n_groupClause && !nm->failed; g++) {
				const pgbind_Node *item = s->groupClause[g];
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
						const pgbind_ResTarget *rt = (const pgbind_ResTarget *)s->targetList[k];
						taken[k] = false;
						if (!rt || rt->tag != PGBIND_T_ResTarget || !node_fingerprint(nm, rt->val, &fps[k]))
							taken[k] = true; /* not a target libpg_query could compare */
						if (nm->failed)
							return;
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
		} else if (f->offset == offsetof(pgbind_SelectStmt, sortClause)) {
			for (size_t k = 0; k < s->n_sortClause && !nm->failed; k++) {
				const pgbind_Node *item = s->sortClause[k];
				if (item && item->tag == PGBIND_T_SortBy && is_integer_const(((const pgbind_SortBy *)item)->node))
					continue; /* ORDER BY 1 stays */
				walk(nm, item);
			}
		} else {
			walk_field(nm, s, f);
		}
	}
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
	switch (plan->mode) {
	case MODE_A_CONST:
		record(nm, ((const pgbind_A_Const *)node)->location);
		break;
	case MODE_PARAM_REF: {
		int number = ((const pgbind_ParamRef *)node)->number;
		if (number > nm->highest_param)
			nm->highest_param = number;
		if (nm->recording)
			push_int(nm, &nm->recording->ids, &nm->recording->n, &nm->recording->cap, number);
		break;
	}
	case MODE_DEF_ELEM: {
		const pgbind_DefElem *e = (const pgbind_DefElem *)node;
		const pgbind_Node *arg = e->arg;
		const pgbind_List *list = (const pgbind_List *)arg;
		if (arg && (arg->tag == PGBIND_T_String || (arg->tag == PGBIND_T_List && list->n_items == 1 && list->items[0] &&
													list->items[0]->tag == PGBIND_T_String)))
			record_quote_after(nm, e->location);
		walk(nm, arg);
		break;
	}
	case MODE_CONNINFO: {
		/* the byte before the first occurrence of the connection string anywhere in the text */
		const char *conninfo = node->tag == PGBIND_T_CreateSubscriptionStmt
								   ? ((const pgbind_CreateSubscriptionStmt *)node)->conninfo
								   : ((const pgbind_AlterSubscriptionStmt *)node)->conninfo;
		const char *at = conninfo ? strstr(nm->sql, conninfo) : NULL;
		if (at)
			record(nm, (int)(at - nm->sql) - 1);
		break;
	}
	case MODE_SELECT:
		walk_select(nm, (const pgbind_SelectStmt *)node, plan);
		break;
	case MODE_FIELDS:
		for (uint8_t i = 0; i < plan->n_fields && !nm->failed; i++)
			walk_field(nm, node, plan_fields[plan->first + i]);
		break;
	default:
		break; /* a kind libpg_query's walk does not enter */
	}
	nm->depth--;
}

/* ---- the scanner's token boundaries ------------------------------------------------------------- */

/* PostgreSQL 15's scan.l, as far as where tokens start and end; the text parsed, so no error
 * cases. libpg_query's scanner returns comments as tokens. */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
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
static size_t string_continues(const char *s, size_t i, size_t len)
{
	bool newline = false;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\n' || s[i] == '\r')) {
		newline |= s[i] == '\n' || s[i] == '\r';
		i++;
	}
	return newline && i < len && s[i] == '\'' ? i : 0;
}

/* The end of a quoted string whose opening quote is s[i]; backslash escapes in E'' strings. */
static size_t string_end(const char *s, size_t i, size_t len, bool backslashes)
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
		size_t more = string_continues(s, i, len);
		if (!more)
			return i;
		i = more;
	}
}

/* The end of the token that starts at s[i] (s[i] is not white space). */
static size_t token_end(const char *s, size_t i, size_t len)
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
		return string_end(s, i, len, false);
	if ((c == 'e' || c == 'E') && next == '\'')
		return string_end(s, i + 1, len, true);
	if ((c == 'b' || c == 'B' || c == 'x' || c == 'X') && next == '\'')
		return string_end(s, i + 1, len, false);
	if ((c == 'n' || c == 'N') && next == '\'')
		return i + 1; /* N'...': the N is a token of its own */
	if ((c == 'u' || c == 'U') && next == '&' && i + 2 < len && (s[i + 2] == '\'' || s[i + 2] == '"')) {
		if (s[i + 2] == '\'')
			return string_end(s, i + 2, len, false);
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
} Scanner;

/* The next token's start, or -1 at the end; its end in *end. */
static long next_token(Scanner *sc, size_t *end)
{
	while (sc->pos < sc->len && is_space(sc->s[sc->pos]))
		sc->pos++;
	if (sc->pos >= sc->len)
		return -1;
	size_t start = sc->pos;
	sc->pos = *end = token_end(sc->s, start, sc->len);
	return (long)start;
}

/* ---- the text ------------------------------------------------------------------------------------ */

/* Sorts by location, stably (insertion into runs, then merges would do; the lists are short and
 * mostly in order already, so insertion sort it is). */
static void sort_locs(Loc *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		Loc x = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1].location > x.location) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

/* rule 4: each constant's length in the text */
static void fill_lengths(Norm *nm)
{
	Scanner sc = {nm->sql, nm->sql_len, 0};
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
		pgbind_fail(status, PGBIND_ERROR_INVALID,
					"normalize: a walk rule names a node kind or field this PostgreSQL does not have");
		return NULL;
	}
	Norm nm = {.arena = arena,
			   .status = status,
			   .sql = sql,
			   .sql_len = strlen(sql),
			   .next_param = 1,
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
