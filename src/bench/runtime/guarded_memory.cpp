#include "runtime/guarded_memory.hpp"

#include "runtime/host_memory.hpp"

#include <atomic>

namespace forge::bench {

namespace {

constexpr std::size_t host_alignment = 64;

void release_guarded(std::byte* data) { release_host_block(data - guard_bytes); }

}  // namespace

GuardLayout::GuardLayout(std::size_t data) noexcept
    : data_bytes(data), trailing_offset(guard_bytes + data),
      total_bytes(guard_bytes + (data + guard_bytes + host_alignment - 1) / host_alignment * host_alignment) {}

GuardPattern GuardPattern::next() noexcept {
    static std::atomic<unsigned> allocations{0};
    return GuardPattern(allocations.fetch_add(1, std::memory_order_relaxed));
}

GuardPattern GuardPattern::of_leading_guard(std::span<const std::byte> leading) noexcept {
    if (leading.size() < 2) return GuardPattern(0);
    const auto low = (std::to_integer<unsigned>(leading[0]) >> 1) & 0x07U;
    const auto high = (std::to_integer<unsigned>(leading[1]) & 0x80U) == 0 ? 0U : 0x08U;
    return GuardPattern(high | low);
}

// Every even byte 0xF0-0xFE and every odd byte 0x7F or 0xFF: little-endian, each
// element's high byte then holds an all-ones exponent, with the next byte's top
// bit for fp32, bf16 and fp64, and a nonzero mantissa: NaN, in any dtype and at
// any offset. Never all 0xFF, so a NaN computed from it is not taken for the
// unwritten-output poison. The variant adds to the even bytes' varying bits and
// picks the odd bytes' sign bit; at offset 0 and 1 it reads back as itself.
std::byte GuardPattern::at(std::size_t offset) const noexcept {
    if (offset % 2 == 1) return (variant_ & 0x08U) == 0 ? std::byte{0x7F} : std::byte{0xFF};
    return static_cast<std::byte>(0xF0U | ((((offset * 31U) >> 1) + 2U * variant_) & 0x0EU));
}

void GuardPattern::write(std::span<std::byte> guard, std::size_t offset) const noexcept {
    for (std::size_t i = 0; i < guard.size(); ++i) guard[i] = at(offset + i);
}

bool GuardPattern::holds(std::span<const std::byte> guard, std::size_t offset) const noexcept {
    for (std::size_t i = 0; i < guard.size(); ++i) {
        if (guard[i] != at(offset + i)) return false;
    }
    return true;
}

Tensor allocate_guarded(const TensorSpec& spec) {
    const GuardLayout layout(byte_size(spec));
    std::byte* base = allocate_host_block(layout.total_bytes);  // zero-filled
    const GuardPattern pattern = GuardPattern::next();
    pattern.write({base, guard_bytes}, 0);
    pattern.write({base + layout.trailing_offset, layout.trailing_bytes()}, layout.trailing_offset);
    return Tensor(spec, Place::host, base + guard_bytes, &release_guarded);
}

std::optional<std::string_view> damaged_guard(const Tensor& tensor) {
    const GuardLayout layout(tensor.bytes());
    const std::byte* base = tensor.raw() - guard_bytes;
    const GuardPattern pattern = GuardPattern::of_leading_guard({base, guard_bytes});
    if (!pattern.holds({base, guard_bytes}, 0)) return "before the start of";
    if (!pattern.holds({base + layout.trailing_offset, layout.trailing_bytes()}, layout.trailing_offset)) {
        return "past the end of";
    }
    return std::nullopt;
}

}  // namespace forge::bench
