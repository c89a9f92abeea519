// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (json.c): compact by default, indented after pdt_json_set_pretty(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json.h"

/* A nested document of every shape: members, an array of objects, empty {} and []. */
static char *write_doc(void)
{
	static char buf[1024];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");
	struct pdt_json j;

	assert_non_null(fp);
	pdt_json_init(&j, fp);
	pdt_json_obj_open(&j);
	pdt_json_kv_str(&j, "fs_type", "tmpfs");
	pdt_json_name(&j, "rows");
	pdt_json_arr_open(&j);
	pdt_json_obj_open(&j);
	pdt_json_kv_uint(&j, "made", 2);
	pdt_json_kv_bool(&j, "gone", false);
	pdt_json_obj_close(&j);
	pdt_json_uint(&j, 7);
	pdt_json_arr_close(&j);
	pdt_json_name(&j, "empty");
	pdt_json_obj_open(&j);
	pdt_json_obj_close(&j);
	pdt_json_name(&j, "none");
	pdt_json_arr_open(&j);
	pdt_json_arr_close(&j);
	pdt_json_obj_close(&j);
	fclose(fp);
	return buf;
}

static void test_compact(void **state)
{
	(void)state;
	pdt_json_set_pretty(false);
	assert_string_equal(write_doc(),
			    "{\"fs_type\":\"tmpfs\",\"rows\":[{\"made\":2,\"gone\":false},"
			    "7],\"empty\":{},\"none\":[]}");
}

static void test_pretty(void **state)
{
	(void)state;
	pdt_json_set_pretty(true);
	assert_string_equal(write_doc(), "{\n"
					 "  \"fs_type\": \"tmpfs\",\n"
					 "  \"rows\": [\n"
					 "    {\n"
					 "      \"made\": 2,\n"
					 "      \"gone\": false\n"
					 "    },\n"
					 "    7\n"
					 "  ],\n"
					 "  \"empty\": {},\n"
					 "  \"none\": []\n"
					 "}");
	pdt_json_set_pretty(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_pretty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
