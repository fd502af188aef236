/*
 * wire_diff.h -- compares two protobuf encodings of one message type field by field, with the
 * generated transcoder tables (targets/c/runtime/convert_table.h) as the description of the
 * proto, and names each difference "Message.field" (a Node whose kinds differ: "Node: A -> B").
 * Used by tests/convert/convert_test.c to classify how a converted tree differs from a major's
 * own parse. Entry point wd_diff(); keys are collected in a wd_Keys. The location of a declared
 * option's DefElem (schema/majors.txt's option:) is "DefElem.location of option
 * GrantRoleStmt.admin_opt (15 records none)".
 */
#ifndef PGBIND_TESTS_CONVERT_WIRE_DIFF_H
#define PGBIND_TESTS_CONVERT_WIRE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "convert_table.h"

typedef struct {
	char (*keys)[128];
	int n, cap;
} wd_Keys;

/* Adds key to the set (once). */
void wd_add(wd_Keys *k, const char *key);

/* Adds the key of every difference between a and b, messages of t's input message msg. A part
 * that cannot be decoded adds "undecodable MESSAGE". */
void wd_diff(const cv_Table *t, int msg, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, wd_Keys *keys);

#endif
