// Which instructions each side was compiled for, and what the bench says when
// a side was built for its architecture's baseline on a CPU with wider
// vectors: a library that picks its code at run time (OpenBLAS, MKL, oneDNN)
// then uses those vectors while the other side's compiled code cannot, and
// that, not the kernels, can decide the verdict.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/eval/side_options.hpp"

namespace forge::bench {

// The options among `flags` (the build's, space-separated) and a side's own
// (every language's) that choose its instructions: -march=, -mcpu=, -mavx2,
// -msse4.2, -mfma, -mno-avx512f, ... Empty: the compiler's baseline.
[[nodiscard]] std::vector<std::string> target_options(std::string_view flags, const OptionsByLanguage& side);

// A notice naming each side built for the baseline while `cpu_extensions`
// holds wider vectors than the baseline has (AVX2 or AVX-512 on x86-64, SVE on
// AArch64; runtime/host/vector_extensions.hpp); nothing otherwise.
[[nodiscard]] std::optional<std::string> baseline_target_notice(const std::vector<std::string>& reference_target,
                                                                const std::vector<std::string>& student_target,
                                                                const std::vector<std::string>& cpu_extensions);

}  // namespace forge::bench
