#include "forge/ctest/resource_spec.hpp"

#include <cstdlib>
#include <string_view>

namespace forge {

std::size_t count_visible_gpus(const std::filesystem::path& driver_dir) {
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        // The CUDA runtime stops at the first invalid entry; "-1" or "" hides every GPU.
        std::size_t count = 0;
        std::string_view rest{visible};
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            const std::string_view entry = rest.substr(0, comma);
            if (entry.empty() || entry.front() == '-') break;
            ++count;
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
        return count;
    }
    std::error_code ec;
    std::size_t count = 0;
    for (std::filesystem::directory_iterator it(driver_dir, ec), end; !ec && it != end; it.increment(ec)) {
        ++count;
    }
    return count;
}

nlohmann::json gpu_resource_spec(std::size_t gpus, std::size_t slots_per_gpu) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t id = 0; id < gpus; ++id) {
        list.push_back({{"id", std::to_string(id)}, {"slots", slots_per_gpu}});
    }
    return {{"version", {{"major", 1}, {"minor", 0}}}, {"local", nlohmann::json::array({{{"gpus", list}}})}};
}

}  // namespace forge
