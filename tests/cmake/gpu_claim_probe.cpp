// A stand-in for a CUDA bench in forge.cmake.gpu_sharing: takes the GPU CTest
// gave it (device 0 without a resource spec) the way the CUDA backend does, and
// logs when it held it.
//   forge_gpu_claim_probe LOCK_DIR LOG_FILE HOLD_MS
#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "runtime/cuda/gpu_choice.hpp"
#include "runtime/cuda/gpu_claim.hpp"

namespace {

long long now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char* argv[]) {
    if (argc != 4) {
        std::cerr << "usage: forge_gpu_claim_probe LOCK_DIR LOG_FILE HOLD_MS\n";
        return 2;
    }
    const int device = forge::bench::ctest_gpu_device();
    long long start = 0;
    long long end = 0;
    {
        const forge::bench::GpuClaim claim("fake-gpu-" + std::to_string(device), argv[1], std::cerr);
        start = now_ms();
        std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(argv[3])));
        end = now_ms();  // while the claim is still held: the next holder starts after it
    }
    // One line per run, appended whole: "<device> <start_ms> <end_ms>".
    std::ofstream(argv[2], std::ios::app) << device << " " << start << " " << end << "\n";
    return 0;
}
