// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "utf8.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *rune)
{
	uint32_t r, min;
	size_t need;

	*rune = 0xfffd;
	if (!n)
		return 0;
	if (s[0] < 0x80) {
		*rune = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		r = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		r = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		r = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 1;
	}
	if (n < need)
		return 1;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		r = r << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are invalid */
	if (r < min || (r >= 0xd800 && r <= 0xdfff) || r > 0x10ffff)
		return 1;
	*rune = r;
	return need;
}

bool utf8_valid(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	while (n) {
		uint32_t rune;
		size_t len = utf8_decode(s, n, &rune);

		/* U+FFFD of length 1 is the decoder's "invalid" */
		if (rune == 0xfffd && len == 1)
			return false;
		s += len;
		n -= len;
	}
	return true;
}
