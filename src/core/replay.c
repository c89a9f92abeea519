// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "version.h"
#include "replay.h"

static void on_event(void *ctx, const void *data, size_t size)
{
	struct pdt_replay *rp = ctx;

	pdt_rules_feed(rp->rules, data, size);
}

/* The recorder wrote each snapshot before the event that needed it. */
static void on_mounts(void *ctx, const char *text, size_t len)
{
	struct pdt_replay *rp = ctx;

	mountinfo_index_free(&rp->mounts_ix);
	if (mountinfo_index_build(&rp->mounts_ix, text, len))
		rp->oom = true;
}

static void on_rule_off(void *ctx, const char *rule)
{
	struct pdt_replay *rp = ctx;
	const char *name = pdt_rule_name(rule);

	/* A rule this pdtrace lacks makes no findings anyway. */
	if (name)
		pdt_rules_disable(rp->rules, name);
}

/* As the tracker does live, on the snapshot in force. */
static void on_new_sb(const struct pdt_sb *sb, void *ctx)
{
	struct pdt_replay *rp = ctx;

	pdt_hooks_note_fs(rp->fs_seen, sb->fs_type);
	if (pdt_mounts_set(&rp->mounts, &rp->nmounts, &rp->cap_mounts,
			   pdt_rules_sb_index(rp->rules, sb), &rp->mounts_ix, sb->dev))
		rp->oom = true;
}

int pdt_replay_read(struct pdt_replay *rp, FILE *fp, uint64_t size, char *err, size_t errlen)
{
	const struct pdt_rec_sink sink = { on_event, on_mounts, on_rule_off, rp };
	int rc;

	memset(rp, 0, sizeof(*rp));
	mountinfo_index_build(&rp->mounts_ix, "", 0);
	rp->rules = pdt_rules_new();
	if (!rp->rules) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pdt_rules_on_new_sb(rp->rules, on_new_sb, rp);
	rc = pdt_rec_read(fp, size, &rp->rec, &sink, err, errlen);
	if (!rc && rp->oom) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	return rc;
}

static void format_time(uint64_t ns, char *buf, size_t n)
{
	time_t secs = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "?");
}

void pdt_replay_fill_report(struct pdt_replay *rp, struct pdt_report *rep, const char *file,
			    bool show_addresses)
{
	const struct pdt_rec *rec = &rp->rec;

	format_time(rec->meta.start_ns, rp->start, sizeof(rp->start));
	rp->info = (struct pdt_recording){ file, rec->meta.version, rp->start, rec->nevents,
					   rec->truncated ? rec->why_truncated : NULL };
	memset(rep, 0, sizeof(*rep));
	rep->version = PDT_VERSION;
	rep->kernel = rec->meta.release;
	rep->machine = rec->meta.machine;
	rep->start_ns = rec->meta.start_ns;
	rep->fs_seen = rp->fs_seen;
	rep->lost_events = rec->end.lost_events;
	rep->map_full = rec->end.map_full;
	rep->malformed = pdt_rules_malformed(rp->rules);
	rep->argv = rec->argv;
	rep->exit_status = rec->has_end ? rec->end.exit_status : -1;
	rep->rules = rp->rules;
	rep->complete = pdt_report_complete(rep, !rec->has_end || rec->truncated);
	rep->mounts = rp->mounts;
	rep->nmounts = rp->nmounts;
	rep->missing = (const char *const *)rec->coverage;
	rep->nmissing = rec->ncoverage;
	ksyms_set_modules(rec->ksyms, pdt_rules_modtab(rp->rules));
	rep->ksyms = rec->ksyms;
	rep->show_addresses = show_addresses;
	rep->recording = &rp->info;
}

void pdt_replay_free(struct pdt_replay *rp)
{
	pdt_rec_free(&rp->rec);
	pdt_rules_free(rp->rules);
	mountinfo_index_free(&rp->mounts_ix);
	free(rp->mounts);
	memset(rp, 0, sizeof(*rp));
}
