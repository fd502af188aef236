/*
 * behaviours.c -- libpg_query's behaviours, declared in schema/libpg_query.txt, into the view
 * (see behaviours.h). Each key takes the values listed below and nothing else; an entry naming a
 * message or field the model lacks is left unused, which overrides_check_all_used reports.
 */
#include "behaviours.h"

#include <stdlib.h>
#include <string.h>

static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* Each key's values (what each does: targets/c/runtime/internal.h, PGBIND_LPQ_*). Targets are the message and
 * its C field names (the AST's), `*.field` every message's field of that name. */
static const char *const lpq_message_fingerprint[] = {"skip", "constant", "relation_context", "depth_cuts_messages",
													  NULL};
static const char *const lpq_message_normalize[] = {"walk", "comments_skipped", "vertical_tab_space", NULL};
static const char *const lpq_field_fingerprint[] = {"skip",
													"sorted",
													"unnamed_targets",
													"target_name",
													"in_any_as_op",
													"digit_runs_dropped",
													"temp_hides_relname",
													"constant_hides_parent",
													"relation_context",
													"alias_name",
													"outside_relation_context",
													NULL};
static const char *const lpq_field_normalize[] = {
	"walk",       "targets",     "group_by",          "order_by",     "target_value",      "sort_key", "string_arg",
	"quote_from", "text_search", "constant_location", "param_number", "location_needs_it", NULL};

/* Appends "key:value" of target to rules (a JSON array); false with file:line on an unknown value. */
static bool lpq_key(Overrides *ov, gen_Error *err, const char *target, const char *key, const char *const *values,
					json_t *rules)
{
	const char *v = overrides_get(ov, target, key);
	if (!v)
		return true;
	if (gen_one_of(v, values)) {
		gen_Buf rule = {0};
		gen_Buf_printf(&rule, "%s:%s", key, v);
		json_array_append_new(rules, json_string(rule.data));
		gen_Buf_free(&rule);
		return true;
	}
	gen_Buf known = {0};
	for (const char *const *lv = values; *lv; lv++)
		gen_Buf_printf(&known, "%s%s", known.len ? ", " : "", *lv);
	bool ok = overrides_fail(ov, err, target, key, "%s %s:%s: not a value of %s (%s)", target, key, v, key, known.data);
	gen_Buf_free(&known);
	return ok;
}

static bool has_rule(json_t *rules, const char *const *any)
{
	size_t i;
	json_t *r;
	json_array_foreach(rules, i, r) if (gen_one_of(json_string_value(r), any)) return true;
	return false;
}

bool behaviours_declare(Overrides *ov, json_t *messages, gen_Error *err)
{
	static const char *const walks[] = {"normalize:walk",     "normalize:targets",    "normalize:group_by",
										"normalize:order_by", "normalize:string_arg", NULL};
	static const char *const ints[] = {"normalize:constant_location", "normalize:param_number", "normalize:quote_from",
									   NULL};
	size_t i, j;
	json_t *m, *f;
	json_array_foreach(messages, i, m)
	{
		const char *name = str(m, "name");
		json_t *rules = json_array();
		json_object_set_new(m, "libpg_query", rules);
		if (!lpq_key(ov, err, name, "fingerprint", lpq_message_fingerprint, rules) ||
			!lpq_key(ov, err, name, "normalize", lpq_message_normalize, rules))
			return false;
		json_array_foreach(json_object_get(m, "fields"), j, f)
		{
			gen_Buf target = {0}, any = {0};
			gen_Buf_printf(&target, "%s.%s", name, str(f, "name"));
			gen_Buf_printf(&any, "*.%s", str(f, "name"));
			json_t *fr = json_array();
			json_object_set_new(f, "libpg_query", fr);
			bool ok = lpq_key(ov, err, target.data, "fingerprint", lpq_field_fingerprint, fr) &&
					  lpq_key(ov, err, any.data, "fingerprint", lpq_field_fingerprint, fr) &&
					  lpq_key(ov, err, target.data, "normalize", lpq_field_normalize, fr);
			/* a walked field holds nodes; a location is an int32 */
			const char *wire = str(f, "wire");
			bool child = strcmp(wire, "NODE") == 0 || strcmp(wire, "ONEOF") == 0 || strcmp(wire, "MESSAGE") == 0 ||
						 strcmp(wire, "REPEATED_NODE") == 0 || strcmp(wire, "REPEATED_MESSAGE") == 0;
			if (ok && ((has_rule(fr, walks) && !child) || (has_rule(fr, ints) && strcmp(wire, "INT32") != 0)))
				ok = overrides_fail(ov, err, target.data, "normalize", "%s (%s) cannot be %s", target.data, wire,
									overrides_get(ov, target.data, "normalize"));
			const char *order = ok ? overrides_get(ov, target.data, "normalize_order") : NULL;
			char *end = NULL;
			long n = order ? strtol(order, &end, 10) : (long)j;
			if (order && (*end || n < 0 || n > 255))
				ok = overrides_fail(ov, err, target.data, "normalize_order",
									"%s normalize_order:%s: a number from 0 to 255", target.data, order);
			bool embedded = false;
			json_t *conv;
			size_t k;
			json_array_foreach(json_object_get(m, "from_pg"), k, conv) embedded |=
				strcmp(str(conv, "conv"), "EMBEDDED") == 0 && strcmp(str(conv, "ast_field"), str(f, "name")) == 0;
			json_object_set_new(f, "normalize_order", json_integer(n));
			json_object_set_new(f, "embedded", json_boolean(embedded));
			gen_Buf_free(&target);
			gen_Buf_free(&any);
			if (!ok)
				return false;
		}
	}
	return true;
}
