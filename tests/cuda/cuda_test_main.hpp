// The main() of the CUDA tests: each skips (77) only when there is no CUDA
// device; a GPU CUDA cannot use (a driver too old for this runtime) fails,
// naming the error, as the benches do. Include after <boost/test/unit_test.hpp>
// with BOOST_TEST_NO_MAIN, in the test's one source that defines main().
#pragma once

#include <boost/test/unit_test.hpp>

#include <iostream>

#include "forge/exit_code.hpp"
#include "runtime/cuda/device_availability.hpp"
#include "runtime/runtime.hpp"

// `name` labels the message on standard error.
inline int run_cuda_tests(const char* name, int argc, char* argv[]) {
    namespace fb = forge::bench;
    try {
        fb::require_cuda_device(fb::ask_cuda_for_devices(), 0);
    } catch (const fb::BackendUnavailable& e) {
        std::cerr << name << ": " << e.what() << "\n";
        return forge::exit_code::skipped;
    } catch (const fb::BackendBroken& e) {
        std::cerr << name << ": " << e.what() << "\n";
        return 1;
    }
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
