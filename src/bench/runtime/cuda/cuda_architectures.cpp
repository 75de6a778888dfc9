#include "runtime/cuda/cuda_architectures.hpp"

#include <charconv>
#include <vector>

namespace forge::bench {

namespace {

struct Architecture {
    int number = 0;         // major * 10 + minor, as in sm_90
    char variant = '\0';    // 'a' (this GPU only), 'f' (its family), or none
    bool sass = true;       // -real or plain: native code
    bool ptx = true;        // -virtual or plain: PTX the driver can JIT-compile
};

// One entry of CMake's list syntax, or nullopt when it is not one.
std::optional<Architecture> parse_entry(std::string_view entry) {
    Architecture architecture;
    if (entry.ends_with("-real")) {
        architecture.ptx = false;
        entry.remove_suffix(5);
    } else if (entry.ends_with("-virtual")) {
        architecture.sass = false;
        entry.remove_suffix(8);
    }
    if (!entry.empty() && (entry.back() == 'a' || entry.back() == 'f')) {
        architecture.variant = entry.back();
        entry.remove_suffix(1);
    }
    const auto [end, error] = std::from_chars(entry.data(), entry.data() + entry.size(), architecture.number);
    if (entry.empty() || error != std::errc{} || end != entry.data() + entry.size() || architecture.number < 10) {
        return std::nullopt;
    }
    return architecture;
}

bool sass_runs_on(const Architecture& a, int device) {
    if (!a.sass) return false;
    if (a.variant == 'a') return a.number == device;
    return a.number / 10 == device / 10 && a.number <= device;
}

bool ptx_runs_on(const Architecture& a, int device) {
    if (!a.ptx) return false;
    if (a.variant == 'a') return a.number == device;
    if (a.variant == 'f') return a.number / 10 == device / 10 && a.number <= device;
    return a.number <= device;
}

bool is_cmake_false(std::string_view text) {
    return text == "OFF" || text == "FALSE" || text == "NO" || text == "0";
}

}  // namespace

std::optional<std::string> architecture_notice(std::string_view architectures, int major, int minor) {
    if (architectures.empty() || architectures == "all" || architectures == "all-major" ||
        architectures == "native" || is_cmake_false(architectures)) {
        return std::nullopt;
    }
    const int device = major * 10 + minor;
    const std::string quoted = "'" + std::string(architectures) + "'";
    std::vector<Architecture> entries;
    for (std::string_view rest = architectures; !rest.empty();) {
        const std::size_t end = rest.find(';');
        const std::string_view entry = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        if (entry.empty()) continue;  // CMake allows "80;;90"
        const std::optional<Architecture> parsed = parse_entry(entry);
        if (!parsed) {
            return "the bench's CUDA architectures " + quoted + " are not CMake's CUDA_ARCHITECTURES syntax (entry '" +
                   std::string(entry) + "'), so whether it holds code for this GPU (compute capability " +
                   std::to_string(major) + "." + std::to_string(minor) + ") was not checked";
        }
        entries.push_back(*parsed);
    }
    const std::string gpu = "this GPU (compute capability " + std::to_string(major) + "." + std::to_string(minor) + ")";
    const std::string fix = "Rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(device) +
                            " (or add " + std::to_string(device) + " to the list).";
    const Architecture* ptx = nullptr;
    for (const Architecture& entry : entries) {
        if (sass_runs_on(entry, device)) return std::nullopt;
        if (ptx_runs_on(entry, device) && (ptx == nullptr || entry.number > ptx->number)) ptx = &entry;
    }
    if (ptx != nullptr) {
        const std::string variant = ptx->variant == '\0' ? "" : std::string(1, ptx->variant);
        return "the bench was built for CUDA architectures " + quoted + ", with no native code (SASS) for " + gpu +
               ": its kernels run PTX for compute_" + std::to_string(ptx->number) + variant +
               " that the driver JIT-compiles, not the code the compiler makes for sm_" + std::to_string(device) +
               ", while a library such as cuBLAS runs code built for this GPU: the times compare unlike builds. " + fix;
    }
    return "the bench was built for CUDA architectures " + quoted + ", with neither native code (SASS) nor PTX that " +
           gpu + " can run: its kernels cannot launch (cudaErrorNoKernelImageForDevice). " + fix;
}

}  // namespace forge::bench
