/* SPDX-License-Identifier: GPL-2.0 */
/* Pods for tests, built the way the kubelet's makePod() helpers build them. */
#ifndef CPUMGR_TESTS_POD_UTIL_H
#define CPUMGR_TESTS_POD_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include <cJSON.h>

#include "pod.h"

/* Parse a pod from JSON text; aborts on a malformed test pod. */
static inline void pod_from_text(struct pod *p, const char *json)
{
	struct cm_error err = { 0 };
	cJSON *j = cJSON_Parse(json);

	if (!j || pod_from_json(j, p, &err)) {
		fprintf(stderr, "bad test pod: %s\n%s\n", cm_error_msg(&err),
			json);
		abort();
	}
	cJSON_Delete(j);
	cm_error_clear(&err);
}

/*
 * Parse a pod from JSON text, pod_from_json()'s error in err: for the
 * tests of bad pods (the text itself must be JSON; aborts if not).
 */
static inline int pod_try_text(struct pod *p, const char *json,
			       struct cm_error *err)
{
	cJSON *j = cJSON_Parse(json);
	int ret;

	if (!j)
		abort();
	ret = pod_from_json(j, p, err);
	cJSON_Delete(j);
	return ret;
}

/* makePod(): one container, cpu request/limit, memory 1G/1G. */
static inline void make_pod(struct pod *p, const char *uid, const char *name,
			    const char *req, const char *lim)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"metadata\":{\"uid\":\"%s\",\"name\":\"p\",\"namespace\":\"d\"},"
		 "\"spec\":{\"containers\":[{\"name\":\"%s\",\"resources\":{"
		 "\"requests\":{\"cpu\":\"%s\",\"memory\":\"1G\"},"
		 "\"limits\":{\"cpu\":\"%s\",\"memory\":\"1G\"}}}]}}",
		 uid, name, req, lim);
	pod_from_text(p, buf);
}

/*
 * makeMultiContainerPod(): one init container ("initcontainer-0",
 * restartPolicy Always when sidecar) and one app container ("appcontainer-0").
 */
static inline void make_init_pod(struct pod *p, const char *uid,
				 const char *init_cpu, bool sidecar,
				 const char *app_cpu)
{
	char buf[1536];

	snprintf(buf, sizeof(buf),
		 "{\"metadata\":{\"uid\":\"%s\",\"name\":\"p\",\"namespace\":\"d\"},"
		 "\"spec\":{\"initContainers\":[{\"name\":\"initcontainer-0\",%s"
		 "\"resources\":{\"requests\":{\"cpu\":\"%s\",\"memory\":\"1G\"},"
		 "\"limits\":{\"cpu\":\"%s\",\"memory\":\"1G\"}}}],"
		 "\"containers\":[{\"name\":\"appcontainer-0\",\"resources\":{"
		 "\"requests\":{\"cpu\":\"%s\",\"memory\":\"1G\"},"
		 "\"limits\":{\"cpu\":\"%s\",\"memory\":\"1G\"}}}]}}",
		 uid, sidecar ? "\"restartPolicy\":\"Always\"," : "",
		 init_cpu, init_cpu, app_cpu, app_cpu);
	pod_from_text(p, buf);
}

#endif
