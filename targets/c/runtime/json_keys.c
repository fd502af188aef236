/*
 * json_keys.c -- what the JSON writer and reader share (json_internal.h): the key tables, derived
 * from the descriptor tables once per process, and field paths for error messages.
 */
#include "json_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- field paths for error messages ------------------------------------------------------------ */

void pgbind_json_path_init(Path *p)
{
	p->start = sizeof p->buf - 1;
	p->buf[p->start] = '\0';
	p->truncated = false;
}

void pgbind_json_path_prepend(Path *p, const char *s, size_t n)
{
	if (p->truncated || n > p->start) {
		p->truncated = true;
		return;
	}
	p->start -= n;
	memcpy(p->buf + p->start, s, n);
}

/* ".name" or ".name[index]" (index < 0: none). Errors only: out of line. */
__attribute__((noinline)) void pgbind_json_path_field(Path *p, const char *name, long index)
{
	if (index >= 0) {
		char tmp[24];
		int n = snprintf(tmp, sizeof tmp, "[%ld]", index);
		pgbind_json_path_prepend(p, tmp, (size_t)n);
	}
	pgbind_json_path_prepend(p, name, strlen(name));
	pgbind_json_path_prepend(p, ".", 1);
}

/* "[k]" */
__attribute__((noinline)) void pgbind_json_path_index(Path *path, size_t k)
{
	char idx[24];
	int len = snprintf(idx, sizeof idx, "[%zu]", k);
	pgbind_json_path_prepend(path, idx, (size_t)len);
}

const char *pgbind_json_path_text(Path *p)
{
	if (!p->truncated)
		pgbind_json_path_prepend(p, "ParseResult", 11);
	if (p->truncated) {
		if (p->start >= 3) {
			p->start -= 3;
			memcpy(p->buf + p->start, "...", 3);
		}
	}
	return p->buf + p->start;
}

/* ---- the key tables ---------------------------------------------------------------------------- */

char *pgbind_json_key_text;
FieldInfo *pgbind_json_field_info;
uint32_t pgbind_json_field_base[PGBIND_MESSAGE_COUNT]; /* a message's first FieldInfo */
uint32_t pgbind_json_kind_key[PGBIND_MESSAGE_COUNT];   /* offset in pgbind_json_key_text of {"Kind": */
uint16_t pgbind_json_kind_name_len[PGBIND_MESSAGE_COUNT];
int16_t pgbind_json_kind_hash[JSON_KIND_HASH_SIZE]; /* message index + 1; 0: empty */
const pgbind_MessageDesc *pgbind_json_parse_result_desc;
static atomic_bool tables_ready;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

uint32_t pgbind_json_name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Builds the tables, or leaves everything unset when out of memory (the next call tries again). */
static void build_tables(void)
{
	size_t n_fields = 0, text = 0;
	memset(pgbind_json_kind_hash, 0, sizeof pgbind_json_kind_hash);
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		pgbind_json_field_base[m] = (uint32_t)n_fields;
		if (!d->name) /* the table may end in unused, zeroed entries */
			continue;
		n_fields += d->n_fields;
		text += strlen(d->name) + 4;
		for (uint32_t i = 0; i < d->n_fields; i++)
			text += strlen(d->fields[i].name) + 4;
	}
	pgbind_json_key_text = malloc(text + 1); /* sprintf's last NUL */
	pgbind_json_field_info = malloc((n_fields ? n_fields : 1) * sizeof *pgbind_json_field_info);
	if (!pgbind_json_key_text || !pgbind_json_field_info || text > UINT32_MAX ||
		PGBIND_NODE_KIND_COUNT > JSON_KIND_HASH_SIZE / 2) {
		free(pgbind_json_key_text);
		free(pgbind_json_field_info);
		pgbind_json_key_text = NULL;
		pgbind_json_field_info = NULL;
		return;
	}
	size_t at = 0;
	for (int m = 0; m < PGBIND_MESSAGE_COUNT; m++) {
		const pgbind_MessageDesc *d = &pgbind_message_descs[m];
		if (!d->name)
			continue;
		size_t n = strlen(d->name);
		pgbind_json_kind_key[m] = (uint32_t)at;
		pgbind_json_kind_name_len[m] = (uint16_t)n;
		at += (size_t)sprintf(pgbind_json_key_text + at, "{\"%s\":", d->name);
		for (uint32_t i = 0; i < d->n_fields; i++) {
			const pgbind_FieldDesc *f = &d->fields[i];
			FieldInfo *fi = &pgbind_json_field_info[pgbind_json_field_base[m] + i];
			fi->key = (uint32_t)at;
			fi->key_len = (uint16_t)sprintf(pgbind_json_key_text + at, ",\"%s\":", f->name);
			at += fi->key_len;
			fi->name_len = (uint16_t)strlen(f->name);
			fi->proto_len = strcmp(f->name, f->proto_name) == 0 ? UINT16_MAX : (uint16_t)strlen(f->proto_name);
		}
		if (d->tag != 0 && pgbind_node_desc(d->tag) == d) {
			uint32_t h = pgbind_json_name_hash(d->name, n);
			while (pgbind_json_kind_hash[h & (JSON_KIND_HASH_SIZE - 1)] != 0)
				h++;
			pgbind_json_kind_hash[h & (JSON_KIND_HASH_SIZE - 1)] = (int16_t)(m + 1);
		}
	}
	pgbind_json_parse_result_desc = pgbind_message_desc_by_name("ParseResult");
	atomic_store_explicit(&tables_ready, pgbind_json_parse_result_desc != NULL, memory_order_release);
}

/* The tables, built by the first call that needs them; a failed build is retried, so one failed
 * allocation does not disable JSON for the life of the process. */
bool pgbind_json_tables(pgbind_Status *status)
{
	if (atomic_load_explicit(&tables_ready, memory_order_acquire))
		return true;
	pthread_mutex_lock(&tables_lock);
	if (!atomic_load_explicit(&tables_ready, memory_order_relaxed))
		build_tables();
	pthread_mutex_unlock(&tables_lock);
	bool ready = atomic_load_explicit(&tables_ready, memory_order_acquire);
	if (!ready)
		pgbind_fail(status, PGBIND_ERROR_NOMEM, "out of memory (building the JSON key tables)");
	return ready;
}
