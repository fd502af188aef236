/*
 * pgbind.h -- the public API of pgbind: PostgreSQL parse trees as typed C structs.
 *
 * pgbind_parse() runs PostgreSQL's raw parser (libpg_query) and converts its node tree straight
 * into the AST declared in pgbind_ast.h (generated from libpg_query's pg_query.proto), with no
 * protobuf in between. pgbind_encode() writes that AST as protobuf bytes identical to
 * libpg_query's own pg_query_parse_protobuf().
 *
 * Memory: every function that creates something takes a pgbind_Arena, after the inputs and the
 * options (pgbind_to_pg_parse_tree: a PostgreSQL memory context instead). What it creates lives in that arena until pgbind_Arena_Free(); there is no
 * per-object free, and nothing is allocated behind the caller's back.
 *
 * Errors: functions return NULL/false and, when `status` is not NULL, fill it with a code, a
 * message and a position. A pgbind_Status can be reused; it is overwritten on failure only.
 *
 * Threads: an arena must not be used by two threads at once; different arenas may. Parsing uses
 * libpg_query's per-thread memory context, so several threads may parse at once.
 */
#ifndef PGBIND_H
#define PGBIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbind_ast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's interface: the shared library exports these and nothing else. */
#if defined(__GNUC__)
#define PGBIND_API __attribute__((visibility("default")))
#else
#define PGBIND_API
#endif

/* The generated code and this runtime must come from the same pgbind: see `make regen`. */
#define PGBIND_RUNTIME_GEN_VERSION 1
#if PGBIND_GEN_VERSION != PGBIND_RUNTIME_GEN_VERSION
#error "targets/c/generated/pgNN/pgbind_ast.h was generated for another pgbind runtime: run make regen"
#endif

/* ---- Status ---------------------------------------------------------------------------------- */

typedef enum pgbind_StatusCode {
	PGBIND_OK = 0,
	PGBIND_ERROR_SYNTAX,          /* the SQL does not parse; message and cursor position from PostgreSQL */
	PGBIND_ERROR_NOMEM,           /* an allocation failed; nothing half-built is returned */
	PGBIND_ERROR_DEPTH,           /* the tree nests deeper than the max_depth option allows, or than the calling
								   * thread's stack holds (then the message begins with PGBIND_STACK_MESSAGE) */
	PGBIND_ERROR_INVALID,         /* a tree holds what the protocol cannot express (unknown tag, enum value) */
	PGBIND_ERROR_MALFORMED,       /* input bytes are not a valid encoding; offset says where */
	PGBIND_ERROR_ARGUMENT,        /* a NULL or out-of-range argument */
	PGBIND_ERROR_UNREPRESENTABLE, /* libpg_query's deparse route cannot carry or deparse this tree (pgbind_deparse) */
	PGBIND_ERROR_ROUND_TRIP, /* checked deparse: the SQL parses back to another tree (pgbind_Options.check_deparse) */
	PGBIND_ERROR_DEPARSER_CRASHED, /* isolated deparse: libpg_query's deparser died on the tree, or did not answer in
									* time, in its process, the deparse server (pgbind_Options.isolate_deparse) */
} pgbind_StatusCode;

/* How the message of a PGBIND_ERROR_DEPTH begins when the calling thread's stack, not max_depth,
 * stopped the walk: a thread with a larger stack takes the tree. */
#define PGBIND_STACK_MESSAGE "nesting too deep for this thread's stack"

typedef struct pgbind_Status {
	pgbind_StatusCode code;
	int cursorpos;     /* PGBIND_ERROR_SYNTAX: 1-based character position in the SQL, 0 if unknown */
	size_t offset;     /* PGBIND_ERROR_MALFORMED: byte offset in the input */
	char message[256]; /* NUL-terminated; a longer message is cut to its first 255 bytes */
} pgbind_Status;

/* A static, human-readable name for a status code ("syntax error", ...). */
PGBIND_API const char *pgbind_StatusCode_name(pgbind_StatusCode code);

/* ---- Arena ----------------------------------------------------------------------------------- */

typedef struct pgbind_Arena pgbind_Arena;

/* A new, empty arena; NULL when out of memory. The first block (4 KiB) comes with the arena, in
 * one malloc call or none (see pgbind_Arena_Free); later blocks grow geometrically, so a tree of
 * n nodes costs O(log n) calls to malloc. */
PGBIND_API pgbind_Arena *pgbind_Arena_New(void);

/* Frees the arena and everything allocated in it. NULL is allowed. The arena's own allocation
 * (with its first block) is kept for the thread's next pgbind_Arena_New, one per thread, and freed
 * when the thread exits: an arena per statement then costs no malloc call. */
PGBIND_API void pgbind_Arena_Free(pgbind_Arena *arena);

/* size bytes aligned for any AST struct; NULL when out of memory. Valid until the arena is freed. */
PGBIND_API void *pgbind_Arena_Malloc(pgbind_Arena *arena, size_t size);

/* Bytes of the arena's blocks and how many blocks it has, the first included (for benchmarks). */
PGBIND_API size_t pgbind_Arena_SpaceAllocated(const pgbind_Arena *arena);
PGBIND_API size_t pgbind_Arena_BlockCount(const pgbind_Arena *arena);

/* Test hook: make the arena's Nth block allocation from now fail (0 = never). */
PGBIND_API void pgbind_Arena_FailAfter(pgbind_Arena *arena, size_t n_blocks);

/*
 * The inline fast path of pgbind_Arena_Malloc, for code that allocates in a loop (the converters
 * allocate once per node: a call per allocation costs more than the allocation). The arena
 * begins with this cursor; the rest of it stays private to the library. arena must not be NULL.
 * A size near SIZE_MAX is refused as by pgbind_Arena_Malloc.
 */
typedef struct pgbind_ArenaCursor {
	char *ptr; /* next free byte of the current block, 16-byte aligned */
	char *end; /* end of the current block, 16-byte aligned */
} pgbind_ArenaCursor;

#define PGBIND_ARENA_ALIGN 16 /* max_align_t on the platforms we build on */

/* Compilers stop inlining in large files: the fast path must not become a call after all. */
#if defined(__GNUC__)
#define PGBIND_ARENA_INLINE static inline __attribute__((always_inline))
#else
#define PGBIND_ARENA_INLINE static inline
#endif

/* What pgbind_Arena_Alloc calls when the current block is full: starts a new block. */
PGBIND_API void *pgbind_Arena_AllocSlow(pgbind_Arena *arena, size_t size);

/* The arena's cursor, for code that writes into the free space before claiming it (the encoder
 * fills a block from its end): it claims by moving ptr, to an aligned address no further than
 * end. */
PGBIND_ARENA_INLINE pgbind_ArenaCursor *pgbind_Arena_Cursor(pgbind_Arena *arena)
{
	return (pgbind_ArenaCursor *)(void *)arena;
}

PGBIND_ARENA_INLINE void *pgbind_Arena_Alloc(pgbind_Arena *arena, size_t size)
{
	pgbind_ArenaCursor *c = pgbind_Arena_Cursor(arena);
	/* room is a multiple of the alignment, so size <= room also bounds size rounded up, and a
	 * huge size cannot wrap around in the rounding */
	if (size <= (size_t)(c->end - c->ptr)) {
		void *p = c->ptr;
		c->ptr += (size + (PGBIND_ARENA_ALIGN - 1)) & ~(size_t)(PGBIND_ARENA_ALIGN - 1);
#if defined(__GNUC__)
		if (!p) /* never: ptr is in a block. Callers' NULL checks then cost on the slow path only. */
			__builtin_unreachable();
#endif
		return p;
	}
	return pgbind_Arena_AllocSlow(arena, size);
}

/* ---- Options --------------------------------------------------------------------------------- */

/*
 * The default nesting limit, in message levels (a ParseResult is level 0, its statements level 1),
 * the same in every path: parse, conversion back to nodes, encode, decode, JSON in and out. Deep
 * enough for any statement people write; the deepest path (decode) then needs about 2.5 MiB of
 * stack (measured: some 256 bytes a level, about three times that under AddressSanitizer). The
 * main thread and new threads on Linux get 8 MiB; on a smaller stack, lower max_depth (about
 * 3,500 levels per MiB).
 */
#define PGBIND_DEFAULT_MAX_DEPTH 10000

/* How long pgbind_deparse waits for an isolated deparser (pgbind_Options.isolate_deparse) before
 * it kills it: far more than libpg_query takes for any tree within max_depth. */
#define PGBIND_DEPARSE_TIMEOUT_MS 10000

typedef struct pgbind_Options {
	int max_depth;      /* nesting limit of every path; 0 = PGBIND_DEFAULT_MAX_DEPTH */
	bool check_deparse; /* pgbind_deparse parses its SQL back and returns it only when equal() (see there) */
	/*
	 * pgbind_deparse runs libpg_query's deparser in the deparse server: one child process per
	 * process, a fork of the thread that first asks, started at the first isolated deparse and
	 * kept (targets/c/runtime/pg_route.c, on the process helper of targets/c/runtime/proc.c). The
	 * tree goes to it as pgbind's protobuf encoding over a socket, the SQL or the error comes back;
	 * the child runs only the deparser, never the program's code. A crash there, or no answer
	 * within PGBIND_DEPARSE_TIMEOUT_MS, is PGBIND_ERROR_DEPARSER_CRASHED naming the signal and the
	 * statement (stmts[i] and its kind), never the caller's death; the next call starts another
	 * server. Everything else is the plain deparse's: the same checks before (the depth and the
	 * stack), the same SQL (an empty string the protocol cannot carry travels as a marker and is
	 * put back), the same errors.
	 *
	 * For trees from outside (decoded protobuf, JSON, built or edited by hand): without it, only a
	 * tree that breaks the deparse contract goes to the server (see pgbind_deparse), and the
	 * contract knows only shapes that crashed the deparser in the probe's trials, not every tree
	 * it crashes on (nor every parsed one: SET TIME ZONE INTERVAL '1 hour' kills 17's).
	 *
	 * Cost: no fork per call, a round trip to the server: encoding the tree, two context switches
	 * and (17 and 18) decoding it there. The first call pays one fork (more the more memory the
	 * caller has touched). `pgbind bench` (row "isolated deparse (vs plain)"), on Debian's 3,825
	 * statements on 15, 9 rounds, the project's 2-core VM shared with other work (load about 8):
	 * 65,300 statements/s plain, 38,000 isolated, 15.3 and 26.3 us a statement (1.72 times);
	 * with a fork per call, before the server, 0.5-6 ms a statement. The round trip's fixed part
	 * (about 11 us) weighs most on the smallest statements and on a loaded machine: the fastest of
	 * 5 alternating calls over tests/sql (1,556 mostly small statements) took 7.4 us plain and
	 * 18.3 us isolated at load 1.7 (2.5 times), 8.6-11.3 and 22.6-35.4 us at load 15. Deparse many
	 * statements as one tree where it matters: one round trip for all.
	 *
	 * Threads: safe to call from several threads at once; the calls take turns at the one server
	 * (a mutex), so isolated deparses do not run in parallel. The server is a fork of the thread
	 * that started it and runs on that thread's stack: a deparse deeper than it holds is a crash
	 * reported as above. It allocates with malloc: glibc makes malloc usable in the child of a
	 * threaded program; a malloc that does not may hang it, which the timeout then ends.
	 *
	 * Fork: a process that forks gets a server of its own at its first isolated deparse (the
	 * parent's is recognised by its process id and left alone); the server's socket is opened
	 * close-on-exec, and the server closes every other descriptor it inherited, so that it holds
	 * no pipe of the program's open. It leaves when the process that started it ends (its socket
	 * closes). A program that ignores SIGCHLD loses the server's exit status: a crash is then
	 * reported without its signal.
	 */
	bool isolate_deparse;
	/*
	 * pgbind_deparse never forks: a tree that breaks the deparse contract, which it would deparse
	 * in the deparse server, is refused instead (PGBIND_ERROR_UNREPRESENTABLE naming the rule), and
	 * isolate_deparse is PGBIND_ERROR_ARGUMENT. For programs that cannot fork (a sandbox without
	 * fork, a process too large to copy): the refusal may then be of a tree a parse made, in a
	 * context the probe's corpus lacked (docs/deparse-contract.md measures how often).
	 */
	bool no_fork;
	/*
	 * The PostgreSQL major whose libpg_query answers (issue 52, docs/majors.md section 2). 0 (the
	 * default) is the major of this library's own types, pgbind_ast.h's: the build's (PG_MAJOR,
	 * 15 on Debian 12), by the direct route, at no cost. (The "0 = the newest built" is
	 * what 0 means once the public types are the newest major's, as planned.) Another major
	 * pgbind_majors() lists makes every function that takes options give that major's libpg_query's
	 * answer, by that major's own copy of pgbind's runtime and libpg_query, linked into the static
	 * library (targets/c/runtime/dispatch.c):
	 *   - pgbind_parse: major N's parse, converted to this library's form (pgbind_convert_protobuf,
	 *     through the newest major where no pair is direct, e.g. 17 -> 18 -> 15) and decoded into
	 *     its types; its version is this library's PG_VERSION_NUM, as the converter writes it. N's
	 *     syntax errors are N's (message, cursorpos); a value with no form in this library's major
	 *     is PGBIND_ERROR_UNREPRESENTABLE naming the converter's path ("converting PostgreSQL 17's
	 *     tree to 15's: stmts[0].stmt.SelectStmt.target_list[0].ResTarget.val.JsonObjectConstructor
	 *     (18) has no form in 15": 17 to 15 goes through 18, and the message names where it stopped).
	 *   - pgbind_deparse, pgbind_fingerprint, pgbind_normalize, pgbind_truncate, pgbind_summary:
	 *     the tree is converted to N's form (PGBIND_ERROR_UNREPRESENTABLE when it has none there)
	 *     and given to N's own function, with these options (isolation, contract, checks: N's).
	 *   - pgbind_summary_sql: N's, on the SQL.
	 *   - pgbind_scan: N's scanner's tokens and positions, each token's number mapped by its name
	 *     to this library's pgbind_Token (a token name this library's major lacks is
	 *     PGBIND_ERROR_UNREPRESENTABLE naming it).
	 * The cost over the direct route: an encode, a conversion (and for a tree's path a decode in
	 * N's copy) and the copy of the answer (docs/majors.md measures it). A major not built is
	 * PGBIND_ERROR_ARGUMENT naming the majors built. The shared library (libpgbind.so) holds its
	 * own major alone (docs/majors.md says why): there any other major is that error.
	 */
	int pg_major;
} pgbind_Options;

/* One PostgreSQL major built into this library (pgbind_majors). */
typedef struct pgbind_Major {
	int major;              /* 15, 17, 18: what pgbind_Options.pg_major names */
	int version_num;        /* its libpg_query's PG_VERSION_NUM (150001) */
	const char *pg_version; /* its libpg_query's PG_VERSION ("15.1") */
	/* its libpg_query's release as `pgbind --version` says it after the comma: "release " and
	 * Debian's package version ("release 15-4.0.0-2"), or "tree at PATH" for a tree given to the
	 * build (scripts/majors/tree.sh); "" where the build did not say (a build of the runtime's
	 * files by other means) */
	const char *release;
	bool own; /* the major of this library's types (pg_major 0) */
} pgbind_Major;

/* The majors built into this library, ascending, *n_majors of them (static storage; never NULL,
 * at least the library's own major). Thread-safe. */
PGBIND_API const pgbind_Major *pgbind_majors(size_t *n_majors);

/* ---- Parse ----------------------------------------------------------------------------------- */

/*
 * Parses sql (NUL-terminated, any number of statements) and returns its AST, allocated in arena.
 * options may be NULL. On a syntax error returns NULL with PGBIND_ERROR_SYNTAX, PostgreSQL's
 * message and cursorpos. Thread-safe (libpg_query keeps a memory context per thread; the raw
 * parse tree is released before this returns).
 */
PGBIND_API pgbind_ParseResult *pgbind_parse(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
											pgbind_Status *status);

/*
 * Converts a PostgreSQL raw node tree (the List of RawStmt that pg_query_raw_parse returns, as a
 * const void * so that this header needs no PostgreSQL headers) into the AST. For callers that
 * already hold a node tree; pgbind_parse() is this plus the raw parse.
 */
PGBIND_API pgbind_ParseResult *pgbind_from_pg_parse_tree(const void *raw_stmt_list, const pgbind_Options *options,
														 pgbind_Arena *arena, pgbind_Status *status);

/* ---- Encode ---------------------------------------------------------------------------------- */

/*
 * Writes tree as protobuf (message pg_query.ParseResult). *data points into arena and stays
 * valid as long as it; *len is its size. Bytes are identical to libpg_query's
 * pg_query_parse_protobuf() for the same statement. Time is linear in the tree size.
 */
PGBIND_API bool pgbind_encode(const pgbind_ParseResult *tree, const pgbind_Options *options, pgbind_Arena *arena,
							  const uint8_t **data, size_t *len, pgbind_Status *status);

/* ---- Decode ---------------------------------------------------------------------------------- */

/*
 * Reads protobuf bytes (message pg_query.ParseResult) into an AST in arena. Accepts everything
 * the wire format allows (unknown fields skipped, any field order, packed or unpacked repeated
 * scalars, last scalar wins, repeated messages merged); rejects malformed bytes with
 * PGBIND_ERROR_MALFORMED and the byte offset in status->offset, and strings that hold a NUL byte
 * (strings are not checked for UTF-8, as libpg_query writes what the SQL held). Never reads outside [data, data + len). The bytes need not outlive the call.
 */
PGBIND_API pgbind_ParseResult *pgbind_decode(const uint8_t *data, size_t len, const pgbind_Options *options,
											 pgbind_Arena *arena, pgbind_Status *status);

/* The same for pg_query.ScanResult (what pg_query_scan returns). */
PGBIND_API pgbind_ScanResult *pgbind_decode_scan(const uint8_t *data, size_t len, const pgbind_Options *options,
												 pgbind_Arena *arena, pgbind_Status *status);

/* ---- Back to PostgreSQL ----------------------------------------------------------------------- */

/*
 * Converts tree into PostgreSQL raw parse nodes (a List of RawStmt; NIL for no statements) in
 * memory_context, the MemoryContext pg_query_enter_memory_context() returned on this thread; the
 * nodes live until pg_query_exit_memory_context(). Semantics are those of libpg_query's
 * pg_query_protobuf_to_nodes (see targets/c/runtime/to_pg.c). Allocation failure is PGBIND_ERROR_NOMEM.
 */
PGBIND_API bool pgbind_to_pg_parse_tree(const pgbind_ParseResult *tree, void *memory_context,
										const pgbind_Options *options, void **nodes, pgbind_Status *status);

/*
 * SQL text for tree, NUL-terminated, in arena: libpg_query's deparser, by the fastest route the
 * linked library offers (see targets/c/runtime/pg_route.c). From nodes where the library exports its
 * node-level deparser (libpg_query 17 and 18 built with their own headers): every string as the
 * tree holds it. Through protobuf (Debian 12's 15-4.0.0) an empty string in a char * field
 * arrives as NULL, which the deparser may print as something else (COMMENT ... IS '' as IS NULL)
 * or crash on (ALTER TYPE t ADD VALUE ''): such a tree is deparsed with a marker string in place
 * of each such "", the markers are taken out of the SQL, and the SQL is parsed back and compared
 * with the tree by PostgreSQL's equal() (locations aside). It is returned when equal; else the
 * tree is refused with PGBIND_ERROR_UNREPRESENTABLE naming the node and field and the first
 * differing field path. On every route, so are trees the deparser of the linked version is known
 * to crash on or misread past a node (before 18: COPY t FROM STDIN (format), XMLROOT(x, VERSION
 * v || 'a')). A tree that breaks the deparse contract (targets/c/runtime/contract.c: a shape that
 * crashed the deparser in the probe's trials and no parse of its corpus makes, or the rarest shape
 * of a parsed statement it crashes on) is deparsed in the deparse server, as with
 * options->isolate_deparse: the SQL as the deparser wrote it (parsed back only with
 * options->check_deparse, the one place SQL that does not give the tree again is an error), or
 * PGBIND_ERROR_DEPARSER_CRASHED naming the rule where it dies. A shape schema/libpg_query.txt
 * declares memory-dependent (the deparser reads past a node: XMLROOT's version, before 18;
 * PGBIND_CONTRACT_READS_PAST) gives the same answer on every run: the SQL only if it parses back
 * to the tree, else PGBIND_ERROR_ROUND_TRIP naming libpg_query's bug (docs/guarantees.md, "One
 * policy"). options->no_fork refuses such trees instead. A tree
 * nested deeper than options->max_depth is
 * PGBIND_ERROR_DEPTH, as one the deparser would overflow the calling thread's stack with
 * (PGBIND_STACK_MESSAGE: about 2.5 KiB a level, so 8 MiB holds some 3,200 levels).
 * options->isolate_deparse runs the deparser in the deparse server (see there).
 *
 * With options->check_deparse, every result is parsed back and compared so: the SQL is returned
 * only when it gives the tree's statements again, else PGBIND_ERROR_ROUND_TRIP with the first
 * differing field path ("ParseResult.stmts[0].stmt.DeclareCursorStmt.options (272, then 256)").
 * libpg_query's deparser writes SQL of another tree for some statements (DECLARE c ASENSITIVE
 * CURSOR, SHOW ALL, CLUSTER VERBOSE: `pgbind verify -v` lists them). A tree decoded from protobuf
 * holds NULL where the SQL had "" in those char * fields: NULL there matches "". The check costs
 * one raw parse and one conversion to nodes more (`pgbind bench`); off by default, see README.md.
 */
PGBIND_API const char *pgbind_deparse(const pgbind_ParseResult *tree, const pgbind_Options *options,
									  pgbind_Arena *arena, pgbind_Status *status);

/* libpg_query's fingerprint of tree (equal to pg_query_fingerprint of the SQL it came from),
 * computed over the tree itself (targets/c/runtime/fingerprint.c): no parse of text again, no PostgreSQL
 * nodes. Like libpg_query's, it reads nodes to 100 levels deep, so deeper trees are no error;
 * only a chain of SELECTs (UNION's larg) deeper than options->max_depth is PGBIND_ERROR_DEPTH.
 * With a libpg_query other than 15 (other rules) it converts the tree to PostgreSQL nodes and
 * calls that library's pg_query_fingerprint_node (then max_depth bounds every level).
 * Allocation failure is PGBIND_ERROR_NOMEM. Thread-safe. */
PGBIND_API bool pgbind_fingerprint(const pgbind_ParseResult *tree, const pgbind_Options *options, uint64_t *fingerprint,
								   pgbind_Status *status);

/*
 * pg_query_normalize's text for sql: its constants replaced by $1, $2, ... (numbered in
 * libpg_query's walk order, after the highest $n sql holds itself), from tree, which must be the
 * parse of sql (pgbind_parse, or pgbind_decode of its pg_query_parse_protobuf bytes: the
 * locations are what is used), without parsing again. Byte for byte what libpg_query 15-4.0.0
 * returns, its choices included: the constants of most utility statements stay (CREATE TABLE t
 * (a int DEFAULT 1)), as do type modifiers (varchar(10)) and GROUP BY / ORDER BY positions
 * (GROUP BY 1); see targets/c/runtime/normalize.c for the rules. Linked with another libpg_query version
 * (whose rules differ) it returns that library's pg_query_normalize of sql, parsing it again. The text lives in arena. A tree that
 * does not fit sql (a constant past its end, or two overlapping) is PGBIND_ERROR_INVALID, a
 * tree deeper than options->max_depth PGBIND_ERROR_DEPTH. Thread-safe as pgbind_parse.
 */
PGBIND_API const char *pgbind_normalize(const pgbind_ParseResult *tree, const char *sql, const pgbind_Options *options,
										pgbind_Arena *arena, pgbind_Status *status);

/* The tokens of sql as libpg_query's scanner sees them (comments included), in arena. A scan
 * error is PGBIND_ERROR_SYNTAX with PostgreSQL's message and cursor position. */
PGBIND_API pgbind_ScanResult *pgbind_scan(const char *sql, const pgbind_Options *options, pgbind_Arena *arena,
										  pgbind_Status *status);

/* ---- Scripts --------------------------------------------------------------------------------- */

/* One statement of a script: its byte offset and length in the text. */
typedef struct pgbind_ScriptStatement {
	size_t location;
	size_t length;
} pgbind_ScriptStatement;

/* Prepares a SQL script in place for splitting, as `pgbind verify` reads files: psql's
 * backslash-command lines become blanks (offsets stay), extension scripts' @extschema@ and
 * @extowner@ become identifiers of the same length. */
PGBIND_API void pgbind_script_prepare(char *text);

/* The statements of text (NUL-terminated, len bytes) by libpg_query's splitter: its parser's,
 * else (a statement that does not parse) its scanner's, else (not even the scanner can split
 * it: an unterminated quote) the whole text as one statement, whose syntax error is then the
 * statement's. The array (*n_stmts elements) is allocated in arena. NULL with
 * PGBIND_ERROR_ARGUMENT or PGBIND_ERROR_NOMEM. Thread-safe as pgbind_parse. */
PGBIND_API pgbind_ScriptStatement *pgbind_script_split(const char *text, size_t len, pgbind_Arena *arena,
													   size_t *n_stmts, pgbind_Status *status);

/* ---- Equality ------------------------------------------------------------------------------- */

/* Deep equality: same tags, same field values (strings by content, NULL as ""), same array
 * lengths and elements. NULL equals only NULL. Trees nested deeper than the calling thread's
 * stack holds compare unequal (never a crash). */
PGBIND_API bool pgbind_equal(const pgbind_Node *a, const pgbind_Node *b);
PGBIND_API bool pgbind_ParseResult_equal(const pgbind_ParseResult *a, const pgbind_ParseResult *b);
PGBIND_API bool pgbind_ScanResult_equal(const pgbind_ScanResult *a, const pgbind_ScanResult *b);

/* ---- Text ------------------------------------------------------------------------------------ */

/* An indented, readable rendering of tree (fields that are set, enums by name), NUL-terminated,
 * in arena. For people, not for parsing: indentation grows with depth, so a tree n levels deep
 * prints O(n^2) bytes; deeper than PGBIND_DEFAULT_MAX_DEPTH is PGBIND_ERROR_DEPTH. */
PGBIND_API const char *pgbind_text(const pgbind_ParseResult *tree, pgbind_Arena *arena, pgbind_Status *status);

/* ---- Summary --------------------------------------------------------------------------------- */

/*
 * What a query touches, as libpg_query 18's pg_query_summary computes it, from the tree, on every
 * major (targets/c/runtime/summary.c says how, and which of libpg_query's choices it keeps: tables
 * and functions are listed each time they are met, not as sets). Two views of one result:
 * pgbind_Summary for C, and its protobuf (pgbind_summary_encode), message pg_query.SummaryResult
 * of targets/c/runtime/summary.proto, the bytes pg_query_summary returns, for other languages to
 * decode with their protobuf library. Strings point into the tree or the arena.
 */

/* Where a table or function was met (SummaryResult.Context; the numbers are the proto's). */
typedef enum pgbind_SummaryContext {
	PGBIND_SUMMARY_NONE = 0,
	PGBIND_SUMMARY_SELECT = 1, /* read: a FROM clause, UPDATE ... FROM, DELETE ... USING, COPY */
	PGBIND_SUMMARY_DML = 2,    /* written: INSERT, UPDATE, DELETE, MERGE */
	PGBIND_SUMMARY_DDL = 3,    /* created, altered, dropped, locked, granted, vacuumed; SELECT INTO's */
	PGBIND_SUMMARY_CALL = 4,   /* a function called */
} pgbind_SummaryContext;

typedef struct pgbind_SummaryTable {
	const char *name;        /* schema.table, each quoted as PostgreSQL's quote_identifier does */
	const char *schema_name; /* NULL when not qualified (the proto's "") */
	const char *table_name;
	pgbind_SummaryContext context;
} pgbind_SummaryTable;

typedef struct pgbind_SummaryAlias {
	const char *key;   /* the alias */
	const char *value; /* the table's name, as pgbind_SummaryTable.name */
} pgbind_SummaryAlias;

typedef struct pgbind_SummaryFunction {
	const char *name;              /* the name as written, parts joined by "." (unquoted) */
	const char *function_name;     /* its last part */
	const char *schema_name;       /* the part before it in a name of 2 or 3 parts, else NULL */
	pgbind_SummaryContext context; /* CALL, or DDL: created, dropped (the first of a DROP), renamed, granted */
} pgbind_SummaryFunction;

/* A column a SELECT's WHERE clause reads (up to its first sub-SELECT, as libpg_query). */
typedef struct pgbind_SummaryFilterColumn {
	const char *schema_name; /* schema.table.column: schema; else NULL */
	const char *table_name;  /* table.column or schema.table.column: table; else NULL */
	const char *column;
} pgbind_SummaryFilterColumn;

typedef struct pgbind_Summary {
	size_t n_tables;
	pgbind_SummaryTable *tables; /* in the order met, CTE names left out */
	size_t n_aliases;
	pgbind_SummaryAlias *aliases; /* a map: each alias once, in the order first met, its last value */
	size_t n_cte_names;
	const char **cte_names;
	size_t n_functions;
	pgbind_SummaryFunction *functions;
	size_t n_filter_columns;
	pgbind_SummaryFilterColumn *filter_columns;
	size_t n_statement_types;
	const char **statement_types; /* node kind names ("SelectStmt"), each once, nested ones too */
	const char *truncated_query;  /* pgbind_truncate's text; NULL when truncate_limit was -1 */
} pgbind_Summary;

/*
 * The summary of tree (pgbind_parse's, or any tree of raw statements), in arena. truncate_limit:
 * -1 for no truncated_query, else its limit in bytes (pgbind_truncate); below -1 is
 * PGBIND_ERROR_ARGUMENT. Errors: those of pgbind_truncate, PGBIND_ERROR_NOMEM, PGBIND_ERROR_DEPTH
 * (PGBIND_STACK_MESSAGE) when the calling thread's stack does not hold the tree's depth (the walk
 * recurses, as libpg_query's), and PGBIND_ERROR_INVALID for DROP TABLE of a name of more than 3
 * parts (PostgreSQL's "improper relation name", as pg_query_summary). The tree is not written.
 * Thread-safe.
 */
PGBIND_API pgbind_Summary *pgbind_summary(const pgbind_ParseResult *tree, int truncate_limit,
										  const pgbind_Options *options, pgbind_Arena *arena, pgbind_Status *status);

/*
 * The summary of sql, as pgbind_summary of pgbind_parse's tree gives it, but computed on
 * PostgreSQL's own raw parse tree, without building pgbind's (only a truncated query needs it):
 * pg_query_summary's route. Strings are in arena. Errors: pgbind_parse's (PGBIND_ERROR_SYNTAX with
 * cursorpos) and pgbind_summary's. Thread-safe.
 */
PGBIND_API pgbind_Summary *pgbind_summary_sql(const char *sql, int truncate_limit, const pgbind_Options *options,
											  pgbind_Arena *arena, pgbind_Status *status);

/* summary as protobuf bytes (pg_query.SummaryResult, targets/c/runtime/summary.proto), in arena:
 * byte for byte what pg_query_summary returns for the same SQL, but for the order of the alias
 * entries, which libpg_query writes in its hash table's order (random from one process to the
 * next) and pgbind in the order of pgbind_Summary.aliases. */
PGBIND_API bool pgbind_summary_encode(const pgbind_Summary *summary, pgbind_Arena *arena, const uint8_t **data,
									  size_t *len, pgbind_Status *status);

/*
 * The deparsed tree (pgbind_deparse) shortened to at most max_length bytes as libpg_query 18's
 * summary shortens it: when the SQL is longer, the target lists, WHERE clauses, VALUES lists,
 * INSERT column lists and CTE queries are written "...", deepest first, then longest, one more
 * each time, until the SQL fits; if it still does not, it is cut to max_length - 3 characters and
 * "..." (libpg_query counts characters there, and bytes elsewhere: its choice). NUL-terminated, in
 * arena. Errors: pgbind_deparse's; a negative max_length is PGBIND_ERROR_ARGUMENT; a text to cut
 * by characters whose last character is incomplete (its first byte claims more bytes than are
 * left) is PGBIND_ERROR_MALFORMED, PostgreSQL's "invalid byte sequence for encoding" message as
 * libpg_query 18.1 gives it, status->offset where the character starts in the text. The tree is
 * not written (the shortening works on a copy). Thread-safe as pgbind_deparse.
 */
PGBIND_API const char *pgbind_truncate(const pgbind_ParseResult *tree, int max_length, const pgbind_Options *options,
									   pgbind_Arena *arena, pgbind_Status *status);

#ifdef __cplusplus
}
#endif

/* JSON in libpg_query's format, and walking/rewriting trees. */
#include "pgbind_json.h"
#include "pgbind_walk.h"

#endif /* PGBIND_H */
