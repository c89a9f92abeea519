/* SPDX-License-Identifier: GPL-2.0 */
/* The event types of include/pdtrace.h by name, as trace -v and the test tools print them. */
#ifndef PDT_EVENT_NAMES_H
#define PDT_EVENT_NAMES_H

/* type's name, or NULL for a type this build does not know. */
const char *pdt_event_name(unsigned int type);

#endif
