// Package parser is pg_query_go v6's parser package: libpg_query's own C functions through cgo,
// each returning libpg_query's result as a Go string or bytes, and Error, the error every
// function of this module returns when PostgreSQL reports one (the top-level package's Error is
// this type).
//
// Nothing here goes through pgbind's tree: this package is the library's route, as pg_query_go
// takes it. The top-level package computes Parse, ParseToJSON, Fingerprint and Normalize from
// pgbind's own tree (faster, and equal to these, which its tests check) and calls this package
// for the rest (ParseToProtobuf, the splitters, ParsePlPgSqlToJSON, HashXXH3_64,
// NormalizeUtility) and for libpg_query's error on a syntax error. A function the linked
// libpg_query lacks (pg_query_normalize_utility before 17, pg_query_is_utility_stmt before 18)
// returns an error naming it.
//
// As in C (and in PostgreSQL's own protocol), the input ends at its first NUL byte.
package parser

/*
#cgo LDFLAGS: -lpg_query -lpthread
#include <stdbool.h>
#include <stdlib.h>
#include <pg_query.h>

// libpg_query's fingerprint hashes with xxHash's XXH3 and the library exports it; xxhash.h is
// not installed with it (the declaration is xxhash.h's, XXH64_hash_t being unsigned long long).
unsigned long long XXH3_64bits_withSeed(const void *data, size_t len, unsigned long long seed);

static PgQueryDeparseResult parser_deparse(void *data, size_t len)
{
	PgQueryProtobuf p;
	p.len = len;
	p.data = data;
	return pg_query_deparse_protobuf(p);
}

// The functions only some majors' libraries have: where pg_query.h does not declare one, its
// result is an error naming it. Declared in 17's header on (normalize_utility; with the parser
// options, PG_QUERY_PARSE_MODE_BITS) and in 18's (is_utility_stmt; with the fingerprint options,
// PG_QUERY_FINGERPRINT_DEFAULT): a header's version number alone is not its declarations. A
// pg_query.h of another major than the module's never gets here: cgo_gen.go refuses it first.
#if PG_VERSION_NUM >= 170000 && defined(PG_QUERY_PARSE_MODE_BITS)
#define PARSER_HAS_NORMALIZE_UTILITY 1
#endif
#if PG_VERSION_NUM >= 180000 && defined(PG_QUERY_FINGERPRINT_DEFAULT)
#define PARSER_HAS_IS_UTILITY 1
#endif
static PgQueryError parser_no_normalize_utility = {
	.message = "pg_query_normalize_utility is not in this libpg_query (PostgreSQL " PG_VERSION "): it came with libpg_query 17"};
static PgQueryError parser_no_is_utility = {
	.message = "pg_query_is_utility_stmt is not in this libpg_query (PostgreSQL " PG_VERSION "): it came with libpg_query 18"};

static PgQueryError parser_no_memory = {.message = "out of memory"};

static PgQueryNormalizeResult parser_normalize_utility(const char *sql)
{
#ifdef PARSER_HAS_NORMALIZE_UTILITY
	return pg_query_normalize_utility(sql);
#else
	(void)sql;
	return (PgQueryNormalizeResult){.error = &parser_no_normalize_utility};
#endif
}

static void parser_free_normalize(PgQueryNormalizeResult r)
{
	if (r.error != &parser_no_normalize_utility)
		pg_query_free_normalize_result(r);
}

typedef struct {
	int length;
	bool *items;
	PgQueryError *error;
	void *lib; // the library's result, to free
} parser_IsUtility;

static parser_IsUtility parser_is_utility(const char *sql)
{
#ifdef PARSER_HAS_IS_UTILITY
	PgQueryIsUtilityResult *r = malloc(sizeof *r);
	if (!r)
		return (parser_IsUtility){.error = &parser_no_memory};
	*r = pg_query_is_utility_stmt(sql);
	return (parser_IsUtility){r->length, r->items, r->error, r};
#else
	(void)sql;
	return (parser_IsUtility){.error = &parser_no_is_utility};
#endif
}

static void parser_free_is_utility(parser_IsUtility r)
{
#ifdef PARSER_HAS_IS_UTILITY
	if (!r.lib)
		return;
	pg_query_free_is_utility_result(*(PgQueryIsUtilityResult *)r.lib);
	free(r.lib);
#else
	(void)r;
#endif
}
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// Error is an error PostgreSQL (or libpg_query) reported, every field of libpg_query's
// PgQueryError.
type Error struct {
	Message   string // exception message
	Funcname  string // source function of exception (e.g. SearchSysCache)
	Filename  string // source of exception (e.g. parse.l)
	Lineno    int    // source of exception (e.g. 104)
	Cursorpos int    // char in query at which exception occurred
	Context   string // additional context (optional, can be NULL)
}

func (e *Error) Error() string { return e.Message }

func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

func newError(e *C.PgQueryError) error {
	if e == nil {
		return nil
	}
	return &Error{
		Message:   goString(e.message),
		Funcname:  goString(e.funcname),
		Filename:  goString(e.filename),
		Lineno:    int(e.lineno),
		Cursorpos: int(e.cursorpos),
		Context:   goString(e.context),
	}
}

// call hands f input as a C string (which ends at input's first NUL byte) for one call.
func call[T any](input string, f func(*C.char) T) T {
	s := C.CString(input)
	defer C.free(unsafe.Pointer(s))
	return f(s)
}

// ParseToJSON returns pg_query_parse's JSON of input's parse tree.
func ParseToJSON(input string) (string, error) {
	r := call(input, func(s *C.char) C.PgQueryParseResult { return C.pg_query_parse(s) })
	defer C.pg_query_free_parse_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.parse_tree), nil
}

// ParseToProtobuf returns pg_query_parse_protobuf's bytes of input's parse tree.
func ParseToProtobuf(input string) ([]byte, error) {
	r := call(input, func(s *C.char) C.PgQueryProtobufParseResult { return C.pg_query_parse_protobuf(s) })
	defer C.pg_query_free_protobuf_parse_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	return C.GoBytes(unsafe.Pointer(r.parse_tree.data), C.int(r.parse_tree.len)), nil
}

// ScanToProtobuf returns pg_query_scan's bytes (a ScanResult) of input's tokens.
func ScanToProtobuf(input string) ([]byte, error) {
	r := call(input, func(s *C.char) C.PgQueryScanResult { return C.pg_query_scan(s) })
	defer C.pg_query_free_scan_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	return C.GoBytes(unsafe.Pointer(r.pbuf.data), C.int(r.pbuf.len)), nil
}

// DeparseFromProtobuf returns pg_query_deparse_protobuf's SQL for a ParseResult's bytes.
func DeparseFromProtobuf(input []byte) (string, error) {
	p := C.CBytes(input)
	defer C.free(p)
	r := C.parser_deparse(p, C.size_t(len(input)))
	defer C.pg_query_free_deparse_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.query), nil
}

// ParsePlPgSqlToJSON returns pg_query_parse_plpgsql's JSON of the PL/pgSQL functions input
// creates (CREATE FUNCTION ... LANGUAGE plpgsql).
func ParsePlPgSqlToJSON(input string) (string, error) {
	r := call(input, func(s *C.char) C.PgQueryPlpgsqlParseResult { return C.pg_query_parse_plpgsql(s) })
	defer C.pg_query_free_plpgsql_parse_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.plpgsql_funcs), nil
}

// Normalize returns pg_query_normalize's text: input with its constants replaced by $1, $2, ...
func Normalize(input string) (string, error) {
	r := call(input, func(s *C.char) C.PgQueryNormalizeResult { return C.pg_query_normalize(s) })
	defer C.pg_query_free_normalize_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.normalized_query), nil
}

// NormalizeUtility returns pg_query_normalize_utility's text (libpg_query 17 and later: the
// constants of utility statements that hold secrets, as passwords and connection strings, are
// replaced; the other statements are left as they are). An *Error naming the function where
// the linked libpg_query lacks it.
func NormalizeUtility(input string) (string, error) {
	r := call(input, func(s *C.char) C.PgQueryNormalizeResult { return C.parser_normalize_utility(s) })
	defer C.parser_free_normalize(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.normalized_query), nil
}

// FingerprintToUInt64 returns pg_query_fingerprint's value.
func FingerprintToUInt64(input string) (uint64, error) {
	r := call(input, func(s *C.char) C.PgQueryFingerprintResult { return C.pg_query_fingerprint(s) })
	defer C.pg_query_free_fingerprint_result(r)
	if r.error != nil {
		return 0, newError(r.error)
	}
	return uint64(r.fingerprint), nil
}

// FingerprintToHexStr returns pg_query_fingerprint's fingerprint_str (16 hex digits).
func FingerprintToHexStr(input string) (string, error) {
	r := call(input, func(s *C.char) C.PgQueryFingerprintResult { return C.pg_query_fingerprint(s) })
	defer C.pg_query_free_fingerprint_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.fingerprint_str), nil
}

// HashXXH3_64 returns xxHash's XXH3 64-bit hash of input with seed (XXH3_64bits_withSeed, the
// hash libpg_query fingerprints with, from the linked libpg_query).
func HashXXH3_64(input []byte, seed uint64) uint64 {
	if len(input) == 0 {
		return uint64(C.XXH3_64bits_withSeed(nil, 0, C.ulonglong(seed)))
	}
	p := C.CBytes(input)
	defer C.free(p)
	return uint64(C.XXH3_64bits_withSeed(p, C.size_t(len(input)), C.ulonglong(seed)))
}

// IsUtilityStmt returns, for each statement of input, whether it is a utility statement
// (pg_query_is_utility_stmt, libpg_query 18 and later; an *Error naming it before).
func IsUtilityStmt(input string) ([]bool, error) {
	r := call(input, func(s *C.char) C.parser_IsUtility { return C.parser_is_utility(s) })
	defer C.parser_free_is_utility(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	out := make([]bool, int(r.length))
	if r.length > 0 {
		copy(out, unsafe.Slice((*bool)(unsafe.Pointer(r.items)), int(r.length)))
	}
	return out, nil
}

// SplitWithScanner splits input into its statements with libpg_query's scanner;
// trimSpace trims each one's surrounding white space.
func SplitWithScanner(input string, trimSpace bool) ([]string, error) {
	return split(input, trimSpace, false)
}

// SplitWithParser splits input into its statements with PostgreSQL's parser (an error if it
// does not parse); trimSpace trims each one's surrounding white space.
func SplitWithParser(input string, trimSpace bool) ([]string, error) {
	return split(input, trimSpace, true)
}

func split(input string, trimSpace, parser bool) ([]string, error) {
	r := call(input, func(s *C.char) C.PgQuerySplitResult {
		if parser {
			return C.pg_query_split_with_parser(s)
		}
		return C.pg_query_split_with_scanner(s)
	})
	defer C.pg_query_free_split_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	stmts := unsafe.Slice(r.stmts, int(r.n_stmts))
	out := make([]string, 0, len(stmts))
	for _, s := range stmts {
		at, n := int(s.stmt_location), int(s.stmt_len)
		if at < 0 || n < 0 || at > len(input) || n > len(input)-at {
			return nil, fmt.Errorf("pg_query: the splitter returned a statement at %d+%d outside the input's %d bytes", at, n, len(input))
		}
		stmt := input[at : at+n]
		if trimSpace {
			stmt = strings.TrimSpace(stmt)
		}
		out = append(out, stmt)
	}
	return out, nil
}
