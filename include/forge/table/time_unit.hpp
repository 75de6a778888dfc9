// Time units as Nsight Compute and Nsight Systems spell them.
#pragma once

#include <optional>
#include <string_view>

namespace forge {

// Nanoseconds in one `unit`: "nsecond"/"ns"/"nsec" 1, "usecond"/"us"/"usec" 1e3,
// "msecond"/"ms"/"msec" 1e6, "second"/"s"/"sec" 1e9 (case-insensitive, spaces
// ignored); nullopt for anything else, which is not a time unit.
[[nodiscard]] std::optional<double> nanoseconds_per(std::string_view unit) noexcept;

// For error messages: the spellings nanoseconds_per() accepts.
inline constexpr std::string_view known_time_units =
    "nsecond, ns, usecond, us, msecond, ms, second, s";

}  // namespace forge
