// Whether a CUDA bench carries code for the GPU it runs on: its CUDA
// architectures, in CMake's syntax (CUDA_ARCHITECTURES), against the device's
// compute capability. Plain C++, so the rule is tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace forge::bench {

// The notice for a GPU of compute capability `major`.`minor` running a bench
// built for `architectures` (e.g. "80;90-real;90a-virtual"), or nullopt when
// the bench holds native code (SASS) for it. Each entry is <number>[a|f] with an
// optional -real (SASS only) or -virtual (PTX only); a plain number is both.
// SASS runs on its own major version at the same or a higher minor (an `a`
// entry only on exactly its GPU); PTX is JIT-compiled for any later GPU (an `a`
// entry's only for its own, an `f` entry's within its major). The notice says
// whether the kernels run JIT-compiled PTX or cannot run, and how to rebuild.
// Not checked (nullopt): empty (the bench did not say), "all" and "all-major"
// (native code for every GPU the compiler knows), "native" unresolved (the GPUs
// of the machine that built it) and OFF (no architecture flags: the compiler's
// default, or flags of the project's own).
// Text that is none of these is a notice saying so.
[[nodiscard]] std::optional<std::string> architecture_notice(std::string_view architectures, int major, int minor);

}  // namespace forge::bench
