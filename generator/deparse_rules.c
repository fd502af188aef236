/*
 * deparse_rules.c -- the deparse contract: what the linked libpg_query's deparser requires of a
 * tree (schema/pgNN/deparse.txt, written by tools/deparse-probe), read from the overrides as
 * declared rules and turned into the view's "deparse_rules" and each message's "contract_tests"
 * (deparse_rules_tests), rendered by targets/c/templates/deparse.inc.c.tmpl and checked by
 * targets/c/runtime/contract.c before every deparse.
 *
 * A rule is one entry `Message.field deparse[_LABEL]:CLAUSE,CLAUSE...` (field by its proto name;
 * the label tells several rules on one field apart). A rule is about its field wherever the
 * message sits: no parent, sibling or value of another field decides it. Clauses:
 *   nonnull          the string, node or message is not NULL; on a repeated field: no NULL cell
 *   nonempty         the repeated field has at least one cell
 *   mincells=N       ... a repeated field with cells has at least N (CREATE AGGREGATE's args: 2)
 *   notkinds=A|B     the node (each cell) is NULL or of none of these kinds
 *   where=F=V        the rule holds only for a message whose string field F (proto name) is V (an
 *                    identifier): what a parsed statement crashes on is often one option's
 *                    argument (DefElem.arg an Integer where defname is force_null), a shape of the
 *                    message itself, wherever it sits (tools/deparse-probe writes it)
 *   memory           a declared rule (schema/libpg_query.txt), not a probed one: a tree that breaks
 *                    it holds a shape the deparser reads past (a node read as another kind), so
 *                    what it writes depends on memory; pgbind returns that SQL only where it parses
 *                    back to the tree (targets/c/runtime/pg_route.c). Only with onlykinds=:
 *   onlykinds=A|B    the node (each cell) is NULL or of one of these kinds (what the deparser reads
 *                    every node there as: XMLROOT's version, an A_Const, before 18)
 * The clauses of the contract narrowed by context (in=, notin=, if=, ifnot=, ifset=, ifnotset=,
 * ifparent=, ifparentnot=) and kinds=, cell=, from= were removed (issue 41): an entry that has
 * one, anything else, or a name the model does not have stops pgbind-gen at its file:line:col.
 */
#include "deparse_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *S(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

typedef struct {
	Overrides *ov;
	gen_Error *err;
	const char *target, *key;
} Where;

#define FAIL(w, ...) overrides_fail((w)->ov, (w)->err, (w)->target, (w)->key, __VA_ARGS__)

#define CONTEXT_GONE                                                                                                 \
	"context clauses were removed (a rule holds wherever its message sits): write the rule without it, as nonnull, " \
	"nonempty, mincells= or notkinds= of what no parse makes in any context"

/* The clauses that are no more, and what to write instead. */
static const struct {
	const char *name, *instead;
} removed[] = {
	{"in=", CONTEXT_GONE},
	{"notin=", CONTEXT_GONE},
	{"if=", CONTEXT_GONE},
	{"ifnot=", CONTEXT_GONE},
	{"ifset=", CONTEXT_GONE},
	{"ifnotset=", CONTEXT_GONE},
	{"ifparent=", CONTEXT_GONE},
	{"ifparentnot=", CONTEXT_GONE},
	{"kinds=", "kinds= was removed: write notkinds= naming the kinds that crashed and no parse puts there"},
	{"cell=", "cell= was removed: a rule is about every cell of the list; drop it"},
	{"from=", "from= was removed: a rule is about every cell of the list; drop it"},
};

/* Fails on clause cl: what to write instead where it is a removed one. */
static bool unknown_clause(Where *w, const char *cl, const char *wire)
{
	for (size_t i = 0; i < sizeof removed / sizeof *removed; i++)
		if (strncmp(cl, removed[i].name, strlen(removed[i].name)) == 0)
			return FAIL(w, "%s %s: '%s': %s", w->target, w->key, cl, removed[i].instead);
	return FAIL(w,
				"%s %s: '%s' is no clause of the deparse contract for a %s field (nonnull, nonempty, mincells=, "
				"notkinds=, onlykinds= with memory)",
				w->target, w->key, cl, wire);
}

/* Splits s at sep into a JSON array of {name} (a copy of each part). */
static json_t *split(const char *s, char sep)
{
	json_t *out = json_array();
	while (*s) {
		const char *e = strchr(s, sep);
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char *part = gen_xmalloc(n + 1);
		memcpy(part, s, n);
		part[n] = '\0';
		json_array_append_new(out, json_pack("{s:s}", "name", part));
		free(part);
		s += n;
		if (*s)
			s++;
	}
	return out;
}

/* The highest node tag, which sizes the kind bitmaps. */
static json_int_t max_tag(json_t *nodes)
{
	json_int_t max = 0;
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) if (json_integer_value(json_object_get(n, "number")) > max) max =
		json_integer_value(json_object_get(n, "number"));
	return max;
}

/* A bitmap of bytes ("0x.." each) as the view's kind_bits. */
static json_t *bytes_json(const unsigned char *bits, size_t size)
{
	json_t *bytes = json_array();
	for (size_t b = 0; b < size; b++) {
		char hex[8];
		snprintf(hex, sizeof hex, "0x%02x", bits[b]);
		json_array_append_new(bytes, json_pack("{s:s}", "b", hex));
	}
	return bytes;
}

/* notkinds=A|B: the rule's kind_bits, the kinds it allows (tag k at bit k % 8 of byte k / 8):
 * every node kind but those listed, which must be node kinds; onlykinds=A|B (only): those listed. */
static bool notkinds(Where *w, json_t *nodes, const char *list, bool only, json_t *rule)
{
	json_t *kinds = split(list, '|');
	size_t size = (size_t)max_tag(nodes) / 8 + 1, i, j;
	unsigned char *bits = gen_xcalloc(size, 1);
	json_t *n, *k;
	bool ok = true;
	json_array_foreach(kinds, j, k)
	{
		bool found = false;
		json_array_foreach(nodes, i, n) found = found || strcmp(S(k, "name"), S(n, "name")) == 0;
		if (!found) {
			ok = FAIL(w, "%s %s: '%s' is not a node kind", w->target, w->key, S(k, "name"));
			break;
		}
	}
	json_array_foreach(nodes, i, n)
	{
		bool listed = false;
		json_array_foreach(kinds, j, k) listed = listed || strcmp(S(k, "name"), S(n, "name")) == 0;
		json_int_t t = json_integer_value(json_object_get(n, "number"));
		if (listed == only)
			bits[t / 8] |= (unsigned char)(1u << (t % 8));
	}
	if (ok)
		json_object_set_new(rule, "kind_bits", bytes_json(bits, size));
	free(bits);
	json_decref(kinds);
	return ok;
}

/* mincells=N (N from 2 to 1000) into the rule's min_cells. */
static bool mincells(Where *w, const char *cl, json_t *rule)
{
	char *end;
	long n = strtol(cl + 9, &end, 10);
	if (!cl[9] || *end || n < 2 || n > 1000)
		return FAIL(w, "%s %s: %s: mincells takes a number from 2 to 1000", w->target, w->key, cl);
	json_object_set_new(rule, "min_cells", json_integer(n));
	return true;
}

/* where=F=V into the rule's where_field (F's index in message m, a string field) and where_value. */
static bool where(Where *w, json_t *m, const char *cl, json_t *rule)
{
	const char *colon = strchr(cl + 6, '='); /* ':' ends a value in the overrides' format */
	size_t n = colon ? (size_t)(colon - (cl + 6)) : 0;
	bool ident = colon && colon[1];
	for (const char *v = colon ? colon + 1 : ""; *v && ident; v++)
		ident = (*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') || *v == '_';
	if (!n || !ident)
		return FAIL(w, "%s %s: %s: where= takes FIELD=VALUE, VALUE an identifier", w->target, w->key, cl);
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "fields"), i, f)
	{
		const char *name = S(f, "proto_name");
		if (strlen(name) == n && strncmp(name, cl + 6, n) == 0) {
			if (strcmp(S(f, "wire"), "STRING") != 0)
				return FAIL(w, "%s %s: %s: %s is no string field", w->target, w->key, cl, name);
			json_object_set_new(rule, "where_field", json_integer((json_int_t)i));
			json_object_set_new(rule, "where_value", json_string(colon + 1));
			return true;
		}
	}
	return FAIL(w, "%s %s: %s: %s has no field %.*s", w->target, w->key, cl, S(m, "name"), (int)n, cl + 6);
}

/* Whether a field of this wire kind holds nodes, whose kinds a rule may name. */
static bool holds_nodes(const char *wire)
{
	return strcmp(wire, "NODE") == 0 || strcmp(wire, "ONEOF") == 0 || strcmp(wire, "REPEATED_NODE") == 0;
}

/* One entry -> one rule of the view. */
static bool build_rule(Where *w, const char *value, json_t *messages, json_t *nodes, int mi, int fi, json_t *rules)
{
	json_t *m = json_array_get(messages, (size_t)mi), *f = json_array_get(json_object_get(m, "fields"), (size_t)fi);
	const char *wire = S(f, "wire");
	bool repeated = strcmp(wire, "REPEATED_NODE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0;
	bool pointer = holds_nodes(wire) || repeated || strcmp(wire, "STRING") == 0 || strcmp(wire, "MESSAGE") == 0;
	json_t *rule = json_pack("{s:s, s:i, s:s, s:i, s:b, s:b, s:i, s:b, s:i, s:s, s:s, s:[]}", "message", S(m, "name"),
							 "msg_index", mi, "field", S(f, "name"), "field_index", fi, "nonnull", 0, "nonempty", 0,
							 "min_cells", 0, "memory", 0, "where_field", -1, "where_value", "", "location",
							 overrides_location(w->ov, w->target, w->key), "kind_bits");
	json_t *clauses = split(value, ',');
	bool ok = true, only = false;
	size_t i;
	json_t *c;
	json_array_foreach(clauses, i, c)
	{
		const char *cl = S(c, "name");
		if (strcmp(cl, "nonnull") == 0 && pointer)
			json_object_set_new(rule, "nonnull", json_true());
		else if (strcmp(cl, "nonempty") == 0 && repeated)
			json_object_set_new(rule, "nonempty", json_true());
		else if (strncmp(cl, "mincells=", 9) == 0 && repeated)
			ok = mincells(w, cl, rule);
		else if (strncmp(cl, "notkinds=", 9) == 0 && holds_nodes(wire))
			ok = notkinds(w, nodes, cl + 9, false, rule);
		else if (strncmp(cl, "onlykinds=", 10) == 0 && holds_nodes(wire))
			ok = notkinds(w, nodes, cl + 10, true, rule), only = true;
		else if (strncmp(cl, "where=", 6) == 0)
			ok = where(w, m, cl, rule);
		else if (strcmp(cl, "memory") == 0)
			json_object_set_new(rule, "memory", json_true());
		else
			ok = unknown_clause(w, cl, wire);
		if (!ok)
			break;
	}
	bool requires = json_is_true(json_object_get(rule, "nonnull")) || json_is_true(json_object_get(rule, "nonempty")) ||
					json_integer_value(json_object_get(rule, "min_cells")) ||
					json_array_size(json_object_get(rule, "kind_bits"));
	if (ok && !requires)
		ok = FAIL(w, "%s %s: the rule requires nothing (nonnull, nonempty, mincells= or notkinds=)", w->target, w->key);
	bool memory = json_is_true(json_object_get(rule, "memory"));
	if (ok && only != memory) /* a probed rule names what crashed; a declared one what is read past */
		ok =
			FAIL(w, "%s %s: onlykinds= and memory go together (a declared rule on what the deparser reads past a node)",
				 w->target, w->key);
	json_decref(clauses);
	if (ok)
		json_array_append_new(rules, rule);
	else
		json_decref(rule);
	return ok;
}

/* What the rules of message m ask of field fi at least (NULL when nothing): nonnull, nonempty,
 * the most min_cells, and the kinds every one of them allows (kind_bits, when one of them names
 * kinds); a message that meets it breaks none of them. */
static json_t *field_test(json_t *m, size_t fi, json_t *rules, const char *id)
{
	json_t *f = json_array_get(json_object_get(m, "fields"), fi);
	json_int_t first = json_integer_value(json_object_get(m, "deparse_first"));
	json_int_t count = json_integer_value(json_object_get(m, "deparse_count"));
	bool nonnull = false, nonempty = false, kinds = false;
	json_int_t min_cells = 0;
	unsigned char bits[256];
	size_t size = 0;
	for (json_int_t r = first; r < first + count; r++) {
		json_t *rule = json_array_get(rules, (size_t)r);
		if (json_integer_value(json_object_get(rule, "field_index")) != (json_int_t)fi)
			continue;
		nonnull = nonnull || json_is_true(json_object_get(rule, "nonnull"));
		nonempty = nonempty || json_is_true(json_object_get(rule, "nonempty"));
		json_int_t mc = json_integer_value(json_object_get(rule, "min_cells"));
		min_cells = mc > min_cells ? mc : min_cells;
		json_t *kb = json_object_get(rule, "kind_bits");
		if (json_array_size(kb) == 0)
			continue;
		if (!kinds)
			size = json_array_size(kb) < sizeof bits ? json_array_size(kb) : sizeof bits, memset(bits, 0xff, size);
		kinds = true;
		for (size_t b = 0; b < size; b++)
			bits[b] &= b < json_array_size(kb) ? (unsigned char)strtoul(S(json_array_get(kb, b), "b"), NULL, 16) : 0;
	}
	if (!nonnull && !nonempty && !min_cells && !kinds)
		return NULL;
	json_t *t = json_pack("{s:s, s:s, s:s, s:b, s:b, s:I, s:b}", "id", id, "field", S(f, "name"), "wire", S(f, "wire"),
						  "nonnull", nonnull, "nonempty", nonempty, "min_cells", min_cells, "kinds", kinds);
	json_object_set_new(t, "kind_bits", bytes_json(bits, kinds ? size : 0));
	return t;
}

/* Whether test t (of a list field) asks every cell to be set and of a leaf kind (leaf_bits). */
static bool test_asks_leaves(json_t *t, const unsigned char *leaf_bits)
{
	if (!t || !json_is_true(json_object_get(t, "nonnull")) || !json_is_true(json_object_get(t, "kinds")))
		return false;
	size_t b;
	json_t *x;
	json_array_foreach(json_object_get(t, "kind_bits"), b, x)
	{
		unsigned long v = strtoul(S(x, "b"), NULL, 16);
		if (v & ~(unsigned long)(b < 256 ? leaf_bits[b] : 0))
			return false;
	}
	return true;
}

/* The message's contract_tests (one per field its rules constrain, for the generated walk of
 * deparse.inc.c) and its fields' contract_leaves: a list whose cells a message that meets its
 * tests holds only as leaves, whose level the walk counts without a visit of each cell
 * (contract.c: CW_LEAVES). */
static void message_tests(json_t *m, size_t mi, json_t *rules, const unsigned char *leaf_bits)
{
	json_t *fields = json_object_get(m, "fields"), *tests = json_array();
	for (size_t fi = 0; fi < json_array_size(fields); fi++) {
		json_t *f = json_array_get(fields, fi);
		char id[64];
		snprintf(id, sizeof id, "%zu_%zu", mi, fi);
		json_t *t = field_test(m, fi, rules, id);
		bool leaves = strcmp(S(f, "wire"), "REPEATED_NODE") == 0 && test_asks_leaves(t, leaf_bits);
		json_object_set_new(f, "contract_leaves", json_boolean(leaves));
		if (t)
			json_array_append_new(tests, t);
	}
	json_object_set_new(m, "contract_tests", tests);
}

/* Whether the walk has nothing to do in message m but count a level: no rule, and no field that
 * holds messages or an enum. */
static bool contract_leaf(json_t *m)
{
	if (json_integer_value(json_object_get(m, "deparse_count")))
		return false;
	static const char *const walked[] = {"NODE", "ONEOF", "MESSAGE", "REPEATED_NODE", "REPEATED_MESSAGE", "ENUM"};
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "fields"), i,
					   f) for (size_t w = 0; w < sizeof walked / sizeof *walked;
							   w++) if (strcmp(S(f, "wire"), walked[w]) == 0) return false;
	return true;
}

bool deparse_rules_build(Overrides *ov, json_t *messages, json_t *nodes, json_t **out, gen_Error *err)
{
	json_t *rules = json_array();
	size_t i, j;
	json_t *m, *f;
	bool ok = true;
	json_array_foreach(messages, i, m)
	{
		json_int_t first = (json_int_t)json_array_size(rules);
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			char target[300];
			snprintf(target, sizeof target, "%s.%s", S(m, "name"), S(f, "proto_name"));
			size_t from = 0;
			const char *key, *value;
			while (ok && (value = overrides_get_prefixed(ov, target, "deparse", &from, &key))) {
				Where w = {ov, err, target, key};
				ok = build_rule(&w, value, messages, nodes, (int)i, (int)j, rules);
			}
		}
		json_object_set_new(m, "deparse_first", json_integer(first));
		json_object_set_new(m, "deparse_count", json_integer((json_int_t)json_array_size(rules) - first));
		if (!ok)
			break;
	}
	json_array_foreach(rules, i, m) json_object_set_new(m, "id", json_integer((json_int_t)i));
	if (!ok) {
		json_decref(rules);
		return false;
	}
	*out = rules;
	return true;
}

void deparse_rules_tests(json_t *messages, json_t *nodes, json_t *rules)
{
	size_t i, j;
	json_t *m, *n;
	unsigned char leaf_bits[256] = {0};
	json_array_foreach(nodes, i, n) /* the walk visits a leaf kind without a call (contract.c: CW_CHILD) */
	{
		bool leaf = false;
		json_t *nm;
		json_array_foreach(messages, j, nm) if (strcmp(S(nm, "name"), S(n, "name")) == 0) leaf = contract_leaf(nm);
		json_object_set_new(n, "contract_leaf", json_boolean(leaf));
		json_int_t t = json_integer_value(json_object_get(n, "number"));
		if (leaf && t >= 0 && t / 8 < (json_int_t)sizeof leaf_bits)
			leaf_bits[t / 8] |= (unsigned char)(1u << (t % 8));
	}
	json_array_foreach(messages, i, m) message_tests(m, i, rules, leaf_bits);
}
