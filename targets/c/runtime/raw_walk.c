/*
 * raw_walk.c -- PostgreSQL's raw_expression_tree_walker over pgbind trees (raw_walk.h). What it
 * walks is PostgreSQL's knowledge, not pgbind's model: it is data here (raw_rules, from PostgreSQL
 * 17's nodeFuncs.c and libpg_query's pg_query_raw_tree_walker_supports()), its names resolved once
 * against the linked major's descriptor tables (pgbind_reflect.h): a kind or field this major lacks
 * is skipped, so one table serves 15, 17 and 18.
 */
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "raw_walk.h"

/* A kind it walks, and its fields in the walker's order. "*f": f's elements are not offered: each
 * one's own fields are walked in its place (CaseExpr.args' CaseWhens). RETURNING is left out (see
 * above). */
typedef struct {
	const char *kind;
	const char *fields;
} RawRule;

static const RawRule raw_rules[] = {
	{"JsonFormat", ""},
	{"SetToDefault", ""},
	{"CurrentOfExpr", ""},
	{"SQLValueFunction", ""},
	{"Integer", ""},
	{"Float", ""},
	{"Boolean", ""},
	{"String", ""},
	{"BitString", ""},
	{"ParamRef", ""},
	{"A_Const", ""},
	{"A_Star", ""},
	{"MergeSupportFunc", ""},
	{"Alias", ""},
	{"RangeVar", "alias"},
	{"GroupingFunc", "args"},
	{"SubLink", "testexpr subselect"},
	{"CaseExpr", "arg *args defresult"},
	{"RowExpr", "args"},
	{"CoalesceExpr", "args"},
	{"MinMaxExpr", "args"},
	{"XmlExpr", "named_args args"},
	{"JsonReturning", "format"},
	{"JsonValueExpr", "raw_expr formatted_expr format"},
	{"JsonParseExpr", "expr output"},
	{"JsonScalarExpr", "expr output"},
	{"JsonSerializeExpr", "expr output"},
	{"JsonConstructorExpr", "args func coercion returning"},
	{"JsonIsPredicate", "expr"},
	{"JsonArgument", "val"},
	{"JsonFuncExpr", "context_item pathspec passing output on_empty on_error"},
	{"JsonBehavior", "expr"},
	{"JsonTable", "context_item pathspec passing columns on_error"},
	{"JsonTableColumn", "typeName on_empty on_error columns"},
	{"JsonTablePathSpec", "string"},
	{"NullTest", "arg"},
	{"BooleanTest", "arg"},
	{"JoinExpr", "larg rarg quals alias"},
	{"IntoClause", "rel viewQuery"},
	{"InsertStmt", "relation cols selectStmt onConflictClause withClause"},
	{"DeleteStmt", "relation usingClause whereClause withClause"},
	{"UpdateStmt", "relation targetList whereClause fromClause withClause"},
	{"MergeStmt", "relation sourceRelation joinCondition mergeWhenClauses withClause"},
	{"MergeWhenClause", "condition targetList values"},
	{"SelectStmt", "distinctClause intoClause targetList fromClause whereClause groupClause havingClause "
				   "windowClause valuesLists sortClause limitOffset limitCount lockingClause withClause larg rarg"},
	{"PLAssignStmt", "indirection val"},
	{"A_Expr", "lexpr rexpr"},
	{"BoolExpr", "args"},
	{"ColumnRef", ""},
	{"FuncCall", "args agg_order agg_filter over"},
	{"NamedArgExpr", "arg"},
	{"A_Indices", "lidx uidx"},
	{"A_Indirection", "arg indirection"},
	{"A_ArrayExpr", "elements"},
	{"ResTarget", "indirection val"},
	{"MultiAssignRef", "source"},
	{"TypeCast", "arg typeName"},
	{"CollateClause", "arg"},
	{"SortBy", "node"},
	{"WindowDef", "partitionClause orderClause startOffset endOffset"},
	{"RangeSubselect", "subquery alias"},
	{"RangeFunction", "functions alias coldeflist"},
	{"RangeTableSample", "relation args repeatable"},
	{"RangeTableFunc", "docexpr rowexpr namespaces columns alias"},
	{"RangeTableFuncCol", "colexpr coldefexpr"},
	{"TypeName", "typmods arrayBounds"},
	{"ColumnDef", "typeName raw_default collClause"},
	{"IndexElem", "expr"},
	{"GroupingSet", "content"},
	{"LockingClause", "lockedRels"},
	{"XmlSerialize", "expr typeName"},
	{"WithClause", "ctes"},
	{"InferClause", "indexElems whereClause"},
	{"OnConflictClause", "infer targetList whereClause"},
	{"CommonTableExpr", "ctequery"},
	{"JsonOutput", "typeName returning"},
	{"JsonKeyValue", "key value"},
	{"JsonObjectConstructor", "output exprs"},
	{"JsonArrayConstructor", "output exprs"},
	{"JsonAggConstructor", "output agg_order agg_filter over"},
	{"JsonObjectAgg", "constructor arg"},
	{"JsonArrayAgg", "constructor arg"},
	{"JsonArrayQueryConstructor", "output query"},
};

/* Walked in place of their element, never offered (see "*f"). */
static const RawRule raw_through_rules[] = {{"CaseWhen", "expr result"}};

/* The statement kinds pg_query_summary does not name in statement_types (every other kind named
 * "...Stmt" it names): RawStmt is the wrapper, the others its list leaves out. */
static const char *const unnamed_statements[] = {"RawStmt", "ReturnStmt", "PLAssignStmt",
												 "AlterDatabaseRefreshCollStmt", "PlannedStmt"};

#define MAX_RAW_FIELDS 16

typedef struct {
	bool walked;  /* a kind the walker knows (it descends into it) */
	bool through; /* a kind walked in place of itself (CaseWhen) */
	bool statement;
	uint8_t n;
	const pgbind_FieldDesc *fields[MAX_RAW_FIELDS];
	bool field_through[MAX_RAW_FIELDS];
} KindRule;

static KindRule kind_rules[PGBIND_NODE_TAG_LIMIT];
static pthread_once_t kind_rules_once = PTHREAD_ONCE_INIT;

static const pgbind_FieldDesc *field_named(const pgbind_MessageDesc *d, const char *name, size_t len)
{
	for (uint32_t i = 0; i < d->n_fields; i++)
		if (strlen(d->fields[i].name) == len && !memcmp(d->fields[i].name, name, len))
			return &d->fields[i];
	return NULL;
}

static void resolve(const RawRule *r, bool through)
{
	const pgbind_MessageDesc *d = pgbind_message_desc_by_name(r->kind);
	if (!d || !d->tag || d->tag >= PGBIND_NODE_TAG_LIMIT)
		return; /* a kind this major lacks */
	KindRule *k = &kind_rules[d->tag];
	k->walked = !through;
	k->through = through;
	for (const char *s = r->fields; *s;) {
		while (*s == ' ')
			s++;
		bool each = *s == '*';
		s += each;
		size_t len = strcspn(s, " ");
		const pgbind_FieldDesc *f = len ? field_named(d, s, len) : NULL;
		if (f && k->n < MAX_RAW_FIELDS) {
			k->field_through[k->n] = each;
			k->fields[k->n++] = f;
		}
		s += len;
	}
}

static void resolve_all(void)
{
	for (size_t i = 0; i < sizeof raw_rules / sizeof raw_rules[0]; i++)
		resolve(&raw_rules[i], false);
	for (size_t i = 0; i < sizeof raw_through_rules / sizeof raw_through_rules[0]; i++)
		resolve(&raw_through_rules[i], true);
	kind_rules[PGBIND_T_List].walked = true;
	for (uint32_t tag = 1; tag < PGBIND_NODE_TAG_LIMIT; tag++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(tag);
		size_t len = d ? strlen(d->name) : 0;
		bool stmt = len > 4 && !strcmp(d->name + len - 4, "Stmt");
		for (size_t i = 0; stmt && i < sizeof unnamed_statements / sizeof unnamed_statements[0]; i++)
			stmt = strcmp(d->name, unnamed_statements[i]) != 0;
		kind_rules[tag].statement = stmt;
	}
}

static const KindRule *rule_of(const pgbind_Node *n)
{
	static const KindRule none;
	return n->tag > 0 && n->tag < PGBIND_NODE_TAG_LIMIT ? &kind_rules[n->tag] : &none;
}

bool pgbind_raw_offer(const pgbind_Node *n, pgbind_RawFn fn, void *ctx)
{
	return n && fn((pgbind_RawItem){n, NULL, 0}, ctx);
}

static bool raw_fields(const pgbind_Node *node, const KindRule *k, pgbind_RawFn fn, void *ctx);

/* raw_expression_tree_walker: fn on each child of item the walker visits; true when fn stopped it. */
bool pgbind_raw_children(pgbind_RawItem item, pgbind_RawFn fn, void *ctx)
{
	pthread_once(&kind_rules_once, resolve_all);
	if (item.node && item.node->tag == PGBIND_T_List) {
		const pgbind_List *l = (const pgbind_List *)item.node;
		item = (pgbind_RawItem){NULL, l->items, l->n_items};
	}
	if (!item.node) {
		for (size_t i = 0; i < item.n; i++)
			if (pgbind_raw_offer(item.items[i], fn, ctx))
				return true;
		return false;
	}
	return raw_fields(item.node, rule_of(item.node), fn, ctx);
}

static bool raw_fields(const pgbind_Node *node, const KindRule *k, pgbind_RawFn fn, void *ctx)
{
	const char *base = (const char *)node;
	for (uint8_t i = 0; i < k->n; i++) {
		const pgbind_FieldDesc *f = k->fields[i];
		const void *p = base + f->offset;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_MESSAGE:
		case PGBIND_WIRE_ONEOF:
			if (pgbind_raw_offer(*(const pgbind_Node *const *)p, fn, ctx))
				return true;
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			size_t n = *(const size_t *)(base + f->count_offset);
			pgbind_Node *const *items = *(pgbind_Node *const *const *)p;
			if (!n)
				break; /* NIL: the walker offers NULL, which no callback looks at */
			if (!k->field_through[i]) {
				if (fn((pgbind_RawItem){NULL, items, n}, ctx))
					return true;
				break;
			}
			for (size_t j = 0; j < n; j++)
				if (items[j] && raw_fields(items[j], rule_of(items[j]), fn, ctx))
					return true;
			break;
		}
		default:
			break;
		}
	}
	return false;
}

bool pgbind_raw_walked(pgbind_RawItem item)
{
	pthread_once(&kind_rules_once, resolve_all);
	return !item.node || rule_of(item.node)->walked;
}

bool pgbind_raw_is_statement(const pgbind_Node *node)
{
	pthread_once(&kind_rules_once, resolve_all);
	return rule_of(node)->statement;
}
