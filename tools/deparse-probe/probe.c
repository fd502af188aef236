/*
 * probe.c -- deparse-probe: finds what the linked libpg_query's deparser requires of a tree, and
 * writes it as the deparse contract (schema/pgNN/deparse.txt, overrides format, read by
 * pgbind-gen; see generator/deparse_rules.c for the clauses).
 *
 * It starts from real statements (SQL files given on the command line, split as `pgbind verify`
 * splits them), keeps those whose tree deparses and parses back to itself, and for every message
 * kind and field that occurs in them, in each parent field it occurs in, takes a few instances and
 * changes them one at a time: a string, node or message set to NULL, a list emptied, a list cell
 * (the first two) set to NULL, a node or a cell replaced by a node of every other kind (the
 * smallest instance of that kind in the corpus, or a zeroed node of a kind the corpus lacks). Each
 * case is deparsed with pgbind_deparse_unchecked in a child process (a fork server: one child runs
 * cases until one kills it; the parent records that case as a crash and starts the next child after
 * it) and classified: crash (a signal, or no answer in 10 s), misread (SQL that parses to another
 * tree), SQL that does not parse, an error, or the same tree back. A NULL or an empty list is bad
 * where it crashes; a node of another kind is bad unless the SQL parses back to the tree holding it
 * (else the deparser may have read it as the kind it expected, which crashes or not by what lies
 * past the node: fuzzing with ASan found such trees the signal missed). Bad outcomes become rules:
 * for a field with the same outcome in every parent, one rule; else one per parent (in=); where the
 * outcome differs within one parent, by the value of a string or enum field of the message when one
 * explains it (if=), for a NULL or an empty list by whether a node field of the message is set
 * (ifset=), or by a string or enum field of the parent (ifparent=). The values the corpus does not
 * show are not guessed where they can be tried: the first instance of each NULL or empty change is
 * tried again with each other value of each enum field of its message, and a string field set to a
 * name no statement holds (sweeps; the new name on the first instance of each other combination of
 * the message's enum values too); a rule for unseen values (ifnot=) leaves out those found fine,
 * and none is written for unseen names when the novel name is fine (nor where the parser leaves the
 * field NULL for some names, but for the enum values every instance crashes with). The NULLs the
 * corpus holds are tried with other values too (natural_sweeps: with each other value of the
 * message's and the parent's enum fields, a control with the field filled telling whether the NULL
 * is to blame), and a list the corpus always shows with three cells or more is cut by one
 * (cut_lists). An enum's UNDEFINED (0) is read by the deparser as its first value
 * (pgbind_enum_zero_is_undefined), so it is never tried as a value of its own.
 * Soundness (no tree the parser builds is refused): statements that deparse without a crash but
 * misread are evidence (their NULLs, kinds and values are fine), and give NULL and empty changes
 * only (a crash is a crash; no kind change can parse back to their tree); and no rule refuses a
 * kind that a statement of the corpus holds where the rule applies (emit() clears it, matching
 * parents and if=/ifnot= values as targets/c/runtime/contract.c does); an enum value the corpus
 * shows at a field but no probed instance has gets the kinds the corpus shows with it.
 *
 *     deparse-probe --major 15 --out schema/pg15/deparse.txt FILE.sql...
 *
 * A tool of the project's, not part of the installed pgbind: it links the static library and
 * cli/input.c.
 */
#include "cli.h"
#include "pg_query.h" /* PG_VERSION_NUM: the cache is per libpg_query */
#include "internal.h"
#include "pgbind.h"
#include "pgbind_reflect.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_KINDS 512
#define NULL_CAP  24 /* instances per (field, parent, cell) for the NULL and empty changes */
#define SUBST_CAP 12 /* ... for the kind changes */

typedef struct {
	uint64_t w[MAX_KINDS / 64];
} Bits;

static void bit_set(Bits *b, unsigned k)
{
	b->w[k / 64] |= 1ull << (k % 64);
}
static bool bit_get(const Bits *b, unsigned k)
{
	return (b->w[k / 64] >> (k % 64)) & 1;
}
static bool bits_empty(const Bits *b)
{
	for (size_t i = 0; i < MAX_KINDS / 64; i++)
		if (b->w[i])
			return false;
	return true;
}
static bool bits_equal(const Bits *a, const Bits *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

typedef struct {
	const char *sql;
	pgbind_ParseResult *tree;
	bool evidence_only; /* deparses without a crash but misread: its NULLs and kinds are evidence, no cases */
} Stmt;

/* CH_TRUNC: a list of two or more cells cut to its first (the deparser may take a second one for
 * granted: CREATE AGGREGATE's args are a list of two); CH_FILL: a natural NULL or empty list given
 * another instance's value (a control of natural_sweeps) */
enum Change { CH_NULL, CH_EMPTY, CH_SUBST, CH_NONE, CH_TRUNC, CH_FILL };

static bool culprit_mode;       /* enumerating the sites of statements that crash as they are */
static bool evidence_mode;      /* ... of statements that deparse without a crash but misread */
static int site_depth;          /* the depth sites_in is at, for new_site */
static const char *site_parent; /* ... and the base of the message it is in the field of */
static uint64_t site_context;   /* ... and its context (sites_in) */

/* One instance of a field: where it lies, and which group it belongs to. */
typedef struct {
	int stmt;
	uint32_t msg, field;
	int parent_msg, parent_field;
	int cell; /* -1: the field itself */
	enum Change change;
	const char *base;        /* the message holding the field */
	const char *parent_base; /* the message whose field holds that one (NULL at the root) */
	void **slot;             /* the pointer changed (the field, or the cell) */
	size_t *count;           /* CH_EMPTY, CH_TRUNC: the list's count */
	Bits bad;                /* the outcome: bit 0 for NULL/empty, the kind's tag for SUBST */
	Bits crashed;            /* ... of those, the ones that crashed (a signal, or no answer) */
	Bits same;               /* SUBST: kinds of which a sample parsed back to the changed tree */
	Bits natcrashed;     /* SUBST: kinds the parser puts in the field elsewhere, whose natural sample crashed here */
	bool control_failed; /* SUBST: the control (another node the corpus holds there) did not parse back */
	bool natural;        /* not a change: the field is NULL (empty) in a statement that deparses */
	bool culprit;        /* a site of a corpus statement the deparser crashes on or misreads as it is */
	bool evidence;       /* ... changing it there made the statement deparse: its own value is bad */
	bool fill;           /* culprit: the field is NULL, and the change puts a node there */
	uint64_t sig;        /* the message's string and enum values */
	int depth;           /* of the message in its statement's tree */
	int first_sweep, n_sweeps;
	void *with;        /* CH_FILL: the value put in the slot */
	size_t with_count; /* ... and the list's count (count not NULL) */
} Site;

/* What a kind change puts in the field: the kind's sample (smallest, or larger), the site's control
 * (another node of its own kind from the same field), or a natural sample (a node of that kind
 * the parser puts in the same field in another parent) */
enum Role { ROLE_SAMPLE, ROLE_CONTROL, ROLE_NATURAL };

typedef struct {
	int site;
	uint32_t kind;           /* CH_SUBST: the tag put there */
	bool big;                /* ... its larger sample */
	int sweep;               /* -1, or the sweep (another value of a string or enum field) applied with the change */
	const pgbind_Node *node; /* SUBST, ROLE_CONTROL and ROLE_NATURAL: the node put there */
	enum Role role;
} Case;

/* A sweep: the change of a site made with a string or enum field of its message set to another
 * value (every other enum value; for a string, a name no statement holds), so that a rule decided
 * by that field is known for the values the corpus does not show, not guessed. */
typedef struct {
	int site;
	uint32_t field;
	int value;        /* enum: the value; string: unused (the novel name, or str) */
	uint8_t out;      /* the outcome */
	const char *str;  /* a confirmation (write_rules): the string value of another instance */
	const void *node; /* ... of a node or message field (is_presence): its value there, NULL or not */
	bool parent;      /* ... of a field of the message's parent (field: its index there) */
	int also_list;    /* list_sweeps: 1 + a list field of the message emptied too (0: none) */
} Sweep;
static Sweep *sweeps;
static size_t n_sweeps, cap_sweeps;
static const char novel_name[] = "pgbind_probe_novel_name";

static Stmt *stmts, *bad_stmts;
static size_t n_stmts, cap_stmts, n_bad_stmts, cap_bad_stmts;
static Site *sites;
static size_t n_sites, cap_sites;
static Case *cases;
static size_t n_cases, cap_cases;
/* Per kind: its smallest instance in the corpus, and its smallest of at least three nodes (a List
 * with items, a FuncCall with arguments); a kind the corpus lacks: a zeroed node (zeroed[k]). */
static pgbind_Node *samples[MAX_KINDS], *samples_big[MAX_KINDS];
static size_t sample_size[MAX_KINDS], sample_big_size[MAX_KINDS];
static bool zeroed[MAX_KINDS];
static pgbind_Arena *keep;

#define GROW(a, n, cap)                                            \
	do {                                                           \
		if ((n) == (cap)) {                                        \
			(cap) = (cap) ? 2 * (cap) : 1024;                      \
			(a) = realloc((a), (cap) * sizeof *(a));               \
			if (!(a)) {                                            \
				fprintf(stderr, "deparse-probe: out of memory\n"); \
				exit(2);                                           \
			}                                                      \
		}                                                          \
	} while (0)

/* ---- the outcome of one deparse ---------------------------------------------------------------- */

/* fine: the deparser's error; same: SQL that parses back to the (changed) tree; unparsed: SQL that
 * does not parse (for a node of another kind: the deparser read it as the kind it expected, which
 * crashes or not by what lies in memory there, so it is refused like a crash) */
enum { OUT_FINE = 0, OUT_MISREAD = 1, OUT_CRASH = 2, OUT_PENDING = 3, OUT_SAME = 4, OUT_UNPARSED = 5 };

static int deparse_outcome(const pgbind_ParseResult *tree)
{
	pgbind_Arena *arena = pgbind_Arena_New();
	pgbind_Status status;
	int out = OUT_FINE;
	const char *sql = pgbind_deparse_unchecked(tree, NULL, arena, &status);
	if (sql) {
		pgbind_ParseResult *back = pgbind_parse(sql, NULL, arena, &status);
		char path[200];
		if (back)
			out = pgbind_first_difference(tree, back, true, path, sizeof path) ? OUT_MISREAD : OUT_SAME;
		else
			out = OUT_UNPARSED;
	}
	pgbind_Arena_Free(arena);
	return out;
}

/* ---- the fork server ------------------------------------------------------------------------- */

static void *sweep_saved;

/* A node or message field: a rule can test whether it is set (ifset=, ifnotset=), by one instance's
 * value. Lists are not among them (a confirmation would have to put a list in place). */
static bool is_presence(pgbind_WireKind wire)
{
	return wire == PGBIND_WIRE_NODE || wire == PGBIND_WIRE_ONEOF || wire == PGBIND_WIRE_MESSAGE;
}

/* Whether a sweep of enum field f tries value, the field holding own: another value, and never
 * UNDEFINED, which the deparser reads as the first value (pgbind_enum_zero_is_undefined). */
static bool other_value(const pgbind_FieldDesc *f, int value, int own)
{
	return value != own && !(value == 0 && pgbind_enum_zero_is_undefined(f->type_index));
}

static bool is_list(pgbind_WireKind wire)
{
	return wire == PGBIND_WIRE_REPEATED_NODE || wire == PGBIND_WIRE_REPEATED_MESSAGE;
}

static void sweep_apply(const Case *c, bool undo)
{
	if (c->sweep < 0)
		return;
	const Sweep *w = &sweeps[c->sweep];
	const Site *s = &sites[w->site];
	const pgbind_FieldDesc *f = &pgbind_message_descs[w->parent ? (uint32_t)s->parent_msg : s->msg].fields[w->field];
	void *p = (char *)(w->parent ? s->parent_base : s->base) + f->offset;
	if (is_list(f->wire)) { /* emptied (list_sweeps) */
		size_t *count = (size_t *)((char *)(w->parent ? s->parent_base : s->base) + f->count_offset);
		if (!undo)
			sweep_saved = (void *)(uintptr_t)*count;
		*count = undo ? (size_t)(uintptr_t)sweep_saved : 0;
	} else if (is_presence(f->wire)) {
		if (!undo)
			sweep_saved = *(void **)p;
		*(const void **)p = undo ? sweep_saved : w->node;
	} else if (f->wire == PGBIND_WIRE_STRING) {
		if (!undo)
			sweep_saved = *(void **)p;
		*(const void **)p = undo ? sweep_saved : w->str ? w->str : novel_name;
	} else if (f->wire == PGBIND_WIRE_BOOL) {
		if (!undo)
			sweep_saved = (void *)(intptr_t) * (bool *)p;
		*(bool *)p = undo ? (bool)(intptr_t)sweep_saved : w->value != 0;
	} else {
		if (!undo)
			sweep_saved = (void *)(intptr_t) * (int *)p;
		*(int *)p = undo ? (int)(intptr_t)sweep_saved : w->value;
	}
	if (w->also_list) {
		static size_t saved_count;
		size_t *count = (size_t *)(s->base + pgbind_message_descs[s->msg].fields[w->also_list - 1].count_offset);
		if (!undo)
			saved_count = *count;
		*count = undo ? saved_count : 0;
	}
}

static void apply(const Case *c, void **saved, size_t *saved_count)
{
	Site *s = &sites[c->site];
	sweep_apply(c, false);
	if (s->change == CH_NONE || s->natural) /* a natural site: only its sweep changes the tree */
		return;
	*saved = *s->slot;
	if (s->change == CH_FILL) {
		*s->slot = s->with;
		if (s->count) {
			*saved_count = *s->count;
			*s->count = s->with_count;
		}
	} else if (s->change == CH_EMPTY || s->change == CH_TRUNC) {
		*saved_count = *s->count;
		*s->count = s->change == CH_TRUNC ? 1 : 0;
	} else {
		*s->slot = s->change == CH_NULL ? NULL
				   : c->node            ? (void *)c->node
				   : c->big             ? samples_big[c->kind]
										: samples[c->kind];
	}
}

static void undo(const Case *c, void *saved, size_t saved_count)
{
	Site *s = &sites[c->site];
	if (s->change != CH_NONE && !s->natural) {
		*s->slot = saved;
		if (s->change == CH_EMPTY || s->change == CH_TRUNC || (s->change == CH_FILL && s->count))
			*s->count = saved_count;
	}
	sweep_apply(c, true);
}

static uint64_t mix(uint64_t h, uint64_t v);

/* ---- the outcome cache ------------------------------------------------------------------------ */

/* --cache FILE: outcomes by the content of the tree deparsed (tree_hash), so that a run after a
 * change of the probe deparses only the trees no earlier run did. Entries are 64-bit words, the
 * tree's hash with its low 3 bits holding the outcome, appended as children finish; the header
 * names the libpg_query (PG_VERSION_NUM) and the version of deparse_outcome's classification
 * (CACHE_VERSION: bump it when what an outcome means changes). */
#define CACHE_VERSION 2                     /* 2: children fill what malloc hands out with a pattern (M_PERTURB) */
#define CACHE_MAGIC   0x7062676270726f62ull /* "pgbgprob" */
static uint64_t *cache_slots;
static size_t cache_cap, cache_used;
static FILE *cache_out;

static uint64_t cache_key(uint64_t h)
{
	h &= ~(uint64_t)7;
	return h ? h : 8;
}

static void cache_put(uint64_t word)
{
	if ((cache_used + 1) * 2 > cache_cap) {
		size_t old_cap = cache_cap;
		uint64_t *old = cache_slots;
		cache_cap = old_cap ? old_cap * 2 : (1u << 20);
		cache_slots = calloc(cache_cap, sizeof *cache_slots);
		cache_used = 0;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				cache_put(old[i]);
		free(old);
	}
	size_t i = (word >> 3) & (cache_cap - 1);
	while (cache_slots[i] && (cache_slots[i] & ~(uint64_t)7) != (word & ~(uint64_t)7))
		i = (i + 1) & (cache_cap - 1);
	cache_used += !cache_slots[i];
	cache_slots[i] = word;
}

/* the outcome cached for the key, or OUT_PENDING */
static int cache_get(uint64_t key)
{
	if (!cache_cap)
		return OUT_PENDING;
	size_t i = (key >> 3) & (cache_cap - 1);
	for (; cache_slots[i]; i = (i + 1) & (cache_cap - 1))
		if ((cache_slots[i] & ~(uint64_t)7) == key)
			return (int)(cache_slots[i] & 7);
	return OUT_PENDING;
}

static void cache_open(const char *path)
{
	uint64_t header[3] = {CACHE_MAGIC, CACHE_VERSION, PG_VERSION_NUM}, got[3], word;
	FILE *f = fopen(path, "rb");
	size_t n = 0;
	if (f && fread(got, sizeof got, 1, f) == 1 && memcmp(got, header, sizeof got) == 0) {
		while (fread(&word, sizeof word, 1, f) == 1) {
			cache_put(word);
			n++;
		}
		fclose(f);
		cache_out = fopen(path, "ab");
	} else {
		if (f)
			fclose(f);
		cache_out = fopen(path, "wb");
		if (cache_out)
			fwrite(header, sizeof header, 1, cache_out);
	}
	if (!cache_out)
		perror(path);
	fprintf(stderr, "deparse-probe: %zu outcomes cached in %s\n", n, path);
}

/* Records the outcomes of cases [from, to) found by children in the cache and its file. */
static void cache_record(const uint64_t *keys, const uint8_t *res, size_t from, size_t to)
{
	for (size_t i = from; cache_out && i < to; i++) {
		if (res[i] == OUT_PENDING || cache_get(keys[i]) != OUT_PENDING)
			continue;
		uint64_t word = keys[i] | res[i];
		cache_put(word);
		fwrite(&word, sizeof word, 1, cache_out);
	}
	if (cache_out)
		fflush(cache_out);
}

static void hash_message(uint64_t *h, const pgbind_MessageDesc *d, const char *base, int depth);

static void hash_node(uint64_t *h, const pgbind_Node *n, int depth)
{
	const pgbind_MessageDesc *d = n ? pgbind_node_desc(n->tag) : NULL;
	*h = mix(*h, n ? n->tag + 0x10000u : 0xffff);
	if (d)
		hash_message(h, d, (const char *)n, depth + 1);
}

/* Every value of the tree, NULLs and list lengths included (its protobuf would not tell a NULL
 * string from an empty one, which the deparser does). */
static void hash_message(uint64_t *h, const pgbind_MessageDesc *d, const char *base, int depth)
{
	if (depth > 10000)
		return;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const char *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		*h = mix(*h, i + 0x20000u);
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
		case PGBIND_WIRE_ENUM:
			*h = mix(*h, (uint64_t)(int64_t) * (const int32_t *)p);
			break;
		case PGBIND_WIRE_UINT32:
			*h = mix(*h, *(const uint32_t *)p);
			break;
		case PGBIND_WIRE_INT64:
		case PGBIND_WIRE_UINT64:
			*h = mix(*h, *(const uint64_t *)p);
			break;
		case PGBIND_WIRE_BOOL:
			*h = mix(*h, *(const bool *)p);
			break;
		case PGBIND_WIRE_DOUBLE: {
			uint64_t bits;
			memcpy(&bits, p, sizeof bits);
			*h = mix(*h, bits);
			break;
		}
		case PGBIND_WIRE_STRING: {
			const char *s = *(const char *const *)p;
			*h = mix(*h, s ? 0x300 : 0x301);
			for (; s && *s; s++)
				*h = mix(*h, (unsigned char)*s);
			break;
		}
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			hash_node(h, *(pgbind_Node *const *)p, depth);
			break;
		case PGBIND_WIRE_MESSAGE:
			*h = mix(*h, *(void *const *)p ? 0x400 : 0x401);
			if (*(void *const *)p)
				hash_message(h, &pgbind_message_descs[f->type_index], *(const char *const *)p, depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			*h = mix(*h, n);
			for (size_t k = 0; k < n; k++)
				hash_node(h, (*(pgbind_Node *const *const *)p)[k], depth);
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			*h = mix(*h, n);
			for (size_t k = 0; k < n; k++) {
				const char *m = (*(const char *const *const *)p)[k];
				*h = mix(*h, m ? 0x400 : 0x401);
				if (m)
					hash_message(h, &pgbind_message_descs[f->type_index], m, depth + 1);
			}
			break;
		case PGBIND_WIRE_PACKED_UINT64:
			*h = mix(*h, n);
			for (size_t k = 0; k < n; k++)
				*h = mix(*h, (*(const uint64_t *const *)p)[k]);
			break;
		}
	}
}

static uint64_t tree_hash(const pgbind_ParseResult *tree)
{
	uint64_t h = 1469598103934665603ull;
	hash_message(&h, pgbind_message_desc_by_name("ParseResult"), (const char *)tree, 0);
	return cache_key(h);
}

/* Runs cases [0, n) and fills result[i]: from the cache where it has the tree's outcome, else in
 * children; each crash costs one child. */
static void run_cases(const Case *list, size_t n, uint8_t *result)
{
	uint8_t *shared = mmap(NULL, n + sizeof(size_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("deparse-probe: mmap");
		exit(2);
	}
	volatile size_t *current = (volatile size_t *)shared;
	uint8_t *res = shared + sizeof(size_t);
	uint64_t *keys = malloc((n + 1) * sizeof *keys);
	size_t hits = 0;
	for (size_t i = 0; i < n; i++) {
		void *saved = NULL;
		size_t saved_count = 0;
		apply(&list[i], &saved, &saved_count);
		keys[i] = tree_hash(stmts[sites[list[i].site].stmt].tree);
		undo(&list[i], saved, saved_count);
		res[i] = (uint8_t)cache_get(keys[i]);
		hits += res[i] != OUT_PENDING;
	}
	size_t next = 0, crashes = 0, flushed = 0;
	time_t started = time(NULL);
	while (next < n) {
		while (next < n && res[next] != OUT_PENDING)
			next++;
		if (next == n)
			break;
		*current = next;
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			perror("deparse-probe: fork");
			exit(2);
		}
		if (pid == 0) {
			/* memory malloc hands out (the deparser's blocks) holds a pattern, not zeros: a read
			 * past what the deparser was given then meets garbage, as it may in a long-lived
			 * process, and crashes here rather than by chance (more crashes on two files tried,
			 * 45,956 against 43,491, the same rules) */
			mallopt(M_PERTURB, 165);
			for (size_t i = next; i < n; i++) {
				if (res[i] != OUT_PENDING)
					continue;
				*current = i;
				alarm(10);
				const Case *c = &list[i];
				void *saved = NULL;
				size_t saved_count = 0;
				apply(c, &saved, &saved_count);
				res[i] = (uint8_t)deparse_outcome(stmts[sites[c->site].stmt].tree);
				undo(c, saved, saved_count);
			}
			_exit(0);
		}
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		size_t at = n;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			at = *current;
			if (at / 50000 != next / 50000)
				fprintf(stderr, "deparse-probe: %zu of %zu cases, %zu crashes, %ld s\n", at, n, crashes,
						(long)(time(NULL) - started));
			res[at] = OUT_CRASH;
			crashes++;
			next = at + 1;
		}
		/* what is known so far goes to the cache file: a run cut short keeps it */
		if (at == n)
			break;
		if (at - flushed > 2000) {
			cache_record(keys, res, flushed, at + 1);
			flushed = at + 1;
		}
	}
	cache_record(keys, res, flushed, n);
	memcpy(result, res, n);
	munmap(shared, n + sizeof(size_t));
	free(keys);
	fprintf(stderr, "deparse-probe: %zu cases (%zu from the cache), %zu crashes, %ld s\n", n, hits, crashes,
			(long)(time(NULL) - started));
}

/* ---- reading the corpus ------------------------------------------------------------------------ */

static bool add_statement(const char *text, size_t at, int line, char *stmt, size_t len, void *ctx)
{
	(void)text, (void)at, (void)line, (void)len, (void)ctx;
	pgbind_Status status;
	pgbind_ParseResult *tree = pgbind_parse(stmt, NULL, keep, &status);
	if (!tree || tree->n_stmts != 1) {
		free(stmt);
		return true;
	}
	GROW(stmts, n_stmts, cap_stmts);
	stmts[n_stmts].sql = stmt;
	stmts[n_stmts].tree = tree;
	stmts[n_stmts].evidence_only = false;
	n_stmts++;
	return true;
}

/* The size of a subtree in nodes (for picking the smallest sample of each kind). */
static size_t subtree_size(const pgbind_MessageDesc *d, const char *base, int depth);

static size_t node_size(const pgbind_Node *n, int depth)
{
	const pgbind_MessageDesc *d = n ? pgbind_node_desc(n->tag) : NULL;
	return d ? subtree_size(d, (const char *)n, depth + 1) : 0;
}

static size_t subtree_size(const pgbind_MessageDesc *d, const char *base, int depth)
{
	size_t total = 1;
	if (depth > 400)
		return 1000000;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		const void *p = base + f->offset;
		size_t n = f->count_offset ? *(const size_t *)(base + f->count_offset) : 0;
		switch (f->wire) {
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			total += node_size(*(pgbind_Node *const *)p, depth);
			break;
		case PGBIND_WIRE_MESSAGE:
			if (*(void *const *)p)
				total += subtree_size(&pgbind_message_descs[f->type_index], *(const char *const *)p, depth + 1);
			break;
		case PGBIND_WIRE_REPEATED_NODE:
			for (size_t k = 0; k < n; k++)
				total += node_size((*(pgbind_Node *const *const *)p)[k], depth);
			break;
		case PGBIND_WIRE_REPEATED_MESSAGE:
			for (size_t k = 0; k < n; k++)
				if ((*(void *const *const *)p)[k])
					total += subtree_size(&pgbind_message_descs[f->type_index], (*(const char *const *const *)p)[k],
										  depth + 1);
			break;
		default:
			break;
		}
	}
	return total;
}

/* ---- the sites of a tree ---------------------------------------------------------------------- */

/* How many instances each (msg, field, parent, cell, change) group has taken, with the
 * signatures (string and enum values of the message) already taken. */
typedef struct {
	uint64_t key;
	int taken;
	bool swept; /* its first instance has its sweeps */
} Group;

/* Whether the open-addressing set of slots (a power of two) holds key (never 0); insert: and adds it. */
static bool set_has(uint64_t *set, size_t slots, uint64_t key, bool insert)
{
	key = key ? key : 1;
	size_t i = key & (slots - 1);
	while (set[i] && set[i] != key)
		i = (i + 1) & (slots - 1);
	bool had = set[i] == key;
	if (insert)
		set[i] = key;
	return had;
}

/* (group, signature) pairs already taken */
#define SIG_SLOTS (1u << 22)
static uint64_t *sigs_taken;

#define GROUP_SLOTS (1u << 20)
static Group *groups;

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

static uint64_t signature(const pgbind_MessageDesc *d, const char *base)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < d->n_fields; i++) {
		const pgbind_FieldDesc *f = &d->fields[i];
		if (f->wire == PGBIND_WIRE_STRING) {
			const char *s = *(const char *const *)(base + f->offset);
			for (; s && *s; s++)
				h = mix(h, (unsigned char)*s);
			h = mix(h, 0x100);
		} else if (f->wire == PGBIND_WIRE_ENUM) {
			h = mix(h, (uint64_t) * (const int *)(base + f->offset) + 0x200);
		}
	}
	return h;
}

static Group *group_of(uint32_t msg, uint32_t field, int pm, int pf, int cell, int change)
{
	uint64_t key =
		mix(mix(mix(mix(mix(mix(7, msg), field), (uint64_t)(pm + 1)), (uint64_t)(pf + 1)), (uint64_t)(cell + 1)),
			(uint64_t)change);
	if (!key)
		key = 1;
	size_t i = key & (GROUP_SLOTS - 1);
	while (groups[i].key && groups[i].key != key)
		i = (i + 1) & (GROUP_SLOTS - 1);
	groups[i].key = key;
	return &groups[i];
}

/* The enum values of a message (its signature without the strings). */
static uint64_t enum_signature(const pgbind_MessageDesc *d, const char *base)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < d->n_fields; i++)
		if (d->fields[i].wire == PGBIND_WIRE_ENUM)
			h = mix(h, (uint64_t) * (const int *)(base + d->fields[i].offset) + 0x200);
	return h;
}

/* (group, enum signature) pairs of which an instance has its string fields swept */
#define NOVEL_SLOTS (1u << 18)
static uint64_t *novel_swept;

/* A sweep of site i: its change again with field fi of the message set to value (an enum's; a
 * string's: a name no statement holds), and its case. */
static void add_sweep(size_t i, uint32_t fi, int value)
{
	GROW(sweeps, n_sweeps, cap_sweeps);
	sweeps[n_sweeps] = (Sweep){(int)i, fi, value, OUT_PENDING, NULL, NULL, false, 0};
	GROW(cases, n_cases, cap_cases);
	cases[n_cases++] = (Case){(int)i, 0, false, (int)n_sweeps++, NULL, ROLE_SAMPLE};
}

/* The NULL or empty change of site i (of message d) again with each string field of the message
 * set to a name no statement holds: its own sweeps. */
static void novel_sweeps(Site *s, const pgbind_MessageDesc *d, size_t i)
{
	s->first_sweep = (int)n_sweeps;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		const pgbind_FieldDesc *f = &d->fields[fi];
		if (fi != s->field && f->wire == PGBIND_WIRE_STRING && *(const char *const *)(s->base + f->offset))
			add_sweep(i, fi, 0);
	}
	s->n_sweeps = (int)n_sweeps - s->first_sweep;
}

/* (group, enum field, value) triples some taken instance has */
static uint64_t *values_taken;

/* An int field that takes a few values in the corpus (CreateOpClassItem.itemtype: 1 operator, 2
 * function, 3 storage, a C int, not an enum) decides a rule as an enum does; a location or a
 * length, with many, cannot. Counted over every message of the corpus (sites_in). */
#define FEW_INT_VALUES 4
#define INT_SLOTS      (1u << 20)
static uint64_t *int_values_seen;
static uint8_t int_distinct[PGBIND_MESSAGE_COUNT][128];

static void count_int(uint32_t mi, uint32_t fi, int32_t v)
{
	if (fi >= 128)
		return;
	uint64_t key = mix(mix(mix(0x1234567, mi), fi), (uint64_t)(int64_t)v);
	if (!set_has(int_values_seen, INT_SLOTS, key, true) && int_distinct[mi][fi] < 255)
		int_distinct[mi][fi]++;
}

static bool few_ints(uint32_t mi, uint32_t fi)
{
	return fi < 128 && pgbind_message_descs[mi].fields[fi].wire == PGBIND_WIRE_INT32 && int_distinct[mi][fi] >= 2 &&
		   int_distinct[mi][fi] <= FEW_INT_VALUES;
}

/* Whether an instance of message mi at base has a value of an enum field that no instance the
 * group took has (insert: and records its values). */
static bool new_value(const Group *g, uint32_t mi, const char *base, bool insert)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	bool fresh = false;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		if (d->fields[fi].wire != PGBIND_WIRE_ENUM)
			continue;
		uint64_t one = mix(mix(g->key, fi + 0x1000u), (uint64_t) * (const int *)(base + d->fields[fi].offset));
		fresh |= !set_has(values_taken, SIG_SLOTS, one, insert);
		/* and each pair of two enum fields' values: GRANT ON SEQUENCE s (objtype SEQUENCE, targtype
		 * OBJECT), when GRANT ON ALL SEQUENCES IN SCHEMA and GRANT ON t had shown each value */
		for (uint32_t fj = fi + 1; fj < d->n_fields; fj++)
			if (d->fields[fj].wire == PGBIND_WIRE_ENUM)
				fresh |= !set_has(values_taken, SIG_SLOTS,
								  mix(mix(one, fj + 0x2000u), (uint64_t) * (const int *)(base + d->fields[fj].offset)),
								  insert);
	}
	return fresh;
}

/* Whether the group takes one more instance with this signature. The NULLs of statements that
 * deparse are evidence, not cases: up to NATURAL_CAP, so that the values they show are known. A
 * kind change takes, past its cap, an instance with an enum value none taken has (up to
 * SUBST_VALUES_CAP): a value no instance has gets only the kinds the corpus shows in the field,
 * which DROP AGGREGATE a(*), <a List> (found by fuzz_deparse_pb) showed unsafe. */
#define NATURAL_CAP      400
#define SUBST_VALUES_CAP 64
static bool take(uint32_t msg, uint32_t field, int pm, int pf, int cell, int change, uint64_t sig, const char *base)
{
	Group *g = group_of(msg, field, pm, pf, cell, change);
	/* a oneof's kind change costs a case per member (A_Const's five): one per context, up to
	 * NATURAL_CAP, so that every option's value is tried (BEGIN ISOLATION LEVEL reads a String) */
	bool oneof = pgbind_message_descs[msg].fields[field].wire == PGBIND_WIRE_ONEOF;
	int cap = change == CH_SUBST ? (oneof ? NATURAL_CAP : SUBST_CAP) : change >= 16 ? NATURAL_CAP : NULL_CAP;
	if (g->taken >= cap &&
		(change != CH_SUBST || oneof || g->taken >= SUBST_VALUES_CAP || !new_value(g, msg, base, false)))
		return false;
	if (set_has(sigs_taken, SIG_SLOTS, mix(g->key, sig), true))
		return false;
	g->taken++;
	if (change == CH_SUBST)
		new_value(g, msg, base, true);
	return true;
}

/* The kinds each field holds, per parent field, in statements that deparse: fine there. */
#define NATURAL_SLOTS (1u << 20)
static uint64_t *natural_kinds;

static uint64_t natural_key(uint32_t mi, uint32_t fi, int pm, int pf, int cell, uint64_t sig, uint32_t kind)
{
	/* per parent field and the message's string and enum values: an instance with other values
	 * (COMMENT ON TABLE and COMMENT ON LARGE OBJECT) may need another kind; that no rule refuses a
	 * kind some statement of the corpus deparses with is emit()'s to ensure (natural_kinds) */
	uint64_t k = mix(mix(group_of(mi, fi, pm, pf, cell, CH_SUBST)->key, kind), sig);
	return k ? k : 1;
}

/* Every node the corpus's statements that deparse hold in a node field or list cell: a rule never
 * refuses one of these where it applies. */
typedef struct {
	uint32_t msg, field, kind;
	int parent_msg, parent_field, cell;
	const char *base, *parent_base;
} NatKind;
static NatKind *nat_kinds;
static size_t n_nat_kinds, cap_nat_kinds;

static void add_nat_kind(uint32_t mi, uint32_t fi, int pm, int pf, int cell, const char *base, uint32_t kind)
{
	GROW(nat_kinds, n_nat_kinds, cap_nat_kinds);
	nat_kinds[n_nat_kinds++] = (NatKind){mi, fi, kind, pm, pf, cell, base, site_parent};
}

/* A kind the field (or any of its cells) holds in some statement that deparses, in any parent and
 * with any values: the parser makes it there. Such a kind is judged at a site by the nodes of it
 * the parser puts in the field (natural samples, below), not by the kind's smallest node of the
 * corpus: it is refused only where one of those crashes, and none parses back (else a rule learnt
 * in one parent would refuse, in a parent the corpus does not show, what the parser makes: WHERE
 * a = 1 in a CTE's SELECT; and a List of Integers crashes `rightarg =` of CREATE OPERATOR, where
 * the parser puts a List of names: what such a List may hold is the rule of List.items there). */
static uint64_t natural_any_key(uint32_t mi, uint32_t fi, int cell, uint32_t kind)
{
	uint64_t k = mix(mix(mix(mix(0x9e3779b97f4a7c15ull, mi), fi), (uint64_t)(cell < 0 ? 1 : 2)), kind);
	return k ? k : 1;
}

/* The nodes of each kind the corpus's statements that deparse hold in each field (or its cells),
 * any parent: the two smallest (a site's control is the smaller one of its own node's kind that is
 * not its own node; of another kind it may be what this site's values do not take: a String where
 * SECURITY LABEL ON FUNCTION reads an ObjectWithArgs), and the natural samples: the first node in
 * each of up to NAT_SAMPLES contexts (the holding message's parent field and string and enum
 * values: `commutator = OPERATOR(s.<~>)` and `force_quote (a)` are two Lists of DefElem.arg). */
#define FIELD_NAT_SLOTS (1u << 16)
#define NAT_SAMPLES     12
typedef struct {
	uint64_t key;
	const pgbind_Node *node[2];
	size_t size[2];
	const pgbind_Node *sample[NAT_SAMPLES];
	uint64_t context[NAT_SAMPLES];
	int n_samples;
	const pgbind_Node *poisoned; /* the largest sample poisoned (poisoned_copy) */
} FieldNat;
static FieldNat *field_nats;

static FieldNat *field_nat(uint32_t mi, uint32_t fi, int cell, uint32_t kind, bool insert)
{
	uint64_t key = natural_any_key(mi, fi, cell, kind);
	size_t i = key & (FIELD_NAT_SLOTS - 1);
	while (field_nats[i].key && field_nats[i].key != key)
		i = (i + 1) & (FIELD_NAT_SLOTS - 1);
	if (!field_nats[i].key && !insert)
		return NULL;
	field_nats[i].key = key;
	return &field_nats[i];
}

static size_t node_size(const pgbind_Node *n, int depth);

static void add_field_nat(uint32_t mi, uint32_t fi, int cell, const pgbind_Node *n, uint64_t context)
{
	FieldNat *f = field_nat(mi, fi, cell, n->tag, true);
	size_t size = node_size(n, 0);
	bool known = false;
	for (int i = 0; i < f->n_samples && !known; i++)
		known = f->context[i] == context || f->sample[i] == n;
	if (!known && f->n_samples < NAT_SAMPLES) {
		f->sample[f->n_samples] = n;
		f->context[f->n_samples++] = context;
	}
	if (f->node[0] == n || f->node[1] == n)
		return;
	if (!f->node[0] || size < f->size[0]) {
		f->node[1] = f->node[0], f->size[1] = f->size[0];
		f->node[0] = n, f->size[0] = size;
	} else if (!f->node[1] || size < f->size[1]) {
		f->node[1] = n, f->size[1] = size;
	}
}

static const pgbind_Node *control_for(const Site *s)
{
	const pgbind_Node *own = *(pgbind_Node *const *)s->slot;
	const FieldNat *f = field_nat(s->msg, s->field, s->cell, own->tag, false);
	if (!f)
		return NULL;
	return f->node[0] && f->node[0] != own ? f->node[0] : f->node[1] != own ? f->node[1] : NULL;
}

static bool natural_has(uint64_t key, bool insert)
{
	return set_has(natural_kinds, NATURAL_SLOTS, key, insert) || insert;
}

static Site *new_site(int stmt, uint32_t mi, uint32_t fi, int pm, int pf, int cell, enum Change change,
					  const char *base, uint64_t sig)
{
	GROW(sites, n_sites, cap_sites);
	Site *s = &sites[n_sites++];
	memset(s, 0, sizeof *s);
	s->stmt = stmt, s->msg = mi, s->field = fi, s->parent_msg = pm, s->parent_field = pf, s->cell = cell;
	s->change = change, s->base = base, s->sig = sig, s->culprit = culprit_mode, s->depth = site_depth;
	s->parent_base = site_parent;
	return s;
}

static void add_site(int stmt, uint32_t mi, uint32_t fi, int pm, int pf, int cell, enum Change change, const char *base,
					 void **slot, size_t *count, uint64_t sig)
{
	if (!culprit_mode && change == CH_SUBST && *slot) {
		natural_has(natural_key(mi, fi, pm, pf, cell, sig, (*(pgbind_Node **)slot)->tag), true);
		natural_has(natural_any_key(mi, fi, cell, (*(pgbind_Node **)slot)->tag), true);
		if (!evidence_mode)
			add_field_nat(mi, fi, cell, *(pgbind_Node **)slot, mix(mix((uint64_t)(pm + 2), (uint64_t)(pf + 2)), sig));
		add_nat_kind(mi, fi, pm, pf, cell, base, (*(pgbind_Node **)slot)->tag);
	}
	/* a statement that misreads as it is: its NULL and empty changes are cases (a crash is a
	 * crash), its kind changes not (none can parse back to the tree that holds it) */
	if ((evidence_mode && change == CH_SUBST) ||
		(!culprit_mode && !take(mi, fi, pm, pf, cell, change, change == CH_SUBST ? sig : site_context, base)))
		return;
	Site *s = new_site(stmt, mi, fi, pm, pf, cell, change, base, sig);
	s->slot = slot, s->count = count;
}

/* Evidence, not a case: the field is NULL (or the list empty, or the cell NULL) here, and the
 * statement deparses. In a statement that crashes as it is: a case that puts a node there. */
static void add_natural(int stmt, uint32_t mi, uint32_t fi, int pm, int pf, int cell, enum Change change,
						const char *base, void **slot, uint64_t sig)
{
	if (culprit_mode) {
		pgbind_WireKind wire = pgbind_message_descs[mi].fields[fi].wire;
		if (change != CH_NULL || !slot || (wire != PGBIND_WIRE_NODE && wire != PGBIND_WIRE_REPEATED_NODE))
			return;
		Site *s = new_site(stmt, mi, fi, pm, pf, cell, CH_SUBST, base, sig);
		s->slot = slot, s->fill = true;
		return;
	}
	if (!take(mi, fi, pm, pf, cell, (int)change + 16 + (evidence_mode ? 8 : 0), site_context, base))
		return;
	Site *s = new_site(stmt, mi, fi, pm, pf, cell, change, base, sig);
	s->natural = true, s->slot = slot; /* the NULL's place (NULL for a list: natural_sweeps finds it) */
}

static void sites_in(int stmt, uint32_t mi, const char *base, const char *pbase, int pm, int pf, int depth);
static void note_count(int stmt, uint32_t mi, uint32_t fi, int pm, int pf, const char *base, void **slot,
					   size_t *count);

static void sites_in_node(int stmt, pgbind_Node *n, const char *pbase, int pm, int pf, int depth)
{
	const pgbind_MessageDesc *d = n ? pgbind_node_desc(n->tag) : NULL;
	if (!d)
		return;
	size_t size = culprit_mode || evidence_mode ? 0 : subtree_size(d, (const char *)n, 0);
	if (!culprit_mode && !evidence_mode && n->tag < MAX_KINDS && (!samples[n->tag] || size < sample_size[n->tag])) {
		samples[n->tag] = n;
		sample_size[n->tag] = size;
	}
	if (!culprit_mode && !evidence_mode && n->tag < MAX_KINDS && size >= 3 &&
		(!samples_big[n->tag] || size < sample_big_size[n->tag])) {
		samples_big[n->tag] = n;
		sample_big_size[n->tag] = size;
	}
	sites_in(stmt, (uint32_t)(d - pgbind_message_descs), (const char *)n, pbase, pm, pf, depth + 1);
}

static void sites_in(int stmt, uint32_t mi, const char *base, const char *pbase, int pm, int pf, int depth)
{
	if (depth > 200)
		return;
	/* new_site's view of where it is, as the caller had it when this returns (a list's next cell
	 * is added after the walk into the one before) */
	int caller_depth = site_depth;
	const char *caller_parent = site_parent;
	uint64_t caller_context = site_context;
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	uint64_t sig = signature(d, base);
	/* The instances a NULL or empty change takes are one per value of the message's string and
	 * enum fields; a message without such fields takes them one per context instead: the path of
	 * parent fields up to the nearest ancestor with values, and that ancestor's values. Else a
	 * TypeName in ObjectWithArgs.objargs was taken once, from a DROP FUNCTION, whose deparser reads
	 * objfuncargs instead: a NULL name there is fine, and crashes ALTER OPERATOR's. (Kind changes
	 * stay one per value: each costs a case per kind.) */
	bool has_values = false;
	for (uint32_t fi = 0; fi < d->n_fields && !has_values; fi++)
		has_values = d->fields[fi].wire == PGBIND_WIRE_STRING || d->fields[fi].wire == PGBIND_WIRE_ENUM;
	uint64_t context =
		has_values ? sig : mix(mix(mix(caller_context, mi + 1u), (uint64_t)(pm + 2)), (uint64_t)(pf + 2));
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		const pgbind_FieldDesc *f = &d->fields[fi];
		void **p = (void **)(base + f->offset);
		site_depth = depth, site_parent = pbase, site_context = context;
		size_t *count = f->count_offset ? (size_t *)(base + f->count_offset) : NULL;
		switch (f->wire) {
		case PGBIND_WIRE_INT32:
			if (!culprit_mode)
				count_int(mi, fi, *(const int32_t *)p);
			break;
		case PGBIND_WIRE_STRING:
			if (*p)
				add_site(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, NULL, sig);
			else
				add_natural(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, sig);
			break;
		case PGBIND_WIRE_NODE:
		case PGBIND_WIRE_ONEOF:
			if (*p) {
				add_site(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, NULL, sig);
				/* a oneof: its other members, known by context (A_Const has no values of its own) */
				add_site(stmt, mi, fi, pm, pf, -1, CH_SUBST, base, p, NULL,
						 f->wire == PGBIND_WIRE_ONEOF ? context : sig);
				sites_in_node(stmt, *p, base, (int)mi, (int)fi, depth);
			} else {
				add_natural(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, sig);
			}
			break;
		case PGBIND_WIRE_MESSAGE:
			if (*p) {
				add_site(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, NULL, sig);
				sites_in(stmt, (uint32_t)f->type_index, *p, base, (int)mi, (int)fi, depth + 1);
			} else {
				add_natural(stmt, mi, fi, pm, pf, -1, CH_NULL, base, p, sig);
			}
			break;
		case PGBIND_WIRE_REPEATED_NODE:
		case PGBIND_WIRE_REPEATED_MESSAGE: {
			void **cells = *(void ***)p;
			if (!culprit_mode && depth > 0)
				note_count(stmt, mi, fi, pm, pf, base, p, count);
			if (*count && depth > 0) /* the statement list itself is not changed */
				add_site(stmt, mi, fi, pm, pf, -1, CH_EMPTY, base, p, count, sig);
			else if (depth > 0)
				add_natural(stmt, mi, fi, pm, pf, -1, CH_EMPTY, base, NULL, sig);
			if (*count >= 2 && depth > 0)
				add_site(stmt, mi, fi, pm, pf, -1, CH_TRUNC, base, p, count, sig);
			else if (*count == 1 && depth > 0)
				add_natural(stmt, mi, fi, pm, pf, -1, CH_TRUNC, base, NULL, sig);
			for (size_t k = 0; k < *count; k++) {
				/* cell 0, and cell 1 standing for every later one */
				int cell = k < 2 ? (int)k : 1;
				if (depth > 0 && f->wire == PGBIND_WIRE_REPEATED_NODE && !cells[k])
					add_natural(stmt, mi, fi, pm, pf, cell, CH_NULL, base, &cells[k], sig);
				if (k < 2 && cells[k] && depth > 0 && f->wire == PGBIND_WIRE_REPEATED_NODE) {
					add_site(stmt, mi, fi, pm, pf, (int)k, CH_NULL, base, &cells[k], NULL, sig);
					add_site(stmt, mi, fi, pm, pf, (int)k, CH_SUBST, base, &cells[k], NULL, sig);
				} else if (k >= 2 && cells[k] && depth > 0 && f->wire == PGBIND_WIRE_REPEATED_NODE) {
					if (!culprit_mode) {
						natural_has(natural_key(mi, fi, pm, pf, 1, sig, ((pgbind_Node *)cells[k])->tag), true);
						natural_has(natural_any_key(mi, fi, 1, ((pgbind_Node *)cells[k])->tag), true);
						add_nat_kind(mi, fi, pm, pf, 1, base, ((pgbind_Node *)cells[k])->tag);
						if (!evidence_mode)
							add_field_nat(mi, fi, 1, cells[k], mix(mix((uint64_t)(pm + 2), (uint64_t)(pf + 2)), sig));
					}
				}
				if (!cells[k])
					continue;
				if (f->wire == PGBIND_WIRE_REPEATED_NODE)
					sites_in_node(stmt, cells[k], base, (int)mi, (int)fi, depth);
				else
					sites_in(stmt, (uint32_t)f->type_index, cells[k], base, (int)mi, (int)fi, depth + 1);
			}
			break;
		}
		default:
			break;
		}
	}
	site_depth = caller_depth, site_parent = caller_parent, site_context = caller_context;
}

/* A node of kind k with every field zero (every pointer NULL), kept for the run */
static pgbind_Node *zeroed_node(unsigned k)
{
	const pgbind_MessageDesc *d = pgbind_node_desc(k);
	pgbind_Node *z = pgbind_Arena_Malloc(keep, d->size);
	memset(z, 0, d->size);
	z->tag = k;
	return z;
}

/* A copy of a message with every number, flag and enum of it and of the messages below it set (a
 * number no pointer holds, true, the enum's last value), strings and pointers as they were; near
 * the top, a message field left NULL gets a message of zeros, poisoned, and an empty list a cell.
 * Read as another kind, a number where the deparser expects a pointer crashes where a zero does
 * not: ALTER MATERIALIZED VIEW v ADD <a PartitionCmd with a modulus>, read as a ColumnDef, crashes
 * 15's deparser, where the corpus's PartitionCmds, without a bound or of a range partition, do
 * not (found by fuzz_deparse_pb). v > 0: every number v and every enum its value v (or its last),
 * nothing filled in (small_of). */
static void *poisoned_copy(const pgbind_MessageDesc *d, const char *src, int depth, int v);

static pgbind_Node *poisoned_node_copy(const pgbind_Node *n, int depth, int v)
{
	return n ? poisoned_copy(pgbind_node_desc(n->tag), (const char *)n, depth + 1, v) : NULL;
}

static void *poisoned_copy(const pgbind_MessageDesc *d, const char *src, int depth, int v)
{
	char *p = memcpy(pgbind_Arena_Malloc(keep, d->size), src, d->size);
	for (uint32_t fi = 0; fi < d->n_fields && depth < 64; fi++) {
		const pgbind_FieldDesc *f = &d->fields[fi];
		char *at = p + f->offset;
		const pgbind_MessageDesc *m = f->wire == PGBIND_WIRE_MESSAGE || f->wire == PGBIND_WIRE_REPEATED_MESSAGE
										  ? &pgbind_message_descs[f->type_index]
										  : NULL;
		if (f->wire == PGBIND_WIRE_BOOL) {
			*(bool *)at = true;
		} else if (f->wire == PGBIND_WIRE_ENUM) {
			const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
			uint32_t at_most = e->n_values ? e->n_values - 1 : 0;
			*(int *)at = e->n_values ? e->values[v && (uint32_t)v < at_most ? (uint32_t)v : at_most].number : 0;
		} else if (f->wire <= PGBIND_WIRE_DOUBLE && v) {
			if (f->wire == PGBIND_WIRE_DOUBLE)
				*(double *)at = v;
			else if (f->wire == PGBIND_WIRE_INT32 || f->wire == PGBIND_WIRE_UINT32)
				*(int32_t *)at = v;
			else
				*(int64_t *)at = v;
		} else if (f->wire <= PGBIND_WIRE_DOUBLE) { /* the other numbers: bytes no pointer holds */
			memset(at, 0x41, f->wire == PGBIND_WIRE_INT32 || f->wire == PGBIND_WIRE_UINT32 ? 4 : 8);
		} else if (f->wire == PGBIND_WIRE_NODE || f->wire == PGBIND_WIRE_ONEOF) {
			*(pgbind_Node **)at = poisoned_node_copy(*(pgbind_Node **)at, depth, v);
		} else if (m && f->wire == PGBIND_WIRE_MESSAGE) {
			if (!*(char **)at && depth < 2 && !v)
				*(char **)at = memset(pgbind_Arena_Malloc(keep, m->size), 0, m->size);
			if (*(char **)at)
				*(void **)at = poisoned_copy(m, *(char **)at, depth + 1, v);
		} else if (f->wire == PGBIND_WIRE_REPEATED_NODE || m) {
			size_t *n = (size_t *)(p + f->count_offset);
			void **was = *(void ***)at, **cells;
			if (!*n && (depth >= 2 || v))
				continue;
			cells = pgbind_Arena_Malloc(keep, (*n ? *n : 1) * sizeof *cells);
			if (!*n) /* an empty list gets a cell: NULL, a message of zeros */
				cells[0] = m ? memset(pgbind_Arena_Malloc(keep, m->size), 0, m->size) : NULL;
			for (size_t c = 0; c < *n; c++)
				cells[c] = !was[c] ? NULL
						   : m     ? poisoned_copy(m, was[c], depth + 1, v)
								   : (void *)poisoned_node_copy(was[c], depth, v);
			*n = *n ? *n : 1;
			*(void ***)at = cells;
		}
	}
	return p;
}

/* The variants of a kind tried where the corpus's samples may not show what is read: a zeroed node
 * (the kind's sample where the corpus lacks it), the kind's sample poisoned, and a field's largest
 * natural sample of it (the most pointers to read numbers through) poisoned; each made once */
static pgbind_Node *zeroed_of(unsigned k)
{
	static pgbind_Node *made[MAX_KINDS];
	if (!made[k])
		made[k] = zeroed[k] ? samples[k] : zeroed_node(k);
	return made[k];
}

static pgbind_Node *poisoned_sample(unsigned k)
{
	static pgbind_Node *made[MAX_KINDS];
	if (!made[k])
		made[k] = poisoned_node_copy(samples[k], 0, 0);
	return made[k];
}

/* A zeroed node of kind k with every number v and every enum its value v (or its last): a small
 * number read as a kind's own enum picks a branch a large one does not (ALTER OPERATOR FAMILY f
 * USING x ADD <a SetToDefault of typeId 1>, read as an operator's CreateOpClassItem, crashes 17's
 * deparser; found by fuzz_deparse_tree) */
#define SMALL_VARIANTS 4
static pgbind_Node *small_of(unsigned k, int v)
{
	static pgbind_Node *made[SMALL_VARIANTS + 1][MAX_KINDS];
	if (!made[v][k])
		made[v][k] = poisoned_copy(pgbind_node_desc(k), (const char *)zeroed_of(k), 0, v);
	return made[v][k];
}

static const pgbind_Node *poisoned_of(FieldNat *fn)
{
	if (!fn->poisoned) {
		const pgbind_Node *largest = fn->sample[0];
		for (int j = 1; j < fn->n_samples; j++)
			if (node_size(fn->sample[j], 0) > node_size(largest, 0))
				largest = fn->sample[j];
		fn->poisoned = poisoned_node_copy(largest, 0, 0);
	}
	return fn->poisoned;
}

/* Whether a node of kind k can be put in the site's field: any kind in a node field, a member of a
 * oneof */
static bool kind_fits(const Site *s, unsigned k)
{
	const pgbind_FieldDesc *f = &pgbind_message_descs[s->msg].fields[s->field];
	if (f->wire != PGBIND_WIRE_ONEOF)
		return true;
	const pgbind_OneofDesc *o = &pgbind_oneof_descs[f->type_index];
	for (uint32_t i = 0; i < o->n_members; i++)
		if (pgbind_message_descs[o->members[i].message_index].tag == k)
			return true;
	return false;
}

/* ---- from outcomes to rules -------------------------------------------------------------------- */

static FILE *out;
static size_t n_rules;
static bool cond_on_parent; /* emit(): if_field is a field of the example's parent message */
static int also_field = -1; /* emit(): a second condition, if=also_field=also_values, of the message's own */
static const char *also_values;
static char also_clauses[1024]; /* emit(): more conditions, as written (",if=...,ifparent=...") */
static bool with_misreads;      /* --misreads: rules for what the deparser misreads too */

/* The label counter per target, so that each key is set once. */
typedef struct {
	uint32_t msg, field;
	int n;
} Label;
static Label labels[8192];
static size_t n_labels;

static const char *label_for(uint32_t msg, uint32_t field)
{
	static char buf[32];
	Label *l = NULL;
	for (size_t i = 0; i < n_labels && !l; i++)
		if (labels[i].msg == msg && labels[i].field == field)
			l = &labels[i];
	if (!l && n_labels < sizeof labels / sizeof *labels) {
		l = &labels[n_labels++];
		l->msg = msg, l->field = field, l->n = 0;
	}
	int n = l ? ++l->n : 99;
	if (n == 1)
		return "deparse";
	snprintf(buf, sizeof buf, "deparse_%d", n);
	return buf;
}

static const char *change_name(enum Change c)
{
	return c == CH_NULL    ? "NULL"
		   : c == CH_EMPTY ? "empty"
		   : c == CH_TRUNC ? "its first cell only"
						   : "a node of another kind";
}

/* The statement of a site, on one line, shortened. */
static void print_sql(const Site *s)
{
	const char *q = stmts[s->stmt].sql;
	for (;;) { /* blanks and -- comments before it */
		while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')
			q++;
		if (q[0] != '-' || q[1] != '-')
			break;
		while (*q && *q != '\n')
			q++;
	}
	int n = 0;
	for (; *q && n < 110; q++, n++)
		fputc(*q == '\n' || *q == '\t' || *q == '\r' ? ' ' : *q, out);
	if (*q)
		fputs("...", out);
}

/* Where a rule holds: everywhere (no parents), in these parents, or outside them. */
typedef struct {
	bool not_in;
	size_t n;
	const Site *parents[512]; /* one site of each parent field */
} Scope;

static void print_parent(const Site *p, bool proto)
{
	const pgbind_MessageDesc *pd = &pgbind_message_descs[p->parent_msg];
	fprintf(out, "%s.%s", pd->name, proto ? pd->fields[p->parent_field].proto_name : pd->fields[p->parent_field].name);
}

/* The value of a bool, int or enum field at p as the rules write it (true, 3, OBJECT_TABLE); NULL
 * for a value its enum does not declare. */
static const char *scalar_text(const pgbind_FieldDesc *f, const char *p, char *buf, size_t size)
{
	if (f->wire == PGBIND_WIRE_BOOL)
		return *(const bool *)p ? "true" : "false";
	if (f->wire == PGBIND_WIRE_INT32) {
		snprintf(buf, size, "%d", *(const int32_t *)p);
		return buf;
	}
	int v = *(const int *)p; /* UNDEFINED (0) is what the deparser reads as the first value */
	return pgbind_enum_value_name(f->type_index, v == 0 && pgbind_enum_zero_is_undefined(f->type_index) ? 1 : v);
}

/* Whether a rule with this scope and condition applies to the message at base, in parent (pm, pf),
 * as targets/c/runtime/contract.c decides it. */
static bool rule_would_apply(const Scope *scope, uint32_t msg, int if_field, const char *if_values, bool if_not, int pm,
							 int pf, const char *base, const char *parent_base, bool on_parent)
{
	if (scope && scope->n) {
		bool in = false;
		for (size_t i = 0; i < scope->n && !in; i++)
			in = scope->parents[i]->parent_msg == pm && scope->parents[i]->parent_field == pf;
		if (in == scope->not_in)
			return false;
	}
	if (if_field < 0)
		return true;
	if (on_parent) { /* ifparent=: a field of the message's parent, as contract.c reads it */
		if (!parent_base || pm < 0)
			return false;
		msg = (uint32_t)pm, base = parent_base;
	}
	const pgbind_FieldDesc *f = &pgbind_message_descs[msg].fields[if_field];
	char value[128];
	if (is_presence(f->wire)) {
		snprintf(value, sizeof value, "%s", *(const void *const *)(base + f->offset) ? "set" : "unset");
	} else if (f->wire == PGBIND_WIRE_STRING) {
		const char *v = *(const char *const *)(base + f->offset);
		if (!v || !*v)
			return false;
		snprintf(value, sizeof value, "%s", v);
	} else {
		char num[32];
		const char *name = scalar_text(f, base + f->offset, num, sizeof num);
		snprintf(value, sizeof value, "%s", name ? name : "");
	}
	bool has = false;
	for (const char *q = if_values; *q && !has;) {
		const char *e = strchr(q, '|');
		size_t n = e ? (size_t)(e - q) : strlen(q);
		has = strlen(value) == n && strncmp(q, value, n) == 0;
		q += n + (e != NULL);
	}
	return has != if_not;
}

static int cmp_nat_kind(const void *a, const void *b)
{
	const NatKind *x = a, *y = b;
	return x->msg != y->msg ? (x->msg < y->msg ? -1 : 1) : x->field != y->field ? (x->field < y->field ? -1 : 1) : 0;
}

static bool list_has(const char *list, const char *v);

/* Whether the message at base (of type msg) meets the rule's second condition (also_field), if
 * it has one. */
static bool also_holds(uint32_t msg, const char *base)
{
	if (also_field < 0 || !also_values)
		return true;
	const pgbind_FieldDesc *f = &pgbind_message_descs[msg].fields[also_field];
	char num[32];
	const char *v = f->wire == PGBIND_WIRE_STRING ? *(const char *const *)(base + f->offset)
												  : scalar_text(f, base + f->offset, num, sizeof num);
	return v && list_has(also_values, v);
}

/* The kinds of bad_in a kind change's rule (example, scope, conditions) names: never a kind that a
 * statement of the corpus which deparses holds where the rule applies. */
static Bits rule_kinds(const Site *example, const Bits *bad_in, const Scope *scope, int if_field, const char *if_values,
					   bool if_not)
{
	Bits cleared = *bad_in;
	{
		NatKind key = {.msg = example->msg, .field = example->field};
		NatKind *lo = bsearch(&key, nat_kinds, n_nat_kinds, sizeof *nat_kinds, cmp_nat_kind);
		while (lo && lo > nat_kinds && cmp_nat_kind(lo - 1, &key) == 0)
			lo--;
		for (NatKind *k = lo; k && k < nat_kinds + n_nat_kinds && cmp_nat_kind(k, &key) == 0; k++)
			if (k->cell == example->cell && bit_get(&cleared, k->kind) &&
				rule_would_apply(scope, example->msg, if_field, if_values ? if_values : "", if_not, k->parent_msg,
								 k->parent_field, k->base, k->parent_base, cond_on_parent) &&
				also_holds(example->msg, k->base))
				cleared.w[k->kind / 64] &= ~(1ull << (k->kind % 64));
		/* a rule for what the corpus does not show (parents, values): the union of the outcomes
		 * seen elsewhere, but never a kind the parser puts in this field somewhere (an option
		 * named as no statement names it, CREATE OPERATOR o (rightaor = OPERATOR(s.<~>)), holds
		 * a List as other options do; that List crashes FROM of CREATE COLLATION says nothing of
		 * it) */
		if ((scope && scope->n && scope->not_in) || if_not)
			for (unsigned k = 0; k < MAX_KINDS; k++)
				if (bit_get(&cleared, k) &&
					natural_has(natural_any_key(example->msg, example->field, example->cell, k), false))
					cleared.w[k / 64] &= ~(1ull << (k % 64));
	}
	return cleared;
}

static void emit_rule(const Site *example, const Bits *bad_in, const Scope *scope, int if_field, const char *if_values,
					  bool if_not)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[example->msg];
	const pgbind_FieldDesc *f = &d->fields[example->field];
	Bits cleared = *bad_in;
	const Bits *bad = &cleared;
	if (example->change == CH_SUBST) {
		cleared = rule_kinds(example, bad_in, scope, if_field, if_values, if_not);
		/* a bad kind that the corpus holds where the rule applies, but under another value of an
		 * enum field of the message than the example's: bad with the example's value (GRANT ON
		 * ALL SEQUENCES IN SCHEMA s holds a String, which crashes GRANT ON SEQUENCE, targtype
		 * ACL_TARGET_OBJECT; found by fuzz_deparse_pb), a rule of its own with that condition */
		Bits lost = *bad_in;
		for (size_t w = 0; w < MAX_KINDS / 64; w++)
			lost.w[w] &= ~cleared.w[w];
		for (uint32_t fi = 0; !bits_empty(&lost) && also_field < 0 && !also_clauses[0] && fi < d->n_fields; fi++) {
			const pgbind_FieldDesc *e = &d->fields[fi];
			char num[32];
			const char *v = e->wire == PGBIND_WIRE_ENUM && ((int)fi != if_field || cond_on_parent)
								? scalar_text(e, example->base + e->offset, num, sizeof num)
								: NULL;
			if (!v)
				continue;
			also_field = (int)fi, also_values = v;
			Bits back = rule_kinds(example, &lost, scope, if_field, if_values, if_not);
			if (!bits_empty(&back)) {
				emit_rule(example, &back, scope, if_field, if_values, if_not);
				for (size_t w = 0; w < MAX_KINDS / 64; w++)
					lost.w[w] &= ~back.w[w];
			}
			also_field = -1, also_values = NULL;
		}
		if (bits_empty(&cleared))
			return;
	}
	fprintf(out, "# %s.%s%s set to %s", d->name, f->name,
			example->cell == 0   ? " (cell 0)"
			: example->cell == 1 ? " (cell 1 on)"
								 : "",
			change_name(example->change));
	if (scope && scope->n && !scope->not_in) {
		fputs(" in ", out);
		print_parent(example, false);
	}
	fputs(": ", out);
	print_sql(example);
	fputc('\n', out);
	fprintf(out, "%s.%s %s:", d->name, f->proto_name, label_for(example->msg, example->field));
	if (example->change == CH_NULL) {
		fputs("nonnull", out);
	} else if (example->change == CH_TRUNC) {
		fputs("mincells=2", out);
	} else if (example->change == CH_EMPTY) {
		fputs("nonempty", out);
	} else {
		size_t n_bad = 0, n_all = 0;
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (samples[k]) {
				n_all++;
				n_bad += bit_get(bad, k);
			}
		bool negate = n_bad <= n_all - n_bad;
		fputs(negate ? "notkinds=" : "kinds=", out);
		bool bar = false;
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (samples[k] && bit_get(bad, k) == negate) {
				fprintf(out, "%s%s", bar ? "|" : "", pgbind_node_desc(k)->name);
				bar = true;
			}
	}
	if (example->cell == 0)
		fputs(",cell=0", out);
	else if (example->cell == 1)
		fputs(",from=1", out);
	if (scope && scope->n) {
		fputs(scope->not_in ? ",notin=" : ",in=", out);
		for (size_t i = 0; i < scope->n; i++) {
			if (i)
				fputc('|', out);
			print_parent(scope->parents[i], true);
		}
	}
	if (if_field >= 0 && cond_on_parent)
		fprintf(out, ",%s=%s=%s", if_not ? "ifparentnot" : "ifparent",
				pgbind_message_descs[example->parent_msg].fields[if_field].proto_name, if_values);
	else if (if_field >= 0 && (is_presence(d->fields[if_field].wire) || is_list(d->fields[if_field].wire)))
		fprintf(out, ",%s=%s", (strcmp(if_values, "set") == 0) != if_not ? "ifset" : "ifnotset",
				d->fields[if_field].proto_name);
	else if (if_field >= 0)
		fprintf(out, ",%s=%s=%s", if_not ? "ifnot" : "if", d->fields[if_field].proto_name, if_values);
	if (also_field >= 0)
		fprintf(out, ",if=%s=%s", d->fields[also_field].proto_name, also_values);
	fputs(also_clauses, out);
	fputc('\n', out);
	n_rules++;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fprintf(stderr, "deparse-probe: out of memory\n");
		exit(2);
	}
	return p;
}

/* The members of the set of left[i] (those j >= i not done whose bits equal it), into members[],
 * marked done; their count. */
static size_t same_bits(const Bits *left, size_t n, size_t i, bool *done, size_t *members)
{
	size_t k = 0;
	for (size_t j = i; j < n; j++)
		if (!done[j] && bits_equal(&left[i], &left[j]))
			members[k++] = j, done[j] = true;
	return k;
}

/* A kind change's rule for several parents: per set of parents that leave the same kinds bad
 * (rule_kinds), a rule of its own. */
static void emit_by_parent(const Site *example, const Bits *bad_in, const Scope *scope, int if_field,
						   const char *if_values, bool if_not)
{
	if (!scope || scope->n < 2 || scope->not_in) {
		emit_rule(example, bad_in, scope, if_field, if_values, if_not);
		return;
	}
	Bits *left = xcalloc(scope->n, sizeof *left);
	bool *done = xcalloc(scope->n, sizeof *done);
	size_t *members = xcalloc(scope->n, sizeof *members);
	Scope *one = xcalloc(1, sizeof *one), *group = xcalloc(1, sizeof *group);
	for (size_t i = 0; i < scope->n; i++) {
		*one = (Scope){.n = 1, .parents = {scope->parents[i]}};
		left[i] = rule_kinds(example, bad_in, one, if_field, if_values, if_not);
	}
	for (size_t i = 0; i < scope->n; i++) {
		if (done[i])
			continue;
		group->not_in = false, group->n = same_bits(left, scope->n, i, done, members);
		for (size_t j = 0; j < group->n; j++)
			group->parents[j] = scope->parents[members[j]];
		emit_rule(example, bad_in, group, if_field, if_values, if_not);
	}
	free(left), free(done), free(members), free(one), free(group);
}

/* A rule. A kind change's rule names the kinds bad where it applies, less those a statement of the
 * corpus holds there (rule_kinds); where it names several values of its condition (or several
 * parents), a kind the corpus holds under one of them is fine there, not under the others: GRANT
 * ON SEQUENCE s holds a RangeVar in objects, which crashes GRANT ON LANGUAGE (found by
 * fuzz_deparse_pb, when one rule for SEQUENCE|LANGUAGE|... let it through). So the values, then
 * the parents, are split by the kinds they leave bad, one rule per set. */
static void emit(const Site *example, const Bits *bad_in, const Scope *scope, int if_field, const char *if_values,
				 bool if_not)
{
	if (example->change != CH_SUBST || if_field < 0 || if_not || !if_values || !strchr(if_values, '|')) {
		if (example->change == CH_SUBST)
			emit_by_parent(example, bad_in, scope, if_field, if_values, if_not);
		else
			emit_rule(example, bad_in, scope, if_field, if_values, if_not);
		return;
	}
	size_t n = 1, len = strlen(if_values);
	for (const char *q = if_values; *q; q++)
		n += *q == '|';
	const char **vals = xcalloc(n, sizeof *vals);
	char *copy = xcalloc(len + 1, 1), *group = xcalloc(len + 1, 1);
	Bits *left = xcalloc(n, sizeof *left);
	bool *done = xcalloc(n, sizeof *done);
	size_t *members = xcalloc(n, sizeof *members);
	memcpy(copy, if_values, len);
	size_t k = 0;
	for (char *q = copy, *save = NULL; (q = strtok_r(q, "|", &save)); q = NULL)
		vals[k++] = q;
	n = k;
	for (size_t i = 0; i < n; i++)
		left[i] = rule_kinds(example, bad_in, scope, if_field, vals[i], false);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		size_t at = 0, m = same_bits(left, n, i, done, members);
		for (size_t j = 0; j < m; j++)
			at += (size_t)snprintf(group + at, len + 1 - at, "%s%s", at ? "|" : "", vals[members[j]]);
		emit_by_parent(example, bad_in, scope, if_field, group, false);
	}
	free(vals), free(copy), free(group), free(left), free(done), free(members);
}

/* Whether v is one of the values of list ("a|b|c"). */
static bool list_has(const char *list, const char *v)
{
	size_t n = strlen(v);
	for (const char *q = list; *q;) {
		const char *e = strchr(q, '|');
		size_t k = e ? (size_t)(e - q) : strlen(q);
		if (k == n && strncmp(q, v, n) == 0)
			return true;
		if (!e)
			break;
		q = e + 1;
	}
	return false;
}

/* Appends v to list ("a|b", *len its length, size its room) unless it holds it or v does not fit. */
static void list_add(char *list, size_t size, size_t *len, const char *v)
{
	if (!list_has(list, v) && *len + strlen(v) + 2 < size)
		*len += (size_t)snprintf(list + *len, size - *len, "%s%s", *len ? "|" : "", v);
}

/* The characters of a string value a rule can name. */
static const char name_chars[] = "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The value of a string, enum, bool or int field of a site's message (parent: of the message it is
 * in a field of), as the rules write it; NULL when it has none a rule can name. A node or message
 * field: "set" or "unset". */
static const char *cond_value(const Site *s, bool parent, int fi, char *buf, size_t size)
{
	const char *base = parent ? s->parent_base : s->base;
	if (!base)
		return NULL;
	const pgbind_FieldDesc *f = &pgbind_message_descs[parent ? (uint32_t)s->parent_msg : s->msg].fields[fi];
	if (is_presence(f->wire))
		return *(const void *const *)(base + f->offset) ? "set" : "unset";
	if (f->wire == PGBIND_WIRE_STRING) {
		const char *v = *(const char *const *)(base + f->offset);
		if (!v || !*v)
			return NULL;
		if (strspn(v, name_chars) != strlen(v))
			return NULL;
		snprintf(buf, size, "%s", v);
		return buf;
	}
	const char *name = scalar_text(f, base + f->offset, buf, size);
	if (!name || name == buf)
		return name;
	snprintf(buf, size, "%s", name);
	return buf;
}

static const char *value_of(const Site *s, int fi, char *buf, size_t size)
{
	return cond_value(s, false, fi, buf, size);
}

static int cmp_nat_kind(const void *a, const void *b);

/* For a kind change: the values of field fi that the corpus's nodes in the field show (scoped:
 * under m[0]'s parent only), appended to seen: a rule for the values the corpus does not show
 * must not take them for unseen (they hold a kind of their own there, maybe never probed). */
static void emit(const Site *example, const Bits *bad_in, const Scope *scope, int if_field, const char *if_values,
				 bool if_not);

static void natural_values(const Site *const *m, uint32_t fi, const Scope *scope, const Site *example, char *seen,
						   size_t size)
{
	bool scoped = scope != NULL;
	if (m[0]->change != CH_SUBST)
		return;
	const pgbind_FieldDesc *f = &pgbind_message_descs[m[0]->msg].fields[fi];
	size_t len = strlen(seen);
	NatKind key = {.msg = m[0]->msg, .field = m[0]->field};
	NatKind *lo = bsearch(&key, nat_kinds, n_nat_kinds, sizeof *nat_kinds, cmp_nat_kind);
	while (lo && lo > nat_kinds && cmp_nat_kind(lo - 1, &key) == 0)
		lo--;
	for (NatKind *k = lo; k && k < nat_kinds + n_nat_kinds && cmp_nat_kind(k, &key) == 0; k++) {
		if (k->cell != m[0]->cell ||
			(scoped && (k->parent_msg != m[0]->parent_msg || k->parent_field != m[0]->parent_field)))
			continue;
		char buf[128], num[32];
		const char *v;
		if (f->wire == PGBIND_WIRE_STRING) {
			/* the names a rule can write, as value_of() takes them (the overrides reader reads no
			 * other: a fuzz regression's option is named "nul\xa4") */
			v = *(const char *const *)(k->base + f->offset);
			if (!v || !*v || strlen(v) > 100 || strspn(v, name_chars) != strlen(v))
				continue;
		} else {
			v = scalar_text(f, k->base + f->offset, num, sizeof num);
			if (!v)
				continue;
		}
		snprintf(buf, sizeof buf, "%s", v);
		if (!list_has(seen, buf) && len + strlen(buf) + 2 < size) {
			len += (size_t)snprintf(seen + len, size - len, "%s%s", len ? "|" : "", buf);
			/* an enum value no probed instance has: only the kinds the corpus shows with it (emit()
			 * keeps every kind a statement of the corpus holds there with that value) */
			if (f->wire == PGBIND_WIRE_ENUM) {
				Bits all = {{0}};
				for (unsigned t = 0; t < MAX_KINDS; t++)
					if (samples[t] && !natural_has(natural_any_key(m[0]->msg, m[0]->field, m[0]->cell, t), false))
						bit_set(&all, t); /* nor a kind the parser puts in the field elsewhere: NULLIF(a, b # c) */
				fprintf(out, "# (%s=%s: not probed; the kinds the corpus shows in the field)\n", f->name, buf);
				emit(example, &all, scope, (int)fi, buf, false);
			}
		}
	}
}

/* Whether an outcome is bad: a crash (--misreads: or a misread). A list cut to one cell that
 * comes out as another tree may have had a cell past its end read (ALTER OPERATOR <~>(int4) SET
 * ... comes out as (int4, NONE), and crashes under ASan), or may just mean another thing (a
 * qualified name cut to its schema): the outcomes do not tell the two apart yet, so only its
 * crashes count. */
static bool sweep_bad(uint8_t outcome)
{
	return outcome == OUT_CRASH || (with_misreads && outcome == OUT_MISREAD);
}

/* The values of field fi (of the instances m) that the corpus does not show but a sweep found
 * fine (no sweep of theirs crashed), appended to seen ("a|b"): a rule for the values the corpus
 * does not show names them as exceptions. For a string field: whether a name no statement holds
 * was swept and found fine everywhere (*novel_fine), so that no rule is needed for unseen names. */
static void unseen_fine(const Site *const *m, size_t n, uint32_t fi, char *seen, size_t size, bool *novel_fine)
{
	const pgbind_FieldDesc *f = &pgbind_message_descs[m[0]->msg].fields[fi];
	bool tried = false, novel_bad = false;
	size_t len = strlen(seen);
	for (size_t i = 0; i < n; i++)
		for (int k = m[i]->first_sweep; k < m[i]->first_sweep + m[i]->n_sweeps; k++) {
			const Sweep *w = &sweeps[k];
			if (w->field != fi)
				continue;
			if (f->wire == PGBIND_WIRE_STRING) {
				tried = true;
				novel_bad = novel_bad || sweep_bad(w->out);
				continue;
			}
			if (f->wire != PGBIND_WIRE_ENUM) /* an int's confirmation: no sweep of its values */
				continue;
			const char *name = pgbind_enum_value_name(f->type_index, w->value);
			if (!name || sweep_bad(w->out))
				continue;
			if (list_has(seen, name))
				continue;
			/* fine here; bad in no other sweep of the value */
			bool bad = false;
			for (size_t j = 0; j < n && !bad; j++)
				for (int q = m[j]->first_sweep; q < m[j]->first_sweep + m[j]->n_sweeps && !bad; q++)
					bad = sweeps[q].field == fi && sweeps[q].value == w->value && sweep_bad(sweeps[q].out);
			if (!bad && len + strlen(name) + 2 < size)
				len += (size_t)snprintf(seen + len, size - len, "%s%s", len ? "|" : "", name);
		}
	*novel_fine = tried && !novel_bad;
}

/* The outcome of one parent's instances: uniform (*bad), or split, in which case its rules (in
 * that parent only) are written here: by a string or enum field of the message whose value
 * decides the outcome, else the union of the outcomes. */
enum { UNIFORM, SPLIT, UNEXPLAINED };

static int deciding_field(const Site *const *m, size_t n, int skip, char *values, size_t size);

/* An enum field of the instances m (a NULL or empty change) whose values tell those where a new
 * name of string field fi crashed (a sweep) from those the parser leaves so (natural): the values
 * of the first, less any a natural instance, a fine instance or a fine sweep has, into values
 * ("a|b"); -1: none. *example: an instance of such a value whose sweep crashed. */
static int novel_bad_values(const Site *const *m, size_t n, int fi, char *values, size_t size, const Site **example)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[m[0]->msg];
	for (uint32_t ef = 0; ef < d->n_fields; ef++) {
		const pgbind_FieldDesc *e = &d->fields[ef];
		if (e->wire != PGBIND_WIRE_ENUM || (int)ef == fi || ef == m[0]->field)
			continue;
		char fine[1024] = "", num[32];
		size_t n_fine = 0, len = 0;
		values[0] = 0;
		*example = NULL;
		for (int pass = 0; pass < 2; pass++) /* the values fine somewhere, then the others that crash */
			for (size_t i = 0; i < n; i++) {
				const char *v = scalar_text(e, m[i]->base + e->offset, num, sizeof num);
				if (!v)
					continue;
				if (pass == 0 && (m[i]->natural || bits_empty(&m[i]->bad)))
					list_add(fine, sizeof fine, &n_fine, v);
				for (int k = m[i]->first_sweep; k < m[i]->first_sweep + m[i]->n_sweeps; k++) {
					const Sweep *w = &sweeps[k];
					if (w->field != (uint32_t)fi || w->str || w->node || w->parent || w->also_list)
						continue; /* not a new name: a confirmation */
					if (pass == 0 && !sweep_bad(w->out)) {
						list_add(fine, sizeof fine, &n_fine, v);
					} else if (pass == 1 && sweep_bad(w->out) && !list_has(fine, v)) {
						list_add(values, size, &len, v);
						if (!*example)
							*example = m[i];
					}
				}
			}
		if (len)
			return (int)ef;
	}
	return -1;
}

/* The rule for the values of field fi the corpus does not show (seen: those it does): for a NULL
 * or an empty list, where an enum field tells the instances it crashed from those
 * the parser leaves so, by that field's values instead (DROP of an option named as no statement
 * names it: DefElem.arg is NULL for every DROP, SET and ADD crash without one); where the parser
 * leaves the field NULL for some names, by an enum field's values (novel_bad_values) or none */
static void emit_unseen(const Site *const *m, size_t n, const Site *example, const Bits *bad, const Scope *scope,
						int fi, const char *seen)
{
	char values[2048];
	int by = m[0]->change == CH_SUBST ? -1 : deciding_field(m, n, fi, values, sizeof values);
	bool natural = false;
	for (size_t i = 0; i < n && !natural; i++)
		natural = m[i]->natural;
	if (by >= 0) {
		emit(example, bad, scope, by, values, false);
	} else if (m[0]->change != CH_SUBST && natural &&
			   pgbind_message_descs[m[0]->msg].fields[fi].wire == PGBIND_WIRE_STRING) {
		/* a name the corpus does not show says nothing where the parser leaves the field NULL for
		 * some names (MERGE's INSERT (val2): ResTarget.val is NULL, as for the names it shows);
		 * but where an enum field's values tell the instances a new name crashes from those the
		 * parser leaves so, a rule for any name with those values */
		fprintf(out, "# (%s: names the corpus does not show, where it leaves %s NULL or empty for some: no rule",
				pgbind_message_descs[m[0]->msg].fields[fi].name,
				pgbind_message_descs[m[0]->msg].fields[m[0]->field].name);
		const Site *novel_example = NULL;
		int ef = novel_bad_values(m, n, fi, values, sizeof values, &novel_example);
		if (ef < 0) {
			fputs(")\n", out);
		} else {
			fprintf(out,
					"; but with %s=%s every instance crashes, with a new name too, and the parser leaves it "
					"set: a rule for any name)\n",
					pgbind_message_descs[m[0]->msg].fields[ef].name, values);
			emit(novel_example, bad, scope, ef, values, false);
		}
	} else {
		emit(example, bad, scope, fi, seen, true);
	}
}

/* Whether a string, enum or node field that tells a NULL's (empty list's) crashes from its fine
 * instances in the corpus is the cause: the first instance that crashed, tried again with the value
 * of the first fine one (for a node field: its node, or NULL), must not crash. A name that only happens to differ is no cause:
 * UPDATE t SET (a, b) = (1, 2) holds a `b` whose NULL val is fine only because the deparser skips
 * the second column of a multiple assignment; SET b = NULL-val crashes as SET a = does. The cases
 * are made by one pass of write_rules and run before the next (confirm_pending). */
static bool confirm_pending;
static size_t first_confirm;

/* An enum's, an int's or a bool's value (0, 1) */
static int scalar_value(const pgbind_FieldDesc *f, const char *p)
{
	return f->wire == PGBIND_WIRE_BOOL ? *(const bool *)p : *(const int *)p;
}

static bool refuted(const Site *const *m, size_t n, uint32_t fi, bool parent)
{
	if (m[0]->change == CH_SUBST)
		return false;
	const Site *crashed = NULL, *fine = NULL;
	for (size_t i = 0; i < n && !crashed; i++)
		if (!m[i]->natural && !bits_empty(&m[i]->bad) && (!parent || m[i]->parent_base))
			crashed = m[i];
	if (!crashed)
		return false;
	const pgbind_FieldDesc *f = &pgbind_message_descs[parent ? (uint32_t)m[0]->parent_msg : m[0]->msg].fields[fi];
#define AT(s) ((parent ? (s)->parent_base : (s)->base) + f->offset)
	bool presence = is_presence(f->wire);
	for (size_t i = 0; i < n && !fine; i++) { /* the parent's value: as a statement of the corpus has it too */
		if ((m[i]->natural && !parent) || !bits_empty(&m[i]->bad) || (parent && !m[i]->parent_base))
			continue;
		if (presence) {
			if (!*(const void *const *)AT(m[i]) != !*(const void *const *)AT(crashed))
				fine = m[i];
		} else if (f->wire == PGBIND_WIRE_STRING) {
			const char *v = *(const char *const *)AT(m[i]);
			const char *w = *(const char *const *)AT(crashed);
			if (v && (!w || strcmp(v, w) != 0))
				fine = m[i];
		} else if (scalar_value(f, AT(m[i])) != scalar_value(f, AT(crashed))) {
			fine = m[i];
		}
	}
	if (!fine)
		return false;
	int site = (int)(crashed - sites);
	const char *str = f->wire == PGBIND_WIRE_STRING ? *(const char *const *)AT(fine) : NULL;
	const void *node = presence ? *(const void *const *)AT(fine) : NULL;
	int value = f->wire == PGBIND_WIRE_ENUM || f->wire == PGBIND_WIRE_BOOL || f->wire == PGBIND_WIRE_INT32
					? scalar_value(f, AT(fine))
					: 0;
#undef AT
	for (size_t k = first_confirm; k < n_sweeps; k++)
		if (sweeps[k].site == site && sweeps[k].field == fi && sweeps[k].parent == parent && sweeps[k].value == value &&
			sweeps[k].node == node && (str ? sweeps[k].str && strcmp(sweeps[k].str, str) == 0 : !sweeps[k].str))
			return sweeps[k].out != OUT_PENDING && sweep_bad(sweeps[k].out);
	GROW(sweeps, n_sweeps, cap_sweeps);
	sweeps[n_sweeps++] = (Sweep){site, fi, value, OUT_PENDING, str, node, parent, 0};
	confirm_pending = true;
	return false;
}

/* One rule per distinct bad outcome of the instances m, naming the values of field fi (parent: of
 * their parent's) that have it. */
static void emit_by_outcome(const Site *const *m, size_t n, bool parent, int fi, const Scope *scope)
{
	bool *done = calloc(n, sizeof *done);
	char a[128];
	for (size_t i = 0; i < n; i++) {
		if (done[i] || bits_empty(&m[i]->bad))
			continue;
		char values[2048] = "";
		size_t len = 0;
		for (size_t j = i; j < n; j++) {
			if (done[j] || !bits_equal(&m[j]->bad, &m[i]->bad))
				continue;
			done[j] = true;
			list_add(values, sizeof values, &len, cond_value(m[j], parent, fi, a, sizeof a));
		}
		cond_on_parent = parent;
		emit(m[i], &m[i]->bad, scope, fi, values, false);
		cond_on_parent = false;
	}
	free(done);
}

/* Within the instances whose field `first` has the value v, where the parser leaves the field so
 * in some and the change is bad in others: a second enum, bool or few-valued int field that decides
 * it there, as uniform_or_split's first pass would (CREATE AGGREGATE a (int) (...) crashes without
 * args, an old-style CREATE AGGREGATE a (basetype = int, ...) holds none: kind = OBJECT_AGGREGATE
 * and oldstyle together decide it). Its rules carry both conditions; where the second field's
 * values the group does not show could be bad, the union of the group's outcomes for them. */
static void split_by_second(const Site *const *m, size_t n, int first, const char *v, const Scope *scope)
{
	const Site **sub = calloc(n, sizeof *sub);
	size_t k = 0;
	char a[128], b[128];
	for (size_t i = 0; i < n; i++)
		if (strcmp(value_of(m[i], first, a, sizeof a), v) == 0)
			sub[k++] = m[i];
	const pgbind_MessageDesc *d = &pgbind_message_descs[m[0]->msg];
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		pgbind_WireKind wire = d->fields[fi].wire;
		if ((int)fi == first || fi == m[0]->field ||
			(wire != PGBIND_WIRE_ENUM && wire != PGBIND_WIRE_BOOL && !few_ints(m[0]->msg, fi)) ||
			refuted(sub, k, fi, false))
			continue;
		bool decides = true;
		for (size_t i = 0; i < k && decides; i++) {
			const char *vi = value_of(sub[i], (int)fi, a, sizeof a);
			decides = vi != NULL;
			for (size_t j = 0; j < i && decides; j++)
				decides =
					strcmp(vi, value_of(sub[j], (int)fi, b, sizeof b)) != 0 || bits_equal(&sub[i]->bad, &sub[j]->bad);
		}
		if (!decides)
			continue;
		char seen[2048] = "";
		size_t len = 0;
		Bits any = {{0}};
		also_field = first, also_values = v;
		fprintf(out, "# (%s=%s: %s decides it)\n", d->fields[first].name, v, d->fields[fi].name);
		for (size_t i = 0; i < k; i++) {
			list_add(seen, sizeof seen, &len, value_of(sub[i], (int)fi, a, sizeof a));
			for (size_t w = 0; w < MAX_KINDS / 64; w++)
				any.w[w] |= sub[i]->bad.w[w];
		}
		emit_by_outcome(sub, k, false, (int)fi, scope);
		/* a bool shows both values; an enum's or an int's others: the union */
		if (wire != PGBIND_WIRE_BOOL) {
			const Site *example = sub[0];
			for (size_t i = 0; i < k; i++)
				if (!bits_empty(&sub[i]->bad) && !sub[i]->natural)
					example = sub[i];
			emit(example, &any, scope, (int)fi, seen, true);
		}
		also_field = -1, also_values = NULL;
		break;
	}
	free(sub);
}

static int uniform_or_split(const Site *const *m, size_t n, Bits *bad, bool scoped, bool union_ok)
{
	bool same = true;
	Bits any = {{0}};
	for (size_t i = 0; i < n; i++) {
		same = same && bits_equal(&m[i]->bad, &m[0]->bad);
		for (size_t w = 0; w < MAX_KINDS / 64; w++)
			any.w[w] |= m[i]->bad.w[w];
	}
	*bad = any;
	if (same)
		return UNIFORM;
	Scope here = {.n = 1, .parents = {m[0]}};
	Scope *scope = scoped && m[0]->parent_msg >= 0 ? &here : NULL;
	const pgbind_MessageDesc *d = &pgbind_message_descs[m[0]->msg];
	/* an enum, bool or few-valued int field first, then a string field (a few values that decide are a better
	 * explanation than names: XMLTABLE's column crashes without a type unless it is FOR
	 * ORDINALITY, whatever its name, which the names of the corpus's columns seemed to decide); then,
	 * for a NULL or an empty list, whether a node field is set (CREATE TABLE p1 PARTITION OF p ...:
	 * an empty inhRelations crashes where partbound is set); then, in one parent, a string, enum or
	 * bool field of the parent (MERGE ... WHEN MATCHED THEN UPDATE SET b = <NULL> crashes, an
	 * INSERT's (b) holds no value) */
	/* a oneof's member changes are known by context (one instance per value of the parent's
	 * fields): the parent's value decides them as a message's own does (BEGIN ISOLATION LEVEL
	 * <an Integer> crashes, SET (fillfactor = <a String>) is fine) */
	bool oneof = m[0]->change == CH_SUBST && d->fields[m[0]->field].wire == PGBIND_WIRE_ONEOF;
	for (uint32_t pass = 0; pass < 4; pass++) {
		bool parent = pass == 3, presence = pass == 2;
		if (parent && (!scope || (m[0]->change == CH_SUBST && !oneof)))
			break;
		const pgbind_MessageDesc *cd = parent ? &pgbind_message_descs[m[0]->parent_msg] : d;
		for (uint32_t fi = 0; fi < cd->n_fields; fi++) {
			pgbind_WireKind wire = cd->fields[fi].wire;
			bool few = wire == PGBIND_WIRE_ENUM || wire == PGBIND_WIRE_BOOL ||
					   few_ints(parent ? (uint32_t)m[0]->parent_msg : m[0]->msg, fi);
			/* not the field changed: its value is gone in the case */
			if ((!parent && fi == m[0]->field) || (presence    ? !is_presence(wire) || m[0]->change == CH_SUBST
												   : pass == 0 ? !few
												   : pass == 1 ? wire != PGBIND_WIRE_STRING
															   : !few && wire != PGBIND_WIRE_STRING))
				continue;
			bool decides = !refuted(m, n, fi, parent), natural = false;
			char a[128], b[128];
			for (size_t i = 0; i < n && decides; i++) {
				const char *vi = cond_value(m[i], parent, (int)fi, a, sizeof a);
				natural = natural || m[i]->natural;
				if (!vi && !bits_empty(&m[i]->bad))
					decides = false;
				for (size_t j = 0; j < i && decides && vi; j++) {
					const char *vj = cond_value(m[j], parent, (int)fi, b, sizeof b);
					/* the parent's value: where the parser leaves the field so, no instance with
					 * that value is bad; the others get the union (a change the parser never makes
					 * may be fine by chance: MERGE's UPDATE SET (a, b) = ..., whose b the deparser
					 * skips) */
					if (vj && strcmp(vi, vj) == 0 &&
						(parent && !oneof
							 ? (m[i]->natural && !bits_empty(&m[j]->bad)) || (m[j]->natural && !bits_empty(&m[i]->bad))
							 : !bits_equal(&m[i]->bad, &m[j]->bad)))
						decides = false;
				}
			}
			if (!decides || (parent && !natural && !oneof))
				continue;
			emit_by_outcome(m, n, parent, (int)fi, scope);
			if (presence || wire == PGBIND_WIRE_BOOL) /* set and unset, true and false: both seen */
				return SPLIT;
			/* the parent's values the group does not show: no rule (a statement the parser makes
			 * may hold one: its instance may be missing from the group, where the instances with the
			 * same values of the message's own fields are taken once: DROP FUNCTION f(int) was, for
			 * ObjectWithArgs.objargs of one cell, after DROP AGGREGATE a(int)) */
			if (parent)
				return SPLIT;
			/* a value the corpus does not show: the union */
			char seen[4096] = "";
			size_t len = 0;
			for (size_t i = 0; i < n; i++) {
				const char *v = cond_value(m[i], parent, (int)fi, a, sizeof a);
				if (v && !list_has(seen, v) && len + strlen(v) + 2 < sizeof seen)
					len += (size_t)snprintf(seen + len, sizeof seen - len, "%s%s", len ? "|" : "", v);
			}
			const Site *example = m[0];
			for (size_t i = 0; i < n; i++)
				if (!bits_empty(&m[i]->bad) && !m[i]->natural) {
					example = m[i];
					break;
				}
			bool novel_fine = false;
			if (len)
				unseen_fine(m, n, fi, seen, sizeof seen, &novel_fine);
			natural_values(m, fi, scope, example, seen, sizeof seen);
			len = strlen(seen);
			if (novel_fine)
				fprintf(out, "# (%s: a name the corpus does not show was tried and is fine: no rule for it)\n",
						d->fields[fi].name);
			else if (len)
				emit_unseen(m, n, example, &any, scope, (int)fi, seen);
			else
				emit(example, &any, scope, -1, NULL, false);
			return SPLIT;
		}
	}
	if (!union_ok)
		return UNEXPLAINED;
	/* No field decides it: per value of the string or enum field with the most values (all
	 * instances having one), the union of that value's outcomes, and for values the corpus does
	 * not show the union of all; so that no instance's own fine outcome is refused. */
	int best = -1;
	size_t best_n = 1;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		if ((d->fields[fi].wire != PGBIND_WIRE_STRING && d->fields[fi].wire != PGBIND_WIRE_ENUM) || fi == m[0]->field ||
			refuted(m, n, fi, false))
			continue;
		char a[128], b[128];
		size_t distinct = 0;
		bool all = true;
		for (size_t i = 0; i < n && all; i++) {
			const char *vi = value_of(m[i], (int)fi, a, sizeof a);
			all = vi != NULL;
			bool first = true;
			for (size_t j = 0; j < i && vi && first; j++) {
				const char *vj = value_of(m[j], (int)fi, b, sizeof b);
				first = !vj || strcmp(vi, vj) != 0;
			}
			distinct += all && first;
		}
		if (all && distinct > best_n)
			best = (int)fi, best_n = distinct;
	}
	if (best >= 0) {
		char a[128], b[128], seen[4096] = "";
		size_t len = 0;
		for (size_t i = 0; i < n; i++) {
			const char *vi = value_of(m[i], best, a, sizeof a);
			bool first = true;
			for (size_t j = 0; j < i && first; j++)
				first = strcmp(vi, value_of(m[j], best, b, sizeof b)) != 0;
			if (!first)
				continue;
			Bits of_value = {{0}};
			const Site *example = m[i];
			bool natural_fine = false; /* the field is NULL (empty) there in a statement that deparses */
			for (size_t j = i; j < n; j++) {
				if (strcmp(vi, value_of(m[j], best, b, sizeof b)) != 0)
					continue;
				natural_fine = natural_fine || m[j]->natural;
				for (size_t w = 0; w < MAX_KINDS / 64; w++)
					of_value.w[w] |= m[j]->bad.w[w];
				if (!bits_empty(&m[j]->bad) && !m[j]->natural)
					example = m[j];
			}
			if (len + strlen(vi) + 2 < sizeof seen)
				len += (size_t)snprintf(seen + len, sizeof seen - len, "%s%s", len ? "|" : "", vi);
			if (!bits_empty(&of_value) && !natural_fine) {
				fprintf(out, "# (no field decides it: the outcomes of this value of %s)\n", d->fields[best].name);
				emit(example, &of_value, scope, best, vi, false);
			} else if (!bits_empty(&of_value)) {
				split_by_second(m, n, best, vi, scope);
			}
		}
		const Site *example = m[0];
		for (size_t i = 0; i < n; i++)
			if (!bits_empty(&m[i]->bad) && !m[i]->natural) {
				example = m[i];
				break;
			}
		bool novel_fine = false;
		unseen_fine(m, n, (uint32_t)best, seen, sizeof seen, &novel_fine);
		natural_values(m, (uint32_t)best, scope, example, seen, sizeof seen);
		if (novel_fine) {
			fprintf(out, "# (%s: a name the corpus does not show was tried and is fine: no rule for it)\n",
					d->fields[best].name);
		} else {
			fprintf(out, "# (values the corpus does not show, less those tried and fine: the union)\n");
			emit_unseen(m, n, example, &any, scope, best, seen);
		}
		return SPLIT;
	}
	const Site *example = m[0];
	for (size_t i = 0; i < n; i++)
		if (!bits_empty(&m[i]->bad) && !m[i]->natural) {
			example = m[i];
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (m[i]->natural) /* the union would refuse what deparses: nothing can be said */
			return SPLIT;
	fprintf(out, "# (the outcome differs between instances and no string or enum field explains it: the union)\n");
	emit(example, &any, scope, -1, NULL, false);
	return SPLIT;
}

static int cmp_site(const void *a, const void *b)
{
	const Site *x = *(const Site *const *)a, *y = *(const Site *const *)b;
#define CMP(f)        \
	if (x->f != y->f) \
		return x->f < y->f ? -1 : 1;
	CMP(msg) CMP(field) CMP(change) CMP(cell) CMP(parent_msg) CMP(parent_field) CMP(stmt);
#undef CMP
	return x < y ? -1 : x > y;
}

/*
 * The rules of one (field, change, cell): the union of every bad outcome holds everywhere but in
 * the parents whose outcome differs (a parent seen in the corpus is exact; one it never shows
 * gets the union: refusing there is safe, deparsing may not be); those parents get rules of
 * their own.
 */
/* An enum field of the message whose values at the instances that are bad (m, across
 * parents) none of the natural instances (NULL or empty in a statement that deparses) has, other
 * than field skip: its index, with those values ("a|b") in values; -1 when none does. */
static int deciding_field(const Site *const *m, size_t n, int skip, char *values, size_t size)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[m[0]->msg];
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		/* enums only: a name tells the instances apart by chance (RenameStmt.newname) */
		if (fi == m[0]->field || (int)fi == skip || d->fields[fi].wire != PGBIND_WIRE_ENUM)
			continue;
		size_t len = 0;
		bool ok = true, any = false;
		values[0] = '\0';
		for (size_t i = 0; i < n && ok; i++) {
			if (m[i]->natural || bits_empty(&m[i]->bad))
				continue;
			char buf[128];
			const char *v = value_of(m[i], (int)fi, buf, sizeof buf);
			if (!v) {
				ok = false;
				break;
			}
			if (list_has(values, v))
				continue;
			if (len + strlen(v) + 2 >= size) {
				ok = false;
				break;
			}
			len += (size_t)snprintf(values + len, size - len, "%s%s", len ? "|" : "", v);
			any = true;
		}
		if (!ok || !any)
			continue;
		bool natural = false; /* some instance the parser leaves so: the field tells the two apart */
		for (size_t i = 0; i < n && ok; i++) {
			if (!m[i]->natural)
				continue;
			natural = true;
			char buf[128];
			const char *v = value_of(m[i], (int)fi, buf, sizeof buf);
			ok = v && !list_has(values, v ? v : "");
		}
		if (ok && natural)
			return (int)fi;
	}
	return -1;
}

/* Where no enum field tells the bad instances from those the parser leaves so (deciding_field),
 * the union in parents the corpus does not show would refuse what the parser makes wherever it
 * leaves the field so: an enum field's values that only instances that are fine have, among them
 * those of instances the parser leaves so, exempt it there. The field exempting the most such
 * instances: its index, with those values in values ("a|b"); -1 when none exempts one. A
 * one-argument call in GROUPING SETS (lower(b)) is fine and was refused, since position(a in b)
 * cut to one argument crashes (FuncCall.args mincells=2: funcformat=COERCE_EXPLICIT_CALL holds only
 * instances that are fine; found by fuzz_parse on 15). */
static int fine_values_field(const Site *const *m, size_t n, char *values, size_t size)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[m[0]->msg];
	int best = -1;
	size_t best_exempt = 0;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		if (fi == m[0]->field || d->fields[fi].wire != PGBIND_WIRE_ENUM)
			continue;
		char bad[2048] = "", buf[128]; /* the values of the bad instances */
		size_t lb = 0;
		bool ok = true;
		for (size_t i = 0; i < n && ok; i++) {
			const char *v = value_of(m[i], (int)fi, buf, sizeof buf);
			ok = v != NULL;
			if (ok && !bits_empty(&m[i]->bad))
				list_add(bad, sizeof bad, &lb, v);
		}
		if (!ok)
			continue;
		char only[2048] = ""; /* fine, and in no bad instance */
		size_t lo = 0, exempt = 0;
		for (size_t i = 0; i < n; i++) {
			const char *v = value_of(m[i], (int)fi, buf, sizeof buf);
			if (list_has(bad, v))
				continue;
			exempt += m[i]->natural;
			list_add(only, sizeof only, &lo, v);
		}
		if (exempt > best_exempt && lo < size) {
			best = (int)fi, best_exempt = exempt;
			snprintf(values, size, "%s", only);
		}
	}
	return best;
}

static void rules_for_column(const Site *const *m, size_t n)
{
	Bits all = {{0}};
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < MAX_KINDS / 64; w++)
			all.w[w] |= m[i]->bad.w[w];
	if (bits_empty(&all))
		return;
	/* one outcome, or one a string or enum field decides, wherever the parent: no scope */
	Bits any;
	if (uniform_or_split(m, n, &any, false, false) != UNEXPLAINED) {
		if (bits_equal(&m[0]->bad, &all)) {
			bool uniform = true;
			for (size_t i = 0; i < n && uniform; i++)
				uniform = bits_equal(&m[i]->bad, &all);
			const Site *ex = m[0];
			for (size_t i = 0; i < n; i++)
				if (!m[i]->natural) {
					ex = m[i];
					break;
				}
			if (uniform)
				emit(ex, &all, NULL, -1, NULL, false);
		}
		return;
	}
	Scope except = {.not_in = true};
	const Site *example = NULL;
	/* a node of another kind in a parent the corpus does not show: the union, less the kinds that
	 * parsed back as themselves in some parent (the union refused, there, what the parser makes:
	 * SET (a, b) = f(1, DEFAULT) holds a SetToDefault that only a FROM-clause function takes ill) */
	Bits unseen_bad = all;
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < MAX_KINDS / 64; w++)
			unseen_bad.w[w] &= ~m[i]->same.w[w];
	for (size_t a = 0; a < n;) {
		size_t b = a;
		while (b < n && m[b]->parent_msg == m[a]->parent_msg && m[b]->parent_field == m[a]->parent_field)
			b++;
		Bits bad;
		bool uniform = uniform_or_split(m + a, b - a, &bad, true, true) == UNIFORM;
		if (uniform && bits_equal(&bad, &all)) {
			for (size_t i = a; i < b && !example; i++)
				if (!m[i]->natural)
					example = m[i];
		} else {
			if (uniform && !bits_empty(&bad)) {
				Scope here = {.n = 1, .parents = {m[a]}};
				const Site *ex = m[a];
				for (size_t i = a; i < b; i++)
					if (!m[i]->natural) {
						ex = m[i];
						break;
					}
				emit(ex, &bad, m[a]->parent_msg >= 0 ? &here : NULL, -1, NULL, false);
			}
			if (m[a]->parent_msg >= 0 && except.n < sizeof except.parents / sizeof *except.parents)
				except.parents[except.n++] = m[a];
		}
		a = b;
	}
	if (!example) /* no parent has the union: an example of it anyway, for the comment */
		for (size_t i = 0; i < n && !example; i++)
			if (!m[i]->natural && !bits_empty(&m[i]->bad))
				example = m[i];
	/* a NULL or an empty list in a parent the corpus does not show: where an enum field of the
	 * message tells the instances it crashed (in any parent) from those the parser leaves
	 * so in a statement that deparses, only with those values (FuncCall.args empty: `s IS
	 * NORMALIZED` crashes, COERCE_SQL_SYNTAX; `f()` deparses, in GROUP BY too) */
	char values[2048];
	int by = m[0]->change == CH_SUBST ? -1 : deciding_field(m, n, -1, values, sizeof values);
	bool by_not = false;
	if (by < 0 && m[0]->change != CH_SUBST) {
		by = fine_values_field(m, n, values, sizeof values);
		by_not = by >= 0;
	}
	if (m[0]->change != CH_SUBST)
		emit(example, &all, &except, by, by >= 0 ? values : NULL, by_not);
	else if (!bits_empty(&unseen_bad))
		emit(example, &unseen_bad, &except, -1, NULL, false);
	/* and in the parents that differ, a kind bad in some parent that never parsed back as itself
	 * and that the parser puts in the field in no parent: what their instances showed fine there
	 * may be read with other values of theirs (AlterFunctionStmt.func: a List in objargs is fine
	 * while objfuncargs is set, and crashes 18's deparser without it, as in the other parents;
	 * found by fuzz_deparse_tree). No tree the parser makes holds one there. */
	/* the same for a NULL node or cell that the parser leaves NULL in no parent (TypeName.names:
	 * a NULL second name crashes ALTER OPERATOR's deparser and is fine in a DROP FUNCTION's
	 * objargs, which it does not read; found by fuzz_deparse_pb) */
	pgbind_WireKind wire = pgbind_message_descs[m[0]->msg].fields[m[0]->field].wire;
	if (m[0]->change == CH_NULL && wire != PGBIND_WIRE_STRING && except.n) {
		bool natural = false;
		for (size_t i = 0; i < n && !natural; i++)
			natural = m[i]->natural;
		Scope in = except;
		in.not_in = false;
		if (!natural)
			emit(example, &all, &in, -1, NULL, false);
	}
	if (m[0]->change == CH_SUBST && except.n) {
		Bits never = unseen_bad;
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (bit_get(&never, k) && natural_has(natural_any_key(m[0]->msg, m[0]->field, m[0]->cell, k), false))
				never.w[k / 64] &= ~(1ull << (k % 64));
		Scope in = except;
		in.not_in = false;
		if (!bits_empty(&never))
			emit(example, &never, &in, -1, NULL, false);
	}
}

/* ---- lists of a fixed length ------------------------------------------------------------------- */

/* The changes above cut a list to its first cell (CH_TRUNC, mincells=2), not by one: XMLROOT's args
 * are always three (the XML, the version, STANDALONE), and with two the deparser before 18 reads a
 * third past the list (fuzz_deparse_pb on 17, under ASan; the probe's children survive it). So for
 * each repeated field, alone and with each value of each enum field of its message, the fewest
 * cells the corpus shows (every list of every statement counted, misread ones too); where that is
 * three or more, one instance with that many is cut by one, and unless its SQL parses back to the
 * cut tree (the deparser may have read a cell that is not there, as for a node of another kind) a
 * rule asks for that many: never more than the parser makes there, the fewest the corpus has. */
typedef struct {
	uint64_t key;
	uint32_t msg, field;
	int enum_field, value; /* -1: the field alone */
	size_t fewest;         /* cells, over the corpus */
	int stmt, pm, pf;      /* an instance with that many */
	const char *base, *parent_base;
	void **slot;
	size_t *count;
	uint8_t out; /* its cut's outcome (OUT_PENDING: not tried) */
} Fewest;
#define FEWEST_SLOTS (1u << 18)
static Fewest *fewest;
static size_t n_fewest, cap_fewest;
static uint32_t *fewest_index; /* FEWEST_SLOTS: index + 1 */

static void note_fewest(uint32_t mi, uint32_t fi, int ef, int v, int stmt, int pm, int pf, const char *base,
						void **slot, size_t *count)
{
	if (!fewest_index)
		fewest_index = calloc(FEWEST_SLOTS, sizeof *fewest_index);
	uint64_t key = mix(mix(mix(mix(0x5eed, mi), fi), (uint64_t)(ef + 1)), (uint64_t)(int64_t)v);
	key = key ? key : 1;
	size_t i = key & (FEWEST_SLOTS - 1);
	while (fewest_index[i] && fewest[fewest_index[i] - 1].key != key)
		i = (i + 1) & (FEWEST_SLOTS - 1);
	if (!fewest_index[i]) {
		if (n_fewest + 1 >= FEWEST_SLOTS / 2) {
			fprintf(stderr, "deparse-probe: more lists than FEWEST_SLOTS / 2 keys\n");
			exit(2);
		}
		GROW(fewest, n_fewest, cap_fewest);
		fewest[n_fewest] = (Fewest){key, mi, fi, ef, v, SIZE_MAX, 0, 0, 0, NULL, NULL, NULL, NULL, OUT_PENDING};
		fewest_index[i] = (uint32_t)++n_fewest;
	}
	Fewest *f = &fewest[fewest_index[i] - 1];
	/* the instance cut is of a statement that deparses right where one has that many */
	if (*count < f->fewest || (*count == f->fewest && stmts[f->stmt].evidence_only && !evidence_mode)) {
		f->fewest = *count, f->stmt = stmt, f->pm = pm, f->pf = pf, f->base = base, f->slot = slot, f->count = count;
		f->parent_base = site_parent;
	}
}

static void note_count(int stmt, uint32_t mi, uint32_t fi, int pm, int pf, const char *base, void **slot, size_t *count)
{
	const pgbind_MessageDesc *d = &pgbind_message_descs[mi];
	note_fewest(mi, fi, -1, 0, stmt, pm, pf, base, slot, count);
	for (uint32_t ef = 0; ef < d->n_fields; ef++)
		if (d->fields[ef].wire == PGBIND_WIRE_ENUM)
			note_fewest(mi, fi, (int)ef, *(const int *)(base + d->fields[ef].offset), stmt, pm, pf, base, slot, count);
}

static bool cut_tried(const Fewest *f)
{
	return f->fewest >= 3 && f->fewest != SIZE_MAX && !stmts[f->stmt].evidence_only;
}

static void cut_lists(void)
{
	size_t kept_sites = n_sites, k0 = n_cases;
	size_t *which = malloc((n_fewest + 1) * sizeof *which);
	for (size_t i = 0; i < n_fewest; i++) {
		Fewest *f = &fewest[i];
		if (!cut_tried(f))
			continue;
		Site *cut = new_site(f->stmt, f->msg, f->field, f->pm, f->pf, -1, CH_FILL, f->base, 0);
		cut->parent_base = f->parent_base;
		cut->slot = f->slot, cut->count = f->count;
		cut->with = *f->slot, cut->with_count = f->fewest - 1;
		which[n_cases - k0] = i;
		GROW(cases, n_cases, cap_cases);
		cases[n_cases++] = (Case){(int)(cut - sites), 0, false, -1, NULL, ROLE_SAMPLE};
	}
	fprintf(stderr, "deparse-probe: %zu lists of three cells or more cut by one\n", n_cases - k0);
	uint8_t *res = malloc(n_cases - k0 + 1);
	run_cases(cases + k0, n_cases - k0, res);
	for (size_t c = k0; c < n_cases; c++)
		fewest[which[c - k0]].out = res[c - k0];
	free(res);
	free(which);
	n_cases = k0, n_sites = kept_sites; /* no cases or sites of the rules */
}

static void cut_list_rules(void)
{
	for (size_t i = 0; i < n_fewest; i++) {
		const Fewest *f = &fewest[i];
		if (!cut_tried(f) || f->out == OUT_SAME)
			continue;
		const pgbind_MessageDesc *d = &pgbind_message_descs[f->msg];
		const char *value =
			f->enum_field >= 0 ? pgbind_enum_value_name(d->fields[f->enum_field].type_index, f->value) : NULL;
		if (f->enum_field >= 0 && !value)
			continue;
		Site example = {.stmt = f->stmt};
		fprintf(out, "# %s.%s cut to %zu cells%s%s%s (the corpus has no fewer there; %s): ", d->name,
				d->fields[f->field].name, f->fewest - 1, value ? " with " : "",
				value ? d->fields[f->enum_field].name : "", value ? " so" : "",
				f->out == OUT_CRASH      ? "it crashed"
				: f->out == OUT_MISREAD  ? "misread"
				: f->out == OUT_UNPARSED ? "SQL that does not parse"
										 : "an error");
		print_sql(&example);
		fprintf(out, "\n%s.%s %s:mincells=%zu", d->name, d->fields[f->field].proto_name, label_for(f->msg, f->field),
				f->fewest);
		if (value)
			fprintf(out, ",if=%s=%s", d->fields[f->enum_field].proto_name, value);
		fputc('\n', out);
		n_rules++;
	}
}

/* ---- natural NULLs under other values ---------------------------------------------------------- */

/* A NULL (or empty list) the parser makes is fine where the corpus shows it, and the changes above
 * never try it with other values: COMMENT ON OPERATOR - (NONE, int) holds a NULL cell in
 * ObjectWithArgs.objargs, which COMMENT ON PROCEDURE's deparser reads as a type (fuzz_deparse_pb,
 * 15). So the first natural instance of each field and parent is deparsed again with each other
 * value of each enum field of its message and of its parent. Where that crashes, the NULL is to
 * blame only if the same tree with the same value does not crash once the field holds what it
 * holds elsewhere (the control: the value of the first probed instance of the same field and
 * parent; GRANT ALL ON t TO PUBLIC crashes as ON ALL TABLES IN SCHEMA whatever the role's name,
 * its RangeVar read as a schema's name); then a rule refuses the NULL with those values, never
 * with a value the corpus shows the NULL with there. */
typedef struct {
	int sweep;       /* the natural site's sweep */
	int control;     /* the control's sweep (-1: none was needed or found) */
	uint8_t outcome; /* ... and its outcome (OUT_PENDING: no control) */
} NatSweep;
static NatSweep *nat_sweeps;
static size_t n_nat_sweeps, cap_nat_sweeps;

static void add_value_sweeps(int site, bool parent)
{
	const Site *s = &sites[site];
	if (parent && (s->parent_msg < 0 || !s->parent_base))
		return;
	const pgbind_MessageDesc *d = &pgbind_message_descs[parent ? (uint32_t)s->parent_msg : s->msg];
	const char *base = parent ? s->parent_base : s->base;
	for (uint32_t fi = 0; fi < d->n_fields; fi++) {
		const pgbind_FieldDesc *f = &d->fields[fi];
		if (f->wire != PGBIND_WIRE_ENUM || (!parent && fi == s->field))
			continue;
		const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
		int own = *(const int *)(base + f->offset);
		for (uint32_t v = 0; v < e->n_values; v++) {
			int value = e->values[v].number;
			if (!other_value(f, value, own))
				continue;
			GROW(sweeps, n_sweeps, cap_sweeps);
			sweeps[n_sweeps] = (Sweep){site, fi, value, OUT_PENDING, NULL, NULL, parent, 0};
			GROW(nat_sweeps, n_nat_sweeps, cap_nat_sweeps);
			nat_sweeps[n_nat_sweeps++] = (NatSweep){(int)n_sweeps++, -1, OUT_PENDING};
		}
	}
}

static bool same_place(const Site *a, const Site *b)
{
	return a->msg == b->msg && a->field == b->field && a->parent_msg == b->parent_msg &&
		   a->parent_field == b->parent_field && a->cell == b->cell && a->change == b->change;
}

/* Deparses the sweeps first..end (their outcomes in sweeps[].out). */
static void run_sweeps(size_t first, size_t end)
{
	size_t k0 = n_cases;
	for (size_t k = first; k < end; k++) {
		GROW(cases, n_cases, cap_cases);
		cases[n_cases++] = (Case){sweeps[k].site, 0, false, (int)k, NULL, ROLE_SAMPLE};
	}
	uint8_t *res = malloc(n_cases - k0 + 1);
	run_cases(cases + k0, n_cases - k0, res);
	for (size_t c = k0; c < n_cases; c++)
		sweeps[cases[c].sweep].out = res[c - k0];
	free(res);
	n_cases = k0; /* not cases of the header's counts */
}

static void natural_sweeps(void)
{
	size_t first = n_sweeps;
	for (size_t i = 0; i < n_sites; i++) {
		const Site *s = &sites[i];
		if (!s->natural || stmts[s->stmt].evidence_only || (s->change != CH_NULL && s->change != CH_EMPTY))
			continue;
		Group *g = group_of(s->msg, s->field, s->parent_msg, s->parent_field, s->cell, (int)s->change + 16);
		if (g->swept)
			continue;
		g->swept = true;
		add_value_sweeps((int)i, false);
		add_value_sweeps((int)i, true);
	}
	size_t end = n_sweeps;
	fprintf(stderr, "deparse-probe: %zu sweeps of natural NULLs and empty lists\n", end - first);
	run_sweeps(first, end);
	/* the controls, of the sweeps that crashed: the same tree and value with the field filled */
	size_t kept_sites = n_sites, first_control = n_sweeps;
	for (size_t k = 0; k < n_nat_sweeps; k++) {
		Sweep w = sweeps[nat_sweeps[k].sweep];
		if (w.out != OUT_CRASH)
			continue;
		const Site *s = &sites[w.site];
		size_t j = 0;
		while (j < kept_sites && (sites[j].natural || sites[j].evidence || sites[j].culprit || !sites[j].slot ||
								  stmts[sites[j].stmt].evidence_only || !same_place(&sites[j], s)))
			j++;
		if (j == kept_sites)
			continue;
		const pgbind_FieldDesc *f = &pgbind_message_descs[s->msg].fields[s->field];
		Site n = *s, c = sites[j];
		Site *control = new_site(n.stmt, n.msg, n.field, n.parent_msg, n.parent_field, n.cell, CH_FILL, n.base, n.sig);
		control->parent_base = n.parent_base;
		control->slot = n.slot ? n.slot : (void **)(n.base + f->offset);
		control->count = n.change == CH_EMPTY ? (size_t *)(n.base + f->count_offset) : NULL;
		control->with = *c.slot;
		control->with_count = c.count ? *c.count : 0;
		w.site = (int)(control - sites), w.out = OUT_PENDING;
		GROW(sweeps, n_sweeps, cap_sweeps);
		nat_sweeps[k].control = (int)n_sweeps;
		sweeps[n_sweeps++] = w;
	}
	run_sweeps(first_control, n_sweeps);
	for (size_t k = 0; k < n_nat_sweeps; k++)
		if (nat_sweeps[k].control >= 0)
			nat_sweeps[k].outcome = sweeps[nat_sweeps[k].control].out;
	n_sites = kept_sites; /* the controls are no sites of the rules */
	n_sweeps = first_control;
}

/* The rules natural_sweeps found: per natural site and field (its own or its parent's), the values
 * with which its NULL crashed and its control did not, less those the corpus shows it with. */
static void natural_sweep_rules(void)
{
	for (size_t k = 0; k < n_nat_sweeps;) {
		const Sweep *w = &sweeps[nat_sweeps[k].sweep];
		const Site *s = &sites[w->site];
		char values[4096] = "", buf[128];
		size_t len = 0, e = k;
		for (; e < n_nat_sweeps && sweeps[nat_sweeps[e].sweep].site == w->site &&
			   sweeps[nat_sweeps[e].sweep].parent == w->parent && sweeps[nat_sweeps[e].sweep].field == w->field;
			 e++) {
			const Sweep *x = &sweeps[nat_sweeps[e].sweep];
			uint8_t control = nat_sweeps[e].outcome;
			if (x->out != OUT_CRASH || control == OUT_PENDING || control == OUT_CRASH)
				continue;
			const pgbind_FieldDesc *f =
				&pgbind_message_descs[x->parent ? (uint32_t)s->parent_msg : s->msg].fields[x->field];
			const char *name = pgbind_enum_value_name(f->type_index, x->value);
			bool shown = false; /* the corpus has the NULL there with this value */
			for (size_t j = 0; j < n_sites && !shown && name; j++) {
				const char *v = sites[j].natural && same_place(&sites[j], s)
									? cond_value(&sites[j], x->parent, (int)x->field, buf, sizeof buf)
									: NULL;
				shown = v && strcmp(v, name) == 0;
			}
			if (name && !shown)
				list_add(values, sizeof values, &len, name);
		}
		if (len) {
			Scope here = {.n = 1, .parents = {s}};
			Bits bad = {{1}};
			fprintf(out,
					"# (a NULL or empty list the parser makes here: it crashes with %s.%s set so, where the same tree "
					"with the field set does not)\n",
					pgbind_message_descs[w->parent ? (uint32_t)s->parent_msg : s->msg].name,
					pgbind_message_descs[w->parent ? (uint32_t)s->parent_msg : s->msg].fields[w->field].name);
			cond_on_parent = w->parent;
			emit(s, &bad, s->parent_msg >= 0 ? &here : NULL, (int)w->field, values, false);
			cond_on_parent = false;
		}
		k = e;
	}
}

/* ---- a NULL with another list of its message empty --------------------------------------------- */

/* The deparser may read a field only where another is empty: ObjectWithArgs' objargs (the types)
 * where objfuncargs (the parameters) is empty, which the parser leaves so for operators only. So
 * the first instance of each NULL or empty change that alone does not crash is tried again with each
 * other non-empty list of its message emptied too; where that crashes and the tree with that list
 * emptied alone does not (the control), a rule refuses the NULL while that list is empty
 * (ifnotset=), unless the corpus shows the NULL with that list empty there. ALTER FUNCTION with a
 * NULL cell of objargs and no objfuncargs crashed 17's deparser (fuzz_deparse_tree). */
typedef struct {
	int sweep;                  /* the change with the list emptied */
	int control;                /* the list emptied alone (-1: none needed) */
	int first_value, end_value; /* the sweeps of the parent's enum values (with the change and the
								 * list emptied), each followed by its control */
} ListSweep;
static ListSweep *list_sweeps_of;
static size_t n_list_sweeps, cap_list_sweeps;

/* A sweep at a CH_NONE copy of site i (the control: no change of its own). */
static Sweep control_of(Sweep w)
{
	Site n = sites[w.site];
	Site *control = new_site(n.stmt, n.msg, n.field, n.parent_msg, n.parent_field, n.cell, CH_NONE, n.base, n.sig);
	control->parent_base = n.parent_base;
	w.site = (int)(control - sites), w.out = OUT_PENDING;
	return w;
}

static void list_sweeps(void)
{
	size_t first = n_sweeps, kept_sites = n_sites;
	for (size_t i = 0; i < kept_sites; i++) {
		const Site *s = &sites[i];
		/* an instance whose change alone is fine (where it crashes, a rule without the list says so) */
		if (s->natural || s->evidence || s->culprit || !s->slot || stmts[s->stmt].evidence_only ||
			(s->change != CH_NULL && s->change != CH_EMPTY) || bit_get(&s->crashed, 0))
			continue;
		Group *g = group_of(s->msg, s->field, s->parent_msg, s->parent_field, s->cell, (int)s->change + 32);
		if (g->swept)
			continue;
		g->swept = true;
		const pgbind_MessageDesc *d = &pgbind_message_descs[s->msg];
		for (uint32_t fi = 0; fi < d->n_fields; fi++)
			if (fi != s->field && is_list(d->fields[fi].wire) &&
				*(const size_t *)(s->base + d->fields[fi].count_offset)) {
				GROW(sweeps, n_sweeps, cap_sweeps);
				sweeps[n_sweeps] = (Sweep){(int)i, fi, 0, OUT_PENDING, NULL, NULL, false, 0};
				GROW(list_sweeps_of, n_list_sweeps, cap_list_sweeps);
				list_sweeps_of[n_list_sweeps++] = (ListSweep){(int)n_sweeps++, -1, 0, 0};
			}
	}
	fprintf(stderr, "deparse-probe: %zu NULL and empty changes again with another list emptied\n", n_sweeps - first);
	run_sweeps(first, n_sweeps);
	size_t first_control = n_sweeps;
	for (size_t k = 0; k < n_list_sweeps; k++) {
		if (sweeps[list_sweeps_of[k].sweep].out != OUT_CRASH)
			continue;
		Sweep c = control_of(sweeps[list_sweeps_of[k].sweep]);
		GROW(sweeps, n_sweeps, cap_sweeps);
		list_sweeps_of[k].control = (int)n_sweeps;
		sweeps[n_sweeps++] = c;
	}
	run_sweeps(first_control, n_sweeps);
	/* where the NULL is to blame: the same with each other value of each enum field of the parent,
	 * each with its control */
	size_t first_value = n_sweeps;
	for (size_t k = 0; k < n_list_sweeps; k++) {
		ListSweep *l = &list_sweeps_of[k];
		l->first_value = l->end_value = (int)n_sweeps;
		if (l->control < 0 || sweeps[l->control].out == OUT_CRASH)
			continue;
		const Sweep base = sweeps[l->sweep];
		const Site *s = &sites[base.site];
		if (s->parent_msg < 0 || !s->parent_base)
			continue;
		const pgbind_MessageDesc *pd = &pgbind_message_descs[s->parent_msg];
		for (uint32_t fi = 0; fi < pd->n_fields; fi++) {
			const pgbind_FieldDesc *f = &pd->fields[fi];
			if (f->wire != PGBIND_WIRE_ENUM)
				continue;
			const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
			int own = *(const int *)(s->parent_base + f->offset);
			for (uint32_t v = 0; v < e->n_values; v++) {
				int value = e->values[v].number;
				if (!other_value(f, value, own))
					continue;
				Sweep w = {base.site, fi, value, OUT_PENDING, NULL, NULL, true, (int)base.field + 1};
				GROW(sweeps, n_sweeps, cap_sweeps);
				sweeps[n_sweeps++] = w;
				Sweep c = control_of(w);
				GROW(sweeps, n_sweeps, cap_sweeps);
				sweeps[n_sweeps++] = c;
			}
		}
		l->end_value = (int)n_sweeps;
	}
	fprintf(stderr, "deparse-probe: %zu of them with the parent's other enum values, and their controls\n",
			n_sweeps - first_value);
	run_sweeps(first_value, n_sweeps);
	n_sites = kept_sites; /* the controls are no sites of the rules; their sweeps keep their outcomes */
}

/* The conditions of the instance's values (its message's enum fields but the changed one, its
 * parent's but skip), appended to also_clauses. */
static void instance_clauses(const Site *s, int skip)
{
	size_t len = strlen(also_clauses);
	for (int parent = 0; parent < 2; parent++) {
		if (parent && (s->parent_msg < 0 || !s->parent_base))
			break;
		const pgbind_MessageDesc *d = &pgbind_message_descs[parent ? (uint32_t)s->parent_msg : s->msg];
		for (uint32_t fi = 0; fi < d->n_fields; fi++) {
			char buf[128];
			const char *v = d->fields[fi].wire == PGBIND_WIRE_ENUM && (parent ? (int)fi != skip : fi != s->field)
								? cond_value(s, parent, (int)fi, buf, sizeof buf)
								: NULL;
			if (v && len + strlen(v) + 64 < sizeof also_clauses)
				len += (size_t)snprintf(also_clauses + len, sizeof also_clauses - len, ",%s=%s=%s",
										parent ? "ifparent" : "if", d->fields[fi].proto_name, v);
		}
	}
}

static void list_sweep_rules(void)
{
	for (size_t k = 0; k < n_list_sweeps; k++) {
		const ListSweep *l = &list_sweeps_of[k];
		const Sweep *w = &sweeps[l->sweep];
		if (w->out != OUT_CRASH || l->control < 0 || sweeps[l->control].out == OUT_CRASH)
			continue;
		const Site *s = &sites[w->site];
		const pgbind_FieldDesc *lf = &pgbind_message_descs[s->msg].fields[w->field];
		bool shown = false; /* the parser leaves the field NULL (empty) with that list empty here */
		for (size_t j = 0; j < n_sites && !shown; j++)
			shown =
				sites[j].natural && same_place(&sites[j], s) && !*(const size_t *)(sites[j].base + lf->count_offset);
		if (shown)
			continue;
		/* with the values this instance has, and per enum field of the parent, every value with
		 * which it crashes and its control does not: ALTER OPERATOR - (NONE, int) OWNER TO r holds
		 * such a NULL with objfuncargs empty, and deparses; ALTER FUNCTION's deparser reads the NULL
		 * as a type whatever its objtype */
		Scope here = {.n = 1, .parents = {s}};
		Bits bad = {{1}};
		bool any = false;
		for (int v = l->first_value; v < l->end_value;) {
			uint32_t fi = sweeps[v].field;
			char values[2048], buf[128];
			size_t len = 0;
			values[0] = 0;
			const char *own = cond_value(s, true, (int)fi, buf, sizeof buf);
			if (own)
				list_add(values, sizeof values, &len, own);
			for (; v < l->end_value && sweeps[v].field == fi; v += 2)
				if (sweeps[v].out == OUT_CRASH && sweeps[v + 1].out != OUT_CRASH) {
					const pgbind_FieldDesc *f = &pgbind_message_descs[s->parent_msg].fields[fi];
					const char *name = pgbind_enum_value_name(f->type_index, sweeps[v].value);
					if (name)
						list_add(values, sizeof values, &len, name);
				}
			also_clauses[0] = 0;
			instance_clauses(s, (int)fi);
			size_t n = strlen(also_clauses);
			snprintf(also_clauses + n, sizeof also_clauses - n, ",ifparent=%s=%s",
					 pgbind_message_descs[s->parent_msg].fields[fi].proto_name, values);
			fprintf(out, "# (crashes with %s empty too, where that alone does not: with these values)\n", lf->name);
			emit(s, &bad, &here, (int)w->field, "unset", false);
			any = true;
		}
		if (!any) { /* no parent, or one without enum fields: the instance's own values */
			also_clauses[0] = 0;
			instance_clauses(s, -1);
			fprintf(out, "# (crashes with %s empty too, where that alone does not: with these values)\n", lf->name);
			emit(s, &bad, s->parent_msg >= 0 ? &here : NULL, (int)w->field, "unset", false);
		}
		also_clauses[0] = 0;
	}
}

/* ---- kinds the parser puts in a field, under values the corpus does not show there ------------- */

/* A rule for the values the corpus does not show (ifnot=) leaves out every kind the parser puts in
 * the field somewhere, so as not to refuse parsed trees: SECURITY LABEL ON LARGE OBJECT 42 holds an
 * Integer, and `SECURITY LABEL ON VIEW <an Integer>` crashed 17's deparser (fuzz_deparse_tree), VIEW
 * being no value of the corpus's. So at the first kind-change instance of each field and parent,
 * each such kind (its first natural sample) is tried with each value of each enum field of the
 * message that the corpus does not show there, with a control (the instance's own node and that
 * value); where the kind crashes and the control does not, a rule refuses the kind with those
 * values, and where the control crashes too but another kind comes out as SQL, the kinds that
 * crashed and the control's own (emit() leaves out a kind the corpus holds where the rule
 * applies). */
typedef struct {
	int site;
	uint32_t kind, field; /* the kind put there; the enum field swept */
	int value;
	size_t case_at, control_at; /* in kind_cases */
} KindValue;
static KindValue *kind_values;
static size_t n_kind_values, cap_kind_values;
static uint8_t *kind_results;

#define SEEN_SLOTS (1u << 20)

static uint64_t seen_key(const Site *s, uint32_t ef, int v)
{
	return mix(
		mix(mix(mix(mix(0xfeed, s->msg), s->field), (uint64_t)(s->parent_msg + 2)), (uint64_t)(s->parent_field + 2)),
		mix(ef, (uint64_t)(int64_t)v));
}

static void kind_value_sweeps(void)
{
	/* the values each place shows, of each enum field of its message */
	uint64_t *seen = calloc(SEEN_SLOTS, sizeof *seen);
	for (size_t i = 0; i < n_sites; i++) {
		const Site *s = &sites[i];
		if (s->culprit || s->evidence || !s->base)
			continue;
		const pgbind_MessageDesc *d = &pgbind_message_descs[s->msg];
		for (uint32_t ef = 0; ef < d->n_fields; ef++)
			if (d->fields[ef].wire == PGBIND_WIRE_ENUM)
				set_has(seen, SEEN_SLOTS, seen_key(s, ef, *(const int *)(s->base + d->fields[ef].offset)), true);
	}
	size_t k0 = n_cases;
	for (size_t i = 0; i < n_sites; i++) {
		const Site *s = &sites[i];
		if (s->natural || s->evidence || s->culprit || s->change != CH_SUBST || !s->slot ||
			stmts[s->stmt].evidence_only)
			continue;
		Group *g = group_of(s->msg, s->field, s->parent_msg, s->parent_field, s->cell, CH_SUBST + 48);
		if (g->swept)
			continue;
		g->swept = true;
		const pgbind_MessageDesc *d = &pgbind_message_descs[s->msg];
		const pgbind_Node *own = *(pgbind_Node *const *)s->slot;
		for (uint32_t ef = 0; ef < d->n_fields; ef++) {
			const pgbind_FieldDesc *f = &d->fields[ef];
			if (f->wire != PGBIND_WIRE_ENUM)
				continue;
			const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
			for (uint32_t v = 0; v < e->n_values; v++) {
				int value = e->values[v].number;
				if (!other_value(f, value, *(const int *)(s->base + f->offset)) ||
					set_has(seen, SEEN_SLOTS, seen_key(s, ef, value), false))
					continue;
				size_t control_at = SIZE_MAX;
				for (unsigned k = 1; k < MAX_KINDS; k++) {
					FieldNat *fn =
						k == own->tag || !kind_fits(s, k) ? NULL : field_nat(s->msg, s->field, s->cell, k, false);
					if (!fn || !fn->n_samples)
						continue;
					if (control_at == SIZE_MAX) {
						GROW(sweeps, n_sweeps, cap_sweeps);
						sweeps[n_sweeps] = (Sweep){(int)i, ef, value, OUT_PENDING, NULL, NULL, false, 0};
						control_at = n_cases - k0;
						GROW(cases, n_cases, cap_cases);
						cases[n_cases++] = (Case){(int)i, own->tag, false, (int)n_sweeps++, own, ROLE_CONTROL};
					}
					GROW(sweeps, n_sweeps, cap_sweeps);
					sweeps[n_sweeps] = (Sweep){(int)i, ef, value, OUT_PENDING, NULL, NULL, false, 0};
					GROW(kind_values, n_kind_values, cap_kind_values);
					kind_values[n_kind_values++] = (KindValue){(int)i, k, ef, value, n_cases - k0, control_at};
					GROW(cases, n_cases, cap_cases);
					cases[n_cases++] = (Case){(int)i, k, false, (int)n_sweeps++, fn->sample[0], ROLE_NATURAL};
					/* and as a zeroed and a poisoned node: what the parser writes there with its
					 * values may not be what is read with this one (ALTER EXTENSION e <objtype 0>
					 * <an ObjectWithArgs without objname>, read as a String, crashes 15's deparser,
					 * where the corpus's, with a name, does not; found by fuzz_deparse_tree) */
					const pgbind_Node *variants[2] = {zeroed_of(k), poisoned_of(fn)};
					for (int w = 0; w < 2; w++) {
						GROW(sweeps, n_sweeps, cap_sweeps);
						sweeps[n_sweeps] = (Sweep){(int)i, ef, value, OUT_PENDING, NULL, NULL, false, 0};
						GROW(kind_values, n_kind_values, cap_kind_values);
						kind_values[n_kind_values++] = (KindValue){(int)i, k, ef, value, n_cases - k0, control_at};
						GROW(cases, n_cases, cap_cases);
						cases[n_cases++] = (Case){(int)i, k, false, (int)n_sweeps++, variants[w], ROLE_NATURAL};
					}
				}
			}
		}
	}
	free(seen);
	fprintf(stderr,
			"deparse-probe: %zu kinds the parser puts in a field tried under values the corpus does not show "
			"there (%zu cases with the controls)\n",
			n_kind_values, n_cases - k0);
	kind_results = malloc(n_cases - k0 + 1);
	run_cases(cases + k0, n_cases - k0, kind_results);
	n_cases = k0;
}

/* Whether the deparser wrote SQL (right, wrong or not parsing), not an error nor a crash. */
static bool wrote_sql(uint8_t outcome)
{
	return outcome == OUT_SAME || outcome == OUT_MISREAD || outcome == OUT_UNPARSED;
}

static void kind_value_rules(void)
{
	/* per instance and enum field: per value, the kinds that crashed where the control did not; one
	 * rule per set of kinds, for the values that share it. Where the control crashed too but some
	 * kind came out as SQL (an error may come before the crash), the value alone is no crash: the
	 * kinds that crashed are bad with it, and so is the control's own (ALTER EXTENSION e ADD TABLE
	 * t holds a List, which crashes ADD ACCESS METHOD, objtype 0 in a JSON tree, where a String
	 * deparses; found by fuzz_deparse_json) */
	typedef struct {
		int value;
		Bits bad;
	} ValueKinds;
	static ValueKinds per[1024];
	for (size_t k = 0; k < n_kind_values;) {
		const KindValue *a = &kind_values[k];
		const Site *s = &sites[a->site];
		const pgbind_FieldDesc *f = &pgbind_message_descs[s->msg].fields[a->field];
		size_t n = 0, e = k;
		const unsigned own = (*(pgbind_Node *const *)s->slot)->tag;
		for (; e < n_kind_values && kind_values[e].site == a->site && kind_values[e].field == a->field; e++) {
			const KindValue *x = &kind_values[e];
			bool control_crashed = kind_results[x->control_at] == OUT_CRASH, some_fine = false;
			for (size_t q = e; q < n_kind_values && kind_values[q].site == a->site &&
							   kind_values[q].field == a->field && kind_values[q].value == x->value;
				 q++)
				some_fine = some_fine || wrote_sql(kind_results[kind_values[q].case_at]);
			if (kind_results[x->case_at] != OUT_CRASH && !(control_crashed && some_fine))
				continue;
			if (control_crashed && !some_fine)
				continue;
			if (!n || per[n - 1].value != x->value) {
				if (n == sizeof per / sizeof *per)
					continue;
				per[n++] = (ValueKinds){x->value, {{0}}};
			}
			if (kind_results[x->case_at] == OUT_CRASH)
				bit_set(&per[n - 1].bad, x->kind);
			if (control_crashed)
				bit_set(&per[n - 1].bad, own);
		}
		for (size_t i = 0; i < n; i++) {
			if (bits_empty(&per[i].bad))
				continue;
			char values[4096] = "";
			size_t len = 0;
			Bits bad = per[i].bad;
			for (size_t j = i; j < n; j++)
				if (bits_equal(&per[j].bad, &bad)) {
					const char *name = pgbind_enum_value_name(f->type_index, per[j].value);
					if (name)
						list_add(values, sizeof values, &len, name);
					if (j > i)
						per[j].bad = (Bits){{0}};
				}
			Scope here = {.n = 1, .parents = {s}};
			fprintf(out,
					"# (kinds the parser puts in %s elsewhere: they crash with %s set so, which the corpus "
					"does not show there, where the node there does not)\n",
					pgbind_message_descs[s->msg].fields[s->field].name, f->name);
			emit(s, &bad, s->parent_msg >= 0 ? &here : NULL, (int)a->field, values, false);
		}
		k = e;
	}
}

static void prepare_rules(void)
{
	/* a kind the corpus lacks was tried as a zeroed node only: where the field is particular about
	 * kinds (some kind crashed or was misread), it is not allowed either; and a kind the field holds
	 * in a statement that deparses is fine there */
	for (size_t i = 0; i < n_sites; i++) {
		Site *s = &sites[i];
		if (s->change != CH_SUBST)
			continue;
		if (s->control_failed) /* no kind parses back here: only crashes count */
			s->bad = s->crashed;
		/* a kind of which one sample parses back to the tree holding it is handled as itself:
		 * what the other does (not parse, even crash) is its own shape's, not the kind's (a
		 * ColumnRef `*` in WHERE; NULLIF(a, b # c) deparses whatever the smaller A_Expr did) */
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (bit_get(&s->same, k))
				s->bad.w[k / 64] &= ~(1ull << (k % 64));
		if (!bits_empty(&s->bad))
			for (unsigned k = 0; k < MAX_KINDS; k++)
				if (zeroed[k])
					bit_set(&s->bad, k);
		if (s->evidence)
			continue;
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (bit_get(&s->bad, k) &&
				(natural_has(natural_key(s->msg, s->field, s->parent_msg, s->parent_field, s->cell, s->sig, k),
							 false) ||
				 (!bit_get(&s->natcrashed, k) && natural_has(natural_any_key(s->msg, s->field, s->cell, k), false))))
				s->bad.w[k / 64] &= ~(1ull << (k % 64));
	}
	/* evidence from a statement that crashed as it was: the same field with the same values in the
	 * corpus shares it (after the clearing above: a kind seen deparsing elsewhere in the parent
	 * field is still bad for these values) */
	for (size_t i = 0; i < n_sites; i++) {
		const Site *e = &sites[i];
		if (!e->evidence)
			continue;
		for (size_t j = 0; j < n_sites; j++) {
			Site *t = &sites[j];
			if (!t->natural && !t->evidence && t->msg == e->msg && t->field == e->field && t->change == e->change &&
				t->cell == e->cell && t->parent_msg == e->parent_msg && t->parent_field == e->parent_field &&
				t->sig == e->sig)
				for (size_t w = 0; w < MAX_KINDS / 64; w++)
					t->bad.w[w] |= e->bad.w[w];
		}
	}
	qsort(nat_kinds, n_nat_kinds, sizeof *nat_kinds, cmp_nat_kind);
}

/* Whether s is a probed kind change of cell 0 in the parent field of p */
static bool probed_cell0_in(const Site *s, const Site *p)
{
	return s->change == CH_SUBST && !s->natural && s->cell == 0 && !s->evidence && s->parent_msg == p->parent_msg &&
		   s->parent_field == p->parent_field;
}

static void emit_rules(void)
{
	n_labels = 0, n_rules = 0;
	const Site **all = malloc(n_sites * sizeof *all);
	for (size_t i = 0; i < n_sites; i++)
		all[i] = &sites[i];
	qsort(all, n_sites, sizeof *all, cmp_site);
	for (size_t i = 0; i < n_sites;) {
		size_t j = i;
		while (j < n_sites && all[j]->msg == all[i]->msg && all[j]->field == all[i]->field &&
			   all[j]->change == all[i]->change && all[j]->cell == all[i]->cell)
			j++;
		rules_for_column(all + i, j - i);
		i = j;
	}
	/* a list the corpus never shows with a second cell (no site of cell 1: natural_any_key does
	 * not tell cells apart): from cell 1 on, what cell 0 holds where the corpus has it (ALTER OPERATOR FAMILY s.f: opfamilyname holds Strings; an A_Const there,
	 * found by fuzz_deparse_pb, crashes 15's deparser), and no NULL unless cell 0 is NULL somewhere */
	for (size_t i = 0; i < n_sites;) {
		size_t j = i;
		const Site *cell0 = NULL;
		bool cell1 = false, null0 = false;
		for (; j < n_sites && all[j]->msg == all[i]->msg && all[j]->field == all[i]->field; j++) {
			cell1 = cell1 || all[j]->cell >= 1;
			null0 = null0 || (all[j]->cell == 0 && all[j]->change == CH_NULL && all[j]->natural);
			if (all[j]->cell == 0 && all[j]->change == CH_SUBST && !all[j]->natural && !all[j]->evidence && !cell0)
				cell0 = all[j];
		}
		size_t first = i;
		i = j;
		if (!cell0)
			continue;
		Site later = *cell0;
		later.cell = 1;
		Bits bad = {{0}};
		for (unsigned k = 0; k < MAX_KINDS; k++)
			if (samples[k] && !natural_has(natural_any_key(cell0->msg, cell0->field, 0, k), false))
				bit_set(&bad, k);
		if (cell1) {
			/* in each parent, what cell 0 may not hold, of the kinds the field holds in no cell,
			 * the cells after it may not hold either: they are read by the same loop, whatever
			 * their instances showed (CREATE TABLE ... WITH (a = 1, <a DiscardStmt>) crashes 15's
			 * deparser, read as a DefElem past its end; its control failed there, so only crashes
			 * counted, and the probe's sample did not crash; found by fuzz_deparse_tree) */
			for (size_t q = first; q < j; q++) {
				const Site *c0 = all[q];
				if (!probed_cell0_in(all[q], c0))
					continue;
				bool done = false; /* its parent had its turn */
				for (size_t r = first; r < q && !done; r++)
					done = probed_cell0_in(all[r], c0);
				if (done)
					continue;
				Bits of_parent = {{0}};
				for (size_t r = q; r < j; r++)
					if (probed_cell0_in(all[r], c0))
						for (size_t w = 0; w < MAX_KINDS / 64; w++)
							of_parent.w[w] |= all[r]->bad.w[w] & bad.w[w];
				if (bits_empty(&of_parent))
					continue;
				Site after = *c0;
				after.cell = 1;
				Scope here = {.n = 1, .parents = {c0}};
				fprintf(out,
						"# (%s.%s: from cell 1 on, what cell 0 may not hold of the kinds the field holds in no cell)\n",
						pgbind_message_descs[c0->msg].name, pgbind_message_descs[c0->msg].fields[c0->field].name);
				emit(&after, &of_parent, c0->parent_msg >= 0 ? &here : NULL, -1, NULL, false);
			}
			continue;
		}
		fprintf(out,
				"# (%s.%s: no statement of the corpus has a second cell; from cell 1 on, the kinds cell 0 holds%s)\n",
				pgbind_message_descs[cell0->msg].name, pgbind_message_descs[cell0->msg].fields[cell0->field].name,
				null0 ? "" : ", and no NULL");
		emit(&later, &bad, NULL, -1, NULL, false);
		if (!null0) {
			later.change = CH_NULL;
			Bits null_bad = {{1}};
			emit(&later, &null_bad, NULL, -1, NULL, false);
		}
	}
	free(all);
	natural_sweep_rules();
	cut_list_rules();
	list_sweep_rules();
	kind_value_rules();
}

static int cmp_stmt(const void *a, const void *b)
{
	size_t x = strlen(((const Stmt *)a)->sql), y = strlen(((const Stmt *)b)->sql);
	return x < y ? -1 : x > y ? 1 : strcmp(((const Stmt *)a)->sql, ((const Stmt *)b)->sql);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *major = "?", *cache_path = NULL;
	int first = 1;
	for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
		if (strcmp(argv[first], "--out") == 0 && first + 1 < argc)
			out_path = argv[++first];
		else if (strcmp(argv[first], "--major") == 0 && first + 1 < argc)
			major = argv[++first];
		else if (strcmp(argv[first], "--misreads") == 0)
			with_misreads = true;
		else if (strcmp(argv[first], "--cache") == 0 && first + 1 < argc)
			cache_path = argv[++first];
		else {
			fprintf(stderr, "usage: deparse-probe --major N --out FILE [--cache FILE] FILE.sql...\n");
			return 2;
		}
	}
	if (!out_path || first == argc) {
		fprintf(stderr, "usage: deparse-probe --major N --out FILE [--cache FILE] FILE.sql...\n");
		return 2;
	}
	if (cache_path)
		cache_open(cache_path);
	keep = pgbind_Arena_New();
	groups = calloc(GROUP_SLOTS, sizeof *groups);
	novel_swept = calloc(NOVEL_SLOTS, sizeof *novel_swept);
	natural_kinds = calloc(NATURAL_SLOTS, sizeof *natural_kinds);
	field_nats = calloc(FIELD_NAT_SLOTS, sizeof *field_nats);
	sigs_taken = calloc(SIG_SLOTS, sizeof *sigs_taken);
	values_taken = calloc(SIG_SLOTS, sizeof *values_taken);
	int_values_seen = calloc(INT_SLOTS, sizeof *int_values_seen);
	if (!keep || !groups || !novel_swept || !natural_kinds || !field_nats || !sigs_taken || !values_taken ||
		!int_values_seen) {
		fprintf(stderr, "deparse-probe: out of memory\n");
		return 2;
	}
	for (int i = first; i < argc; i++)
		cli_each_statement(argv[i], "deparse-probe", add_statement, NULL);
	fprintf(stderr, "deparse-probe: %zu statements\n", n_stmts);

	/* the baseline: statements that deparse and parse back to themselves (in children too) */
	Case *base = malloc((n_stmts + 1) * sizeof *base);
	uint8_t *base_out = malloc(n_stmts + 1);
	size_t n_base = n_stmts;
	for (size_t i = 0; i < n_stmts; i++) {
		GROW(sites, n_sites, cap_sites);
		Site *s = &sites[n_sites];
		memset(s, 0, sizeof *s);
		s->stmt = (int)i;
		s->change = CH_NONE;
		base[i] = (Case){(int)n_sites++, 0, false, -1, NULL, ROLE_SAMPLE};
	}
	run_cases(base, n_base, base_out);
	size_t kept = 0, n_evidence_stmts = 0;
	for (size_t i = 0; i < n_stmts; i++) {
		if (base_out[i] == OUT_SAME || base_out[i] == OUT_FINE) {
			stmts[kept++] = stmts[i];
		} else if (base_out[i] == OUT_MISREAD || base_out[i] == OUT_UNPARSED) {
			/* no crash: what its tree holds (NULLs, kinds, values) is fine, and never refused */
			stmts[i].evidence_only = true;
			stmts[kept++] = stmts[i];
			n_evidence_stmts++;
		} else if (base_out[i] == OUT_CRASH && n_bad_stmts < 64) { /* misread ones: no crash to explain */
			GROW(bad_stmts, n_bad_stmts, cap_bad_stmts);
			bad_stmts[n_bad_stmts++] = stmts[i];
		}
	}
	fprintf(stderr, "deparse-probe: %zu statements deparse without a crash (%zu of them misread: evidence only)\n",
			kept, n_evidence_stmts);
	n_stmts = kept;
	n_sites = 0;
	free(base);
	free(base_out);

	/* the smallest statements first: each field's instances come from the shortest that have it */
	qsort(stmts, n_stmts, sizeof *stmts, cmp_stmt);
	for (size_t i = 0; i < n_stmts; i++) {
		const pgbind_MessageDesc *root = pgbind_message_desc_by_name("ParseResult");
		evidence_mode = stmts[i].evidence_only;
		sites_in((int)i, (uint32_t)(root - pgbind_message_descs), (const char *)stmts[i].tree, NULL, -1, -1, 0);
	}
	evidence_mode = false;
	/* kinds the corpus lacks: a zeroed node */
	size_t n_zeroed = 0;
	for (unsigned k = 1; k < MAX_KINDS; k++) {
		const pgbind_MessageDesc *d = pgbind_node_desc(k);
		if (!d || samples[k])
			continue;
		samples[k] = zeroed_node(k);
		zeroed[k] = true;
		n_zeroed++;
	}
	for (size_t i = 0; i < n_sites; i++) {
		if (sites[i].natural)
			continue;
		if (sites[i].change != CH_SUBST) {
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] = (Case){(int)i, 0, false, -1, NULL, ROLE_SAMPLE};
			/* the first instance of each group: the change again with each string or enum field of
			 * the message set to every other value (a string: a name no statement holds) */
			Site *s = &sites[i];
			Group *g = group_of(s->msg, s->field, s->parent_msg, s->parent_field, s->cell, s->change);
			const pgbind_MessageDesc *d = &pgbind_message_descs[s->msg];
			if (g->swept) {
				/* and the first instance of each other combination of the message's enum values:
				 * the change again with each string field set to a name no statement holds (ALTER
				 * FOREIGN TABLE ft OPTIONS (ADD <a new name>) with no value crashes, where the
				 * group's first instance, a DefElem of SET GENERATED, is fine with one; found by
				 * fuzz_deparse_pb) */
				if (!set_has(novel_swept, NOVEL_SLOTS, mix(g->key, enum_signature(d, s->base)), true))
					novel_sweeps(s, d, i);
				continue;
			}
			g->swept = true;
			set_has(novel_swept, NOVEL_SLOTS, mix(g->key, enum_signature(d, s->base)), true);
			s->first_sweep = (int)n_sweeps;
			for (uint32_t fi = 0; fi < d->n_fields; fi++) {
				const pgbind_FieldDesc *f = &d->fields[fi];
				if (fi == s->field)
					continue;
				if (f->wire == PGBIND_WIRE_STRING && *(const char *const *)(s->base + f->offset)) {
					add_sweep(i, fi, 0);
				} else if (f->wire == PGBIND_WIRE_ENUM) {
					const pgbind_EnumDesc *e = &pgbind_enum_descs[f->type_index];
					int own = *(const int *)(s->base + f->offset);
					for (uint32_t v = 0; v < e->n_values; v++)
						if (other_value(f, e->values[v].number, own))
							add_sweep(i, fi, e->values[v].number);
				}
			}
			s->n_sweeps = (int)n_sweeps - s->first_sweep;
			continue;
		}
		const Site *st = &sites[i];
		for (unsigned k = 1; k < MAX_KINDS; k++) {
			/* the field's own kind is fine (the statement deparses with it); a oneof holds its
			 * members only */
			if (!samples[k] || k == (*(pgbind_Node **)st->slot)->tag || !kind_fits(st, k))
				continue;
			/* a kind the parser puts in the field elsewhere: its nodes from there (none is needed
			 * where it does so with this parent and these values: write_rules clears it) */
			if (natural_has(natural_any_key(st->msg, st->field, st->cell, k), false)) {
				if (natural_has(natural_key(st->msg, st->field, st->parent_msg, st->parent_field, st->cell, st->sig, k),
								false))
					continue;
				const FieldNat *f = field_nat(st->msg, st->field, st->cell, k, false);
				for (int j = 0; f && j < f->n_samples; j++) {
					GROW(cases, n_cases, cap_cases);
					cases[n_cases++] = (Case){(int)i, k, false, -1, f->sample[j], ROLE_NATURAL};
				}
				continue;
			}
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] = (Case){(int)i, k, false, -1, NULL, ROLE_SAMPLE};
			if (samples_big[k] && samples_big[k] != samples[k]) {
				GROW(cases, n_cases, cap_cases);
				cases[n_cases++] = (Case){(int)i, k, true, -1, NULL, ROLE_SAMPLE};
			}
		}
		/* the control: another node of the same kind the corpus holds in this field (the smallest,
		 * any parent). Where that does not parse back either (the statement comes out differently
		 * with any other node there), an outcome short of a crash says nothing of the kind put there
		 * (write_rules) */
		const pgbind_Node *control = control_for(&sites[i]);
		if (control) {
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] = (Case){(int)i, control->tag, false, -1, control, ROLE_CONTROL};
		}
	}
	fprintf(stderr, "deparse-probe: %zu sites, %zu cases (%zu kinds as zeroed nodes, %zu sweeps)\n", n_sites, n_cases,
			n_zeroed, n_sweeps);
	uint8_t *result = malloc(n_cases);
	run_cases(cases, n_cases, result);
	size_t counts[6] = {0};
	for (size_t i = 0; i < n_cases; i++) {
		if (cases[i].sweep >= 0) {
			sweeps[cases[i].sweep].out = result[i];
			continue;
		}
		counts[result[i] == OUT_SAME ? OUT_FINE : result[i]]++;
		/* a misread is counted, not a rule: pgbind_deparse passes libpg_query's SQL on as
		 * libpg_query does, and its round-trip check (check_deparse) refuses wrong SQL. But a
		 * node of another kind is fine only where the SQL parses back to the tree that holds it:
		 * misread, SQL that does not parse, even an error, may mean the deparser read the node as
		 * the kind it expected, and whether that crashes depends on what lies in memory past the
		 * node (fuzzing found such trees: it does under ASan, or with other field values). */
		bool subst = sites[cases[i].site].change == CH_SUBST;
		if (cases[i].role == ROLE_CONTROL) {
			sites[cases[i].site].control_failed |= result[i] != OUT_SAME;
			continue;
		}
		if (cases[i].role == ROLE_NATURAL) { /* a crash counts, and parsing back clears */
			if (result[i] == OUT_CRASH) {
				bit_set(&sites[cases[i].site].bad, cases[i].kind);
				bit_set(&sites[cases[i].site].crashed, cases[i].kind);
				bit_set(&sites[cases[i].site].natcrashed, cases[i].kind);
			} else if (result[i] == OUT_SAME) {
				bit_set(&sites[cases[i].site].same, cases[i].kind);
			}
			continue;
		}
		bool crash = result[i] == OUT_CRASH || (with_misreads && result[i] == OUT_MISREAD);
		if (crash || (subst && result[i] != OUT_SAME))
			bit_set(&sites[cases[i].site].bad, subst ? cases[i].kind : 0);
		if (crash)
			bit_set(&sites[cases[i].site].crashed, subst ? cases[i].kind : 0);
		if (subst && result[i] == OUT_SAME)
			bit_set(&sites[cases[i].site].same, cases[i].kind);
	}

	/* Where no node parses back in a field (its control failed), a kind change is judged by its
	 * crashes only, and whether a node of another kind crashes may depend on what its sample
	 * holds: strVal() of a CommentStmt in FuncCall.funcname (funcformat COERCE_SQL_SYNTAX) reads
	 * its `object`, a List in the corpus's sample and NULL in a tree fuzz_deparse_tree built. There,
	 * each kind that did not crash is tried again as a zeroed node (every pointer NULL) and as a
	 * poisoned one (every number set). So is a kind the parser puts in the field with another
	 * parent or other values: its natural samples hold what the parser writes (DROP <removeType 0>
	 * <a TypeName without names> crashes 15's deparser, where the corpus's TypeNames have names) */
	/* a home for each kind the parser puts in a field: an instance holding a node of it there; a
	 * variant of such a kind counts where it crashes only if it does not crash at home too (its
	 * content alone may crash: a poisoned FuncCall of COERCE_SQL_SYNTAX) */
	enum { HOME_SLOTS = 1u << 17 };
	uint64_t *home_key = calloc(HOME_SLOTS, sizeof *home_key);
	int *home_site = calloc(HOME_SLOTS, sizeof *home_site);
	for (size_t i = 0; i < n_sites; i++) {
		const Site *st = &sites[i];
		if (st->natural || st->evidence || st->culprit || st->change != CH_SUBST || stmts[st->stmt].evidence_only)
			continue;
		uint64_t key = natural_any_key(st->msg, st->field, st->cell, (*(pgbind_Node **)st->slot)->tag) | 1;
		size_t h = key & (HOME_SLOTS - 1);
		while (home_key[h] && home_key[h] != key)
			h = (h + 1) & (HOME_SLOTS - 1);
		if (!home_key[h])
			home_key[h] = key, home_site[h] = (int)i;
	}
	size_t first_zero_case = n_cases;
	size_t *home_case = NULL, n_home = 0, cap_home = 0; /* per variant case: its home case, or SIZE_MAX */
	for (size_t i = 0; i < n_sites; i++) {
		const Site *st = &sites[i];
		if (st->natural || st->change != CH_SUBST)
			continue;
		for (unsigned k = 1; k < MAX_KINDS; k++) {
			if (!samples[k] || bit_get(&st->crashed, k) || k == (*(pgbind_Node **)st->slot)->tag || !kind_fits(st, k) ||
				natural_has(natural_key(st->msg, st->field, st->parent_msg, st->parent_field, st->cell, st->sig, k),
							false))
				continue;
			/* where the control parsed back, a kind the parser does not put in the field was judged
			 * by parsing back; one it puts there by its natural samples' crashes only */
			if (!st->control_failed && !natural_has(natural_any_key(st->msg, st->field, st->cell, k), false))
				continue;
			if (!zeroed[k]) {
				GROW(cases, n_cases, cap_cases);
				cases[n_cases++] = (Case){(int)i, k, false, -1, zeroed_of(k), ROLE_SAMPLE};
			}
			FieldNat *fn = field_nat(st->msg, st->field, st->cell, k, false);
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] =
				(Case){(int)i, k, false, -1, fn && fn->n_samples ? poisoned_of(fn) : poisoned_sample(k), ROLE_SAMPLE};
			for (int v = 1; v <= SMALL_VARIANTS; v++) {
				GROW(cases, n_cases, cap_cases);
				cases[n_cases++] = (Case){(int)i, k, false, -1, small_of(k, v), ROLE_SAMPLE};
			}
		}
	}
	/* the home cases: each variant of a kind the parser puts in the field, at its home */
	size_t first_home_case = n_cases;
	uint64_t *home_seen = calloc(HOME_SLOTS, sizeof *home_seen);
	size_t *home_seen_case = calloc(HOME_SLOTS, sizeof *home_seen_case);
	for (size_t c = first_zero_case; c < first_home_case; c++) {
		const Site *st = &sites[cases[c].site];
		GROW(home_case, n_home, cap_home);
		home_case[n_home] = SIZE_MAX;
		uint64_t nat = natural_any_key(st->msg, st->field, st->cell, cases[c].kind), key = nat | 1;
		size_t h = key & (HOME_SLOTS - 1);
		while (home_key[h] && home_key[h] != key)
			h = (h + 1) & (HOME_SLOTS - 1);
		if (home_key[h] && natural_has(nat, false)) {
			uint64_t seen = mix(mix(0x686f6d65, (uint64_t)home_site[h]), (uint64_t)(uintptr_t)cases[c].node) | 1;
			size_t q = seen & (HOME_SLOTS - 1);
			while (home_seen[q] && home_seen[q] != seen)
				q = (q + 1) & (HOME_SLOTS - 1);
			if (!home_seen[q]) {
				home_seen[q] = seen;
				home_seen_case[q] = n_cases;
				GROW(cases, n_cases, cap_cases);
				cases[n_cases++] = (Case){home_site[h], cases[c].kind, false, -1, cases[c].node, ROLE_SAMPLE};
			}
			home_case[n_home] = home_seen_case[q];
		}
		n_home++;
	}
	free(home_seen);
	free(home_seen_case);
	free(home_key);
	free(home_site);
	fprintf(stderr,
			"deparse-probe: %zu kind changes again as zeroed and poisoned nodes (and %zu at home), where no node "
			"parses back or the kind is the parser's elsewhere\n",
			first_home_case - first_zero_case, n_cases - first_home_case);
	uint8_t *zero_result = malloc(n_cases - first_zero_case + 1);
	run_cases(cases + first_zero_case, n_cases - first_zero_case, zero_result);
	for (size_t c = first_zero_case; c < first_home_case; c++) {
		uint8_t r = zero_result[c - first_zero_case];
		size_t home = home_case[c - first_zero_case];
		counts[r == OUT_SAME ? OUT_FINE : r]++;
		Site *st = &sites[cases[c].site];
		bool parsers = natural_has(natural_any_key(st->msg, st->field, st->cell, cases[c].kind), false);
		if (r == OUT_CRASH && (!parsers || (home != SIZE_MAX && zero_result[home - first_zero_case] != OUT_CRASH))) {
			bit_set(&st->bad, cases[c].kind);
			bit_set(&st->crashed, cases[c].kind);
			if (parsers)
				bit_set(&st->natcrashed, cases[c].kind);
		}
	}
	free(zero_result);
	free(home_case);

	/* The corpus statements the deparser crashes on as they are (64 at most): every field of
	 * theirs changed, NULL or every kind put there; where a change makes the statement deparse, the
	 * field's own value (its kind, or its NULL) is bad there, evidence the other cases cannot give
	 * (COPY t FROM STDIN (null (b, c)): the smallest List of the corpus deparses there). */
	size_t first_culprit_site = n_sites, n_main_cases = n_cases;
	culprit_mode = true;
	for (size_t i = 0; i < n_bad_stmts; i++) {
		GROW(stmts, n_stmts, cap_stmts);
		stmts[n_stmts] = bad_stmts[i];
		const pgbind_MessageDesc *root = pgbind_message_desc_by_name("ParseResult");
		sites_in((int)n_stmts, (uint32_t)(root - pgbind_message_descs), (const char *)stmts[n_stmts].tree, NULL, -1, -1,
				 0);
		n_stmts++;
	}
	culprit_mode = false;
	for (size_t i = first_culprit_site; i < n_sites; i++) {
		if (sites[i].change != CH_SUBST) {
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] = (Case){(int)i, 0, false, -1, NULL, ROLE_SAMPLE};
			continue;
		}
		for (unsigned k = 1; k < MAX_KINDS; k++) {
			if (!samples[k] || zeroed[k] || (!sites[i].fill && k == (*(pgbind_Node **)sites[i].slot)->tag))
				continue;
			GROW(cases, n_cases, cap_cases);
			cases[n_cases++] = (Case){(int)i, k, false, -1, NULL, ROLE_SAMPLE};
		}
	}
	size_t n_culprit_cases = n_cases - n_main_cases;
	uint8_t *culprit_result = malloc(n_culprit_cases + 1);
	fprintf(stderr, "deparse-probe: %zu statements that crash as they are: %zu sites, %zu cases\n", n_bad_stmts,
			n_sites - first_culprit_site, n_culprit_cases);
	run_cases(cases + n_main_cases, n_culprit_cases, culprit_result);
	/* a change that fixes a statement fixes it at every ancestor too (the whole statement
	 * replaced): only the deepest fixing changes of each statement say which field is bad */
	int *deepest_fix = calloc(n_stmts + 1, sizeof *deepest_fix);
	for (size_t i = first_culprit_site, c = 0; i < n_sites; i++)
		for (; c < n_culprit_cases && cases[n_main_cases + c].site == (int)i; c++)
			if (culprit_result[c] == OUT_SAME && sites[i].depth + 1 > deepest_fix[sites[i].stmt])
				deepest_fix[sites[i].stmt] = sites[i].depth + 1;
	size_t n_evidence = 0;
	for (size_t i = first_culprit_site, c = 0; i < n_sites && c <= n_culprit_cases; i++) {
		Site *s = &sites[i];
		bool fixed = false;
		Bits still = {{0}};
		for (; c < n_culprit_cases && cases[n_main_cases + c].site == (int)i; c++) {
			if (culprit_result[c] == OUT_SAME) /* deparsed, and right: not merely an error earlier */
				fixed = true;
			else if (s->change == CH_SUBST)
				bit_set(&still, cases[n_main_cases + c].kind);
		}
		pgbind_WireKind wire = pgbind_message_descs[s->msg].fields[s->field].wire;
		if (!fixed || s->change == CH_EMPTY || s->change == CH_TRUNC || s->depth + 1 != deepest_fix[s->stmt] ||
			(!s->fill && wire != PGBIND_WIRE_NODE && wire != PGBIND_WIRE_REPEATED_NODE))
			continue;
		/* the value it had is bad: a NULL that a node fixed, or a kind that NULL or another fixed */
		Site *e = new_site(s->stmt, s->msg, s->field, s->parent_msg, s->parent_field, s->cell,
						   s->fill ? CH_NULL : CH_SUBST, s->base, s->sig);
		s = &sites[i]; /* new_site may move the array */
		e->culprit = false, e->evidence = true, e->parent_base = s->parent_base;
		if (s->fill) {
			bit_set(&e->bad, 0);
		} else {
			bit_set(&e->bad, (*(pgbind_Node **)s->slot)->tag);
		}
		n_evidence++;
	}
	free(deepest_fix);
	fprintf(stderr, "deparse-probe: %zu fields of theirs found bad\n", n_evidence);
	/* the culprit sites themselves are no instances of the corpus: only their evidence stays */
	size_t kept_sites = first_culprit_site;
	for (size_t i = first_culprit_site; i < n_sites; i++)
		if (!sites[i].culprit)
			sites[kept_sites++] = sites[i];
	n_sites = kept_sites;
	free(culprit_result);

	natural_sweeps();
	cut_lists();
	list_sweeps();
	kind_value_sweeps();
	/* the rules' passes: each runs the confirmations the last one asked for (refuted()) */
	size_t n_probe_sweeps = n_sweeps;
	first_confirm = n_sweeps;
	prepare_rules();
	size_t n_confirms = 0;
	for (int pass = 0; pass < 4; pass++) {
		size_t asked = n_sweeps;
		confirm_pending = false;
		out = fopen("/dev/null", "w");
		emit_rules();
		fclose(out);
		if (!confirm_pending)
			break;
		run_sweeps(asked, n_sweeps);
		n_confirms += n_sweeps - asked;
	}
	fprintf(stderr, "deparse-probe: %zu confirmations of a deciding field\n", n_confirms);
	out = fopen(out_path, "w");
	if (!out) {
		perror(out_path);
		return 2;
	}
	fprintf(out,
			"# The deparse contract of libpg_query for PostgreSQL %s: what its deparser requires of a tree.\n"
			"# GENERATED by tools/deparse-probe (do not edit; regenerate it):\n"
			"#     make deparse-probe   (tools/deparse-probe/run.sh: build/deparse-probe --major %s on tests/sql, the "
			"fuzz\n#     regressions and the Debian corpus)\n"
			"# Read by pgbind-gen like the overrides (generator/deparse_rules.c says what each clause means);\n"
			"# targets/c/runtime/contract.c refuses a tree that breaks a rule before the deparser sees it.\n"
			"# From %zu statements that deparse without a crash (%zu of them misread as they are: their trees\n"
			"# are evidence of what is fine, and only NULL and empty changes of theirs are cases): %zu\n"
			"# instances of fields changed, %zu cases:\n"
			"# %zu crashed, %zu misread (SQL of another tree), %zu SQL that does not parse, %zu fine; and\n"
			"# %zu sweeps (a NULL or empty change again with a string or enum field of the message set to\n"
			"# each other value). %zu statements of the corpus crash as they are (up to 64 are probed):\n"
			"# changing their fields one at a time gave %zu fields whose own value is bad.\n"
			"# Rules are for crashes (a signal, or no answer), and for a node of another kind unless the SQL\n"
			"# parses back to the tree holding it (else the deparser may have read it as the kind it expected,\n"
			"# which crashes by what lies past it); a misread otherwise is pgbind_deparse's check_deparse's.\n"
			"# Each rule follows the change and one statement that shows it.\n\n",
			major, major, n_stmts - n_bad_stmts, n_evidence_stmts, first_culprit_site, n_main_cases - n_sweeps,
			counts[OUT_CRASH], counts[OUT_MISREAD], counts[OUT_UNPARSED], counts[OUT_FINE], n_probe_sweeps, n_bad_stmts,
			n_evidence);
	emit_rules();
	fclose(out);
	fprintf(stderr, "deparse-probe: %zu rules written to %s\n", n_rules, out_path);
	return 0;
}
