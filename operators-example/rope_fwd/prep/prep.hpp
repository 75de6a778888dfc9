// The prep step of rope_fwd: the rotation tables both timed calls receive, made
// outside every window with the reference's table code.
#pragma once

#include <forge/bench/bench.hpp>

namespace prep {

void rope_fwd(forge::bench::PrepIo& io);

}  // namespace prep
