/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands: each gets argv with argv[0] = its own name. */
#ifndef PDT_COMMANDS_H
#define PDT_COMMANDS_H

int cmd_doctor(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
