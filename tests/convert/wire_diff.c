/*
 * wire_diff.c -- the field-by-field comparison of two encodings of one message (wire_diff.h).
 * Decodes each side's fields with the proto's field numbers from the tables, then compares
 * field by field: a message-typed field recursively when both sides have as many values of it,
 * anything else by its bytes. The location of a declared option's DefElem (schema/majors.txt's
 * option:, which the older major does not record) is named as such.
 */
#include "wire_diff.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int field, wire;
	uint64_t value;
	const uint8_t *data;
} F;

void wd_add(wd_Keys *k, const char *key)
{
	for (int i = 0; i < k->n; i++)
		if (strcmp(k->keys[i], key) == 0)
			return;
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 16;
		k->keys = realloc(k->keys, (size_t)k->cap * sizeof *k->keys);
		if (!k->keys)
			abort();
	}
	snprintf(k->keys[k->n++], sizeof k->keys[0], "%s", key);
}

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64 && *p < end; s += 7) {
		uint8_t b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return 1;
	}
	return 0;
}

/* Decodes the proto fields of one message; -1 when it cannot. */
static int decode(const cv_Message *m, const uint8_t *p, size_t n, F **out)
{
	const uint8_t *end = p + n;
	int cnt = 0, cap = 8;
	F *v = malloc((size_t)cap * sizeof *v);
	while (v && p < end) {
		uint64_t key, val = 0;
		if (!varint(&p, end, &key))
			goto bad;
		uint64_t num = key >> 3;
		int wire = (int)(key & 7);
		if (num == 0 || num > m->max_number || m->by_number[num] < 0)
			goto bad;
		const uint8_t *data = p;
		if (wire == 0) {
			if (!varint(&p, end, &val))
				goto bad;
		} else if (wire == 2) {
			if (!varint(&p, end, &val) || val > (uint64_t)(end - p))
				goto bad;
			data = p;
			p += val;
		} else if (wire == 1 || wire == 5) {
			size_t w = wire == 1 ? 8 : 4;
			if ((size_t)(end - p) < w)
				goto bad;
			val = w;
			p += w;
		} else
			goto bad;
		if (cnt == cap) {
			cap *= 2;
			F *g = realloc(v, (size_t)cap * sizeof *v);
			if (!g)
				goto bad;
			v = g;
		}
		v[cnt++] = (F){m->by_number[num], wire, val, data};
	}
	*out = v;
	return cnt;
bad:
	free(v);
	*out = NULL;
	return -1;
}

static int same_value(const F *x, const F *y)
{
	if (x->wire != y->wire || x->value != y->value)
		return 0;
	return x->wire == 0 || memcmp(x->data, y->data, (size_t)x->value) == 0;
}

/* The option (schema/majors.txt's option:) whose list field k of m is, when t reads it down
 * (CV_OP_OPTION_DOWN), or NULL. */
static const cv_Option *option_list(const cv_Table *t, const cv_Message *m, int k)
{
	if (m->plan < 0)
		return NULL;
	const cv_Plan *plan = &t->plans[m->plan];
	for (uint16_t i = 0; i < plan->n_fields; i++)
		if (plan->fields[i].op == CV_OP_OPTION_DOWN && plan->fields[i].src == k)
			return &t->options[plan->fields[i].arg];
	return NULL;
}

/* opt: set in an option's list element (its Node, then the DefElem in it), where the DefElem's
 * location is the declared one (the older major records none). */
static void diff(const cv_Table *t, int msg, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, wd_Keys *keys,
				 const cv_Option *opt)
{
	const cv_Message *m = &t->messages[msg];
	bool is_node = strcmp(m->name, "Node") == 0;
	char key[128];
	F *fa, *fb;
	int na = decode(m, a, an, &fa), nb = decode(m, b, bn, &fb);
	if (na < 0 || nb < 0) {
		snprintf(key, sizeof key, "undecodable %s", m->name);
		wd_add(keys, key);
		free(fa);
		free(fb);
		return;
	}
	if (is_node && na == 1 && nb == 1 && fa[0].field != fb[0].field) {
		snprintf(key, sizeof key, "Node: %s -> %s", t->messages[m->fields[fa[0].field].sub].name,
				 t->messages[m->fields[fb[0].field].sub].name);
		wd_add(keys, key);
		free(fa);
		free(fb);
		return;
	}
	for (int k = 0; k < m->n_proto; k++) {
		const cv_InField *f = &m->fields[k];
		int ca = 0, cb = 0;
		for (int i = 0; i < na; i++)
			ca += fa[i].field == k;
		for (int i = 0; i < nb; i++)
			cb += fb[i].field == k;
		if (!ca && !cb)
			continue;
		const char *label = (f->flags & CV_IN_NODE) && f->sub >= 0 ? t->messages[f->sub].name : f->name;
		if (opt && !is_node && f->number == opt->location)
			snprintf(key, sizeof key, "%s.%s of option %s (%d records none)", m->name, label, opt->name, t->to_major);
		else
			snprintf(key, sizeof key, "%s.%s", m->name, label);
		const cv_Option *sub_opt = is_node ? opt : option_list(t, m, k);
		if (ca != cb) {
			wd_add(keys, key);
			continue;
		}
		int i = 0, j = 0;
		for (int n = 0; n < ca; n++, i++, j++) {
			while (fa[i].field != k)
				i++;
			while (fb[j].field != k)
				j++;
			if (f->sub >= 0 && fa[i].wire == 2 && fb[j].wire == 2)
				diff(t, f->sub, fa[i].data, (size_t)fa[i].value, fb[j].data, (size_t)fb[j].value, keys, sub_opt);
			else if (!same_value(&fa[i], &fb[j]))
				wd_add(keys, key);
		}
	}
	free(fa);
	free(fb);
}

void wd_diff(const cv_Table *t, int msg, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, wd_Keys *keys)
{
	diff(t, msg, a, an, b, bn, keys, NULL);
}
