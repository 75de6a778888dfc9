#include "runtime/host/uncached_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "runtime/host/cache_flush.hpp"

namespace forge::bench {

void copy_uncached(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
#if defined(__x86_64__)
    // Streaming stores need a 16-byte aligned destination: the bytes before the
    // first such address and after the last whole 16 go by a plain copy, and
    // their lines are evicted after the stores are done.
    constexpr std::size_t store_bytes = sizeof(__m128i);
    const auto at = reinterpret_cast<std::uintptr_t>(to);
    const std::size_t head = std::min(bytes, (store_bytes - at % store_bytes) % store_bytes);
    const std::size_t body = (bytes - head) / store_bytes * store_bytes;
    const std::size_t tail = bytes - head - body;
    std::memcpy(to, from, head);
    std::memcpy(to + head + body, from + head + body, tail);
    std::byte* out = to + head;
    const std::byte* in = from + head;
    for (std::size_t i = 0; i < body; i += store_bytes) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    }
    _mm_sfence();  // the stores reach memory before a call can read them
    if (head > 0) evict_lines(to, head);
    if (tail > 0) evict_lines(to + head + body, tail);
#else
    std::memcpy(to, from, bytes);
    evict_lines(to, bytes);
#endif
}

}  // namespace forge::bench
