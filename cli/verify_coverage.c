/*
 * verify_coverage.c -- `pgbind verify --coverage=FILE`: which node kinds and fields the statements
 * set, written as one line each (kind <name> exercised|not-exercised, field <message>.<field> ...).
 * Depends on the runtime's descriptors (pgbind_reflect.h); entry points in cli/verify.h.
 */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

static void cover_message(Verify *v, int mi, const void *msg, int depth);

static void cover_node(Verify *v, const pgbind_Node *n, int depth)
{
	if (!n)
		return;
	const pgbind_MessageDesc *d = pgbind_node_desc(n->tag);
	if (d)
		cover_message(v, (int)(d - pgbind_message_descs), n, depth + 1);
}

static void cover_message(Verify *v, int mi, const void *msg, int depth)
{
	if (depth > 100000)
		return;
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	const char *base = msg;
	v->msg_seen[mi] = true;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		bool set = false;
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_ENUM:
			set = *(const int32_t *)p != 0;
			break;
		case PGBIND_WIRE_UINT32:
			set = *(const uint32_t *)p != 0;
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
			set = *(const uint64_t *)p != 0;
			break;
		case PGBIND_WIRE_BOOL:
			set = *(const bool *)p;
			break;
		case PGBIND_WIRE_DOUBLE:
			set = *(const double *)p != 0;
			break;
		case PGBIND_WIRE_STRING:
			set = *(const char *const *)p && (*(const char *const *)p)[0] != '\0';
			break;
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			set = *(const pgbind_Node *const *)p != NULL;
			cover_node(v, *(const pgbind_Node *const *)p, depth);
			break;
		case PGBIND_WIRE_MESSAGE:
			set = *(const void *const *)p != NULL;
			if (set)
				cover_message(v, f->type_index, *(const void *const *)p, depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			set = n > 0;
			for (size_t k = 0; k < n; k++)
				cover_node(v, (*(pgbind_Node *const *const *)p)[k], depth);
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			set = n > 0;
			for (size_t k = 0; k < n; k++)
				if ((*(const void *const *const *)p)[k])
					cover_message(v, f->type_index, (*(const void *const *const *)p)[k], depth + 1);
			break;
		case PGBIND_WIRE_PACKED_UINT64:
			set = n > 0;
			break;
		}
		if (set)
			v->field_seen[mi][i] = true;
	}
}

bool verify_write_coverage(Verify *v, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return false;
	}
	int kinds = 0, kinds_seen = 0, fields = 0, fields_seen = 0;
	fprintf(f, "# pgbind verify coverage: node kinds and fields the statements set\n");
	fprintf(f, "# kind <name> exercised|not-exercised\n# field <message>.<field> exercised|not-exercised\n");
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (d->tag == 0)
			continue;
		kinds++;
		kinds_seen += v->msg_seen[m];
		fprintf(f, "kind %s %s\n", d->name, v->msg_seen[m] ? "exercised" : "not-exercised");
	}
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (d->tag == 0 || !v->msg_seen[m])
			continue;
		for (uint32_t i = 0; i < d->n_fields; i++) {
			fields++;
			fields_seen += v->field_seen[m][i];
			fprintf(f, "field %s.%s %s\n", d->name, d->fields[i].name,
					v->field_seen[m][i] ? "exercised" : "not-exercised");
		}
	}
	fprintf(f, "# %d of %d node kinds exercised; %d of %d fields of exercised kinds set\n", kinds_seen, kinds,
			fields_seen, fields);
	fclose(f);
	printf("coverage: %d of %d node kinds, %d of %d fields of those kinds -> %s\n", kinds_seen, kinds, fields_seen,
		   fields, path);
	return true;
}

void verify_cover(Verify *v, const pgbind_ParseResult *tree)
{
	cover_message(v, (int)(pgbind_message_desc_by_name("ParseResult") - pgbind_message_descs), tree, 0);
}
