// The host CPU's vector extensions, as eval.json's device.vector_extensions
// records them and side_targets.hpp holds the sides' builds to them.
#pragma once

#include <string>
#include <vector>

namespace forge::bench {

// The extensions a compiler can target, in /proc/cpuinfo's spelling ("flags"
// on x86-64: sse4_2, avx2, avx512f, ...; "Features" on AArch64: asimd, sve,
// ...); empty where it does not say.
[[nodiscard]] std::vector<std::string> cpu_vector_extensions();

}  // namespace forge::bench
