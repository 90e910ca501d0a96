/*
** embedded.h: the scripts and architectures compiled into the binary (build/embedded.c,
** written by tools/embed.c from scripts/ and architectures/).
*/
#ifndef VF_EMBEDDED_H
#define VF_EMBEDDED_H

#include <stddef.h>

typedef struct embedded_file {
  const char *path; /* "scripts/prelude.lua" */
  const char *data;
  size_t size;
} embedded_file;

extern const embedded_file vf_embedded[];
extern const size_t vf_embedded_count;

#endif
