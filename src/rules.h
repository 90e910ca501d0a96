/*
** rules.h: PCRE2 rules on names (tensor names, GPU names).
** A rule set is an ordered list of (pattern, value); the first pattern that matches
** a subject gives its value. Patterns are compiled once, matched with match and depth
** limits so that a hostile pattern fails in bounded time instead of hanging.
*/
#ifndef VF_RULES_H
#define VF_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rules rules;

enum { RULES_CASELESS = 1, RULES_ANCHORED = 2 };

/* NULL on out-of-memory. */
rules *rules_new(void);
void rules_free(rules *r);
/* Compiles pattern. On a syntax error returns false and writes e.g.
** "pattern 'a(b': missing closing parenthesis at offset 3" into err. */
bool rules_add(rules *r, const char *pattern, int value, int flags, char *err, size_t errlen);
/* 1: a rule matched (*value set, *index set to the rule's position if non-NULL);
** 0: none matched; -1: a match hit the match or depth limit, or failed (err set). */
int rules_match(const rules *r, const char *subject, int *value, size_t *index, char *err,
                size_t errlen);
/* As rules_match over the rules from position `from` on (the ones after an earlier match). */
int rules_match_from(const rules *r, size_t from, const char *subject, int *value, size_t *index, char *err,
                     size_t errlen);
/* Rule `index` alone against subject: 1, 0 or -1 as rules_match (an index past the last
** rule: 0). */
int rules_match_at(const rules *r, size_t index, const char *subject, char *err, size_t errlen);
size_t rules_count(const rules *r);

#endif
