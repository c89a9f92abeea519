// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include "event_names.h"
#include "pdtrace.h"

const char *pdt_event_name(unsigned int type)
{
	static const char *const names[PDT_EV_MAX] = {
		[PDT_EV_PERSIST] = "persist",
		[PDT_EV_DISCARD] = "discard",
		[PDT_EV_DPUT] = "dput",
		[PDT_EV_UNPIN] = "unpin",
		[PDT_EV_BUSY] = "busy",
		[PDT_EV_SB_DOWN] = "sb-down",
		[PDT_EV_MOVE] = "move",
		[PDT_EV_REMOVAL] = "removal",
		[PDT_EV_EATEN] = "eaten",
		[PDT_EV_VICTIM] = "victim",
		[PDT_EV_WALK] = "walk",
		[PDT_EV_WALK_ENTRY] = "walk-entry",
		[PDT_EV_MODULE_LOAD] = "module-load",
		[PDT_EV_MODULE_FREE] = "module-free",
		[PDT_EV_ELIDED] = "elided",
		[PDT_EV_REMOVAL_END] = "removal-end",
	};

	return type < PDT_EV_MAX ? names[type] : NULL;
}
