// How a card's bench was built, for eval.json's "build": the struct, and the
// macros that fill it from the compile definitions forge_add_operator() sets
// (FORGE_BENCH_MAIN in bench.hpp passes it to the harness).
#pragma once

#include <optional>
#include <string_view>

namespace forge::bench {

// How the bench was built, for eval.json's "build". forge_add_operator() compiles
// it into the card's bench (FORGE_BENCH_BUILD_INFO below); a bench built any other
// way has none, and its eval.json's "build" is null.
struct BuildInfo {
    std::string_view build_type;     // CMAKE_BUILD_TYPE, or a multi-config generator's configuration; empty: none
    std::string_view compiler;       // the C++ compiler, "<id> <version>" (e.g. "GNU 12.2.0")
    std::string_view flags;          // CMAKE_CXX_FLAGS and the configuration's CMAKE_CXX_FLAGS_<CONFIG>
    std::string_view cuda_compiler;  // CUDA cards: the CUDA compiler; empty on HOST
    std::string_view cuda_flags;     // CUDA cards: CMAKE_CUDA_FLAGS and CMAKE_CUDA_FLAGS_<CONFIG>
    bool optimized = false;          // every language's flags end on an optimisation level (-O1..-O3, -Ofast, -Os)
    // CUDA cards: the bench's CUDA_ARCHITECTURES in CMake's syntax, `native` resolved (e.g. "80;90-real"); the
    // bench notes when the GPU it runs on has no native code among them. Empty on HOST.
    std::string_view cuda_architectures;
    // Cards with C sources (a vendored C kernel): the C compiler and CMAKE_C_FLAGS with the configuration's;
    // empty otherwise.
    std::string_view c_compiler;
    std::string_view c_flags;
    // Each side's compile options beyond the flags, its target's own and those of
    // what it links: a line "<language>=<option>\t<option>..." per language of
    // the card ("CXX=-fopenmp\nC=-fopenmp\n"); empty: not known.
    std::string_view reference_options;
    std::string_view student_options;
};

}  // namespace forge::bench

// The bench's build, from the compile definitions forge_add_operator() sets on
// forge_<name>_bench; std::nullopt in a bench compiled without them. The CUDA
// architectures and the C compiler and flags are optional: a bench given the
// others alone records none.
#ifdef FORGE_BENCH_CUDA_ARCHITECTURES
#define FORGE_BENCH_BUILD_CUDA_ARCHITECTURES FORGE_BENCH_CUDA_ARCHITECTURES
#else
#define FORGE_BENCH_BUILD_CUDA_ARCHITECTURES ""
#endif
#if defined(FORGE_BENCH_C_COMPILER) && defined(FORGE_BENCH_C_FLAGS)
#define FORGE_BENCH_BUILD_C_COMPILER FORGE_BENCH_C_COMPILER
#define FORGE_BENCH_BUILD_C_FLAGS FORGE_BENCH_C_FLAGS
#else
#define FORGE_BENCH_BUILD_C_COMPILER ""
#define FORGE_BENCH_BUILD_C_FLAGS ""
#endif
// The sides' compile options, in a header forge_add_operator() generates (raw
// strings: an option may hold quotes).
#ifdef FORGE_BENCH_SIDES_HEADER
#include FORGE_BENCH_SIDES_HEADER
#endif
#ifndef FORGE_BENCH_REFERENCE_OPTIONS
#define FORGE_BENCH_REFERENCE_OPTIONS ""
#define FORGE_BENCH_STUDENT_OPTIONS ""
#endif
#if defined(FORGE_BENCH_BUILD_TYPE) && defined(FORGE_BENCH_COMPILER) && defined(FORGE_BENCH_FLAGS) && \
    defined(FORGE_BENCH_CUDA_COMPILER) && defined(FORGE_BENCH_CUDA_FLAGS) && defined(FORGE_BENCH_OPTIMIZED)
#define FORGE_BENCH_BUILD_INFO                                                             \
    (::forge::bench::BuildInfo{.build_type = FORGE_BENCH_BUILD_TYPE,                       \
                               .compiler = FORGE_BENCH_COMPILER,                           \
                               .flags = FORGE_BENCH_FLAGS,                                 \
                               .cuda_compiler = FORGE_BENCH_CUDA_COMPILER,                 \
                               .cuda_flags = FORGE_BENCH_CUDA_FLAGS,                       \
                               .optimized = (FORGE_BENCH_OPTIMIZED) != 0,                  \
                               .cuda_architectures = FORGE_BENCH_BUILD_CUDA_ARCHITECTURES, \
                               .c_compiler = FORGE_BENCH_BUILD_C_COMPILER,                 \
                               .c_flags = FORGE_BENCH_BUILD_C_FLAGS,                       \
                               .reference_options = FORGE_BENCH_REFERENCE_OPTIONS,         \
                               .student_options = FORGE_BENCH_STUDENT_OPTIONS})
#else
#define FORGE_BENCH_BUILD_INFO (std::optional<::forge::bench::BuildInfo>{})
#endif
