/*
** engine_int.h: pieces of engine.c that the batch path (src/sweep.c) shares, so that
** a batch and vf_estimate_file_at classify the same failure alike.
*/
#ifndef VF_ENGINE_INT_H
#define VF_ENGINE_INT_H

#include "vramfit.h"

/* The status of a Lua failure message: out of memory, a budget or memory limit
** (host_is_limit_message), else the scenario's own error (VF_EINVAL). */
vf_status script_status(const char *msg);

#endif
