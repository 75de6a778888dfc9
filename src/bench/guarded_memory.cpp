#include "guarded_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace forge::bench {

namespace {

constexpr std::size_t alignment = 64;
// Each guard's size: a multiple of the alignment, larger than any one element or
// vector store, so a short overrun never skips over the guard.
constexpr std::size_t guard_bytes = 4 * alignment;

std::size_t total_bytes(std::size_t data_bytes) {
    const std::size_t tail = data_bytes + guard_bytes;
    return guard_bytes + (tail + alignment - 1) / alignment * alignment;
}

// Varies with the position, so a call that writes one constant over a guard
// cannot leave it looking intact.
std::byte pattern(std::size_t offset) { return static_cast<std::byte>(0xA5U ^ (offset * 31U & 0xFFU)); }

void release_guarded(std::byte* data) { std::free(data - guard_bytes); }

bool intact(const std::byte* base, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        if (base[i] != pattern(i)) return false;
    }
    return true;
}

}  // namespace

Tensor allocate_guarded(const TensorSpec& spec) {
    const std::size_t data_bytes = byte_size(spec);
    const std::size_t total = total_bytes(data_bytes);
    auto* base = static_cast<std::byte*>(std::aligned_alloc(alignment, total));
    if (base == nullptr) throw std::bad_alloc();
    for (std::size_t i = 0; i < total; ++i) base[i] = pattern(i);
    std::memset(base + guard_bytes, 0, data_bytes);
    return Tensor(spec, Place::host, base + guard_bytes, &release_guarded);
}

std::optional<std::string_view> damaged_guard(const Tensor& tensor) {
    const std::byte* base = tensor.raw() - guard_bytes;
    if (!intact(base, 0, guard_bytes)) return "before the start of";
    if (!intact(base, guard_bytes + tensor.bytes(), total_bytes(tensor.bytes()))) return "past the end of";
    return std::nullopt;
}

}  // namespace forge::bench
