/*
 * overrides.h -- the declarative exceptions: schema/overrides.txt (libpg_query's protocol),
 * schema/libpg_query.txt (its behaviours) and schema/pgNN/deparse.txt (the deparse contract),
 * each line for the majors its since:/until: say (every major without them).
 *
 * Each line names a proto message or field and sets keys on it, in the manner of nanopb's
 * .options files:
 *
 *     Message          key:value [key:value ...]
 *     Message.field    key:value [key:value ...]
 *
 * `#` starts a comment. `*.field` names the field of that name in every message (as the
 * libpg_query rules of schema/libpg_query.txt need: `*.location fingerprint:skip`). The classifier asks for keys with overrides_get(); every entry must be
 * used by the end of classification (overrides_check_all_used), so a stale exception is an error
 * rather than dead text.
 */
#ifndef PGBIND_GENERATOR_OVERRIDES_H
#define PGBIND_GENERATOR_OVERRIDES_H

#include "common.h"

#include <jansson.h>

typedef struct Overrides Overrides;

/* An empty set for PostgreSQL major `major` (`name` stands for it in errors): a line may end in
 * `since:N` and/or `until:N` (majors, both ends included), and its entries count only where major
 * is in that range, so the behaviours of libpg_query are declared once, by the major they start
 * and end at, and a major no file names inherits those still open. */
Overrides *overrides_new(const char *name, int major);
/* Reads path; NULL with err (file:line:col) on a syntax error. No major: since:/until: are errors. */
Overrides *overrides_read(const char *path, gen_Error *err);
/* Same, from text in memory; `name` stands for the file in errors. */
Overrides *overrides_parse(const char *name, const char *text, gen_Error *err);
/* Adds a further file's entries (the version's own after the shared ones); a key set for the
 * same target in two files is an error, as within one. false with err. */
bool overrides_read_more(Overrides *ov, const char *path, gen_Error *err);
bool overrides_parse_more(Overrides *ov, const char *name, const char *text, gen_Error *err);
void overrides_free(Overrides *ov);

/* The value of `key` on `target` ("Message" or "Message.field"), or NULL. Marks it used. */
const char *overrides_get(Overrides *ov, const char *target, const char *key);

/* The next entry on target whose key is key_prefix or key_prefix_LABEL, from entry *from on (start
 * at 0): its value, with its key in *key, *from advanced; NULL when there is none. Marks it used.
 * For keys that may occur several times on one target under different labels (deparse_copy:...). */
const char *overrides_get_prefixed(Overrides *ov, const char *target, const char *key_prefix, size_t *from,
								   const char **key);

/* Where an entry was written, for error messages ("schema/overrides.txt:12:1"). */
const char *overrides_location(Overrides *ov, const char *target, const char *key);

/* Fills err with the entry's own location (file, line, col) and a message; returns false. */
bool overrides_fail(Overrides *ov, gen_Error *err, const char *target, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fails, naming the first entry nothing asked for. */
bool overrides_check_all_used(Overrides *ov, gen_Error *err);

/* The overrides as JSON, for the generated summary: [{target, key, value, location}]. */
json_t *overrides_to_json(const Overrides *ov);

#endif
