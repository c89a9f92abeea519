/* SPDX-License-Identifier: GPL-2.0 */
/* pdtrace's version, set by the Makefile (PDT_VERSION_STR). */
#ifndef PDT_VERSION_H
#define PDT_VERSION_H

#ifndef PDT_VERSION_STR
#define PDT_VERSION_STR "unknown"
#endif
#define PDT_VERSION PDT_VERSION_STR

#endif
