/* SPDX-License-Identifier: GPL-2.0 */
/* Names in text output: what a terminal shows, never what it obeys. */
#ifndef PDT_TEXT_H
#define PDT_TEXT_H

#include <stddef.h>

/*
 * S made safe for a terminal into BUF (N bytes), which it returns: printable ASCII
 * and valid UTF-8 outside the C0 and C1 control ranges as they are; a backslash, a
 * control byte and a byte that is not part of valid UTF-8 as \xHH (a backslash as
 * \\). No escape sequence from a file name reaches the terminal, and every name reads
 * back unambiguously. Truncated to fit, never inside an escape or a character.
 */
const char *pdt_text_esc(char *buf, size_t n, const char *s);

/*
 * S made safe for a terminal in place, its length kept: a C0 or C1 control, DEL and a
 * byte that is not part of valid UTF-8 become '?' (U+009B, CSI, as "??"); printable
 * ASCII and the rest of valid UTF-8 stay. For names from files that text reports
 * print as they are (the symbols and coverage lines of a recording).
 */
void pdt_text_sanitize(char *s);

/*
 * Length of the valid UTF-8 character of 2 to 4 bytes at s, or 0 (ASCII, overlong
 * forms, surrogates, past U+10FFFF, a cut-short sequence).
 */
size_t pdt_utf8_len(const char *s);

#endif
