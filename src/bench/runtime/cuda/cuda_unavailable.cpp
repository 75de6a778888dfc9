// The CUDA backend of a forge::bench built without CUDA (FORGE_ENABLE_CUDA=OFF).
#include "runtime/runtime.hpp"

namespace forge::bench {

std::unique_ptr<Runtime> make_cuda_runtime(int, std::string_view) {
    throw BackendUnavailable("this bench uses the CUDA backend, but forge::bench was built without CUDA "
                             "(configure with -DFORGE_ENABLE_CUDA=ON, e.g. the 'gpu' preset)");
}

}  // namespace forge::bench
