#include "rules/kernel_sets.hpp"

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <utility>

#include "rules/declarations.hpp"

namespace forge::bench {

namespace {

std::string kernel_list(const std::set<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return "{" + text + "}";
}

std::string untimed_problem(Side side, std::string_view what, const std::string& name, std::string_view verb,
                            double ns, std::string_view where, std::size_t count, std::string_view fix) {
    std::ostringstream message;
    message.precision(4);
    message << "the " << side_name(side) << "'s call " << what << ": '" << name << "' " << verb << " " << ns * 1e-6
            << " ms " << where;
    if (count > 1) message << " (and " << count - 1 << " more)";
    message << fix;
    return message.str();
}

}  // namespace

void note_kernel_set(std::vector<KernelNames>& seen, KernelNames names) {
    if (std::find(seen.begin(), seen.end(), names) == seen.end()) seen.push_back(std::move(names));
}

std::optional<std::string> changed_kernel_set(Side side, const std::vector<KernelNames>& samples,
                                              const std::set<std::string>& profiled) {
    for (const KernelNames& sample : samples) {
        // A log that saw only part of a sample's kernels holds a subset of them.
        const bool same = sample.complete ? sample.names == profiled
                                          : std::includes(profiled.begin(), profiled.end(), sample.names.begin(),
                                                          sample.names.end());
        if (same) continue;
        return "the " + side_name(side) + "'s timed calls ran the kernels " + kernel_list(sample.names) +
               " but its profiled call ran " + kernel_list(profiled) +
               ": the kernel set changed between samples, so the per-kernel table describes only the profiled "
               "call (flagged, not failed: a data-dependent path can be legitimate)";
    }
    return std::nullopt;
}

std::vector<UntimedWork> untimed_work(Side side, const Profile& profile) {
    std::vector<UntimedWork> found;
    if (!profile.late.empty()) {
        constexpr std::string_view kind = "left work running after its window ended";
        found.push_back({kind, untimed_problem(side, kind, profile.late.front().name, "finished",
                                               profile.late.front().ns_after_window_end, "after the window's end",
                                               profile.late.size(),
                                               ", on a stream that does not wait for the bench's stream (e.g. one "
                                               "created with cudaStreamNonBlocking), so no window timed it: launch "
                                               "on io.stream(), or make io.stream() wait for that work "
                                               "(cudaEventRecord, then cudaStreamWaitEvent)")});
    }
    if (!profile.early.empty()) {
        constexpr std::string_view kind = "started work before its window began";
        found.push_back({kind, untimed_problem(side, kind, profile.early.front().name, "began",
                                               profile.early.front().ns_before_window_start,
                                               "before the window's start", profile.early.size(),
                                               ", on a stream that does not wait for the bench's stream, so part of "
                                               "it ran untimed: launch on io.stream(), or make that stream wait for "
                                               "io.stream() (cudaEventRecord, then cudaStreamWaitEvent)")});
    }
    return found;
}

}  // namespace forge::bench
