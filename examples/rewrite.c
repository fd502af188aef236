/*
 * rewrite.c -- change a query and print it back as SQL.
 *
 *     $ echo "SELECT id, secret FROM users WHERE users.name = 'ann' LIMIT 5" |
 *           rewrite --rename-table users=customers --drop-column secret --parameterize
 *     SELECT id FROM customers WHERE customers.name = $1 LIMIT $2
 *
 * A second tour of pgbind: parse (pgbind_parse), edit the tree with pgbind_ParseResult_mutate(),
 * print it with pgbind_deparse() (libpg_query's deparser). The mutate callback is offered every
 * child slot of the tree in turn, as a pgbind_Child: the node in the slot plus where the slot is
 * (parent node, field name, position in a list). It can
 *
 *   - edit the node in place (its fields are plain C struct members): --rename-table;
 *   - empty the slot (child->remove, or child->node = NULL): --strip-where;
 *   - remove a list element (child->remove, the list closes up): --drop-column;
 *   - replace the node by a new one, allocated in the tree's arena: --parameterize.
 *
 * Replacements are type-checked: a slot declared as, say, a RangeVar (InsertStmt.relation) only
 * takes a RangeVar, and pgbind_ParseResult_mutate fails with a message instead of building a
 * tree the deparser would choke on.
 *
 * Usage: rewrite [--rename-table OLD=NEW] [--strip-where] [--drop-column NAME] [--parameterize] [FILE|-]
 *   --rename-table OLD=NEW  tables named OLD (any schema) become NEW, and so do OLD.column references
 *   --strip-where           remove the WHERE clause of every SELECT, UPDATE and DELETE
 *   --drop-column NAME      remove the SELECT-list entries that are the column NAME
 *   --parameterize          replace constants by parameters $1, $2, ... (numbered in text order;
 *                           type modifiers such as varchar(20) are left alone)
 * Build: cc -std=c11 -Itargets/c/runtime -Itargets/c/generated/pg15 examples/rewrite.c build/libpgbind.a -lpg_query
 */
#include "pgbind.h"
#include "pgbind_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Rewrite {
	/* the options */
	const char *old_name, *new_name; /* --rename-table */
	bool strip_where;
	const char *drop_column;
	bool parameterize;

	/* state */
	pgbind_Arena *arena;      /* the tree's arena: new nodes go there and live as long as the tree */
	pgbind_ParamRef **params; /* --parameterize: the ParamRefs made so far, numbered at the end */
	size_t n_params, cap_params;
} Rewrite;

/* The last name of a column reference (the column of "t.col"), or NULL for "*" or "t.*". */
static const char *column_name(const pgbind_Node *node)
{
	if (!node || node->tag != PGBIND_T_ColumnRef)
		return NULL;
	const pgbind_ColumnRef *ref = (const pgbind_ColumnRef *)node;
	const pgbind_Node *last = ref->n_fields ? ref->fields[ref->n_fields - 1] : NULL;
	return last && last->tag == PGBIND_T_String ? ((const pgbind_String *)last)->sval : NULL;
}

/* The mutate callback, offered every child slot of the tree. Returns true to stop (we never do). */
static bool rewrite(pgbind_Child *child, void *arg)
{
	Rewrite *rw = arg;
	pgbind_Node *node = child->node;

	/* --rename-table: a table reference is a RangeVar; edit its name in place. The new string is
	 * argv's, which outlives the tree; a string that did not, would go into the arena. */
	if (rw->old_name && node->tag == PGBIND_T_RangeVar) {
		pgbind_RangeVar *rv = (pgbind_RangeVar *)node;
		if (rv->relname && strcmp(rv->relname, rw->old_name) == 0)
			rv->relname = rw->new_name;
	}
	/* ... and a column reference qualified by the table's name (users.name) follows it: the
	 * qualifier is the String just before the column name. */
	if (rw->old_name && node->tag == PGBIND_T_ColumnRef) {
		pgbind_ColumnRef *ref = (pgbind_ColumnRef *)node;
		pgbind_Node *qualifier = ref->n_fields >= 2 ? ref->fields[ref->n_fields - 2] : NULL;
		if (qualifier && qualifier->tag == PGBIND_T_String &&
			strcmp(((pgbind_String *)qualifier)->sval, rw->old_name) == 0)
			((pgbind_String *)qualifier)->sval = rw->new_name;
	}

	/* --strip-where: the slot is a WHERE clause when the field is called so and the parent is a
	 * query (other nodes, e.g. CREATE INDEX, have whereClause fields too). Emptying a single
	 * slot: remove (or child->node = NULL). */
	if (rw->strip_where && strcmp(child->field, "whereClause") == 0 && child->parent &&
		(child->parent->tag == PGBIND_T_SelectStmt || child->parent->tag == PGBIND_T_UpdateStmt ||
		 child->parent->tag == PGBIND_T_DeleteStmt)) {
		child->remove = true;
		return false;
	}

	/* --drop-column: an element of a SELECT's target list (a ResTarget) whose value is the column.
	 * remove takes the element out of the list; the ones after it move up. */
	if (rw->drop_column && child->repeated && strcmp(child->field, "targetList") == 0 && child->parent &&
		child->parent->tag == PGBIND_T_SelectStmt && node->tag == PGBIND_T_ResTarget) {
		const char *column = column_name(((pgbind_ResTarget *)node)->val);
		if (column && strcmp(column, rw->drop_column) == 0) {
			child->remove = true;
			return false;
		}
	}

	/* --parameterize: replace each constant (A_Const) with a new ParamRef node. It is allocated in
	 * the tree's arena, like every node of the tree; numbers are given once we have them all. */
	if (rw->parameterize && node->tag == PGBIND_T_A_Const) {
		pgbind_ParamRef *param = pgbind_Arena_Malloc(rw->arena, sizeof *param);
		if (!param) {
			fprintf(stderr, "rewrite: out of memory\n");
			exit(1);
		}
		*param = (pgbind_ParamRef){
			.tag = PGBIND_T_ParamRef,
			.location = ((pgbind_A_Const *)node)->location,
		};
		child->node = (pgbind_Node *)param; /* the walker checks the slot takes a ParamRef */

		if (rw->n_params == rw->cap_params) {
			rw->cap_params = rw->cap_params ? rw->cap_params * 2 : 16;
			rw->params = realloc(rw->params, rw->cap_params * sizeof *rw->params);
			if (!rw->params) {
				fprintf(stderr, "rewrite: out of memory\n");
				exit(1);
			}
		}
		rw->params[rw->n_params++] = param;
	}
	/* Constants in a type's modifiers (varchar(20), numeric(10, 2)) are part of the type: do
	 * not descend into type names. */
	if (node->tag == PGBIND_T_TypeName)
		child->descend = false;
	return false;
}

/* Parameters are numbered in the order they appear in the text: the walk's order is the
 * field order, which puts, e.g., a WITH clause after the statement that owns it. */
static int by_location(const void *a, const void *b)
{
	int32_t la = (*(pgbind_ParamRef *const *)a)->location, lb = (*(pgbind_ParamRef *const *)b)->location;
	return (la > lb) - (la < lb);
}

/* The whole of a file (or stdin for "-") as a NUL-terminated string, or NULL. */
static char *read_all(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t len = 0, cap = 4096;
	char *text = malloc(cap);
	while (text) {
		size_t got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
		if (cap - len - 1 == 0) {
			char *grown = realloc(text, cap *= 2);
			if (!grown)
				free(text);
			text = grown;
		}
	}
	bool failed = !text || ferror(f);
	if (f != stdin)
		fclose(f);
	if (failed) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

static int usage(void)
{
	fprintf(stderr, "usage: rewrite [--rename-table OLD=NEW] [--strip-where] [--drop-column NAME] "
					"[--parameterize] [FILE|-]\n");
	return 2;
}

int main(int argc, char **argv)
{
	Rewrite rw = {0};
	const char *path = "-";
	char *rename = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rename-table") == 0 && i + 1 < argc && strchr(argv[i + 1], '='))
			rename = argv[++i];
		else if (strcmp(argv[i], "--strip-where") == 0)
			rw.strip_where = true;
		else if (strcmp(argv[i], "--drop-column") == 0 && i + 1 < argc)
			rw.drop_column = argv[++i];
		else if (strcmp(argv[i], "--parameterize") == 0)
			rw.parameterize = true;
		else if ((argv[i][0] != '-' || strcmp(argv[i], "-") == 0) && i == argc - 1)
			path = argv[i];
		else
			return usage();
	}
	if (rename) {
		char *eq = strchr(rename, '=');
		*eq = '\0';
		rw.old_name = rename;
		rw.new_name = eq + 1;
		if (!*rw.old_name || !*rw.new_name)
			return usage();
	}

	char *sql = read_all(path);
	if (!sql) {
		perror(path);
		return 1;
	}

	/* 1. Parse into the arena. */
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	int rc = 1;
	pgbind_ParseResult *tree = pgbind_parse(sql, NULL, arena, &status);
	if (!tree) {
		fprintf(stderr, "rewrite: %s: %s (at character %d)\n", path, status.message, status.cursorpos);
		goto out;
	}

	/* 2. Rewrite: offer every slot of every statement to rewrite(). */
	rw.arena = arena;
	if (pgbind_ParseResult_mutate(tree, rewrite, &rw, &status) == PGBIND_WALK_FAILED) {
		fprintf(stderr, "rewrite: %s\n", status.message);
		goto out;
	}
	if (rw.n_params > 0)
		qsort(rw.params, rw.n_params, sizeof *rw.params, by_location);
	for (size_t i = 0; i < rw.n_params; i++)
		rw.params[i]->number = (int32_t)(i + 1);

	/* 3. Deparse: SQL text for the edited tree, in the arena. */
	const char *out = pgbind_deparse(tree, NULL, arena, &status);
	if (!out) {
		fprintf(stderr, "rewrite: cannot deparse the result: %s\n", status.message);
		goto out;
	}
	printf("%s\n", out);
	rc = 0;
out:
	free(rw.params);
	pgbind_Arena_Free(arena);
	free(sql);
	return rc;
}
