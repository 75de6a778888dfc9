#include <iostream>

#include "commands.hpp"
#include "forge/ctest/resource_spec.hpp"
#include "forge/exit_code.hpp"
#include "forge/io/file.hpp"

namespace forge::cli {

int run_resource_spec(const ResourceSpecOptions& options) {
    const std::size_t gpus = options.gpus ? static_cast<std::size_t>(*options.gpus) : count_visible_gpus();
    const std::string spec = gpu_resource_spec(gpus, static_cast<std::size_t>(options.slots)).dump(2) + '\n';
    if (options.out.empty()) std::cout << spec;
    else write_file_atomically(options.out, spec);
    return exit_code::ok;
}

}  // namespace forge::cli
