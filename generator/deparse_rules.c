/*
 * deparse_rules.c -- the deparse contract: what the linked libpg_query's deparser requires of a
 * tree (schema/pgNN/deparse.txt, written by tools/deparse-probe), read from the overrides as
 * declared rules and turned into the view's "deparse_rules" (rendered by
 * targets/c/templates/deparse.inc.c.tmpl; checked by targets/c/runtime/contract.c before every deparse).
 *
 * A rule is one entry `Message.field deparse[_LABEL]:CLAUSE,CLAUSE...` (field by its proto name;
 * the label tells several rules on one field apart). Clauses:
 *   nonnull          the string or node is not NULL; on a repeated field: no NULL cell (with
 *                    cell=N: the list has cell N and it is not NULL)
 *   nonempty         the repeated field has at least one cell
 *   mincells=N       ... a repeated field with cells has at least N (CREATE AGGREGATE's args: 2)
 *   kinds=A|B        the node (each cell, or cell N) is NULL or of one of these kinds (kinds=
 *                    naming none: NULL only)
 *   notkinds=A|B     ... of none of these kinds
 *   cell=N           the rule is about cell N of the repeated field only (if it has one)
 *   from=N           ... about cells N, N+1, ... only
 *   in=P.f|Q.g       the rule holds only for a message that is (a cell of) one of these parent
 *                    fields (proto names)
 *   notin=P.f|Q.g    ... for one that is not (the root's statements have no parent field)
 *   if=field=v|w     the rule holds only when the message's string, enum, bool or int field has
 *                    one of these values (enum values by their proto names, never <ENUM>_UNDEFINED,
 *                    which the deparser reads as the first value; a bool's are true, false; an
 *                    int's, numbers)
 *   ifnot=field=v|w  ... only when it has none of them (a NULL or empty string counts as seen)
 *   ifset=field      the rule holds only when the message's node or message field is set (not
 *                    NULL; a repeated field: not empty)
 *   ifnotset=field   ... only when it is not
 *   ifparent=field=v|w, ifparentnot=field=v|w
 *                    as if= and ifnot=, of a string, enum, bool or int field of the message's parent (the
 *                    message whose field holds it): only after in=, whose parents are all fields
 *                    of one message (MERGE's WHEN clause: a SET target without a value crashes,
 *                    an INSERT column has none)
 * A rule may have several conditions (if=, ifnot=, ifset=, ifnotset=, ifparent=, ifparentnot=), on
 * different fields: it holds where all of them do (CREATE AGGREGATE's args: if=kind=OBJECT_AGGREGATE
 * and if=oldstyle=false).
 * Anything else, or a name the model does not have, stops pgbind-gen at the entry's file:line.
 */
#include "deparse_rules.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *S(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* The index of the field whose proto name is name in message m, or -1. */
static int field_index(json_t *m, const char *name)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "fields"), i, f) if (strcmp(S(f, "proto_name"), name) == 0) return (int)i;
	return -1;
}

/* The field a condition clause names in message m (NULL, with *index -1 and *wire "", where m is
 * NULL or has no such field). */
static json_t *condition_field(json_t *m, const char *name, int *index, const char **wire)
{
	*index = m ? field_index(m, name) : -1;
	json_t *f = *index >= 0 ? json_array_get(json_object_get(m, "fields"), (size_t)*index) : NULL;
	*wire = f ? S(f, "wire") : "";
	return f;
}

static int message_index(json_t *messages, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(messages, i, m) if (strcmp(S(m, "name"), name) == 0) return (int)i;
	return -1;
}

/* Whether an enum value's name is <ENUM>_UNDEFINED, pg_query.proto's 0, which the deparser reads
 * as the enum's first value (as contract.c's pgbind_enum_zero_is_undefined tests it). */
static bool is_undefined_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	return n > 10 && strcmp(name + n - 10, "_UNDEFINED") == 0;
}

static json_t *enum_named(json_t *enums, const char *name)
{
	size_t i;
	json_t *e;
	json_array_foreach(enums, i, e) if (strcmp(S(e, "name"), name) == 0) return e;
	return NULL;
}

static bool is_node_kind(json_t *nodes, const char *name)
{
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) if (strcmp(S(n, "name"), name) == 0) return true;
	return false;
}

typedef struct {
	Overrides *ov;
	gen_Error *err;
	const char *target, *key;
} Where;

#define FAIL(w, ...) overrides_fail((w)->ov, (w)->err, (w)->target, (w)->key, __VA_ARGS__)

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

static bool parse_kinds(Where *w, json_t *nodes, const char *list, json_t *rule)
{
	json_t *kinds = split(list, '|');
	size_t i;
	json_t *k;
	json_array_foreach(kinds, i, k)
	{
		if (!is_node_kind(nodes, S(k, "name"))) {
			json_decref(kinds);
			return FAIL(w, "%s %s: '%s' is not a node kind", w->target, w->key, S(k, "name"));
		}
	}
	json_object_set_new(rule, "kinds", kinds);
	return true;
}

/* The rule's kinds as the bitmap of allowed tags the runtime tests ("0x.." bytes, tag k at bit
 * k % 8 of byte k / 8). */
static void kinds_bitmap(json_t *rule, json_t *nodes)
{
	json_int_t max = 0;
	size_t i, j;
	json_t *n, *k;
	json_array_foreach(nodes, i, n) if (json_integer_value(json_object_get(n, "number")) > max) max =
		json_integer_value(json_object_get(n, "number"));
	size_t size = (size_t)max / 8 + 1;
	unsigned char *bits = gen_xcalloc(size, 1);
	bool negate = json_is_true(json_object_get(rule, "negate"));
	json_array_foreach(nodes, i, n)
	{
		bool listed = false;
		json_array_foreach(json_object_get(rule, "kinds"), j, k) listed =
			listed || strcmp(S(k, "name"), S(n, "name")) == 0;
		json_int_t t = json_integer_value(json_object_get(n, "number"));
		if (listed != negate)
			bits[t / 8] |= (unsigned char)(1u << (t % 8));
	}
	json_t *bytes = json_array();
	for (size_t b = 0; b < size; b++) {
		char hex[8];
		snprintf(hex, sizeof hex, "0x%02x", bits[b]);
		json_array_append_new(bytes, json_pack("{s:s}", "b", hex));
	}
	free(bits);
	json_object_set_new(rule, "kind_bits", bytes);
}

/* The message every parent of the rule's in= belongs to; NULL when there is no in=, or its parents
 * are fields of more than one message. */
static json_t *parents_message(json_t *rule, json_t *messages)
{
	json_t *parents = json_object_get(rule, "parents");
	if (json_array_size(parents) == 0 || json_is_true(json_object_get(rule, "not_in")))
		return NULL;
	json_int_t first = json_integer_value(json_object_get(json_array_get(parents, 0), "msg"));
	size_t i;
	json_t *p;
	json_array_foreach(parents, i, p) if (json_integer_value(json_object_get(p, "msg")) != first) return NULL;
	return json_array_get(messages, (size_t)first);
}

/* A clause NAME=N (N from min to 1000, the name's length given) into the rule's key. */
static bool count_clause(Where *w, const char *cl, size_t name_len, long min, json_t *rule, const char *key)
{
	char *end;
	long n = strtol(cl + name_len, &end, 10);
	if (!cl[name_len] || *end || n < min || n > 1000)
		return FAIL(w, "%s %s: %s: %.*s takes a number from %ld to 1000", w->target, w->key, cl, (int)name_len - 1, cl,
					min);
	json_object_set_new(rule, key, json_integer(n));
	return true;
}

/* The values of an if= clause (after its '='), for field cf of wire cw: {name} strings for a
 * string field, {name, number} for an enum's (by its proto names), an int's (numbers) and a bool's
 * (false 0, true 1). */
static bool condition_values(Where *w, const char *cl, const char *name, json_t *cf, const char *cw, const char *list,
							 json_t *enums, json_t **out)
{
	json_t *values = split(list, '|');
	if (strcmp(cw, "STRING") == 0) {
		*out = values;
		return true;
	}
	bool ok = true, is_bool = strcmp(cw, "BOOL") == 0, is_enum = strcmp(cw, "ENUM") == 0;
	json_t *e = is_enum ? enum_named(enums, S(cf, "type")) : NULL, *numbers = json_array();
	size_t k, j;
	json_t *v, *ev;
	json_array_foreach(values, k, v)
	{
		const char *t = S(v, "name");
		json_int_t n = 0;
		bool good = false;
		if (is_enum) {
			json_array_foreach(json_object_get(e, "values"), j, ev) if (!good && strcmp(S(ev, "name"), t) == 0)
			{
				n = json_integer_value(json_object_get(ev, "number"));
				good = true;
			}
			if (!good && ok)
				ok = FAIL(w, "%s %s: enum %s has no value %s", w->target, w->key, S(cf, "type"), t);
			/* the deparser never sees UNDEFINED: both routes read it as the first value, and so
			 * does contract.c (a rule naming it would never apply) */
			if (good && n == 0 && is_undefined_name(t) && ok)
				ok = FAIL(w, "%s %s: %s: %s is read as enum %s's first value, never as itself: name that one",
						  w->target, w->key, cl, t, S(cf, "type"));
		} else {
			char *end = NULL;
			long l = is_bool ? strcmp(t, "true") == 0 : strtol(t, &end, 10);
			good = is_bool ? l || strcmp(t, "false") == 0 : *t && !*end && l >= INT32_MIN && l <= INT32_MAX;
			n = l;
			if (!good && ok)
				ok = FAIL(w, "%s %s: %s: %s field %s takes %s, not %s", w->target, w->key, cl, is_bool ? "bool" : "int",
						  name, is_bool ? "true or false" : "numbers", t);
		}
		if (good)
			json_array_append_new(numbers, json_pack("{s:s, s:I}", "name", t, "number", n));
	}
	json_decref(values);
	*out = numbers;
	return ok;
}

/* One condition of the rule: on field ci of the message (parent: of its parent), its value one of
 * values (negate: none of them; {name} strings or {name, number} numbers), or (set, values NULL)
 * whether it is set. Two conditions on one field are an error: they say one thing twice or
 * contradict each other. */
static bool add_condition(Where *w, json_t *rule, const char *cl, int ci, bool negate, bool set, bool parent,
						  json_t *values)
{
	json_t *conditions = json_object_get(rule, "conditions");
	size_t i;
	json_t *c;
	json_array_foreach(conditions, i, c)
	{
		if (json_integer_value(json_object_get(c, "field")) == ci &&
			json_is_true(json_object_get(c, "parent")) == parent)
			return FAIL(w, "%s %s: %s: a second condition on the same field", w->target, w->key, cl);
	}
	if (!set && json_array_size(values) == 0)
		return FAIL(w, "%s %s: %s: the condition names no value", w->target, w->key, cl);
	bool numbers = values && json_object_get(json_array_get(values, 0), "number");
	json_t *none = json_array();
	json_array_append_new(conditions, json_pack("{s:i, s:b, s:b, s:b, s:O, s:O}", "field", ci, "not", negate, "set",
												set, "parent", parent, "strings", values && !numbers ? values : none,
												"enums", numbers ? values : none));
	json_decref(none);
	return true;
}

/* One entry -> one rule of the view. */
static bool build_rule(Where *w, const char *value, json_t *messages, json_t *enums, json_t *nodes, int mi, int fi,
					   json_t *rules)
{
	json_t *m = json_array_get(messages, (size_t)mi), *f = json_array_get(json_object_get(m, "fields"), (size_t)fi);
	const char *wire = S(f, "wire");
	bool repeated = strcmp(wire, "REPEATED_NODE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0;
	bool is_node = strcmp(wire, "NODE") == 0 || strcmp(wire, "ONEOF") == 0 || strcmp(wire, "REPEATED_NODE") == 0;
	bool pointer = is_node || repeated || strcmp(wire, "STRING") == 0 || strcmp(wire, "MESSAGE") == 0;
	json_t *rule =
		json_pack("{s:s, s:i, s:s, s:i, s:i, s:b, s:b, s:b, s:b, s:b, s:s}", "message", S(m, "name"), "msg_index", mi,
				  "field", S(f, "name"), "field_index", fi, "cell", -1, "from", 0, "nonnull", 0, "nonempty", 0,
				  "negate", 0, "not_in", 0, "location", overrides_location(w->ov, w->target, w->key));
	json_object_set_new(rule, "parents", json_array());
	json_object_set_new(rule, "min_cells", json_integer(0));
	json_object_set_new(rule, "kinds", json_array());
	json_object_set_new(rule, "conditions", json_array());
	json_t *clauses = split(value, ',');
	bool ok = true, checks = false, kinds_given = false;
	size_t i;
	json_t *c;
	json_array_foreach(clauses, i, c)
	{
		const char *cl = S(c, "name");
		if (strcmp(cl, "nonnull") == 0 && pointer) {
			json_object_set_new(rule, "nonnull", json_true());
			checks = true;
		} else if (strcmp(cl, "nonempty") == 0 && repeated) {
			json_object_set_new(rule, "nonempty", json_true());
			checks = true;
		} else if (strncmp(cl, "mincells=", 9) == 0 && repeated) {
			ok = count_clause(w, cl, 9, 2, rule, "min_cells");
			checks = true;
		} else if ((strncmp(cl, "kinds=", 6) == 0 || strncmp(cl, "notkinds=", 9) == 0) && is_node) {
			bool negate = cl[0] == 'n';
			json_object_set_new(rule, "negate", json_boolean(negate));
			ok = parse_kinds(w, nodes, cl + (negate ? 9 : 6), rule);
			checks = kinds_given = true;
		} else if (strncmp(cl, "cell=", 5) == 0 && repeated) {
			ok = count_clause(w, cl, 5, 0, rule, "cell");
		} else if (strncmp(cl, "from=", 5) == 0 && repeated) {
			ok = count_clause(w, cl, 5, 0, rule, "cell");
			json_object_set_new(rule, "from", json_true());
		} else if (strncmp(cl, "in=", 3) == 0 || strncmp(cl, "notin=", 6) == 0) {
			bool negate = cl[0] == 'n';
			json_t *names = split(cl + (negate ? 6 : 3), '|'), *parents = json_object_get(rule, "parents");
			size_t k;
			json_t *pn;
			json_object_set_new(rule, "not_in", json_boolean(negate));
			json_array_foreach(names, k, pn)
			{
				const char *pname = S(pn, "name"), *dot = strchr(pname, '.');
				char parent[200];
				snprintf(parent, sizeof parent, "%.*s", dot ? (int)(dot - pname) : 0, pname);
				int pm = dot ? message_index(messages, parent) : -1;
				int pf = pm >= 0 ? field_index(json_array_get(messages, (size_t)pm), dot + 1) : -1;
				if (pf < 0) {
					ok = FAIL(w, "%s %s: %s names no Message.field of the proto", w->target, w->key, pname);
					break;
				}
				json_array_append_new(parents, json_pack("{s:i, s:i, s:s}", "msg", pm, "field", pf, "name", pname));
			}
			json_decref(names);
		} else if (strncmp(cl, "ifset=", 6) == 0 || strncmp(cl, "ifnotset=", 9) == 0) {
			bool negate = cl[2] == 'n';
			const char *name = cl + (negate ? 9 : 6);
			int ci;
			const char *cw;
			json_t *cf = condition_field(m, name, &ci, &cw);
			if (!cf || (strcmp(cw, "NODE") != 0 && strcmp(cw, "ONEOF") != 0 && strcmp(cw, "MESSAGE") != 0 &&
						strcmp(cw, "REPEATED_NODE") != 0 && strcmp(cw, "REPEATED_MESSAGE") != 0))
				ok = FAIL(w, "%s %s: %s: %s has no node or message field '%s'", w->target, w->key, cl, S(m, "name"),
						  name);
			else
				ok = add_condition(w, rule, cl, ci, negate, true, false, NULL);
		} else if (strncmp(cl, "if=", 3) == 0 || strncmp(cl, "ifnot=", 6) == 0 || strncmp(cl, "ifparent=", 9) == 0 ||
				   strncmp(cl, "ifparentnot=", 12) == 0) {
			bool parent = strncmp(cl, "ifparent", 8) == 0;
			bool negate = parent ? cl[8] == 'n' : cl[2] == 'n';
			const char *what = cl + (parent ? (negate ? 12 : 9) : (negate ? 6 : 3)), *eq = strchr(what, '=');
			char name[200];
			snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - what) : 0, what);
			json_t *of = parent ? parents_message(rule, messages) : m;
			int ci;
			const char *cw;
			json_t *cf = condition_field(eq ? of : NULL, name, &ci, &cw);
			json_t *values = NULL;
			if (parent && !of)
				ok = FAIL(w, "%s %s: %s: ifparent= needs an in= before it whose parents are fields of one message",
						  w->target, w->key, cl);
			else if (!cf || (strcmp(cw, "STRING") != 0 && strcmp(cw, "ENUM") != 0 && strcmp(cw, "BOOL") != 0 &&
							 strcmp(cw, "INT32") != 0))
				ok = FAIL(w, "%s %s: %s: %s has no string, enum, bool or int field '%s'", w->target, w->key, cl,
						  S(of, "name"), name);
			else
				ok = condition_values(w, cl, name, cf, cw, eq + 1, enums, &values);
			if (ok)
				ok = add_condition(w, rule, cl, ci, negate, false, parent, values);
			json_decref(values);
		} else {
			ok = FAIL(w,
					  "%s %s: '%s' is no clause of the deparse contract for a %s field (nonnull, nonempty, mincells=, "
					  "kinds=, notkinds=, cell=, from=, in=, notin=, if=, ifnot=, ifset=, "
					  "ifnotset=, ifparent=, ifparentnot=)",
					  w->target, w->key, cl, wire);
		}
		if (!ok)
			break;
	}
	json_decref(clauses);
	if (ok && !checks)
		ok = FAIL(w, "%s %s: the rule requires nothing (nonnull, nonempty, mincells=, kinds= or notkinds=)", w->target,
				  w->key);
	json_array_foreach(json_object_get(rule, "conditions"), i,
					   c) if (ok && json_is_true(json_object_get(c, "parent")) && !parents_message(rule, messages)) ok =
		FAIL(w, "%s %s: ifparent=: the in= parents are fields of more than one message", w->target, w->key);
	if (ok && kinds_given) /* kinds= naming none: no node at all, only NULL */
		kinds_bitmap(rule, nodes);
	else if (ok)
		json_object_set_new(rule, "kind_bits", json_array());
	if (ok)
		json_array_append_new(rules, rule);
	else
		json_decref(rule);
	return ok;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A rule's parent slots as keys (parent message << 16 | field), the runtime's too (contract.c). */
static json_int_t slot_key(json_t *parent)
{
	return json_integer_value(json_object_get(parent, "msg")) << 16 |
		   json_integer_value(json_object_get(parent, "field"));
}

/* Whether the rule applies where its message sits in the slot key (-1: a slot its message's rules
 * do not name, the root among them). */
static bool rule_in_slot(json_t *rule, json_int_t key)
{
	json_t *parents = json_object_get(rule, "parents");
	if (json_array_size(parents) == 0)
		return true;
	bool in = false;
	size_t i;
	json_t *p;
	json_array_foreach(parents, i, p) in = in || slot_key(p) == key;
	return in != json_is_true(json_object_get(rule, "not_in"));
}

/* Whether a field of this wire kind holds nodes, whose kinds a rule may name. */
static bool holds_nodes(const char *wire)
{
	return strcmp(wire, "NODE") == 0 || strcmp(wire, "ONEOF") == 0 || strcmp(wire, "REPEATED_NODE") == 0;
}

/* What the unconditional rules of a class ask of field fi at least (NULL when nothing): nonnull,
 * nonempty, the most min_cells, and the kinds every one of them allows (kind_bits, when one of
 * them names kinds); a tree that meets it breaks none of them. Rules with conditions are each
 * tested on their own (class_guards). */
static json_t *class_test(json_t *m, size_t fi, json_t *rules, json_int_t first, json_int_t count, json_int_t key,
						  const char *id)
{
	json_t *f = json_array_get(json_object_get(m, "fields"), fi);
	const char *wire = S(f, "wire");
	bool nodes = holds_nodes(wire);
	bool nonnull = false, nonempty = false, kinds = false;
	json_int_t min_cells = 0;
	unsigned char bits[256];
	size_t size = 0;
	for (json_int_t r = first; r < first + count; r++) {
		json_t *rule = json_array_get(rules, (size_t)r);
		if (json_integer_value(json_object_get(rule, "field_index")) != (json_int_t)fi || !rule_in_slot(rule, key) ||
			json_array_size(json_object_get(rule, "conditions")))
			continue;
		nonnull = nonnull || json_is_true(json_object_get(rule, "nonnull"));
		nonempty = nonempty || json_is_true(json_object_get(rule, "nonempty"));
		json_int_t mc = json_integer_value(json_object_get(rule, "min_cells"));
		min_cells = mc > min_cells ? mc : min_cells;
		json_t *kb = json_object_get(rule, "kind_bits");
		if (!nodes || json_array_size(kb) == 0)
			continue;
		if (!kinds)
			size = json_array_size(kb) < sizeof bits ? json_array_size(kb) : sizeof bits, memset(bits, 0xff, size);
		kinds = true;
		for (size_t b = 0; b < size; b++)
			bits[b] &= b < json_array_size(kb) ? (unsigned char)strtoul(S(json_array_get(kb, b), "b"), NULL, 16) : 0;
	}
	if (!nonnull && !nonempty && !min_cells && !kinds)
		return NULL;
	json_t *t = json_pack("{s:s, s:s, s:s, s:b, s:b, s:I, s:b}", "id", id, "field", S(f, "name"), "wire", wire,
						  "nonnull", nonnull, "nonempty", nonempty, "min_cells", min_cells, "kinds", kinds);
	json_t *bytes = json_array();
	for (size_t b = 0; kinds && b < size; b++) {
		char hex[8];
		snprintf(hex, sizeof hex, "0x%02x", bits[b]);
		json_array_append_new(bytes, json_pack("{s:s}", "b", hex));
	}
	json_object_set_new(t, "kind_bits", bytes);
	return t;
}

/* The conditions of a rule as the generated walk tests them ("when"): per condition, what it
 * reads (SELF: the message; PARENT: its parent, of the one message the rule's parents name), the
 * field, and how: STRING, one of its names; C_CHAR, of a C char, by the first byte; NUMBER, an
 * enum, int or bool among its values (zero_first: an enum that reads 0 as its first value); MASK,
 * the same where every value is 0 to 63, id then the bit mask of the values; SET, SET_LIST, a node
 * or message set, a list with cells; not: none of that. Else id names its values
 * (contract_if_strings_<id>, contract_if_enums_<id>). contract.c's condition_holds reads the same
 * from the rule tables, for the reference walk and to name a broken rule. */
static json_t *guard_conditions(json_t *m, json_t *rule, json_t *messages, json_t *enums)
{
	json_t *out = json_array();
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(rule, "conditions"), i, c)
	{
		bool parent = json_is_true(json_object_get(c, "parent"));
		json_t *of = parent ? parents_message(rule, messages) : m;
		json_t *f =
			json_array_get(json_object_get(of, "fields"), (size_t)json_integer_value(json_object_get(c, "field")));
		const char *wire = S(f, "wire");
		const char *test =
			json_is_true(json_object_get(c, "set"))
				? (strcmp(wire, "REPEATED_NODE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0 ? "SET_LIST" : "SET")
			: strcmp(wire, "STRING") == 0 ? (json_is_true(json_object_get(f, "c_char")) ? "C_CHAR" : "STRING")
										  : "NUMBER";
		/* an enum whose 0 is UNDEFINED: the deparser reads 0 as the first value (condition_holds) */
		json_t *e = strcmp(wire, "ENUM") == 0 ? enum_named(enums, S(f, "type")) : NULL;
		const char *zero = NULL;
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(e, "values"), k,
						   v) if (json_integer_value(json_object_get(v, "number")) == 0) zero = S(v, "name");
		bool zero_first = is_undefined_name(zero);
		/* values all in 0..63 (enums, small ints, bools): one bit test, not a scan of the list */
		unsigned long long mask = 0;
		bool small = strcmp(test, "NUMBER") == 0;
		json_array_foreach(json_object_get(c, "enums"), k, v)
		{
			json_int_t x = json_integer_value(json_object_get(v, "number"));
			small = small && x >= 0 && x < 64;
			if (small)
				mask |= 1ull << x;
		}
		char bits[32];
		snprintf(bits, sizeof bits, "0x%llxull", mask);
		json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:b, s:b, s:s}", "test", small ? "MASK" : test, "of",
											 parent ? "PARENT" : "SELF", "message", S(of, "name"), "field",
											 S(f, "name"), "not", json_is_true(json_object_get(c, "not")), "zero_first",
											 zero_first, "id", small ? bits : S(c, "id")));
	}
	return out;
}

/* The rules of a class that have conditions, each with its own test ("guards"): a message that
 * fails one breaks the rule if its conditions hold ("when", generated tests of the same values
 * contract.c's rule_applies reads), and only then. */
static json_t *class_guards(json_t *m, json_t *rules, json_int_t first, json_int_t count, json_int_t key,
							json_t *messages, json_t *enums)
{
	json_t *guards = json_array();
	for (json_int_t r = first; r < first + count; r++) {
		json_t *rule = json_array_get(rules, (size_t)r);
		if (!rule_in_slot(rule, key) || json_array_size(json_object_get(rule, "conditions")) == 0)
			continue;
		json_t *f = json_array_get(json_object_get(m, "fields"),
								   (size_t)json_integer_value(json_object_get(rule, "field_index")));
		const char *wire = S(f, "wire");
		bool nodes = holds_nodes(wire);
		json_array_append_new(guards, json_pack("{s:I, s:s, s:s, s:b, s:b, s:I, s:b}", "rule", (json_int_t)r, "field",
												S(f, "name"), "wire", wire, "nonnull",
												json_is_true(json_object_get(rule, "nonnull")), "nonempty",
												json_is_true(json_object_get(rule, "nonempty")), "min_cells",
												json_integer_value(json_object_get(rule, "min_cells")), "kinds",
												nodes && json_array_size(json_object_get(rule, "kind_bits")) > 0));
		json_object_set_new(json_array_get(guards, json_array_size(guards) - 1), "when",
							guard_conditions(m, rule, messages, enums));
	}
	return guards;
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

/* What a class asks, as text: its tests (but their ids) and guards. */
static char *class_body(json_t *cls)
{
	json_t *tests = json_deep_copy(json_object_get(cls, "tests"));
	size_t i;
	json_t *t;
	json_array_foreach(tests, i, t) json_object_del(t, "id");
	json_t *body = json_pack("{s:o, s:O}", "tests", tests, "guards", json_object_get(cls, "guards"));
	char *text = body ? json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(body);
	if (!text) {
		fprintf(stderr, "pgbind-gen: out of memory\n");
		exit(2);
	}
	return text;
}

/* Classes that ask the same are one: a slot whose class asks what the default one does is left to
 * it, and slots whose classes ask alike share a case of the walk's switch (TypeName's 26 slots
 * are three classes on 17, the default one among them). */
static void merge_classes(json_t *classes)
{
	size_t n = json_array_size(classes); /* the default class last */
	char **body = gen_xcalloc(n + 1, sizeof *body);
	for (size_t i = 0; i < n; i++)
		body[i] = class_body(json_array_get(classes, i));
	bool *gone = gen_xcalloc(n + 1, sizeof *gone);
	for (size_t i = 0; i + 1 < n; i++) {
		if (gone[i])
			continue;
		if (strcmp(body[i], body[n - 1]) == 0) {
			gone[i] = true;
			continue;
		}
		json_t *cases = json_object_get(json_array_get(classes, i), "cases");
		for (size_t j = i + 1; j + 1 < n; j++)
			if (!gone[j] && strcmp(body[i], body[j]) == 0) {
				json_array_extend(cases, json_object_get(json_array_get(classes, j), "cases"));
				gone[j] = true;
			}
	}
	for (size_t i = n; i-- > 0;)
		if (gone[i])
			json_array_remove(classes, i);
	for (size_t i = 0; i < n; i++)
		free(body[i]);
	free(body);
	free(gone);
}

/* The message's rules by where it sits (its "contract_classes", for the generated walk of
 * deparse.inc.c): one class per parent slot its rules name (merged where they ask alike:
 * merge_classes), then the default one (every other slot, and the root), each with the tests a
 * message there must pass for none of the rules to be broken. The runtime builds a class per slot
 * from the rule tables (contract.c: build_classes) to find which rule a message that fails a test
 * breaks. */
static void contract_classes(json_t *m, size_t mi, json_t *rules, json_t *messages, json_t *enums,
							 const unsigned char *leaf_bits)
{
	json_int_t first = json_integer_value(json_object_get(m, "deparse_first"));
	json_int_t count = json_integer_value(json_object_get(m, "deparse_count"));
	json_t *keys = json_object(), *classes = json_array();
	for (json_int_t r = first; r < first + count; r++) {
		size_t i;
		json_t *p;
		json_array_foreach(json_object_get(json_array_get(rules, (size_t)r), "parents"), i, p)
		{
			char k[24];
			snprintf(k, sizeof k, "%010lld", (long long)slot_key(p));
			json_object_set(keys, k, p);
		}
	}
	size_t n = json_object_size(keys), at = 0;
	const char **sorted = gen_xcalloc(n + 1, sizeof *sorted);
	const char *k;
	json_t *p;
	json_object_foreach(keys, k, p) sorted[at++] = k;
	qsort(sorted, n, sizeof *sorted, compare_strings);
	json_t *fields = json_object_get(m, "fields");
	size_t n_fields = json_array_size(fields);
	bool *leaves = gen_xcalloc(n_fields + 1, sizeof *leaves); /* every class's test asks leaves of it */
	for (size_t fi = 0; fi < n_fields; fi++)
		leaves[fi] = strcmp(S(json_array_get(fields, fi), "wire"), "REPEATED_NODE") == 0;
	for (size_t c = 0; c <= n; c++) {
		json_t *parent = c < n ? json_object_get(keys, sorted[c]) : NULL;
		json_int_t key = parent ? slot_key(parent) : -1;
		json_t *tests = json_array();
		for (size_t fi = 0; fi < n_fields; fi++) {
			char id[64];
			snprintf(id, sizeof id, "%zu_%zu_%zu", mi, c, fi);
			json_t *t = class_test(m, fi, rules, first, count, key, id);
			leaves[fi] = leaves[fi] && test_asks_leaves(t, leaf_bits);
			if (t)
				json_array_append_new(tests, t);
		}
		json_t *cases = json_array();
		if (parent)
			json_array_append_new(cases, json_pack("{s:I, s:s}", "key", key, "name", S(parent, "name")));
		json_t *cls = json_pack("{s:o, s:b, s:o, s:o}", "cases", cases, "default", parent == NULL, "tests", tests,
								"guards", class_guards(m, rules, first, count, key, messages, enums));
		json_array_append_new(classes, cls);
	}
	merge_classes(classes);
	/* a list whose cells a message that meets its class's tests holds only as leaves: the walk
	 * counts the level without a visit of each cell (contract.c: CW_LEAVES) */
	for (size_t fi = 0; fi < n_fields; fi++)
		json_object_set_new(json_array_get(fields, fi), "contract_leaves", json_boolean(leaves[fi]));
	free(leaves);
	free(sorted);
	json_decref(keys);
	json_object_set_new(m, "contract_classes", classes);
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

bool deparse_rules_build(Overrides *ov, json_t *messages, json_t *enums, json_t *nodes, json_t **out, gen_Error *err)
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
				ok = build_rule(&w, value, messages, enums, nodes, (int)i, (int)j, rules);
			}
		}
		json_object_set_new(m, "deparse_first", json_integer(first));
		json_object_set_new(m, "deparse_count", json_integer((json_int_t)json_array_size(rules) - first));
		if (!ok)
			break;
	}
	json_array_foreach(rules, i, m)
	{
		json_object_set_new(m, "id", json_integer((json_int_t)i));
		json_array_foreach(json_object_get(m, "conditions"), j, f)
		{ /* the rule's id, and its own for C names (contract_if_strings_<rule>_<k>) */
			json_object_set_new(f, "rule", json_integer((json_int_t)i));
			json_object_set_new(f, "id", json_sprintf("%zu_%zu", i, j));
		}
	}
	if (!ok) {
		json_decref(rules);
		return false;
	}
	*out = rules;
	return true;
}

void deparse_rules_classes(json_t *messages, json_t *enums, json_t *nodes, json_t *rules)
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
	json_array_foreach(messages, i, m) contract_classes(m, i, rules, messages, enums, leaf_bits);
}
