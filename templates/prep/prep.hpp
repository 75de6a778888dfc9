// The prep step of @FORGE_OPERATOR@: makes the contract's symmetrized inputs
// outside every timed window, the way the reference's caller would have made
// them. It may use the reference; it can neither include nor link the student.
#pragma once

#include <forge/bench/bench.hpp>

namespace prep {

void @FORGE_OPERATOR@(forge::bench::PrepIo& io);

}  // namespace prep
