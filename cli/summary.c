/*
 * summary.c -- `pgbind summary`'s output: a pgbind_Summary as one line of JSON, with the field
 * names of pg_query.SummaryResult (targets/c/runtime/summary.proto).
 */
#include "cli.h"
#include "pgbind.h"

#include <stdio.h>

static void put_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p == '\r')
			fputs("\\r", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			putc(*p, out);
	}
	putc('"', out);
}

static const char *context_name(pgbind_SummaryContext c)
{
	static const char *const names[] = {"None", "Select", "DML", "DDL", "Call"};
	return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "None";
}

/* "key":value pairs, each after a comma but the first of an object. */
static void key(FILE *out, const char *name, bool first)
{
	fprintf(out, "%s\"%s\":", first ? "" : ",", name);
}

static void strings(FILE *out, const char *const *items, size_t n)
{
	putc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', out);
		put_string(out, items[i]);
	}
	putc(']', out);
}

void cli_print_summary_json(const pgbind_Summary *s, FILE *out)
{
	fputs("{\"tables\":[", out);
	for (size_t i = 0; i < s->n_tables; i++) {
		const pgbind_SummaryTable *t = &s->tables[i];
		fputs(i ? ",{" : "{", out);
		key(out, "name", true), put_string(out, t->name);
		key(out, "schema_name", false), put_string(out, t->schema_name);
		key(out, "table_name", false), put_string(out, t->table_name);
		key(out, "context", false), put_string(out, context_name(t->context));
		putc('}', out);
	}
	fputs("],\"aliases\":{", out);
	for (size_t i = 0; i < s->n_aliases; i++) {
		if (i)
			putc(',', out);
		put_string(out, s->aliases[i].key);
		putc(':', out);
		put_string(out, s->aliases[i].value);
	}
	putc('}', out);
	key(out, "cte_names", false), strings(out, s->cte_names, s->n_cte_names);
	key(out, "functions", false);
	putc('[', out);
	for (size_t i = 0; i < s->n_functions; i++) {
		const pgbind_SummaryFunction *f = &s->functions[i];
		fputs(i ? ",{" : "{", out);
		key(out, "name", true), put_string(out, f->name);
		key(out, "function_name", false), put_string(out, f->function_name);
		key(out, "schema_name", false), put_string(out, f->schema_name);
		key(out, "context", false), put_string(out, context_name(f->context));
		putc('}', out);
	}
	putc(']', out);
	key(out, "filter_columns", false);
	putc('[', out);
	for (size_t i = 0; i < s->n_filter_columns; i++) {
		const pgbind_SummaryFilterColumn *c = &s->filter_columns[i];
		fputs(i ? ",{" : "{", out);
		key(out, "schema_name", true), put_string(out, c->schema_name);
		key(out, "table_name", false), put_string(out, c->table_name);
		key(out, "column", false), put_string(out, c->column);
		putc('}', out);
	}
	putc(']', out);
	key(out, "statement_types", false), strings(out, s->statement_types, s->n_statement_types);
	key(out, "truncated_query", false), put_string(out, s->truncated_query);
	putc('}', out);
}
