/*
** engine_int.h: pieces of engine.c that the batch path (src/sweep.c) shares, so that
** a batch and vf_estimate_file_at classify the same failure alike.
*/
#ifndef VF_ENGINE_INT_H
#define VF_ENGINE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "vramfit.h"

/* The status of a Lua failure message: out of memory, a budget or memory limit
** (host_is_limit_message), else the scenario's own error (VF_EINVAL). */
vf_status script_status(const char *msg);

/* A request's arrays hold what their counts say: false, with the first NULL entry named in
** err, when one does not (it was read as a string). */
bool request_lists_ok(const vf_request *req, char *err, size_t errlen);

#endif
