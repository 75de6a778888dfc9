// A broken promise found while fuzzing: say which, then abort, so libFuzzer
// keeps the input as a crash reproducer.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FORGE_FUZZ_INVARIANT(condition, what)                                                     \
    do {                                                                                          \
        if (!(condition)) {                                                                       \
            std::fprintf(stderr, "%s:%d: fuzz invariant broken: %s\n", __FILE__, __LINE__, what); \
            std::abort();                                                                         \
        }                                                                                         \
    } while (false)
