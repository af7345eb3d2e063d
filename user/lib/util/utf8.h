/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 as the Unicode standard (and Go's unicode/utf8) defines it: no
 * overlong forms, no surrogates, nothing beyond U+10FFFF.  Hand-written:
 * Go's DecodeRune takes exactly one byte of an invalid sequence, which is
 * what the Go JSON reader's U+FFFD count depends on; libunistring's
 * u8_mbtouc() may take the longer maximal subpart.
 */
#ifndef CPUMGR_UTF8_H
#define CPUMGR_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Decode one sequence of s (n bytes) as Go's utf8.DecodeRune does: the
 * rune and its length, or U+FFFD and 1 for an invalid or truncated
 * sequence (0 for n == 0).
 */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *rune);
/* Whether the NUL-terminated s is well-formed UTF-8 throughout. */
bool utf8_valid(const char *s);

#endif
