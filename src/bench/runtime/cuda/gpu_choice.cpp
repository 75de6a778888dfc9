#include "runtime/cuda/gpu_choice.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace forge::bench {

int parse_gpu_allocation(std::string_view allocation) {
    const std::string_view first = allocation.substr(0, allocation.find(';'));
    for (std::size_t start = 0; start <= first.size();) {
        const std::size_t comma = std::min(first.find(',', start), first.size());
        const std::string_view field = first.substr(start, comma - start);
        if (field.starts_with("id:")) {
            const std::string_view id = field.substr(3);
            int device = -1;
            const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), device);
            if (error == std::errc() && end == id.data() + id.size() && device >= 0) return device;
            break;
        }
        start = comma + 1;
    }
    throw std::invalid_argument("CTEST_RESOURCE_GROUP_0_GPUS='" + std::string(allocation) +
                                "' names no GPU id (expected e.g. 'id:1,slots:1'); check the resource spec file");
}

int ctest_gpu_device() {
    const char* count = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
    if (count == nullptr || std::string_view(count).empty()) return 0;
    const char* gpus = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    if (gpus == nullptr) {
        throw std::invalid_argument("CTEST_RESOURCE_GROUP_COUNT is set but CTEST_RESOURCE_GROUP_0_GPUS is not: "
                                    "give the test RESOURCE_GROUPS gpus:1");
    }
    return parse_gpu_allocation(gpus);
}

}  // namespace forge::bench
