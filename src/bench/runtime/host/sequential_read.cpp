#include "runtime/host/sequential_read.hpp"

namespace forge::bench {

// Four chains, so the loads overlap. Not instrumented by the sanitizers: a
// check on every word would make the loop, not the memory, its limit.
__attribute__((no_sanitize("address", "undefined"))) std::uint64_t read_words(const std::uint64_t* words,
                                                                              std::size_t count) noexcept {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::uint64_t c = 0;
    std::uint64_t d = 0;
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        a += words[i];
        b += words[i + 1];
        c += words[i + 2];
        d += words[i + 3];
    }
    for (; i < count; ++i) a += words[i];
    return a + b + c + d;
}

}  // namespace forge::bench
