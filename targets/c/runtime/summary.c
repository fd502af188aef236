/*
 * summary.c -- pgbind_summary(): what a query touches (tables and their contexts, aliases, CTE
 * names, functions, the columns its WHERE clauses filter on, its statement kinds) and its text
 * shortened to a limit, as libpg_query 18's pg_query_summary computes them, from pgbind's own tree
 * (pgbind_summary), or from SQL on PostgreSQL's own raw parse tree without building pgbind's
 * (pgbind_summary_sql: pg_query_summary's route, its cost little more than the parse's; a
 * truncated query is computed on pgbind's tree all the same), so on every major; and
 * pgbind_summary_encode(), its protobuf (targets/c/runtime/summary.proto, pg_query.SummaryResult),
 * the bytes pg_query_summary returns.
 *
 * libpg_query's summary walks the raw parse tree with PostgreSQL's raw_expression_tree_walker,
 * which descends only into the node kinds and fields that DML statements can hold (raw_walk.c, one
 * walker over both forms of tree: a form maps its tags to the kinds' rules and reads each field
 * where the generated line says the form holds it).
 * What it does on each node kind (a relation it records, a clause it walks again) is data,
 * schema/summary.txt's summary: lines and the shapes they read (relation:, from_item:, ...),
 * generated into node_rules.inc.c (node_rules.h): summarize() runs a kind's actions in their order
 * (act()), then the walker's descent; the statement kinds are the model's node kinds named
 * "...Stmt" (pgbind_raw_is_statement). The truncated query is pgbind_truncate's (truncate.c).
 *
 * CTEs as libpg_query 18 sees them: a statement's CTE names are listed when the statement is met
 * (before those of the subqueries it holds); a relation read under an unqualified name some CTE
 * has is that CTE, and left out, but in the body of a CTE of its name whose WITH is not RECURSIVE
 * (a CTE does not see itself there: the name is a table).
 *
 * libpg_query's choices kept, because equality with pg_query_summary is the contract: tables and
 * functions are listed each time they are met (no set); a function call in a SELECT's WHERE clause
 * is met twice (the clause is walked for its columns, then again); the walk of a WHERE clause for
 * its columns stops at the first sub-SELECT; RETURNING lists are not walked (18's
 * ReturningClause is not a kind the walker knows: so on 15 and 17 too); names are quoted as
 * quote_identifier quotes them (the linked parser's keywords). Where libpg_query's result is not
 * deterministic, pgbind's is: pg_query_summary writes the alias map in its hash table's order,
 * which changes from one process to the next; pgbind writes each alias once, in the order first
 * met, with the value last met (a map's). Entry points: pgbind_summary, pgbind_summary_sql.
 */
/* PostgreSQL's keyword list (the linked library's: libpg_query exports ScanKeywords), for quoting */
#include "postgres.h"

#include "common/keywords.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "raw_walk.h"

/* ---- Growing arrays in the arena ---------------------------------------------------------------- */

typedef struct {
	void *items;
	size_t n, cap;
} Vec;

typedef struct {
	pgbind_Arena *arena;
	bool oom;
} Mem;

/* Room for count more items of size bytes at the end of v: their address, NULL when out of memory. */
static void *vec_extend(Mem *m, Vec *v, size_t size, size_t count)
{
	if (m->oom)
		return NULL;
	if (v->n + count > v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 8;
		while (cap < v->n + count)
			cap *= 2;
		void *items = pgbind_Arena_Malloc(m->arena, cap * size);
		if (!items) {
			m->oom = true;
			return NULL;
		}
		if (v->n)
			memcpy(items, v->items, v->n * size);
		v->items = items;
		v->cap = cap;
	}
	void *at = (char *)v->items + size * v->n;
	v->n += count;
	return at;
}

static void *vec_push(Mem *m, Vec *v, size_t size)
{
	return vec_extend(m, v, size, 1);
}

/* len bytes appended to the byte vector b. */
static void put_raw(Mem *m, Vec *b, const void *data, size_t len)
{
	void *at = len ? vec_extend(m, b, 1, len) : NULL;
	if (at)
		memcpy(at, data, len);
}

static char *mem_strdup(Mem *m, const char *s, size_t len)
{
	char *out = m->oom ? NULL : pgbind_Arena_Malloc(m->arena, len + 1);
	if (!out) {
		m->oom = true;
		return NULL;
	}
	memcpy(out, s, len);
	out[len] = '\0';
	return out;
}

/* ---- Names --------------------------------------------------------------------------------------- */

/* PostgreSQL's quote_identifier: ident as is when it is lower case letters, digits and _ (not
 * first a digit) and no keyword but an unreserved one of the linked parser; else in double quotes,
 * inner ones doubled. Appended to b. */
static void put_quoted(Mem *m, Vec *b, const char *ident)
{
	bool safe = (ident[0] >= 'a' && ident[0] <= 'z') || ident[0] == '_';
	for (const char *p = ident; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			safe = false;
	if (safe) {
		int kw = ScanKeywordLookup(ident, &ScanKeywords);
		safe = kw < 0 || ScanKeywordCategories[kw] == UNRESERVED_KEYWORD;
	}
	if (safe) {
		put_raw(m, b, ident, strlen(ident));
		return;
	}
	put_raw(m, b, "\"", 1);
	for (const char *p = ident; *p; p++)
		put_raw(m, b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1); /* an inner quote doubled */
	put_raw(m, b, "\"", 1);
}

static void put_text(Mem *m, Vec *b, const char *s)
{
	put_raw(m, b, s, strlen(s));
}

static const char *vec_string(Mem *m, Vec *b)
{
	return m->oom ? NULL : mem_strdup(m, b->items ? b->items : "", b->n);
}

/* A RangeVar's name as pg_query_summary writes it: schema.relation, each quoted if need be. */
static const char *relation_name(Mem *m, const char *schema, const char *rel)
{
	Vec b = {0};
	if (schema) {
		put_quoted(m, &b, schema);
		put_text(m, &b, ".");
	}
	put_quoted(m, &b, rel ? rel : "");
	return vec_string(m, &b);
}

/* ---- The walk ------------------------------------------------------------------------------------ */

typedef struct {
	const char *schema, *rel;
	bool aliased; /* an alias given (its name alias, NULL written "") */
	const char *alias;
	pgbind_SummaryContext context;
	bool own_cte; /* read in the body of a CTE of its name, whose WITH is not RECURSIVE: a table */
} Relation;

typedef struct {
	Mem mem;
	const pgbind_RawForm *form;
	bool copy;      /* the tree goes before the summary does (PostgreSQL's): its strings are copied */
	Vec relations;  /* Relation, in the order met */
	Vec cte_names;  /* const char * */
	Vec functions;  /* pgbind_SummaryFunction */
	Vec filters;    /* pgbind_SummaryFilterColumn */
	Vec statements; /* const char * */
	Vec scope;      /* const char *: the CTEs whose bodies the walk is in, of WITHs not RECURSIVE */
	bool recursive; /* the WITH being walked is RECURSIVE */
	bool filtering; /* walking a SELECT's WHERE clause for its columns */
	bool naming;    /* in what libpg_query's statement walk reaches: statement kinds are named */
	pgbind_Status *status;
	bool failed;
} Walk;

/* A string of the tree as the summary keeps it: in the arena when the tree does not outlive it. */
static const char *keep(Walk *w, const char *s)
{
	return s && w->copy ? mem_strdup(&w->mem, s, strlen(s)) : s;
}

static const char *sval(Walk *w, const pgbind_Node *n)
{
	return pgbind_raw_sval(w->form, n);
}

static const pgbind_NodeRuleLine *line_of(Walk *w, const pgbind_Node *n, pgbind_NodeRule rule, pgbind_NodeAction action)
{
	return n ? pgbind_rule_line(w->form, n, rule, action) : NULL;
}

static void add_relation(Walk *w, const char *schema, const char *rel, const pgbind_Node *alias,
						 pgbind_SummaryContext context)
{
	bool own_cte = false;
	for (size_t i = 0; !schema && rel && i < w->scope.n && !own_cte; i++)
		own_cte = !strcmp(((const char **)w->scope.items)[i], rel);
	Relation *r = vec_push(&w->mem, &w->relations, sizeof *r);
	const char *alias_name = pgbind_line_string(w->form, alias, line_of(w, alias, PGBIND_NR_relation, PGBIND_NA_name));
	if (r)
		*r = (Relation){keep(w, schema), keep(w, rel), alias != NULL, keep(w, alias_name), context, own_cte};
}

static void add_from_item(Walk *w, const pgbind_Node *n, pgbind_SummaryContext context);

/* Each FROM item of line l's field of n (a node or a list). */
static void add_from_field(Walk *w, const pgbind_Node *n, const pgbind_NodeRuleLine *l, pgbind_SummaryContext context)
{
	size_t k;
	pgbind_Node *const *items = pgbind_line_list(w->form, n, l, &k);
	for (size_t i = 0; i < k; i++)
		add_from_item(w, items[i], context);
	add_from_item(w, pgbind_line_node(w->form, n, l), context);
}

/* libpg_query's add_range_var: a FROM item's relations (a relation: relation: lines; a join's
 * both sides, a sample's table: from_item: lines). */
static void add_from_item(Walk *w, const pgbind_Node *n, pgbind_SummaryContext context)
{
	const pgbind_NodeRuleLine *schema = line_of(w, n, PGBIND_NR_relation, PGBIND_NA_schema);
	if (schema) {
		add_relation(w, pgbind_line_string(w->form, n, schema),
					 pgbind_line_string(w->form, n, line_of(w, n, PGBIND_NR_relation, PGBIND_NA_name)),
					 pgbind_line_node(w->form, n, line_of(w, n, PGBIND_NR_relation, PGBIND_NA_alias)), context);
		return;
	}
	pgbind_NodeRules r = n ? pgbind_node_rules(w->form, n) : (pgbind_NodeRules){NULL, 0};
	for (size_t i = 0; i < r.n; i++)
		if (r.lines[i]->rule == PGBIND_NR_from_item)
			add_from_field(w, n, r.lines[i], context);
}

/* PostgreSQL's makeRangeVarFromNameList, for DROP TABLE's names: [[catalog.]schema.]relation. */
static void add_name_list(Walk *w, pgbind_Node *const *items, size_t n, pgbind_SummaryContext context)
{
	if (n == 0)
		return;
	if (n > 3) {
		w->failed = true;
		pgbind_fail(w->status, PGBIND_ERROR_INVALID, "improper relation name (too many dotted names)");
		return;
	}
	add_relation(w, n >= 2 ? sval(w, items[n - 2]) : NULL, sval(w, items[n - 1]), NULL, context);
}

static void put_function(Walk *w, const char *name, const char *function_name, const char *schema_name,
						 pgbind_SummaryContext context)
{
	pgbind_SummaryFunction *f = vec_push(&w->mem, &w->functions, sizeof *f);
	if (f)
		*f = (pgbind_SummaryFunction){name, function_name, schema_name, context};
}

/* PostgreSQL's NameListToString for the name, and its last part and the one before. */
static void add_function(Walk *w, pgbind_Node *const *names, size_t n, pgbind_SummaryContext context)
{
	if (n == 0)
		return;
	Vec b = {0};
	for (size_t i = 0; i < n; i++) {
		if (i)
			put_text(&w->mem, &b, ".");
		const char *part = sval(w, names[i]);
		put_text(&w->mem, &b, pgbind_raw_is_a_star(w->form, names[i]) ? "*" : part ? part : "");
	}
	put_function(w, vec_string(&w->mem, &b), keep(w, sval(w, names[n - 1])),
				 keep(w, n == 3   ? sval(w, names[1])
						 : n == 2 ? sval(w, names[0])
								  : NULL),
				 context);
}

/* The function a node names (function: lines: ObjectWithArgs), if it names one. */
static void add_named_function(Walk *w, const pgbind_Node *o, pgbind_SummaryContext context)
{
	const pgbind_NodeRuleLine *l = line_of(w, o, PGBIND_NR_function, PGBIND_NA_none);
	size_t n;
	pgbind_Node *const *names = pgbind_line_list(w->form, o, l, &n);
	if (l)
		add_function(w, names, n, context);
}

/* The names of a statement's CTEs (the WITH node with), recorded when the statement is met, before
 * the walk reaches what it holds (so a CTE of a subquery in its FROM list comes after them), as
 * libpg_query 18. */
static void add_cte_names(Walk *w, const pgbind_Node *with)
{
	size_t n;
	pgbind_Node *const *ctes = pgbind_line_list(w->form, with, line_of(w, with, PGBIND_NR_ctes, PGBIND_NA_none), &n);
	for (size_t i = 0; i < n; i++) {
		const pgbind_NodeRuleLine *l = line_of(w, ctes[i], PGBIND_NR_cte, PGBIND_NA_none);
		const char **name = l ? vec_push(&w->mem, &w->cte_names, sizeof *name) : NULL;
		if (name)
			*name = keep(w, pgbind_line_string(w->form, ctes[i], l));
	}
}

static bool summarize(pgbind_RawItem item, void *ctx);

/* libpg_query's statement walk, which the summary's walk holds (naming): each statement kind met,
 * once, in the order met. */
static void name_statement(Walk *w, const char *name)
{
	bool seen = false; /* one string a kind: compared by address */
	for (size_t i = 0; i < w->statements.n && !seen; i++)
		seen = ((const char **)w->statements.items)[i] == name;
	const char **slot = seen ? NULL : vec_push(&w->mem, &w->statements, sizeof *slot);
	if (slot)
		*slot = name;
}

/* Whether the walk is over: failed, out of memory, or out of stack (then failed, with the
 * message of PGBIND_STACK_MESSAGE: a tree as deep as the parser allows needs a large stack). */
static bool walk_ends(Walk *w)
{
	if (!w->failed && pgbind_stack_low()) {
		w->failed = true;
		pgbind_fail(w->status, PGBIND_ERROR_DEPTH, PGBIND_STACK_MESSAGE " (pgbind_summary)");
	}
	return w->failed || w->mem.oom;
}

/* Walks line l's field of n: a node, or a list. */
static void walk_field(Walk *w, const pgbind_Node *n, const pgbind_NodeRuleLine *l)
{
	size_t k;
	pgbind_Node *const *items = pgbind_line_list(w->form, n, l, &k);
	if (k)
		summarize((pgbind_RawItem){NULL, items, k}, w);
	pgbind_raw_offer(pgbind_line_node(w->form, n, l), summarize, w);
}

static void filter_column(Walk *w, pgbind_Node *const *fields, size_t n)
{
	const char *column = n ? sval(w, fields[n - 1]) : NULL;
	if (!column)
		return; /* a star */
	pgbind_SummaryFilterColumn *f = vec_push(&w->mem, &w->filters, sizeof *f);
	if (f)
		*f = (pgbind_SummaryFilterColumn){keep(w, n == 3 ? sval(w, fields[0]) : NULL),
										  keep(w, n == 3   ? sval(w, fields[1])
												  : n == 2 ? sval(w, fields[0])
														   : NULL),
										  keep(w, column)};
}

/* What the summary does with line l's field of n (schema/summary.txt's ACTIONs). relations and
 * functions: how many were recorded before n was met (the RENAME actions name what n recorded).
 * Returns whether it put a CTE name in scope. */
static bool act(Walk *w, const pgbind_Node *n, const pgbind_NodeRuleLine *l, size_t relations, size_t functions)
{
	size_t k;
	pgbind_Node *const *items = pgbind_line_list(w->form, n, l, &k);
	switch (l->action) {
	case PGBIND_NA_ctes:
		add_cte_names(w, pgbind_line_node(w->form, n, l));
		break;
	case PGBIND_NA_tables_select:
	case PGBIND_NA_tables_dml:
	case PGBIND_NA_tables_ddl:
		add_from_field(w, n, l,
					   l->action == PGBIND_NA_tables_select ? PGBIND_SUMMARY_SELECT
					   : l->action == PGBIND_NA_tables_dml  ? PGBIND_SUMMARY_DML
															: PGBIND_SUMMARY_DDL);
		break;
	case PGBIND_NA_name_lists_ddl:
	case PGBIND_NA_owner_name_lists_ddl:
		for (size_t i = 0; i < k; i++) {
			size_t m;
			pgbind_Node *const *names = pgbind_raw_list(w->form, items[i], &m);
			/* a rule's or trigger's last name is its own; the others name its table */
			bool owner = l->action == PGBIND_NA_owner_name_lists_ddl;
			if (names || m)
				add_name_list(w, names, m - (owner && m > 0), PGBIND_SUMMARY_DDL);
		}
		break;
	case PGBIND_NA_renamed_ddl:
		if (w->relations.n > relations)
			add_relation(w, ((const Relation *)w->relations.items)[w->relations.n - 1].schema,
						 pgbind_line_string(w->form, n, l), NULL, PGBIND_SUMMARY_DDL);
		break;
	case PGBIND_NA_function_call:
	case PGBIND_NA_function_ddl:
		add_function(w, items, k, l->action == PGBIND_NA_function_call ? PGBIND_SUMMARY_CALL : PGBIND_SUMMARY_DDL);
		break;
	case PGBIND_NA_functions_ddl:
	case PGBIND_NA_first_function_ddl:
		for (size_t i = 0; i < k && (i == 0 || l->action == PGBIND_NA_functions_ddl); i++)
			add_named_function(w, items[i], PGBIND_SUMMARY_DDL);
		add_named_function(w, pgbind_line_node(w->form, n, l), PGBIND_SUMMARY_DDL);
		break;
	case PGBIND_NA_renamed_function_ddl:
		if (w->functions.n > functions) {
			const char *name = keep(w, pgbind_line_string(w->form, n, l));
			put_function(w, name ? name : "", name ? name : "", NULL, PGBIND_SUMMARY_DDL);
		}
		break;
	case PGBIND_NA_walk: {
		/* the statement walk goes from a root to its statement, and into a statement's query
		 * (statements: lines), not into the other fields the summary walks (COPY's query) */
		bool naming = w->naming;
		const pgbind_RawKind *kind = pgbind_raw_kind(w->form, n);
		w->naming =
			naming && (pgbind_raw_root_stmt(w->form, n) || (kind->statements && kind->statements->field == l->field));
		walk_field(w, n, l);
		w->naming = naming;
		break;
	}
	case PGBIND_NA_filter:
		w->filtering = true;
		walk_field(w, n, l);
		w->filtering = false;
		break;
	case PGBIND_NA_filter_column:
		if (w->filtering)
			filter_column(w, items, k);
		break;
	case PGBIND_NA_cte_scope: {
		const char **name = w->recursive ? NULL : vec_push(&w->mem, &w->scope, sizeof *name);
		if (name)
			*name = pgbind_line_string(w->form, n, l);
		return name != NULL;
	}
	default:
		break;
	}
	return false;
}

/* libpg_query's pg_query_summary_walk_impl: what a node adds (its summary: lines, in order), then
 * the walker's descent, within the node's WITH (recursive:) and CTE (cte_scope) if it is one. */
static bool summarize(pgbind_RawItem item, void *ctx)
{
	Walk *w = ctx;
	if (walk_ends(w))
		return true;
	if (!item.node)
		return pgbind_raw_children(w->form, item, summarize, w);
	const pgbind_Node *n = item.node;
	const pgbind_RawKind *k = pgbind_raw_kind(w->form, n);
	if (w->filtering && k->filter_stop)
		return true; /* ends the walk of the WHERE clause for columns: libpg_query's choice */
	if (k->statement && w->naming && !w->filtering)
		name_statement(w, k->name);
	size_t relations = w->relations.n, functions = w->functions.n;
	bool recursive = w->recursive;
	size_t scoped = 0;
	for (size_t i = 0; i < k->n_acts; i++) {
		const pgbind_NodeRuleLine *l = k->acts[i];
		if (l->rule == PGBIND_NR_recursive)
			w->recursive = pgbind_line_bool(w->form, n, l);
		if (l->rule == PGBIND_NR_summary && pgbind_rule_holds(w->form, n, l))
			scoped += act(w, n, l, relations, functions);
	}
	bool stopped = pgbind_raw_descend(w->form, n, k, summarize, w);
	w->recursive = recursive;
	w->scope.n -= scoped;
	return stopped;
}

/* ---- The result ---------------------------------------------------------------------------------- */

static bool in_cte_names(const Walk *w, const char *rel)
{
	const char *const *names = w->cte_names.items;
	for (size_t i = 0; rel && i < w->cte_names.n; i++)
		if (names[i] && !strcmp(names[i], rel))
			return true;
	return false;
}

/* The relations met, less the references to CTEs (a relation read under an unqualified name that
 * some CTE has: one written or created keeps its place, as in libpg_query 18), and the aliases of
 * all (a CTE's too): one entry a key, the last value met. */
static void finish_relations(Walk *w, pgbind_Summary *s)
{
	Vec tables = {0}, aliases = {0};
	const Relation *rels = w->relations.items;
	for (size_t i = 0; i < w->relations.n && !w->mem.oom; i++) {
		const Relation *r = &rels[i];
		const char *name = relation_name(&w->mem, r->schema, r->rel);
		if (r->context != PGBIND_SUMMARY_SELECT || r->schema || r->own_cte || !in_cte_names(w, r->rel)) {
			pgbind_SummaryTable *t = vec_push(&w->mem, &tables, sizeof *t);
			if (t)
				*t = (pgbind_SummaryTable){name, r->schema, r->rel ? r->rel : "", r->context};
		}
		if (!r->aliased)
			continue;
		const char *key = r->alias ? r->alias : "";
		pgbind_SummaryAlias *a = aliases.items;
		size_t k = 0;
		while (k < aliases.n && strcmp(a[k].key, key))
			k++;
		pgbind_SummaryAlias *slot = k < aliases.n ? &a[k] : vec_push(&w->mem, &aliases, sizeof *slot);
		if (slot)
			*slot = (pgbind_SummaryAlias){key, name};
	}
	s->tables = tables.items;
	s->n_tables = tables.n;
	s->aliases = aliases.items;
	s->n_aliases = aliases.n;
}

/* The summary of the statements of top (a list of RawStmt) in form, no truncated query yet; NULL
 * with status on failure. */
static pgbind_Summary *summary_of(const pgbind_RawForm *form, bool copy, pgbind_RawItem top, pgbind_Arena *arena,
								  pgbind_Status *status)
{
	Walk w = {.mem = {arena, false}, .form = form, .copy = copy, .status = status, .naming = true};
	summarize(top, &w);
	if (w.failed)
		return NULL; /* status says why */
	pgbind_Summary *s = w.mem.oom ? NULL : pgbind_Arena_Malloc(arena, sizeof *s);
	if (s) {
		memset(s, 0, sizeof *s);
		finish_relations(&w, s);
		s->cte_names = w.cte_names.items;
		s->n_cte_names = w.cte_names.n;
		s->functions = w.functions.items;
		s->n_functions = w.functions.n;
		s->filter_columns = w.filters.items;
		s->n_filter_columns = w.filters.n;
		s->statement_types = w.statements.items;
		s->n_statement_types = w.statements.n;
	}
	if (!s || w.mem.oom) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return NULL;
	}
	return s;
}

static bool summary_arguments(bool given, int truncate_limit, const char *what, pgbind_Status *status)
{
	if (given && truncate_limit >= -1)
		return true;
	pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "%s: %s", what,
				truncate_limit < -1               ? "truncate_limit must be -1 (none) or at least 0"
				: !strcmp(what, "pgbind_summary") ? "tree and arena are required"
												  : "sql and arena are required");
	return false;
}

pgbind_Summary *pgbind_summary(const pgbind_ParseResult *tree, int truncate_limit, const pgbind_Options *options,
							   pgbind_Arena *arena, pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_summary(tree, truncate_limit, options, arena, status));
	if (!summary_arguments(tree && arena, truncate_limit, "pgbind_summary", status))
		return NULL;
	pgbind_RawItem top = {NULL, (pgbind_Node *const *)tree->stmts, tree->n_stmts};
	pgbind_Summary *s = summary_of(pgbind_raw_form(false), false, top, arena, status);
	if (s && truncate_limit >= 0 &&
		!(s->truncated_query = pgbind_truncate(tree, truncate_limit, options, arena, status)))
		return NULL;
	return s;
}

typedef struct {
	int truncate_limit;
	const pgbind_Options *options;
	pgbind_Arena *arena;
	pgbind_Status *status;
	pgbind_Summary *summary;
} FromSql;

/* The summary of PostgreSQL's raw parse tree, while it lives; the truncated query from pgbind's
 * tree, which the truncation writes a copy of and deparses. */
static bool summarize_raw(const void *raw_stmt_list, void *ctx)
{
	FromSql *q = ctx;
	const pgbind_RawForm *form = pgbind_raw_form(true);
	if (!form) {
		pgbind_fail(q->status, PGBIND_ERROR_INVALID, "pgbind_summary_sql: a PostgreSQL node tag beyond the form's");
		return false;
	}
	q->summary = summary_of(form, true, (pgbind_RawItem){raw_stmt_list, NULL, 0}, q->arena, q->status);
	if (q->summary && q->truncate_limit >= 0) {
		const pgbind_ParseResult *tree = pgbind_from_pg_parse_tree(raw_stmt_list, q->options, q->arena, q->status);
		q->summary->truncated_query =
			tree ? pgbind_truncate(tree, q->truncate_limit, q->options, q->arena, q->status) : NULL;
		q->summary = q->summary->truncated_query ? q->summary : NULL;
	}
	return q->summary != NULL;
}

pgbind_Summary *pgbind_summary_sql(const char *sql, int truncate_limit, const pgbind_Options *options,
								   pgbind_Arena *arena, pgbind_Status *status)
{
	PGBIND_OTHER_MAJOR(options, pgbind_major_summary_sql(sql, truncate_limit, options, arena, status));
	if (!summary_arguments(sql && arena, truncate_limit, "pgbind_summary_sql", status))
		return NULL;
	FromSql q = {truncate_limit, options, arena, status, NULL};
	return pgbind_with_raw_parse(sql, options, status, summarize_raw, &q) ? q.summary : NULL;
}

/* ---- Protobuf ------------------------------------------------------------------------------------ */

/* The bytes are written twice over: once counted (at NULL), then into one buffer of that size. */
typedef struct {
	uint8_t *at;
	size_t n;
} Out;

static void put_varint(Out *o, uint64_t v)
{
	do {
		if (o->at)
			o->at[o->n] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		o->n++;
		v >>= 7;
	} while (v);
}

static void put_bytes(Out *o, uint32_t field, const void *data, size_t len)
{
	put_varint(o, (uint64_t)field << 3 | 2);
	put_varint(o, len);
	if (o->at && len)
		memcpy(o->at + o->n, data, len);
	o->n += len;
}

/* A string field; proto3 leaves an empty one out, unless it is an element of a repeated field. */
static void put_string(Out *o, uint32_t field, const char *s, bool repeated)
{
	if (repeated || (s && *s))
		put_bytes(o, field, s ? s : "", s ? strlen(s) : 0);
}

static void put_enum(Out *o, uint32_t field, int v)
{
	if (v) {
		put_varint(o, (uint64_t)field << 3);
		put_varint(o, (uint64_t)v);
	}
}

static void put_fields(Out *o, const char *a, const char *b, const char *c, int context)
{
	put_string(o, 1, a, false);
	put_string(o, 2, b, false);
	put_string(o, 3, c, false);
	put_enum(o, 4, context);
}

/* One element of a repeated message field: SummaryResult's Table, Alias, Function, FilterColumn
 * (fields 1 to 3 strings, 4 the context). */
static void put_element(Out *o, uint32_t field, const char *a, const char *b, const char *c, int context)
{
	Out size = {NULL, 0};
	put_fields(&size, a, b, c, context);
	put_varint(o, (uint64_t)field << 3 | 2);
	put_varint(o, size.n);
	if (o->at)
		put_fields(o, a, b, c, context);
	else
		o->n += size.n;
}

static void put_summary(Out *o, const pgbind_Summary *s)
{
	for (size_t i = 0; i < s->n_tables; i++) {
		const pgbind_SummaryTable *t = &s->tables[i];
		put_element(o, 1, t->name, t->schema_name, t->table_name, t->context);
	}
	for (size_t i = 0; i < s->n_aliases; i++)
		put_element(o, 2, s->aliases[i].key, s->aliases[i].value, NULL, 0);
	for (size_t i = 0; i < s->n_cte_names; i++)
		put_string(o, 3, s->cte_names[i], true);
	for (size_t i = 0; i < s->n_functions; i++) {
		const pgbind_SummaryFunction *f = &s->functions[i];
		put_element(o, 4, f->name, f->function_name, f->schema_name, f->context);
	}
	for (size_t i = 0; i < s->n_filter_columns; i++) {
		const pgbind_SummaryFilterColumn *c = &s->filter_columns[i];
		put_element(o, 5, c->schema_name, c->table_name, c->column, 0);
	}
	for (size_t i = 0; i < s->n_statement_types; i++)
		put_string(o, 6, s->statement_types[i], true);
	put_string(o, 7, s->truncated_query, false);
}

bool pgbind_summary_encode(const pgbind_Summary *s, pgbind_Arena *arena, const uint8_t **data, size_t *len,
						   pgbind_Status *status)
{
	if (!s || !arena || !data || !len) {
		pgbind_fail(status, PGBIND_ERROR_ARGUMENT, "pgbind_summary_encode: summary, arena, data and len are required");
		return false;
	}
	Out o = {NULL, 0};
	put_summary(&o, s);
	uint8_t *bytes = pgbind_Arena_Malloc(arena, o.n ? o.n : 1);
	if (!bytes) {
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory");
		return false;
	}
	size_t n = o.n;
	o = (Out){bytes, 0};
	put_summary(&o, s);
	*data = bytes;
	*len = n;
	return true;
}
