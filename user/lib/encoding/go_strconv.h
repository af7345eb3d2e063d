/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Go's strconv, where the kubelet reads a value with it and cpumgr must
 * accept and refuse the same texts.
 */
#ifndef CPUMGR_GO_STRCONV_H
#define CPUMGR_GO_STRCONV_H

#include <stdbool.h>

/*
 * strconv.ParseBool: "1", "t", "T", "TRUE", "true", "True" and their
 * false counterparts; 0 with *out set, or -EINVAL for any other text
 * (Go's message: strconv.ParseBool: parsing "<s>": invalid syntax).
 */
int go_parse_bool(const char *s, bool *out);

#endif
