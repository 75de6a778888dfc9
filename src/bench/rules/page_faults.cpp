#include "rules/page_faults.hpp"

#include "rules/declarations.hpp"

namespace forge::bench {

std::string page_faults_notice(Side side, long faults) {
    return "the " + side_name(side) + "'s calls took " + std::to_string(faults) +
           " page faults each (the median of its profiled calls): memory it maps afresh every call, such as a "
           "temporary above malloc's mmap threshold (at most 32 MiB), so its time includes the operating system's "
           "work of mapping and zeroing those pages, which differs between machines and runs more than the "
           "kernel's own; a workspace made in the side's setup (bench.setup) and kept between calls, as a caching "
           "allocator keeps its blocks, leaves that out";
}

}  // namespace forge::bench
