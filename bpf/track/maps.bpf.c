// SPDX-License-Identifier: GPL-2.0
/* The tracker's maps and license, defined once; the other sources declare the maps extern. */
#define PDT_MAPS_OWNER
#include "common.bpf.h"
#include "elide.bpf.h"
#include "removal.bpf.h"

char LICENSE[] SEC("license") = "GPL";
