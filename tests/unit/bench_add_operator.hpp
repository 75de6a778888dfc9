// The harness tests' operator: c = a + b on n floats, the smallest one with
// inputs and an output.
#pragma once

#include <cstddef>

#include "forge/bench/bench.hpp"

inline void add(forge::bench::Io& io) {
    const auto a = io.in("a").span<const float>();
    const auto b = io.in("b").span<const float>();
    auto c = io.out("c").span<float>();
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}
