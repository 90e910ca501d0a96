/*
** cli_batch.h: `vramfit batch FILE...` (src/cli_batch.c): every scenario of lists and
** sweeps as CSV or JSON Lines rows, optionally in worker processes, with a progress
** bar and SVG/HTML pictures. Part of the command, not of the library.
*/
#ifndef VF_CLI_BATCH_H
#define VF_CLI_BATCH_H

/* argv[1] is "batch"; returns the exit status (0 ok, 2 bad input or a failed scenario). */
int cli_batch(int argc, char **argv);

#endif
