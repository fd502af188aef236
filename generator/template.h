/*
 * template.h -- the strict mustache-subset template engine that turns the files under
 * templates/ into C source. Its single entry point is template_render(): it parses a template
 * text once and renders it against a jansson object, appending to a gen_Buf.
 *
 * Supported tags: {{key}}, {{a.b}}, {{.}}, {{#key}}...{{/key}}, {{^key}}...{{/key}}, {{! comment }}
 * and, inside array sections, {{@index}}, {{@first}}, {{@last}}. Standalone section, close and
 * comment tags take their whole line with them, as in mustache. There is no HTML escaping, no
 * partials, no delimiter changes and no lambdas. Unlike mustache, a key that is found nowhere
 * on the context stack is an error rather than an empty string, so typos in templates fail
 * the build instead of silently producing wrong code.
 */
#ifndef PGBIND_GENERATOR_TEMPLATE_H
#define PGBIND_GENERATOR_TEMPLATE_H

#include <stdbool.h>

#include <jansson.h>

#include "common.h"

/* Renders `text` (the template, named `name` for error messages) with `ctx` (an object) and
 * appends the output to out. Returns false with err = name:line:col of the offending tag; out
 * is then left exactly as it was on entry. */
bool template_render(const char *name, const char *text, json_t *ctx, gen_Buf *out, gen_Error *err);

#endif
