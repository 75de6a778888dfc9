#include "runtime/host/vector_extensions.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string_view>

namespace forge::bench {

std::vector<std::string> cpu_vector_extensions() {
    constexpr std::array<std::string_view, 8> vector_prefixes{"sse", "avx",   "fma", "f16c",
                                                              "amx", "asimd", "sve", "sme"};
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (!line.starts_with("flags") && !line.starts_with("Features")) continue;
        std::vector<std::string> out;
        std::istringstream words(line.substr(line.find(':') + 1));
        for (std::string word; words >> word;) {
            if (std::any_of(vector_prefixes.begin(), vector_prefixes.end(),
                            [&](std::string_view prefix) { return word.starts_with(prefix); })) {
                out.push_back(word);
            }
        }
        return out;  // every CPU's line says the same on the machines this runs on
    }
    return {};
}

}  // namespace forge::bench
