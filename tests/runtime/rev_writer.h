/*
 * rev_writer.h -- a protobuf writer for tests that build deep or hand-made inputs: the buffer is
 * written from its end, so each level wraps what is already there (the innermost message first).
 */
#ifndef PGBIND_TESTS_REV_WRITER_H
#define PGBIND_TESTS_REV_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
	uint8_t *data;
	size_t cap, start; /* the bytes written are data[start..cap) */
} Rev;

static inline void rev_varint(Rev *r, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;
	do {
		tmp[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	r->start -= n;
	memcpy(r->data + r->start, tmp, n);
}

/* Makes what is written so far the body of length-delimited field `field`. */
static inline void rev_wrap(Rev *r, uint32_t field)
{
	rev_varint(r, r->cap - r->start);
	rev_varint(r, ((uint64_t)field << 3) | 2);
}

#endif
