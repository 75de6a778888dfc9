#include "guarded_memory.hpp"

#include "host_memory.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t host_alignment = 64;

// NaN when read as any float dtype, so a side that reads past an input's end (a
// shape declared short) computes NaN and fails the comparison, rather than both
// sides reading the same finite garbage and agreeing: every odd byte 0xFF (the
// high byte of each little-endian element: all-ones exponent, with the next
// byte's top bits for fp32, bf16 and fp64), every even byte 0xF0-0xFE, varying
// with the offset so that a stray write of one value is still seen. Never all
// 0xFF, so a NaN computed from it is not taken for the unwritten-output poison.
std::byte pattern(std::size_t offset) noexcept {
    if (offset % 2 == 1) return std::byte{0xFF};
    return static_cast<std::byte>(0xF0U | (offset * 31U >> 1 & 0x0EU));
}

void release_guarded(std::byte* data) { release_host_block(data - guard_bytes); }

}  // namespace

GuardLayout::GuardLayout(std::size_t data) noexcept
    : data_bytes(data), trailing_offset(guard_bytes + data),
      total_bytes(guard_bytes + (data + guard_bytes + host_alignment - 1) / host_alignment * host_alignment) {}

void write_guard_pattern(std::span<std::byte> guard, std::size_t offset) noexcept {
    for (std::size_t i = 0; i < guard.size(); ++i) guard[i] = pattern(offset + i);
}

bool holds_guard_pattern(std::span<const std::byte> guard, std::size_t offset) noexcept {
    for (std::size_t i = 0; i < guard.size(); ++i) {
        if (guard[i] != pattern(offset + i)) return false;
    }
    return true;
}

Tensor allocate_guarded(const TensorSpec& spec) {
    const GuardLayout layout(byte_size(spec));
    std::byte* base = allocate_host_block(layout.total_bytes);  // zero-filled
    write_guard_pattern({base, guard_bytes}, 0);
    write_guard_pattern({base + layout.trailing_offset, layout.trailing_bytes()}, layout.trailing_offset);
    return Tensor(spec, Place::host, base + guard_bytes, &release_guarded);
}

std::optional<std::string_view> damaged_guard(const Tensor& tensor) {
    const GuardLayout layout(tensor.bytes());
    const std::byte* base = tensor.raw() - guard_bytes;
    if (!holds_guard_pattern({base, guard_bytes}, 0)) return "before the start of";
    if (!holds_guard_pattern({base + layout.trailing_offset, layout.trailing_bytes()}, layout.trailing_offset)) {
        return "past the end of";
    }
    return std::nullopt;
}

}  // namespace forge::bench
