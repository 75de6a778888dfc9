// The CUPTI callbacks of every API that launches kernels, runtime and driver: a
// runtime launch may or may not reach the driver's callbacks, and a library may
// call the driver directly, so both are subscribed; a name seen twice is one
// kernel. tests/cuda/cupti_launch_ids_test.cpp holds these lists to the header.
#pragma once

#include <cupti.h>

namespace forge::bench {

inline constexpr CUpti_CallbackId runtime_launch_callbacks[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
#if CUPTI_API_VERSION >= 130000
    // nvcc 13 compiles <<<...>>> to __cudaLaunchKernel, not cudaLaunchKernel.
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
#endif
};

inline constexpr CUpti_CallbackId driver_launch_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

// A graph's kernels are not named at its launch.
[[nodiscard]] constexpr bool is_graph_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id) noexcept {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        return id == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
               id == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000;
    }
    return id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

}  // namespace forge::bench
